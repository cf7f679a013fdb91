//! Helpers shared by the colouring test files: random and queen graphs, the graphs kept in
//! the repository, the checker's verdict, and the chromatic number by brute force.

use engine::Control;
use puzzles::colouring::tabucol::Budget;
use puzzles::colouring::{parse_graph, Colouring, Graph};
use puzzles::{Instance, ModelOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A small xorshift for the random graphs (`| 1`: a zero state would stay zero).
pub(crate) fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 1_000_000) as f64 / 1_000_000.0
    }
}

/// `n` vertices, each edge present with probability `density`.
pub(crate) fn random_graph(n: usize, density: f64, rng: &mut impl FnMut() -> f64) -> Graph {
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng() < density {
                edges.push((u, v));
            }
        }
    }
    Graph::from_edges(n, &edges)
}

/// The queen graph of an `n × n` board (cell `r * n + c`): cells attacking each other along
/// a row, a column or a diagonal are adjacent.
pub(crate) fn queen_graph(n: usize) -> Graph {
    let mut edges = Vec::new();
    for a in 0..n * n {
        for b in a + 1..n * n {
            let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
            if ra == rb || ca == cb || ra + cb == rb + ca || ra + ca == rb + cb {
                edges.push((a, b));
            }
        }
    }
    Graph::from_edges(n * n, &edges)
}

pub(crate) fn adjacent(g: &Graph, u: usize, v: usize) -> bool {
    g.adj[u].binary_search(&v).is_ok()
}

/// A DIMACS graph of `puzzles/data/dimacs` (kept in the repository).
pub(crate) fn in_repo(name: &str) -> Graph {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/dimacs")
        .join(name);
    parse_graph(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .graph
}

/// The checker's verdict on a colouring with colours `1..`.
pub(crate) fn check(g: &Graph, colour: &[u32]) -> Result<(), String> {
    let colours: Vec<i64> = colour.iter().map(|&c| c as i64).collect();
    Colouring { graph: g.clone() }.check_colours(&colours, None)
}

/// The number of colours a colouring with colours `1..` uses.
pub(crate) fn used(colour: &[u32]) -> usize {
    colour.iter().copied().max().unwrap_or(0) as usize
}

/// A proper colouring of `g` with colours `0..k`, if any (plain backtracking, vertices in
/// order).
pub(crate) fn brute_force_colouring(g: &Graph, k: usize) -> Option<Vec<usize>> {
    fn rec(g: &Graph, k: usize, v: usize, colour: &mut Vec<usize>) -> bool {
        if v == g.n {
            return true;
        }
        for c in 0..k {
            if g.adj[v].iter().all(|&u| u >= v || colour[u] != c) {
                colour[v] = c;
                if rec(g, k, v + 1, colour) {
                    return true;
                }
            }
        }
        false
    }
    let mut colour = vec![0; g.n];
    rec(g, k, 0, &mut colour).then_some(colour)
}

/// Is `g` colourable with `k` colours?
pub(crate) fn brute_force_colourable(g: &Graph, k: usize) -> bool {
    brute_force_colouring(g, k).is_some()
}

/// The chromatic number by brute force.
pub(crate) fn brute_force_chi(g: &Graph) -> usize {
    (0..=g.n).find(|&k| brute_force_colourable(g, k)).unwrap()
}

/// A local-search budget of `moves` moves, no deadline, no stop flag.
pub(crate) fn moves(moves: u64) -> Budget {
    Budget {
        moves,
        ..Budget::default()
    }
}

/// Three budgets spent before the first move, each in its own way: no move left, the stop
/// flag already raised, the deadline already past (the others unlimited).
pub(crate) fn spent_budgets() -> [Budget; 3] {
    let stopped = Budget {
        moves: u64::MAX,
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..Budget::default()
    };
    let past = Budget {
        moves: u64::MAX,
        deadline: Some(std::time::Instant::now()),
        ..Budget::default()
    };
    [moves(0), stopped, past]
}

/// The optimum of the colouring model, prepared without a time limit (each colouring decoded
/// and checked), and whether it is proved.
pub(crate) fn optimum(instance: &Colouring, options: &ModelOptions) -> (Option<i64>, bool) {
    let built = instance
        .build_prepared(options, &engine::Limits::default())
        .expect("model");
    let mut model = built.model.clone();
    let mut best = None;
    let outcome = engine::search(
        &mut model,
        &built.search,
        &mut engine::search::NoListener,
        &mut |s| {
            let answer = instance.answer(&built, s);
            instance.check(&answer).expect("the checker accepts it");
            best = answer.objective;
            Control::Continue
        },
    );
    (best, outcome.complete)
}

/// The shared DIMACS set (not in the repository), if present; else the skip is recorded.
pub(crate) fn shared_dimacs() -> Option<PathBuf> {
    let csv = engine::testing::data_path("dimacs-col/chromatic_numbers.csv")?;
    csv.parent().map(Path::to_path_buf)
}
