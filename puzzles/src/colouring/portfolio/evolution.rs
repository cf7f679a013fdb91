//! # An evolutionary colouring search: two parents, colour-class crossover, TabuCol
//!
//! TabuCol (`tabucol.rs`) repairs one colouring move by move. On the hardest benchmark graphs
//! with χ = ω (the Leighton graphs `le450_15c/d`, `le450_25c/d`, the geometric `DSJR500.5`)
//! it settles one to three colours above χ: every move it makes is local, and the conflicts
//! it cannot remove sit in a region it keeps returning to. A **hybrid evolutionary
//! algorithm** gives the local search new starting points that are neither random (which
//! throws away what was learnt) nor a small change of the old one (which falls back into the
//! same trap): **children built from the colour classes of two good colourings**. This file
//! teaches the lean form of it:
//!
//! * Galinier & Hao (1999), "Hybrid evolutionary algorithms for graph coloring" (HEA): a
//!   population of k-colourings with conflicts allowed, the **greedy partition crossover**
//!   (GPX), and TabuCol on every child.
//! * Moalic & Gondran (2018), "Variations on memetic algorithms for graph coloring
//!   problems" (HEAD): only **two** parents, each generation both crossings of them
//!   repaired by TabuCol, and two **elites** that bring back the best colouring of an
//!   earlier cycle when the two parents have grown alike.
//!
//! **Why crossing colour classes works.** A colouring is a partition of the vertices into k
//! independent sets; the names of the colours mean nothing. So a crossover must not take
//! "vertex v's colour" from one parent (colour 3 in one parent has nothing to do with colour
//! 3 in the other) but whole **classes**: the good building blocks of a colouring are large
//! sets of vertices that may share a colour. GPX builds the child's k classes one at a time,
//! alternating between the parents: take the parent's class with the most vertices not yet
//! placed, give them the next colour, remove them from both parents. Classes that are
//! conflict-free in a parent stay conflict-free in the child, and the child keeps the large
//! classes of both; the few vertices left over get random colours, and TabuCol repairs the
//! seams. The child is new (it mixes two different partitions) but made of parts that were
//! good, which is the intuition of Galinier & Hao's analysis: the colourings with few
//! conflicts share many of their large classes.
//!
//! **One generation** (HEAD): `c1 = GPX(p1, p2)`, `c2 = GPX(p2, p1)`; TabuCol runs a fixed
//! number of moves on each (`Settings::child_moves`), the results are the new parents. The
//! best colouring seen in the current *cycle* of generations is elite 1; every
//! `Settings::cycle` generations parent 1 is replaced by elite 2 (the best of the cycle
//! before), elite 2 by elite 1, and a new cycle starts. Two parents that have become the
//! same partition teach each other nothing: one is replaced by a random colouring.
//!
//! Like TabuCol it works at a fixed number of colours k on the core left by peeling, and
//! descends one colour at a time; it gives up on a k after `Settings::patience` generations
//! without a new fewest conflicts (a k below the chromatic number never reaches 0), and
//! whatever it returns is a proper colouring. It is deterministic for a seed when bounded by
//! moves; the deadline and the stop flag of the [`Budget`] end it earlier.

use super::tabucol::{descend, repair, Budget, Core};
use crate::colouring::Graph;
use engine::rng::Rng;

/// The evolutionary search's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// TabuCol moves on each child (HEAD's `L`).
    pub child_moves: u64,
    /// Generations between the elite swaps (HEAD's `Itercycle`).
    pub cycle: u64,
    /// Give up on a number of colours after this many generations without a new fewest
    /// conflicts.
    pub patience: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            child_moves: 10_000,
            cycle: 10,
            patience: 50,
        }
    }
}

/// A colouring of the core (colours `0..k`) and its number of conflicting edges.
#[derive(Clone, Debug)]
struct Individual {
    colour: Vec<usize>,
    conflicts: usize,
}

/// The greedy partition crossover (GPX): the child's classes `0..k` are, in turn, the class
/// of `first` then of `second` (alternating) with the most vertices not yet placed, ties at
/// random; vertices left over get a random colour.
fn gpx(first: &[usize], second: &[usize], k: usize, rng: &mut Rng) -> Vec<usize> {
    const UNPLACED: usize = usize::MAX;
    let n = first.len();
    let parents = [first, second];
    // Each parent's classes, and how many of each class's vertices are not yet placed.
    let mut members: [Vec<Vec<usize>>; 2] = [vec![Vec::new(); k], vec![Vec::new(); k]];
    let mut unplaced: [Vec<usize>; 2] = [vec![0; k], vec![0; k]];
    for (p, parent) in parents.iter().enumerate() {
        for (v, &c) in parent.iter().enumerate() {
            members[p][c].push(v);
            unplaced[p][c] += 1;
        }
    }
    let mut child = vec![UNPLACED; n];
    for colour in 0..k {
        let p = colour % 2;
        let most = *unplaced[p].iter().max().expect("k > 0");
        if most == 0 {
            break; // every vertex placed
        }
        let mut class = 0;
        let mut ties = 0;
        for (c, &count) in unplaced[p].iter().enumerate() {
            if count == most {
                ties += 1;
                if rng.below(ties) == 0 {
                    class = c;
                }
            }
        }
        for &v in &members[p][class] {
            if child[v] == UNPLACED {
                child[v] = colour;
                unplaced[0][first[v]] -= 1;
                unplaced[1][second[v]] -= 1;
            }
        }
    }
    for c in child.iter_mut().filter(|c| **c == UNPLACED) {
        *c = rng.below(k as u64) as usize;
    }
    child
}

/// Do `a` and `b` split the vertices into the same classes (whatever the colours' names)?
fn same_partition(a: &[usize], b: &[usize], k: usize) -> bool {
    const UNSEEN: usize = usize::MAX;
    let mut a_to_b = vec![UNSEEN; k];
    let mut b_to_a = vec![UNSEEN; k];
    for (&ca, &cb) in a.iter().zip(b) {
        if a_to_b[ca] == UNSEEN && b_to_a[cb] == UNSEEN {
            a_to_b[ca] = cb;
            b_to_a[cb] = ca;
        } else if a_to_b[ca] != cb || b_to_a[cb] != ca {
            return false;
        }
    }
    true
}

/// What one search at a fixed k needs besides the individuals.
struct Run<'a> {
    graph: &'a Graph,
    k: usize,
    rng: &'a mut Rng,
    budget: &'a Budget,
    moves_done: &'a mut u64,
    settings: &'a Settings,
    /// The budget ran out.
    spent: bool,
}

impl Run<'_> {
    /// TabuCol for `settings.child_moves` moves on `colour`.
    fn improve(&mut self, colour: Vec<usize>) -> Individual {
        let repaired = repair(
            self.graph,
            self.k,
            colour,
            self.rng,
            self.budget,
            self.moves_done,
            self.settings.child_moves,
        );
        self.spent |= repaired.budget_spent;
        Individual {
            colour: repaired.colour,
            conflicts: repaired.conflicts,
        }
    }

    /// A random colouring improved by TabuCol.
    fn random(&mut self) -> Individual {
        let colour = (0..self.graph.n)
            .map(|_| self.rng.below(self.k as u64) as usize)
            .collect();
        self.improve(colour)
    }

    /// HEAD from `start` (colours `0..k`): a colouring with no conflict, or `None` when the
    /// budget or the patience runs out.
    fn search(&mut self, start: Vec<usize>) -> Option<Vec<usize>> {
        let mut p1 = self.improve(start);
        let mut p2 = self.random();
        let better = |a: &Individual, b: &Individual| a.conflicts < b.conflicts;
        let mut elite1 = if better(&p2, &p1) {
            p2.clone()
        } else {
            p1.clone()
        };
        let mut elite2 = elite1.clone();
        let mut fewest = elite1.conflicts;
        let mut generation: u64 = 0;
        let mut last_progress: u64 = 0;
        loop {
            for parent in [&p1, &p2] {
                if parent.conflicts == 0 {
                    return Some(parent.colour.clone());
                }
            }
            if self.spent || generation - last_progress > self.settings.patience {
                return None;
            }
            generation += 1;
            let c1 = gpx(&p1.colour, &p2.colour, self.k, self.rng);
            let c2 = gpx(&p2.colour, &p1.colour, self.k, self.rng);
            p1 = self.improve(c1);
            p2 = self.improve(c2);
            for child in [&p1, &p2] {
                if better(child, &elite1) {
                    elite1 = child.clone();
                }
            }
            if elite1.conflicts < fewest {
                fewest = elite1.conflicts;
                last_progress = generation;
            }
            if generation.is_multiple_of(self.settings.cycle) {
                p1 = std::mem::replace(&mut elite2, elite1.clone());
                elite1 = self.random();
            }
            if same_partition(&p1.colour, &p2.colour, self.k) {
                p2 = self.random();
            }
        }
    }
}

/// A proper colouring of `graph` with colours `1..=k`, searched by HEAD from `start` (colours
/// from 1; those above k are replaced) on the core left by peeling at k, or `None` if none
/// is found within the budget and the patience. `moves_done` counts TabuCol's moves.
pub fn colour_with(
    graph: &Graph,
    k: usize,
    start: &[u32],
    rng: &mut Rng,
    budget: &Budget,
    moves_done: &mut u64,
    settings: &Settings,
) -> Option<Vec<u32>> {
    if k == 0 {
        return (graph.n == 0).then(Vec::new);
    }
    let core = Core::new(graph, k);
    if core.graph.n == 0 {
        return Some(core.extend(graph, &[]));
    }
    if k == 1 && core.graph.num_edges() > 0 {
        return None; // one colour and an edge: no crossing or move could ever help
    }
    let first = core.start(start, rng);
    let mut run = Run {
        graph: &core.graph,
        k,
        rng,
        budget,
        moves_done,
        settings,
        spent: false,
    };
    let found = run.search(first)?;
    Some(core.extend(graph, &found))
}

/// Starting from the proper colouring `start` (colours from 1), look for proper colourings
/// with one colour fewer at a time down to `target` colours, by [`colour_with`] (TabuCol's
/// [`descend`]); the best proper colouring found (`start` itself if none is better).
/// Deterministic for a `seed` and a budget of moves alone.
pub fn fewest_colours(
    graph: &Graph,
    start: &[u32],
    target: usize,
    seed: u64,
    budget: &Budget,
    settings: &Settings,
) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut moves_done = 0;
    descend(start, target, |k, best| {
        colour_with(graph, k, best, &mut rng, budget, &mut moves_done, settings)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpx_of_a_colouring_with_itself_is_the_same_partition() {
        let mut rng = Rng::new(3);
        for trial in 0..50 {
            let k = 2 + trial % 6;
            let a: Vec<usize> = (0..40).map(|_| rng.below(k as u64) as usize).collect();
            let child = gpx(&a, &a, k, &mut rng);
            assert!(same_partition(&a, &child, k), "{a:?} -> {child:?}");
        }
    }

    #[test]
    fn gpx_takes_whole_classes_alternately_largest_first() {
        // First parent: classes {0,1,2,3}, {4,5}, {6,7}; second: {0,4,6}, {1,5,7}, {2,3}.
        let first = [0, 0, 0, 0, 1, 1, 2, 2];
        let second = [0, 1, 2, 2, 0, 1, 0, 1];
        let child = gpx(&first, &second, 3, &mut Rng::new(1));
        // Colour 0: the first parent's largest class {0,1,2,3}. Colour 1: the second's
        // class with most vertices left, {4,6} or {5,7} (2 each). Colour 2: the first's
        // largest left, the other pair's vertices.
        assert_eq!(&child[0..4], &[0, 0, 0, 0]);
        assert!(child[4..].iter().all(|&c| c == 1 || c == 2));
        assert_eq!(child[4], child[6]);
        assert_eq!(child[5], child[7]);
        assert_ne!(child[4], child[5]);
        assert!(!same_partition(&first, &[0, 1, 0, 1, 0, 1, 0, 1], 3));
    }
}
