//! # Model: arithmetic, element over variables, reification (the FlatZinc vocabulary)
//!
//! The modelling helpers that MiniZinc's flat constraints need beyond the puzzles' ones.
//! Like the helpers in `model.rs`, each one only chooses a propagator: the algorithms are
//! in `propagators/arithmetic/`, `propagators/element_var.rs` and `propagators/reified.rs`.
//! A separate `impl Model` block, so that the FlatZinc front end adds to the model's
//! vocabulary without touching its core.

use crate::domain::Domain;
use crate::model::Model;
use crate::propagation::PropId;
use crate::propagator::Conflict;
use crate::propagators::arithmetic::{Arith, ArithOp};
use crate::propagators::element_var::ElementVar;
use crate::propagators::extremum::ArrayExtremum;
use crate::propagators::indicators::{Indicator, ValueIndicators};
use crate::propagators::reified::{LinRel, ReifiedLinear, ReifiedMember};
use crate::propagators::reified_equal::ReifiedEqual;
use crate::propagators::thresholds::{ReifiedThresholds, Threshold};
use crate::store::VarId;

impl Model {
    /// `z = op(x, y)` (for [`ArithOp::Abs`], `y` is ignored: pass any variable).
    pub fn arith(&mut self, op: ArithOp, x: VarId, y: VarId, z: VarId) -> PropId {
        self.post(Box::new(Arith::new(op, x, y, z)))
    }

    /// `z = max(xs)` when `maximum`, else `z = min(xs)`; `xs` not empty.
    pub fn array_extremum(&mut self, maximum: bool, xs: &[VarId], z: VarId) -> PropId {
        self.post(Box::new(ArrayExtremum::new(maximum, xs, z)))
    }

    /// `result = array[index - offset]`, the entries being variables.
    pub fn element_var(
        &mut self,
        index: VarId,
        offset: i32,
        array: &[VarId],
        result: VarId,
    ) -> PropId {
        self.post(Box::new(ElementVar::new(index, offset, array, result)))
    }

    /// `b ⇔ Σ aᵢ·xᵢ rel c`, or `b ⇒ Σ aᵢ·xᵢ rel c` when `half`.
    pub fn reified_linear(
        &mut self,
        b: VarId,
        terms: &[(i64, VarId)],
        rel: LinRel,
        rhs: i64,
        half: bool,
    ) -> PropId {
        if let Some(values) = self.one_variable_equality(terms, rel, rhs) {
            let (x, values) = values;
            return self.reified_member(b, x, &values, half);
        }
        if let Some((x, y)) = self.two_variable_equality(b, terms, rel, rhs) {
            let positive = rel == LinRel::Eq;
            return self.post(Box::new(ReifiedEqual::new(b, x, y, positive, half)));
        }
        self.post(Box::new(ReifiedLinear::new(b, terms, rel, rhs, half)))
    }

    /// `x - y = 0` or `≠ 0` of two different free variables (neither of them `b`): the
    /// shape [`ReifiedEqual`] decides on the domains (`propagators/reified_equal.rs`).
    fn two_variable_equality(
        &self,
        b: VarId,
        terms: &[(i64, VarId)],
        rel: LinRel,
        rhs: i64,
    ) -> Option<(VarId, VarId)> {
        if rel == LinRel::Le || rhs != 0 || terms.len() != 2 {
            return None;
        }
        let ((a, x), (c, y)) = (terms[0], terms[1]);
        let free = |v: VarId| !self.store.is_fixed(v) && v != b;
        (a == -c && a.abs() == 1 && x != y && free(x) && free(y)).then_some((x, y))
    }

    /// `bₖ ⇔ (x ≤ tₖ)` (or `> tₖ`) for each threshold, as one propagator that walks only
    /// the thresholds a bound change decides (`propagators/thresholds.rs`): what a model's
    /// many reified comparisons of one variable with constants become.
    pub fn reified_thresholds(&mut self, x: VarId, thresholds: Vec<Threshold>) -> PropId {
        self.post(Box::new(ReifiedThresholds::new(x, thresholds)))
    }

    /// `bₖ ⇔ (x = vₖ)` (or `≠ vₖ`) for each indicator, as one propagator that walks only
    /// the indicators still open (`propagators/indicators.rs`): what a model's many reified
    /// equalities of one variable with constants become.
    pub fn value_indicators(&mut self, x: VarId, indicators: Vec<Indicator>) -> PropId {
        self.post(Box::new(ValueIndicators::new(x, indicators)))
    }

    /// `b ⇔ Σ aᵢ·xᵢ = c` (or `≠ c`) as an indicator of its one free variable, `b ⇔ x = v`
    /// or `b ⇔ x ≠ v` (the fixed terms moved into `c`): `Some((x, indicator))`, or `None`
    /// when no variable or more than one is free, its coefficient is not ±1, `c` leaves
    /// `i32`, or `b` is fixed or is `x`.
    pub fn as_indicator(
        &self,
        b: VarId,
        terms: &[(i64, VarId)],
        rel: LinRel,
        rhs: i64,
    ) -> Option<(VarId, Indicator)> {
        if self.store.is_fixed(b) || rel == LinRel::Le {
            return None;
        }
        let (a, x, rest) = self.one_open_term(terms, rhs)?;
        if (a != 1 && a != -1) || x == b {
            return None;
        }
        let value = i32::try_from(rest * a).ok()?;
        Some(match rel {
            LinRel::Eq => (x, Indicator::equal(b, value)),
            _ => (x, Indicator::not_equal(b, value)),
        })
    }

    /// `Σ aᵢ·xᵢ` against `rhs` with its fixed terms moved to the right: `Some((a, x, rest))`
    /// when exactly one variable `x` is free (its coefficients summed into `a`), so that the
    /// sum is `a·x` against `rest`; `None` when more than one is free or none.
    fn one_open_term(&self, terms: &[(i64, VarId)], rhs: i64) -> Option<(i128, VarId, i128)> {
        let mut rest = rhs as i128;
        let mut open: Option<(i128, VarId)> = None;
        for &(a, x) in terms {
            if self.store.is_fixed(x) {
                rest -= a as i128 * self.store.value(x) as i128;
            } else {
                match open {
                    None => open = Some((a as i128, x)),
                    Some((c, y)) if y == x => open = Some((c + a as i128, x)),
                    Some(_) => return None,
                }
            }
        }
        let (a, x) = open?;
        Some((a, x, rest))
    }

    /// `b ⇔ Σ aᵢ·xᵢ ≤ c` as a threshold of its one free variable, `b ⇔ x ≤ t` or
    /// `b ⇔ x ≥ t` (the fixed terms moved into `c`): `Some((x, threshold))`, or `None` when
    /// no variable or more than one is free, or `b` is fixed or is `x`.
    pub fn as_threshold(
        &self,
        b: VarId,
        terms: &[(i64, VarId)],
        rhs: i64,
    ) -> Option<(VarId, Threshold)> {
        if self.store.is_fixed(b) {
            return None;
        }
        let (a, x, rest) = self.one_open_term(terms, rhs)?;
        if a == 0 || x == b {
            return None;
        }
        // a·x ≤ rest: x ≤ ⌊rest / a⌋ when a > 0, x ≥ ⌈rest / a⌉ when a < 0.
        let threshold = if a > 0 {
            Threshold::at_most(b, i64::try_from(rest.div_euclid(a)).ok()?)
        } else {
            Threshold::at_least(b, i64::try_from(-rest.div_euclid(-a)).ok()?)
        };
        Some((x, threshold))
    }

    /// `a·x + (fixed terms) = c` or `≠ c` with one variable left is `x ∈ values`: the
    /// values that satisfy it, for [`Model::reified_member`], which sees holes (`b ⇔ x = 2`
    /// sets `b` false as soon as 2 leaves `x`, where reasoning on bounds waits for the
    /// bounds). `None` for any other shape, or a `≠` over more than 4,096 values.
    fn one_variable_equality(
        &self,
        terms: &[(i64, VarId)],
        rel: LinRel,
        rhs: i64,
    ) -> Option<(VarId, Vec<i32>)> {
        if rel == LinRel::Le {
            return None;
        }
        let (a, x, rest) = self.one_open_term(terms, rhs)?;
        if a == 0 {
            return None;
        }
        let solves = |v: i32| a * v as i128 == rest;
        let domain = self.store.domain(x);
        let values: Vec<i32> = match rel {
            LinRel::Eq => (rest % a == 0)
                .then(|| rest / a)
                .and_then(|v| i32::try_from(v).ok())
                .filter(|&v| domain.contains(v))
                .into_iter()
                .collect(),
            _ if domain.size() > 4_096 => return None,
            _ => domain.iter().filter(|&v| !solves(v)).collect(),
        };
        Some((x, values))
    }

    /// `b ⇔ x ∈ values`, or `b ⇒ x ∈ values` when `half`.
    pub fn reified_member(&mut self, b: VarId, x: VarId, values: &[i32], half: bool) -> PropId {
        self.post(Box::new(ReifiedMember::new(b, x, values, half)))
    }

    /// `x ∈ values`, at once (a unary constraint needs no propagator).
    pub fn restrict_to(&mut self, x: VarId, values: &[i32]) -> Result<(), Conflict> {
        if values.is_empty() {
            return Err(Conflict::new());
        }
        let allowed = Domain::from_values(values);
        self.store.intersect(x, &allowed).map(|_| ())
    }

    /// Remove from `x` every value outside `ranges` (sorted and disjoint; `restrict_to` for
    /// domains too wide to list). Fails if none is left.
    pub fn restrict_to_ranges(&mut self, x: VarId, ranges: &[(i32, i32)]) -> Result<(), Conflict> {
        if ranges.is_empty() {
            return Err(Conflict::new());
        }
        let allowed = Domain::from_ranges(ranges);
        self.store.intersect(x, &allowed).map(|_| ())
    }
}
