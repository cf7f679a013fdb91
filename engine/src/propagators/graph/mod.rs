//! # Graph constraints over successor variables
//!
//! A successor variable `succ[i]` names the node that follows node i. `circuit.rs`: the
//! successors form one Hamiltonian cycle; `subcircuit.rs`: the nodes that do not follow
//! themselves form one cycle.

pub mod circuit;
pub mod subcircuit;
