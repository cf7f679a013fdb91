//! Probing (`--probe`, `--probe-at`, `engine/src/search/probing.rs`) measured on the TAAI 2011
//! nonograms: boards FIRST to FIRST + COUNT - 1, each searched with the puzzle's own search
//! and a node limit, without probing, with probing after root propagation, and with probing
//! at every node (or only the modes named after the numbers). Prints, for each, the boards
//! solved within the limit, the nodes in all, the values root probing removed, the tries
//! made at nodes (and skipped, and learned from) and the time (the node counts and tries are
//! the load-independent figures).
//!
//! `cargo run --release -p puzzles --example probe_taai -- FIRST COUNT NODES [MODE ...]`
//!
//! A MODE is `off`, `root`, `nodes` or `nodes-all` (at every node, without skipping the
//! variables whose neighbours did not change), with `+learn` to learn as well (`nodes+learn`).
//!
//! With `PROBE_DEPTH=D` in the environment, `nodes` probes only the nodes at most D decisions
//! deep (`NodeProbing::max_depth`).
//!
//! The boards are read from `nonogram/taai/taai2011_question.txt` in the data folder
//! (`engine::testing::data_dir`: `$CPSOLVE_DATA`, else `../shared/data`).

use engine::search::probing::{probe, NodeProbing, ProbeAt};
use engine::{Limits, SearchConfig};
use puzzles::instance::ModelOptions;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<usize> = (args.iter().take(3))
        .map(|a| a.parse().expect("FIRST COUNT NODES: three numbers"))
        .collect();
    let [first, count, nodes] = numbers[..] else {
        panic!("usage: probe_taai FIRST COUNT NODES [off|root|nodes ...]");
    };
    let modes: Vec<String> = match &args[3..] {
        [] => vec!["off".into(), "root".into(), "nodes".into()],
        given => given.to_vec(),
    };
    let path = engine::testing::data_path("nonogram/taai/taai2011_question.txt")
        .expect("the TAAI 2011 boards in the data folder");
    let text = std::fs::read_to_string(path).expect("the TAAI file reads");
    let boards = puzzles::nonogram::taai_boards(&text);
    for name in modes {
        let (place, learn) = match name.strip_suffix("+learn") {
            Some(place) => (place, true),
            None => (name.as_str(), false),
        };
        let skipping = place != "nodes-all";
        let mode: ProbeAt = (place.strip_suffix("-all").unwrap_or(place))
            .parse()
            .expect("off, root, nodes or nodes-all");
        let (mut solved, mut searched, mut removed) = (0, 0u64, 0u64);
        let (mut probes, mut skipped, mut learned) = (0u64, 0u64, 0u64);
        let started = Instant::now();
        for board in boards.iter().skip(first).take(count) {
            let instance = puzzles::nonogram::parse(board).expect("a board").remove(0);
            let mut built = instance.build(&ModelOptions::default()).expect("a model");
            if built.model.propagate().is_err() {
                continue;
            }
            let vars = (built.search.branch_vars.clone()).unwrap_or(built.vars.clone());
            let mut config = SearchConfig {
                limits: Limits {
                    nodes: Some(nodes as u64),
                    ..Limits::default()
                },
                learn,
                ..built.search.clone()
            };
            match mode {
                ProbeAt::Off => {}
                ProbeAt::Root => match probe(&mut built.model, &vars, 3, &Limits::default()) {
                    Ok(stats) => removed += stats.removed,
                    Err(_) => continue,
                },
                ProbeAt::Nodes => {
                    let mut probing = NodeProbing::new(&built.model, &vars, 3);
                    if !skipping {
                        probing = probing.without_skipping();
                    }
                    probing.max_depth = std::env::var("PROBE_DEPTH")
                        .ok()
                        .map(|d| d.parse().unwrap());
                    config.node_probing = Some(probing);
                }
            }
            let outcome = engine::solve(&mut built.model, &config);
            searched += outcome.stats.nodes;
            solved += usize::from(outcome.solutions > 0);
            probes += outcome.stats.probes;
            skipped += outcome.stats.probes_skipped;
            learned += outcome.stats.probes_learned;
        }
        println!(
            "probing {name:11}: {solved} of {count} solved within {nodes} nodes, {searched} nodes, {removed} values removed by root probing, {probes} tries at nodes ({skipped} variables skipped, {learned} learned from), {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
}
