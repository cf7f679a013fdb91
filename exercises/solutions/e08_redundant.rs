//! Model answer of exercise 8c (see `exercises/src/e08_redundant.rs`): all-different at the
//! bounds level finds the Hall interval `0..holes` that `holes + 1` pigeons cannot fit into,
//! before any decision.

use engine::{AllDiffLevel, Model, VarId};

/// Post a redundant constraint over all the pigeons.
pub fn add_redundant(model: &mut Model, pigeons: &[VarId], _holes: i32) {
    model.all_different(pigeons, AllDiffLevel::Bounds);
}
