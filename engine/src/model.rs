//! # Model: variables plus constraints
//!
//! A model is what a puzzle builds and what the search explores: a [`Store`] of variables and
//! the [`Propagation`] engine holding the posted propagators. Posting a constraint means
//! creating its propagator and subscribing it to its variables; nothing is checked until
//! [`Model::propagate`] runs the propagators to their fixpoint.
//!
//! The helpers here (`all_different`, `linear`, `less_equal`, ...) are the modelling
//! vocabulary a puzzle uses. Each one only chooses a propagator from `propagators/`; the
//! algorithms live there.
//!
//! A `Model` is `Clone`: the parallel search gives every thread its own copy.

use crate::domain::Domain;
use crate::propagation::{PropId, Propagation};
use crate::propagator::{Conflict, Propagator};
use crate::propagators::alldiff::{self, AllDiffLevel};
use crate::propagators::linear::{self, Relation};
use crate::propagators::relations::{EqualOffset, LessEqualOffset, NotEqualOffset};
use crate::store::{Store, VarId};

/// Variables and constraints.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub store: Store,
    pub propagation: Propagation,
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }

    /// A variable with domain `lo..=hi`.
    pub fn new_var(&mut self, lo: i32, hi: i32) -> VarId {
        self.store.new_var(Domain::interval(lo, hi))
    }

    /// A variable whose domain is exactly `values`.
    pub fn new_var_from_values(&mut self, values: &[i32]) -> VarId {
        self.store.new_var(Domain::from_values(values))
    }

    /// A 0/1 variable.
    pub fn new_bool(&mut self) -> VarId {
        self.new_var(0, 1)
    }

    /// `n` variables with domain `lo..=hi`.
    pub fn new_vars(&mut self, n: usize, lo: i32, hi: i32) -> Vec<VarId> {
        (0..n).map(|_| self.new_var(lo, hi)).collect()
    }

    pub fn num_vars(&self) -> usize {
        self.store.num_vars()
    }

    /// Post any propagator.
    pub fn post(&mut self, prop: Box<dyn Propagator>) -> PropId {
        self.propagation.post(&mut self.store, prop)
    }

    /// Run every propagator to the fixpoint.
    pub fn propagate(&mut self) -> Result<(), Conflict> {
        self.propagation.fixpoint(&mut self.store)
    }

    // ----- the modelling vocabulary -------------------------------------------------------

    /// `x = v`, at once (a unary constraint needs no propagator). Returns a conflict if `v`
    /// is not in the domain, so that a puzzle with clashing givens is simply unsatisfiable.
    pub fn fix(&mut self, x: VarId, v: i32) -> Result<(), Conflict> {
        self.store.fix(x, v).map(|_| ())
    }

    /// `x = y + c`.
    pub fn equal_offset(&mut self, x: VarId, y: VarId, c: i32) -> PropId {
        self.post(Box::new(EqualOffset::new(x, y, c)))
    }

    /// `x != y + c`.
    pub fn not_equal_offset(&mut self, x: VarId, y: VarId, c: i32) -> PropId {
        self.post(Box::new(NotEqualOffset::new(x, y, c)))
    }

    /// `x <= y + c`.
    pub fn less_equal_offset(&mut self, x: VarId, y: VarId, c: i32) -> PropId {
        self.post(Box::new(LessEqualOffset::new(x, y, c)))
    }

    /// `x < y`.
    pub fn less_than(&mut self, x: VarId, y: VarId) -> PropId {
        self.less_equal_offset(x, y, -1)
    }

    /// `Σ coef·x  rel  rhs`, bounds consistent, computed in `i64`.
    pub fn linear(&mut self, terms: &[(i64, VarId)], relation: Relation, rhs: i64) -> PropId {
        let props = linear::post_linear(terms, relation, rhs);
        let mut last = None;
        for p in props {
            last = Some(self.post(p));
        }
        last.expect("post_linear returns at least one propagator")
    }

    /// `Σ x = total`.
    pub fn sum_equals(&mut self, xs: &[VarId], total: i64) -> PropId {
        let terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
        self.linear(&terms, Relation::Eq, total)
    }

    /// All of `xs` take different values, at the given consistency level.
    pub fn all_different(&mut self, xs: &[VarId], level: AllDiffLevel) -> PropId {
        let offsets = vec![0; xs.len()];
        self.all_different_offset(xs, &offsets, level)
    }

    /// All of `xs[i] + offsets[i]` take different values (n-queens diagonals).
    pub fn all_different_offset(
        &mut self,
        xs: &[VarId],
        offsets: &[i32],
        level: AllDiffLevel,
    ) -> PropId {
        let prop = alldiff::new_all_different(xs, offsets, level);
        self.post(prop)
    }
}
