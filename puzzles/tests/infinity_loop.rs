//! Infinity Loop: the seed's frame (one picture, 10 turns), brute force over every turn vector
//! on small boards, generated boards (a random valid picture, tiles turned at random), the
//! checker, malformed input, and parsers that never panic.

use engine::rng::Rng;
use puzzles::common::{all_solutions, Answer};
use puzzles::infinity_loop::{parse_board, InfinityLoop, BOX, KIND};
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
fn seed_frame_is_one_ring_in_ten_turns() {
    let want = &expected()["loop"];
    let board = parse_board(KIND.seed).unwrap();
    let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
    assert!(outcome);
    let best = answers.last().unwrap();
    assert_eq!(best.objective, want["objective"].as_i64());
    assert_eq!(best.json, want["solution"]);
    let (pictures, count) = all_solutions(&board, &counting(), None).unwrap();
    assert!(count);
    assert_eq!(pictures.len() as u64, want["count"].as_u64().unwrap());
    assert!(pictures.iter().all(|p| p.json == want["solution"]));
}

/// A random valid picture (each inner edge a line or not, none across the border), every tile
/// then turned at random, as text in box-drawing characters or hexadecimal masks.
fn scrambled(rng: &mut Rng, rows: usize, cols: usize, density: u64, hex: bool) -> String {
    let mut mask = vec![0u8; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if c + 1 < cols && rng.below(100) < density {
                mask[i] |= 2;
                mask[i + 1] |= 8;
            }
            if r + 1 < rows && rng.below(100) < density {
                mask[i] |= 4;
                mask[i + cols] |= 1;
            }
        }
    }
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let mut m = mask[r * cols + c];
            for _ in 0..rng.below(4) {
                m = ((m << 1) | (m >> 3)) & 15; // a quarter turn (either way: scrambling)
            }
            text.push(if hex {
                char::from_digit(u32::from(m), 16).unwrap()
            } else {
                BOX[m as usize]
            });
        }
        text.push('\n');
    }
    text
}

#[test]
fn optimum_and_picture_count_match_brute_force() {
    let mut rng = Rng::new(8);
    for round in 0..40 {
        let (rows, cols) = [(2, 2), (2, 3), (3, 3), (1, 4), (2, 4)][round % 5];
        let board = parse_board(&scrambled(&mut rng, rows, cols, 60, round % 2 == 0)).unwrap();
        let (best, pictures) = board.board().brute_force();
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
fn generated_larger_boards_are_solved_and_checked() {
    let mut rng = Rng::new(1);
    for (rows, cols, density) in [(6, 6, 50), (10, 10, 60), (15, 20, 55), (30, 30, 50)] {
        let text = scrambled(&mut rng, rows, cols, density, false);
        let board: InfinityLoop = parse_board(&text).unwrap();
        let (answers, _) = all_solutions(&board, &ModelOptions::default(), Some(1)).unwrap();
        assert_eq!(
            answers.len() as u64,
            1,
            "{rows}x{cols}: the generating picture exists"
        );
        assert_eq!(answers.len(), 1);
    }
}

#[test]
fn a_line_that_must_leave_the_board_is_unsatisfiable() {
    for text in ["┼", "╵", "──", "┌┐\n└┤"] {
        let board = parse_board(text).unwrap();
        let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
        assert!(outcome && answers.is_empty(), "{text}");
    }
}

#[test]
fn checker_rejects_broken_pictures() {
    let board = parse_board(KIND.seed).unwrap();
    let good = expected()["loop"]["solution"].clone();
    let ok = |json: Value, objective: i64| {
        board.check(&Answer {
            json: json.into(),
            text: String::new(),
            objective: Some(objective),
        })
    };
    assert!(ok(good.clone(), 10).is_ok());
    assert!(
        ok(good.clone(), 12).is_err(),
        "objective is not the fewest turns"
    );
    assert!(
        ok(json!(["┌─┐", "│·│", "└─┐"]), 10).is_err(),
        "not a turn of ┌"
    );
    assert!(ok(json!(["┌─┐", "│·│", "└┘┘"]), 10).is_err());
    assert!(
        ok(json!(["│─┐", "│·│", "└─┘"]), 10).is_err(),
        "a line leaves the board"
    );
    assert!(ok(json!(["┌─┐", "│·│"]), 10).is_err());
    assert!(ok(json!(["┌─┐", "│x│", "└─┘"]), 10).is_err());
    assert!(ok(json!(["┌─┐", "│·│", "└─┘X"]), 10).is_err());
}

#[test]
fn malformed_input_names_the_line() {
    let line_of = |text: &str| parse_board(text).unwrap_err().line;
    assert_eq!(line_of(""), 0);
    assert_eq!(line_of("% c\n┌┐\n└┘┘"), 3, "ragged");
    assert_eq!(line_of("┌┐\nxy"), 2, "not a tile");
    assert_eq!(line_of("┌┐\n└\u{7}"), 2, "a control character");
    let row = "0".repeat(101) + "\n";
    assert_eq!(line_of(&row.repeat(100)), 1, "too large");
    assert_eq!(
        parse_board("6c\n39").unwrap(),
        parse_board("┌┐\n└┘").unwrap()
    );
    assert_eq!(parse_board(". 0\n· 0").unwrap().masks, vec![0; 4]);
}
