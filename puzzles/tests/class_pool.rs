//! The set cover of colour classes (`colouring/set_cover.rs`) and the pool it covers
//! (`colouring/class_pool.rs`, TabuCol's `visit_colourings`): the cover search finds a
//! smallest cover whenever brute force finds one, never reports a cover that is not one,
//! obeys its limits; TabuCol's visits show colourings with k colours; the pool colours
//! graphs with a planted colouring, and `DSJR500.5` with 122 colours (when the shared DIMACS
//! set is here). Every colouring goes through the checker.

use engine::rng::Rng;
use puzzles::colouring::class_pool::{self, Settings};
use puzzles::colouring::exact_cover::Limits;
use puzzles::colouring::set_cover::{colouring_from_cover, cover_by_local_search};
use puzzles::colouring::tabucol::{self, Budget};
use puzzles::colouring::{dsatur_colouring, find_clique, parse_graph, Graph};

mod support;
use support::colouring::{adjacent, check, in_repo, moves, random_graph, uniform, used};

fn steps(max_nodes: u64) -> Limits {
    Limits {
        max_nodes,
        ..Limits::default()
    }
}

/// Up to `count` maximal independent sets of `g`, each grown from a random order, plus one
/// grown from each vertex first (so that every vertex is in one), without repeats.
fn random_maximal_sets(g: &Graph, count: usize, rng: &mut impl FnMut() -> f64) -> Vec<Vec<usize>> {
    let grow = |order: &[usize]| {
        let mut set: Vec<usize> = Vec::new();
        for &v in order {
            if set.iter().all(|&u| !adjacent(g, u, v)) {
                set.push(v);
            }
        }
        set.sort_unstable();
        set
    };
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for first in 0..g.n {
        let mut order: Vec<usize> = (0..g.n).collect();
        order.swap(0, first);
        let set = grow(&order);
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    for _ in 0..count {
        let mut order: Vec<usize> = (0..g.n).collect();
        for i in (1..g.n).rev() {
            order.swap(i, (rng() * (i + 1) as f64) as usize % (i + 1));
        }
        let set = grow(&order);
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    sets
}

/// The vertices that none of `chosen` holds.
fn left_uncovered(n: usize, pool: &[Vec<usize>], chosen: &[usize]) -> usize {
    let mut covered = vec![false; n];
    for &s in chosen {
        pool[s].iter().for_each(|&v| covered[v] = true);
    }
    covered.iter().filter(|&&c| !c).count()
}

/// The fewest sets of `pool` that cover `0..n`, by trying every subset.
fn brute_force_fewest(n: usize, pool: &[Vec<usize>]) -> Option<usize> {
    (0u32..1 << pool.len())
        .filter(|subset| {
            let chosen: Vec<usize> = (0..pool.len()).filter(|&s| subset >> s & 1 == 1).collect();
            left_uncovered(n, pool, &chosen) == 0
        })
        .map(|subset| subset.count_ones() as usize)
        .min()
}

#[test]
fn the_cover_search_finds_a_smallest_cover_and_never_reports_a_false_one() {
    let mut rng = uniform(17);
    let mut smallest_sizes = Vec::new();
    for trial in 0..60 {
        let n = 6 + trial % 7;
        let density = 0.3 + 0.1 * (trial % 4) as f64;
        let g = random_graph(n, density, &mut rng);
        let mut pool = random_maximal_sets(&g, 8, &mut rng);
        pool.truncate(14); // brute force over 2^14 subsets at most
        let Some(fewest) = brute_force_fewest(n, &pool) else {
            continue; // (the vertex-first sets were cut off)
        };
        smallest_sizes.push(fewest);
        for k in 1..=fewest {
            let attempt = cover_by_local_search(n, &pool, k, &[], trial as u64, &steps(20_000));
            assert_eq!(
                attempt.chosen.len(),
                k.min(pool.len()),
                "trial {trial}, k {k}"
            );
            let mut distinct = attempt.chosen.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                attempt.chosen.len(),
                "trial {trial}: a set twice"
            );
            assert_eq!(
                attempt.uncovered,
                left_uncovered(n, &pool, &attempt.chosen),
                "trial {trial}, k {k}: the reported uncovered count is wrong"
            );
            if k == fewest {
                assert_eq!(attempt.uncovered, 0, "trial {trial}: missed a cover of {k}");
                let colour = colouring_from_cover(n, &pool, &attempt.chosen);
                assert_eq!(check(&g, &colour), Ok(()), "trial {trial}");
                assert!(used(&colour) <= k, "trial {trial}");
            } else {
                assert!(
                    attempt.uncovered > 0,
                    "trial {trial}: a cover of {k} < {fewest}"
                );
            }
        }
    }
    // The instances are not all trivial: several need three sets or more.
    assert!(smallest_sizes.len() >= 40, "{smallest_sizes:?}");
    assert!(
        smallest_sizes.iter().filter(|&&m| m >= 3).count() >= 10,
        "{smallest_sizes:?}"
    );
}

#[test]
fn the_cover_search_starts_from_the_sets_given_and_obeys_its_limits() {
    let g = in_repo("queen5_5.col");
    let mut rng = uniform(5);
    let pool = random_maximal_sets(&g, 40, &mut rng);
    // No step allowed: the start as given, completed greedily up to k.
    let attempt = cover_by_local_search(g.n, &pool, 5, &[3, 1], 1, &steps(0));
    assert_eq!(&attempt.chosen[..2], &[3, 1]);
    assert_eq!(attempt.chosen.len(), 5);
    assert_eq!(
        attempt.uncovered,
        left_uncovered(g.n, &pool, &attempt.chosen)
    );
    let past = Limits {
        max_nodes: u64::MAX,
        deadline: Some(std::time::Instant::now()),
        ..Limits::default()
    };
    let ended = cover_by_local_search(g.n, &pool, 4, &[], 1, &past);
    assert!(ended.uncovered > 0); // χ(queen5_5) = 5: no cover by 4 independent sets
                                  // k = 0 covers nothing; a vertex in no set is never covered.
    assert_eq!(
        cover_by_local_search(g.n, &pool, 0, &[], 1, &steps(100)).uncovered,
        g.n
    );
    let without_vertex_0: Vec<Vec<usize>> =
        pool.iter().filter(|s| !s.contains(&0)).cloned().collect();
    let attempt = cover_by_local_search(g.n, &without_vertex_0, 10, &[], 1, &steps(1_000));
    assert!(attempt.uncovered >= 1);
}

#[test]
fn tabucol_visits_show_colourings_with_k_colours_on_the_core() {
    let g = in_repo("queen5_5.col"); // χ = 5
    let greedy = dsatur_colouring(&g, &[]);
    let mut visits = 0;
    let mut rng = Rng::new(2);
    let mut visit = |colour: &[u32]| {
        visits += 1;
        assert_eq!(colour.len(), g.n);
        assert!(colour.iter().all(|&c| (1..=4).contains(&c)), "{colour:?}");
    };
    // Four colours: never proper, so it runs to the end of its moves (the budget is read
    // every 256 moves: 100 runs of 256).
    let found = tabucol::visit_colourings(
        &g,
        4,
        &greedy,
        &[],
        &mut rng,
        &moves(25_600),
        256,
        &mut visit,
    );
    assert_eq!(found, None);
    assert_eq!(visits, 100);
    // Five: a proper colouring, checked.
    let mut visit = |_: &[u32]| {};
    let found = tabucol::visit_colourings(
        &g,
        5,
        &greedy,
        &[],
        &mut rng,
        &moves(1_000_000),
        100,
        &mut visit,
    )
    .expect("a 5-colouring of queen5_5");
    assert_eq!(check(&g, &found), Ok(()));
    assert!(used(&found) <= 5);
}

/// `k` hidden classes of `size` vertices (vertex `v` in class `v % k`), the first vertex of
/// each class joined into a clique, and other pairs of different classes joined with
/// probability `density`: χ = ω = k.
fn planted_colouring(k: usize, size: usize, density: f64, rng: &mut impl FnMut() -> f64) -> Graph {
    let n = k * size;
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if u % k != v % k && ((u < k && v < k) || rng() < density) {
                edges.push((u, v));
            }
        }
    }
    Graph::from_edges(n, &edges)
}

#[test]
fn the_pool_colours_planted_graphs_with_their_clique_size() {
    let mut rng = uniform(23);
    for trial in 0..4 {
        let k = 8 + trial;
        let g = planted_colouring(k, 4, 0.85, &mut rng);
        let clique = find_clique(&g, i64::MAX);
        assert_eq!(clique.len(), k, "trial {trial}");
        let greedy = dsatur_colouring(&g, &clique);
        let found = class_pool::colour_from_pool(
            &g,
            &clique,
            &greedy,
            &greedy,
            k,
            trial as u64,
            &Budget::default(),
            &Settings::default(),
        )
        .unwrap_or_else(|| panic!("trial {trial}: no {k}-colouring"));
        assert_eq!(check(&g, &found), Ok(()), "trial {trial}");
        assert!(used(&found) <= k, "trial {trial}");
    }
}

#[test]
fn the_pool_colours_dsjr500_5_with_122_colours() {
    let Some(path) = engine::testing::data_path("dimacs-col/DSJR500.5.col") else {
        return;
    };
    let g = parse_graph(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .graph;
    let clique = find_clique(&g, 30_000_000);
    assert_eq!(clique.len(), 122);
    let greedy = dsatur_colouring(&g, &clique);
    // TabuCol's descent as in the model, bounded by moves (so deterministic): 124 colours.
    let descent = Budget {
        patience: Some(50),
        ..moves(20_000_000)
    };
    let best = tabucol::fewest_colours(&g, &greedy, &clique, 122, 1, &descent);
    assert!(
        used(&best) > 122,
        "TabuCol alone found 122 colours: the test shows nothing"
    );
    let found = class_pool::colour_from_pool(
        &g,
        &clique,
        &greedy,
        &best,
        122,
        1,
        &Budget::default(),
        &Settings::default(),
    )
    .expect("a 122-colouring of DSJR500.5");
    assert_eq!(check(&g, &found), Ok(()));
    assert_eq!(used(&found), 122);
}
