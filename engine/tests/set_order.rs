//! The order of sets (`engine/src/propagators/sets/order.rs`) against a brute force written
//! from MiniZinc's definition: the sorted lists of elements compared lexicographically, a
//! proper prefix first. Through the harness of `engine::testing`: sound, checking, domain
//! consistent on the characteristic booleans, incremental = from scratch, restored on
//! backtracking; plain, reified and half-reified, for universes of 1 to 5 values.

use engine::propagators::sets::order::SetOrder;
use engine::testing::{check_propagator, Consistency, HarnessConfig};

/// The elements (positions) of a set given by its characteristic booleans, in order.
fn elements(bits: &[i32]) -> Vec<usize> {
    (0..bits.len()).filter(|&i| bits[i] == 1).collect()
}

/// MiniZinc's `x ≤ y` (`x < y` when strict) on sets: their sorted lists, lexicographically.
fn set_order(x: &[i32], y: &[i32], strict: bool) -> bool {
    let (ex, ey) = (elements(x), elements(y));
    if strict {
        ex < ey
    } else {
        ex <= ey
    }
}

#[test]
fn the_brute_force_order_is_minizincs() {
    // Checked against `minizinc` evaluating `<` on these sets: {} < {1} < {1,2} < {1,3}
    // < {1,5} < {2} < {2,3} < {3}.
    let sets: [&[i32]; 8] = [
        &[0, 0, 0, 0, 0],
        &[1, 0, 0, 0, 0],
        &[1, 1, 0, 0, 0],
        &[1, 0, 1, 0, 0],
        &[1, 0, 0, 0, 1],
        &[0, 1, 0, 0, 0],
        &[0, 1, 1, 0, 0],
        &[0, 0, 1, 0, 0],
    ];
    for i in 0..sets.len() {
        for j in 0..sets.len() {
            assert_eq!(set_order(sets[i], sets[j], true), i < j, "{i} {j}");
            assert_eq!(set_order(sets[i], sets[j], false), i <= j, "{i} {j}");
        }
    }
}

#[test]
fn set_order_is_domain_consistent_on_the_booleans() {
    for n in 1..=5 {
        for strict in [false, true] {
            let mut cfg = HarnessConfig::new(2 * n, 0, 1, Consistency::Domain);
            cfg.trials = 200;
            cfg.seed = n as u64;
            let check = move |t: &[i32]| set_order(&t[..n], &t[n..], strict);
            check_propagator(
                if strict { "set_lt" } else { "set_le" },
                &cfg,
                &check,
                &|v| Box::new(SetOrder::new(&v[..n], &v[n..], strict)),
            );
        }
    }
}

#[test]
fn reified_set_order_is_domain_consistent_once_decided() {
    for n in 1..=4 {
        for strict in [false, true] {
            for half in [false, true] {
                // Domain consistent when r is fixed; while r is open only r is decided, so
                // the level checked over all cases is soundness and checking.
                let mut cfg = HarnessConfig::new(2 * n + 1, 0, 1, Consistency::Checking);
                cfg.trials = 200;
                let check = move |t: &[i32]| {
                    let holds = set_order(&t[..n], &t[n..2 * n], strict);
                    match (t[2 * n], half) {
                        (1, _) => holds,
                        (_, true) => true,
                        (_, false) => !holds,
                    }
                };
                check_propagator("set_order_reif", &cfg, &check, &|v| {
                    Box::new(SetOrder::reified(
                        &v[..n],
                        &v[n..2 * n],
                        strict,
                        v[2 * n],
                        half,
                    ))
                });
            }
        }
    }
}
