//! Slider: the seed's stand-in answer, breadth-first search as an independent judge on random
//! boards (shortest length, and UNSATISFIABLE exactly when the target is out of reach), the
//! checker, malformed input, and parsers that never panic.

use engine::rng::Rng;
use puzzles::common::{all_solutions, Answer};
use puzzles::slider::{parse_board, Slider, KIND};
use puzzles::{Instance, ModelOptions, Purpose};
use serde_json::{json, Value};
use std::collections::VecDeque;

mod support;
use support::expected;

fn counting() -> ModelOptions {
    ModelOptions {
        purpose: Purpose::Count,
        ..Default::default()
    }
}

/// Fewest slides by breadth-first search over resting cells, and the number of shortest paths.
fn bfs(s: &Slider) -> Option<(usize, u64)> {
    let index = |(r, c): (usize, usize)| r * s.cols + c;
    let mut dist = vec![usize::MAX; s.rows * s.cols];
    let mut ways = vec![0u64; s.rows * s.cols];
    dist[index(s.start)] = 0;
    ways[index(s.start)] = 1;
    let mut queue = VecDeque::from([s.start]);
    while let Some(cell) = queue.pop_front() {
        if cell == s.target {
            continue; // the block stops on the target
        }
        for next in s.slides_from(cell) {
            let (a, b) = (index(cell), index(next));
            if dist[b] == usize::MAX {
                dist[b] = dist[a] + 1;
                queue.push_back(next);
            }
            if dist[b] == dist[a] + 1 {
                ways[b] += ways[a];
            }
        }
    }
    let t = index(s.target);
    (dist[t] != usize::MAX).then(|| (dist[t], ways[t]))
}

#[test]
fn seed_stand_in_takes_three_slides_along_the_expected_path() {
    let want = &expected()["slider"];
    let board = parse_board(KIND.seed).unwrap();
    let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
    assert!(outcome, "optimality proved");
    let best = answers.last().unwrap();
    assert_eq!(best.objective, want["objective"].as_i64());
    assert_eq!(best.json, want["solution"]);
    assert_eq!(
        bfs(&board),
        Some((3, want["shortest_paths"].as_u64().unwrap()))
    );
}

fn random_board(rng: &mut Rng, rows: usize, cols: usize) -> Slider {
    let mut free = vec![vec![true; cols]; rows];
    for row in free.iter_mut() {
        for cell in row.iter_mut() {
            *cell = rng.below(4) != 0;
        }
    }
    let mut pick = |free: &mut Vec<Vec<bool>>| loop {
        let (r, c) = (
            rng.below(rows as u64) as usize,
            rng.below(cols as u64) as usize,
        );
        if free[r][c] {
            free[r][c] = false; // so that start and target differ; restored below
            return (r, c);
        }
    };
    let start = pick(&mut free);
    let target = pick(&mut free);
    free[start.0][start.1] = true;
    free[target.0][target.1] = true;
    Slider {
        rows,
        cols,
        free,
        start,
        target,
    }
}

#[test]
fn random_boards_agree_with_breadth_first_search() {
    let mut rng = Rng::new(42);
    let (mut reachable, mut unreachable) = (0, 0);
    for round in 0..80 {
        let side = 4 + round % 9;
        let board = random_board(&mut rng, side, side + round % 3);
        let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
        assert!(outcome);
        match bfs(&board) {
            Some((d, _)) => {
                reachable += 1;
                assert_eq!(
                    answers.last().unwrap().objective,
                    Some(d as i64),
                    "{board:?}"
                );
            }
            None => {
                unreachable += 1;
                assert!(answers.is_empty(), "no path exists on {board:?}");
                let (paths, complete) = all_solutions(&board, &counting(), None).unwrap();
                assert!(complete && paths.is_empty());
            }
        }
    }
    assert!(
        reachable > 10 && unreachable > 3,
        "{reachable} {unreachable}"
    );
}

#[test]
fn an_unreachable_target_is_unsatisfiable_at_the_root() {
    // The target sits in a pocket the block can never stop in.
    let board = parse_board("S...\n####\n.T..").unwrap();
    let built = board.build(&ModelOptions::default()).unwrap();
    let mut model = built.model.clone();
    assert!(model.propagate().is_err(), "propagation alone proves it");
    let (answers, outcome) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
    assert!(outcome && answers.is_empty());
    // Tiny boards with known answers: walled in, next to the target, behind a wall.
    for (text, slides) in [
        ("###\n#S#\n###\nT..", None),
        ("ST", Some(1)),
        ("T.S", Some(1)),
        ("S#T", None),
        ("S.\n.T", Some(2)),
    ] {
        let board = parse_board(text).unwrap();
        let (answers, complete) = all_solutions(&board, &ModelOptions::default(), None).unwrap();
        assert!(complete);
        assert_eq!(answers.last().and_then(|a| a.objective), slides, "{text}");
    }
}

#[test]
fn checker_rejects_broken_paths() {
    let board = parse_board(KIND.seed).unwrap();
    let good = expected()["slider"]["solution"].clone();
    let ok = |json: Value, objective: i64| {
        board.check(&Answer {
            json: json.into(),
            text: String::new(),
            objective: Some(objective),
        })
    };
    assert!(ok(good.clone(), 3).is_ok());
    assert!(ok(good.clone(), 2).is_err(), "wrong objective");
    // Stopping partway: (3,2) up to (1,2)? the block slides to (2,2) and stops there.
    assert!(ok(json!([[3, 2], [1, 2], [2, 3], [5, 3]]), 3).is_err());
    assert!(
        ok(json!([[3, 2], [2, 2], [2, 3]]), 2).is_err(),
        "not at target"
    );
    assert!(
        ok(json!([[2, 2], [2, 3], [5, 3]]), 2).is_err(),
        "not from the start"
    );
    assert!(ok(json!([[3, 2], [2, 2], [2, 3], [5, 3], [5, 3]]), 4).is_err());
    assert!(ok(json!([[3, 2], [0, 2]]), 1).is_err());
    assert!(ok(json!("up"), 1).is_err());
}

#[test]
fn malformed_input_names_the_line() {
    let line_of = |text: &str| parse_board(text).unwrap_err().line;
    assert_eq!(line_of(""), 0);
    assert_eq!(line_of("% c\nS..\n..\n.T."), 3, "ragged row");
    assert_eq!(line_of("S..\n.x.\n..T"), 2, "unknown cell");
    assert_eq!(line_of("S..\n.S.\n..T"), 2, "two blocks");
    assert_eq!(line_of("S.T\n..T"), 2, "two targets");
    assert_eq!(line_of("S..\n...\n% no target\n"), 2, "no target: last row");
    assert_eq!(line_of("...\n..T"), 2, "no block");
    let middle = ".".repeat(41) + "\n";
    let huge = format!(
        "S{}\n{}{}T\n",
        ".".repeat(40),
        middle.repeat(39),
        ".".repeat(40)
    );
    assert_eq!(line_of(&huge), 1, "41x41 is over the limit");
    assert!(
        parse_board("S T\n. .").is_ok(),
        "spaces inside a row are ignored"
    );
}
