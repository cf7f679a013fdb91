//! Model answer of exercise 9 (see `exercises/src/e09_branch_and_bound.rs`).

use engine::{Model, SearchConfig, VarId};

/// The minimum of `objective` over the solutions of `model`, by repeated search.
pub fn minimize(model: &mut Model, objective: VarId) -> Option<i32> {
    let mut best = None;
    loop {
        let outcome = engine::solve(model, &SearchConfig::default());
        let Some(solution) = outcome.best else {
            return best; // No better solution: the last one is optimal.
        };
        let value = solution.value(objective);
        best = Some(value);
        if value == i32::MIN || model.set_max(objective, value - 1).is_err() {
            return best; // Nothing can be better.
        }
    }
}
