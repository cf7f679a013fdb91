//! # Arithmetic: `z = x op y` for times, division, modulo, power, min, max and `z = |x|`
//!
//! **Enforces:** `z = f(x, y)` for one of the integer functions of [`ArithOp`], with
//! FlatZinc's meaning (`int_div` truncates toward zero, `int_mod` takes the sign of `x`,
//! both need `y ≠ 0`; `int_pow` needs `x ≠ 0` for a negative `y`, see [`ArithOp::apply`]).
//! A result outside the 32-bit range has no support.
//!
//! **Algorithm: supports, the reference way.** Enumerate every pair `(vx, vy)` of the two
//! domains; a pair whose `f(vx, vy)` is in the domain of `z` *supports* `vx`, `vy` and that
//! value of `z`. Keep exactly the supported values. This is the definition of domain
//! consistency turned into code: nothing clever, and obviously right.
//!
//! **The budget.** Enumeration costs |D(x)|·|D(y)|. Beyond [`DEFAULT_PAIR_BUDGET`] pairs the
//! propagator falls back to interval reasoning on `z` only (its bounds are the least and
//! greatest `f` over the four corners of the box, exact for `times`, `min` and `max`; for
//! the others it only checks), for `min` and `max` back to the bounds of `x` and `y`
//! (bounds consistency), for `times` to the bounds each factor can have, of any sign
//! (`x = z / y` where `y ≠ 0`: the quotients of the corners, `narrow_factor`), and to
//! checking once `x` and `y` are fixed.
//!
//! **Wide factors.** `times` falls back to its bounds as soon as a factor has more than
//! [`TIMES_FACTOR_BUDGET`] values, whatever the pair budget: Gecode's `int_times` is
//! bounds consistent everywhere, and a product over thousands of values (a switch times a
//! length) enumerated on every wake-up was most of the time of such a model.
//!
//! **Wide arguments of `min` and `max`.** Past [`MIN_MAX_VALUE_BUDGET`] values of `x` or `y`,
//! `min` and `max` fall back to bounds(Z) too, whatever the pair budget: Gecode's `int_min`
//! and `int_max` are bounds consistent by default. Below it the closed form of the supports
//! (below) makes domain consistency cost O(1) on one 64-value window and O(|D|) beyond;
//! past it that O(|D|) ran on every removal from the argument of a wide domain (the
//! `max(|dx|, |dy|)` of distances over coordinates of a few hundred values) and was
//! nearly all the time of such a model, for holes that nothing else looked at.
//!
//! `z = |x|` has one value of `x` per "pair" and its own, smaller budget
//! ([`ABS_VALUE_BUDGET`] values): beyond it, bounds consistency both ways (`narrow_abs`),
//! as Gecode's default `abs` is. The enumeration ran on every removal from a wide `x` (a
//! difference of two frequencies), which made it the whole cost of such a model.
//!
//! A square, `int_times(x, x, z)`, is one variable taken twice: its supports are the
//! pairs `(v, v)` only (|D(x)| of them, where two variables would give |D(x)|², and the
//! off-diagonal products would wrongly support values), and beyond the budget its bounds
//! come from `√z` (Gecode posts its own `sqr` propagator for this case).
//!
//! **Consistency:** domain within the budget (for `times`: both factors of at most
//! [`TIMES_FACTOR_BUDGET`] values; for `min` and `max`: both arguments of at most
//! [`MIN_MAX_VALUE_BUDGET`] values; for `abs`: `x` of at most [`ABS_VALUE_BUDGET`]),
//! except on a `z` held as an interval domain, which keeps only its bounds (see
//! [`keep_only`]): bounds there; beyond the budget bounds(Z) for `min`, `max` and `abs`,
//! and for `div` by a constant (`narrow_div_by_constant`), checking for the others (each
//! tested against brute force, `engine/tests/arithmetic.rs`).
//!
//! **Division by a constant.** `z = x div c` (FlatZinc's `int_div(x, 360, z)`, a time
//! divided into periods) has `|D(x)|` pairs, past the budget as soon as `x` is a time of a
//! few thousand values; with checking alone `z` learnt nothing until `x` was fixed. Gecode's
//! `int_div` is bounds consistent. Truncation is monotone in `x` (rising for `c > 0`,
//! falling for `c < 0`) and every integer `k` is the quotient of a block of `|c|`
//! consecutive values (`2|c| − 1` for `k = 0`), so `z` lies between the quotients of the
//! bounds of `x`, and `x` between the first and last values of the blocks of `z`'s bounds.
//!
//! **The word lane for `min` and `max`.** Enumerating the pairs is the reference; for `max`
//! the supports have a closed form, which the engine uses (within the budget, where the
//! reference enumerates) when the three domains fit in one 64-value window. A value `a` of
//! `x` is supported by some `b ≤ a` of `y` (then `z = a`: `a ∈ D(z)` and `min y ≤ a`) or by
//! some `b > a` (then `z = b`: `a` lies below the largest value of `D(y) ∩ D(z)`); a value
//! `c` of `z` is `x`'s with `min y ≤ c`, or `y`'s with `min x ≤ c`. With each domain a word
//! these are a few ANDs, ORs and shifts; `min` is `max` with the window's bits reversed.
//! The same supports as the pairs find, in O(1) instead of O(|D(x)|·|D(y)|). Wider bitsets
//! read the same rules value by value (`min_max_values`): O(|D(x)| + |D(y)| + |D(z)|).
//! Three domains without holes need neither: the supports of each are then an interval
//! (for `max`, `x`'s are `[max(min z, min y), max z]` joined to the values below
//! `min(max y, max z)`, which meet), so the bounds reasoning of the fallback reaches domain
//! consistency there, in O(1) and without copying a domain.
//! `abs` has its closed form too (`abs_values`): `v` of `x` is supported when `|v| ∈ D(z)`,
//! `c` of `z` when `c` or `-c` is in `D(x)`.
//!
//! **The lanes for `times`.** Within the budget, three shapes have their supports in
//! closed form, read value by value in O(|D|) without allocating (`times_values`): a
//! square (`v` of `x` when `v² ∈ D(z)`), a constant factor `c` (`v` of `w` when
//! `c·v ∈ D(z)`; `z = 0` when `c = 0`), and a 0/1 switch `b` (`b = 0` when `0 ∈ D(z)`,
//! supporting every value of `w`; `b = 1` by the values `w` and `z` share). These are the
//! products FlatZinc models write most (distances squared, `pow`, "`z` is `y` when the leg
//! exists"); the pairs, their sorting and four vectors per run were most of the time of
//! such a model (docs/performance/trees.md, "routing_GCM_0001"). The general product keeps
//! the enumeration.
//!
//! **Wakes on:** any removal from `x`, `y` or `z`. **Cost:** O(|D(x)|·|D(y)|) within the
//! budget (O(1) word operations for `min` and `max` in the word lane), O(1) beyond.

mod explain;

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// Pairs enumerated before the propagator falls back to interval reasoning.
pub const DEFAULT_PAIR_BUDGET: u64 = 1 << 10;

/// For `z = |x|`: values of `x` enumerated before the propagator falls back to bounds
/// (Gecode's default for `abs` too). A difference of two wide variables (frequencies,
/// positions) easily has hundreds of values, and the enumeration then ran on every
/// removal: bounds there cost O(1).
pub const ABS_VALUE_BUDGET: u64 = 64;

/// For `z = x·y`: values of a factor enumerated before the propagator falls back to
/// bounds, whatever the pair budget says. A 0/1 switch times a quantity of 10,000 values
/// (`int_times(b, y, z)`: "`z` is `y` when `b` is on") is within 20,000 pairs of the
/// budget's reach once `y` is down to 512 values, and then enumerated, sorted and retained
/// value by value on every wake-up, for holes that no other constraint of such a model
/// looks at; past 64 values of a factor the bounds cost O(1) (Gecode's `int_times` is
/// bounds consistent everywhere).
pub const TIMES_FACTOR_BUDGET: u64 = 64;

/// For `z = min(x, y)` and `z = max(x, y)`: values of an argument before the propagator
/// falls back to bounds(Z), whatever the pair budget says (Gecode's default for both).
/// Within it the supports cost O(|D(x)| + |D(y)| + |D(z)|) a run (O(1) when the three
/// domains share one 64-value window); past it bounds cost O(1), and the holes that domain
/// consistency would punch into an argument of hundreds of values are rarely what a model
/// needs (measured in docs/performance/trees.md, "min, max and abs on wide domains").
pub const MIN_MAX_VALUE_BUDGET: u64 = 64;

/// The function computed by an [`Arith`] propagator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Times,
    /// Truncating division (toward zero).
    Div,
    /// Remainder with the sign of the dividend (`x - y·(x div y)`).
    Mod,
    /// `x` to the power `y`.
    Pow,
    Min,
    Max,
    /// `|x|` (`y` is ignored: post it with any fixed variable).
    Abs,
}

impl ArithOp {
    /// `f(x, y)`, or `None` when undefined (division by zero, `0` to a negative power) or
    /// outside the 32-bit range.
    pub fn apply(self, x: i64, y: i64) -> Option<i64> {
        let r = match self {
            ArithOp::Times => x.checked_mul(y)?,
            ArithOp::Div => x.checked_div(y)?,
            ArithOp::Mod => x.checked_rem(y)?,
            ArithOp::Min => x.min(y),
            ArithOp::Max => x.max(y),
            ArithOp::Abs => x.abs(),
            ArithOp::Pow => power(x, y)?,
        };
        (i32::MIN as i64..=i32::MAX as i64)
            .contains(&r)
            .then_some(r)
    }

    fn name(self) -> &'static str {
        match self {
            ArithOp::Times => "int_times",
            ArithOp::Div => "int_div",
            ArithOp::Mod => "int_mod",
            ArithOp::Pow => "int_pow",
            ArithOp::Min => "int_min",
            ArithOp::Max => "int_max",
            ArithOp::Abs => "int_abs",
        }
    }
}

/// `x^y` with MiniZinc's rule for a negative exponent: `1/x^|y|` truncated, so `1` for
/// `x = 1`, `±1` for `x = -1`, `0` for `|x| > 1`, undefined for `x = 0`.
fn power(x: i64, y: i64) -> Option<i64> {
    if y < 0 {
        return match x {
            0 => None,
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        };
    }
    let mut result: i64 = 1;
    for _ in 0..y {
        result = result.checked_mul(x)?;
        if result.abs() > i32::MAX as i64 + 1 {
            return None;
        }
        if result == 0 || result == 1 {
            break;
        }
    }
    // A base of -1 alternates: recompute from the parity instead of the shortcut above.
    if x == -1 {
        return Some(if y % 2 == 0 { 1 } else { -1 });
    }
    Some(result)
}

/// `z = op(x, y)`.
#[derive(Clone, Debug)]
pub struct Arith {
    op: ArithOp,
    x: VarId,
    y: VarId,
    z: VarId,
    pair_budget: u64,
}

impl Arith {
    pub fn new(op: ArithOp, x: VarId, y: VarId, z: VarId) -> Arith {
        Arith::with_budget(op, x, y, z, DEFAULT_PAIR_BUDGET)
    }

    /// With another enumeration budget (tests use 0 to exercise the fallback).
    pub fn with_budget(op: ArithOp, x: VarId, y: VarId, z: VarId, pair_budget: u64) -> Arith {
        Arith {
            op,
            x,
            y,
            z,
            pair_budget,
        }
    }

    /// The constraint with the inputs of a run, for explaining it.
    fn inputs<'a>(&self, inputs: &'a [Domain]) -> explain::ArithInputs<'a> {
        explain::ArithInputs {
            op: self.op,
            vars: [self.x, self.y, self.z],
            inputs,
        }
    }

    /// The pairs the enumeration visits: |D(x)|·|D(y)|, or |D(x)| for a square.
    fn pairs(&self, ctx: &Context<'_>) -> u64 {
        if self.op == ArithOp::Abs {
            // `y` is ignored: one "pair" per value of `x`, under the smaller budget.
            let size = ctx.size(self.x) as u64;
            return if size <= ABS_VALUE_BUDGET {
                size
            } else {
                u64::MAX
            };
        }
        let (size_x, size_y) = (ctx.size(self.x) as u64, ctx.size(self.y) as u64);
        if self.op == ArithOp::Times && size_x.max(size_y) > TIMES_FACTOR_BUDGET {
            // A wide factor: bounds reasoning, as Gecode's `int_times` everywhere.
            return u64::MAX;
        }
        let extremum = matches!(self.op, ArithOp::Min | ArithOp::Max);
        if extremum && self.x != self.y && size_x.max(size_y) > MIN_MAX_VALUE_BUDGET {
            // A wide argument: bounds(Z), as Gecode's default `int_min` and `int_max`
            // (`max(x, x)` is `x`: its supports cost O(|D(x)|), kept domain consistent).
            return u64::MAX;
        }
        if self.x == self.y {
            size_x
        } else {
            size_x * size_y
        }
    }

    /// The reference algorithm: keep the supported values. When `x` and `y` are one
    /// variable (`int_times(x, x, z)`, a square), a pair is one value taken twice: only the
    /// diagonal `(v, v)` is a support.
    fn enumerate(&self, ctx: &mut Context<'_>) -> PropResult {
        let xs: Vec<i32> = ctx.domain(self.x).iter().collect();
        let ys: Vec<i32> = ctx.domain(self.y).iter().collect();
        let mut keep_x = vec![false; xs.len()];
        let mut keep_y = vec![false; ys.len()];
        let mut keep_z: Vec<i32> = Vec::new();
        let same = self.x == self.y;
        for (i, &vx) in xs.iter().enumerate() {
            // A square: the one pair (vx, vx), at j = i.
            let js = if same { i..i + 1 } else { 0..ys.len() };
            for j in js {
                let vy = ys[j];
                if let Some(r) = self.op.apply(vx as i64, vy as i64) {
                    if ctx.contains(self.z, r as i32) {
                        keep_x[i] = true;
                        keep_y[j] = true;
                        keep_z.push(r as i32);
                    }
                }
            }
        }
        keep_z.sort_unstable();
        keep_z.dedup();
        ctx.retain(self.x, |v| keep_x[xs.binary_search(&v).unwrap()])?;
        ctx.retain(self.y, |v| keep_y[ys.binary_search(&v).unwrap()])?;
        keep_only(ctx, self.z, &keep_z)
    }

    /// The word lane for `min` and `max` (see the module docs): the supports of the pairs in
    /// closed form, when the three domains fit in one window of 64 values. `None` (and
    /// nothing pruned) when they do not.
    fn min_max_words(&self, ctx: &mut Context<'_>) -> Option<PropResult> {
        let (x, y, z) = (self.x, self.y, self.z);
        let (dx, dy, dz) = (ctx.domain(x), ctx.domain(y), ctx.domain(z));
        if dx.is_interval() || dy.is_interval() || dz.is_interval() {
            return None;
        }
        let base = dx.min().min(dy.min()).min(dz.min());
        let top = dx.max().max(dy.max()).max(dz.max());
        if top as i64 - base as i64 >= 64 {
            return None;
        }
        let (wx, wy, wz) = (dx.mask_from(base), dy.mask_from(base), dz.mask_from(base));
        let (keep_x, keep_y, keep_z) = match self.op {
            ArithOp::Max => max_supports(wx, wy, wz),
            // min(x, y) is max(x, y) with the order of the values turned round.
            _ => {
                let (kx, ky, kz) =
                    max_supports(wx.reverse_bits(), wy.reverse_bits(), wz.reverse_bits());
                (kx.reverse_bits(), ky.reverse_bits(), kz.reverse_bits())
            }
        };
        let prune = |ctx: &mut Context<'_>| -> PropResult {
            for (v, word, keep) in [(x, wx, keep_x), (y, wy, keep_y), (z, wz, keep_z)] {
                if keep != word {
                    ctx.intersect_mask(v, base, keep)?;
                }
            }
            Ok(())
        };
        Some(prune(ctx))
    }

    /// `min` and `max` on bitsets wider than the word lane's window: the same supports in
    /// closed form, read value by value (see the module docs). For `max`: `a` of `x` is
    /// supported when `a ∈ D(z)` and `min y ≤ a`, or `a` lies below the greatest value of
    /// `D(y) ∩ D(z)`; `c` of `z` when `c ∈ D(x)` and `min y ≤ c`, or `c ∈ D(y)` and
    /// `min x ≤ c`. `min` is the mirror. O(|D(x)| + |D(y)| + |D(z)|) instead of the pairs.
    /// The bounds move first (`x ≤ max z`, `z ≥ max(min x, min y)`: the values beyond them
    /// have no support), so that each variable loses the rest in one pass.
    /// `None` (and nothing pruned) on an interval domain.
    fn min_max_values(&self, ctx: &mut Context<'_>) -> Option<PropResult> {
        let (x, y, z) = (self.x, self.y, self.z);
        if [x, y, z].iter().any(|&v| ctx.domain(v).is_interval()) {
            return None;
        }
        let max = self.op == ArithOp::Max;
        // `u` beats `v` in the order of the operation: `u ≥ v` for max, `u ≤ v` for min.
        let beats = move |u: i32, v: i32| if max { u >= v } else { u <= v };
        // The weakest value of `w` (min for max, max for min) and the strongest value
        // `w` shares with `z` (None when they share none).
        let weakest = |ctx: &Context<'_>, w: VarId| if max { ctx.min(w) } else { ctx.max(w) };
        let strongest_shared = |ctx: &Context<'_>, w: VarId| {
            let d = ctx.domain(w);
            if max {
                // Down from the max, value by value.
                let mut v = Some(d.max());
                while let Some(u) = v {
                    if ctx.contains(z, u) {
                        return Some(u);
                    }
                    v = u.checked_sub(1).and_then(|w| d.prev_from(w));
                }
                None
            } else {
                d.iter().find(|&v| ctx.contains(z, v))
            }
        };
        let outcome = (|| -> PropResult {
            self.extremum_bounds(ctx)?;
            for (a, b) in [(x, y), (y, x)] {
                let b_weakest = weakest(ctx, b);
                let b_shared = strongest_shared(ctx, b);
                let dz = ctx.domain(z).clone();
                ctx.retain(a, |v| {
                    dz.contains(v) && beats(v, b_weakest)
                        || b_shared.is_some_and(|s| beats(s, v) && s != v)
                })?;
            }
            let (x_weakest, y_weakest) = (weakest(ctx, x), weakest(ctx, y));
            let (dx, dy) = (ctx.domain(x).clone(), ctx.domain(y).clone());
            ctx.retain(z, |v| {
                dx.contains(v) && beats(v, y_weakest) || dy.contains(v) && beats(v, x_weakest)
            })?;
            Ok(())
        })();
        Some(outcome)
    }

    /// The bounds every support of `z = max(x, y)` lies within: `x, y ≤ max z` and
    /// `max(min x, min y) ≤ z ≤ max(max x, max y)`; the mirror for `min`.
    fn extremum_bounds(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        if self.op == ArithOp::Max {
            ctx.set_max(x, ctx.max(z))?;
            ctx.set_max(y, ctx.max(z))?;
            ctx.set_min(z, ctx.min(x).max(ctx.min(y)))?;
            ctx.set_max(z, ctx.max(x).max(ctx.max(y)))?;
        } else {
            ctx.set_min(x, ctx.min(z))?;
            ctx.set_min(y, ctx.min(z))?;
            ctx.set_max(z, ctx.max(x).min(ctx.max(y)))?;
            ctx.set_min(z, ctx.min(x).min(ctx.min(y)))?;
        }
        Ok(())
    }

    /// `z = |x|` within its budget: the supports in closed form, as the pairs find them. A
    /// value `v` of `x` is supported when `|v| ∈ D(z)` (`|i32::MIN|` is out of range: never);
    /// a value `c` of `z` when `c` or `-c` is in `D(x)`. On an interval `z` only its bounds
    /// move (see [`keep_only`]). O(|D(x)| + |D(z)|), where the pairs sort their results.
    fn abs_values(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, z) = (self.x, self.z);
        let dz = ctx.domain(z).clone();
        ctx.retain(x, |v| v != i32::MIN && dz.contains(v.abs()))?;
        let magnitudes = ctx.domain(x).iter().map(|v| v.abs());
        let (least, greatest) =
            magnitudes.fold((i32::MAX, 0), |(lo, hi), m| (lo.min(m), hi.max(m)));
        ctx.set_min(z, least)?;
        ctx.set_max(z, greatest)?;
        if !ctx.domain(z).is_interval() {
            let dx = ctx.domain(x).clone();
            ctx.retain(z, |c| dx.contains(c) || dx.contains(-c))?;
        }
        Ok(())
    }

    /// `z = x·y` within the budget, in the three shapes models write most, without the
    /// pairs: a square (`x` and `y` one variable), a constant factor, a 0/1 switch. The
    /// same supports as [`Arith::enumerate`] finds, in O(|D|) and without allocating.
    /// `None` (and nothing pruned) for any other shape, or when `z` is also a factor.
    fn times_values(&self, ctx: &mut Context<'_>) -> Option<PropResult> {
        let (x, y, z) = (self.x, self.y, self.z);
        if z == x || z == y {
            return None;
        }
        if x == y {
            return Some(square_values(ctx, x, z));
        }
        for (factor, other) in [(x, y), (y, x)] {
            if ctx.is_fixed(factor) {
                return Some(scaled_values(ctx, ctx.value(factor), other, z));
            }
        }
        for (switch, other) in [(x, y), (y, x)] {
            if ctx.min(switch) == 0 && ctx.max(switch) == 1 {
                return Some(switched_values(ctx, switch, other, z));
            }
        }
        if ctx.domain(z).is_interval() && has_no_holes(ctx, z) {
            // Walk the factor with fewer values; the other one is searched, not listed.
            let (small, other) = if ctx.size(x) <= ctx.size(y) {
                (x, y)
            } else {
                (y, x)
            };
            return Some(product_in_interval(ctx, small, other, z));
        }
        None
    }

    /// Beyond the budget: bounds of `z` from the corners (monotone ops) and checking.
    fn intervals(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        if matches!(self.op, ArithOp::Times | ArithOp::Min | ArithOp::Max) {
            let corners = [
                (ctx.min(x), ctx.min(y)),
                (ctx.min(x), ctx.max(y)),
                (ctx.max(x), ctx.min(y)),
                (ctx.max(x), ctx.max(y)),
            ];
            // Products of i32 fit in i64 exactly.
            let values = corners.map(|(a, b)| match self.op {
                ArithOp::Times => a as i64 * b as i64,
                ArithOp::Min => a.min(b) as i64,
                _ => a.max(b) as i64,
            });
            let lo = *values.iter().min().unwrap();
            let hi = *values.iter().max().unwrap();
            ctx.set_min(z, lo.clamp(i32::MIN as i64, i32::MAX as i64) as i32)?;
            ctx.set_max(z, hi.clamp(i32::MIN as i64, i32::MAX as i64) as i32)?;
        }
        if matches!(self.op, ArithOp::Min | ArithOp::Max) {
            // Back from z to the arguments: bounds consistency for min and max.
            narrow_extremum(ctx, self.op, x, y, z)?;
            narrow_extremum(ctx, self.op, y, x, z)?;
        }
        if self.op == ArithOp::Abs {
            narrow_abs(ctx, x, z)?;
        }
        if self.op == ArithOp::Times && x == y {
            // A square: z = x² lies between the squares of the least and greatest |x|,
            // and |x| ≤ ⌊√max z⌋ (the corners above allow the negative min x · max x).
            narrow_square(ctx, x, z)?;
        } else if self.op == ArithOp::Times {
            // z = x·y gives x = z / y wherever y ≠ 0: x within the quotients of the
            // corners; the same for y.
            narrow_factor(ctx, x, y, z)?;
            narrow_factor(ctx, y, x, z)?;
        }
        if self.op == ArithOp::Div && ctx.is_fixed(y) && ctx.value(y) != 0 {
            narrow_div_by_constant(ctx, x, ctx.value(y) as i64, z)?;
        }
        if ctx.is_fixed(x) && ctx.is_fixed(y) {
            match self.op.apply(ctx.value(x) as i64, ctx.value(y) as i64) {
                Some(r) => {
                    ctx.fix(z, r as i32)?;
                }
                None => return Err(crate::Conflict::new()),
            }
        }
        Ok(())
    }
}

/// Keep in `z` the supported `values` (sorted, without repeats). A bitset keeps exactly
/// them. An interval domain (a span over `BITSET_MAX_SPAN`: a product's result, FlatZinc's
/// `var int`) only moves its bounds to the least and greatest: a hole for every gap
/// between products would make it a list of hundreds of holes that every later `contains`
/// walks (`domain/interval.rs` keeps holes few on purpose), and visiting its values one by
/// one would cost its whole span. So on such a `z` the propagator is bounds consistent,
/// as Gecode's `int_times` is everywhere.
fn keep_only(ctx: &mut Context<'_>, z: VarId, values: &[i32]) -> PropResult {
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else {
        return Err(crate::Conflict::new());
    };
    ctx.set_min(z, first)?;
    ctx.set_max(z, last)?;
    if ctx.domain(z).is_interval() || ctx.size(z) as usize == values.len() {
        return Ok(());
    }
    // A bitset: one pass over the values left between the new bounds.
    ctx.retain(z, |v| values.binary_search(&v).is_ok())?;
    Ok(())
}

/// The values of a factor of at most [`TIMES_FACTOR_BUDGET`] values: few enough to list on
/// the stack.
type FactorValues = smallvec::SmallVec<[i32; 64]>;

/// `f(v)` for each value `v` of `w`, split in two: the results that lie in `D(z)` (the
/// supports, in the order of `w`'s values) and the values of `w` whose result does not
/// (or lies outside the 32-bit range).
fn supports_through(
    ctx: &Context<'_>,
    w: VarId,
    z: VarId,
    f: impl Fn(i64) -> i64,
) -> (FactorValues, FactorValues) {
    let (mut results, mut unsupported) = (FactorValues::new(), FactorValues::new());
    for v in ctx.domain(w).iter() {
        let r = f(v as i64);
        if (i32::MIN as i64..=i32::MAX as i64).contains(&r) && ctx.contains(z, r as i32) {
            results.push(r as i32);
        } else {
            unsupported.push(v);
        }
    }
    (results, unsupported)
}

/// Is the domain of `v` every value between its bounds?
fn has_no_holes(ctx: &Context<'_>, v: VarId) -> bool {
    ctx.size(v) as i64 == ctx.max(v) as i64 - ctx.min(v) as i64 + 1
}

/// Remove from `w` the `unsupported` values (sorted, as `w` lists them).
fn remove_values(ctx: &mut Context<'_>, w: VarId, unsupported: &[i32]) -> PropResult {
    if !unsupported.is_empty() {
        ctx.retain(w, |v| unsupported.binary_search(&v).is_err())?;
    }
    Ok(())
}

/// `z = x²` within the budget: `v` of `x` is supported when `v² ∈ D(z)`, a value of `z`
/// when it is the square of a value left to `x` (the diagonal pairs of
/// [`Arith::enumerate`]).
fn square_values(ctx: &mut Context<'_>, x: VarId, z: VarId) -> PropResult {
    let (mut squares, unsupported) = supports_through(ctx, x, z, |v| v * v);
    remove_values(ctx, x, &unsupported)?;
    // In the order of `x`: increasing for `x ≥ 0`, decreasing for `x ≤ 0`.
    if ctx.max(x) <= 0 {
        squares.reverse();
    } else if ctx.min(x) < 0 {
        squares.sort_unstable();
        squares.dedup();
    }
    keep_only(ctx, z, &squares)
}

/// `z = c·w` for a constant `c`: with `c = 0`, `z = 0` whatever `w`; otherwise `v` of `w`
/// is supported when `c·v ∈ D(z)`, and `z` keeps those products.
fn scaled_values(ctx: &mut Context<'_>, c: i32, w: VarId, z: VarId) -> PropResult {
    if c == 0 {
        return keep_only(ctx, z, if ctx.contains(z, 0) { &[0] } else { &[] });
    }
    let (mut products, unsupported) = supports_through(ctx, w, z, |v| c as i64 * v);
    remove_values(ctx, w, &unsupported)?;
    if c < 0 {
        products.reverse();
    }
    keep_only(ctx, z, &products)
}

/// `z = b·w` for a 0/1 switch `b`: `b = 0` is supported when `0 ∈ D(z)` (and then supports
/// every value of `w`), `b = 1` by the values `w` and `z` share. Once one side of the
/// switch has no support, it is fixed to the other and the rest is [`scaled_values`].
fn switched_values(ctx: &mut Context<'_>, b: VarId, w: VarId, z: VarId) -> PropResult {
    let zero_supported = ctx.contains(z, 0);
    let (mut shared, _) = supports_through(ctx, w, z, |v| v);
    match (zero_supported, shared.is_empty()) {
        (false, true) => Err(crate::Conflict::new()),
        (true, true) => {
            ctx.fix(b, 0)?;
            scaled_values(ctx, 0, w, z)
        }
        (false, false) => {
            ctx.fix(b, 1)?;
            scaled_values(ctx, 1, w, z)
        }
        (true, false) => {
            if let Err(at) = shared.binary_search(&0) {
                shared.insert(at, 0);
            }
            keep_only(ctx, z, &shared)
        }
    }
}

/// `z = v·w` where `z` is an interval domain without holes, `zl..=zh` (the product of a
/// `pow`, a cube `x²·x`): for each value `v` of `v_var`, the values of `w` it multiplies
/// into `z` are an interval, `⌈zl / v⌉..=⌊zh / v⌋` for `v > 0` (turned round for `v < 0`;
/// every `w` for `v = 0` when `0 ∈ z`), so its supports are the ends of that interval
/// within `D(w)`, found by two searches instead of a walk over the pairs. `v` is
/// supported when the interval holds a value of `w`; `w` keeps the union of the intervals
/// (its bounds move, and the gaps between the intervals are removed); `z`, which keeps only
/// its bounds (see [`keep_only`]), gets the least and greatest product. The same domains
/// as [`Arith::enumerate`], in O(|D(v)| · log) and without allocating.
fn product_in_interval(ctx: &mut Context<'_>, v_var: VarId, w: VarId, z: VarId) -> PropResult {
    let (zl, zh) = (ctx.min(z) as i64, ctx.max(z) as i64);
    let (wl, wh) = (ctx.min(w) as i64, ctx.max(w) as i64);
    let mut unsupported = FactorValues::new();
    // The interval of `w` each supported `v` keeps, in increasing order of their starts
    // once sorted, and the least and greatest product.
    let mut kept: smallvec::SmallVec<[(i32, i32); 64]> = smallvec::SmallVec::new();
    let (mut z_lo, mut z_hi) = (i64::MAX, i64::MIN);
    for v in ctx.domain(v_var).iter() {
        let v = v as i64;
        let (lo, hi) = match v.cmp(&0) {
            std::cmp::Ordering::Greater => (div_ceil(zl, v).max(wl), div_floor(zh, v).min(wh)),
            std::cmp::Ordering::Less => (div_ceil(zh, v).max(wl), div_floor(zl, v).min(wh)),
            std::cmp::Ordering::Equal if zl <= 0 && 0 <= zh => (wl, wh),
            std::cmp::Ordering::Equal => (1, 0),
        };
        let dw = ctx.domain(w);
        let ends = (lo <= hi)
            .then(|| Some((dw.next_from(lo as i32)?, dw.prev_from(hi as i32)?)))
            .flatten()
            .filter(|&(first, last)| first <= last);
        let Some((first, last)) = ends else {
            unsupported.push(v as i32);
            continue;
        };
        let (p, q) = (v * first as i64, v * last as i64);
        z_lo = z_lo.min(p.min(q));
        z_hi = z_hi.max(p.max(q));
        kept.push((first, last));
    }
    if kept.is_empty() {
        return Err(crate::Conflict::new());
    }
    remove_values(ctx, v_var, &unsupported)?;
    kept.sort_unstable();
    ctx.set_min(w, kept[0].0)?;
    let mut reached = kept[0].1;
    for &(first, last) in &kept[1..] {
        if first as i64 > reached as i64 + 1 {
            ctx.remove_range(w, reached + 1, first - 1)?;
        }
        reached = reached.max(last);
    }
    ctx.set_max(w, reached)?;
    ctx.set_min(z, z_lo as i32)?;
    ctx.set_max(z, z_hi as i32)?;
    Ok(())
}

/// The values of `x`, `y` and `z` with a support in `z = max(x, y)`, each domain a word of
/// one window (bit `i` = the window's `i`-th value).
fn max_supports(x: u64, y: u64, z: u64) -> (u64, u64, u64) {
    // Bits at or above the lowest bit of `w`, and bits strictly below its highest bit.
    let from_lowest = |w: u64| {
        if w == 0 {
            0
        } else {
            !0u64 << w.trailing_zeros()
        }
    };
    let below_highest = |w: u64| {
        if w == 0 {
            0
        } else {
            (1u64 << (63 - w.leading_zeros())) - 1
        }
    };
    let keep_x = x & ((z & from_lowest(y)) | below_highest(y & z));
    let keep_y = y & ((z & from_lowest(x)) | below_highest(x & z));
    let keep_z = z & ((x & from_lowest(y)) | (y & from_lowest(x)));
    (keep_x, keep_y, keep_z)
}

/// For `z = max(x, y)`: `x ≤ max z`, and `x ≥ min z` when `y` cannot reach `min z` (then
/// `x` is the maximum). The mirror for `z = min(x, y)`.
fn narrow_extremum(ctx: &mut Context<'_>, op: ArithOp, x: VarId, y: VarId, z: VarId) -> PropResult {
    if op == ArithOp::Max {
        ctx.set_max(x, ctx.max(z))?;
        if ctx.max(y) < ctx.min(z) {
            ctx.set_min(x, ctx.min(z))?;
        }
    } else {
        ctx.set_min(x, ctx.min(z))?;
        if ctx.min(y) > ctx.max(z) {
            ctx.set_max(x, ctx.max(z))?;
        }
    }
    Ok(())
}

/// For `z = x²`: bounds(Z) consistency. `z` lies between the squares of the least and
/// greatest `|x|`, and its bounds are squares (`z ≥ ⌈√min z⌉²`, `z ≤ ⌊√max z⌋²`); `|x|`
/// lies within `[⌈√min z⌉, ⌊√max z⌋]`, so `x` within `±⌊√max z⌋`, and a side of zero that
/// cannot reach `⌈√min z⌉` is cut off. Repeated to the fixpoint (each round only narrows).
fn narrow_square(ctx: &mut Context<'_>, x: VarId, z: VarId) -> PropResult {
    let clamp = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    loop {
        let before = (ctx.min(x), ctx.max(x), ctx.min(z), ctx.max(z));
        let (lo, hi) = (before.0 as i64, before.1 as i64);
        let least = if lo <= 0 && hi >= 0 {
            0
        } else {
            lo.abs().min(hi.abs())
        };
        let greatest = lo.abs().max(hi.abs());
        ctx.set_min(z, clamp(least * least))?;
        ctx.set_max(z, clamp(greatest * greatest))?;
        let root_hi = floor_sqrt(ctx.max(z).max(0) as i64);
        let zlo = ctx.min(z).max(0) as i64;
        let mut root_lo = floor_sqrt(zlo);
        if root_lo * root_lo < zlo {
            root_lo += 1;
        }
        if root_lo > root_hi {
            return Err(crate::Conflict::new());
        }
        ctx.set_min(z, clamp(root_lo * root_lo))?;
        ctx.set_max(z, clamp(root_hi * root_hi))?;
        ctx.set_min(x, clamp(-root_hi))?;
        ctx.set_max(x, clamp(root_hi))?;
        let (lo, hi) = (ctx.min(x) as i64, ctx.max(x) as i64);
        if lo > -root_lo {
            // The negative side cannot reach -⌈√min z⌉: x ≥ ⌈√min z⌉.
            ctx.set_min(x, clamp(root_lo))?;
        } else if hi < root_lo {
            // The positive side cannot reach ⌈√min z⌉: x ≤ -⌈√min z⌉.
            ctx.set_max(x, clamp(-root_lo))?;
        }
        if (ctx.min(x), ctx.max(x), ctx.min(z), ctx.max(z)) == before {
            return Ok(());
        }
    }
}

/// The values `x` with `x div c = k` (truncation toward zero), for `c > 0`: a block of `c`
/// values, `2c − 1` for `k = 0`.
fn quotient_block(k: i64, c: i64) -> (i64, i64) {
    match k.signum() {
        1 => (k * c, k * c + c - 1),
        0 => (1 - c, c - 1),
        _ => (k * c - c + 1, k * c),
    }
}

/// For `z = x div c`, `c ≠ 0` a constant: bounds consistency (module docs). `z` within the
/// quotients of `x`'s bounds; `x` within the blocks of `z`'s bounds. Repeated while a bound
/// moves (a bound of a bitset may land past a hole).
fn narrow_div_by_constant(ctx: &mut Context<'_>, x: VarId, c: i64, z: VarId) -> PropResult {
    let clamp = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let (magnitude, rising) = (c.abs(), c > 0);
    loop {
        let (lo, hi) = (ctx.min(x) as i64, ctx.max(x) as i64);
        let (a, b) = (lo / c, hi / c);
        let mut moved = ctx.set_min(z, clamp(a.min(b)))?;
        moved |= ctx.set_max(z, clamp(a.max(b)))?;
        // The quotients by |c| that z's bounds allow: z itself for c > 0, -z for c < 0.
        let (zlo, zhi) = (ctx.min(z) as i64, ctx.max(z) as i64);
        let (qlo, qhi) = if rising { (zlo, zhi) } else { (-zhi, -zlo) };
        moved |= ctx.set_min(x, clamp(quotient_block(qlo, magnitude).0))?;
        moved |= ctx.set_max(x, clamp(quotient_block(qhi, magnitude).1))?;
        if !moved {
            return Ok(());
        }
    }
}

/// For `z = |x|`: bounds consistency. `z` lies between the least and greatest `|x|`;
/// `x` within `±max z`, and off the open interval `(-min z, min z)`: a side of zero that
/// cannot reach `min z` is cut off, which moves a bound of `x`. Repeated to the fixpoint
/// (each round only narrows, at most a few rounds).
fn narrow_abs(ctx: &mut Context<'_>, x: VarId, z: VarId) -> PropResult {
    let clamp = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    loop {
        let (lo, hi) = (ctx.min(x) as i64, ctx.max(x) as i64);
        let (zlo_before, zhi_before) = (ctx.min(z), ctx.max(z));
        let least = if lo <= 0 && hi >= 0 {
            0
        } else {
            lo.abs().min(hi.abs())
        };
        ctx.set_min(z, clamp(least))?;
        ctx.set_max(z, clamp(lo.abs().max(hi.abs())))?;
        let (zlo, zhi) = (ctx.min(z) as i64, ctx.max(z) as i64);
        ctx.set_min(x, clamp(-zhi))?;
        ctx.set_max(x, clamp(zhi))?;
        if ctx.max(x) as i64 <= -zlo {
            ctx.set_max(x, clamp(-zlo))?;
        } else if ctx.min(x) as i64 >= zlo {
            ctx.set_min(x, clamp(zlo))?;
        } else if ctx.min(x) as i64 > -zlo {
            // The negative side cannot reach -min z: x is positive.
            ctx.set_min(x, clamp(zlo))?;
        } else if ctx.max(x) as i64 > -zlo && (ctx.max(x) as i64) < zlo {
            // The positive side cannot reach min z: x is negative.
            ctx.set_max(x, clamp(-zlo))?;
        }
        let unchanged = (ctx.min(x) as i64, ctx.max(x) as i64) == (lo, hi)
            && (ctx.min(z), ctx.max(z)) == (zlo_before, zhi_before);
        if unchanged {
            return Ok(());
        }
    }
}

/// `⌊√n⌋` for `n ≥ 0`, exact (the float estimate corrected by one step either way).
fn floor_sqrt(n: i64) -> i64 {
    let mut r = (n as f64).sqrt() as i64;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// For `z = x·y`: the bounds of `x` that `z` and `y` allow, factors of any sign. Where
/// `y ≠ 0`, `x = z / y`, and over the box `[min z, max z] × [min y, max y]` minus `y = 0`
/// the quotient is monotone in each argument on each side of zero: its least and greatest
/// values are at the corners of the negative part `y ≤ -1` and the positive part `y ≥ 1`.
/// When `y` may be 0 and so may `z`, any `x` has a support (`x·0 = 0`): nothing to narrow.
/// Otherwise `x ≥ ⌈least quotient⌉`, `x ≤ ⌊greatest⌋` (Gecode's rules for `mult`, without
/// its case split by sign).
fn narrow_factor(ctx: &mut Context<'_>, x: VarId, y: VarId, z: VarId) -> PropResult {
    let (ylo, yhi) = (ctx.min(y) as i64, ctx.max(y) as i64);
    let (zlo, zhi) = (ctx.min(z) as i64, ctx.max(z) as i64);
    if ylo <= 0 && yhi >= 0 && zlo <= 0 && zhi >= 0 {
        return Ok(());
    }
    let mut least = i64::MAX;
    let mut greatest = i64::MIN;
    // The parts of y's range without 0.
    for (lo, hi) in [(ylo, yhi.min(-1)), (ylo.max(1), yhi)] {
        if lo > hi {
            continue;
        }
        for zc in [zlo, zhi] {
            for yc in [lo, hi] {
                least = least.min(div_ceil(zc, yc));
                greatest = greatest.max(div_floor(zc, yc));
            }
        }
    }
    if least > greatest {
        // y can only be 0 and z cannot: no support.
        return Err(crate::Conflict::new());
    }
    let clamp = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    ctx.set_min(x, clamp(least))?;
    ctx.set_max(x, clamp(greatest))?;
    Ok(())
}

/// `⌊a / b⌋` for `b ≠ 0`.
fn div_floor(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉` for `b ≠ 0`.
fn div_ceil(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

impl Propagator for Arith {
    fn name(&self) -> &'static str {
        self.op.name()
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.x, Condition::Domain),
            Subscription::new(self.y, Condition::Domain),
            Subscription::new(self.z, Condition::Domain),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::Medium
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        if self.pairs(ctx) <= self.pair_budget {
            self.enumerate(ctx)
        } else {
            self.intervals(ctx)
        }
    }
    /// The value has no support among the other two inputs (`explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        self.inputs(inputs).explain(atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        self.inputs(inputs).explain_failure(reason)
    }
    /// The reference's two cases, with the closed-form lanes first within the budget (each
    /// gives up before pruning anything when its shape does not fit, so the pairs are
    /// counted once).
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if self.pairs(ctx) > self.pair_budget {
            return self.intervals(ctx);
        }
        match self.op {
            ArithOp::Times => {
                if let Some(outcome) = self.times_values(ctx) {
                    return outcome;
                }
            }
            ArithOp::Abs => return self.abs_values(ctx),
            ArithOp::Min | ArithOp::Max => {
                let vars = [self.x, self.y, self.z];
                if self.x != self.y && vars.iter().all(|&v| has_no_holes(ctx, v)) {
                    // The supports are intervals too (module docs): the bounds reach them.
                    return self.intervals(ctx);
                }
                if let Some(outcome) = self.min_max_words(ctx) {
                    return outcome;
                }
                if let Some(outcome) = self.min_max_values(ctx) {
                    return outcome;
                }
            }
            _ => {}
        }
        self.enumerate(ctx)
    }
}
