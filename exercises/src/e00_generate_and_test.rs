//! # Exercise 0 — count before you compute (chapter 0, `docs/00-what-is-a-csp.md`)
//!
//! Rung 1 of the ladder, generate-and-test, puts one queen in each column of a 4×4 board and
//! tries every way of choosing their rows, testing each complete assignment against the rules
//! (no two queens on a row or a diagonal).
//!
//! Without running anything, answer two questions by filling in the functions:
//! 1. how many complete assignments does generate-and-test try on 4-queens?
//! 2. how many of them are solutions?
//!
//! Hint: 4 columns, 4 rows each; then draw the board.

/// The number of complete assignments generate-and-test tries on 4-queens.
pub fn assignments_tried() -> u64 {
    todo!("4 queens, one per column, each with 4 possible rows")
}

/// The number of those assignments that are solutions.
pub fn solutions_found() -> u64 {
    todo!("draw the 4×4 board: where can the queen of the first column go?")
}
