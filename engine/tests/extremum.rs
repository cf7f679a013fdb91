//! `z = max(x₁, …, xₙ)` and `z = min(x₁, …, xₙ)` in one propagator
//! (`engine/src/propagators/extremum.rs`, FlatZinc's `array_int_maximum` and
//! `array_int_minimum`) against brute force with the harness of `engine::testing`: bounds(Z)
//! consistency, as Gecode's, for every arity from 1 to 4, on bitsets and interval domains,
//! near the ends of `i32`, and with a variable written twice or `z` inside the array.

use engine::propagators::extremum::ArrayExtremum;
use engine::testing::{check_propagator, Consistency, HarnessConfig};

/// The maximum (or minimum) of `t[..n]` equals `t[n]`.
fn holds(maximum: bool, t: &[i32]) -> bool {
    let (xs, z) = t.split_at(t.len() - 1);
    let best = if maximum {
        xs.iter().max()
    } else {
        xs.iter().min()
    };
    best == Some(&z[0])
}

const WINDOWS: [(i32, i32); 3] = [
    (-3, 4),
    (i32::MAX - 7, i32::MAX - 1),
    (i32::MIN, i32::MIN + 6),
];

#[test]
fn array_extremum_is_bounds_consistent() {
    for maximum in [true, false] {
        for n in 1..=4 {
            for (lo, hi) in WINDOWS {
                for interval in [false, true] {
                    let mut cfg = HarnessConfig::new(n + 1, lo, hi, Consistency::Bounds);
                    cfg.interval_domains = interval;
                    cfg.trials = if n == 4 { 80 } else { 200 };
                    let name = format!("extremum max={maximum} n={n} [{lo}, {hi}] {interval}");
                    check_propagator(&name, &cfg, &|t| holds(maximum, t), &|vars| {
                        Box::new(ArrayExtremum::new(maximum, &vars[..n], vars[n]))
                    });
                }
            }
        }
    }
}

/// `max(x, y, x) = z`: `x` written twice is one candidate for the maximum, so when `y`
/// cannot reach `min z`, `x` is raised to it.
#[test]
fn a_variable_written_twice_is_one_candidate() {
    for maximum in [true, false] {
        let cfg = HarnessConfig::new(3, -3, 4, Consistency::Bounds);
        check_propagator(
            "extremum with a repeated variable",
            &cfg,
            &|t| holds(maximum, &[t[0], t[1], t[0], t[2]]),
            &|v| Box::new(ArrayExtremum::new(maximum, &[v[0], v[1], v[0]], v[2])),
        );
    }
}

/// `z = max(z, y)` is `y ≤ z` (`min`: `y ≥ z`).
#[test]
fn the_result_inside_the_array() {
    for maximum in [true, false] {
        let cfg = HarnessConfig::new(2, -3, 4, Consistency::Bounds);
        check_propagator(
            "extremum with z in the array",
            &cfg,
            &|t| holds(maximum, &[t[0], t[1], t[0]]),
            &|v| Box::new(ArrayExtremum::new(maximum, &[v[0], v[1]], v[0])),
        );
    }
}
