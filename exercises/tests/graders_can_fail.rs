//! A grader that cannot fail grades nothing. With `--features solutions` (what CI runs), the
//! library holds the model answers and `exercises/tests/grade.rs` checks that each grader accepts its
//! answer; this file checks that each grader *rejects* the untouched stub of `exercises/src/`
//! (read here straight from the student's files), so that both directions are tested.
#![cfg(feature = "solutions")]
#![allow(dead_code, unused_imports, unreachable_pub)]

use exercises::grading;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[path = "../src/e00_generate_and_test.rs"]
mod e00;
#[path = "../src/e01_next_value.rs"]
mod e01;
#[path = "../src/e02_trail.rs"]
mod e02;
#[path = "../src/e03_abs.rs"]
mod e03a;
#[path = "../src/e03_not_equal_offset.rs"]
mod e03b;
#[path = "../src/e03_max.rs"]
mod e03c;
#[path = "../src/e03_sum.rs"]
mod e03d;
#[path = "../src/e03_fix_less_than.rs"]
mod e03e;
#[path = "../src/e04_predict_nodes.rs"]
mod e04a;
#[path = "../src/e04_heuristic.rs"]
mod e04b;
#[path = "../src/e05_count_by_splitting.rs"]
mod e05;
#[path = "../src/e06_read_the_profile.rs"]
mod e06;
#[path = "../src/e07_catch_the_bug.rs"]
mod e07;
#[path = "../src/e08_send_more_money.rs"]
mod e08a;
#[path = "../src/e08_break_symmetry.rs"]
mod e08b;
#[path = "../src/e08_redundant.rs"]
mod e08c;
#[path = "../src/e09_branch_and_bound.rs"]
mod e09;
#[path = "../src/e10_explain_sum.rs"]
mod e10;

/// Every grader, run on the stubs: the exercise's name and whether its grader passed.
fn grade_the_stubs() -> Vec<(&'static str, bool)> {
    let graders: Vec<(&'static str, Box<dyn Fn()>)> = vec![
        (
            "e00",
            Box::new(|| {
                grading::e00_generate_and_test(e00::assignments_tried, e00::solutions_found)
            }),
        ),
        ("e01", Box::new(|| grading::e01_next_value(e01::next_value))),
        (
            "e02",
            Box::new(|| {
                grading::e02_trail(grading::TrailMethods {
                    new: e02::Trail::new,
                    get: e02::Trail::get,
                    set: e02::Trail::set,
                    push_level: e02::Trail::push_level,
                    pop_level: e02::Trail::pop_level,
                    level: e02::Trail::level,
                })
            }),
        ),
        ("e03_abs", Box::new(|| grading::e03_abs(e03a::abs))),
        (
            "e03_not_equal_offset",
            Box::new(|| grading::e03_not_equal_offset(e03b::not_equal_offset)),
        ),
        ("e03_max", Box::new(|| grading::e03_max(e03c::max))),
        ("e03_sum", Box::new(|| grading::e03_sum(e03d::sum_equals))),
        (
            "e03_fix_less_than",
            Box::new(|| grading::e03_fix_less_than(e03e::less_than)),
        ),
        (
            "e04_predict_nodes",
            Box::new(|| grading::e04_predict_nodes(e04a::predicted_nodes)),
        ),
        (
            "e04_heuristic",
            Box::new(|| grading::e04_heuristic(e04b::choose)),
        ),
        (
            "e05",
            Box::new(|| grading::e05_count_by_splitting(e05::count_by_splitting)),
        ),
        (
            "e06",
            Box::new(|| grading::e06_read_the_profile(e06::most_removals_per_call)),
        ),
        (
            "e07",
            Box::new(|| grading::e07_catch_the_bug(e07::at_most_one, e07::config)),
        ),
        (
            "e08_send_more_money",
            Box::new(|| grading::e08_send_more_money(e08a::send_more_money)),
        ),
        (
            "e08_break_symmetry",
            Box::new(|| grading::e08_break_symmetry(e08b::break_symmetry)),
        ),
        (
            "e08_redundant",
            Box::new(|| grading::e08_redundant(e08c::add_redundant)),
        ),
        (
            "e09",
            Box::new(|| grading::e09_branch_and_bound(e09::minimize)),
        ),
        (
            "e10",
            Box::new(|| grading::e10_explain_sum(e10::sum_at_most)),
        ),
    ];
    std::panic::set_hook(Box::new(|_| {})); // the stubs' panics are expected: keep quiet
    let results = graders
        .iter()
        .map(|(name, grade)| (*name, catch_unwind(AssertUnwindSafe(grade)).is_ok()))
        .collect();
    let _ = std::panic::take_hook();
    results
}

#[test]
fn every_grader_rejects_its_untouched_stub() {
    let passed: Vec<&str> = grade_the_stubs()
        .into_iter()
        .filter(|(_, ok)| *ok)
        .map(|(name, _)| name)
        .collect();
    assert!(
        passed.is_empty(),
        "graders that accept the untouched stub: {passed:?}"
    );
}
