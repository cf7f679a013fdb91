//! The all-different propagators of the three levels (`alldiff/fast/value.rs`,
//! `alldiff/bounds.rs`, `alldiff/domain.rs`) against brute force with the exhaustive harness
//! of `engine::testing`, with offsets, wide domains and values near the ends of `i32`, each
//! at the consistency level its file claims.

use engine::propagators::alldiff::bounds::AllDifferentBounds;
use engine::propagators::alldiff::domain::AllDifferentDomain;
use engine::propagators::alldiff::fast::value::AllDifferentValue;
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{VarId, View};

/// The views `xs[i] + offsets[i]`.
fn shifted(xs: &[VarId], offsets: &[i32]) -> Vec<View> {
    xs.iter().zip(offsets).map(|(&x, &c)| x.plus(c)).collect()
}

fn all_different(shown: &[i64]) -> bool {
    (0..shown.len()).all(|i| (i + 1..shown.len()).all(|j| shown[i] != shown[j]))
}

#[test]
fn alldiff_value_is_sound_and_checking_with_offsets() {
    for arity in 2..=5 {
        let offsets: Vec<i32> = (0..arity as i32)
            .map(|i| if arity % 2 == 0 { i } else { -i })
            .collect();
        for offs in [vec![0; arity], offsets] {
            let o = offs.clone();
            let holds = move |t: &[i32]| {
                let shown: Vec<i32> = t.iter().zip(&o).map(|(v, c)| v + c).collect();
                (0..shown.len()).all(|i| (i + 1..shown.len()).all(|j| shown[i] != shown[j]))
            };
            let cfg = HarnessConfig::new(arity, 0, 4, Consistency::Checking);
            let o2 = offs.clone();
            check_propagator("alldiff_value", &cfg, &holds, &move |xs| {
                Box::new(AllDifferentValue::new(&shifted(xs, &o2)))
            });
        }
    }
}

/// Domains spanning more than 64 values (so not single-word), mixed with narrow ones: the
/// forward-checking all-different then tests membership with `contains_wide`.
#[test]
fn alldiff_value_is_sound_and_checking_on_wide_domains() {
    for arity in 2..=4 {
        let offsets: Vec<i32> = [0, 3, -3, 1][..arity].to_vec();
        let o = offsets.clone();
        let holds = move |t: &[i32]| {
            let shown: Vec<i32> = t.iter().zip(&o).map(|(v, c)| v + c).collect();
            (0..shown.len()).all(|i| (i + 1..shown.len()).all(|j| shown[i] != shown[j]))
        };
        let mut cfg = HarnessConfig::new(arity, -70, 70, Consistency::Checking);
        cfg.trials = 600;
        check_propagator("alldiff_value", &cfg, &holds, &move |xs| {
            Box::new(AllDifferentValue::new(&shifted(xs, &offsets)))
        });
    }
}

fn offsets_for(arity: usize, kind: usize) -> Vec<i32> {
    (0..arity as i32)
        .map(|i| match kind {
            0 => 0,
            1 => i,
            _ => -2 * i,
        })
        .collect()
}

#[test]
fn alldiff_bounds_is_bounds_consistent_with_offsets() {
    for arity in 1..=5 {
        for kind in 0..3 {
            let offs = offsets_for(arity, kind);
            let o = offs.clone();
            let holds = move |t: &[i32]| {
                let shown: Vec<i64> = t
                    .iter()
                    .zip(&o)
                    .map(|(&v, &c)| v as i64 + c as i64)
                    .collect();
                all_different(&shown)
            };
            let mut cfg = HarnessConfig::new(arity, 0, 5, Consistency::Bounds);
            cfg.trials = 250;
            cfg.seed = arity as u64 * 7 + kind as u64;
            let o = offs.clone();
            check_propagator(
                &format!("alldiff_bounds {offs:?}"),
                &cfg,
                &holds,
                &move |xs| Box::new(AllDifferentBounds::new(&shifted(xs, &o))),
            );
        }
    }
}

#[test]
fn alldiff_domain_is_domain_consistent_with_offsets() {
    for arity in 1..=5 {
        for kind in 0..3 {
            let offs = offsets_for(arity, kind);
            let o = offs.clone();
            let holds = move |t: &[i32]| {
                let shown: Vec<i64> = t
                    .iter()
                    .zip(&o)
                    .map(|(&v, &c)| v as i64 + c as i64)
                    .collect();
                all_different(&shown)
            };
            // Values 0..5 fit one word (the bitmask algorithm); values spread over -40..40
            // are sometimes wider than 64 (the general graph takes over mid-test).
            for (lo, hi) in [(0, 5), (-40, 40)] {
                let mut cfg = HarnessConfig::new(arity, lo, hi, Consistency::Domain);
                cfg.trials = 250;
                cfg.seed = arity as u64 * 13 + kind as u64;
                let o = offs.clone();
                check_propagator(
                    &format!("alldiff_domain {offs:?} in {lo}..{hi}"),
                    &cfg,
                    &holds,
                    &move |xs| Box::new(AllDifferentDomain::new(&shifted(xs, &o))),
                );
                let o = offs.clone();
                check_propagator(
                    &format!("alldiff_domain, general graph only, {offs:?} in {lo}..{hi}"),
                    &cfg,
                    &holds,
                    &move |xs| Box::new(AllDifferentDomain::general(&shifted(xs, &o))),
                );
            }
        }
    }
}

/// Tight units: as many values as variables, so that every value is matched and no value
/// is free. Régin's one-word algorithm then first asks whether the open variables form one
/// strongly connected component (`one_tight_component`: nothing to remove), which is the
/// common case in a Sudoku; this puts it against brute force where it is used.
#[test]
fn alldiff_domain_is_domain_consistent_on_tight_units() {
    for arity in 3..=7 {
        let holds = |t: &[i32]| {
            let shown: Vec<i64> = t.iter().map(|&v| v as i64).collect();
            all_different(&shown)
        };
        let mut cfg = HarnessConfig::new(arity, 0, arity as i32 - 1, Consistency::Domain);
        cfg.trials = 400;
        cfg.seed = 90 + arity as u64;
        let zero = vec![0; arity];
        check_propagator(
            &format!("alldiff_domain, tight, {arity} variables"),
            &cfg,
            &holds,
            &move |xs| Box::new(AllDifferentDomain::new(&shifted(xs, &zero))),
        );
    }
}

/// The one-word algorithm and the general value graph are two implementations of Régin's
/// filtering: on units too big for brute force (up to 20 variables, values up to 64 wide)
/// they must prune to exactly the same domains, node after node down a random dive.
#[test]
fn alldiff_domain_word_and_general_graph_prune_alike() {
    use engine::{Model, VarId};
    let mut rng = Rng::new(2026);
    for case in 0..400 {
        let n = 2 + rng.below(19) as usize;
        // Mostly tight units (few more values than variables, where matching matters),
        // sometimes up to the full 64-value word.
        let slack = if case % 4 == 0 { 64 - n as u64 } else { 3 };
        let span = n as i32 + rng.below(slack + 1) as i32 - 1;
        let keep_one_in = 2 + rng.below(3);
        let offsets: Vec<i32> = (0..n)
            .map(|i| if case % 3 == 0 { i as i32 % 3 } else { 0 })
            .collect();
        // The same random domains in two models, one per implementation.
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                let mut values: Vec<i32> =
                    (0..=span).filter(|_| rng.below(keep_one_in) != 0).collect();
                if values.is_empty() {
                    values.push(rng.below(span as u64 + 1) as i32);
                }
                values
            })
            .collect();
        let build = |general: bool| {
            let mut m = Model::new();
            let xs: Vec<VarId> = domains.iter().map(|d| m.new_var_from_values(d)).collect();
            m.post(if general {
                Box::new(AllDifferentDomain::general(&shifted(&xs, &offsets)))
            } else {
                Box::new(AllDifferentDomain::new(&shifted(&xs, &offsets)))
            });
            (m, xs)
        };
        let (mut word, xs) = build(false);
        let (mut graph, _) = build(true);
        let shown = |m: &Model| -> Vec<Vec<i32>> {
            xs.iter().map(|&x| m.domain(x).values().to_vec()).collect()
        };
        for step in 0..12 {
            let a = word.propagate();
            let b = graph.propagate();
            assert_eq!(a.is_ok(), b.is_ok(), "case {case} step {step}: one failed");
            if a.is_err() {
                break;
            }
            assert_eq!(shown(&word), shown(&graph), "case {case} step {step}");
            // Dive: remove a random value of a random unfixed variable from both.
            let open: Vec<VarId> = xs.iter().copied().filter(|&x| !word.is_fixed(x)).collect();
            if open.is_empty() {
                break;
            }
            let x = open[rng.below(open.len() as u64) as usize];
            let values = word.domain(x).values();
            let v = values[rng.below(values.len() as u64) as usize];
            let _ = (word.checkpoint(), graph.checkpoint());
            if rng.below(2) == 0 {
                word.fix(x, v).unwrap();
                graph.fix(x, v).unwrap();
            } else {
                word.remove(x, v).unwrap();
                graph.remove(x, v).unwrap();
            }
        }
    }
}

#[test]
fn alldiff_levels_survive_extreme_values_and_offsets() {
    // Shown values x + offset beyond the i32 range are computed in i64.
    for arity in 2..=4 {
        let offs: Vec<i32> = (0..arity as i32).map(|i| i * 3 - 3).collect();
        let o = offs.clone();
        let holds = move |t: &[i32]| {
            let shown: Vec<i64> = t
                .iter()
                .zip(&o)
                .map(|(&v, &c)| v as i64 + c as i64)
                .collect();
            all_different(&shown)
        };
        for (lo, hi) in [(i32::MAX - 5, i32::MAX), (i32::MIN, i32::MIN + 5)] {
            let cfg_b = HarnessConfig::new(arity, lo, hi, Consistency::Bounds);
            let o = offs.clone();
            check_propagator("alldiff_bounds extreme", &cfg_b, &holds, &move |xs| {
                Box::new(AllDifferentBounds::new(&shifted(xs, &o)))
            });
            let cfg_d = HarnessConfig::new(arity, lo, hi, Consistency::Domain);
            let o = offs.clone();
            check_propagator("alldiff_domain extreme", &cfg_d, &holds, &move |xs| {
                Box::new(AllDifferentDomain::new(&shifted(xs, &o)))
            });
        }
    }
}
