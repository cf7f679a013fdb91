//! `ReifiedEqual` (`engine/src/propagators/reified_equal.rs`): `b ⇔ x = y`, `b ⇔ x ≠ y` and
//! their half reifications, on the domains. Checked against brute force (domain
//! consistency, incremental = reference, backtracking) on bitset and interval domains, and
//! the case that made it: two variables that share no value decide `b` at once, where the
//! linear form (`reified.rs`) looks only at the bounds of `x - y`.

use engine::propagators::reified_equal::{share_a_value, ReifiedEqual};
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};
use engine::{Domain, Model};

/// (positive, half) and what the constraint means on (x, y, b).
const SHAPES: [(bool, bool); 4] = [(true, false), (false, false), (true, true), (false, true)];

fn holds(positive: bool, half: bool, t: &[i32]) -> bool {
    let (x, y, b) = (t[0], t[1], t[2]);
    if b != 0 && b != 1 {
        return false;
    }
    let relation = (x == y) == positive;
    if half {
        b == 0 || relation
    } else {
        (b == 1) == relation
    }
}

fn config(seed: u64, intervals: bool) -> HarnessConfig {
    let mut cfg = HarnessConfig::new(3, -2, 4, Consistency::Domain);
    cfg.first_ranges = vec![(-2, 4), (-2, 4), (0, 1)];
    cfg.seed = seed;
    cfg.trials = 150;
    cfg.steps = 6;
    cfg.interval_domains = intervals;
    cfg
}

#[test]
fn reified_equality_is_domain_consistent_and_incremental_runs_equal_the_reference() {
    for (k, &(positive, half)) in SHAPES.iter().enumerate() {
        for intervals in [false, true] {
            check_propagator(
                &format!("equal_reif positive={positive} half={half} intervals={intervals}"),
                &config(40 + k as u64, intervals),
                &|t| holds(positive, half, t),
                &|xs| Box::new(ReifiedEqual::new(xs[2], xs[0], xs[1], positive, half)),
            );
        }
    }
}

#[test]
fn two_variables_sharing_no_value_decide_b_at_once() {
    let mut m = Model::new();
    let x = m.new_var_from_values(&[0, 2, 3, 4]);
    let y = m.new_var_from_values(&[1, 5]);
    let b = m.new_bool();
    m.post(Box::new(ReifiedEqual::new(b, x, y, true, true)));
    m.propagate().unwrap();
    assert!(m.is_fixed(b) && m.value(b) == 0, "b ⇒ x = y left b open");
}

#[test]
fn the_shared_value_test_leaps_between_domains() {
    let a = Domain::from_values(&[0, 2, 3, 4, 9]);
    assert!(!share_a_value(&a, &Domain::from_values(&[1, 5, 8])));
    assert!(share_a_value(&a, &Domain::from_values(&[1, 9])));
    assert!(share_a_value(
        &Domain::interval(0, 1_000_000),
        &Domain::interval(999_999, 2_000_000)
    ));
    assert!(!share_a_value(
        &Domain::interval(0, 10),
        &Domain::interval(11, 20)
    ));
}

#[test]
fn reified_equality_explains_its_atoms_and_failures() {
    let mut precise = 0;
    for (k, &(positive, half)) in SHAPES.iter().enumerate() {
        let mut cfg = config(70 + k as u64, false);
        cfg.consistency = Consistency::Checking;
        cfg.trials = 80;
        let stats = check_explanations(
            &format!("equal_reif positive={positive} half={half}"),
            &cfg,
            &|t| holds(positive, half, t),
            &|xs| Box::new(ReifiedEqual::new(xs[2], xs[0], xs[1], positive, half)),
        );
        precise += stats.precise;
    }
    assert!(precise > 0, "no reason was given by the propagator itself");
}
