//! # The pool of colour classes alone: TabuCol's classes recombined by a set cover
//!
//! Runs `colouring/class_pool.rs` on one DIMACS graph: the clique and the DSATUR colouring,
//! TabuCol's descent (as in the model), then rounds of pool gathering and covering with
//! `K` colours (default: the clique's size), for a time limit; prints each step's time and
//! whether a colouring with `K` colours was found (checked by the puzzle's checker).
//!
//! ```text
//! cargo run --release -p puzzles --example colouring_class_pool -- NAME [K] [SECONDS] [SEED] [SAMPLE_MOVES_PER_VERTEX] [COVER_STEPS_PER_VERTEX]
//! ```
//!
//! The graph is read from `dimacs-col/NAME.col` of the data folder (`$CPSOLVE_DATA`, else
//! `../shared/data` beside the repository).

use puzzles::colouring::class_pool::{self, Settings};
use puzzles::colouring::tabucol::{self, Budget};
use puzzles::colouring::{dsatur_colouring, find_clique};
use std::time::{Duration, Instant};

mod support;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!(
            "usage: colouring_class_pool NAME [K] [SECONDS] [SEED] [SAMPLE_MOVES_PER_VERTEX] [COVER_STEPS_PER_VERTEX]"
        );
        return;
    };
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let seconds = number(2).unwrap_or(60) as f64;
    let seed = number(3).unwrap_or(1);
    let defaults = Settings::default();
    let settings = Settings {
        sample_moves_per_vertex: number(4).unwrap_or(defaults.sample_moves_per_vertex),
        cover_steps_per_vertex: number(5).unwrap_or(defaults.cover_steps_per_vertex),
        rounds: u64::MAX,
        ..defaults
    };
    let Some(instance) = support::dimacs_graph(name) else {
        return;
    };
    let g = &instance.graph;
    let started = Instant::now();
    let clique = find_clique(g, 30_000_000);
    let k = number(1).map_or(clique.len(), |k| k as usize);
    let greedy = dsatur_colouring(g, &clique);
    let deadline = Some(started + Duration::from_secs_f64(seconds));
    let descent = Budget {
        moves: u64::MAX,
        deadline,
        stop: None,
        patience: Some(50),
    };
    let best = tabucol::fewest_colours(g, &greedy, &clique, k, seed, &descent);
    let colours = |c: &[u32]| c.iter().copied().max().unwrap_or(0);
    println!(
        "{name}: clique {}, DSATUR {} colours, TabuCol {} colours at {:.2} s",
        clique.len(),
        colours(&greedy),
        colours(&best),
        started.elapsed().as_secs_f64()
    );
    let found = if colours(&best) as usize <= k {
        Some(best)
    } else {
        let budget = Budget {
            moves: u64::MAX,
            deadline,
            ..Budget::default()
        };
        class_pool::colour_from_pool(g, &clique, &greedy, &best, k, seed, &budget, &settings)
    };
    let time = started.elapsed().as_secs_f64();
    match found {
        Some(colour) => {
            let colours: Vec<i64> = colour.iter().map(|&c| c as i64).collect();
            match instance.check_colours(&colours, None) {
                Ok(()) => println!(
                    "{k} colours: found, checked, {} colours used, {time:.2} s",
                    colours.iter().max().unwrap_or(&0)
                ),
                Err(e) => println!("{k} colours: INVALID colouring ({e}), {time:.2} s"),
            }
        }
        None => println!("{k} colours: none found in {time:.2} s"),
    }
}
