//! # The maximum (or minimum) of an array: `z = max(x₁, …, xₙ)` in one propagator
//!
//! **Enforces:** `z = max(x₁, …, xₙ)`, or `z = min(x₁, …, xₙ)` (FlatZinc's
//! `array_int_maximum` and `array_int_minimum`). Without it MiniZinc writes the array's
//! maximum as a chain of `n − 1` binary `int_max` through `n − 2` new variables: as
//! many propagators and variables to wake and trail for one fact. Gecode reads the
//! builtin as one propagator too (its `max(x, y)` over an array).
//!
//! **Algorithm (for max; min is the mirror).** Four rules, to a fixpoint:
//!
//! 1. `z ≥ max min xᵢ` — some `xᵢ` is at least its own minimum;
//! 2. `z ≤ max max xᵢ` — no `xᵢ` exceeds its own maximum;
//! 3. `xᵢ ≤ max z` for every `i` — the maximum bounds every entry;
//! 4. when only one variable `xⱼ` can still reach `min z` (`max xⱼ ≥ min z`), it is the
//!    maximum: `xⱼ ≥ min z`. When none can, rule 2 has already failed.
//!
//! A variable written twice in the array counts once in rule 4 (it is one candidate).
//!
//! **Consistency:** bounds(Z), as Gecode's: at the fixpoint the bounds of `z` and of each
//! `xᵢ` have a support with the others inside their intervals (checked against brute force
//! in `engine/tests/arithmetic.rs`). The binary chain with its small domains enumerated can
//! remove inner values of `z` this propagator leaves.
//!
//! **Wakes on:** bounds of any `xᵢ` and of `z`. **Cost:** O(n) per run of the rules.

use crate::propagator::{Condition, Context, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// `z = max(xs)` (or `min(xs)` when `maximum` is false).
#[derive(Clone, Debug)]
pub struct ArrayExtremum {
    maximum: bool,
    xs: Vec<VarId>,
    z: VarId,
}

impl ArrayExtremum {
    /// `z = max(xs)` when `maximum`, else `z = min(xs)`. `xs` must not be empty.
    pub fn new(maximum: bool, xs: &[VarId], z: VarId) -> ArrayExtremum {
        assert!(!xs.is_empty(), "the extremum of an empty array");
        ArrayExtremum {
            maximum,
            xs: xs.to_vec(),
            z,
        }
    }

    /// The rules for max, once; returns whether anything moved.
    fn max_rules(&self, ctx: &mut Context<'_>) -> Result<bool, crate::Conflict> {
        let z = self.z;
        let floor = self.xs.iter().map(|&x| ctx.min(x)).max().unwrap();
        let ceiling = self.xs.iter().map(|&x| ctx.max(x)).max().unwrap();
        let mut moved = ctx.set_min(z, floor)?;
        moved |= ctx.set_max(z, ceiling)?;
        let top = ctx.max(z);
        for &x in &self.xs {
            moved |= ctx.set_max(x, top)?;
        }
        if let Some(only) = self.only_candidate(ctx, |ctx, x| ctx.max(x) >= ctx.min(z)) {
            moved |= ctx.set_min(only, ctx.min(z))?;
        }
        Ok(moved)
    }

    /// The rules for min, once (the mirror of `max_rules`).
    fn min_rules(&self, ctx: &mut Context<'_>) -> Result<bool, crate::Conflict> {
        let z = self.z;
        let floor = self.xs.iter().map(|&x| ctx.min(x)).min().unwrap();
        let ceiling = self.xs.iter().map(|&x| ctx.max(x)).min().unwrap();
        let mut moved = ctx.set_min(z, floor)?;
        moved |= ctx.set_max(z, ceiling)?;
        let bottom = ctx.min(z);
        for &x in &self.xs {
            moved |= ctx.set_min(x, bottom)?;
        }
        if let Some(only) = self.only_candidate(ctx, |ctx, x| ctx.min(x) <= ctx.max(z)) {
            moved |= ctx.set_max(only, ctx.max(z))?;
        }
        Ok(moved)
    }

    /// The one variable of `xs` (however often written) that can still be the extremum,
    /// if there is exactly one.
    fn only_candidate(
        &self,
        ctx: &Context<'_>,
        can_be_it: impl Fn(&Context<'_>, VarId) -> bool,
    ) -> Option<VarId> {
        let mut found: Option<VarId> = None;
        for &x in &self.xs {
            if can_be_it(ctx, x) {
                match found {
                    Some(y) if y != x => return None,
                    _ => found = Some(x),
                }
            }
        }
        found
    }
}

impl Propagator for ArrayExtremum {
    fn name(&self) -> &'static str {
        if self.maximum {
            "array_int_maximum"
        } else {
            "array_int_minimum"
        }
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs: Vec<Subscription> = (self.xs.iter())
            .map(|&x| Subscription::new(x, Condition::Bounds))
            .collect();
        subs.push(Subscription::new(self.z, Condition::Bounds));
        subs
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        loop {
            let moved = if self.maximum {
                self.max_rules(ctx)?
            } else {
                self.min_rules(ctx)?
            };
            if !moved {
                return Ok(());
            }
        }
    }

    fn idempotent(&self) -> bool {
        true
    }
}
