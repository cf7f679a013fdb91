//! The king-degree propagator (Monodot) against brute force, with the exhaustive harness.

use engine::propagators::king_degree::KingDegree;
use engine::testing::{check_propagator, Consistency, HarnessConfig};

/// `label = 0 ∨ label = number of nonzero neighbours`, the constraint as a plain predicate.
fn holds(t: &[i32]) -> bool {
    let occupied = t[1..].iter().filter(|&&v| v != 0).count() as i32;
    t[0] == 0 || t[0] == occupied
}

#[test]
fn king_degree_is_domain_consistent() {
    // Arity 1 (a cell with no neighbours) up to a cell with four neighbours; labels 0..4 and
    // also negative "labels" on the neighbours, which only count as occupied.
    for arity in 1..=5 {
        for (lo, hi) in [(0, 4), (-1, 3)] {
            let mut cfg = HarnessConfig::new(arity, lo, hi, Consistency::Domain);
            cfg.seed = arity as u64 * 13 + (hi as u64);
            cfg.trials = 400;
            check_propagator("king_degree", &cfg, &holds, &|xs| {
                Box::new(KingDegree::new(xs[0], &xs[1..]))
            });
        }
    }
}

#[test]
fn a_full_neighbourhood_of_eight_is_forced_both_ways() {
    use engine::Model;
    // Label fixed to 8 with eight undecided neighbours: all must be occupied.
    let mut m = Model::new();
    let x = m.new_var_from_values(&[8]);
    let ys = m.new_vars(8, 0, 3);
    m.post(Box::new(KingDegree::new(x, &ys)));
    m.propagate().unwrap();
    assert!(ys.iter().all(|&y| !m.contains(y, 0)));
    // Label 2 with two neighbours already occupied: the other six must be empty.
    let mut m = Model::new();
    let x = m.new_var_from_values(&[0, 2]);
    let ys = m.new_vars(8, 0, 1);
    m.post(Box::new(KingDegree::new(x, &ys)));
    m.propagate().unwrap();
    assert_eq!(m.size(x), 2, "0 and 2 both still possible");
    m.fix(ys[0], 1).unwrap();
    m.fix(ys[5], 1).unwrap();
    m.fix(x, 2).unwrap();
    m.propagate().unwrap();
    let empty = ys.iter().filter(|&&y| m.is_fixed(y) && m.value(y) == 0);
    assert_eq!(empty.count(), 6);
    // And a label that cannot be met fails.
    let mut m = Model::new();
    let x = m.new_var_from_values(&[3]);
    let ys = m.new_vars(2, 0, 1);
    m.post(Box::new(KingDegree::new(x, &ys)));
    assert!(m.propagate().is_err());
}
