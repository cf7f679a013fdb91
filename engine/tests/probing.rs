//! Probing (`engine/src/search/probing.rs`) against brute force: on random small models it
//! removes no solution (the solutions before and after are the same), it leaves every probed
//! value able to survive its own try (singleton consistency), and it removes what propagation
//! alone cannot.

use engine::rng::Rng;
use engine::search::probe_scores::{ScoreBranching, ScoreRule, ScoredValue};
use engine::search::probing::{probe, NodeProbing, ProbeMemory};
use engine::{Control, Limits, Model, Relation, RestartPolicy, SearchConfig, VarId};

/// A random model over `n` variables in 0..=2: random binary tables and a random linear.
fn random_model(rng: &mut Rng, n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs = m.new_vars(n, 0, 2);
    for _ in 0..n {
        let a = rng.below(n as u64) as usize;
        let b = (a + 1 + rng.below(n as u64 - 1) as usize) % n;
        let tuples: Vec<Vec<i32>> = (0..9)
            .filter(|_| rng.below(3) != 0)
            .map(|k| vec![k / 3, k % 3])
            .collect();
        m.table(&[xs[a], xs[b]], tuples);
    }
    let terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (rng.below(5) as i64 - 2, x)).collect();
    m.linear(&terms, Relation::Le, rng.below(4) as i64);
    (m, xs)
}

#[test]
fn probing_keeps_every_solution_and_reaches_singleton_consistency() {
    let mut rng = Rng::new(7);
    let mut pruned_beyond_propagation = 0;
    let mut infeasible = 0;
    for case in 0..300 {
        let n = 3 + case % 5;
        let (mut m, xs) = random_model(&mut rng, n);
        let before = engine::testing::search_solutions(&mut m, &xs);
        if m.propagate().is_err() {
            assert!(before.is_empty());
            continue;
        }
        let sizes: u32 = xs.iter().map(|&x| m.size(x)).sum();
        match probe(&mut m, &xs, 3, &Limits::default()) {
            Err(_) => {
                assert!(
                    before.is_empty(),
                    "case {case}: probing failed a model with solutions"
                );
                infeasible += 1;
            }
            Ok(stats) => {
                assert!(!stats.stopped);
                let after = engine::testing::search_solutions(&mut m, &xs);
                assert_eq!(before, after, "case {case}: probing changed the solutions");
                let left: u32 = xs.iter().map(|&x| m.size(x)).sum();
                assert_eq!(
                    sizes - left,
                    stats.removed as u32,
                    "case {case}: removals counted"
                );
                if stats.removed > 0 {
                    pruned_beyond_propagation += 1;
                }
                // Singleton consistency: every value left survives its own try.
                for &x in &xs {
                    for v in m.domain(x).iter().collect::<Vec<_>>() {
                        let checkpoint = m.checkpoint();
                        let survived = m.fix(x, v).and_then(|()| m.propagate()).is_ok();
                        m.rollback(checkpoint);
                        assert!(survived, "case {case}: x{} = {v} fails after probing", x.0);
                    }
                }
            }
        }
    }
    // The cases are not all trivial: probing had work to do.
    assert!(
        pruned_beyond_propagation > 20,
        "{pruned_beyond_propagation}"
    );
    assert!(infeasible > 0);
}

/// A value that no try keeps, though each constraint alone supports it: two tables over
/// (x, y) that each allow every value of y, while each value of x leaves y = 1 only.
#[test]
fn values_no_try_keeps_are_removed() {
    let mut m = Model::new();
    let x = m.new_var(0, 1);
    let y = m.new_var(0, 2);
    // x = 0 → y ≠ 0 and x = 1 → y ≠ 2; then x = 0 → y ≠ 2 and x = 1 → y ≠ 0.
    m.table(
        &[x, y],
        vec![vec![0, 1], vec![0, 2], vec![1, 0], vec![1, 1]],
    );
    m.table(
        &[x, y],
        vec![vec![0, 0], vec![0, 1], vec![1, 1], vec![1, 2]],
    );
    m.propagate().unwrap();
    assert_eq!(m.size(y), 3, "propagation alone leaves y open");
    let stats = probe(&mut m, &[x], 2, &Limits::default()).unwrap();
    assert!(m.is_fixed(y) && m.value(y) == 1, "y = 1 in every try of x");
    assert_eq!(stats.removed, 2);
    assert_eq!(m.size(x), 2, "both values of x survive");
}

#[test]
fn a_stopped_probe_says_so_and_removes_nothing_wrong() {
    let mut rng = Rng::new(3);
    let (mut m, xs) = random_model(&mut rng, 6);
    let before = engine::testing::search_solutions(&mut m, &xs);
    if m.propagate().is_err() {
        return;
    }
    let limits = Limits {
        deadline: Some(std::time::Instant::now()),
        ..Limits::default()
    };
    let stats = probe(&mut m, &xs, 3, &limits).unwrap();
    assert!(stats.stopped);
    assert_eq!(stats.probes, 0);
    assert_eq!(engine::testing::search_solutions(&mut m, &xs), before);
}

/// The number of solutions and the nodes searched, with `node_probing` as given.
fn count_with(m: &mut Model, node_probing: Option<NodeProbing>) -> (u64, u64) {
    let config = SearchConfig {
        node_probing,
        ..SearchConfig::default()
    };
    let outcome = count_in(m, &config);
    (outcome.solutions, outcome.stats.nodes)
}

/// Count the solutions of `m` under `config` (the search must finish).
fn count_in(m: &mut Model, config: &SearchConfig) -> engine::Outcome {
    let mut count = 0;
    let outcome = engine::search(m, config, &mut engine::search::NoListener, &mut |_| {
        count += 1;
        Control::Continue
    });
    assert!(outcome.complete);
    assert_eq!(outcome.solutions, count);
    outcome
}

#[test]
fn probing_at_every_node_keeps_the_count_and_saves_nodes() {
    let mut rng = Rng::new(19);
    let (mut fewer_nodes, mut with_solutions, mut scored_differs) = (0, 0, 0);
    for case in 0..300 {
        let n = 4 + case % 6;
        let (mut m, xs) = random_model(&mut rng, n);
        let (plain, plain_nodes) = count_with(&mut m, None);
        let everywhere = NodeProbing::new(&m, &xs, 3);
        let (probed, probed_nodes) = count_with(&mut m, Some(everywhere.clone()));
        assert_eq!(plain, probed, "case {case}: node probing changed the count");
        let scored = everywhere.clone().branching_on_scores();
        let (scored_count, scored_nodes) = count_with(&mut m, Some(scored));
        assert_eq!(plain, scored_count, "case {case}: branching on the scores");
        scored_differs += usize::from(scored_nodes != probed_nodes);
        let min_fewer = ScoreBranching {
            rule: ScoreRule::Min,
            value: ScoredValue::FewerChanged,
        };
        let by_min = everywhere.clone().branching_by(min_fewer);
        let (min_count, _) = count_with(&mut m, Some(by_min));
        assert_eq!(plain, min_count, "case {case}: branching on the minimum");
        // The rules in turns across restarts (one failure a run at first): a first
        // solution found exactly when there is one.
        let turns = vec![None, Some(ScoreBranching::default()), Some(min_fewer)];
        let config = SearchConfig {
            node_probing: Some(everywhere.clone().taking_turns(turns)),
            restarts: RestartPolicy::Luby { scale: 1 },
            solution_limit: Some(1),
            ..SearchConfig::default()
        };
        let first = engine::solve(&mut m, &config);
        assert_eq!(first.solutions, plain.min(1), "case {case}: in turns");
        let shallow = NodeProbing {
            max_depth: Some(1),
            ..everywhere
        };
        let (shallow_count, _) = count_with(&mut m, Some(shallow));
        assert_eq!(plain, shallow_count, "case {case}: probing to depth 1");
        // The model is left as it was: searched again, the same count.
        assert_eq!(
            count_with(&mut m, None).0,
            plain,
            "case {case}: model restored"
        );
        fewer_nodes += usize::from(probed_nodes < plain_nodes);
        with_solutions += usize::from(plain > 0);
    }
    assert!(fewer_nodes > 30, "{fewer_nodes}");
    assert!(with_solutions > 30, "{with_solutions}");
    assert!(
        scored_differs > 0,
        "branching on the scores never changed the search"
    );
}

/// At a node, probing only removes what the node's subtree cannot use: after each node's
/// probing, every value left to a probed variable survives its own try there.
#[test]
fn a_probed_node_is_singleton_consistent() {
    let mut rng = Rng::new(23);
    for case in 0..100 {
        let (mut m, xs) = random_model(&mut rng, 6);
        if m.propagate().is_err() {
            continue;
        }
        // Skipping the variables whose neighbours did not change gives up this property.
        let probing = NodeProbing::new(&m, &xs, 3).without_skipping();
        let checkpoint = m.checkpoint();
        let mut memory = ProbeMemory::default();
        if m.fix(xs[0], m.min(xs[0])).is_err()
            || m.propagate().is_err()
            || engine::search::probing::probe_node(&mut m, &probing, &mut memory, 1).is_err()
        {
            m.rollback(checkpoint);
            continue;
        }
        for &x in &xs {
            for v in m.domain(x).iter().collect::<Vec<_>>() {
                let inner = m.checkpoint();
                let survived = m.fix(x, v).and_then(|()| m.propagate()).is_ok();
                m.rollback(inner);
                assert!(survived, "case {case}: x{} = {v} fails after probing", x.0);
            }
        }
        m.rollback(checkpoint);
    }
}

/// Skipping the variables whose neighbours did not change since their last probe keeps the
/// count, and tries fewer values than probing every variable at every node.
#[test]
fn skipping_unchanged_neighbourhoods_keeps_the_count_and_tries_less() {
    let mut rng = Rng::new(29);
    let (mut tries_skipping, mut tries_all, mut skipped) = (0, 0, 0);
    for case in 0..200 {
        let (mut m, xs) = random_model(&mut rng, 5 + case % 5);
        let plain = count_in(&mut m, &SearchConfig::default()).solutions;
        let probing = NodeProbing::new(&m, &xs, 3);
        for (skip, probing) in [(true, probing.clone()), (false, probing.without_skipping())] {
            let config = SearchConfig {
                node_probing: Some(probing),
                ..SearchConfig::default()
            };
            let outcome = count_in(&mut m, &config);
            assert_eq!(outcome.solutions, plain, "case {case}, skipping {skip}");
            if skip {
                tries_skipping += outcome.stats.probes;
                skipped += outcome.stats.probes_skipped;
            } else {
                tries_all += outcome.stats.probes;
                assert_eq!(outcome.stats.probes_skipped, 0);
            }
        }
    }
    assert!(skipped > 0, "nothing skipped");
    assert!(
        tries_skipping < tries_all,
        "{tries_skipping} tries skipping, {tries_all} without"
    );
}

/// Node probing under learning: every refuted try is analysed, its nogood verified by brute
/// force (the checking mode), and the counts are those of the search without either; a
/// first solution is found where there is one.
#[test]
fn node_probing_with_learning_keeps_the_count_and_learns_from_refuted_tries() {
    let mut rng = Rng::new(31);
    let (mut learned, mut nogoods_checked_models) = (0, 0);
    for case in 0..300 {
        let (mut m, xs) = random_model(&mut rng, 5 + case % 6);
        let plain = count_in(&mut m, &SearchConfig::default()).solutions;
        let probing = NodeProbing::new(&m, &xs, 3);
        for (check_learning, probing) in [
            (true, probing.clone()),
            (false, probing.clone()),
            (false, probing.clone().without_skipping()),
        ] {
            let config = SearchConfig {
                learn: true,
                check_learning,
                node_probing: Some(probing),
                ..SearchConfig::default()
            };
            let outcome = count_in(&mut m, &config);
            assert_eq!(outcome.solutions, plain, "case {case}");
            learned += outcome.stats.probes_learned;
            nogoods_checked_models += usize::from(check_learning);
            let first = engine::solve(&mut m, &config);
            assert_eq!(first.solutions.min(1), plain.min(1), "case {case}: first");
        }
    }
    assert!(nogoods_checked_models > 0);
    assert!(learned > 100, "only {learned} refuted tries learned from");
}

/// A variable's neighbourhood (what node probing watches to skip a try) holds the variables
/// of its narrow propagators, not those of a propagator spanning more than half of the
/// probed variables: with one, every variable would be everywhere's neighbour and nothing
/// would ever be skipped (Star Battle's bands, Flow Free's `circuit`).
#[test]
fn a_neighbourhood_leaves_out_propagators_spanning_the_board() {
    let mut m = Model::new();
    let xs = m.new_vars(10, 0, 9);
    let all: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
    m.linear(&all, Relation::Le, 60);
    for pair in xs.windows(2) {
        m.not_equal(pair[0], pair[1]);
    }
    let probing = NodeProbing::new(&m, &xs, 10);
    for (i, around) in probing.neighbours.iter().enumerate() {
        let x = probing.vars[i];
        let k = xs.iter().position(|&y| y == x).expect("a probed variable");
        let expected: Vec<VarId> = xs[k.saturating_sub(1)..(k + 2).min(xs.len())].to_vec();
        assert_eq!(
            around, &expected,
            "x{k}: only its chain neighbours and itself"
        );
    }
    // Narrow propagators alone: the same neighbourhoods.
    let mut narrow = Model::new();
    let ys = narrow.new_vars(10, 0, 9);
    let five: Vec<(i64, VarId)> = ys[..5].iter().map(|&y| (1, y)).collect();
    narrow.linear(&five, Relation::Le, 30);
    let probing = NodeProbing::new(&narrow, &ys, 10);
    let first = probing.vars.iter().position(|&y| y == ys[0]).unwrap();
    assert_eq!(
        probing.neighbours[first],
        ys[..5].to_vec(),
        "five of ten is not wide"
    );
}
