//! Star Battle: the checker, the parser's error lines, never-panic property tests (the
//! instances' counts and solutions are in `beyond.rs`).

use puzzles::common::all_solutions;
use puzzles::starbattle;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, parse_one};

#[test]
fn checker_rejects_broken_placements() {
    let puzzle = parse_one(starbattle::parse, "4 1\nAABB\nAABB\nCCDD\nCCDD\n");
    // Rows, columns and regions hold one star each; no two touch.
    let good = json!([[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]);
    // Region A (top-left 2×2) holds [1,2]; region B holds [2,4]; C [3,1]; D [4,3].
    assert!(puzzle.check(&answer(good)).is_ok());
    // Two touching stars (diagonal), every count still right on a 1-region-per-row board.
    let rows = parse_one(starbattle::parse, "4 1\nAAAA\nBBBB\nCCCC\nDDDD\n");
    let err = rows
        .check(&answer(json!([
            [0, 1, 0, 0],
            [1, 0, 0, 0],
            [0, 0, 0, 1],
            [0, 0, 1, 0]
        ])))
        .unwrap_err();
    assert!(err.contains("touch"), "{err}");
    // A wrong count.
    assert!(puzzle
        .check(&answer(json!([
            [0, 0, 0, 0],
            [0, 0, 0, 1],
            [1, 0, 0, 0],
            [0, 0, 1, 0]
        ])))
        .is_err());
    assert!(puzzle.check(&answer(json!(null))).is_err());
}

#[test]
fn malformed_files_name_the_line() {
    let p = starbattle::parse;
    assert_eq!(error_line(p, ""), 0);
    assert_eq!(error_line(p, "4\n"), 1);
    assert_eq!(error_line(p, "4 0\n"), 1);
    assert_eq!(error_line(p, "1 2 3 4\n"), 1);
    // Not square.
    assert_eq!(error_line(p, "2 3 1\nAAB\nBBB\n"), 1);
    // Wrong number of rows, of cells.
    assert_eq!(error_line(p, "2 1\nAB\n"), 2);
    assert_eq!(error_line(p, "2 1\nAB\nABA\n"), 3);
    // A number of regions other than N; a region smaller than K.
    assert_eq!(error_line(p, "2 1\nAB\nAC\n"), 3);
    assert_eq!(error_line(p, "4 2\nAAAA\nAAAA\nAAAA\nAABC\n"), 5);
    assert_eq!(error_line(p, "2 2\nAA\nAB\n"), 3);
    // Token form.
    assert!(p("2 1\n1 1\n2 2\n").is_ok());
}

/// A board with a blocked cell (`#`): five labels on four rows, so `#` is no region.
const BLOCKED_BOARD: &str = "4 1\nB#AA\nBBAC\nBDCC\nDDDC\n";

/// Every 0/1 grid the checker accepts: the count the model must reach.
fn brute_force_count(text: &str, n: usize) -> usize {
    let puzzle = parse_one(starbattle::parse, text);
    (0u32..1 << (n * n))
        .filter(|code| {
            let grid: Vec<Vec<u32>> = (0..n)
                .map(|r| (0..n).map(|c| code >> (r * n + c) & 1).collect())
                .collect();
            puzzle.check(&answer(json!(grid))).is_ok()
        })
        .count()
}

#[test]
fn blocked_cells_hold_no_star_and_belong_to_no_region() {
    let puzzle = parse_one(starbattle::parse, BLOCKED_BOARD);
    let (answers, complete) =
        all_solutions(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    // Of the two placements of a 4×4 board, the one with a star on `#` leaves a region
    // empty: one solution, as brute force says.
    assert_eq!(answers.len(), 1);
    assert_eq!(brute_force_count(BLOCKED_BOARD, 4), 1);
    // The checker refuses a star on a blocked cell even where every count is right.
    let on_blocked = json!([[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]);
    let err = puzzle.check(&answer(on_blocked)).unwrap_err();
    assert!(err.contains("blocked"), "{err}");
}

#[test]
fn a_region_named_like_a_blocked_cell_reads_as_before() {
    // N labels: `#` is a region as it always was (4 regions, one star each).
    let text = "4 1\n##AB\n#AAB\nCCAB\nCC##\n";
    let puzzle = parse_one(starbattle::parse, text);
    let (answers, _) = all_solutions(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert_eq!(answers.len(), 1);
    assert_eq!(brute_force_count(text, 4), 1);
    // Too many labels even without `#` and `@`: the line of the last row, saying so.
    let err = starbattle::parse("3 1\n#AC\n#AB\n##D\n").err().unwrap();
    assert_eq!(err.line, 4);
    assert!(err.message.contains("blocked"), "{}", err.message);
}

/// janko.at's 15 boards with blocked cells (`../shared/data/starbattle`): each solved, and
/// its answer the published one.
#[test]
fn janko_boards_with_blocked_cells_match_their_published_solutions() {
    let Some(path) = engine::testing::data_path("starbattle/janko_starbattle_puzzlekit.json")
    else {
        return;
    };
    let set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for (key, entry) in set["data"].as_object().unwrap() {
        let problem = entry["problem"].as_str().unwrap();
        if !problem.contains(['#', '@']) {
            continue;
        }
        let puzzle = parse_one(starbattle::parse, problem);
        let options = ModelOptions::default();
        let (answers, complete) = all_solutions(puzzle.as_ref(), &options, Some(2)).unwrap();
        assert!(complete, "{key}");
        assert_eq!(answers.len(), 1, "{key}: janko's boards have one solution");
        let published: Vec<Vec<u32>> = entry["solution"]
            .as_str()
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().map(|t| (t == "x") as u32).collect())
            .collect();
        assert_eq!(*answers[0].json.to_value(), json!(published), "{key}");
        checked += 1;
    }
    assert_eq!(checked, 15);
}
