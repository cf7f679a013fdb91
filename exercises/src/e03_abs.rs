//! # Exercise 3a — the propagator of `y = |x|` (chapter 3, `docs/03-propagators-and-queue.md`)
//!
//! MiniCP's *Absolute*. Write a propagator that is **domain consistent**: after it runs,
//! every value left in `x` has its absolute value in `y`, and every value left in `y` is
//! the absolute value of some value left in `x`. Chapter 3's eight steps say what to write;
//! `engine/src/propagators/relations.rs` is a propagator of the same size to read first.
//!
//! The grader runs the harness of chapter 7 on hundreds of random domains between -4 and 4.
//! The classic mistake: keeping in `x` only the values `v` that `y` holds, forgetting that
//! `-v` is supported by `|v|` too.

use engine::{Context, PropResult, Propagator, Subscription, VarId};

/// `y = |x|`, domain consistent.
pub fn abs(x: VarId, y: VarId) -> Box<dyn Propagator> {
    Box::new(Abs { x, y })
}

#[derive(Clone, Debug)]
struct Abs {
    x: VarId,
    y: VarId,
}

impl Propagator for Abs {
    fn name(&self) -> &'static str {
        "abs"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        todo!("which variables, woken by which events (Condition::Domain, Bounds or Fixed)?")
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let _ = (ctx, self.x, self.y);
        todo!("prune y to the |v| of x's values, then x to the values whose |v| y holds")
    }
}
