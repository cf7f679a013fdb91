//! cpsolve as a MiniZinc solver, against Gecode: the models of `tests/minizinc/` (every
//! builtin family and each global of `mznlib/`) and a few MiniZinc Challenge instances run
//! through `minizinc --solver <cpsolve.msc>` and through Gecode; the status and the optimum
//! must agree, and cpsolve's solution, posted as constraints, must be accepted by Gecode with
//! the same objective (MiniZinc checks it against the model). Skips, saying so, when `minizinc`
//! is not installed (outside CI).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn have_minizinc() -> bool {
    let found = Command::new("minizinc").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "minizinc is not installed, and CI must have it"
        );
        engine::testing::skip("minizinc is not installed");
    }
    found
}

/// A solver configuration for the cpsolve binary under test.
fn cpsolve_msc(dir: &Path) -> PathBuf {
    let msc = dir.join("cpsolve.msc");
    let text = cli::flatzinc::solver_configuration(
        Path::new(env!("CARGO_BIN_EXE_cpsolve")),
        &repo().join("mznlib"),
    );
    std::fs::write(&msc, text).unwrap();
    msc
}

/// Gecode's solver arguments: the corrected configuration of
/// `../shared/tools/minizinc-gecode/install.sh` when installed; else Debian's Gecode with
/// MiniZinc's standard library (`-G std`: decompositions), because Debian's own Gecode
/// library breaks every model that includes globals.mzn.
fn gecode() -> Vec<String> {
    let corrected = std::env::var_os("HOME")
        .map(|h| Path::new(&h).join(".minizinc-gecode/gecode/gecode.msc"))
        .filter(|p| p.exists());
    match corrected {
        Some(p) => vec!["--solver".into(), p.to_string_lossy().into_owned()],
        None => ["--solver", "gecode", "-G", "std"]
            .map(String::from)
            .to_vec(),
    }
}

fn cpsolve(msc: &Path) -> Vec<String> {
    vec!["--solver".into(), msc.to_string_lossy().into_owned()]
}

/// What a run printed: the status, the last solution's dzn lines, its objective.
#[derive(Debug, PartialEq)]
struct Run {
    status: &'static str,
    solutions: usize,
    /// The last solution's text, without the objective line.
    last: String,
    objective: Option<i64>,
}

fn minizinc(solver: &[String], files: &[PathBuf], extra: &[&str]) -> Run {
    let out = Command::new("minizinc")
        .args(solver)
        .args(["--output-mode", "dzn", "--output-objective", "-t", "20000"])
        .args(extra)
        .args(files)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{solver:?} on {files:?}: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut run = Run {
        status: "UNKNOWN",
        solutions: 0,
        last: String::new(),
        objective: None,
    };
    let mut current = String::new();
    for line in text.lines() {
        match line {
            "----------" => {
                run.solutions += 1;
                run.status = "SATISFIED";
                run.last = std::mem::take(&mut current);
            }
            "==========" => run.status = "COMPLETE",
            "=====UNSATISFIABLE=====" => run.status = "UNSATISFIABLE",
            l if l.starts_with("_objective = ") => {
                run.objective = l[13..].trim_end_matches(';').parse().ok();
            }
            l if l.starts_with("%") => {}
            l => {
                current.push_str(l);
                current.push('\n');
            }
        }
    }
    run
}

/// Solve with both, compare, and check cpsolve's solution with Gecode.
fn compare(files: &[PathBuf], extra: &[&str]) {
    // One directory per comparison: the tests run on several threads of one process, and a
    // configuration file rewritten by one while MiniZinc reads it for another is empty.
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "cpsolve-mzn-test-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let msc = cpsolve_msc(&dir);
    let ours = minizinc(&cpsolve(&msc), files, extra);
    let theirs = minizinc(&gecode(), files, extra);
    assert_eq!(ours.status, theirs.status, "status on {files:?}");
    assert_eq!(ours.objective, theirs.objective, "optimum on {files:?}");
    if extra.contains(&"-a") && ours.objective.is_none() {
        assert_eq!(ours.solutions, theirs.solutions, "solutions of {files:?}");
    }
    if ours.solutions > 0 {
        // The solution, posted as constraints: MiniZinc and Gecode must accept it.
        let fixed = dir.join(format!(
            "solution-{}.mzn",
            files[0].file_stem().unwrap().to_string_lossy()
        ));
        std::fs::write(&fixed, cli::flatzinc::solution_as_constraints(&ours.last)).unwrap();
        let mut with_solution = files.to_vec();
        with_solution.push(fixed);
        let check = minizinc(&gecode(), &with_solution, &[]);
        assert_ne!(
            check.solutions, 0,
            "cpsolve's solution of {files:?} is wrong"
        );
        assert_eq!(
            check.objective, ours.objective,
            "objective of cpsolve's solution"
        );
    }
}

fn model(name: &str) -> PathBuf {
    repo().join("tests/minizinc").join(name)
}

#[test]
fn own_models_agree_with_gecode() {
    if !have_minizinc() {
        return;
    }
    for m in [
        "arithmetic.mzn",
        "logic.mzn",
        "globals.mzn",
        "packing.mzn",
        "unsatisfiable.mzn",
        "wide.mzn",
        "scheduling_var.mzn",
        "bounds_of_variables.mzn",
        "sets.mzn",
    ] {
        compare(&[model(m)], &[]);
    }
    compare(&[model("queens.mzn")], &["-a"]);
    compare(&[model("scheduling_var_all.mzn")], &["-a"]);
    compare(&[model("sets_all.mzn")], &["-a"]);
    compare(&[model("set_globals_all.mzn")], &["-a"]);
    compare(&[model("routing_arith.mzn")], &["-a"]);
}

#[test]
fn challenge_instances_agree_with_gecode() {
    if !have_minizinc() {
        return;
    }
    let dir = repo().join("tests/minizinc/challenge");
    for (m, d) in [
        ("still_life2/still_life.mzn", "still_life2/still_life_5.dzn"),
        (
            "search_stress2/search_stress2.mzn",
            "search_stress2/02_07.dzn",
        ),
        ("nmseq/nmseq.mzn", "nmseq/020.dzn"),
        ("areas/areas.mzn", "areas/2_2_1.dzn"),
    ] {
        compare(&[dir.join(m), dir.join(d)], &[]);
    }
}

/// A `seq_search` whose phases choose values differently (largest first, smallest first,
/// split): the first solution is Gecode's, value for value, so each phase's own choice is
/// followed (the first phase's applied to all would give another).
#[test]
fn seq_search_phases_keep_their_value_choices() {
    if !have_minizinc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let msc = cpsolve_msc(&dir);
    let files = [model("seq_search_values.mzn")];
    let ours = minizinc(&cpsolve(&msc), &files, &[]);
    let theirs = minizinc(&gecode(), &files, &[]);
    assert_eq!(ours.last, theirs.last, "first solution");
    assert_eq!(ours.last, "a = [4, 3, 2];\nb = [1, 1, 1];\nc = 0;\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// cpsolve's own flags pass through MiniZinc (the configuration's `extraFlags`), whether the
/// user calls `minizinc --solver cpsolve` or `cpsolve model.mzn`: a budget of 3 nodes
/// stops the optimisation of globals.mzn before its first solution.
#[test]
fn cpsolves_own_flags_pass_through_minizinc() {
    if !have_minizinc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let msc = cpsolve_msc(&dir);
    let stopped = minizinc(&cpsolve(&msc), &[model("globals.mzn")], &["--nodes", "3"]);
    assert_eq!(stopped.status, "UNKNOWN");
    let whole = minizinc(&cpsolve(&msc), &[model("globals.mzn")], &["--profile"]);
    assert_eq!(whole.status, "COMPLETE");
    let out = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .arg(model("globals.mzn"))
        .args(["--nodes", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "=====UNKNOWN=====\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Set variables with the order of sets, natively: every solution cpsolve prints with `-a`
/// through MiniZinc (its output processing reads cpsolve's sets) is counted, and the count
/// equals the one MiniZinc computes itself with its own `<` on constant sets. (Not compared
/// with Gecode: its native `set_le` is another order, docs/minizinc.md "Set variables".)
#[test]
fn the_order_of_sets_counts_as_minizinc_defines_it() {
    if !have_minizinc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-sets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let msc = cpsolve_msc(&dir);
    let ours = minizinc(&cpsolve(&msc), &[model("set_order.mzn")], &["-a"]);
    assert_eq!(ours.status, "COMPLETE");
    let out = Command::new("minizinc")
        .arg(model("set_order_count.mzn"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let expected: usize = text.lines().next().unwrap().trim().parse().unwrap();
    assert!(expected > 0);
    assert_eq!(ours.solutions, expected, "solutions of set_order.mzn");
}
