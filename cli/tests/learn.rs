//! `--learn` (engine/src/learning/) changes the work, never the answer: on random nonograms,
//! some without a solution, the status and the count are those of the run without it; so
//! are the counts of the built-in puzzle examples and the optimum and the solution list of
//! FlatZinc models; and `-s` names the nogoods learned and the backjumps. Nonograms learn
//! unless told not to (`--no-learn`).

mod common;

use common::{cpsolve, random_nonogram, verdict};
use engine::rng::Rng;
use std::path::PathBuf;

#[test]
fn learning_keeps_the_status_and_the_count_of_random_nonograms() {
    let mut rng = Rng::new(33);
    let mut unsatisfiable = 0;
    for case in 0..40 {
        let text = random_nonogram(&mut rng, 8, case % 2 == 1);
        let plain = verdict(
            &[
                "nonogram",
                "-",
                "--count",
                "--json",
                "-p",
                "1",
                "--no-learn",
            ],
            &text,
        );
        let learning = verdict(
            &["nonogram", "-", "--count", "--json", "-p", "1", "--learn"],
            &text,
        );
        assert_eq!(plain, learning, "case {case}:\n{text}");
        unsatisfiable += usize::from(plain.0 == "UNSATISFIABLE");
        // The first solution (with backjumps), with the puzzle's search and with `-f`.
        let expected = if plain.0 == "UNSATISFIABLE" {
            "UNSATISFIABLE"
        } else {
            "SATISFIED"
        };
        for free in [false, true] {
            let mut args = vec!["nonogram", "-", "--json", "--learn"];
            if free {
                args.push("-f");
            }
            assert_eq!(verdict(&args, &text).0, expected, "case {case} {args:?}");
        }
    }
    assert!(unsatisfiable > 0, "some broken clues leave no solution");
}

#[test]
fn learning_keeps_the_counts_of_the_other_puzzles() {
    for args in [
        vec!["queens", "7", "--count", "--json", "-p", "1"],
        vec!["binairo", "--count", "--json", "-p", "1"],
        vec!["starbattle", "--count", "--json", "-p", "1"],
        vec!["sudoku", "--count", "--json", "-p", "1"],
        vec!["flow", "--count", "--json", "-p", "1"],
    ] {
        let plain = verdict(&args, "");
        let mut learning = args.clone();
        learning.push("--learn");
        assert_eq!(plain, verdict(&learning, ""), "{args:?}");
    }
}

fn model(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/minizinc")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The lines of a FlatZinc run's output but the statistics.
fn answer(args: &[&str]) -> (String, String) {
    let ran = cpsolve(args, b"");
    assert_eq!(ran.status, 0, "{args:?}: {}", ran.stderr);
    let answer: Vec<&str> = ran.stdout.lines().filter(|l| !l.starts_with('%')).collect();
    (answer.join("\n"), ran.stdout)
}

#[test]
fn learning_keeps_flatzinc_answers_and_names_its_nogoods() {
    let golomb = model("split/golomb.fzn");
    let (plain, _) = answer(&[&golomb]);
    let (learned, with_stats) = answer(&[&golomb, "--learn", "-s"]);
    assert_eq!(plain, learned, "the optimum of golomb");
    assert!(plain.ends_with("=========="), "{plain}");
    for stat in ["%%%mzn-stat: nogoods=", "nogoodMeanSize=", "backjumps="] {
        assert!(with_stats.contains(stat), "{stat} in {with_stats}");
    }
    for name in ["split/pigeonhole.fzn", "queens.fzn"] {
        let file = model(name);
        // The same solutions, in any order (nogoods change the domains the search order
        // reads), and the same final line.
        let solutions = |text: &str| {
            let mut each: Vec<String> = text.split("----------").map(str::to_string).collect();
            each.sort();
            each
        };
        let plain = solutions(&answer(&[&file, "-a"]).0);
        let learned = solutions(&answer(&[&file, "-a", "--learn"]).0);
        assert!(
            plain == learned,
            "{name} -a: {} solutions, {} with --learn",
            plain.len() - 1,
            learned.len() - 1
        );
    }
}

#[test]
fn a_learning_count_runs_on_one_thread_unless_told_and_then_says_it_does_not_learn() {
    let nogoods = |ran: &common::Ran| ran.stdout.contains("%%%mzn-stat: nogoods=");
    let default = cpsolve(&["queens", "8", "--count", "--learn", "-s"], b"");
    assert_eq!(default.status, 0, "{}", default.stderr);
    assert!(nogoods(&default), "{}", default.stdout);
    assert!(
        default.stdout.contains("solutions=92"),
        "{}",
        default.stdout
    );
    let split = cpsolve(&["queens", "8", "--count", "--learn", "-s", "-p", "2"], b"");
    assert_eq!(split.status, 0, "{}", split.stderr);
    assert!(split.stdout.contains("solutions=92"), "{}", split.stdout);
    assert!(
        split
            .stderr
            .contains("warning: --learn: a count split over threads does not learn"),
        "{}",
        split.stderr
    );
}

/// A nonogram does not learn by default (its `KIND` probes at every node instead): its model
/// is the 30 cells alone, as with `--no-learn`; `--learn` builds the learning model, with the
/// lines' automaton states as variables beside the cells. The 4 pictures are counted either
/// way.
#[test]
fn nonograms_learn_only_when_told_to() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../puzzles/instances/beyond/generated5x6.non")
        .to_string_lossy()
        .into_owned();
    let stats = |extra: &[&str]| -> (u64, String) {
        let mut args = vec!["nonogram", file.as_str(), "--count", "-s", "-p", "1"];
        args.extend_from_slice(extra);
        let ran = cpsolve(&args, b"");
        assert_eq!(ran.status, 0, "{args:?}: {}", ran.stderr);
        let stat = |name: &str| -> String {
            let key = format!("%%%mzn-stat: {name}=");
            let line = ran
                .stdout
                .lines()
                .find_map(|l| l.strip_prefix(key.as_str()));
            line.unwrap_or_else(|| panic!("{key} in {}", ran.stdout))
                .to_string()
        };
        (stat("variables").parse().unwrap(), stat("solutions"))
    };
    let learning = stats(&["--learn"]);
    assert_eq!(stats(&[]), (30, "4".to_string()));
    assert_eq!(stats(&["--no-learn"]), (30, "4".to_string()));
    assert!(learning.0 > 30, "{learning:?}: the states are variables");
    assert_eq!(learning.1, "4");
}
