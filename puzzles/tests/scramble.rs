//! Circuit Scramble: the optimum against brute force on random small circuits, the checker,
//! the parser's error lines, never-panic property tests (the instances are in `beyond.rs`).

use puzzles::scramble;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, parse_one};

/// The fewest flips over every switch setting (None: no setting lights every lamp), and the
/// number of settings that light every lamp.
fn brute_force(text: &str) -> (Option<i64>, usize) {
    let puzzle = &scramble::parse(text).unwrap()[0];
    let n = format!("{puzzle:?}").matches("Switch").count();
    let mut best = None;
    let mut count = 0;
    for bits in 0u32..(1 << n) {
        let states: Vec<i64> = (0..n).map(|k| ((bits >> k) & 1) as i64).collect();
        let a = answer(json!(states));
        if puzzle.check(&a).is_ok() {
            count += 1;
            // The checker accepts any objective when none is given; compute flips by asking it
            // which objective it accepts.
            let flips = (0..=n as i64)
                .find(|&f| {
                    let mut a = answer(json!(states));
                    a.objective = Some(f);
                    puzzle.check(&a).is_ok()
                })
                .unwrap();
            best = Some(best.map_or(flips, |b: i64| b.min(flips)));
        }
    }
    (best, count)
}

#[test]
fn optimum_and_count_agree_with_brute_force_on_random_circuits() {
    let gates = ["AND", "OR", "XOR", "NAND", "NOR", "XNOR", "NOT"];
    let mut seed = 12345u64;
    let mut next = |m: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % m as u64) as usize
    };
    for _ in 0..60 {
        let switches = 2 + next(4);
        let mut text = String::new();
        let mut names: Vec<String> = Vec::new();
        for k in 0..switches {
            text.push_str(&format!("switch s{k} {}\n", next(2)));
            names.push(format!("s{k}"));
        }
        for g in 0..2 + next(5) {
            let gate = gates[next(gates.len())];
            let arity = if gate == "NOT" { 1 } else { 1 + next(3) };
            let inputs: Vec<String> = (0..arity)
                .map(|_| names[next(names.len())].clone())
                .collect();
            text.push_str(&format!("g{g} = {gate} {}\n", inputs.join(" ")));
            names.push(format!("g{g}"));
        }
        text.push_str(&format!("lamp {}\n", names[names.len() - 1]));
        let (best, count) = brute_force(&text);
        let puzzle = parse_one(scramble::parse, &text);
        let built = puzzle.build(&ModelOptions::default()).unwrap();
        let mut model = built.model.clone();
        let outcome = engine::solve(&mut model, &built.search);
        assert_eq!(outcome.objective, best, "{text}");
        let counting = ModelOptions {
            purpose: puzzles::Purpose::Count,
            ..Default::default()
        };
        let (answers, complete) =
            puzzles::common::all_solutions(puzzle.as_ref(), &counting, None).unwrap();
        assert!(complete);
        assert_eq!(answers.len(), count, "{text}");
    }
}

#[test]
fn checker_rejects_dark_lamps_and_wrong_objectives() {
    let puzzle = parse_one(scramble::parse, scramble::KIND.seed);
    let mut good = answer(json!([0, 1, 0]));
    good.objective = Some(1);
    assert!(puzzle.check(&good).is_ok());
    // a=0 b=1 c=1: g1 = 0, g2 = 0, the lamp is off.
    assert!(puzzle
        .check(&answer(json!([0, 1, 1])))
        .unwrap_err()
        .contains("off"));
    let mut wrong = answer(json!([0, 1, 0]));
    wrong.objective = Some(0);
    assert!(puzzle.check(&wrong).is_err());
    assert!(puzzle.check(&answer(json!([0, 1]))).is_err());
    assert!(puzzle.check(&answer(json!([0, 2, 0]))).is_err());
}

#[test]
fn malformed_files_name_the_line() {
    let p = scramble::parse;
    assert_eq!(error_line(p, ""), 0);
    assert_eq!(error_line(p, "switch a 2\nlamp a\n"), 1);
    assert_eq!(error_line(p, "switch a\nlamp a\n"), 1);
    assert_eq!(error_line(p, "switch a 0\ng = FOO a\nlamp g\n"), 2);
    assert_eq!(error_line(p, "switch a 0\ng = NOT a a\nlamp g\n"), 2);
    assert_eq!(error_line(p, "switch a 0\ng = AND\nlamp g\n"), 2);
    assert_eq!(error_line(p, "switch a 0\ng = AND a b\nlamp g\n"), 2);
    assert_eq!(error_line(p, "switch a 0\nlamp b\n"), 2);
    assert_eq!(error_line(p, "switch a 0\nswitch a 1\nlamp a\n"), 2);
    assert_eq!(error_line(p, "switch 1a 0\nlamp 1a\n"), 1);
    assert_eq!(error_line(p, "switch a 0\nhello\n"), 2);
    assert_eq!(error_line(p, "switch a 0\n"), 1);
    assert_eq!(error_line(p, "lamp\n"), 1);
    assert_eq!(error_line(p, "% c\ng = OR\n"), 2);
    assert!(p("switch a 0\ng = and a\nlamp g a\n").is_ok());
}
