//! # Explaining a linear constraint: which bounds forced a new bound
//!
//! Bounds propagation of `Σ aᵢxᵢ <= c` raises or lowers a bound of `xᵢ` from the *least*
//! values of the other terms: `aᵢxᵢ <= c − Σⱼ≠ᵢ lo(aⱼxⱼ)`. So the reason of the new bound is
//! the bounds that made those least values, one atom per other term: `[xⱼ ≥ min]` for
//! `aⱼ > 0`, `[xⱼ ≤ max]` for `aⱼ < 0` (Feydy & Stuckey, *Lazy clause generation
//! reengineered*, 2009). A failure (`Σ lo > c`) is explained by every term's least value.
//!
//! `=` repeats the rule both ways, so a bound may rest on another *derived* bound. The
//! explanation replays the propagation from the inputs on the bounds alone, keeping for each
//! bound it derives the bounds it used (a small acyclic graph, one node per derivation), and
//! the reason of an atom is the input bounds reached by walking back from the bound that
//! implies it. When a bound lands on a hole of an input domain, the skipped values join the
//! reason as `[x ≠ v]` (they are why the bound went further than the arithmetic alone).
//!
//! Nothing is remembered from the run: the replay starts from the `inputs` the learner gives.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::store::VarId;

/// Most skipped holes a derived bound may name before the explanation gives up (and the
/// learner falls back to the generic reason): wide domains can have long gaps.
const MOST_HOLES: i64 = 64;

/// One derived fact about a bound: an input bound (an atom of the inputs), or a bound
/// derived from earlier nodes and the holes it skipped.
enum Node {
    Input(Atom),
    Derived { from: Vec<usize>, holes: Vec<Atom> },
}

/// The replay of bounds propagation for `Σ aᵢxᵢ <= c` (and `>= c` too when `equality`),
/// from the inputs. `lo[i]`/`hi[i]` are the current bounds of `xᵢ` and `lo_node[i]`/
/// `hi_node[i]` the nodes that explain them.
pub(crate) struct LinearReplay<'a> {
    terms: &'a [(i64, VarId)],
    inputs: &'a [Domain],
    nodes: Vec<Node>,
    lo: Vec<i64>,
    hi: Vec<i64>,
    lo_node: Vec<usize>,
    hi_node: Vec<usize>,
    /// The nodes whose conjunction admits no assignment, if the replay failed.
    failure: Option<Vec<usize>>,
    /// A bound skipped more than [`MOST_HOLES`] values: no small reason.
    too_wide: bool,
}

impl<'a> LinearReplay<'a> {
    /// Replay to the fixpoint (or the failure). `inputs[i]` is the domain of `terms[i].1`.
    pub(crate) fn run(
        terms: &'a [(i64, VarId)],
        rhs: i64,
        equality: bool,
        inputs: &'a [Domain],
    ) -> LinearReplay<'a> {
        let mut replay = LinearReplay {
            terms,
            inputs,
            nodes: Vec::new(),
            lo: inputs.iter().map(|d| d.min() as i64).collect(),
            hi: inputs.iter().map(|d| d.max() as i64).collect(),
            lo_node: Vec::new(),
            hi_node: Vec::new(),
            failure: None,
            too_wide: false,
        };
        for (i, &(_, x)) in terms.iter().enumerate() {
            let lo = replay.node(Node::Input(Atom::AtLeast(x, inputs[i].min())));
            let hi = replay.node(Node::Input(Atom::AtMost(x, inputs[i].max())));
            replay.lo_node.push(lo);
            replay.hi_node.push(hi);
        }
        let negated: Vec<(i64, VarId)> = terms.iter().map(|&(a, x)| (-a, x)).collect();
        let mut changed = true;
        while changed && replay.failure.is_none() && !replay.too_wide {
            changed = replay.pass(terms, rhs);
            if equality && replay.failure.is_none() && !replay.too_wide {
                changed |= replay.pass(&negated, -rhs);
            }
        }
        replay
    }

    fn node(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The least value of term `i` under the coefficients `coefs` (the terms or their
    /// negation), and the node of the bound it comes from.
    fn least(&self, coefs: &[(i64, VarId)], i: usize) -> (i64, usize) {
        let a = coefs[i].0;
        if a > 0 {
            (a * self.lo[i], self.lo_node[i])
        } else {
            (a * self.hi[i], self.hi_node[i])
        }
    }

    /// One pass of the `<=` rule on `Σ coefs·x <= rhs`: whether a bound moved.
    fn pass(&mut self, coefs: &[(i64, VarId)], rhs: i64) -> bool {
        let n = coefs.len();
        let least: Vec<(i64, usize)> = (0..n).map(|i| self.least(coefs, i)).collect();
        let min_sum: i64 = least.iter().map(|&(v, _)| v).sum();
        if min_sum > rhs {
            self.failure = Some(least.iter().map(|&(_, node)| node).collect());
            return false;
        }
        let mut changed = false;
        for i in 0..n {
            let a = coefs[i].0;
            let room = rhs - (min_sum - least[i].0);
            let from: Vec<usize> = (0..n).filter(|&j| j != i).map(|j| least[j].1).collect();
            changed |= if a > 0 {
                self.lower_hi(i, room.div_euclid(a), from)
            } else {
                self.raise_lo(i, -(room.div_euclid(-a)), from)
            };
            if self.failure.is_some() || self.too_wide {
                return false;
            }
        }
        changed
    }

    /// `xᵢ <= bound`, derived from the nodes `from`: snap to the input domain, record.
    fn lower_hi(&mut self, i: usize, bound: i64, from: Vec<usize>) -> bool {
        if bound >= self.hi[i] {
            return false;
        }
        let x = self.terms[i].1;
        let input = &self.inputs[i];
        let snapped = if bound < self.lo[i] {
            None
        } else {
            input.prev_from(bound as i32).map(|v| v as i64)
        };
        let top = snapped.unwrap_or(self.lo[i] - 1);
        if bound - top > MOST_HOLES {
            self.too_wide = true;
            return false;
        }
        let holes = ((top + 1)..=bound)
            .map(|v| Atom::NotEqual(x, v as i32))
            .collect();
        let node = self.node(Node::Derived { from, holes });
        match snapped.filter(|&v| v >= self.lo[i]) {
            Some(v) => {
                self.hi[i] = v;
                self.hi_node[i] = node;
            }
            None => self.failure = Some(vec![node, self.lo_node[i]]),
        }
        true
    }

    /// `xᵢ >= bound`, derived from the nodes `from`.
    fn raise_lo(&mut self, i: usize, bound: i64, from: Vec<usize>) -> bool {
        if bound <= self.lo[i] {
            return false;
        }
        let x = self.terms[i].1;
        let input = &self.inputs[i];
        let snapped = if bound > self.hi[i] {
            None
        } else {
            input.next_from(bound as i32).map(|v| v as i64)
        };
        let bottom = snapped.unwrap_or(self.hi[i] + 1);
        if bottom - bound > MOST_HOLES {
            self.too_wide = true;
            return false;
        }
        let holes = (bound..bottom)
            .map(|v| Atom::NotEqual(x, v as i32))
            .collect();
        let node = self.node(Node::Derived { from, holes });
        match snapped.filter(|&v| v <= self.hi[i]) {
            Some(v) => {
                self.lo[i] = v;
                self.lo_node[i] = node;
            }
            None => self.failure = Some(vec![node, self.hi_node[i]]),
        }
        true
    }

    /// The input atoms behind the nodes `start`, each once.
    fn collect(&self, start: &[usize], out: &mut Vec<Atom>) {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<usize> = start.to_vec();
        while let Some(k) = stack.pop() {
            if std::mem::replace(&mut seen[k], true) {
                continue;
            }
            match &self.nodes[k] {
                Node::Input(atom) => out.push(*atom),
                Node::Derived { from, holes } => {
                    out.extend_from_slice(holes);
                    stack.extend_from_slice(from);
                }
            }
        }
        merge_into_equalities(out);
    }

    /// The reason of the failure, if the replay failed.
    pub(crate) fn explain_failure(&self, out: &mut Vec<Atom>) -> bool {
        match (&self.failure, self.too_wide) {
            (Some(nodes), false) => {
                self.collect(nodes, out);
                true
            }
            _ => false,
        }
    }

    /// The reason of `atom` (on one of the terms' variables) from the replayed bounds;
    /// `false` if they do not imply it.
    pub(crate) fn explain(&self, atom: Atom, out: &mut Vec<Atom>) -> bool {
        if self.failure.is_some() || self.too_wide {
            return false;
        }
        let Some(i) = self.terms.iter().position(|&(_, x)| x == atom.var()) else {
            return false;
        };
        let (lo, hi) = (self.lo[i], self.hi[i]);
        let nodes = match atom {
            Atom::AtLeast(_, v) if lo >= v as i64 => vec![self.lo_node[i]],
            Atom::AtMost(_, v) if hi <= v as i64 => vec![self.hi_node[i]],
            Atom::Equal(_, v) if lo == v as i64 && hi == v as i64 => {
                vec![self.lo_node[i], self.hi_node[i]]
            }
            Atom::NotEqual(_, v) if (v as i64) < lo => vec![self.lo_node[i]],
            Atom::NotEqual(_, v) if (v as i64) > hi => vec![self.hi_node[i]],
            Atom::NotEqual(_, v) if !self.inputs[i].contains(v) => {
                out.push(atom);
                return true;
            }
            _ => return false,
        };
        self.collect(&nodes, out);
        true
    }
}

/// Sort and deduplicate `atoms`, writing `[x ≥ v]` and `[x ≤ v]` together as `[x = v]`.
pub(crate) fn merge_into_equalities(atoms: &mut Vec<Atom>) {
    atoms.sort();
    atoms.dedup();
    let sorted = std::mem::take(atoms);
    for &atom in &sorted {
        match atom {
            Atom::AtLeast(x, v) if sorted.binary_search(&Atom::AtMost(x, v)).is_ok() => {
                atoms.push(Atom::Equal(x, v))
            }
            Atom::AtMost(x, v) if sorted.binary_search(&Atom::AtLeast(x, v)).is_ok() => {}
            _ => atoms.push(atom),
        }
    }
    atoms.sort();
    atoms.dedup();
}
