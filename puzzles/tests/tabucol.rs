//! TabuCol, the colouring local search: it finds χ-colourings of small graphs (checked by the
//! puzzle's checker, χ from brute force or Trick's table), never claims a colouring with
//! fewer colours than a clique, is deterministic for a seed, obeys its budget; and the model
//! that follows its colouring proves the same chromatic numbers as the satisfaction searches.

use engine::rng::Rng;
use puzzles::colouring::tabucol::{colour_with, fewest_colours};
use puzzles::colouring::{dsatur_colouring, find_clique, parse_graph, Colouring, Graph};
use puzzles::{Instance, ModelOptions};

mod support;
use support::colouring::{
    brute_force_chi, check, in_repo, moves, optimum, random_graph, shared_dimacs, spent_budgets,
    uniform, used,
};

#[test]
fn small_dimacs_graphs_are_coloured_with_chi_colours_from_one_colour_everywhere() {
    // Trick's COLOR page: myciel3 = 4, myciel4 = 5, queen5_5 = 5, huck = 11.
    for (name, chi) in [
        ("myciel3.col", 4),
        ("myciel4.col", 5),
        ("queen5_5.col", 5),
        ("huck.col", 11),
    ] {
        let g = in_repo(name);
        let start = vec![1; g.n]; // every edge in conflict
        let mut rng = Rng::new(7);
        let found = colour_with(&g, chi, &start, &[], &mut rng, &moves(1_000_000), &mut 0)
            .unwrap_or_else(|| panic!("{name}: no {chi}-colouring found"));
        assert_eq!(check(&g, &found), Ok(()), "{name}");
        assert!(used(&found) <= chi, "{name}");
    }
}

#[test]
fn no_colouring_below_a_clique_is_claimed() {
    for name in ["myciel3.col", "myciel4.col", "queen5_5.col", "huck.col"] {
        let g = in_repo(name);
        let q = find_clique(&g, i64::MAX).len();
        let greedy = dsatur_colouring(&g, &[]);
        let mut rng = Rng::new(3);
        assert_eq!(
            colour_with(&g, q - 1, &greedy, &[], &mut rng, &moves(20_000), &mut 0),
            None,
            "{name}"
        );
        // The descent stops at a proper colouring with at least q colours.
        let best = fewest_colours(&g, &greedy, &[], 1, 3, &moves(20_000));
        assert_eq!(check(&g, &best), Ok(()), "{name}");
        assert!(used(&best) >= q && used(&best) <= used(&greedy), "{name}");
    }
}

#[test]
fn random_graphs_are_coloured_with_exactly_chi_colours() {
    let mut rng = uniform(0x2545_f491_4f6c_dd1d);
    for trial in 0..60 {
        let n = 4 + trial % 9;
        let density = [0.3, 0.5, 0.7][trial % 3];
        let g = random_graph(n, density, &mut rng);
        let chi = brute_force_chi(&g);
        let greedy = dsatur_colouring(&g, &[]);
        let mut search = Rng::new(trial as u64);
        let found = colour_with(&g, chi, &greedy, &[], &mut search, &moves(200_000), &mut 0)
            .unwrap_or_else(|| panic!("no {chi}-colouring of {g:?}"));
        assert_eq!(check(&g, &found), Ok(()));
        assert!(used(&found) <= chi);
        if chi > 1 {
            let below = colour_with(
                &g,
                chi - 1,
                &greedy,
                &[],
                &mut search,
                &moves(5_000),
                &mut 0,
            );
            assert_eq!(below, None, "{g:?} with {} colours", chi - 1);
        }
        let best = fewest_colours(&g, &greedy, &[], 1, trial as u64, &moves(20_000));
        assert_eq!((check(&g, &best), used(&best)), (Ok(()), chi), "{g:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_colouring() {
    let mut rng = uniform(99);
    let g = random_graph(70, 0.3, &mut rng);
    let greedy = dsatur_colouring(&g, &[]);
    let first = fewest_colours(&g, &greedy, &[], 1, 11, &moves(100_000));
    assert_eq!(
        first,
        fewest_colours(&g, &greedy, &[], 1, 11, &moves(100_000))
    );
    assert_eq!(check(&g, &first), Ok(()));
}

#[test]
fn a_spent_budget_or_the_stop_flag_ends_the_search_at_once() {
    let g = in_repo("queen5_5.col");
    let start = vec![1; g.n];
    for budget in spent_budgets() {
        let mut done = 0;
        let mut rng = Rng::new(1);
        assert_eq!(
            colour_with(&g, 5, &start, &[], &mut rng, &budget, &mut done),
            None
        );
        assert_eq!(done, 0);
    }
}

/// One colour on a graph with an edge: no move can ever remove the conflict (every move
/// would be to the same colour), so the search must say no at once, without spending its
/// budget (with an unbounded one it would spin for ever).
#[test]
fn one_colour_on_a_graph_with_an_edge_is_refused_at_once() {
    let g = in_repo("queen5_5.col");
    let mut done = 0;
    let found = colour_with(
        &g,
        1,
        &vec![1; g.n],
        &[],
        &mut Rng::new(1),
        &moves(100_000),
        &mut done,
    );
    assert_eq!(found, None);
    assert_eq!(done, 0, "no move made");
}

#[test]
fn peeled_vertices_are_coloured_after_the_core() {
    // A 5-clique with a long path hanging from it: the path is peeled at k = 5.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for u in 0..5 {
        for v in u + 1..5 {
            edges.push((u, v));
        }
    }
    for v in 5..40 {
        edges.push((v - 1, v));
        edges.push((v, (v * 7) % 5)); // and one edge back into the clique
    }
    let g = Graph::from_edges(40, &edges);
    let mut rng = Rng::new(5);
    let found = colour_with(
        &g,
        5,
        &[1; 40],
        &[0, 1, 2, 3, 4],
        &mut rng,
        &moves(100_000),
        &mut 0,
    )
    .unwrap();
    assert_eq!(check(&g, &found), Ok(()));
    assert!(used(&found) <= 5);
}

// ----- the model that follows the local search's colouring -------------------------------

#[test]
fn the_model_proves_the_same_optimum_as_the_satisfaction_searches() {
    // Random graphs where the greedy colouring is often one colour too many, so the model
    // starts from the local search's colouring; K = optimum must be satisfiable and K - 1
    // refuted by the satisfaction model (which does not use the optimum).
    let mut rng = uniform(0x1234_5678);
    for trial in 0..12 {
        let g = Colouring {
            graph: random_graph(24 + trial, 0.5, &mut rng),
        };
        let (best, proved) = optimum(&g, &ModelOptions::default());
        assert!(proved);
        let chi = best.unwrap() as u32;
        for (k, colourable) in [(chi, true), (chi - 1, false)] {
            let options = ModelOptions {
                colours: Some(k),
                ..ModelOptions::default()
            };
            let built = g
                .build_prepared(&options, &engine::Limits::default())
                .unwrap();
            let outcome = engine::solve(&mut built.model.clone(), &built.search);
            assert!(outcome.complete || outcome.best.is_some());
            if let Some(s) = &outcome.best {
                g.check(&g.answer(&built, s)).unwrap();
            }
            assert_eq!(
                outcome.best.is_some(),
                colourable,
                "trial {trial}, {k} colours"
            );
        }
    }
}

// ----- the shared DIMACS set (not in the repository) --------------------------------------

#[test]
fn le450_15a_is_proved_with_the_local_search_colouring() {
    let Some(dir) = shared_dimacs() else {
        return;
    };
    // The greedy colouring has 17 colours and the tree search alone stays at 17 for a minute;
    // TabuCol finds the 15 of the clique (deterministic: a budget of moves, no clock).
    let text = std::fs::read_to_string(dir.join("le450_15a.col")).unwrap();
    let g = parse_graph(&text).unwrap();
    assert_eq!(optimum(&g, &ModelOptions::default()), (Some(15), true));
}
