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
//! **Wakes on:** any change of `x` or `y`; `b` fixed. **Cost:** O(values of `x` and `y`)
//! per run at most: the shared-value test leaps from one domain to the other
//! (`Domain::next_from`), so two wide intervals cost O(1).

use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
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
}
