//! `circuit` against brute force with the harness of `engine::testing` (sound, checking,
//! incremental = from scratch, backtracking; the nocycle rule claims no stronger
//! consistency), and counts: (n−1)! Hamiltonian cycles of the complete directed graph.

use engine::propagators::graph::circuit::Circuit;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig};

/// Is `succ` one cycle through every node?
fn is_circuit(succ: &[i32]) -> bool {
    let n = succ.len();
    if succ.iter().any(|&v| v < 0 || v >= n as i32) {
        return false;
    }
    let mut node = 0usize;
    for step in 1..=n {
        node = succ[node] as usize;
        if node == 0 {
            return step == n;
        }
    }
    false
}

#[test]
fn circuit_is_sound_and_checking() {
    for n in 1..=5 {
        let mut cfg = HarnessConfig::new(n, -1, n as i32, Consistency::Checking);
        cfg.trials = 300;
        check_propagator("circuit", &cfg, &is_circuit, &|xs| {
            Box::new(Circuit::new(xs))
        });
    }
}

#[test]
fn nocycle_removes_the_closing_successor_of_a_chain() {
    // 0 → 1 → 2 fixed, 4 nodes: succ[2] may not be 0.
    let mut model = Model::new();
    let succ = model.new_vars(4, 0, 3);
    model.circuit(&succ);
    model.fix(succ[0], 1).unwrap();
    model.fix(succ[1], 2).unwrap();
    model.propagate().unwrap();
    assert!(!model.contains(succ[2], 0));
    assert!(model.contains(succ[2], 3));
}

#[test]
fn complete_graphs_have_factorial_many_circuits() {
    for (n, cycles) in [(2, 1), (3, 2), (4, 6), (5, 24), (6, 120)] {
        let mut model = Model::new();
        let succ = model.new_vars(n, 0, n as i32 - 1);
        model.circuit(&succ);
        assert_eq!(
            engine::count(&mut model, &SearchConfig::default()).solutions,
            cycles
        );
    }
}

#[test]
fn circuit_from_one_counts_as_zero_based() {
    let mut model = Model::new();
    let succ = model.new_vars(4, 1, 4);
    model.circuit_from(&succ, 1);
    assert_eq!(
        engine::count(&mut model, &SearchConfig::default()).solutions,
        6
    );
}

/// Do the nodes with `succ[i] != i` form one cycle (or none)?
fn is_subcircuit(succ: &[i32]) -> bool {
    let n = succ.len();
    if succ.iter().any(|&v| v < 0 || v >= n as i32) {
        return false;
    }
    let inside: Vec<usize> = (0..n).filter(|&i| succ[i] != i as i32).collect();
    let Some(&first) = inside.first() else {
        return true;
    };
    let mut node = first;
    for step in 1..=inside.len() {
        node = succ[node] as usize;
        if node == first {
            return step == inside.len();
        }
        if succ[node] == node as i32 {
            return false;
        }
    }
    false
}

#[test]
fn subcircuit_is_sound_and_checking() {
    use engine::propagators::graph::subcircuit::Subcircuit;
    for n in 1..=5 {
        let mut cfg = HarnessConfig::new(n, -1, n as i32, Consistency::Checking);
        cfg.trials = 300;
        check_propagator("subcircuit", &cfg, &is_subcircuit, &|xs| {
            Box::new(Subcircuit::new(xs))
        });
    }
}

#[test]
fn subcircuits_of_complete_graphs_are_counted_exactly() {
    // Σ over subsets of size k ≠ 1 of (k−1)!, plus the empty one: n = 4: 1 + 6·1 + 4·2 + 6 = 21.
    let mut model = Model::new();
    let succ = model.new_vars(4, 0, 3);
    model.subcircuit(&succ);
    assert_eq!(
        engine::count(&mut model, &SearchConfig::default()).solutions,
        21
    );
}

#[test]
fn subcircuit_from_one_counts_as_zero_based() {
    let mut model = Model::new();
    let succ = model.new_vars(4, 1, 4);
    model.subcircuit_from(&succ, 1);
    assert_eq!(
        engine::count(&mut model, &SearchConfig::default()).solutions,
        21
    );
}
