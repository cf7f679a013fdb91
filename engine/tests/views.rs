//! Views (`engine/src/view.rs`): propagators posted on `a·x + b` instead of `x`, against
//! brute force with the exhaustive harness of `engine::testing`. The check reads the
//! variables' values and maps them through the same affine maps, in `i64`: a view that
//! rounds a bound the wrong way, forgets that a negative scale swaps min and max, or
//! clamps a value past the `i32` range removes a solution or misses a pruning, and the
//! harness says which.

use engine::propagators::reify::Reify;
use engine::propagators::relations::Compare;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{VarId, View};

/// The view `scale·x + offset`.
fn view(x: VarId, (scale, offset): (i32, i32)) -> View {
    View::new(x, scale, offset).expect("a nonzero scale")
}

/// The value `scale·v + offset` shows.
fn show((scale, offset): (i32, i32), v: i32) -> i64 {
    scale as i64 * v as i64 + offset as i64
}

/// Maps to try: offsets, negation, scales of both signs, and compositions of them.
const MAPS: [(i32, i32); 7] = [(1, 0), (1, 3), (-1, 0), (-1, -2), (2, 1), (-3, 4), (3, -1)];

/// The harness on small domains, or on interval domains (`wide`), over `lo..=hi`.
fn config(arity: usize, lo: i32, hi: i32, consistency: Consistency, wide: bool) -> HarnessConfig {
    let mut cfg = HarnessConfig::new(arity, lo, hi, consistency);
    cfg.interval_domains = wide;
    cfg.trials = 120;
    cfg
}

#[test]
fn not_equal_on_views_is_domain_consistent() {
    for mx in MAPS {
        for my in MAPS {
            let cfg = config(2, -3, 4, Consistency::Domain, false);
            check_propagator(
                &format!("{mx:?}·x != {my:?}·y"),
                &cfg,
                &move |t| show(mx, t[0]) != show(my, t[1]),
                &move |xs| Box::new(Compare::not_equal(view(xs[0], mx), view(xs[1], my))),
            );
        }
    }
}

#[test]
fn less_equal_on_views_is_domain_consistent() {
    for mx in MAPS {
        for my in MAPS {
            let cfg = config(2, -3, 4, Consistency::Domain, false);
            check_propagator(
                &format!("{mx:?}·x <= {my:?}·y"),
                &cfg,
                &move |t| show(mx, t[0]) <= show(my, t[1]),
                &move |xs| Box::new(Compare::less_equal(view(xs[0], mx), view(xs[1], my))),
            );
        }
    }
}

/// Values at both ends of a domain's range (`i32::MAX` itself is not a value), and offsets that carry the shown values past them: the
/// views work in `i64` and never clamp (a bound past `i32` fails, or holds for every value).
#[test]
fn views_near_the_ends_of_i32_neither_overflow_nor_clamp() {
    let windows = [(i32::MAX - 7, i32::MAX - 1), (i32::MIN, i32::MIN + 6)];
    let maps = [
        (1, 0),
        (-1, 0),
        (1, i32::MAX),
        (1, i32::MIN),
        (-1, i32::MAX),
        (-1, i32::MIN + 1),
        (2, -5),
        (-2, 7),
    ];
    for (lo, hi) in windows {
        for wide in [false, true] {
            for mx in maps {
                for my in [(1, 0), (-1, 3), (1, -4)] {
                    let cfg = config(2, lo, hi, Consistency::Domain, wide);
                    check_propagator(
                        &format!("{mx:?}·x <= {my:?}·y in {lo}..{hi}"),
                        &cfg,
                        &move |t| show(mx, t[0]) <= show(my, t[1]),
                        &move |xs| Box::new(Compare::less_equal(view(xs[0], mx), view(xs[1], my))),
                    );
                    check_propagator(
                        &format!("{mx:?}·x != {my:?}·y in {lo}..{hi}"),
                        &cfg,
                        &move |t| show(mx, t[0]) != show(my, t[1]),
                        &move |xs| Box::new(Compare::not_equal(view(xs[0], mx), view(xs[1], my))),
                    );
                }
            }
        }
    }
}

#[test]
fn reification_on_views_is_domain_consistent() {
    for m in MAPS {
        for v in [-4, -1, 0, 3, 7] {
            let cfg = config(2, -3, 4, Consistency::Domain, false);
            check_propagator(
                &format!("b <-> {m:?}·x = {v}"),
                &cfg,
                &move |t| (t[0] == 0 || t[0] == 1) && (t[0] == 1) == (show(m, t[1]) == v as i64),
                &move |xs| Box::new(Reify::equal(xs[0], view(xs[1], m), v)),
            );
            check_propagator(
                &format!("b <-> {m:?}·x <= {v}"),
                &cfg,
                &move |t| (t[0] == 0 || t[0] == 1) && (t[0] == 1) == (show(m, t[1]) <= v as i64),
                &move |xs| Box::new(Reify::less_equal(xs[0], view(xs[1], m), v)),
            );
        }
    }
}

#[test]
fn a_composition_that_leaves_i32_is_refused() {
    let x = VarId(0);
    assert_eq!(x.plus(i32::MAX).checked_plus(1), None);
    assert_eq!(x.times(-1).plus(i32::MIN).checked_neg(), None);
    assert!(std::panic::catch_unwind(|| x.plus(i32::MIN).neg()).is_err());
    assert!(std::panic::catch_unwind(|| x.times(0)).is_err());
    // Within range, compositions are one map: −(2x + 1) = −2x − 1.
    let v = x.times(2).plus(1).neg();
    assert_eq!((v.scale(), v.offset()), (-2, -1));
}
