//! # cpsolve against Gecode on MiniZinc instances
//!
//! Runs instances of the MiniZinc benchmark folder (`../shared/data/minizinc`, one folder
//! per family: a model with many data files, or several models) through
//! `minizinc --solver <cpsolve>` and through Gecode with the same time limit, and prints
//! one line per instance and a summary: instances solved (a solution or a proof of
//! unsatisfiability), proved (optimum or unsatisfiability, or every solution), the time
//! ratio on those both proved, and answers that contradict each other (both proved, but
//! different optima or statuses): there must be none.
//!
//! ```text
//! cargo run --release -p benches --bin minizinc_compare -- \
//!     --data ../shared/data/minizinc --count 100 --limit-ms 60000
//! ```
//!
//! Flags: `--cpsolve PATH` (default `target/release/cpsolve`), `--gecode MSC` (default the
//! corrected configuration `~/.minizinc-gecode/gecode/gecode.msc`, else `gecode`),
//! `--count N` instances taken round-robin over the families, `--limit-ms MS`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct Args {
    data: PathBuf,
    cpsolve: PathBuf,
    gecode: String,
    count: usize,
    limit_ms: u64,
}

fn parse_args() -> Args {
    let home = std::env::var("HOME").unwrap_or_default();
    let corrected = Path::new(&home).join(".minizinc-gecode/gecode/gecode.msc");
    let mut a = Args {
        data: PathBuf::from("../shared/data/minizinc"),
        cpsolve: PathBuf::from("target/release/cpsolve"),
        gecode: if corrected.exists() {
            corrected.to_string_lossy().into_owned()
        } else {
            "gecode".to_string()
        },
        count: 10,
        limit_ms: 10_000,
    };
    let words: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < words.len() {
        let value = words.get(i + 1).cloned().unwrap_or_default();
        match words[i].as_str() {
            "--data" => a.data = PathBuf::from(value),
            "--cpsolve" => a.cpsolve = PathBuf::from(value),
            "--gecode" => a.gecode = value,
            "--count" => a.count = value.parse().expect("--count N"),
            "--limit-ms" => a.limit_ms = value.parse().expect("--limit-ms MS"),
            other => panic!("unknown flag {other}"),
        }
        i += 2;
    }
    a
}

/// The instances of one family: (model, optional data).
fn family_instances(dir: &Path) -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut models = Vec::new();
    let mut data = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            match p.extension().and_then(|x| x.to_str()) {
                Some("mzn") => models.push(p),
                Some("dzn") => data.push(p),
                _ => {}
            }
        }
    }
    models.sort();
    data.sort();
    if data.is_empty() || models.len() != 1 {
        models.into_iter().map(|m| (m, None)).collect()
    } else {
        data.into_iter()
            .map(|d| (models[0].clone(), Some(d)))
            .collect()
    }
}

/// Instances taken round-robin over the families, so that a sample covers most of them.
fn instances(root: &Path, count: usize) -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut families: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("the benchmark folder")
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

#[derive(Debug, Default)]
struct Result {
    solved: bool,
    proved: bool,
    unsat: bool,
    objective: Option<i64>,
    seconds: f64,
    error: bool,
}

fn run(solver: &str, limit_ms: u64, model: &Path, data: Option<&Path>) -> Result {
    let started = Instant::now();
    let mut cmd = Command::new("minizinc");
    cmd.arg("--solver")
        .arg(solver)
        .args(["--output-mode", "dzn", "--output-objective", "-t"])
        .arg(limit_ms.to_string())
        .arg(model);
    if let Some(d) = data {
        cmd.arg(d);
    }
    let out = match cmd.output() {
        Ok(o) => o,
        Err(_) => {
            return Result {
                error: true,
                ..Result::default()
            }
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut r = Result {
        seconds: started.elapsed().as_secs_f64(),
        ..Result::default()
    };
    for line in text.lines() {
        match line {
            "----------" => r.solved = true,
            "==========" => r.proved = true,
            "=====UNSATISFIABLE=====" => {
                r.solved = true;
                r.proved = true;
                r.unsat = true;
            }
            "=====ERROR=====" => r.error = true,
            l if l.starts_with("_objective = ") => {
                r.objective = l[13..].trim_end_matches(';').parse().ok()
            }
            _ => {}
        }
    }
    if !out.status.success() {
        r.error = true;
    }
    // A satisfaction problem is settled by its first solution (MiniZinc's solvers print no
    // `==========` after it unless asked for every solution).
    if r.solved && r.objective.is_none() {
        r.proved = true;
    }
    r
}

fn verdict(r: &Result) -> String {
    if r.error {
        "error".into()
    } else if r.unsat {
        "unsat".into()
    } else if r.proved && r.objective.is_none() {
        "sat".into()
    } else if r.proved {
        format!("opt {}", r.objective.map_or("-".into(), |o| o.to_string()))
    } else if r.solved {
        format!("sat {}", r.objective.map_or("-".into(), |o| o.to_string()))
    } else {
        "unknown".into()
    }
}

fn main() {
    let args = parse_args();
    let dir = std::env::temp_dir().join(format!("minizinc-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let msc = dir.join("cpsolve.msc");
    let exe = args
        .cpsolve
        .canonicalize()
        .expect("the cpsolve binary (--cpsolve PATH)");
    let mznlib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mznlib");
    let mznlib = mznlib.canonicalize().expect("mznlib/");
    std::fs::write(&msc, cli::flatzinc::solver_configuration(&exe, &mznlib)).unwrap();
    let msc = msc.to_string_lossy().into_owned();
    let list = instances(&args.data, args.count);
    println!("instance\tcpsolve\ttime_s\tgecode\ttime_s");
    let (mut solved, mut proved, mut errors, mut wrong) = ([0; 2], [0; 2], [0; 2], 0);
    let mut ratios = Vec::new();
    for (model, data) in &list {
        let name = match data {
            Some(d) => format!(
                "{}/{}",
                model
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy(),
                d.file_name().unwrap().to_string_lossy()
            ),
            None => format!(
                "{}/{}",
                model
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy(),
                model.file_name().unwrap().to_string_lossy()
            ),
        };
        let ours = run(&msc, args.limit_ms, model, data.as_deref());
        let theirs = run(&args.gecode, args.limit_ms, model, data.as_deref());
        for (k, r) in [&ours, &theirs].into_iter().enumerate() {
            solved[k] += r.solved as usize;
            proved[k] += r.proved as usize;
            errors[k] += r.error as usize;
        }
        let contradicts = (ours.proved && theirs.proved)
            && (ours.unsat != theirs.unsat || ours.objective != theirs.objective)
            || (ours.unsat && theirs.solved && !theirs.unsat)
            || (theirs.unsat && ours.solved && !ours.unsat);
        wrong += contradicts as usize;
        if ours.proved && theirs.proved {
            ratios.push(ours.seconds / theirs.seconds.max(1e-3));
        }
        println!(
            "{name}\t{}\t{:.2}\t{}\t{:.2}{}",
            verdict(&ours),
            ours.seconds,
            verdict(&theirs),
            theirs.seconds,
            if contradicts { "\tCONTRADICTION" } else { "" }
        );
    }
    let geo = if ratios.is_empty() {
        f64::NAN
    } else {
        (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp()
    };
    println!(
        "\n{} instances, limit {} ms: solved cpsolve {} / Gecode {}; proved cpsolve {} / Gecode {}; errors cpsolve {} / Gecode {}; contradictions {}; time ratio cpsolve/Gecode on the {} both proved (geometric mean, wall clock incl. flattening) {:.2}",
        list.len(),
        args.limit_ms,
        solved[0],
        solved[1],
        proved[0],
        proved[1],
        errors[0],
        errors[1],
        wrong,
        ratios.len(),
        geo
    );
    let _ = std::fs::remove_dir_all(&dir);
}
