//! Model answer of exercise 3e (see `exercises/src/e03_fix_less_than.rs`): `x` is at most
//! `max(y) - 1`, not `max(y)`; the harness shows the case where `x = max(y)` is left
//! without a support.

use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

/// `x < y`, bounds consistent.
pub fn less_than(x: VarId, y: VarId) -> Box<dyn Propagator> {
    Box::new(LessThan { x, y })
}

#[derive(Clone, Debug)]
struct LessThan {
    x: VarId,
    y: VarId,
}

impl Propagator for LessThan {
    fn name(&self) -> &'static str {
        "less_than"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&[self.x, self.y], Condition::Bounds)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        ctx.set_max(self.x, ctx.max(self.y).saturating_sub(1))?;
        ctx.set_min(self.y, ctx.min(self.x).saturating_add(1))?;
        Ok(())
    }
}
