//! The clique cover (`colouring/clique_cover.rs`) and the exact cover of colour classes
//! (`colouring/exact_cover.rs`): cliques are true cliques, transversals and covers agree with
//! brute force, and the model that uses them proves the brute-force chromatic number. Every
//! colouring found goes through the checker.

use puzzles::colouring::clique_cover::greedy_clique_cover;
use puzzles::colouring::exact_cover::{
    clique_partition, exact_cover, independent_transversals, meeting_every_clique, Cover, Limits,
};
use puzzles::colouring::{find_clique, Colouring, Graph};
use puzzles::ModelOptions;

mod support;
use support::colouring::{
    adjacent, brute_force_chi, brute_force_colouring, optimum, queen_graph, random_graph, uniform,
};

/// `m` disjoint cliques of `q` vertices (vertices `i*q .. (i+1)*q`), plus random edges
/// between them: a graph whose vertices split into `q`-cliques.
fn planted_partition(q: usize, m: usize, density: f64, rng: &mut impl FnMut() -> f64) -> Graph {
    let n = q * m;
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if u / q == v / q || rng() < density {
                edges.push((u, v));
            }
        }
    }
    Graph::from_edges(n, &edges)
}

fn unlimited() -> Limits {
    Limits {
        max_transversals: usize::MAX,
        max_nodes: u64::MAX,
        ..Limits::default()
    }
}

fn members(set: &[u64], n: usize) -> Vec<usize> {
    (0..n)
        .filter(|&v| set[v / 64] >> (v % 64) & 1 == 1)
        .collect()
}

#[test]
fn the_clique_cover_holds_only_cliques_and_covers_every_edge() {
    let mut rng = uniform(0xc0ffee);
    for trial in 0..40 {
        let g = random_graph(5 + trial % 30, [0.1, 0.3, 0.6, 0.9][trial % 4], &mut rng);
        for min_size in [2, 3, 5] {
            let cover = greedy_clique_cover(&g, min_size);
            for clique in &cover {
                assert!(clique.len() >= min_size);
                for (i, &a) in clique.iter().enumerate() {
                    for &b in &clique[..i] {
                        assert!(adjacent(&g, a, b), "{a} {b} in {clique:?} of {g:?}");
                    }
                }
            }
            if min_size == 2 {
                for (u, v) in g.edges() {
                    assert!(
                        cover.iter().any(|c| c.contains(&u) && c.contains(&v)),
                        "edge {u} {v} uncovered"
                    );
                }
            }
        }
    }
}

#[test]
fn the_cover_of_a_queen_graph_splits_the_board_into_lines() {
    for n in [5, 6, 8] {
        let g = queen_graph(n);
        let cover = greedy_clique_cover(&g, n);
        let parts = clique_partition(&g, &cover, n).expect("the rows");
        let mut seen = vec![false; n * n];
        for part in &parts {
            assert_eq!(part.len(), n);
            part.iter().for_each(|&v| seen[v] = true);
        }
        assert!(seen.iter().all(|&s| s));
        // The independent transversals of the rows are the n-queens solutions.
        let sets = independent_transversals(&g, &parts, &unlimited()).unwrap();
        let solutions = [0, 0, 0, 0, 2, 10, 4, 40, 92][n];
        assert_eq!(sets.len() / (n * n).div_ceil(64), solutions, "{n}-queens");
    }
}

#[test]
fn transversals_and_exact_covers_agree_with_brute_force() {
    let mut rng = uniform(0xbeef);
    for trial in 0..60 {
        let q = 2 + trial % 3;
        let m = 2 + trial % 2;
        let g = planted_partition(q, m, [0.2, 0.35, 0.5][trial % 3], &mut rng);
        let n = g.n;
        let words = n.div_ceil(64);
        let parts: Vec<Vec<usize>> = (0..m).map(|i| (i * q..(i + 1) * q).collect()).collect();
        let sets = independent_transversals(&g, &parts, &unlimited()).unwrap();
        // Every independent transversal, by enumeration of one vertex per part.
        let mut want = Vec::new();
        let mut pick = vec![0usize; m];
        loop {
            let chosen: Vec<usize> = (0..m).map(|i| i * q + pick[i]).collect();
            if chosen
                .iter()
                .enumerate()
                .all(|(i, &a)| chosen[..i].iter().all(|&b| !adjacent(&g, a, b)))
            {
                want.push(chosen);
            }
            let Some(i) = (0..m).find(|&i| pick[i] + 1 < q) else {
                break;
            };
            pick[i] += 1;
            pick[..i].iter_mut().for_each(|p| *p = 0);
        }
        let mut got: Vec<Vec<usize>> = sets.chunks(words).map(|s| members(s, n)).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "trial {trial}");
        // A cover exists exactly when q colours suffice, and is a proper colouring.
        let sets = meeting_every_clique(&sets, words, &parts);
        let colourable = brute_force_colouring(&g, q).is_some();
        match exact_cover(n, words, &sets, &unlimited()) {
            Cover::Found(chosen) => {
                assert!(colourable, "trial {trial}");
                let mut colour = vec![0i64; n];
                for (c, &s) in chosen.iter().enumerate() {
                    for v in members(&sets[s * words..(s + 1) * words], n) {
                        assert_eq!(colour[v], 0, "vertex {v} in two classes");
                        colour[v] = c as i64 + 1;
                    }
                }
                Colouring { graph: g.clone() }
                    .check_colours(&colour, Some(q as i64))
                    .unwrap();
            }
            Cover::None => assert!(!colourable, "trial {trial}"),
            Cover::Unknown => panic!("no limit was set"),
        }
    }
}

#[test]
fn a_spent_budget_proves_nothing() {
    let g = queen_graph(8);
    let cover = greedy_clique_cover(&g, 8);
    let parts = clique_partition(&g, &cover, 8).unwrap();
    let sets = independent_transversals(&g, &parts, &unlimited()).unwrap();
    let few = Limits {
        max_transversals: 10,
        ..unlimited()
    };
    assert!(independent_transversals(&g, &parts, &few).is_none());
    let no_nodes = Limits {
        max_nodes: 0,
        ..unlimited()
    };
    assert_eq!(exact_cover(64, 1, &sets, &no_nodes), Cover::Unknown);
    // With time, the search is complete: queen8_8 has no 8-colouring (χ = 9).
    assert_eq!(exact_cover(64, 1, &sets, &unlimited()), Cover::None);
}

#[test]
fn the_model_with_the_exact_cover_proves_the_brute_force_chromatic_number() {
    // Planted partitions into q-cliques: the exact cover decides q colours, either with a
    // colouring or by raising the lower bound to q + 1.
    let mut rng = uniform(0xfeed);
    for trial in 0..24 {
        let q = 3 + trial % 2;
        let g = Colouring {
            graph: planted_partition(q, 3, [0.3, 0.45, 0.6][trial % 3], &mut rng),
        };
        let (best, proved) = optimum(&g, &ModelOptions::default());
        assert!(proved, "trial {trial}");
        assert_eq!(
            best,
            Some(brute_force_chi(&g.graph) as i64),
            "trial {trial}"
        );
    }
    // Queen graphs: χ(queen6_6) = 7 > 6 = ω (no 6 disjoint 6-queens solutions exist),
    // χ(queen7_7) = 7 (Trick's COLOR page).
    for (n, chi) in [(6, 7), (7, 7)] {
        let g = Colouring {
            graph: queen_graph(n),
        };
        assert_eq!(find_clique(&g.graph, i64::MAX).len(), n);
        assert_eq!(
            optimum(&g, &ModelOptions::default()),
            (Some(chi), true),
            "queen{n}_{n}"
        );
    }
}

// ----- the shared DIMACS set (not in the repository) --------------------------------------

/// The shared DIMACS set (not in the repository), if present; else the skip is recorded.
fn shared_dimacs() -> Option<std::path::PathBuf> {
    let csv = engine::testing::data_path("dimacs-col/chromatic_numbers.csv")?;
    csv.parent().map(std::path::Path::to_path_buf)
}

#[test]
fn queen_graphs_are_proved_by_the_exact_cover() {
    let Some(dir) = shared_dimacs() else {
        return;
    };
    // χ from chromatic_numbers.csv: queen9_9 = 10 (no 9-colouring: refuted by the exact
    // cover), queen11_11 = 11 (found by it), queen12_12 = 12 and queen13_13 = 13 (found by
    // the symmetric exact cover).
    let csv = std::fs::read_to_string(dir.join("chromatic_numbers.csv")).unwrap();
    for name in ["queen9_9", "queen11_11", "queen12_12", "queen13_13"] {
        let chi: i64 = csv
            .lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .and_then(|l| l.split(',').nth(4)?.parse().ok())
            .expect("the csv lists it");
        let text = std::fs::read_to_string(dir.join(format!("{name}.col"))).unwrap();
        let g = puzzles::colouring::parse_graph(&text).unwrap();
        assert_eq!(
            optimum(&g, &ModelOptions::default()),
            (Some(chi), true),
            "{name}"
        );
    }
}
