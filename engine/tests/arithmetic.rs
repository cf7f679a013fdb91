//! The FlatZinc arithmetic, element-over-variables and reified propagators against brute
//! force, with the exhaustive harness of `engine::testing`.

use engine::model::Model;
use engine::propagators::arithmetic::{Arith, ArithOp, MIN_MAX_VALUE_BUDGET};
use engine::propagators::element_var::ElementVar;
use engine::propagators::reified::{LinRel, ReifiedLinear, ReifiedMember};
use engine::testing::{check_propagator, Consistency, HarnessConfig};

const OPS: [ArithOp; 7] = [
    ArithOp::Times,
    ArithOp::Div,
    ArithOp::Mod,
    ArithOp::Pow,
    ArithOp::Min,
    ArithOp::Max,
    ArithOp::Abs,
];

fn holds(op: ArithOp, t: &[i32]) -> bool {
    op.apply(t[0] as i64, t[1] as i64) == Some(t[2] as i64)
}

#[test]
fn arithmetic_is_domain_consistent_within_the_budget() {
    for op in OPS {
        let cfg = HarnessConfig::new(3, -3, 4, Consistency::Domain);
        check_propagator(&format!("{op:?}"), &cfg, &|t| holds(op, t), &|xs| {
            Box::new(Arith::new(op, xs[0], xs[1], xs[2]))
        });
    }
}

#[test]
fn arithmetic_beyond_the_budget_is_sound_and_checking() {
    for op in OPS {
        let cfg = HarnessConfig::new(3, -3, 4, Consistency::Checking);
        check_propagator(
            &format!("{op:?} (fallback)"),
            &cfg,
            &|t| holds(op, t),
            &|xs| Box::new(Arith::with_budget(op, xs[0], xs[1], xs[2], 0)),
        );
    }
}

/// Beyond the budget min and max still narrow `x` and `y` from `z` (an objective's bound
/// reaches the makespans it is the maximum of), and `abs` narrows both ways: bounds
/// consistency.
#[test]
fn min_max_and_abs_beyond_the_budget_are_bounds_consistent() {
    for op in [ArithOp::Min, ArithOp::Max, ArithOp::Abs] {
        let cfg = HarnessConfig::new(3, -3, 4, Consistency::Bounds);
        check_propagator(
            &format!("{op:?} (fallback, bounds)"),
            &cfg,
            &|t| holds(op, t),
            &|xs| Box::new(Arith::with_budget(op, xs[0], xs[1], xs[2], 0)),
        );
    }
}

/// Beyond the budget, `z = x div c` by a constant `c` (the divisor fixed, both signs)
/// narrows `z` from `x` and `x` from `z`: bounds consistency, Gecode's level.
#[test]
fn division_by_a_constant_beyond_the_budget_is_bounds_consistent() {
    for c in [-4, -2, -1, 1, 3, 5] {
        let mut cfg = HarnessConfig::new(3, -12, 12, Consistency::Bounds);
        cfg.first_ranges = vec![(-12, 12), (c, c)];
        check_propagator(
            &format!("Div by {c} (fallback, bounds)"),
            &cfg,
            &|t| holds(ArithOp::Div, t),
            &|xs| Box::new(Arith::with_budget(ArithOp::Div, xs[0], xs[1], xs[2], 0)),
        );
    }
}

/// Past `MIN_MAX_VALUE_BUDGET` values of an argument, `min` and `max` keep bounds(Z) on
/// real wide domains (up to 100 values of 0..=100, so about a third of the arguments are
/// past the budget and the rest within it, where the level is stronger).
#[test]
fn min_and_max_past_the_value_budget_are_bounds_consistent() {
    for op in [ArithOp::Min, ArithOp::Max] {
        let mut cfg = HarnessConfig::new(3, 0, 100, Consistency::Bounds);
        cfg.max_size = 100;
        cfg.trials = 40;
        cfg.steps = 2;
        check_propagator(&format!("{op:?} (wide)"), &cfg, &|t| holds(op, t), &|xs| {
            Box::new(Arith::new(op, xs[0], xs[1], xs[2]))
        });
    }
}

/// The level switches at the budget: `z = max(x, y)` with `y = 0` and a hole at 50 in
/// `z` takes 50 out of `x` (no support) while `x` has at most `MIN_MAX_VALUE_BUDGET`
/// values, and leaves it past the budget (bounds(Z), as Gecode's `int_max`).
#[test]
fn max_is_domain_consistent_up_to_the_value_budget_and_bounds_past_it() {
    let budget = MIN_MAX_VALUE_BUDGET as i32;
    for (width, hole_removed) in [(budget, true), (budget + 1, false)] {
        let mut m = Model::new();
        let x = m.new_var(0, width - 1);
        let y = m.new_var(0, 0);
        let z = m.new_var(0, width - 1);
        m.remove(z, 50).unwrap();
        m.post(Box::new(Arith::new(ArithOp::Max, x, y, z)));
        m.propagate().unwrap();
        assert_eq!(
            !m.domain(x).contains(50),
            hole_removed,
            "x of {width} values"
        );
    }
}

#[test]
fn times_of_non_negative_factors_beyond_the_budget_is_sound_and_checking() {
    let cfg = HarnessConfig::new(3, 0, 7, Consistency::Checking);
    check_propagator(
        "times (fallback, x, y >= 0)",
        &cfg,
        &|t| t[0] * t[1] == t[2],
        &|xs| Box::new(Arith::with_budget(ArithOp::Times, xs[0], xs[1], xs[2], 0)),
    );
}

/// A square, `int_times(x, x, z)`: one variable in both factors. Within the budget only
/// the pairs `(v, v)` support (domain consistency for `z = x²`, which the products `v·w`
/// of two values would not give); beyond it the bounds from `√z`, bounds(Z).
#[test]
fn a_square_is_domain_consistent_within_the_budget_and_bounds_consistent_beyond() {
    let square = |t: &[i32]| t[0] as i64 * t[0] as i64 == t[1] as i64;
    for (lo, hi) in [(-3, 4), (-6, 9), (0, 16)] {
        for (budget, consistency) in [(1 << 10, Consistency::Domain), (0, Consistency::Bounds)] {
            let cfg = HarnessConfig::new(2, lo, hi, consistency);
            check_propagator(&format!("square {budget}"), &cfg, &square, &|xs| {
                Box::new(Arith::with_budget(
                    ArithOp::Times,
                    xs[0],
                    xs[0],
                    xs[1],
                    budget,
                ))
            });
        }
    }
}

/// The three shapes of `times` with supports in closed form (a 0/1 switch times a
/// factor, a constant factor, a square; `times_values`) reach the domain consistency of
/// the pairs on bitsets, the same bounds of `z` on interval domains (`z` of a `pow` or a
/// wide product, which keeps only its bounds), and agree with the enumeration (the
/// reference) after every pruning.
#[test]
fn times_of_a_switch_a_constant_or_a_square_is_domain_consistent_without_the_pairs() {
    let times = |t: &[i32]| t[0] as i64 * t[1] as i64 == t[2] as i64;
    let square = |t: &[i32]| t[0] as i64 * t[0] as i64 == t[1] as i64;
    for (interval_domains, consistency) in
        [(false, Consistency::Domain), (true, Consistency::Bounds)]
    {
        // A switch in {0, 1}, often fixed by the harness's prunings (then a constant).
        for (lo, hi) in [(-3, 4), (0, 9)] {
            let mut cfg = HarnessConfig::new(3, lo, hi, consistency);
            cfg.first_ranges = vec![(0, 1)];
            cfg.interval_domains = interval_domains;
            check_propagator("switch times y", &cfg, &times, &|xs| {
                Box::new(Arith::new(ArithOp::Times, xs[0], xs[1], xs[2]))
            });
            // The switch second.
            check_propagator(
                "y times switch",
                &cfg,
                &|t| t[1] as i64 * t[0] as i64 == t[2] as i64,
                &|xs| Box::new(Arith::new(ArithOp::Times, xs[1], xs[0], xs[2])),
            );
        }
        // A constant factor of either sign, zero included.
        let mut cfg = HarnessConfig::new(3, -4, 6, consistency);
        cfg.first_ranges = vec![(-2, 2)];
        cfg.max_size = 5;
        cfg.interval_domains = interval_domains;
        check_propagator("constant times y", &cfg, &times, &|xs| {
            Box::new(Arith::new(ArithOp::Times, xs[0], xs[1], xs[2]))
        });
        let mut cfg = HarnessConfig::new(2, -5, 9, consistency);
        cfg.interval_domains = interval_domains;
        check_propagator("square", &cfg, &square, &|xs| {
            Box::new(Arith::new(ArithOp::Times, xs[0], xs[0], xs[1]))
        });
    }
}

/// A product whose `z` is an interval domain without holes (a cube `x²·x`, a `pow`):
/// `product_in_interval` finds each value's partners by two searches, and must keep exactly
/// what the pairs keep. The harness runs it after each pruning that leaves `z` whole and
/// compares with the enumeration; `z` drawn from a few values, so that it often is whole.
#[test]
fn a_product_into_a_whole_interval_keeps_what_the_pairs_keep() {
    let times = |t: &[i32]| t[0] as i64 * t[1] as i64 == t[2] as i64;
    let shapes = [
        [(-4, 6), (-3, 3), (0, 2)],
        [(-4, 6), (-3, 3), (-3, -1)],
        [(0, 12), (1, 4), (6, 9)],
        [(-9, 9), (-2, 2), (-1, 1)],
        [(3, 14), (-4, -1), (-20, -16)],
    ];
    for (k, ranges) in shapes.into_iter().enumerate() {
        for order in [[0, 1, 2], [1, 0, 2]] {
            let mut cfg = HarnessConfig::new(3, -9, 9, Consistency::Bounds);
            cfg.first_ranges = ranges.to_vec();
            cfg.interval_domains = true;
            cfg.max_size = 4;
            cfg.seed = 40 + k as u64;
            check_propagator(&format!("times into {ranges:?}"), &cfg, &times, &|xs| {
                Box::new(Arith::new(
                    ArithOp::Times,
                    xs[order[0]],
                    xs[order[1]],
                    xs[2],
                ))
            });
        }
    }
}

#[test]
fn the_functions_follow_flatzinc() {
    assert_eq!(ArithOp::Div.apply(-7, 2), Some(-3));
    assert_eq!(ArithOp::Mod.apply(-7, 2), Some(-1));
    assert_eq!(ArithOp::Div.apply(1, 0), None);
    assert_eq!(ArithOp::Pow.apply(-2, 3), Some(-8));
    assert_eq!(ArithOp::Pow.apply(-1, 5), Some(-1));
    assert_eq!(ArithOp::Pow.apply(2, -1), Some(0));
    assert_eq!(ArithOp::Pow.apply(0, -1), None);
    assert_eq!(ArithOp::Pow.apply(2, 40), None);
    assert_eq!(ArithOp::Times.apply(1 << 20, 1 << 20), None);
}

/// `min` and `max`: the word lane against the reference, on windows of fewer and more
/// than 64 values, and on both sides of a small pair budget (beyond it the reference works
/// on the bounds of `z`, and so does the engine).
#[test]
fn min_and_max_word_lane_agrees_with_the_reference() {
    for op in [ArithOp::Min, ArithOp::Max] {
        // Windows of fewer than 64 values (the word lane), and of more, with domains of
        // up to 8 values so that solutions are common (the lane that reads the values).
        for (lo, hi) in [(-3, 4), (0, 40), (-40, 40), (0, 90), (-150, 150)] {
            for budget in [6, 1 << 10] {
                let consistency = if budget < 25 {
                    Consistency::Checking
                } else {
                    Consistency::Domain
                };
                let mut cfg = HarnessConfig::new(3, lo, hi, consistency);
                cfg.trials = 500;
                if hi - lo > 64 {
                    cfg.max_size = 8;
                    cfg.trials = 5000;
                }
                check_propagator(&format!("{op:?}"), &cfg, &|t| holds(op, t), &|xs| {
                    Box::new(Arith::with_budget(op, xs[0], xs[1], xs[2], budget))
                });
            }
        }
    }
}

/// Sound and checking, and the word lane against the reference: values spread so that
/// `result` sometimes spans one word, sometimes several (up to the lane's four windows of
/// 64 values, with entries in other layouts than `result`'s and reaching past its window),
/// sometimes more than the lane takes (the reference runs), and indices outside the array.
#[test]
fn element_var_is_sound_and_checking_in_both_lanes() {
    for (lo, hi) in [
        (0, 4),
        (-2, 5),
        (0, 40),
        (-30, 90),
        (-100, 150),
        (-300, 300),
    ] {
        let mut cfg = HarnessConfig::new(5, lo, hi, Consistency::Checking);
        cfg.trials = 600;
        if hi - lo > 64 {
            // The index among positions 0..=4 (one word, as the lane needs), the values wide.
            cfg.first_ranges = vec![(0, 4)];
        }
        check_propagator(
            "element_var",
            &cfg,
            &|t| (1..=3).contains(&t[0]) && t[1] == t[1 + t[0] as usize],
            &|xs| Box::new(ElementVar::new(xs[0], 1, &xs[2..], xs[1])),
        );
    }
}

/// The index spanning more than one word (the word lane reads it in windows of 64
/// positions, most of them outside the array here), with narrow and wide values.
#[test]
fn element_var_with_a_wide_index_matches_the_reference() {
    for (lo, hi) in [(-40, 40), (-100, 150), (-300, 300)] {
        let mut cfg = HarnessConfig::new(5, lo, hi, Consistency::Checking);
        cfg.trials = 400;
        cfg.first_ranges = vec![(-70, 70)];
        check_propagator(
            "element_var wide index",
            &cfg,
            &|t| (1..=3).contains(&t[0]) && t[1] == t[1 + t[0] as usize],
            &|xs| Box::new(ElementVar::new(xs[0], 1, &xs[2..], xs[1])),
        );
    }
}

/// A variable in two roles: `index` or `result` is also an entry (FlatZinc's shared
/// constants make this common). The propagator runs to its own fixpoint.
#[test]
fn element_var_with_shared_variables_reaches_its_fixpoint() {
    // index, result, a, b: entries [a, index, b] (index shared).
    let cfg = HarnessConfig::new(4, 0, 4, Consistency::Checking);
    check_propagator(
        "element_var index shared",
        &cfg,
        &|t| {
            let entries = [t[2], t[0], t[3]];
            (1..=3).contains(&t[0]) && t[1] == entries[t[0] as usize - 1]
        },
        &|xs| Box::new(ElementVar::new(xs[0], 1, &[xs[2], xs[0], xs[3]], xs[1])),
    );
    // entries [result, a, b] (result shared), and the index as the result.
    check_propagator(
        "element_var result shared",
        &cfg,
        &|t| {
            let entries = [t[1], t[2], t[3]];
            (0..=2).contains(&t[0]) && t[1] == entries[t[0] as usize]
        },
        &|xs| Box::new(ElementVar::new(xs[0], 0, &[xs[1], xs[2], xs[3]], xs[1])),
    );
    let cfg = HarnessConfig::new(3, 0, 3, Consistency::Checking);
    check_propagator(
        "element_var index is result",
        &cfg,
        &|t| {
            let entries = [t[1], t[2], t[0]];
            (1..=3).contains(&t[0]) && t[0] == entries[t[0] as usize - 1]
        },
        &|xs| Box::new(ElementVar::new(xs[0], 1, &[xs[1], xs[2], xs[0]], xs[0])),
    );
}

fn linear_holds(rel: LinRel, coefs: &[i64], t: &[i32], rhs: i64) -> bool {
    let s: i64 = coefs.iter().zip(t).map(|(&a, &v)| a * v as i64).sum();
    match rel {
        LinRel::Le => s <= rhs,
        LinRel::Eq => s == rhs,
        LinRel::Ne => s != rhs,
    }
}

#[test]
fn reified_linear_is_sound_and_le_is_bounds_consistent() {
    let coef_sets: [&[i64]; 4] = [&[1, -1], &[2, 1], &[1, 1, -1], &[-2, 3]];
    for coefs in coef_sets {
        for rel in [LinRel::Le, LinRel::Eq, LinRel::Ne] {
            for half in [false, true] {
                for rhs in [-1i64, 0, 2] {
                    let consistency = if rel == LinRel::Le && !half {
                        Consistency::Bounds
                    } else {
                        Consistency::Checking
                    };
                    let mut cfg = HarnessConfig::new(coefs.len() + 1, -2, 3, consistency);
                    cfg.trials = 60;
                    let check = |t: &[i32]| {
                        if !(0..=1).contains(&t[0]) {
                            return false;
                        }
                        let r = linear_holds(rel, coefs, &t[1..], rhs);
                        if half {
                            t[0] == 0 || r
                        } else {
                            (t[0] == 1) == r
                        }
                    };
                    let name = format!("{coefs:?} {rel:?} {rhs} half={half}");
                    check_propagator(&name, &cfg, &check, &|xs| {
                        let terms: Vec<(i64, _)> =
                            coefs.iter().copied().zip(xs[1..].iter().copied()).collect();
                        Box::new(ReifiedLinear::new(xs[0], &terms, rel, rhs, half))
                    });
                }
            }
        }
    }
}

#[test]
fn reified_member_is_domain_consistent() {
    let set = [-1, 1, 2];
    for half in [false, true] {
        let cfg = HarnessConfig::new(2, -2, 3, Consistency::Domain);
        let check = |t: &[i32]| {
            let inside = set.contains(&t[1]);
            match t[0] {
                0 => half || !inside,
                1 => inside,
                _ => false,
            }
        };
        check_propagator("member_reif", &cfg, &check, &|xs| {
            Box::new(ReifiedMember::new(xs[0], xs[1], &set, half))
        });
    }
}
