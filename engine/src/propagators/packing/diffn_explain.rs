//! # Explaining diffn: the pairs replayed, each rule naming the bounds it read
//!
//! A run of `diffn` (`diffn.rs`) goes over the pairs of rectangles in order, and a pair
//! reads the bounds the pairs before it moved. Its explanation replays the pairs on a graph
//! of derived bounds (`bound_replay.rs`):
//!
//! * a way `a + da ≤ b` is impossible because of `[a ≥ min a]`, `[da ≥ min da]` and
//!   `[b ≤ max b]`; a way `size = 0` because of the bound or the missing 0 that excludes it;
//! * **the pairwise rule** (one way left): the impossible ways, and the two bounds of the
//!   linear inequality that make the new bound;
//! * **the hole rule** (only the two ways of one axis left): the impossible ways of the other
//!   axis, and the bounds of the other rectangle's compulsory part on that axis. A hole in the
//!   middle of a domain is kept beside the graph with that reason (the graph holds bounds);
//!   a bound that lands on such a hole jumps past it, as the run's does.
//!
//! The reason of an atom is the input atoms behind the bounds and holes that imply it.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagators::bound_replay::BoundGraph;
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// A way for a pair not to overlap, by the graph's indices: `start + size ≤ other`, or
/// `size = 0`.
#[derive(Clone, Copy, Debug)]
enum Way {
    Before(usize, usize, usize),
    NoArea(usize),
}

/// The replay: the bounds, and the holes cut inside domains (`var, lo, hi, nodes`).
pub(crate) struct DiffnReplay<'a> {
    graph: BoundGraph<'a>,
    holes: Vec<(usize, i64, i64, Vec<usize>)>,
}

/// Replay a run: `vars` are the subscriptions (`x, y, dx, dy` of each rectangle in turn).
pub(crate) fn replay<'a>(
    vars: &[VarId],
    inputs: &'a [Domain],
    strict: bool,
    hole_rule: bool,
) -> DiffnReplay<'a> {
    let mut replay = DiffnReplay {
        graph: BoundGraph::new(vars.to_vec(), inputs),
        holes: Vec::new(),
    };
    let n = vars.len() / 4;
    for p in 0..n {
        for q in p + 1..n {
            if replay.graph.stopped() {
                return replay;
            }
            replay.pair(4 * p, 4 * q, strict, hole_rule);
        }
    }
    replay
}

impl DiffnReplay<'_> {
    /// One pair, rectangles at graph indices `p..p + 4` and `q..q + 4`.
    fn pair(&mut self, p: usize, q: usize, strict: bool, hole_rule: bool) {
        let ways = [
            Way::Before(p, p + 2, q),
            Way::Before(q, q + 2, p),
            Way::Before(p + 1, p + 3, q + 1),
            Way::Before(q + 1, q + 3, p + 1),
            Way::NoArea(p + 2),
            Way::NoArea(p + 3),
            Way::NoArea(q + 2),
            Way::NoArea(q + 3),
        ];
        let count = if strict { 4 } else { 8 };
        let impossible: Vec<Option<Vec<usize>>> =
            ways[..count].iter().map(|&w| self.impossible(w)).collect();
        let possible: u8 = (0..count)
            .filter(|&k| impossible[k].is_none())
            .fold(0, |set, k| set | 1 << k);
        let because = |skip: u8| -> Vec<usize> {
            (0..count)
                .filter(|&k| skip & (1 << k) == 0)
                .flat_map(|k| impossible[k].clone().unwrap_or_default())
                .collect()
        };
        match possible.count_ones() {
            0 => self.graph.fail(because(0)),
            1 => self.enforce(ways[possible.trailing_zeros() as usize], because(possible)),
            _ if hole_rule && possible == 0b0011 => self.hole_pair(p, q, 0, because(possible)),
            _ if hole_rule && possible == 0b1100 => self.hole_pair(p, q, 1, because(possible)),
            _ => {}
        }
    }

    /// `None` if the way can still hold, else the nodes that exclude it.
    fn impossible(&mut self, way: Way) -> Option<Vec<usize>> {
        let g = &mut self.graph;
        match way {
            Way::Before(start, size, other) => (g.lo[start] + g.lo[size] > g.hi[other])
                .then(|| vec![g.lo_node[start], g.lo_node[size], g.hi_node[other]]),
            Way::NoArea(size) => {
                if g.lo[size] > 0 {
                    Some(vec![g.lo_node[size]])
                } else if g.hi[size] < 0 {
                    Some(vec![g.hi_node[size]])
                } else if !g.input(size).contains(0) {
                    let var = g.var(size);
                    Some(vec![g.input_atom(Atom::NotEqual(var, 0))])
                } else {
                    None
                }
            }
        }
    }

    /// The pairwise rule: the one way left holds, on the bounds.
    fn enforce(&mut self, way: Way, because: Vec<usize>) {
        let with =
            |nodes: &[usize]| -> Vec<usize> { nodes.iter().chain(&because).copied().collect() };
        match way {
            Way::Before(start, size, other) => {
                let g = &self.graph;
                let from = with(&[g.lo_node[start], g.lo_node[size]]);
                self.raise(other, g.lo[start] + g.lo[size], from);
                let g = &self.graph;
                let from = with(&[g.hi_node[other], g.lo_node[size]]);
                self.lower(start, g.hi[other] - g.lo[size], from);
                let g = &self.graph;
                let from = with(&[g.hi_node[other], g.lo_node[start]]);
                self.lower(size, g.hi[other] - g.lo[start], from);
            }
            Way::NoArea(size) => {
                self.raise(size, 0, because.clone());
                self.lower(size, 0, because);
            }
        }
    }

    /// The hole rule on one axis (`axis` 0: x, 1: y): each origin leaves the other's
    /// compulsory part on that axis.
    fn hole_pair(&mut self, p: usize, q: usize, axis: usize, because: Vec<usize>) {
        for (a, b) in [(p + axis, q + axis), (q + axis, p + axis)] {
            let (da, db) = (a + 2, b + 2);
            let g = &self.graph;
            let mut from = vec![g.hi_node[b], g.lo_node[da], g.lo_node[b], g.lo_node[db]];
            from.extend_from_slice(&because);
            let (lo, hi) = (g.hi[b] - g.lo[da] + 1, g.lo[b] + g.lo[db] - 1);
            self.remove_between(a, lo, hi, from);
        }
    }

    fn remove_between(&mut self, i: usize, lo: i64, hi: i64, from: Vec<usize>) {
        let (min, max) = (self.graph.lo[i], self.graph.hi[i]);
        if self.graph.stopped() || lo > hi || hi < min || lo > max {
            return;
        }
        if lo <= min {
            self.raise(i, hi + 1, from);
        } else if hi >= max {
            self.lower(i, lo - 1, from);
        } else {
            self.holes.push((i, lo, hi, from));
        }
    }

    /// `xᵢ ≥ bound`, then past every recorded hole it lands on.
    fn raise(&mut self, i: usize, bound: i64, from: Vec<usize>) {
        if self.graph.stopped() {
            return;
        }
        self.graph.raise_lo(i, bound, from);
        while !self.graph.stopped() {
            let lo = self.graph.lo[i];
            let Some(hole) = self
                .holes
                .iter()
                .find(|h| h.0 == i && h.1 <= lo && lo <= h.2)
            else {
                return;
            };
            let mut from = hole.3.clone();
            from.push(self.graph.lo_node[i]);
            self.graph.raise_lo(i, hole.2 + 1, from);
        }
    }

    /// `xᵢ ≤ bound`, then below every recorded hole it lands on.
    fn lower(&mut self, i: usize, bound: i64, from: Vec<usize>) {
        if self.graph.stopped() {
            return;
        }
        self.graph.lower_hi(i, bound, from);
        while !self.graph.stopped() {
            let hi = self.graph.hi[i];
            let Some(hole) = self
                .holes
                .iter()
                .find(|h| h.0 == i && h.1 <= hi && hi <= h.2)
            else {
                return;
            };
            let mut from = hole.3.clone();
            from.push(self.graph.hi_node[i]);
            self.graph.lower_hi(i, hole.1 - 1, from);
        }
    }

    /// The reason of `atom` (on the variable at graph index `i`): every value it excludes
    /// from the input lies beyond a replayed bound or in a recorded hole.
    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.graph.failure.is_some() || self.graph.too_wide {
            return self.graph.explain_failure(reason);
        }
        let Some(i) = (0..self.graph.lo.len()).find(|&i| self.graph.var(i) == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, self.graph.input(i), reason) else {
            return false;
        };
        let mut nodes = Vec::new();
        for v in needed.into_iter().map(|v| v as i64) {
            if v < self.graph.lo[i] {
                nodes.push(self.graph.lo_node[i]);
            } else if v > self.graph.hi[i] {
                nodes.push(self.graph.hi_node[i]);
            } else {
                match self.holes.iter().find(|h| h.0 == i && h.1 <= v && v <= h.2) {
                    Some(hole) => nodes.extend_from_slice(&hole.3),
                    None => return false,
                }
            }
        }
        self.graph.explain_nodes(&nodes, reason);
        true
    }

    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        self.graph.explain_failure(reason)
    }
}
