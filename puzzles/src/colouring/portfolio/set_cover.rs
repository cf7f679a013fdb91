//! # Colour classes as a set cover: k independent sets that together hold every vertex
//!
//! A colouring with k colours is k independent sets (its classes) that together hold every
//! vertex. Turned around: given a **pool** of independent sets — the classes of many good
//! colourings, each grown to a maximal independent set (`class_pool.rs` gathers them) —
//! choose k of them that **cover** the vertices. A vertex in two chosen sets keeps one of
//! them (a subset of an independent set is independent), so a cover is enough, not a
//! partition. This is the post-optimisation of Malaguti, Monaci & Toth (2008, "A
//! metaheuristic approach for the vertex coloring problem"): a pool from colourings with a
//! few colours too many often holds a colouring with fewer, made of classes that no single
//! colouring had together.
//!
//! Malaguti et al. solve the covering problem with a Lagrangian heuristic; this file teaches
//! a simpler local search that works on the same problem, **weighting** (the *breakout* of
//! Morris 1993, "The breakout method for escaping from local minima"; the local searches
//! for unicost set covering weigh their rows the same way, e.g. Gao, Yao, Weise & Li 2015):
//!
//! 1. **Keep exactly k sets**, and count the vertices they leave uncovered; 0 is a cover.
//! 2. **Swap one set in, one set out**: take an uncovered vertex at random; among the pool
//!    sets that hold it, and the chosen sets, find the swap that *gains* the most weight:
//!    the weight of the vertices the new set covers, minus that of the vertices only the
//!    old set covered (ties at random). A set just swapped out may not come back for a few
//!    steps (a short tabu list).
//! 3. **Weigh the vertices that stay uncovered.** After each step every uncovered vertex's
//!    weight grows by 1. A local minimum does not stay one: the vertex the search keeps
//!    leaving out grows heavy until covering it pays more than what the swap uncovers
//!    elsewhere, and the search moves on.
//!
//! Both gains are cheap to evaluate: each vertex keeps how many chosen sets hold it and the
//! XOR of their indices (the one set that holds it, when it is held once), and each chosen
//! set the weight of the vertices that it alone covers.
//!
//! The search is incomplete: failing proves nothing, neither about the pool nor about the
//! graph. Whatever it returns as a cover is one (the caller's checker sees the colouring).

use super::exact_cover::Limits;
use super::vertex_set::VertexSet;

/// Where [`cover_by_local_search`] ended: the `k` sets with the fewest uncovered vertices it
/// met (0: a cover).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverAttempt {
    /// Indices into the pool.
    pub chosen: Vec<usize>,
    pub uncovered: usize,
}

/// A colouring with colours `1..` from a cover of the vertices by independent sets: each
/// vertex takes the colour of the first chosen set that holds it (0 if none does).
pub fn colouring_from_cover(n: usize, pool: &[Vec<usize>], chosen: &[usize]) -> Vec<u32> {
    let mut colour = vec![0u32; n];
    for (c, &s) in chosen.iter().enumerate() {
        for &v in &pool[s] {
            if colour[v] == 0 {
                colour[v] = c as u32 + 1;
            }
        }
    }
    colour
}

/// `k` sets of `pool` (independent sets of a graph on vertices `0..n`, as vertex lists) that
/// cover every vertex, searched by the weighting local search of the module documentation
/// for at most `limits.max_nodes` steps (and the deadline, the stop flag); the `k` sets with
/// the fewest uncovered vertices met. `start`: sets to begin with (e.g. the best of an
/// earlier attempt); the rest, up to `k`, are chosen greedily, most uncovered vertices
/// first. Deterministic for a `seed` when the steps end it.
pub fn cover_by_local_search(
    n: usize,
    pool: &[Vec<usize>],
    k: usize,
    start: &[usize],
    seed: u64,
    limits: &Limits,
) -> CoverAttempt {
    let mut search = SwapSearch::new(n, pool, k, start, seed);
    let mut best = CoverAttempt {
        chosen: search.chosen.clone(),
        uncovered: search.uncovered.len(),
    };
    let mut steps: u64 = 0;
    while best.uncovered > 0 && steps < limits.max_nodes {
        steps += 1;
        if steps.is_multiple_of(256) && limits.out_of_time() {
            break;
        }
        if !search.step(steps) {
            break; // an uncovered vertex is in no set of the pool
        }
        if search.uncovered.len() < best.uncovered {
            best.uncovered = search.uncovered.len();
            best.chosen.clone_from(&search.chosen);
        }
    }
    best
}

/// The local search's state (see [`cover_by_local_search`]).
struct SwapSearch<'a> {
    pool: &'a [Vec<usize>],
    /// `holding[v]`: the pool sets that hold `v`.
    holding: Vec<Vec<usize>>,
    /// The chosen sets, one per slot, and each pool set's slot (or `NO_SLOT`).
    chosen: Vec<usize>,
    slot: Vec<usize>,
    /// How many chosen sets hold each vertex, and the XOR of their indices (the one set
    /// that holds it when it is held once).
    times_covered: Vec<u32>,
    holders_xor: Vec<usize>,
    /// The weight of each vertex, and per slot the weight of the vertices its set alone
    /// covers (what swapping it out costs).
    weight: Vec<u64>,
    only_here: Vec<u64>,
    /// The vertices no chosen set holds.
    uncovered: VertexSet,
    /// A set swapped out may not come back before this step.
    banned_until: Vec<u64>,
    random: engine::rng::Rng,
}

const NO_SLOT: usize = usize::MAX;

impl<'a> SwapSearch<'a> {
    fn new(n: usize, pool: &'a [Vec<usize>], k: usize, start: &[usize], seed: u64) -> Self {
        let mut holding = vec![Vec::new(); n];
        for (s, set) in pool.iter().enumerate() {
            for &v in set {
                holding[v].push(s);
            }
        }
        let mut search = SwapSearch {
            pool,
            holding,
            chosen: Vec::new(),
            slot: vec![NO_SLOT; pool.len()],
            times_covered: vec![0; n],
            holders_xor: vec![0; n],
            weight: vec![1; n],
            only_here: Vec::new(),
            uncovered: VertexSet::full(n),
            banned_until: vec![0; pool.len()],
            random: engine::rng::Rng::new(seed),
        };
        for &s in start.iter().take(k) {
            if search.slot[s] == NO_SLOT {
                search.chosen.push(s);
                search.only_here.push(0);
                search.put(s, search.chosen.len() - 1);
            }
        }
        while search.chosen.len() < k.min(pool.len()) {
            let best = (0..pool.len())
                .filter(|&s| search.slot[s] == NO_SLOT)
                .max_by_key(|&s| {
                    let new = pool[s].iter().filter(|&&v| search.times_covered[v] == 0);
                    (new.count(), std::cmp::Reverse(s))
                })
                .expect("a set not chosen");
            search.chosen.push(best);
            search.only_here.push(0);
            search.put(best, search.chosen.len() - 1);
        }
        search
    }

    /// Set `s` into slot `at` (empty).
    fn put(&mut self, s: usize, at: usize) {
        self.chosen[at] = s;
        self.slot[s] = at;
        for &v in &self.pool[s] {
            match self.times_covered[v] {
                0 => {
                    self.only_here[at] += self.weight[v];
                    self.uncovered.set(v, false);
                }
                1 => {
                    let before = self.slot[self.holders_xor[v]];
                    self.only_here[before] -= self.weight[v];
                }
                _ => {}
            }
            self.times_covered[v] += 1;
            self.holders_xor[v] ^= s;
        }
    }

    /// Take the set out of slot `at`.
    fn take(&mut self, at: usize) -> usize {
        let s = self.chosen[at];
        self.slot[s] = NO_SLOT;
        for &v in &self.pool[s] {
            self.times_covered[v] -= 1;
            self.holders_xor[v] ^= s;
            match self.times_covered[v] {
                0 => {
                    self.only_here[at] -= self.weight[v];
                    self.uncovered.set(v, true);
                }
                1 => {
                    let other = self.slot[self.holders_xor[v]];
                    self.only_here[other] += self.weight[v];
                }
                _ => {}
            }
        }
        s
    }

    /// One swap for a random uncovered vertex, then the weights; false if no set may cover
    /// the vertex (it is in no set of the pool).
    fn step(&mut self, step: u64) -> bool {
        if self.chosen.is_empty() {
            return false; // k = 0: nothing to swap
        }
        let v = self.uncovered.as_slice()[self.random.below(self.uncovered.len() as u64) as usize];
        let mut best: Option<(usize, usize)> = None;
        let mut best_score = i64::MIN;
        let mut ties = 0;
        let mut relief: Vec<(usize, u64)> = Vec::new();
        // The slots by what swapping their set out costs, cheapest first (ties in random
        // order): a swap's best slot is the first one its set does not relieve, or one it
        // relieves.
        let mut by_cost: Vec<usize> = (0..self.chosen.len()).collect();
        self.random.shuffle(&mut by_cost);
        by_cost.sort_by_key(|&at| self.only_here[at]);
        for &s in &self.holding[v] {
            if self.slot[s] != NO_SLOT || self.banned_until[s] > step {
                continue;
            }
            // Swapping `s` in gains its uncovered vertices' weight, and relieves the slot
            // that alone holds one of its other vertices of that vertex's weight.
            let mut gain = 0;
            relief.clear();
            for &u in &self.pool[s] {
                match self.times_covered[u] {
                    0 => gain += self.weight[u],
                    1 => {
                        let at = self.slot[self.holders_xor[u]];
                        match relief.iter_mut().find(|(a, _)| *a == at) {
                            Some((_, r)) => *r += self.weight[u],
                            None => relief.push((at, self.weight[u])),
                        }
                    }
                    _ => {}
                }
            }
            let untouched = by_cost
                .iter()
                .copied()
                .find(|at| relief.iter().all(|(a, _)| a != at));
            let touched = relief
                .iter()
                .map(|&(at, eased)| (at, self.only_here[at] - eased));
            for (at, cost) in untouched
                .map(|at| (at, self.only_here[at]))
                .into_iter()
                .chain(touched)
            {
                let score = gain as i64 - cost as i64;
                if score > best_score {
                    best_score = score;
                    best = Some((s, at));
                    ties = 1;
                } else if score == best_score {
                    ties += 1;
                    if self.random.below(ties) == 0 {
                        best = Some((s, at));
                    }
                }
            }
        }
        let Some((s, at)) = best else {
            // Every set holding v is banned for now (true), or there is none (false).
            return !self.holding[v].is_empty();
        };
        let out = self.take(at);
        self.put(s, at);
        self.banned_until[out] = step + 1 + self.random.below(10);
        for &u in self.uncovered.as_slice() {
            self.weight[u] += 1;
        }
        true
    }
}
