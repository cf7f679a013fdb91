//! # Element over variables: `result = array[index]` where the entries are variables
//!
//! **Enforces:** `index ∈ offset..offset+n` and `result = array[index - offset]` for an
//! array of variables (FlatZinc's `array_var_int_element`, 1-based: `offset = 1`).
//!
//! **Algorithm.** (1) Remove from `index` every position whose entry shares no value with
//! `result`. (2) Keep in `result` only the values of the entries still indexed. (3) Once
//! `index` is fixed, the chosen entry and `result` are equal: intersect their domains.
//! Worked example: entries `x₁ ∈ {1, 2}`, `x₂ ∈ {5}`, `result ∈ {2, 3}`: position 2 goes,
//! `index = 1`, then `x₁ = result = 2`.
//!
//! **Consistency:** domain on `index` and `result`; an entry is pruned only once `index`
//! is fixed (the usual choice: while `index` is free, every value of an entry is supported
//! by a solution in which another position is chosen). The harness checks it as sound and
//! checking.
//!
//! **Two versions.** `propagate_from_scratch` is the reference: it lists the positions and
//! the values, as the three steps read. The engine runs the **word lane** instead whenever
//! `result`, `index` and the indexed entries are bitsets (not the interval domains of a wide
//! `var int`): `result` as words `R` of 64 values, window `w` from `base + 64·w` (its own
//! layout when it has one word), each indexed entry shifted into the same windows (only
//! those its bounds reach), `Eᵢ & R ≠ 0` is step (1), the OR of the `Eᵢ & R` is step (2),
//! and each step prunes with one word operation per window (a one-word domain: one AND; a
//! wider one visits its values once). `index` is read the same way, in windows of 64
//! positions (a routing model's successors fit one word, a MiniZinc model's `es[e]` over
//! 80 edges two; a `result` of arrival times over 23,040 values takes 360). The words live on the
//! stack for the usual shape (`index` in one word, `result` in at most four), else in scratch
//! kept in the propagator: a run allocates nothing. Where the lane does not apply (an
//! interval domain) the engine runs the reference.
//!
//! **Its own fixpoint.** One run of the three steps leaves nothing for a second run when
//! `index`, `result` and the entries are different variables: the entries kept in (1) still
//! meet the narrowed `result` (the values they met are in the union of (2)), and (3) leaves
//! the entry and `result` equal. So the propagator is idempotent and its own prunings do not
//! wake it. When a variable plays two roles (`index` or `result` is also an entry, as
//! FlatZinc's shared constants make common, harmless while fixed), and on interval domains,
//! whose step (2) works on the bounds, it runs again until a run removes nothing.
//!
//! **Wakes on:** any removal. **Cost:** O(Σ |D(entryᵢ)| + |D(result)| · |D(index)|) per
//! run for the reference (membership tests), O(|D(index)| · windows) word operations for
//! the word lane, plus one visit of `result`'s values when it loses some.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::bound_replay::merge_into_equalities;
use crate::propagators::reasons::{no_partner, split_atom};
use crate::store::VarId;

#[derive(Clone, Debug)]
pub struct ElementVar {
    index: VarId,
    offset: i32,
    array: Vec<VarId>,
    result: VarId,
    /// `index` is also an entry, or `result`.
    index_shared: bool,
    /// `result` is also an entry.
    result_shared: bool,
    /// The word lane's scratch.
    words: LaneWords,
}

/// Windows of `result` the word lane keeps on the stack (wider: the propagator's scratch).
const SMALL_WINDOWS: usize = 4;

/// The word lane's four rows of words, on the stack or in the scratch.
struct LaneSlices<'a> {
    result: &'a mut [u64],
    union: &'a mut [u64],
    positions: &'a mut [u64],
    kept: &'a mut [u64],
}

/// The scratch words of the word lane, kept between runs so that a run allocates nothing
/// once they have grown to the widest domains met.
#[derive(Clone, Debug, Default)]
struct LaneWords {
    /// `result`: window `w` holds the values `base + 64·w ..`.
    result: Vec<u64>,
    /// The values of the entries kept that `result` has, in the same windows.
    union: Vec<u64>,
    /// `index`: window `w` holds the positions `index_base + 64·w ..`.
    positions: Vec<u64>,
    /// The positions kept, in the same windows.
    kept: Vec<u64>,
}

/// Where a domain's windows start, and how many: its own one-word layout when it has one
/// (then pruning it is one AND), else from its min. `None` for an interval domain (no
/// words), or one too close to `i32::MAX` for a window to end inside the `i32` range.
fn windows_of(d: &Domain) -> Option<(i32, usize)> {
    if d.is_interval() || d.max() as i64 + 64 > i32::MAX as i64 {
        return None;
    }
    Some(match d.as_word() {
        Some((offset, _)) => (offset, 1),
        None => (
            d.min(),
            ((d.max() as i64 - d.min() as i64 + 1) as usize).div_ceil(64),
        ),
    })
}

/// `words` set to the windows of `d` from `base`.
fn load_windows(words: &mut [u64], d: &Domain, base: i32) {
    for (w, word) in words.iter_mut().enumerate() {
        *word = d.mask_from(base + 64 * w as i32);
    }
}

/// Is value `v` set in `words`, whose windows start at `base`?
fn has_bit(words: &[u64], base: i32, v: i32) -> bool {
    let i = v as i64 - base as i64;
    i >= 0 && (i as usize / 64) < words.len() && words[i as usize / 64] >> (i % 64) & 1 != 0
}

impl ElementVar {
    pub fn new(index: VarId, offset: i32, array: &[VarId], result: VarId) -> ElementVar {
        ElementVar {
            index,
            offset,
            array: array.to_vec(),
            result,
            index_shared: index == result || array.contains(&index),
            result_shared: array.contains(&result),
            words: LaneWords::default(),
        }
    }

    /// The word lane (see the module docs): steps (1), (2) and (3) with `result` and `index`
    /// as words of 64 values, when neither they nor an indexed entry is an interval domain.
    /// `None` (and nothing pruned) when it does not apply. The usual shape (`index` in one
    /// word, `result` in at most [`SMALL_WINDOWS`]) works on the stack; wider ones on the
    /// propagator's scratch.
    fn propagate_words(&mut self, ctx: &mut Context<'_>) -> Option<PropResult> {
        let (rd, id) = (ctx.domain(self.result), ctx.domain(self.index));
        let (base, windows) = windows_of(rd)?;
        let (index_base, index_windows) = windows_of(id)?;
        let layout = [base, index_base];
        if windows <= SMALL_WINDOWS && index_windows == 1 {
            let (mut result, mut union) = ([0u64; SMALL_WINDOWS], [0u64; SMALL_WINDOWS]);
            let (mut positions, mut kept) = ([0u64], [0u64]);
            let mut w = LaneSlices {
                result: &mut result[..windows],
                union: &mut union[..windows],
                positions: &mut positions,
                kept: &mut kept,
            };
            return self.run_words(ctx, layout, &mut w);
        }
        let mut words = std::mem::take(&mut self.words);
        for (v, n) in [
            (&mut words.result, windows),
            (&mut words.union, windows),
            (&mut words.positions, index_windows),
            (&mut words.kept, index_windows),
        ] {
            v.clear();
            v.resize(n, 0);
        }
        let mut w = LaneSlices {
            result: &mut words.result,
            union: &mut words.union,
            positions: &mut words.positions,
            kept: &mut words.kept,
        };
        let outcome = self.run_words(ctx, layout, &mut w);
        self.words = words;
        outcome
    }

    /// Steps (1) and (2) into `w` (`union` and `kept` zero, the others sized), then the
    /// prunings. `layout`: where the windows of `result` and of `index` start.
    #[inline]
    fn run_words(
        &self,
        ctx: &mut Context<'_>,
        layout: [i32; 2],
        w: &mut LaneSlices<'_>,
    ) -> Option<PropResult> {
        let [base, index_base] = layout;
        let windows = w.result.len();
        load_windows(w.result, ctx.domain(self.result), base);
        load_windows(w.positions, ctx.domain(self.index), index_base);
        let first = index_base as i64 - self.offset as i64;
        for iw in 0..w.positions.len() {
            let mut bits = w.positions[iw];
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                let Some(&x) = usize::try_from(first + 64 * iw as i64 + b as i64)
                    .ok()
                    .and_then(|i| self.array.get(i))
                else {
                    continue; // outside the array: not kept
                };
                let entry = ctx.domain(x);
                if entry.is_interval() {
                    return None;
                }
                // (1) the entry meets `result`; (2) its common values join the union. Only
                // the windows the entry's bounds reach.
                let from = ((entry.min() as i64 - base as i64).max(0) / 64) as usize;
                let to = ((entry.max() as i64 - base as i64 + 1).max(0) as usize).div_ceil(64);
                for k in from..to.min(windows) {
                    let meets = entry.mask_from(base + 64 * k as i32) & w.result[k];
                    if meets != 0 {
                        w.kept[iw] |= 1u64 << b;
                        w.union[k] |= meets;
                    }
                }
            }
        }
        Some(self.prune_words(ctx, w, base, index_base))
    }

    /// Prune what [`Self::run_words`] found: the positions not kept, the values outside the
    /// union, and (3) with one position left, its entry to the union.
    #[inline]
    fn prune_words(
        &self,
        ctx: &mut Context<'_>,
        w: &LaneSlices<'_>,
        base: i32,
        index_base: i32,
    ) -> PropResult {
        let (index, result) = (self.index, self.result);
        if w.kept != w.positions {
            match w.kept[..] {
                [kept] => ctx.intersect_mask(index, index_base, kept)?,
                _ => ctx.retain(index, |i| has_bit(&w.kept, index_base, i))?,
            };
        }
        if w.union != w.result {
            match w.union[..] {
                [union] => ctx.intersect_mask(result, base, union)?,
                _ => ctx.retain(result, |v| has_bit(&w.union, base, v))?,
            };
        }
        let kept: u32 = w.kept.iter().map(|k| k.count_ones()).sum();
        if kept == 1 {
            let iw = w.kept.iter().position(|&k| k != 0).unwrap_or(0);
            let position = index_base as i64 - self.offset as i64
                + 64 * iw as i64
                + w.kept[iw].trailing_zeros() as i64;
            let x = self.array[position as usize];
            let size: u32 = w.union.iter().map(|u| u.count_ones()).sum();
            // `union` is within the entry: equal sizes, nothing to remove.
            if ctx.size(x) != size {
                match w.union[..] {
                    [union] => ctx.intersect_mask(x, base, union)?,
                    _ => {
                        ctx.set_min(x, base)?;
                        ctx.set_max(x, base + 64 * w.union.len() as i32 - 1)?;
                        ctx.retain(x, |v| has_bit(&w.union, base, v))?
                    }
                };
            }
        }
        Ok(())
    }

    /// Run to this propagator's own fixpoint (see the module docs): the word lane where it
    /// applies, else the reference, again while a run that may have left work removed
    /// something.
    fn propagate_to_fixpoint(&mut self, ctx: &mut Context<'_>) -> PropResult {
        loop {
            let removed_before = ctx.removed_count();
            let index_was_free = !ctx.is_fixed(self.index);
            let result_was_free = !ctx.is_fixed(self.result);
            let final_run = match self.propagate_words(ctx) {
                Some(outcome) => {
                    outcome?;
                    // A shared variable that was fixed cannot have changed.
                    !(self.index_shared && index_was_free || self.result_shared && result_was_free)
                }
                None => {
                    self.propagate_from_scratch(ctx)?;
                    false
                }
            };
            if final_run || ctx.removed_count() == removed_before {
                return Ok(());
            }
        }
    }

    /// (3) A fixed index makes the entry equal to `result`.
    /// The input of the array's entry at index value `i`, and its variable (`None` outside
    /// the array).
    fn entry_input<'d>(&self, inputs: &'d [Domain], i: i32) -> Option<(VarId, &'d Domain)> {
        let p = usize::try_from(i as i64 - self.offset as i64).ok()?;
        let x = *self.array.get(p)?;
        Some((x, &inputs[2 + p]))
    }

    /// Push why index value `i` is impossible: outside the array (nothing to say), or its
    /// entry and the result share no value (their bounds, and who lacks each common value).
    fn position_excluded(&self, inputs: &[Domain], i: i32, reason: &mut Vec<Atom>) -> bool {
        let Some((x, dx)) = self.entry_input(inputs, i) else {
            return true;
        };
        disjoint(x, dx, self.result, &inputs[1], reason)
    }

    /// Push why no position left holds value `v` of the result.
    fn value_unheld(&self, inputs: &[Domain], v: i32, reason: &mut Vec<Atom>) -> bool {
        self.every_position_left(inputs, reason, |_, x, dx, reason| {
            no_partner(x, dx, v as i64, reason)
        })
    }

    /// Push the index's bounds and each hole of the index within them, and ask `explain`
    /// about every position the index still allows (its number, entry and entry's input).
    /// Positions outside the array need nothing. `false` if `explain` says `false` once.
    fn every_position_left(
        &self,
        inputs: &[Domain],
        reason: &mut Vec<Atom>,
        mut explain: impl FnMut(i32, VarId, &Domain, &mut Vec<Atom>) -> bool,
    ) -> bool {
        let d = &inputs[0];
        reason.push(Atom::AtLeast(self.index, d.min()));
        reason.push(Atom::AtMost(self.index, d.max()));
        (d.min()..=d.max()).all(|i| match self.entry_input(inputs, i) {
            None => true,
            Some(_) if !d.contains(i) => {
                reason.push(Atom::NotEqual(self.index, i));
                true
            }
            Some((x, dx)) => explain(i, x, dx, reason),
        })
    }

    /// An atom on an entry of the array: the index is down to its position (each other
    /// position excluded), and the values it lost are not the result's.
    fn explain_entry(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let offset = self.offset as i64;
        let positions = (0..self.array.len()).filter(|&p| self.array[p] == atom.var());
        for p in positions {
            let Ok(i) = i32::try_from(p as i64 + offset) else {
                continue;
            };
            let mark = reason.len();
            let index_is_p = split_atom(Atom::Equal(self.index, i), &inputs[0], reason)
                .is_some_and(|others| {
                    others
                        .iter()
                        .all(|&j| self.position_excluded(inputs, j, reason))
                });
            let values_gone = index_is_p
                && (self.entry_bound_from_result(inputs, atom, reason)
                    || split_atom(atom, &inputs[2 + p], reason).is_some_and(|needed| {
                        needed
                            .iter()
                            .all(|&w| no_partner(self.result, &inputs[1], w as i64, reason))
                    }));
            if values_gone {
                return true;
            }
            reason.truncate(mark);
        }
        false
    }

    /// A bound of the entry chosen by the index is the result's bound, named as weakly as
    /// the atom allows: `[x ≤ w]` from `[result ≤ w]`, whatever the result's max below `w`
    /// (the entry's own values beyond need not be listed one by one). `false` (nothing
    /// pushed) if the result's bound does not give the atom.
    fn entry_bound_from_result(
        &self,
        inputs: &[Domain],
        atom: Atom,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let (r, result) = (&inputs[1], self.result);
        let implied = match atom {
            Atom::AtMost(_, w) if r.max() <= w => Atom::AtMost(result, w),
            Atom::AtLeast(_, w) if r.min() >= w => Atom::AtLeast(result, w),
            Atom::Equal(_, v) if r.is_fixed() && r.value() == v => Atom::Equal(result, v),
            _ => return false,
        };
        reason.push(implied);
        true
    }

    /// A bound of the result (`[result ≤ w]` when `above`, else `[result ≥ w]`): every
    /// position the index allows holds an entry within it, named as weakly as that
    /// (`[x ≤ w]`, not the entry's own max), or is excluded (its entry and the result share
    /// no value). This is the bounds reading of step (2): on wide domains, whose values are
    /// never listed, the value-by-value reason below would give up. `false` if a position
    /// is neither.
    fn result_bound(&self, inputs: &[Domain], w: i32, above: bool, reason: &mut Vec<Atom>) -> bool {
        self.every_position_left(inputs, reason, |i, x, dx, reason| {
            if above && dx.max() <= w {
                reason.push(Atom::AtMost(x, w));
                true
            } else if !above && dx.min() >= w {
                reason.push(Atom::AtLeast(x, w));
                true
            } else {
                self.position_excluded(inputs, i, reason)
            }
        })
    }

    /// An atom on the result: by its bounds ([`ElementVar::result_bound`]) where it is a
    /// bound, else value by value (no position left holds each value it lost).
    fn explain_result(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let mark = reason.len();
        let by_bounds = match atom {
            Atom::AtMost(_, w) => self.result_bound(inputs, w, true, reason),
            Atom::AtLeast(_, w) => self.result_bound(inputs, w, false, reason),
            Atom::Equal(_, v) => {
                self.result_bound(inputs, v, true, reason)
                    && self.result_bound(inputs, v, false, reason)
            }
            Atom::NotEqual(..) => false,
        };
        if by_bounds {
            return true;
        }
        reason.truncate(mark);
        split_atom(atom, &inputs[1], reason)
            .is_some_and(|needed| needed.iter().all(|&v| self.value_unheld(inputs, v, reason)))
    }

    fn propagate_fixed_index(&self, ctx: &mut Context<'_>) -> PropResult {
        let index = self.index;
        if ctx.is_fixed(index) {
            let x = self.array[(ctx.value(index) as i64 - self.offset as i64) as usize];
            let rd: Domain = ctx.domain(self.result).clone();
            ctx.intersect(x, &rd)?;
            let xd: Domain = ctx.domain(x).clone();
            ctx.intersect(self.result, &xd)?;
        }
        Ok(())
    }
}

impl Propagator for ElementVar {
    fn name(&self) -> &'static str {
        "element_var"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs = vec![
            Subscription::new(self.index, Condition::Domain),
            Subscription::new(self.result, Condition::Domain),
        ];
        subs.extend(
            self.array
                .iter()
                .map(|&x| Subscription::new(x, Condition::Domain)),
        );
        subs
    }
    fn priority(&self) -> Priority {
        Priority::Medium
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate_to_fixpoint(ctx)
    }
    /// A position leaves the index when its entry and the result share no value; a value
    /// leaves the result when no position left holds it; once the index is down to one
    /// position, that entry loses what the result lacks.
    ///
    /// A variable in two roles (the index or the result also an entry) is explained in
    /// each role in turn until one gives a reason: the reasons are read from the inputs,
    /// so they stay sound; where the run went through its own prunings none does, and the
    /// learner takes the generic reason.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if inputs[0].size() > 256 {
            return false;
        }
        let x = atom.var();
        let as_index = |reason: &mut Vec<Atom>| {
            x == self.index
                && split_atom(atom, &inputs[0], reason).is_some_and(|needed| {
                    needed
                        .iter()
                        .all(|&i| self.position_excluded(inputs, i, reason))
                })
        };
        let as_result =
            |reason: &mut Vec<Atom>| x == self.result && self.explain_result(inputs, atom, reason);
        let as_entry = |reason: &mut Vec<Atom>| self.explain_entry(inputs, atom, reason);
        let mark = reason.len();
        let mut explained = false;
        for role in [
            &as_index as &dyn Fn(&mut Vec<Atom>) -> bool,
            &as_result,
            &as_entry,
        ] {
            reason.truncate(mark);
            if role(reason) {
                explained = true;
                break;
            }
        }
        merge_into_equalities(reason);
        explained
    }
    /// Every position of the index shares no value with the result.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if inputs[0].size() > 256 {
            return false;
        }
        Atom::describe(self.index, &inputs[0], reason);
        let explained = inputs[0]
            .iter()
            .all(|i| self.position_excluded(inputs, i, reason));
        merge_into_equalities(reason);
        explained
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate_to_fixpoint(ctx)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.array.len() as i64;
        let offset = self.offset as i64;
        let (index, result) = (self.index, self.result);
        ctx.retain(index, |i| (i as i64) >= offset && (i as i64) < offset + n)?;
        let entry = |i: i32| self.array[(i as i64 - offset) as usize];
        let positions: Vec<i32> = ctx.domain(index).iter().collect();
        let wide = |x: VarId| ctx.domain(x).is_interval();
        if wide(result) || positions.iter().any(|&i| wide(entry(i))) {
            // Wide domains (a MiniZinc model's), never visited value by value: (1) and (2)
            // on the bounds only, which is sound, and (3) below makes it checking.
            let (lo, hi) = (ctx.min(result), ctx.max(result));
            let overlaps = |x: VarId| ctx.min(x) <= hi && ctx.max(x) >= lo;
            let keep: Vec<i32> = positions
                .into_iter()
                .filter(|&i| overlaps(entry(i)))
                .collect();
            ctx.retain(index, |i| keep.binary_search(&i).is_ok())?;
            let lowest = keep.iter().map(|&i| ctx.min(entry(i))).min();
            let highest = keep.iter().map(|&i| ctx.max(entry(i))).max();
            if let (Some(lowest), Some(highest)) = (lowest, highest) {
                ctx.set_min(result, lowest)?;
                ctx.set_max(result, highest)?;
            }
            return self.propagate_fixed_index(ctx);
        }
        // (1) positions whose entry meets `result`.
        let mut keep: Vec<i32> = Vec::with_capacity(positions.len());
        for &i in &positions {
            let x = entry(i);
            let meets = ctx.domain(x).iter().any(|v| ctx.contains(result, v));
            if meets {
                keep.push(i);
            }
        }
        ctx.retain(index, |i| keep.binary_search(&i).is_ok())?;
        // (2) `result` within the union of the entries left: a value stays when some entry
        // left has it (asked value by value of `result`, so the entries' values are never
        // gathered and sorted: on domains of thousands of values that was the whole cost).
        let entries: Vec<VarId> = keep.iter().map(|&i| entry(i)).collect();
        let gone: Vec<i32> = (ctx.domain(result).iter())
            .filter(|&v| !entries.iter().any(|&x| ctx.contains(x, v)))
            .collect();
        if !gone.is_empty() {
            ctx.retain(result, |v| gone.binary_search(&v).is_err())?;
        }
        self.propagate_fixed_index(ctx)
    }
}

/// Push why the domains `dx` of `x` and `dy` of `y` share no value: their bounds, and for
/// each value between, `[x ≠ v]` or `[y ≠ v]`. `false` if they share one, or if the common
/// range is too long to describe.
fn disjoint(x: VarId, dx: &Domain, y: VarId, dy: &Domain, reason: &mut Vec<Atom>) -> bool {
    let (lo, hi) = (dx.min().max(dy.min()), dx.max().min(dy.max()));
    if lo > hi {
        // Apart by their bounds alone.
        if dx.max() < dy.min() {
            reason.extend([Atom::AtMost(x, dx.max()), Atom::AtLeast(y, dy.min())]);
        } else {
            reason.extend([Atom::AtLeast(x, dx.min()), Atom::AtMost(y, dy.max())]);
        }
        return true;
    }
    if hi as i64 - lo as i64 >= 64 {
        return false;
    }
    reason.extend([Atom::AtLeast(x, dx.min()), Atom::AtMost(x, dx.max())]);
    reason.extend([Atom::AtLeast(y, dy.min()), Atom::AtMost(y, dy.max())]);
    (lo..=hi).all(|v| match (dx.contains(v), dy.contains(v)) {
        (true, true) => false,
        (false, _) => {
            reason.push(Atom::NotEqual(x, v));
            true
        }
        (true, false) => {
            reason.push(Atom::NotEqual(y, v));
            true
        }
    })
}
