//! Sudoku: the seed's answer and count at every all-different level, the checker, the parser's
//! error lines, bigger grids, and parsers that never panic.

use engine::AllDiffLevel;
use proptest::prelude::*;
use puzzles::common::{
    all_solutions, all_solutions_at_levels, all_solutions_every_level, mutate, parse_and_poke,
};
use puzzles::sudoku::{self, Sudoku};
use puzzles::{Answer, AnswerJson, Instance, ModelOptions};
use serde_json::{json, Value};

mod support;
use support::{error_line, expected, parse_one};

#[test]
fn seed_has_the_expected_unique_solution_at_every_level() {
    let exp = &expected()["sudoku"];
    let puzzle = parse_one(sudoku::parse, sudoku::KIND.seed);
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len() as u64, exp["count"].as_u64().unwrap());
    assert_eq!(answers[0].json, exp["solution"]);
}

#[test]
fn checker_rejects_broken_grids() {
    let exp = &expected()["sudoku"];
    let puzzle = parse_one(sudoku::parse, sudoku::KIND.seed);
    let answer = |json: Value| Answer {
        json: json.into(),
        text: String::new(),
        objective: None,
    };
    assert!(puzzle.check(&answer(exp["solution"].clone())).is_ok());

    // Two cells of row 1 swapped: the row is fine, two columns are not (and a given moves).
    let mut swapped = exp["solution"].clone();
    let (a, b) = (swapped[0][3].clone(), swapped[0][4].clone());
    swapped[0][3] = b;
    swapped[0][4] = a;
    assert!(puzzle.check(&answer(swapped)).is_err());

    // A given changed (cell [1,2] is given as 1).
    let mut given = exp["solution"].clone();
    given[0][1] = json!(2);
    assert!(puzzle.check(&answer(given)).unwrap_err().contains("given"));

    // Out of range, wrong shape, not numbers.
    let mut big = exp["solution"].clone();
    big[8][8] = json!(10);
    assert!(puzzle.check(&answer(big)).is_err());
    let mut short = exp["solution"].clone();
    short.as_array_mut().unwrap().pop();
    assert!(puzzle.check(&answer(short)).is_err());
    assert!(puzzle.check(&answer(json!("solved"))).is_err());
    let mut null = exp["solution"].clone();
    null[4][4] = Value::Null;
    assert!(puzzle.check(&answer(null)).is_err());
}

#[test]
fn checker_finds_a_repeated_digit_in_a_box_only() {
    // A 4×4 grid whose rows and columns are Latin but whose boxes are not.
    let puzzle = parse_one(sudoku::parse, "................");
    let latin_not_boxes = json!([[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]]);
    let err = puzzle
        .check(&Answer {
            json: latin_not_boxes.into(),
            text: String::new(),
            objective: None,
        })
        .unwrap_err();
    assert!(err.contains("box"), "{err}");
}

#[test]
fn malformed_files_name_the_line() {
    let good = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    assert_eq!(error_line(sudoku::parse, ""), 0);
    assert_eq!(error_line(sudoku::parse, "% nothing here\n\n"), 0);
    // One-line form: an unknown character, a wrong length.
    assert_eq!(
        error_line(sudoku::parse, &format!("{good}\n{}x\n", &good[..80])),
        2
    );
    assert_eq!(
        error_line(sudoku::parse, &format!("{good}\n\n{}\n", &good[..79])),
        3
    );
    assert_eq!(error_line(sudoku::parse, "123.123.123.123.1234\n"), 1);
    // A 4×4 one-liner cannot hold a 5.
    assert_eq!(error_line(sudoku::parse, "5...............\n"), 1);
    // Grid form: 5 cells is not a square side; a short row; an unknown token.
    assert_eq!(error_line(sudoku::parse, "1 2 3 4 5\n"), 1);
    assert_eq!(error_line(sudoku::parse, "1 2 3 4\n3 4 1 2\n2 1\n"), 3);
    assert_eq!(
        error_line(sudoku::parse, "1 2 3 4\n3 4 1 2\n2 1 4 x\n4 3 2 1\n"),
        3
    );
    assert_eq!(
        error_line(sudoku::parse, "1 2 3 4\n3 4 1 2\n2 1 4 5\n4 3 2 1\n"),
        3
    );
    // A grid cut short by a blank line, and by the end of the file: the last row is named.
    assert_eq!(
        error_line(sudoku::parse, "% four rows?\n1 2 3 4\n3 4 1 2\n\n2 1 4 3\n"),
        3
    );
    assert_eq!(error_line(sudoku::parse, "1 2 . .\n. . 1 2\n2 1 . .\n"), 3);
    // Binary junk.
    assert_eq!(error_line(sudoku::parse, "\u{1}\u{2}\u{3}\n"), 1);
}

#[test]
fn many_puzzles_in_one_file_in_order() {
    let text = "\
% two one-liners, a grid with rules, a compact grid, a 4x4 one-liner
.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...
.................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....

1 2 | . .
. . | 1 2
----+----
2 1 | . .
. . | 2 1

12..
..12
21..
..21
1234341221434321
";
    let puzzles = sudoku::parse(text).unwrap();
    assert_eq!(puzzles.len(), 5);
    let mut counts = Vec::new();
    for p in &puzzles {
        let (answers, complete) =
            all_solutions(p.as_ref(), &ModelOptions::default(), None).unwrap();
        assert!(complete);
        counts.push(answers.len());
    }
    // The 17-clue puzzles are unique; the two 4x4 grids are the same puzzle (two solutions:
    // columns 3 and 4 of rows 1-2 can swap with rows 3-4's); the last is already full.
    assert_eq!(counts[0], 1);
    assert_eq!(counts[1], 1);
    assert_eq!(counts[2], counts[3]);
    assert_eq!(counts[4], 1);
}

#[test]
fn clashing_givens_are_unsatisfiable_not_malformed() {
    for text in [
        // Two 5s in row 1.
        "55...............................................................................\n",
        // Two 1s in a 4x4 box.
        "1....1..........\n",
        // A full grid that breaks a column.
        "1234\n3412\n2143\n3421\n",
    ] {
        let puzzle = parse_one(sudoku::parse, text);
        let (answers, complete) =
            all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
        assert!(complete && answers.is_empty(), "{text}");
    }
}

#[test]
fn seventeen_clue_sample_unique_at_value_and_domain_levels() {
    let text = include_str!("../data/sudoku_17clue_sample.txt");
    let puzzles = sudoku::parse(text).unwrap();
    assert_eq!(puzzles.len(), text.lines().count());
    // Not at the bounds level: the Hall-interval propagator moves bounds only and never
    // removes a placed digit from the middle of a neighbour's domain, so a 17-clue puzzle
    // costs it hundreds of thousands of nodes (seconds each). Value and domain levels only.
    let levels = [AllDiffLevel::Value, AllDiffLevel::Domain];
    for p in &puzzles {
        // Two solutions asked for, one found and the search complete: unique.
        let (answers, complete) =
            all_solutions_at_levels(p.as_ref(), &ModelOptions::default(), Some(2), &levels)
                .unwrap();
        assert_eq!(answers.len(), 1);
        assert!(complete);
    }
}

/// A valid n×n solution: the classic shifted pattern, row r = (m·(r mod m) + r div m + c).
fn pattern(m: usize) -> Vec<usize> {
    let n = m * m;
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            (m * (r % m) + r / m + c) % n + 1
        })
        .collect()
}

/// The pattern with cells blanked by a fixed pseudo-random rule, in grid form.
fn blanked_grid(m: usize, keep_per_mille: u64, seed: u64) -> String {
    let n = m * m;
    let solution = pattern(m);
    let mut state = seed;
    let mut text = String::new();
    for r in 0..n {
        let row: Vec<String> = (0..n)
            .map(|c| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (state >> 33) % 1000 < keep_per_mille {
                    solution[r * n + c].to_string()
                } else {
                    ".".to_string()
                }
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

#[test]
fn sixteen_and_twenty_five_solve_and_check() {
    for (m, keep, seed) in [(4, 450, 1), (4, 500, 2), (5, 600, 3), (5, 650, 4)] {
        let text = blanked_grid(m, keep, seed);
        let puzzle = parse_one(sudoku::parse, &text);
        // all_solutions checks every answer with the checker. Value and domain levels only
        // (see seventeen_clue_sample_unique_at_value_and_domain_levels for why not bounds).
        let levels = [AllDiffLevel::Value, AllDiffLevel::Domain];
        let (answers, _) =
            all_solutions_at_levels(puzzle.as_ref(), &ModelOptions::default(), Some(1), &levels)
                .unwrap();
        assert_eq!(answers.len(), 1, "{m}x{m} seed {seed}");
        // And the checker agrees with the generator's pattern itself.
        let n = m * m;
        let full: Vec<Vec<usize>> = pattern(m).chunks(n).map(|r| r.to_vec()).collect();
        let ok = puzzle.check(&Answer {
            json: json!(full).into(),
            text: String::new(),
            objective: None,
        });
        assert!(ok.is_ok(), "{ok:?}");
    }
}

#[test]
fn rendered_answer_parses_back_as_the_solved_grid() {
    let exp = &expected()["sudoku"];
    let puzzle = parse_one(sudoku::parse, sudoku::KIND.seed);
    let (answers, _) = all_solutions(puzzle.as_ref(), &ModelOptions::default(), Some(1)).unwrap();
    let again = sudoku::parse(&answers[0].text).unwrap();
    assert_eq!(again.len(), 1);
    let (solved, _) = all_solutions(again[0].as_ref(), &ModelOptions::default(), None).unwrap();
    assert_eq!(solved.len(), 1);
    assert_eq!(solved[0].json, exp["solution"]);
}

#[test]
fn the_answer_without_picture_is_the_answer_without_its_text() {
    // Every solution of a grid with several: the seed's solution with its first two rows
    // blanked (eight ways to fill them).
    let solution = &expected()["sudoku"]["solution"];
    let mut givens: Vec<u8> = (0..81)
        .map(|i| solution[i / 9][i % 9].as_u64().unwrap() as u8)
        .collect();
    givens[..18].fill(0);
    let puzzle = Sudoku {
        box_size: 3,
        n: 9,
        givens,
    };
    let built = puzzle.build(&ModelOptions::default()).unwrap();
    let mut model = built.model.clone();
    let mut compared = 0;
    engine::search(
        &mut model,
        &built.search,
        &mut engine::search::NoListener,
        &mut |solution| {
            let whole = puzzle.answer(&built, solution);
            let json_only = puzzle.answer_without_picture(&built, solution);
            assert_eq!(json_only.json, whole.json);
            assert_eq!(json_only.objective, whole.objective);
            assert!(json_only.text.is_empty() && !whole.text.is_empty());
            assert!(puzzle.check(&json_only).is_ok());
            compared += 1;
            engine::Control::Continue
        },
    );
    assert_eq!(compared, 8);
}

#[test]
fn sudoku_struct_from_one_line() {
    let s = "1234341221434321";
    let p = sudoku::parse(s).unwrap();
    let expected = Sudoku {
        box_size: 2,
        n: 4,
        givens: s.bytes().map(|b| b - b'0').collect(),
    };
    assert_eq!(format!("{:?}", p[0]), format!("{expected:?}"));
}

/// An answer holding `values` as numbers (the form a solved Sudoku hands over), and the
/// same grid as a JSON value.
fn both_forms(values: &[i64], n: usize) -> [Answer; 2] {
    let rows = AnswerJson::Rows {
        values: values.to_vec(),
        width: n,
    };
    let json = rows.to_value().into_owned();
    [rows, json.into()].map(|json| Answer {
        json,
        text: String::new(),
        objective: None,
    })
}

#[test]
fn the_checker_names_the_broken_rule_in_either_form() {
    // A 4×4 puzzle whose only given is 1 in the top-left corner, and a solution of it.
    let puzzle = parse_one(sudoku::parse, "1...............");
    let solved: [i64; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let verdict = |change: &[(usize, i64)]| {
        let mut values = solved;
        for &(at, v) in change {
            values[at] = v;
        }
        let [rows, json] = both_forms(&values, 4);
        let verdict = puzzle.check(&rows);
        assert_eq!(verdict, puzzle.check(&json), "{values:?}");
        verdict
    };
    assert_eq!(verdict(&[]), Ok(()));
    let broken = |change: &[(usize, i64)]| verdict(change).unwrap_err();
    assert_eq!(broken(&[(0, 2)]), "cell [1, 1] is given as 1 but holds 2");
    assert_eq!(broken(&[(1, 1)]), "row 1 holds 1 twice");
    assert_eq!(broken(&[(4, 1)]), "column 1 holds 1 twice");
    assert_eq!(
        broken(&[(15, 0)]),
        "cell [4, 4] must hold a number from 1 to 4"
    );
    assert_eq!(
        broken(&[(6, 5)]),
        "cell [2, 3] must hold a number from 1 to 4"
    );
    // Rows and columns Latin, boxes not.
    let latin_not_boxes = [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3];
    let [rows, json] = both_forms(&latin_not_boxes, 4);
    assert_eq!(puzzle.check(&rows), Err("box 1 holds 2 twice".to_string()));
    assert_eq!(puzzle.check(&json), puzzle.check(&rows));
}

#[test]
fn rows_of_the_wrong_shape_are_a_broken_answer_not_a_panic() {
    let puzzle = parse_one(sudoku::parse, "................");
    let answer = |values: Vec<i64>, width| Answer {
        json: AnswerJson::Rows { values, width },
        text: String::new(),
        objective: None,
    };
    let solved = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    assert_eq!(
        puzzle.check(&answer(solved[..12].to_vec(), 3)),
        Err("row 1 has 3 cells, expected 4".to_string())
    );
    assert_eq!(
        puzzle.check(&answer(solved[..12].to_vec(), 4)),
        Err("expected 4 rows, found 3".to_string())
    );
    assert_eq!(
        puzzle.check(&answer(solved[..14].to_vec(), 4)),
        Err("row 4 has 2 cells, expected 4".to_string())
    );
    assert!(puzzle.check(&answer(solved, 4)).is_ok());
}

fn poke(text: &str) {
    parse_and_poke(sudoku::parse, text, &[ModelOptions::default()], 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]


    /// The checker's quick yes-or-no pass agrees with the slow cell-by-cell one on grids a
    /// few changes away from a solution, and the two forms of an answer get one verdict.
    #[test]
    fn the_checker_agrees_with_its_cell_by_cell_pass(
        changes in proptest::collection::vec((0usize..81, 1i64..=9), 0..3),
        swaps in proptest::collection::vec((0usize..81, 0usize..81), 0..2),
    ) {
        let exp = &expected()["sudoku"];
        // The seed puzzle as a `Sudoku`, for its cell-by-cell pass.
        let givens: Vec<u8> = sudoku::KIND
            .seed
            .lines()
            .filter(|l| !l.starts_with('%'))
            .flat_map(|l| l.split_whitespace())
            .map(|t| t.parse().unwrap_or(0))
            .collect();
        prop_assert_eq!(givens.len(), 81);
        let seed = Sudoku {
            box_size: 3,
            n: 9,
            givens,
        };
        let mut values: Vec<i64> = (0..81)
            .map(|i| exp["solution"][i / 9][i % 9].as_i64().unwrap())
            .collect();
        for (at, v) in changes {
            values[at] = v;
        }
        for (a, b) in swaps {
            values.swap(a, b);
        }
        let [rows, json] = both_forms(&values, 9);
        let verdict = seed.check(&rows);
        prop_assert_eq!(&verdict, &seed.check(&json));
        prop_assert_eq!(verdict, seed.first_broken_rule(&values));
    }

    #[test]
    fn mutated_files_never_panic(
        which in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), any::<char>(), 0u8..3), 1..6),
    ) {
        let base = [
            sudoku::KIND.seed,
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...\n1234341221434321\n",
            "1 2 | . .\n. . | 1 2\n----+----\n2 1 | . .\n. . | 2 1\n",
        ][which];
        poke(&mutate(base, &edits));
    }
}
