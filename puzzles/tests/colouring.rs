//! Graph colouring: the seed's answers, small DIMACS graphs, brute force on random graphs,
//! malformed files, and random bytes. Every colouring found goes through the checker.

use engine::{Control, Outcome};
use proptest::prelude::*;
use puzzles::colouring::{dsatur_colouring, find_clique, parse_graph, Colouring, Graph};
use puzzles::{Instance, ModelOptions, Purpose};
use serde_json::Value;
use std::path::Path;

mod support;
use support::colouring::{random_graph, shared_dimacs};

fn seed_text() -> &'static str {
    include_str!("../instances/seed/colouring.col")
}

fn expected() -> Value {
    let text = include_str!("../instances/seed/expected.json");
    serde_json::from_str::<Value>(text).unwrap()["colouring"].clone()
}

fn options(colours: Option<u32>, purpose: Purpose) -> ModelOptions {
    ModelOptions {
        colours,
        purpose,
        ..Default::default()
    }
}

/// Search as the command line would; every solution is decoded and checked. Returns the
/// outcome and the last answer.
fn run(instance: &Colouring, opts: &ModelOptions) -> (Outcome, Option<puzzles::Answer>) {
    let built = instance
        .build_prepared(opts, &engine::Limits::default())
        .expect("model");
    let mut config = built.search.clone();
    if config.objective.is_none() && opts.purpose == Purpose::Solve {
        config.solution_limit = Some(1);
    }
    let mut model = built.model.clone();
    let mut last = None;
    let outcome = engine::search(
        &mut model,
        &config,
        &mut engine::search::NoListener,
        &mut |s| {
            let answer = instance.answer(&built, s);
            if let Err(e) = instance.check(&answer) {
                panic!("checker rejects {:?}: {e}", answer.json);
            }
            last = Some(answer);
            Control::Continue
        },
    );
    (outcome, last)
}

/// The proved chromatic number (panics if the search is incomplete).
fn chromatic_number(instance: &Colouring) -> i64 {
    let (outcome, answer) = run(instance, &ModelOptions::default());
    assert!(outcome.complete, "the optimum is proved");
    let answer = answer.expect("a colouring");
    assert_eq!(answer.objective, outcome.objective);
    answer.objective.unwrap()
}

#[test]
fn seed_optimum_is_four_and_proved() {
    let want = expected();
    let g = parse_graph(seed_text()).unwrap();
    assert_eq!((g.graph.n, g.graph.num_edges()), (15, 29));
    assert_eq!(chromatic_number(&g), want["objective"].as_i64().unwrap());
    assert_eq!(want["status"], "OPTIMAL");
    // The expected file's own solution passes the checker too.
    let answer = puzzles::Answer {
        json: want["solution"].clone().into(),
        text: String::new(),
        objective: want["objective"].as_i64(),
    };
    g.check(&answer).unwrap();
}

#[test]
fn seed_with_three_colours_is_unsatisfiable() {
    assert_eq!(expected()["colours_3"]["status"], "UNSATISFIABLE");
    let g = parse_graph(seed_text()).unwrap();
    let (outcome, answer) = run(&g, &options(Some(3), Purpose::Solve));
    assert!(outcome.complete && answer.is_none());
    let (outcome, answer) = run(&g, &options(Some(4), Purpose::Solve));
    assert!(answer.is_some() && outcome.solutions == 1);
}

#[test]
fn seed_four_colourings_counted() {
    let want = expected()["colours_4_count"].as_u64().unwrap();
    let g = parse_graph(seed_text()).unwrap();
    let (outcome, _) = run(&g, &options(Some(4), Purpose::Count));
    assert!(outcome.complete);
    assert_eq!(outcome.solutions, want);
    // The same on two threads.
    let built = g.build(&options(Some(4), Purpose::Count)).unwrap();
    let parallel = engine::count_parallel(&built.model, &built.search, 2);
    assert_eq!(parallel.solutions, want);
}

#[test]
fn counting_needs_a_number_of_colours() {
    let g = parse_graph(seed_text()).unwrap();
    assert!(g
        .build_prepared(&options(None, Purpose::Count), &engine::Limits::default())
        .is_err());
    assert!(g.build(&options(Some(0), Purpose::Solve)).is_err());
}

fn in_repo(name: &str) -> Colouring {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/dimacs")
        .join(name);
    parse_graph(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn small_dimacs_graphs_have_their_known_chromatic_numbers() {
    // Trick's COLOR page: myciel3 = 4, myciel4 = 5, queen5_5 = 5, huck = 11.
    for (name, chi, clique) in [
        ("myciel3.col", 4, 2),
        ("myciel4.col", 5, 2),
        ("queen5_5.col", 5, 5),
        ("huck.col", 11, 11),
    ] {
        let g = in_repo(name);
        assert_eq!(find_clique(&g.graph, i64::MAX).len(), clique, "{name}");
        assert_eq!(chromatic_number(&g), chi, "{name}");
        // One colour fewer is refuted.
        let (outcome, answer) = run(&g, &options(Some(chi as u32 - 1), Purpose::Solve));
        assert!(outcome.complete && answer.is_none(), "{name}");
    }
}

// ----- brute force on random small graphs -------------------------------------------------

/// Proper colourings of `g` with colours 0..k, by enumeration.
fn brute_force_count(g: &Graph, k: usize) -> u64 {
    let mut colour = vec![0usize; g.n];
    fn rec(g: &Graph, k: usize, v: usize, colour: &mut Vec<usize>) -> u64 {
        if v == g.n {
            return 1;
        }
        let mut total = 0;
        for c in 0..k {
            if g.adj[v].iter().all(|&u| u >= v || colour[u] != c) {
                colour[v] = c;
                total += rec(g, k, v + 1, colour);
            }
        }
        total
    }
    rec(g, k, 0, &mut colour)
}

fn brute_force_chi(g: &Graph) -> usize {
    (1..=g.n).find(|&k| brute_force_count(g, k) > 0).unwrap()
}

#[test]
fn random_graphs_agree_with_brute_force() {
    let mut state: u64 = 0x9e3779b97f4a7c15;
    let mut rng = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 1_000_000) as f64 / 1_000_000.0
    };
    for trial in 0..150 {
        let n = 1 + trial % 8;
        let density = [0.2, 0.4, 0.6, 0.85][trial % 4];
        let g = Colouring {
            graph: random_graph(n, density, &mut rng),
        };
        let chi = brute_force_chi(&g.graph);
        assert_eq!(chromatic_number(&g) as usize, chi, "{:?}", g.graph);
        // The heuristic and the clique bracket it.
        let clique = find_clique(&g.graph, i64::MAX);
        let greedy = dsatur_colouring(&g.graph, &clique);
        assert!(clique.len() <= chi && chi <= *greedy.iter().max().unwrap() as usize);
        for k in 1..=3usize {
            // Satisfaction with symmetry breaking: a colouring iff chi <= k.
            let (outcome, answer) = run(&g, &options(Some(k as u32), Purpose::Solve));
            assert!(outcome.complete || answer.is_some());
            assert_eq!(answer.is_some(), chi <= k, "{:?} with {k}", g.graph);
            // Counting without symmetry breaking: every proper colouring.
            let (outcome, _) = run(&g, &options(Some(k as u32), Purpose::Count));
            assert_eq!(outcome.solutions, brute_force_count(&g.graph, k));
        }
    }
}

#[test]
fn checker_rejects_bad_colourings() {
    let g = parse_graph("p edge 3 2\ne 1 2\ne 2 3\n").unwrap();
    assert!(g.check_colours(&[1, 2, 1], Some(2)).is_ok());
    assert!(g
        .check_colours(&[1, 1, 2], None)
        .unwrap_err()
        .contains("adjacent"));
    assert!(g
        .check_colours(&[1, 3, 1], Some(2))
        .unwrap_err()
        .contains("1..2"));
    assert!(g.check_colours(&[0, 2, 1], None).is_err());
    assert!(g.check_colours(&[1, 2], None).is_err());
}

// ----- parsing ----------------------------------------------------------------------------

#[test]
fn tolerant_parsing() {
    // CR/LF, tabs, comments, `p col`, repeated edges in both directions, self-loops.
    let text =
        "c a comment\r\np col 4 5\r\ne 1\t2\r\n\r\ne 2 1\ne 1 2\ne 3 3\n% other comment\ne 3 4\n";
    let g = parse_graph(text).unwrap().graph;
    assert_eq!(g.n, 4);
    assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (2, 3)]);
    // A graph without edges needs one colour.
    let g = parse_graph("p edge 3 0\n").unwrap();
    assert_eq!(chromatic_number(&g), 1);
}

#[test]
fn malformed_inputs_name_the_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "missing 'p edge"),
        ("c only comments\n", 0, "missing 'p edge"),
        ("e 1 2\np edge 2 1\n", 1, "before the 'p edge"),
        ("p edge 3 1\ne 1 4\n", 2, "vertex 4 out of range 1..3"),
        ("p edge 3 1\ne 0 2\n", 2, "vertex 0 out of range"),
        ("p edge 3 1\nc\ne 1 x\n", 3, "found 'x'"),
        ("p edge 3 1\ne 1 2 3\n", 2, "expected 'e U V'"),
        ("p edge 3\n", 1, "expected 'p edge N M'"),
        ("p graph 3 1\n", 1, "expected 'p edge N M'"),
        ("p edge -3 1\n", 1, "number of vertices"),
        ("p edge 0 0\n", 1, "between 1 and"),
        ("p edge 99999999999 0\n", 1, "between 1 and"),
        ("p edge 2 1\np edge 2 1\n", 2, "second 'p' line"),
        ("p edge 2 1\nhello\n", 2, "found 'hello'"),
        ("p edge 2 1\ne 1 2\u{7}\n", 2, "control character"),
    ];
    for &(text, line, message) in cases {
        let err = parse_graph(text).expect_err(text);
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(err.message.contains(message), "{text:?}: {err}");
    }
}

proptest! {

    #[test]
    fn random_edge_lines_never_panic(lines in proptest::collection::vec((0u8..4, 0u32..12, 0u32..12), 0..30)) {
        let mut text = String::new();
        for (kind, a, b) in lines {
            let line = match kind {
                0 => format!("p edge {a} {b}\n"),
                1 => format!("e {a} {b}\n"),
                2 => format!("c {a}\n"),
                _ => format!("e {a}\n"),
            };
            text.push_str(&line);
        }
        if let Ok(g) = parse_graph(&text) {
            // Whatever parses can be modelled and solved.
            let (outcome, _) = run(&g, &ModelOptions::default());
            prop_assert!(outcome.complete);
        }
    }
}

// ----- the shared DIMACS set (not in the repository) --------------------------------------

#[test]
fn shared_dimacs_graphs_parse_and_easy_ones_are_proved() {
    let Some(dir) = shared_dimacs() else {
        return;
    };
    let csv = std::fs::read_to_string(dir.join("chromatic_numbers.csv")).unwrap();
    let mut parsed = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (name, vertices, edges): (&str, usize, usize) =
            (f[0], f[1].parse().unwrap(), f[3].parse().unwrap());
        if vertices > 200 {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(format!("{name}.col"))).unwrap();
        let g = parse_graph(&text).unwrap();
        assert_eq!(
            (g.graph.n, g.graph.num_edges()),
            (vertices, edges),
            "{name}"
        );
        parsed += 1;
        // Graphs whose chromatic number equals a clique found at once are proved quickly.
        if [
            "anna", "david", "jean", "games120", "miles250", "queen7_7", "r125.1c",
        ]
        .contains(&name)
        {
            let chi: i64 = f[4].parse().unwrap();
            assert_eq!(chromatic_number(&g), chi, "{name}");
        }
    }
    assert!(parsed > 40);
}

#[test]
fn peeling_removes_exactly_the_vertices_that_can_wait() {
    use puzzles::colouring::peel;
    // K4 plus a pendant vertex 4 on vertex 0.
    let g = Graph::from_edges(5, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, 4)]);
    // With 3 colours only the pendant (degree 1) can wait; the K4 is the core.
    assert_eq!(peel(&g, 3), vec![0, 0, 0, 0, 1]);
    // With 4 colours the pendant goes first, then every K4 vertex has 3 < 4 neighbours.
    let ranks = peel(&g, 4);
    assert_eq!(ranks[4], 1);
    assert!(ranks.iter().all(|&r| r > 0));
    // Nothing is peeled below 1 colour.
    assert!(peel(&g, 0).iter().all(|&r| r == 0));
}
