//! Flow Free and Numberlink: counts against brute force on tiny boards, the checker, the parser's error
//! lines, never-panic property tests (Zucker's levels are in `beyond.rs`).

use puzzles::common::all_solutions;
use puzzles::flow;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, parse_one};

/// Which cells an answer leaves empty (`null` in its JSON grid), row by row.
fn empty_cells(answer: &puzzles::Answer) -> Vec<bool> {
    (answer.json.to_value().as_array().unwrap().iter())
        .flat_map(|row| row.as_array().unwrap().iter().map(|c| c.is_null()))
        .collect()
}

fn count(text: &str) -> usize {
    count_with(flow::parse, text)
}

fn count_with(parse: puzzles::Parse, text: &str) -> usize {
    let puzzle = parse_one(parse, text);
    let (answers, complete) =
        all_solutions(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    answers.len()
}

/// Every labelling of the free cells, checked against the rules by the puzzle's checker.
fn brute_force(text: &str) -> usize {
    brute_force_with(flow::parse, text, false)
}

/// The same where a free cell may also stay empty (`null`, Numberlink).
fn brute_force_with(parse: puzzles::Parse, text: &str, empty: bool) -> usize {
    let puzzle = parse_one(parse, text);
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let mut labels: Vec<char> = rows
        .iter()
        .flatten()
        .copied()
        .filter(|&c| c != '.')
        .collect();
    labels.sort();
    labels.dedup();
    let free: Vec<(usize, usize)> = (0..rows.len())
        .flat_map(|r| (0..rows[0].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r][c] == '.')
        .collect();
    let mut found = 0;
    let choices = labels.len() + empty as usize;
    for code in 0..choices.pow(free.len() as u32) {
        let mut grid: Vec<Vec<serde_json::Value>> = rows
            .iter()
            .map(|r| r.iter().map(|c| json!(c.to_string())).collect())
            .collect();
        let mut x = code;
        for &(r, c) in &free {
            grid[r][c] = labels
                .get(x % choices)
                .map_or(json!(null), |l| json!(l.to_string()));
            x /= choices;
        }
        found += puzzle.check(&answer(json!(grid))).is_ok() as usize;
    }
    found
}

#[test]
fn counts_agree_with_brute_force_on_tiny_boards() {
    for board in [
        "A.B\n...\nA.B",
        "AB.\n...\n.AB",
        "A..\n.BB\n..A",
        "A...\n.BC.\n....\nCB.A",
        "A..A\n....\nB..B",
        "A..\n...\n..A",
        // Parity 1 and -1 (`Flow::empty_parity`): no covering, Numberlink needs empty cells.
        "AA.\n...\n...",
        "A.B\nB..\n.A.",
    ] {
        assert_eq!(count(board), brute_force(board), "{board}");
        if board.matches('.').count() > 7 {
            continue; // 4^10 labellings: too many for the brute force
        }
        assert_eq!(
            count_with(flow::parse_numberlink, board),
            brute_force_with(flow::parse_numberlink, board, true),
            "numberlink {board}"
        );
    }
}

#[test]
fn parity_counts_the_empty_cells_every_solution_leaves() {
    // 3×3, dark corners and centre: A joins a dark and a light cell, so the paths use as
    // many of each and the empty cells hold one dark cell more than light ones.
    let board = "AA.\n...\n...";
    let puzzle = flow::parse_flow(board).unwrap();
    assert_eq!(puzzle.empty_parity(), 1);
    assert_eq!(count(board), 0, "no covering of a board of parity 1");
    let numberlink = parse_one(flow::parse_numberlink, board);
    let (answers, complete) =
        all_solutions(numberlink.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete && !answers.is_empty());
    for answer in answers {
        let cells = empty_cells(&answer);
        let excess: i64 = (0..9)
            .filter(|&i| cells[i])
            .map(|i| if puzzle.is_dark(i) { 1 } else { -1 })
            .sum();
        assert_eq!(excess, 1);
    }
}

#[test]
fn checker_rejects_broken_labellings() {
    let puzzle = parse_one(flow::parse, "A.A\nB.B\n");
    assert!(puzzle
        .check(&answer(json!([["A", "A", "A"], ["B", "B", "B"]])))
        .is_ok());
    assert!(puzzle
        .check(&answer(json!([["A", "B", "A"], ["B", "A", "B"]])))
        .is_err());
    assert!(puzzle
        .check(&answer(json!([["A", "A", "A"], ["B", "C", "B"]])))
        .is_err());
    assert!(puzzle.check(&answer(json!([["A", "A", "A"]]))).is_err());
    assert!(puzzle.check(&answer(json!(null))).is_err());
    // A separate loop: A joins its endpoints directly, a 2×2 block of A cells beside B's path.
    let loose = parse_one(flow::parse, "AA..\nB..B\n....\n....\n");
    let err = loose
        .check(&answer(json!([
            ["A", "A", "B", "B"],
            ["B", "B", "B", "B"],
            ["A", "A", "B", "B"],
            ["A", "A", "B", "B"]
        ])))
        .unwrap_err();
    assert!(!err.is_empty());
}

#[test]
fn malformed_files_name_the_line() {
    let p = flow::parse;
    assert_eq!(error_line(p, ""), 0);
    assert_eq!(error_line(p, "A.\n..\n"), 1);
    assert_eq!(error_line(p, "A.A\n.A.\n"), 2);
    assert_eq!(error_line(p, "A.A\n..\n"), 2);
    assert_eq!(error_line(p, "A*A\n"), 1);
    assert_eq!(error_line(p, "...\n...\n"), 2);
    assert!(p("red . red\n- blue blue\n").is_ok());
}

/// The first 40 of janko.at's Arukone boards up to 15×15 (`../shared/data/numberlink`, in
/// key order: 10×10 boards the numberlink model without its search order left open after
/// 100,000 nodes among them), solved as `numberlink` within 10,000 nodes each; each answer passes
/// the checker and leaves empty exactly the cells the published solution leaves empty.
#[test]
fn janko_arukone_boards_solve_within_a_few_nodes() {
    let Some(path) = engine::testing::data_path("numberlink/janko_numberlink_puzzlekit.json")
    else {
        return;
    };
    let set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut keys: Vec<&String> = set["data"].as_object().unwrap().keys().collect();
    keys.sort();
    let small = |key: &&String| {
        let (rows, cols) = key.rsplit_once('_').unwrap().1.split_once('x').unwrap();
        rows.parse::<usize>().unwrap() * cols.parse::<usize>().unwrap() <= 225
    };
    for key in keys.into_iter().filter(small).take(40) {
        let entry = &set["data"][key];
        let text: String = entry["problem"]
            .as_str()
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect();
        let puzzle = parse_one(flow::parse_numberlink, &text);
        let built = puzzle.build(&ModelOptions::default()).unwrap();
        let mut model = built.model.clone();
        let mut config = built.search.clone();
        config.limits.nodes = Some(10_000);
        let outcome = engine::solve(&mut model, &config);
        let solution = outcome
            .best
            .unwrap_or_else(|| panic!("{key}: no answer within 10,000 nodes"));
        let answer = puzzle.answer(&built, &solution);
        puzzle.check(&answer).unwrap();
        let empty = empty_cells(&answer);
        let published: Vec<bool> = entry["solution"]
            .as_str()
            .unwrap()
            .lines()
            .skip(1)
            .flat_map(|l| l.split_whitespace().map(|t| t == "-"))
            .collect();
        assert_eq!(empty, published, "{key}");
    }
}
