//! # Replaying bounds propagation with reasons: a small graph of derived bounds
//!
//! A propagator that moves bounds until nothing moves (a sum, all-different's Hall
//! intervals) may rest one new bound on another it derived in the same run. To explain such
//! a run from its inputs alone, its explanation *replays* the propagation on a
//! [`BoundGraph`]: the current bounds of each variable, and for each bound the node that
//! explains it, either an input bound (`[x ≥ min]`, an atom of the inputs) or a bound derived
//! from earlier nodes. The nodes only point backwards, so the graph is acyclic, and the
//! reason of an atom is the input atoms reached by walking back from the bounds that imply
//! it. When a bound lands on a hole of an input domain, the skipped values join the reason
//! as `[x ≠ v]` (they are why the bound went further than the rule alone).

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

/// The bounds of variables `vars` (domains `inputs` before the run) as a replay moves them,
/// each with the node that explains it.
pub(crate) struct BoundGraph<'a> {
    vars: Vec<VarId>,
    inputs: &'a [Domain],
    nodes: Vec<Node>,
    pub(crate) lo: Vec<i64>,
    pub(crate) hi: Vec<i64>,
    pub(crate) lo_node: Vec<usize>,
    pub(crate) hi_node: Vec<usize>,
    /// The nodes whose conjunction admits no assignment, once the replay failed.
    pub(crate) failure: Option<Vec<usize>>,
    /// A bound skipped more than [`MOST_HOLES`] values: no small reason.
    pub(crate) too_wide: bool,
}

impl<'a> BoundGraph<'a> {
    /// The input bounds of `vars` (`inputs[i]` is the domain of `vars[i]`).
    pub(crate) fn new(vars: Vec<VarId>, inputs: &'a [Domain]) -> BoundGraph<'a> {
        let mut graph = BoundGraph {
            vars,
            inputs,
            nodes: Vec::new(),
            lo: inputs.iter().map(|d| d.min() as i64).collect(),
            hi: inputs.iter().map(|d| d.max() as i64).collect(),
            lo_node: Vec::new(),
            hi_node: Vec::new(),
            failure: None,
            too_wide: false,
        };
        for i in 0..graph.vars.len() {
            let x = graph.vars[i];
            let lo = graph.node(Node::Input(Atom::AtLeast(x, inputs[i].min())));
            let hi = graph.node(Node::Input(Atom::AtMost(x, inputs[i].max())));
            graph.lo_node.push(lo);
            graph.hi_node.push(hi);
        }
        graph
    }

    /// Has the replay stopped (failed, or gave up)?
    pub(crate) fn stopped(&self) -> bool {
        self.failure.is_some() || self.too_wide
    }

    fn node(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The variable at index `i`.
    pub(crate) fn var(&self, i: usize) -> VarId {
        self.vars[i]
    }

    /// The input domain at index `i`.
    pub(crate) fn input(&self, i: usize) -> &'a Domain {
        &self.inputs[i]
    }

    /// A node for an atom of the inputs other than a bound (a missing value, `[x ≠ v]`), for
    /// a rule that reads it.
    pub(crate) fn input_atom(&mut self, atom: Atom) -> usize {
        self.node(Node::Derived {
            from: Vec::new(),
            holes: vec![atom],
        })
    }

    /// The input atoms behind the nodes `nodes` (a rule's own record of what it rests on).
    pub(crate) fn explain_nodes(&self, nodes: &[usize], out: &mut Vec<Atom>) {
        self.collect(nodes, out);
    }

    /// Record a failure explained by the nodes `from`.
    pub(crate) fn fail(&mut self, from: Vec<usize>) {
        self.failure = Some(from);
    }

    /// `xᵢ <= bound`, derived from the nodes `from`: snap to the input domain, record.
    /// Whether the bound moved.
    pub(crate) fn lower_hi(&mut self, i: usize, bound: i64, from: Vec<usize>) -> bool {
        if bound >= self.hi[i] {
            return false;
        }
        let x = self.vars[i];
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
    pub(crate) fn raise_lo(&mut self, i: usize, bound: i64, from: Vec<usize>) -> bool {
        if bound <= self.lo[i] {
            return false;
        }
        let x = self.vars[i];
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
    /// A replay that failed (it may go further than the run, which stopped at a pass)
    /// explains any atom by the failure: no assignment satisfies its reason at all.
    pub(crate) fn explain(&self, atom: Atom, out: &mut Vec<Atom>) -> bool {
        if self.too_wide {
            return false;
        }
        if self.failure.is_some() {
            return self.explain_failure(out);
        }
        let Some(i) = self.vars.iter().position(|&x| x == atom.var()) else {
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
