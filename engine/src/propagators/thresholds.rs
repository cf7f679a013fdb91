//! # Many reified bounds of one variable: a sorted ladder of thresholds
//!
//! **Enforces:** `bₖ ⇔ (x ≤ tₖ)` for k = 1..n (or `bₖ ⇔ (x > tₖ)`, a threshold of the other
//! *sign*), one integer variable `x`, constants `tₖ`, 0/1 variables `bₖ`. MiniZinc writes
//! every `c ≤ x` or `x ≤ c` that a model uses as a condition as one FlatZinc `int_le_reif`,
//! and a model that tests one coordinate against the positions of fifty places writes fifty
//! of them on one `x`.
//!
//! **Why one propagator, not n.** Posted one by one (`reified.rs`), each of the n is woken by
//! every bound change of `x`, decided or not: the search walks all n per change, to find the
//! few a change decides. Gecode deletes a reified propagator once it is decided (its
//! *subsumption*), which saves the decided ones; the undecided are still woken. Here the
//! thresholds are **sorted**, and the ones `x`'s bounds decide are always a *prefix*
//! (`tₖ < min x`: `x ≤ tₖ` is false) and a *suffix* (`tₖ ≥ max x`: true) of the sorted list.
//! Two reversible positions mark where the decided ones end, so a bound change of `x`
//! walks only the thresholds it newly decides, plus one comparison on each side; below the
//! node, a decided threshold is never looked at again, and backtracking restores the two
//! positions (two reversible integers) — the trail's way of "deleting" a propagator.
//!
//! **Algorithm.** The reference ([`ReifiedThresholds::propagate_from_scratch`]): each fixed
//! `bₖ` bounds `x` (`x ≤ tₖ`, or `x ≥ tₖ + 1`); then each threshold outside
//! `min x ..= max x - 1` fixes its `bₖ`. The incremental run: the `bₖ` fixed since the last
//! run (told by `notify`) bound `x`, then the two positions move inwards past the thresholds
//! the new bounds decide, fixing their `bₖ`.
//!
//! Worked example: `t = [2, 5, 8]`, `x ∈ 0..10`. Fix `x ≥ 6`: the prefix grows past 2 and 5
//! (`b₁ = b₂ = 0`), 8 is left. Then fix `b₃ = 1`: `x ≤ 8`, and the suffix takes 8: all
//! three decided, the propagator is entailed until the search backtracks.
//!
//! **Consistency: domain.** Once the fixed `bₖ` have bounded `x`, every undecided `bₖ` has
//! `min x ≤ tₖ < max x`, so both of its values have a support in `x`'s domain; every value
//! of `x` is within the bounds every fixed `bₖ` asks for. The same fixpoint as the n
//! separate `reified.rs` propagators, so the same search tree under a fixed search.
//!
//! **Wakes on:** `x`'s bounds; each `bₖ` fixed. **Cost:** O(1 + thresholds decided + `bₖ`
//! fixed) per run, against O(n) for the separate propagators.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::domain::Event;
use crate::propagator::{
    Condition, Context, EnqueueDecision, PostContext, Priority, PropResult, Propagator,
    Subscription,
};
use crate::propagators::reasons::{explain_boolean_atom, implies, split_atom};
use crate::store::{RevId, Store, VarId};
use crate::Conflict;

/// One rung: `b ⇔ (x ≤ at_most)` when `positive`, else `b ⇔ (x > at_most)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    pub at_most: i64,
    pub b: VarId,
    pub positive: bool,
}

impl Threshold {
    /// `b ⇔ (x ≤ at_most)`.
    pub fn at_most(b: VarId, at_most: i64) -> Threshold {
        Threshold {
            at_most,
            b,
            positive: true,
        }
    }
    /// `b ⇔ (x ≥ at_least)`, that is `b ⇔ ¬(x ≤ at_least - 1)`.
    pub fn at_least(b: VarId, at_least: i64) -> Threshold {
        Threshold {
            at_most: at_least.saturating_sub(1),
            b,
            positive: false,
        }
    }
    /// The value of `b` when `x ≤ at_most` is `holds`.
    fn b_value(self, holds: bool) -> i32 {
        (holds == self.positive) as i32
    }
}

/// `bₖ ⇔ (x ≤ tₖ)` (or `> tₖ`) for every threshold, as one propagator.
#[derive(Clone, Debug)]
pub struct ReifiedThresholds {
    x: VarId,
    /// Sorted by `at_most`.
    thresholds: Vec<Threshold>,
    /// Reversible: `thresholds[..below]` are decided false by `min x`.
    below: RevId,
    /// Reversible: `thresholds[above..]` are decided true by `max x`.
    above: RevId,
    /// Positions of the thresholds whose `b` was fixed since the last run.
    pending: Vec<u32>,
    /// No `b` twice, and `x` is no `b`: one run reaches the fixpoint (otherwise a `b` this
    /// propagator fixes must wake it, for its other rung).
    idempotent: bool,
}

impl ReifiedThresholds {
    pub fn new(x: VarId, mut thresholds: Vec<Threshold>) -> ReifiedThresholds {
        thresholds.sort_by_key(|t| t.at_most);
        let mut bs: Vec<VarId> = thresholds.iter().map(|t| t.b).collect();
        bs.sort_by_key(|b| b.index());
        bs.dedup();
        let idempotent = bs.len() == thresholds.len() && !bs.contains(&x);
        ReifiedThresholds {
            x,
            thresholds,
            below: RevId(0),
            above: RevId(0),
            pending: Vec::new(),
            idempotent,
        }
    }

    /// Make `x` agree with `b` of rung `k` when `b` is fixed.
    fn apply(&self, ctx: &mut Context<'_>, k: usize) -> PropResult {
        let rung = self.thresholds[k];
        if !ctx.is_fixed(rung.b) {
            return Ok(());
        }
        let x_at_most = (ctx.value(rung.b) == 1) == rung.positive;
        if x_at_most {
            if rung.at_most < ctx.min(self.x) as i64 {
                return Err(Conflict::new());
            }
            ctx.set_max(self.x, rung.at_most.min(i32::MAX as i64) as i32)?;
        } else {
            if rung.at_most >= ctx.max(self.x) as i64 {
                return Err(Conflict::new());
            }
            ctx.set_min(self.x, (rung.at_most + 1).max(i32::MIN as i64) as i32)?;
        }
        Ok(())
    }

    /// Move the two positions inwards past the thresholds `x`'s bounds decide, fixing their
    /// `b`; entailed once they meet.
    fn settle(&self, ctx: &mut Context<'_>) -> PropResult {
        let (min, max) = (ctx.min(self.x) as i64, ctx.max(self.x) as i64);
        let (old_below, old_above) = (ctx.rev(self.below) as usize, ctx.rev(self.above) as usize);
        let (mut below, mut above) = (old_below, old_above);
        while below < above && self.thresholds[below].at_most < min {
            let rung = self.thresholds[below];
            ctx.fix(rung.b, rung.b_value(false))?;
            below += 1;
        }
        while above > below && self.thresholds[above - 1].at_most >= max {
            let rung = self.thresholds[above - 1];
            ctx.fix(rung.b, rung.b_value(true))?;
            above -= 1;
        }
        if below != old_below {
            ctx.set_rev(self.below, below as i64);
        }
        if above != old_above {
            ctx.set_rev(self.above, above as i64);
        }
        if below == above {
            ctx.set_entailed();
        }
        Ok(())
    }
}

impl Propagator for ReifiedThresholds {
    fn name(&self) -> &'static str {
        "reified_thresholds"
    }
    /// Local 0 is `x`, local `k + 1` is rung `k`'s `b`.
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs = vec![Subscription::new(self.x, Condition::Bounds)];
        subs.extend((self.thresholds.iter()).map(|t| Subscription::new(t.b, Condition::Fixed)));
        subs
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        self.idempotent
    }
    fn register(&mut self, post: &mut PostContext<'_>) {
        self.below = post.new_rev(0);
        self.above = post.new_rev(self.thresholds.len() as i64);
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        for rung in &self.thresholds {
            ctx.set_min(rung.b, 0)?;
            ctx.set_max(rung.b, 1)?;
        }
        for k in 0..self.thresholds.len() {
            self.apply(ctx, k)?;
        }
        let (min, max) = (ctx.min(self.x) as i64, ctx.max(self.x) as i64);
        for rung in &self.thresholds {
            if rung.at_most < min {
                ctx.fix(rung.b, rung.b_value(false))?;
            } else if rung.at_most >= max {
                ctx.fix(rung.b, rung.b_value(true))?;
            }
        }
        Ok(())
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.pending.clear();
        ctx.set_rev(self.below, 0);
        ctx.set_rev(self.above, self.thresholds.len() as i64);
        for rung in &self.thresholds {
            ctx.set_min(rung.b, 0)?;
            ctx.set_max(rung.b, 1)?;
        }
        for k in 0..self.thresholds.len() {
            self.apply(ctx, k)?;
        }
        self.settle(ctx)
    }
    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        if local > 0 {
            self.pending.push(local as u32 - 1);
        }
        EnqueueDecision::Enqueue
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let pending = std::mem::take(&mut self.pending);
        let applied = pending
            .iter()
            .try_for_each(|&k| self.apply(ctx, k as usize));
        self.pending = pending;
        self.pending.clear();
        applied?;
        self.settle(ctx)
    }
    fn clear_pending(&mut self) {
        self.pending.clear();
    }
    /// In the degree heuristics the ladder weighs as the separate propagators would: on
    /// `x`, one per undecided rung; on a `b`, one while its rung is undecided.
    fn counts_as_several(&self) -> bool {
        true
    }
    fn open_constraints_on(&self, local: usize, store: &Store) -> u64 {
        let (below, above) = (
            store.rev(self.below) as usize,
            store.rev(self.above) as usize,
        );
        match local {
            0 => (above - below) as u64,
            _ => (below..above).contains(&(local - 1)) as u64,
        }
    }

    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if !self.idempotent {
            return false;
        }
        if atom.var() == self.x {
            return self.explain_x(inputs, atom, reason);
        }
        // An atom on some rung's `b`: that rung was decided by `x`'s bounds, in the inputs
        // or as the fixed `b`s of other rungs bounded them.
        let Some(k) = self.thresholds.iter().position(|t| t.b == atom.var()) else {
            return false;
        };
        let rung = self.thresholds[k];
        let (forced, because) = self.deciding(inputs, rung.at_most);
        let forced = forced.map(|holds| rung.b_value(holds) == 1);
        let because: Vec<Atom> = because.into_iter().collect();
        explain_boolean_atom(
            atom,
            &inputs[k + 1],
            forced.map(|v| (v, &because[..])),
            reason,
        )
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if !self.idempotent {
            return false;
        }
        if let Some(k) =
            (1..inputs.len()).find(|&k| !inputs[k].contains(0) && !inputs[k].contains(1))
        {
            Atom::describe(self.thresholds[k - 1].b, &inputs[k], reason);
            return true;
        }
        // Otherwise the fixed `b`s leave `x` no value: their tightest bounds, and `x`'s own
        // input domain between them.
        let (upper, lower) = self.tightest(inputs);
        let x = &inputs[0];
        let push_rung = |rung: Option<(i64, usize)>, reason: &mut Vec<Atom>| {
            if let Some((_, k)) = rung {
                reason.push(self.b_atom(inputs, k));
            }
        };
        if let (Some((u, _)), Some((l, _))) = (upper, lower) {
            if l >= u {
                push_rung(upper, reason);
                push_rung(lower, reason);
                return true;
            }
        }
        if let Some((l, _)) = lower.filter(|&(l, _)| x.max() as i64 <= l) {
            push_rung(lower, reason);
            reason.push(at_most_atom(self.x, l));
            return true;
        }
        if let Some((u, _)) = upper.filter(|&(u, _)| x.min() as i64 > u) {
            push_rung(upper, reason);
            reason.push(at_least_atom(self.x, u + 1));
            return true;
        }
        let lo = lower.map_or(x.min() as i64, |(t, _)| t + 1);
        let hi = upper.map_or(x.max() as i64, |(t, _)| t);
        if hi - lo >= 64 || (lo..=hi).any(|v| x.contains(v as i32)) {
            return false;
        }
        push_rung(upper, reason);
        push_rung(lower, reason);
        reason.extend((lo..=hi).map(|v| Atom::NotEqual(self.x, v as i32)));
        true
    }
}

/// Learning's reasons: what decided a rung, and what bounded `x`.
impl ReifiedThresholds {
    /// `b`'s atom in the inputs of a fixed rung `k`.
    fn b_atom(&self, inputs: &[Domain], k: usize) -> Atom {
        Atom::Equal(self.thresholds[k].b, inputs[k + 1].min())
    }

    /// The fixed rungs that bound `x` tightest: the least `t` of those that say `x ≤ t`,
    /// and the greatest of those that say `x > t` (with their positions).
    fn tightest(&self, inputs: &[Domain]) -> (Option<(i64, usize)>, Option<(i64, usize)>) {
        let (mut upper, mut lower): (Option<(i64, usize)>, Option<(i64, usize)>) = (None, None);
        for (k, rung) in self.thresholds.iter().enumerate() {
            let d = &inputs[k + 1];
            if !d.is_fixed() {
                continue;
            }
            let t = rung.at_most;
            if (d.value() == 1) == rung.positive {
                if upper.is_none_or(|(u, _)| t < u) {
                    upper = Some((t, k));
                }
            } else if lower.is_none_or(|(l, _)| t > l) {
                lower = Some((t, k));
            }
        }
        (upper, lower)
    }

    /// Whether `x ≤ t` is decided by the inputs (`Some(true)`: certain), and the one atom
    /// that decides it: a bound of `x`'s input domain, or a fixed rung's `b`. Holes of `x`
    /// are not used (`None`: the generic reason).
    fn deciding(&self, inputs: &[Domain], t: i64) -> (Option<bool>, Option<Atom>) {
        let x = &inputs[0];
        if (x.max() as i64) <= t {
            return (Some(true), Some(at_most_atom(self.x, t)));
        }
        if (x.min() as i64) > t {
            return (Some(false), Some(at_least_atom(self.x, t + 1)));
        }
        let (upper, lower) = self.tightest(inputs);
        match (upper, lower) {
            (Some((u, k)), _) if u <= t => (Some(true), Some(self.b_atom(inputs, k))),
            (_, Some((l, k))) if l >= t => (Some(false), Some(self.b_atom(inputs, k))),
            _ => (None, None),
        }
    }

    /// An atom on `x`: the tightest fixed rungs on each side, and `x`'s own input domain
    /// for the values between (split_atom).
    fn explain_x(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let (upper, lower) = self.tightest(inputs);
        let upper_atom = upper.map(|(t, _)| at_most_atom(self.x, t));
        let lower_atom = lower.map(|(t, _)| at_least_atom(self.x, t + 1));
        for (direct, rung) in [(upper_atom, upper), (lower_atom, lower)] {
            if let (Some(direct), Some((_, k))) = (direct, rung) {
                if implies(direct, atom) {
                    reason.push(self.b_atom(inputs, k));
                    return true;
                }
            }
        }
        let Some(needed) = split_atom(atom, &inputs[0], reason) else {
            return false;
        };
        let (mut use_upper, mut use_lower) = (false, false);
        for v in needed {
            let v = v as i64;
            match (upper, lower) {
                (Some((u, _)), _) if v > u => use_upper = true,
                (_, Some((l, _))) if v <= l => use_lower = true,
                _ => return false,
            }
        }
        for (used, rung) in [(use_upper, upper), (use_lower, lower)] {
            if let (true, Some((_, k))) = (used, rung) {
                reason.push(self.b_atom(inputs, k));
            }
        }
        true
    }
}

/// `[x ≤ t]`, with `t` brought into `i32` (no value of `x` lies beyond it).
fn at_most_atom(x: VarId, t: i64) -> Atom {
    Atom::AtMost(x, t.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

/// `[x ≥ t]`, with `t` brought into `i32`.
fn at_least_atom(x: VarId, t: i64) -> Atom {
    Atom::AtLeast(x, t.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}
