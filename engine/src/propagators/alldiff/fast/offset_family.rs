//! # A family of offset all-differents over the same variables, by forward checking
//!
//! **Enforces:** for each family `k`, the values `xᵢ + cₖᵢ` are all different — several
//! all-differents over the *same* variables, each with its own constants. n-queens is the
//! example: one variable per column `i` (the queen's row), three families, `c = 0` (rows),
//! `c = +i` and `c = −i` (the two diagonals). When `xᵢ` is fixed to `v`, each family `k`
//! removes from every other `xⱼ` the one value that would show the same, `v + cₖᵢ − cₖⱼ`.
//!
//! **The same pruning as one `value.rs` per family, plus a pigeonhole check.** Forward
//! checking for a family removes exactly the values that collide with a fixed variable in
//! that family; doing it for every family removes the union of those values. One more rule
//! runs when some family is *constant* (every variable has the same offset: n-queens' rows)
//! and the word path is taken: the open variables must show as many different values in
//! that family as there are of them, so fewer values in the union of their domains is a
//! failure, and when there are exactly as many, a value only one variable holds goes to it
//! (`check_pigeonhole`). That is the cheapest part of a Hall-set argument, one set only (all
//! the open variables), and a few word operations per variable, and it spares n-queens many
//! nodes. The propagator then wakes on every removal, not only on fixing, so that it
//! reaches the fixpoint of its rules whatever the search removed. Its result is the largest
//! domains closed under these rules (there is only one). The tests check it: random dives
//! end with the same domains as one `value.rs` per family plus the pigeonhole rule written
//! plainly over all the variables, or fail on the same steps.
//!
//! **Why one propagator instead of several.** The work per fixed variable is the same, but
//! the engine's share is not. With `K` separate propagators each fixed variable wakes `K`
//! of them (`K` notifications, `K` queue entries, `K` runs), each scans the open variables
//! and removes *its* value with its own `Store::remove` (a trail entry and an event each).
//! Here a fixed variable wakes one propagator once; for each open variable `j` it builds one
//! bitmask of the (up to `K`) values attacked, and removes them all with one word operation
//! (`Store::remove_bits`, through its variant for a caller that has just checked the word,
//! `remove_present_bits`: the domain is saved on the trail once, one event is recorded).
//!
//! **One word per domain.** When every domain spans at most 64 values (checked once per
//! from-scratch run; a domain's layout never changes) the attacked value of family `k` is
//! bit `v + cₖᵢ − bₖⱼ` of `xⱼ`'s word, where `bₖⱼ = cₖⱼ + (value of bit 0 of xⱼ)` is computed
//! in advance; a bit number outside `0..64` is a value the domain cannot hold and is simply
//! dropped. The shown value `v + cₖᵢ` itself is `bₖᵢ + t`, `t` being the bit of `v` in the
//! fixed variable's word: the closed slot carries all it needs. The scan over the open
//! variables is branch-free: it ORs the attacked bits of each family into a mask, tests the
//! mask against the domain word, and records the variables that lose something in a bitmask
//! (as in `value.rs`, where the reason is explained: which variables still hold the values
//! is unpredictable, so a branch per variable mispredicts). Only those variables are then
//! touched. The word path takes at most 64 variables (one bit each in that bitmask, and one
//! block of slots, with no loop over blocks to set up).
//! Wider domains, or more variables, take a plain path: `contains` and `remove` for each
//! family.
//!
//! **Open positions.** As in `value.rs`, a variable whose fixed value has been removed from
//! all others is *closed*: it never needs looking at again below this node. The open ones
//! are kept in a reversible sparse set, and both paths are the forward checking of
//! `singles.rs` (`OpenPositions::forward_check`), shared with `value.rs`: that lane is this
//! one with a single family and no pigeonhole check.
//!
//! **Wakes on:** fixed; any removal when a family is constant. **Idempotent:** a variable
//! fixed by the removals is handled in the same run. **Cost:** O(K · open variables) per
//! newly fixed variable, plus O(open variables) for the pigeonhole check. Entailed when every
//! variable is closed. `propagate_from_scratch` handles every fixed variable: the tests'
//! reference.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::domain::Event;
use crate::propagator::{
    Condition, Conflict, Context, EnqueueDecision, PostContext, PropResult, Propagator,
    Subscription,
};
use crate::propagators::alldiff::explain::FamilyReplay;
use crate::propagators::alldiff::fast::singles::{OpenPositions, Slot, BLOCK};
use crate::propagators::alldiff::reference;
use crate::store::VarId;
use crate::view::View;

/// The word path handles up to this many families, each slot carrying its `bit0` values in a
/// fixed array (so the loop over the families has a fixed length and is unrolled); with more
/// families (never seen in a puzzle) the plain path is taken.
const MAX_WORD_FAMILIES: usize = 4;

/// The family the pigeonhole check counts values in: a constant family, `k`, and the least
/// `bit0[k]` of the slots, `base`. Bit `t` of a variable's word shows the value
/// `bit0[k] + t`: bit `bit0[k] − base + t` of a 128-bit set that every variable's word,
/// shifted, lines up in.
#[derive(Clone, Copy, Debug)]
struct PigeonholeFamily {
    k: usize,
    base: i64,
    /// Some shift is not 0. When none is (n-queens), the union is counted in one word:
    /// a 128-bit shift by a variable amount is several instructions, on every run.
    shifted: bool,
}

#[derive(Clone, Debug)]
pub struct AllDifferentOffsetFamily {
    xs: Vec<VarId>,
    /// Number of families, `K`.
    families: usize,
    /// `shifts[i * K + k]`: the constant `cₖᵢ` added to variable `i` in family `k`.
    shifts: Vec<i32>,
    /// The families as given (the views), for the reference.
    family_views: Vec<Vec<View>>,
    /// The variables, the open ones first. The word path (at most 64 variables) takes them
    /// as one whole block, `[Slot; 64]`, which it indexes with a bit number and no bounds
    /// check.
    open: OpenPositions<MAX_WORD_FAMILIES>,
    /// Every domain fits in one word (and there are at most `MAX_WORD_FAMILIES` families),
    /// so the slots' `bit0` are valid.
    one_word: bool,
    /// The first family with the same offset for every variable (n-queens' rows), if any.
    /// Known at construction, so that `subscriptions` can ask to hear of every removal.
    /// (Any other constant family differs from it by a constant, so it would count the
    /// same values.)
    constant_family: Option<usize>,
    /// When the pigeonhole check runs (`check_pigeonhole`): `one_word`, and a constant
    /// family whose shown values fit, all variables together, in 128 bits. Set by
    /// `propagate_from_scratch`.
    pigeonhole: Option<PigeonholeFamily>,
    /// A domain lost values without being fixed since the last run, and the pigeonhole
    /// check runs: it is due even if no variable was fixed.
    recheck: bool,
}

impl AllDifferentOffsetFamily {
    /// Family `k` is `families[k]`: views `xᵢ + cₖᵢ` (scale 1) of the same variables `xᵢ`,
    /// in the same order, in every family.
    pub fn new(families: &[Vec<View>]) -> AllDifferentOffsetFamily {
        assert!(!families.is_empty(), "a family of all-differents needs one");
        let xs: Vec<VarId> = families[0].iter().map(|x| x.var()).collect();
        let n = xs.len();
        let k_count = families.len();
        assert!(
            families.iter().all(|f| f.len() == n
                && f.iter()
                    .zip(&xs)
                    .all(|(v, &x)| v.var() == x && v.is_shift())),
            "every family shows the same variables, each shifted by a constant"
        );
        let mut shifts = vec![0; n * k_count];
        for (k, family) in families.iter().enumerate() {
            for (i, view) in family.iter().enumerate() {
                shifts[i * k_count + k] = view.offset();
            }
        }
        AllDifferentOffsetFamily {
            family_views: families.to_vec(),
            families: k_count,
            open: OpenPositions::new(&xs, k_count, shifts.clone()),
            shifts,
            one_word: false,
            constant_family: (families.iter())
                .position(|f| f.windows(2).all(|w| w[0].offset() == w[1].offset())),
            xs,
            pigeonhole: None,
            recheck: false,
        }
    }

    /// Handle the fixed variables in `open.pending`, and any that this fixes in turn.
    /// The pigeonhole check runs if a domain changed: a variable was fixed, or `recheck`.
    fn process_pending(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let mut count = self.open.open_count(ctx);
        // The layout as a constant in each call, rather than a test of `one_word` per round.
        if self.one_word {
            let mut fixed_any = std::mem::take(&mut self.recheck);
            loop {
                let left = self.open.forward_check(ctx, count, true)?;
                fixed_any |= left < count;
                count = left;
                let Some(family) = self.pigeonhole else { break };
                if !fixed_any || count == 0 {
                    break;
                }
                // The check fixes variables only when it finds a value that must go to one;
                // they are then checked forward, and the check runs again.
                fixed_any = self.check_pigeonhole(ctx, count, family)?;
            }
        } else {
            count = self.open.forward_check(ctx, count, false)?;
        }
        self.open.save_count(ctx, count);
        if count == 0 {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// The pigeonhole check of a constant family (`pigeonhole`). The `count` open variables
    /// must show `count` different values in it: values that no closed variable shows, since
    /// forward checking has removed those from their domains. So if the union of their
    /// shown values has fewer, the node fails; if it has exactly `count`, every one of them
    /// is needed, and a value only one variable holds goes to that variable (a *hidden
    /// single*). Two sets, `once` and `twice`, count each value's holders up to two in one
    /// pass. Returns whether it fixed a variable.
    ///
    /// Out of line: inlined, it saved nothing measurable, and apart the scan around it reads
    /// more simply in a profile.
    #[inline(never)]
    fn check_pigeonhole(
        &mut self,
        ctx: &mut Context<'_>,
        count: usize,
        family: PigeonholeFamily,
    ) -> Result<bool, Conflict> {
        // The slot's word moved to where its values are in the 128-bit sets.
        let shift = |slot: &Slot<MAX_WORD_FAMILIES>| (slot.bit0[family.k] - family.base) as u32;
        let domains = ctx.domains();
        let open = &self.open.slots()[..count];
        let (once, twice) = if family.shifted {
            let (mut once, mut twice) = (0u128, 0u128);
            for slot in open {
                let shown = (domains[slot.var.index()].first_word() as u128) << shift(slot);
                twice |= once & shown;
                once |= shown;
            }
            (once, twice)
        } else {
            let (mut once, mut twice) = (0u64, 0u64);
            for slot in open {
                let shown = domains[slot.var.index()].first_word();
                twice |= once & shown;
                once |= shown;
            }
            (once as u128, twice as u128)
        };
        let values = once.count_ones() as usize;
        if values < count {
            return Err(Conflict::new());
        }
        let singles = once & !twice;
        if values > count || singles == 0 {
            return Ok(false);
        }
        for at in 0..count {
            let slot = self.open.slots()[at];
            let word = ctx.domain(slot.var).first_word();
            let needed = word & (singles >> shift(&slot)) as u64;
            if needed == 0 {
                continue;
            }
            // Two values that only this variable holds: it cannot take both.
            if needed & (needed - 1) != 0 {
                return Err(Conflict::new());
            }
            // An open variable is not fixed (it would have been closed), so `word` holds
            // more than `needed`.
            if ctx.remove_present_bits(slot.var, word & !needed)? == Event::Fixed {
                self.open.pending.push(slot.position);
            }
        }
        Ok(true)
    }

    /// The family for the pigeonhole check, if any: the constant family, when its slots'
    /// `bit0` lie less than 64 apart (each word, shifted by at most 63, fits in 128 bits).
    /// Needs the slots' `bit0`, so `one_word`.
    /// The offset of the constant family whose pigeonhole check the word path runs, read
    /// from the current domains (their layout never changes): the reference's condition.
    fn reference_pigeonhole(&self, ctx: &Context<'_>) -> Option<i32> {
        let (n, k_count) = (self.xs.len(), self.families);
        let k = self.constant_family?;
        if !(1..=MAX_WORD_FAMILIES).contains(&k_count) || n > BLOCK {
            return None;
        }
        let mut bit0s = Vec::with_capacity(n);
        for (i, &x) in self.xs.iter().enumerate() {
            let (first, _) = ctx.domain(x).as_word()?;
            bit0s.push(first as i64 + self.shifts[i * k_count + k] as i64);
        }
        let base = bit0s.iter().min()?;
        let top = bit0s.iter().max()?;
        (top - base < 64).then_some(self.shifts[k])
    }

    fn pigeonhole_family(&self) -> Option<PigeonholeFamily> {
        let k = self.constant_family.filter(|_| self.one_word)?;
        let slots = self.open.slots();
        let base = slots.iter().map(|s| s.bit0[k]).min()?;
        let top = slots.iter().map(|s| s.bit0[k]).max()?;
        (top - base < 64).then_some(PigeonholeFamily {
            k,
            base,
            shifted: top != base,
        })
    }
}

impl Propagator for AllDifferentOffsetFamily {
    fn name(&self) -> &'static str {
        "alldiff_value_family"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        // With a constant family, every removal: a domain that shrinks without being fixed
        // can leave the family's values too few, or one of them to a single holder.
        let condition = if self.constant_family.is_some() {
            Condition::Domain
        } else {
            Condition::Fixed
        };
        Subscription::all(&self.xs, condition)
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn notify(&mut self, local: usize, event: Event) -> EnqueueDecision {
        if event == Event::Fixed {
            self.open.pending.push(local as u32);
            return EnqueueDecision::Enqueue;
        }
        // Values removed without fixing: only the pigeonhole check can use that.
        self.recheck |= self.pigeonhole.is_some();
        if self.pigeonhole.is_some() {
            EnqueueDecision::Enqueue
        } else {
            EnqueueDecision::Skip
        }
    }
    fn clear_pending(&mut self) {
        self.open.pending.clear();
        self.recheck = false;
    }
    fn register(&mut self, post: &mut PostContext<'_>) {
        self.open.register(post);
    }
    /// The reference: forward checking for every family, and the pigeonhole rule on the
    /// constant family when the word path would run it, until nothing changes.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let pigeonhole: Option<Vec<View>> =
            (self.reference_pigeonhole(ctx)).map(|c| self.xs.iter().map(|&x| x.plus(c)).collect());
        loop {
            let mut changed = false;
            for family in &self.family_views {
                changed |= reference::forward_check(ctx, family)?;
            }
            if let Some(constant_family) = &pigeonhole {
                changed |= reference::pigeonhole(ctx, constant_family)?;
            }
            if !changed {
                break;
            }
        }
        if self.xs.iter().all(|&x| ctx.is_fixed(x)) {
            ctx.set_entailed();
        }
        Ok(())
    }
    /// Forward checking and the pigeonhole rule, replayed from the inputs (`alldiff/explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        FamilyReplay::run(&self.family_views, self.constant_family, &self.xs, inputs)
            .is_some_and(|r| r.explain(atom, reason))
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        FamilyReplay::run(&self.family_views, self.constant_family, &self.xs, inputs)
            .is_some_and(|r| r.explain_failure(reason))
    }
    /// Every variable open again (a trailed change, undone on backtrack), every fixed
    /// variable handled against every other.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.one_word = self.open.reset(ctx);
        self.pigeonhole = self.pigeonhole_family();
        self.recheck = self.pigeonhole.is_some();
        self.process_pending(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.process_pending(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::propagators::alldiff::fast::value::AllDifferentValue;
    use crate::rng::Rng;
    use crate::testing::{
        assert_same_count_fewer_nodes, check_propagator, Consistency, HarnessConfig,
    };
    use crate::AllDiffLevel;

    /// For each family, the shown values `t[i] + family[i]` are all different.
    fn holds(families: &[Vec<i32>], t: &[i32]) -> bool {
        families.iter().all(|f| {
            let shown: Vec<i64> = t
                .iter()
                .zip(f)
                .map(|(&v, &c)| v as i64 + c as i64)
                .collect();
            (0..shown.len()).all(|i| (i + 1..shown.len()).all(|j| shown[i] != shown[j]))
        })
    }

    /// The views `xs[i] + family[i]` of each family.
    fn family_views(xs: &[VarId], families: &[Vec<i32>]) -> Vec<Vec<View>> {
        (families.iter())
            .map(|f| xs.iter().zip(f).map(|(&x, &c)| x.plus(c)).collect())
            .collect()
    }

    /// The families posted one by one on the model, which gathers them into one
    /// `AllDifferentOffsetFamily` (consecutive value-level all-differents over the same
    /// variables).
    fn post_family(m: &mut Model, xs: &[VarId], families: &[Vec<i32>]) {
        for views in family_views(xs, families) {
            m.all_different(&views, AllDiffLevel::Value);
        }
    }

    /// The n-queens families over `n` variables: rows, rising and falling diagonals.
    fn queens_families(n: usize) -> Vec<Vec<i32>> {
        vec![
            vec![0; n],
            (0..n as i32).collect(),
            (0..n as i32).map(|i| -i).collect(),
        ]
    }

    fn harness(families: Vec<Vec<i32>>, lo: i32, hi: i32, seed: u64) {
        let arity = families[0].len();
        let mut cfg = HarnessConfig::new(arity, lo, hi, Consistency::Checking);
        cfg.seed = seed;
        let f = families.clone();
        check_propagator(
            "alldiff_value_family",
            &cfg,
            &move |t| holds(&f, t),
            &move |xs| Box::new(AllDifferentOffsetFamily::new(&family_views(xs, &families))),
        );
    }

    #[test]
    fn queens_families_are_sound_and_checking() {
        for arity in 2..=5 {
            harness(queens_families(arity), 0, 4, arity as u64);
        }
    }

    #[test]
    fn random_families_are_sound_and_checking() {
        let mut rng = Rng::new(11);
        for arity in 2..=5 {
            for k_count in 1..=4 {
                let families: Vec<Vec<i32>> = (0..k_count)
                    .map(|_| (0..arity).map(|_| rng.below(7) as i32 - 3).collect())
                    .collect();
                harness(families, -2, 3, (arity * 10 + k_count) as u64);
            }
        }
    }

    /// Domains wider than 64 values, and more families than the word path takes: the plain
    /// path (`contains`, `remove`), including constants near the ends of the `i32` range.
    #[test]
    fn wide_domains_and_many_families_take_the_plain_path() {
        for arity in 2..=4 {
            let families: Vec<Vec<i32>> = [0, 3, -3, 1, 70]
                .iter()
                .map(|&c| (0..arity).map(|i| c * i).collect())
                .collect();
            harness(families, -70, 70, arity as u64);
            let many: Vec<Vec<i32>> = (0..MAX_WORD_FAMILIES as i32 + 1)
                .map(|c| (0..arity).map(|i| (c - 4) * i).collect())
                .collect();
            harness(many, 0, 4, 100 + arity as u64);
            let extreme = vec![
                (0..arity).map(|i| i32::MAX - i).collect(),
                (0..arity).map(|i| i32::MIN + i).collect(),
            ];
            harness(extreme, -3, 3, 200 + arity as u64);
        }
    }

    /// The pigeonhole rule on one constant family (every offset `offset`), written plainly
    /// over all the variables: the reference for the family's `check_pigeonhole`. If the
    /// shown values of all `n` variables are fewer than `n`, fail; if exactly `n`, a value
    /// with one holder goes to it.
    #[derive(Clone, Debug)]
    struct PigeonholeReference {
        xs: Vec<VarId>,
        offset: i32,
    }

    impl Propagator for PigeonholeReference {
        fn name(&self) -> &'static str {
            "pigeonhole_reference"
        }
        fn subscriptions(&self) -> Vec<Subscription> {
            Subscription::all(&self.xs, Condition::Domain)
        }
        fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
            let mut holders: std::collections::BTreeMap<i64, Vec<VarId>> = Default::default();
            for &x in &self.xs {
                for v in ctx.domain(x).iter() {
                    holders
                        .entry(v as i64 + self.offset as i64)
                        .or_default()
                        .push(x);
                }
            }
            if holders.len() < self.xs.len() {
                return Err(Conflict::new());
            }
            if holders.len() == self.xs.len() {
                for (shown, held_by) in holders {
                    if let [x] = held_by[..] {
                        ctx.fix(x, (shown - self.offset as i64) as i32)?;
                    }
                }
            }
            Ok(())
        }
    }

    /// The family prunes exactly as one `value.rs` all-different per family, plus the
    /// pigeonhole rule on its first constant family (`PigeonholeReference`) when its word
    /// path runs: random dives (fixings and removals, with backtracking) with random initial
    /// holes end every step with the same domains, or fail on the same steps. The trials:
    /// n-queens (4 to 12 variables), a third of them with domains starting at different
    /// values (0 to 2: the check's words are shifted); a constant family of offset 3 with a
    /// spread one and a spare value; and 60 to 70 variables over 10 values (families `i`,
    /// `−i`, `2i`, none constant), on both sides of the word path's limit of 64 variables.
    #[test]
    fn same_domains_as_value_all_differents_and_the_pigeonhole_rule() {
        let mut rng = Rng::new(3);
        let mut roots_failed = 0;
        for trial in 0..300 {
            let spread = |n: usize, c: i32| (0..n as i32).map(|i| c * i).collect::<Vec<_>>();
            let (n, values, families) = match trial % 10 {
                9 => {
                    let n = 60 + trial / 10 % 11;
                    (n, 10, vec![spread(n, 1), spread(n, -1), spread(n, 2)])
                }
                8 => {
                    let n = 4 + trial / 10 % 6;
                    (n, n + 1, vec![spread(n, 1), vec![3; n]])
                }
                _ => {
                    let n = 4 + trial % 9;
                    (n, n, queens_families(n))
                }
            };
            let mut family = Model::new();
            let mut separate = Model::new();
            let (mut xs, mut ys) = (Vec::new(), Vec::new());
            for _ in 0..n {
                let lo = if trial % 3 == 1 {
                    rng.below(3) as i32
                } else {
                    0
                };
                xs.push(family.new_var(lo, values as i32 - 1));
                ys.push(separate.new_var(lo, values as i32 - 1));
            }
            // A few holes at the root, the same in both.
            for _ in 0..rng.below(n as u64) {
                let (i, v) = (
                    rng.below(n as u64) as usize,
                    rng.below(values as u64) as i32,
                );
                let a = family.store.remove(xs[i], v).is_ok();
                let b = separate.store.remove(ys[i], v).is_ok();
                assert_eq!(a, b);
            }
            post_family(&mut family, &xs, &families);
            for views in family_views(&ys, &families) {
                separate.post(Box::new(AllDifferentValue::new(&views)));
            }
            let constant = families.iter().find(|f| f.iter().all(|&c| c == f[0]));
            if let Some(constants) = constant.filter(|_| n <= BLOCK) {
                separate.post(Box::new(PigeonholeReference {
                    xs: ys.clone(),
                    offset: constants[0],
                }));
            }
            let domains = |m: &Model, vs: &[VarId]| -> Vec<String> {
                vs.iter()
                    .map(|&v| format!("{:?}", m.store.domain(v)))
                    .collect()
            };
            let mut ok = family.propagate().is_ok();
            assert_eq!(ok, separate.propagate().is_ok(), "root of trial {trial}");
            if !ok {
                // Failed at the root: the domains are left as each failed, nothing to undo.
                roots_failed += 1;
                continue;
            }
            let mut depth = 0;
            for _ in 0..3 * n {
                if !ok || rng.below(5) == 0 {
                    // Backtrack one level (or stay at the root).
                    if depth > 0 {
                        family.store.pop_level();
                        separate.store.pop_level();
                        family.propagation.abandon(&mut family.store);
                        separate.propagation.abandon(&mut separate.store);
                        depth -= 1;
                    }
                    ok = true;
                    assert_eq!(domains(&family, &xs), domains(&separate, &ys));
                    continue;
                }
                let free: Vec<usize> = (0..n).filter(|&i| !family.store.is_fixed(xs[i])).collect();
                if free.is_empty() {
                    ok = false;
                    continue;
                }
                let i = free[rng.below(free.len() as u64) as usize];
                let values: Vec<i32> = family.store.domain(xs[i]).iter().collect();
                let v = values[rng.below(values.len() as u64) as usize];
                family.store.push_level();
                separate.store.push_level();
                depth += 1;
                if rng.below(3) == 0 {
                    family.store.remove(xs[i], v).unwrap();
                    separate.store.remove(ys[i], v).unwrap();
                } else {
                    family.store.fix(xs[i], v).unwrap();
                    separate.store.fix(ys[i], v).unwrap();
                }
                ok = family.propagate().is_ok();
                assert_eq!(ok, separate.propagate().is_ok(), "trial {trial}");
                if ok {
                    assert_eq!(
                        domains(&family, &xs),
                        domains(&separate, &ys),
                        "trial {trial}"
                    );
                }
            }
        }
        // The holes rarely leave a root that fails: the dives are what is being tested.
        assert!(roots_failed < 30, "{roots_failed} of 300 roots failed");
    }

    /// The worked example of `docs/propagators/alldiff-value.md`: 6-queens with `q₀ = 0` and
    /// `q₂ = 5`. Forward checking alone leaves four open columns; the check finds row 4 with
    /// one holder, and the node fails without a decision.
    #[test]
    fn six_queens_with_two_queens_placed_fails_by_the_pigeonhole() {
        let n = 6;
        let build = |family: bool| {
            let mut m = Model::new();
            let q = m.new_vars(n, 0, n as i32 - 1);
            if family {
                post_family(&mut m, &q, &queens_families(n));
            } else {
                for views in family_views(&q, &queens_families(n)) {
                    m.post(Box::new(AllDifferentValue::new(&views)));
                }
            }
            m.store.fix(q[0], 0).unwrap();
            m.store.fix(q[2], 5).unwrap();
            (m, q)
        };
        let (mut separate, q) = build(false);
        assert!(separate.propagate().is_ok());
        let open: Vec<Vec<i32>> = [1, 3, 4, 5]
            .iter()
            .map(|&c| separate.store.domain(q[c]).iter().collect())
            .collect();
        assert_eq!(open, [vec![2, 3], vec![1, 2], vec![1, 2], vec![1, 3, 4]]);
        let (mut family, _) = build(true);
        assert!(family.propagate().is_err());
    }

    /// The pigeonhole check prunes what forward checking alone does not: 8-queens takes
    /// fewer nodes with the family than with one `value.rs` all-different per family (the
    /// same search, the same 92 solutions).
    #[test]
    fn the_pigeonhole_check_saves_nodes_on_queens() {
        let n = 8;
        let cfg = crate::SearchConfig::default();
        let mut family = Model::new();
        let q = family.new_vars(n, 0, n as i32 - 1);
        post_family(&mut family, &q, &queens_families(n));
        let with_check = crate::count(&mut family, &cfg);
        let mut separate = Model::new();
        let q = separate.new_vars(n, 0, n as i32 - 1);
        for views in family_views(&q, &queens_families(n)) {
            separate.post(Box::new(AllDifferentValue::new(&views)));
        }
        let without = crate::count(&mut separate, &cfg);
        assert_same_count_fewer_nodes(&with_check, &without, 92, "with the check, without");
    }

    /// n-queens counts, n = 1..=11 (OEIS A000170), with the family on one and two threads.
    #[test]
    fn queens_counts() {
        let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680];
        for (i, &want) in expected.iter().enumerate() {
            let n = i + 1;
            let mut m = Model::new();
            let q = m.new_vars(n, 0, n as i32 - 1);
            post_family(&mut m, &q, &queens_families(n));
            let cfg = crate::SearchConfig::default();
            assert_eq!(crate::count(&mut m, &cfg).solutions, want, "{n}-queens");
            let parallel = crate::count_parallel(&m, &cfg, 2);
            assert_eq!(parallel.solutions, want, "{n}-queens on 2 threads");
        }
    }
}
