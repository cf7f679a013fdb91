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
//! That replay is the **reference** version: every other term's current bound.
//!
//! **Lifting** ([`lifted_reason`], tried first when the learner lends the root domains).
//! The reference reason is often stronger than it needs to be. To forbid `xᵢ ≥ v` it is
//! enough that the other terms' least values add up to more than `c − aᵢ·v`; the current
//! bounds may add up to more than that, by a **slack**. The slack can be spent to weaken
//! the reason: a term `aⱼxⱼ` (say `aⱼ > 0`) whose atom `[xⱼ ≥ lⱼ]` is lowered to
//! `[xⱼ ≥ lⱼ − δ]` lowers the sum by `aⱼ·δ`, and a term lowered to its root bound vanishes
//! from the reason (a root fact says nothing). Worked example: `x + y + z ≤ 10` over
//! `0..9`, `y ≥ 4` and `z ≥ 5` force `x ≤ 1`; to forbid only `x ≥ 3` (the atom `[x ≤ 2]`)
//! the others need `y + z ≥ 8`, slack 1: `[y ≥ 3] ∧ [z ≥ 5]`. On a pseudo-Boolean sum each
//! unit of slack drops a term: the terms are dropped smallest contribution first (the most
//! terms for the slack), and what slack is left weakens the next ones. This is the lifting
//! of cutting-plane and lazy clause generation solvers (a reason as weak as the
//! propagation allows is the most general nogood it can give, Feydy & Stuckey 2009,
//! "lifted" explanations). It explains what one application of the rule forces from the
//! inputs; a bound of `=` that rests on another derived bound of the same run goes to the
//! replay.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::RootDomains;
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

/// Most values of `xᵢ`'s input a lifted reason names one by one (holes the bound skipped).
const MOST_HOLES: i64 = 64;

/// The lifted reason of `atom` (on one of the terms' variables) for `Σ terms <= rhs` (and
/// `>= rhs` too when `equality`): one application of the rule from the inputs, with the
/// slack spent on weakening the other terms' atoms (see the module docs). The terms are
/// merged (each variable once). `false` if one application from the inputs does not force
/// the atom (the replay then explains it).
pub(crate) fn lifted_reason(
    terms: &[(i64, VarId)],
    rhs: i64,
    equality: bool,
    inputs: &[Domain],
    roots: RootDomains<'_>,
    atom: Atom,
    out: &mut Vec<Atom>,
) -> bool {
    let Some(i) = terms.iter().position(|&(_, x)| x == atom.var()) else {
        return false;
    };
    let sum = LiftedSum {
        terms,
        rhs,
        equality,
        inputs,
        roots,
        partly: !matches!(atom, Atom::Equal(..)),
    };
    let (d, x) = (&inputs[i], atom.var());
    match atom {
        Atom::AtMost(_, w) => sum.forbid_from(i, w as i64 + 1, true, out),
        Atom::AtLeast(_, w) => sum.forbid_from(i, w as i64 - 1, false, out),
        Atom::Equal(_, v) => {
            sum.forbid_from(i, v as i64 + 1, true, out)
                && sum.forbid_from(i, v as i64 - 1, false, out)
        }
        Atom::NotEqual(_, v) if !d.contains(v) => {
            out.push(Atom::NotEqual(x, v));
            true
        }
        Atom::NotEqual(_, v) => {
            let mark = out.len();
            if sum.forbid_from(i, v as i64, true, out) {
                return true;
            }
            out.truncate(mark);
            sum.forbid_from(i, v as i64, false, out)
        }
    }
}

/// The lifted reason of a failure of `Σ terms <= rhs` (`>=` too when `equality`): the
/// least values of all terms exceed the right-hand side, with the slack spent as above.
/// `false` if no single direction fails from the inputs.
pub(crate) fn lifted_failure(
    terms: &[(i64, VarId)],
    rhs: i64,
    equality: bool,
    inputs: &[Domain],
    roots: RootDomains<'_>,
    out: &mut Vec<Atom>,
) -> bool {
    let sum = LiftedSum {
        terms,
        rhs,
        equality,
        inputs,
        roots,
        partly: true,
    };
    sum.directions().any(|sign| {
        let least: i64 = (0..terms.len()).map(|j| sum.least(sign, j)).sum();
        let slack = least - (sign * rhs + 1);
        slack >= 0 && {
            sum.push_lifted(sign, None, slack, out);
            true
        }
    })
}

/// A sum and the learner's view of its variables, for the lifted reasons.
struct LiftedSum<'a, 'r> {
    terms: &'a [(i64, VarId)],
    rhs: i64,
    equality: bool,
    inputs: &'a [Domain],
    roots: RootDomains<'r>,
    /// Whether leftover slack may weaken a bound part of the way (not for `[x = v]`, whose
    /// two sides would then name one fixed variable by two bounds where `[y = v]` is one).
    partly: bool,
}

impl LiftedSum<'_, '_> {
    /// The directions of the rule: `+1` for `Σ ≤ rhs`, and `−1` for `Σ ≥ rhs` (as
    /// `Σ −terms ≤ −rhs`) when the sum is an equality.
    fn directions(&self) -> impl Iterator<Item = i64> {
        [1, -1].into_iter().take(if self.equality { 2 } else { 1 })
    }

    /// The least value of term `j` in direction `sign`, from its input bound.
    fn least(&self, sign: i64, j: usize) -> i64 {
        let a = sign * self.terms[j].0;
        let d = &self.inputs[j];
        a * if a > 0 { d.min() } else { d.max() } as i64
    }

    /// Push why `xᵢ` cannot take `v` nor any value beyond it (above when `upward`, below
    /// otherwise): the other terms' lifted bounds forbid a value `h` and beyond, and the
    /// values from `v` to `h` (exclusive) are missing from the input (holes, atoms of the
    /// input: the bound snapped over them). `h` is the first value from `v` on that the rule
    /// forbids, so as few holes as the rule allows are named. `false` if no direction of the
    /// rule forbids them from the inputs.
    fn forbid_from(&self, i: usize, v: i64, upward: bool, out: &mut Vec<Atom>) -> bool {
        let (d, x) = (&self.inputs[i], self.terms[i].1);
        let step = if upward { 1 } else { -1 };
        let beyond_input = |h: i64| {
            if upward {
                h > d.max() as i64
            } else {
                h < d.min() as i64
            }
        };
        if beyond_input(v) {
            // No value of the input there: its own bound says so.
            out.push(if upward {
                Atom::AtMost(x, d.max())
            } else {
                Atom::AtLeast(x, d.min())
            });
            return true;
        }
        self.directions().any(|sign| {
            // In direction `sign` the rule reads `cᵢ·xᵢ ≤ r − Σⱼ≠ᵢ least(cⱼxⱼ)`: it forbids
            // `h` and beyond when `cᵢ` points that way and `cᵢ·h` exceeds the room.
            let c = sign * self.terms[i].0;
            if (c > 0) != upward {
                return false;
            }
            let others: i64 = (0..self.terms.len())
                .filter(|&j| j != i)
                .map(|j| self.least(sign, j))
                .sum();
            let room = sign * self.rhs - others;
            let mut h = v;
            while c * h <= room {
                let in_input = i32::try_from(h).is_ok_and(|h| d.contains(h));
                if in_input || (h - v).abs() >= MOST_HOLES || beyond_input(h) {
                    return false;
                }
                h += step;
            }
            let mark = out.len();
            let mut hole = v;
            while hole != h {
                out.push(Atom::NotEqual(x, hole as i32));
                hole += step;
            }
            let slack = c * h - room - 1;
            debug_assert!(slack >= 0 && out.len() >= mark);
            self.push_lifted(sign, Some(i), slack, out);
            true
        })
    }

    /// Push the least-value atoms of every term but `skip` in direction `sign`, weakened by
    /// `slack` in all: terms whose whole way down to the root bound fits in the slack are
    /// left out, smallest first; the rest of the slack weakens the next.
    fn push_lifted(&self, sign: i64, skip: Option<usize>, mut slack: i64, out: &mut Vec<Atom>) {
        // (what lowering term j to its root bound costs, j), for terms above their root.
        let mut above_root: Vec<(i64, usize)> = (0..self.terms.len())
            .filter(|&j| Some(j) != skip)
            .filter_map(|j| {
                let a = sign * self.terms[j].0;
                let root = self.roots.get(j);
                let (bound, root_bound) = if a > 0 {
                    (self.inputs[j].min(), root.min())
                } else {
                    (self.inputs[j].max(), root.max())
                };
                let cost = a * (bound as i64 - root_bound as i64);
                (cost > 0).then_some((cost, j))
            })
            .collect();
        above_root.sort_unstable();
        for (cost, j) in above_root {
            if cost <= slack {
                slack -= cost;
                continue; // down to the root: a root fact, left out
            }
            let (a, x) = (sign * self.terms[j].0, self.terms[j].1);
            // Values the bound may move, less than the way down.
            let steps = if self.partly { slack / a.abs() } else { 0 };
            slack -= steps * a.abs();
            out.push(if a > 0 {
                Atom::AtLeast(x, (self.inputs[j].min() as i64 - steps) as i32)
            } else {
                Atom::AtMost(x, (self.inputs[j].max() as i64 + steps) as i32)
            });
        }
    }
}
