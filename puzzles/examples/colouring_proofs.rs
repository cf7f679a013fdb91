//! # Which chromatic numbers does cpsolve prove? The DIMACS table
//!
//! Runs the `colouring` model (clique bound, DSATUR bound and branching, value precedence)
//! on every graph of the shared DIMACS set with at most `MAX_V` vertices, each with a time
//! limit, checks every colouring with the puzzle's checker, and prints a Markdown table with
//! the known chromatic number and OR-Tools CP-SAT's result beside it (from the set's file
//! ../shared/data/dimacs-col/cpsat.md). An unproved graph reads `lower..upper`: the lower
//! bound the search starts from (the clique, or a bound of `prepare`) and the best colouring
//! the search found (`-`: none within the time).
//!
//! ```text
//! cargo run --release -p puzzles --example colouring_proofs -- [SECONDS] [MAX_V] [NAME_FILTER] [--learn|--no-learn]
//! ```
//!
//! The search learns from failure (`engine/src/learning/`) as `cpsolve colouring FILE` does
//! by default; `--no-learn` searches without, for the ablation in
//! docs/colouring-results.md (`--learn`, the default, is still accepted).
//!
//! The data set is not in the repository: it is read from `dimacs-col` of the data folder
//! (`$CPSOLVE_DATA`, else `../shared/data` beside the repository).

use engine::{Control, Limits};
use puzzles::colouring::{parse_graph, Colouring};
use puzzles::{Instance, ModelOptions};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

mod support;

/// `instance -> (vertices, chi or "lb..ub")` from `chromatic_numbers.csv`.
fn known(dir: &Path) -> Vec<(String, usize, String)> {
    let text = std::fs::read_to_string(dir.join("chromatic_numbers.csv")).expect("csv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let v: usize = f.get(1)?.parse().ok()?;
            let chi = if f[4].is_empty() {
                format!("{}..{}", f[5], f[6])
            } else {
                f[4].to_string()
            };
            Some((f[0].to_string(), v, chi))
        })
        .collect()
}

/// CP-SAT's best result per instance (../shared/data/dimacs-col/cpsat.md): the fastest
/// proof, or "not proved".
fn cpsat(dir: &Path) -> HashMap<String, String> {
    let text = std::fs::read_to_string(dir.join("cpsat.md")).unwrap_or_default();
    let mut out = HashMap::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("---"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 10 || cells[1] == "instance" {
            continue;
        }
        let mut best: Option<(f64, String)> = None;
        for cell in &cells[6..10] {
            if let Some(rest) = cell.strip_prefix("**opt ") {
                let mut parts = rest.split("** ");
                let k = parts.next().unwrap_or("").to_string();
                let t: f64 = parts
                    .next()
                    .and_then(|t| t.trim_end_matches('s').parse().ok())
                    .unwrap_or(f64::MAX);
                if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                    best = Some((t, format!("opt {k} in {t:.2} s")));
                }
            }
        }
        let summary = best.map_or_else(|| "not proved".to_string(), |(_, s)| s);
        out.insert(cells[1].to_string(), summary);
    }
    out
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let learn = if args.iter().any(|a| a == "--no-learn") {
        false
    } else {
        puzzles::colouring::KIND.defaults.learn || args.iter().any(|a| a == "--learn")
    };
    args.retain(|a| a != "--learn" && a != "--no-learn");
    let seconds: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(60.0);
    let max_v: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let filter = args.get(2).cloned().unwrap_or_default();
    let Some(dir) = support::dimacs_dir() else {
        return;
    };
    let cpsat = cpsat(&dir);
    println!("| instance | V | E | χ (known) | clique | cpsolve | time | nodes | CP-SAT (60 s) |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let (mut proved, mut runs) = (0, 0);
    for (name, vertices, chi) in known(&dir) {
        if vertices > max_v || !name.contains(&filter) {
            continue;
        }
        let path = dir.join(format!("{name}.col"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let started = Instant::now();
        let instance: Colouring = parse_graph(&text).expect("the DIMACS files parse");
        let clique = instance.clique_bound();
        // One deadline for the heuristics (`prepare`) and the tree search.
        let limits = Limits::default().with_time(Duration::from_secs_f64(seconds));
        let options = ModelOptions {
            learn,
            ..ModelOptions::default()
        };
        let mut built = instance.build_prepared(&options, &limits).expect("model");
        // The lower bound the search starts from (the colour count's least value): the
        // clique's size, or more from the bounds of `prepare`.
        let lower = built
            .vars
            .last()
            .map_or(clique as i32, |&k| built.model.min(k));
        built.search.limits = limits;
        built.search.learn = learn;
        let config = built.search.clone();
        let mut model = built.model.clone();
        let mut checked = true;
        let outcome = engine::search(
            &mut model,
            &config,
            &mut engine::search::NoListener,
            &mut |s| {
                let answer = instance.answer(&built, s);
                checked &= instance.check(&answer).is_ok();
                Control::Continue
            },
        );
        let time = started.elapsed().as_secs_f64();
        assert!(checked, "{name}: a colouring failed the checker");
        runs += 1;
        let best = outcome.objective.map_or("-".to_string(), |o| o.to_string());
        let result = if outcome.complete {
            proved += 1;
            let warn = if best != chi { " (≠ known χ!)" } else { "" };
            format!("**opt {best}**{warn}")
        } else {
            format!("{lower}..{best}")
        };
        let time_cell = if outcome.complete {
            format!("{time:.2} s")
        } else {
            format!("> {seconds} s")
        };
        println!(
            "| {name} | {vertices} | {} | {chi} | {clique} | {result} | {time_cell} | {} | {} |",
            instance.graph.num_edges(),
            outcome.stats.nodes,
            cpsat.get(&name).map_or("not run", String::as_str),
        );
    }
    println!();
    let with = if learn { ", learning" } else { "" };
    println!("Proved {proved} of {runs} within {seconds} s each{with}.");
}
