//! # Graph colouring's portfolio: bounds and colourings found before the tree search
//!
//! The CP model (`colouring.rs`) is complete on its own: with no help it colours with at
//! most Δ + 1 colours and proves the optimum by branch and bound. Exact colouring solvers
//! win by what they compute *before* the search, and this module is that part, run by the
//! optional [`Instance::prepare`](crate::Instance::prepare) step within the run's limits. It
//! hands the model a [`Prepared`]: a clique (the lower bound, and colours `1..=q` fixed on
//! it), the smallest number of colours known (the domains), and a colouring to follow first.
//!
//! 1. **A large clique** (Tomita & Seki 2003, "MCQ": a greedy colouring of the candidates
//!    bounds the clique they can still hold), within a work budget.
//! 2. **The greedy DSATUR colouring** (Brélaz 1979): an upper bound before the search.
//!    And lower bounds the clique misses: Mycielski's construction found inside the graph
//!    (`portfolio/mycielski_bound.rs`: the `myciel` graphs), and `⌈n / α⌉` from the
//!    largest independent set (`portfolio/independence_bound.rs`: `flat300_20_0`).
//! 3. **A short probe** for a colouring with as many colours as the clique (χ = ω in most
//!    benchmark graphs): the model itself searched for a few thousand failures.
//! 4. **Colour classes as an exact cover** (`portfolio/exact_cover.rs`): when the vertices
//!    split into cliques of `q` (`portfolio/clique_cover.rs`), a `q`-colouring is a choice
//!    of `q` disjoint independent transversals, covered by Knuth's Algorithm X; refuted, the
//!    lower bound is `q + 1`. Symmetric covers first (`portfolio/symmetric_cover.rs`).
//! 5. **Local search**: TabuCol (`portfolio/tabucol.rs`) one colour fewer at a time, a set
//!    cover of a pool of classes where classes are small (`portfolio/class_pool.rs`,
//!    `portfolio/set_cover.rs`), then the evolutionary HEAD (`portfolio/evolution.rs`:
//!    GPX crossover, each child repaired by TabuCol).
//!
//! Everything here is deterministic for a given time limit, and every colouring it returns
//! is proper: the model checks nothing of it but follows it.

use super::{add_colour_count, colouring_model, Graph, Prepared, ProbeSearch};
use engine::{Objective, RestartPolicy, SearchConfig, VarSelect};
use std::collections::BTreeSet;
use std::time::Instant;

pub mod class_pool;
pub mod clique_cover;
pub mod evolution;
pub mod exact_cover;
pub mod independence_bound;
pub mod mycielski_bound;
pub mod set_cover;
pub mod symmetric_cover;
pub mod tabucol;
mod vertex_bits;
mod vertex_set;

use vertex_bits::VertexBits;

// ----- bounds: a large clique, a greedy colouring -----------------------------------------

/// The state of the clique search (Tomita & Seki 2003, "MCQ").
struct CliqueSearch {
    /// Neighbourhoods over *positions*: position p is the vertex `order[p]`, vertices sorted
    /// by degree, largest first, so that the greedy colouring below tries them in that order.
    rows: Vec<VertexBits>,
    order: Vec<usize>,
    current: Vec<usize>,
    best: Vec<usize>,
    /// Work left (words of bitsets touched); the search stops, keeping its best, at zero.
    budget: i64,
    /// The run's deadline and stop flag, looked at every [`CLOCK_EVERY`] expansions.
    limits: engine::Limits,
    expansions: u64,
    /// Some branch was cut by the budget (or the clock): `best` may not be the largest.
    cut: bool,
}

/// Expansions of the clique search between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

impl CliqueSearch {
    /// Colour the candidates greedily; a clique inside them has at most as many vertices as
    /// colours. Returns positions with the number of colours used up to each, ascending.
    fn colour_sort(&mut self, candidates: &VertexBits) -> Vec<(usize, usize)> {
        let mut uncoloured = candidates.clone();
        let mut out = Vec::new();
        let mut colour = 0;
        while !uncoloured.is_empty() {
            colour += 1;
            let mut class = uncoloured.clone();
            while let Some(p) = class.first() {
                class.remove(p);
                uncoloured.remove(p);
                class.remove_all(&self.rows[p]);
                self.budget -= class.words() as i64;
                out.push((p, colour));
            }
        }
        out
    }

    fn expand(&mut self, mut candidates: VertexBits) {
        self.expansions += 1;
        if self.expansions.is_multiple_of(CLOCK_EVERY) && out_of_time(&self.limits) {
            self.budget = 0;
        }
        let sorted = self.colour_sort(&candidates);
        for &(p, bound) in sorted.iter().rev() {
            if self.budget <= 0 {
                self.cut = true;
                return;
            }
            if self.current.len() + bound <= self.best.len() {
                return;
            }
            self.current.push(p);
            let next = candidates.and(&self.rows[p]);
            if next.is_empty() {
                if self.current.len() > self.best.len() {
                    self.best = self.current.clone();
                }
            } else {
                self.expand(next);
            }
            let _ = self.current.pop();
            candidates.remove(p);
        }
    }
}

/// Has the run's deadline passed, or its stop flag been raised?
fn out_of_time(limits: &engine::Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

/// A large clique (the largest when the work budget suffices), as vertices.
pub fn find_clique(graph: &Graph, budget: i64) -> Vec<usize> {
    find_clique_within(graph, budget, &engine::Limits::default())
}

/// [`find_clique`] that also stops, keeping its best, at the deadline or stop flag of
/// `limits`.
pub fn find_clique_within(graph: &Graph, budget: i64, limits: &engine::Limits) -> Vec<usize> {
    maximum_clique_within(graph, budget, limits).0
}

/// [`find_clique_within`], and whether the search ended within its budget and limits, so
/// that the clique is a largest one.
pub fn maximum_clique_within(
    graph: &Graph,
    budget: i64,
    limits: &engine::Limits,
) -> (Vec<usize>, bool) {
    let n = graph.n;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(graph.adj[v].len()));
    let mut position = vec![0; n];
    for (p, &v) in order.iter().enumerate() {
        position[v] = p;
    }
    let rows: Vec<VertexBits> = order
        .iter()
        .map(|&v| {
            let mut b = VertexBits::new(n);
            for &u in &graph.adj[v] {
                b.insert(position[u]);
            }
            b
        })
        .collect();
    let mut all = VertexBits::new(n);
    for p in 0..n {
        all.insert(p);
    }
    let mut search = CliqueSearch {
        rows,
        order,
        current: Vec::new(),
        best: vec![0],
        budget,
        limits: limits.clone(),
        expansions: 0,
        cut: false,
    };
    search.expand(all);
    let clique = search.best.iter().map(|&p| search.order[p]).collect();
    (clique, !search.cut)
}

/// The greedy DSATUR colouring (Brélaz 1979): colour first the vertices in `first` with
/// 1, 2, ..., then repeatedly the vertex with the most distinct colours among its
/// neighbours (ties: most uncoloured neighbours) with its smallest free colour.
/// Returns colours `1..=k` per vertex.
///
/// The uncoloured vertices wait in an ordered set by that key, so each step takes the largest
/// in O(log n) and a colouring costs O((n + m) log n), not O(n²).
pub fn dsatur_colouring(graph: &Graph, first: &[usize]) -> Vec<u32> {
    dsatur_colouring_within(graph, first, &engine::Limits::default())
}

/// [`dsatur_colouring`] that gives way to `limits`: once the deadline passes (or the stop
/// flag is set) the vertices still uncoloured take, in index order, their smallest colour
/// free among their neighbours (first fit, linear in the edges). Still a proper colouring,
/// only a greedier one: on 10^6 edges DSATUR's ordered set takes a good part of a second.
pub fn dsatur_colouring_within(
    graph: &Graph,
    first: &[usize],
    limits: &engine::Limits,
) -> Vec<u32> {
    let n = graph.n;
    let mut state = Dsatur {
        graph,
        colour: vec![0; n],
        seen: vec![Vec::new(); n],
        saturation: vec![0; n],
        uncoloured_degree: graph.adj.iter().map(Vec::len).collect(),
        waiting: BTreeSet::new(),
    };
    for v in 0..n {
        let key = state.key(v);
        state.waiting.insert(key);
    }
    for (i, &v) in first.iter().enumerate() {
        state.assign(v, i as u32 + 1);
    }
    let mut assigned = 0u32;
    while let Some((_, _, std::cmp::Reverse(v))) = state.waiting.last().copied() {
        assigned = assigned.wrapping_add(1);
        if assigned.is_multiple_of(256) && out_of_time(limits) {
            return first_fit_rest(graph, state.colour);
        }
        let c = (1u32..)
            .find(|&c| !state.seen[v].get(c as usize).copied().unwrap_or(false))
            .expect("a free colour");
        state.assign(v, c);
    }
    state.colour
}

/// Give every uncoloured vertex (colour 0), in index order, the smallest colour none of its
/// neighbours has.
fn first_fit_rest(graph: &Graph, mut colour: Vec<u32>) -> Vec<u32> {
    let mut taken: Vec<bool> = Vec::new();
    for v in 0..graph.n {
        if colour[v] != 0 {
            continue;
        }
        taken.clear();
        taken.resize(graph.adj[v].len() + 2, false);
        for &u in &graph.adj[v] {
            if let Some(t) = taken.get_mut(colour[u] as usize) {
                *t = true;
            }
        }
        colour[v] = (1..taken.len())
            .find(|&c| !taken[c])
            .expect("a free colour") as u32;
    }
    colour
}

/// The greedy DSATUR colouring's bookkeeping.
struct Dsatur<'a> {
    graph: &'a Graph,
    colour: Vec<u32>,
    /// `seen[v][c]`: a neighbour of `v` has colour `c`.
    seen: Vec<Vec<bool>>,
    /// Distinct colours among the neighbours.
    saturation: Vec<usize>,
    uncoloured_degree: Vec<usize>,
    /// The uncoloured vertices by [`Dsatur::key`].
    waiting: BTreeSet<(usize, usize, std::cmp::Reverse<usize>)>,
}

impl Dsatur<'_> {
    /// Most distinct neighbour colours first, then most uncoloured neighbours, then the
    /// smallest vertex.
    fn key(&self, v: usize) -> (usize, usize, std::cmp::Reverse<usize>) {
        (
            self.saturation[v],
            self.uncoloured_degree[v],
            std::cmp::Reverse(v),
        )
    }

    fn assign(&mut self, v: usize, c: u32) {
        let key = self.key(v);
        self.waiting.remove(&key);
        self.colour[v] = c;
        for &u in &self.graph.adj[v] {
            let waits = self.colour[u] == 0;
            if waits {
                let key = self.key(u);
                self.waiting.remove(&key);
            }
            self.uncoloured_degree[u] -= 1;
            let s = &mut self.seen[u];
            if s.len() <= c as usize {
                s.resize(c as usize + 1, false);
            }
            if !s[c as usize] {
                s[c as usize] = true;
                self.saturation[u] += 1;
            }
            if waits {
                let key = self.key(u);
                self.waiting.insert(key);
            }
        }
    }
}

/// Work budget of the clique search (bitset words touched).
pub const CLIQUE_BUDGET: i64 = 30_000_000;

/// Work budget of the search for Mycielski's construction (bitset words touched).
pub const MYCIELSKI_BUDGET: i64 = 20_000_000;

/// Work budget of the search for the largest independent set (bitset words touched).
pub const INDEPENDENCE_BUDGET: i64 = 30_000_000;

/// Failures allowed to the short search for a colouring with as many colours as the clique.
const PROBE_FAILURES: u64 = 3_000;

/// Does a short search (DSATUR for [`PROBE_FAILURES`] failures, then dom/wdeg with restarts
/// for five times as many) colour `g` with `colours` colours? When the clique is as large as the chromatic number, as in most benchmark
/// graphs, the satisfaction problem with that many colours is tightly constrained and often
/// solved at once, where branch and bound from the greedy colouring's count would descend
/// one colour at a time through large subtrees.
fn colourable_quickly(
    g: &Graph,
    clique: &[usize],
    colours: i32,
    limits: &engine::Limits,
) -> Option<(ProbeSearch, Vec<u32>)> {
    // The main search's model exactly (with the colour count), so that it finds the same.
    let (mut model, mut search, x) =
        colouring_model(g, clique, colours, true, clique.len()).ok()?;
    let k = add_colour_count(&mut model, &x, clique.len(), colours);
    search.objective = Some(Objective::minimize(k));
    let dom_wdeg = ProbeSearch {
        var_select: VarSelect::DomWDeg,
        restarts: RestartPolicy::Luby { scale: 100 },
        failures: PROBE_FAILURES * 5,
    };
    let dsatur = ProbeSearch {
        var_select: search.var_select.clone(),
        restarts: RestartPolicy::Never,
        failures: PROBE_FAILURES,
    };
    [dsatur, dom_wdeg].into_iter().find_map(|probe| {
        let config = SearchConfig {
            var_select: probe.var_select.clone(),
            restarts: probe.restarts,
            solution_limit: Some(1),
            limits: engine::Limits {
                failures: Some(probe.failures),
                deadline: limits.deadline,
                stop: limits.stop.clone(),
                ..Default::default()
            },
            ..search.clone()
        };
        let best = engine::solve(&mut model.clone(), &config).best?;
        let colour = x.iter().map(|&xv| best.value(xv) as u32).collect();
        Some((probe, colour))
    })
}

// ----- the local search's colouring, and a search that follows it -------------------------

/// Moves allowed to the local search per vertex when the run has no time limit (a fraction
/// of a second on the 500-vertex graphs; deterministic).
const LOCAL_SEARCH_MOVES_PER_VERTEX: u64 = 2_000;

/// The share of the time left that the local search may use before the tree search starts
/// (the tree search needs the rest to prove what the clique does not).
const LOCAL_SEARCH_SHARE: f64 = 0.5;

/// Moves per vertex and colour without progress before the local search gives up on a
/// number of colours (the moves grow with the graph and the colours: `vertices × colours ×
/// patience`).
const LOCAL_SEARCH_PATIENCE: u64 = 50;

/// TabuCol moves per vertex on each child of the evolutionary search (HEAD's `L`: 9,000 on
/// the 450-vertex Leighton graphs).
const EVOLUTION_CHILD_MOVES_PER_VERTEX: u64 = 20;

/// Generations without a new fewest conflicts before the evolutionary search gives up on a
/// number of colours.
const EVOLUTION_PATIENCE: u64 = 100;

/// The set cover of a pool of classes (`class_pool.rs`) runs where a colour class at the
/// target holds at most this many vertices on average (`n ≤ POOL_CLASS_SIZE · target`): small
/// classes from different colourings fit together (`DSJR500.5`: 4), large ones rarely do.
const POOL_CLASS_SIZE: usize = 8;

/// The share of the local search's time left that the pool's rounds may use (the
/// evolutionary search has the rest).
const POOL_SHARE: f64 = 0.8;

/// The local search's seed (the model is the same on every run).
const LOCAL_SEARCH_SEED: u64 = 1;

/// Failures allowed to the check that the search finds the hint's colouring first.
const HINT_FAILURES: u64 = 1_000;

/// A colouring for the search to follow: colours `1..=colours`, the clique's vertices
/// coloured `1..=q` in the clique's order.
#[derive(Clone, Debug)]
struct Hint {
    colour: Vec<u32>,
    colours: i32,
}

/// The exact cover of colour classes (`exact_cover.rs`, `symmetric_cover.rs`) may use this
/// share of the time left (it runs only when the vertices split into cliques of the
/// clique's size; there the local search has not found the colourings it finds).
const EXACT_COVER_SHARE: f64 = 0.6;

/// Classes the plain exact cover may store (queen14_14 has 238,088 independent transversals
/// of its rows that meet every line of 14; each costs about 150 bytes there).
const EXACT_COVER_SETS: usize = 500_000;

/// Nodes allowed to each of its two searches (the only limit when the run has no deadline).
const EXACT_COVER_NODES: u64 = 5_000_000;

/// The share of the exact cover's time that the symmetric search may use first, and the
/// nodes each of its searches may use.
const SYMMETRIC_SHARE: f64 = 0.8;
const SYMMETRIC_COVER_NODES: u64 = 5_000_000;

/// What the exact cover of colour classes says about colouring `g` with `q` colours, `q`
/// the size of the clique.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ClassCover {
    /// A colouring with colours `1..=q`.
    Colouring(Vec<u32>),
    /// There is none: χ > q.
    Impossible,
    /// No partition of the vertices into `q`-cliques was found, or a limit was reached.
    Unknown,
}

/// If the vertices split into cliques of `q` (found by the greedy clique cover), a
/// `q`-colouring is an exact cover by independent transversals: search for a symmetric one
/// (`symmetric_cover.rs`), then for any (`exact_cover.rs`), within the limits.
fn colour_classes_by_exact_cover(g: &Graph, q: usize, limits: &engine::Limits) -> ClassCover {
    // (Two colours need no such search: the probe's tree search decides them at once.)
    if q < 3 || !g.n.is_multiple_of(q) {
        return ClassCover::Unknown;
    }
    let Some(cliques) = clique_cover::greedy_clique_cover_within(g, q, limits) else {
        return ClassCover::Unknown;
    };
    let Some(parts) = exact_cover::clique_partition(g, &cliques, q) else {
        return ClassCover::Unknown;
    };
    let now = Instant::now();
    let limits = exact_cover::Limits {
        max_transversals: EXACT_COVER_SETS,
        max_nodes: EXACT_COVER_NODES,
        deadline: limits
            .deadline
            .map(|d| now + d.saturating_duration_since(now).mul_f64(EXACT_COVER_SHARE)),
        stop: limits.stop.clone(),
    };
    let words = g.n.div_ceil(64);
    let q_cliques: Vec<Vec<usize>> = cliques.into_iter().filter(|c| c.len() == q).collect();
    // First a colouring that a symmetry of the graph maps onto itself (incomplete, but far
    // smaller: `symmetric_cover.rs`), within a share of the time.
    let symmetric_limits = exact_cover::Limits {
        max_nodes: SYMMETRIC_COVER_NODES,
        deadline: limits
            .deadline
            .map(|d| now + d.saturating_duration_since(now).mul_f64(SYMMETRIC_SHARE)),
        ..limits.clone()
    };
    if let Some(colour) =
        symmetric_cover::symmetric_colouring(g, &parts, &q_cliques, &symmetric_limits)
    {
        return ClassCover::Colouring(colour);
    }
    let Some(sets) = exact_cover::independent_classes(g, &parts, &q_cliques, &limits) else {
        return ClassCover::Unknown;
    };
    match exact_cover::exact_cover(g.n, words, &sets, &limits) {
        exact_cover::Cover::Found(chosen) => {
            let mut colour = vec![0u32; g.n];
            for (c, &s) in chosen.iter().enumerate() {
                let set = &sets[s * words..(s + 1) * words];
                for v in (0..g.n).filter(|&v| set[v / 64] >> (v % 64) & 1 == 1) {
                    colour[v] = c as u32 + 1;
                }
            }
            ClassCover::Colouring(colour)
        }
        exact_cover::Cover::None => ClassCover::Impossible,
        exact_cover::Cover::Unknown => ClassCover::Unknown,
    }
}

/// TabuCol (`tabucol.rs`) from the greedy colouring down to `target` colours, then, from
/// where it gives up, the evolutionary search (`evolution.rs`), within the run's limits (a
/// share of the time left; without a time limit, [`LOCAL_SEARCH_MOVES_PER_VERTEX`] moves per
/// vertex for each of the two); a hint if they found fewer colours than the greedy colouring.
fn local_search_hint(
    g: &Graph,
    clique: &[usize],
    greedy: &[u32],
    target: i32,
    limits: &engine::Limits,
) -> Option<Hint> {
    let now = Instant::now();
    let budget = tabucol::Budget {
        moves: if limits.deadline.is_some() {
            u64::MAX
        } else {
            LOCAL_SEARCH_MOVES_PER_VERTEX * g.n as u64
        },
        deadline: limits
            .deadline
            .map(|d| now + d.saturating_duration_since(now).mul_f64(LOCAL_SEARCH_SHARE)),
        stop: limits.stop.clone(),
        patience: Some(LOCAL_SEARCH_PATIENCE),
    };
    let mut found = tabucol::fewest_colours(
        g,
        greedy,
        clique,
        target as usize,
        LOCAL_SEARCH_SEED,
        &budget,
    );
    // Where TabuCol gives up and the classes are small, a set cover of classes gathered
    // from TabuCol's runs (`class_pool.rs`), within a share of the time left. (Two colours
    // need no such search: the tree search decides them at once.)
    let colours = |c: &[u32]| c.iter().copied().max().unwrap_or(0) as i32;
    if colours(&found) > target && target >= 3 && g.n <= POOL_CLASS_SIZE * target as usize {
        let now = Instant::now();
        let pool_budget = tabucol::Budget {
            deadline: budget
                .deadline
                .map(|d| now + d.saturating_duration_since(now).mul_f64(POOL_SHARE)),
            ..budget.clone()
        };
        if let Some(colour) = class_pool::colour_from_pool(
            g,
            clique,
            greedy,
            &found,
            target as usize,
            LOCAL_SEARCH_SEED,
            &pool_budget,
            &class_pool::Settings::default(),
        ) {
            found = colour;
        }
    }
    // Where TabuCol gives up, the evolutionary search (`evolution.rs`) goes on from its best
    // colouring, within the same limits.
    if colours(&found) > target {
        let settings = evolution::Settings {
            child_moves: EVOLUTION_CHILD_MOVES_PER_VERTEX * g.n as u64,
            patience: EVOLUTION_PATIENCE,
            ..evolution::Settings::default()
        };
        found = evolution::fewest_colours(
            g,
            &found,
            target as usize,
            LOCAL_SEARCH_SEED,
            &budget,
            &settings,
        );
    }
    let greedy_colours = greedy.iter().copied().max().unwrap_or(0);
    if found.iter().copied().max().unwrap_or(0) >= greedy_colours {
        return None;
    }
    let colour = settle(g, &rename_for_clique(&found, clique), clique);
    let colours = colour.iter().copied().max().unwrap_or(1) as i32;
    Some(Hint { colour, colours })
}

/// The same colouring with its colours renamed so that `clique[i]` has colour `i + 1`; the
/// other colours follow in their old order.
fn rename_for_clique(colour: &[u32], clique: &[usize]) -> Vec<u32> {
    let used = colour.iter().copied().max().unwrap_or(0) as usize;
    let mut new_name = vec![0u32; used + 1];
    for (i, &v) in clique.iter().enumerate() {
        new_name[colour[v] as usize] = i as u32 + 1;
    }
    let mut next = clique.len() as u32;
    for name in new_name.iter_mut().skip(1) {
        if *name == 0 {
            next += 1;
            *name = next;
        }
    }
    colour.iter().map(|&c| new_name[c as usize]).collect()
}

/// Move every vertex but the clique's to the smallest colour its neighbours leave free, until
/// none moves (the colours only go down, so this ends). Afterwards a vertex of colour `c`
/// outside the clique has neighbours of every colour below `c`: coloured class by class, each
/// vertex's smallest colour left is its own.
fn settle(g: &Graph, colour: &[u32], clique: &[usize]) -> Vec<u32> {
    let mut colour = colour.to_vec();
    let mut fixed = vec![false; g.n];
    for &v in clique {
        fixed[v] = true;
    }
    let mut moved = true;
    while moved {
        moved = false;
        for v in (0..g.n).filter(|&v| !fixed[v]) {
            let mut taken = vec![false; colour[v] as usize];
            for &u in &g.adj[v] {
                if let Some(t) = taken.get_mut(colour[u] as usize) {
                    *t = true;
                }
            }
            if let Some(c) = (1..colour[v]).find(|&c| !taken[c as usize]) {
                colour[v] = c;
                moved = true;
            }
        }
    }
    colour
}

// ----- the portfolio in order ---------------------------------------------------------------

/// What [`prepare`] found: what the model needs, and the best colouring known (with
/// `proved`: its number of colours equals the lower bound).
#[derive(Clone, Debug)]
pub struct Found {
    pub prepared: Prepared,
    pub best: Option<Vec<u32>>,
    pub proved: bool,
}

/// Run the portfolio on `g` within `limits`, for at most `max_colours` colours (`--colours
/// K`, capped at Δ + 1) or, with `None`, for the fewest; `model` builds the CP model the
/// search will get (to check that it follows the colouring found first).
pub fn prepare(
    g: &Graph,
    max_colours: Option<i32>,
    limits: &engine::Limits,
    model: &dyn Fn(&Prepared) -> Result<crate::Built, String>,
) -> Found {
    let mut prepared = Prepared::default();
    if out_of_time(limits) {
        return Found {
            prepared,
            best: None,
            proved: false,
        };
    }
    let clique = find_clique_within(g, CLIQUE_BUDGET, limits);
    let q = clique.len().max(1) as i32;
    let greedy_colouring = dsatur_colouring_within(g, &clique, limits);
    let greedy = greedy_colouring.iter().copied().max().unwrap_or(1) as i32;
    prepared.clique = clique.clone();
    prepared.lower = q as usize;
    // A lower bound beyond the clique: Mycielski's construction found inside the graph.
    if max_colours.is_none() && q < greedy && !out_of_time(limits) {
        let bound = mycielski_bound::mycielski_bound(g, clique.len(), MYCIELSKI_BUDGET, limits);
        prepared.lower = prepared.lower.max(bound);
    }
    // And from the largest independent set: χ ≥ ⌈n / α⌉.
    if max_colours.is_none() && (prepared.lower as i32) < greedy && !out_of_time(limits) {
        let bound =
            independence_bound::independence_bound(g, prepared.lower, INDEPENDENCE_BUDGET, limits);
        prepared.lower = prepared.lower.max(bound);
    }
    let lower = prepared.lower as i32;
    // A short search for a colouring with as many colours as the clique, when no other
    // bound says more (then the probe is seldom lucky, and slow on dense graphs).
    // Each step below builds a model or searches over the whole graph: none starts once the
    // time is out (on 10^6 edges one of them takes seconds), and the greedy colouring stands.
    let mut probe_colouring = None;
    if max_colours.is_none() && lower == q && q < greedy && !out_of_time(limits) {
        if let Some((probe, colour)) = colourable_quickly(g, &clique, q, limits) {
            prepared.probe = Some(probe);
            probe_colouring = Some(colour);
        }
    }
    // A lower bound on χ: the clique's size, or one more if the exact cover of colour
    // classes proves that many colours impossible; its colouring is followed if found.
    let mut hint = None;
    if max_colours.is_none()
        && prepared.probe.is_none()
        && lower == q
        && q < greedy
        && !out_of_time(limits)
    {
        match colour_classes_by_exact_cover(g, clique.len(), limits) {
            ClassCover::Colouring(colour) => {
                let colour = settle(g, &rename_for_clique(&colour, &clique), &clique);
                hint = Some(Hint { colour, colours: q });
            }
            ClassCover::Impossible => prepared.lower = q as usize + 1,
            ClassCover::Unknown => {}
        }
    }
    // The local search aims at the lower bound, or at K with --colours K.
    let target = max_colours.unwrap_or(prepared.lower as i32);
    if prepared.probe.is_none()
        && hint.is_none()
        && q <= target
        && target < greedy
        && !out_of_time(limits)
    {
        hint = local_search_hint(g, &clique, &greedy_colouring, target, limits);
    }
    if let Some(h) = hint {
        prepared.colours = Some(h.colours);
        prepared.follow = Some(h.colour);
        // The search finds the hint's colouring first if it can follow it without failing:
        // sure when the clique uses every colour, checked here otherwise (the value
        // precedence may give a vertex the next colour before its turn).
        let follows = !out_of_time(limits)
            && model(&prepared).is_ok_and(|built| {
                let check = SearchConfig {
                    solution_limit: Some(1),
                    limits: engine::Limits {
                        failures: Some(HINT_FAILURES),
                        ..Default::default()
                    },
                    ..built.search.clone()
                };
                engine::solve(&mut built.model.clone(), &check)
                    .best
                    .is_some()
            });
        if !follows {
            // Back to the greedy colouring's colours and DSATUR alone.
            prepared.follow = None;
        }
    }
    if prepared.follow.is_none() {
        prepared.colours = Some(if prepared.probe.is_some() { q } else { greedy });
    }
    let colours = |c: &Vec<u32>| c.iter().copied().max().unwrap_or(0) as i32;
    let best = [
        probe_colouring,
        prepared.follow.clone(),
        Some(greedy_colouring),
    ]
    .into_iter()
    .flatten()
    .filter(|c| max_colours.is_none_or(|k| colours(c) <= k))
    .min_by_key(colours);
    let proved = best
        .as_ref()
        .is_some_and(|c| colours(c) as usize <= prepared.lower);
    Found {
        prepared,
        best,
        proved,
    }
}
