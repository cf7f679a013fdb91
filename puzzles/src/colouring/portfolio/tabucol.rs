//! # TabuCol: a local search that finds colourings with few colours
//!
//! The branch and bound of `colouring.rs` proves a chromatic number when it finds a colouring
//! with as many colours as its lower bound (the clique). On many benchmark graphs that
//! colouring is the hard half: a tree search that makes one early mistake among hundreds of
//! vertices never comes back to repair it. A **local search** repairs instead of
//! backtracking. This file teaches the classic one, **TabuCol** (Hertz & de Werra 1987,
//! "Using tabu search techniques for graph coloring"), with the reactive tabu tenure of
//! Galinier & Hao (1999, "Hybrid evolutionary algorithms for graph coloring"):
//!
//! 1. **Fix the number of colours k, allow conflicts.** Every vertex gets a colour in
//!    `1..=k`, proper or not; the cost is the number of *conflicting edges* (both ends of one
//!    colour). A cost of 0 is a proper k-colouring.
//! 2. **Move one conflicting vertex to another colour**, the move that lowers the cost most
//!    (or raises it least: the search must be able to climb out of local minima). Ties are
//!    broken at random.
//! 3. **Evaluate every move in O(1)** with the table `γ[v][c]` = number of neighbours of `v`
//!    with colour `c`: moving `v` from `a` to `c` changes the cost by `γ[v][c] − γ[v][a]`.
//!    After a move only the rows of `v`'s neighbours change (one decrement, one increment).
//! 4. **Tabu list.** After `v` leaves colour `a`, moving `v` back to `a` is forbidden for
//!    `L + λ·(number of conflicting vertices)` moves (`L` random in `0..10`, `λ = 0.6`): the
//!    more conflicts, the longer the memory, which keeps the search from cycling. A tabu move
//!    is still allowed if it reaches a cost lower than any seen so far (*aspiration*).
//! 5. **Descend one colour at a time.** From a proper colouring with `k + 1` colours, the
//!    vertices of the last colour move to the colour where they clash least: a k-colouring
//!    with few conflicts, which TabuCol repairs; then `k − 1`, and so on down to a target
//!    (the clique's size: reaching it proves the colouring optimal).
//! 6. **Leave out what is easy** (the *peeling* of `colouring.rs`): a vertex with fewer than
//!    k neighbours can always be coloured last, so TabuCol works on the *core* left once such
//!    vertices are removed one after another, and the others are coloured greedily after, in
//!    the reverse order of their removal.
//!
//! A number of colours below the chromatic number can never reach 0 conflicts, and the
//! search cannot know: it gives up on k after a number of moves without a new fewest
//! conflicts (its *patience*), so that the exact search keeps its time for the proof.
//!
//! The search is deterministic for a seed (the engine's SplitMix64) when it is bounded by a
//! number of moves; a deadline or a stop flag may end it earlier. Whatever it returns is a
//! proper colouring (the caller's checker sees every colouring anyway).

use super::vertex_set::VertexSet;
use crate::colouring::{peel, Graph};
use engine::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// When the local search gives up (whichever comes first).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Moves allowed, over every number of colours tried.
    pub moves: u64,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Give up on a number of colours k after this many moves per vertex and colour
    /// (`patience · n · k`) without a new fewest conflicts: a k below the chromatic number
    /// then costs little. `None`: no such limit.
    pub patience: Option<u64>,
}

impl Budget {
    fn exhausted(&self, moves_done: u64) -> bool {
        moves_done >= self.moves
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// How often (in moves) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 256;

/// The state of TabuCol for one number of colours `k` (colours `0..k` inside).
struct TabuCol<'a> {
    graph: &'a Graph,
    k: usize,
    colour: Vec<usize>,
    /// `gamma[v * k + c]`: neighbours of `v` with colour `c`.
    gamma: Vec<u32>,
    /// `tabu_until[v * k + c]`: moving `v` to `c` is tabu before this move number.
    tabu_until: Vec<u64>,
    /// Vertices that keep their colour (e.g. a clique's, which need distinct colours anyway).
    kept: Vec<bool>,
    /// The vertices with a neighbour of their own colour.
    conflicting: VertexSet,
    /// Edges whose ends have the same colour.
    conflicts: usize,
    /// Moves made so far, over every run (the tabu list counts in these).
    moves_made: u64,
}

const ABSENT: usize = usize::MAX;

impl<'a> TabuCol<'a> {
    fn new(graph: &'a Graph, k: usize, colour: Vec<usize>, kept: Vec<bool>) -> TabuCol<'a> {
        let n = graph.n;
        let mut gamma = vec![0u32; n * k];
        for v in 0..n {
            for &u in &graph.adj[v] {
                gamma[v * k + colour[u]] += 1;
            }
        }
        let mut state = TabuCol {
            graph,
            k,
            colour,
            gamma,
            tabu_until: vec![0; n * k],
            kept,
            conflicting: VertexSet::empty(n),
            conflicts: 0,
            moves_made: 0,
        };
        for v in 0..n {
            let own = state.gamma[v * k + state.colour[v]];
            state.conflicts += own as usize;
            if own > 0 {
                state.conflicting.set(v, true);
            }
        }
        state.conflicts /= 2;
        state
    }

    /// Recolour `v` with `c`, updating γ, the cost and the conflicting vertices.
    fn move_vertex(&mut self, v: usize, c: usize) {
        let k = self.k;
        let old = self.colour[v];
        self.conflicts =
            self.conflicts + self.gamma[v * k + c] as usize - self.gamma[v * k + old] as usize;
        self.colour[v] = c;
        for &u in &self.graph.adj[v] {
            self.gamma[u * k + old] -= 1;
            self.gamma[u * k + c] += 1;
            if self.colour[u] == old && self.gamma[u * k + old] == 0 {
                self.conflicting.set(u, false);
            } else if self.colour[u] == c && self.gamma[u * k + c] == 1 {
                self.conflicting.set(u, true);
            }
        }
        self.conflicting.set(v, self.gamma[v * k + c] > 0);
    }

    /// Move until no edge conflicts, or `limit` says stop; the fewest conflicts seen, and
    /// their colouring in `best_colour` when `limit.keep_best` (else `best_colour` is empty).
    fn run(
        &mut self,
        rng: &mut Rng,
        budget: &Budget,
        moves_done: &mut u64,
        limit: &RunLimit,
    ) -> RunEnd {
        let k = self.k;
        let mut best = self.conflicts;
        let mut best_colour = if limit.keep_best {
            self.colour.clone()
        } else {
            Vec::new()
        };
        let first = self.moves_made;
        let mut iteration = first;
        let mut last_best = first;
        let mut budget_spent = false;
        while self.conflicts > 0 {
            if moves_done.is_multiple_of(CHECK_EVERY) && budget.exhausted(*moves_done) {
                budget_spent = true;
                break;
            }
            if iteration - last_best > limit.stall || iteration - first >= limit.moves {
                break;
            }
            *moves_done += 1;
            iteration += 1;
            let (v, c) = self.best_move(rng, iteration, best);
            let old = self.colour[v];
            self.move_vertex(v, c);
            let tenure = rng.below(10) + (0.6 * self.conflicting.len() as f64) as u64;
            self.tabu_until[v * k + old] = iteration + tenure;
            if self.conflicts < best {
                best = self.conflicts;
                last_best = iteration;
                if limit.keep_best {
                    best_colour.copy_from_slice(&self.colour);
                }
            }
        }
        self.moves_made = iteration;
        RunEnd {
            conflicts: best,
            best_colour,
            budget_spent,
        }
    }

    /// The best allowed move at move number `iteration` (`best`: the fewest conflicts seen):
    /// the lowest cost change among the conflicting vertices' other colours, not tabu unless
    /// it beats `best` (aspiration), ties at random (reservoir sampling); if every move is
    /// tabu, a random conflicting vertex to a random other colour. The hot loop of TabuCol:
    /// one γ row per conflicting vertex, one subtraction and one comparison per colour.
    fn best_move(&self, rng: &mut Rng, iteration: u64, best: usize) -> (usize, usize) {
        let k = self.k;
        let mut chosen: Option<(usize, usize)> = None;
        let mut best_delta = i32::MAX;
        let mut ties = 0u64;
        // A move to a colour with γ below this beats the best: aspiration.
        let aspiring = best as i64 - self.conflicts as i64;
        for &v in self.conflicting.as_slice() {
            if self.kept[v] {
                continue;
            }
            let row = &self.gamma[v * k..][..k];
            let tabu_row = &self.tabu_until[v * k..][..k];
            let own_colour = self.colour[v];
            let own = row[own_colour] as i32;
            // (Indices into two slices of length exactly k: the compiler drops the bounds
            // checks, which zipping the two rows did not.)
            for c in 0..k {
                let delta = row[c] as i32 - own;
                if delta > best_delta || c == own_colour {
                    continue;
                }
                if tabu_row[c] > iteration && (delta as i64) >= aspiring {
                    continue; // tabu, and no new fewest conflicts
                }
                if delta < best_delta {
                    best_delta = delta;
                    chosen = Some((v, c));
                    ties = 1;
                } else {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        chosen = Some((v, c));
                    }
                }
            }
        }
        chosen.unwrap_or_else(|| {
            let movable: Vec<usize> = (self.conflicting.as_slice().iter())
                .copied()
                .filter(|&v| !self.kept[v])
                .collect();
            // (Never empty: a conflict between two kept vertices is excluded.)
            let v = movable[rng.below(movable.len() as u64) as usize];
            let c = (self.colour[v] + 1 + rng.below(k as u64 - 1) as usize) % k;
            (v, c)
        })
    }
}

/// When one run of TabuCol stops (besides no conflicts left and the [`Budget`]).
struct RunLimit {
    /// Moves in this run.
    moves: u64,
    /// Moves without a new fewest conflicts.
    stall: u64,
    /// Keep a copy of the colouring with the fewest conflicts.
    keep_best: bool,
}

/// How one run of TabuCol ended.
struct RunEnd {
    /// The fewest conflicts seen (0: a proper colouring).
    conflicts: usize,
    /// Their colouring (when asked for).
    best_colour: Vec<usize>,
    /// The budget (moves, deadline or stop flag) ran out.
    budget_spent: bool,
}

/// The result of [`repair`].
#[derive(Clone, Debug)]
pub(super) struct Repaired {
    /// The colouring with the fewest conflicts seen (colours `0..k`).
    pub(super) colour: Vec<usize>,
    /// Its number of conflicting edges (0: proper).
    pub(super) conflicts: usize,
    /// The budget ran out (the caller should stop too).
    pub(super) budget_spent: bool,
}

/// TabuCol with k colours on `colour` (colours `0..k`, conflicts allowed) for at most
/// `run_moves` moves within the budget: the local search of the evolutionary algorithm
/// (`evolution.rs`), which calls it on every child.
pub(super) fn repair(
    graph: &Graph,
    k: usize,
    colour: Vec<usize>,
    rng: &mut Rng,
    budget: &Budget,
    moves_done: &mut u64,
    run_moves: u64,
) -> Repaired {
    let kept = vec![false; graph.n];
    let mut state = TabuCol::new(graph, k, colour, kept);
    let limit = RunLimit {
        moves: run_moves,
        stall: u64::MAX,
        keep_best: true,
    };
    let end = state.run(rng, budget, moves_done, &limit);
    Repaired {
        colour: end.best_colour,
        conflicts: end.conflicts,
        budget_spent: end.budget_spent,
    }
}

/// The part of a graph that decides whether it has a k-colouring: the *core* left by
/// peeling (`colouring.rs`) at k, as a graph of its own, and how to colour the rest.
pub(super) struct Core {
    k: usize,
    /// The core as a graph, vertices `0..`.
    pub(super) graph: Graph,
    /// `vertices[i]`: the original vertex of core vertex `i`.
    vertices: Vec<usize>,
    /// `index[v]`: the core vertex of `v`, or ABSENT.
    index: Vec<usize>,
    /// Peeling rank of every original vertex (0: in the core).
    rank: Vec<usize>,
}

impl Core {
    pub(super) fn new(graph: &Graph, k: usize) -> Core {
        let rank = peel(graph, k);
        let vertices: Vec<usize> = (0..graph.n).filter(|&v| rank[v] == 0).collect();
        let mut index = vec![ABSENT; graph.n];
        for (i, &v) in vertices.iter().enumerate() {
            index[v] = i;
        }
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for &v in &vertices {
            for &u in &graph.adj[v] {
                if index[u] != ABSENT && v < u {
                    edges.push((index[v], index[u]));
                }
            }
        }
        Core {
            k,
            graph: Graph::from_edges(vertices.len(), &edges),
            vertices,
            index,
            rank,
        }
    }

    /// A start for the core (colours `0..k`): the colours of `start` (colours from 1) that
    /// are at most k; a vertex with a larger one takes the colour its neighbours (already
    /// placed) use least, ties at random.
    pub(super) fn start(&self, start: &[u32], rng: &mut Rng) -> Vec<usize> {
        let k = self.k;
        let mut colour = vec![ABSENT; self.vertices.len()];
        for (i, &v) in self.vertices.iter().enumerate() {
            let c = start[v] as usize;
            if (1..=k).contains(&c) {
                colour[i] = c - 1;
            }
        }
        let mut clashes = vec![0usize; k];
        for i in 0..self.vertices.len() {
            if colour[i] == ABSENT {
                clashes.fill(0);
                for &u in &self.graph.adj[i] {
                    if colour[u] != ABSENT {
                        clashes[colour[u]] += 1;
                    }
                }
                let fewest = *clashes.iter().min().expect("k > 0");
                let ties: Vec<usize> = (0..k).filter(|&c| clashes[c] == fewest).collect();
                colour[i] = ties[rng.below(ties.len() as u64) as usize];
            }
        }
        colour
    }

    /// The whole graph's colouring (colours `1..=k`) from a proper colouring of the core
    /// (colours `0..k`): the peeled vertices, last removed first, each take the smallest
    /// colour their coloured neighbours (fewer than k of them) leave.
    pub(super) fn extend(&self, graph: &Graph, core_colour: &[usize]) -> Vec<u32> {
        let k = self.k;
        let mut result = vec![0u32; graph.n];
        for (i, &v) in self.vertices.iter().enumerate() {
            result[v] = core_colour[i] as u32 + 1;
        }
        let mut peeled: Vec<usize> = (0..graph.n).filter(|&v| self.rank[v] != 0).collect();
        peeled.sort_by_key(|&v| std::cmp::Reverse(self.rank[v]));
        let mut used = vec![false; k + 1];
        for v in peeled {
            used.fill(false);
            for &u in &graph.adj[v] {
                used[result[u] as usize] = true;
            }
            let c = (1..=k)
                .find(|&c| !used[c])
                .expect("peeled: fewer than k neighbours");
            result[v] = c as u32;
        }
        result
    }
}

/// A proper colouring of `graph` with colours `1..=k` close to `start` (colours from 1, any
/// number of them), or `None` if TabuCol does not find one within the budget. The vertices of
/// `keep` (e.g. a clique) keep their colour of `start` when it is at most k and clashes with
/// no other kept vertex: fewer vertices to move. `moves_done` counts the moves made (it is
/// compared with `budget.moves`).
pub fn colour_with(
    graph: &Graph,
    k: usize,
    start: &[u32],
    keep: &[usize],
    rng: &mut Rng,
    budget: &Budget,
    moves_done: &mut u64,
) -> Option<Vec<u32>> {
    if k == 0 {
        return (graph.n == 0).then(Vec::new);
    }
    let core = Core::new(graph, k);
    if k == 1 && core.graph.num_edges() > 0 {
        return None; // one colour and an edge: no move could ever help
    }
    let mut state = core.tabucol(k, start, keep, rng);
    let stall = budget
        .patience
        .map_or(u64::MAX, |p| p.saturating_mul((core.graph.n * k) as u64));
    let limit = RunLimit {
        moves: u64::MAX,
        stall,
        keep_best: false,
    };
    if state.run(rng, budget, moves_done, &limit).conflicts > 0 {
        return None;
    }
    Some(core.extend(graph, &state.colour))
}

impl Core {
    /// TabuCol on the core from `start` (see [`colour_with`] for `keep`).
    fn tabucol(&self, k: usize, start: &[u32], keep: &[usize], rng: &mut Rng) -> TabuCol<'_> {
        let colour = self.start(start, rng);
        let mut kept = vec![false; self.graph.n];
        for &v in keep {
            let i = self.index[v];
            let clashes = |i: usize| {
                self.graph.adj[i]
                    .iter()
                    .any(|&j| kept[j] && colour[j] == colour[i])
            };
            if i != ABSENT && (1..=k).contains(&(start[v] as usize)) && !clashes(i) {
                kept[i] = true;
            }
        }
        TabuCol::new(&self.graph, k, colour, kept)
    }
}

/// TabuCol with `k` colours from `start`, as [`colour_with`], that shows its current
/// colouring to `visit` every `every` moves: colours `1..=k` on the core left by peeling at
/// `k`, 0 on the peeled vertices, conflicts allowed. The local search's trajectory at a `k`
/// it cannot reach passes through many colourings with a few conflicts, whose classes are
/// nearly independent sets (the pool of `set_cover.rs`). Runs until the budget is spent;
/// returns a proper colouring with `k` colours if it met one.
#[allow(clippy::too_many_arguments)] // colour_with's, and the visits
pub fn visit_colourings(
    graph: &Graph,
    k: usize,
    start: &[u32],
    keep: &[usize],
    rng: &mut Rng,
    budget: &Budget,
    every: u64,
    visit: &mut dyn FnMut(&[u32]),
) -> Option<Vec<u32>> {
    if k < 2 {
        return None;
    }
    let core = Core::new(graph, k);
    let mut state = core.tabucol(k, start, keep, rng);
    let limit = RunLimit {
        moves: every.max(1),
        stall: u64::MAX,
        keep_best: false,
    };
    let mut moves_done = 0;
    let mut whole = vec![0u32; graph.n];
    loop {
        let end = state.run(rng, budget, &mut moves_done, &limit);
        if state.conflicts == 0 {
            return Some(core.extend(graph, &state.colour));
        }
        for (i, &v) in core.vertices.iter().enumerate() {
            whole[v] = state.colour[i] as u32 + 1;
        }
        visit(&whole);
        if end.budget_spent {
            return None;
        }
    }
}

/// Starting from the proper colouring `start` (colours from 1), look for proper colourings
/// with fewer colours, one colour less at a time, down to `target` colours; return the best
/// proper colouring found (`start` itself if none is better); the vertices of `keep` keep
/// their colours when they can (see [`colour_with`]). Deterministic for a `seed` and a budget
/// of moves alone.
pub fn fewest_colours(
    graph: &Graph,
    start: &[u32],
    keep: &[usize],
    target: usize,
    seed: u64,
    budget: &Budget,
) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut moves_done = 0;
    descend(start, target, |k, best| {
        colour_with(graph, k, best, keep, &mut rng, budget, &mut moves_done)
    })
}

/// Step 5 of the module comment, for any search that repairs a colouring with a fixed
/// number of colours (TabuCol here, the evolutionary search of `evolution.rs`): from the
/// proper colouring `start` (colours from 1), ask `colour_with_k(k, best)` for a proper
/// colouring with `k` colours, one fewer than the best so far, until it fails or `target`
/// is reached; the best colouring found (`start` itself if none is better).
pub fn descend(
    start: &[u32],
    target: usize,
    mut colour_with_k: impl FnMut(usize, &[u32]) -> Option<Vec<u32>>,
) -> Vec<u32> {
    let mut best = start.to_vec();
    loop {
        let used = best.iter().copied().max().unwrap_or(0) as usize;
        if used <= target.max(1) {
            return best;
        }
        match colour_with_k(used - 1, &best) {
            Some(better) => best = better,
            None => return best,
        }
    }
}
