//! # A lower bound beyond the clique: Mycielski's construction, found inside the graph
//!
//! A graph without triangles can need many colours (Mycielski 1955): from a graph H, add a
//! *shadow* `u_v` for every vertex `v`, adjacent to `v`'s neighbours, and one vertex `w`
//! adjacent to every shadow; the new graph needs one colour more than H. The DIMACS `myciel`
//! graphs are built so from one edge, and their largest clique (2) says nothing about χ.
//! This file finds such a construction inside a graph: a lower bound the clique misses.
//!
//! **The argument** (the one of Mycielski's theorem, read backwards). Let `w` be a vertex,
//! and S a set of vertices that are neither `w` nor its neighbours, such that every `v` in S
//! has a *shadow*: a neighbour `u_v` of `w` adjacent to every neighbour of `v` in S. If the
//! subgraph induced by S needs `b` colours, the graph needs `b + 1`. Suppose it had a
//! colouring with `b` colours, `w` coloured `k`. Recolour every vertex `v` of S coloured `k`
//! with its shadow's colour: that is not `k` (the shadow is `w`'s neighbour), and it differs
//! from the colour of every neighbour `x` of `v` in S (`x` is not coloured `k`, as `v` is
//! and they are adjacent, and `x` is the shadow's neighbour). That colours S with `b − 1`
//! colours: impossible.
//!
//! **The search.** For a vertex set (first the whole graph), each `w` in turn, most
//! neighbours first: S starts as the vertices that are neither `w` nor its neighbours, and a
//! vertex without a shadow leaves S until every one has one (removing a vertex only makes
//! the others' shadows easier to find). Then the same on S, depth first: the bound of a set
//! is the largest of a clique in it and one more than the bound of some S. A set whose greedy
//! colouring uses no more colours than the bound already known is not searched. Within a
//! work budget; incomplete: finding no construction proves nothing, and whatever it finds is
//! a proof, never above χ. On `myciel7` the first `w` tried at each level is the right one.

use super::vertex_bits::VertexBits;
use super::{out_of_time, Graph};

/// Expansions between two looks at the clock.
const CLOCK_EVERY: u64 = 16;

struct Search<'a> {
    g: &'a Graph,
    neighbours: Vec<VertexBits>,
    /// Work left (words of bitsets touched).
    budget: i64,
    limits: engine::Limits,
    expansions: u64,
}

impl Search<'_> {
    /// The vertices of `set` that are not `w` or its neighbours and keep a shadow among
    /// `w`'s neighbours in `set` (the largest such part that the removals leave).
    fn shadowed_part(&mut self, set: &VertexBits, w: usize) -> VertexBits {
        let shadows: Vec<usize> = self.neighbours[w].and(set).iter().collect();
        let mut part = set.clone();
        part.remove(w);
        part.remove_all(&self.neighbours[w]);
        let mut changed = true;
        while changed {
            changed = false;
            let members: Vec<usize> = part.iter().collect();
            for v in members {
                let need = self.neighbours[v].and(&part);
                self.budget -= ((shadows.len() + 1) * need.words()) as i64;
                if !shadows
                    .iter()
                    .any(|&u| need.is_subset_of(&self.neighbours[u]))
                {
                    part.remove(v);
                    changed = true;
                }
            }
        }
        part
    }

    /// The colours of a greedy colouring of `set` (vertices in index order, first fit): no
    /// bound on `set` can be larger.
    fn greedy_colours(&mut self, set: &VertexBits) -> usize {
        let mut classes: Vec<VertexBits> = Vec::new();
        for v in set.iter() {
            self.budget -= (classes.len() * set.words()) as i64;
            match classes
                .iter_mut()
                .find(|class| class.count_common(&self.neighbours[v]) == 0)
            {
                Some(class) => class.insert(v),
                None => {
                    let mut class = VertexBits::new(self.g.n);
                    class.insert(v);
                    classes.push(class);
                }
            }
        }
        classes.len()
    }

    /// The size of a clique in `set`, grown greedily from its vertex of most neighbours.
    fn greedy_clique(&mut self, set: &VertexBits) -> usize {
        let mut candidates = set.clone();
        let mut size = 0;
        while !candidates.is_empty() {
            self.budget -= (candidates.words() * 8) as i64;
            let v = candidates
                .iter()
                .max_by_key(|&v| self.neighbours[v].count_common(&candidates))
                .expect("not empty");
            size += 1;
            candidates.intersect(&self.neighbours[v]);
        }
        size
    }

    /// A lower bound on the colours `set` needs, at least `known`.
    fn bound(&mut self, set: &VertexBits, known: usize) -> usize {
        self.expansions += 1;
        if self.expansions.is_multiple_of(CLOCK_EVERY) && out_of_time(&self.limits) {
            self.budget = 0;
        }
        let mut best = known.max(self.greedy_clique(set));
        let ceiling = self.greedy_colours(set);
        let mut order: Vec<usize> = set.iter().collect();
        order.sort_by_key(|&w| std::cmp::Reverse(self.neighbours[w].count_common(set)));
        for w in order {
            if self.budget <= 0 || best >= ceiling {
                break;
            }
            let part = self.shadowed_part(set, w);
            if self.greedy_colours(&part) < best {
                continue; // it cannot raise the bound
            }
            best = best.max(self.bound(&part, 0) + 1);
        }
        best
    }
}

/// A lower bound on the chromatic number of `g`, at least `clique` (the size of a clique
/// known), from Mycielski's construction, within `budget` (words of bitsets touched) and
/// `limits`.
pub fn mycielski_bound(g: &Graph, clique: usize, budget: i64, limits: &engine::Limits) -> usize {
    let n = g.n;
    let neighbours: Vec<VertexBits> = g
        .adj
        .iter()
        .map(|list| {
            let mut b = VertexBits::new(n);
            for &u in list {
                b.insert(u);
            }
            b
        })
        .collect();
    let mut all = VertexBits::new(n);
    for v in 0..n {
        all.insert(v);
    }
    let mut search = Search {
        g,
        neighbours,
        budget,
        limits: limits.clone(),
        expansions: 0,
    };
    search.bound(&all, clique)
}
