//! # Graph constraints over successor variables
//!
//! A successor variable `succ[i]` names the node that follows node i. `circuit.rs`: the
//! successors form one Hamiltonian cycle.

pub mod circuit;
