//! Monodot: the seed's answer and count, brute-force counts on small boards, generated boards,
//! the checker, malformed input, and parsers that never panic.

use engine::rng::Rng;
use puzzles::common::{all_solutions, Answer};
use puzzles::monodot::{parse_instance, Monodot, KIND};
use puzzles::{Instance, ModelOptions, Purpose};
use serde_json::Value;

mod support;
use support::expected;

fn counting() -> ModelOptions {
    ModelOptions {
        purpose: Purpose::Count,
        ..Default::default()
    }
}

#[test]
fn seed_has_nine_placements_one_of_them_the_expected_plus() {
    let want = &expected()["monodot"];
    let seed = parse_instance(KIND.seed).unwrap();
    let (answers, _) = all_solutions(&seed, &ModelOptions::default(), Some(1)).unwrap();
    assert_eq!(answers.len(), 1);
    let (answers, all) = all_solutions(&seed, &counting(), None).unwrap();
    assert!(all);
    assert_eq!(answers.len() as u64, want["count"].as_u64().unwrap());
    assert!(
        answers.iter().any(|a| a.json == want["solution"]),
        "the expected plus is among the placements"
    );
    let distinct: std::collections::HashSet<String> =
        answers.iter().map(|a| a.json.to_string()).collect();
    assert_eq!(distinct.len(), answers.len(), "no placement twice");
}

/// Every placement of the labels by brute force: choose cells, then labels.
fn brute_force_count(m: &Monodot) -> u64 {
    let cells = m.rows * m.cols;
    let mut labels = vec![None; cells];
    let mut remaining = m.wanted();
    fn place(
        m: &Monodot,
        cell: usize,
        labels: &mut Vec<Option<usize>>,
        remaining: &mut [usize; 9],
        left: usize,
    ) -> u64 {
        if left == 0 {
            let board: Vec<Vec<Option<usize>>> =
                labels.chunks(m.cols).map(|r| r.to_vec()).collect();
            return u64::from(m.check_board(&board).is_ok());
        }
        if cell == labels.len() {
            return 0;
        }
        let mut n = place(m, cell + 1, labels, remaining, left);
        for d in 1..=8 {
            if remaining[d] > 0 {
                remaining[d] -= 1;
                labels[cell] = Some(d);
                n += place(m, cell + 1, labels, remaining, left - 1);
                labels[cell] = None;
                remaining[d] += 1;
            }
        }
        n
    }
    place(m, 0, &mut labels, &mut remaining, m.degrees.len())
}

#[test]
fn counts_match_brute_force_on_small_boards() {
    let cases = [
        (3, 3, vec![1, 1]),
        (3, 3, vec![2, 2, 2]),
        (3, 4, vec![3, 3, 3, 3]),
        (4, 4, vec![1, 2, 1]),
        (4, 4, vec![4, 3, 3, 3, 3]),
        (3, 3, vec![8, 1, 1, 1, 1, 1, 1, 1, 1]),
        (2, 5, vec![3, 2, 2, 1]),
        (4, 3, vec![5, 2, 2, 2, 2, 2]),
        (3, 3, vec![3, 3]),
    ];
    for (rows, cols, degrees) in cases {
        let m = Monodot {
            rows,
            cols,
            degrees: degrees.clone(),
        };
        let (outcome_answers, outcome) = all_solutions(&m, &counting(), None).unwrap();
        assert!(outcome);
        assert_eq!(
            outcome_answers.len() as u64,
            brute_force_count(&m),
            "{rows}x{cols} {degrees:?}"
        );
    }
}

#[test]
fn generated_boards_are_solved_and_checked() {
    let mut rng = Rng::new(2026);
    let mut solved = 0;
    while solved < 16 {
        // From 5×5 up to 16×16, about a quarter of the cells used.
        let (rows, cols) = (5 + rng.below(12) as usize, 5 + rng.below(12) as usize);
        let mut used = vec![vec![false; cols]; rows];
        for _ in 0..(rows * cols / 4) {
            used[rng.below(rows as u64) as usize][rng.below(cols as u64) as usize] = true;
        }
        let mut degrees = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if used[r][c] {
                    let d = puzzles::common::king_neighbours(rows, cols, r, c)
                        .iter()
                        .filter(|&&(a, b)| used[a][b])
                        .count();
                    degrees.push(d);
                }
            }
        }
        if degrees.contains(&0) {
            continue; // a node with no neighbour is not a Monodot node
        }
        let m = Monodot {
            rows,
            cols,
            degrees,
        };
        let (answers, _) = all_solutions(&m, &ModelOptions::default(), Some(1)).unwrap();
        assert_eq!(answers.len() as u64, 1, "the generating placement exists");
        assert_eq!(answers.len(), 1);
        solved += 1;
    }
}

#[test]
fn checker_rejects_broken_boards() {
    let seed = parse_instance(KIND.seed).unwrap();
    let good = expected()["monodot"]["solution"].clone();
    let ok = |json: Value| {
        seed.check(&Answer {
            json: json.into(),
            text: String::new(),
            objective: None,
        })
    };
    assert!(ok(good.clone()).is_ok());
    let mut wrong_label = good.clone();
    wrong_label[2][2] = 3.into();
    assert!(ok(wrong_label).is_err());
    let mut moved = good.clone();
    moved[1][2] = Value::Null;
    moved[0][0] = 3.into();
    assert!(ok(moved).unwrap_err().contains("wants 3"));
    let mut extra = good.clone();
    extra[4][4] = 1.into();
    assert!(ok(extra).is_err());
    let mut short = good.clone();
    short.as_array_mut().unwrap().pop();
    assert!(ok(short).is_err());
    assert!(ok(Value::from("plus")).is_err());
}

#[test]
fn malformed_input_names_the_line() {
    let line_of = |text: &str| parse_instance(text).unwrap_err().line;
    assert_eq!(line_of(""), 0);
    assert_eq!(line_of("% only a comment\n"), 0);
    assert_eq!(line_of("grid 5\ndegrees 9 3"), 2, "degree above 8");
    assert_eq!(line_of("grid 5\ndegrees 0"), 2, "degree 0");
    assert_eq!(line_of("% c\n\ngrid 0\ndegrees 1"), 3);
    assert_eq!(
        line_of("grid 2\n% c\ndegrees 1 1 1 1 1"),
        3,
        "5 nodes on 4 cells"
    );
    assert_eq!(line_of("grid 5 5 5\ndegrees 1"), 1);
    assert_eq!(line_of("grid 5\ngrid 4\ndegrees 1"), 2);
    assert_eq!(line_of("grid 5\ndegrees 3 x"), 2);
    assert_eq!(line_of("grid 5\ndegrees"), 2);
    assert_eq!(line_of("grid 5\nnodes 3"), 2);
    assert_eq!(line_of("grid 5\n"), 1, "no degrees line: the last line");
    assert!(parse_instance("grid 5\ndegrees 8 1").is_ok());
    assert!(parse_instance("degrees 1 1\ngrid 1 2").is_ok());
}
