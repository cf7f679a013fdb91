//! Model answer of exercise 3b (see `exercises/src/e03_not_equal_offset.rs`).

use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

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

/// `v` as an `i32` if it is one: a value outside `i32` is in no domain.
fn as_value(v: i64) -> Option<i32> {
    i32::try_from(v).ok()
}

impl Propagator for NotEqualOffset {
    fn name(&self) -> &'static str {
        "not_equal_offset"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        // A value of one side loses its support only when the other side has one value left.
        Subscription::all(&[self.x, self.y], Condition::Fixed)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let c = self.c as i64;
        if ctx.is_fixed(self.y) {
            if let Some(v) = as_value(ctx.value(self.y) as i64 + c) {
                ctx.remove(self.x, v)?;
            }
        }
        if ctx.is_fixed(self.x) {
            if let Some(w) = as_value(ctx.value(self.x) as i64 - c) {
                ctx.remove(self.y, w)?;
            }
        }
        Ok(())
    }
}
