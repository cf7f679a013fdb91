//! Learning from failure (`--learn`, `engine/src/learning/`) measured on the TAAI 2011
//! nonograms: boards FIRST to FIRST + COUNT - 1, each searched with a node limit in the
//! configurations named (all, if none is):
//!
//! | name | model | search |
//! |---|---|---|
//! | `off` | one `regular` per line | the puzzle's own (dom/wdeg, Luby restarts), no learning |
//! | `regular` | one `regular` per line | the same, learning |
//! | `states` | the lines' states as variables (`Model::regular_with_states`) | the same, learning |
//! | `branch` | the same, the search branching on the states too (what `--learn` builds) | the same, learning |
//! | `activity` | as `branch` | learning, activity-based branching (VSIDS), phase saving, Luby restarts |
//!
//! Prints, for each, the boards solved within the limit, the nodes in all, the nogoods
//! learned and their average size, and the time (the node counts are the load-independent
//! figures). A board found to have no solution stops the run: learning would be unsound.
//!
//! `cargo run --release -p puzzles --example learn_taai -- FIRST COUNT NODES [off,regular,states,branch,activity]`
//!
//! The boards are read from `nonogram/taai/taai2011_question.txt` in the data folder
//! (`engine::testing::data_dir`: `$CPSOLVE_DATA`, else `../shared/data`).
use engine::{Limits, SearchConfig};
use std::time::Instant;

const CONFIGURATIONS: [&str; 5] = ["off", "regular", "states", "branch", "activity"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> usize {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .expect("usage: learn_taai FIRST COUNT NODES [CONFIGURATIONS]")
    };
    let (first, count, nodes) = (number(0), number(1), number(2));
    let chosen: Vec<&str> = match args.get(3) {
        Some(list) => list.split(',').collect(),
        None => CONFIGURATIONS.to_vec(),
    };
    for name in &chosen {
        assert!(
            CONFIGURATIONS.contains(name),
            "unknown configuration {name}"
        );
    }
    let path = engine::testing::data_path("nonogram/taai/taai2011_question.txt")
        .expect("the TAAI 2011 boards in the data folder");
    let text = std::fs::read_to_string(path).expect("the TAAI file reads");
    let boards: Vec<puzzles::nonogram::Nonogram> = puzzles::nonogram::taai_boards(&text)
        .iter()
        .skip(first)
        .take(count)
        .map(|board| puzzles::nonogram::read(board).expect("a board"))
        .collect();
    for name in chosen {
        let (mut solved, mut searched, mut nogoods, mut atoms) = (0, 0u64, 0u64, 0u64);
        let started = Instant::now();
        for board in &boards {
            let mut built = match name {
                "off" | "regular" => board.model(),
                "states" => board.model_with_states(false),
                _ => board.model_with_states(true),
            };
            let activity = name == "activity";
            let config = SearchConfig {
                limits: Limits {
                    nodes: Some(nodes as u64),
                    ..Limits::default()
                },
                learn: name != "off",
                activity,
                restarts: if activity {
                    engine::RestartPolicy::Luby { scale: 100 }
                } else {
                    built.search.restarts
                },
                ..built.search.clone()
            };
            let outcome = engine::solve(&mut built.model, &config);
            searched += outcome.stats.nodes;
            nogoods += outcome.stats.nogoods;
            atoms += outcome.stats.nogood_atoms;
            solved += usize::from(outcome.solutions > 0);
            assert!(
                outcome.solutions > 0 || !outcome.complete,
                "{name}: a board with a solution was found to have none: learning is unsound"
            );
        }
        println!(
            "{name}: {solved} of {count} solved within {nodes} nodes, {searched} nodes, {nogoods} nogoods of {:.1} atoms, {:.1} s",
            atoms as f64 / nogoods.max(1) as f64,
            started.elapsed().as_secs_f64()
        );
    }
}
