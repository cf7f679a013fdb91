//! # A pool of colour classes from many local searches, recombined by a set cover
//!
//! TabuCol (`tabucol.rs`) at a number of colours k it cannot reach still spends its time
//! among colourings with a handful of conflicts: nearly every one of their k classes is an
//! independent set, and the conflicts move around. Malaguti, Monaci & Toth (2008, "A
//! metaheuristic approach for the vertex coloring problem") keep such classes in a **pool**
//! and then ask a covering problem: which k classes of the pool hold every vertex?
//! (`set_cover.rs`). A cover takes each class from wherever it was good — one from this
//! colouring, one from that — which no single run of the local search had together. On the
//! geometric graph `DSJR500.5` (χ = ω = 122), where TabuCol and the evolutionary search stop
//! at 124, the cover of a pool gathered in a few seconds has 122 classes.
//!
//! This file gathers the pool, in **rounds**:
//!
//! 1. A colouring to start from: the best one known in the first round, the greedy (DSATUR)
//!    colouring in the later ones, each with another seed. The rounds matter more than their
//!    length: one run of TabuCol at k keeps most of its classes for good (only the region
//!    around the conflicts moves), so its classes are many variations of one colouring; a
//!    run from the greedy colouring with another seed settles into another one.
//! 2. TabuCol at the target k from it (the clique's vertices kept on their colours), showing
//!    its current colouring every few thousand moves. Each class of each colouring seen
//!    loses its most conflicting vertices until it is an independent set, and is then
//!    **grown to a maximal independent set** (the vertices outside it in random order, each
//!    added if it has no neighbour inside): a larger set covers more, and vertices that
//!    TabuCol does not colour (the peeled ones) find their way into classes this way.
//! 3. The cover search on the pool so far, from the best cover of the round before.
//!
//! It is an upper-bound heuristic: it returns a proper colouring with k colours when it
//! finds one, and proves nothing when it does not.
//!
//! **When it pays.** The classes must be small for many of them to fit together: on
//! `DSJR500.5` a class holds 4 vertices on average (500 vertices, 122 colours) and the pool
//! holds tens of thousands of distinct ones; with classes of 30 vertices (`le450_15c`) two
//! classes from different colourings almost always clash, and the evolutionary search
//! (`evolution.rs`) does better. The model (`colouring.rs`) runs this search only where the
//! classes at the target are small.

use super::exact_cover::Limits;
use super::set_cover::{colouring_from_cover, cover_by_local_search, CoverAttempt};
use super::tabucol::{self, Budget};
use crate::colouring::Graph;
use engine::rng::Rng;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// How long each part of a round runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rounds at most (the budget's deadline usually ends them first).
    pub rounds: u64,
    /// TabuCol moves per vertex at the target in each round.
    pub sample_moves_per_vertex: u64,
    /// TabuCol moves between two colourings whose classes join the pool.
    pub visit_every: u64,
    /// Steps of the cover search per vertex after each round.
    pub cover_steps_per_vertex: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rounds: 20,
            sample_moves_per_vertex: 1_000,
            visit_every: 2_000,
            cover_steps_per_vertex: 200,
        }
    }
}

/// A proper colouring of `g` with colours `1..=target`, searched by covering the vertices
/// with classes from a pool gathered in rounds (see the module documentation); `None` if
/// none is found within the budget (its deadline and stop flag; its moves and patience are
/// not used) and the rounds. `best`: the best proper colouring known (colours from 1), where
/// the first round starts; `greedy`: the colouring the later rounds start from (another
/// seed each); `clique`: vertices kept on their colours by TabuCol.
#[allow(clippy::too_many_arguments)] // three colourings and TabuCol's usual ones
pub fn colour_from_pool(
    g: &Graph,
    clique: &[usize],
    greedy: &[u32],
    best: &[u32],
    target: usize,
    seed: u64,
    budget: &Budget,
    settings: &Settings,
) -> Option<Vec<u32>> {
    if target == 0 {
        return (g.n == 0).then(Vec::new);
    }
    let mut pool = Pool::new(g, seed);
    let mut attempt = CoverAttempt {
        chosen: Vec::new(),
        uncovered: g.n,
    };
    for round in 0..settings.rounds {
        if out_of_time(budget) {
            return None;
        }
        let round_seed = seed.wrapping_add(round);
        let start = if round == 0 { best } else { greedy };
        pool.add_colouring(start);
        let sampling = Budget {
            moves: settings.sample_moves_per_vertex.saturating_mul(g.n as u64),
            patience: None,
            ..budget.clone()
        };
        let mut rng = Rng::new(round_seed);
        let mut visit = |colour: &[u32]| pool.add_colouring(colour);
        let reached = tabucol::visit_colourings(
            g,
            target,
            start,
            clique,
            &mut rng,
            &sampling,
            settings.visit_every,
            &mut visit,
        );
        if reached.is_some() {
            return reached; // TabuCol itself found one
        }
        let limits = Limits {
            max_transversals: 0,
            max_nodes: settings.cover_steps_per_vertex.saturating_mul(g.n as u64),
            deadline: budget.deadline,
            stop: budget.stop.clone(),
        };
        attempt = cover_by_local_search(
            g.n,
            &pool.classes,
            target,
            &attempt.chosen,
            round_seed,
            &limits,
        );
        if attempt.uncovered == 0 {
            return Some(colouring_from_cover(g.n, &pool.classes, &attempt.chosen));
        }
    }
    None
}

fn out_of_time(budget: &Budget) -> bool {
    budget.deadline.is_some_and(|d| Instant::now() >= d)
        || (budget.stop.as_ref()).is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The classes gathered so far, each a maximal independent set (sorted), each once.
struct Pool<'a> {
    g: &'a Graph,
    classes: Vec<Vec<usize>>,
    seen: HashSet<Vec<usize>>,
    rng: Rng,
    /// Scratch: the vertices that may not join the set being grown (members, neighbours).
    blocked: Vec<bool>,
    order: Vec<usize>,
    /// Scratch: each vertex's number of neighbours in its class.
    clashes: Vec<usize>,
}

impl<'a> Pool<'a> {
    fn new(g: &'a Graph, seed: u64) -> Pool<'a> {
        Pool {
            g,
            classes: Vec::new(),
            seen: HashSet::new(),
            rng: Rng::new(seed ^ 0x5eed),
            blocked: vec![false; g.n],
            order: (0..g.n).collect(),
            clashes: vec![0; g.n],
        }
    }

    /// Each class of `colour` (colours from 1; 0: not coloured), made independent and
    /// grown to a maximal independent set, joins the pool if it is new.
    fn add_colouring(&mut self, colour: &[u32]) {
        let k = colour.iter().copied().max().unwrap_or(0) as usize;
        let mut classes = vec![Vec::new(); k + 1];
        for (v, &c) in colour.iter().enumerate() {
            classes[c as usize].push(v);
        }
        for class in classes.into_iter().skip(1).filter(|c| !c.is_empty()) {
            let independent = self.independent_part(class, colour);
            let grown = self.grow(independent);
            if self.seen.insert(grown.clone()) {
                self.classes.push(grown);
            }
        }
    }

    /// The class without its most conflicting vertices, one at a time, until no edge is left
    /// inside (`colour` tells who is in the class).
    fn independent_part(&mut self, mut class: Vec<usize>, colour: &[u32]) -> Vec<usize> {
        let own = colour[class[0]];
        for &v in &class {
            self.clashes[v] = self.g.adj[v].iter().filter(|&&u| colour[u] == own).count();
        }
        while let Some(worst) = class
            .iter()
            .copied()
            .filter(|&v| self.clashes[v] > 0)
            .max_by_key(|&v| (self.clashes[v], v))
        {
            class.retain(|&v| v != worst);
            for &u in &self.g.adj[worst] {
                if colour[u] == own {
                    self.clashes[u] -= 1;
                }
            }
        }
        class
    }

    /// `set` (independent) with the other vertices added in random order, each one that has
    /// no neighbour in the set so far: a maximal independent set, sorted.
    fn grow(&mut self, mut set: Vec<usize>) -> Vec<usize> {
        self.blocked.fill(false);
        for &v in &set {
            self.blocked[v] = true;
            self.g.adj[v].iter().for_each(|&u| self.blocked[u] = true);
        }
        for i in (1..self.order.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            self.order.swap(i, j);
        }
        for &v in &self.order {
            if !self.blocked[v] {
                set.push(v);
                self.blocked[v] = true;
                self.g.adj[v].iter().for_each(|&u| self.blocked[u] = true);
            }
        }
        set.sort_unstable();
        set
    }
}
