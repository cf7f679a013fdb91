//! The grader: one test per exercise, in the order of the course. `cargo test -p exercises`
//! grades your files in `exercises/src/`; `--features solutions` grades the model answers.
//! A failing test prints what went wrong and a hint.

use exercises::grading;
use exercises::*;

#[test]
fn e00_generate_and_test() {
    grading::e00_generate_and_test(
        e00_generate_and_test::assignments_tried,
        e00_generate_and_test::solutions_found,
    );
}

#[test]
fn e01_next_value() {
    grading::e01_next_value(e01_next_value::next_value);
}

#[test]
fn e02_trail() {
    use e02_trail::Trail;
    grading::e02_trail(grading::TrailMethods {
        new: Trail::new,
        get: Trail::get,
        set: Trail::set,
        push_level: Trail::push_level,
        pop_level: Trail::pop_level,
        level: Trail::level,
    });
}

#[test]
fn e03_abs() {
    grading::e03_abs(e03_abs::abs);
}

#[test]
fn e03_not_equal_offset() {
    grading::e03_not_equal_offset(e03_not_equal_offset::not_equal_offset);
}

#[test]
fn e03_max() {
    grading::e03_max(e03_max::max);
}

#[test]
fn e03_sum() {
    grading::e03_sum(e03_sum::sum_equals);
}

#[test]
fn e03_fix_less_than() {
    grading::e03_fix_less_than(e03_fix_less_than::less_than);
}

#[test]
fn e04_predict_nodes() {
    grading::e04_predict_nodes(e04_predict_nodes::predicted_nodes);
}

#[test]
fn e04_heuristic() {
    grading::e04_heuristic(e04_heuristic::choose);
}

#[test]
fn e05_count_by_splitting() {
    grading::e05_count_by_splitting(e05_count_by_splitting::count_by_splitting);
}

#[test]
fn e06_read_the_profile() {
    grading::e06_read_the_profile(e06_read_the_profile::most_removals_per_call);
}

#[test]
fn e07_catch_the_bug() {
    grading::e07_catch_the_bug(e07_catch_the_bug::at_most_one, e07_catch_the_bug::config);
}

#[test]
fn e08_send_more_money() {
    grading::e08_send_more_money(e08_send_more_money::send_more_money);
}

#[test]
fn e08_break_symmetry() {
    grading::e08_break_symmetry(e08_break_symmetry::break_symmetry);
}

#[test]
fn e08_redundant() {
    grading::e08_redundant(e08_redundant::add_redundant);
}

#[test]
fn e09_branch_and_bound() {
    grading::e09_branch_and_bound(e09_branch_and_bound::minimize);
}

#[test]
fn e10_explain_sum() {
    grading::e10_explain_sum(e10_explain_sum::sum_at_most);
}
