//! Search: counts that are known, optima checked by brute force, limits, parallel counting.

use engine::search::{count_parallel, Neighbours, RestartPolicy, ValSelect, VarSelect};
use engine::{AllDiffLevel, Limits, Model, Objective, Relation, SearchConfig, VarId};
use std::sync::Arc;

/// n-queens: one queen per column, `q[i]` its row; rows and both diagonals all different.
fn queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let q = m.new_vars(n, 0, n as i32 - 1);
    let up: Vec<_> = (0..n).map(|i| q[i].plus(i as i32)).collect();
    let down: Vec<_> = (0..n).map(|i| q[i].plus(-(i as i32))).collect();
    m.all_different(&q, AllDiffLevel::Value);
    m.all_different(&up, AllDiffLevel::Value);
    m.all_different(&down, AllDiffLevel::Value);
    (m, q)
}

fn latin_square(n: usize) -> Model {
    let mut m = Model::new();
    let x = m.new_vars(n * n, 1, n as i32);
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| x[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| x[j * n + i]).collect();
        m.all_different(&row, AllDiffLevel::Value);
        m.all_different(&col, AllDiffLevel::Value);
    }
    m
}

#[test]
fn n_queens_counts() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (i, &want) in expected.iter().enumerate() {
        let (mut m, q) = queens(i + 1);
        // Every two queens attack each other's row: all neighbours.
        let neighbours = Neighbours::from_groups(m.num_vars(), std::slice::from_ref(&q));
        for var_select in [
            VarSelect::InputOrder,
            VarSelect::SmallestDomain,
            VarSelect::DomWDeg,
            VarSelect::SmallestDomainConstrainedNeighbours(Arc::new(neighbours)),
        ] {
            for val_select in [
                ValSelect::Min,
                ValSelect::Max,
                ValSelect::Split,
                ValSelect::Random,
            ] {
                let cfg = SearchConfig {
                    var_select: var_select.clone(),
                    val_select,
                    seed: 5,
                    ..Default::default()
                };
                assert_eq!(
                    engine::count(&mut m, &cfg).solutions,
                    want,
                    "{}-queens with {var_select:?}/{val_select:?}",
                    i + 1
                );
            }
        }
    }
}

#[test]
fn latin_square_counts() {
    assert_eq!(
        engine::count(&mut latin_square(4), &SearchConfig::default()).solutions,
        576
    );
    let out = engine::count(&mut latin_square(5), &SearchConfig::default());
    assert_eq!(out.solutions, 161_280);
    assert!(out.complete);
    // The same count with the tie-break on the neighbours (rows and columns as neighbours).
    let n = 5;
    let lines: Vec<Vec<VarId>> = (0..n)
        .flat_map(|i| {
            let row = (0..n).map(|j| VarId((i * n + j) as u32)).collect();
            let col = (0..n).map(|j| VarId((j * n + i) as u32)).collect();
            [row, col]
        })
        .collect();
    let config = SearchConfig {
        var_select: VarSelect::SmallestDomainConstrainedNeighbours(Arc::new(
            Neighbours::from_groups(n * n, &lines),
        )),
        ..Default::default()
    };
    assert_eq!(
        engine::count(&mut latin_square(5), &config).solutions,
        161_280
    );
}

#[test]
fn parallel_counts_equal_sequential_counts() {
    for threads in [1, 2, 8] {
        let (m, _) = queens(8);
        assert_eq!(
            count_parallel(&m, &SearchConfig::default(), threads).solutions,
            92,
            "8-queens -p {threads}"
        );
        let (m, _) = queens(12);
        assert_eq!(
            count_parallel(&m, &SearchConfig::default(), threads).solutions,
            14_200,
            "12-queens -p {threads}"
        );
        let out = count_parallel(&latin_square(5), &SearchConfig::default(), threads);
        assert_eq!(
            (out.solutions, out.complete),
            (161_280, true),
            "latin 5 -p {threads}"
        );
    }
}

#[test]
fn send_more_money_has_one_solution() {
    let mut m = Model::new();
    let v = m.new_vars(8, 0, 9);
    let (s, e, n, d, mo, o, r, y) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    m.all_different(&v, AllDiffLevel::Value);
    let terms = [
        (1000, s),
        (100, e),
        (10, n),
        (1, d),
        (1000, mo),
        (100, o),
        (10, r),
        (1, e),
        (-10000, mo),
        (-1000, o),
        (-100, n),
        (-10, e),
        (-1, y),
    ];
    m.linear(&terms, Relation::Eq, 0);
    m.linear(&[(1, s)], Relation::Ge, 1);
    m.linear(&[(1, mo)], Relation::Ge, 1);
    let out = engine::count(&mut m, &SearchConfig::default());
    assert_eq!(out.solutions, 1);
    let sol = out.best.unwrap();
    let word = |xs: &[VarId]| xs.iter().fold(0, |acc, &x| acc * 10 + sol.value(x));
    assert_eq!(
        (
            word(&[s, e, n, d]),
            word(&[mo, o, r, e]),
            word(&[mo, o, n, e, y])
        ),
        (9567, 1085, 10652)
    );
}

/// A 0/1 knapsack, optimised by branch and bound, against brute force over all subsets.
#[test]
fn knapsack_optimum_matches_brute_force() {
    let mut rng = engine::rng::Rng::new(3);
    for _ in 0..20 {
        let n = 10;
        let w: Vec<i64> = (0..n).map(|_| 1 + rng.below(20) as i64).collect();
        let p: Vec<i64> = (0..n).map(|_| 1 + rng.below(30) as i64).collect();
        let cap = 40;
        let best = (0u32..1 << n)
            .filter(|mask| {
                (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| w[i])
                    .sum::<i64>()
                    <= cap
            })
            .map(|mask| {
                (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| p[i])
                    .sum::<i64>()
            })
            .max()
            .unwrap();
        let mut m = Model::new();
        let x = m.new_vars(n, 0, 1);
        let profit = m.new_var(0, p.iter().sum::<i64>() as i32);
        let wt: Vec<(i64, VarId)> = w.iter().copied().zip(x.iter().copied()).collect();
        m.linear(&wt, Relation::Le, cap);
        let mut pt: Vec<(i64, VarId)> = p.iter().copied().zip(x.iter().copied()).collect();
        pt.push((-1, profit));
        m.linear(&pt, Relation::Eq, 0);
        for restarts in [RestartPolicy::Never, RestartPolicy::Luby { scale: 4 }] {
            let cfg = SearchConfig {
                objective: Some(Objective::maximize(profit)),
                branch_vars: Some(x.clone()),
                restarts,
                ..Default::default()
            };
            let out = engine::solve(&mut m, &cfg);
            assert!(out.complete, "optimum proved");
            assert_eq!(out.objective, Some(best));
            let sol = out.best.unwrap();
            let used: i64 = (0..n).map(|i| w[i] * sol.value(x[i]) as i64).sum();
            let gained: i64 = (0..n).map(|i| p[i] * sol.value(x[i]) as i64).sum();
            assert!(used <= cap);
            assert_eq!(gained, best);
        }
    }
}

/// Fewest coins making 67 from {1, 2, 5, 10, 20, 50}: 50 + 10 + 5 + 2 = 4 coins.
#[test]
fn fewest_coins() {
    let coins = [1, 2, 5, 10, 20, 50];
    let mut m = Model::new();
    let k = m.new_vars(coins.len(), 0, 67);
    let total = m.new_var(0, 67);
    let terms: Vec<(i64, VarId)> = coins
        .iter()
        .map(|&c| c as i64)
        .zip(k.iter().copied())
        .collect();
    m.linear(&terms, Relation::Eq, 67);
    let mut t: Vec<(i64, VarId)> = k.iter().map(|&x| (1, x)).collect();
    t.push((-1, total));
    m.linear(&t, Relation::Eq, 0);
    let cfg = SearchConfig {
        objective: Some(Objective::minimize(total)),
        branch_vars: Some(k.clone()),
        val_select: ValSelect::Max,
        ..Default::default()
    };
    let out = engine::solve(&mut m, &cfg);
    assert!(out.complete);
    assert_eq!(out.objective, Some(4));
}

#[test]
fn limits_stop_with_a_correct_partial_answer() {
    let (mut m, q) = queens(10);
    let cfg = SearchConfig {
        limits: Limits {
            nodes: Some(50),
            ..Default::default()
        },
        ..Default::default()
    };
    let out = engine::count(&mut m, &cfg);
    assert!(!out.complete, "50 nodes cannot count 10-queens");
    assert!(out.solutions < 724);
    if let Some(sol) = out.best {
        let rows: Vec<i32> = q.iter().map(|&x| sol.value(x)).collect();
        for i in 0..10 {
            for j in i + 1..10 {
                assert!(rows[i] != rows[j] && (rows[i] - rows[j]).abs() != (j - i) as i32);
            }
        }
    }
    // the model is left at its root: a full count afterwards is exact
    assert_eq!(
        engine::count(&mut m, &SearchConfig::default()).solutions,
        724
    );
    let cfg = SearchConfig {
        limits: Limits::default().with_time(std::time::Duration::ZERO),
        ..Default::default()
    };
    assert!(!engine::count(&mut m, &cfg).complete);
}

#[test]
fn projected_counting_counts_distinct_primary_assignments() {
    // x in 0..3, y in 0..3, x <= y: 10 pairs, but 4 distinct x values.
    let mut m = Model::new();
    let x = m.new_var(0, 3);
    let y = m.new_var(0, 3);
    m.less_equal_offset(x, y, 0);
    assert_eq!(
        engine::count(&mut m, &SearchConfig::default()).solutions,
        10
    );
    let cfg = SearchConfig {
        branch_vars: Some(vec![x]),
        project: true,
        ..Default::default()
    };
    assert_eq!(engine::count(&mut m, &cfg).solutions, 4);
    for threads in [2, 8] {
        assert_eq!(count_parallel(&m, &cfg, threads).solutions, 4);
    }
}

#[test]
fn unsatisfiable_at_the_root_is_complete_with_no_solution() {
    let mut m = Model::new();
    let x = m.new_vars(4, 1, 3);
    m.all_different(&x, AllDiffLevel::Value);
    let out = engine::solve(&mut m, &SearchConfig::default());
    assert!(out.complete && out.best.is_none());
}

#[test]
fn restarts_keep_satisfaction_complete() {
    let (mut m, _) = queens(8);
    let cfg = SearchConfig {
        restarts: RestartPolicy::Luby { scale: 1 },
        val_select: ValSelect::Random,
        seed: 9,
        ..Default::default()
    };
    let out = engine::solve(&mut m, &cfg);
    assert!(out.best.is_some());
    let mut m = latin_square(3);
    m.linear(&[(1, VarId(0)), (1, VarId(1))], Relation::Eq, 7); // 1..3 + 1..3 can't be 7
    let out = engine::solve(&mut m, &cfg);
    assert!(out.complete && out.best.is_none());
}

#[test]
fn progress_counts_match_the_outcome() {
    use engine::search::{count_parallel_with_progress, Progress};
    use std::sync::atomic::Ordering;
    for threads in [1, 2] {
        let (m, _) = queens(8);
        let progress = Progress::default();
        let out =
            count_parallel_with_progress(&m, &SearchConfig::default(), threads, Some(&progress));
        assert_eq!(out.solutions, 92);
        assert_eq!(progress.solutions.load(Ordering::Relaxed), 92);
        if threads > 1 {
            let total = progress.subproblems_total.load(Ordering::Relaxed);
            assert!(total > 1);
            assert_eq!(progress.subproblems_done.load(Ordering::Relaxed), total);
        }
    }
}

#[test]
fn portfolio_returns_a_correct_first_solution_and_optimum() {
    use engine::search::portfolio::{diversify, race};
    let (m, q) = queens(20);
    let base = SearchConfig {
        solution_limit: Some(1),
        ..Default::default()
    };
    let out = race(&m, &diversify(&base, 3));
    let sol = out.best.expect("20-queens has solutions");
    let rows: Vec<i32> = q.iter().map(|&x| sol.value(x)).collect();
    for i in 0..20 {
        for j in i + 1..20 {
            assert!(rows[i] != rows[j] && (rows[i] - rows[j]).abs() != (j - i) as i32);
        }
    }
    // optimisation: the portfolio proves the same optimum as a single search
    let mut m = Model::new();
    let x = m.new_vars(6, 0, 5);
    m.all_different(&x, AllDiffLevel::Value);
    let z = m.new_var(0, 30);
    m.linear(
        &[(2, x[0]), (3, x[1]), (-1, x[2]), (1, x[3]), (-1, z)],
        Relation::Eq,
        0,
    );
    let base = SearchConfig {
        objective: Some(Objective::maximize(z)),
        branch_vars: Some(x.clone()),
        ..Default::default()
    };
    let single = engine::solve(&mut m.clone(), &base);
    let raced = race(&m, &diversify(&base, 4));
    assert!(single.complete && raced.complete);
    assert_eq!(single.objective, raced.objective);
}

/// A stop flag raised from outside while the portfolio runs (a signal, in the CLI) stops
/// every search of the race, which then returns what it has, unproved: counting 16-queens'
/// solutions (no solution limit, so no search finishes early) would take far longer.
#[test]
fn an_outer_stop_flag_stops_the_whole_portfolio() {
    use engine::search::portfolio::{diversify, race};
    use std::sync::atomic::AtomicBool;
    let (m, _) = queens(16);
    let outer = Arc::new(AtomicBool::new(false));
    let base = SearchConfig {
        limits: Limits {
            stop: Some(outer.clone()),
            ..Limits::default()
        },
        ..Default::default()
    };
    let raiser = {
        let outer = outer.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            outer.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    let out = race(&m, &diversify(&base, 2));
    raiser.join().unwrap();
    assert!(!out.complete, "stopped from outside: no proof");
    assert!(
        out.solutions < 14_772_512,
        "16-queens has 14,772,512 solutions"
    );
}

/// `Outcome::status` on real searches: each verdict, from what the search was asked for and
/// how far it went.
#[test]
fn the_outcome_says_what_it_proves() {
    use engine::{Goal, Status};
    // 4-queens: two solutions, found only after some search.
    let queens = || {
        let mut m = Model::new();
        let q = m.new_vars(4, 0, 3);
        let up: Vec<_> = (0..4).map(|i| q[i].plus(i as i32)).collect();
        let down: Vec<_> = (0..4).map(|i| q[i].plus(-(i as i32))).collect();
        m.all_different(&q, AllDiffLevel::Value);
        m.all_different(&up, AllDiffLevel::Value);
        m.all_different(&down, AllDiffLevel::Value);
        (m, q)
    };
    let config = SearchConfig::default();
    let (mut m, _) = queens();
    assert_eq!(
        engine::solve(&mut m, &config).status(Goal::Satisfy),
        Status::Satisfied
    );
    let (mut m, _) = queens();
    let all = engine::count(&mut m, &config);
    assert_eq!(all.solutions, 2);
    assert_eq!(all.status(Goal::Count), Status::AllSolutions);
    assert_eq!(all.status(Goal::Enumerate), Status::AllSolutions);
    // Cut short after the first solution: a list is still a list, a count is no count.
    let (mut m, _) = queens();
    let cut = engine::search(
        &mut m,
        &config,
        &mut engine::search::NoListener,
        &mut |_| engine::Control::Stop,
    );
    assert!(!cut.complete && cut.solutions == 1);
    assert_eq!(cut.status(Goal::Enumerate), Status::Satisfied);
    assert_eq!(cut.status(Goal::Count), Status::Unknown);
    // Cut short before any solution, and a model with none.
    let (mut m, _) = queens();
    let mut limited = config.clone();
    limited.limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let none_yet = engine::solve(&mut m, &limited);
    assert_eq!(none_yet.solutions, 0);
    assert_eq!(none_yet.status(Goal::Satisfy), Status::Unknown);
    let mut m = Model::new();
    let x = m.new_vars(3, 0, 1);
    m.all_different(&x, AllDiffLevel::Domain);
    let unsat = engine::solve(&mut m, &config);
    assert_eq!(unsat.status(Goal::Satisfy), Status::Unsatisfiable);
    assert_eq!(unsat.status(Goal::Count).as_str(), "UNSATISFIABLE");
    // The least queen in the first column: proved optimal (1), or only found when cut.
    let (mut m, q) = queens();
    let mut optimise = config.clone();
    optimise.objective = Some(Objective::minimize(q[0]));
    let best = engine::solve(&mut m, &optimise);
    assert_eq!(best.objective, Some(1));
    assert_eq!(best.status(Goal::Optimise), Status::Optimal);
    assert_eq!(cut.status(Goal::Optimise), Status::Satisfied);
}
