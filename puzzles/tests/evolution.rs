//! The evolutionary colouring search (HEAD: two parents, GPX crossover, TabuCol on each
//! child): it finds χ-colourings of small random graphs whose χ is known by brute force,
//! every colouring it returns passes the puzzle's checker, it never returns a colouring
//! with χ − 1 colours (there is none: it must fail), the same seed gives the same result,
//! and a spent budget, a past deadline or the stop flag end it at once.

use engine::rng::Rng;
use puzzles::colouring::dsatur_colouring;
use puzzles::colouring::evolution::{colour_with, fewest_colours, Settings};

mod support;
use support::colouring::{
    brute_force_chi, check, in_repo, moves, random_graph, spent_budgets, uniform, used,
};

/// Short children and a short patience, so that a failing search ends soon.
fn small() -> Settings {
    Settings {
        child_moves: 500,
        cycle: 5,
        patience: 30,
    }
}

#[test]
fn random_graphs_are_coloured_with_chi_colours_and_never_fewer() {
    let mut rng = uniform(0x9e37_79b9_7f4a_7c15);
    for trial in 0..60 {
        let n = 5 + trial % 12;
        let density = [0.3, 0.5, 0.7][trial % 3];
        let g = random_graph(n, density, &mut rng);
        let chi = brute_force_chi(&g);
        // From one colour everywhere: every edge in conflict.
        let start = vec![1; g.n];
        let mut search = Rng::new(trial as u64);
        let found = colour_with(
            &g,
            chi,
            &start,
            &mut search,
            &moves(500_000),
            &mut 0,
            &small(),
        )
        .unwrap_or_else(|| panic!("no {chi}-colouring of {g:?}"));
        assert_eq!(check(&g, &found), Ok(()), "{g:?}");
        assert!(used(&found) <= chi);
        if chi > 1 {
            let below = colour_with(
                &g,
                chi - 1,
                &start,
                &mut search,
                &moves(50_000),
                &mut 0,
                &small(),
            );
            assert_eq!(below, None, "{g:?} with {} colours", chi - 1);
        }
        // The descent from the greedy colouring ends at a proper χ-colouring.
        let greedy = dsatur_colouring(&g, &[]);
        let best = fewest_colours(&g, &greedy, 1, trial as u64, &moves(200_000), &small());
        assert_eq!((check(&g, &best), used(&best)), (Ok(()), chi), "{g:?}");
    }
}

#[test]
fn small_dimacs_graphs_are_coloured_with_chi_colours() {
    // Trick's COLOR page: myciel4 = 5, queen5_5 = 5, huck = 11; and one colour fewer fails.
    for (name, chi) in [("myciel4.col", 5), ("queen5_5.col", 5), ("huck.col", 11)] {
        let g = in_repo(name);
        let start = vec![1; g.n];
        let mut rng = Rng::new(5);
        let found = colour_with(
            &g,
            chi,
            &start,
            &mut rng,
            &moves(1_000_000),
            &mut 0,
            &small(),
        )
        .unwrap_or_else(|| panic!("{name}: no {chi}-colouring found"));
        assert_eq!(check(&g, &found), Ok(()), "{name}");
        assert!(used(&found) <= chi, "{name}");
        let below = colour_with(
            &g,
            chi - 1,
            &start,
            &mut rng,
            &moves(100_000),
            &mut 0,
            &small(),
        );
        assert_eq!(below, None, "{name} with {} colours", chi - 1);
    }
}

#[test]
fn the_same_seed_gives_the_same_colouring() {
    let mut rng = uniform(77);
    let g = random_graph(80, 0.3, &mut rng);
    let greedy = dsatur_colouring(&g, &[]);
    let first = fewest_colours(&g, &greedy, 1, 13, &moves(200_000), &small());
    assert_eq!(
        first,
        fewest_colours(&g, &greedy, 1, 13, &moves(200_000), &small())
    );
    assert_eq!(check(&g, &first), Ok(()));
    assert!(used(&first) <= used(&greedy));
}

#[test]
fn a_spent_budget_or_the_stop_flag_ends_the_search_at_once() {
    let g = in_repo("queen5_5.col");
    let start = vec![1; g.n];
    // An unlimited patience: only the budget can end the search.
    let settings = Settings {
        patience: u64::MAX,
        ..small()
    };
    for budget in spent_budgets() {
        let mut done = 0;
        let mut rng = Rng::new(1);
        assert_eq!(
            colour_with(&g, 5, &start, &mut rng, &budget, &mut done, &settings),
            None
        );
        assert_eq!(done, 0);
        // The descent keeps the proper colouring it started from.
        let greedy = dsatur_colouring(&g, &[]);
        assert_eq!(
            fewest_colours(&g, &greedy, 1, 1, &budget, &settings),
            greedy
        );
    }
    // A moves budget alone ends a search that can never succeed (4 colours, a 5-clique).
    let mut done = 0;
    let found = colour_with(
        &g,
        4,
        &start,
        &mut Rng::new(2),
        &moves(30_000),
        &mut done,
        &settings,
    );
    assert_eq!(found, None);
    assert!(done <= 30_000 + 256, "{done} moves");
}

#[test]
fn one_colour_on_a_graph_with_an_edge_is_refused_at_once() {
    let g = in_repo("queen5_5.col");
    let mut done = 0;
    let found = colour_with(
        &g,
        1,
        &vec![1; g.n],
        &mut Rng::new(1),
        &moves(100_000),
        &mut done,
        &small(),
    );
    assert_eq!(found, None);
    assert_eq!(done, 0, "no move made");
}
