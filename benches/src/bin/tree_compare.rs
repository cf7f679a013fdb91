//! # Search trees against Gecode's, with the model's own search annotation
//!
//! When a model fixes its search completely (every `int_search`/`bool_search` with a
//! deterministic variable and value choice, no restarts, no randomness), two solvers that
//! read the annotation alike explore the same tree *if they propagate alike*: the node
//! counts then measure propagation, not luck. This runs each instance of a results file of
//! `minizinc_compare` (the instances of `../shared/data/minizinc` it chose) whose flattened
//! annotation is fixed and complete, in cpsolve and in Gecode with that annotation, and
//! prints the node counts side by side, with their ratio when both searches ended (a
//! solution of a satisfaction problem, an optimum, or unsatisfiability).
//!
//! ```text
//! cargo build --release -p cli -p benches
//! target/release/tree_compare --from benches/results/minizinc-compare-2026-11-27-final.jsonl \
//!     --data ../shared/data/minizinc --cpsolve target/release/cpsolve --limit-ms 10000
//! ```
//!
//! Gecode counts the nodes it explores, root included; cpsolve counts the decisions it
//! applies (left and right branches): on the same binary tree Gecode's count is cpsolve's
//! plus one. Both stop at the same time limit; a search that did not end prints its count
//! without a ratio. Flags: `--gecode MSC` (default `~/.minizinc-gecode/gecode/gecode.msc`),
//! `--only FAMILY[,FAMILY]`, `--work DIR` (the flattened files, default
//! `target/tree-compare`).
//!
//! `--first` compares the trees **to the first solution** instead: cpsolve with `-n 1`,
//! Gecode with `-n 1` passed to `fzn-gecode` (`--fzn-flags`, which stops its branch and
//! bound too). Most optimisation searches end at no limit a bench can wait for, but both
//! solvers reach their first solution deterministically: where the counts and the first
//! objectives agree, the two searches went down the same path with the same propagation,
//! and a gap shows where they part. The table then has a column for each first objective.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable and value choices whose tree does not depend on history or chance.
const FIXED_VAR_CHOICES: [&str; 8] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "occurrence",
    "most_constrained",
    "max_regret",
];
const FIXED_VAL_CHOICES: [&str; 6] = [
    "indomain_min",
    "indomain_max",
    "indomain_split",
    "indomain_reverse_split",
    "indomain_median",
    "indomain",
];

struct Args {
    from: PathBuf,
    data: PathBuf,
    cpsolve: PathBuf,
    gecode: String,
    limit_ms: u64,
    only: Option<Vec<String>>,
    work: PathBuf,
    first: bool,
}

fn parse_args() -> Args {
    let mut args = Args {
        from: PathBuf::from("benches/results/minizinc-compare-2026-11-27-final.jsonl"),
        data: PathBuf::from("../shared/data/minizinc"),
        cpsolve: PathBuf::from("target/release/cpsolve"),
        gecode: std::env::var("HOME")
            .map(|h| format!("{h}/.minizinc-gecode/gecode/gecode.msc"))
            .unwrap_or_else(|_| "gecode".to_string()),
        limit_ms: 10_000,
        only: None,
        work: PathBuf::from("target/tree-compare"),
        first: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--from" => args.from = PathBuf::from(value()),
            "--data" => args.data = PathBuf::from(value()),
            "--cpsolve" => args.cpsolve = PathBuf::from(value()),
            "--gecode" => args.gecode = value(),
            "--limit-ms" => {
                let v = value();
                args.limit_ms = v
                    .parse()
                    .unwrap_or_else(|_| usage(&format!("--limit-ms: '{v}' is not a number")))
            }
            "--only" => args.only = Some(value().split(',').map(str::to_string).collect()),
            "--work" => args.work = PathBuf::from(value()),
            "--first" => args.first = true,
            _ => usage(&format!("unknown flag '{flag}'")),
        }
    }
    args
}

fn usage(what: &str) -> ! {
    eprintln!("error: {what}");
    eprintln!("usage: tree_compare [--from RESULTS.jsonl] [--data DIR] [--cpsolve PATH] [--gecode MSC] [--limit-ms MS] [--only FAMILY,...] [--work DIR] [--first]");
    std::process::exit(2);
}

/// The instance names of a `minizinc_compare` results file, each once, in order.
fn instance_names(from: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(from)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", from.display())));
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let Some(name) = v["instance"].as_str() {
            if seen.insert(name.to_string()) {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The model and data files of an instance name (`family/model.mzn[+data.dzn]`).
fn files(data: &Path, name: &str) -> Vec<PathBuf> {
    let (model, dzn) = match name.split_once('+') {
        Some((m, d)) => (m, Some(d)),
        None => (name, None),
    };
    let family = model.split('/').next().unwrap_or("");
    let mut out = vec![data.join(model)];
    if let Some(d) = dzn {
        out.push(data.join(family).join(d));
    }
    out
}

/// The solve item of a FlatZinc text.
fn solve_item(fzn: &str) -> Option<&str> {
    let at = fzn.rfind("\nsolve ")?;
    Some(fzn[at + 1..].trim())
}

/// A short description of the solve item's search when it is fixed and complete, else why
/// not.
fn fixed_search(solve: &str) -> Result<String, String> {
    if !solve.contains("int_search") && !solve.contains("bool_search") {
        return Err("no search annotation".to_string());
    }
    let words: Vec<&str> = solve
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut choices = BTreeSet::new();
    for w in &words {
        if w.starts_with("restart_") || *w == "relax_and_reconstruct" {
            return Err(format!("{w}"));
        }
        if ["dom_w_deg", "indomain_random", "random", "warm_start"].contains(w) {
            return Err(format!("{w} (not fixed)"));
        }
        if FIXED_VAR_CHOICES.contains(w) || FIXED_VAL_CHOICES.contains(w) {
            choices.insert(*w);
        }
        if w.ends_with("_search") && !["int_search", "bool_search", "seq_search"].contains(w) {
            return Err(format!("{w}"));
        }
    }
    if words.iter().any(|w| {
        *w != "complete"
            && (w.starts_with("indomain") || w.ends_with("_fail"))
            && !FIXED_VAR_CHOICES.contains(w)
            && !FIXED_VAL_CHOICES.contains(w)
    }) {
        return Err("an unknown choice".to_string());
    }
    Ok(choices.into_iter().collect::<Vec<_>>().join(" "))
}

/// What one solver reported: its node count, and whether its search ended.
struct Tree {
    nodes: Option<u64>,
    ended: bool,
    /// The last objective printed (`_objective = N;` or cpsolve's `objective=N` statistic).
    objective: Option<i64>,
}

fn stat(out: &str, name: &str) -> Option<u64> {
    let key = format!("%%%mzn-stat: {name}=");
    out.lines()
        .filter_map(|l| l.strip_prefix(&key))
        .filter_map(|v| v.trim().parse().ok())
        .next_back()
}

/// The last objective value an output names, if any.
fn objective(out: &str) -> Option<i64> {
    out.lines()
        .filter_map(|l| {
            l.strip_prefix("_objective = ")
                .or_else(|| l.strip_prefix("%%%mzn-stat: objective="))
        })
        .filter_map(|v| v.trim().trim_end_matches(';').parse().ok())
        .next_back()
}

/// Did the output say the search ended (optimum or every solution, unsatisfiable, or the
/// first solution of a satisfaction problem)?
fn ended(out: &str, satisfaction: bool, first: bool) -> bool {
    out.contains("==========")
        || out.contains("=====UNSATISFIABLE=====")
        || ((satisfaction || first) && out.contains("----------"))
}

fn run_cpsolve(args: &Args, fzn: &Path, satisfaction: bool) -> Tree {
    let mut command = Command::new(&args.cpsolve);
    command
        .arg(fzn)
        .args(["-s", "-t", &args.limit_ms.to_string()]);
    if args.first {
        command.args(["-n", "1"]);
    }
    let out = command
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    Tree {
        nodes: stat(&out, "nodes"),
        ended: ended(&out, satisfaction, args.first),
        objective: objective(&out),
    }
}

fn run_gecode(args: &Args, files: &[PathBuf], satisfaction: bool) -> Tree {
    let out = gecode_output(args, files, false);
    // Asking MiniZinc for the objective makes it an output variable, and Gecode's default
    // completion branches on output variables first: the tree is counted without it, and
    // the objective read in a second run.
    let objective = match args.first && !satisfaction {
        true => objective(&gecode_output(args, files, true)),
        false => None,
    };
    Tree {
        nodes: stat(&out, "nodes"),
        ended: ended(&out, satisfaction, args.first),
        objective,
    }
}

fn gecode_output(args: &Args, files: &[PathBuf], with_objective: bool) -> String {
    let mut command = Command::new("minizinc");
    command.args([
        "--solver",
        &args.gecode,
        "-s",
        "-t",
        &args.limit_ms.to_string(),
    ]);
    if with_objective {
        command.args(["--output-mode", "dzn", "--output-objective"]);
    }
    if args.first {
        command.args(["--fzn-flags", "-n 1"]);
    }
    command
        .args(files)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

fn show(t: &Tree) -> String {
    match (t.nodes, t.ended) {
        (Some(n), true) => n.to_string(),
        (Some(n), false) => format!("{n} (limit)"),
        (None, _) => "–".to_string(),
    }
}

fn main() {
    let args = parse_args();
    std::fs::create_dir_all(&args.work)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", args.work.display())));
    let msc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cpsolve.msc");
    if args.first {
        println!("| instance | search | cpsolve nodes | Gecode nodes | cpsolve / Gecode | cpsolve objective | Gecode objective |");
        println!("|---|---|---:|---:|---:|---:|---:|");
    } else {
        println!("| instance | search | cpsolve nodes | Gecode nodes | cpsolve / Gecode |");
        println!("|---|---|---:|---:|---:|");
    }
    for name in instance_names(&args.from) {
        let family = name.split('/').next().unwrap_or("").to_string();
        if args.only.as_ref().is_some_and(|o| !o.contains(&family)) {
            continue;
        }
        let files = files(&args.data, &name);
        let fzn = args
            .work
            .join(format!("{}.fzn", name.replace(['/', '+'], "_")));
        let compiled = Command::new("minizinc")
            .arg("--solver")
            .arg(&msc)
            .arg("-c")
            .args(&files)
            .arg("--fzn")
            .arg(&fzn)
            .arg("--ozn")
            .arg(fzn.with_extension("ozn"))
            .output();
        let text = match compiled {
            Ok(o) if o.status.success() => std::fs::read_to_string(&fzn).unwrap_or_default(),
            _ => {
                eprintln!("{name}: not flattened for cpsolve");
                continue;
            }
        };
        let Some(solve) = solve_item(&text) else {
            continue;
        };
        let search = match fixed_search(solve) {
            Ok(s) => s,
            Err(why) => {
                eprintln!("{name}: skipped ({why})");
                continue;
            }
        };
        let satisfaction = solve.contains("satisfy");
        let ours = run_cpsolve(&args, &fzn, satisfaction);
        let theirs = run_gecode(&args, &files, satisfaction);
        let ratio = match (ours.nodes, theirs.nodes, ours.ended && theirs.ended) {
            (Some(a), Some(b), true) => format!("{:.2}", a as f64 / (b.max(1)) as f64),
            _ => String::new(),
        };
        let mut row = format!(
            "| {name} | {search} | {} | {} | {ratio} |",
            show(&ours),
            show(&theirs)
        );
        if args.first {
            let shown = |o: Option<i64>| o.map(|v| v.to_string()).unwrap_or_default();
            row += &format!(" {} | {} |", shown(ours.objective), shown(theirs.objective));
        }
        println!("{row}");
    }
}
