//! # Exercise 3c — `z = max(x, y)` on bounds (chapter 3, `docs/03-propagators-and-queue.md`)
//!
//! Write a **bounds consistent** propagator (bounds(Z), `docs/07-testing-propagators.md`):
//! after it has run to its fixpoint, the smallest and the largest value of each variable
//! belong to some solution whose other values lie within the other variables' bounds.
//! Reason on `min` and `max` only (`ctx.set_min`, `ctx.set_max`); there are five rules:
//! two for `z`, one for each of `x` and `y` from above, and one more for when one side can
//! no longer reach `z`.
//!
//! The engine runs a propagator again after its own prunings unless it says it is
//! idempotent, so one pass of the rules is enough.

use engine::{Context, PropResult, Propagator, Subscription, VarId};

/// `z = max(x, y)`, bounds consistent.
pub fn max(x: VarId, y: VarId, z: VarId) -> Box<dyn Propagator> {
    Box::new(Max { x, y, z })
}

#[derive(Clone, Debug)]
struct Max {
    x: VarId,
    y: VarId,
    z: VarId,
}

impl Propagator for Max {
    fn name(&self) -> &'static str {
        "max"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        todo!("bounds events are enough: Condition::Bounds")
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let _ = (ctx, self.x, self.y, self.z);
        todo!("z between the larger min and the larger max; x, y at most max(z); ...")
    }
}
