//! Kakuro: the seed's answer and count at every level, a sample of janko.at's puzzles (read
//! from ../shared/data when present), the checker, the parser's error lines, never-panic
//! property tests.

use proptest::prelude::*;
use puzzles::common::{all_solutions_every_level, parse_and_poke};
use puzzles::kakuro;
use puzzles::{Answer, ModelOptions, SumLevel};
use serde_json::{json, Value};
use std::path::PathBuf;

mod support;
use support::{error_line, expected, parse_one};

fn sum_options() -> [ModelOptions; 2] {
    [SumLevel::Bounds, SumLevel::Domain].map(|sum| ModelOptions {
        sum,
        ..Default::default()
    })
}

#[test]
fn seed_has_the_expected_unique_solution_at_every_level() {
    let exp = &expected()["kakuro"];
    let puzzle = parse_one(kakuro::parse, kakuro::KIND.seed);
    for options in sum_options() {
        let (answers, complete) =
            all_solutions_every_level(puzzle.as_ref(), &options, None).unwrap();
        assert!(complete);
        assert_eq!(answers.len() as u64, exp["count"].as_u64().unwrap());
        assert_eq!(answers[0].json, exp["solution"]);
    }
}

#[test]
fn seed_has_the_thirty_runs_of_the_seed() {
    let puzzle = kakuro::parse(kakuro::KIND.seed).unwrap();
    // The instance is a Kakuro; its Debug output lists its runs.
    let debug = format!("{:?}", puzzle[0]);
    assert_eq!(debug.matches("Run {").count(), 30);
}

#[test]
fn checker_rejects_broken_fillings() {
    let exp = &expected()["kakuro"];
    let puzzle = parse_one(kakuro::parse, kakuro::KIND.seed);
    let answer = |json: Value| Answer {
        json: json.into(),
        text: String::new(),
        objective: None,
    };
    assert!(puzzle.check(&answer(exp["solution"].clone())).is_ok());
    // Row 2 is `3 1 5 2`: swapping 3 and 1 keeps the across sum but breaks two down sums.
    let mut swapped = exp["solution"].clone();
    swapped[1][1] = json!(1);
    swapped[1][2] = json!(3);
    assert!(puzzle.check(&answer(swapped)).unwrap_err().contains("down"));
    // A digit changed: a sum is off.
    let mut off = exp["solution"].clone();
    off[1][1] = json!(4);
    assert!(puzzle.check(&answer(off)).unwrap_err().contains("adds up"));
    // A number in a clue cell, a null in a white cell, a 0.
    let mut clue = exp["solution"].clone();
    clue[0][0] = json!(1);
    assert!(puzzle.check(&answer(clue)).is_err());
    let mut hole = exp["solution"].clone();
    hole[1][1] = Value::Null;
    assert!(puzzle.check(&answer(hole)).is_err());
    let mut zero = exp["solution"].clone();
    zero[1][1] = json!(0);
    assert!(puzzle.check(&answer(zero)).is_err());
    assert!(puzzle.check(&answer(json!([[null]]))).is_err());
}

#[test]
fn checker_rejects_a_repeated_digit_even_when_the_sum_is_right() {
    // One across run of two cells summing to 4: 2 + 2 has the sum but repeats.
    let puzzle = parse_one(kakuro::parse, "# # #\n\\4 . .\n");
    let bad = json!([[null, null, null], [null, 2, 2]]);
    let err = puzzle
        .check(&Answer {
            json: bad.into(),
            text: String::new(),
            objective: None,
        })
        .unwrap_err();
    assert!(err.contains("twice"), "{err}");
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len(), 2); // 1 3 and 3 1
}

#[test]
fn single_cell_runs_and_impossible_totals() {
    // A clue may announce one cell; a total above 9 for one cell is unsatisfiable, not
    // malformed.
    let one = parse_one(kakuro::parse, "#  3\\\n\\2 .\n");
    let (answers, complete) =
        all_solutions_every_level(one.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert!(answers.is_empty(), "3 down and 2 across on one cell");
    let ok = parse_one(kakuro::parse, "# 7\\\n\\7 .\n");
    let (answers, _) =
        all_solutions_every_level(ok.as_ref(), &ModelOptions::default(), None).unwrap();
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].json, json!([[null, null], [null, 7]]));
    let big = parse_one(kakuro::parse, "\\12 .\n");
    let (answers, complete) =
        all_solutions_every_level(big.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete && answers.is_empty());
}

#[test]
fn malformed_files_name_the_line() {
    assert_eq!(error_line(kakuro::parse, ""), 0);
    assert_eq!(error_line(kakuro::parse, "% only a comment\n\n"), 0);
    // An unknown token, a bad total, two backslashes.
    assert_eq!(error_line(kakuro::parse, "# 4\\\n\\3 x\n"), 2);
    assert_eq!(error_line(kakuro::parse, "# 0\\\n\\3 .\n"), 1);
    assert_eq!(error_line(kakuro::parse, "# 46\\\n\\3 .\n"), 1);
    assert_eq!(error_line(kakuro::parse, "# 4\\\n\\3\\1 .\n"), 2);
    assert_eq!(error_line(kakuro::parse, "# a\\\n\\3 .\n"), 1);
    // Rows of different widths.
    assert_eq!(error_line(kakuro::parse, "# 4\\ 3\\\n\\3 .\n"), 2);
    // A clue announcing nothing: across at the end of a row, down above a black cell.
    assert_eq!(error_line(kakuro::parse, "# 4\\\n\\3 .\n# \\5\n"), 3);
    assert_eq!(error_line(kakuro::parse, "# 4\\ 5\\\n\\3 . #\n"), 1);
    // A run of two cells without a clue: across (no clue on the left), down (none above).
    assert_eq!(
        error_line(kakuro::parse, "% comment\n# 4\\ 3\\\n# . .\n"),
        3
    );
    assert_eq!(error_line(kakuro::parse, "# # #\n\\4 . .\n# # .\n"), 2);
    // The seed with one clue removed: line numbers follow the file's own lines.
    let seed = kakuro::KIND.seed.replacen("\\11", "  #", 1);
    assert_eq!(error_line(kakuro::parse, &seed), 3);
    // Binary junk.
    assert_eq!(error_line(kakuro::parse, ". .\n\u{0}\n"), 2);
}

// ----- janko.at's collection, from ../shared/data (never copied into the repository) ------

fn janko_file() -> Option<PathBuf> {
    engine::testing::data_path("kakuro/janko_kakuro_puzzlekit.json")
}

/// puzzlekit's grid (`-` black, `0` white, `D,A` clue, first line `H W`) in the form of docs/formats.md.
fn convert_problem(problem: &str) -> String {
    let mut out = String::new();
    for line in problem.lines().skip(1) {
        let tokens: Vec<String> = line
            .split_whitespace()
            .map(|t| match t {
                "-" => "#".to_string(),
                "0" => ".".to_string(),
                clue => clue.replace(',', "\\"),
            })
            .collect();
        out.push_str(&tokens.join(" "));
        out.push('\n');
    }
    out
}

/// puzzlekit's solution grid as the JSON of docs/formats.md: a digit for white cells, null otherwise.
fn convert_solution(solution: &str) -> Value {
    Value::Array(
        solution
            .lines()
            .skip(1)
            .map(|line| {
                Value::Array(
                    line.split_whitespace()
                        .map(|t| t.parse::<i64>().map_or(Value::Null, Value::from))
                        .collect(),
                )
            })
            .collect(),
    )
}

#[test]
fn janko_sample_matches_the_published_solutions() {
    let Some(path) = janko_file() else {
        return;
    };
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let entries = data["data"].as_object().unwrap();
    // Every 10th puzzle (100, sizes from 10×12 up to 31×46): with `--sum domain` each is
    // solved by propagation alone.
    let mut tested = 0;
    for (i, (name, entry)) in entries.iter().enumerate() {
        if i % 10 != 0 {
            continue;
        }
        let text = convert_problem(entry["problem"].as_str().unwrap());
        let want = convert_solution(entry["solution"].as_str().unwrap());
        let puzzle = parse_one(kakuro::parse, &text);
        let options = ModelOptions {
            sum: SumLevel::Domain,
            alldiff: engine::AllDiffLevel::Domain,
            ..Default::default()
        };
        // Uniqueness and the published filling (every answer passes the checker inside).
        let (answers, complete) =
            puzzles::common::all_solutions(puzzle.as_ref(), &options, Some(2)).unwrap();
        assert!(complete, "{name}");
        assert_eq!(answers.len(), 1, "{name}");
        assert_eq!(answers[0].json, want, "{name}");
        tested += 1;
    }
    assert!(tested >= 5);
}

#[test]
fn janko_small_puzzles_agree_at_every_level() {
    let Some(path) = janko_file() else {
        return;
    };
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (name, entry) in data["data"].as_object().unwrap().iter().take(3) {
        let text = convert_problem(entry["problem"].as_str().unwrap());
        let want = convert_solution(entry["solution"].as_str().unwrap());
        let puzzle = parse_one(kakuro::parse, &text);
        for options in sum_options() {
            let (answers, complete) =
                all_solutions_every_level(puzzle.as_ref(), &options, None).unwrap();
            assert!(complete, "{name}");
            assert_eq!(answers.len(), 1, "{name}");
            assert_eq!(answers[0].json, want, "{name}");
        }
    }
}

// ----- never panic -------------------------------------------------------------------------

fn poke(text: &str) {
    parse_and_poke(kakuro::parse, text, &sum_options(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_tokens_never_panic(
        tokens in proptest::collection::vec(
            prop_oneof![Just("."), Just("#"), Just("\\3"), Just("4\\"), Just("16\\7"), Just("\n")],
            0..40,
        )
    ) {
        poke(&tokens.join(" "));
    }

}
