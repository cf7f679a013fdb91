//! Pigeonhole: the seed's unique shelf (at every all-different level), a checker that rejects
//! every near miss, the same shelf from each viewpoint (rows, columns, both), and the built-in
//! puzzle refusing a file.

use engine::AllDiffLevel;
use puzzles::common::{all_solutions, Answer};
use puzzles::pigeonhole::{parse, Pigeonhole, KIND};
use puzzles::{Instance, ModelOptions, Purpose, Viewpoint};
use serde_json::json;

mod support;
use support::expected;

#[test]
fn the_shelf_is_the_expected_one_and_unique() {
    let want = &expected()["pigeonhole"];
    for alldiff in [
        AllDiffLevel::Value,
        AllDiffLevel::Bounds,
        AllDiffLevel::Domain,
    ] {
        let options = ModelOptions {
            alldiff,
            ..Default::default()
        };
        let (answers, _) = all_solutions(&Pigeonhole, &options, Some(1)).unwrap();
        assert_eq!(answers.len() as u64, 1);
        assert_eq!(answers[0].json, want["solution"]);
        let counting = ModelOptions {
            purpose: Purpose::Count,
            ..options
        };
        let (all_answers, all) = all_solutions(&Pigeonhole, &counting, None).unwrap();
        assert!(all);
        assert_eq!(
            all_answers.len() as u64,
            want["count"].as_u64().unwrap(),
            "{alldiff:?}"
        );
    }
}

#[test]
fn every_viewpoint_finds_the_one_shelf_and_both_know_the_most_at_the_root() {
    let want = &expected()["pigeonhole"];
    // The cells' candidates left by root propagation, in all.
    let mut left = Vec::new();
    for viewpoint in [Viewpoint::Rows, Viewpoint::Columns, Viewpoint::Both] {
        let counting = ModelOptions {
            viewpoint,
            purpose: Purpose::Count,
            ..Default::default()
        };
        let (answers, all) = all_solutions(&Pigeonhole, &counting, None).unwrap();
        assert!(all);
        assert_eq!(answers.len(), 1, "{viewpoint:?}");
        assert_eq!(answers[0].json, want["solution"], "{viewpoint:?}");
        let mut built = Pigeonhole.model(&counting);
        built.model.propagate().unwrap();
        left.push(built.vars.iter().map(|&x| built.model.size(x)).sum::<u32>());
    }
    // Channelled, every clue is stated on the pairs of positions, which see a whole line where
    // the cells' tables see two cells: the model knows at least as much as either viewpoint.
    let (rows, columns, both) = (left[0], left[1], left[2]);
    assert!(both <= rows && both <= columns, "{left:?}");
    assert!(both < 108, "root propagation removed nothing");
}

fn check(rows: &[String]) -> Result<(), String> {
    Pigeonhole.check(&Answer {
        json: json!(rows).into(),
        text: String::new(),
        objective: None,
    })
}

#[test]
fn checker_rejects_every_shelf_one_swap_away() {
    let good: Vec<String> = expected()["pigeonhole"]["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    assert!(check(&good).is_ok());
    let cell = |s: &[Vec<char>], r: usize, c: usize| s[r][c];
    let grid: Vec<Vec<char>> = good.iter().map(|r| r.chars().collect()).collect();
    let mut near_misses = 0;
    // Swapping the corners of a rectangle X Y / Y X keeps two of each per row and column, so
    // only the clues can reject it; the shelf being unique, they must.
    for r1 in 0..6 {
        for r2 in r1 + 1..6 {
            for c1 in 0..6 {
                for c2 in c1 + 1..6 {
                    let (x, y) = (cell(&grid, r1, c1), cell(&grid, r1, c2));
                    if x != y && cell(&grid, r2, c2) == x && cell(&grid, r2, c1) == y {
                        let mut g = grid.clone();
                        g[r1][c1] = y;
                        g[r1][c2] = x;
                        g[r2][c1] = x;
                        g[r2][c2] = y;
                        let rows: Vec<String> = g.iter().map(|r| r.iter().collect()).collect();
                        let err = check(&rows).unwrap_err();
                        assert!(err.starts_with("clue"), "{err}");
                        near_misses += 1;
                    }
                }
            }
        }
    }
    assert!(near_misses > 10);
    // Breaking the counts, the shape, or the alphabet.
    let mut swapped = good.clone();
    swapped[0] = "SKSFKF".into();
    assert!(check(&swapped).unwrap_err().contains("column"));
    assert!(check(&good[..5]).is_err());
    let mut letters = good.clone();
    letters[2] = "FKFKXS".into();
    assert!(check(&letters).is_err());
}

#[test]
fn built_in_reads_no_file() {
    assert!(KIND.seed.is_empty());
    assert_eq!(parse("").unwrap().len(), 1);
    assert_eq!(parse("% nothing\n\n").unwrap().len(), 1);
    assert_eq!(parse("\n\nSSKFKF\n").unwrap_err().line, 3);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

}
