//! # The colouring local searches alone: TabuCol and the evolutionary search at one k
//!
//! Runs TabuCol (`colouring/tabucol.rs`) or HEAD (`colouring/evolution.rs`) on one DIMACS
//! graph with a fixed number of colours, from the DSATUR colouring, for a time limit, and
//! prints whether it found a proper colouring (checked by the puzzle's checker), the time
//! and the TabuCol moves per second.
//!
//! ```text
//! cargo run --release -p puzzles --example colouring_local_search -- NAME K [tabucol|head] [SECONDS] [SEED] [CHILD_MOVES] [MOVES]
//! ```
//!
//! With MOVES the search is bounded by that many TabuCol moves too (deterministic when the
//! time limit is not reached: for instruction counts under `valgrind --tool=callgrind`).
//!
//! The graph is read from `dimacs-col/NAME.col` of the data folder (`$CPSOLVE_DATA`, else
//! `../shared/data` beside the repository).

use engine::rng::Rng;
use puzzles::colouring::evolution::{self, Settings};
use puzzles::colouring::tabucol::{self, Budget};
use puzzles::colouring::{dsatur_colouring, find_clique};
use std::time::{Duration, Instant};

mod support;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(k)) = (args.first(), args.get(1).and_then(|a| a.parse().ok())) else {
        eprintln!(
            "usage: colouring_local_search NAME K [tabucol|head] [SECONDS] [SEED] [CHILD_MOVES] [MOVES]"
        );
        return;
    };
    let method = args.get(2).map_or("head", String::as_str);
    let seconds: f64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(60.0);
    let seed: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let child_moves: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let max_moves: u64 = args.get(6).and_then(|a| a.parse().ok()).unwrap_or(u64::MAX);
    let Some(instance) = support::dimacs_graph(name) else {
        return;
    };
    let g = &instance.graph;
    let clique = find_clique(g, 30_000_000);
    let greedy = dsatur_colouring(g, &clique);
    let started = Instant::now();
    let budget = Budget {
        moves: max_moves,
        deadline: Some(started + Duration::from_secs_f64(seconds)),
        stop: None,
        patience: None,
    };
    let mut rng = Rng::new(seed);
    let mut moves = 0;
    let found = match method {
        "tabucol" => tabucol::colour_with(g, k, &greedy, &[], &mut rng, &budget, &mut moves),
        _ => {
            let settings = Settings {
                child_moves,
                patience: u64::MAX,
                ..Settings::default()
            };
            evolution::colour_with(g, k, &greedy, &mut rng, &budget, &mut moves, &settings)
        }
    };
    let time = started.elapsed().as_secs_f64();
    let verdict = match &found {
        Some(colour) => {
            let colours: Vec<i64> = colour.iter().map(|&c| c as i64).collect();
            match instance.check_colours(&colours, None) {
                Ok(()) => format!("found a proper {k}-colouring (checked)"),
                Err(e) => format!("IMPROPER colouring: {e}"),
            }
        }
        None => format!("no {k}-colouring"),
    };
    println!(
        "{name} k={k} {method} seed {seed}: {verdict} in {time:.2} s, {moves} moves, {:.0} k moves/s",
        moves as f64 / time / 1000.0
    );
}
