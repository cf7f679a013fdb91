//! # Exercise 5 — count by splitting (chapter 5, `docs/05-parallel-counting.md`)
//!
//! Parallel counting splits the search tree into subproblems that share nothing: fixing one
//! variable to each of its values gives subproblems whose solution counts add up to the
//! whole count (each solution has exactly one value of that variable).
//!
//! Write the split by hand, sequentially: for each value `v` left in `x`'s domain, take a
//! checkpoint (`model.checkpoint()`), fix `x = v` (`model.fix`; a conflict means 0
//! solutions), count with `engine::count(model, &SearchConfig::default())`, and roll back
//! (`model.rollback`). The model must be left as you found it.
//!
//! (Each subproblem could go to its own thread on a clone of the model: `Model` is `Clone`.
//! That is all `engine/src/search/parallel.rs` adds, with a work queue.)

use engine::{Model, VarId};

/// The number of solutions of `model`, counted value by value of `x`.
pub fn count_by_splitting(model: &mut Model, x: VarId) -> u64 {
    let _ = (model, x);
    todo!("checkpoint, fix, count, rollback, for each value of x")
}
