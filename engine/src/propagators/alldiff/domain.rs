//! # All-different by matching (domain consistency, Régin 1994)
//!
//! **Enforces:** no two of the views `vᵢ` (`view.rs`) are equal, and removes *every* value that belongs
//! to no solution of the constraint: **domain (generalised arc) consistency**. It sees what a
//! person calls naked and hidden pairs, triples, ... in a Sudoku unit all at once, so a
//! Sudoku that naked and hidden singles solve needs no search at all.
//!
//! **Algorithm** (J.-C. Régin, "A filtering algorithm for constraints of difference in
//! CSPs", AAAI 1994): find a matching of variables to values that covers every variable,
//! orient the value graph along it, and keep exactly the edges inside a strongly connected
//! component. The whole algorithm, with a worked example, is in `../value_graph.rs`; it is
//! shared with the global cardinality constraint (`count.rs`), of which all-different is the
//! case "each value at most once".
//!
//! **Two implementations of one algorithm.** When every shown value fits in one 64-bit word
//! (span ≤ 64, at most 64 variables: Sudoku units, Latin squares, Kakuro runs) the run goes
//! through `word_matching.rs`, where every set of vertices is a bitmask and the whole run is
//! a few hundred bit operations; otherwise through the general graph of `value_graph.rs`.
//! Both prune exactly the same values (both are tested against brute force), the first much
//! faster. [`AllDifferentDomain::general`] forces the general graph, for tests and
//! benches.
//!
//! **Incremental:** the matching is kept between runs (as a hint: it is re-checked against
//! the domains and repaired with a few augmenting paths), so a typical run costs one pass
//! over the domains plus Tarjan's algorithm.
//!
//! **Wakes on:** any domain change. **Cost:** O(e) per run plus O(e) per augmenting path,
//! `e` = the sum of the domain sizes; O(n·e) worst case (Hopcroft–Karp would give O(√n·e)
//! for the first matching, which matters little here since the matching is reused).
//! **Idempotent:** removing edges between components changes neither the matching nor the
//! components, so one run is a fixpoint.
//!
//! **Reference** (`propagate_from_scratch`): `reference::regin`, the textbook algorithm on a
//! fresh graph; the engine's runs keep a matching between runs and are tested against it.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::alldiff::explain::HallSets;
use crate::propagators::alldiff::fast::word_matching::{WordMatching, WordRun};
use crate::propagators::alldiff::reference;
use crate::propagators::value_graph::{Capacities, ValueGraph};
use crate::view::View;

#[derive(Clone, Debug)]
pub struct AllDifferentDomain {
    views: Vec<View>,
    /// The word-sized algorithm, tried first when every view is a shift `x + c` (`None`:
    /// always use the general graph).
    words: Option<WordMatching>,
    graph: ValueGraph,
}

impl AllDifferentDomain {
    /// Domain-consistent all-different over `views`.
    pub fn new(views: &[View]) -> AllDifferentDomain {
        let mut p = AllDifferentDomain::general(views);
        if views.iter().all(|x| x.is_shift()) {
            p.words = Some(WordMatching::new(views.len()));
        }
        p
    }

    /// The same, always on the general value graph (never the one-word algorithm).
    pub fn general(views: &[View]) -> AllDifferentDomain {
        AllDifferentDomain {
            views: views.to_vec(),
            words: None,
            graph: ValueGraph::new(views, Capacities::all_different()),
        }
    }
}

impl Propagator for AllDifferentDomain {
    fn name(&self) -> &'static str {
        "alldiff_domain"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        (self.views.iter())
            .map(|x| x.subscription(Condition::Domain))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// The reference: Régin's algorithm written plainly (`reference::regin`: a fresh value
    /// graph, DFS augmenting paths, Tarjan), with no matching kept from an earlier run.
    /// Domain consistency is one set of domains, so both lanes must reach the same.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        reference::regin(ctx, &self.views)
    }
    /// The Hall set that needs the value (`explain.rs`, from a matching of the inputs).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        HallSets::new(&self.views, inputs).is_some_and(|h| h.explain(atom, reason))
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        HallSets::new(&self.views, inputs).is_some_and(|h| h.explain_failure(reason))
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if let Some(words) = self.words.as_mut() {
            if let WordRun::Done(result) = words.run(ctx, &self.views) {
                return result;
            }
        }
        if self.hull_span(ctx) > GRAPH_MAX_SPAN {
            // The value graph's table has a slot per value of the hull: views far apart
            // (`x + 2³¹` beside `−y`) would ask for billions. Régin on the values present.
            return reference::regin(ctx, &self.views);
        }
        self.graph.filter(ctx)
    }
}

/// The widest hull of shown values the value graph's table takes (one slot per value).
const GRAPH_MAX_SPAN: i64 = 1 << 20;

impl AllDifferentDomain {
    /// How many values lie between the least and the greatest value the views show.
    fn hull_span(&self, ctx: &Context<'_>) -> i64 {
        let lo = self.views.iter().map(|x| x.min(ctx)).min().unwrap_or(0);
        let hi = self.views.iter().map(|x| x.max(ctx)).max().unwrap_or(0);
        hi - lo + 1
    }
}
