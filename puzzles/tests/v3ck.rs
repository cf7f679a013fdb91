//! V3ck: the seed's colouring and count, counts against brute force on small graphs, the
//! checker, the parser's error lines, never-panic property tests.

use puzzles::common::all_solutions_every_level;
use puzzles::v3ck;
use puzzles::ModelOptions;
use serde_json::json;

mod support;
use support::{answer, error_line, expected, parse_one};

#[test]
fn seed_has_the_expected_unique_colouring() {
    let exp = &expected()["v3ck"];
    let puzzle = parse_one(v3ck::parse, v3ck::KIND.seed);
    let (answers, complete) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert!(complete);
    assert_eq!(answers.len() as u64, exp["count"].as_u64().unwrap());
    assert_eq!(answers[0].json, exp["solution"]);
}

/// A V3ck file for `edges` whose tallies are those of `colouring`.
fn instance_text(
    nodes: usize,
    colours: usize,
    edges: &[(usize, usize)],
    colouring: &[usize],
) -> String {
    let mut tally = vec![vec![0; colours]; nodes];
    for (&(u, v), &c) in edges.iter().zip(colouring) {
        tally[u][c - 1] += 1;
        tally[v][c - 1] += 1;
    }
    let mut text = format!("colours {colours}\nedges\n");
    for &(u, v) in edges {
        text.push_str(&format!("n{u} n{v}\n"));
    }
    text.push_str("tallies\n");
    for (node, t) in tally.iter().enumerate() {
        if edges.iter().any(|&(u, v)| u == node || v == node) {
            let counts: Vec<String> = t.iter().map(|c| c.to_string()).collect();
            text.push_str(&format!("n{node}: {}\n", counts.join(" ")));
        }
    }
    text
}

/// Colourings of `edges` with `colours` colours whose tallies equal those of `target`.
fn brute_force_count(
    nodes: usize,
    colours: usize,
    edges: &[(usize, usize)],
    target: &[usize],
) -> usize {
    let tallies = |colouring: &[usize]| {
        let mut t = vec![vec![0; colours]; nodes];
        for (&(u, v), &c) in edges.iter().zip(colouring) {
            t[u][c - 1] += 1;
            t[v][c - 1] += 1;
        }
        t
    };
    let want = tallies(target);
    let mut colouring = vec![1; edges.len()];
    let mut count = 0;
    loop {
        count += (tallies(&colouring) == want) as usize;
        let mut i = 0;
        while i < edges.len() && colouring[i] == colours {
            colouring[i] = 1;
            i += 1;
        }
        if i == edges.len() {
            return count;
        }
        colouring[i] += 1;
    }
}

/// A small graph and a colouring of its edges: the number of nodes, the number of colours,
/// the edges, and each edge's colour (from 1).
type Case = (usize, usize, &'static [(usize, usize)], &'static [usize]);

#[test]
fn counts_agree_with_brute_force() {
    // A 4-cycle (alternating colours can swap: several colourings), a triangle with a tail,
    // the complete graph on 4 nodes, a multigraph.
    let cases: [Case; 4] = [
        (4, 2, &[(0, 1), (1, 2), (2, 3), (3, 0)], &[1, 2, 1, 2]),
        (4, 3, &[(0, 1), (1, 2), (2, 0), (2, 3)], &[1, 2, 3, 1]),
        (
            4,
            3,
            &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
            &[1, 1, 2, 3, 2, 1],
        ),
        (3, 2, &[(0, 1), (0, 1), (1, 2)], &[1, 2, 2]),
    ];
    for (nodes, colours, edges, colouring) in cases {
        let text = instance_text(nodes, colours, edges, colouring);
        let puzzle = parse_one(v3ck::parse, &text);
        let (answers, complete) =
            all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
        assert!(complete);
        assert_eq!(
            answers.len(),
            brute_force_count(nodes, colours, edges, colouring),
            "{text}"
        );
    }
}

#[test]
fn checker_rejects_broken_colourings() {
    let exp = &expected()["v3ck"];
    let puzzle = parse_one(v3ck::parse, v3ck::KIND.seed);
    assert!(puzzle.check(&answer(exp["solution"].clone())).is_ok());
    // Edge {4,5} recoloured: the tallies of 4 and 5 break.
    let mut recoloured = exp["solution"].clone();
    recoloured[7][2] = json!(1);
    assert!(puzzle
        .check(&answer(recoloured))
        .unwrap_err()
        .contains("tally"));
    // Colour out of range, names changed or swapped, an edge missing, not a list.
    let mut big = exp["solution"].clone();
    big[0][2] = json!(4);
    assert!(puzzle.check(&answer(big)).is_err());
    let mut renamed = exp["solution"].clone();
    renamed[0][0] = json!("2");
    renamed[0][1] = json!("1");
    assert!(puzzle.check(&answer(renamed)).is_err());
    let mut short = exp["solution"].clone();
    short.as_array_mut().unwrap().pop();
    assert!(puzzle.check(&answer(short)).is_err());
    assert!(puzzle.check(&answer(json!({"1": 2}))).is_err());
}

#[test]
fn names_are_kept_as_written() {
    let text =
        "colours 2\nedges\nAmsterdam Bonn\nBonn 07\ntallies\nAmsterdam: 1 0\nBonn: 1 1\n07: 0 1\n";
    let puzzle = parse_one(v3ck::parse, text);
    let (answers, _) =
        all_solutions_every_level(puzzle.as_ref(), &ModelOptions::default(), None).unwrap();
    assert_eq!(answers.len(), 1);
    assert_eq!(
        answers[0].json,
        json!([["Amsterdam", "Bonn", 1], ["Bonn", "07", 2]])
    );
}

#[test]
fn malformed_files_name_the_line() {
    let seed = v3ck::KIND.seed;
    assert!(v3ck::parse(seed).is_ok());
    // Lines of the seed file: 2 colours, 3 edges, 4-11 the edges, 12 tallies, 13-17 tallies.
    assert_eq!(error_line(v3ck::parse, ""), 0);
    assert_eq!(error_line(v3ck::parse, "% only a comment\n"), 0);
    // Colours: not a number, zero.
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("colours 3", "colours three")),
        2
    );
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("colours 3", "colours 0")),
        2
    );
    // A tally with the wrong number of colours, a wrong sum, an unknown node, twice, no ':'.
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("1: 2 1 0", "1: 2 1")),
        13
    );
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("4: 1 1 1", "4: 1 1 2")),
        16
    );
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("5: 0 2 1", "6: 0 2 1")),
        17
    );
    assert_eq!(error_line(v3ck::parse, &format!("{seed}2: 2 1 0\n")), 18);
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("3: 3 1 0", "3 3 1 0")),
        15
    );
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("3: 3 1 0", "3: 3 1 x")),
        15
    );
    // A node without a tally: named at its first edge (node 5 first appears on line 8).
    assert_eq!(error_line(v3ck::parse, &seed.replace("5: 0 2 1\n", "")), 8);
    // Edges: three tokens, a loop, a name with ':'.
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("2 3\n", "2 3 4\n")),
        7
    );
    assert_eq!(error_line(v3ck::parse, &seed.replace("2 3\n", "2 2\n")), 7);
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("2 3\n", "2 x:y\n")),
        7
    );
    // Sections: missing, twice, content before the first.
    assert_eq!(
        error_line(v3ck::parse, &seed.replace("colours 3\n", "")),
        16
    );
    assert_eq!(error_line(v3ck::parse, &format!("{seed}edges\n")), 18);
    assert_eq!(error_line(v3ck::parse, &format!("hello\n{seed}")), 1);
    assert_eq!(
        error_line(
            v3ck::parse,
            &seed.replace("colours 3\n", "colours 3\n1 2 3\n")
        ),
        3
    );
}
