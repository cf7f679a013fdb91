//! Strimko: the seed's answer and count at every level, a brute-force cross-check on small
//! grids, the checker, the parser's error lines, never-panic property tests.

use proptest::prelude::*;
use puzzles::common::{all_solutions_every_level, parse_and_poke};
use puzzles::strimko;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, expected, parse_one};

#[test]
fn seed_has_the_expected_unique_solution_at_every_level() {
    let exp = &expected()["strimko"];
    let puzzle = parse_one(strimko::parse, strimko::KIND.seed);
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len() as u64, exp["count"].as_u64().unwrap());
    assert_eq!(answers[0].json, exp["solution"]);
}

/// Every n×n grid of 1..n (n ≤ 3) checked against the rules directly.
fn brute_force_count(n: usize, streams: &[usize]) -> usize {
    let cells = n * n;
    let mut count = 0;
    let mut grid = vec![1usize; cells];
    loop {
        let distinct = |unit: Vec<usize>| {
            let mut seen = vec![false; n + 1];
            unit.iter()
                .all(|&i| !std::mem::replace(&mut seen[grid[i]], true))
        };
        let ok = (0..n).all(|r| distinct((0..n).map(|c| r * n + c).collect()))
            && (0..n).all(|c| distinct((0..n).map(|r| r * n + c).collect()))
            && (0..n).all(|s| distinct((0..cells).filter(|&i| streams[i] == s).collect()));
        count += ok as usize;
        // Next grid, like an odometer.
        let mut i = 0;
        while i < cells && grid[i] == n {
            grid[i] = 1;
            i += 1;
        }
        if i == cells {
            return count;
        }
        grid[i] += 1;
    }
}

#[test]
fn counts_agree_with_brute_force_on_small_boards() {
    // 3×3 boards: streams as rows (a Latin square: 12), as diagonals, and as an L-shape.
    let boards: [(&str, [usize; 9]); 3] = [
        ("A A A\nB B B\nC C C", [0, 0, 0, 1, 1, 1, 2, 2, 2]),
        ("A B C\nC A B\nB C A", [0, 1, 2, 2, 0, 1, 1, 2, 0]),
        ("A A B\nA C B\nC C B", [0, 0, 1, 0, 2, 1, 2, 2, 1]),
    ];
    for (streams, labels) in boards {
        let puzzle = parse_one(strimko::parse, &format!("streams\n{streams}\n"));
        let (answers, complete) =
            all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
        assert!(complete);
        assert_eq!(answers.len(), brute_force_count(3, &labels), "{streams}");
    }
}

#[test]
fn checker_rejects_broken_grids() {
    let exp = &expected()["strimko"];
    let puzzle = parse_one(strimko::parse, strimko::KIND.seed);
    assert!(puzzle.check(&answer(exp["solution"].clone())).is_ok());
    // Swap rows 1 and 3: rows and columns stay Latin, the streams and givens do not.
    let mut rows = exp["solution"].clone();
    rows.as_array_mut().unwrap().swap(0, 2);
    assert!(puzzle.check(&answer(rows)).is_err());
    // A given changed ([2,4] is given as 4).
    let mut given = exp["solution"].clone();
    given[1][3] = json!(1);
    assert!(puzzle.check(&answer(given)).is_err());
    // A stream broken while rows and columns stay Latin.
    let free = parse_one(strimko::parse, "streams\nA A B\nA C B\nC C B\n");
    let latin_rows = json!([[1, 2, 3], [2, 3, 1], [3, 1, 2]]);
    let err = free.check(&answer(latin_rows)).unwrap_err();
    assert!(err.contains("stream"), "{err}");
    // Out of range, wrong shapes.
    let mut big = exp["solution"].clone();
    big[0][0] = json!(6);
    assert!(puzzle.check(&answer(big)).is_err());
    assert!(puzzle.check(&answer(json!([[1, 2], [2, 1]]))).is_err());
    assert!(puzzle.check(&answer(json!(null))).is_err());
}

#[test]
fn clashing_givens_are_unsatisfiable() {
    let puzzle = parse_one(strimko::parse, "streams\nA A\nB B\ngivens\n1 1\n. .\n");
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete && answers.is_empty());
}

#[test]
fn malformed_files_name_the_line() {
    assert_eq!(error_line(strimko::parse, ""), 0);
    assert_eq!(error_line(strimko::parse, "% nothing\n"), 0);
    // Content before any section, an unknown section-less line.
    assert_eq!(error_line(strimko::parse, "A B\nB A\n"), 1);
    // No streams section.
    assert_eq!(error_line(strimko::parse, "givens\n. .\n. .\n"), 1);
    // A row of the wrong width; a stream of the wrong size (named at its first line).
    assert_eq!(error_line(strimko::parse, "streams\nA B\nA B C\n"), 3);
    assert_eq!(error_line(strimko::parse, "streams\nA B\nA A\n"), 2);
    // Givens: wrong number of rows, unknown token, a number above n.
    assert_eq!(
        error_line(strimko::parse, "streams\nA A\nB B\ngivens\n. .\n"),
        5
    );
    assert_eq!(
        error_line(strimko::parse, "streams\nA A\nB B\ngivens\n. x\n. .\n"),
        5
    );
    assert_eq!(
        error_line(
            strimko::parse,
            "streams\nA A\nB B\n% comment\ngivens\n. .\n. 3\n"
        ),
        7
    );
    // Text after a header, a section twice.
    assert_eq!(error_line(strimko::parse, "streams 2\nA A\nB B\n"), 1);
    assert_eq!(
        error_line(strimko::parse, "streams\nA A\nB B\nstreams\nA A\nB B\n"),
        4
    );
    // An empty streams section.
    assert_eq!(error_line(strimko::parse, "streams\ngivens\n"), 1);
}

fn poke(text: &str) {
    parse_and_poke(strimko::parse, text, &[ModelOptions::default()], 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]



    #[test]
    fn random_small_boards_never_panic(
        labels in proptest::collection::vec(0u8..4, 9),
        givens in proptest::collection::vec(0u8..4, 9),
    ) {
        let row = |v: &[u8], f: &dyn Fn(u8) -> String| {
            v.chunks(3)
                .map(|r| r.iter().map(|&x| f(x)).collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let text = format!(
            "streams\n{}\ngivens\n{}\n",
            row(&labels, &|x| ((b'A' + x) as char).to_string()),
            row(&givens, &|x| if x == 0 { ".".into() } else { x.to_string() }),
        );
        poke(&text);
    }
}
