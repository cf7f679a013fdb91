//! Model answer of exercise 3d (see `exercises/src/e03_sum.rs`).

use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

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

/// `v` clamped into `i32`: a bound beyond it prunes nothing or empties the domain anyway.
fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

impl Propagator for SumEquals {
    fn name(&self) -> &'static str {
        "sum_equals"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Bounds)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let sum_min: i64 = self.xs.iter().map(|&x| ctx.min(x) as i64).sum();
        let sum_max: i64 = self.xs.iter().map(|&x| ctx.max(x) as i64).sum();
        for &x in &self.xs {
            let (lo, hi) = (ctx.min(x) as i64, ctx.max(x) as i64);
            // The others add up to between sum_min - lo and sum_max - hi.
            ctx.set_min(x, clamp(self.total - (sum_max - hi)))?;
            ctx.set_max(x, clamp(self.total - (sum_min - lo)))?;
        }
        Ok(())
    }
}
