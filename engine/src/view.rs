//! # Views: a variable seen through `a·x + b`
//!
//! A *view* shows a variable `x` as `a·x + b` without creating a new variable: reading the
//! view reads `x` and maps the answer, pruning the view prunes `x` at the value (or bound)
//! it maps back to. With views one propagator serves many constraints: the n-queens
//! diagonals are `all_different(q₀ + 0, q₁ + 1, q₂ + 2, …)` on the queens themselves,
//! `x ≠ y + c` is `x ≠ (y + c)`, and `x ≥ y` is `-x ≤ -y`. Every CP solver has them:
//! Gecode's `OffsetView`/`MinusView`/`ScaleView` (Schulte and Tack, *Views and iterators
//! for generic constraint implementations*, 2005), MiniCP's `IntVarViewOffset`, Pumpkin's
//! `AffineView`, CP-SAT's affine expressions.
//!
//! | you write | the view | shows |
//! |---|---|---|
//! | `x.plus(c)` | `scale 1, offset c` | `x + c` |
//! | `x.neg()` | `scale −1, offset 0` | `−x` |
//! | `x.times(k)` | `scale k, offset 0` | `k·x` |
//! | `x.times(2).plus(1).neg()` | `scale −2, offset −1` | `−(2x + 1)` |
//!
//! Compositions stay one affine map, so a view of a view costs nothing more. The shown
//! values are `i64`: `a·x + b` with `a`, `b` and `x` in `i32` always fits, so reading never
//! overflows. A composition whose scale or offset leaves `i32` is refused
//! ([`View::checked_plus`] and friends return `None`; [`View::plus`] panics with a message).
//!
//! **Pruning through a view.** The inverse image of a shown value `w` is `(w − b) / a` when
//! `a` divides `w − b` and the quotient is an `i32`; otherwise no value of `x` shows `w`:
//! removing `w` does nothing, fixing the view to `w` fails. A bound maps to a bound,
//! rounded inwards (`a·x + b ≥ lo` is `x ≥ ⌈(lo − b)/a⌉` for `a > 0`, `x ≤ ⌊(lo − b)/a⌋` for
//! `a < 0`: a negative scale swaps min and max). A bound past the `i32` range either holds
//! for every `x` (nothing to do) or for none (a conflict): never clamped.

use crate::domain::Domain;
use crate::propagator::{Condition, Context, Subscription};
use crate::store::VarId;
use crate::Conflict;

/// The variable `var` shown as `scale·var + offset` (`scale ≠ 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    var: VarId,
    scale: i32,
    offset: i32,
}

impl From<VarId> for View {
    /// The variable itself: `1·x + 0`.
    fn from(var: VarId) -> View {
        View {
            var,
            scale: 1,
            offset: 0,
        }
    }
}

impl VarId {
    /// The view `x + c`.
    pub fn plus(self, c: i32) -> View {
        View::from(self).plus(c)
    }
    /// The view `−x`.
    #[allow(
        clippy::should_implement_trait,
        reason = "`x.neg()` reads as the other view builders, with no trait to import"
    )]
    pub fn neg(self) -> View {
        View::from(self).neg()
    }
    /// The view `k·x` (`k ≠ 0`).
    pub fn times(self, k: i32) -> View {
        View::from(self).times(k)
    }
}

impl View {
    /// `scale·var + offset`; `None` if `scale` is 0 (a constant is not a view).
    pub fn new(var: VarId, scale: i32, offset: i32) -> Option<View> {
        (scale != 0).then_some(View { var, scale, offset })
    }
    /// The variable under the view.
    #[inline]
    pub fn var(self) -> VarId {
        self.var
    }
    /// `a` of `a·x + b`.
    #[inline]
    pub fn scale(self) -> i32 {
        self.scale
    }
    /// `b` of `a·x + b`.
    #[inline]
    pub fn offset(self) -> i32 {
        self.offset
    }
    /// Whether the view is the variable itself plus a constant (`scale 1`): the shape the
    /// word-level fast lanes accept.
    #[inline]
    pub fn is_shift(self) -> bool {
        self.scale == 1
    }

    /// This view plus `c`, or `None` if the offset leaves `i32`.
    pub fn checked_plus(self, c: i32) -> Option<View> {
        let offset = self.offset.checked_add(c)?;
        Some(View { offset, ..self })
    }
    /// Minus this view, or `None` if a part of it is `i32::MIN`.
    pub fn checked_neg(self) -> Option<View> {
        let scale = self.scale.checked_neg()?;
        let offset = self.offset.checked_neg()?;
        Some(View {
            scale,
            offset,
            ..self
        })
    }
    /// `k` times this view, or `None` if `k` is 0 or a part leaves `i32`.
    pub fn checked_times(self, k: i32) -> Option<View> {
        let scale = self.scale.checked_mul(k).filter(|&s| s != 0)?;
        let offset = self.offset.checked_mul(k)?;
        Some(View {
            scale,
            offset,
            ..self
        })
    }
    /// This view plus `c`. Panics if the offset leaves `i32` (see [`View::checked_plus`]).
    pub fn plus(self, c: i32) -> View {
        self.checked_plus(c)
            .unwrap_or_else(|| panic!("the view {self:?} + {c} leaves the i32 range"))
    }
    /// Minus this view. Panics on `i32::MIN` (see [`View::checked_neg`]).
    #[allow(
        clippy::should_implement_trait,
        reason = "`x.neg()` reads as the other view builders, with no trait to import"
    )]
    pub fn neg(self) -> View {
        self.checked_neg()
            .unwrap_or_else(|| panic!("the view -({self:?}) leaves the i32 range"))
    }
    /// `k` times this view. Panics if `k` is 0 or a part leaves `i32`.
    pub fn times(self, k: i32) -> View {
        self.checked_times(k)
            .unwrap_or_else(|| panic!("the view {k}·({self:?}) is 0 or leaves the i32 range"))
    }

    // ----- the map and its inverse --------------------------------------------------------

    /// The value the view shows when its variable is `v`.
    #[inline]
    pub fn show(self, v: i32) -> i64 {
        self.scale as i64 * v as i64 + self.offset as i64
    }
    /// The value of the variable that shows `w`, if there is one.
    #[inline]
    pub fn inverse(self, w: i64) -> Option<i32> {
        let shifted = w.checked_sub(self.offset as i64)?;
        let a = self.scale as i64;
        if shifted % a != 0 {
            return None;
        }
        i32::try_from(shifted / a).ok()
    }

    // ----- reading ------------------------------------------------------------------------

    /// The smallest value shown.
    #[inline]
    pub fn min(self, ctx: &Context<'_>) -> i64 {
        if self.scale > 0 {
            self.show(ctx.min(self.var))
        } else {
            self.show(ctx.max(self.var))
        }
    }
    /// The largest value shown.
    #[inline]
    pub fn max(self, ctx: &Context<'_>) -> i64 {
        if self.scale > 0 {
            self.show(ctx.max(self.var))
        } else {
            self.show(ctx.min(self.var))
        }
    }
    /// How many values the view shows (as many as its variable has).
    pub fn size(self, ctx: &Context<'_>) -> u32 {
        ctx.size(self.var)
    }
    pub fn is_fixed(self, ctx: &Context<'_>) -> bool {
        ctx.is_fixed(self.var)
    }
    /// The value shown by a fixed view.
    pub fn value(self, ctx: &Context<'_>) -> i64 {
        self.show(ctx.value(self.var))
    }
    /// Whether the view can show `w`.
    pub fn contains(self, ctx: &Context<'_>, w: i64) -> bool {
        self.inverse(w).is_some_and(|v| ctx.contains(self.var, v))
    }
    /// The values shown, in the order of the variable's values (descending for a negative
    /// scale).
    pub fn values<'c>(self, ctx: &'c Context<'_>) -> impl Iterator<Item = i64> + 'c {
        self.shown_values(ctx.domain(self.var))
    }
    /// The values `d` shows through this view (in `d`'s order, see [`View::values`]).
    pub fn shown_values(self, d: &Domain) -> impl Iterator<Item = i64> + '_ {
        d.iter().map(move |v| self.show(v))
    }
    /// A subscription to the view's variable.
    pub fn subscription(self, condition: Condition) -> Subscription {
        Subscription::new(self.var, condition)
    }

    // ----- pruning ------------------------------------------------------------------------

    /// Remove `w` from the values shown (nothing if no value shows it).
    pub fn remove(self, ctx: &mut Context<'_>, w: i64) -> Result<bool, Conflict> {
        match self.inverse(w) {
            Some(v) => ctx.remove(self.var, v),
            None => Ok(false),
        }
    }
    /// Make the view show `w` (a conflict if no value shows it).
    pub fn fix(self, ctx: &mut Context<'_>, w: i64) -> Result<bool, Conflict> {
        match self.inverse(w) {
            Some(v) => ctx.fix(self.var, v),
            None => Err(Conflict::new()),
        }
    }
    /// Keep only the shown values `w` with `keep(w)`.
    pub fn retain(
        self,
        ctx: &mut Context<'_>,
        mut keep: impl FnMut(i64) -> bool,
    ) -> Result<bool, Conflict> {
        ctx.retain(self.var, |v| keep(self.show(v)))
    }
    /// Everything the view shows is at least `lo`.
    pub fn set_min(self, ctx: &mut Context<'_>, lo: i64) -> Result<bool, Conflict> {
        let (a, rest) = (self.scale as i64, lo as i128 - self.offset as i128);
        if a > 0 {
            var_at_least(ctx, self.var, ceil_div(rest, a))
        } else {
            var_at_most(ctx, self.var, floor_div(rest, a))
        }
    }
    /// Everything the view shows is at most `hi`.
    pub fn set_max(self, ctx: &mut Context<'_>, hi: i64) -> Result<bool, Conflict> {
        let (a, rest) = (self.scale as i64, hi as i128 - self.offset as i128);
        if a > 0 {
            var_at_most(ctx, self.var, floor_div(rest, a))
        } else {
            var_at_least(ctx, self.var, ceil_div(rest, a))
        }
    }
}

/// `⌊n / d⌋` (`d ≠ 0`), rounding towards −∞ whatever the signs.
fn floor_div(n: i128, d: i64) -> i128 {
    // A shift view (`d = ±1`, the common case) needs no division.
    if d == 1 {
        return n;
    }
    if d == -1 {
        return -n;
    }
    let d = d as i128;
    let q = n / d;
    if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈n / d⌉` (`d ≠ 0`).
fn ceil_div(n: i128, d: i64) -> i128 {
    -floor_div(-n, d)
}

/// `x ≥ bound`, for a bound that may lie outside `i32`.
fn var_at_least(ctx: &mut Context<'_>, x: VarId, bound: i128) -> Result<bool, Conflict> {
    if bound > i32::MAX as i128 {
        Err(Conflict::new())
    } else if bound <= i32::MIN as i128 {
        Ok(false)
    } else {
        ctx.set_min(x, bound as i32)
    }
}

/// `x ≤ bound`, for a bound that may lie outside `i32`.
fn var_at_most(ctx: &mut Context<'_>, x: VarId, bound: i128) -> Result<bool, Conflict> {
    if bound < i32::MIN as i128 {
        Err(Conflict::new())
    } else if bound >= i32::MAX as i128 {
        Ok(false)
    } else {
        ctx.set_max(x, bound as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compositions_are_one_affine_map() {
        let x = VarId(0);
        let v = x.times(2).plus(1).neg();
        assert_eq!((v.scale(), v.offset()), (-2, -1));
        assert_eq!(v.show(3), -7);
        assert_eq!(v.inverse(-7), Some(3));
        assert_eq!(
            v.inverse(-8),
            None,
            "an even value is not shown by an odd map"
        );
    }

    #[test]
    fn overflowing_compositions_are_refused() {
        let x = VarId(0);
        assert_eq!(x.plus(i32::MAX).checked_plus(1), None);
        assert_eq!(x.plus(i32::MIN).checked_neg(), None);
        assert_eq!(x.times(1 << 16).checked_times(1 << 16), None);
        assert_eq!(x.plus(1).checked_times(0), None);
        assert_eq!(View::new(x, 0, 3), None);
    }

    #[test]
    fn the_inverse_of_a_value_outside_i32_is_none() {
        let v = VarId(0).plus(i32::MIN);
        assert_eq!(v.inverse(i32::MIN as i64), Some(0));
        assert_eq!(v.inverse(i32::MAX as i64 + i32::MIN as i64 + 1), None);
        assert_eq!(v.inverse(i64::MIN), None);
    }

    #[test]
    fn floor_and_ceiling_round_towards_the_right_side() {
        assert_eq!((floor_div(7, 2), ceil_div(7, 2)), (3, 4));
        assert_eq!((floor_div(-7, 2), ceil_div(-7, 2)), (-4, -3));
        assert_eq!((floor_div(7, -2), ceil_div(7, -2)), (-4, -3));
        assert_eq!((floor_div(-7, -2), ceil_div(-7, -2)), (3, 4));
        assert_eq!((floor_div(6, -3), ceil_div(6, -3)), (-2, -2));
    }
}
