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
//! registry ([`all`], [`find`]). A new puzzle is a module with a `KIND` (its name, aliases,
//! summary, input, seed, default levels and puzzle-only flags: see `instance.rs`), one line
//! in [`all`], its tests, and its page in `docs/puzzles/`; nothing else matches its name.

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
pub use instance::{Defaults, Input, PuzzleFlag, PuzzleKind};
/// The rotation model under its first path (`puzzles::rotation`).
pub use shared::rotation;

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

/// The puzzle called `name` (its name or one of its aliases).
pub fn find(name: &str) -> Option<&'static PuzzleKind> {
    all().iter().find(|k| k.is_called(name))
}
