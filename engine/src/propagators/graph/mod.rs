//! # Graph constraints over successor variables
//!
//! A successor variable `succ[i]` names the node that follows node i. `circuit.rs`: the
//! successors form one Hamiltonian cycle; `subcircuit.rs`: the nodes that do not follow
//! themselves form one cycle; `colour_paths.rs`: over colour variables on a graph, each
//! colour's nodes form one connected piece holding its two terminals (Flow Free's paths).

pub mod circuit;
pub mod colour_paths;
mod colour_paths_explain;
pub mod subcircuit;
