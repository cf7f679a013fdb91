//! # Graph colouring: the fewest colours so that no edge joins two vertices of one colour
//!
//! The input is the DIMACS `.col` format of the graph-colouring benchmarks: `c` comment
//! lines, `p edge N M`, then `e U V` lines with vertices numbered 1..N.
//!
//! **Model.** One variable per vertex, `x[v] ∈ 1..=H`, its colour, with `x[u] != x[v]` for
//! every edge. The number of colours is `k ≥ x[v]` for every `v`, minimised by branch and
//! bound. This file teaches how an exact colouring solver *proves* a chromatic number, with
//! four classic ideas (Brélaz 1979, "New methods to color the vertices of a graph"; Sewell
//! 1996; San Segundo 2012):
//!
//! 1. **A lower bound from a clique.** The vertices of a clique need distinct colours, so
//!    `k ≥ |clique|`. A small branch and bound (Tomita & Seki's MCQ: a greedy colouring of the
//!    candidates bounds the clique they can still hold) finds a large clique, within a work
//!    budget. When a colouring with that many colours is found, the search is over: this is
//!    how most benchmark graphs are proved (χ = ω).
//! 2. **An upper bound from a heuristic.** The greedy DSATUR colouring gives `H`, the size of
//!    the domains, before the search starts; if the clique is smaller, a short search (a few
//!    thousand failures) for a colouring with as many colours as the clique may close the
//!    gap at once. If not, a local search (TabuCol, `colouring/tabucol.rs`) repairs
//!    colourings with one colour fewer at a time; where it gives up and the colour classes
//!    are small, k classes that cover the vertices are sought in a pool of classes gathered
//!    from TabuCol's runs (`colouring/class_pool.rs`, `colouring/set_cover.rs`); then an
//!    evolutionary search carries on (HEAD, `colouring/evolution.rs`: the colour classes of
//!    two parents crossed by GPX, each child repaired by TabuCol), within half the time left
//!    together;
//!    the tree search then follows the best colouring first (vertices class by class, smallest colour
//!    first, which rebuilds it without a failure) and only has to improve on it or prove
//!    it: with as many colours as the clique, it is proved at once.
//! 3. **Colours are interchangeable.** The clique's vertices are fixed to colours `1..=q`,
//!    and a vertex with no used colour left takes the next unused one
//!    (`engine::propagators::precedence`), so no colouring is explored twice under another
//!    name.
//! 4. **DSATUR branching.** Colour next the vertex with the fewest colours left (the most
//!    distinct colours among its neighbours — its *saturation*), ties broken by the most
//!    uncoloured neighbours; try its smallest colour first.
//! 5. **Colour classes as an exact cover** (`colouring/exact_cover.rs`). When the vertices
//!    split into cliques of `q` vertices (`colouring/clique_cover.rs` finds them), each
//!    colour of a `q`-colouring meets every such clique exactly once (Hall's theorem at its
//!    tightest), so a `q`-colouring is a choice of `q` disjoint independent transversals:
//!    enumerated, then covered by Knuth's Algorithm X, before the local search. Found, it is
//!    the hint; refuted by the complete search, χ > q and the lower bound is `q + 1` (the
//!    queen graphs `queen8_8` to `queen10_10`). First, though, only colourings whose classes
//!    a symmetry of the graph permutes are sought (`colouring/symmetric_cover.rs`): an exact
//!    cover by whole orbits of classes, far smaller, which finds `queen12_12` to
//!    `queen14_14` (incomplete: failing there proves nothing).
//!
//! With `--colours K` the model is the satisfaction problem "at most K colours" (same ideas
//! 1, 3, 4). With `--colours K --count` it counts every proper colouring with colours 1..K,
//! so none of the symmetry breaking is used: each renaming of a colouring counts.
//!
//! Run it: `cpsolve colouring`, `cpsolve colouring myciel4.col`,
//! `cpsolve colouring --colours 4 --count`.

use crate::common::{check_text, Answer, Built, Instance, ModelOptions, ParseError, Purpose};
use crate::{Input, PuzzleKind};
use engine::{Model, Objective, RestartPolicy, SearchConfig, Solution, VarId, VarSelect};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

pub mod class_pool;
pub mod clique_cover;
pub mod evolution;
pub mod exact_cover;
pub mod set_cover;
pub mod symmetric_cover;
pub mod tabucol;
mod vertex_set;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "colouring",
    summary: "graph colouring (DIMACS .col): fewest colours, or --colours K [--count]",
    optimisation: true,
    input: Input::File,
    seed: include_str!("../instances/seed/colouring.col"),
    parse,
};

/// The largest number of vertices accepted (the model has one variable per vertex, and the
/// clique search an n×n bit matrix: 50 MB at this size).
pub const MAX_VERTICES: usize = 20_000;

/// The most colours `--colours K --count` accepts (each is a bit in every domain).
pub const MAX_COUNT_COLOURS: usize = 1000;

/// An undirected simple graph, vertices `0..n` (the file's `1..=n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    pub n: usize,
    /// Sorted neighbour lists, no duplicates, no self-loops.
    pub adj: Vec<Vec<usize>>,
}

impl Graph {
    /// A graph from 0-based edges (duplicates and self-loops are dropped).
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Graph {
        let mut adj = vec![Vec::new(); n];
        for &(u, v) in edges {
            if u != v {
                adj[u].push(v);
                adj[v].push(u);
            }
        }
        for list in &mut adj {
            list.sort_unstable();
            list.dedup();
        }
        Graph { n, adj }
    }

    /// Number of distinct edges.
    pub fn num_edges(&self) -> usize {
        self.adj.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Each edge once, `u < v`.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.adj
            .iter()
            .enumerate()
            .flat_map(|(u, l)| l.iter().filter(move |&&v| u < v).map(move |&v| (u, v)))
    }
}

/// One colouring instance: the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Colouring {
    pub graph: Graph,
}

// ----- parse ------------------------------------------------------------------------------

/// A DIMACS `.col` file into one instance.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_graph(text)?)])
}

fn parse_number(token: &str, line: usize, what: &str) -> Result<usize, ParseError> {
    token.parse::<usize>().map_err(|_| {
        ParseError::new(
            line,
            format!("expected {what}, a whole number, found '{token}'"),
        )
    })
}

/// The graph of a DIMACS `.col` text, or the first malformed line.
pub fn parse_graph(text: &str) -> Result<Colouring, ParseError> {
    check_text(text)?;
    let mut n: Option<usize> = None;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let tokens: Vec<&str> = raw.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            continue;
        };
        if first.starts_with('c') || first.starts_with('%') {
            continue; // a comment
        }
        match first {
            "p" => {
                if n.is_some() {
                    return Err(ParseError::new(line, "a second 'p' line"));
                }
                if tokens.len() != 4 || !matches!(tokens[1], "edge" | "edges" | "col") {
                    return Err(ParseError::new(
                        line,
                        format!("expected 'p edge N M', found '{}'", raw.trim()),
                    ));
                }
                let vertices = parse_number(tokens[2], line, "the number of vertices N")?;
                parse_number(tokens[3], line, "the number of edges M")?;
                if vertices == 0 || vertices > MAX_VERTICES {
                    return Err(ParseError::new(
                        line,
                        format!("the number of vertices must be between 1 and {MAX_VERTICES}, found {vertices}"),
                    ));
                }
                n = Some(vertices);
            }
            "e" => {
                let Some(vertices) = n else {
                    return Err(ParseError::new(
                        line,
                        "an edge before the 'p edge N M' line",
                    ));
                };
                if tokens.len() != 3 {
                    return Err(ParseError::new(
                        line,
                        format!("expected 'e U V', found '{}'", raw.trim()),
                    ));
                }
                let mut ends = [0usize; 2];
                for (end, token) in ends.iter_mut().zip(&tokens[1..]) {
                    let v = parse_number(token, line, "a vertex")?;
                    if v == 0 || v > vertices {
                        return Err(ParseError::new(
                            line,
                            format!("vertex {v} out of range 1..{vertices}"),
                        ));
                    }
                    *end = v - 1;
                }
                edges.push((ends[0], ends[1]));
            }
            _ => {
                return Err(ParseError::new(
                    line,
                    format!(
                        "expected a 'c' comment, 'p edge N M' or 'e U V' line, found '{}'",
                        raw.trim()
                    ),
                ))
            }
        }
    }
    let n = n.ok_or_else(|| ParseError::new(0, "missing 'p edge N M' line"))?;
    Ok(Colouring {
        graph: Graph::from_edges(n, &edges),
    })
}

// ----- bounds: a large clique, a greedy colouring -----------------------------------------

/// A fixed-size set of vertices as bits.
#[derive(Clone, Debug)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
    fn and(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }
    fn and_not_assign(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
    }
}

/// The state of the clique search (Tomita & Seki 2003, "MCQ").
struct CliqueSearch {
    /// Neighbourhoods over *positions*: position p is the vertex `order[p]`, vertices sorted
    /// by degree, largest first, so that the greedy colouring below tries them in that order.
    rows: Vec<Bits>,
    order: Vec<usize>,
    current: Vec<usize>,
    best: Vec<usize>,
    /// Work left (words of bitsets touched); the search stops, keeping its best, at zero.
    budget: i64,
}

impl CliqueSearch {
    /// Colour the candidates greedily; a clique inside them has at most as many vertices as
    /// colours. Returns positions with the number of colours used up to each, ascending.
    fn colour_sort(&mut self, candidates: &Bits) -> Vec<(usize, usize)> {
        let mut uncoloured = candidates.clone();
        let mut out = Vec::new();
        let mut colour = 0;
        while !uncoloured.is_empty() {
            colour += 1;
            let mut class = uncoloured.clone();
            while let Some(p) = class.first() {
                class.clear(p);
                uncoloured.clear(p);
                class.and_not_assign(&self.rows[p]);
                self.budget -= class.0.len() as i64;
                out.push((p, colour));
            }
        }
        out
    }

    fn expand(&mut self, mut candidates: Bits) {
        let sorted = self.colour_sort(&candidates);
        for &(p, bound) in sorted.iter().rev() {
            if self.budget <= 0 || self.current.len() + bound <= self.best.len() {
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
            candidates.clear(p);
        }
    }
}

/// A large clique (the largest when the work budget suffices), as vertices.
pub fn find_clique(graph: &Graph, budget: i64) -> Vec<usize> {
    let n = graph.n;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(graph.adj[v].len()));
    let mut position = vec![0; n];
    for (p, &v) in order.iter().enumerate() {
        position[v] = p;
    }
    let rows: Vec<Bits> = order
        .iter()
        .map(|&v| {
            let mut b = Bits::new(n);
            for &u in &graph.adj[v] {
                b.set(position[u]);
            }
            b
        })
        .collect();
    let mut all = Bits::new(n);
    for p in 0..n {
        all.set(p);
    }
    let mut search = CliqueSearch {
        rows,
        order,
        current: Vec::new(),
        best: vec![0],
        budget,
    };
    search.expand(all);
    search.best.iter().map(|&p| search.order[p]).collect()
}

/// The greedy DSATUR colouring (Brélaz 1979): colour first the vertices in `first` with
/// 1, 2, ..., then repeatedly the vertex with the most distinct colours among its
/// neighbours (ties: most uncoloured neighbours) with its smallest free colour.
/// Returns colours `1..=k` per vertex.
pub fn dsatur_colouring(graph: &Graph, first: &[usize]) -> Vec<u32> {
    let n = graph.n;
    let mut state = Dsatur {
        graph,
        colour: vec![0; n],
        seen: vec![Vec::new(); n],
        saturation: vec![0; n],
        uncoloured_degree: graph.adj.iter().map(Vec::len).collect(),
    };
    for (i, &v) in first.iter().enumerate() {
        state.assign(v, i as u32 + 1);
    }
    for _ in first.len()..n {
        let v = (0..n)
            .filter(|&v| state.colour[v] == 0)
            .max_by_key(|&v| {
                (
                    state.saturation[v],
                    state.uncoloured_degree[v],
                    std::cmp::Reverse(v),
                )
            })
            .expect("an uncoloured vertex is left");
        let c = (1u32..)
            .find(|&c| !state.seen[v].get(c as usize).copied().unwrap_or(false))
            .expect("a free colour");
        state.assign(v, c);
    }
    state.colour
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
}

impl Dsatur<'_> {
    fn assign(&mut self, v: usize, c: u32) {
        self.colour[v] = c;
        for &u in &self.graph.adj[v] {
            self.uncoloured_degree[u] -= 1;
            let s = &mut self.seen[u];
            if s.len() <= c as usize {
                s.resize(c as usize + 1, false);
            }
            if !s[c as usize] {
                s[c as usize] = true;
                self.saturation[u] += 1;
            }
        }
    }
}

/// Work budget of the clique search (bitset words), a fraction of a second.
const CLIQUE_BUDGET: i64 = 30_000_000;

/// Peeling (the "k-core" reduction of exact colouring solvers): a vertex with fewer than
/// `colours` neighbours can always be coloured last, whatever its neighbours got. Remove such
/// vertices one after another; returns each vertex's removal rank (1 = removed first), 0 for
/// the *core* that is left, the part of the graph that decides the colouring.
pub fn peel(graph: &Graph, colours: usize) -> Vec<usize> {
    let n = graph.n;
    let mut degree: Vec<usize> = graph.adj.iter().map(Vec::len).collect();
    let mut rank = vec![0; n];
    let mut stack: Vec<usize> = (0..n).filter(|&v| degree[v] < colours).collect();
    let mut removed = 0;
    while let Some(v) = stack.pop() {
        if rank[v] != 0 {
            continue;
        }
        removed += 1;
        rank[v] = removed;
        for &u in &graph.adj[v] {
            if rank[u] == 0 {
                degree[u] -= 1;
                if degree[u] + 1 == colours {
                    stack.push(u);
                }
            }
        }
    }
    rank
}

/// The DSATUR variable choice for the engine: among the core vertices (`rank` 0), fewest
/// colours left (= highest saturation, as every unfixed vertex shares the same unused
/// colours), ties by most uncoloured neighbours; once the core is coloured, the peeled
/// vertices, last removed first, each of which then has a colour free.
fn dsatur_select(adj: Arc<Vec<Vec<usize>>>, rank: Arc<Vec<usize>>) -> VarSelect {
    VarSelect::Custom(Arc::new(move |model: &Model, candidates: &[VarId]| {
        let store = &model;
        let uncoloured_degree = |x: VarId| {
            adj[x.index()]
                .iter()
                .filter(|&&u| !store.is_fixed(VarId(u as u32)))
                .count()
        };
        let mut best: Option<VarId> = None;
        let mut best_size = u32::MAX;
        let mut best_degree: Option<usize> = None;
        for &x in candidates.iter().filter(|x| rank[x.index()] == 0) {
            let size = store.size(x);
            if size < best_size {
                best = Some(x);
                best_size = size;
                best_degree = None;
            } else if size == best_size {
                let d = uncoloured_degree(x);
                let b = best.expect("set with best_size");
                let bd = *best_degree.get_or_insert_with(|| uncoloured_degree(b));
                if d > bd {
                    best = Some(x);
                    best_degree = Some(d);
                }
            }
        }
        best.unwrap_or_else(|| {
            *candidates
                .iter()
                .max_by_key(|x| rank[x.index()])
                .expect("candidates are not empty")
        })
    }))
}

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
) -> Option<ProbeSearch> {
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
    [dsatur, dom_wdeg].into_iter().find(|probe| {
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
        engine::solve(&mut model.clone(), &config).best.is_some()
    })
}

/// The number of colours `k ∈ lower..=colours` (`lower`: the clique's size or a better lower
/// bound), with `x[v] <= k` for every vertex.
fn add_colour_count(model: &mut Model, x: &[VarId], lower: usize, colours: i32) -> VarId {
    let q = lower.max(1) as i32;
    let k = model.new_var(q.min(colours), colours);
    for &xv in x {
        model.less_equal_offset(xv, k, 0);
    }
    k
}

/// The search that found a colouring in [`colourable_quickly`]: the main search uses it too,
/// so that it finds that colouring again (the search is deterministic).
#[derive(Clone, Debug)]
struct ProbeSearch {
    var_select: VarSelect,
    restarts: RestartPolicy,
    failures: u64,
}

/// The colouring model with colours `1..=colours`: one variable per vertex (variable `v` is
/// vertex `v`), not-equal on each edge, DSATUR branching on the core left by peeling the
/// vertices of degree below `peel_below` (a number of colours every solution sought may
/// use), then the peeled ones; with `break_symmetry`, the clique fixed to `1..=q` and value
/// precedence.
fn colouring_model(
    g: &Graph,
    clique: &[usize],
    colours: i32,
    break_symmetry: bool,
    peel_below: usize,
) -> Result<(Model, SearchConfig, Vec<VarId>), String> {
    let mut model = Model::new();
    let x = model.new_vars(g.n, 1, colours);
    debug_assert!(x.iter().enumerate().all(|(v, x)| x.index() == v));
    for (u, v) in g.edges() {
        model.not_equal_offset(x[u], x[v], 0);
    }
    let search = SearchConfig {
        branch_vars: Some(x.clone()),
        var_select: dsatur_select(Arc::new(g.adj.clone()), Arc::new(peel(g, peel_below))),
        ..Default::default()
    };
    if break_symmetry {
        // The clique takes colours 1..q (if more than allowed, propagation fails at once).
        for (i, &v) in clique.iter().enumerate().take(colours as usize) {
            model
                .fix(x[v], i as i32 + 1)
                .map_err(|_| "the clique's colours clash".to_string())?;
        }
        model.value_precedence(&x, 1);
    }
    Ok((model, search, x))
}

// ----- the local search's colouring, and a search that follows it -------------------------

/// Moves allowed to the local search per vertex when the run has no time limit (a fraction
/// of a second on the 500-vertex graphs; deterministic).
const LOCAL_SEARCH_MOVES_PER_VERTEX: u64 = 2_000;

/// The share of the time left that the local search may use before the tree search starts
/// (the tree search needs the rest to prove what the clique does not).
const LOCAL_SEARCH_SHARE: f64 = 0.5;

/// Moves per vertex and colour without progress before the local search gives up on a
/// number of colours (e.g. 6.75 million moves, 5 to 20 s, for 15 colours on 450 vertices;
/// a quarter of a million, under a second, for 5 colours on `myciel5`'s 47).
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
    let cliques = clique_cover::greedy_clique_cover(g, q);
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

/// Follow the hint: colour next the uncoloured vertex of the smallest hint colour, as long
/// as that colour is still in its domain and no colouring better than the hint's is sought
/// yet (`colour_count`'s maximum, when minimising); otherwise `fallback` (DSATUR) decides.
/// Smallest value first then rebuilds the hint's colouring without a failure.
fn follow_hint(
    hint: Arc<Vec<u32>>,
    colour_count: Option<VarId>,
    hint_colours: i32,
    fallback: VarSelect,
) -> VarSelect {
    let VarSelect::Custom(fallback) = fallback else {
        return fallback;
    };
    VarSelect::Custom(Arc::new(move |model: &Model, candidates: &[VarId]| {
        let store = &model;
        let seeking_better = colour_count.is_some_and(|k| store.max(k) < hint_colours);
        if !seeking_better {
            let next = candidates
                .iter()
                .filter(|x| x.index() < hint.len())
                .min_by_key(|x| (hint[x.index()], x.index()));
            if let Some(&x) = next {
                if store.contains(x, hint[x.index()] as i32) {
                    return x;
                }
            }
        }
        fallback(model, candidates)
    }))
}

// ----- model, decode, render, check -------------------------------------------------------

impl Colouring {
    /// The model for `options` (see the module documentation).
    pub fn model(&self, options: &ModelOptions) -> Result<Built, String> {
        let g = &self.graph;
        let counting = options.purpose == Purpose::Count;
        let max_degree = g.adj.iter().map(Vec::len).max().unwrap_or(0);
        let max_colours = match (options.colours, counting) {
            (Some(0), _) => return Err("--colours must be at least 1".into()),
            // More colours than the largest degree + 1 never help a colouring...
            (Some(k), false) => Some(k.min(max_degree as u32 + 1) as i32),
            // ... but every one counts.
            (Some(k), true) if k as usize > MAX_COUNT_COLOURS => {
                return Err(format!(
                "counting colourings with more than {MAX_COUNT_COLOURS} colours is not supported"
            ))
            }
            (Some(k), true) => Some(k as i32),
            (None, true) => {
                return Err("counting colourings needs --colours K (the colours 1..K)".into())
            }
            (None, false) => None,
        };
        let clique = if counting {
            Vec::new()
        } else {
            find_clique(g, CLIQUE_BUDGET)
        };
        // Optimisation: colours 1..=H with H from the heuristic colouring, or the clique's
        // size if a short search finds a colouring with that few, or the local search's
        // colouring (then the search follows it first).
        let mut probe = None;
        let mut hint = None;
        let q = clique.len().max(1) as i32;
        let greedy_colouring = if counting {
            Vec::new()
        } else {
            dsatur_colouring(g, &clique)
        };
        let greedy = greedy_colouring.iter().copied().max().unwrap_or(1) as i32;
        if max_colours.is_none() && q < greedy {
            probe = colourable_quickly(g, &clique, q, &options.limits);
        }
        // A lower bound on χ: the clique's size, or one more if the exact cover of colour
        // classes proves that many colours impossible; its colouring is followed if found.
        let mut lower = q;
        if max_colours.is_none() && probe.is_none() && q < greedy {
            match colour_classes_by_exact_cover(g, clique.len(), &options.limits) {
                ClassCover::Colouring(colour) => {
                    let colour = settle(g, &rename_for_clique(&colour, &clique), &clique);
                    hint = Some(Hint { colour, colours: q });
                }
                ClassCover::Impossible => lower = q + 1,
                ClassCover::Unknown => {}
            }
        }
        // The local search aims at the lower bound, or at K with --colours K.
        let target = max_colours.unwrap_or(lower);
        if !counting && probe.is_none() && hint.is_none() && q <= target && target < greedy {
            hint = local_search_hint(g, &clique, &greedy_colouring, target, &options.limits);
        }
        // Peeling is safe below the number of colours every solution sought may use: the
        // clique's size when minimising, K with --colours K; nothing when counting.
        let peel_below = match (counting, max_colours) {
            (true, _) => 0,
            (false, Some(k)) => k as usize,
            (false, None) => clique.len(),
        };
        loop {
            let colours = match (max_colours, &hint) {
                (Some(k), _) => k,
                (None, _) if probe.is_some() => q,
                (None, Some(h)) => h.colours,
                (None, None) => greedy,
            };
            let (mut model, mut search, x) =
                colouring_model(g, &clique, colours, !counting, peel_below)?;
            if let Some(probe) = &probe {
                search.var_select = probe.var_select.clone();
                search.restarts = probe.restarts;
            }
            let mut vars = x.clone();
            let mut colour_count = None;
            if max_colours.is_none() {
                let k = add_colour_count(&mut model, &x, lower as usize, colours);
                search.objective = Some(Objective::minimize(k));
                vars.push(k);
                colour_count = Some(k);
            }
            if let Some(h) = &hint {
                search.var_select = follow_hint(
                    Arc::new(h.colour.clone()),
                    colour_count,
                    h.colours,
                    search.var_select,
                );
                // The search finds the hint's colouring first if it can follow it without
                // failing: sure when the clique uses every colour, checked here otherwise
                // (the value precedence may give a vertex the next colour before its turn).
                let check = SearchConfig {
                    solution_limit: Some(1),
                    limits: engine::Limits {
                        failures: Some(HINT_FAILURES),
                        ..Default::default()
                    },
                    ..search.clone()
                };
                if engine::solve(&mut model.clone(), &check).best.is_none() {
                    // Back to the greedy colouring's colours and DSATUR alone.
                    hint = None;
                    continue;
                }
            }
            return Ok(Built {
                model,
                search,
                vars,
            });
        }
    }

    /// The size of the clique the model uses as its lower bound.
    pub fn clique_bound(&self) -> usize {
        find_clique(&self.graph, CLIQUE_BUDGET).len()
    }

    /// Rules only: one colour from 1 per vertex, no edge inside a colour; with `exactly`,
    /// the colours used are exactly `1..=k`.
    pub fn check_colours(&self, colours: &[i64], exactly: Option<i64>) -> Result<(), String> {
        let g = &self.graph;
        if colours.len() != g.n {
            return Err(format!("expected {} colours, found {}", g.n, colours.len()));
        }
        if let Some(v) = colours.iter().position(|&c| c < 1) {
            return Err(format!(
                "vertex {} has colour {}, not from 1",
                v + 1,
                colours[v]
            ));
        }
        if let Some((u, v)) = g.edges().find(|&(u, v)| colours[u] == colours[v]) {
            return Err(format!(
                "vertices {} and {} are adjacent and both have colour {}",
                u + 1,
                v + 1,
                colours[u]
            ));
        }
        if let Some(k) = exactly {
            let mut used: Vec<i64> = colours.to_vec();
            used.sort_unstable();
            used.dedup();
            if used != (1..=k).collect::<Vec<_>>() {
                return Err(format!("the colours used are not exactly 1..{k}"));
            }
        }
        Ok(())
    }
}

impl Instance for Colouring {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        self.model(options)
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let n = self.graph.n;
        let colours: Vec<i64> = built.vars[..n]
            .iter()
            .map(|&x| solution.value(x) as i64)
            .collect();
        let used = colours.iter().copied().max().unwrap_or(0);
        let mut text = String::new();
        for c in 1..=used {
            let class: Vec<String> = (0..n)
                .filter(|&v| colours[v] == c)
                .map(|v| (v + 1).to_string())
                .collect();
            if !class.is_empty() {
                text.push_str(&format!("colour {c}: {}\n", class.join(" ")));
            }
        }
        let objective = built.search.objective.map(|_| used);
        Answer {
            json: json!(colours).into(),
            text,
            objective,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let colours: Vec<i64> = json
            .as_array()
            .ok_or("solution is not a list")?
            .iter()
            .map(|c| c.as_i64())
            .collect::<Option<_>>()
            .ok_or("a colour is not a whole number")?;
        self.check_colours(&colours, answer.objective)
    }
}
