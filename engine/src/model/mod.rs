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
//! cumulative, disjunctive, diffn), `globals.rs` (vectors, lex, regular, circuit).

mod arithmetic;
mod explain;
mod globals;
mod scheduling;

use crate::domain::Domain;
use crate::propagation::{PropId, Propagation};
use crate::propagator::{Conflict, Propagator};
use crate::propagators::alldiff::fast::units::AllDifferentUnits;
use crate::propagators::alldiff::{self, AllDiffLevel};
use crate::propagators::linear::{self, Relation};
use crate::propagators::relations::{EqualOffset, LessEqualOffset, NotEqualOffset};
use crate::stats::PropagatorProfile;
use crate::store::{Store, VarId};

/// Variables and constraints.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub(crate) store: Store,
    pub(crate) propagation: Propagation,
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

    /// Post any propagator.
    pub fn post(&mut self, prop: Box<dyn Propagator>) -> PropId {
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
        if level == AllDiffLevel::Bounds {
            // Hall intervals look only at bounds: a value fixed in the middle of another
            // domain is not removed by them. Forward checking runs first (it is cheaper and
            // has a higher priority), so the bounds level is never weaker than the value
            // level — Gecode's bounds propagator does the same internally.
            let value = alldiff::new_all_different(xs, offsets, AllDiffLevel::Value);
            self.post(value);
        }
        let prop = alldiff::new_all_different(xs, offsets, level);
        self.post(prop)
    }

    /// Each of `units` all different, at `level`. At the domain level, when every value fits
    /// in one 64-bit word, the units run together as one propagator (`alldiff/fast/units.rs`,
    /// the same pruning for less traffic through the engine); otherwise one propagator per
    /// unit.
    pub fn all_different_units(&mut self, units: &[Vec<VarId>], level: AllDiffLevel) {
        if level == AllDiffLevel::Domain {
            let vars = units.iter().flatten();
            let lo = vars.clone().map(|&x| self.store.min(x)).min();
            let hi = vars.map(|&x| self.store.max(x)).max();
            if let (Some(lo), Some(hi)) = (lo, hi) {
                if (hi as i64 - lo as i64) < 64 {
                    if let Some(family) = AllDifferentUnits::new(units, lo) {
                        self.post(Box::new(family));
                        return;
                    }
                }
            }
        }
        for unit in units {
            self.all_different(unit, level);
        }
    }

    /// Several offset all-differents over the same variables: for each `k`, all of
    /// `xs[i] + families[k][i]` differ (n-queens: rows and both diagonals). At the value
    /// level one propagator handles every family (`alldiff/fast/offset_family.rs`: one wake-up per
    /// fixed variable instead of one per family); at the other levels, one per family.
    /// Returns the last propagator posted.
    pub fn all_different_family(
        &mut self,
        xs: &[VarId],
        families: &[Vec<i32>],
        level: AllDiffLevel,
    ) -> PropId {
        assert!(!families.is_empty(), "a family of all-differents needs one");
        if level == AllDiffLevel::Value {
            let prop = alldiff::fast::offset_family::AllDifferentOffsetFamily::new(xs, families);
            return self.post(Box::new(prop));
        }
        let mut last = None;
        for offsets in families {
            last = Some(self.all_different_offset(xs, offsets, level));
        }
        last.unwrap()
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
        self.post(Box::new(crate::propagators::reify::ReifyEq::new(b, x, v)))
    }

    /// `b ⇔ (x <= v)`, `b` restricted to {0, 1} (`reify.rs`).
    pub fn reify_le(&mut self, b: VarId, x: VarId, v: i32) -> PropId {
        self.post(Box::new(crate::propagators::reify::ReifyLe::new(b, x, v)))
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
