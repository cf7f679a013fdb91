//! Probing (`engine/src/search/probing.rs`) measured on FlatZinc models under free search
//! (`-f`'s branching: dom/wdeg with restarts, branch and bound without large neighbourhood
//! search): each FILE searched with a node limit without probing, with probing at the root and
//! at every node. Prints, per file and mode, whether the search finished, the solutions (for
//! an optimisation, improving ones) and the best objective, the nodes and the time.
//!
//! `cargo run --release -p flatzinc --example probe_fzn -- NODES FILE.fzn...`

use engine::search::probing::{probe, NodeProbing, ProbeAt};
use engine::{Control, Limits, VarId};
use std::time::Instant;

/// The cells with at most this many values are probed, as on the command line.
const MAX_SIZE: u32 = 3;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [nodes, files @ ..] = &args[..] else {
        panic!("usage: probe_fzn NODES FILE.fzn...");
    };
    let nodes: u64 = nodes.parse().expect("NODES: a whole number");
    for file in files {
        let text = std::fs::read_to_string(file).expect("a readable file");
        for mode in [ProbeAt::Off, ProbeAt::Root, ProbeAt::Nodes] {
            let mut built = flatzinc::load(&text).expect("a FlatZinc model");
            let options = flatzinc::solve::Options {
                free: true,
                ..Default::default()
            };
            let mut config = flatzinc::solve::config(&built, &options);
            config.limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            if config.objective.is_none() {
                config.solution_limit = Some(1);
            }
            let vars: Vec<VarId> = (config.branch_vars.clone())
                .unwrap_or_else(|| (0..built.model.num_vars() as u32).map(VarId).collect());
            let started = Instant::now();
            let refuted_at_root = match mode {
                ProbeAt::Off => false,
                ProbeAt::Root => {
                    built.model.propagate().is_err()
                        || probe(&mut built.model, &vars, MAX_SIZE, &Limits::default()).is_err()
                }
                ProbeAt::Nodes => {
                    config.node_probing = Some(NodeProbing::new(&built.model, &vars, MAX_SIZE));
                    false
                }
            };
            let outcome = if refuted_at_root {
                engine::Outcome {
                    complete: true,
                    ..Default::default()
                }
            } else {
                engine::search(
                    &mut built.model,
                    &config,
                    &mut engine::search::NoListener,
                    &mut |_| Control::Continue,
                )
            };
            println!(
                "{file} probing {:5}: complete {}, {} solutions, objective {:?}, {} nodes, {:.2} s",
                format!("{mode:?}").to_lowercase(),
                outcome.complete,
                outcome.solutions,
                outcome.objective,
                outcome.stats.nodes,
                started.elapsed().as_secs_f64()
            );
        }
    }
}
