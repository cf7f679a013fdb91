//! The implications node probing keeps (`engine/src/search/probe_implications.rs`) against
//! brute force, on random small models of 0/1 variables: every implication kept at the root
//! holds in every solution, counting with them finds the same solutions as without, and
//! they refute values that plain probing keeps.

use engine::rng::Rng;
use engine::search::probing::{probe_node, NodeProbing, ProbeMemory};
use engine::{Control, Model, SearchConfig, VarId};

/// A random model over `n` 0/1 variables: random clauses of three literals (each a table
/// of the seven tuples it allows) and one `nonogram_line` over the variables in a random
/// order, whose clue is read from a random line.
fn random_model(rng: &mut Rng, n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs = m.new_vars(n, 0, 1);
    for _ in 0..n {
        let mut picked = xs.clone();
        rng.shuffle(&mut picked);
        let forbidden: Vec<i32> = (0..3).map(|_| rng.below(2) as i32).collect();
        let tuples: Vec<Vec<i32>> = (0..8)
            .map(|k| (0..3).map(|t| (k >> t) & 1).collect::<Vec<i32>>())
            .filter(|t| *t != forbidden)
            .collect();
        m.table(&picked[..3], tuples);
    }
    let mut line = xs.clone();
    rng.shuffle(&mut line);
    let cells: Vec<bool> = (0..n).map(|_| rng.below(2) == 1).collect();
    let clue: Vec<usize> = cells
        .split(|&c| !c)
        .filter(|run| !run.is_empty())
        .map(|run| run.len())
        .collect();
    m.nonogram_line(&line, &clue);
    (m, xs)
}

/// The number of solutions and the nodes, searched with `probing` at every node.
fn count_with(m: &mut Model, probing: NodeProbing) -> (u64, u64) {
    let mut count = 0;
    let config = SearchConfig {
        node_probing: Some(probing),
        ..SearchConfig::default()
    };
    let outcome = engine::search(m, &config, &mut engine::search::NoListener, &mut |_| {
        count += 1;
        Control::Continue
    });
    assert!(outcome.complete);
    assert_eq!(outcome.solutions, count);
    (count, outcome.stats.nodes)
}

#[test]
fn every_implication_kept_at_the_root_holds_in_every_solution() {
    let mut rng = Rng::new(33);
    let (mut kept_in_all, mut stronger) = (0, 0);
    for case in 0..400 {
        let n = 6 + case % 7;
        let (mut m, xs) = random_model(&mut rng, n);
        let solutions = engine::testing::search_solutions(&mut m, &xs);
        if m.propagate().is_err() {
            assert!(solutions.is_empty(), "case {case}");
            continue;
        }
        // Plain probing at the root, on a copy, for comparison.
        let mut plain = m.clone();
        let plain_probing = NodeProbing::new(&plain, &xs, 2).without_skipping();
        let plain_result = probe_node(&mut plain, &plain_probing, &mut ProbeMemory::default(), 0);
        let probing = NodeProbing::new(&m, &xs, 2)
            .without_skipping()
            .keeping_implications(true);
        let mut memory = ProbeMemory::default();
        let result = probe_node(&mut m, &probing, &mut memory, 0);
        if result.is_err() {
            assert!(
                solutions.is_empty(),
                "case {case}: a model with solutions refuted"
            );
            continue;
        }
        let graph = memory.implications().expect("the implications kept");
        for ((x, a), (y, b)) in graph.kept() {
            kept_in_all += 1;
            for s in &solutions {
                let value = |v: VarId| s[xs.iter().position(|&z| z == v).unwrap()];
                assert!(
                    value(x) != a || value(y) == b,
                    "case {case}: x{} = {a} → x{} = {b} kept, but a solution has x{} = {}",
                    x.index(),
                    y.index(),
                    y.index(),
                    value(y)
                );
            }
        }
        // What probing left: no solution lost, and sometimes less than plain probing left.
        assert_eq!(
            engine::testing::search_solutions(&mut m.clone(), &xs),
            solutions,
            "case {case}"
        );
        let sizes = |model: &Model| xs.iter().map(|&x| model.size(x)).sum::<u32>();
        stronger += usize::from(plain_result.is_err() || sizes(&m) < sizes(&plain));
        assert!(
            plain_result.is_err() || sizes(&m) <= sizes(&plain),
            "case {case}"
        );
    }
    assert!(kept_in_all > 0, "no implication was ever kept");
    assert!(
        stronger > 0,
        "the implications never removed more than plain probing"
    );
}

#[test]
fn counting_with_implications_equals_counting_without() {
    let mut rng = Rng::new(34);
    let (mut with_solutions, mut fewer_nodes) = (0, 0);
    for case in 0..300 {
        let n = 6 + case % 9;
        let (mut m, xs) = random_model(&mut rng, n);
        let plain = NodeProbing::new(&m, &xs, 2);
        let (count, nodes) = count_with(&mut m, plain.clone());
        let (implied_count, implied_nodes) =
            count_with(&mut m, plain.clone().keeping_implications(true));
        assert_eq!(
            count, implied_count,
            "case {case}: the implications changed the count"
        );
        // Kept from the root only (what the nonogram command does), and from depth 1.
        for depth in [0, 1] {
            let near_root = plain.clone().keeping_implications_to_depth(Some(depth));
            assert_eq!(
                count,
                count_with(&mut m, near_root).0,
                "case {case}: depth {depth}"
            );
        }
        // Without skipping too: every variable tried at every node.
        let everywhere = plain.without_skipping().keeping_implications(true);
        assert_eq!(count, count_with(&mut m, everywhere).0, "case {case}");
        assert_eq!(
            count,
            engine::testing::search_solutions(&mut m, &xs).len() as u64,
            "case {case}"
        );
        with_solutions += usize::from(count > 0);
        fewer_nodes += usize::from(implied_nodes < nodes);
    }
    assert!(
        with_solutions > 20,
        "too few models with solutions: {with_solutions}"
    );
    assert!(fewer_nodes > 0, "the implications never saved a node");
}
