//! The binary relations with an offset (`x = y + c`, `x != y + c`, `x <= y + c`) and the
//! linear constraints against brute force, with the exhaustive harness of `engine::testing`.

use engine::propagators::linear::{post_linear, Relation};
use engine::propagators::relations::{Compare, EqualOffset};
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};

#[test]
fn equal_offset_is_domain_consistent() {
    for c in [-2, 0, 3] {
        let cfg = HarnessConfig::new(2, -3, 4, Consistency::Domain);
        check_propagator("x = y + c", &cfg, &|t| t[0] == t[1] + c, &|xs| {
            Box::new(EqualOffset::new(xs[0], xs[1], c))
        });
    }
}

#[test]
fn not_equal_offset_is_domain_consistent() {
    for c in [-1, 0, 2] {
        // Domain consistency holds for != once one side is fixed; with both sides free
        // every value has a support as soon as the other side has two values.
        let cfg = HarnessConfig::new(2, -2, 3, Consistency::Domain);
        check_propagator("x != y + c", &cfg, &|t| t[0] != t[1] + c, &|xs| {
            Box::new(Compare::not_equal(xs[0].into(), xs[1].plus(c)))
        });
    }
}

#[test]
fn less_equal_offset_is_domain_consistent() {
    for c in [-2, 0, 1] {
        let cfg = HarnessConfig::new(2, -3, 4, Consistency::Domain);
        check_propagator("x <= y + c", &cfg, &|t| t[0] <= t[1] + c, &|xs| {
            Box::new(Compare::less_equal(xs[0].into(), xs[1].plus(c)))
        });
    }
}

fn random_terms(rng: &mut Rng, arity: usize) -> Vec<i64> {
    (0..arity)
        .map(|_| [-3i64, -2, -1, 1, 2, 3][rng.below(6) as usize])
        .collect()
}

#[test]
fn linear_relations_are_bounds_consistent() {
    let mut rng = Rng::new(7);
    for arity in 1..=5 {
        for round in 0..6 {
            let coefs = random_terms(&mut rng, arity);
            let rhs = rng.below(9) as i64 - 4;
            for rel in [Relation::Eq, Relation::Le, Relation::Ge] {
                let holds = |t: &[i32]| {
                    let s: i64 = t.iter().zip(&coefs).map(|(&v, &a)| a * v as i64).sum();
                    match rel {
                        Relation::Eq => s == rhs,
                        Relation::Le => s <= rhs,
                        Relation::Ge => s >= rhs,
                        Relation::Ne => s != rhs,
                    }
                };
                // The algorithm reaches bounds(R) consistency; with unit coefficients that is
                // bounds(Z), which the harness checks. Otherwise it checks soundness only.
                let unit = coefs.iter().all(|a| a.abs() == 1);
                let level = if unit {
                    Consistency::Bounds
                } else {
                    Consistency::Checking
                };
                let mut cfg = HarnessConfig::new(arity, -2, 3, level);
                cfg.trials = 120;
                cfg.seed = round as u64 * 31 + arity as u64;
                let c = coefs.clone();
                check_propagator(
                    &format!("linear {coefs:?} {rel:?} {rhs}"),
                    &cfg,
                    &holds,
                    &move |xs| {
                        let terms: Vec<(i64, engine::VarId)> =
                            c.iter().copied().zip(xs.iter().copied()).collect();
                        post_linear(&terms, rel, rhs).pop().unwrap()
                    },
                );
            }
        }
    }
}

#[test]
fn linear_not_equal_is_checking_and_sound() {
    let mut rng = Rng::new(11);
    for arity in 1..=4 {
        let coefs = random_terms(&mut rng, arity);
        let rhs = rng.below(5) as i64 - 2;
        let holds = |t: &[i32]| {
            t.iter()
                .zip(&coefs)
                .map(|(&v, &a)| a * v as i64)
                .sum::<i64>()
                != rhs
        };
        let cfg = HarnessConfig::new(arity, -2, 3, Consistency::Checking);
        let c = coefs.clone();
        check_propagator("linear !=", &cfg, &holds, &move |xs| {
            let terms: Vec<(i64, engine::VarId)> =
                c.iter().copied().zip(xs.iter().copied()).collect();
            post_linear(&terms, Relation::Ne, rhs).pop().unwrap()
        });
    }
}

#[test]
fn linear_survives_extreme_values() {
    use engine::{Model, SearchConfig};
    // i32 extremes with large coefficients: computed in i64, no overflow, right answer.
    let mut m = Model::new();
    let x = m.new_var(i32::MAX - 3, i32::MAX);
    let y = m.new_var(i32::MIN, i32::MIN + 3);
    m.linear(&[(1 << 20, x), (1 << 20, y)], Relation::Eq, -(1 << 20) * 2);
    let out = engine::solve(&mut m, &SearchConfig::default());
    let s = out.best.expect("x = MAX-2... has a solution");
    assert_eq!(s.value(x) as i64 + s.value(y) as i64, -2);
    let mut m = Model::new();
    let x = m.new_var(i32::MAX - 1, i32::MAX);
    m.linear(&[(3, x)], Relation::Le, 3 * (i32::MAX as i64 - 1));
    let out = engine::count(&mut m, &SearchConfig::default());
    assert_eq!(out.solutions, 1);
}

/// `Σ aᵢ·xᵢ = c` at the domain level (`linear_domain.rs`): domain consistent within its
/// budget, on bitsets and on interval domains; with a budget of nothing it only checks
/// (the bounds propagator beside it in a model does the rest).
#[test]
fn linear_equality_by_supports_is_domain_consistent() {
    use engine::propagators::linear_domain::LinearEqDomain;
    let cases: [(&[i64], i64); 6] = [
        (&[1, 2], 5),
        (&[1, 11, -1], 11),
        (&[2, -3], 1),
        (&[1, 1, 1], 4),
        (&[3, -2, 1, -1], 0),
        (&[5], 10),
    ];
    for (coefs, rhs) in cases {
        let holds = move |t: &[i32]| {
            let s: i64 = t.iter().zip(coefs).map(|(&v, &a)| a * v as i64).sum();
            s == rhs
        };
        for wide in [false, true] {
            let mut cfg = HarnessConfig::new(coefs.len(), -2, 6, Consistency::Domain);
            cfg.interval_domains = wide;
            cfg.trials = 120;
            let c = coefs.to_vec();
            check_propagator(
                &format!("Σ {coefs:?} = {rhs} by supports"),
                &cfg,
                &holds,
                &move |xs| {
                    let terms: Vec<(i64, engine::VarId)> =
                        c.iter().copied().zip(xs.iter().copied()).collect();
                    Box::new(LinearEqDomain::new(&terms, rhs))
                },
            );
            let mut cfg = HarnessConfig::new(coefs.len(), -2, 6, Consistency::Checking);
            cfg.interval_domains = wide;
            cfg.trials = 60;
            let c = coefs.to_vec();
            check_propagator(
                &format!("Σ {coefs:?} = {rhs} past its budget"),
                &cfg,
                &holds,
                &move |xs| {
                    let terms: Vec<(i64, engine::VarId)> =
                        c.iter().copied().zip(xs.iter().copied()).collect();
                    Box::new(LinearEqDomain::with_budget(&terms, rhs, 0))
                },
            );
        }
    }
}
