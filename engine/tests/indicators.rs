//! `ValueIndicators` (`engine/src/propagators/indicators.rs`): many `bₖ ⇔ x = vₖ` (or
//! `x ≠ vₖ`) of one variable as one propagator. Checked against brute force (domain
//! consistency, incremental = reference, backtracking), its reasons checked for learning,
//! what its reversible count of open indicators must do (a channel every indicator of which
//! is decided is not run again below the node; backtracking reopens them), the same search
//! trees as the separate `ReifiedMember` propagators, and the same weight in the degree
//! heuristics.

use engine::propagators::indicators::{Indicator, ValueIndicators};
use engine::propagators::reified::ReifiedMember;
use engine::rng::Rng;
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig, VarId};

/// Random indicators: `n` of them, values around `lo..=hi` (some beyond it, some repeated),
/// either sign; `shared` makes two share one `b` (then local variable indices repeat).
#[derive(Clone, Debug)]
struct Channel {
    /// (value, index of b among the variables 1..; positive)
    indicators: Vec<(i32, usize, bool)>,
    /// Number of distinct b variables.
    bs: usize,
}

fn random_channel(rng: &mut Rng, n: usize, lo: i32, hi: i32, shared: bool) -> Channel {
    let bs = if shared && n > 1 { n - 1 } else { n };
    let indicators = (0..n)
        .map(|k| {
            let v = lo - 1 + rng.below((hi - lo + 3) as u64) as i32;
            let b = if k < bs {
                k
            } else {
                rng.below(bs as u64) as usize
            };
            (v, b, rng.below(3) != 0)
        })
        .collect();
    Channel { indicators, bs }
}

impl Channel {
    fn holds(&self, t: &[i32]) -> bool {
        self.indicators.iter().all(|&(v, b, positive)| {
            let value = t[1 + b];
            (value == 0 || value == 1) && (value == 1) == ((t[0] == v) == positive)
        })
    }
    fn make(&self, xs: &[VarId]) -> ValueIndicators {
        let indicators = (self.indicators.iter())
            .map(|&(value, b, positive)| Indicator {
                value,
                b: xs[1 + b],
                positive,
            })
            .collect();
        ValueIndicators::new(xs[0], indicators)
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
    /// The separate propagators it replaces: `b ⇔ x ∈ {v}`, or `b ⇔ x ∈ others` for `≠`,
    /// as `Model::reified_linear` posts them.
    fn post_separately(&self, m: &mut Model, x: VarId, bs: &[VarId]) {
        let domain: Vec<i32> = m.domain(x).iter().collect();
        for &(v, b, positive) in &self.indicators {
            let values: Vec<i32> = if positive {
                domain.iter().copied().filter(|&w| w == v).collect()
            } else {
                domain.iter().copied().filter(|&w| w != v).collect()
            };
            m.post(Box::new(ReifiedMember::new(bs[b], x, &values, false)));
        }
    }
}

#[test]
fn indicators_are_domain_consistent_and_incremental_runs_equal_the_reference() {
    let mut rng = Rng::new(7);
    for round in 0..40 {
        let n = 1 + round % 6;
        let shared = round % 3 == 2;
        let (lo, hi) = if round % 2 == 0 { (-3, 4) } else { (0, 6) };
        let channel = random_channel(&mut rng, n, lo, hi, shared);
        // Two indicators on one `b` (b ⇔ x = 2 and b ⇔ x ≠ 4) are not domain consistent
        // together, as neither are the separate propagators.
        let level = if shared {
            Consistency::Checking
        } else {
            Consistency::Domain
        };
        let cfg = channel.config(lo, hi, 100 + round as u64, level);
        check_propagator(
            &format!("indicators {channel:?}"),
            &cfg,
            &|t| channel.holds(t),
            &|xs| Box::new(channel.make(xs)),
        );
    }
}

#[test]
fn indicators_on_interval_domains_reach_the_same_fixpoint() {
    let mut rng = Rng::new(11);
    for round in 0..20 {
        let shared = round % 4 == 3;
        let channel = random_channel(&mut rng, 1 + round % 5, -4, 5, shared);
        let level = if shared {
            Consistency::Checking
        } else {
            Consistency::Domain
        };
        let mut cfg = channel.config(-4, 5, 300 + round as u64, level);
        cfg.interval_domains = true;
        check_propagator(
            &format!("indicators on intervals {channel:?}"),
            &cfg,
            &|t| channel.holds(t),
            &|xs| Box::new(channel.make(xs)),
        );
    }
}

#[test]
fn indicators_explain_their_atoms_and_failures() {
    let mut rng = Rng::new(13);
    let mut precise = 0;
    for round in 0..30 {
        let channel = random_channel(&mut rng, 1 + round % 5, -2, 4, round % 5 == 4);
        let cfg = channel.config(-2, 4, 500 + round as u64, Consistency::Checking);
        let stats = check_explanations(
            &format!("indicators {channel:?}"),
            &cfg,
            &|t| channel.holds(t),
            &|xs| Box::new(channel.make(xs)),
        );
        precise += stats.precise;
    }
    assert!(precise > 0, "no reason was given by the propagator itself");
}

/// `x ∈ 0..=5` and `bₖ ⇔ x = k` for `k = 1..=4`: the model, its `b`s.
fn four_indicators() -> (Model, VarId, Vec<VarId>) {
    let mut m = Model::new();
    let x = m.new_var(0, 5);
    let bs: Vec<VarId> = (0..4).map(|_| m.new_bool()).collect();
    let indicators = (bs.iter().enumerate())
        .map(|(k, &b)| Indicator::equal(b, 1 + k as i32))
        .collect();
    m.value_indicators(x, indicators);
    m.propagate().unwrap();
    (m, x, bs)
}

fn values(m: &Model, bs: &[VarId]) -> Vec<Option<i32>> {
    bs.iter()
        .map(|&b| m.is_fixed(b).then(|| m.value(b)))
        .collect()
}

#[test]
fn a_channel_decided_everywhere_is_not_run_again_below_the_node() {
    let (mut m, x, bs) = four_indicators();
    let node = m.checkpoint();
    m.remove(x, 2).unwrap();
    m.fix(bs[3], 0).unwrap();
    m.propagate().unwrap();
    assert_eq!(values(&m, &bs), [None, Some(0), None, Some(0)]);
    assert!(!m.domain(x).contains(4));
    m.fix(bs[0], 0).unwrap();
    m.fix(bs[2], 0).unwrap();
    m.propagate().unwrap();
    assert_eq!(values(&m, &bs), [Some(0); 4]);
    // Every indicator decided: further changes of `x` do not run it.
    let runs = m.propagations();
    m.remove(x, 0).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.propagations(), runs, "a decided channel was run again");
    m.rollback(node);
    assert_eq!(values(&m, &bs), [None; 4]);
}

#[test]
fn backtracking_reopens_what_the_channel_decided() {
    let (mut m, x, bs) = four_indicators();
    let node = m.checkpoint();
    m.fix(x, 3).unwrap();
    m.propagate().unwrap();
    assert_eq!(values(&m, &bs), [Some(0), Some(0), Some(1), Some(0)]);
    m.rollback(node);
    // Back at the node: every indicator is open again, and acts on `x` when fixed.
    m.fix(bs[1], 1).unwrap();
    m.propagate().unwrap();
    assert!(m.is_fixed(x) && m.value(x) == 2);
    assert_eq!(values(&m, &bs), [Some(0), Some(1), Some(0), Some(0)]);
}

/// The same counts and node counts as the separate `ReifiedMember` propagators, over whole
/// searches, on random channels with a sum over the `b`s.
#[test]
fn searches_count_the_same_solutions_as_the_separate_propagators() {
    let mut rng = Rng::new(17);
    for round in 0..30 {
        let channel = random_channel(&mut rng, 2 + round % 6, 0, 8, round % 4 == 3);
        let k = rng.below(channel.bs as u64 + 1) as i64;
        let count = |gathered: bool| {
            let mut m = Model::new();
            let x = m.new_var_from_values(&[0, 1, 3, 4, 5, 7, 8]);
            let bs: Vec<VarId> = (0..channel.bs).map(|_| m.new_bool()).collect();
            let mut xs = vec![x];
            xs.extend(&bs);
            if gathered {
                m.post(Box::new(channel.make(&xs)));
            } else {
                channel.post_separately(&mut m, x, &bs);
            }
            let terms: Vec<(i64, VarId)> = bs.iter().map(|&b| (1, b)).collect();
            m.linear(&terms, engine::Relation::Le, k);
            let out = engine::count(&mut m, &SearchConfig::default());
            (out.solutions, out.stats.nodes)
        };
        assert_eq!(count(true), count(false), "{channel:?}, Σb ≤ {k}");
    }
}

/// In the degree heuristics (`occurrence`, dom/wdeg, AFC) the channel weighs as the
/// separate propagators it replaces: on `x` one per open indicator, on a `b` one while its
/// indicator is open, at the root and after `x` loses values.
#[test]
fn a_channel_weighs_in_the_degree_as_its_separate_indicators() {
    let channel = Channel {
        indicators: vec![(1, 0, true), (2, 1, false), (3, 2, true), (4, 3, true)],
        bs: 4,
    };
    let build = |gathered: bool| {
        let mut m = Model::new();
        let x = m.new_var(0, 5);
        let bs: Vec<VarId> = (0..4).map(|_| m.new_bool()).collect();
        if gathered {
            let mut xs = vec![x];
            xs.extend(&bs);
            m.post(Box::new(channel.make(&xs)));
        } else {
            channel.post_separately(&mut m, x, &bs);
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
    let (mut gathered, gx, gbs) = build(true);
    let (mut separate, sx, sbs) = build(false);
    assert_eq!(degrees(&gathered, gx, &gbs), degrees(&separate, sx, &sbs));
    assert_eq!(gathered.degree(gx), 4);
    for removed in [1, 4, 3] {
        for (m, x) in [(&mut gathered, gx), (&mut separate, sx)] {
            m.remove(x, removed).unwrap();
            m.propagate().unwrap();
        }
        assert_eq!(
            degrees(&gathered, gx, &gbs),
            degrees(&separate, sx, &sbs),
            "{removed} removed"
        );
    }
    assert_eq!(gathered.degree(gx), 1);
}
