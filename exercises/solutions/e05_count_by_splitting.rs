//! Model answer of exercise 5 (see `exercises/src/e05_count_by_splitting.rs`).

use engine::{Model, SearchConfig, VarId};

/// The number of solutions of `model`, counted value by value of `x`.
pub fn count_by_splitting(model: &mut Model, x: VarId) -> u64 {
    let values: Vec<i32> = model.domain(x).iter().collect();
    let mut total = 0;
    for v in values {
        let checkpoint = model.checkpoint();
        if model.fix(x, v).is_ok() {
            total += engine::count(model, &SearchConfig::default()).solutions;
        }
        model.rollback(checkpoint);
    }
    total
}
