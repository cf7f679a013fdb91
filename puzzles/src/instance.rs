//! # What every puzzle shares: the instance trait, options, answers, parse errors
//!
//! A puzzle module turns text into an [`Instance`]. The command line may first ask it to
//! [`prepare`](Instance::prepare) (heuristics within the run's limits), then to
//! [`build`](Instance::build) a model for the options the user gave, runs the engine's search
//! on it, and hands each solution back to [`answer`](Instance::answer), which decodes it,
//! renders it, and runs the puzzle's own checker on it. This file teaches the seam between
//! a problem and a solver: the puzzle knows its rules, the engine knows only variables and
//! constraints.
//!
//! It also holds the registry's entry type, [`PuzzleKind`]: each puzzle module declares in
//! one `KIND` everything the command line needs to know about it (name, aliases, summary,
//! how the instance is given, its seed, its default levels, the puzzle-only flags it takes),
//! so that neither the library nor the command line ever matches a puzzle's name.

use crate::grid::{for_each_grid_number, json_rows};
use engine::search::probing::ProbeAt;
use engine::{AllDiffLevel, Model, SearchConfig, Solution, VarId};
use serde_json::Value;
use std::fmt;

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

/// A flag that changes the model of some puzzles only. A puzzle lists those it reads in
/// [`PuzzleKind::flags`]; given to any other puzzle, the command line warns that it is
/// ignored (nothing a user asks for is dropped in silence). The flags every model reads
/// (`--alldiff`, the search flags) are not here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleFlag {
    /// `--colours K`: at most K colours ([`ModelOptions::colours`]).
    Colours,
    /// `--sum LEVEL`: the strength of "distinct digits summing to t" ([`ModelOptions::sum`]).
    Sum,
    /// `--viewpoint V`: which variables the model is stated in ([`ModelOptions::viewpoint`]).
    Viewpoint,
}

impl PuzzleFlag {
    /// Every puzzle-only flag, in the order `--help` lists them.
    pub const ALL: [PuzzleFlag; 3] = [PuzzleFlag::Colours, PuzzleFlag::Sum, PuzzleFlag::Viewpoint];

    /// The flag as the user types it.
    pub fn spelling(self) -> &'static str {
        match self {
            PuzzleFlag::Colours => "--colours",
            PuzzleFlag::Sum => "--sum",
            PuzzleFlag::Viewpoint => "--viewpoint",
        }
    }
}

/// The levels a puzzle's model uses when the user does not choose one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defaults {
    /// `--alldiff`.
    pub alldiff: AllDiffLevel,
    /// `--sum`.
    pub sum: SumLevel,
    /// `--probe-at`: where the search probes (engine/src/search/probing.rs).
    pub probe: ProbeAt,
    /// `--learn` / `--no-learn`: whether the search learns nogoods (engine/src/learning/).
    pub learn: bool,
}

impl Defaults {
    /// Domain-consistent all-different, bounds-consistent sums. Puzzles whose all-different
    /// constraints overlap (Sudoku, Strimko, ...) gain most from domain consistency, which
    /// searches far fewer nodes than forward checking; a puzzle that gains nothing says so in
    /// its own `KIND` (n-queens).
    pub const STANDARD: Defaults = Defaults {
        alldiff: AllDiffLevel::Domain,
        sum: SumLevel::Bounds,
        probe: ProbeAt::Off,
        learn: false,
    };
}

/// A puzzle the command line knows: one entry of the registry (`puzzles::all()`), declared
/// by the puzzle's own module as its `KIND`.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleKind {
    /// The command's name (`cpsolve NAME`), also the `puzzle` field of the JSON output.
    pub name: &'static str,
    /// Other names the command accepts for it (`binary-sudoku` for `takuzu`).
    pub aliases: &'static [&'static str],
    /// One line for `cpsolve --help`.
    pub summary: &'static str,
    /// Minimises something (the `OPTIMAL` status applies).
    pub optimisation: bool,
    pub input: Input,
    /// The seed's instance, in the file format (or the number for `Input::Number`).
    pub seed: &'static str,
    /// Where `seed` comes from, relative to the `puzzles/` folder (`None`: written inline,
    /// a number or a built-in instance). `puzzles/tests/registry.rs` checks that the file
    /// holds exactly `seed`.
    pub seed_file: Option<&'static str>,
    /// Parse a whole file (which may hold several instances).
    pub parse: Parse,
    /// The page that describes it, relative to the repository (`cpsolve help NAME` names it).
    pub page: Option<&'static str>,
    /// The levels used when the user does not choose one.
    pub defaults: Defaults,
    /// The puzzle-only flags its model reads.
    pub flags: &'static [PuzzleFlag],
}

impl PuzzleKind {
    /// The all-different level used when the user does not choose one (`--alldiff`).
    pub fn default_alldiff(&self) -> AllDiffLevel {
        self.defaults.alldiff
    }

    /// The sum level used when the user does not choose one (`--sum`).
    pub fn default_sum(&self) -> SumLevel {
        self.defaults.sum
    }

    /// Where the search probes when the user does not say (`--probe`, `--probe-at`).
    pub fn default_probe(&self) -> ProbeAt {
        self.defaults.probe
    }

    /// Whether the search learns when the user does not say (`--learn`, `--no-learn`).
    pub fn default_learn(&self) -> bool {
        self.defaults.learn
    }

    /// Does this puzzle's model read `flag`?
    pub fn takes(&self, flag: PuzzleFlag) -> bool {
        self.flags.contains(&flag)
    }

    /// Is `name` this puzzle's name or one of its aliases?
    pub fn is_called(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// A malformed input: the line (1-based; 0 when the file as a whole is wrong, e.g. empty)
/// and what is wrong. The command line adds the file name: `error: FILE:LINE: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl ParseError {
    pub fn new(line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

/// How strongly the sum constraints of a puzzle propagate (`--sum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SumLevel {
    /// Bounds consistency on the linear sum, plus all-different.
    #[default]
    Bounds,
    /// Domain consistency on "all-different digits summing to t" (precomputed digit sets).
    Domain,
}

impl std::str::FromStr for SumLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "bounds" => Ok(SumLevel::Bounds),
            "domain" => Ok(SumLevel::Domain),
            _ => Err(format!(
                "unknown sum level '{s}' (expected bounds or domain)"
            )),
        }
    }
}

/// The level as `--sum` spells it.
impl fmt::Display for SumLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SumLevel::Bounds => "bounds",
            SumLevel::Domain => "domain",
        })
    }
}

/// What the model is for: some puzzles build a different model to count (e.g. Match 22
/// counts distinct pictures, not turn vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Purpose {
    /// One solution, or the optimum.
    #[default]
    Solve,
    /// Count (or enumerate) every solution.
    Count,
}

/// Which variables a puzzle with several models of itself is stated in (the pigeonhole
/// puzzle of seed 004: the items numbered by rows, by columns, or both linked by channelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Viewpoint {
    /// Both viewpoints, channelled: each constraint stated where it is easy.
    #[default]
    Both,
    /// The row viewpoint only; the column constraints on the cells.
    Rows,
    /// The column viewpoint only; the row constraints on the cells.
    Columns,
}

impl std::str::FromStr for Viewpoint {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "both" => Ok(Viewpoint::Both),
            "rows" => Ok(Viewpoint::Rows),
            "columns" => Ok(Viewpoint::Columns),
            _ => Err(format!(
                "unknown viewpoint '{s}' (expected rows, columns or both)"
            )),
        }
    }
}

/// Options from the command line that change the model.
#[derive(Clone, Debug, Default)]
pub struct ModelOptions {
    pub alldiff: AllDiffLevel,
    pub sum: SumLevel,
    /// Graph colouring: at most this many colours (a satisfaction problem).
    pub colours: Option<u32>,
    pub purpose: Purpose,
    /// Pigeonhole: the viewpoint of the model (`--viewpoint`).
    pub viewpoint: Viewpoint,
    /// The search will learn nogoods (`--learn`): a puzzle may then choose an encoding whose
    /// explanations are small (nonogram: its lines' automaton states as variables).
    pub learn: bool,
}

/// What the optional preparation step ([`Instance::prepare`]) found before the search: the
/// model built with what it learnt (a clique, bounds, a solution to follow: the puzzle's own
/// data, in its own types, never seen by the caller), and an answer already found, which is
/// the run's answer if the search finds none.
#[derive(Clone, Debug, Default)]
pub struct Hints {
    /// The model to search instead of [`Instance::build`]'s (`None`: nothing prepared).
    /// (Boxed: `Hints` travels with every instance of a batch, most of them with nothing.)
    pub built: Option<Box<Built>>,
    /// A solution found while preparing, checked by the caller like any other.
    pub answer: Option<Answer>,
    /// `answer` is proved optimal (its objective meets a lower bound found while preparing).
    pub optimal: bool,
}

/// A model ready to search: the engine model, the search the puzzle recommends (branching
/// variables, heuristics, objective, projection), and the variables the puzzle needs to decode
/// a solution (their meaning is the puzzle's business).
#[derive(Clone, Debug)]
pub struct Built {
    pub model: Model,
    pub search: SearchConfig,
    pub vars: Vec<VarId>,
}

impl Built {
    /// The plainest search: branch on `cells` in their order with the engine's default
    /// heuristics, and decode a solution from the same cells.
    pub fn branching_on(model: Model, cells: Vec<VarId>) -> Built {
        let search = SearchConfig {
            branch_vars: Some(cells.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: cells,
        }
    }
}

/// A solution in the puzzle's own terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The `solution` field of the JSON output.
    pub json: AnswerJson,
    /// The picture printed in text mode (without the `----------` line).
    pub text: String,
    /// The objective value, for optimisation puzzles.
    pub objective: Option<i64>,
}

/// The `solution` field of an answer: rows of numbers kept as numbers, or any JSON value.
///
/// Why not always a [`Value`]: a file of 10,000 Sudokus gives 10,000 answers, and a `Value`
/// of 9 rows is 10 allocations to build, a tree to walk for the checker and the writer, and
/// 10 to free (a large share of the command's instructions outside the search; measured in
/// the performance record, docs/performance/history/targets-and-comparison.md). A grid
/// puzzle hands over its numbers instead; [`AnswerJson::to_value`] builds the `Value` for a
/// caller that really needs one. Either form writes the same JSON, and two answers are equal
/// when they write the same JSON.
#[derive(Clone, Debug)]
pub enum AnswerJson {
    /// `[[5,1,7,...], ...]`: `values` row-major, `width` numbers per row.
    Rows { values: Vec<i64>, width: usize },
    /// Any other shape.
    Value(Value),
}

impl AnswerJson {
    /// The answer as a JSON value: borrowed when it is one, built for `Rows`.
    pub fn to_value(&self) -> std::borrow::Cow<'_, Value> {
        match self {
            AnswerJson::Rows { values, width } => {
                std::borrow::Cow::Owned(json_rows(values, *width))
            }
            AnswerJson::Value(v) => std::borrow::Cow::Borrowed(v),
        }
    }
}

impl AnswerJson {
    /// The answer as `rows` rows of `cols` whole numbers in `lo..=hi`, row-major, for a grid
    /// puzzle's checker: borrowed from a `Rows` answer (no `Value` is built), read from a JSON
    /// one. `Err` for the first cell out of shape or range, with the messages of
    /// [`for_each_grid_number`].
    pub fn grid_numbers(
        &self,
        rows: usize,
        cols: usize,
        lo: i64,
        hi: i64,
    ) -> Result<std::borrow::Cow<'_, [i64]>, String> {
        match self {
            AnswerJson::Rows { values, width } if *width == cols && values.len() == rows * cols => {
                // Without an early exit the loop vectorises; the wrong cell is looked for only
                // when there is one.
                if values
                    .iter()
                    .fold(true, |ok, &v| ok & (lo <= v) & (v <= hi))
                {
                    return Ok(std::borrow::Cow::Borrowed(values));
                }
                let i = values.iter().position(|&v| v < lo || v > hi).unwrap_or(0);
                Err(format!(
                    "cell [{}, {}] must hold a number from {lo} to {hi}",
                    i / cols + 1,
                    i % cols + 1
                ))
            }
            // JSON, or rows of the wrong shape: the JSON reader names what is wrong.
            _ => {
                let mut values = Vec::with_capacity(rows * cols);
                for_each_grid_number(&self.to_value(), rows, cols, lo, hi, |_, _, v| {
                    values.push(v);
                    Ok(())
                })?;
                Ok(std::borrow::Cow::Owned(values))
            }
        }
    }
}

impl From<Value> for AnswerJson {
    fn from(value: Value) -> AnswerJson {
        AnswerJson::Value(value)
    }
}

impl PartialEq for AnswerJson {
    fn eq(&self, other: &AnswerJson) -> bool {
        self.to_value() == other.to_value()
    }
}

/// An answer compares with a JSON value (an expected solution in a test) as the JSON it writes.
impl PartialEq<Value> for AnswerJson {
    fn eq(&self, other: &Value) -> bool {
        *self.to_value() == *other
    }
}

/// Compact JSON, as `Value`'s own `Display` writes it.
impl fmt::Display for AnswerJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

/// A puzzle's parser: the text of a whole file into its instances (a file may hold several),
/// or the first error.
pub type Parse = fn(&str) -> Result<Vec<Box<dyn Instance>>, ParseError>;

/// One parsed instance of a puzzle.
pub trait Instance: Send + Sync + fmt::Debug {
    /// The model for these options. `Err` is a message for options that make no sense for this
    /// instance (e.g. `--colours 0`).
    fn build(&self, options: &ModelOptions) -> Result<Built, String>;

    /// An optional step instead of [`Instance::build`]: heuristics run within `limits`
    /// (deadline and stop flag) that give the model bounds or a solution to follow, and the
    /// model built with them ([`Hints::built`]). What the heuristics found stays in the
    /// puzzle's own types: it never crosses this trait. `build` itself stays pure: the same
    /// options give the same model. The default prepares nothing.
    fn prepare(&self, _options: &ModelOptions, _limits: &engine::Limits) -> Hints {
        Hints::default()
    }

    /// The prepared model, or [`Instance::build`]'s when nothing was prepared.
    fn build_prepared(
        &self,
        options: &ModelOptions,
        limits: &engine::Limits,
    ) -> Result<Built, String> {
        match self.prepare(options, limits).built {
            Some(built) => Ok(*built),
            None => self.build(options),
        }
    }

    /// Decode and render a solution of a model built by `build`.
    fn answer(&self, built: &Built, solution: &Solution) -> Answer;

    /// [`Instance::answer`] for JSON output, which never prints the picture: a puzzle may
    /// leave `text` empty here when drawing it costs much next to solving (a Sudoku in a
    /// batch of thousands, where solving one takes microseconds). The default builds
    /// the whole answer.
    fn answer_without_picture(&self, built: &Built, solution: &Solution) -> Answer {
        self.answer(built, solution)
    }

    /// Check an answer against the rules alone, without the engine: `Err` says which rule
    /// is broken.
    fn check(&self, answer: &Answer) -> Result<(), String>;

    /// How a person reads the variables of `built` (names such as "r2c3", values as the
    /// puzzle shows them), for traces and pictures of the search. The default names the
    /// variables of `built.vars` v1, v2, ... (`naming.rs` has the grid helpers).
    fn naming(&self, built: &Built) -> engine::search::Naming {
        engine::search::Naming::numbered(&built.vars, "v")
    }

    // ----- batch solving: one model shared by many instances -------------------------------
    //
    // A file of 10,000 Sudokus is 10,000 instances whose models differ only in their givens.
    // Building each model from scratch (variables, propagators, watch lists) costs more than
    // solving most of them, so a puzzle may instead say "my model is the shared model of key
    // K, narrowed by my givens". The caller builds that shared model once, and for each
    // instance opens a trail level, calls `restrict`, searches, and pops the level: the
    // model is back as it was, ready for the next instance. Puzzles that do not opt in are
    // built one by one.

    /// The key of the shared model this instance is a restriction of (instances with equal
    /// keys, under equal options, share it), or `None` to be built on its own.
    fn shared_model_key(&self) -> Option<u64> {
        None
    }

    /// The shared model (without this instance's own data). Only called when
    /// `shared_model_key` is `Some`. It is built once and used for every instance with the
    /// same key, so it must depend on nothing of this instance but the key.
    fn build_shared(&self, options: &ModelOptions) -> Result<Built, String> {
        self.build(options)
    }

    /// Narrow the shared model to this instance (fix its givens) at the current trail level.
    /// `Err` if that fails at once (the caller then builds the instance on its own, which
    /// reports it as unsatisfiable).
    fn restrict(&self, _built: &mut Built) -> Result<(), engine::Conflict> {
        Ok(())
    }
}
