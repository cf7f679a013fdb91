//! # A lower bound from the largest independent set: χ ≥ ⌈n / α⌉
//!
//! A colour class is an independent set (no edge inside it), so it holds at most α
//! vertices, α the size of the largest independent set, and `k` colours cover at most
//! `k · α` vertices: χ ≥ ⌈n / α⌉. The clique bound looks at a few vertices that see each
//! other; this one at all the vertices at once, and wins on dense graphs whose colour
//! classes are all about as large as they can be (`flat300_20_0`: 300 vertices, no 16 of
//! them independent, so 20 colours are needed; its largest clique has 11 vertices).
//!
//! The largest independent set of a graph is the largest clique of its complement, found by
//! the same clique search (`portfolio.rs`) within a work budget; only a search that ends
//! proves α, so only then is the bound used. It is taken over the *core* (the vertices
//! left by peeling those with fewer neighbours than the colours already known to be needed:
//! the core needs as many colours as the graph), which is smaller and denser. A greedy
//! independent set first tells whether the bound can beat the one known: if it already
//! holds `n / lower` vertices, it cannot.

use super::{maximum_clique_within, Graph};
use crate::colouring::peel;

/// The largest core the bound is tried on. The complement of a core of `n` vertices has up
/// to `n²/2` edges, built before the search's budget can stop anything: on a sparse graph of
/// a hundred thousand vertices that is billions of edges. The DIMACS graphs it helps have
/// at most 500 vertices.
pub const MAX_CORE_VERTICES: usize = 1_000;

/// A lower bound on the chromatic number of `g`, at least `lower` (one known): `⌈n / α⌉`
/// over the core, when the search for α ends within `budget` (words of bitsets touched) and
/// `limits`.
pub fn independence_bound(g: &Graph, lower: usize, budget: i64, limits: &engine::Limits) -> usize {
    let core: Vec<usize> = peel(g, lower)
        .iter()
        .enumerate()
        .filter(|&(_, &rank)| rank == 0)
        .map(|(v, _)| v)
        .collect();
    let n = core.len();
    if n == 0 || n > MAX_CORE_VERTICES || greedy_independent_set(g, &core) * lower >= n {
        return lower;
    }
    let (independent, proved) = maximum_clique_within(&complement(g, &core), budget, limits);
    if !proved || independent.is_empty() {
        return lower;
    }
    lower.max(n.div_ceil(independent.len()))
}

/// The complement of the subgraph induced by `vertices` (renumbered `0..`): an edge where
/// `g` has none.
pub fn complement(g: &Graph, vertices: &[usize]) -> Graph {
    let mut position = vec![usize::MAX; g.n];
    for (i, &v) in vertices.iter().enumerate() {
        position[v] = i;
    }
    let mut adjacent = vec![false; vertices.len()];
    let mut edges = Vec::new();
    for (i, &v) in vertices.iter().enumerate() {
        adjacent.iter_mut().for_each(|a| *a = false);
        for &u in &g.adj[v] {
            if position[u] != usize::MAX {
                adjacent[position[u]] = true;
            }
        }
        edges.extend(
            (i + 1..vertices.len())
                .filter(|&j| !adjacent[j])
                .map(|j| (i, j)),
        );
    }
    Graph::from_edges(vertices.len(), &edges)
}

/// The size of an independent set of `vertices`, chosen greedily: the vertex with the
/// fewest neighbours among those still allowed, then its neighbours are no longer allowed.
fn greedy_independent_set(g: &Graph, vertices: &[usize]) -> usize {
    let mut allowed = vec![false; g.n];
    for &v in vertices {
        allowed[v] = true;
    }
    let mut size = 0;
    while let Some(&v) = vertices
        .iter()
        .filter(|&&v| allowed[v])
        .min_by_key(|&&v| g.adj[v].iter().filter(|&&u| allowed[u]).count())
    {
        size += 1;
        allowed[v] = false;
        for &u in &g.adj[v] {
            allowed[u] = false;
        }
    }
    size
}
