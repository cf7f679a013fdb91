//! Learning from failure (`--learn`, `engine/src/learning/`) measured on the TAAI 2011
//! nonograms: boards FIRST to FIRST + COUNT - 1, each searched with a node limit (and, if
//! given, a time limit) in the configurations named (the first five, if none is):
//!
//! | name | model | search |
//! |---|---|---|
//! | `off` | one `nonogram_line` per line | the puzzle's own (dom/wdeg, geometric restarts), no learning |
//! | `regular` | the same lines | the same, learning |
//! | `states` | the lines' states as variables (`Model::regular_with_states`) | the same, learning |
//! | `branch` | the same, the search branching on the states too (what `cpsolve nonogram --learn` builds) | the same, learning, Luby restarts |
//! | `activity` | as `branch` | learning, activity-based branching (VSIDS), phase saving, Luby restarts |
//!
//! A name may end in `+root` (probing after root propagation, `engine/src/search/probing.rs`)
//! or `+nodes` (probing at every node, `--probe-at nodes`), or `+cells` (at every node, the
//! cells only, dom/wdeg branching), or `+scored` (as `+cells`, the runs taking turns between
//! dom/wdeg and branching on the cell whose tries changed most, `NodeProbing::scored`,
//! `engine/src/search/probe_scores.rs`): `off+scored` is `cpsolve nonogram`, `RESTARTS=never`
//! with `off+cells` its default before, `branch+root` is `cpsolve nonogram --learn --probe-at
//! root` (the default before that, docs/performance/nonograms.md). Probing tries the
//! variables the search branches on that have at most 3 values, as the command does
//! (`+cells`, `+scored`: the cells only).
//! `RESTARTS=never`, `luby:SCALE` or `geometric:BASE:FACTOR`, and `VALUE=max`, in the environment replace
//! the configuration's restarts and value order; `TURNS` chooses `+scored`'s branching
//! (`scored_turns_from_environment`); `IMPLICATIONS=on`, `off` or a depth chooses from which
//! nodes `+cells` and `+scored` keep the implications their tries find
//! (`engine/src/search/probe_implications.rs`; the model's choice otherwise).
//!
//! Prints, for each, the boards solved within the limits, the nodes in all, the nogoods
//! learned and their average size, the CPU seconds of the set and of its slowest solved
//! board (this thread's, from `/proc/thread-self/schedstat`; wall seconds where it cannot be
//! read), and the wall time (the node counts are the load-independent figures; CPU seconds
//! are the next best on a loaded machine). A board found to have no solution stops the run:
//! learning or probing would be unsound.
//!
//! `cargo run --release -p puzzles --example learn_taai -- FIRST COUNT NODES [CONFIGURATIONS] [MS]`
//!
//! `CONFIGURATIONS` is comma-separated; `MS` is the time limit per board in milliseconds of
//! CPU: a watcher thread stops the search once its thread has spent them, so that a loaded
//! machine does not shorten the limit. With `EACH_BOARD=1` in the environment, a line per
//! board as well (its number from 1, solved or open, nodes, CPU seconds). The boards are
//! read from `nonogram/taai/taai2011_question.txt` in the data folder
//! (`engine::testing::data_dir`: `$CPSOLVE_DATA`, else `../shared/data`).
use engine::search::probe_scores::{ScoreBranching, ScoreRule, ScoredValue};
use engine::search::probing::{probe, NodeProbing};
use engine::{Limits, SearchConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const CONFIGURATIONS: [&str; 5] = ["off", "regular", "states", "branch", "activity"];

/// Where a configuration probes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Probing {
    Off,
    Root,
    Nodes,
    /// At every node, the cells only (not the states).
    NodesCells,
    /// At every node, the cells only, branching on the cell whose tries changed most
    /// (`NodeProbing::branch_on_scores`).
    NodesScored,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> usize {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .expect("usage: learn_taai FIRST COUNT NODES [CONFIGURATIONS] [MS]")
    };
    let (first, count, nodes) = (number(0), number(1), number(2));
    let chosen: Vec<&str> = match args.get(3) {
        Some(list) => list.split(',').collect(),
        None => CONFIGURATIONS.to_vec(),
    };
    let each_board = std::env::var_os("EACH_BOARD").is_some();
    let time_limit = args.get(4).map(|_| Duration::from_millis(number(4) as u64));
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
        let (base, probing) = split_name(name);
        let (mut solved, mut searched, mut nogoods, mut atoms) = (0, 0u64, 0u64, 0u64);
        let (mut cpu, mut slowest) = (0.0f64, 0.0f64);
        let started = Instant::now();
        for (i, board) in boards.iter().enumerate() {
            let cpu_before = cpu_seconds();
            let outcome = run_board(board, base, probing, nodes, time_limit);
            let spent = cpu_seconds() - cpu_before;
            cpu += spent;
            searched += outcome.stats.nodes;
            nogoods += outcome.stats.nogoods;
            atoms += outcome.stats.nogood_atoms;
            if outcome.solutions > 0 {
                solved += 1;
                slowest = slowest.max(spent);
            }
            if each_board {
                println!(
                    "{name} board {}: {}, {} nodes, {spent:.2} s CPU",
                    first + 1 + i,
                    if outcome.solutions > 0 {
                        "solved"
                    } else {
                        "open"
                    },
                    outcome.stats.nodes
                );
            }
            assert!(
                outcome.solutions > 0 || !outcome.complete,
                "{name}: a board with a solution was found to have none: learning is unsound"
            );
        }
        println!(
            "{name}: {solved} of {count} solved within {nodes} nodes{}, {searched} nodes, {nogoods} nogoods of {:.1} atoms, {cpu:.1} s CPU (slowest solved {slowest:.2} s), {:.1} s wall",
            time_limit.map_or(String::new(), |t| format!(" and {} ms", t.as_millis())),
            atoms as f64 / nogoods.max(1) as f64,
            started.elapsed().as_secs_f64()
        );
    }
}

/// A configuration's name split into its model-and-search part and its probing.
fn split_name(name: &str) -> (&str, Probing) {
    let (base, probing) = match name.split_once('+') {
        None => (name, Probing::Off),
        Some((base, "root")) => (base, Probing::Root),
        Some((base, "nodes")) => (base, Probing::Nodes),
        Some((base, "cells")) => (base, Probing::NodesCells),
        Some((base, "scored")) => (base, Probing::NodesScored),
        Some(_) => panic!("unknown probing in {name}: +root, +nodes, +cells or +scored"),
    };
    assert!(
        CONFIGURATIONS.contains(&base),
        "unknown configuration {base}"
    );
    (base, probing)
}

/// One board searched in one configuration (a board refuted by root probing comes back as
/// a complete search without solutions).
fn run_board(
    board: &puzzles::nonogram::Nonogram,
    name: &str,
    probing: Probing,
    nodes: usize,
    time_limit: Option<Duration>,
) -> engine::Outcome {
    let mut built = match name {
        "off" | "regular" => board.model(),
        "states" => board.model_with_states(false),
        _ => board.model_with_states(true),
    };
    let mut limits = Limits {
        nodes: Some(nodes as u64),
        ..Limits::default()
    };
    let _watch = time_limit.map(|t| {
        let watch = CpuWatch::start(t);
        limits.stop = Some(watch.stop.clone());
        watch
    });
    let activity = name == "activity";
    let mut config = SearchConfig {
        limits: limits.clone(),
        // The probing of each configuration is its own (below), not the model's.
        node_probing: None,
        learn: name != "off",
        activity,
        restarts: if activity {
            engine::RestartPolicy::Luby { scale: 100 }
        } else {
            built.search.restarts
        },
        ..built.search.clone()
    };
    if let Some(policy) = restarts_from_environment() {
        config.restarts = policy;
    }
    if std::env::var("VALUE").is_ok_and(|v| v == "max") {
        config.val_select = engine::ValSelect::Max;
    }
    let probed = (built.search.branch_vars.clone()).unwrap_or(built.vars.clone());
    match probing {
        Probing::Off => {}
        Probing::Root => {
            let refuted = built.model.propagate().is_err()
                || probe(&mut built.model, &probed, 3, &limits).is_err();
            if refuted && !stopped(&limits) {
                return engine::Outcome {
                    complete: true,
                    ..Default::default()
                };
            }
        }
        Probing::Nodes => {
            config.node_probing = Some(NodeProbing::new(&built.model, &probed, 3));
        }
        Probing::NodesCells => {
            let probing = NodeProbing::new(&built.model, &built.vars, 2);
            config.node_probing = Some(probing.keeping_implications_to_depth(implications(&built)));
        }
        Probing::NodesScored => {
            let probing = NodeProbing::new(&built.model, &built.vars, 2)
                .keeping_implications_to_depth(implications(&built));
            config.node_probing = Some(probing.taking_turns(scored_turns_from_environment()));
        }
    }
    engine::solve(&mut built.model, &config)
}

/// From which nodes node probing keeps the implications its tries find
/// (`NodeProbing::implications`, `engine/src/search/probe_implications.rs`): as the model
/// declares, or from the environment: `IMPLICATIONS=on` (every node), `off`, or a number
/// (the nodes at most that deep; `0`: the root of each run).
fn implications(built: &puzzles::common::Built) -> Option<usize> {
    match std::env::var("IMPLICATIONS").as_deref() {
        Ok("on") => Some(usize::MAX),
        Ok("off") => None,
        Ok(depth) => Some(depth.parse().expect("IMPLICATIONS=on, off or a depth")),
        Err(_) => (built.search.node_probing.as_ref()).and_then(|p| p.implications),
    }
}

/// `+scored`'s branching: `cpsolve nonogram`'s (`puzzles::nonogram::scored_turns`), or
/// `TURNS=A,B,...` from the environment, each turn `dom/wdeg` (the brancher) or
/// `RULE-VALUE` with `RULE` `product` or `min` and `VALUE` `smallest`, `more` or `fewer`
/// (`probe_scores.rs`); run `k` of the search takes turn `k` modulo their number.
fn scored_turns_from_environment() -> Vec<Option<ScoreBranching>> {
    let Ok(text) = std::env::var("TURNS") else {
        return puzzles::nonogram::scored_turns();
    };
    let turn = |name: &str| -> Option<ScoreBranching> {
        if name == "dom/wdeg" {
            return None;
        }
        let (rule, value) = name.split_once('-').expect("TURNS: RULE-VALUE or dom/wdeg");
        let rule = match rule {
            "product" => ScoreRule::Product,
            "min" => ScoreRule::Min,
            other => panic!("TURNS: product or min, not {other}"),
        };
        let value = match value {
            "smallest" => ScoredValue::Smallest,
            "more" => ScoredValue::MoreChanged,
            "fewer" => ScoredValue::FewerChanged,
            other => panic!("TURNS: smallest, more or fewer, not {other}"),
        };
        Some(ScoreBranching { rule, value })
    };
    text.split(',').map(turn).collect()
}

/// `RESTARTS=never`, `RESTARTS=luby:SCALE` or `RESTARTS=geometric:BASE:FACTOR` in the
/// environment: the restarts instead of the configuration's.
fn restarts_from_environment() -> Option<engine::RestartPolicy> {
    let text = std::env::var("RESTARTS").ok()?;
    match text.split_once(':') {
        None if text == "never" => Some(engine::RestartPolicy::Never),
        Some(("luby", scale)) => Some(engine::RestartPolicy::Luby {
            scale: scale.parse().expect("RESTARTS=luby:SCALE"),
        }),
        Some(("geometric", rest)) => {
            let (base, factor) = rest
                .split_once(':')
                .expect("RESTARTS=geometric:BASE:FACTOR");
            Some(engine::RestartPolicy::Geometric {
                base: base.parse().expect("a BASE of failures"),
                factor: factor.parse().expect("a FACTOR"),
            })
        }
        _ => panic!("RESTARTS=never, luby:SCALE or geometric:BASE:FACTOR"),
    }
}

fn stopped(limits: &Limits) -> bool {
    (limits.stop.as_ref()).is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

/// A time limit in CPU seconds of the searching thread, so that a loaded machine does not
/// shorten it: a watcher thread reads this thread's CPU time every 5 ms and raises `stop`
/// (`Limits::stop`) once the budget is spent, or when the watch is dropped.
struct CpuWatch {
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
}

impl CpuWatch {
    fn start(budget: Duration) -> CpuWatch {
        let (stop, done) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        // `/proc/thread-self` names this thread as `PID/task/TID`.
        let me = std::fs::read_link("/proc/thread-self").expect("Linux: /proc/thread-self");
        let schedstat = std::path::Path::new("/proc").join(me).join("schedstat");
        let read = move || -> f64 {
            std::fs::read_to_string(&schedstat)
                .ok()
                .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
                .map_or(f64::MAX, |ns| ns as f64 * 1e-9)
        };
        let limit = read() + budget.as_secs_f64();
        let (raise, finished) = (stop.clone(), done.clone());
        std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) && read() < limit {
                std::thread::sleep(Duration::from_millis(5));
            }
            raise.store(true, Ordering::Relaxed);
        });
        CpuWatch { stop, done }
    }
}

impl Drop for CpuWatch {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}

/// This thread's CPU seconds so far (Linux), else the wall seconds since the first call.
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(start.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}
