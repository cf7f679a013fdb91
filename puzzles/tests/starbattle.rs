//! Star Battle: the checker, the parser's error lines, never-panic property tests (the
//! instances' counts and solutions are in `beyond.rs`).

use puzzles::starbattle;
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
