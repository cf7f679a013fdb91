//! The puzzles beyond the seeds against `puzzles/instances/beyond/expected.json` (computed
//! with OR-Tools CP-SAT and a separate validator, see that folder's README): every instance's
//! count and status, its unique solution where there is one, every solution through the
//! puzzle's checker; and the registry's built-in example of each.

use puzzles::common::all_solutions;
use puzzles::{Instance, ModelOptions, Purpose};
use serde_json::Value;
use std::path::PathBuf;

fn beyond_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances/beyond")
}

fn expected() -> Value {
    let text = std::fs::read_to_string(beyond_dir().join("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn instance(puzzle: &str, entry: &Value) -> Box<dyn Instance> {
    let kind = puzzles::find(puzzle).unwrap_or_else(|| panic!("{puzzle} is not registered"));
    let text = match entry.get("file").and_then(Value::as_str) {
        Some(file) => std::fs::read_to_string(beyond_dir().join(file)).unwrap(),
        None => entry["arg"].as_str().unwrap().to_string(),
    };
    let mut all = (kind.parse)(&text).unwrap_or_else(|e| panic!("{puzzle} {entry}: {e}"));
    assert_eq!(all.len(), 1);
    all.remove(0)
}

/// Count every solution (each checked) and compare with the expected count, status and, if
/// unique, solution.
fn check_puzzle(puzzle: &str) {
    let exp = expected();
    for entry in exp[puzzle].as_array().unwrap() {
        let instance = instance(puzzle, entry);
        let options = ModelOptions {
            purpose: Purpose::Count,
            ..Default::default()
        };
        let (answers, complete) = all_solutions(instance.as_ref(), &options, None)
            .unwrap_or_else(|e| panic!("{puzzle} {}: {e}", entry["file"]));
        assert!(complete);
        assert_eq!(
            answers.len() as u64,
            entry["count"].as_u64().unwrap(),
            "{puzzle} {}",
            entry["file"]
        );
        if entry["status"] == "UNSATISFIABLE" {
            assert!(answers.is_empty());
        }
        if let Some(objective) = entry.get("objective") {
            // Optimisation: the optimum, its value and (if unique) its solution.
            let built = instance.build(&ModelOptions::default()).unwrap();
            let mut model = built.model.clone();
            let outcome = engine::solve(&mut model, &built.search);
            assert!(outcome.complete);
            assert_eq!(
                outcome.objective,
                objective.as_i64(),
                "{puzzle} {}",
                entry["file"]
            );
            let best = instance.answer(&built, outcome.best.as_ref().unwrap());
            instance.check(&best).unwrap();
            assert_eq!(best.objective, objective.as_i64());
            if entry["solution_unique"] == true {
                assert_eq!(best.json, entry["solution"], "{puzzle} {}", entry["file"]);
            }
        } else if entry["solution_unique"] == true {
            assert_eq!(
                answers[0].json, entry["solution"],
                "{puzzle} {}",
                entry["file"]
            );
        }
        if let Some(solution) = entry.get("solution").filter(|s| !s.is_null()) {
            // The expected solution passes the checker too.
            let answer = puzzles::Answer {
                json: solution.clone().into(),
                text: String::new(),
                objective: None,
            };
            instance.check(&answer).unwrap();
        }
    }
}

/// The built-in example solves and its first solution passes the checker.
fn check_builtin(puzzle: &str) {
    let kind = puzzles::find(puzzle).unwrap();
    let mut all = (kind.parse)(kind.seed).unwrap();
    let (answers, _) =
        all_solutions(all.remove(0).as_ref(), &ModelOptions::default(), Some(1)).unwrap();
    assert_eq!(answers.len(), 1, "{puzzle}");
}

#[test]
fn thermometer_matches_expected() {
    check_puzzle("thermometer");
    check_builtin("thermometer");
}

#[test]
fn starbattle_matches_expected() {
    check_puzzle("starbattle");
    check_builtin("starbattle");
}

#[test]
fn binairo_and_takuzu_match_expected() {
    check_puzzle("binairo");
    check_builtin("binairo");
    check_puzzle("takuzu");
    check_builtin("takuzu");
    assert_eq!(puzzles::find("binary-sudoku").unwrap().name, "takuzu");
}

#[test]
fn scramble_matches_expected() {
    check_puzzle("scramble");
    check_builtin("scramble");
}

#[test]
fn nonogram_matches_expected() {
    check_puzzle("nonogram");
    check_builtin("nonogram");
}

#[test]
fn knights_matches_expected() {
    check_puzzle("knights");
    check_builtin("knights");
}

#[test]
fn flow_matches_expected() {
    check_puzzle("flow");
    check_builtin("flow");
}

#[test]
fn numberlink_matches_expected() {
    check_puzzle("numberlink");
    check_builtin("numberlink");
}
