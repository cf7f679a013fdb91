//! Knight's tours: known counts (1,728 directed open tours on 5×5 is in `beyond.rs`; 0 on
//! 4×4; closed tours of 3×4 and 5×5 boards: none), the checker, the parser's error lines,
//! never-panic property tests.

use puzzles::common::all_solutions;
use puzzles::knights;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, parse_one};

fn count(text: &str) -> usize {
    let puzzle = parse_one(knights::parse, text);
    let (answers, complete) =
        all_solutions(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    answers.len()
}

#[test]
fn known_counts() {
    assert_eq!(count("4"), 0);
    assert_eq!(count("1"), 1);
    // 3×4: 16 directed open tours (expected.json), no closed one (a closed tour needs an
    // even number of cells on both colours and more room: Schwenk's theorem excludes 3×4).
    assert_eq!(count("closed\n. . . .\n. . . .\n. . . .\n"), 0);
    // 5×5 has an odd number of cells: no closed tour.
    assert_eq!(
        count("closed\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"),
        0
    );
    // '#' cells are off the tour: a 1×3 strip with the middle removed has no move at all.
    assert_eq!(count(". # .\n"), 0);
    // 2×3 with two corners removed: 1 . # / # . 1? The cells [1,1],[2,3] form a tour 1-2.
    assert_eq!(count(". # #\n# # .\n"), 2);
}

#[test]
fn checker_rejects_broken_tours() {
    let puzzle = parse_one(knights::parse, ". # #\n# # .\n");
    assert!(puzzle
        .check(&answer(json!([[1, null, null], [null, null, 2]])))
        .is_ok());
    assert!(puzzle
        .check(&answer(json!([[1, 2, null], [null, null, 2]])))
        .is_err());
    assert!(puzzle
        .check(&answer(json!([[1, null, null], [null, null, 1]])))
        .is_err());
    assert!(puzzle
        .check(&answer(json!([[1, null, null], [null, null, null]])))
        .is_err());
    let line = parse_one(knights::parse, ". . .\n");
    let err = line.check(&answer(json!([[1, 2, 3]]))).unwrap_err();
    assert!(err.contains("knight"), "{err}");
    assert!(puzzle.check(&answer(json!(null))).is_err());
}

#[test]
fn malformed_files_name_the_line() {
    let p = knights::parse;
    assert_eq!(error_line(p, ""), 0);
    assert_eq!(error_line(p, "0"), 1);
    assert_eq!(error_line(p, "closed\n"), 1);
    assert_eq!(error_line(p, ". x\n"), 1);
    assert_eq!(error_line(p, ". 0\n"), 1);
    assert_eq!(error_line(p, ". .\n. . .\n"), 2);
    assert_eq!(error_line(p, ". .\n% c\n. 5\n"), 3);
    assert_eq!(error_line(p, "1 .\n1 .\n"), 2);
    assert_eq!(error_line(p, "# #\n"), 1);
    assert!(p("open\n. .\n. .\n").is_ok());
}
