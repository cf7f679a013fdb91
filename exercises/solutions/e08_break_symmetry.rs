//! Model answer of exercise 8b (see `exercises/src/e08_break_symmetry.rs`): the mirror
//! across the middle row sends `q[0]` to `7 − q[0]`, so one of each mirrored pair has the
//! first queen in the upper half (no solution has `q[0] = 7 − q[0]`); 46 solutions are left.

use engine::{Model, VarId};

/// Post symmetry-breaking constraints on the 8-queens model `q`.
pub fn break_symmetry(model: &mut Model, q: &[VarId]) {
    model
        .set_max(q[0], 3)
        .expect("the first queen may be in rows 0..=3");
}
