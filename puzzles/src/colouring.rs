//! # Graph colouring: the fewest colours so that no edge joins two vertices of one colour
//!
//! The input is the DIMACS `.col` format of the graph-colouring benchmarks: `c` comment
//! lines, `p edge N M`, then `e U V` lines with vertices numbered 1..N.
//!
//! **Model.** One variable per vertex, `x[v] ∈ 1..=H`, its colour, with `x[u] != x[v]` for
//! every edge (the ILP of the seed has a binary `x[v][c]` per vertex and colour, one row per
//! edge and colour, and a `w[c]` per colour to minimise: here a colour is one integer
//! variable, and the propagator removes a neighbour's colour as soon as it is fixed). The
//! number of colours is `k ≥ x[v]` for every `v`, minimised by branch and bound. This file
//! teaches how a CP model *proves* a chromatic number, with classic ideas (Brélaz 1979, "New
//! methods to color the vertices of a graph"; Sewell 1996; San Segundo 2012):
//!
//! 1. **A lower bound from a clique.** The vertices of a clique need distinct colours (an
//!    all-different), so `k ≥ |clique|`; they are fixed to colours `1..=q`, which is that
//!    all-different with its symmetry broken. When a colouring with that many colours is
//!    found, the search is over: this is how most benchmark graphs are proved (χ = ω).
//!    `prepare` may find a better lower bound (Mycielski's construction, `⌈n / α⌉`: see
//!    `colouring/portfolio.rs`); the number of colours then starts from it.
//! 2. **Colours are interchangeable.** A vertex with no used colour left takes the next
//!    unused one (value precedence, `engine::propagators::precedence`), so no colouring is
//!    explored twice under another name.
//! 3. **DSATUR branching.** Colour next the vertex with the fewest colours left (the most
//!    distinct colours among its neighbours — its *saturation*), ties broken by the most
//!    uncoloured neighbours; try its smallest colour first. Vertices with fewer neighbours
//!    than the colours every solution needs are *peeled* and coloured last.
//! 4. **Following a known colouring.** Given one, the search colours class by class, smallest
//!    colour first, which rebuilds it without a failure, and then only has to improve on it
//!    or prove it.
//!
//! The clique, the upper bound `H` and the colouring to follow come from the optional
//! `prepare` step ([`Prepared`], computed by the heuristics of `colouring/portfolio.rs`:
//! MCQ clique search, greedy DSATUR, exact cover of colour classes, TabuCol, evolutionary
//! search; behind the cargo feature `portfolio`, on by default). Without it the model is
//! complete on its own, with `H = Δ + 1` colours.
//!
//! With `--colours K` the model is the satisfaction problem "at most K colours" (same ideas
//! 1, 3, 4). With `--colours K --count` it counts every proper colouring with colours 1..K,
//! so none of the symmetry breaking is used: each renaming of a colouring counts.
//!
//! Run it: `cpsolve colouring`, `cpsolve colouring myciel4.col`,
//! `cpsolve colouring --colours 4 --count`.

#[cfg(feature = "portfolio")]
use crate::common::Hints;
use crate::common::{check_text, Answer, Built, Instance, ModelOptions, ParseError, Purpose};
use crate::instance::{Defaults, Input, PuzzleFlag, PuzzleKind};
use crate::parse::quoted;
use engine::{Model, Objective, RestartPolicy, SearchConfig, Solution, VarId, VarSelect};
use serde_json::json;
use std::sync::Arc;

#[cfg(feature = "portfolio")]
pub mod portfolio;
#[cfg(feature = "portfolio")]
pub use portfolio::{
    class_pool, clique_cover, dsatur_colouring, evolution, exact_cover, find_clique,
    independence_bound, mycielski_bound, set_cover, symmetric_cover, tabucol,
};

pub const KIND: PuzzleKind = PuzzleKind {
    name: "colouring",
    aliases: &[],
    summary: "graph colouring (DIMACS .col): fewest colours, or --colours K [--count]",
    optimisation: true,
    input: Input::File,
    seed: include_str!("../instances/seed/colouring.col"),
    seed_file: Some("instances/seed/colouring.col"),
    parse,
    page: Some("docs/puzzles/colouring.md"),
    // Learning is the default because it proves more of the DIMACS benchmark than the
    // search alone (measured in docs/colouring-results.md, "Learning as the default");
    // `--no-learn` turns it off.
    defaults: Defaults {
        learn: true,
        ..Defaults::STANDARD
    },
    flags: &[PuzzleFlag::Colours],
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
            format!("expected {what}, a whole number, found {}", quoted(token)),
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
                        format!("expected 'p edge N M', found {}", quoted(raw.trim())),
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
                        format!("expected 'e U V', found {}", quoted(raw.trim())),
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
                        "expected a 'c' comment, 'p edge N M' or 'e U V' line, found {}",
                        quoted(raw.trim())
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

/// A search that found a colouring quickly while preparing: the main search uses it too, so
/// that it finds that colouring again (the search is deterministic).
#[derive(Clone, Debug)]
pub struct ProbeSearch {
    pub var_select: VarSelect,
    pub restarts: RestartPolicy,
    /// The failures it needed at most.
    pub failures: u64,
}

/// What the `prepare` step hands the model: bounds, and a search or colouring to follow.
/// The default (nothing prepared) gives the plain model with `Δ + 1` colours.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// A clique: its vertices take colours `1..=q` in its order (empty: none known).
    pub clique: Vec<usize>,
    /// A lower bound on the chromatic number (at least the clique's size).
    pub lower: usize,
    /// The colours of the domains when minimising: a colouring with that many is known.
    pub colours: Option<i32>,
    /// A colouring with colours `1..=colours`, the clique coloured `1..=q` in its order, for
    /// the search to rebuild first.
    pub follow: Option<Vec<u32>>,
    /// The search that found a colouring with `q` colours.
    pub probe: Option<ProbeSearch>,
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
    /// At most how many colours: `--colours K` (capped at Δ + 1, more never help a
    /// colouring; all K count when counting), or `None` to minimise.
    fn max_colours(&self, options: &ModelOptions) -> Result<Option<i32>, String> {
        let counting = options.purpose == Purpose::Count;
        let max_degree = self.graph.adj.iter().map(Vec::len).max().unwrap_or(0);
        Ok(match (options.colours, counting) {
            (Some(0), _) => return Err("--colours must be at least 1".into()),
            (Some(k), false) => Some(k.min(max_degree as u32 + 1) as i32),
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
        })
    }

    /// The model for `options` (see the module documentation), with nothing prepared.
    pub fn model(&self, options: &ModelOptions) -> Result<Built, String> {
        self.model_with(options, &Prepared::default())
    }

    /// The model for `options`, with what `prepare` found.
    pub fn model_with(&self, options: &ModelOptions, prepared: &Prepared) -> Result<Built, String> {
        let g = &self.graph;
        let counting = options.purpose == Purpose::Count;
        let max_colours = self.max_colours(options)?;
        // Counting counts every renaming of a colouring: no clique fixed, no precedence.
        let clique: &[usize] = if counting { &[] } else { &prepared.clique };
        let lower = prepared.lower.max(clique.len()).max(1);
        let max_degree = g.adj.iter().map(Vec::len).max().unwrap_or(0) as i32;
        let colours = max_colours.unwrap_or(prepared.colours.unwrap_or(max_degree + 1));
        // Peeling is safe below the number of colours every solution sought may use: the
        // lower bound when minimising, K with --colours K; nothing when counting.
        let peel_below = match (counting, max_colours) {
            (true, _) => 0,
            (false, Some(k)) => k as usize,
            (false, None) => lower,
        };
        let (mut model, mut search, x) =
            colouring_model(g, clique, colours, !counting, peel_below)?;
        if let (Some(probe), false) = (&prepared.probe, counting) {
            search.var_select = probe.var_select.clone();
            search.restarts = probe.restarts;
        }
        let mut vars = x.clone();
        let mut colour_count = None;
        if max_colours.is_none() {
            let k = add_colour_count(&mut model, &x, lower, colours);
            search.objective = Some(Objective::minimize(k));
            vars.push(k);
            colour_count = Some(k);
        }
        if let (Some(follow), false) = (&prepared.follow, counting) {
            let follow_colours = follow.iter().copied().max().unwrap_or(1) as i32;
            search.var_select = follow_hint(
                Arc::new(follow.clone()),
                colour_count,
                follow_colours,
                search.var_select,
            );
        }
        Ok(Built {
            model,
            search,
            vars,
        })
    }

    /// Run the heuristics of `colouring/portfolio.rs` within `limits`: what the model needs,
    /// and the best colouring they found.
    #[cfg(feature = "portfolio")]
    pub fn prepare_portfolio(
        &self,
        options: &ModelOptions,
        limits: &engine::Limits,
    ) -> Result<portfolio::Found, String> {
        let max_colours = self.max_colours(options)?;
        let model = |prepared: &Prepared| self.model_with(options, prepared);
        Ok(portfolio::prepare(&self.graph, max_colours, limits, &model))
    }

    /// The size of the clique the portfolio finds (its work budget, no time limit).
    #[cfg(feature = "portfolio")]
    pub fn clique_bound(&self) -> usize {
        find_clique(&self.graph, portfolio::CLIQUE_BUDGET).len()
    }

    /// The answer for a colouring (`optimising`: its number of colours is the objective).
    fn answer_for(&self, colours: Vec<i64>, optimising: bool) -> Answer {
        let n = self.graph.n;
        let used = colours.iter().copied().max().unwrap_or(0);
        let mut classes: Vec<Vec<String>> = vec![Vec::new(); used.max(0) as usize + 1];
        for (v, &c) in colours.iter().enumerate().take(n) {
            classes[c as usize].push((v + 1).to_string());
        }
        let mut text = String::new();
        for (c, class) in classes.iter().enumerate().skip(1) {
            if !class.is_empty() {
                text.push_str(&format!("colour {c}: {}\n", class.join(" ")));
            }
        }
        Answer {
            json: json!(colours).into(),
            text,
            objective: optimising.then_some(used),
        }
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

    /// The portfolio's heuristics (without the `portfolio` feature: nothing prepared).
    #[cfg(feature = "portfolio")]
    fn prepare(&self, options: &ModelOptions, limits: &engine::Limits) -> Hints {
        if options.purpose == Purpose::Count {
            return Hints::default();
        }
        let Ok(found) = self.prepare_portfolio(options, limits) else {
            return Hints::default(); // `build` reports the bad option
        };
        let optimising = options.colours.is_none();
        let answer = found
            .best
            .map(|colour| self.answer_for(colour.into_iter().map(i64::from).collect(), optimising));
        Hints {
            // `prepare_portfolio` accepted the options, so the model builds.
            built: self.model_with(options, &found.prepared).ok().map(Box::new),
            answer,
            optimal: found.proved && optimising,
        }
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let n = self.graph.n;
        let colours: Vec<i64> = built.vars[..n]
            .iter()
            .map(|&x| solution.value(x) as i64)
            .collect();
        self.answer_for(colours, built.search.objective.is_some())
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

    /// Vertices "v1".. (from 1) and their colours; a graph small enough to look at
    /// ([`crate::naming::MAX_GRAPH`] vertices) is drawn as one, vertices painted by colour.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let n = self.graph.n;
        let mut naming = engine::search::Naming::numbered(&built.vars[..n], "v");
        if n <= crate::naming::MAX_GRAPH {
            naming.layout.edges = (0..n)
                .flat_map(|u| {
                    self.graph.adj[u]
                        .iter()
                        .filter(move |&&v| u < v)
                        .map(move |&v| (u, v))
                })
                .collect();
            naming.layout.value_colours = crate::naming::palette(n + 1);
        }
        naming
    }
}
