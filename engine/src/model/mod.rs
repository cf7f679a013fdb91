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
//!
//! The vocabulary grows by family in this folder, each file a separate `impl Model` block:
//! `arithmetic.rs` (times, division, modulo, power, min, max, abs, element over variables,
//! reified and half-reified forms: what FlatZinc's builtins need), `scheduling.rs` (inverse,
//! cumulative, disjunctive, diffn), `globals.rs` (vectors, lex, regular, circuit),
//! `alldiff.rs` (all-different on views, the propagator chosen by their shape).

mod alldiff;
mod arithmetic;
mod explain;
mod globals;
mod scheduling;

use crate::domain::Domain;
use crate::propagation::{PropId, Propagation};
use crate::propagator::{Conflict, Propagator};
use crate::propagators::linear::{self, Relation};
use crate::propagators::linear_domain::LinearEqDomain;
use crate::propagators::relations::{Compare, EqualOffset};
use crate::stats::PropagatorProfile;
use crate::store::{Store, VarId};
use crate::view::View;

/// Variables and constraints.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub(crate) store: Store,
    pub(crate) propagation: Propagation,
    /// The all-differents posted last, if they run as the last propagator
    /// (`model/alldiff.rs`).
    alldiff_group: Option<alldiff::AllDiffGroup>,
}

/// A point to come back to: [`Model::checkpoint`] opens it, [`Model::rollback`] undoes
/// every change made since (domains, reversible state, the propagation queue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "a checkpoint is for rolling back to"]
pub struct Checkpoint {
    /// The trail level below the one the checkpoint opened.
    level: usize,
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

    /// A variable whose domain is the union of `ranges` (sorted, disjoint, not empty): for
    /// domains too wide to list value by value.
    pub fn new_var_from_ranges(&mut self, ranges: &[(i32, i32)]) -> VarId {
        self.store.new_var(Domain::from_ranges(ranges))
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

    // ----- reading the domains (what a puzzle's decoder and the command line need) --------

    /// The current domain of `x`.
    pub fn domain(&self, x: VarId) -> &Domain {
        self.store.domain(x)
    }

    /// The smallest value left to `x`.
    pub fn min(&self, x: VarId) -> i32 {
        self.store.min(x)
    }

    /// The largest value left to `x`.
    pub fn max(&self, x: VarId) -> i32 {
        self.store.max(x)
    }

    /// How many values are left to `x`.
    pub fn size(&self, x: VarId) -> u32 {
        self.store.size(x)
    }

    /// Is `x` down to one value?
    pub fn is_fixed(&self, x: VarId) -> bool {
        self.store.is_fixed(x)
    }

    /// The value of a fixed `x`.
    pub fn value(&self, x: VarId) -> i32 {
        self.store.value(x)
    }

    /// Is `v` still in the domain of `x`?
    pub fn contains(&self, x: VarId, v: i32) -> bool {
        self.store.contains(x, v)
    }

    /// The degree of `x`: how many propagators not yet entailed watch it (FlatZinc's
    /// `occurrence` and `most_constrained`, Gecode's `INT_VAR_DEGREE_MAX`); a propagator
    /// that stands for several constraints counts those still open
    /// ([`Propagator::counts_as_several`](crate::propagator::Propagator::counts_as_several)).
    pub fn degree(&self, x: VarId) -> u64 {
        let propagation = &self.propagation;
        (propagation.watches_of(x))
            .filter(|&(p, _)| !propagation.is_entailed(&self.store, p))
            .map(|(p, local)| propagation.watch_weight(&self.store, p, local))
            .sum()
    }

    /// The weighted degree of `x` (Boussemart et al. 2004): over the propagators not yet
    /// entailed that watch it, one (per open constraint) plus the failures each has caused.
    /// The `w` of dom/wdeg.
    pub fn weighted_degree(&self, x: VarId) -> u64 {
        let propagation = &self.propagation;
        (propagation.watches_of(x))
            .filter(|&(p, _)| !propagation.is_entailed(&self.store, p))
            .map(
                |(p, local)| match propagation.watch_weight(&self.store, p, local) {
                    // Every constraint it stands for on `x` is decided: as if entailed.
                    0 => 0,
                    open => open + propagation.failures_of(p),
                },
            )
            .sum()
    }

    /// The accumulated failure count of `x`: over the propagators not yet entailed that
    /// watch it, the sum of their failure counts with decay (`propagation::Afc`; Gecode's
    /// `afc()` of a variable), each count starting at one per open constraint. The `w` of
    /// FlatZinc's `dom_w_deg`, read as Gecode reads it.
    pub fn afc(&self, x: VarId) -> f64 {
        let propagation = &self.propagation;
        (propagation.watches_of(x))
            .filter(|&(p, _)| !propagation.is_entailed(&self.store, p))
            .map(
                |(p, local)| match propagation.watch_weight(&self.store, p, local) {
                    0 => 0.0,
                    open => propagation.afc_of(p) + open as f64 - 1.0,
                },
            )
            .sum()
    }

    /// Post any propagator.
    pub fn post(&mut self, prop: Box<dyn Propagator>) -> PropId {
        self.alldiff_group = None;
        self.propagation.post(&mut self.store, prop)
    }

    /// Run every propagator to the fixpoint. `Err` is a conflict, unless
    /// [`Model::is_interrupted`] says the stop check fired (then nothing is known).
    pub fn propagate(&mut self) -> Result<(), Conflict> {
        self.propagation.fixpoint(&mut self.store)
    }

    /// From now on, propagation polls `check` now and then and gives way once it is due
    /// (interrupt.rs); `None` removes it. Installing forgets an earlier interruption.
    /// Returns the check installed before (to put it back).
    pub fn set_stop_check(&mut self, check: Option<crate::StopCheck>) -> Option<crate::StopCheck> {
        self.store.interrupt.set(check)
    }

    /// Did the stop check fire? Then the last `Err` of [`Model::propagate`] was an
    /// interruption, not a conflict.
    pub fn is_interrupted(&self) -> bool {
        self.store.interrupt.fired()
    }

    /// Prunings by hand, as a search decision makes them (outside any propagator): each
    /// returns a conflict if it empties the domain. Nothing propagates until
    /// [`Model::propagate`].
    pub fn remove(&mut self, x: VarId, v: i32) -> Result<(), Conflict> {
        self.store.remove(x, v).map(|_| ())
    }
    /// `x >= lo`, by hand (see [`Model::remove`]).
    pub fn set_min(&mut self, x: VarId, lo: i32) -> Result<(), Conflict> {
        self.store.set_min(x, lo).map(|_| ())
    }
    /// `x <= hi`, by hand (see [`Model::remove`]).
    pub fn set_max(&mut self, x: VarId, hi: i32) -> Result<(), Conflict> {
        self.store.set_max(x, hi).map(|_| ())
    }

    // ----- going back: checkpoints ----------------------------------------------------------

    /// Open a checkpoint: whatever changes from now on (fixings, propagation, a whole
    /// search) is undone by [`Model::rollback`]. Checkpoints nest: roll back the newest
    /// first.
    pub fn checkpoint(&mut self) -> Checkpoint {
        let level = self.store.level();
        self.store.push_level();
        Checkpoint { level }
    }

    /// Undo everything since `checkpoint` was opened (and any checkpoint opened after it),
    /// and drop what the propagation queue still held.
    pub fn rollback(&mut self, checkpoint: Checkpoint) {
        self.propagation.abandon(&mut self.store);
        while self.store.level() > checkpoint.level {
            self.store.pop_level();
        }
    }

    /// How many checkpoints (and search levels) are open.
    pub fn level(&self) -> usize {
        self.store.level()
    }

    // ----- counters -------------------------------------------------------------------------

    /// Number of posted propagators.
    pub fn num_propagators(&self) -> usize {
        self.propagation.len()
    }
    /// Total propagator runs so far.
    pub fn propagations(&self) -> u64 {
        self.propagation.propagations
    }
    /// Total values removed so far (only grows).
    pub fn removed_count(&self) -> u64 {
        self.store.removed_count()
    }
    /// Counters per propagator kind.
    pub fn profile(&self) -> PropagatorProfile {
        self.propagation.profile()
    }
    /// Zero the propagators' call counters (a shared model, before its next instance).
    pub fn reset_counters(&mut self) {
        self.propagation.reset_counters()
    }
    /// Measure time per propagator (two clock reads per run).
    pub fn set_profiling(&mut self, on: bool) {
        self.propagation.profiling = on;
    }
    /// Run every propagator from scratch at the next [`Model::propagate`] (as after a
    /// restart).
    pub fn schedule_all_from_scratch(&mut self) {
        self.propagation.schedule_all_from_scratch()
    }

    // ----- the modelling vocabulary -------------------------------------------------------

    /// `x = v`, at once (a unary constraint needs no propagator). Returns a conflict if `v`
    /// is not in the domain, so that a puzzle with clashing givens is simply unsatisfiable.
    pub fn fix(&mut self, x: VarId, v: i32) -> Result<(), Conflict> {
        self.store.fix(x, v).map(|_| ())
    }

    /// `x = y + c`.
    pub fn equal_offset(&mut self, x: VarId, y: VarId, c: i32) -> PropId {
        self.equal(x, y.plus(c))
    }

    /// `x = y` on two views (`view.rs`), domain consistent: `m.equal(x.times(2), y.plus(1))`
    /// is `2x = y + 1`.
    pub fn equal(&mut self, x: impl Into<View>, y: impl Into<View>) -> PropId {
        self.post(Box::new(EqualOffset::views(x.into(), y.into())))
    }

    /// `x != y + c`.
    pub fn not_equal_offset(&mut self, x: VarId, y: VarId, c: i32) -> PropId {
        self.not_equal(x, y.plus(c))
    }

    /// `x <= y + c`.
    pub fn less_equal_offset(&mut self, x: VarId, y: VarId, c: i32) -> PropId {
        self.less_equal(x, y.plus(c))
    }

    /// `x ≠ y` on two views (`view.rs`): `m.not_equal(x, y.times(2).plus(1))`.
    pub fn not_equal(&mut self, x: impl Into<View>, y: impl Into<View>) -> PropId {
        self.post(Box::new(Compare::not_equal(x.into(), y.into())))
    }

    /// `x ≤ y` on two views (`view.rs`): `m.less_equal(x.neg(), y)` is `−x ≤ y`.
    pub fn less_equal(&mut self, x: impl Into<View>, y: impl Into<View>) -> PropId {
        self.post(Box::new(Compare::less_equal(x.into(), y.into())))
    }

    /// `x < y`.
    pub fn less_than(&mut self, x: VarId, y: VarId) -> PropId {
        self.less_equal_offset(x, y, -1)
    }

    /// `Σ coef·x  rel  rhs`, bounds consistent, computed in `i64`. Panics if a sum could
    /// leave the `i64` range: `Σ |coef|·max(|min x|, |max x|) + |rhs|` must stay below
    /// 2^62, judged on the domains now (they only shrink later), as
    /// [`Model::linear_fits`] tells.
    pub fn linear(&mut self, terms: &[(i64, VarId)], relation: Relation, rhs: i64) -> PropId {
        assert!(
            self.linear_fits(terms, rhs),
            "linear constraint too large for i64 arithmetic"
        );
        let props = linear::post_linear(terms, relation, rhs);
        let mut last = None;
        for p in props {
            last = Some(self.post(p));
        }
        last.expect("post_linear returns at least one propagator")
    }

    /// Can [`Model::linear`] post `Σ terms rel rhs`: do its sums fit `i64` with room to
    /// spare, over the present domains?
    pub fn linear_fits(&self, terms: &[(i64, VarId)], rhs: i64) -> bool {
        let largest = |x: VarId| {
            (self.store.min(x) as i128)
                .abs()
                .max((self.store.max(x) as i128).abs())
        };
        // On the merged terms, as posted: `2^31·x - 2^31·x` is no term at all, and
        // `2^62·x + 2^62·x` a coefficient past `i64`.
        let Some(merged) = linear::merge_terms_checked(terms) else {
            return false;
        };
        let bound: i128 = merged
            .iter()
            .map(|&(a, x)| (a as i128).abs() * largest(x))
            .sum::<i128>()
            + (rhs as i128).abs();
        bound < (1i128 << 62)
    }

    /// `Σ k·view  rel  rhs` with views (`view.rs`) as terms: `k·(a·x + b)` is posted as the
    /// term `(k·a)·x` and the constant `k·b` moved to the right-hand side, then as
    /// [`Model::linear`]. Panics if that folding or a sum could leave the `i64` range, as
    /// [`Model::linear_views_fits`] tells.
    pub fn linear_views(&mut self, terms: &[(i64, View)], relation: Relation, rhs: i64) -> PropId {
        let (plain, rhs) =
            fold_linear_views(terms, rhs).expect("linear constraint too large for i64 arithmetic");
        self.linear(&plain, relation, rhs)
    }

    /// Can [`Model::linear_views`] post `Σ terms rel rhs`: do the folded coefficients and
    /// constant fit `i64`, and do the sums then pass [`Model::linear_fits`]?
    pub fn linear_views_fits(&self, terms: &[(i64, View)], rhs: i64) -> bool {
        fold_linear_views(terms, rhs).is_some_and(|(plain, rhs)| self.linear_fits(&plain, rhs))
    }

    /// `Σ k·view = rhs` kept domain consistent (`linear_domain.rs`, within its budget) beside
    /// the bounds propagator of [`Model::linear_views`]. Panics as that does.
    pub fn linear_domain_views(&mut self, terms: &[(i64, View)], rhs: i64) -> PropId {
        let (plain, folded) =
            fold_linear_views(terms, rhs).expect("linear constraint too large for i64 arithmetic");
        self.linear(&plain, Relation::Eq, folded);
        self.post(Box::new(LinearEqDomain::new(&plain, folded)))
    }

    /// `Σ x = total`.
    pub fn sum_equals(&mut self, xs: &[VarId], total: i64) -> PropId {
        let terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
        self.linear(&terms, Relation::Eq, total)
    }

    // ----- global and puzzle constraints (see `propagators/`) --------------------------------

    /// Exactly `k` of `xs` take the value `value` (domain consistent, `count.rs`).
    pub fn count_eq(&mut self, xs: &[VarId], value: i32, k: i32) -> PropId {
        self.count_between(xs, value, k, k)
    }

    /// At least `k` of `xs` take the value `value`.
    pub fn count_at_least(&mut self, xs: &[VarId], value: i32, k: i32) -> PropId {
        self.count_between(xs, value, k, xs.len() as i32)
    }

    /// At most `k` of `xs` take the value `value`.
    pub fn count_at_most(&mut self, xs: &[VarId], value: i32, k: i32) -> PropId {
        self.count_between(xs, value, 0, k)
    }

    /// Between `lo` and `hi` (inclusive) of `xs` take the value `value`.
    pub fn count_between(&mut self, xs: &[VarId], value: i32, lo: i32, hi: i32) -> PropId {
        self.post(Box::new(crate::propagators::count::CountRange::new(
            xs, value, lo as i64, hi as i64,
        )))
    }

    /// Each listed value `v` is taken by exactly `count` of `xs`; values not listed are free
    /// (list every value of the domains for a closed constraint). Domain consistent
    /// (Régin's flow algorithm, `count.rs` and `value_graph.rs`).
    pub fn global_cardinality(&mut self, xs: &[VarId], counts: &[(i32, u32)]) -> PropId {
        self.post(Box::new(crate::propagators::count::GlobalCardinality::new(
            xs, counts,
        )))
    }

    /// `result = array[index]`, `index` 0-based (domain consistent, `element.rs`).
    pub fn element(&mut self, index: VarId, array: &[i32], result: VarId) -> PropId {
        self.post(Box::new(crate::propagators::element::Element::new(
            index, array, result,
        )))
    }

    /// `(vars[0], …, vars[r-1])` is one of `tuples` (domain consistent, `table.rs`). Panics
    /// if a tuple's length differs from `vars.len()`.
    pub fn table(&mut self, vars: &[VarId], tuples: Vec<Vec<i32>>) -> PropId {
        self.post(Box::new(crate::propagators::table::Table::new(
            vars, &tuples,
        )))
    }

    /// `p₁ ∨ … ∨ pₖ ∨ ¬n₁ ∨ … ∨ ¬nₘ` over 0/1 variables (`clause.rs`). The variables are
    /// restricted to {0, 1}.
    pub fn clause(&mut self, pos: &[VarId], neg: &[VarId]) -> PropId {
        self.post(Box::new(crate::propagators::clause::Clause::new(pos, neg)))
    }

    /// `r ⇔ ℓ₁ ∧ … ∧ ℓₖ` over literals `(x, true)` (`x = 1`) and `(x, false)` (`x = 0`)
    /// (`conjunction.rs`). When a variable appears twice (among the literals, or also as
    /// `r`), the constraint is posted as its `k + 1` clauses instead, which need no such care.
    pub fn conjunction(&mut self, lits: &[(VarId, bool)], r: (VarId, bool)) -> Vec<PropId> {
        let mut vars: Vec<VarId> = lits.iter().map(|l| l.0).chain([r.0]).collect();
        vars.sort_unstable();
        vars.dedup();
        if vars.len() == lits.len() + 1 {
            let c = crate::propagators::conjunction::Conjunction::new(lits, r);
            return vec![self.post(Box::new(c))];
        }
        let split = |ls: &[(VarId, bool)]| -> (Vec<VarId>, Vec<VarId>) {
            let pos = ls.iter().filter(|l| l.1).map(|l| l.0).collect();
            let neg = ls.iter().filter(|l| !l.1).map(|l| l.0).collect();
            (pos, neg)
        };
        let mut ids = Vec::new();
        for &lit in lits {
            // ¬r ∨ ℓ
            let (pos, neg) = split(&[lit, (r.0, !r.1)]);
            ids.push(self.clause(&pos, &neg));
        }
        // r ∨ ¬ℓ₁ ∨ … ∨ ¬ℓₖ
        let mut long: Vec<(VarId, bool)> = lits.iter().map(|&(x, s)| (x, !s)).collect();
        long.push(r);
        let (pos, neg) = split(&long);
        ids.push(self.clause(&pos, &neg));
        ids
    }

    /// `b ⇔ (x = v)`, `b` restricted to {0, 1} (`reify.rs`).
    pub fn reify_eq(&mut self, b: VarId, x: VarId, v: i32) -> PropId {
        self.post(Box::new(crate::propagators::reify::Reify::equal(b, x, v)))
    }

    /// `b ⇔ (x <= v)`, `b` restricted to {0, 1} (`reify.rs`).
    pub fn reify_le(&mut self, b: VarId, x: VarId, v: i32) -> PropId {
        self.post(Box::new(crate::propagators::reify::Reify::less_equal(
            b, x, v,
        )))
    }

    /// `xs` all different and adding up to `total`, domain consistent for the conjunction
    /// (the Kakuro run, `distinct_sum.rs`). Meant for small value sets (at most 16 distinct values
    /// over the domains); beyond that it only checks.
    pub fn distinct_sum(&mut self, xs: &[VarId], total: i64) -> PropId {
        self.post(Box::new(
            crate::propagators::distinct_sum::DistinctSum::new(xs, total),
        ))
    }

    /// Symmetry breaking for interchangeable values `lo, lo+1, ...` of `xs` (graph colours):
    /// a variable with no used value left takes the next unused one. A search rule, not a
    /// constraint: for satisfaction and minimisation, never for counting. See
    /// `propagators/precedence.rs` for when it is sound.
    pub fn value_precedence(&mut self, xs: &[VarId], lo: i32) -> PropId {
        self.post(Box::new(
            crate::propagators::precedence::DynamicValuePrecedence::new(xs, lo),
        ))
    }
}

/// `Σ terms rel rhs` on views as plain terms and a new right-hand side
/// (`linear::fold_views`); `None` if a number leaves `i64`.
fn fold_linear_views(terms: &[(i64, View)], rhs: i64) -> Option<(Vec<(i64, VarId)>, i64)> {
    let (plain, constant) = linear::fold_views(terms)?;
    Some((plain, rhs.checked_sub(constant)?))
}
