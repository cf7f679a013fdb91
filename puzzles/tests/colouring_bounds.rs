//! The lower bounds beyond the clique (`colouring/portfolio/mycielski_bound.rs`,
//! `independence_bound.rs`): never above the chromatic number found by brute force, and
//! tight where the graph is built for them (Mycielski's graphs, odd cycles); the model that
//! uses them proves the brute-force chromatic number.

use puzzles::colouring::independence_bound::{complement, independence_bound};
use puzzles::colouring::mycielski_bound::mycielski_bound;
use puzzles::colouring::{find_clique, Colouring, Graph};
use puzzles::ModelOptions;

mod support;
use support::colouring::{brute_force_chi, in_repo, optimum, random_graph, uniform};

/// Mycielski's construction: a shadow `n + v` of every vertex `v`, adjacent to `v`'s
/// neighbours, and `w = 2n` adjacent to every shadow. It needs one colour more than `g`.
fn mycielskian(g: &Graph) -> Graph {
    let n = g.n;
    let mut edges: Vec<(usize, usize)> = g.edges().collect();
    for (u, v) in g.edges() {
        edges.push((n + u, v));
        edges.push((n + v, u));
    }
    edges.extend((0..n).map(|v| (n + v, 2 * n)));
    Graph::from_edges(2 * n + 1, &edges)
}

fn cycle(n: usize) -> Graph {
    let edges: Vec<(usize, usize)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    Graph::from_edges(n, &edges)
}

fn bound_of(g: &Graph) -> usize {
    mycielski_bound(
        g,
        find_clique(g, i64::MAX).len(),
        i64::MAX,
        &engine::Limits::default(),
    )
}

#[test]
fn mycielski_bound_proves_mycielski_graphs() {
    assert_eq!(bound_of(&in_repo("myciel3.col")), 4);
    assert_eq!(bound_of(&in_repo("myciel4.col")), 5);
    // K2, C5, Grötzsch, ..., 95 vertices (myciel6's shape): χ = 2, 3, 4, ..., 7.
    let mut g = Graph::from_edges(2, &[(0, 1)]);
    for chi in 3..=7 {
        g = mycielskian(&g);
        assert_eq!(find_clique(&g, i64::MAX).len(), 2);
        assert_eq!(bound_of(&g), chi, "{} vertices", g.n);
    }
}

#[test]
fn bounds_are_never_above_the_chromatic_number() {
    let mut rng = uniform(0x5eed_b0b0);
    let mut raised = [0; 2];
    for round in 0..400 {
        let n = 4 + round % 7;
        let density = [0.2, 0.35, 0.5, 0.7, 0.85][round % 5];
        let base = random_graph(n, density, &mut rng);
        // Every other graph a Mycielskian, so that the construction is there to be found.
        let g = if round % 2 == 0 && n <= 7 {
            mycielskian(&base)
        } else {
            base
        };
        let chi = brute_force_chi(&g);
        let clique = find_clique(&g, i64::MAX).len();
        let mycielski = bound_of(&g);
        let independence = independence_bound(&g, clique, i64::MAX, &engine::Limits::default());
        assert!(
            mycielski <= chi,
            "Mycielski bound {mycielski} > χ {chi}: {g:?}"
        );
        assert!(
            independence <= chi,
            "α bound {independence} > χ {chi}: {g:?}"
        );
        raised[0] += usize::from(mycielski > clique);
        raised[1] += usize::from(independence > clique);
    }
    // Both bounds do say more than the clique on some of these graphs.
    assert!(raised[0] > 20 && raised[1] > 5, "{raised:?}");
}

/// The crown graph: `a_i = 2i` adjacent to `b_j = 2j + 1` for `i ≠ j`. Two colours, but a
/// greedy colouring in index order uses `n`, so no ceiling hides a bound that is too high.
fn crown(n: usize) -> Graph {
    let mut edges = Vec::new();
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            edges.push((2 * i, 2 * j + 1));
        }
    }
    Graph::from_edges(2 * n, &edges)
}

#[test]
fn bounds_hold_where_the_greedy_colouring_is_poor() {
    for n in 3..=6 {
        let g = crown(n);
        assert_eq!(bound_of(&g), 2, "crown {n}");
        let m = mycielskian(&g);
        assert_eq!(brute_force_chi(&m), 3);
        assert_eq!(bound_of(&m), 3, "Mycielskian of crown {n}");
        let twice = mycielskian(&m);
        assert!(bound_of(&twice) <= 4, "crown {n}, twice");
    }
}

#[test]
fn independence_bound_proves_odd_cycles_and_counts_the_core() {
    for n in [5, 7, 9, 31] {
        // α = (n - 1) / 2, so ⌈n / α⌉ = 3 where the clique says 2.
        assert_eq!(
            independence_bound(&cycle(n), 2, i64::MAX, &engine::Limits::default()),
            3
        );
    }
    // An even cycle: α = n / 2, nothing more than 2.
    assert_eq!(
        independence_bound(&cycle(8), 2, i64::MAX, &engine::Limits::default()),
        2
    );
    // A budget too small to prove α leaves the bound as it was.
    assert_eq!(
        independence_bound(&cycle(31), 2, 1, &engine::Limits::default()),
        2
    );
    // The complement has an edge exactly where the graph has none.
    let c = complement(&cycle(5), &[0, 1, 2, 3, 4]);
    assert_eq!(c.num_edges(), 5);
    assert!(c.adj[0] == vec![2, 3]);
}

#[test]
fn the_model_proves_the_chromatic_number_of_mycielskians() {
    let mut rng = uniform(77);
    for round in 0..12 {
        let base = random_graph(5 + round % 3, 0.5, &mut rng);
        let g = mycielskian(&base);
        let chi = brute_force_chi(&g);
        let instance = Colouring { graph: g };
        let (best, proved) = optimum(&instance, &ModelOptions::default());
        assert_eq!(best, Some(chi as i64));
        assert!(proved);
    }
}
