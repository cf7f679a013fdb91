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
//! | tree to engine model: declarations, output | [`build`] |
//! | one function per builtin constraint, in one table | [`builtins`] |
//! | search annotations to the engine's brancher | [`search`] |
//! | search, and the output the specification fixes | [`solve`] |
//!
//! `docs/minizinc.md` follows a model from MiniZinc to these propagators.

pub mod ast;
pub mod bounds;
pub mod build;
pub mod builtins;
pub mod parse;
pub mod search;
pub mod solve;

pub use ast::FznError;
pub use build::{build, Built};
pub use parse::parse;

/// Parse and build a FlatZinc text.
pub fn load(text: &str) -> Result<Built, FznError> {
    build(&parse(text)?)
}
