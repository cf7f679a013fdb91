//! The all-different reference lane (`alldiff/reference.rs`) and everything tested against it.
//!
//! 1. The reference itself against brute force, at each level, with the exhaustive harness:
//!    sound, checking, and as strong as it claims (value: checking; bounds: bounds(Z);
//!    domain: domain consistency).
//! 2. Every fast all-different against the reference, on instances too large for brute
//!    force, at the sizes they are used at (9×9 and 16×16 Sudoku units, n-queens offsets,
//!    random units): identical domains (or both failed) after every propagation of random
//!    dives with backtracking. Each local consistency has one greatest fixpoint, so two
//!    correct propagators of one level must agree exactly; the reference shares no code with
//!    the fast lane (no bit tricks, no word matching, no value graph).

use engine::propagators::alldiff::domain::AllDifferentDomain;
use engine::propagators::alldiff::fast::units::AllDifferentUnits;
use engine::propagators::alldiff::fast::value::AllDifferentValue;
use engine::propagators::alldiff::reference::AllDifferentReference;
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{AllDiffLevel, Model, VarId, View};

/// The views `xs[i] + offsets[i]`.
fn shifted(xs: &[VarId], offsets: &[i32]) -> Vec<View> {
    xs.iter().zip(offsets).map(|(&x, &c)| x.plus(c)).collect()
}

fn distinct_shifted(t: &[i32], offsets: &[i32]) -> bool {
    (0..t.len()).all(|a| {
        (a + 1..t.len()).all(|b| t[a] as i64 + offsets[a] as i64 != t[b] as i64 + offsets[b] as i64)
    })
}

#[test]
fn the_reference_is_sound_checking_and_as_strong_as_it_claims() {
    let levels = [
        (AllDiffLevel::Value, Consistency::Checking),
        (AllDiffLevel::Bounds, Consistency::Bounds),
        (AllDiffLevel::Domain, Consistency::Domain),
    ];
    for (level, consistency) in levels {
        for (arity, offsets) in [
            (3, vec![0, 0, 0]),
            (4, vec![0, 0, 0, 0]),
            (4, vec![0, 1, 2, 3]),
            (5, vec![0, -1, 0, 2, 0]),
        ] {
            let mut cfg = HarnessConfig::new(arity, 0, 5, consistency);
            cfg.trials = 200;
            let name = format!("reference {level} offsets {offsets:?}");
            let check_offsets = offsets.clone();
            check_propagator(
                &name,
                &cfg,
                &move |t: &[i32]| distinct_shifted(t, &check_offsets),
                &move |xs: &[VarId]| {
                    Box::new(AllDifferentReference::new(&shifted(xs, &offsets), level))
                },
            );
        }
    }
}

/// Random domains over `lo..=hi` (each value kept with probability about 3/4, never empty).
fn random_domains(rng: &mut Rng, n: usize, lo: i32, hi: i32) -> Vec<Vec<i32>> {
    (0..n)
        .map(|_| {
            let mut values: Vec<i32> = (lo..=hi).filter(|_| rng.below(4) != 0).collect();
            if values.is_empty() {
                values.push(lo + rng.below((hi - lo + 1) as u64) as i32);
            }
            values
        })
        .collect()
}

/// How a model gets its all-differents: posted on the model's variables.
type Post<'a> = &'a dyn Fn(&mut Model, &[VarId]);

/// The fast and the reference models on the same domains: identical domains (or both
/// failed) after every propagation of a random dive.
fn agree_on_a_dive(
    case: &str,
    rng: &mut Rng,
    domains: &[Vec<i32>],
    fast: Post<'_>,
    reference: Post<'_>,
) {
    bracketed_on_a_dive(case, rng, domains, fast, reference, None);
}

/// The fast model between two references on the same domains, after every propagation of a
/// random dive (going down by fixing or removing a value and, now and then, back up): never
/// weaker than `weaker` (its domains inside the weaker reference's, and it fails whenever
/// that one fails) and, when `stronger` is given, never stronger than it (its domains
/// contain the stronger reference's, and it fails only when that one fails). With no
/// `stronger`, the weaker reference is matched exactly.
fn bracketed_on_a_dive(
    case: &str,
    rng: &mut Rng,
    domains: &[Vec<i32>],
    fast: Post<'_>,
    weaker: Post<'_>,
    stronger: Option<Post<'_>>,
) {
    let build = |post: Post<'_>| {
        let mut m = Model::new();
        let xs: Vec<VarId> = domains.iter().map(|d| m.new_var_from_values(d)).collect();
        post(&mut m, &xs);
        (m, xs)
    };
    let (fast_model, xs) = build(fast);
    let mut models = vec![fast_model, build(weaker).0];
    if let Some(stronger) = stronger {
        models.push(build(stronger).0);
    }
    let shown = |m: &Model| -> Vec<Vec<i32>> {
        xs.iter().map(|&x| m.domain(x).values().to_vec()).collect()
    };
    let contains = |big: &[Vec<i32>], small: &[Vec<i32>]| {
        big.iter()
            .zip(small)
            .all(|(b, s)| s.iter().all(|v| b.contains(v)))
    };
    let mut checkpoints: Vec<Vec<engine::model::Checkpoint>> = vec![Vec::new(); models.len()];
    for step in 0..30 {
        let ok: Vec<bool> = models.iter_mut().map(|m| m.propagate().is_ok()).collect();
        let [fast_ok, weaker_ok] = [ok[0], ok[1]];
        if models.len() == 2 {
            assert_eq!(fast_ok, weaker_ok, "{case} step {step}: only one failed");
            if fast_ok {
                assert_eq!(shown(&models[0]), shown(&models[1]), "{case} step {step}");
            }
        } else {
            let stronger_ok = ok[2];
            assert!(
                weaker_ok || !fast_ok,
                "{case} step {step}: weaker than the weaker reference"
            );
            assert!(
                fast_ok || !stronger_ok,
                "{case} step {step}: failed where the stronger reference does not"
            );
            if fast_ok {
                let f = shown(&models[0]);
                assert!(
                    contains(&shown(&models[1]), &f),
                    "{case} step {step}: a value the weaker reference removes is kept"
                );
                if stronger_ok {
                    assert!(
                        contains(&f, &shown(&models[2])),
                        "{case} step {step}: a supported value removed"
                    );
                }
            }
        }
        // Decide on the strongest model's domains, so the decision is possible in all.
        let guide = models.len() - 1;
        let all_ok = ok.iter().all(|&k| k);
        let open: Vec<VarId> = xs
            .iter()
            .copied()
            .filter(|&x| !models[guide].is_fixed(x))
            .collect();
        let depth = checkpoints[0].len();
        if !all_ok || open.is_empty() || (depth > 0 && rng.below(4) == 0) {
            if depth == 0 {
                return;
            }
            for (m, stack) in models.iter_mut().zip(&mut checkpoints) {
                m.rollback(stack.pop().unwrap());
            }
            continue;
        }
        let x = open[rng.below(open.len() as u64) as usize];
        let values = models[guide].domain(x).values();
        let v = values[rng.below(values.len() as u64) as usize];
        let fix = rng.below(2) == 0;
        for (m, stack) in models.iter_mut().zip(&mut checkpoints) {
            stack.push(m.checkpoint());
            let done = if fix { m.fix(x, v) } else { m.remove(x, v) };
            done.unwrap();
        }
    }
}

/// Rows, columns and (for a square order) boxes of an n×n grid, as indices into its cells.
fn grid_units(n: usize, box_side: Option<usize>) -> Vec<Vec<usize>> {
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..n {
        units.push((0..n).map(|c| r * n + c).collect());
        units.push((0..n).map(|c| c * n + r).collect());
    }
    if let Some(b) = box_side {
        for by in 0..b {
            for bx in 0..b {
                units.push(
                    (0..n)
                        .map(|k| (by * b + k / b) * n + bx * b + k % b)
                        .collect(),
                );
            }
        }
    }
    units
}

fn unit_vars(units: &[Vec<usize>], xs: &[VarId]) -> Vec<Vec<VarId>> {
    units
        .iter()
        .map(|u| u.iter().map(|&i| xs[i]).collect())
        .collect()
}

fn post_reference_units(m: &mut Model, units: &[Vec<VarId>], level: AllDiffLevel) {
    for unit in units {
        m.post(Box::new(AllDifferentReference::new(
            &shifted(unit, &vec![0; unit.len()]),
            level,
        )));
    }
}

#[test]
fn sudoku_units_at_every_level_prune_as_the_reference() {
    // 9×9 and 16×16 grids with random domains: the units family (domain level, one
    // propagator for all units), and one fast propagator per unit at each level.
    let mut rng = Rng::new(2026_11_25);
    for case in 0..24 {
        let (n, b) = if case % 3 == 2 { (16, 4) } else { (9, 3) };
        let units = grid_units(n, Some(b));
        let domains = random_domains(&mut rng, n * n, 1, n as i32);
        let reference_domain = |m: &mut Model, xs: &[VarId]| {
            post_reference_units(m, &unit_vars(&units, xs), AllDiffLevel::Domain)
        };
        let family = |m: &mut Model, xs: &[VarId]| {
            m.post(Box::new(
                AllDifferentUnits::new(&unit_vars(&units, xs), 1).unwrap(),
            ));
        };
        agree_on_a_dive(
            &format!("units {n}x{n} case {case}"),
            &mut rng,
            &domains,
            &family,
            &reference_domain,
        );
        for level in [
            AllDiffLevel::Value,
            AllDiffLevel::Bounds,
            AllDiffLevel::Domain,
        ] {
            let fast = |m: &mut Model, xs: &[VarId]| {
                for unit in unit_vars(&units, xs) {
                    m.all_different(&unit, level);
                }
            };
            let reference = |m: &mut Model, xs: &[VarId]| {
                post_reference_units(m, &unit_vars(&units, xs), level)
            };
            let name = format!("{level} {n}x{n} case {case}");
            agree_on_a_dive(&name, &mut rng, &domains, &fast, &reference);
        }
    }
}

#[test]
fn the_general_value_graph_and_the_word_matching_prune_as_the_reference() {
    // One domain-level all-different over 9 to 20 variables, with offsets, on value spans
    // that fit one word and spans that do not.
    let mut rng = Rng::new(77);
    for case in 0..150 {
        let n = 9 + rng.below(12) as usize;
        let offsets: Vec<i32> = (0..n).map(|_| rng.below(5) as i32 - 2).collect();
        let hi = if case % 3 == 0 {
            90
        } else {
            n as i32 + rng.below(4) as i32
        };
        let domains = random_domains(&mut rng, n, 0, hi);
        let reference = |m: &mut Model, xs: &[VarId]| {
            m.post(Box::new(AllDifferentReference::new(
                &shifted(xs, &offsets),
                AllDiffLevel::Domain,
            )));
        };
        let words = |m: &mut Model, xs: &[VarId]| {
            m.post(Box::new(AllDifferentDomain::new(&shifted(xs, &offsets))));
        };
        let general = |m: &mut Model, xs: &[VarId]| {
            m.post(Box::new(AllDifferentDomain::general(&shifted(
                xs, &offsets,
            ))));
        };
        agree_on_a_dive(
            &format!("words case {case}"),
            &mut rng,
            &domains,
            &words,
            &reference,
        );
        agree_on_a_dive(
            &format!("general case {case}"),
            &mut rng,
            &domains,
            &general,
            &reference,
        );
    }
}

#[test]
fn the_n_queens_offset_family_prunes_as_the_reference() {
    // Rows and both diagonals of n-queens over the same variables: the value-level family
    // (one propagator), and one fast propagator per family at each level.
    let mut rng = Rng::new(8);
    for case in 0..60 {
        let n = 6 + case % 9;
        let families: Vec<Vec<i32>> = vec![
            vec![0; n],
            (0..n as i32).collect(),
            (0..n as i32).map(|i| -i).collect(),
        ];
        let domains = random_domains(&mut rng, n, 0, n as i32 - 1);
        let families = &families;
        for level in [
            AllDiffLevel::Value,
            AllDiffLevel::Bounds,
            AllDiffLevel::Domain,
        ] {
            let fast = |m: &mut Model, xs: &[VarId]| {
                for constants in families {
                    m.all_different(&shifted(xs, constants), level);
                }
            };
            let reference = |level: AllDiffLevel| {
                move |m: &mut Model, xs: &[VarId]| {
                    for offsets in families {
                        m.post(Box::new(AllDifferentReference::new(
                            &shifted(xs, offsets),
                            level,
                        )));
                    }
                }
            };
            let name = format!("queens {n} {level} case {case}");
            if level == AllDiffLevel::Value {
                // The value-level family adds the pigeonhole rule on its constant family
                // (rows): at least forward checking, at most domain consistency.
                let (weaker, stronger) = (reference(level), reference(AllDiffLevel::Domain));
                bracketed_on_a_dive(&name, &mut rng, &domains, &fast, &weaker, Some(&stronger));
            } else {
                agree_on_a_dive(&name, &mut rng, &domains, &fast, &reference(level));
            }
        }
    }
}

#[test]
fn forward_checking_prunes_as_the_reference_in_both_store_layouts() {
    // `fast/value.rs` and `fast/offset_family.rs` run `fast/singles.rs`'s routine in two
    // layouts: one word per domain, for at most 64 positions, and domains of any width. From
    // 9 to 90 positions, on spans inside one word and wider, so that both layouts and the
    // switch between them (more than 64 positions on one-word domains) are crossed.
    let mut rng = Rng::new(2026);
    for case in 0..60 {
        let n = [9, 20, 64, 65, 90][case % 5];
        let hi = if case % 2 == 0 { 63 } else { n as i32 + 40 };
        // Offsets `i` spread the shown values, so that long dives stay feasible.
        let offsets: Vec<i32> = (0..n as i32)
            .map(|i| {
                if case % 3 == 0 {
                    i
                } else {
                    rng.below(5) as i32 - 2
                }
            })
            .collect();
        // Every fourth case, two or three values a domain: forward checking then fixes
        // variables in turn (a chain through the lane's queue of fixed positions).
        let domains = if case % 4 == 1 {
            (0..n)
                .map(|_| {
                    let mut d: Vec<i32> = (0..2 + rng.below(2))
                        .map(|_| rng.below(hi as u64 + 1) as i32)
                        .collect();
                    d.sort_unstable();
                    d.dedup();
                    d
                })
                .collect()
        } else {
            random_domains(&mut rng, n, 0, hi)
        };
        let reference = |offsets: &[Vec<i32>], level: AllDiffLevel| {
            let offsets = offsets.to_vec();
            move |m: &mut Model, xs: &[VarId]| {
                for o in &offsets {
                    m.post(Box::new(AllDifferentReference::new(&shifted(xs, o), level)));
                }
            }
        };
        let value = |m: &mut Model, xs: &[VarId]| {
            m.post(Box::new(AllDifferentValue::new(&shifted(xs, &offsets))));
        };
        let one = [offsets.clone()];
        agree_on_a_dive(
            &format!("value, {n} positions, case {case}"),
            &mut rng,
            &domains,
            &value,
            &reference(&one, AllDiffLevel::Value),
        );
        // Two families; the value-level family may add its pigeonhole rule, so it is held
        // between forward checking and domain consistency.
        let families = [offsets.clone(), offsets.iter().map(|o| -2 * o).collect()];
        let family = |m: &mut Model, xs: &[VarId]| {
            for constants in &families {
                m.all_different(&shifted(xs, constants), AllDiffLevel::Value);
            }
        };
        bracketed_on_a_dive(
            &format!("family, {n} positions, case {case}"),
            &mut rng,
            &domains,
            &family,
            &reference(&families, AllDiffLevel::Value),
            Some(&reference(&families, AllDiffLevel::Domain)),
        );
    }
}
