//! Match 22: the seed's stand-in (27 turns, one picture), brute force over every turn vector
//! on small boards (optimum and number of pictures), generated boards, the checker, malformed
//! input, and parsers that never panic.

use engine::rng::Rng;
use puzzles::common::{all_solutions, Answer};
use puzzles::match22::{parse_board, Match22, KIND};
use puzzles::rotation::{turned, RotationBoard};
use puzzles::{Instance, ModelOptions, Purpose};
use serde_json::{json, Value};

mod support;
use support::expected;

fn counting() -> ModelOptions {
    ModelOptions {
        purpose: Purpose::Count,
        ..Default::default()
    }
}

#[test]
fn seed_stand_in_needs_27_turns_and_has_one_picture() {
    let want = &expected()["match22"];
    let board = parse_board(KIND.seed).unwrap();
    let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
    assert!(outcome, "optimum proved");
    let best = answers.last().unwrap();
    assert_eq!(best.objective, want["objective"].as_i64());
    assert_eq!(
        best.json, want["solution"],
        "the optimum is met one way only"
    );
    let (count_answers, count) = all_solutions(&board, &counting(), None).unwrap();
    assert!(count);
    assert!(count);
    assert_eq!(count_answers.len() as u64, want["count"].as_u64().unwrap());
}

/// A board from a valid picture of `colours` colours, each disk then turned at random; some
/// places left empty when `holes`.
fn scrambled(rng: &mut Rng, rows: usize, cols: usize, colours: u64, holes: bool) -> Match22 {
    let colour = |rng: &mut Rng| (b'A' + rng.below(colours) as u8) as char;
    let mut picture: Vec<[char; 4]> = (0..rows * cols)
        .map(|_| [0; 4].map(|_| colour(rng)))
        .collect();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if c + 1 < cols {
                picture[i + 1][1] = picture[i][3];
            }
            if r + 1 < rows {
                picture[i + cols][0] = picture[i][2];
            }
        }
    }
    let rows_text: Vec<String> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if holes && rng.below(6) == 0 {
                        "....".to_string()
                    } else {
                        let k = rng.below(4) as usize;
                        turned(&picture[r * cols + c], k).iter().collect()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = format!("size {rows} {cols}\n{}\n", rows_text.join("\n"));
    parse_board(&text).unwrap()
}

#[test]
fn optimum_and_picture_count_match_brute_force() {
    let mut rng = Rng::new(22);
    for round in 0..40 {
        let (rows, cols) = [(1, 3), (2, 2), (2, 3), (3, 2), (3, 3)][round % 5];
        let board = scrambled(&mut rng, rows, cols, 2 + (round as u64 % 3), round % 4 == 0);
        let (best, pictures) = board.board.brute_force();
        let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
        assert!(outcome);
        assert_eq!(
            answers.last().and_then(|a| a.objective),
            best.map(|b| b as i64)
        );
        let (count_answers, count) = all_solutions(&board, &counting(), None).unwrap();
        assert!(count);
        assert_eq!(count_answers.len() as u64, pictures as u64, "{board:?}");
    }
}

#[test]
fn random_boards_without_a_picture_are_unsatisfiable() {
    let mut rng = Rng::new(5);
    let mut unsat = 0;
    for _ in 0..30 {
        let text = format!(
            "size 2 3\n{}\n{}\n",
            (0..3)
                .map(|_| (0..4)
                    .map(|_| (b'A' + rng.below(3) as u8) as char)
                    .collect::<String>())
                .collect::<Vec<_>>()
                .join(" "),
            (0..3)
                .map(|_| (0..4)
                    .map(|_| (b'A' + rng.below(3) as u8) as char)
                    .collect::<String>())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let board = parse_board(&text).unwrap();
        let (best, _) = board.board.brute_force();
        let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
        assert!(outcome);
        assert_eq!(
            answers.last().and_then(|a| a.objective),
            best.map(|b| b as i64)
        );
        unsat += usize::from(best.is_none());
    }
    assert!(unsat > 0, "some random boards have no picture");
}

#[test]
fn generated_larger_boards_are_solved_and_checked() {
    let mut rng = Rng::new(2022);
    for (rows, cols) in [(4, 5), (6, 6), (8, 8), (10, 12)] {
        let board = scrambled(&mut rng, rows, cols, 4, false);
        let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
        assert!(outcome, "{rows}x{cols}");
        let best = answers.last().expect("the generating picture exists");
        // No more turns than undoing the scramble, disk by disk.
        assert!(best.objective.unwrap() <= 3 * (rows * cols) as i64);
    }
}

#[test]
fn empty_places_touch_nothing() {
    let board = parse_board("size 1 3\nAAAA .... BBBB").unwrap();
    let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
    assert!(outcome);
    assert_eq!(answers.last().unwrap().json, json!([0, 0]));
    let (count_answers, count) = all_solutions(&board, &counting(), None).unwrap();
    assert!(count);
    assert_eq!(count_answers.len() as u64, 1);
    // A board of empty places only: nothing to turn, one (empty) answer of 0 turns.
    let board = parse_board("size 2 2\n.... ....\n.... ....").unwrap();
    let (answers, complete) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.last().unwrap().json, json!([]));
    assert_eq!(answers.last().unwrap().objective, Some(0));
}

#[test]
fn checker_rejects_broken_answers() {
    let board = parse_board(KIND.seed).unwrap();
    let good = expected()["match22"]["solution"].clone();
    let ok = |json: Value, objective: i64| {
        board.check(&Answer {
            json: json.into(),
            text: String::new(),
            objective: Some(objective),
        })
    };
    assert!(ok(good.clone(), 27).is_ok());
    assert!(ok(good.clone(), 26).is_err(), "objective not the sum");
    let mut wrong = good.clone();
    wrong[0] = json!((wrong[0].as_u64().unwrap() + 1) % 4);
    assert!(ok(wrong, 27).unwrap_err().contains("disagree"));
    let mut too_big = good.clone();
    too_big[0] = json!(5);
    assert!(ok(too_big, 31).is_err());
    let mut short = good.clone();
    short.as_array_mut().unwrap().pop();
    assert!(ok(short, 27).is_err());
    assert!(ok(json!({"turns": 1}), 1).is_err());
    let _: &RotationBoard = &board.board;
}

#[test]
fn malformed_input_names_the_line() {
    let line_of = |text: &str| parse_board(text).unwrap_err().line;
    assert_eq!(line_of(""), 0);
    assert_eq!(line_of("% c\nsize 2\nAAAA"), 2);
    assert_eq!(line_of("size 0 3\n"), 1);
    assert_eq!(line_of("dims 1 1\nAAAA"), 1);
    assert_eq!(line_of("size 1 2\nAAAA"), 2, "too few disks in the row");
    assert_eq!(
        line_of("size 1 2\n\nAAAA BBB"),
        3,
        "a disk of three colours"
    );
    assert_eq!(line_of("size 2 1\nAAAA"), 2, "a missing row: the last line");
    assert_eq!(line_of("size 1 1\nAAAA\n% c\nBBBB"), 4, "an extra row");
    assert!(parse_board("size 1 2\nA.BC ....").is_ok());
}
