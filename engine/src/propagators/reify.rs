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

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::{
    explain_boolean_atom, implies, split_atom, view_at_least, view_at_most,
};
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
    /// `b`'s value is forced by `x`'s domain (the condition certain or impossible), or
    /// `x`'s by `b`'s: the reason is the other side, in the weakest atom that does it.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let (b, x) = (self.b, self.x);
        if x.var() == b {
            return false;
        }
        if atom.var() == b {
            let (forced, because) = self.deciding_atom(&inputs[1]);
            let because: Vec<Atom> = because.into_iter().collect();
            let forced = forced.map(|value| (value, &because[..]));
            return explain_boolean_atom(atom, &inputs[0], forced, reason);
        }
        let truth = match (inputs[0].contains(0), inputs[0].contains(1)) {
            (true, false) => false,
            (false, true) => true,
            _ => return false,
        };
        let b_atom = Atom::NotEqual(b, !truth as i32);
        // The side `b` enforces, as an atom on `x`'s variable when it is one.
        let direct = match (self.condition, truth) {
            (Reified::Equal, true) => x.inverse(self.v).map(|u| Atom::Equal(x.var(), u)),
            (Reified::Equal, false) => x.inverse(self.v).map(|u| Atom::NotEqual(x.var(), u)),
            (Reified::LessEqual, true) => view_at_most(x, self.v),
            (Reified::LessEqual, false) => view_at_least(x, self.v + 1),
        };
        match direct {
            Some(direct) if implies(direct, atom) => {
                reason.push(b_atom);
                true
            }
            Some(direct) => {
                let Some(needed) = split_atom(atom, &inputs[1], reason) else {
                    return false;
                };
                reason.push(b_atom);
                needed.iter().all(|&u| !direct.holds_for(u))
            }
            None => false,
        }
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let (b, x) = (self.b, self.x);
        if x.var() == b {
            return false;
        }
        let truth = match (inputs[0].contains(0), inputs[0].contains(1)) {
            (false, false) => {
                Atom::describe(b, &inputs[0], reason);
                return true;
            }
            (true, false) => false,
            (false, true) => true,
            (true, true) => return false,
        };
        let (decided, because) = self.deciding_atom(&inputs[1]);
        if decided != Some(!truth) {
            return false;
        }
        reason.push(Atom::NotEqual(b, !truth as i32));
        reason.extend(because);
        true
    }
}

impl Reify {
    /// Whether `x`'s domain `d` decides the condition (`Some(true)`: certain, `Some(false)`:
    /// impossible), and the weakest atom of `d` that does (none when no value of `x` could
    /// ever satisfy it).
    fn deciding_atom(&self, d: &Domain) -> (Option<bool>, Option<Atom>) {
        let (x, v) = (self.x, self.v);
        let (min, max) = if x.scale() > 0 {
            (x.show(d.min()), x.show(d.max()))
        } else {
            (x.show(d.max()), x.show(d.min()))
        };
        match self.condition {
            Reified::Equal => match x.inverse(v) {
                None => (Some(false), None),
                Some(u) if !d.contains(u) => (Some(false), Some(Atom::NotEqual(x.var(), u))),
                Some(u) if d.is_fixed() => (Some(true), Some(Atom::Equal(x.var(), u))),
                Some(_) => (None, None),
            },
            Reified::LessEqual if max <= v => (Some(true), view_at_most(x, v)),
            Reified::LessEqual if min > v => (Some(false), view_at_least(x, v + 1)),
            Reified::LessEqual => (None, None),
        }
    }
}
