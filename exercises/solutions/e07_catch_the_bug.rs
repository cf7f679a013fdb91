//! Model answer of exercise 7 (see `exercises/src/e07_catch_the_bug.rs`): the buggy
//! propagator looks at the first three variables only, so the harness must draw at least
//! four; the correct one is domain consistent.

use engine::testing::{Consistency, HarnessConfig};

/// The truth: at most one of the values is 1.
pub fn at_most_one(tuple: &[i32]) -> bool {
    tuple.iter().filter(|&&v| v == 1).count() <= 1
}

/// Five 0/1 variables, checked for domain consistency.
pub fn config() -> HarnessConfig {
    HarnessConfig::new(5, 0, 1, Consistency::Domain)
}
