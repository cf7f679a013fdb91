//! Model answer of exercise 3a (see `exercises/src/e03_abs.rs`).

use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

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
        Subscription::all(&[self.x, self.y], Condition::Domain)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y) = (self.x, self.y);
        // y keeps the absolute values of x's values.
        let of_x: Vec<i64> = ctx.domain(x).iter().map(|v| (v as i64).abs()).collect();
        ctx.retain(y, |w| of_x.contains(&(w as i64)))?;
        // x keeps the values whose absolute value y still holds.
        let ys: Vec<i64> = ctx.domain(y).iter().map(|w| w as i64).collect();
        ctx.retain(x, |v| ys.contains(&(v as i64).abs()))?;
        Ok(())
    }
}
