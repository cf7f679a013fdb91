//! # Packing: rectangles that never overlap
//!
//! A rectangle `i` has its origin at `(x[i], y[i])` and its sizes `dx[i]` (width) and `dy[i]`
//! (height), all four variables; it covers `[x[i], x[i] + dx[i]) × [y[i], y[i] + dy[i])`.
//! Packing places rectangles in the plane so that no two share any area: MiniZinc's
//! `globals.packing` group. One propagator lives here:
//!
//! * [`diffn`]: `diffn` and `diffn_nonstrict`, by pairwise reasoning on the four relative
//!   positions of two rectangles (as Gecode's `int/no-overlap`).
//!
//! A task of a disjunctive resource (`scheduling/disjunctive.rs`) is a rectangle of height 1
//! on one row, so the bound-moving helpers (`set_min_wide`, `set_max_wide`, all arithmetic in
//! `i64`) are shared with the scheduling family.

pub mod diffn;
mod diffn_explain;
