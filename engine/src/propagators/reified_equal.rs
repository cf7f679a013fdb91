//! # Reified equality of two variables, on their domains
//!
//! **Enforces:** `b ⇔ (x = y)` (or `b ⇔ (x ≠ y)`, the other *sign*), or the half
//! reification `b ⇒ ...` of either (MiniZinc's `_imp` forms), two integer variables `x`, `y`
//! and a 0/1 variable `b`. MiniZinc writes every `x = y` of two variables that a model uses
//! as a condition as one `int_eq_reif` (`int_ne_reif`, `int_eq_imp`, ...): "if this match
//! is selected, the block of the datum it defines is the block it is placed in".
//!
//! **Why not the linear form.** `b ⇔ x - y = 0` (`reified.rs`) decides `b` on the bounds
//! of `x - y`: with `x ∈ {0, 2, 3, 4}` and `y ∈ {1, 5}` the bounds `-5..3` hold 0, so `b`
//! stays open although the two share no value. Gecode tests the domains here (its default
//! for a reified equality of two variables), and a model whose `table` rows leave `y` only
//! values `x` has lost then fails at once in Gecode and after a search in cpsolve. This
//! propagator reasons on the domains, as Gecode does.
//!
//! **Algorithm.** With `eq` the relation `x = y`:
//! * `eq` required (`b` fixed on its side): `x` and `y` keep the values they share;
//! * `x ≠ y` required: a fixed one's value leaves the other;
//! * `b` open: no shared value makes `eq` impossible; both fixed to one value makes it
//!   certain; `b` follows when the reification allows (a half reification only ever sets
//!   `b = 0`), and then the rule of its side applies.
//!
//! Worked example: `b ⇔ x = y`, `x ∈ {0, 2, 3, 4}`, `y ∈ {1, 5}`: no shared value, `b = 0`,
//! and since neither is fixed nothing else goes. Fix `b = 1` instead: the run fails.
//!
//! **Consistency: domain.** With `b` open, each value `v` of `x` has a support: `b` on the
//! `eq` side with `y = v` if `v ∈ D(y)`, else `b` on the other side with any value of `y`
//! (`y` is not fixed to `v`, or `v` would be shared). With `b` fixed, the rule of its side
//! is domain consistent for `x = y` (shared values) and for `x ≠ y`.
//!
//! **Explanations** (learning): `b` decided by two domains that share no value names their
//! bounds and, between them, the value each lacks (at most 64); a value gone from `x`
//! because `b` asks `x = y` names `b` and the value's absence from `y`; a value gone
//! because `b` asks `x ≠ y` names `b` and `y`'s fixed value.
//!
//! **Wakes on:** any change of `x` or `y`; `b` fixed. **Cost:** O(values of `x` and `y`)
//! per run at most: the shared-value test leaps from one domain to the other
//! (`Domain::next_from`), so two wide intervals cost O(1).

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::{explain_boolean_atom, split_atom};
use crate::store::VarId;

/// `b ⇔ (x = y)` when `positive` (else `b ⇔ (x ≠ y)`); `b ⇒ ...` when `half`.
#[derive(Clone, Debug)]
pub struct ReifiedEqual {
    b: VarId,
    x: VarId,
    y: VarId,
    positive: bool,
    half: bool,
}

/// Whether two domains share a value: leap from each to the next value of the other.
pub fn share_a_value(a: &Domain, b: &Domain) -> bool {
    let last = a.max().min(b.max());
    let mut v = a.min().max(b.min());
    while v <= last {
        let Some(u) = a.next_from(v) else {
            return false;
        };
        match b.next_from(u) {
            Some(w) if w == u => return true,
            Some(w) => v = w,
            None => return false,
        }
    }
    false
}

impl ReifiedEqual {
    /// `x`, `y` and `b` must be three different variables.
    pub fn new(b: VarId, x: VarId, y: VarId, positive: bool, half: bool) -> ReifiedEqual {
        assert!(
            b != x && b != y && x != y,
            "ReifiedEqual needs three variables"
        );
        ReifiedEqual {
            b,
            x,
            y,
            positive,
            half,
        }
    }

    /// `x = y` on the domains.
    fn require_equal(&self, ctx: &mut Context<'_>) -> PropResult {
        let dy = ctx.domain(self.y).clone();
        ctx.intersect(self.x, &dy)?;
        let dx = ctx.domain(self.x).clone();
        ctx.intersect(self.y, &dx)?;
        if ctx.is_fixed(self.x) {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// `x ≠ y`: a fixed one's value leaves the other.
    fn require_different(&self, ctx: &mut Context<'_>) -> PropResult {
        if ctx.is_fixed(self.x) {
            ctx.remove(self.y, ctx.value(self.x))?;
            ctx.set_entailed();
        } else if ctx.is_fixed(self.y) {
            ctx.remove(self.x, ctx.value(self.y))?;
            ctx.set_entailed();
        } else if !share_a_value(ctx.domain(self.x), ctx.domain(self.y)) {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// With `b` fixed: what its side asks of `x` and `y`.
    fn apply_b(&self, ctx: &mut Context<'_>) -> PropResult {
        let relation = ctx.value(self.b) == 1;
        if !relation && self.half {
            ctx.set_entailed();
            return Ok(());
        }
        // The relation (or its negation) that must hold, read as "x = y" or "x ≠ y".
        if relation == self.positive {
            self.require_equal(ctx)
        } else {
            self.require_different(ctx)
        }
    }
}

impl Propagator for ReifiedEqual {
    fn name(&self) -> &'static str {
        "equal_reif"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.b, Condition::Fixed),
            Subscription::new(self.x, Condition::Domain),
            Subscription::new(self.y, Condition::Domain),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        ctx.set_min(self.b, 0)?;
        ctx.set_max(self.b, 1)?;
        if !ctx.is_fixed(self.b) {
            let (dx, dy) = (ctx.domain(self.x), ctx.domain(self.y));
            let equal_impossible = !share_a_value(dx, dy);
            let equal_certain = dx.is_fixed() && dy.is_fixed() && dx.value() == dy.value();
            let (impossible, certain) = if self.positive {
                (equal_impossible, equal_certain)
            } else {
                (equal_certain, equal_impossible)
            };
            if impossible {
                ctx.fix(self.b, 0)?;
            } else if certain && !self.half {
                ctx.fix(self.b, 1)?;
            } else {
                if certain {
                    ctx.set_entailed();
                }
                return Ok(());
            }
        }
        self.apply_b(ctx)
    }

    /// Local 0 is `b`, 1 is `x`, 2 is `y`.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if atom.var() == self.b {
            let mut because = Vec::new();
            let forced = self.b_forced(inputs, &mut because);
            return explain_boolean_atom(
                atom,
                &inputs[0],
                forced.map(|v| (v, &because[..])),
                reason,
            );
        }
        let (z, other) = if atom.var() == self.x { (1, 2) } else { (2, 1) };
        let Some(equal) = self.side_required(&inputs[0]) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[z], reason) else {
            return false;
        };
        let d = &inputs[other];
        let other_var = if other == 1 { self.x } else { self.y };
        let explained = if equal {
            // Each value gone from `z` is not a value of the other.
            needed.iter().all(|&v| absent(other_var, d, v, reason))
        } else {
            // The other is fixed, and its value is the one gone.
            d.is_fixed() && needed.iter().all(|&v| v == d.value()) && {
                reason.push(Atom::Equal(other_var, d.value()));
                true
            }
        };
        reason.push(Atom::Equal(self.b, inputs[0].min()));
        explained
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if !inputs[0].contains(0) && !inputs[0].contains(1) {
            Atom::describe(self.b, &inputs[0], reason);
            return true;
        }
        let Some(equal) = self.side_required(&inputs[0]) else {
            return false;
        };
        reason.push(Atom::Equal(self.b, inputs[0].min()));
        let (dx, dy) = (&inputs[1], &inputs[2]);
        if equal {
            no_shared_value(self.x, dx, self.y, dy, reason)
        } else if dx.is_fixed() && dy.is_fixed() && dx.value() == dy.value() {
            reason.push(Atom::Equal(self.x, dx.value()));
            reason.push(Atom::Equal(self.y, dy.value()));
            true
        } else {
            false
        }
    }
}

/// Learning's reasons.
impl ReifiedEqual {
    /// With `b` fixed in its input domain `d`: whether its side asks `x = y` (`Some(true)`)
    /// or `x ≠ y` (`Some(false)`); `None` when `b` is open or asks nothing (a half
    /// reification's `b = 0`).
    fn side_required(&self, d: &Domain) -> Option<bool> {
        if !d.is_fixed() {
            return None;
        }
        let relation = d.value() == 1;
        if !relation && self.half {
            return None;
        }
        Some(relation == self.positive)
    }

    /// The value of `b` the input domains of `x` and `y` force, with the atoms that do.
    fn b_forced(&self, inputs: &[Domain], because: &mut Vec<Atom>) -> Option<bool> {
        let (dx, dy) = (&inputs[1], &inputs[2]);
        let equal_certain = dx.is_fixed() && dy.is_fixed() && dx.value() == dy.value();
        let equal_holds = if equal_certain {
            because.push(Atom::Equal(self.x, dx.value()));
            because.push(Atom::Equal(self.y, dy.value()));
            true
        } else if no_shared_value(self.x, dx, self.y, dy, because) {
            false
        } else {
            return None;
        };
        let relation = equal_holds == self.positive;
        (!relation || !self.half).then_some(relation)
    }
}

/// Push the atom of `d` (the input domain of `x`) that excludes `v`; `false` if `v` is in it.
fn absent(x: VarId, d: &Domain, v: i32, reason: &mut Vec<Atom>) -> bool {
    if v < d.min() {
        reason.push(Atom::AtLeast(x, d.min()));
    } else if v > d.max() {
        reason.push(Atom::AtMost(x, d.max()));
    } else if !d.contains(v) {
        reason.push(Atom::NotEqual(x, v));
    } else {
        return false;
    }
    true
}

/// Push atoms of the input domains `dx`, `dy` that say `x` and `y` share no value: their
/// bounds, and for each value both ranges hold, the one that lacks it (at most 64 values;
/// `false`, with nothing pushed, if more or if they share one).
fn no_shared_value(x: VarId, dx: &Domain, y: VarId, dy: &Domain, reason: &mut Vec<Atom>) -> bool {
    let (lo, hi) = (dx.min().max(dy.min()) as i64, dx.max().min(dy.max()) as i64);
    if hi - lo >= 64 || share_a_value(dx, dy) {
        return false;
    }
    reason.extend([
        Atom::AtLeast(x, dx.min()),
        Atom::AtMost(x, dx.max()),
        Atom::AtLeast(y, dy.min()),
        Atom::AtMost(y, dy.max()),
    ]);
    for v in lo..=hi {
        let v = v as i32;
        reason.push(if dx.contains(v) {
            Atom::NotEqual(y, v)
        } else {
            Atom::NotEqual(x, v)
        });
    }
    true
}
