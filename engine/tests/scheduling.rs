//! The scheduling and permutation globals (`inverse`, `cumulative`, `disjunctive`) against
//! brute force on small random instances (engine::testing's harness), plus the rules each
//! one claims beyond checking, and the `i32` edges of time arithmetic.

use engine::propagators::inverse::Inverse;
use engine::propagators::scheduling::cumulative::Cumulative;
use engine::propagators::scheduling::cumulative_var::CumulativeVar;
use engine::propagators::scheduling::disjunctive::Disjunctive;
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig};

/// `xs = t[..n]` indexed from `xb`, `ys = t[n..]` indexed from `yb`: inverse permutations.
fn inverse_holds(t: &[i32], n: usize, xb: i32, yb: i32) -> bool {
    let (xs, ys) = t.split_at(n);
    let maps = |from: &[i32], fb: i32, to: &[i32], tb: i32| {
        from.iter().enumerate().all(|(i, &v)| {
            let j = v as i64 - tb as i64;
            (0..to.len() as i64).contains(&j) && to[j as usize] as i64 == fb as i64 + i as i64
        })
    };
    maps(xs, xb, ys, yb) && maps(ys, yb, xs, xb)
}

#[test]
fn inverse_channelling_is_sound_and_checking() {
    for (xb, yb) in [(0, 0), (1, 0), (1, 1)] {
        // Values -1..=4 include indices of neither array.
        let cfg = HarnessConfig::new(6, -1, 4, Consistency::Checking);
        check_propagator("inverse", &cfg, &|t| inverse_holds(t, 3, xb, yb), &|v| {
            Box::new(Inverse::new(&v[..3], xb, &v[3..], yb))
        });
    }
}

/// Every value left by `Model::inverse` (channelling + all-different) has a support: the
/// conjunction is domain consistent, as `inverse.rs` claims.
#[test]
fn model_inverse_is_domain_consistent() {
    let mut rng = Rng::new(7);
    let n = 4;
    for _ in 0..300 {
        let doms: Vec<Vec<i32>> = (0..2 * n)
            .map(|_| {
                let mut d: Vec<i32> = (1..=n as i32).filter(|_| rng.below(3) != 0).collect();
                if d.is_empty() {
                    d.push(1 + rng.below(n as u64) as i32);
                }
                d
            })
            .collect();
        let mut m = Model::new();
        let vars: Vec<_> = doms.iter().map(|d| m.new_var_from_values(d)).collect();
        let _ = m.inverse(&vars[..n], 1, &vars[n..], 1);
        // All solutions by brute force over the permutations of 1..=n.
        let mut sols = Vec::new();
        let mut perm: Vec<i32> = (1..=n as i32).collect();
        permutations(&mut perm, 0, &mut |p| {
            let mut t = p.to_vec();
            let mut inv = vec![0; n];
            for (i, &v) in p.iter().enumerate() {
                inv[(v - 1) as usize] = i as i32 + 1;
            }
            t.extend(inv);
            if t.iter().zip(&doms).all(|(v, d)| d.contains(v)) {
                sols.push(t);
            }
        });
        match m.propagate() {
            Err(_) => assert!(sols.is_empty(), "failed on {doms:?} with solution {sols:?}"),
            Ok(()) => {
                for (k, &x) in vars.iter().enumerate() {
                    let left: Vec<i32> = m.domain(x).iter().collect();
                    let supported: Vec<i32> = (1..=n as i32)
                        .filter(|v| sols.iter().any(|s| s[k] == *v))
                        .collect();
                    assert_eq!(left, supported, "variable {k} of {doms:?}");
                }
            }
        }
    }
}

fn permutations(p: &mut Vec<i32>, k: usize, visit: &mut dyn FnMut(&[i32])) {
    if k == p.len() {
        visit(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, visit);
        p.swap(k, i);
    }
}

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

#[test]
fn cumulative_is_sound_and_checking() {
    let mut rng = Rng::new(3);
    for case in 0..12 {
        let n = 3 + case % 2;
        let d: Vec<i32> = (0..n).map(|_| rng.below(4) as i32).collect();
        let r: Vec<i32> = (0..n).map(|_| rng.below(3) as i32).collect();
        let capacity = 1 + rng.below(3) as i32;
        let mut cfg = HarnessConfig::new(n, 0, 6, Consistency::Checking);
        cfg.trials = 100;
        cfg.seed = case as u64;
        let (d2, r2) = (d.clone(), r.clone());
        check_propagator(
            &format!("cumulative d={d:?} r={r:?} c={capacity}"),
            &cfg,
            &|t| cumulative_holds(t, &d, &r, capacity),
            &|v| Box::new(Cumulative::new(v, &d2, &r2, capacity)),
        );
    }
}

/// The time-tabling rule: B cannot run beside A's compulsory part [1, 3).
#[test]
fn cumulative_time_tabling_pushes_out_of_the_compulsory_part() {
    let mut m = Model::new();
    let a = m.new_var(0, 1);
    let b = m.new_var(0, 5);
    let _ = m.cumulative(&[a, b], &[3, 2], &[2, 1], 2);
    m.propagate().unwrap();
    assert_eq!((m.min(b), m.max(b)), (3, 5));
    // With room for both, nothing moves.
    let mut m = Model::new();
    let a = m.new_var(0, 1);
    let b = m.new_var(0, 5);
    let _ = m.cumulative(&[a, b], &[3, 2], &[2, 1], 3);
    m.propagate().unwrap();
    assert_eq!((m.min(b), m.max(b)), (0, 5));
}

/// Two tasks of length 3 at the ends of the `i32` range: no sum may wrap.
#[test]
fn cumulative_at_the_i32_edges() {
    let mut m = Model::new();
    let a = m.new_var(i32::MAX - 2, i32::MAX - 2);
    let b = m.new_var(i32::MAX - 4, i32::MAX);
    let _ = m.cumulative(&[a, b], &[3, 3], &[1, 1], 1);
    assert!(m.propagate().is_err(), "b fits neither before nor after a");

    let mut m = Model::new();
    let a = m.new_var(i32::MIN, i32::MIN);
    let b = m.new_var(i32::MIN, i32::MIN + 4);
    let _ = m.disjunctive(&[a, b], &[3, 3], false);
    m.propagate().unwrap();
    assert_eq!((m.min(b), m.max(b)), (i32::MIN + 3, i32::MIN + 4));

    let mut m = Model::new();
    let a = m.new_var(i32::MAX - 1, i32::MAX);
    let _ = m.cumulative(&[a], &[5], &[1], 1);
    m.propagate().unwrap();
}

/// The variable form over `t = [starts.., durations.., uses.., capacity]` for `n` tasks:
/// durations, uses and (with a task) the capacity non-negative, and the use within it.
fn cumulative_var_holds(t: &[i32], n: usize) -> bool {
    let (s, rest) = t.split_at(n);
    let (d, rest) = rest.split_at(n);
    let (r, c) = rest.split_at(n);
    n == 0 || (d.iter().chain(r).chain(c).all(|&v| v >= 0) && cumulative_holds(s, d, r, c[0]))
}

/// The propagator over the harness's variables laid out as in [`cumulative_var_holds`].
fn cumulative_var_on(v: &[engine::VarId], n: usize) -> Box<dyn engine::Propagator> {
    Box::new(CumulativeVar::new(
        &v[..n],
        &v[n..2 * n],
        &v[2 * n..3 * n],
        v[3 * n],
    ))
}

/// 1 to 4 tasks, every start, duration, use and the capacity a variable over -1..=4 (the
/// negative values exercise the non-negativity); the domains shrink as the arity grows so
/// that enumerating every tuple stays cheap.
#[test]
fn cumulative_var_is_sound_and_checking() {
    for (case, (n, max_size, trials)) in [(1, 5, 200), (2, 4, 150), (3, 3, 60), (4, 2, 80)]
        .into_iter()
        .enumerate()
    {
        for interval_domains in [false, true] {
            let mut cfg = HarnessConfig::new(3 * n + 1, -1, 4, Consistency::Checking);
            cfg.max_size = max_size;
            cfg.trials = trials;
            cfg.seed = 40 + case as u64;
            cfg.interval_domains = interval_domains;
            check_propagator(
                &format!("cumulative_var n={n} intervals={interval_domains}"),
                &cfg,
                &|t| cumulative_var_holds(t, n),
                &|v| cumulative_var_on(v, n),
            );
        }
    }
}

/// With constant durations, uses and capacity the variable form prunes the starts exactly as
/// the constant one does (the same time-tabling rule, shared in `scheduling/mod.rs`).
#[test]
fn cumulative_var_with_constants_prunes_the_starts_as_the_constant_form() {
    let mut rng = Rng::new(17);
    for _ in 0..500 {
        let n = 2 + rng.below(4) as usize;
        let doms: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                let lo = rng.below(8) as i32;
                (lo..=lo + rng.below(6) as i32).collect()
            })
            .collect();
        let d: Vec<i32> = (0..n).map(|_| rng.below(5) as i32).collect();
        let r: Vec<i32> = (0..n).map(|_| rng.below(3) as i32).collect();
        let capacity = 1 + rng.below(3) as i32;
        let run = |variable: bool| {
            let mut m = Model::new();
            let s: Vec<_> = doms.iter().map(|v| m.new_var_from_values(v)).collect();
            let _ = if variable {
                let dv: Vec<_> = d.iter().map(|&x| m.new_var(x, x)).collect();
                let rv: Vec<_> = r.iter().map(|&x| m.new_var(x, x)).collect();
                let cv = m.new_var(capacity, capacity);
                // The propagators alone: the Model helpers add a disjunctive on unary
                // resources and edge finding.
                m.post(Box::new(CumulativeVar::new(&s, &dv, &rv, cv)))
            } else {
                m.post(Box::new(Cumulative::new(&s, &d, &r, capacity)))
            };
            m.propagate()
                .ok()
                .map(|()| s.iter().map(|&x| (m.min(x), m.max(x))).collect::<Vec<_>>())
        };
        assert_eq!(
            run(true),
            run(false),
            "d={d:?} r={r:?} c={capacity} on {doms:?}"
        );
    }
}

/// The rules on durations, uses and capacity, one small case each.
#[test]
fn cumulative_var_prunes_durations_uses_and_capacity() {
    // Capacity: A surely runs over [0, 3) using at least 2.
    let mut m = Model::new();
    let (a, da, ra) = (m.new_var(0, 0), m.new_var(3, 3), m.new_var(2, 4));
    let c = m.new_var(-5, 10);
    let _ = m.cumulative_var(&[a], &[da], &[ra], c);
    m.propagate().unwrap();
    assert_eq!((m.min(c), m.max(c)), (2, 10));

    // Use: B (start 1, duration at least 2) surely runs over [1, 3), beside A's 2 units.
    let mut m = Model::new();
    let (a, da, ra) = (m.new_var(0, 0), m.new_var(3, 3), m.new_var(2, 2));
    let (b, db, rb) = (m.new_var(1, 1), m.new_var(2, 5), m.new_var(0, 5));
    let c = m.new_var(0, 3);
    let _ = m.cumulative_var(&[a, b], &[da, db], &[ra, rb], c);
    m.propagate().unwrap();
    assert_eq!((m.min(rb), m.max(rb)), (0, 1));

    // Duration: B starts by 1 and may not reach A's [4, 6), where its use does not fit.
    let mut m = Model::new();
    let (a, da, ra) = (m.new_var(4, 4), m.new_var(2, 2), m.new_var(2, 2));
    let (b, db, rb) = (m.new_var(0, 1), m.new_var(1, 10), m.new_var(1, 3));
    let c = m.new_var(0, 2);
    let _ = m.cumulative_var(&[a, b], &[da, db], &[ra, rb], c);
    m.propagate().unwrap();
    assert_eq!((m.min(db), m.max(db)), (1, 4), "at most [0, 4)");
    assert_eq!((m.min(rb), m.max(rb)), (1, 2));
    assert_eq!((m.min(c), m.max(c)), (2, 2));

    // A use above every capacity: the task may not run at all.
    let mut m = Model::new();
    let (a, da, ra) = (m.new_var(0, 5), m.new_var(0, 4), m.new_var(3, 4));
    let c = m.new_var(0, 2);
    let _ = m.cumulative_var(&[a], &[da], &[ra], c);
    m.propagate().unwrap();
    assert_eq!((m.min(da), m.max(da)), (0, 0));
}

/// Uses that exclude any overlap make the resource unary: three tasks of length at least 2
/// in the window [0, 5) need 6 units of time. No task has a compulsory part, so time-tabling
/// sees nothing; the disjunctive that `Model::cumulative_var` adds fails.
#[test]
fn cumulative_var_on_a_unary_resource_adds_the_overload_check() {
    for through_the_model in [false, true] {
        let mut m = Model::new();
        let s = m.new_vars(3, 0, 3);
        let d = m.new_vars(3, 2, 4);
        let r = m.new_vars(3, 6, 9);
        let c = m.new_var(0, 10);
        let _ = if through_the_model {
            m.cumulative_var(&s, &d, &r, c)
        } else {
            m.post(Box::new(CumulativeVar::new(&s, &d, &r, c)))
        };
        assert_eq!(m.propagate().is_err(), through_the_model);
    }
}

/// Search counts equal brute-force counts with every argument a variable (see
/// `search_counts_equal_brute_force` for why the harness alone does not suffice).
#[test]
fn cumulative_var_search_counts_equal_brute_force() {
    let mut rng = Rng::new(23);
    let mut subset = |lo: i32, hi: i32| {
        let mut d: Vec<i32> = (lo..=hi).filter(|_| rng.below(2) == 0).collect();
        if d.is_empty() {
            d.push(lo + rng.below((hi - lo + 1) as u64) as i32);
        }
        d
    };
    for case in 0..60 {
        let n = 4;
        // One case in three has uses of 2 or 3 against a capacity of at most 3: the resource
        // is unary and the Model helper adds a disjunctive.
        let unary = case % 3 == 2;
        let mut doms: Vec<Vec<i32>> = (0..n).map(|_| subset(0, 6)).collect();
        doms.extend((0..n).map(|_| subset(0, 3)));
        doms.extend((0..n).map(|_| if unary { subset(2, 3) } else { subset(0, 2) }));
        doms.push(subset(0, 3));
        let mut m = Model::new();
        let v: Vec<_> = doms.iter().map(|d| m.new_var_from_values(d)).collect();
        let _ = if case % 2 == 0 {
            m.post(cumulative_var_on(&v, n))
        } else {
            m.cumulative_var(&v[..n], &v[n..2 * n], &v[2 * n..3 * n], v[3 * n])
        };
        let got = engine::count(&mut m, &SearchConfig::default()).solutions;
        assert_eq!(
            got,
            brute_count(&doms, &|t| cumulative_var_holds(t, n)),
            "on {doms:?}"
        );
    }
}

fn disjunctive_holds(s: &[i32], d: &[i32], strict: bool) -> bool {
    (0..s.len()).all(|i| {
        (i + 1..s.len()).all(|j| {
            (!strict && (d[i] == 0 || d[j] == 0)) || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]
        })
    })
}

#[test]
fn disjunctive_is_sound_and_checking() {
    let mut rng = Rng::new(5);
    for case in 0..16 {
        let n = 3 + case % 2;
        let strict = case % 4 >= 2;
        let d: Vec<i32> = (0..n).map(|_| rng.below(4) as i32).collect();
        let mut cfg = HarnessConfig::new(n, 0, 7, Consistency::Checking);
        cfg.trials = 100;
        cfg.seed = case as u64;
        let d2 = d.clone();
        check_propagator(
            &format!("disjunctive d={d:?} strict={strict}"),
            &cfg,
            &|t| disjunctive_holds(t, &d, strict),
            &|v| Box::new(Disjunctive::new(v, &d2, strict)),
        );
    }
}

/// Overload: three tasks of length 2 in the window [0, 5) need 6 units of time. No task has
/// a compulsory part, so time-tabling alone sees nothing; the overload check fails.
#[test]
fn disjunctive_overload_check_sees_what_time_tabling_misses() {
    for with_check in [false, true] {
        let mut m = Model::new();
        let s = m.new_vars(3, 0, 3);
        let p = Disjunctive::new(&s, &[2, 2, 2], false);
        let _ = m.post(Box::new(if with_check { p } else { p.time_tabling_only() }));
        assert_eq!(m.propagate().is_err(), with_check);
    }
}

/// Strict: a zero-length task may not sit strictly inside another one.
#[test]
fn disjunctive_strict_moves_zero_length_tasks() {
    let mut m = Model::new();
    let a = m.new_var(2, 2);
    let z = m.new_var(3, 6);
    let _ = m.disjunctive(&[a, z], &[3, 0], true);
    m.propagate().unwrap();
    assert_eq!((m.min(z), m.max(z)), (5, 6));
}

/// The number of tuples of `doms` that satisfy `check`.
fn brute_count(doms: &[Vec<i32>], check: &dyn Fn(&[i32]) -> bool) -> u64 {
    engine::testing::solutions(doms, check).len() as u64
}

/// Search counts equal brute-force counts on random instances. This catches what the
/// harness cannot: a propagator that declares itself entailed too early, after which the
/// search accepts the violations it no longer looks at (the harness compares with a
/// from-scratch run that makes the same mistake).
#[test]
fn search_counts_equal_brute_force() {
    let mut rng = Rng::new(11);
    for case in 0..60 {
        let n = 6;
        let doms: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                let mut d: Vec<i32> = (0..10).filter(|_| rng.below(2) == 0).collect();
                if d.is_empty() {
                    d.push(rng.below(10) as i32);
                }
                d
            })
            .collect();
        let d: Vec<i32> = (0..n).map(|_| rng.below(5) as i32).collect();
        let r: Vec<i32> = (0..n).map(|_| 1 + rng.below(2) as i32).collect();
        let (strict, capacity) = (case % 2 == 0, 1 + case % 3);
        type Check<'a> = Box<dyn Fn(&[i32]) -> bool + 'a>;
        let variants: Vec<(&str, Check<'_>)> = vec![
            (
                "cumulative",
                Box::new(|t: &[i32]| cumulative_holds(t, &d, &r, capacity)),
            ),
            (
                "disjunctive",
                Box::new(|t: &[i32]| disjunctive_holds(t, &d, strict)),
            ),
        ];
        for (name, check) in variants {
            let mut m = Model::new();
            let s: Vec<_> = doms.iter().map(|v| m.new_var_from_values(v)).collect();
            let _ = if name == "cumulative" {
                m.cumulative(&s, &d, &r, capacity)
            } else {
                m.disjunctive(&s, &d, strict)
            };
            let got = engine::count(&mut m, &SearchConfig::default()).solutions;
            assert_eq!(
                got,
                brute_count(&doms, &*check),
                "{name} d={d:?} r={r:?} c={capacity} strict={strict} on {doms:?}"
            );
        }
        // Inverse alone (no all-different): positions 1..=2 both ways.
        let idoms: Vec<Vec<i32>> = (0..4)
            .map(|_| {
                let mut v: Vec<i32> = (0..=3).filter(|_| rng.below(3) != 0).collect();
                if v.is_empty() {
                    v.push(1);
                }
                v
            })
            .collect();
        let mut m = Model::new();
        let v: Vec<_> = idoms.iter().map(|x| m.new_var_from_values(x)).collect();
        let _ = m.post(Box::new(Inverse::new(&v[..2], 1, &v[2..], 1)));
        let got = engine::count(&mut m, &SearchConfig::default()).solutions;
        assert_eq!(
            got,
            brute_count(&idoms, &|t| inverse_holds(t, 2, 1, 1)),
            "inverse on {idoms:?}"
        );
    }
}

/// ft06 (Fisher & Thompson 1963, the OR-Library's 6×6 job shop): for each job, its
/// operations in order as (machine, duration). The optimum makespan is 55.
const FT06: [[(usize, i32); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// Minimise ft06's makespan with each machine as `cumulative` (capacity 1) or
/// `disjunctive`; every schedule returned must be valid. A propagator that stopped looking
/// too early (entailment) once returned a makespan of 54 here with two operations at once.
#[test]
fn ft06_schedules_are_valid_and_the_optimum_is_55() {
    for use_disjunctive in [false, true] {
        let horizon: i32 = FT06.iter().flatten().map(|&(_, d)| d).sum();
        let mut m = Model::new();
        let starts: Vec<Vec<_>> = FT06
            .iter()
            .map(|j| m.new_vars(j.len(), 0, horizon))
            .collect();
        let makespan = m.new_var(0, horizon);
        for (job, s) in FT06.iter().zip(&starts) {
            for k in 1..job.len() {
                let _ = m.less_equal_offset(s[k - 1], s[k], -job[k - 1].1);
            }
            let _ = m.less_equal_offset(s[5], makespan, -job[5].1);
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
            let _ = if use_disjunctive {
                m.disjunctive(&on, &durations, false)
            } else {
                m.cumulative(&on, &durations, &[1; 6], 1)
            };
        }
        let config = SearchConfig {
            objective: Some(engine::Objective::minimize(makespan)),
            limits: engine::Limits {
                nodes: Some(20_000),
                ..engine::Limits::default()
            },
            ..SearchConfig::default()
        };
        let out = engine::solve(&mut m, &config);
        let sol = out.best.expect("a schedule");
        let mut ops = Vec::new();
        for (job, s) in FT06.iter().zip(&starts) {
            for (k, &(machine, d)) in job.iter().enumerate() {
                let start = sol.value(s[k]);
                assert!(k == 0 || sol.value(s[k - 1]) + job[k - 1].1 <= start);
                assert!(start + d <= sol.value(makespan));
                ops.push((machine, start, d));
            }
        }
        for (i, a) in ops.iter().enumerate() {
            for b in &ops[i + 1..] {
                assert!(
                    a.0 != b.0 || a.1 + a.2 <= b.1 || b.1 + b.2 <= a.1,
                    "{a:?} overlaps {b:?}"
                );
            }
        }
        assert!(sol.value(makespan) >= 55, "below the optimum");
        if use_disjunctive {
            assert!(
                out.complete,
                "the overload check proves ft06 within the node limit"
            );
            assert_eq!(sol.value(makespan), 55);
        }
    }
}

/// Detectable precedences: A (start 0..=3, length 3) has no compulsory part, and the window
/// is wide enough, so neither time-tabling nor the overload check moves B (start 1..=9,
/// length 3); but B cannot end by A's latest start, so A precedes B and B starts at 3 or
/// later.
#[test]
fn disjunctive_detectable_precedences_move_what_the_others_miss() {
    for with_rule in [false, true] {
        let mut m = Model::new();
        let a = m.new_var(0, 3);
        let b = m.new_var(1, 9);
        let p = Disjunctive::new(&[a, b], &[3, 3], false);
        let _ = m.post(Box::new(if with_rule {
            p
        } else {
            p.without_detectable_precedences()
        }));
        m.propagate().unwrap();
        assert_eq!(m.min(b), if with_rule { 3 } else { 1 });
    }
}
