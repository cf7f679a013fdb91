//! # Colour classes as an exact cover: when every colour class must meet every clique
//!
//! Suppose the vertices split into disjoint cliques `K₁, …, K_m` of `q` vertices each, and
//! we look for a colouring with `q` colours (the clique bound: such a colouring proves
//! χ = q). Every `Kᵢ` then uses every colour exactly once (Hall's theorem at its tightest:
//! `q` vertices, `q` colours), so every colour class is an independent set with **exactly one
//! vertex in each `Kᵢ`**, an *independent transversal* of the partition. A `q`-colouring is a
//! choice of `q` such transversals that are pairwise disjoint and so cover every vertex:
//! an **exact cover** problem.
//!
//! The queen graphs are the example: the rows of an `n × n` board are `n` disjoint cliques of
//! `n` cells, an independent transversal is a placement of `n` non-attacking queens, and an
//! `n`-colouring of `queen_n_n` is a split of the board into `n` disjoint `n`-queens
//! solutions. This is how Vasquez (2004, "New results on the queens_n² graph coloring
//! problem", J. Heuristics 10) settled χ = n for n = 12, 14 and 15: where a search over the
//! cells' colours is lost among partial colourings that can never be completed, every set
//! this search picks is already a whole colour class.
//!
//! The method, in two steps, each under a budget:
//!
//! 1. [`independent_transversals`]: enumerate them by a depth-first search over `K₁, K₂, …`,
//!    one vertex of each, never a neighbour of a vertex already taken (the n-queens search).
//! 2. [`exact_cover`]: Knuth's Algorithm X (2000, "Dancing links") on bit sets: pick the
//!    vertex not yet covered that the fewest remaining transversals contain, try each of
//!    them in turn, keep only the transversals disjoint from it, and recurse. A vertex left
//!    with no transversal ends the branch. Each partition is met once (the class of the
//!    chosen vertex is decided at its level), so no colour renaming is ever tried twice.

use super::Graph;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What [`exact_cover`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cover {
    /// Indices of the disjoint sets that cover every vertex.
    Found(Vec<usize>),
    /// The whole search tree was explored: there is no such cover.
    None,
    /// A limit stopped the search first.
    Unknown,
}

/// When the search gives up.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Transversals that may be stored (each costs `m` vertex numbers and `n / 64` words).
    pub max_transversals: usize,
    /// Nodes of each search (the enumeration, the exact cover).
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// Disjoint cliques of exactly `q` vertices covering every vertex, picked greedily (in the
/// order given) among `cliques`; `None` if they leave a vertex out.
pub fn clique_partition(g: &Graph, cliques: &[Vec<usize>], q: usize) -> Option<Vec<Vec<usize>>> {
    if q == 0 || !g.n.is_multiple_of(q) {
        return None;
    }
    let mut taken = vec![false; g.n];
    let mut parts = Vec::new();
    for clique in cliques.iter().filter(|c| c.len() == q) {
        if clique.iter().all(|&v| !taken[v]) {
            clique.iter().for_each(|&v| taken[v] = true);
            parts.push(clique.clone());
        }
    }
    (parts.len() * q == g.n).then_some(parts)
}

/// Independent transversals of `parts`, as bit sets over the vertices (`words` = `⌈n/64⌉`
/// words each, one after another). Every one has exactly one vertex in each part and no
/// edge inside. `None` if there are more than the limits allow or time runs out.
pub fn independent_transversals(
    g: &Graph,
    parts: &[Vec<usize>],
    limits: &Limits,
) -> Option<Vec<u64>> {
    let words = g.n.div_ceil(64);
    let mut search = Transversals {
        parts,
        neighbours: (0..g.n)
            .map(|v| {
                let mut bits = vec![0u64; words];
                g.adj[v].iter().for_each(|&u| bits[u / 64] |= 1 << (u % 64));
                bits
            })
            .collect(),
        chosen: vec![0u64; words],
        forbidden: vec![vec![0u64; words]; parts.len() + 1],
        found: Vec::new(),
        steps: 0,
        limits,
    };
    search.extend(0).then_some(search.found)
}

/// The enumeration's state: depth-first, one part per level.
struct Transversals<'a> {
    parts: &'a [Vec<usize>],
    /// Each vertex's neighbours as bits.
    neighbours: Vec<Vec<u64>>,
    /// The vertices chosen so far, as bits.
    chosen: Vec<u64>,
    /// `forbidden[i]`: the neighbours of the vertices chosen in parts `0..i`.
    forbidden: Vec<Vec<u64>>,
    /// The transversals found, one after another.
    found: Vec<u64>,
    steps: u64,
    limits: &'a Limits,
}

impl Transversals<'_> {
    /// Choose a vertex in each part from `level` on; false when a limit stops the search.
    fn extend(&mut self, level: usize) -> bool {
        let words = self.chosen.len();
        if level == self.parts.len() {
            self.found.extend_from_slice(&self.chosen);
            return self.found.len() / words <= self.limits.max_transversals;
        }
        self.steps += 1;
        if self.steps > self.limits.max_nodes
            || (self.steps.is_multiple_of(4096) && self.limits.out_of_time())
        {
            return false;
        }
        for &v in &self.parts[level] {
            if self.forbidden[level][v / 64] >> (v % 64) & 1 == 1 {
                continue;
            }
            for w in 0..words {
                self.forbidden[level + 1][w] = self.forbidden[level][w] | self.neighbours[v][w];
            }
            self.chosen[v / 64] |= 1 << (v % 64);
            let go_on = self.extend(level + 1);
            self.chosen[v / 64] &= !(1 << (v % 64));
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// Keeps the sets (bit sets of `words` words) that meet every one of `cliques` exactly once.
/// When the colours are as many as a clique's vertices, every colour class does.
pub fn meeting_every_clique(sets: &[u64], words: usize, cliques: &[Vec<usize>]) -> Vec<u64> {
    sets.chunks(words)
        .filter(|set| {
            cliques.iter().all(|c| {
                c.iter()
                    .filter(|&&v| set[v / 64] >> (v % 64) & 1 == 1)
                    .count()
                    == 1
            })
        })
        .flatten()
        .copied()
        .collect()
}

/// `q` pairwise disjoint sets among `sets` (bit sets of `words` words over `n` vertices)
/// that together hold every vertex, as indices into `sets`; `None` if there are none or time
/// runs out (Algorithm X, see the module documentation).
pub fn exact_cover(n: usize, words: usize, sets: &[u64], limits: &Limits) -> Cover {
    let count = sets.len() / words;
    let members: Vec<Vec<usize>> = (0..count)
        .map(|s| bits_of(&sets[s * words..(s + 1) * words]).collect())
        .collect();
    let mut search = CoverSearch {
        n,
        words,
        sets,
        members,
        chosen: Vec::new(),
        tally: vec![0; n],
        nodes: 0,
        stopped: false,
        limits,
    };
    let all: Vec<u32> = (0..count as u32).collect();
    let covered = vec![0u64; words];
    if search.solve(&all, &covered) {
        Cover::Found(search.chosen)
    } else if search.stopped {
        Cover::Unknown
    } else {
        Cover::None
    }
}

fn bits_of(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                i * 64 + b
            })
        })
    })
}

/// Algorithm X's state.
struct CoverSearch<'a> {
    n: usize,
    words: usize,
    sets: &'a [u64],
    members: Vec<Vec<usize>>,
    chosen: Vec<usize>,
    /// Scratch: how many candidates hold each vertex.
    tally: Vec<u32>,
    nodes: u64,
    /// A limit ended the search: a failure proves nothing.
    stopped: bool,
    limits: &'a Limits,
}

impl CoverSearch<'_> {
    fn set(&self, s: u32) -> &[u64] {
        &self.sets[s as usize * self.words..(s as usize + 1) * self.words]
    }

    /// Completes `covered` with disjoint sets among `candidates` (each disjoint from
    /// `covered`); true when every vertex is covered (the sets are in `self.chosen`).
    fn solve(&mut self, candidates: &[u32], covered: &[u64]) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes
            || (self.nodes.is_multiple_of(64) && self.limits.out_of_time())
        {
            self.stopped = true;
            return false;
        }
        // The vertex not yet covered held by the fewest candidates.
        self.tally.iter_mut().for_each(|t| *t = 0);
        for &s in candidates {
            for &v in &self.members[s as usize] {
                self.tally[v] += 1;
            }
        }
        let vertex = (0..self.n)
            .filter(|&v| covered[v / 64] >> (v % 64) & 1 == 0)
            .min_by_key(|&v| self.tally[v]);
        let Some(vertex) = vertex else {
            return true; // every vertex covered
        };
        if self.tally[vertex] == 0 {
            return false;
        }
        let holding: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|&s| self.set(s)[vertex / 64] >> (vertex % 64) & 1 == 1)
            .collect();
        for s in holding {
            let chosen_set = self.set(s).to_vec();
            let rest: Vec<u32> = candidates
                .iter()
                .copied()
                .filter(|&t| self.set(t).iter().zip(&chosen_set).all(|(a, b)| a & b == 0))
                .collect();
            let now: Vec<u64> = covered
                .iter()
                .zip(&chosen_set)
                .map(|(a, b)| a | b)
                .collect();
            self.chosen.push(s as usize);
            if self.solve(&rest, &now) {
                return true;
            }
            let _ = self.chosen.pop();
            if self.stopped {
                return false;
            }
        }
        false
    }
}
