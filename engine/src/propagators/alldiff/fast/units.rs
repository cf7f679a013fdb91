//! # Many all-differents over shared variables, as one propagator
//!
//! **Enforces:** each *unit* — a list of variables — takes pairwise different values, and
//! reaches the same fixpoint as one domain-consistent all-different (`domain.rs`) per unit:
//! every value left in a variable has a support in each of its units. A Sudoku is 27 such
//! units over 81 cells; a Latin square, 2n units over n² cells.
//!
//! **Why one propagator for many constraints.** Posted one by one, the 27 all-differents of
//! a Sudoku talk through the engine: a removal in one is written to the store, recorded on
//! the trail, announced as an event, wakes the two other units of that cell, which are
//! queued, run, read the domains again, ... On a Sudoku more of the time went into that
//! traffic than into the algorithm. Here the
//! units talk inside the propagator, through an array of bitmasks: the domains are read once
//! per run, the units that a change concerns are marked, and what changed is written back
//! once per variable at the end. The pruning is unchanged, only its bookkeeping moves.
//!
//! **Order of work, cheapest first.** Régin's algorithm (`word_matching.rs`) reaches domain
//! consistency on a unit, but two cheaper rules find most of the same removals at a fraction
//! of the cost, so they run to their fixpoint before each Régin run:
//!
//! 1. **naked singles** (forward checking, on the transposed view): a variable with one
//!    value left removes it from every other variable of each of its units;
//! 2. **hidden singles**: when a unit has exactly as many values as variables (as a Sudoku
//!    row: nine cells, nine digits), every value must be used, so a value that only one
//!    variable can still take is that variable's value;
//! 3. **Régin** on one unit that changed since its last run (unless rules 1 and 2 already
//!    left it domain consistent: see `AllDifferentUnits::regin`); whatever it removes
//!    marks the other units of the variables concerned, and the loop goes back to step 1.
//!
//! The rules are sound and Régin alone is complete for one unit, so the loop stops at the
//! same fixpoint as the separate propagators (domain consistency on every unit: the fixpoint
//! of monotone pruning rules does not depend on their order). The tests check this against
//! the separate all-differents on random dives, and against brute force.
//!
//! **When it applies:** every variable's values fit in one 64-bit word from a common base
//! (span ≤ 64), there are at most [`MAX_UNITS`] units, and each has at most 64 variables,
//! none twice. `Model::all_different` (`engine/src/model/alldiff.rs`) posts separate all-differents
//! otherwise.
//!
//! **Wakes on:** any domain change. **Idempotent:** it runs its units to a fixpoint.
//! **Cost per run:** a read of the domains announced since the last run (after a
//! backtrack, from the copy of its state the propagator kept for the level it is back at:
//! see `LevelCopies` below), the rules above, one write per narrowed variable, and a copy of its
//! state at the end.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::domain::Event;
use crate::propagator::{
    Condition, Conflict, Context, EnqueueDecision, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::alldiff::domain::AllDifferentDomain;
use crate::propagators::alldiff::explain::UnitsReplay;
use crate::propagators::alldiff::fast::hall_pairs::{has_inner_hall_set, HALL_CHECK_MAX_OPEN};
use crate::propagators::alldiff::fast::holders::{Holders, PosStack};
use crate::propagators::alldiff::fast::level_copies::LevelCopies;
use crate::propagators::alldiff::fast::word_matching::WordMatching;
use crate::store::VarId;
use crate::unchecked::{PerVariable, Pos};
use crate::view::View;

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct AllDifferentUnits {
    /// The distinct variables of all units; a unit refers to them by position ([`Pos`]).
    vars: Vec<VarId>,
    /// Bit `k` of a mask stands for the value `base + k`.
    base: i32,
    /// The members of unit `u` are `members[unit_start[u]..unit_start[u + 1]]`.
    members: Vec<Pos>,
    unit_start: Vec<u32>,
    /// The variables sharing a unit with variable `i` (each once), as a set of variables:
    /// `words` words from `peer_sets[i * words]`, bit `j % 64` of word `j / 64` for `j`.
    peer_sets: Box<[u64]>,
    /// The units of each variable, as a set of units (bit `u` for unit `u`).
    units_of: PerVariable<UnitSet>,
    /// Régin's algorithm for each unit, with its matching kept between runs.
    matchings: Vec<WordMatching>,
    /// What a run works on.
    work: Work,
    /// Variables announced by `notify` since the last run, each once (`announced` is the
    /// same, as a set of variables).
    changed: Vec<u32>,
    announced: Vec<u64>,
    /// Look at everything (the first run, or a run from scratch).
    all_changed: bool,
    /// Whether announcements were dropped (`clear_pending`) since the last run.
    lost_announcements: bool,
    /// Whether `work.dom` still holds the store's domains as the last run left them, but
    /// for the variables announced since: true after a run that succeeded, as long as no
    /// domain changed silently (`Context::silent_changes` is still `seen_silent_changes`: no
    /// level popped, no change dropped) and no announcement was dropped (`clear_pending`).
    /// Then a run rereads only the announced variables, not all of them. When it is
    /// false, the run starts from `copies` if it can, and reads every domain if not.
    cache_valid: bool,
    seen_silent_changes: u64,
    /// The run's state as each successful run left it, one copy per open search level:
    /// after a backtrack the next run starts from the copy of the level it is back at.
    copies: LevelCopies,
}

/// The state of one run: the domains as bitmasks, and what is left to look at.
#[derive(Clone, Debug)]
struct Work {
    /// The domains as read at the start of the run, and as pruned since.
    read: PerVariable<u64>,
    dom: PerVariable<u64>,
    /// The variables narrowed in this run, each once (when first narrowed): what `store`
    /// writes back, instead of comparing every domain with what was read.
    narrowed: PosStack,
    /// Variables fixed during this run whose value has not yet left their peers. A variable
    /// enters it at most once per run (when it is read fixed, or when it becomes fixed).
    newly_fixed: PosStack,
    /// For each value, the variables whose domain (`dom`) holds it: the same facts as
    /// `dom`, read the other way, kept equal to it at every step.
    holders: Holders,
    /// Units to look at for hidden singles, and to run Régin on.
    hidden_dirty: UnitSet,
    regin_dirty: UnitSet,
    /// The number of open (unfixed) variables of each unit as its last hidden-single pass
    /// counted them, less one if the unit was tight. When Régin's turn comes for a unit,
    /// that pass saw its domains as they are (any change since would have marked it for
    /// another pass first), so a unit where this is at most two — two open variables, or
    /// three in a tight unit — is skipped without reading its domains again (see `regin`).
    open_less_tight: [u8; MAX_UNITS],
}

/// A set of units, one bit each: at most [`MAX_UNITS`].
type UnitSet = u128;

/// The most units one propagator takes (a 36×36 Sudoku has 108).
pub const MAX_UNITS: usize = 128;

impl Work {
    /// Narrow variable `i` to `mask` (a subset of its domain): its units need another look,
    /// and if one value is left, it must leave the peers. A conflict if none is left.
    #[inline(always)]
    fn narrow(&mut self, units_of_i: UnitSet, i: Pos, mask: u64) -> PropResult {
        if mask == self.dom.get(i) {
            return Ok(());
        }
        if mask == 0 {
            return Err(Conflict::new());
        }
        // Both pushes without a branch: which way they go is data, and a mispredicted
        // branch costs more than the store it would skip.
        self.narrowed
            .push_if(i, self.dom.get(i) == self.read.get(i));
        self.holders.toggle(i, self.dom.get(i) ^ mask);
        self.dom.set(i, mask);
        self.hidden_dirty |= units_of_i;
        self.regin_dirty |= units_of_i;
        self.newly_fixed.push_if(i, mask & (mask - 1) == 0);
        Ok(())
    }
}

impl AllDifferentUnits {
    /// The propagator for `units`, with values `base..base + 64`; `None` if a unit has more
    /// than 64 variables or holds a variable twice, or if there are more than [`MAX_UNITS`]
    /// units (the caller then posts them one by one).
    pub fn new(units: &[Vec<VarId>], base: i32) -> Option<AllDifferentUnits> {
        let mut vars: Vec<VarId> = units.iter().flatten().copied().collect();
        vars.sort_unstable();
        vars.dedup();
        let n = vars.len();
        if units.len() > MAX_UNITS {
            return None;
        }
        let index_of = |x: VarId| vars.binary_search(&x).expect("a unit's variable");

        let mut members = Vec::new();
        let mut unit_start = vec![0u32];
        let mut units_of: Vec<UnitSet> = vec![0; n];
        let words = n.div_ceil(64);
        let mut peer_sets = vec![0u64; n * words];
        for (u, unit) in units.iter().enumerate() {
            if unit.len() > 64 {
                return None;
            }
            let indices: Vec<usize> = unit.iter().map(|&x| index_of(x)).collect();
            for &i in &indices {
                if units_of[i] & 1 << u != 0 {
                    return None; // the same variable twice in a unit
                }
                units_of[i] |= 1 << u;
                members.push(Pos::new(i, n));
                for &j in indices.iter().filter(|&&j| j != i) {
                    peer_sets[i * words + j / 64] |= 1 << (j % 64);
                }
            }
            unit_start.push(members.len() as u32);
        }
        Some(AllDifferentUnits {
            base,
            members,
            unit_start,
            peer_sets: peer_sets.into_boxed_slice(),
            units_of: PerVariable::new(units_of),
            matchings: units.iter().map(|u| WordMatching::new(u.len())).collect(),
            work: Work {
                read: PerVariable::new(vec![0; n]),
                narrowed: PosStack::new(n),
                dom: PerVariable::new(vec![0; n]),
                newly_fixed: PosStack::new(n),
                holders: Holders::new(n),
                hidden_dirty: 0,
                regin_dirty: 0,
                open_less_tight: [0; MAX_UNITS],
            },
            changed: Vec::with_capacity(n),
            announced: vec![0; n.div_ceil(64)],
            all_changed: true,
            lost_announcements: false,
            cache_valid: false,
            seen_silent_changes: 0,
            copies: LevelCopies::default(),
            vars,
        })
    }

    /// Rule 1 for every variable fixed so far in this run: forward checking, the rule of
    /// `../reference.rs`, on the transposed view. The holders of a fixed variable's value
    /// are found a word of variables at a time, with no branch per variable, as those of its
    /// peers that [`Holders`] lists for the value (about one in six); each loses the value as
    /// `Work::narrow` would narrow it, less its test for no change, and the holders leave the
    /// value's set in one step per word. The units to look at are marked once per fixed
    /// variable.
    fn naked_singles(&mut self) -> PropResult {
        let work = &mut self.work;
        let (n, words) = (self.vars.len(), work.holders.words);
        while let Some(i) = work.newly_fixed.pop() {
            let value = work.dom.get(i);
            let mut dirty: UnitSet = 0;
            for w in 0..words {
                let holding = work.holders.word(value, w) & self.peer_sets[i.index() * words + w];
                let mut rest = holding;
                while rest != 0 {
                    // `peer_sets` has bits for variables only: below `n`.
                    let j = Pos::from_known(w * 64 + rest.trailing_zeros() as usize, n);
                    let d = work.dom.get(j);
                    let mask = d & !value; // a strict subset: `j` holds `value`
                    if mask == 0 {
                        // Those before `j` lost it: keep `holders` equal to `dom`.
                        work.holders.remove_all(value, w, holding & !rest);
                        return Err(Conflict::new());
                    }
                    work.narrowed.push_if(j, d == work.read.get(j));
                    work.dom.set(j, mask);
                    dirty |= self.units_of.get(j);
                    work.newly_fixed.push_if(j, mask & (mask - 1) == 0);
                    rest &= rest - 1;
                }
                work.holders.remove_all(value, w, holding);
            }
            work.hidden_dirty |= dirty;
            work.regin_dirty |= dirty;
        }
        Ok(())
    }

    /// Rule 2 on unit `u`.
    fn hidden_singles(&mut self, u: usize) -> PropResult {
        let members = &self.members[self.unit_start[u] as usize..self.unit_start[u + 1] as usize];
        let dom = &self.work.dom;
        // The values held by at least one, by at least two variables; the fixed ones' values.
        let mut once = 0u64;
        let mut twice = 0u64;
        let mut taken = 0u64;
        for &i in members {
            let d = dom.get(i);
            twice |= once & d;
            once |= d;
            if d & d.wrapping_sub(1) == 0 {
                taken |= d;
            }
        }
        let count = members.len() as u32;
        if once.count_ones() < count {
            return Err(Conflict::new()); // fewer values than variables
        }
        // The fixed members hold different values (naked singles are at their fixpoint).
        let open = count - taken.count_ones();
        let tight = once.count_ones() == count;
        self.work.open_less_tight[u % MAX_UNITS] = open.saturating_sub(tight as u32) as u8;
        let hidden = once & !twice & !taken;
        if once.count_ones() > count || hidden == 0 {
            return Ok(()); // values to spare (none has to be used), or no hidden single
        }
        for &j in members {
            let single = self.work.dom.get(j) & hidden;
            if single != 0 {
                if single & (single - 1) != 0 {
                    return Err(Conflict::new()); // two values only this variable can take
                }
                self.work.narrow(self.units_of.get(j), j, single)?;
            }
        }
        Ok(())
    }

    /// Rule 3 on unit `u`, skipped when rules 1 and 2 (at their fixpoint when Régin runs)
    /// already leave the unit domain consistent:
    ///
    /// * at most two open variables: each has two values or more, so whichever value one
    ///   takes, the other has one left;
    /// * in a *tight* unit (as many values as variables), when no *inner Hall set* exists
    ///   (with three open variables there is no size one could have, so such a unit is
    ///   skipped on the hidden-single pass's count alone, as the first case is):
    ///   see [`has_inner_hall_set`], which says why that is exact. It looks at pairs, which
    ///   is enough for at most [`HALL_CHECK_MAX_OPEN`] open variables; with more, Régin
    ///   runs.
    fn regin(&mut self, u: usize) -> PropResult {
        if self.work.open_less_tight[u % MAX_UNITS] <= 2 {
            // Consistent (see above), known from the hidden-single pass alone.
            self.work.hidden_dirty &= !(1 << u);
            self.work.regin_dirty &= !(1 << u);
            return Ok(());
        }
        let members = &self.members[self.unit_start[u] as usize..self.unit_start[u + 1] as usize];
        let masks = self.matchings[u].masks_mut();
        let mut open = 0u64;
        let mut union = 0u64;
        for (k, (mask, &i)) in masks.iter_mut().zip(members).enumerate() {
            let d = self.work.dom.get(i);
            *mask = d;
            union |= d;
            open |= ((d & d.wrapping_sub(1) != 0) as u64) << k;
        }
        let tight = union.count_ones() as usize == members.len();
        let open_count = open.count_ones();
        let consistent = if tight && open_count <= HALL_CHECK_MAX_OPEN {
            !has_inner_hall_set(masks, open)
        } else {
            open_count <= 2
        };
        if !consistent && self.matchings[u].prune_open(open)? {
            let masks = self.matchings[u].masks_mut();
            for (&mask, &j) in masks.iter().zip(members) {
                self.work.narrow(self.units_of.get(j), j, mask)?;
            }
        }
        // Régin's result is its own fixpoint (hidden singles included): only the other
        // units need a look.
        self.work.hidden_dirty &= !(1 << u);
        self.work.regin_dirty &= !(1 << u);
        Ok(())
    }

    /// The rules, cheapest first, until no unit has anything left to do.
    fn run_to_fixpoint(&mut self) -> PropResult {
        loop {
            loop {
                self.naked_singles()?;
                match pop_last(&mut self.work.hidden_dirty) {
                    Some(u) => self.hidden_singles(u)?,
                    None => break,
                }
            }
            match pop_last(&mut self.work.regin_dirty) {
                Some(u) => self.regin(u)?,
                None => return Ok(()),
            }
        }
    }

    /// Read the domains: when the last run's copy is still good (`cache_valid`), or after a
    /// backtrack from the copy of a level still open (`copies`), only those `notify`
    /// announced; otherwise every one. Mark what they concern (or everything, from scratch
    /// or when announcements were lost).
    fn load(&mut self, ctx: &Context<'_>) {
        let domains = ctx.domains();
        let incremental = self.cache_valid
            && !self.all_changed
            && ctx.silent_changes() == self.seen_silent_changes;
        let restored = !incremental
            && !self.all_changed
            && self.copies.restore(
                ctx,
                self.work.dom.as_mut_slice(),
                self.work.read.as_mut_slice(),
                self.work.holders.in_use_mut(),
            );
        if !incremental && !restored && self.lost_announcements {
            // Variables changed that nobody announced: look at everything.
            self.all_changed = true;
        }
        self.lost_announcements = false;
        let work = &mut self.work;
        if incremental || restored {
            for &i in &self.changed {
                let i = Pos::new(i as usize, self.vars.len());
                let mask = domains[self.vars[i.index()].index()].mask_from(self.base);
                work.read.set(i, mask);
                work.holders.toggle(i, work.dom.get(i) ^ mask);
                work.dom.set(i, mask);
            }
        } else {
            let mut union = 0;
            for (k, &x) in self.vars.iter().enumerate() {
                let i = Pos::new(k, self.vars.len());
                let mask = domains[x.index()].mask_from(self.base);
                work.read.set(i, mask);
                work.holders.toggle(i, work.dom.get(i) ^ mask);
                work.dom.set(i, mask);
                union |= mask;
            }
            if work.holders.cover(union) {
                self.copies.clear(); // taken with fewer values' sets than are needed now
            }
        }
        work.newly_fixed.clear();
        work.narrowed.clear();
        if self.all_changed {
            self.all_changed = false;
            self.changed.clear();
            self.announced.fill(0);
            let units = self.unit_start.len() - 1;
            let all = if units == MAX_UNITS {
                UnitSet::MAX
            } else {
                (1 << units) - 1
            };
            work.hidden_dirty = all;
            work.regin_dirty = all;
            for i in 0..self.vars.len() {
                let i = Pos::new(i, self.vars.len());
                let d = work.dom.get(i);
                if d & d.wrapping_sub(1) == 0 {
                    work.newly_fixed.push_if(i, true);
                }
            }
        } else {
            while let Some(i) = self.changed.pop() {
                let i = Pos::new(i as usize, self.vars.len());
                work.hidden_dirty |= self.units_of.get(i);
                work.regin_dirty |= self.units_of.get(i);
                let d = work.dom.get(i);
                if d & d.wrapping_sub(1) == 0 {
                    work.newly_fixed.push_if(i, true);
                }
            }
            self.announced.fill(0);
        }
    }

    /// Write back what the run removed, once per narrowed variable. A domain that is one word in
    /// the propagator's own layout (every Sudoku cell) takes the store's one-word path: the
    /// removed bits are known to be in it, so nothing is tested again.
    fn store(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let work = &self.work;
        for &i in work.narrowed.as_slice() {
            let (dom, read, x) = (work.dom.get(i), work.read.get(i), self.vars[i.index()]);
            match ctx.domain(x).as_word() {
                Some((offset, _)) if offset == self.base => {
                    ctx.remove_present_bits(x, read & !dom)?;
                }
                _ => {
                    ctx.intersect_mask(x, self.base, dom)?;
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.load(ctx);
        self.cache_valid = false;
        debug_assert!(
            self.work.holders.agree_with(&self.work.dom),
            "holders after load"
        );
        let result = self.run_to_fixpoint();
        self.work.hidden_dirty = 0;
        self.work.regin_dirty = 0;
        debug_assert!(
            self.work.holders.agree_with(&self.work.dom),
            "holders after the rules"
        );
        result?;
        self.store(ctx)?;
        // The store now holds `dom`: it is what the next run starts from.
        let work = &mut self.work;
        for &i in work.narrowed.as_slice() {
            work.read.set(i, work.dom.get(i));
        }
        self.cache_valid = true;
        self.seen_silent_changes = ctx.silent_changes();
        self.copies
            .save(ctx, self.work.dom.as_slice(), self.work.holders.in_use());
        Ok(())
    }
}

/// Take the unit with the highest number out of a set: the last units a model lists are
/// looked at first. On a Sudoku (rows, then columns, then boxes) that is boxes first, which
/// takes fewer instructions than the lowest first (`docs/performance/views.md`, "Why the fast lanes look as they do"): the order does not change the fixpoint, only how much work reaching it takes,
/// and on a 17-clue grid the root propagation is most of the work.
#[inline]
fn pop_last(set: &mut UnitSet) -> Option<usize> {
    // One 64-bit half at a time: a `u128`'s leading zeros and variable shift cost several
    // instructions each, and most models (a Sudoku: 27 units) have no high half.
    let (high, low) = ((*set >> 64) as u64, *set as u64);
    if high != 0 {
        let b = 63 - high.leading_zeros();
        *set = ((high ^ 1 << b) as UnitSet) << 64 | low as UnitSet;
        Some(64 + b as usize)
    } else if low != 0 {
        let b = 63 - low.leading_zeros();
        *set = (low ^ 1 << b) as UnitSet;
        Some(b as usize)
    } else {
        None
    }
}

impl AllDifferentUnits {
    /// The positions (in `vars`) of each unit's variables.
    fn unit_positions(&self) -> Vec<Vec<usize>> {
        (self.unit_start.windows(2))
            .map(|w| {
                self.members[w[0] as usize..w[1] as usize]
                    .iter()
                    .map(|p| p.index())
                    .collect()
            })
            .collect()
    }
}

impl Propagator for AllDifferentUnits {
    fn name(&self) -> &'static str {
        "alldiff_units"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.vars, Condition::Domain)
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// The reference: Régin's domain-consistent all-different (`domain.rs`) on each unit
    /// in turn, until a full round changes nothing.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let units: Vec<Vec<View>> = self
            .unit_start
            .windows(2)
            .map(|w| {
                self.members[w[0] as usize..w[1] as usize]
                    .iter()
                    .map(|p| View::from(self.vars[p.index()]))
                    .collect()
            })
            .collect();
        let total = |ctx: &Context<'_>| self.vars.iter().map(|&x| ctx.size(x) as u64).sum::<u64>();
        loop {
            let before = total(ctx);
            for unit in &units {
                AllDifferentDomain::general(unit).propagate_from_scratch(ctx)?;
            }
            if total(ctx) == before {
                return Ok(());
            }
        }
    }
    /// Each unit's Hall sets, replayed from the inputs (`alldiff/explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        UnitsReplay::run(&self.unit_positions(), &self.vars, inputs)
            .is_some_and(|r| r.explain(atom, reason))
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        UnitsReplay::run(&self.unit_positions(), &self.vars, inputs)
            .is_some_and(|r| r.explain_failure(reason))
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.all_changed = true;
        self.run(ctx)
    }
    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        let bit = 1 << (local % 64);
        if !self.all_changed && self.announced[local / 64] & bit == 0 {
            self.announced[local / 64] |= bit;
            self.changed.push(local as u32);
        }
        EnqueueDecision::Enqueue
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.run(ctx)
    }
    fn clear_pending(&mut self) {
        self.changed.clear();
        self.announced.fill(0);
        // What was announced is lost. A search closes the level it was lost at, and the
        // next run starts from the copy of a level below (see `LevelCopies::restore`);
        // otherwise the next run starts from scratch.
        self.cache_valid = false;
        self.lost_announcements = true;
    }
}

#[cfg(test)]
mod tests {
    use super::{has_inner_hall_set, pop_last, Pos, PosStack, UnitSet, HALL_CHECK_MAX_OPEN};
    use crate::rng::Rng;

    /// Every subset of the open positions, counted directly.
    fn inner_hall_set_by_brute_force(masks: &[u64], open: u64) -> bool {
        let positions: Vec<usize> = (0..64).filter(|&k| open >> k & 1 != 0).collect();
        let m = positions.len();
        (1u32..1 << m).any(|s| {
            let size = s.count_ones() as usize;
            let union = (0..m)
                .filter(|&b| s >> b & 1 != 0)
                .fold(0u64, |acc, b| acc | masks[positions[b]]);
            size >= 2 && size + 2 <= m && union.count_ones() as usize == size
        })
    }

    #[test]
    fn pop_last_takes_every_unit_highest_first() {
        let mut rng = Rng::new(11);
        for round in 0..2_000 {
            // Sets in either half or both (more than 64 units only in the high half).
            let low = if round % 3 == 0 {
                0
            } else {
                rng.below(u64::MAX)
            };
            let high = if round % 3 == 1 {
                0
            } else {
                rng.below(u64::MAX)
            };
            let mut set = (high as UnitSet) << 64 | low as UnitSet;
            let expected: Vec<usize> = (0..128).rev().filter(|&u| set >> u & 1 != 0).collect();
            let mut taken = Vec::new();
            while let Some(u) = pop_last(&mut set) {
                taken.push(u);
            }
            assert_eq!(taken, expected);
            assert_eq!(set, 0);
        }
    }

    #[test]
    fn pos_stack_pushes_what_a_vec_would_and_only_that() {
        let mut rng = Rng::new(17);
        for _ in 0..500 {
            let n = 1 + rng.below(20) as usize;
            let mut stack = PosStack::new(n);
            let mut model: Vec<u32> = Vec::new();
            // Each position offered once, pushed or not at random, pops mixed in; as in the
            // propagator, no position is pushed twice between two `clear`s.
            for i in 0..n {
                let really = rng.below(2) == 0;
                stack.push_if(Pos::new(i, n), really);
                if really {
                    model.push(i as u32);
                }
                if rng.below(4) == 0 {
                    assert_eq!(stack.pop().map(|p| p.index() as u32), model.pop());
                }
                let listed: Vec<u32> = stack.as_slice().iter().map(|p| p.index() as u32).collect();
                assert_eq!(listed, model);
            }
            while let Some(p) = stack.pop() {
                assert_eq!(Some(p.index() as u32), model.pop());
            }
            assert!(model.is_empty());
            stack.clear();
            assert!(stack.as_slice().is_empty());
        }
    }

    #[test]
    fn with_four_open_the_pair_test_is_exact_on_any_domains() {
        // With four open variables the only size to look at is two, and a pair is a Hall
        // set exactly when its union has two values: no precondition needed.
        let mut rng = Rng::new(5);
        let mut found = [0, 0];
        for _ in 0..20_000 {
            let n = 1 + rng.below(9) as usize;
            let values = 2 + rng.below(7);
            let masks: Vec<u64> = (0..n).map(|_| rng.below(1 << values)).collect();
            // Open positions: any subset of at most four of them.
            let mut open = 0u64;
            for k in 0..n {
                if open.count_ones() < 4 && rng.below(3) != 0 {
                    open |= 1 << k;
                }
            }
            let expected = inner_hall_set_by_brute_force(&masks, open);
            assert_eq!(
                has_inner_hall_set(&masks, open),
                expected,
                "{masks:?} {open:b}"
            );
            found[expected as usize] += 1;
        }
        assert!(
            found[0] > 1000 && found[1] > 1000,
            "both answers tested: {found:?}"
        );
    }

    /// A random unit as Régin's turn finds it: `n` variables, `m` of them open with two or
    /// more of the unit's free values each, every free value held by two open variables or
    /// more (no hidden single), the others fixed to the remaining values (no naked single
    /// left: their values are in no open domain). `None` when the draw misses that.
    fn unit_at_the_singles_fixpoint(rng: &mut Rng, n: usize, m: usize) -> Option<(Vec<u64>, u64)> {
        // The values 0..n in a random order: the first m are the open variables' values.
        let mut values: Vec<u64> = (0..n as u64).collect();
        rng.shuffle(&mut values);
        let free: u64 = values[..m].iter().fold(0, |acc, &v| acc | 1 << v);
        let mut positions: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut positions);
        let mut masks = vec![0u64; n];
        let mut open = 0u64;
        for (k, &p) in positions.iter().enumerate() {
            if k < m {
                // A random subset of the free values, by one coin per value.
                masks[p] = values[..m]
                    .iter()
                    .filter(|_| rng.below(2) == 0)
                    .fold(0, |acc, &v| acc | 1 << v);
                open |= 1 << p;
            } else {
                masks[p] = 1 << values[k];
            }
        }
        let open_masks = || (0..n).filter(|&p| open >> p & 1 != 0).map(|p| masks[p]);
        let each_open_has_two = open_masks().all(|d| d.count_ones() >= 2);
        let each_value_held_twice = values[..m]
            .iter()
            .all(|&v| open_masks().filter(|d| d >> v & 1 != 0).count() >= 2);
        let union = open_masks().fold(0, |acc, d| acc | d);
        (each_open_has_two && each_value_held_twice && union == free).then_some((masks, open))
    }

    #[test]
    fn at_the_singles_fixpoint_the_pair_test_finds_inner_hall_sets_as_brute_force_does() {
        let mut rng = Rng::new(7);
        let mut found = [[0; 2]; 2];
        let mut units = 0;
        while units < 20_000 {
            let m = 4 + rng.below(2) as usize; // four or five open
            let n = m + rng.below(10 - m as u64) as usize; // up to nine variables
            let Some((masks, open)) = unit_at_the_singles_fixpoint(&mut rng, n, m) else {
                continue;
            };
            units += 1;
            let expected = inner_hall_set_by_brute_force(&masks, open);
            assert_eq!(
                has_inner_hall_set(&masks, open),
                expected,
                "{masks:?} {open:b}"
            );
            found[m - 4][expected as usize] += 1;
        }
        assert!(
            found.iter().flatten().all(|&count| count > 400),
            "both answers tested, with four and with five open: {found:?}"
        );
        assert_eq!(
            HALL_CHECK_MAX_OPEN, 5,
            "the test covers every size the skip takes"
        );
    }
}
