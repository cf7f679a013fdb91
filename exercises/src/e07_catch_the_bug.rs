//! # Exercise 7 — a test that catches a bug (chapter 7, `docs/07-testing-propagators.md`)
//!
//! The harness is only as good as what you give it: the predicate it treats as the truth, and
//! the random cases it draws. The grader holds two propagators of "at most one of these 0/1
//! variables is 1": a correct one, and one with a bug that shows only on some cases.
//!
//! Write the predicate `at_most_one`, and choose a `HarnessConfig` (arity, values,
//! consistency, number of trials) such that the harness accepts the correct propagator and
//! rejects the buggy one. You do not see the buggy one: think about which cases a lazy
//! implementation could get wrong, and make sure the harness draws them.

use engine::testing::HarnessConfig;

/// The truth: at most one of the values is 1 (the values are 0 or 1).
pub fn at_most_one(tuple: &[i32]) -> bool {
    let _ = tuple;
    todo!()
}

/// The cases to draw. `HarnessConfig::new(arity, lo, hi, consistency)` gives the defaults.
pub fn config() -> HarnessConfig {
    todo!("which arity, which values, which consistency does the correct propagator reach?")
}
