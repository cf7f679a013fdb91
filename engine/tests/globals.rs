//! The small global and puzzle propagators (count, global cardinality, element, table,
//! clause, reified conjunction, reification, distinct sum) against brute force with the exhaustive harness of
//! `engine::testing`, each at the consistency level its file claims.

use engine::propagators::clause::Clause;
use engine::propagators::conjunction::Conjunction;
use engine::propagators::count::{CountRange, GlobalCardinality};
use engine::propagators::distinct_sum::DistinctSum;
use engine::propagators::element::Element;
use engine::propagators::reify::Reify;
use engine::propagators::table::Table;
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};

fn all_different(shown: &[i64]) -> bool {
    (0..shown.len()).all(|i| (i + 1..shown.len()).all(|j| shown[i] != shown[j]))
}

#[test]
fn count_is_domain_consistent() {
    for arity in 1..=5 {
        for (lo, hi) in [
            (0, 0),
            (1, 1),
            (2, 2),
            (0, 2),
            (1, 3),
            (2, 9),
            (-1, 1),
            (3, 1),
        ] {
            let holds = move |t: &[i32]| {
                let c = t.iter().filter(|&&v| v == 1).count() as i64;
                lo <= c && c <= hi
            };
            let mut cfg = HarnessConfig::new(arity, 0, 3, Consistency::Domain);
            cfg.trials = 150;
            cfg.seed = (arity as u64 * 100).wrapping_add(lo as u64);
            check_propagator(
                &format!("count(=1) in {lo}..={hi}"),
                &cfg,
                &holds,
                &move |xs| Box::new(CountRange::new(xs, 1, lo, hi)),
            );
        }
    }
}

#[test]
fn global_cardinality_is_domain_consistent() {
    let mut rng = Rng::new(3);
    for arity in 1..=5 {
        for round in 0..8 {
            // Random counts for some of the values 0..=3 (sometimes summing to n, sometimes
            // not, sometimes impossible).
            let mut counts: Vec<(i32, u32)> = Vec::new();
            for v in 0..=3 {
                if rng.below(3) != 0 {
                    counts.push((v, rng.below(3) as u32));
                }
            }
            let c = counts.clone();
            let holds = move |t: &[i32]| {
                c.iter()
                    .all(|&(v, k)| t.iter().filter(|&&x| x == v).count() == k as usize)
            };
            let mut cfg = HarnessConfig::new(arity, 0, 4, Consistency::Domain);
            cfg.trials = 120;
            cfg.seed = round * 17 + arity as u64;
            let c = counts.clone();
            check_propagator(&format!("gcc {counts:?}"), &cfg, &holds, &move |xs| {
                Box::new(GlobalCardinality::new(xs, &c))
            });
        }
    }
}

#[test]
fn global_cardinality_closed_fks_rows() {
    // "Two of each of F, K, S" in a row of six (the pigeonhole puzzle): 90 arrangements.
    use engine::{Model, SearchConfig};
    let mut m = Model::new();
    let row = m.new_vars(6, 0, 2);
    m.global_cardinality(&row, &[(0, 2), (1, 2), (2, 2)]);
    let out = engine::count(&mut m, &SearchConfig::default());
    assert_eq!(out.solutions, 90); // 6! / (2! 2! 2!)
    assert_eq!(
        out.stats.failures, 0,
        "domain consistency never fails in search"
    );
}

#[test]
fn element_is_domain_consistent() {
    for array in [
        vec![3, 1, 3, 0, 2],
        vec![0],
        vec![-1, 4, 4, 2, -1, 0, 1],
        vec![],
    ] {
        let a = array.clone();
        let holds =
            move |t: &[i32]| t[0] >= 0 && (t[0] as usize) < a.len() && a[t[0] as usize] == t[1];
        let cfg = HarnessConfig::new(2, -1, 6, Consistency::Domain);
        let a = array.clone();
        check_propagator(&format!("element {array:?}"), &cfg, &holds, &move |xs| {
            Box::new(Element::new(xs[0], &a, xs[1]))
        });
    }
}

#[test]
fn table_is_domain_consistent() {
    let mut rng = Rng::new(5);
    for arity in 1..=4 {
        for round in 0..6 {
            let rows: Vec<Vec<i32>> = (0..rng.below(12) + (round % 2))
                .map(|_| (0..arity).map(|_| rng.below(5) as i32 - 1).collect())
                .collect();
            let r = rows.clone();
            let holds = move |t: &[i32]| r.iter().any(|row| row.as_slice() == t);
            let mut cfg = HarnessConfig::new(arity, -1, 3, Consistency::Domain);
            cfg.trials = 150;
            cfg.steps = 6;
            cfg.seed = round * 11 + arity as u64;
            let r = rows.clone();
            check_propagator(&format!("table {rows:?}"), &cfg, &holds, &move |xs| {
                Box::new(Table::new(xs, &r))
            });
        }
    }
}

#[test]
fn clause_is_domain_consistent() {
    for arity in 1..=5 {
        for negs in 0..=arity {
            let holds = move |t: &[i32]| {
                t.iter().all(|&v| v == 0 || v == 1)
                    && t.iter()
                        .enumerate()
                        .any(|(i, &v)| if i < negs { v == 0 } else { v == 1 })
            };
            // Domains drawn from -1..=2: the clause must also restrict them to {0, 1}.
            let mut cfg = HarnessConfig::new(arity, -1, 2, Consistency::Domain);
            cfg.steps = 6;
            cfg.seed = arity as u64 * 10 + negs as u64;
            check_propagator(
                &format!("clause {negs} negative"),
                &cfg,
                &holds,
                &move |xs| Box::new(Clause::new(&xs[negs..], &xs[..negs])),
            );
        }
    }
    // A variable both positive and negative: always true. Repeated literals: as once.
    let cfg = HarnessConfig::new(2, 0, 1, Consistency::Domain);
    check_propagator("x ∨ ¬x ∨ y", &cfg, &|_| true, &|xs| {
        Box::new(Clause::new(&[xs[0], xs[1]], &[xs[0]]))
    });
    check_propagator(
        "x ∨ x ∨ ¬y ∨ ¬y",
        &cfg,
        &|t| t[0] == 1 || t[1] == 0,
        &|xs| Box::new(Clause::new(&[xs[0], xs[0]], &[xs[1], xs[1]])),
    );
    check_propagator("empty clause", &cfg, &|_| false, &|_| {
        Box::new(Clause::new(&[], &[]))
    });
}

/// `r ⇔ ℓ₁ ∧ … ∧ ℓₖ` for every pattern of signs (of the literals and of `r`), k = 0..4:
/// the last variable is r's.
#[test]
fn conjunction_is_domain_consistent() {
    for k in 0..=4usize {
        for signs in 0..1u32 << (k + 1) {
            let sign = move |i: usize| signs >> i & 1 == 1;
            let holds = move |t: &[i32]| {
                let lit = |i: usize| t[i] == sign(i) as i32;
                t.iter().all(|&v| v == 0 || v == 1) && lit(k) == (0..k).all(lit)
            };
            // Domains drawn from -1..=2: the conjunction must also restrict them to {0, 1}.
            let mut cfg = HarnessConfig::new(k + 1, -1, 2, Consistency::Domain);
            cfg.steps = 6;
            cfg.trials = 60;
            cfg.seed = k as u64 * 100 + signs as u64;
            check_propagator(
                &format!("conjunction of {k}, signs {signs:b}"),
                &cfg,
                &holds,
                &move |xs| {
                    let lits: Vec<(_, bool)> = (0..k).map(|i| (xs[i], sign(i))).collect();
                    Box::new(Conjunction::new(&lits, (xs[k], sign(k))))
                },
            );
        }
    }
}

/// `Model::conjunction` with a variable twice (among the literals, or as `r` too) posts the
/// clauses instead: a complete search still counts the brute-force solutions.
#[test]
fn a_conjunction_over_a_repeated_variable_counts_as_brute_force() {
    // Variables 0..3; each case lists the literals' variables and signs, then r's.
    let cases: [(&[(usize, bool)], (usize, bool)); 5] = [
        (&[(0, true), (0, true), (1, false)], (2, true)),
        (&[(0, true), (0, false)], (1, true)),
        (&[(0, true), (1, true)], (0, true)),
        (&[(0, true), (1, true)], (1, false)),
        (&[(0, false), (1, true), (2, true)], (2, false)),
    ];
    for (lits, r) in cases {
        let holds = |t: &[i32]| {
            let lit = |(x, sign): (usize, bool)| t[x] == sign as i32;
            lit(r) == lits.iter().all(|&l| lit(l))
        };
        let sols = engine::testing::solutions(&vec![vec![0, 1]; 3], &holds);
        let mut m = engine::Model::new();
        let xs: Vec<_> = (0..3).map(|_| m.new_var(0, 1)).collect();
        let lits: Vec<_> = lits.iter().map(|&(x, s)| (xs[x], s)).collect();
        m.conjunction(&lits, (xs[r.0], r.1));
        let got = engine::count(&mut m, &engine::SearchConfig::default()).solutions;
        assert_eq!(got, sols.len() as u64, "{lits:?} {r:?}");
    }
}

#[test]
fn reification_is_domain_consistent() {
    for v in [-1, 0, 2, 3] {
        let cfg = HarnessConfig::new(2, -1, 3, Consistency::Domain);
        check_propagator(
            &format!("b <-> x = {v}"),
            &cfg,
            &move |t| (t[0] == 0 || t[0] == 1) && (t[0] == 1) == (t[1] == v),
            &move |xs| Box::new(Reify::equal(xs[0], xs[1], v)),
        );
        check_propagator(
            &format!("b <-> x <= {v}"),
            &cfg,
            &move |t| (t[0] == 0 || t[0] == 1) && (t[0] == 1) == (t[1] <= v),
            &move |xs| Box::new(Reify::less_equal(xs[0], xs[1], v)),
        );
    }
    // x <= i32::MAX always holds: b = 0 is impossible.
    let cfg = HarnessConfig::new(2, i32::MAX - 3, i32::MAX, Consistency::Checking);
    let _ = cfg; // the harness draws b from the same range; test the edge directly instead:
    use engine::{Model, SearchConfig};
    let mut m = Model::new();
    let b = m.new_bool();
    let x = m.new_var(i32::MAX - 2, i32::MAX);
    m.reify_le(b, x, i32::MAX);
    let out = engine::count(&mut m, &SearchConfig::default());
    assert_eq!(out.solutions, 3);
}

#[test]
fn distinct_sum_is_domain_consistent() {
    for arity in 1..=5 {
        let totals: Vec<i64> = match arity {
            1 => vec![1, 4, 7],
            2 => vec![3, 4, 7, 11],
            3 => vec![6, 7, 10, 15],
            4 => vec![10, 12, 16],
            _ => vec![15, 17, 20],
        };
        for total in totals {
            let holds = move |t: &[i32]| {
                let shown: Vec<i64> = t.iter().map(|&v| v as i64).collect();
                all_different(&shown) && shown.iter().sum::<i64>() == total
            };
            let mut cfg = HarnessConfig::new(arity, 1, 7, Consistency::Domain);
            cfg.trials = 200;
            cfg.seed = arity as u64 * 1000 + total as u64;
            check_propagator(&format!("distinct sum {total}"), &cfg, &holds, &move |xs| {
                Box::new(DistinctSum::new(xs, total))
            });
        }
    }
}

#[test]
fn distinct_sum_survives_extreme_values() {
    // Values at the top of the i32 range: their sums leave i32 but not i64.
    let top = i32::MAX as i64;
    for total in [3 * top - 3, 3 * top - 1, 3 * top] {
        let holds = move |t: &[i32]| {
            let shown: Vec<i64> = t.iter().map(|&v| v as i64).collect();
            all_different(&shown) && shown.iter().sum::<i64>() == total
        };
        let cfg = HarnessConfig::new(3, i32::MAX - 4, i32::MAX, Consistency::Domain);
        check_propagator("distinct sum near i32::MAX", &cfg, &holds, &move |xs| {
            Box::new(DistinctSum::new(xs, total))
        });
    }
    let bottom = i32::MIN as i64;
    let holds = move |t: &[i32]| {
        let shown: Vec<i64> = t.iter().map(|&v| v as i64).collect();
        all_different(&shown) && shown.iter().sum::<i64>() == 2 * bottom + 1
    };
    let cfg = HarnessConfig::new(2, i32::MIN, i32::MIN + 4, Consistency::Domain);
    check_propagator("distinct sum near i32::MIN", &cfg, &holds, &move |xs| {
        Box::new(DistinctSum::new(xs, 2 * bottom + 1))
    });
}

#[test]
fn distinct_sum_beyond_sixteen_values_still_checks() {
    // 17 distinct values in the domains: the propagator falls back to checking; the
    // search must still find exactly the right solutions.
    use engine::{Model, SearchConfig};
    let mut m = Model::new();
    let xs = m.new_vars(2, 0, 16);
    m.distinct_sum(&xs, 3);
    let out = engine::count(&mut m, &SearchConfig::default());
    assert_eq!(out.solutions, 4); // (0,3) (3,0) (1,2) (2,1)
}

#[test]
fn empty_constraints_behave() {
    use engine::{Model, SearchConfig};
    // No variables: a distinct sum holds iff the total is 0; a cardinality iff no value is
    // required.
    for (total, want) in [(0, 1), (5, 0)] {
        let mut m = Model::new();
        let _ = m.new_var(0, 1);
        m.distinct_sum(&[], total);
        let out = engine::count(&mut m, &SearchConfig::default());
        assert_eq!(out.solutions, 2 * want);
    }
    for (count, want) in [(0, 2), (1, 0)] {
        let mut m = Model::new();
        let _ = m.new_var(0, 1);
        m.global_cardinality(&[], &[(3, count)]);
        let out = engine::count(&mut m, &SearchConfig::default());
        assert_eq!(out.solutions, want);
    }
}
