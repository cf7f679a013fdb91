//! Binairo and Takuzu: counts against brute force on small grids, the checker, the parser's
//! error lines, never-panic property tests (the instances are in `beyond.rs`).

use puzzles::binairo;
use puzzles::common::all_solutions;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, parse_one};

/// Every 0/1 grid of `h`×`w` checked against the rules directly.
fn brute_force_count(h: usize, w: usize, distinct: bool) -> usize {
    let line_ok = |v: &[u8]| {
        2 * v.iter().filter(|&&x| x == 1).count() == v.len()
            && !v.windows(3).any(|t| t[0] == t[1] && t[1] == t[2])
    };
    let mut count = 0;
    for bits in 0u32..(1 << (h * w)) {
        let cell = |r: usize, c: usize| ((bits >> (r * w + c)) & 1) as u8;
        let rows: Vec<Vec<u8>> = (0..h)
            .map(|r| (0..w).map(|c| cell(r, c)).collect())
            .collect();
        let cols: Vec<Vec<u8>> = (0..w)
            .map(|c| (0..h).map(|r| cell(r, c)).collect())
            .collect();
        let mut ok = rows.iter().all(|r| line_ok(r)) && cols.iter().all(|c| line_ok(c));
        if distinct {
            let all_distinct =
                |v: &[Vec<u8>]| (0..v.len()).all(|i| (i + 1..v.len()).all(|j| v[i] != v[j]));
            ok = ok && all_distinct(&rows) && all_distinct(&cols);
        }
        count += ok as usize;
    }
    count
}

#[test]
fn empty_grids_count_as_brute_force_says() {
    for (h, w) in [(2, 2), (2, 4), (4, 4)] {
        let text = vec![".".repeat(w); h].join("\n");
        for (distinct, parse) in [
            (false, binairo::parse_binairo as puzzles::Parse),
            (true, binairo::parse_takuzu),
        ] {
            let puzzle = parse_one(parse, &text);
            let (answers, complete) =
                all_solutions(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
            assert!(complete);
            assert_eq!(
                answers.len(),
                brute_force_count(h, w, distinct),
                "{h}×{w} {distinct}"
            );
        }
    }
}

#[test]
fn checker_rejects_broken_grids() {
    let takuzu = parse_one(binairo::parse_takuzu, "....\n....\n....\n....\n");
    let binairo = parse_one(binairo::parse_binairo, "....\n....\n....\n....\n");
    // Balanced, no triple, but rows 1 and 3 equal.
    let twin = json!([[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]);
    assert!(binairo.check(&answer(twin.clone())).is_ok());
    assert!(takuzu.check(&answer(twin)).unwrap_err().contains("repeats"));
    let good = json!([[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1]]);
    assert!(takuzu.check(&answer(good)).is_ok());
    let unbalanced = json!([[0, 0, 0, 1], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1]]);
    assert!(binairo.check(&answer(unbalanced)).is_err());
    let given = parse_one(binairo::parse_binairo, "1...\n....\n....\n....\n");
    assert!(given
        .check(&answer(json!([
            [0, 1, 0, 1],
            [1, 0, 1, 0],
            [0, 1, 0, 1],
            [1, 0, 1, 0]
        ])))
        .is_err());
    assert!(binairo.check(&answer(json!(null))).is_err());
}

#[test]
fn malformed_files_name_the_line() {
    let p = binairo::parse_binairo;
    assert_eq!(error_line(p, ""), 0);
    // Janko's 2 and -, other characters.
    assert_eq!(error_line(p, "10\n2.\n"), 2);
    assert_eq!(error_line(p, "10\n-.\n"), 2);
    assert_eq!(error_line(p, "1 0\n. x\n"), 2);
    // Rows of different lengths; odd sizes.
    assert_eq!(error_line(p, "10\n.\n"), 2);
    assert_eq!(error_line(p, "10\n..\n..\n"), 3);
    assert_eq!(error_line(p, "101\n...\n"), 2);
    assert!(p("1 0\n. .\n").is_ok());
}
