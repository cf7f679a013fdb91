//! # Exercise 8a — model a puzzle (chapter 8, `docs/08-modelling.md`)
//!
//!       S E N D
//!     + M O R E
//!     ---------
//!     M O N E Y
//!
//! Each letter is a different digit, and neither S nor M is 0. Model it: create the eight
//! variables in `model` (`new_var`), post the constraints (`linear` with
//! `Relation::Eq`, `all_different` or pairwise `not_equal_offset`), and return the letters
//! in the order S, E, N, D, M, O, R, Y.
//!
//! The grader counts the solutions of your model: there must be exactly one, and it must be
//! the right one. Two viewpoints are worth trying: one linear equation over the place values
//! (1000·S + 100·E + …), or one equation per column with carries. `docs/first-model.md` shows
//! how much propagation alone finds.

use engine::{Model, VarId};

/// The letters S, E, N, D, M, O, R, Y of SEND + MORE = MONEY, posted in `model`.
pub fn send_more_money(model: &mut Model) -> [VarId; 8] {
    let _ = model;
    todo!("eight digits, all different, S and M not 0, and the sum")
}
