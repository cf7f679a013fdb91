//! # Exercise 3e — fix a propagator (chapter 3 and chapter 7)
//!
//! This propagator of `x < y` claims bounds consistency and has a bug. Do not look for it
//! first: run the grader (`cargo test -p exercises e03_fix_less_than`), read the case the
//! harness prints, work out on paper what the domains should have become, then fix the code.

use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

/// `x < y`, bounds consistent (once fixed).
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
        ctx.set_max(self.x, ctx.max(self.y))?;
        ctx.set_min(self.y, ctx.min(self.x).saturating_add(1))?;
        Ok(())
    }
}
