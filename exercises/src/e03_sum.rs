//! # Exercise 3d — a bounds consistent sum (chapter 3, `docs/03-propagators-and-queue.md`)
//!
//! `x₁ + x₂ + … + xₙ = total`. For each `xᵢ`, the others can add up to at least
//! `Σ min(others)` and at most `Σ max(others)`: so `xᵢ` lies between `total − Σ max(others)`
//! and `total − Σ min(others)`. Compute the two sums once (not once per variable) and reason
//! in `i64`: `n` values near `i32::MAX` overflow an `i32` sum.
//!
//! The grader asks for bounds consistency (bounds(Z)) on 2 to 4 variables.

use engine::{Context, PropResult, Propagator, Subscription, VarId};

/// `Σ xs = total`, bounds consistent.
pub fn sum_equals(xs: &[VarId], total: i64) -> Box<dyn Propagator> {
    Box::new(SumEquals {
        xs: xs.to_vec(),
        total,
    })
}

#[derive(Clone, Debug)]
struct SumEquals {
    xs: Vec<VarId>,
    total: i64,
}

impl Propagator for SumEquals {
    fn name(&self) -> &'static str {
        "sum_equals"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        todo!()
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let _ = (ctx, &self.xs, self.total);
        todo!("the sums of the mins and of the maxes, then each variable's new bounds")
    }
}
