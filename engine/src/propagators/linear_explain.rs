//! # Explaining a linear constraint: which bounds forced a new bound
//!
//! Bounds propagation of `Σ aᵢxᵢ <= c` raises or lowers a bound of `xᵢ` from the *least*
//! values of the other terms: `aᵢxᵢ <= c − Σⱼ≠ᵢ lo(aⱼxⱼ)`. So the reason of the new bound is
//! the bounds that made those least values, one atom per other term: `[xⱼ ≥ min]` for
//! `aⱼ > 0`, `[xⱼ ≤ max]` for `aⱼ < 0` (Feydy & Stuckey, *Lazy clause generation
//! reengineered*, 2009). A failure (`Σ lo > c`) is explained by every term's least value.
//!
//! `=` repeats the rule both ways, so a bound may rest on another *derived* bound: the
//! explanation replays the propagation from the inputs on a [`BoundGraph`]
//! (`bound_replay.rs`), which keeps for each bound the bounds it was derived from. Nothing
//! is remembered from the run: the replay starts from the `inputs` the learner gives.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagators::bound_replay::BoundGraph;
use crate::store::VarId;

/// The replay of bounds propagation for `Σ aᵢxᵢ <= c` (and `>= c` too when `equality`),
/// from the inputs.
pub(crate) struct LinearReplay<'a> {
    graph: BoundGraph<'a>,
}

impl<'a> LinearReplay<'a> {
    /// Replay to the fixpoint (or the failure). `inputs[i]` is the domain of `terms[i].1`.
    pub(crate) fn run(
        terms: &'a [(i64, VarId)],
        rhs: i64,
        equality: bool,
        inputs: &'a [Domain],
    ) -> LinearReplay<'a> {
        let vars = terms.iter().map(|&(_, x)| x).collect();
        let mut replay = LinearReplay {
            graph: BoundGraph::new(vars, inputs),
        };
        let negated: Vec<(i64, VarId)> = terms.iter().map(|&(a, x)| (-a, x)).collect();
        let mut changed = true;
        while changed && !replay.graph.stopped() {
            changed = replay.pass(terms, rhs);
            if equality && !replay.graph.stopped() {
                changed |= replay.pass(&negated, -rhs);
            }
        }
        replay
    }

    /// The least value of term `i` under the coefficients `coefs` (the terms or their
    /// negation), and the node of the bound it comes from.
    fn least(&self, coefs: &[(i64, VarId)], i: usize) -> (i64, usize) {
        let (a, g) = (coefs[i].0, &self.graph);
        if a > 0 {
            (a * g.lo[i], g.lo_node[i])
        } else {
            (a * g.hi[i], g.hi_node[i])
        }
    }

    /// One pass of the `<=` rule on `Σ coefs·x <= rhs`: whether a bound moved.
    fn pass(&mut self, coefs: &[(i64, VarId)], rhs: i64) -> bool {
        let n = coefs.len();
        let least: Vec<(i64, usize)> = (0..n).map(|i| self.least(coefs, i)).collect();
        let min_sum: i64 = least.iter().map(|&(v, _)| v).sum();
        if min_sum > rhs {
            self.graph
                .fail(least.iter().map(|&(_, node)| node).collect());
            return false;
        }
        let mut changed = false;
        for i in 0..n {
            let a = coefs[i].0;
            let room = rhs - (min_sum - least[i].0);
            let (moves, bound) = if a > 0 {
                let bound = room.div_euclid(a);
                (bound < self.graph.hi[i], bound)
            } else {
                let bound = -(room.div_euclid(-a));
                (bound > self.graph.lo[i], bound)
            };
            if !moves {
                // The common case: the list of the other terms' nodes is not built.
                continue;
            }
            let from: Vec<usize> = (0..n).filter(|&j| j != i).map(|j| least[j].1).collect();
            changed |= if a > 0 {
                self.graph.lower_hi(i, bound, from)
            } else {
                self.graph.raise_lo(i, bound, from)
            };
            if self.graph.stopped() {
                return false;
            }
        }
        changed
    }

    /// The reason of the failure, if the replay failed.
    pub(crate) fn explain_failure(&self, out: &mut Vec<Atom>) -> bool {
        self.graph.explain_failure(out)
    }

    /// The reason of `atom` (on one of the terms' variables) from the replayed bounds;
    /// `false` if they do not imply it.
    pub(crate) fn explain(&self, atom: Atom, out: &mut Vec<Atom>) -> bool {
        self.graph.explain(atom, out)
    }
}
