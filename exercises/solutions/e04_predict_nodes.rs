//! Model answer of exercise 4a (see `exercises/src/e04_predict_nodes.rs`). The tree:
//! 1. `q0 = 0` leaves q1 ∈ {2, 3};
//! 2. `q1 = 2` empties q2: fail;
//! 3. `q1 ≠ 2` fixes q1 = 3, then q2 = 1, which empties q3: fail, and the left branch
//!    `q0 = 0` is exhausted;
//! 4. `q0 ≠ 0` prunes nothing else;
//! 5. `q0 = 1` propagates to the solution 1 3 0 2 without another decision.

/// The `nodes` of `engine::solve` on 4-queens in input order, smallest value first.
pub fn predicted_nodes() -> u64 {
    5
}
