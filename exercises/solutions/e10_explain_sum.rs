//! Model answer of exercise 10 (see `exercises/src/e10_explain_sum.rs`): what the run proves
//! about one variable follows from the other's minimum `m`, which caps it at `c − m`. A new
//! max `v` below that cap landed there because the values between were already missing, so
//! those holes are part of the reason; `[· = v]` also needs `[· ≥ v]`. A failure is the two
//! minimums together.

use engine::{Atom, Condition, Context, Domain, PropResult, Propagator, Subscription, VarId};

/// `x + y ≤ c`, bounds consistent, with its explanations.
pub fn sum_at_most(x: VarId, y: VarId, c: i32) -> Box<dyn Propagator> {
    Box::new(SumAtMost { x, y, c })
}

#[derive(Clone, Debug)]
struct SumAtMost {
    x: VarId,
    y: VarId,
    c: i32,
}

impl Propagator for SumAtMost {
    fn name(&self) -> &'static str {
        "sum_at_most"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&[self.x, self.y], Condition::Bounds)
    }
    /// Complete: `x ≤ c − min(y)` and `y ≤ c − min(x)`; a failure when a max falls below
    /// its min.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        ctx.set_max(self.x, self.c.saturating_sub(ctx.min(self.y)))?;
        ctx.set_max(self.y, self.c.saturating_sub(ctx.min(self.x)))?;
        Ok(())
    }
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let (own, other, other_input) = if atom.var() == self.x {
            (self.x, self.y, &inputs[1])
        } else {
            (self.y, self.x, &inputs[0])
        };
        let m = other_input.min();
        let cap = self.c.saturating_sub(m);
        reason.push(Atom::AtLeast(other, m));
        let own_input = if own == self.x {
            &inputs[0]
        } else {
            &inputs[1]
        };
        let new_max = match atom {
            Atom::AtMost(_, v) => Some(v),
            Atom::Equal(_, v) => {
                reason.push(Atom::AtLeast(own, v));
                Some(v)
            }
            _ => None,
        };
        if let Some(v) = new_max {
            for w in (v + 1..=cap).filter(|&w| !own_input.contains(w)) {
                reason.push(Atom::NotEqual(own, w));
            }
        }
        true
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        reason.push(Atom::AtLeast(self.x, inputs[0].min()));
        reason.push(Atom::AtLeast(self.y, inputs[1].min()));
        true
    }
}
