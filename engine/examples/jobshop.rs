//! What the stronger unary-resource rule buys on a job shop: Fisher & Thompson's 6×6
//! instance ft06 (1963; optimum makespan 55, public since Muth & Thompson's book), minimised
//! with each machine modelled five ways: `cumulative` with capacity 1 (time-tabling),
//! `disjunctive` with time-tabling only, with the overload check, with the overload check
//! and detectable precedences, and with edge finding beside them (`Model::disjunctive`, the
//! default).
//!
//! `cargo run --release -p engine --example jobshop [NODE_LIMIT]`
//!
//! Prints, per variant, the makespan found, whether optimality was proved, nodes, failures
//! and the time (the node and failure counts are the load-independent measures).

use engine::propagators::scheduling::disjunctive::Disjunctive;
use engine::{Limits, Model, Objective, SearchConfig};

/// ft06: for each job, its operations in order as (machine, duration).
const FT06: [[(usize, i32); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

#[derive(Clone, Copy, Debug)]
enum Machine {
    Cumulative,
    TimeTabling,
    OverloadCheck,
    DetectablePrecedences,
    EdgeFinding,
}

/// Panic unless the solution keeps the job order, ends by `makespan`, and never runs two
/// operations at once on a machine.
fn check_schedule(starts: &[Vec<engine::VarId>], sol: &engine::Solution, makespan: i32) {
    let mut ops = Vec::new();
    for (job, s) in FT06.iter().zip(starts) {
        for (k, &(machine, d)) in job.iter().enumerate() {
            let start = sol.value(s[k]);
            if k > 0 {
                assert!(sol.value(s[k - 1]) + job[k - 1].1 <= start, "job order");
            }
            assert!(start + d <= makespan, "makespan");
            ops.push((machine, start, d));
        }
    }
    for (i, a) in ops.iter().enumerate() {
        for b in &ops[i + 1..] {
            assert!(
                a.0 != b.0 || a.1 + a.2 <= b.1 || b.1 + b.2 <= a.1,
                "overlap on machine {}: {a:?} {b:?}",
                a.0
            );
        }
    }
}

fn main() {
    let node_limit: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    for variant in [
        Machine::Cumulative,
        Machine::TimeTabling,
        Machine::OverloadCheck,
        Machine::DetectablePrecedences,
        Machine::EdgeFinding,
    ] {
        let horizon: i32 = FT06.iter().flatten().map(|&(_, d)| d).sum();
        let mut m = Model::new();
        let starts: Vec<Vec<_>> = FT06
            .iter()
            .map(|job| m.new_vars(job.len(), 0, horizon))
            .collect();
        let makespan = m.new_var(0, horizon);
        for (job, s) in FT06.iter().zip(&starts) {
            for k in 1..job.len() {
                // s[k-1] + d[k-1] <= s[k]
                let _ = m.less_equal_offset(s[k - 1], s[k], -job[k - 1].1);
            }
            let last = job.len() - 1;
            let _ = m.less_equal_offset(s[last], makespan, -job[last].1);
        }
        for machine in 0..6 {
            let (mut on, mut durations) = (Vec::new(), Vec::new());
            for (job, s) in FT06.iter().zip(&starts) {
                for (k, &(mach, d)) in job.iter().enumerate() {
                    if mach == machine {
                        on.push(s[k]);
                        durations.push(d);
                    }
                }
            }
            let _ = match variant {
                Machine::Cumulative => m.cumulative(&on, &durations, &vec![1; on.len()], 1),
                Machine::TimeTabling => m.post(Box::new(
                    Disjunctive::new(&on, &durations, false).time_tabling_only(),
                )),
                Machine::OverloadCheck => m.post(Box::new(
                    Disjunctive::new(&on, &durations, false).without_detectable_precedences(),
                )),
                Machine::DetectablePrecedences => {
                    m.post(Box::new(Disjunctive::new(&on, &durations, false)))
                }
                Machine::EdgeFinding => m.disjunctive(&on, &durations, false),
            };
        }
        let mut branch: Vec<_> = starts.concat();
        branch.push(makespan);
        let config = SearchConfig {
            objective: Some(Objective::minimize(makespan)),
            branch_vars: Some(branch),
            limits: Limits {
                nodes: Some(node_limit),
                ..Limits::default()
            },
            ..SearchConfig::default()
        };
        let t = std::time::Instant::now();
        let out = engine::solve(&mut m, &config);
        if let Some(sol) = &out.best {
            check_schedule(&starts, sol, sol.value(makespan));
        }
        println!(
            "{variant:?}: makespan {:?} proved {} nodes {} failures {} propagations {} time {:.2?}",
            out.objective,
            out.complete,
            out.stats.nodes,
            out.stats.failures,
            out.stats.propagations,
            t.elapsed()
        );
    }
}
