//! The order of sets (`engine/src/propagators/sets/order.rs`) against a brute force written
//! from MiniZinc's definition: the sorted lists of elements compared lexicographically, a
//! proper prefix first. Through the harness of `engine::testing`: sound, checking, domain
//! consistent on the characteristic booleans, incremental = from scratch, restored on
//! backtracking; plain, reified and half-reified, for universes of 1 to 5 values. Its
//! reasons for learning (the generic ones: the inputs it read, the counts among them) are
//! checked by brute force too.

use engine::propagators::sets::order::SetOrder;
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};

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

#[test]
fn set_order_with_cardinalities_is_sound_and_checking() {
    // The counts come first (`first_ranges`), then the booleans of x and y.
    for n in 1..=4 {
        for strict in [false, true] {
            let mut cfg = HarnessConfig::new(2 * n + 2, 0, 1, Consistency::Checking);
            cfg.first_ranges = vec![(0, n as i32), (0, n as i32)];
            cfg.trials = 200;
            let check = move |t: &[i32]| {
                let (x, y) = (&t[2..2 + n], &t[2 + n..]);
                let count = |s: &[i32]| s.iter().filter(|&&b| b == 1).count() as i32;
                set_order(x, y, strict) && count(x) == t[0] && count(y) == t[1]
            };
            check_propagator("set_order_cards", &cfg, &check, &|v| {
                let order = SetOrder::new(&v[2..2 + n], &v[2 + n..], strict);
                Box::new(order.with_cardinalities(Some(v[0]), Some(v[1])))
            });
        }
    }
}

/// With the counts' bounds, every boolean keeps exactly the values some solution of
/// `x ≤ y ∧ |x| ∈ kx ∧ |y| ∈ ky` gives it (the counts being intervals).
#[test]
fn set_order_with_cardinalities_is_domain_consistent_on_the_booleans() {
    let mut rng = engine::rng::Rng::new(5);
    for _ in 0..3000 {
        let n = 1 + rng.below(5) as usize;
        let strict = rng.below(2) == 1;
        let mut model = engine::Model::new();
        let bits: Vec<engine::VarId> = (0..2 * n).map(|_| model.new_bool()).collect();
        let mut domains: Vec<Vec<i32>> = Vec::new();
        for &b in &bits {
            let d = match rng.below(4) {
                0 => vec![0],
                1 => vec![1],
                _ => vec![0, 1],
            };
            model.restrict_to(b, &d).unwrap();
            domains.push(d);
        }
        let mut card = || {
            let lo = rng.below(n as u64 + 1) as i32;
            let hi = lo + rng.below(n as u64 + 1 - lo as u64) as i32;
            (lo, hi)
        };
        let (kx, ky) = (card(), card());
        let (vx, vy) = (model.new_var(kx.0, kx.1), model.new_var(ky.0, ky.1));
        let order = SetOrder::new(&bits[..n], &bits[n..], strict);
        model.post(Box::new(order.with_cardinalities(Some(vx), Some(vy))));
        let count = |s: &[i32]| s.iter().filter(|&&b| b == 1).count() as i32;
        let solutions = engine::testing::solutions(&domains, &|t: &[i32]| {
            let (x, y) = (&t[..n], &t[n..]);
            set_order(x, y, strict)
                && (kx.0..=kx.1).contains(&count(x))
                && (ky.0..=ky.1).contains(&count(y))
        });
        if model.propagate().is_err() {
            assert!(
                solutions.is_empty(),
                "failed with solutions: {domains:?} {kx:?} {ky:?}"
            );
            continue;
        }
        for (i, &b) in bits.iter().enumerate() {
            let kept: Vec<i32> = model.domain(b).iter().collect();
            let mut supported: Vec<i32> = solutions.iter().map(|t| t[i]).collect();
            supported.sort();
            supported.dedup();
            if solutions.is_empty() {
                continue; // no failure: sound, the check above is not reached
            }
            assert_eq!(
                kept, supported,
                "boolean {i} of {domains:?}, counts {kx:?} {ky:?}, strict {strict}"
            );
        }
    }
}

/// Under `--learn` the order gives the generic reason (the domains it read, the counts'
/// among them when it reads counts): each must hold before the run and imply its atom.
#[test]
fn set_order_reasons_imply_their_atoms() {
    for n in 1..=3 {
        for strict in [false, true] {
            let mut cfg = HarnessConfig::new(2 * n + 3, 0, 1, Consistency::Checking);
            cfg.first_ranges = vec![(0, n as i32), (0, n as i32), (0, 1)];
            cfg.trials = 200;
            cfg.seed = 40 + n as u64;
            let check = move |t: &[i32]| {
                let (x, y) = (&t[3..3 + n], &t[3 + n..]);
                let count = |s: &[i32]| s.iter().filter(|&&b| b == 1).count() as i32;
                // The counts are the model's `set_card` (read by the order, posted apart).
                count(x) == t[0] && count(y) == t[1] && (t[2] == 1) == set_order(x, y, strict)
            };
            check_explanations("set_order_reif_cards", &cfg, &check, &|v| {
                let order = SetOrder::reified(&v[3..3 + n], &v[3 + n..], strict, v[2], false);
                Box::new(order.with_cardinalities(Some(v[0]), Some(v[1])))
            });
            let plain = move |t: &[i32]| set_order(&t[3..3 + n], &t[3 + n..], strict);
            check_explanations("set_order", &cfg, &plain, &|v| {
                Box::new(SetOrder::new(&v[3..3 + n], &v[3 + n..], strict))
            });
        }
    }
}
