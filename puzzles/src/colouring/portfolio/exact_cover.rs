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

use crate::colouring::Graph;
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
    pub fn out_of_time(&self) -> bool {
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
    independent_transversals_where(g, parts, limits, &mut |_| true)
}

/// [`independent_transversals`], keeping only those `keep` accepts (it sees each one as bits
/// as it is found): the limit on how many are stored counts the kept ones only.
pub fn independent_transversals_where(
    g: &Graph,
    parts: &[Vec<usize>],
    limits: &Limits,
    keep: &mut dyn FnMut(&[u64]) -> bool,
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
        keep,
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
    /// Which transversals to store.
    keep: &'a mut dyn FnMut(&[u64]) -> bool,
}

impl Transversals<'_> {
    /// Choose a vertex in each part from `level` on; false when a limit stops the search.
    fn extend(&mut self, level: usize) -> bool {
        let words = self.chosen.len();
        if level == self.parts.len() {
            if (self.keep)(&self.chosen) {
                self.found.extend_from_slice(&self.chosen);
            }
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

/// The possible colour classes directly: independent sets that meet every one of `parts` (a
/// split of the vertices) and every one of `cliques` exactly once, as bit sets (`⌈n/64⌉`
/// words each, one after another). The same sets as [`independent_transversals`] filtered by
/// [`meeting_every_clique`], found with far fewer nodes: each step picks the part or clique
/// not yet met that has the fewest vertices left to meet it with (none: a dead end, seen
/// at once) and tries each of them, as Algorithm X picks its column. `None` if there are
/// more than the limits allow or time runs out.
pub fn independent_classes(
    g: &Graph,
    parts: &[Vec<usize>],
    cliques: &[Vec<usize>],
    limits: &Limits,
) -> Option<Vec<u64>> {
    let identity: Vec<Vec<usize>> = vec![(0..g.n).collect()];
    independent_classes_under(g, parts, cliques, &identity, &identity, limits)
}

/// [`independent_classes`] for the symmetric search of `symmetric_cover.rs`: only the
/// classes `A` that `stabiliser` (a subgroup of the automorphism group `group`, as lists of
/// images) maps onto themselves and that every other element of `group` maps off
/// themselves (`σ(A) ∩ A = ∅`). Choosing a vertex `v` then chooses its images under
/// `stabiliser` with it and rules out its images under `group`, which prunes far more than
/// the plain search. Every class whose stabiliser in `group` is exactly `stabiliser` is
/// found (others may be too: `symmetric_cover::orbit_sets` checks each).
pub fn independent_classes_under(
    g: &Graph,
    parts: &[Vec<usize>],
    cliques: &[Vec<usize>],
    group: &[Vec<usize>],
    stabiliser: &[Vec<usize>],
    limits: &Limits,
) -> Option<Vec<u64>> {
    let words = g.n.div_ceil(64);
    if words > MAX_WORDS {
        return None;
    }
    let as_bits = |vertices: &[usize]| {
        let mut bits = [0u64; MAX_WORDS];
        vertices.iter().for_each(|&v| bits[v / 64] |= 1 << (v % 64));
        bits
    };
    let units: Vec<[u64; MAX_WORDS]> = parts.iter().chain(cliques).map(|c| as_bits(c)).collect();
    let mut units_of = vec![Vec::new(); g.n];
    for (i, unit) in parts.iter().chain(cliques).enumerate() {
        unit.iter().for_each(|&v| units_of[v].push(i));
    }
    let neighbours: Vec<[u64; MAX_WORDS]> = g.adj.iter().map(|list| as_bits(list)).collect();
    // What choosing a vertex rules out: its neighbours, and its images under the group
    // (itself included).
    let ruled_out: Vec<[u64; MAX_WORDS]> = (0..g.n)
        .map(|v| {
            let mut bits = neighbours[v];
            group.iter().for_each(|sigma| {
                let w = sigma[v];
                bits[w / 64] |= 1 << (w % 64);
            });
            bits
        })
        .collect();
    let mut search = Classes {
        met: vec![false; units.len()],
        units,
        units_of,
        neighbours,
        ruled_out,
        stabiliser,
        chosen: vec![0u64; words],
        words,
        found: Vec::new(),
        steps: 0,
        limits,
    };
    search.extend(&[0u64; MAX_WORDS]).then_some(search.found)
}

/// The most words of vertex bits [`independent_classes_under`] handles (1,024 vertices).
const MAX_WORDS: usize = 16;

/// The state of [`independent_classes_under`].
struct Classes<'a> {
    /// The parts, then the cliques, as bits.
    units: Vec<[u64; MAX_WORDS]>,
    /// `units_of[v]`: the units holding `v`.
    units_of: Vec<Vec<usize>>,
    neighbours: Vec<[u64; MAX_WORDS]>,
    /// What choosing each vertex rules out, as bits.
    ruled_out: Vec<[u64; MAX_WORDS]>,
    /// The vertices chosen with a vertex are its images under these.
    stabiliser: &'a [Vec<usize>],
    /// The units that hold a chosen vertex.
    met: Vec<bool>,
    chosen: Vec<u64>,
    words: usize,
    found: Vec<u64>,
    steps: u64,
    limits: &'a Limits,
}

impl Classes<'_> {
    /// Meets the units left with vertices outside `blocked` (ruled out by the choices so
    /// far); false when a limit stops the search.
    fn extend(&mut self, blocked: &[u64; MAX_WORDS]) -> bool {
        self.steps += 1;
        if self.steps > self.limits.max_nodes
            || (self.steps.is_multiple_of(4096) && self.limits.out_of_time())
        {
            return false;
        }
        let words = self.words;
        let mut best: Option<(usize, u32)> = None;
        for (i, unit) in self.units.iter().enumerate() {
            if self.met[i] {
                continue;
            }
            let left: u32 = (0..words)
                .map(|w| (unit[w] & !blocked[w]).count_ones())
                .sum();
            if left == 0 {
                return true; // this unit can no longer be met
            }
            if best.is_none_or(|(_, fewest)| left < fewest) {
                best = Some((i, left));
            }
        }
        let Some((unit, _)) = best else {
            self.found.extend_from_slice(&self.chosen);
            return self.found.len() / words <= self.limits.max_transversals;
        };
        let mut open = [0u64; MAX_WORDS];
        for w in 0..words {
            open[w] = self.units[unit][w] & !blocked[w];
        }
        let mut members: Vec<usize> = Vec::with_capacity(self.stabiliser.len());
        for v in bits_of(&open[..words]) {
            // v comes with its images under the stabiliser: each must be open, and no two
            // adjacent.
            members.clear();
            members.extend(self.stabiliser.iter().map(|h| h[v]));
            members.sort_unstable();
            members.dedup();
            let is_set = |bits: &[u64; MAX_WORDS], m: usize| bits[m / 64] >> (m % 64) & 1 == 1;
            if members.iter().any(|&m| {
                is_set(blocked, m) || members.iter().any(|&o| is_set(&self.neighbours[m], o))
            }) {
                continue;
            }
            let mut next = *blocked;
            for &m in &members {
                for (b, r) in next.iter_mut().zip(&self.ruled_out[m]) {
                    *b |= r;
                }
                self.chosen[m / 64] |= 1 << (m % 64);
                for k in 0..self.units_of[m].len() {
                    self.met[self.units_of[m][k]] = true;
                }
            }
            let go_on = self.extend(&next);
            for &m in &members {
                self.chosen[m / 64] &= !(1 << (m % 64));
                for k in 0..self.units_of[m].len() {
                    self.met[self.units_of[m][k]] = false;
                }
            }
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
    let mut search = CoverSearch::new(n, words, sets, limits);
    let all: Vec<u32> = (0..search.members.len() as u32).collect();
    let covered = vec![0u64; words];
    if search.solve(&all, &covered) {
        Cover::Found(search.chosen)
    } else if search.stopped {
        Cover::Unknown
    } else {
        Cover::None
    }
}

/// [`exact_cover`] with restarts: each run tries the sets that hold the chosen vertex in a
/// random order (from `seed`) and stops after `restart_nodes` times the next term of Luby's
/// sequence (1, 1, 2, 1, 1, 2, 4, ...) nodes, when the next run starts afresh. Backtracking
/// search is *heavy-tailed* (Gomes, Selman & Kautz 1998): a wrong set chosen near the root
/// can hide every cover below a subtree that takes hours, while another order finds one at
/// once. A run that ends within its budget is complete, so `None` still proves.
pub fn exact_cover_restarting(
    n: usize,
    words: usize,
    sets: &[u64],
    limits: &Limits,
    restart_nodes: u64,
    seed: u64,
) -> Cover {
    let mut search = CoverSearch::new(n, words, sets, limits);
    search.random = seed | 1;
    let all: Vec<u32> = (0..search.members.len() as u32).collect();
    let covered = vec![0u64; words];
    for run in 1.. {
        search.run_end = search
            .nodes
            .saturating_add(restart_nodes.saturating_mul(engine::search::restarts::luby(run)));
        search.chosen.clear();
        search.stopped = false;
        if search.solve(&all, &covered) {
            return Cover::Found(search.chosen);
        }
        if !search.stopped {
            return Cover::None;
        }
        if search.nodes > limits.max_nodes || limits.out_of_time() {
            return Cover::Unknown;
        }
    }
    Cover::Unknown
}

pub fn bits_of(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
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
    /// The node count at which this run stops (restarts).
    run_end: u64,
    /// A xorshift state that orders the sets to try, or 0 for the given order.
    random: u64,
    /// A limit ended the search: a failure proves nothing.
    stopped: bool,
    limits: &'a Limits,
}

impl<'a> CoverSearch<'a> {
    fn new(n: usize, words: usize, sets: &'a [u64], limits: &'a Limits) -> CoverSearch<'a> {
        let count = sets.len() / words;
        let members: Vec<Vec<usize>> = (0..count)
            .map(|s| bits_of(&sets[s * words..(s + 1) * words]).collect())
            .collect();
        CoverSearch {
            n,
            words,
            sets,
            members,
            chosen: Vec::new(),
            tally: vec![0; n],
            nodes: 0,
            run_end: u64::MAX,
            random: 0,
            stopped: false,
            limits,
        }
    }

    fn set(&self, s: u32) -> &[u64] {
        &self.sets[s as usize * self.words..(s as usize + 1) * self.words]
    }

    /// Completes `covered` with disjoint sets among `candidates` (each disjoint from
    /// `covered`); true when every vertex is covered (the sets are in `self.chosen`).
    fn solve(&mut self, candidates: &[u32], covered: &[u64]) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes
            || self.nodes > self.run_end
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
        let mut holding = holding;
        if self.random != 0 {
            // Fisher-Yates with xorshift64.
            for i in (1..holding.len()).rev() {
                self.random ^= self.random << 13;
                self.random ^= self.random >> 7;
                self.random ^= self.random << 17;
                holding.swap(i, (self.random % (i as u64 + 1)) as usize);
            }
        }
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
