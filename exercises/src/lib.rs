//! # The course's exercises
//!
//! One file per exercise, named after its chapter: `e03_abs.rs` belongs to chapter 3 of
//! `docs/`. Each file is a stub: a statement in its first comment, and `todo!()` where your
//! code goes. Edit the file, then grade everything with
//!
//! ```sh
//! cargo test -p exercises
//! ```
//!
//! Each exercise is one test (`e03_abs ... ok` or `FAILED`); a failing one prints what went
//! wrong and a hint. The graders are in `grading.rs`: brute force and the propagator harness
//! of chapter 7 (`engine/src/testing.rs`), never a comparison with a stored answer.
//!
//! Model answers are kept apart in `exercises/solutions/`: `--features solutions` grades them
//! instead of your files (CI does, so that a grader that cannot pass is caught; and
//! `exercises/tests/graders_can_fail.rs` checks that every grader rejects the untouched stub).

pub mod grading;

#[cfg_attr(feature = "solutions", path = "../solutions/e00_generate_and_test.rs")]
pub mod e00_generate_and_test;
#[cfg_attr(feature = "solutions", path = "../solutions/e01_next_value.rs")]
pub mod e01_next_value;
#[cfg_attr(feature = "solutions", path = "../solutions/e02_trail.rs")]
pub mod e02_trail;
#[cfg_attr(feature = "solutions", path = "../solutions/e03_abs.rs")]
pub mod e03_abs;
#[cfg_attr(feature = "solutions", path = "../solutions/e03_fix_less_than.rs")]
pub mod e03_fix_less_than;
#[cfg_attr(feature = "solutions", path = "../solutions/e03_max.rs")]
pub mod e03_max;
#[cfg_attr(feature = "solutions", path = "../solutions/e03_not_equal_offset.rs")]
pub mod e03_not_equal_offset;
#[cfg_attr(feature = "solutions", path = "../solutions/e03_sum.rs")]
pub mod e03_sum;
#[cfg_attr(feature = "solutions", path = "../solutions/e04_heuristic.rs")]
pub mod e04_heuristic;
#[cfg_attr(feature = "solutions", path = "../solutions/e04_predict_nodes.rs")]
pub mod e04_predict_nodes;
#[cfg_attr(feature = "solutions", path = "../solutions/e05_count_by_splitting.rs")]
pub mod e05_count_by_splitting;
#[cfg_attr(feature = "solutions", path = "../solutions/e06_read_the_profile.rs")]
pub mod e06_read_the_profile;
#[cfg_attr(feature = "solutions", path = "../solutions/e07_catch_the_bug.rs")]
pub mod e07_catch_the_bug;
#[cfg_attr(feature = "solutions", path = "../solutions/e08_break_symmetry.rs")]
pub mod e08_break_symmetry;
#[cfg_attr(feature = "solutions", path = "../solutions/e08_redundant.rs")]
pub mod e08_redundant;
#[cfg_attr(feature = "solutions", path = "../solutions/e08_send_more_money.rs")]
pub mod e08_send_more_money;
#[cfg_attr(feature = "solutions", path = "../solutions/e09_branch_and_bound.rs")]
pub mod e09_branch_and_bound;
#[cfg_attr(feature = "solutions", path = "../solutions/e10_explain_sum.rs")]
pub mod e10_explain_sum;
