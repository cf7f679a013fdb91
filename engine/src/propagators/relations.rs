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

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::{
    implies, no_partner, split_atom, view_at_least, view_at_most, view_equal,
};
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

impl EqualOffset {
    /// `x = y + c` on two distinct variables, when both views have scale 1.
    fn as_shift(&self) -> Option<(VarId, VarId, i64)> {
        let (x, y) = (self.x, self.y);
        (x.scale() == 1 && y.scale() == 1 && x.var() != y.var())
            .then(|| (x.var(), y.var(), y.offset() as i64 - x.offset() as i64))
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
    /// A value leaves `x` because its partner is not in `y` (and the other way round): the
    /// reason is `[y ≠ v − c]`, or `y`'s bound when the partner lies beyond it. Views of
    /// scale 1 only (`x + a = y + b` is `x = y + c` with `c = b − a`); other scales, and a
    /// variable on both sides, take the generic reason.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let Some((x, y, c)) = self.as_shift() else {
            return false;
        };
        let at_x = atom.var() == x;
        let (own, other, other_var, shift) = if at_x {
            (&inputs[0], &inputs[1], y, -c)
        } else {
            (&inputs[1], &inputs[0], x, c)
        };
        // The other side's bound alone, when it implies the atom (`[x ≤ max(y) + c]`).
        for (bound, because) in [
            (
                Atom::AtMost(atom.var(), clamp(other.max() as i64 - shift)),
                Atom::AtMost(other_var, other.max()),
            ),
            (
                Atom::AtLeast(atom.var(), clamp(other.min() as i64 - shift)),
                Atom::AtLeast(other_var, other.min()),
            ),
        ] {
            if implies(bound, atom) {
                reason.push(because);
                return true;
            }
        }
        let Some(needed) = split_atom(atom, own, reason) else {
            return false;
        };
        needed
            .iter()
            .all(|&v| no_partner(other_var, other, v as i64 + shift, reason))
    }
    /// Every value of `x` lacks a partner in `y`: `x`'s domain and, for each value, why.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let Some((x, y, c)) = self.as_shift() else {
            return false;
        };
        Atom::describe(x, &inputs[0], reason);
        let values: Vec<i32> = inputs[0].iter().take(64).collect();
        values.len() < 64
            && (values.iter()).all(|&v| no_partner(y, &inputs[1], v as i64 - c, reason))
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
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        match self.comparison {
            Comparison::NotEqual => self.explain_not_equal(inputs, atom, reason),
            Comparison::LessEqual => self.explain_less_equal(inputs, atom, reason),
        }
    }
    /// `≠`: both sides fixed to one value; `≤`: `x`'s least above `y`'s greatest.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let (x, y) = (self.x, self.y);
        let atoms = match self.comparison {
            Comparison::NotEqual if inputs[0].is_fixed() && inputs[1].is_fixed() => {
                view_equal(x, x.show(inputs[0].value()))
                    .zip(view_equal(y, y.show(inputs[1].value())))
            }
            Comparison::LessEqual => view_at_least(x, view_min(x, &inputs[0]))
                .zip(view_at_most(y, view_max(y, &inputs[1]))),
            _ => None,
        };
        let Some((a, b)) = atoms else { return false };
        reason.extend([a, b]);
        true
    }
}

/// The least value the view shows when its variable's domain is `d`.
fn view_min(view: View, d: &Domain) -> i64 {
    if view.scale() > 0 {
        view.show(d.min())
    } else {
        view.show(d.max())
    }
}

/// The greatest value the view shows when its variable's domain is `d`.
fn view_max(view: View, d: &Domain) -> i64 {
    if view.scale() > 0 {
        view.show(d.max())
    } else {
        view.show(d.min())
    }
}

impl Compare {
    /// `x ≠ y`: a value left `x` because `y` was fixed to it, or the other way round.
    fn explain_not_equal(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let (x, y) = (self.x, self.y);
        // The run acts on `x` when `y` is fixed, else on `y` when `x` is.
        let (pruned, fixed, fixed_input) = if inputs[1].is_fixed() {
            (x, y, &inputs[1])
        } else if inputs[0].is_fixed() {
            (y, x, &inputs[0])
        } else {
            return false;
        };
        let own_input = if pruned == x { &inputs[0] } else { &inputs[1] };
        if atom.var() != pruned.var() || fixed.var() == pruned.var() {
            return false;
        }
        let Some(needed) = split_atom(atom, own_input, reason) else {
            return false;
        };
        let shown = fixed.show(fixed_input.value());
        if !needed.iter().all(|&v| pruned.show(v) == shown) {
            return false;
        }
        reason.push(Atom::Equal(fixed.var(), fixed_input.value()));
        true
    }

    /// `x ≤ y`: a value of `x` above `y`'s greatest, or of `y` below `x`'s least.
    fn explain_less_equal(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let (x, y) = (self.x, self.y);
        if x.var() == y.var() {
            return false;
        }
        let (y_max, x_min) = (view_max(y, &inputs[1]), view_min(x, &inputs[0]));
        let at_x = atom.var() == x.var();
        let (own, because) = if at_x {
            (&inputs[0], view_at_most(y, y_max))
        } else {
            (&inputs[1], view_at_least(x, x_min))
        };
        // The bound the rule sets, on the atom's variable: often all the atom needs.
        let direct = if at_x {
            view_at_most(x, y_max)
        } else {
            view_at_least(y, x_min)
        };
        if let (Some(direct), Some(because)) = (direct, because) {
            if implies(direct, atom) {
                reason.push(because);
                return true;
            }
        }
        let beyond = |v: i32| {
            if at_x {
                x.show(v) > y_max
            } else {
                y.show(v) < x_min
            }
        };
        let (Some(needed), Some(because)) = (split_atom(atom, own, reason), because) else {
            return false;
        };
        if !needed.iter().all(|&v| beyond(v)) {
            return false;
        }
        if !needed.is_empty() {
            reason.push(because);
        }
        true
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
