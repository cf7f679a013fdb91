//! `vectors_differ` (all-different over tuples, pairwise) against brute force with the
//! harness of `engine::testing`: sound, checking, domain consistent, incremental = from
//! scratch, restored on backtracking. And a count: the 0/1 rows of length 3, pairwise
//! different, 8·7·6 ordered triples.

use engine::propagators::vectors::VectorsDiffer;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig};

#[test]
fn vectors_differ_is_domain_consistent() {
    for n in 1..=3 {
        for (lo, hi) in [(0, 1), (-1, 2)] {
            let mut cfg = HarnessConfig::new(2 * n, lo, hi, Consistency::Domain);
            cfg.max_size = 3;
            cfg.trials = 200;
            check_propagator("vectors_differ", &cfg, &|t| t[..n] != t[n..], &|xs| {
                Box::new(VectorsDiffer::new(&xs[..n], &xs[n..]))
            });
        }
    }
}

#[test]
fn distinct_binary_rows_are_counted_exactly() {
    let mut model = Model::new();
    let rows: Vec<Vec<_>> = (0..3).map(|_| model.new_vars(3, 0, 1)).collect();
    model.all_different_vectors(&rows);
    let outcome = engine::count(&mut model, &SearchConfig::default());
    assert_eq!(outcome.solutions, 8 * 7 * 6);
}
