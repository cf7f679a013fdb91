//! # Binary relations: `x = y + c`, and `x ≠ y`, `x ≤ y` on views
//!
//! The smallest propagators, and the best place to see the pattern every propagator follows:
//! read the domains, remove what has no support, say when the constraint can never prune
//! again (entailment).
//!
//! | constraint | consistency | wakes on | cost |
//! |---|---|---|---|
//! | `x = y + c` | domain (every value left has a support) | any removal | O(size) |
//! | `x ≠ y` ([`Compare`] on two views, e.g. `x ≠ y + c`) | domain (acts once one side is fixed) | fixed | O(1) |
//! | `x ≤ y` ([`Compare`] on two views, e.g. `x ≤ y + c`) | bounds (= domain for this constraint) | bounds | O(1) |
//!
//! `≠` and `≤` are one propagator over two views (`view.rs`): `x ≤ y + c`, `x ≥ y`,
//! `x ≠ −y` are the same code on other views. Arithmetic is done in `i64`, so `c` near the
//! ends of the `i32` range cannot overflow.
//!
//! **Reference** (`propagate_from_scratch`): each propagator's run keeps nothing between runs;
//! `x = y + c`'s reference is still written apart, with plain sorted lists instead of the
//! scratch copies of the domains its runs reuse.

use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;
use crate::view::View;

/// `v` clamped into the `i32` range.
#[inline]
pub(crate) fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The values of `d` plus `c` (the caller has made them fit in `i32`).
fn shifted(d: &Domain, c: i64) -> Domain {
    let ranges: Vec<(i32, i32)> = (d.ranges().iter())
        .map(|&(a, b)| (clamp(a as i64 + c), clamp(b as i64 + c)))
        .collect();
    Domain::from_ranges(&ranges)
}

/// `x = y + c`.
#[derive(Clone, Debug)]
pub struct EqualOffset {
    x: VarId,
    y: VarId,
    c: i32,
    /// Scratch: copies of the domains of `x` and `y`, refreshed at each run (see
    /// `propagate_from_scratch`). Kept here so that a run allocates nothing, even for wide
    /// domains, whose extra words live on the heap: `clone_from` reuses them.
    x_copy: Domain,
    y_copy: Domain,
}

impl EqualOffset {
    pub fn new(x: VarId, y: VarId, c: i32) -> EqualOffset {
        EqualOffset {
            x,
            y,
            c,
            x_copy: Domain::interval(0, 0),
            y_copy: Domain::interval(0, 0),
        }
    }
}

impl Propagator for EqualOffset {
    fn name(&self) -> &'static str {
        "equal_offset"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
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
    /// The reference, the rule with plain sets and no scratch: a value of `x` stays if `y`
    /// holds its partner (`x − c`), then a value of `y` stays if `x` holds its partner.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, c) = (self.x, self.y, self.c as i64);
        let partners_in_y: Vec<i32> = ctx.domain(y).iter().collect();
        ctx.retain(x, |v| {
            partners_in_y.binary_search(&clamp(v as i64 - c)).is_ok()
        })?;
        let partners_in_x: Vec<i32> = ctx.domain(x).iter().collect();
        ctx.retain(y, |v| {
            partners_in_x.binary_search(&clamp(v as i64 + c)).is_ok()
        })?;
        if ctx.is_fixed(x) {
            ctx.set_entailed();
        }
        Ok(())
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, c) = (self.x, self.y, self.c as i64);
        // Bounds first (cheap), then the holes.
        let (ylo, yhi) = (ctx.min(y) as i64, ctx.max(y) as i64);
        ctx.set_min(x, clamp(ylo + c))?;
        ctx.set_max(x, clamp(yhi + c))?;
        let (xlo, xhi) = (ctx.min(x) as i64, ctx.max(x) as i64);
        ctx.set_min(y, clamp(xlo - c))?;
        ctx.set_max(y, clamp(xhi - c))?;
        if !ctx.is_fixed(x) && (ctx.domain(x).is_interval() || ctx.domain(y).is_interval()) {
            // Wide domains (MiniZinc's): intersect with the other's ranges, shifted, one
            // step per range and never one per value. After the bounds above, the shifted
            // ranges lie within the variable's own bounds.
            let shifted_y = shifted(ctx.domain(y), c);
            ctx.intersect(x, &shifted_y)?;
            let shifted_x = shifted(ctx.domain(x), -c);
            ctx.intersect(y, &shifted_x)?;
        } else if !ctx.is_fixed(x) {
            // Holes: keep in x only values with a partner in y, then the other way round.
            // (From a copy of the other domain: the store cannot lend one domain while it
            // changes another.)
            self.y_copy.clone_from(ctx.domain(y));
            let dy = &self.y_copy;
            ctx.retain(x, |v| dy.contains(clamp(v as i64 - c)))?;
            self.x_copy.clone_from(ctx.domain(x));
            let dx = &self.x_copy;
            ctx.retain(y, |v| dx.contains(clamp(v as i64 + c)))?;
        }
        if ctx.is_fixed(x) {
            ctx.set_entailed();
        }
        Ok(())
    }
}

/// The comparison a [`Compare`] enforces between its two views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `x ≠ y`: domain consistent, acts once one side is fixed.
    NotEqual,
    /// `x ≤ y`: bounds consistent (which is domain consistent for `≤`).
    LessEqual,
}

/// `x ≠ y` or `x ≤ y` on two views: `x != y + c` is `Compare::not_equal(x.into(),
/// y.plus(c))`, `x >= y` is `Compare::less_equal(y.into(), x.into())`. The views do the
/// arithmetic (in `i64`, never clamped: a bound past the `i32` range fails or is void).
#[derive(Clone, Debug)]
pub struct Compare {
    x: View,
    comparison: Comparison,
    y: View,
}

impl Compare {
    /// `x ≠ y`.
    pub fn not_equal(x: View, y: View) -> Compare {
        Compare {
            x,
            comparison: Comparison::NotEqual,
            y,
        }
    }
    /// `x ≤ y`.
    pub fn less_equal(x: View, y: View) -> Compare {
        Compare {
            x,
            comparison: Comparison::LessEqual,
            y,
        }
    }
}

impl Propagator for Compare {
    fn name(&self) -> &'static str {
        match self.comparison {
            Comparison::NotEqual => "not_equal_offset",
            Comparison::LessEqual => "less_equal_offset",
        }
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let condition = match self.comparison {
            Comparison::NotEqual => Condition::Fixed,
            Comparison::LessEqual => Condition::Bounds,
        };
        vec![
            self.x.subscription(condition),
            self.y.subscription(condition),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        match self.comparison {
            Comparison::NotEqual => not_equal(ctx, self.x, self.y),
            Comparison::LessEqual => less_equal(ctx, self.x, self.y),
        }
    }
}

/// `x ≠ y`: once one side is fixed, its value leaves the other; then nothing can change.
fn not_equal(ctx: &mut Context<'_>, x: View, y: View) -> PropResult {
    if y.is_fixed(ctx) {
        x.remove(ctx, y.value(ctx))?;
        ctx.set_entailed();
    } else if x.is_fixed(ctx) {
        y.remove(ctx, x.value(ctx))?;
        ctx.set_entailed();
    }
    Ok(())
}

/// `x ≤ y`: `x` at most the largest `y`, `y` at least the smallest `x`; entailed once every
/// `x` is at most every `y`.
fn less_equal(ctx: &mut Context<'_>, x: View, y: View) -> PropResult {
    x.set_max(ctx, y.max(ctx))?;
    y.set_min(ctx, x.min(ctx))?;
    if x.max(ctx) <= y.min(ctx) {
        ctx.set_entailed();
    }
    Ok(())
}
