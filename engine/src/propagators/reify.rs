//! # Reification: a 0/1 variable that tells whether a constraint holds
//!
//! **Enforces:** `b ⇔ (x = v)` ([`ReifyEq`]) and `b ⇔ (x <= v)` ([`ReifyLe`]) with `b ∈ {0,
//! 1}` and `v` a constant. Reified constraints are how a model *counts* or *combines*
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

/// `b ⇔ (x = v)`.
#[derive(Clone, Debug)]
pub struct ReifyEq {
    b: VarId,
    x: VarId,
    v: i32,
}

impl ReifyEq {
    pub fn new(b: VarId, x: VarId, v: i32) -> ReifyEq {
        ReifyEq { b, x, v }
    }
}

impl Propagator for ReifyEq {
    fn name(&self) -> &'static str {
        "reify_eq"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.b, Condition::Fixed),
            Subscription::new(self.x, Condition::Domain),
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
        if ctx.is_fixed(b) {
            if ctx.value(b) == 1 {
                ctx.fix(x, v)?;
            } else {
                ctx.remove(x, v)?;
            }
            ctx.set_entailed();
        } else if !ctx.contains(x, v) {
            ctx.fix(b, 0)?;
            ctx.set_entailed();
        } else if ctx.is_fixed(x) {
            ctx.fix(b, 1)?;
            ctx.set_entailed();
        }
        Ok(())
    }
}

/// `b ⇔ (x <= v)`.
#[derive(Clone, Debug)]
pub struct ReifyLe {
    b: VarId,
    x: VarId,
    v: i32,
}

impl ReifyLe {
    pub fn new(b: VarId, x: VarId, v: i32) -> ReifyLe {
        ReifyLe { b, x, v }
    }
}

impl Propagator for ReifyLe {
    fn name(&self) -> &'static str {
        "reify_le"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.b, Condition::Fixed),
            Subscription::new(self.x, Condition::Bounds),
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
        if ctx.is_fixed(b) {
            if ctx.value(b) == 1 {
                ctx.set_max(x, v)?;
            } else if v == i32::MAX {
                return Err(crate::Conflict::new()); // x > i32::MAX is impossible
            } else {
                ctx.set_min(x, v + 1)?;
            }
            ctx.set_entailed();
        } else if ctx.max(x) <= v {
            ctx.fix(b, 1)?;
            ctx.set_entailed();
        } else if ctx.min(x) > v {
            ctx.fix(b, 0)?;
            ctx.set_entailed();
        }
        Ok(())
    }
}
