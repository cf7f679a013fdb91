//! # Many reified equalities of one variable: its value indicators, as one channel
//!
//! **Enforces:** `bₖ ⇔ (x = vₖ)` for k = 1..n (or `bₖ ⇔ (x ≠ vₖ)`, an indicator of the
//! other *sign*), one integer variable `x`, constants `vₖ`, 0/1 variables `bₖ`. MiniZinc
//! writes every `x = c` or `x != c` that a model uses as a condition as one FlatZinc
//! `int_eq_reif` (`int_ne_reif`): a model that asks "is this match placed in block 3?" for
//! each block writes one per block on the same `x`. Together they are the *channel* between
//! an integer variable and the 0/1 indicators of its values, which Gecode, Chuffed and
//! CP-SAT treat as one constraint.
//!
//! **Why one propagator, not n.** Posted one by one (`reified.rs`, `ReifiedMember`), each
//! of the n is woken by every change of `x`'s domain, and each is a separate entry of the
//! propagation queue. Here one run walks the *open* indicators: those whose `b` is not yet
//! fixed. They are kept at the front of a permutation of the indicators whose length is one
//! reversible integer (a *sparse set*): deciding an indicator swaps it behind the front, and
//! backtracking restores the length, which brings back exactly the indicators decided below
//! the node (the swaps only ever happened inside the front). A decided indicator is never
//! looked at again below the node, as a separate propagator is deleted once entailed.
//!
//! **Algorithm.** The reference ([`ValueIndicators::propagate_from_scratch`]): each fixed
//! `bₖ` fixes `x` to `vₖ` or removes `vₖ` from it; then each `bₖ` whose value `x`'s domain
//! decides is fixed (`vₖ` gone: `x = vₖ` is false; `x` fixed to `vₖ`: true). The
//! incremental run does the same on the open indicators only, and closes the ones it fixes.
//!
//! Worked example: `x ∈ 1..4`, indicators of 1, 2, 3 (and `b₄ ⇔ x ≠ 4`). Fix `b₂ = 0`:
//! 2 leaves `x`, and the indicator of 2 closes. Remove 1 from `x` (another constraint): `b₁ =
//! 0`. Fix `b₄ = 0`: `x = 4`, so `b₃ = 0`: every indicator closed, the propagator is entailed
//! until the search backtracks.
//!
//! **Consistency: domain.** After a run every fixed `bₖ` agrees with `x`'s domain, and every
//! open `bₖ` has `vₖ` in `x`'s domain with at least one other value beside it: both of its
//! values have a support, and every value of `x` has one (the `b`s follow `x`). The same
//! fixpoint as the n separate `ReifiedMember` propagators, so the same search tree under a
//! fixed search.
//!
//! **Wakes on:** any change of `x`'s domain; each `bₖ` fixed. **Cost:** O(open indicators)
//! per run, one queue entry instead of n.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{
    Condition, Context, PostContext, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::reasons::{explain_boolean_atom, split_atom};
use crate::store::{RevId, Store, VarId};

/// One indicator: `b ⇔ (x = value)` when `positive`, else `b ⇔ (x ≠ value)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indicator {
    pub value: i32,
    pub b: VarId,
    pub positive: bool,
}

impl Indicator {
    /// `b ⇔ (x = value)`.
    pub fn equal(b: VarId, value: i32) -> Indicator {
        Indicator {
            value,
            b,
            positive: true,
        }
    }
    /// `b ⇔ (x ≠ value)`.
    pub fn not_equal(b: VarId, value: i32) -> Indicator {
        Indicator {
            value,
            b,
            positive: false,
        }
    }
    /// The value of `b` when `x = value` is `holds`.
    fn b_value(self, holds: bool) -> i32 {
        (holds == self.positive) as i32
    }
    /// Whether a fixed `b` says `x = value` (else `x ≠ value`).
    fn says_equal(self, b: i32) -> bool {
        (b == 1) == self.positive
    }
}

/// `bₖ ⇔ (x = vₖ)` (or `≠ vₖ`) for every indicator, as one propagator.
#[derive(Clone, Debug)]
pub struct ValueIndicators {
    x: VarId,
    indicators: Vec<Indicator>,
    /// A permutation of the indicators' positions: `order[..open]` are the open ones.
    order: Vec<u32>,
    /// Where each indicator stands in `order`.
    place: Vec<u32>,
    /// Reversible: how many indicators are open.
    open: RevId,
    /// No `b` twice, and `x` is no `b`: one run reaches the fixpoint (otherwise a `b` this
    /// propagator fixes must wake it again, for its other indicator).
    idempotent: bool,
}

impl ValueIndicators {
    pub fn new(x: VarId, indicators: Vec<Indicator>) -> ValueIndicators {
        let mut bs: Vec<VarId> = indicators.iter().map(|i| i.b).collect();
        bs.sort_by_key(|b| b.index());
        bs.dedup();
        let idempotent = bs.len() == indicators.len() && !bs.contains(&x);
        let n = indicators.len() as u32;
        ValueIndicators {
            x,
            indicators,
            order: (0..n).collect(),
            place: (0..n).collect(),
            open: RevId(0),
            idempotent,
        }
    }

    /// Make `x` agree with indicator `k`'s fixed `b`.
    fn apply(&self, ctx: &mut Context<'_>, k: usize) -> PropResult {
        let indicator = self.indicators[k];
        if indicator.says_equal(ctx.value(indicator.b)) {
            ctx.fix(self.x, indicator.value)?;
        } else {
            ctx.remove(self.x, indicator.value)?;
        }
        Ok(())
    }

    /// The value of indicator `k`'s `b` that `x`'s domain decides, if it does.
    fn decided(&self, ctx: &Context<'_>, k: usize) -> Option<i32> {
        let indicator = self.indicators[k];
        if !ctx.contains(self.x, indicator.value) {
            Some(indicator.b_value(false))
        } else if ctx.is_fixed(self.x) {
            Some(indicator.b_value(true))
        } else {
            None
        }
    }

    /// Close the indicator at position `at` of `order` (of `open` open ones): swap it to
    /// the last open place.
    fn close(&mut self, at: usize, open: usize) {
        let last = open - 1;
        let (k, other) = (self.order[at], self.order[last]);
        self.order.swap(at, last);
        self.place[k as usize] = last as u32;
        self.place[other as usize] = at as u32;
    }
}

impl Propagator for ValueIndicators {
    fn name(&self) -> &'static str {
        "value_indicators"
    }
    /// Local 0 is `x`, local `k + 1` is indicator `k`'s `b`.
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs = vec![Subscription::new(self.x, Condition::Domain)];
        subs.extend((self.indicators.iter()).map(|i| Subscription::new(i.b, Condition::Fixed)));
        subs
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        self.idempotent
    }
    fn register(&mut self, post: &mut PostContext<'_>) {
        self.open = post.new_rev(self.indicators.len() as i64);
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        for indicator in &self.indicators {
            ctx.set_min(indicator.b, 0)?;
            ctx.set_max(indicator.b, 1)?;
        }
        for k in 0..self.indicators.len() {
            if ctx.is_fixed(self.indicators[k].b) {
                self.apply(ctx, k)?;
            }
        }
        for k in 0..self.indicators.len() {
            if let Some(value) = self.decided(ctx, k) {
                ctx.fix(self.indicators[k].b, value)?;
            }
        }
        Ok(())
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        ctx.set_rev(self.open, self.indicators.len() as i64);
        for indicator in &self.indicators {
            ctx.set_min(indicator.b, 0)?;
            ctx.set_max(indicator.b, 1)?;
        }
        self.propagate(ctx)
    }
    /// Two walks over the open indicators: the fixed `b`s act on `x`, then `x` decides
    /// the `b`s it can; each indicator fixed either way closes.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let old_open = ctx.rev(self.open) as usize;
        let mut open = old_open;
        let mut at = 0;
        while at < open {
            let k = self.order[at] as usize;
            if ctx.is_fixed(self.indicators[k].b) {
                self.apply(ctx, k)?;
                self.close(at, open);
                open -= 1;
            } else {
                at += 1;
            }
        }
        let mut at = 0;
        while at < open {
            let k = self.order[at] as usize;
            if let Some(value) = self.decided(ctx, k) {
                ctx.fix(self.indicators[k].b, value)?;
                self.close(at, open);
                open -= 1;
            } else {
                at += 1;
            }
        }
        if open != old_open {
            ctx.set_rev(self.open, open as i64);
        }
        if open == 0 {
            ctx.set_entailed();
        }
        Ok(())
    }
    /// In the degree heuristics the channel weighs as the separate propagators would: on
    /// `x`, one per open indicator; on a `b`, one while its indicator is open.
    fn counts_as_several(&self) -> bool {
        true
    }
    fn open_constraints_on(&self, local: usize, store: &Store) -> u64 {
        let open = store.rev(self.open) as usize;
        match local {
            0 => open as u64,
            _ => ((self.place[local - 1] as usize) < open) as u64,
        }
    }

    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if !self.idempotent {
            return false;
        }
        if atom.var() == self.x {
            return self.explain_x(inputs, atom, reason);
        }
        let Some(k) = self.indicators.iter().position(|i| i.b == atom.var()) else {
            return false;
        };
        let indicator = self.indicators[k];
        let mut because = Vec::new();
        let forced = self
            .equality_decided(inputs, indicator.value, &mut because)
            .map(|holds| indicator.b_value(holds) == 1);
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
            Atom::describe(self.indicators[k - 1].b, &inputs[k], reason);
            return true;
        }
        // Otherwise the fixed `b`s and `x`'s domain leave `x` no value: every value of `x`'s
        // input domain is excluded by a fixed `b` (or two fixed `b`s ask for two values).
        let x = &inputs[0];
        let mut asked: Option<(i32, usize)> = None;
        for (k, indicator) in self.indicators.iter().enumerate() {
            let d = &inputs[k + 1];
            if d.is_fixed() && indicator.says_equal(d.value()) {
                match asked {
                    Some((v, j)) if v != indicator.value => {
                        reason.push(self.b_atom(inputs, j));
                        reason.push(self.b_atom(inputs, k));
                        return true;
                    }
                    _ => asked = Some((indicator.value, k)),
                }
            }
        }
        if let Some((v, k)) = asked {
            if !x.contains(v) {
                reason.push(self.b_atom(inputs, k));
                reason.push(Atom::NotEqual(self.x, v));
                return true;
            }
        }
        if x.size() > 64 {
            return false;
        }
        Atom::describe(self.x, x, reason);
        for v in x.iter() {
            match self.excluding(inputs, v) {
                Some(k) => reason.push(self.b_atom(inputs, k)),
                None => return false,
            }
        }
        true
    }
}

/// Learning's reasons: which fixed `b` excluded a value, and what decided an indicator.
impl ValueIndicators {
    /// `b`'s atom in the inputs of a fixed indicator `k`.
    fn b_atom(&self, inputs: &[Domain], k: usize) -> Atom {
        Atom::Equal(self.indicators[k].b, inputs[k + 1].min())
    }

    /// An indicator whose fixed `b` excludes value `v` of `x`: one that says `x ≠ v`, or
    /// one that says `x = w` for another `w`.
    fn excluding(&self, inputs: &[Domain], v: i32) -> Option<usize> {
        (self.indicators.iter().enumerate()).position(|(k, indicator)| {
            let d = &inputs[k + 1];
            d.is_fixed() && (indicator.says_equal(d.value()) != (indicator.value == v))
        })
    }

    /// Whether `x = v` is decided by the inputs (`Some(true)`: certain), with the atoms that
    /// decide it pushed onto `because`: `x`'s own domain, or one fixed `b`.
    fn equality_decided(&self, inputs: &[Domain], v: i32, because: &mut Vec<Atom>) -> Option<bool> {
        let x = &inputs[0];
        if !x.contains(v) {
            because.push(Atom::NotEqual(self.x, v));
            return Some(false);
        }
        if x.is_fixed() {
            because.push(Atom::Equal(self.x, v));
            return Some(true);
        }
        if let Some(k) = self.excluding(inputs, v) {
            because.push(self.b_atom(inputs, k));
            return Some(false);
        }
        // `x = v` because a fixed `b` says so, or because fixed `b`s exclude every other
        // value of `x`'s input domain (a few of them at most).
        let saying = (self.indicators.iter().enumerate()).position(|(k, indicator)| {
            let d = &inputs[k + 1];
            indicator.value == v && d.is_fixed() && indicator.says_equal(d.value())
        });
        if let Some(k) = saying {
            because.push(self.b_atom(inputs, k));
            return Some(true);
        }
        let mut others = Vec::new();
        if split_atom(Atom::Equal(self.x, v), x, because)?
            .iter()
            .all(|&w| {
                self.excluding(inputs, w)
                    .map(|k| others.push(self.b_atom(inputs, k)))
                    .is_some()
            })
        {
            because.extend(others);
            return Some(true);
        }
        None
    }

    /// An atom on `x`: its input domain's own atoms (split_atom), and for each value they
    /// leave, the fixed `b` that excluded it.
    fn explain_x(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let Some(needed) = split_atom(atom, &inputs[0], reason) else {
            return false;
        };
        let mut used: Vec<usize> = Vec::new();
        for v in needed {
            match self.excluding(inputs, v) {
                Some(k) => used.push(k),
                None => return false,
            }
        }
        used.sort_unstable();
        used.dedup();
        reason.extend(used.into_iter().map(|k| self.b_atom(inputs, k)));
        true
    }
}
