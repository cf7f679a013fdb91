//! # cpsolve's puzzles
//!
//! One module per puzzle, each with the same five parts:
//!
//! * **parse** — the text format of `docs/formats.md` into a typed instance, with
//!   [`ParseError`]s that name the line;
//! * **model** — the instance as engine variables and constraints ([`Instance::build`]);
//! * **decode** — an engine solution back into the puzzle's own terms;
//! * **render** — a picture for the terminal, and the JSON of `docs/formats.md`;
//! * **check** — a validator that knows only the rules, not the engine, run on every solution.
//!
//! The command line sees every puzzle through the [`Instance`] trait and the [`PuzzleKind`]
//! registry ([`all`], [`find`]).

pub mod binairo;
pub mod colouring;
pub mod common;
pub mod flow;
pub mod grid;
pub mod infinity_loop;
pub mod instance;
pub mod kakuro;
pub mod knights;
pub mod match22;
pub mod monodot;
pub mod naming;
pub mod nonogram;
pub mod parse;
pub mod pigeonhole;
pub mod queens;
pub mod ranking;
pub mod scramble;
pub mod shared;
pub mod slider;
pub mod starbattle;
pub mod strimko;
pub mod sudoku;
pub mod suko;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod thermometer;
pub mod v3ck;

pub use common::{
    Answer, AnswerJson, Built, Hints, Instance, ModelOptions, Parse, ParseError, Purpose, SumLevel,
    Viewpoint,
};
/// The rotation model under its first path (`puzzles::rotation`).
pub use shared::rotation;

/// How the command line passes the instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file (or `-` for standard input); with none, the built-in seed instance.
    File,
    /// A number on the command line (`cpsolve queens 8`).
    Number,
    /// Built in only (the pigeonhole shelf).
    BuiltIn,
    /// A file, or a number (an argument of digits that names no file) which the parser
    /// receives as its whole text (`cpsolve knights 5`).
    FileOrNumber,
}

/// A puzzle the command line knows.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleKind {
    pub name: &'static str,
    /// One line for `cpsolve --help`.
    pub summary: &'static str,
    /// Minimises something (the `OPTIMAL` status applies).
    pub optimisation: bool,
    pub input: Input,
    /// The seed's instance, in the file format (or the number for `Input::Number`).
    pub seed: &'static str,
    /// Parse a whole file (which may hold several instances).
    pub parse: Parse,
}

impl PuzzleKind {
    /// The all-different level used when the user does not choose one (`--alldiff`). Puzzles
    /// whose all-different constraints overlap (Sudoku, Kakuro, Strimko, ...) gain most from
    /// domain consistency, which searches far fewer nodes than forward checking. On n-queens
    /// nothing stronger than forward checking pays: domain consistency saves few nodes and
    /// costs much more per node.
    pub fn default_alldiff(&self) -> engine::AllDiffLevel {
        match self.name {
            "queens" => engine::AllDiffLevel::Value,
            _ => engine::AllDiffLevel::Domain,
        }
    }

    /// The sum level used when the user does not choose one (`--sum`): Kakuro's runs are short
    /// sums of distinct digits, where the precomputed digit sets (domain consistency) solve
    /// most boards without search, which bounds consistency does not.
    pub fn default_sum(&self) -> SumLevel {
        match self.name {
            "kakuro" => SumLevel::Domain,
            _ => SumLevel::Bounds,
        }
    }
}

/// Every puzzle, in the order `cpsolve --help` and `cpsolve tour` show them.
pub fn all() -> &'static [PuzzleKind] {
    &[
        queens::KIND,
        colouring::KIND,
        sudoku::KIND,
        kakuro::KIND,
        strimko::KIND,
        suko::KIND,
        ranking::KIND,
        v3ck::KIND,
        monodot::KIND,
        match22::KIND,
        infinity_loop::KIND,
        slider::KIND,
        pigeonhole::KIND,
        thermometer::KIND,
        starbattle::KIND,
        binairo::BINAIRO,
        binairo::TAKUZU,
        scramble::KIND,
        nonogram::KIND,
        knights::KIND,
        flow::KIND,
        flow::NUMBERLINK,
    ]
}

/// The puzzle called `name`.
pub fn find(name: &str) -> Option<&'static PuzzleKind> {
    // Aliases: a puzzle's other names, as docs/formats.md gives them.
    let name = match name {
        "binary-sudoku" => "takuzu",
        _ => name,
    };
    all().iter().find(|k| k.name == name)
}
