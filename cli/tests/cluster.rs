//! `cpsolve split`, `solve-part`, `merge` (issue 24): split → solve every part → merge gives
//! the answer of the ordinary run, and nothing is lost or counted twice when a part runs
//! twice, is missing, or leaves a truncated or foreign line.

mod common;

use common::{cpsolve, scratch, Ran};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Split `puzzle_args` into about `parts` parts; the parts file's path.
fn split(name: &str, puzzle_args: &[&str], parts: usize) -> (PathBuf, usize) {
    let parts_flag = parts.to_string();
    let mut args = vec!["split"];
    args.extend_from_slice(puzzle_args);
    args.extend_from_slice(&["--parts", &parts_flag]);
    let ran = cpsolve(&args, b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let lines = ran.json_lines();
    let total = lines[0]["parts"].as_u64().unwrap() as usize;
    assert_eq!(lines.len(), total + 1, "a header and one line per part");
    assert!(total <= parts.max(1));
    let path = scratch(&format!("{name}.parts.jsonl"));
    std::fs::write(&path, &ran.stdout).unwrap();
    (path, total)
}

fn solve_part(parts: &Path, index: usize, results: &Path, extra: &[&str]) -> Ran {
    let index = index.to_string();
    let mut args = vec![
        "solve-part",
        parts.to_str().unwrap(),
        "--index",
        &index,
        "-o",
        results.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let ran = cpsolve(&args, b"");
    assert_eq!(ran.status, 0, "part {index}: {}", ran.stderr);
    ran
}

fn merge(parts: &Path, results: &Path) -> (Value, String) {
    let ran = cpsolve(
        &["merge", parts.to_str().unwrap(), results.to_str().unwrap()],
        b"",
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    (ran.json(), ran.stderr)
}

fn fresh_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The ordinary run's JSON line.
fn direct(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--json", "-p", "1"]);
    let ran = cpsolve(&all, b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    ran.json()
}

/// Split, solve every part, merge.
fn split_solve_merge(name: &str, args: &[&str], parts: usize) -> Value {
    let (path, total) = split(name, args, parts);
    let results = fresh_folder(&format!("{name}.results"));
    for i in 0..total {
        solve_part(&path, i, &results, &[]);
    }
    let (merged, stderr) = merge(&path, &results);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(merged["parts_done"], total);
    merged
}

#[test]
fn counts_agree_with_the_sequential_count() {
    let cases: &[(&str, &[&str], &[usize])] = &[
        ("queens10", &["queens", "10", "--count"], &[1, 7, 40]),
        ("queens11", &["queens", "11", "--count"], &[30]),
        ("queens12", &["queens", "12", "--count"], &[32]),
        ("monodot", &["monodot", "--count"], &[5, 50]),
        ("pigeonhole", &["pigeonhole", "--count"], &[8]),
        (
            "colouring",
            &["colouring", "--colours", "4", "--count"],
            &[3, 60],
        ),
    ];
    for (name, args, sizes) in cases {
        let expected = direct(args);
        for &n in *sizes {
            let merged = split_solve_merge(&format!("{name}-{n}"), args, n);
            assert_eq!(merged["count"], expected["count"], "{name} in {n} parts");
            assert_eq!(merged["status"], expected["status"], "{name} in {n} parts");
        }
    }
}

#[test]
fn optima_agree_with_the_sequential_optimum() {
    for (name, args) in [
        ("slider", &["slider"][..]),
        ("match22", &["match22"]),
        ("colouring-opt", &["colouring"]),
    ] {
        let expected = direct(args);
        assert_eq!(expected["status"], "OPTIMAL");
        for n in [4, 30] {
            let merged = split_solve_merge(&format!("{name}-{n}"), args, n);
            assert_eq!(merged["status"], "OPTIMAL", "{name} in {n} parts");
            assert_eq!(merged["objective"], expected["objective"], "{name}");
            let kind = puzzles::find(args[0]).unwrap();
            common::check_answer(
                kind,
                kind.seed,
                &merged["solution"],
                merged["objective"].as_i64(),
            )
            .unwrap();
        }
    }
}

#[test]
fn a_satisfaction_problem_finds_a_checked_solution() {
    let merged = split_solve_merge("monodot-sat", &["monodot"], 10);
    assert_eq!(merged["status"], "SATISFIED");
    let kind = puzzles::find("monodot").unwrap();
    common::check_solution(kind, kind.seed, &merged["solution"]).unwrap();
}

#[test]
fn a_shared_bound_file_prunes_later_parts_and_the_optimum_stays_proved() {
    let (path, total) = split("colouring-bound", &["colouring"], 20);
    let results = fresh_folder("colouring-bound.results");
    let bound = scratch("colouring.bound");
    let _ = std::fs::remove_file(&bound);
    for i in 0..total {
        solve_part(
            &path,
            i,
            &results,
            &["--bound-file", bound.to_str().unwrap()],
        );
    }
    // The best value, with the split's digest.
    let written = std::fs::read_to_string(&bound).unwrap();
    assert_eq!(written.split_whitespace().next(), Some("4"), "{written}");
    let (merged, _) = merge(&path, &results);
    assert_eq!(merged["status"], "OPTIMAL");
    assert_eq!(merged["objective"], 4);
}

#[test]
fn a_bound_whose_solution_was_lost_is_no_proof() {
    // A bound file that says 4 while no result holds a colouring with 4 colours (its worker
    // died): every part finds nothing better than 4, so nothing proves 4 is reachable.
    let (path, total) = split("colouring-lost", &["colouring"], 6);
    let results = fresh_folder("colouring-lost.results");
    let bound = scratch("colouring-lost.bound");
    std::fs::write(&bound, "4\n").unwrap();
    for i in 0..total {
        solve_part(
            &path,
            i,
            &results,
            &["--bound-file", bound.to_str().unwrap()],
        );
    }
    let (merged, stderr) = merge(&path, &results);
    assert_ne!(merged["status"], "OPTIMAL", "{merged}");
    assert_ne!(merged["status"], "UNSATISFIABLE", "{merged}");
    let _ = stderr;
}

/// `merge` that must refuse: exit 2, one `error:` line that contains `says`.
fn refused(parts: &Path, results: &Path, says: &str) {
    let ran = cpsolve(
        &["merge", parts.to_str().unwrap(), results.to_str().unwrap()],
        b"",
    );
    assert_eq!(ran.status, 2, "{}", ran.stdout);
    assert!(ran.stdout.is_empty(), "{}", ran.stdout);
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    assert!(ran.stderr.contains(says), "{says}: {}", ran.stderr);
}

#[test]
fn missing_duplicated_cut_and_foreign_results_are_refused_by_name() {
    let args = ["queens", "10", "--count"];
    let expected = direct(&args)["count"].clone();
    let (path, total) = split("faults", &args, 12);
    assert!(total >= 4);
    let results = fresh_folder("faults.results");
    // Part 1 is never run.
    for i in (0..total).filter(|&i| i != 1) {
        solve_part(&path, i, &results, &[]);
    }
    refused(&path, &results, "(part 1)");
    refused(&path, &results, "for i in 1; do cpsolve solve-part");
    solve_part(&path, 1, &results, &[]);
    let (merged, _) = merge(&path, &results);
    assert_eq!(merged["count"], expected);

    // Part 2 run again in place replaces its result; into another file, it is a duplicate.
    solve_part(&path, 2, &results, &[]);
    assert_eq!(std::fs::read_dir(&results).unwrap().count(), total);
    let two = results.join("part-000002.json");
    let line = std::fs::read_to_string(&two).unwrap();
    std::fs::write(results.join("copy.json"), &line).unwrap();
    refused(&path, &results, "part 2 has two results");
    std::fs::remove_file(results.join("copy.json")).unwrap();

    // A cut line (copied without its end), and a result of another instance.
    std::fs::write(&two, &line[..line.len() / 2]).unwrap();
    refused(
        &path,
        &results,
        "part-000002.json:1: not a whole result line",
    );
    let foreign = line.replace("\"digest\":\"fnv1a64:", "\"digest\":\"fnv1a64:00");
    std::fs::write(&two, foreign).unwrap();
    refused(&path, &results, "a result of another split");

    // The rerun completes it.
    solve_part(&path, 2, &results, &[]);
    let (merged, stderr) = merge(&path, &results);
    assert_eq!(merged["status"], "ALL_SOLUTIONS");
    assert_eq!(merged["count"], expected);
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_result_whose_count_disagrees_with_its_status_is_refused() {
    let (path, total) = split("disagree", &["queens", "8", "--count"], 5);
    let results = fresh_folder("disagree.results");
    for i in 0..total {
        solve_part(&path, i, &results, &[]);
    }
    let file = results.join("part-000000.json");
    let line = std::fs::read_to_string(&file).unwrap();
    let mut v: Value = serde_json::from_str(&line).unwrap();
    v["count"] = (v["count"].as_u64().unwrap() + 1).into();
    std::fs::write(&file, format!("{v}\n")).unwrap();
    refused(&path, &results, "an impossible result");
}

#[test]
fn solve_part_refuses_a_changed_instance() {
    let file = scratch("changed.txt");
    let seed = common::seed_dir().join("monodot.txt");
    let text = std::fs::read_to_string(&seed).unwrap_or_default();
    if text.is_empty() {
        engine::testing::skip(&format!("no monodot seed file at {}", seed.display()));
        return;
    }
    std::fs::write(&file, &text).unwrap();
    let (path, _) = split("changed", &["monodot", file.to_str().unwrap()], 4);
    // A comment changes nothing in the puzzle, but the bytes are no longer those split.
    std::fs::write(&file, format!("{text}% edited\n")).unwrap();
    let ran = cpsolve(&["solve-part", path.to_str().unwrap(), "--index", "0"], b"");
    assert_eq!(ran.status, 2, "{}", ran.stdout);
    assert!(
        ran.stderr.contains("not the one that was split"),
        "{}",
        ran.stderr
    );
}

#[test]
fn one_part_line_on_standard_input_is_enough() {
    let (path, _) = split("stdin", &["queens", "8", "--count"], 4);
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.lines().nth(2).unwrap();
    let ran = cpsolve(&["solve-part"], format!("{line}\n").as_bytes());
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert_eq!(ran.json()["part"], 1);
}

#[test]
fn a_part_stopped_by_a_limit_is_listed_not_counted_as_complete() {
    // --nodes 3 stops every part that needs more than three nodes.
    let args = ["queens", "10", "--count", "--nodes", "3"];
    let (path, total) = split("limited", &args, 6);
    let results = fresh_folder("limited.results");
    for i in 0..total {
        solve_part(&path, i, &results, &[]);
    }
    let (merged, stderr) = merge(&path, &results);
    assert_eq!(merged["status"], "UNKNOWN");
    assert!(!merged["parts_missing"].as_array().unwrap().is_empty());
    assert!(merged["count"].as_u64().unwrap() < 724);
    assert!(stderr.contains("rerun them"), "{stderr}");
}

#[test]
fn every_puzzle_splits_and_merges_to_its_ordinary_verdict() {
    for kind in puzzles::all() {
        let expected = direct(&[kind.name]);
        let merged = split_solve_merge(&format!("every-{}", kind.name), &[kind.name], 4);
        assert_eq!(merged["status"], expected["status"], "{}", kind.name);
        assert_eq!(merged["objective"], expected["objective"], "{}", kind.name);
        if let Some(solution) = merged.get("solution") {
            common::check_answer(kind, kind.seed, solution, merged["objective"].as_i64())
                .unwrap_or_else(|e| panic!("{}: {e}", kind.name));
        }
    }
}

#[test]
fn bad_usage_is_one_error_line() {
    for args in [
        &["split", "queens", "8", "--parts", "many"][..],
        &["split", "queens", "8", "--parts", "0"],
        &["split", "queens", "8", "--parts", "99999999999"],
        &["split", "nosuchpuzzle"],
        &["split", "queens", "8", "-a"],
        &["merge"],
        &["solve-part", "/nonexistent/parts.jsonl", "--index", "0"],
    ] {
        let ran = cpsolve(args, b"");
        assert_eq!(ran.status, 2, "{args:?}: {}", ran.stdout);
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.starts_with("error: "), "{}", ran.stderr);
        assert!(ran.stdout.is_empty());
    }
}
