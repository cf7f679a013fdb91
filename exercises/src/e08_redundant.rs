//! # Exercise 8c — a redundant constraint (chapter 8, `docs/08-modelling.md`)
//!
//! Pigeons into holes, one pigeon per hole: `pigeons[i] ∈ 0..holes` and pairwise `≠`. With
//! one pigeon more than holes there is no solution, but the pairwise `≠` propagators cannot
//! see it: each looks at two pigeons only, and the search tries every way of seating all
//! but the last pigeon before each dead end (8 holes: tens of thousands of nodes).
//!
//! Add a constraint that is *redundant* — it removes no solution, so the grader checks that
//! the count with as many pigeons as holes is unchanged — and that proves the 9-pigeon
//! problem impossible in at most 10 nodes. Which constraint sees all the pigeons at once?
//! (`docs/propagators/alldiff-bounds.md` says how one can.)

use engine::{Model, VarId};

/// Post a redundant constraint over all the pigeons (`holes` holes, values `0..holes`).
pub fn add_redundant(model: &mut Model, pigeons: &[VarId], holes: i32) {
    let _ = (model, pigeons, holes);
    todo!("a global constraint that reasons on all the pigeons at once")
}
