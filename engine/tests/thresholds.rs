//! `ReifiedThresholds` (`engine/src/propagators/thresholds.rs`): many `bₖ ⇔ x ≤ tₖ` of one
//! variable as one propagator. Checked against brute force (domain consistency, incremental
//! = reference, backtracking), its reasons checked for learning, and the two things its two
//! reversible positions must do: a ladder every rung of which is decided is not run again
//! below the node, and backtracking above the node undoes the decisions.

use engine::propagators::reified::{LinRel, ReifiedLinear};
use engine::propagators::thresholds::{ReifiedThresholds, Threshold};
use engine::rng::Rng;
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig, VarId};

/// A random ladder: `n` rungs, thresholds around `lo..=hi` (some beyond it), either sign;
/// `shared` makes two rungs share one `b` (then local variable indices repeat).
#[derive(Clone, Debug)]
struct Ladder {
    /// (threshold, index of b among the variables 1..; positive)
    rungs: Vec<(i64, usize, bool)>,
    /// Number of distinct b variables.
    bs: usize,
}

fn random_ladder(rng: &mut Rng, n: usize, lo: i32, hi: i32, shared: bool) -> Ladder {
    let bs = if shared && n > 1 { n - 1 } else { n };
    let rungs = (0..n)
        .map(|k| {
            let t = lo as i64 - 1 + rng.below((hi - lo + 3) as u64) as i64;
            let b = if k < bs {
                k
            } else {
                rng.below(bs as u64) as usize
            };
            (t, b, rng.below(2) == 0)
        })
        .collect();
    Ladder { rungs, bs }
}

impl Ladder {
    fn holds(&self, t: &[i32]) -> bool {
        let x = t[0] as i64;
        self.rungs.iter().all(|&(at_most, b, positive)| {
            let value = t[1 + b];
            (value == 0 || value == 1) && (value == 1) == ((x <= at_most) == positive)
        })
    }
    fn make(&self, xs: &[VarId]) -> ReifiedThresholds {
        let thresholds = (self.rungs.iter())
            .map(|&(at_most, b, positive)| Threshold {
                at_most,
                b: xs[1 + b],
                positive,
            })
            .collect();
        ReifiedThresholds::new(xs[0], thresholds)
    }
    fn config(&self, lo: i32, hi: i32, seed: u64, consistency: Consistency) -> HarnessConfig {
        let mut cfg = HarnessConfig::new(1 + self.bs, lo, hi, consistency);
        cfg.first_ranges = std::iter::once((lo, hi))
            .chain(std::iter::repeat_n((0, 1), self.bs))
            .collect();
        cfg.seed = seed;
        cfg.trials = 60;
        cfg.steps = 6;
        cfg
    }
}

#[test]
fn thresholds_are_domain_consistent_and_incremental_runs_equal_the_reference() {
    let mut rng = Rng::new(7);
    for round in 0..40 {
        let n = 1 + round % 5;
        let shared = round % 3 == 2;
        let (lo, hi) = if round % 2 == 0 { (-3, 6) } else { (0, 9) };
        let ladder = random_ladder(&mut rng, n, lo, hi, shared);
        // Two rungs on one `b` (b ⇔ x ≤ 5 and b ⇔ x > 8) make `x` a union: not domain
        // consistent, as neither are the separate propagators.
        let level = if shared {
            Consistency::Checking
        } else {
            Consistency::Domain
        };
        let cfg = ladder.config(lo, hi, 100 + round as u64, level);
        check_propagator(
            &format!("thresholds {ladder:?}"),
            &cfg,
            &|t| ladder.holds(t),
            &|xs| Box::new(ladder.make(xs)),
        );
    }
}

#[test]
fn thresholds_on_interval_domains_reach_the_same_fixpoint() {
    let mut rng = Rng::new(11);
    for round in 0..20 {
        let shared = round % 4 == 3;
        let ladder = random_ladder(&mut rng, 1 + round % 4, -4, 5, shared);
        let level = if shared {
            Consistency::Checking
        } else {
            Consistency::Domain
        };
        let mut cfg = ladder.config(-4, 5, 300 + round as u64, level);
        cfg.interval_domains = true;
        check_propagator(
            &format!("thresholds on intervals {ladder:?}"),
            &cfg,
            &|t| ladder.holds(t),
            &|xs| Box::new(ladder.make(xs)),
        );
    }
}

#[test]
fn thresholds_explain_their_atoms_and_failures() {
    let mut rng = Rng::new(13);
    let mut precise = 0;
    for round in 0..30 {
        let ladder = random_ladder(&mut rng, 1 + round % 5, -2, 5, round % 5 == 4);
        let cfg = ladder.config(-2, 5, 500 + round as u64, Consistency::Checking);
        let stats = check_explanations(
            &format!("thresholds {ladder:?}"),
            &cfg,
            &|t| ladder.holds(t),
            &|xs| Box::new(ladder.make(xs)),
        );
        precise += stats.precise;
    }
    assert!(precise > 0, "no reason was given by the propagator itself");
}

/// `x ∈ 0..=20` and `bₖ ⇔ x ≤ tₖ` for `t = 2, 5, 8, 11, 14`: the model, its `b`s.
fn five_rungs() -> (Model, VarId, Vec<VarId>) {
    let mut m = Model::new();
    let x = m.new_var(0, 20);
    let bs: Vec<VarId> = (0..5).map(|_| m.new_bool()).collect();
    let thresholds = (bs.iter().enumerate())
        .map(|(k, &b)| Threshold::at_most(b, 2 + 3 * k as i64))
        .collect();
    m.reified_thresholds(x, thresholds);
    m.propagate().unwrap();
    (m, x, bs)
}

fn values(m: &Model, bs: &[VarId]) -> Vec<Option<i32>> {
    bs.iter()
        .map(|&b| m.is_fixed(b).then(|| m.value(b)))
        .collect()
}

#[test]
fn a_ladder_decided_everywhere_is_not_run_again_below_the_node() {
    let (mut m, x, bs) = five_rungs();
    let node = m.checkpoint();
    m.set_min(x, 9).unwrap();
    m.set_max(x, 12).unwrap();
    m.propagate().unwrap();
    assert_eq!(values(&m, &bs), [Some(0), Some(0), Some(0), None, Some(1)]);
    m.set_max(x, 11).unwrap();
    m.propagate().unwrap();
    assert_eq!(
        values(&m, &bs),
        [Some(0), Some(0), Some(0), Some(1), Some(1)]
    );
    // Every rung decided: further bounds of `x` do not run it.
    let runs = m.propagations();
    m.set_min(x, 10).unwrap();
    m.propagate().unwrap();
    m.set_max(x, 10).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.propagations(), runs, "a decided ladder was run again");
    m.rollback(node);
    assert_eq!(values(&m, &bs), [None; 5]);
}

#[test]
fn backtracking_undoes_what_the_ladder_decided() {
    let (mut m, x, bs) = five_rungs();
    let node = m.checkpoint();
    m.set_min(x, 15).unwrap();
    m.propagate().unwrap();
    assert_eq!(values(&m, &bs), [Some(0); 5]);
    m.rollback(node);
    // Back at the node: every rung is open again, and the other side decides them now.
    m.set_max(x, 4).unwrap();
    m.propagate().unwrap();
    assert_eq!(values(&m, &bs), [None, Some(1), Some(1), Some(1), Some(1)]);
    m.fix(bs[0], 0).unwrap();
    m.propagate().unwrap();
    assert_eq!((m.min(x), m.max(x)), (3, 4));
}

/// The same counts as the separate propagators of `reified.rs`, over whole searches (every
/// node backtracked), on random ladders with a sum over the `b`s.
#[test]
fn searches_count_the_same_solutions_as_the_separate_propagators() {
    let mut rng = Rng::new(17);
    for round in 0..30 {
        let ladder = random_ladder(&mut rng, 2 + round % 6, 0, 12, round % 4 == 3);
        let k = rng.below(ladder.bs as u64 + 1) as i64;
        let count = |gathered: bool| {
            let mut m = Model::new();
            let x = m.new_var_from_values(&[0, 1, 3, 4, 5, 7, 8, 10, 11, 12]);
            let bs: Vec<VarId> = (0..ladder.bs).map(|_| m.new_bool()).collect();
            let mut xs = vec![x];
            xs.extend(&bs);
            if gathered {
                m.post(Box::new(ladder.make(&xs)));
            } else {
                for &(t, b, positive) in &ladder.rungs {
                    // b ⇔ x ≤ t, or b ⇔ x ≥ t + 1 (−x ≤ −t − 1).
                    let (a, c) = if positive { (1, t) } else { (-1, -t - 1) };
                    m.post(Box::new(ReifiedLinear::new(
                        bs[b],
                        &[(a, x)],
                        LinRel::Le,
                        c,
                        false,
                    )));
                }
            }
            let terms: Vec<(i64, VarId)> = bs.iter().map(|&b| (1, b)).collect();
            m.linear(&terms, engine::Relation::Le, k);
            let out = engine::count(&mut m, &SearchConfig::default());
            (out.solutions, out.stats.nodes)
        };
        assert_eq!(count(true), count(false), "{ladder:?}, Σb ≤ {k}");
    }
}

/// In the degree heuristics (`occurrence`, dom/wdeg) the ladder weighs as the separate
/// propagators it replaces: on `x` one per undecided rung, on a `b` one while its rung is
/// undecided, at the root and after bounds of `x` decide some rungs.
#[test]
fn a_ladder_weighs_in_the_degree_as_its_separate_rungs() {
    let build = |gathered: bool| {
        let mut m = Model::new();
        let x = m.new_var(0, 20);
        let bs: Vec<VarId> = (0..5).map(|_| m.new_bool()).collect();
        let rungs: Vec<(i64, bool)> = (0..5).map(|k| (2 + 3 * k as i64, k % 2 == 0)).collect();
        if gathered {
            let thresholds = (rungs.iter().zip(&bs))
                .map(|(&(t, positive), &b)| Threshold {
                    at_most: t,
                    b,
                    positive,
                })
                .collect();
            m.reified_thresholds(x, thresholds);
        } else {
            for (&(t, positive), &b) in rungs.iter().zip(&bs) {
                let (a, c) = if positive { (1, t) } else { (-1, -t - 1) };
                m.post(Box::new(ReifiedLinear::new(
                    b,
                    &[(a, x)],
                    LinRel::Le,
                    c,
                    false,
                )));
            }
        }
        m.propagate().unwrap();
        (m, x, bs)
    };
    let degrees = |m: &Model, x: VarId, bs: &[VarId]| {
        let mut d = vec![(m.degree(x), m.weighted_degree(x), m.afc(x))];
        d.extend(
            bs.iter()
                .map(|&b| (m.degree(b), m.weighted_degree(b), m.afc(b))),
        );
        d
    };
    let (mut ladder, lx, lbs) = build(true);
    let (mut separate, sx, sbs) = build(false);
    assert_eq!(degrees(&ladder, lx, &lbs), degrees(&separate, sx, &sbs));
    assert_eq!(ladder.degree(lx), 5);
    for (lo, hi) in [(3, 20), (3, 13), (9, 10)] {
        for (m, x) in [(&mut ladder, lx), (&mut separate, sx)] {
            m.set_min(x, lo).unwrap();
            m.set_max(x, hi).unwrap();
            m.propagate().unwrap();
        }
        assert_eq!(
            degrees(&ladder, lx, &lbs),
            degrees(&separate, sx, &sbs),
            "x in {lo}..={hi}"
        );
    }
    // After a failure (of the ladder, of the first rung alone), a decided rung's `b` weighs
    // nothing, as its entailed separate propagator does; the failure counts on the open ones.
    let (mut ladder, lx, lbs) = build(true);
    let node = ladder.checkpoint();
    ladder.fix(lbs[0], 1).unwrap();
    ladder.set_min(lx, 5).unwrap();
    assert!(ladder.propagate().is_err());
    ladder.rollback(node);
    ladder.set_min(lx, 3).unwrap();
    ladder.propagate().unwrap();
    assert_eq!(ladder.weighted_degree(lbs[0]), 0, "a decided rung weighs");
    assert_eq!(ladder.weighted_degree(lbs[1]), 2);
}
