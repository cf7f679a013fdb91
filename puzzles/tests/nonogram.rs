//! Nonogram: the clue automaton against brute force, the public `.non` set of `../shared/data`
//! (skipped when absent) against its goals with a unique solution, the checker, the parser's
//! error lines, never-panic property tests (the repo's instances are in `beyond.rs`).

use engine::search::probing::NodeProbing;
use puzzles::common::all_solutions;
use puzzles::nonogram::{self, blocks, clue_automaton};
use puzzles::ModelOptions;
use serde_json::json;
use std::path::{Path, PathBuf};

mod support;
use support::{answer, error_line, parse_one};

#[test]
fn clue_automata_accept_exactly_the_lines_of_their_clue() {
    for length in 0..=8usize {
        // Every line of this length, and the clue it shows: each clue's automaton must accept
        // exactly the lines showing it.
        let lines: Vec<Vec<i64>> = (0u32..1 << length)
            .map(|bits| (0..length).map(|k| ((bits >> k) & 1) as i64).collect())
            .collect();
        let mut clues: Vec<Vec<usize>> = lines.iter().map(|l| blocks(l)).collect();
        clues.sort();
        clues.dedup();
        for clue in &clues {
            let dfa = clue_automaton(clue);
            for line in &lines {
                let word: Vec<i32> = line.iter().map(|&v| v as i32).collect();
                assert_eq!(
                    dfa.accepts(&word),
                    blocks(line) == *clue,
                    "{clue:?} {line:?}"
                );
            }
        }
    }
}

fn non_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            non_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "non") {
            out.push(path);
        }
    }
}

#[test]
fn public_non_set_has_one_picture_each_equal_to_its_goal() {
    let Some(dir) = engine::testing::data_path("nonogram/non") else {
        return;
    };
    let mut files = Vec::new();
    non_files(&dir, &mut files);
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let puzzle = parse_one(nonogram::parse, &text);
        let (answers, complete) = all_solutions(puzzle.as_ref(), &ModelOptions::default(), Some(2))
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(complete && answers.len() == 1, "{}", file.display());
        let goal_line = text.lines().find(|l| l.starts_with("goal")).unwrap();
        let goal: String = goal_line
            .chars()
            .filter(|c| c.is_ascii_digit())
            .map(|c| if c == '0' { '0' } else { '1' })
            .collect();
        let found: String = answers[0]
            .json
            .to_value()
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.to_string()))
            .collect();
        assert_eq!(found, goal, "{}", file.display());
    }
}

#[test]
fn checker_rejects_pictures_off_their_clues() {
    let puzzle = parse_one(
        nonogram::parse,
        "width 3\nheight 2\nrows\n2\n1\ncolumns\n1\n2\n0\n",
    );
    assert!(puzzle.check(&answer(json!([[1, 1, 0], [0, 1, 0]]))).is_ok());
    assert!(puzzle
        .check(&answer(json!([[0, 1, 1], [0, 1, 0]])))
        .is_err());
    assert!(puzzle.check(&answer(json!([[1, 1, 0]]))).is_err());
    assert!(puzzle.check(&answer(json!(null))).is_err());
}

#[test]
fn malformed_files_name_the_line() {
    let p = nonogram::parse;
    assert_eq!(error_line(p, ""), 0);
    // Missing keys (named at the last line).
    assert_eq!(error_line(p, "width 2\nheight 1\nrows\n1\n"), 4);
    // A key twice; rows before the sizes.
    assert_eq!(error_line(p, "width 2\nwidth 2\n"), 2);
    assert_eq!(error_line(p, "rows\n1\nwidth 1\nheight 1\n"), 1);
    // A block that runs into a key or the end.
    assert_eq!(error_line(p, "width 1\nheight 2\nrows\n1\ncolumns\n1\n"), 5);
    assert_eq!(error_line(p, "width 1\nheight 1\nrows\n1\ncolumns\n"), 5);
    // Bad clues: letters, zero inside, too long.
    assert_eq!(
        error_line(p, "width 3\nheight 1\nrows\n1a\ncolumns\n1\n0\n0\n"),
        4
    );
    assert_eq!(
        error_line(p, "width 3\nheight 1\nrows\n1,0\ncolumns\n1\n0\n0\n"),
        4
    );
    assert_eq!(
        error_line(p, "width 3\nheight 1\nrows\n2,1\ncolumns\n1\n0\n1\n"),
        4
    );
    assert_eq!(
        error_line(p, "width 3\nheight 1\nrows\n4\ncolumns\n1\n0\n1\n"),
        4
    );
    // Colour nonograms; a bad size.
    assert_eq!(error_line(p, "color a #ff0000\n"), 1);
    assert_eq!(error_line(p, "width x\n"), 1);
    // A blank line inside a block is an empty line.
    assert!(p("width 2\nheight 2\nrows\n\n1\ncolumns\n1\n\n").is_ok());
}

/// A random picture of `side` × `side` cells, half of them black, as a board of its clues.
fn random_board(seed: u64, side: usize) -> nonogram::Nonogram {
    let mut rng = engine::rng::Rng::new(seed);
    let picture: Vec<i64> = (0..side * side).map(|_| rng.below(2) as i64).collect();
    let rows = (0..side).map(|r| blocks(&picture[r * side..(r + 1) * side]));
    let columns = (0..side).map(|c| {
        let column: Vec<i64> = (0..side).map(|r| picture[r * side + c]).collect();
        blocks(&column)
    });
    nonogram::Nonogram {
        width: side,
        height: side,
        rows: rows.collect(),
        columns: columns.collect(),
    }
}

/// The model declares its search: probing at every node, the branching rules in turns
/// (`nonogram::scored_turns`) between Luby restarts. Run with a restart after every few
/// failures, so that each rule takes turns, the search still finds a picture of random
/// 30 × 30 boards (a few of them need some search); and the turns change the search (dom/wdeg alone takes other nodes).
#[test]
fn the_branching_rules_take_turns_and_find_a_picture() {
    let (mut restarted, mut turns_differ) = (0, 0);
    for seed in 0..12 {
        let board = random_board(seed, 30);
        let built = board.model();
        let probing = built
            .search
            .node_probing
            .clone()
            .expect("probing at every node");
        assert_eq!(probing.scored, nonogram::scored_turns());
        assert_eq!(built.search.restarts, nonogram::RESTARTS);
        // As the command probes: skipping the cells around which nothing changed.
        let skipping = NodeProbing::new(&built.model, &built.vars, 2);
        let often = engine::RestartPolicy::Luby { scale: 1 };
        let in_turns = engine::SearchConfig {
            node_probing: Some(skipping.clone().taking_turns(probing.scored)),
            ..built.search.clone()
        };
        let (nodes, restarts) = first_picture(&board, &in_turns, often);
        let dom_wdeg = engine::SearchConfig {
            node_probing: Some(skipping),
            ..built.search.clone()
        };
        let (dom_wdeg_nodes, _) = first_picture(&board, &dom_wdeg, often);
        restarted += usize::from(restarts > 0);
        turns_differ += usize::from(nodes != dom_wdeg_nodes);
    }
    assert!(restarted >= 2, "{restarted} boards restarted");
    assert!(
        turns_differ >= 2,
        "the turns changed {turns_differ} searches"
    );
}

/// Search `board`'s model for a first picture under `config` with `restarts`; check it.
/// Its nodes and restarts.
fn first_picture(
    board: &nonogram::Nonogram,
    config: &engine::SearchConfig,
    restarts: engine::RestartPolicy,
) -> (u64, u64) {
    let mut built = board.model();
    let config = engine::SearchConfig {
        restarts,
        solution_limit: Some(1),
        ..config.clone()
    };
    let mut found = None;
    let outcome = engine::search(
        &mut built.model,
        &config,
        &mut engine::search::NoListener,
        &mut |solution| {
            found = Some(solution.values.clone());
            engine::Control::Stop
        },
    );
    let values = found.expect("a picture");
    let grid: Vec<i64> = built
        .vars
        .iter()
        .map(|x| values[x.index()] as i64)
        .collect();
    assert_eq!(board.check_grid(&grid), Ok(()));
    (outcome.stats.nodes, outcome.stats.restarts)
}

/// Counting stays exact with the implications the tries find kept
/// (`NodeProbing::implications`, `engine/src/search/probe_implications.rs`): on small
/// random boards, many of them with several pictures, the count with them kept from the
/// root or from every node equals the count without.
#[test]
fn counting_with_kept_implications_equals_counting_without() {
    let mut several = 0;
    for seed in 0..40 {
        let board = random_board(100 + seed, 5 + seed as usize % 4);
        let count = |depth: Option<usize>| -> (u64, u64) {
            let mut built = board.model();
            let probing = NodeProbing::new(&built.model, &built.vars, 2);
            let config = engine::SearchConfig {
                node_probing: Some(probing.keeping_implications_to_depth(depth)),
                restarts: engine::RestartPolicy::Never,
                solution_limit: None,
                ..built.search.clone()
            };
            let outcome = engine::search(
                &mut built.model,
                &config,
                &mut engine::search::NoListener,
                &mut |_| engine::Control::Continue,
            );
            assert!(outcome.complete, "seed {seed}");
            (outcome.solutions, outcome.stats.nodes)
        };
        let (without, _) = count(None);
        assert!(without >= 1, "seed {seed}: the picture it was made from");
        for depth in [Some(0), Some(usize::MAX)] {
            let (with, _) = count(depth);
            assert_eq!(
                with, without,
                "seed {seed}: implications from depth {depth:?}"
            );
        }
        several += usize::from(without > 1);
    }
    assert!(several >= 5, "{several} boards with several pictures");
}
