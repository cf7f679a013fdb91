//! `--explain CELL` is checked against the propagators: every reason it prints, re-applied on
//! its own — a fresh store holding only the stated domains (every other variable given any
//! value of the propagator's range), the named propagator alone, run once from scratch —
//! removes the value it claims. And no stated input can be left out (the reason is as short
//! as the propagator allows), and each is implied by what the propagator really read.
//!
//! The trace's per-node summaries (`"removed"` on each node's line) add up to the values the
//! profile says each propagator removed.

mod common;

use cli::args::Options;
use cli::explain::{explain, Step};
use cli::solve::Plan;
use common::cpsolve;
use engine::{Context, Store, VarId};
use serde_json::Value;
use std::collections::HashMap;

/// Explain `cells` of the seed instance of `puzzle` (or of `text`), and check every reason.
/// Returns how many reasons were checked.
fn check_every_reason(puzzle: &str, text: Option<&str>, cells: &[&str]) -> usize {
    let kind = puzzles::find(puzzle).unwrap();
    let instances = (kind.parse)(text.unwrap_or(kind.seed)).unwrap();
    let options = Options::default();
    let plan = Plan {
        kind,
        options: &options,
        threads: 1,
    };
    let mut checked = 0;
    for cell in cells {
        let e = explain(&plan, &*instances[0], cell).unwrap();
        let printed = e.lines();
        for step in &e.steps {
            let Step::Removed(removed) = step else {
                continue;
            };
            let values: Vec<i32> = removed.reasons.iter().map(|r| r.value).collect();
            assert_eq!(
                values, removed.removal.values,
                "{puzzle} {cell}: a removed value without a reason: {removed:?}"
            );
            for reason in &removed.reasons {
                let line = format!("  {}", e.reason_line(reason));
                assert!(printed.contains(&line), "{puzzle}: not printed: {line}");
                assert!(reapplied(&e.model, reason), "{puzzle}: {line}");
                // Each stated domain holds every value the propagator saw: the reason
                // claims nothing the propagator did not know.
                for (x, stated) in &reason.stated {
                    let (_, seen) = removed.removal.inputs.iter().find(|(y, _)| y == x).unwrap();
                    assert!(seen.iter().all(|v| stated.contains(v)), "{line}");
                }
                // None of them can be left out.
                for leave_out in 0..reason.stated.len() {
                    let mut shorter = reason.clone();
                    shorter.stated.remove(leave_out);
                    assert!(
                        !reapplied(&e.model, &shorter),
                        "{puzzle}: {line}: {:?} is not needed",
                        reason.stated[leave_out]
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

/// A fresh store with the reason's domains, its propagator alone, from scratch: is the value
/// removed? (Written out here rather than through `Model::reproduces`, which `--explain` used
/// to choose the reason.)
fn reapplied(model: &engine::Model, reason: &engine::explain::Reason) -> bool {
    let mut store = Store::new();
    for i in 0..model.num_vars() {
        let x = VarId(i as u32);
        let domain = match reason.stated.iter().find(|(y, _)| *y == x) {
            Some((_, d)) => d.clone(),
            None => reason.others.clone(),
        };
        store.new_var(domain);
    }
    assert!(store.contains(reason.var, reason.value));
    let propagator = model.propagator(reason.propagator);
    assert_eq!(propagator.name(), reason.name);
    propagator
        .propagate_from_scratch(&mut Context::new(&mut store))
        .is_ok()
        && !store.contains(reason.var, reason.value)
}

#[test]
fn every_sudoku_reason_removes_its_value_on_its_own() {
    assert!(check_every_reason("sudoku", None, &["r1c1", "r5c5", "r9c2", "x40"]) >= 10);
}

#[test]
fn every_kakuro_reason_removes_its_value_on_its_own() {
    assert!(check_every_reason("kakuro", None, &["0", "3", "7"]) > 0);
}

#[test]
fn every_queens_reason_removes_its_value_on_its_own() {
    // Queens branch: the removals happen below the root, at the search's nodes.
    assert!(check_every_reason("queens", Some("8"), &["c1", "c4", "c8"]) > 0);
}

#[test]
fn every_pigeonhole_reason_removes_its_value_on_its_own() {
    assert!(check_every_reason("pigeonhole", None, &["0", "5", "11"]) > 0);
}

#[test]
fn every_thermometer_and_star_battle_reason_removes_its_value_on_its_own() {
    assert!(check_every_reason("thermometer", None, &["0", "5", "10"]) > 0);
    assert!(check_every_reason("starbattle", None, &["0", "6", "12"]) > 0);
}

#[test]
fn every_flatzinc_reason_removes_its_value_on_its_own() {
    let text = std::fs::read_to_string(FZN).unwrap();
    let options = flatzinc::solve::Options::default();
    let mut checked = 0;
    for cell in ["X_INTRODUCED_3_", "X_INTRODUCED_6_", "12"] {
        let built = flatzinc::load(&text).unwrap();
        let e = cli::explain::explain_flatzinc(built, &options, cell).unwrap();
        for step in &e.steps {
            if let Step::Removed(removed) = step {
                assert_eq!(removed.reasons.len(), removed.removal.values.len());
                for reason in &removed.reasons {
                    assert!(reapplied(&e.model, reason), "{}", e.reason_line(reason));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 0);
    // The command prints them before the model's own output.
    let ran = cpsolve(&[FZN, "--explain", "X_INTRODUCED_3_"], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert!(ran
        .stdout
        .starts_with("% why X_INTRODUCED_3_ lost its values:\n"));
    assert!(ran.stdout.contains("----------"), "{}", ran.stdout);
}

#[test]
fn the_command_prints_reasons_in_the_puzzles_words() {
    let ran = cpsolve(&["sudoku", "--explain", "r1c1"], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(lines[0], "% why r1c1 lost its values:");
    assert!(lines.contains(&"% at the root:"), "{}", ran.stdout);
    assert!(
        lines.iter().any(|l| l.starts_with("%   r1c1 ≠ ")),
        "{}",
        ran.stdout
    );
    // The answer follows, as without the flag.
    let plain = cpsolve(&["sudoku"], b"");
    assert!(ran.stdout.ends_with(&plain.stdout));
}

/// A FlatZinc model that ships in the repository.
const FZN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/minizinc/queens.fzn");

#[test]
fn a_cell_that_does_not_exist_is_one_error_line() {
    for (args, says) in [
        (
            vec!["sudoku", "--explain", "r10c1"],
            "no cell named 'r10c1'",
        ),
        (
            vec!["sudoku", "--explain", "100000"],
            "there is no variable 100000",
        ),
        (
            vec!["sudoku", "--explain", "r1c1", "--json"],
            "cannot be combined with --json",
        ),
        (vec!["sudoku", "--explain"], "--explain"),
        (vec![FZN, "--explain", "q"], "no cell named 'q'"),
    ] {
        let ran = cpsolve(&args, b"");
        assert_eq!(ran.status, 2, "{args:?}: {}", ran.stdout);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(
            ran.stderr.starts_with("error: ") && ran.stderr.contains(says),
            "{}",
            ran.stderr
        );
    }
}

#[test]
fn the_animation_names_what_each_steps_propagation_removed() {
    let page = std::env::temp_dir().join(format!("cpsolve-explain-{}.html", std::process::id()));
    let ran = cpsolve(&["queens", "6", "--animate", page.to_str().unwrap()], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).unwrap();
    // The first decision of queens 6 (c3 = 1) leaves 10 values to the one propagator.
    assert!(
        html.contains("c3 = 1 — propagation removed 10 values: alldiff_value_family 10"),
        "{html}"
    );
}

#[test]
fn the_traces_removal_counts_add_up_to_the_profile() {
    let path = std::env::temp_dir().join(format!("cpsolve-explain-{}.jsonl", std::process::id()));
    let path_text = path.to_str().unwrap();
    for args in [vec!["queens", "8", "-a"], vec!["sudoku"], vec!["kakuro"]] {
        let mut all = args.clone();
        all.extend(["--json", "-s", "--trace", path_text]);
        let ran = cpsolve(&all, b"");
        assert_eq!(ran.status, 0, "{}", ran.stderr);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut traced: HashMap<String, u64> = HashMap::new();
        let mut nodes = 0;
        for line in text.lines() {
            let e: Value = serde_json::from_str(line).unwrap();
            if e["event"] == "root" || e["event"] == "branch" {
                nodes += 1;
                let removed = e["removed"].as_object().unwrap_or_else(|| panic!("{line}"));
                for (name, n) in removed {
                    *traced.entry(name.clone()).or_default() += n.as_u64().unwrap();
                }
            }
        }
        assert!(nodes > 0);
        let answer = ran.json();
        let mut profiled: HashMap<String, u64> = HashMap::new();
        for p in answer["stats"]["propagators"].as_array().unwrap() {
            let removed = p["removed"].as_u64().unwrap();
            if removed > 0 {
                *profiled
                    .entry(p["name"].as_str().unwrap().to_string())
                    .or_default() += removed;
            }
        }
        assert_eq!(traced, profiled, "{args:?}");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn explain_names_the_nogoods_learned_and_the_backjumps() {
    // The seed's pigeonhole puzzle with learning: a failure at node 5 teaches that r4c6 is a
    // knife (a nogood of one atom), and the search jumps back to the root.
    let ran = cpsolve(&["pigeonhole", "--learn", "--explain", "r4c6"], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    let nogood = lines
        .iter()
        .position(|l| {
            l.starts_with("% node 5 fails; learned the nogood: never r4c6 != knife (1 atom")
                && l.contains("about r4c6")
                && l.ends_with("it sends the search back to depth 0")
        })
        .unwrap_or_else(|| panic!("no nogood about r4c6:\n{}", ran.stdout));
    assert!(
        lines[nogood + 1].starts_with(
            "% backjump from node 5 to node 0 (depth 5 to 0): 5 decisions undone without trying their alternatives"
        ),
        "{}",
        ran.stdout
    );
    // Each nogood is followed by its backjump, and the story ends with the cell's value.
    let nogoods = lines
        .iter()
        .filter(|l| l.contains("learned the nogood"))
        .count();
    let jumps = lines
        .iter()
        .filter(|l| l.starts_with("% backjump from"))
        .count();
    assert!(nogoods >= 2 && nogoods == jumps, "{}", ran.stdout);
    assert!(ran.stdout.contains("% r4c6 = knife in the solution"));
    // Without learning, the story has no nogood.
    let plain = cpsolve(&["pigeonhole", "--explain", "r4c6"], b"");
    assert!(!plain.stdout.contains("nogood") && !plain.stdout.contains("backjump"));
}
