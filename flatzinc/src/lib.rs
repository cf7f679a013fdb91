//! # FlatZinc: MiniZinc's flat language, read and solved by cpsolve's engine
//!
//! MiniZinc compiles a model and its data into FlatZinc: variables with domains and calls
//! of a small set of builtin predicates, plus the globals a solver declares in its
//! `mznlib/` (this repository's `mznlib/`). This crate is cpsolve's FlatZinc front end:
//!
//! | step | file |
//! |---|---|
//! | the syntax tree | [`ast`] |
//! | text to tree (lexer and parser) | [`parse`] |
//! | ranges for `var int` declared without one | [`bounds`] |
//! | the builder's state, arguments read by type | [`builder`] |
//! | tree to engine model: declarations, output | [`build`] |
//! | one function per builtin constraint, in one table | [`builtins`] |
//! | search annotations to the engine's brancher | [`search`] |
//! | search, and the output the specification fixes | [`solve`] |
//! | the clock and the stop flag while reading | [`limits`] |
//! | reified comparisons of one variable with constants, gathered | [`thresholds`] |
//! | reified equalities of one variable with constants, gathered | [`indicators`] |
//! | set variables as views over booleans | [`set_var`] |
//! | set declarations and set arguments read | [`sets`] |
//! | the set builtins, as clauses and sums over booleans | [`set_builtins`] |
//!
//! `docs/minizinc.md` follows a model from MiniZinc to these propagators.

pub mod ast;
pub mod bounds;
pub mod build;
pub mod builder;
pub mod builtins;
pub mod indicators;
pub mod limits;
pub mod parse;
pub mod per_variable;
pub mod search;
pub mod set_builtins;
pub mod set_var;
pub mod sets;
pub mod solve;
pub mod thresholds;

pub use ast::FznError;
pub use build::{build, Built};
pub use parse::parse;

/// Parse and build a FlatZinc text.
pub fn load(text: &str) -> Result<Built, FznError> {
    build(&parse(text)?)
}

/// [`load`] under the run's deadline and stop flag: past either, an error with
/// `limit_reached` set (report it as a limit: `=====UNKNOWN=====`).
pub fn load_within(text: &str, limits: &engine::Limits) -> Result<Built, FznError> {
    build::build_within(&parse::parse_within(text, limits)?, limits)
}
