//! # Cliques of the graph, and what Hall's theorem says about them
//!
//! The colouring model of `colouring.rs` says `x[u] ≠ x[v]` once per edge. Each of these
//! constraints sees two vertices only, so it removes a colour from a domain only when a
//! neighbour is *fixed* to it. Take a clique of `k` vertices with `k` colours allowed: every
//! colour must appear on it exactly once, so if a colour is left in the domain of a single
//! vertex of the clique, that vertex *must* take it; if three vertices have only the same
//! two colours left, the clique cannot be coloured at all. The `≠` constraints see neither:
//! no vertex is fixed yet.
//!
//! **Hall's theorem** (1935) says when a set of vertices, each with its set of allowed
//! colours, can take distinct colours: exactly when every `m` of them have at least `m`
//! colours between them. Régin's all-different (engine `propagators/alldiff/domain.rs`,
//! 1994) enforces it completely. At its tightest — a clique of `q` vertices, `q` colours —
//! it says more than "distinct": **every colour class meets the clique exactly once**. The
//! exact cover of `exact_cover.rs` is built on that sentence, and needs the cliques of `q`
//! vertices of the graph; this file finds them.
//!
//! [`greedy_clique_cover`] takes an edge no clique covers yet, grows it one vertex at a time
//! (the common neighbour that joins the most uncovered edges, then the one with the most
//! common neighbours left) into a maximal clique, and marks its edges covered, until every
//! edge is. On the queen graphs this finds the rows, columns and the two long diagonals of
//! the board.
//!
//! (Posting `all_different(clique, Domain)` on such a cover inside the tree search was
//! measured too, see `docs/colouring-results.md`: fewer nodes, but no colouring the `≠`
//! model misses was found, and on the large overlapping cliques of `DSJR500.5` each node
//! became far slower. The model does not use it.)

use super::vertex_bits::VertexBits;
use crate::colouring::Graph;

/// Cliques of at least `min_size` vertices (each sorted) that together cover as many edges
/// as a greedy cover gives; every edge outside them needs its own `≠`. Every pair of
/// vertices inside a returned clique is an edge of `g`. Edges are taken in order of their
/// first end, so the result is deterministic.
pub fn greedy_clique_cover(g: &Graph, min_size: usize) -> Vec<Vec<usize>> {
    greedy_clique_cover_within(g, min_size, &engine::Limits::default())
        .expect("no limits, no interruption")
}

/// [`greedy_clique_cover`], giving up (`None`) once `limits`' deadline passes or its stop
/// flag is set: on a large graph the cover takes seconds.
pub fn greedy_clique_cover_within(
    g: &Graph,
    min_size: usize,
    limits: &engine::Limits,
) -> Option<Vec<Vec<usize>>> {
    let n = g.n;
    let neighbours: Vec<VertexBits> = g
        .adj
        .iter()
        .map(|list| {
            let mut s = VertexBits::new(n);
            list.iter().for_each(|&u| s.insert(u));
            s
        })
        .collect();
    // uncovered[v]: the neighbours of v joined to it by an edge no clique covers yet.
    let mut uncovered = neighbours.clone();
    let mut cliques = Vec::new();
    let check = engine::StopCheck::new(limits.deadline, limits.stop.clone());
    for u in 0..n {
        if check.as_ref().is_some_and(|c| c.is_due()) {
            return None;
        }
        while let Some(v) = uncovered[u].first() {
            let mut clique = vec![u, v];
            let mut candidates = neighbours[u].clone();
            candidates.intersect(&neighbours[v]);
            loop {
                // The candidate joined to the clique by the most uncovered edges, then the
                // one keeping the most candidates (a larger clique), then the smallest.
                let best = candidates.iter().max_by_key(|&w| {
                    let new_edges = clique.iter().filter(|&&c| uncovered[w].contains(c)).count();
                    let room = candidates.count_common(&neighbours[w]);
                    (new_edges, room, std::cmp::Reverse(w))
                });
                let Some(w) = best else { break };
                clique.push(w);
                candidates.intersect(&neighbours[w]);
            }
            for (i, &a) in clique.iter().enumerate() {
                for &b in &clique[..i] {
                    uncovered[a].remove(b);
                    uncovered[b].remove(a);
                }
            }
            if clique.len() >= min_size {
                clique.sort_unstable();
                cliques.push(clique);
            }
        }
    }
    Some(cliques)
}
