//! Ranking: the seed's order and count at every level, counts of orders against brute force,
//! the checker, the parser's error lines, never-panic property tests.

use puzzles::common::all_solutions_every_level;
use puzzles::ranking;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, expected, parse_one};

#[test]
fn seed_has_the_expected_unique_order_at_every_level() {
    let exp = &expected()["ranking"];
    let puzzle = parse_one(ranking::parse, ranking::KIND.seed);
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len() as u64, exp["count"].as_u64().unwrap());
    assert_eq!(answers[0].json, exp["solution"]);
}

/// The number of orders of `n` runners in which every `(w, l)` has w before l.
fn brute_force_count(n: usize, results: &[(usize, usize)]) -> usize {
    fn extend(order: &mut Vec<usize>, n: usize, results: &[(usize, usize)]) -> usize {
        if order.len() == n {
            let place = |r: usize| order.iter().position(|&x| x == r).unwrap();
            return results.iter().all(|&(w, l)| place(w) < place(l)) as usize;
        }
        let mut total = 0;
        for r in 0..n {
            if !order.contains(&r) {
                order.push(r);
                total += extend(order, n, results);
                order.pop();
            }
        }
        total
    }
    extend(&mut Vec::new(), n, results)
}

#[test]
fn counts_agree_with_brute_force() {
    let cases: [(&[(usize, usize)], usize); 5] = [
        (&[(0, 1), (1, 2), (2, 3)], 4),         // a chain: 1
        (&[(0, 1), (0, 2), (0, 3)], 4),         // a star: 3! = 6
        (&[(0, 1), (2, 3)], 4),                 // two pairs: 6
        (&[(0, 1), (1, 2), (2, 0)], 3),         // a cycle: 0
        (&[(0, 4), (1, 4), (2, 4), (3, 5)], 6), // loose
    ];
    let name = |r: usize| ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][r];
    for (results, n) in cases {
        let text: String = results
            .iter()
            .map(|&(w, l)| format!("{} > {}\n", name(w), name(l)))
            .collect();
        let puzzle = parse_one(ranking::parse, &text);
        let (answers, complete) =
            all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
        assert!(complete);
        // Runners never mentioned are not in the file: count over the ones mentioned.
        let mentioned: Vec<usize> = (0..n)
            .filter(|&r| results.iter().any(|&(w, l)| w == r || l == r))
            .collect();
        let renumber = |r: usize| mentioned.iter().position(|&m| m == r).unwrap();
        let renumbered: Vec<(usize, usize)> = results
            .iter()
            .map(|&(w, l)| (renumber(w), renumber(l)))
            .collect();
        assert_eq!(
            answers.len(),
            brute_force_count(mentioned.len(), &renumbered),
            "{text}"
        );
    }
}

#[test]
fn checker_rejects_broken_orders() {
    let exp = &expected()["ranking"];
    let puzzle = parse_one(ranking::parse, ranking::KIND.seed);
    assert!(puzzle.check(&answer(exp["solution"].clone())).is_ok());
    let order: Vec<String> = serde_json::from_value(exp["solution"].clone()).unwrap();
    // Peter and Alan swapped: Peter beat Alan.
    let mut swapped = order.clone();
    swapped.swap(0, 1);
    assert!(puzzle
        .check(&answer(json!(swapped)))
        .unwrap_err()
        .contains("beat"));
    // A runner missing, twice, unknown; not a list of names.
    let mut missing = order.clone();
    missing.pop();
    assert!(puzzle
        .check(&answer(json!(missing)))
        .unwrap_err()
        .contains("missing"));
    let mut twice = order.clone();
    twice[9] = twice[0].clone();
    assert!(puzzle
        .check(&answer(json!(twice)))
        .unwrap_err()
        .contains("twice"));
    let mut unknown = order.clone();
    unknown[9] = "Zorro".into();
    assert!(puzzle.check(&answer(json!(unknown))).is_err());
    assert!(puzzle.check(&answer(json!([1, 2, 3]))).is_err());
    assert!(puzzle.check(&answer(json!("Peter"))).is_err());
}

#[test]
fn names_may_hold_spaces_and_repeat() {
    let puzzle = parse_one(
        ranking::parse,
        "Mary Ann > Jo Smith,  Al\n% a comment\n\nJo Smith > Al\nMary Ann > Al\n",
    );
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].json, json!(["Mary Ann", "Jo Smith", "Al"]));
}

#[test]
fn malformed_files_name_the_line() {
    assert_eq!(error_line(ranking::parse, ""), 0);
    assert_eq!(error_line(ranking::parse, "% nothing\n\n"), 0);
    assert_eq!(error_line(ranking::parse, "A > B\nC beat D\n"), 2);
    assert_eq!(error_line(ranking::parse, "A > B\n\nC > D > E\n"), 3);
    assert_eq!(error_line(ranking::parse, " > B\n"), 1);
    assert_eq!(error_line(ranking::parse, "A > \n"), 1);
    assert_eq!(error_line(ranking::parse, "A > B, , C\n"), 1);
    assert_eq!(error_line(ranking::parse, "A > B\nA, B > C\n"), 2);
    assert_eq!(error_line(ranking::parse, "A > B\nB > C, B\n"), 2);
    assert_eq!(error_line(ranking::parse, "A > B\n\u{7}\n"), 2);
}
