//! Thermometer: the checker, the parser's error lines, never-panic property tests (the
//! instances' counts and solutions are in `beyond.rs`).

use puzzles::thermometer;
use serde_json::json;

mod support;
use support::{answer, error_line, parse_one};

#[test]
fn checker_rejects_broken_grids() {
    let puzzle = parse_one(thermometer::parse, thermometer::KIND.seed);
    let good = json!([[0, 1, 1, 1], [1, 1, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]);
    assert!(puzzle.check(&answer(good.clone())).is_ok());
    // A gap: thermometer 4 (cells [1,2..4], [2,4]) filled at position 2 with its bulb empty
    // is caught even when the counts hold: swap rows' content keeps nothing, so break directly.
    let mut gap = good.clone();
    gap[0][1] = json!(0); // bulb of thermometer 4 emptied (row 1 count now wrong too)
    assert!(puzzle.check(&answer(gap)).is_err());
    let err = puzzle
        .check(&answer(json!([
            [1, 1, 1, 0],
            [1, 1, 1, 0],
            [0, 1, 0, 0],
            [0, 0, 0, 1]
        ])))
        .unwrap_err();
    assert!(!err.is_empty());
    assert!(puzzle.check(&answer(json!([[0, 1], [1, 0]]))).is_err());
    assert!(puzzle.check(&answer(json!(null))).is_err());
}

#[test]
fn gap_and_off_thermometer_cells_are_rejected_when_counts_hold() {
    // 1×2: one thermometer a.1 a.2; a cell off the thermometer stays empty.
    let puzzle = parse_one(thermometer::parse, "1 2\n0 1\n1\na.1 a.2\n");
    assert!(puzzle
        .check(&answer(json!([[0, 1]])))
        .unwrap_err()
        .contains("position"));
    let off = parse_one(thermometer::parse, "1 2\n1 0\n1\n. a.1\n");
    assert!(off
        .check(&answer(json!([[1, 0]])))
        .unwrap_err()
        .contains("no thermometer"));
}

#[test]
fn malformed_files_name_the_line() {
    let p = thermometer::parse;
    assert_eq!(error_line(p, ""), 0);
    assert_eq!(error_line(p, "4\n"), 1);
    assert_eq!(error_line(p, "0 2\n"), 1);
    assert_eq!(error_line(p, "1 2\n"), 1);
    // Wrong number of counts, a count out of range.
    assert_eq!(error_line(p, "1 2\n0\n1\na.1 a.2\n"), 2);
    assert_eq!(error_line(p, "1 2\n0 2\n1\na.1 a.2\n"), 2);
    assert_eq!(error_line(p, "1 2\n0 1\n3\na.1 a.2\n"), 3);
    // Wrong number of rows or tokens, bad tokens.
    assert_eq!(error_line(p, "1 2\n0 1\n1\n"), 3);
    assert_eq!(error_line(p, "1 2\n0 1\n1\na.1\n"), 4);
    assert_eq!(error_line(p, "1 2\n0 1\n1\na.1 a.0\n"), 4);
    assert_eq!(error_line(p, "1 2\n0 1\n1\na.1 x\n"), 4);
    assert_eq!(error_line(p, "1 2\n0 1\n1\na.1 .2\n"), 4);
    // Positions not exactly 1..L: a repeat, a gap.
    assert_eq!(error_line(p, "1 2\n0 1\n1\na.1 a.1\n"), 4);
    assert_eq!(error_line(p, "2 2\n0 1\n1 0\na.1 .\n% c\n. a.3\n"), 6);
}
