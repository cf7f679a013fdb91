//! `regular` against brute force with the harness of `engine::testing` on random automata:
//! sound, checking, domain consistent, incremental = from scratch, restored on backtracking.
//! And a count: binary words of length 8 with no two 1s adjacent (Fibonacci: 55).

use engine::propagators::regular::{Dfa, Regular};
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig};

fn random_dfa(rng: &mut Rng, first_value: i32, symbols: usize) -> Dfa {
    let states = 1 + rng.below(4) as usize;
    let next = (0..states)
        .map(|_| {
            (0..symbols)
                .map(|_| rng.below(states as u64 + 1) as usize)
                .collect()
        })
        .collect();
    let accepting = (1..=states).filter(|_| rng.below(2) == 0).collect();
    Dfa {
        states,
        first_value,
        symbols,
        next,
        start: 1 + rng.below(states as u64) as usize,
        accepting,
    }
}

#[test]
fn regular_is_domain_consistent_on_random_automata() {
    let mut rng = Rng::new(7);
    for round in 0..40 {
        let arity = 1 + round % 5;
        // The alphabet 0..=2; domains drawn from -1..=3 so that some values are outside it.
        let dfa = random_dfa(&mut rng, 0, 3);
        let mut cfg = HarnessConfig::new(arity, -1, 3, Consistency::Domain);
        cfg.trials = 40;
        cfg.seed = round as u64 + 1;
        let accept = dfa.clone();
        check_propagator("regular", &cfg, &|t| accept.accepts(t), &|xs| {
            Box::new(Regular::new(xs, dfa.clone()))
        });
    }
}

#[test]
fn regular_with_a_repeated_variable_is_sound_and_runs_to_its_fixpoint() {
    // x0 read twice: a path may read two values of it, so one run is not the fixpoint and
    // the propagator must not claim it is (the harness compares the engine's runs with the
    // reference fixpoint, so a wrong `idempotent` fails here).
    let mut rng = Rng::new(11);
    for round in 0..60 {
        let dfa = random_dfa(&mut rng, 0, 3);
        let mut cfg = HarnessConfig::new(3, 0, 2, Consistency::Checking);
        cfg.trials = 40;
        cfg.seed = round as u64 + 1;
        let accept = dfa.clone();
        check_propagator(
            "regular, x0 twice",
            &cfg,
            &|t| accept.accepts(&[t[0], t[1], t[0], t[2]]),
            &|xs| Box::new(Regular::new(&[xs[0], xs[1], xs[0], xs[2]], dfa.clone())),
        );
    }
}

#[test]
fn words_without_adjacent_ones_are_counted_exactly() {
    // State 1: last symbol 0 (or start); state 2: last symbol 1.
    let dfa = Dfa {
        states: 2,
        first_value: 0,
        symbols: 2,
        next: vec![vec![1, 2], vec![1, 0]],
        start: 1,
        accepting: vec![1, 2],
    };
    let mut model = Model::new();
    let xs = model.new_vars(8, 0, 1);
    model.regular(&xs, dfa);
    assert_eq!(
        engine::count(&mut model, &SearchConfig::default()).solutions,
        55
    );
}

/// One transition of `regular_with_states` (`propagators/regular_states.rs`): `(q, v, q')`
/// with `q' = δ(q, v)`, neither dead, over a universe holding states beyond the automaton's,
/// the dead state and symbols outside its alphabet. Its word-parallel fast lane must prune
/// exactly what the reference does (the harness compares incremental with from scratch).
#[test]
fn a_transition_is_domain_consistent() {
    use engine::propagators::regular_states::Transition;
    let mut rng = Rng::new(11);
    for round in 0..40 {
        let dfa = random_dfa(&mut rng, 0, 2);
        let mut cfg = HarnessConfig::new(3, -1, 5, Consistency::Domain);
        cfg.trials = 40;
        cfg.seed = round + 1;
        let step = dfa.clone();
        let accepts = move |t: &[i32]| {
            t[0] >= 1 && t[0] as usize <= step.states && {
                let to = step.step(t[0] as usize, t[1]);
                to != 0 && to as i32 == t[2]
            }
        };
        check_propagator("regular transition", &cfg, &accepts, &|xs| {
            Box::new(Transition::new(xs[0], xs[1], xs[2], &dfa))
        });
    }
}

/// The states encoding counts what `regular` counts.
#[test]
fn regular_with_states_counts_like_regular() {
    let mut rng = Rng::new(13);
    for _ in 0..30 {
        let dfa = random_dfa(&mut rng, 0, 2);
        let count = |with_states: bool| {
            let mut model = Model::new();
            let xs = model.new_vars(6, 0, 1);
            if with_states {
                model.regular_with_states(&xs, dfa.clone());
            } else {
                model.regular(&xs, dfa.clone());
            }
            let config = SearchConfig {
                branch_vars: Some(xs),
                ..SearchConfig::default()
            };
            engine::count(&mut model, &config).solutions
        };
        assert_eq!(count(false), count(true), "{dfa:?}");
    }
}
