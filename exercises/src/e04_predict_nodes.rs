//! # Exercise 4a — predict a search tree (chapter 4, `docs/04-search.md`)
//!
//! Predict before you run. The model: 4-queens, `q[i] ∈ 0..=3` the row of the queen in
//! column `i`, and for every pair of columns `i < j` three propagators
//! (`Model::not_equal_offset`): `q[i] ≠ q[j]`, `q[i] ≠ q[j] + (j − i)`,
//! `q[i] ≠ q[j] − (j − i)`. Each removes a value as soon as the other side is fixed (forward
//! checking, run to a fixpoint).
//!
//! The search, `engine::solve` with `VarSelect::InputOrder` and `ValSelect::Min`, branches
//! `q[i] = v` first and `q[i] ≠ v` on backtrack, and stops at the first solution. A *node*
//! is one branch taken: a left branch `q = v` and a right branch `q ≠ v` count one each.
//!
//! Draw the tree on paper: after each decision, cross out what the propagators remove, and
//! remember that propagation runs to a fixpoint (a domain left with one value fixes its
//! queen, which removes more). How many nodes until the first solution?

/// Your prediction: the `nodes` of `engine::solve` on the model above.
pub fn predicted_nodes() -> u64 {
    todo!("draw the tree of 4-queens under forward checking")
}
