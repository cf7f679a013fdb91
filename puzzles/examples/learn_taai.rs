//! Learning from failure (`--learn`, `engine/src/learning/`) measured on the TAAI 2011
//! nonograms: boards FIRST to FIRST + COUNT - 1, each searched with the puzzle's own search
//! and a node limit, without learning, with learning, and with learning, activity-based
//! branching and Luby restarts. Prints, for each, the boards solved
//! within the limit, the nodes in all, the nogoods learned and the time (the node counts are
//! the load-independent figures).
//!
//! `cargo run --release -p puzzles --example learn_taai -- FIRST COUNT NODES`
//!
//! The boards are read from `nonogram/taai/taai2011_question.txt` in the data folder
//! (`engine::testing::data_dir`: `$CPSOLVE_DATA`, else `../shared/data`).
use engine::{Limits, SearchConfig};
use puzzles::instance::ModelOptions;
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("FIRST COUNT NODES: three numbers"))
        .collect();
    let [first, count, nodes] = args[..] else {
        panic!("usage: learn_taai FIRST COUNT NODES");
    };
    let path = engine::testing::data_path("nonogram/taai/taai2011_question.txt")
        .expect("the TAAI 2011 boards in the data folder");
    let text = std::fs::read_to_string(path).expect("the TAAI file reads");
    // Off; learning with the puzzle's search; learning with activity-based branching and
    // Luby restarts.
    for (learn, activity) in [(false, false), (true, false), (true, true)] {
        let (mut solved, mut searched, mut nogoods) = (0, 0u64, 0u64);
        let started = Instant::now();
        for board in puzzles::nonogram::taai_boards(&text)
            .iter()
            .skip(first)
            .take(count)
        {
            let instance = puzzles::nonogram::parse(board).expect("a board").remove(0);
            let mut built = instance.build(&ModelOptions::default()).expect("a model");
            let config = SearchConfig {
                limits: Limits {
                    nodes: Some(nodes as u64),
                    ..Limits::default()
                },
                learn,
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
            solved += usize::from(outcome.solutions > 0);
        }
        println!(
            "{}: {solved} of {count} solved within {nodes} nodes, {searched} nodes, {nogoods} nogoods, {:.1} s",
            match (learn, activity) {
                (false, _) => "learning off",
                (true, false) => "learning on",
                (true, true) => "learning on, activity, Luby restarts",
            },
            started.elapsed().as_secs_f64()
        );
    }
}
