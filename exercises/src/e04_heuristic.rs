//! # Exercise 4b — a variable choice that beats a node count (chapter 4, `docs/04-search.md`)
//!
//! The grader solves n-queens for n = 20, 30 and 40 (the model of exercise 4a on a bigger
//! board, `ValSelect::Min`) with *your* variable choice, and a limit of 500 nodes each. In
//! input order the search needs far more than that (try it: return `candidates[0]`).
//!
//! `candidates` are the unfixed variables, in input order; return one of them. Chapter 4
//! explains "first fail": branch where the fewest values are left (`model.size(x)`), so that a
//! wrong guess fails near the root. A tie-break toward the middle of the board helps
//! queens too.

use engine::{Model, VarId};

/// The variable to branch on next: one of `candidates`.
pub fn choose(model: &Model, candidates: &[VarId]) -> VarId {
    let _ = (model, candidates);
    todo!("the candidate with the fewest values left")
}
