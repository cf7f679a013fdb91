//! # Reification: a 0/1 variable that tells whether a constraint holds
//!
//! **Enforces:** `b ⇔ (x = v)` and `b ⇔ (x <= v)` ([`Reify`]) with `b ∈ {0, 1}`, `x` a view
//! (`view.rs`: a variable, or `a·y + c`) and `v` a constant. Reified constraints are how a model *counts* or *combines*
//! conditions: "the number of black cells next to this one", "if this cell is a 3 then ...".
//!
//! **Algorithm.** Information flows both ways:
//!
//! * from `b` to `x`: `b = 1` posts the constraint (`x = v`, or `x <= v`), `b = 0` posts its
//!   negation (`x != v`, or `x >= v + 1`);
//! * from `x` to `b`: if the domain of `x` makes the constraint certain, `b = 1`; if it makes
//!   it impossible, `b = 0`.
//!
//! Worked example: `b ⇔ (x = 4)` with `x ∈ {1, 4, 6}`. Remove 4 from `x`: `b = 0`. Or fix
//! `b = 1`: `x = 4`.
//!
//! **Consistency: domain.** Every value left has a support: while `b` is free, both outcomes
//! are possible, so every value of `x` fits one of them. Once one of the two is fixed the
//! constraint is entailed. One run is the fixpoint (idempotent).
//!
//! **Wakes on:** `b` fixed; for `=`, any removal from `x` (losing `v`); for `<=`, a bound of
//! `x`. **Cost:** O(1) (plus the domain operation).

use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;
use crate::view::View;

/// The condition a [`Reify`] watches: `x = v` or `x ≤ v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reified {
    Equal,
    LessEqual,
}

/// `b ⇔ (x = v)` or `b ⇔ (x ≤ v)`.
#[derive(Clone, Debug)]
pub struct Reify {
    b: VarId,
    x: View,
    condition: Reified,
    v: i64,
}

impl Reify {
    /// `b ⇔ (x = v)`.
    pub fn equal(b: VarId, x: impl Into<View>, v: i32) -> Reify {
        Reify {
            b,
            x: x.into(),
            condition: Reified::Equal,
            v: v as i64,
        }
    }
    /// `b ⇔ (x ≤ v)`.
    pub fn less_equal(b: VarId, x: impl Into<View>, v: i32) -> Reify {
        Reify {
            b,
            x: x.into(),
            condition: Reified::LessEqual,
            v: v as i64,
        }
    }
}

impl Propagator for Reify {
    fn name(&self) -> &'static str {
        match self.condition {
            Reified::Equal => "reify_eq",
            Reified::LessEqual => "reify_le",
        }
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let on_x = match self.condition {
            Reified::Equal => Condition::Domain,
            Reified::LessEqual => Condition::Bounds,
        };
        vec![
            Subscription::new(self.b, Condition::Fixed),
            self.x.subscription(on_x),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (b, x, v) = (self.b, self.x, self.v);
        ctx.set_min(b, 0)?;
        ctx.set_max(b, 1)?;
        let (holds, fails) = match self.condition {
            Reified::Equal => (x.is_fixed(ctx) && x.value(ctx) == v, !x.contains(ctx, v)),
            Reified::LessEqual => (x.max(ctx) <= v, x.min(ctx) > v),
        };
        if ctx.is_fixed(b) {
            match (self.condition, ctx.value(b) == 1) {
                (Reified::Equal, true) => x.fix(ctx, v)?,
                (Reified::Equal, false) => x.remove(ctx, v)?,
                (Reified::LessEqual, true) => x.set_max(ctx, v)?,
                (Reified::LessEqual, false) => x.set_min(ctx, v + 1)?,
            };
            ctx.set_entailed();
        } else if fails {
            ctx.fix(b, 0)?;
            ctx.set_entailed();
        } else if holds {
            ctx.fix(b, 1)?;
            ctx.set_entailed();
        }
        Ok(())
    }
}
