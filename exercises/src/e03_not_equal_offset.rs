//! # Exercise 3b — `x ≠ y + c` (chapter 3, `docs/03-propagators-and-queue.md`)
//!
//! The constraint of n-queens' diagonals. Write a **domain consistent** propagator: think
//! about which values of `x` lose their every support in `y`, and when that can happen at
//! all. Wake it only when it can prune (`Condition::Fixed` is enough here: why?).
//!
//! Mind overflow: `y + c` must not wrap for values near `i32::MIN` or `i32::MAX` (compute in
//! `i64`).

use engine::{Context, PropResult, Propagator, Subscription, VarId};

/// `x ≠ y + c`, domain consistent.
pub fn not_equal_offset(x: VarId, y: VarId, c: i32) -> Box<dyn Propagator> {
    Box::new(NotEqualOffset { x, y, c })
}

#[derive(Clone, Debug)]
struct NotEqualOffset {
    x: VarId,
    y: VarId,
    c: i32,
}

impl Propagator for NotEqualOffset {
    fn name(&self) -> &'static str {
        "not_equal_offset"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        todo!()
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let _ = (ctx, self.x, self.y, self.c);
        todo!("a value of x loses its support only when y is fixed, and the other way round")
    }
}
