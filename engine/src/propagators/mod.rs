//! # The propagators, one folder per constraint family
//!
//! Each file holds one filtering algorithm and opens with what it enforces, the consistency
//! it reaches, the events that wake it, its cost, and the paper it follows. Where a
//! constraint has several algorithms of different strength they sit side by side in one
//! folder (`alldiff/fast/value.rs`, `alldiff/bounds.rs`, `alldiff/domain.rs`), chosen by an option.

pub mod alldiff;
pub mod arithmetic;
pub mod band_counts;
pub(crate) mod bound_replay;
pub(crate) mod cardinality_explain;
pub mod clause;
pub mod conjunction;
pub mod count;
pub mod distinct_sum;
pub mod element;
pub mod element_var;
pub mod extremum;
pub mod graph;
pub mod indicators;
pub mod inverse;
pub mod king_degree;
pub mod lex;
pub mod linear;
pub mod linear_domain;
pub(crate) mod linear_explain;
pub mod nonogram_line;
pub mod packing;
pub mod precedence;
pub(crate) mod reasons;
pub mod regular;
pub mod regular_states;
pub mod reified;
pub mod reified_equal;
pub mod reify;
pub mod relations;
pub mod scheduling;
pub mod sets;
pub mod table;
pub mod thresholds;
pub(crate) mod value_graph;
pub mod vectors;
