//! # cpsolve against Gecode on MiniZinc instances
//!
//! Runs instances of the MiniZinc benchmark folder (`../shared/data/minizinc`, one folder
//! per family) through `minizinc --solver <cpsolve>` and through Gecode with the same time
//! limit, the two solvers on the same instance at the same time (two processes, each
//! single-threaded, so both see the same load), and writes one JSON line per instance and
//! solver to a results file as soon as the instance is done: a killed run loses nothing, a
//! subset can be rerun, and the table is recomputed from the file.
//!
//! ```text
//! cargo build --release -p cli -p benches
//! target/release/minizinc_compare --data ../shared/data/minizinc \
//!     --cpsolve target/release/cpsolve --count 100 --limit-ms 60000 \
//!     --results target/minizinc-compare/results.jsonl
//! target/release/minizinc_compare --report target/minizinc-compare/results.jsonl
//! ```
//!
//! What an instance is, as the suite lays its folders out:
//! - a family with a `NODATA` marker, or without data files: each model is an instance
//!   (its data is inside);
//! - otherwise every model paired with every data file (`.dzn`, in subfolders too), where
//!   the models are the family's `.mzn` files that have a `.metadata` file when some do
//!   (the suite marks the models its challenges used that way: `roster`, `ship-schedule`
//!   keep one of their two models), else all of them.
//!
//! The instances are taken round-robin over the families in sorted order, each family's
//! list sorted (data file first, then model), so `--count N` covers most families.
//!
//! What is counted, per solver: solved (a solution, or unsatisfiability proved), proved
//! (an optimum, unsatisfiability, or a satisfaction problem's solution), "not supported"
//! (cpsolve refused the model: floats, sets, a domain span too large, a constraint it
//! does not know), errors (anything else). A wrong answer is any of: both proved and the
//! statuses or optima differ; one proved unsatisfiable and the other printed a solution;
//! one proved an optimum and the other printed a better solution; cpsolve's last solution,
//! posted as constraints, rejected by Gecode.
//!
//! Flags: `--cpsolve PATH` (default `target/release/cpsolve`), `--gecode MSC` (default the
//! corrected configuration `~/.minizinc-gecode/gecode/gecode.msc`, else `gecode`),
//! `--count N`, `--limit-ms MS`, `--results FILE` (appended to; default
//! `target/minizinc-compare/results.jsonl`), `--only FAMILY[,FAMILY]`, `--instances
//! NAME[,NAME]` (names as the results file spells them), `--solvers cpsolve|gecode|both`,
//! `--cpsolve-flags "FLAGS"` (passed to cpsolve's run only, e.g. `-f`; recorded as
//! `flags`), `--mznlib DIR` (cpsolve's library, default this repository's `mznlib/`: an
//! older binary runs with its own), `--no-check` (skip the solution check), `--list` (print the chosen instances and stop),
//! `--report FILE` (print the table from a results file and stop; the last line of an
//! instance and solver wins, so a rerun replaces an earlier one).

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct Args {
    data: PathBuf,
    cpsolve: PathBuf,
    gecode: String,
    count: usize,
    limit_ms: u64,
    results: PathBuf,
    only: Vec<String>,
    names: Vec<String>,
    solvers: String,
    /// Extra flags for cpsolve's `minizinc` run only (`--cpsolve-flags "-f"`).
    cpsolve_flags: Vec<String>,
    /// `--mznlib DIR`: cpsolve's library for this run (default: this repository's), so that
    /// an older binary runs with the library it was built with.
    mznlib: Option<PathBuf>,
    check: bool,
    list: bool,
    report: Option<PathBuf>,
}

fn parse_args() -> Args {
    let home = std::env::var("HOME").unwrap_or_default();
    let corrected = Path::new(&home).join(".minizinc-gecode/gecode/gecode.msc");
    let mut a = Args {
        data: engine::testing::data_dir()
            .unwrap_or_else(|| PathBuf::from("../shared/data"))
            .join("minizinc"),
        cpsolve: PathBuf::from("target/release/cpsolve"),
        gecode: if corrected.exists() {
            corrected.to_string_lossy().into_owned()
        } else {
            "gecode".to_string()
        },
        count: 100,
        limit_ms: 60_000,
        results: PathBuf::from("target/minizinc-compare/results.jsonl"),
        only: Vec::new(),
        names: Vec::new(),
        solvers: "both".into(),
        cpsolve_flags: Vec::new(),
        mznlib: None,
        check: true,
        list: false,
        report: None,
    };
    let words: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let split = |v: &str| -> Vec<String> {
        v.split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    while i < words.len() {
        let value = words.get(i + 1).cloned().unwrap_or_default();
        let mut takes_value = true;
        match words[i].as_str() {
            "--data" => a.data = PathBuf::from(value),
            "--cpsolve" => a.cpsolve = PathBuf::from(value),
            "--gecode" => a.gecode = value,
            "--count" => a.count = number(&words[i], &value) as usize,
            "--limit-ms" => a.limit_ms = number(&words[i], &value),
            "--mznlib" => a.mznlib = Some(PathBuf::from(&value)),
            "--results" => a.results = PathBuf::from(value),
            "--only" => a.only.extend(split(&value)),
            "--instances" => a.names.extend(split(&value)),
            "--solvers" => a.solvers = value,
            "--cpsolve-flags" => {
                a.cpsolve_flags = value.split_whitespace().map(String::from).collect()
            }
            "--report" => a.report = Some(PathBuf::from(value)),
            "--no-check" => {
                a.check = false;
                takes_value = false;
            }
            "--list" => {
                a.list = true;
                takes_value = false;
            }
            other => usage(&format!("unknown flag {other}")),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if !["both", "cpsolve", "gecode"].contains(&a.solvers.as_str()) {
        usage("--solvers takes cpsolve, gecode or both");
    }
    a
}

fn number(flag: &str, value: &str) -> u64 {
    value
        .parse()
        .unwrap_or_else(|_| usage(&format!("{flag} takes a number, not '{value}'")))
}

fn usage(what: &str) -> ! {
    eprintln!("error: {what}");
    std::process::exit(2)
}

/// One instance: a model and its data file (none when the data is inside the model).
#[derive(Clone, Debug)]
struct Instance {
    family: String,
    model: PathBuf,
    data: Option<PathBuf>,
    /// `family/model.mzn` or `family/model.mzn+data.dzn` (paths inside the family folder).
    name: String,
}

fn files_with(dir: &Path, ext: &str, recursive: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if recursive {
                files_with(&p, ext, recursive, out);
            }
        } else if p.extension().and_then(|x| x.to_str()) == Some(ext) {
            out.push(p);
        }
    }
}

/// The instances of one family, sorted (see the header for the pairing rule).
fn family_instances(dir: &Path) -> Vec<Instance> {
    let family = dir.file_name().unwrap().to_string_lossy().into_owned();
    let mut models = Vec::new();
    files_with(dir, "mzn", false, &mut models);
    models.sort();
    let mut data = Vec::new();
    if !dir.join("NODATA").exists() {
        files_with(dir, "dzn", true, &mut data);
    }
    data.sort();
    let inside = |p: &Path| p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
    if data.is_empty() {
        return models
            .iter()
            .map(|m| Instance {
                family: family.clone(),
                model: m.clone(),
                data: None,
                name: format!("{family}/{}", inside(m)),
            })
            .collect();
    }
    let marked: Vec<PathBuf> = models
        .iter()
        .filter(|m| m.with_extension("metadata").exists())
        .cloned()
        .collect();
    if models.len() > 1 && !marked.is_empty() {
        models = marked;
    }
    let mut out = Vec::new();
    for d in &data {
        for m in &models {
            out.push(Instance {
                family: family.clone(),
                model: m.clone(),
                data: Some(d.clone()),
                name: format!("{family}/{}+{}", inside(m), inside(d)),
            });
        }
    }
    out
}

/// Instances taken round-robin over the families, so that a sample covers most of them.
fn instances(root: &Path, count: usize) -> Vec<Instance> {
    let mut families: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", root.display())))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    families.sort();
    let lists: Vec<_> = families.iter().map(|f| family_instances(f)).collect();
    let mut out = Vec::new();
    for round in 0.. {
        let mut any = false;
        for list in &lists {
            if let Some(i) = list.get(round) {
                any = true;
                if out.len() < count {
                    out.push(i.clone());
                }
            }
        }
        if !any || out.len() >= count {
            break;
        }
    }
    out
}

/// Whether the model minimises, maximises or satisfies (its `solve` item, comments
/// stripped): needed to say which of two objectives is better.
fn direction(model: &Path) -> &'static str {
    let text = std::fs::read_to_string(model).unwrap_or_default();
    let code: String = text
        .lines()
        .map(|l| l.split('%').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    if words.contains(&"minimize") {
        "min"
    } else if words.contains(&"maximize") {
        "max"
    } else {
        "sat"
    }
}

/// What one run printed.
#[derive(Debug, Default)]
struct Run {
    status: &'static str,
    objective: Option<i64>,
    seconds: f64,
    solutions: usize,
    /// The last solution's dzn lines, without the objective.
    last: String,
    error: String,
}

/// `minizinc --solver SOLVER` on the files, under `timeout` as a guard (MiniZinc's own
/// `-t` should stop it first; the guard's kill is recorded as an error).
fn minizinc(solver: &str, flags: &[String], limit_ms: u64, files: &[PathBuf]) -> Run {
    let started = Instant::now();
    let guard_s = limit_ms / 1000 + 60;
    let out = Command::new("timeout")
        .args([
            "-k",
            "5",
            &format!("{guard_s}s"),
            "minizinc",
            "--solver",
            solver,
        ])
        .args(["--output-mode", "dzn", "--output-objective", "-t"])
        .arg(limit_ms.to_string())
        .args(flags)
        .args(files)
        .output();
    let mut run = Run {
        status: "UNKNOWN",
        ..Run::default()
    };
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            run.status = "ERROR";
            run.error = format!("could not start minizinc: {e}");
            return run;
        }
    };
    run.seconds = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut current = String::new();
    let mut complete = false;
    for line in text.lines() {
        match line {
            "----------" => {
                run.solutions += 1;
                run.last = std::mem::take(&mut current);
            }
            "==========" => complete = true,
            "=====UNSATISFIABLE=====" => run.status = "UNSAT",
            "=====ERROR=====" => run.error = "=====ERROR=====".into(),
            l if l.starts_with("_objective = ") => {
                run.objective = l[13..].trim_end_matches(';').trim().parse().ok();
            }
            l if l.starts_with('%') => {}
            l => {
                current.push_str(l);
                current.push('\n');
            }
        }
    }
    if run.status != "UNSAT" && run.solutions > 0 {
        run.status = if complete {
            "OPTIMAL"
        } else if run.objective.is_none() {
            // A satisfaction problem is settled by its first solution (without `-a`).
            "SAT"
        } else {
            "SATISFIED"
        };
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !run.error.is_empty() {
        let first = stderr
            .lines()
            .find(|l| l.contains("rror"))
            .or_else(|| stderr.lines().find(|l| !l.trim().is_empty()))
            .unwrap_or("");
        // `timeout` exits 124 when its TERM worked; after the KILL (`-k`) it kills itself
        // with the same signal, which shows as no exit code at all.
        let killed = matches!(out.status.code(), Some(124) | Some(137) | None);
        run.error = if killed {
            format!("killed by the guard after {guard_s} s")
        } else {
            format!("exit {:?}: {}", out.status.code(), first.trim())
        };
        // Killed by the guard is no answer in time (flattening or reading the FlatZinc
        // outlasted the limit), not a refusal: it stays UNKNOWN, with the note.
        if run.solutions == 0 && run.status != "UNSAT" && !killed {
            run.status = "ERROR";
        }
    }
    run
}

/// Why cpsolve refused a model, from its error text: "float", "set", "span",
/// "constraint", or None for other errors.
fn not_supported(error: &str) -> Option<&'static str> {
    let e = error.to_lowercase();
    if e.contains("float") {
        Some("float")
    } else if e.contains("set variables") || e.contains("set constraints") {
        Some("set")
    } else if e.contains("too large for this version") {
        Some("span")
    } else if e.contains("unknown constraint") || e.contains("not supported") {
        Some("constraint")
    } else {
        None
    }
}

fn record(inst: &Instance, solver: &str, method: &str, limit_ms: u64, run: &Run) -> Value {
    let status = if run.status == "ERROR" && not_supported(&run.error).is_some() {
        "UNSUPPORTED"
    } else {
        run.status
    };
    json!({
        "instance": inst.name,
        "family": inst.family,
        "solver": solver,
        "method": method,
        "limit_ms": limit_ms,
        "status": status,
        "objective": run.objective,
        "solutions": run.solutions,
        "seconds": (run.seconds * 100.0).round() / 100.0,
        "error": run.error,
        "unsupported": if status == "UNSUPPORTED" { not_supported(&run.error) } else { None },
    })
}

/// cpsolve's last solution posted as constraints: Gecode must find it consistent, with the
/// same objective. "ok", "wrong: ...", or "unchecked: ..." when Gecode could not tell.
/// Constraints rather than data: `cli::flatzinc::solution_as_constraints` says why.
fn check_solution(gecode: &str, inst: &Instance, run: &Run, dir: &Path) -> String {
    let fixed = dir.join("solution.mzn");
    if std::fs::write(&fixed, cli::flatzinc::solution_as_constraints(&run.last)).is_err() {
        return "unchecked: could not write the solution".into();
    }
    let mut files = vec![inst.model.clone()];
    files.extend(inst.data.clone());
    files.push(fixed);
    let check = minizinc(gecode, &[], 20_000, &files);
    let has_set_variables =
        std::fs::read_to_string(&inst.model).is_ok_and(|text| text.contains("var set"));
    match check.status {
        // Gecode orders sets by another rule than MiniZinc's (docs/minizinc.md, "Set
        // variables"): a solution correct under MiniZinc's `<` on sets can be refused.
        "UNSAT" if has_set_variables => {
            "unchecked: Gecode refuses it, but the model has set variables, whose order Gecode reads otherwise".into()
        }
        "UNSAT" => "wrong: Gecode finds the solution inconsistent".into(),
        "ERROR" => format!("unchecked: {}", check.error),
        "UNKNOWN" => "unchecked: Gecode found nothing in 20 s".into(),
        _ if run.objective.is_some()
            && check.status == "OPTIMAL"
            && check.objective != run.objective =>
        {
            format!(
                "wrong: objective {:?} printed, {:?} with the solution fixed",
                run.objective, check.objective
            )
        }
        _ => "ok".into(),
    }
}

fn run_all(args: &Args) {
    let dir = std::env::temp_dir().join(format!("minizinc-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let msc = dir.join("cpsolve.msc");
    let exe = args
        .cpsolve
        .canonicalize()
        .unwrap_or_else(|_| usage("the cpsolve binary (--cpsolve PATH) is missing"));
    let mznlib = (args.mznlib.clone())
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../mznlib"));
    let mznlib = (mznlib.canonicalize())
        .unwrap_or_else(|_| usage(&format!("{}: no such mznlib folder", mznlib.display())));
    std::fs::write(&msc, cli::flatzinc::solver_configuration(&exe, &mznlib)).unwrap();
    let msc = msc.to_string_lossy().into_owned();
    let mut list = instances(&args.data, args.count);
    if !args.only.is_empty() {
        list.retain(|i| args.only.contains(&i.family));
    }
    if !args.names.is_empty() {
        list = args
            .names
            .iter()
            .map(|n| {
                let family = n.split('/').next().unwrap_or("");
                family_instances(&args.data.join(family))
                    .into_iter()
                    .find(|i| &i.name == n)
                    .unwrap_or_else(|| usage(&format!("no instance named {n}")))
            })
            .collect();
    }
    if args.list {
        for i in &list {
            println!("{}", i.name);
        }
        return;
    }
    if let Some(parent) = args.results.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    let mut results = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.results)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", args.results.display())));
    let (ours_on, theirs_on) = (args.solvers != "gecode", args.solvers != "cpsolve");
    for (k, inst) in list.iter().enumerate() {
        let mut files = vec![inst.model.clone()];
        files.extend(inst.data.clone());
        let method = direction(&inst.model);
        // The two solvers at the same time, so that both see the same load.
        let (ours, theirs) = std::thread::scope(|s| {
            let ours = s.spawn(|| {
                ours_on.then(|| minizinc(&msc, &args.cpsolve_flags, args.limit_ms, &files))
            });
            let theirs =
                s.spawn(|| theirs_on.then(|| minizinc(&args.gecode, &[], args.limit_ms, &files)));
            (ours.join().unwrap(), theirs.join().unwrap())
        });
        let mut lines = Vec::new();
        if let Some(r) = &ours {
            let mut rec = record(inst, "cpsolve", method, args.limit_ms, r);
            if !args.cpsolve_flags.is_empty() {
                rec["flags"] = json!(args.cpsolve_flags.join(" "));
            }
            if args.check && r.solutions > 0 {
                rec["check"] = json!(check_solution(&args.gecode, inst, r, &dir));
            }
            lines.push(rec);
        }
        if let Some(r) = &theirs {
            lines.push(record(inst, "gecode", method, args.limit_ms, r));
        }
        for rec in &lines {
            writeln!(results, "{rec}").unwrap();
        }
        results.flush().unwrap();
        let show = |r: &Option<Run>| {
            r.as_ref().map_or("-".to_string(), |r| {
                format!(
                    "{} {} {:.1}s {}",
                    r.status,
                    r.objective.map_or("".into(), |o| o.to_string()),
                    r.seconds,
                    r.error
                )
            })
        };
        println!(
            "[{}/{}] {}\tcpsolve: {}\tgecode: {}",
            k + 1,
            list.len(),
            inst.name,
            show(&ours),
            show(&theirs)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// The report, from the results file alone.

fn solved(r: &Value) -> bool {
    matches!(
        r["status"].as_str(),
        Some("OPTIMAL" | "SAT" | "SATISFIED" | "UNSAT")
    )
}

fn proved(r: &Value) -> bool {
    matches!(r["status"].as_str(), Some("OPTIMAL" | "SAT" | "UNSAT"))
}

/// Whether objective `a` is strictly better than `b` for the method.
fn better(method: &str, a: i64, b: i64) -> bool {
    match method {
        "min" => a < b,
        "max" => a > b,
        _ => false,
    }
}

/// Why the two answers contradict each other, if they do.
fn contradiction(ours: &Value, theirs: &Value) -> Option<String> {
    let (s1, s2) = (ours["status"].as_str()?, theirs["status"].as_str()?);
    let (o1, o2) = (ours["objective"].as_i64(), theirs["objective"].as_i64());
    let method = ours["method"].as_str().unwrap_or("sat");
    let has_solution = |s: &str| matches!(s, "OPTIMAL" | "SAT" | "SATISFIED");
    if s1 == "UNSAT" && has_solution(s2) {
        return Some("cpsolve says unsatisfiable, Gecode found a solution".into());
    }
    if s2 == "UNSAT" && has_solution(s1) {
        return Some("Gecode says unsatisfiable, cpsolve printed a solution".into());
    }
    if let (Some(a), Some(b)) = (o1, o2) {
        if s1 == "OPTIMAL" && better(method, b, a) {
            return Some(format!("cpsolve proved {a}, Gecode found {b}"));
        }
        if s2 == "OPTIMAL" && better(method, a, b) {
            return Some(format!("Gecode proved {b}, cpsolve found {a}"));
        }
        if s1 == "OPTIMAL" && s2 == "OPTIMAL" && a != b {
            return Some(format!("optima differ: cpsolve {a}, Gecode {b}"));
        }
    }
    if let Some(c) = ours["check"].as_str() {
        if c.starts_with("wrong") {
            return Some(format!("solution check: {c}"));
        }
    }
    None
}

#[derive(Default)]
struct Tally {
    instances: usize,
    solved: [usize; 2],
    proved: [usize; 2],
    unsupported: BTreeMap<String, usize>,
    errors: [usize; 2],
    wrong: usize,
}

fn report(path: &Path) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", path.display())));
    // instance -> [cpsolve, gecode]; the last line of each wins.
    let mut by_instance: BTreeMap<String, [Option<Value>; 2]> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let mut v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| usage(&format!("{}:{}: {e}", path.display(), n + 1)));
        // Files written before the runner knew that `timeout`'s KILL leaves no exit code:
        // such an "error" was the guard stopping a run that gave no answer in time.
        if v["status"] == "ERROR"
            && v["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("exit None"))
        {
            v["status"] = json!("UNKNOWN");
            v["error"] = json!("killed by the guard (no exit code)");
        }
        let k = match v["solver"].as_str() {
            Some("cpsolve") => 0,
            Some("gecode") => 1,
            _ => continue,
        };
        let name = v["instance"].as_str().unwrap_or("").to_string();
        by_instance.entry(name).or_default()[k] = Some(v);
    }
    let mut families: BTreeMap<String, Tally> = BTreeMap::new();
    let mut ratios = Vec::new();
    let mut wrong = Vec::new();
    let mut checks: BTreeMap<String, usize> = BTreeMap::new();
    let mut limits = std::collections::BTreeSet::new();
    for (name, pair) in &by_instance {
        let family = name.split('/').next().unwrap_or("").to_string();
        let t = families.entry(family).or_default();
        t.instances += 1;
        for (k, r) in pair.iter().enumerate() {
            let Some(r) = r else { continue };
            limits.insert(r["limit_ms"].as_u64().unwrap_or(0));
            t.solved[k] += solved(r) as usize;
            t.proved[k] += proved(r) as usize;
            match r["status"].as_str() {
                Some("UNSUPPORTED") => {
                    let why = r["unsupported"].as_str().unwrap_or("?").to_string();
                    *t.unsupported.entry(why).or_default() += 1;
                }
                Some("ERROR") => t.errors[k] += 1,
                _ => {}
            }
        }
        if let [Some(ours), Some(theirs)] = pair {
            if let Some(c) = ours["check"].as_str() {
                let kind = c.split(':').next().unwrap_or(c).to_string();
                *checks.entry(kind).or_default() += 1;
            }
            if let Some(why) = contradiction(ours, theirs) {
                t.wrong += 1;
                wrong.push(format!("{name}: {why}"));
            }
            if proved(ours) && proved(theirs) {
                let (a, b) = (
                    ours["seconds"].as_f64().unwrap_or(0.0),
                    theirs["seconds"].as_f64().unwrap_or(0.0),
                );
                ratios.push(a.max(0.01) / b.max(0.01));
            }
        }
    }
    println!(
        "results: {} ({} instances, limits {:?} ms)\n",
        path.display(),
        by_instance.len(),
        limits
    );
    println!("| family | instances | cpsolve solved | cpsolve proved | Gecode solved | Gecode proved | cpsolve not supported | errors (cpsolve / Gecode) | wrong |");
    println!("|---|---:|---:|---:|---:|---:|---|---:|---:|");
    let mut total = Tally::default();
    let unsupported_text = |m: &BTreeMap<String, usize>| {
        m.iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (family, t) in &families {
        println!(
            "| {family} | {} | {} | {} | {} | {} | {} | {} / {} | {} |",
            t.instances,
            t.solved[0],
            t.proved[0],
            t.solved[1],
            t.proved[1],
            unsupported_text(&t.unsupported),
            t.errors[0],
            t.errors[1],
            t.wrong
        );
        total.instances += t.instances;
        for k in 0..2 {
            total.solved[k] += t.solved[k];
            total.proved[k] += t.proved[k];
            total.errors[k] += t.errors[k];
        }
        for (why, n) in &t.unsupported {
            *total.unsupported.entry(why.clone()).or_default() += n;
        }
        total.wrong += t.wrong;
    }
    println!(
        "| **total** ({} families) | {} | {} | {} | {} | {} | {} | {} / {} | {} |",
        families.len(),
        total.instances,
        total.solved[0],
        total.proved[0],
        total.solved[1],
        total.proved[1],
        unsupported_text(&total.unsupported),
        total.errors[0],
        total.errors[1],
        total.wrong
    );
    let geo = if ratios.is_empty() {
        f64::NAN
    } else {
        (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp()
    };
    println!(
        "\ntime ratio cpsolve/Gecode on the {} instances both proved (geometric mean of wall-clock times with flattening, each at least 0.01 s): {geo:.2}",
        ratios.len()
    );
    println!("solution checks of cpsolve's last solution: {checks:?}");
    println!("\nerrors and refusals:");
    for (name, pair) in &by_instance {
        for r in pair.iter().flatten() {
            if matches!(r["status"].as_str(), Some("ERROR" | "UNSUPPORTED")) {
                println!(
                    "- {name} ({}): {}",
                    r["solver"].as_str().unwrap_or(""),
                    r["error"].as_str().unwrap_or("")
                );
            }
        }
    }
    println!("\nwrong answers: {}", wrong.len());
    for w in &wrong {
        println!("- {w}");
    }
}

fn main() {
    let args = parse_args();
    match &args.report {
        Some(path) => report(path),
        None => run_all(&args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("minizinc-compare-test-{}", std::process::id()))
            .join(name);
        for f in files {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        family_instances(dir).into_iter().map(|i| i.name).collect()
    }

    #[test]
    fn a_nodata_family_runs_each_model_alone() {
        let dir = folder(
            "nodata",
            &["NODATA", "b.mzn", "a.mzn", "a.metadata", "x.dzn"],
        );
        assert_eq!(names(&dir), ["nodata/a.mzn", "nodata/b.mzn"]);
    }

    #[test]
    fn marked_models_meet_every_data_file_in_subfolders_too() {
        let dir = folder(
            "pairs",
            &[
                "m1.mzn",
                "m1.metadata",
                "m2.mzn",
                "m2.metadata",
                "old.mzn",
                "d1.dzn",
                "p/d0.dzn",
            ],
        );
        assert_eq!(
            names(&dir),
            [
                "pairs/m1.mzn+d1.dzn",
                "pairs/m2.mzn+d1.dzn",
                "pairs/m1.mzn+p/d0.dzn",
                "pairs/m2.mzn+p/d0.dzn"
            ]
        );
        // Without any marks, every model meets every data file.
        let dir = folder("unmarked", &["m1.mzn", "m2.mzn", "d.dzn"]);
        assert_eq!(
            names(&dir),
            ["unmarked/m1.mzn+d.dzn", "unmarked/m2.mzn+d.dzn"]
        );
    }

    fn answer(status: &str, objective: Option<i64>) -> Value {
        json!({"status": status, "objective": objective, "method": "min"})
    }

    #[test]
    fn contradictions_are_found_and_a_mere_gap_is_not_one() {
        let sat = answer("SATISFIED", Some(10));
        assert!(contradiction(&answer("OPTIMAL", Some(12)), &sat).is_some());
        assert!(contradiction(&answer("OPTIMAL", Some(8)), &sat).is_none());
        assert!(contradiction(&sat, &answer("OPTIMAL", Some(12))).is_some());
        assert!(contradiction(&answer("UNSAT", None), &answer("SAT", None)).is_some());
        assert!(contradiction(&answer("SAT", None), &answer("UNSAT", None)).is_some());
        assert!(contradiction(&answer("OPTIMAL", Some(3)), &answer("OPTIMAL", Some(4))).is_some());
        assert!(contradiction(&answer("UNKNOWN", None), &answer("UNSAT", None)).is_none());
        let mut checked = answer("SATISFIED", Some(10));
        checked["check"] = json!("wrong: Gecode finds the solution inconsistent");
        assert!(contradiction(&checked, &sat).is_some());
    }

    #[test]
    fn refusals_are_classified_by_their_message() {
        let set = "error: m.fzn:4: 'X': set variables are not supported by cpsolve";
        assert_eq!(not_supported(set), Some("set"));
        let span = "error: m.fzn:9: the domain 0..99999999 is too large for this version";
        assert_eq!(not_supported(span), Some("span"));
        assert_eq!(not_supported("exit Some(1): Error: assertion failed"), None);
    }
}
