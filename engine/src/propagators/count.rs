//! # Counting: "between `lo` and `hi` of these variables take the value `v`"
//!
//! **Enforces:** `lo <= #{ i : xᵢ = v } <= hi` for a constant value `v` and constant bounds
//! (`Model::count_eq` is `lo = hi = k`; at-least and at-most are the one-sided cases).
//!
//! **Algorithm.** Two numbers say everything: `sure`, the variables already fixed to `v`, and
//! `possible`, the variables whose domain still contains `v`. Then
//!
//! * `sure > hi` or `possible < lo`: no solution, fail;
//! * `sure == hi`: every other variable must avoid `v`, so remove `v` from them;
//! * `possible == lo`: every variable that can take `v` must take it, so fix them to `v`.
//!
//! Worked example: exactly 2 of `x₁..x₄` are 7, with `x₁ = 7`, `x₂ ∈ {3, 7}`, `x₃ ∈ {1, 2}`,
//! `x₄ ∈ {7, 8}`. `sure = 1`, `possible = 3`: nothing yet. Remove 7 from `x₂`: `possible = 2
//! = lo`, so `x₄ = 7`.
//!
//! **Consistency: domain.** Every value left has a support: a value `w != v` of `xᵢ` is
//! supported because `sure <= hi` and `possible >= lo` leave room either way, and `v` itself
//! because `sure < hi` whenever it is still in an unfixed domain. One run reaches the
//! fixpoint (idempotent). Checked exhaustively in `engine/tests/globals.rs`.
//!
//! **Wakes on:** any domain change (the loss of `v` matters even inside a domain).
//! **Cost:** O(n) per run. Entailed when `sure >= lo` and `possible <= hi`.
//!
//! The multi-value version, the global cardinality constraint, is `GlobalCardinality` below:
//! it matches variables to values with a flow (Régin 1996) instead of counting each value
//! alone, which finds more (see `value_graph.rs`).
//!
//! **Reference** (`propagate_from_scratch`): for `CountRange`, the run itself (it keeps
//! nothing between runs); for `GlobalCardinality`, the same flow algorithm on a fresh value
//! graph, where the engine's runs keep the last flow as a hint.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::cardinality_explain::Cardinality;
use crate::propagators::reasons::split_atom;
use crate::propagators::value_graph::{Capacities, ValueGraph};
use crate::store::VarId;
use crate::view::View;

/// `lo <= #{ i : xs[i] = value } <= hi`.
#[derive(Clone, Debug)]
pub struct CountRange {
    xs: Vec<VarId>,
    value: i32,
    lo: i64,
    hi: i64,
}

impl CountRange {
    pub fn new(xs: &[VarId], value: i32, lo: i64, hi: i64) -> CountRange {
        // Counts outside 0..=n say nothing more than 0 and n.
        CountRange {
            xs: xs.to_vec(),
            value,
            lo: lo.max(0),
            hi: hi.min(xs.len() as i64),
        }
    }
}

impl Propagator for CountRange {
    fn name(&self) -> &'static str {
        "count"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Domain)
    }
    fn priority(&self) -> Priority {
        Priority::Medium
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let v = self.value;
        let mut sure = 0i64;
        let mut possible = 0i64;
        for &x in &self.xs {
            if ctx.contains(x, v) {
                possible += 1;
                if ctx.is_fixed(x) {
                    sure += 1;
                }
            }
        }
        if sure > self.hi || possible < self.lo || self.lo > self.hi {
            return Err(crate::Conflict::new());
        }
        if sure == self.hi && possible > sure {
            // No room left for v: the unfixed variables avoid it.
            for &x in &self.xs {
                if !ctx.is_fixed(x) {
                    ctx.remove(x, v)?;
                }
            }
            possible = sure;
        } else if possible == self.lo && sure < possible {
            // Every candidate is needed.
            for &x in &self.xs {
                if ctx.contains(x, v) {
                    ctx.fix(x, v)?;
                }
            }
            sure = possible;
        }
        if sure >= self.lo && possible <= self.hi {
            ctx.set_entailed();
        }
        Ok(())
    }
    /// `[x ≠ v]` because `hi` others are fixed to `v`; `[x = v]` because all but `lo`
    /// positions have lost `v`.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let Some(i) = self.xs.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[i], reason) else {
            return false;
        };
        let (sure, possible) = self.tally(inputs);
        let v = self.value;
        if needed.iter().all(|&w| w == v) && sure == self.hi && possible > sure {
            self.push_fixed_to_value(inputs, reason);
            true
        } else if needed.iter().all(|&w| w != v) && possible == self.lo && sure < possible {
            self.push_without_value(inputs, reason);
            true
        } else {
            false
        }
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let (sure, possible) = self.tally(inputs);
        if self.lo > self.hi {
            return true;
        }
        if sure > self.hi {
            self.push_fixed_to_value(inputs, reason);
            true
        } else if possible < self.lo {
            self.push_without_value(inputs, reason);
            true
        } else {
            false
        }
    }
}

impl CountRange {
    /// How many positions are sure to take the value, and how many may.
    fn tally(&self, inputs: &[Domain]) -> (i64, i64) {
        let v = self.value;
        let possible = inputs.iter().filter(|d| d.contains(v)).count() as i64;
        let sure = inputs
            .iter()
            .filter(|d| d.is_fixed() && d.value() == v)
            .count() as i64;
        (sure, possible)
    }

    /// `[x = v]` for every position fixed to the value.
    fn push_fixed_to_value(&self, inputs: &[Domain], reason: &mut Vec<Atom>) {
        for (&x, d) in self.xs.iter().zip(inputs) {
            if d.is_fixed()
                && d.value() == self.value
                && !reason.contains(&Atom::Equal(x, self.value))
            {
                reason.push(Atom::Equal(x, self.value));
            }
        }
    }

    /// `[x ≠ v]` for every position that has lost the value.
    fn push_without_value(&self, inputs: &[Domain], reason: &mut Vec<Atom>) {
        for (&x, d) in self.xs.iter().zip(inputs) {
            if !d.contains(self.value) && !reason.contains(&Atom::NotEqual(x, self.value)) {
                reason.push(Atom::NotEqual(x, self.value));
            }
        }
    }
}

/// The global cardinality constraint with fixed counts: each listed value `v` is taken by
/// exactly `count(v)` of the variables; values not listed are unconstrained.
///
/// **Consistency: domain** (generalised arc consistency), by Régin's flow algorithm (J.-C.
/// Régin, "Generalized arc consistency for global cardinality constraint", AAAI 1996): a
/// flow from variables to values where listed values need exactly `count(v)` units, then
/// one strongly-connected-components pass over the residual graph. The algorithm is in
/// `value_graph.rs`, shared with the domain-consistent all-different (which is the special
/// case "every value at most once"). **Wakes on:** any domain change.
/// **Cost:** O(n·e) to repair the flow in the worst case (usually a few augmenting paths,
/// as the flow is kept between runs), plus O(n + e) for the components, where `e` is the
/// total size of the domains.
///
/// **Explanations** (learning): counting certificates, `cardinality_explain.rs`.
#[derive(Clone, Debug)]
pub struct GlobalCardinality {
    xs: Vec<VarId>,
    /// The values and how many times each is taken, as given.
    counts: Vec<(i32, u32)>,
    graph: ValueGraph,
}

impl GlobalCardinality {
    pub fn new(xs: &[VarId], counts: &[(i32, u32)]) -> GlobalCardinality {
        let views: Vec<View> = xs.iter().map(|&x| View::from(x)).collect();
        GlobalCardinality {
            xs: xs.to_vec(),
            counts: counts.to_vec(),
            graph: ValueGraph::new(&views, Capacities::exact_counts(counts, xs.len())),
        }
    }
}

impl Propagator for GlobalCardinality {
    fn name(&self) -> &'static str {
        "global_cardinality"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Domain)
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// The reference: the same flow algorithm on a fresh value graph, with no flow kept from
    /// an earlier run (`value_graph.rs` is already the plain graph version; what the engine's
    /// runs keep is only the flow, as a hint).
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let views: Vec<View> = self.xs.iter().map(|&x| View::from(x)).collect();
        let capacities = Capacities::exact_counts(&self.counts, self.xs.len());
        ValueGraph::new(&views, capacities).filter(ctx)
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.graph.filter(ctx)
    }

    /// A counting certificate: `x = v` leaves a set of values too few takers or a set of
    /// positions too little room (`cardinality_explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let Some(i) = self.xs.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[i], reason) else {
            return false;
        };
        let counting = Cardinality::new(&self.xs, &self.counts);
        needed
            .iter()
            .all(|&v| counting.explain_no_flow(inputs, Some((atom.var(), v)), reason))
    }

    /// The counting certificate of the inputs themselves.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        Cardinality::new(&self.xs, &self.counts).explain_no_flow(inputs, None, reason)
    }
}
