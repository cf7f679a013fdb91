//! Edge finding for cumulative resources (`scheduling/edge_finding.rs`) against brute force
//! on small random instances: beside the time-table it is sound and checking (the
//! harness of `engine::testing`, constant and variable forms); it never keeps a value the
//! time-table alone removes (it runs beside it), it removes values of no solution only,
//! and it prunes where time-tabling sees nothing.

use engine::propagator::{Context, PropResult, Propagator, Subscription};
use engine::propagators::scheduling::cumulative::Cumulative;
use engine::propagators::scheduling::cumulative_var::CumulativeVar;
use engine::propagators::scheduling::edge_finding::{
    earliest_starts, Amount, EdgeFinding, Task, Window,
};
use engine::rng::Rng;
use engine::testing::{check_propagator, solutions, Consistency, HarnessConfig};
use engine::{Model, VarId};

/// At every time the running tasks use at most `capacity` (tasks with no duration or no
/// use ignored).
fn cumulative_holds(starts: &[i32], d: &[i32], r: &[i32], capacity: i32) -> bool {
    let lo = *starts.iter().min().unwrap();
    let hi = starts.iter().zip(d).map(|(s, d)| s + d).max().unwrap();
    (lo..hi).all(|t| {
        let used: i32 = (0..starts.len())
            .filter(|&i| d[i] > 0 && starts[i] <= t && t < starts[i] + d[i])
            .map(|i| r[i])
            .sum();
        used <= capacity
    })
}

/// A time-table and edge finding over the same tasks, run one after the other (what
/// `Model::cumulative` and `Model::edge_finding` post), as one propagator for the harness.
#[derive(Clone, Debug)]
struct TimeTableThenEdgeFinding<T: Propagator + Clone + 'static> {
    time_table: T,
    edge_finding: EdgeFinding,
}

impl<T: Propagator + Clone + std::fmt::Debug + 'static> Propagator for TimeTableThenEdgeFinding<T> {
    fn name(&self) -> &'static str {
        "time-table + edge finding"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        self.time_table.subscriptions()
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        self.time_table.propagate_from_scratch(ctx)?;
        self.edge_finding.propagate_from_scratch(ctx)
    }
}

fn fixed_tasks(starts: &[VarId], d: &[i32], r: &[i32]) -> Vec<Task> {
    (0..starts.len())
        .map(|i| Task {
            start: starts[i],
            duration: Amount::Fixed(d[i] as i64),
            usage: Amount::Fixed(r[i] as i64),
        })
        .collect()
}

#[test]
fn edge_finding_beside_the_time_table_is_sound_and_checking() {
    let mut rng = Rng::new(7);
    for case in 0..16 {
        let n = 3 + case % 3;
        let d: Vec<i32> = (0..n).map(|_| rng.below(4) as i32).collect();
        let r: Vec<i32> = (0..n).map(|_| rng.below(3) as i32).collect();
        let capacity = 1 + rng.below(3) as i32;
        let mut cfg = HarnessConfig::new(n, 0, 7, Consistency::Checking);
        cfg.trials = 80;
        cfg.seed = 100 + case as u64;
        let (d2, r2) = (d.clone(), r.clone());
        check_propagator(
            &format!("edge finding d={d:?} r={r:?} c={capacity}"),
            &cfg,
            &|t| cumulative_holds(t, &d, &r, capacity),
            &|v| {
                Box::new(TimeTableThenEdgeFinding {
                    time_table: Cumulative::new(v, &d2, &r2, capacity),
                    edge_finding: EdgeFinding::new(
                        fixed_tasks(v, &d2, &r2),
                        Amount::Fixed(capacity as i64),
                    ),
                })
            },
        );
    }
}

/// The variable form over `t = [starts.., durations.., uses.., capacity]`.
fn cumulative_var_holds(t: &[i32], n: usize) -> bool {
    let (s, rest) = t.split_at(n);
    let (d, rest) = rest.split_at(n);
    let (r, c) = rest.split_at(n);
    d.iter().chain(r).chain(c).all(|&v| v >= 0) && cumulative_holds(s, d, r, c[0])
}

#[test]
fn edge_finding_with_variable_durations_uses_and_capacity_is_sound_and_checking() {
    for (case, (n, max_size, trials)) in [(2, 4, 150), (3, 3, 80), (4, 2, 80)]
        .into_iter()
        .enumerate()
    {
        let mut cfg = HarnessConfig::new(3 * n + 1, 0, 4, Consistency::Checking);
        cfg.max_size = max_size;
        cfg.trials = trials;
        cfg.seed = 200 + case as u64;
        check_propagator(
            &format!("edge finding, variable form, n={n}"),
            &cfg,
            &|t| cumulative_var_holds(t, n),
            &|v| {
                let tasks = (0..n)
                    .map(|i| Task {
                        start: v[i],
                        duration: Amount::Var(v[n + i]),
                        usage: Amount::Var(v[2 * n + i]),
                    })
                    .collect();
                Box::new(TimeTableThenEdgeFinding {
                    time_table: CumulativeVar::new(
                        &v[..n],
                        &v[n..2 * n],
                        &v[2 * n..3 * n],
                        v[3 * n],
                    ),
                    edge_finding: EdgeFinding::new(tasks, Amount::Var(v[3 * n])),
                })
            },
        );
    }
}

/// Random starts' domains (subsets of 0..=9) for `n` tasks.
fn random_domains(rng: &mut Rng, n: usize) -> Vec<Vec<i32>> {
    (0..n)
        .map(|_| {
            let lo = rng.below(5) as i32;
            let hi = lo + 1 + rng.below(5) as i32;
            (lo..=hi)
                .filter(|_| rng.below(5) != 0)
                .collect::<Vec<i32>>()
        })
        .map(|v| if v.is_empty() { vec![0] } else { v })
        .collect()
}

/// The domains of the starts after propagation to the fixpoint, or `None` on a failure.
fn fixpoint(doms: &[Vec<i32>], post: &dyn Fn(&mut Model, &[VarId])) -> Option<Vec<Vec<i32>>> {
    let mut m = Model::new();
    let s: Vec<VarId> = doms.iter().map(|d| m.new_var_from_values(d)).collect();
    post(&mut m, &s);
    m.propagate().ok()?;
    Some(s.iter().map(|&x| m.domain(x).iter().collect()).collect())
}

/// On random resources: with edge finding beside the time-table every domain is within
/// the time-table's alone, every solution's value is kept, and edge finding
/// removes more in some of the cases (10 of these 600).
#[test]
fn edge_finding_prunes_at_least_what_time_tabling_prunes_and_only_non_solutions() {
    let mut rng = Rng::new(11);
    let mut stronger = 0;
    for _ in 0..600 {
        let n = 3 + rng.below(3) as usize;
        let d: Vec<i32> = (0..n).map(|_| 1 + rng.below(4) as i32).collect();
        let r: Vec<i32> = (0..n).map(|_| 1 + rng.below(3) as i32).collect();
        let capacity = 1 + rng.below(4) as i32;
        let doms = random_domains(&mut rng, n);
        let alone = fixpoint(&doms, &|m, s| {
            let _ = m.post(Box::new(Cumulative::new(s, &d, &r, capacity)));
        });
        let both = fixpoint(&doms, &|m, s| {
            let _ = m.cumulative(s, &d, &r, capacity);
            m.edge_finding(fixed_tasks(s, &d, &r), Amount::Fixed(capacity as i64));
        });
        let sols = solutions(&doms, &|t| cumulative_holds(t, &d, &r, capacity));
        let Some(both) = both else {
            assert!(
                sols.is_empty(),
                "edge finding failed a resource with a solution"
            );
            continue;
        };
        let alone = alone.expect("the time-table alone fails where both do not");
        for sol in &sols {
            for (k, v) in sol.iter().enumerate() {
                assert!(both[k].contains(v), "a solution's value removed: {sol:?}");
            }
        }
        for k in 0..n {
            assert!(both[k].iter().all(|v| alone[k].contains(v)));
        }
        if both != alone {
            stronger += 1;
        }
    }
    assert!(
        stronger >= 5,
        "edge finding pruned beyond the time-table {stronger} times"
    );
}

/// The textbook case on a unary resource: `a` and `b` must both run in `[0, 9)`, 7 units of
/// its 9, and `c` (3 long) does not fit there beside them: it ends after both, so it starts
/// at 7 at the earliest. Neither `a` nor `b` has a compulsory part: time-tabling sees
/// nothing.
#[test]
fn a_task_that_cannot_end_before_an_interval_starts_after_its_energy() {
    let windows = [
        Window {
            est: 0,
            lct: 9,
            energy: 4,
            usage: 1,
        },
        Window {
            est: 0,
            lct: 9,
            energy: 3,
            usage: 1,
        },
        Window {
            est: 0,
            lct: 15,
            energy: 3,
            usage: 1,
        },
    ];
    assert_eq!(earliest_starts(&windows, 1).unwrap(), vec![0, 0, 7]);
    // With a capacity of 2 the three fit in [0, 9) side by side: nothing moves.
    assert_eq!(earliest_starts(&windows, 2).unwrap(), vec![0, 0, 0]);
    // Through the model: the same on the starts, which the time-table alone leaves; and
    // `Model::disjunctive` posts edge finding itself.
    let doms = [
        (0..=5).collect(),
        (0..=6).collect(),
        (0..=12).collect::<Vec<i32>>(),
    ];
    let (d, r) = ([4, 3, 3], [1, 1, 1]);
    let both = fixpoint(&doms, &|m, s| {
        let _ = m.cumulative(s, &d, &r, 1);
        m.edge_finding(fixed_tasks(s, &d, &r), Amount::Fixed(1));
    })
    .unwrap();
    let alone = fixpoint(&doms, &|m, s| {
        let _ = m.post(Box::new(Cumulative::new(s, &d, &r, 1)));
    })
    .unwrap();
    assert_eq!(both[2][0], 7);
    assert_eq!(alone[2][0], 0);
    let unary = fixpoint(&doms, &|m, s| {
        let _ = m.disjunctive(s, &d, false);
    })
    .unwrap();
    assert_eq!(unary[2][0], 7);
}

/// Mercier & Van Hentenryck's point: the adjustment takes the best subset `Θ` of the
/// detecting interval, not the interval itself. Capacity 2; `a` (use 2, 2 long) must run in
/// `[3, 5)`, `b` (use 1, 5 long) in `[0, 7)`; `c` (use 1, 6 long) in `[0, 20)`. `{a, b}`
/// with `c` needs 4 + 5 + 6 = 15 > 2 · 7: `c` ends after both. `Θ = {a, b}` gives
/// `0 + (9 − 1 · 7) / 1 = 2`; `Θ = {a}`, which takes the whole capacity over `[3, 5)`,
/// gives `3 + (4 − 1 · 2) / 1 = 5`, the true earliest start of `c`.
#[test]
fn the_adjustment_takes_the_best_subset_of_the_interval() {
    let windows = [
        Window {
            est: 3,
            lct: 5,
            energy: 4,
            usage: 2,
        },
        Window {
            est: 0,
            lct: 7,
            energy: 5,
            usage: 1,
        },
        Window {
            est: 0,
            lct: 20,
            energy: 6,
            usage: 1,
        },
    ];
    let new = earliest_starts(&windows, 2).unwrap();
    assert_eq!(new[2], 5);
}
