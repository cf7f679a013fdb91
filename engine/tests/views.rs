//! Views (`engine/src/view.rs`): propagators posted on `a·x + b` instead of `x` (the
//! relations `=`, `≠`, `≤`, reification, all-different, and linear terms folded when
//! posted), against brute force with the exhaustive harness of `engine::testing`. The check
//! reads the variables' values and maps them through the same affine maps, in `i64`: a view
//! that rounds a bound the wrong way, forgets that a negative scale swaps min and max, or
//! clamps a value past the `i32` range removes a solution or misses a pruning, and the
//! harness says which.

use engine::propagators::linear::{fold_views, post_linear, Relation};
use engine::propagators::linear_domain::LinearEqDomain;
use engine::propagators::reify::Reify;
use engine::propagators::relations::{Compare, EqualOffset};
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

// ----- all-different on views -------------------------------------------------------------

/// No two of the shown values equal.
fn all_shown_different(maps: &[(i32, i32)], t: &[i32]) -> bool {
    let shown: Vec<i64> = t.iter().zip(maps).map(|(&v, &m)| show(m, v)).collect();
    (0..shown.len()).all(|i| (i + 1..shown.len()).all(|j| shown[i] != shown[j]))
}

/// Map lists for all-different: negations, scales of both signs, offsets.
fn alldiff_maps() -> Vec<Vec<(i32, i32)>> {
    vec![
        vec![(1, 0), (-1, 0), (1, 2)],
        vec![(-1, 3), (-1, 0), (-1, -2), (1, 0)],
        vec![(2, 0), (-2, 1), (1, 0), (3, -1)],
        vec![(-3, 0), (2, 5), (-1, 1), (1, -4), (2, 0)],
    ]
}

/// Each all-different level with the consistency it claims on `maps`: the value level only
/// checks, and bounds(Z) holds only for scales ±1 (a scale of 2 shows every other value, so
/// the Hall intervals of the shown values are not those of the variables).
fn claimed_levels(maps: &[(i32, i32)]) -> [(engine::AllDiffLevel, Consistency); 3] {
    use engine::AllDiffLevel;
    let unit_scales = maps.iter().all(|&(a, _)| a == 1 || a == -1);
    let bounds = if unit_scales {
        Consistency::Bounds
    } else {
        Consistency::Checking
    };
    [
        (AllDiffLevel::Value, Consistency::Checking),
        (AllDiffLevel::Bounds, bounds),
        (AllDiffLevel::Domain, Consistency::Domain),
    ]
}

/// The reference lane (`alldiff/reference.rs`) at each level, on views of any shape: sound,
/// checking, and as strong as it claims on the values the views show ([`claimed_levels`]).
#[test]
fn the_reference_all_different_on_views_is_as_strong_as_it_claims() {
    use engine::propagators::alldiff::reference::AllDifferentReference;
    for maps in alldiff_maps() {
        for (level, consistency) in claimed_levels(&maps) {
            let cfg = config(maps.len(), -2, 3, consistency, false);
            let (m1, m2) = (maps.clone(), maps.clone());
            check_propagator(
                &format!("reference {level} on {maps:?}"),
                &cfg,
                &move |t| all_shown_different(&m1, t),
                &move |xs| {
                    let views: Vec<View> = xs.iter().zip(&m2).map(|(&x, &m)| view(x, m)).collect();
                    Box::new(AllDifferentReference::new(&views, level))
                },
            );
        }
    }
}

/// The propagators the model posts for views that are not `x + c`: the plain value level
/// (`alldiff/value.rs`), Hall intervals (`bounds.rs`) and Régin on the general value graph
/// (`domain.rs`, `value_graph.rs`), against brute force.
#[test]
fn all_different_on_views_of_any_shape_at_each_level() {
    use engine::propagators::alldiff::new_all_different;
    for maps in alldiff_maps() {
        for (level, consistency) in claimed_levels(&maps) {
            for wide in [false, true] {
                let cfg = config(maps.len(), -2, 3, consistency, wide);
                let (m1, m2) = (maps.clone(), maps.clone());
                check_propagator(
                    &format!("{level} on {maps:?}, wide {wide}"),
                    &cfg,
                    &move |t| all_shown_different(&m1, t),
                    &move |xs| {
                        let views: Vec<View> =
                            xs.iter().zip(&m2).map(|(&x, &m)| view(x, m)).collect();
                        new_all_different(&views, level)
                    },
                );
            }
        }
    }
}

/// Views whose shown values lie past the ends of `i32` (the variables near `i32::MAX`, the
/// views adding or negating): the all-different works on the shown values in `i64`.
#[test]
fn all_different_on_views_near_the_ends_of_i32() {
    use engine::propagators::alldiff::new_all_different;
    use engine::AllDiffLevel;
    let maps = vec![(1, i32::MAX), (-1, 0), (1, -5), (-1, i32::MIN + 1)];
    for (lo, hi) in [(i32::MAX - 7, i32::MAX - 1), (i32::MIN + 1, i32::MIN + 7)] {
        for (level, consistency) in [
            (AllDiffLevel::Value, Consistency::Checking),
            (AllDiffLevel::Bounds, Consistency::Bounds),
            (AllDiffLevel::Domain, Consistency::Domain),
        ] {
            let cfg = config(maps.len(), lo, hi, consistency, false);
            let (m1, m2) = (maps.clone(), maps.clone());
            check_propagator(
                &format!("{level} near the ends, {lo}..{hi}"),
                &cfg,
                &move |t| all_shown_different(&m1, t),
                &move |xs| {
                    let views: Vec<View> = xs.iter().zip(&m2).map(|(&x, &m)| view(x, m)).collect();
                    new_all_different(&views, level)
                },
            );
        }
    }
}

/// The one entry point picks the propagator by the shape of the views: consecutive Sudoku
/// units become one `alldiff_units`, n-queens' three families one `alldiff_value_family`,
/// anything posted in between ends the gathering, and views of other shapes get the plain
/// propagators.
#[test]
fn the_model_chooses_the_lane_by_the_shape_of_the_views() {
    use engine::{AllDiffLevel, Model};
    let kinds = |m: &Model| -> Vec<(&'static str, u64)> {
        (m.profile().by_kind.iter())
            .map(|(&name, c)| (name, c.instances))
            .collect()
    };
    // A 4×4 Latin square: eight units, one propagator.
    let mut m = Model::new();
    let x = m.new_vars(16, 1, 4);
    for i in 0..4 {
        let row: Vec<VarId> = (0..4).map(|j| x[i * 4 + j]).collect();
        let column: Vec<VarId> = (0..4).map(|j| x[j * 4 + i]).collect();
        m.all_different(&row, AllDiffLevel::Domain);
        m.all_different(&column, AllDiffLevel::Domain);
    }
    assert_eq!(kinds(&m), [("alldiff_units", 1)]);
    assert_eq!(m.num_propagators(), 1);
    // 6-queens: rows and diagonals, one family; a constraint posted in between splits it.
    let mut m = Model::new();
    let q = m.new_vars(6, 0, 5);
    let up: Vec<View> = (0..6).map(|i| q[i].plus(i as i32)).collect();
    let down: Vec<View> = (0..6).map(|i| q[i].plus(-(i as i32))).collect();
    m.all_different(&q, AllDiffLevel::Value);
    m.all_different(&up, AllDiffLevel::Value);
    m.all_different(&down, AllDiffLevel::Value);
    assert_eq!(kinds(&m), [("alldiff_value_family", 1)]);
    m.less_equal(q[0], q[1]);
    m.all_different(&up, AllDiffLevel::Value);
    assert_eq!(m.num_propagators(), 3);
    // Views that are not `x + c`: the plain propagators, each its own.
    let mut m = Model::new();
    let y = m.new_vars(3, 0, 5);
    let mirrored: Vec<View> = vec![y[0].into(), y[1].neg(), y[2].times(2)];
    m.all_different(&mirrored, AllDiffLevel::Value);
    m.all_different(&mirrored, AllDiffLevel::Value);
    assert_eq!(kinds(&m), [("alldiff_forward_checking", 2)]);
    // And the counts are those of brute force: y0, −y1, 2·y2 all different over 0..=5.
    let solutions = engine::count(&mut m, &engine::SearchConfig::default()).solutions;
    let brute = (0..6)
        .flat_map(|a| (0..6).flat_map(move |b| (0..6).map(move |c| [a, -b, 2 * c])))
        .filter(|t| t[0] != t[1] && t[0] != t[2] && t[1] != t[2])
        .count() as u64;
    assert_eq!(solutions, brute);
}

#[test]
fn equal_on_views_is_domain_consistent() {
    for mx in MAPS {
        for my in MAPS {
            for wide in [false, true] {
                let cfg = config(2, -3, 4, Consistency::Domain, wide);
                check_propagator(
                    &format!("{mx:?}·x = {my:?}·y (intervals: {wide})"),
                    &cfg,
                    &move |t| show(mx, t[0]) == show(my, t[1]),
                    &move |xs| Box::new(EqualOffset::views(view(xs[0], mx), view(xs[1], my))),
                );
            }
        }
    }
}

/// `x = y` on views whose shown values pass the ends of `i32`: no clamping either.
#[test]
fn equal_on_views_near_the_ends_of_i32() {
    let maps = [
        (1, 0),
        (-1, 0),
        (1, i32::MAX),
        (-1, i32::MIN + 1),
        (2, -5),
        (-2, 7),
    ];
    for (lo, hi) in [(i32::MAX - 7, i32::MAX - 1), (i32::MIN, i32::MIN + 6)] {
        for wide in [false, true] {
            for mx in maps {
                for my in maps {
                    let cfg = config(2, lo, hi, Consistency::Domain, wide);
                    check_propagator(
                        &format!("{mx:?}·x = {my:?}·y over {lo}..={hi}"),
                        &cfg,
                        &move |t| show(mx, t[0]) == show(my, t[1]),
                        &move |xs| Box::new(EqualOffset::views(view(xs[0], mx), view(xs[1], my))),
                    );
                }
            }
        }
    }
}

/// Coefficients of both signs on views of every shape in `MAPS`, three terms.
fn linear_view_cases() -> Vec<[(i64, (i32, i32)); 3]> {
    let coefficients = [1, -1, 2, -3];
    let mut cases = Vec::new();
    for (i, &m0) in MAPS.iter().enumerate() {
        let m1 = MAPS[(i + 2) % MAPS.len()];
        let m2 = MAPS[(i + 5) % MAPS.len()];
        let k = |j: usize| coefficients[(i + j) % coefficients.len()];
        cases.push([(k(0), m0), (k(1), m1), (k(3), m2)]);
    }
    // Unit folded coefficients (offsets and negations only), where bounds are exact.
    cases.push([(1, (1, 3)), (-1, (-1, -2)), (1, (-1, 0))]);
    cases.push([(-1, (1, 0)), (1, (1, -4)), (-1, (-1, 2))]);
    cases
}

/// `Σ kᵢ·(aᵢ·xᵢ + bᵢ)` for the values `t`, in `i64`.
fn linear_value(terms: &[(i64, (i32, i32))], t: &[i32]) -> i64 {
    terms
        .iter()
        .zip(t)
        .map(|(&(k, m), &v)| k * show(m, v))
        .sum()
}

/// The plain terms and right-hand side of `Σ kᵢ·viewᵢ rel rhs` on `xs`.
fn folded(terms: &[(i64, (i32, i32))], xs: &[VarId], rhs: i64) -> (Vec<(i64, VarId)>, i64) {
    let views: Vec<(i64, View)> = terms
        .iter()
        .zip(xs)
        .map(|(&(k, m), &x)| (k, view(x, m)))
        .collect();
    let (plain, constant) = fold_views(&views).expect("small numbers fold");
    (plain, rhs - constant)
}

#[test]
fn linear_on_views_is_bounds_consistent() {
    for terms in linear_view_cases() {
        // The algorithm reaches bounds(R) consistency; with unit coefficients once folded
        // that is bounds(Z), which the harness checks. Otherwise it checks soundness only.
        let unit = terms.iter().all(|&(k, (a, _))| (k * a as i64).abs() == 1);
        let level = if unit {
            Consistency::Bounds
        } else {
            Consistency::Checking
        };
        for (rel, rhs) in [(Relation::Eq, 3), (Relation::Le, -2), (Relation::Ge, 5)] {
            let cfg = config(3, -2, 3, level, false);
            check_propagator(
                &format!("linear {terms:?} {rel:?} {rhs}"),
                &cfg,
                &move |t| {
                    let sum = linear_value(&terms, t);
                    match rel {
                        Relation::Eq => sum == rhs,
                        Relation::Le => sum <= rhs,
                        Relation::Ge => sum >= rhs,
                        Relation::Ne => sum != rhs,
                    }
                },
                &move |xs| {
                    let (plain, rhs) = folded(&terms, xs, rhs);
                    post_linear(&plain, rel, rhs).pop().unwrap()
                },
            );
        }
    }
}

#[test]
fn linear_not_equal_on_views_is_checking_and_sound() {
    for terms in linear_view_cases() {
        let cfg = config(3, -2, 3, Consistency::Checking, false);
        check_propagator(
            &format!("linear {terms:?} != 1"),
            &cfg,
            &move |t| linear_value(&terms, t) != 1,
            &move |xs| {
                let (plain, rhs) = folded(&terms, xs, 1);
                post_linear(&plain, Relation::Ne, rhs).pop().unwrap()
            },
        );
    }
}

#[test]
fn linear_equality_by_supports_on_views_is_domain_consistent() {
    for terms in linear_view_cases() {
        let cfg = config(3, -2, 3, Consistency::Domain, false);
        check_propagator(
            &format!("linear_domain {terms:?} = 4"),
            &cfg,
            &move |t| linear_value(&terms, t) == 4,
            &move |xs| {
                let views: Vec<(i64, View)> = terms
                    .iter()
                    .zip(xs)
                    .map(|(&(k, m), &x)| (k, view(x, m)))
                    .collect();
                Box::new(LinearEqDomain::from_views(&views, 4).expect("small numbers fold"))
            },
        );
    }
}

/// The model's forms on views: `equal`, `linear_views` and `linear_domain_views` find
/// exactly the solutions brute force finds, and a folding that leaves `i64` is refused.
#[test]
fn the_model_posts_relations_and_sums_on_views() {
    use engine::{Model, SearchConfig};
    let count = |build: &dyn Fn(&mut Model, &[VarId])| {
        let mut m = Model::new();
        let xs: Vec<VarId> = m.new_vars(3, -3, 4);
        build(&mut m, &xs);
        engine::count(&mut m, &SearchConfig::default()).solutions
    };
    let brute = |check: &dyn Fn(&[i32]) -> bool| {
        engine::testing::solutions(&vec![(-3..=4).collect::<Vec<i32>>(); 3], check).len() as u64
    };
    // 2x = 1 − y, and −x + 3·(2y − 1) − 2·(−z + 4) = 1.
    let terms = |xs: &[VarId]| {
        vec![
            (-1, xs[0].into()),
            (3, xs[1].times(2).plus(-1)),
            (-2, xs[2].neg().plus(4)),
        ]
    };
    let holds = |t: &[i32]| {
        2 * t[0] as i64 == 1 - t[1] as i64
            && -(t[0] as i64) + 3 * (2 * t[1] as i64 - 1) - 2 * (-(t[2] as i64) + 4) == 1
    };
    let expected = brute(&holds);
    assert!(expected > 0);
    for domain_level in [false, true] {
        let found = count(&|m, xs| {
            m.equal(xs[0].times(2), xs[1].neg().plus(1));
            if domain_level {
                m.linear_domain_views(&terms(xs), 1);
            } else {
                m.linear_views(&terms(xs), Relation::Eq, 1);
            }
        });
        assert_eq!(found, expected, "domain level: {domain_level}");
    }
    let mut m = Model::new();
    let x = m.new_var(0, 1);
    assert!(
        !m.linear_views_fits(&[(i64::MAX, x.plus(2))], 0),
        "k·b leaves i64"
    );
    assert!(
        !m.linear_views_fits(&[(i64::MAX / 2, x.times(3))], 0),
        "k·a leaves i64"
    );
    assert!(m.linear_views_fits(&[(5, x.times(-3).plus(7))], 1));
}
