//! Model answer of exercise 4b (see `exercises/src/e04_heuristic.rs`): first fail, ties
//! toward the middle column.

use engine::{Model, VarId};

/// The candidate with the fewest values left; among those, the one nearest the middle of the
/// list (the middle of the board, for queens).
pub fn choose(model: &Model, candidates: &[VarId]) -> VarId {
    let middle = model.num_vars() as i64 / 2;
    *candidates
        .iter()
        .min_by_key(|x| (model.size(**x), (x.index() as i64 - middle).abs()))
        .expect("the search asks only when a variable is left")
}
