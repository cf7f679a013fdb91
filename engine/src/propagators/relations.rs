//! # Binary relations on views: `x = y`, `x ≠ y`, `x ≤ y`
//!
//! The smallest propagators, and the best place to see the pattern every propagator follows:
//! read the domains, remove what has no support, say when the constraint can never prune
//! again (entailment).
//!
//! | constraint | consistency | wakes on | cost |
//! |---|---|---|---|
//! | `x = y` ([`EqualOffset`] on two views, e.g. `x = y + c`) | domain (every value left has a support) | any removal | O(size) |
//! | `x ≠ y` ([`Compare`] on two views, e.g. `x ≠ y + c`) | domain (acts once one side is fixed) | fixed | O(1) |
//! | `x ≤ y` ([`Compare`] on two views, e.g. `x ≤ y + c`) | bounds (= domain for this constraint) | bounds | O(1) |
//!
//! Each is one propagator over two views (`view.rs`): `x ≤ y + c`, `x ≥ y`, `x ≠ −y`,
//! `2x = y + 1` are the same code on other views. Arithmetic is done in `i64`, so `c` near the
//! ends of the `i32` range cannot overflow.
//!
//! **Reference** (`propagate_from_scratch`): each propagator's run keeps nothing between runs;
//! `x = y`'s reference is still written apart, with plain sorted lists of the shown values
//! instead of the scratch copies of the domains its runs reuse.

use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;
use crate::view::View;

/// `v` clamped into the `i32` range.
#[inline]
pub(crate) fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The values of `d` mapped by `v ↦ s·v + t`, `s = ±1` (the caller has made them fit in
/// `i32`).
fn mapped(d: &Domain, s: i64, t: i64) -> Domain {
    let mut ranges: Vec<(i32, i32)> = (d.ranges().iter())
        .map(|&(a, b)| {
            let (a, b) = (s * a as i64 + t, s * b as i64 + t);
            (clamp(a.min(b)), clamp(a.max(b)))
        })
        .collect();
    if s < 0 {
        ranges.reverse();
    }
    Domain::from_ranges(&ranges)
}

/// `x = y` on two views; named for its common case, `x = y + c` (`EqualOffset::new`).
#[derive(Clone, Debug)]
pub struct EqualOffset {
    x: View,
    y: View,
    /// When both views have scale ±1, `x`'s variable is `s·(y's variable) + t`: `(s, t)`.
    unit: Option<(i64, i64)>,
    /// Scratch: copies of the domains of the two variables, refreshed at each run (see
    /// `propagate_from_scratch`). Kept here so that a run allocates nothing, even for wide
    /// domains, whose extra words live on the heap: `clone_from` reuses them.
    x_copy: Domain,
    y_copy: Domain,
}

impl EqualOffset {
    /// `x = y + c`.
    pub fn new(x: VarId, y: VarId, c: i32) -> EqualOffset {
        EqualOffset::views(x.into(), y.plus(c))
    }
    /// `x = y` on two views: `EqualOffset::views(x.times(2), y.neg().plus(1))` is
    /// `2x = 1 − y`.
    pub fn views(x: View, y: View) -> EqualOffset {
        let (sx, sy) = (x.scale() as i64, y.scale() as i64);
        let unit = (sx.abs() == 1 && sy.abs() == 1)
            .then(|| (sx * sy, sx * (y.offset() as i64 - x.offset() as i64)));
        EqualOffset {
            x,
            y,
            unit,
            x_copy: Domain::interval(0, 0),
            y_copy: Domain::interval(0, 0),
        }
    }

    /// Keep in each variable only the values with a partner in the other (after the bounds):
    /// the holes. With scale ±1 on both sides, one variable's domain mapped onto the other is
    /// a domain again (`mapped`): wide domains (MiniZinc's) are intersected one step per
    /// range and never one per value.
    fn remove_unsupported(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y) = (self.x.var(), self.y.var());
        match self.unit {
            Some((s, t)) if ctx.domain(x).is_interval() || ctx.domain(y).is_interval() => {
                // After the bounds, the mapped ranges lie within the variable's own bounds.
                let y_in_x = mapped(ctx.domain(y), s, t);
                ctx.intersect(x, &y_in_x)?;
                let x_in_y = mapped(ctx.domain(x), s, -s * t);
                ctx.intersect(y, &x_in_y)?;
            }
            Some((s, t)) => {
                // From a copy of the other domain: the store cannot lend one domain while it
                // changes another.
                self.y_copy.clone_from(ctx.domain(y));
                let dy = &self.y_copy;
                ctx.retain(x, |v| dy.contains(clamp(s * (v as i64 - t))))?;
                self.x_copy.clone_from(ctx.domain(x));
                let dx = &self.x_copy;
                ctx.retain(y, |v| dx.contains(clamp(s * v as i64 + t)))?;
            }
            None => {
                let (vx, vy) = (self.x, self.y);
                self.y_copy.clone_from(ctx.domain(y));
                let dy = &self.y_copy;
                ctx.retain(x, |v| {
                    vy.inverse(vx.show(v)).is_some_and(|u| dy.contains(u))
                })?;
                self.x_copy.clone_from(ctx.domain(x));
                let dx = &self.x_copy;
                ctx.retain(y, |u| {
                    vx.inverse(vy.show(u)).is_some_and(|v| dx.contains(v))
                })?;
            }
        }
        Ok(())
    }
}

impl Propagator for EqualOffset {
    fn name(&self) -> &'static str {
        "equal_offset"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            self.x.subscription(Condition::Domain),
            self.y.subscription(Condition::Domain),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// The reference, the rule with plain sets and no scratch, in shown values: a value of
    /// `x` stays if `y` shows it too, then a value of `y` stays if `x` shows it.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y) = (self.x, self.y);
        let mut shown_by_y: Vec<i64> = y.values(ctx).collect();
        shown_by_y.sort_unstable();
        x.retain(ctx, |w| shown_by_y.binary_search(&w).is_ok())?;
        let mut shown_by_x: Vec<i64> = x.values(ctx).collect();
        shown_by_x.sort_unstable();
        y.retain(ctx, |w| shown_by_x.binary_search(&w).is_ok())?;
        if x.is_fixed(ctx) {
            ctx.set_entailed();
        }
        Ok(())
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y) = (self.x, self.y);
        // Bounds first (cheap), then the holes.
        x.set_min(ctx, y.min(ctx))?;
        x.set_max(ctx, y.max(ctx))?;
        y.set_min(ctx, x.min(ctx))?;
        y.set_max(ctx, x.max(ctx))?;
        if !x.is_fixed(ctx) {
            self.remove_unsupported(ctx)?;
        }
        if x.is_fixed(ctx) {
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
