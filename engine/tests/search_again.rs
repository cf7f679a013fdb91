//! A model can be searched again: `search` leaves it as it found it, propagators still to
//! run included. Before, a search's root propagation ran the posted propagators inside its
//! own level and the queue was empty when it returned, so a second search of a model never
//! propagated at its root went without them: a random model with no solution counted 27 the
//! second time, and a constraint no decision wakes was never enforced again (found by the
//! learning work of issue 33; both tests below failed then).

use engine::{Model, Relation, SearchConfig};

fn count(m: &mut Model, learn: bool) -> u64 {
    let config = SearchConfig {
        learn,
        ..SearchConfig::default()
    };
    engine::count(m, &config).solutions
}

#[test]
fn a_model_without_solutions_counts_zero_every_time() {
    let mut m = Model::new();
    let xs = m.new_vars(4, 0, 4);
    let terms: Vec<(i64, _)> = xs.iter().map(|&x| (1, x)).collect();
    m.linear(&terms, Relation::Ge, 30);
    for attempt in 0..4 {
        assert_eq!(count(&mut m, attempt % 2 == 1), 0, "attempt {attempt}");
    }
}

#[test]
fn a_constraint_no_decision_wakes_holds_in_every_search() {
    // `x` is fixed from the start: no decision ever wakes `x ≤ 2`, only the root fixpoint.
    let mut m = Model::new();
    let x = m.new_var(5, 5);
    let y = m.new_var(0, 2);
    m.linear(&[(1, x)], Relation::Le, 2);
    for attempt in 0..4 {
        assert_eq!(count(&mut m, attempt % 2 == 1), 0, "attempt {attempt}");
        let first = engine::solve(&mut m, &SearchConfig::default()).best;
        assert!(first.is_none(), "attempt {attempt}: {first:?}, y in 0..2");
    }
    let _ = y;
}

#[test]
fn random_models_count_the_same_when_searched_again() {
    use engine::rng::Rng;
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let mut m = Model::new();
        let xs = m.new_vars(5, 0, 3);
        for _ in 0..4 {
            let terms: Vec<(i64, _)> = (0..3)
                .map(|_| (rng.below(5) as i64 - 2, xs[rng.below(5) as usize]))
                .collect();
            let relation = [Relation::Le, Relation::Eq, Relation::Ne][rng.below(3) as usize];
            m.linear(&terms, relation, rng.below(7) as i64 - 3);
        }
        let first = count(&mut m, false);
        for attempt in 0..3 {
            assert_eq!(
                count(&mut m, attempt == 1),
                first,
                "seed {seed}, attempt {attempt}"
            );
        }
    }
}
