//! The propagators a FlatZinc model leans on, against brute force on **interval domains**
//! (the representation of spans over `BITSET_MAX_SPAN`, `engine/src/domain/interval.rs`):
//! the harness of `engine::testing` with `interval_domains` set. Each runs in two windows:
//! small values (the representation alone changes), and values near the ends of `i32`,
//! where a sum, a product or an offset leaves the 32-bit range.

use engine::propagators::alldiff::bounds::AllDifferentBounds;
use engine::propagators::arithmetic::{Arith, ArithOp};
use engine::propagators::element::Element;
use engine::propagators::element_var::ElementVar;
use engine::propagators::linear::{post_linear, Relation};
use engine::propagators::reified::{LinRel, ReifiedLinear, ReifiedMember};
use engine::propagators::relations::{Compare, EqualOffset};
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{VarId, View};

/// The views `xs[i] + offsets[i]`.
fn shifted(xs: &[VarId], offsets: &[i32]) -> Vec<View> {
    xs.iter().zip(offsets).map(|(&x, &c)| x.plus(c)).collect()
}

/// The harness on interval domains, with values drawn from `lo..=hi`.
fn wide(arity: usize, lo: i32, hi: i32, consistency: Consistency) -> HarnessConfig {
    let mut cfg = HarnessConfig::new(arity, lo, hi, consistency);
    cfg.interval_domains = true;
    cfg.trials = 80;
    cfg
}

/// A small window, and windows at both ends of the values a domain may hold.
const WINDOWS: [(i32, i32); 3] = [
    (-3, 4),
    (i32::MAX - 7, i32::MAX - 1),
    (i32::MIN, i32::MIN + 6),
];

#[test]
fn offsets_on_interval_domains() {
    for (lo, hi) in WINDOWS {
        for c in [-2, 0, 3] {
            let cfg = wide(2, lo, hi, Consistency::Domain);
            let holds = move |t: &[i32]| t[0] as i64 == t[1] as i64 + c as i64;
            check_propagator("x = y + c", &cfg, &holds, &|xs| {
                Box::new(EqualOffset::new(xs[0], xs[1], c))
            });
            let holds = move |t: &[i32]| t[0] as i64 != t[1] as i64 + c as i64;
            check_propagator("x != y + c", &cfg, &holds, &|xs| {
                Box::new(Compare::not_equal(xs[0].into(), xs[1].plus(c)))
            });
            let holds = move |t: &[i32]| t[0] as i64 <= t[1] as i64 + c as i64;
            check_propagator("x <= y + c", &cfg, &holds, &|xs| {
                Box::new(Compare::less_equal(xs[0].into(), xs[1].plus(c)))
            });
        }
    }
}

#[test]
fn linear_with_large_coefficients_on_interval_domains() {
    let cases: [(&[i64], i64); 4] = [
        (&[1, -1], 0),
        (&[100_000, -70_000, 3], 30_000),
        (&[1_000_000_000, 1], 7),
        (&[-3, 2, 1], -1),
    ];
    for (lo, hi) in WINDOWS {
        for (coefs, rhs) in cases {
            for rel in [Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne] {
                let holds = |t: &[i32]| {
                    let s: i128 = t
                        .iter()
                        .zip(coefs)
                        .map(|(&v, &a)| a as i128 * v as i128)
                        .sum();
                    match rel {
                        Relation::Eq => s == rhs as i128,
                        Relation::Le => s <= rhs as i128,
                        Relation::Ge => s >= rhs as i128,
                        Relation::Ne => s != rhs as i128,
                    }
                };
                let cfg = wide(coefs.len(), lo, hi, Consistency::Checking);
                check_propagator(
                    &format!("linear {coefs:?} {rel:?} {rhs}"),
                    &cfg,
                    &holds,
                    &|xs| {
                        let terms: Vec<(i64, engine::VarId)> =
                            coefs.iter().copied().zip(xs.iter().copied()).collect();
                        post_linear(&terms, rel, rhs).pop().unwrap()
                    },
                );
            }
        }
    }
}

#[test]
fn arithmetic_on_interval_domains() {
    let ops = [
        ArithOp::Times,
        ArithOp::Div,
        ArithOp::Mod,
        ArithOp::Min,
        ArithOp::Max,
        ArithOp::Abs,
    ];
    // The small window, and products that leave `i32` (46341² > 2^31).
    for (lo, hi) in [(-3, 4), (46_338, 46_343), (i32::MAX - 6, i32::MAX - 1)] {
        for op in ops {
            let holds = |t: &[i32]| op.apply(t[0] as i64, t[1] as i64) == Some(t[2] as i64);
            for budget in [None, Some(0)] {
                // Within the budget: domain consistency on the factors, but an interval `z`
                // keeps only its bounds (no hole per gap between products): bounds.
                let consistency = if budget.is_none() {
                    Consistency::Bounds
                } else {
                    Consistency::Checking
                };
                let cfg = wide(3, lo, hi, consistency);
                check_propagator(&format!("{op:?} {budget:?}"), &cfg, &holds, &|xs| {
                    Box::new(match budget {
                        None => Arith::new(op, xs[0], xs[1], xs[2]),
                        Some(b) => Arith::with_budget(op, xs[0], xs[1], xs[2], b),
                    })
                });
            }
        }
    }
}

#[test]
fn element_reified_and_alldiff_on_interval_domains() {
    for (lo, hi) in WINDOWS {
        // Element: the index is a small bitset (as in a model), the rest wide.
        let cfg = wide(5, lo, hi, Consistency::Checking);
        let holds = |t: &[i32]| {
            let i = t[0] as i64 - lo as i64;
            (1..=3).contains(&i) && t[1] == t[1 + i as usize]
        };
        check_propagator("element_var", &cfg, &holds, &|xs| {
            Box::new(ElementVar::new(xs[0], lo + 1, &xs[2..], xs[1]))
        });

        let coefs = [1i64, -1];
        for rel in [LinRel::Le, LinRel::Eq, LinRel::Ne] {
            for half in [false, true] {
                // b, x, y: b must be 0 or 1, so the window holds them only when it starts at 0
                // or below; elsewhere the check fails every b, which tests that too.
                let cfg = wide(3, lo, hi, Consistency::Checking);
                let holds = |t: &[i32]| {
                    let s = t[1] as i64 - t[2] as i64;
                    let r = match rel {
                        LinRel::Le => s <= 0,
                        LinRel::Eq => s == 0,
                        LinRel::Ne => s != 0,
                    };
                    (0..=1).contains(&t[0])
                        && if half {
                            t[0] == 0 || r
                        } else {
                            (t[0] == 1) == r
                        }
                };
                check_propagator(&format!("reified {rel:?} {half}"), &cfg, &holds, &|xs| {
                    let terms: Vec<(i64, engine::VarId)> =
                        coefs.iter().copied().zip(xs[1..].iter().copied()).collect();
                    Box::new(ReifiedLinear::new(xs[0], &terms, rel, 0, half))
                });
            }
        }

        let set = [lo + 1, lo + 2, hi];
        let cfg = wide(2, lo, hi, Consistency::Checking);
        let holds = |t: &[i32]| match t[0] {
            0 => !set.contains(&t[1]),
            1 => set.contains(&t[1]),
            _ => false,
        };
        check_propagator("member_reif", &cfg, &holds, &|xs| {
            Box::new(ReifiedMember::new(xs[0], xs[1], &set, false))
        });

        for arity in 2..=4 {
            let cfg = wide(arity, lo, hi, Consistency::Bounds);
            let holds = |t: &[i32]| (0..t.len()).all(|i| (0..i).all(|j| t[i] != t[j]));
            let offsets = vec![0; arity];
            check_propagator("alldiff bounds", &cfg, &holds, &|xs| {
                Box::new(AllDifferentBounds::new(&shifted(xs, &offsets)))
            });
        }
    }
}

/// Element with a wide result, on arrays long enough for both of its ways: one membership
/// test per position when few are left, one merge of the sorted entries with the result's
/// ranges when many are (and, for the values shown, the entries of the few positions left,
/// or the marks of many).
#[test]
fn element_with_many_positions_on_interval_domains() {
    let mut rng = engine::rng::Rng::new(17);
    for round in 0..8 {
        let len = 9 + rng.below(6) as usize;
        let array: Vec<i32> = (0..len).map(|_| rng.below(13) as i32 - 1).collect();
        let a = array.clone();
        let holds =
            move |t: &[i32]| t[0] >= 0 && (t[0] as usize) < a.len() && a[t[0] as usize] == t[1];
        let mut cfg = wide(2, -1, 13, Consistency::Domain);
        cfg.max_size = 8;
        cfg.seed = 100 + round;
        let a = array.clone();
        check_propagator(&format!("element {array:?}"), &cfg, &holds, &move |xs| {
            Box::new(Element::new(xs[0], &a, xs[1]))
        });
    }
}
