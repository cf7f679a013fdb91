//! Suko: the seed's answer and count at every level, counts against brute force over all 9!
//! grids, the checker, the parser's error lines, never-panic property tests.

use puzzles::common::all_solutions_every_level;
use puzzles::suko::{self, BLOCKS};
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, expected, parse_one};

#[test]
fn seed_has_the_expected_unique_solution_at_every_level() {
    let exp = &expected()["suko"];
    let puzzle = parse_one(suko::parse, suko::KIND.seed);
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len() as u64, exp["count"].as_u64().unwrap());
    assert_eq!(answers[0].json, exp["solution"]);
}

/// Every permutation of 1..9 (Heap's algorithm), passed to `visit`.
fn permutations(visit: &mut dyn FnMut(&[i64])) {
    let mut a: Vec<i64> = (1..=9).collect();
    let mut c = [0usize; 9];
    visit(&a);
    let mut i = 0;
    while i < 9 {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            visit(&a);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

#[test]
fn counts_agree_with_brute_force() {
    // Puzzles made from a hidden grid: its block sums, and group sums for a few groupings
    // (some loose, with several solutions).
    let hidden = [4i64, 9, 2, 3, 5, 7, 8, 1, 6];
    let groupings = [
        "A A B\nC A B\nC C B",
        "A B C\nA B C\nA B C",
        "A A A\nA A A\nB B B",
    ];
    for groups in groupings {
        let labels: Vec<&str> = groups.split_whitespace().collect();
        let mut names: Vec<&str> = labels.clone();
        names.dedup();
        names.sort();
        names.dedup();
        let inner: Vec<i64> = BLOCKS
            .iter()
            .map(|b| b.iter().map(|&i| hidden[i]).sum())
            .collect();
        let totals: Vec<(String, i64)> = names
            .iter()
            .map(|&n| {
                let s = (0..9).filter(|&i| labels[i] == n).map(|i| hidden[i]).sum();
                (n.to_string(), s)
            })
            .collect();
        let text = format!(
            "groups\n{groups}\ninner {}\ntotals {}\n",
            inner
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            totals
                .iter()
                .map(|(n, s)| format!("{n}={s}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let mut brute = 0;
        permutations(&mut |d| {
            let blocks_ok = BLOCKS
                .iter()
                .zip(&inner)
                .all(|(b, &t)| b.iter().map(|&i| d[i]).sum::<i64>() == t);
            let groups_ok = totals.iter().all(|(n, s)| {
                (0..9)
                    .filter(|&i| labels[i] == n)
                    .map(|i| d[i])
                    .sum::<i64>()
                    == *s
            });
            brute += (blocks_ok && groups_ok) as usize;
        });
        let puzzle = parse_one(suko::parse, &text);
        let (answers, complete) =
            all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
        assert!(complete);
        assert!(brute >= 1);
        assert_eq!(answers.len(), brute, "{text}");
    }
}

#[test]
fn checker_rejects_broken_grids() {
    let exp = &expected()["suko"];
    let puzzle = parse_one(suko::parse, suko::KIND.seed);
    assert!(puzzle.check(&answer(exp["solution"].clone())).is_ok());
    // Swap two cells: a block sum breaks.
    let mut swapped = exp["solution"].clone();
    let (a, b) = (swapped[0][0].clone(), swapped[2][2].clone());
    swapped[0][0] = b;
    swapped[2][2] = a;
    assert!(puzzle
        .check(&answer(swapped))
        .unwrap_err()
        .contains("block"));
    // A repeated digit, an out-of-range digit, a wrong shape.
    let mut twice = exp["solution"].clone();
    twice[0][0] = twice[0][1].clone();
    assert!(puzzle.check(&answer(twice)).unwrap_err().contains("twice"));
    let mut big = exp["solution"].clone();
    big[1][1] = json!(10);
    assert!(puzzle.check(&answer(big)).is_err());
    assert!(puzzle.check(&answer(json!([[1, 2, 3]]))).is_err());
}

#[test]
fn checker_rejects_a_wrong_group_sum() {
    // The seed's grid with group totals changed: blocks fine, groups not.
    let exp = &expected()["suko"];
    let text = suko::KIND.seed.replace("A=22 B=8 C=15", "A=21 B=9 C=15");
    let puzzle = parse_one(suko::parse, &text);
    let err = puzzle.check(&answer(exp["solution"].clone())).unwrap_err();
    assert!(err.contains("group"), "{err}");
}

#[test]
fn malformed_files_name_the_line() {
    let good = "groups\nA A B\nC A B\nC C B\ninner 25 19 24 19\ntotals A=22 B=8 C=15\n";
    assert!(suko::parse(good).is_ok());
    assert_eq!(error_line(suko::parse, ""), 0);
    assert_eq!(error_line(suko::parse, "% nothing\n"), 0);
    // Something before the first section.
    assert_eq!(error_line(suko::parse, &format!("hello\n{good}")), 1);
    // Two rows of groups; four names in a row.
    assert_eq!(
        error_line(
            suko::parse,
            "groups\nA A B\nC A B\ninner 25 19 24 19\ntotals A=22 B=8 C=15\n"
        ),
        3
    );
    assert_eq!(
        error_line(suko::parse, &good.replace("C A B", "C A B D")),
        3
    );
    // Three inner sums, a non-number.
    assert_eq!(
        error_line(
            suko::parse,
            &good.replace("inner 25 19 24 19", "inner 25 19 24")
        ),
        5
    );
    assert_eq!(
        error_line(
            suko::parse,
            &good.replace("inner 25 19 24 19", "inner 25 x 24 19")
        ),
        5
    );
    // Totals: an unknown group, a missing group, a repeated group, no '='.
    assert_eq!(error_line(suko::parse, &good.replace("C=15", "D=15")), 6);
    assert_eq!(error_line(suko::parse, &good.replace(" C=15", "")), 6);
    assert_eq!(
        error_line(suko::parse, &good.replace("C=15", "C=15 A=3")),
        6
    );
    assert_eq!(error_line(suko::parse, &good.replace("C=15", "C15")), 6);
    // A missing section, a section twice, a stray line after a one-line section.
    assert_eq!(
        error_line(suko::parse, &good.replace("inner 25 19 24 19\n", "")),
        5
    );
    assert_eq!(
        error_line(suko::parse, &format!("{good}inner 1 2 3 4\n")),
        7
    );
    assert_eq!(
        error_line(
            suko::parse,
            &good.replace("inner 25 19 24 19\n", "inner 25 19 24 19\n7 7\n")
        ),
        6
    );
}
