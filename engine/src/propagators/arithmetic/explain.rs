//! # Explaining `z = f(x, y)`: why a value has no support
//!
//! The arithmetic propagator keeps exactly the supported values, so a value `a` left `x`
//! because no `b` of `y` has `f(a, b)` in `z`. The reason says that with atoms of the other
//! two inputs: `y`'s bounds confine `b` to a range, and each `b` in it is excluded either by
//! `[y ≠ b]` (not a value of `y`) or by `z`'s side (`f(a, b)` beyond a bound of `z`, or
//! `[z ≠ f(a, b)]`). A value `c` left `z` because every pair of the box of `x` and `y` with
//! `f = c` has a coordinate missing. `x`'s own domain never enters a reason about `x`,
//! which is where these are smaller than the generic reason.
//!
//! The reasons are computed from the inputs for the value asked about, whichever path (the
//! enumeration or the interval fallback) removed it; past [`MOST_PAIRS`] pairs the
//! explanation gives up and the learner uses the generic reason.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagators::bound_replay::merge_into_equalities;
use crate::propagators::reasons::{no_partner, split_atom};
use crate::store::VarId;

use super::ArithOp;

/// Most pairs (or values of one range) an explanation visits.
const MOST_PAIRS: i64 = 4096;

/// `z = op(x, y)` with its input domains, for explaining.
pub(crate) struct ArithInputs<'a> {
    pub(crate) op: ArithOp,
    pub(crate) vars: [VarId; 3],
    pub(crate) inputs: &'a [Domain],
}

impl ArithInputs<'_> {
    fn f(&self, a: i64, b: i64) -> Option<i64> {
        self.op.apply(a, b)
    }

    /// `[x ≥ min]` and `[x ≤ max]` of input `k`, and its range.
    fn range(&self, k: usize, reason: &mut Vec<Atom>) -> Option<(i64, i64)> {
        let d = &self.inputs[k];
        let (lo, hi) = (d.min() as i64, d.max() as i64);
        if hi - lo >= MOST_PAIRS {
            return None;
        }
        reason.push(Atom::AtLeast(self.vars[k], d.min()));
        reason.push(Atom::AtMost(self.vars[k], d.max()));
        Some((lo, hi))
    }

    /// `[var ≠ v]` when `v` is not a value of input `k` (or `v` is beyond its range, which
    /// the range atoms already say); `false` if it is a value.
    fn missing(&self, k: usize, v: i64, reason: &mut Vec<Atom>) -> bool {
        let d = &self.inputs[k];
        if v < d.min() as i64 || v > d.max() as i64 {
            return true;
        }
        if d.contains(v as i32) {
            return false;
        }
        reason.push(Atom::NotEqual(self.vars[k], v as i32));
        true
    }

    /// Push why value `a` of `x` (`side` 0) or of `y` (`side` 1) has no support.
    fn unsupported_operand(&self, side: usize, a: i64, reason: &mut Vec<Atom>) -> bool {
        let square = self.vars[0] == self.vars[1];
        let pair = |b: i64| if side == 0 { (a, b) } else { (b, a) };
        let excluded = |b: i64, reason: &mut Vec<Atom>| match self.f(pair(b).0, pair(b).1) {
            None => true,
            Some(r) => no_partner(self.vars[2], &self.inputs[2], r, reason),
        };
        if square {
            return excluded(a, reason);
        }
        let other = 1 - side;
        let Some((lo, hi)) = self.range(other, reason) else {
            return false;
        };
        (lo..=hi).all(|b| self.missing(other, b, reason) || excluded(b, reason))
    }

    /// Push why value `c` of `z` has no pair `(a, b)` with `f(a, b) = c`.
    fn unsupported_result(&self, c: i64, reason: &mut Vec<Atom>) -> bool {
        let Some((xlo, xhi)) = self.range(0, reason) else {
            return false;
        };
        if self.vars[0] == self.vars[1] {
            return (xlo..=xhi).all(|a| self.f(a, a) != Some(c) || self.missing(0, a, reason));
        }
        let Some((ylo, yhi)) = self.range(1, reason) else {
            return false;
        };
        if (xhi - xlo + 1) * (yhi - ylo + 1) > MOST_PAIRS {
            return false;
        }
        (xlo..=xhi).all(|a| {
            (ylo..=yhi).all(|b| {
                self.f(a, b) != Some(c) || self.missing(0, a, reason) || self.missing(1, b, reason)
            })
        })
    }

    /// Push why the values `values` of input `k` have no support.
    fn unsupported(&self, k: usize, values: &[i32], reason: &mut Vec<Atom>) -> bool {
        values.iter().all(|&v| match k {
            2 => self.unsupported_result(v as i64, reason),
            _ => self.unsupported_operand(k, v as i64, reason),
        })
    }

    /// Does any variable stand in two places other than a square's `x` and `y`?
    fn shares_a_variable(&self) -> bool {
        let [x, y, z] = self.vars;
        z == x || z == y
    }

    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.shares_a_variable() {
            return false;
        }
        let Some(k) = self.vars.iter().position(|&v| v == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &self.inputs[k], reason) else {
            return false;
        };
        let explained = self.unsupported(k, &needed, reason);
        merge_into_equalities(reason);
        explained
    }

    /// Every value of `x` (its domain described) lacks a support.
    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        if self.shares_a_variable() || self.inputs[0].size() as i64 > MOST_PAIRS {
            return false;
        }
        Atom::describe(self.vars[0], &self.inputs[0], reason);
        let values = self.inputs[0].values();
        let explained = self.unsupported(0, &values, reason);
        merge_into_equalities(reason);
        explained
    }
}
