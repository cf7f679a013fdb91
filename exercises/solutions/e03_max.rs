//! Model answer of exercise 3c (see `exercises/src/e03_max.rs`).

use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

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

impl Max {
    /// If `other` can no longer reach `z`'s minimum, `side` must be `z`: `side >= min(z)`.
    fn only_side_reaches(&self, ctx: &mut Context<'_>, side: VarId, other: VarId) -> PropResult {
        if ctx.max(other) < ctx.min(self.z) {
            ctx.set_min(side, ctx.min(self.z))?;
        }
        Ok(())
    }
}

impl Propagator for Max {
    fn name(&self) -> &'static str {
        "max"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&[self.x, self.y, self.z], Condition::Bounds)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        // z is at least the larger minimum and at most the larger maximum.
        ctx.set_min(z, ctx.min(x).max(ctx.min(y)))?;
        ctx.set_max(z, ctx.max(x).max(ctx.max(y)))?;
        // Neither side exceeds z.
        ctx.set_max(x, ctx.max(z))?;
        ctx.set_max(y, ctx.max(z))?;
        // A side that alone can reach z must reach it.
        self.only_side_reaches(ctx, x, y)?;
        self.only_side_reaches(ctx, y, x)?;
        Ok(())
    }
}
