//! # What every puzzle shares: the instance trait, options, answers, parse errors
//!
//! A puzzle module turns text into an [`Instance`]. The command line then asks the instance to
//! [`build`](Instance::build) a model for the options the user gave, runs the engine's search
//! on it, and hands each solution back to [`answer`](Instance::answer), which decodes it,
//! renders it, and runs the puzzle's own checker on it.

use engine::{AllDiffLevel, Model, SearchConfig, Solution, VarId};
use serde_json::Value;
use std::fmt;

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

/// Options from the command line that change the model.
#[derive(Clone, Debug, Default)]
pub struct ModelOptions {
    pub alldiff: AllDiffLevel,
    pub sum: SumLevel,
    /// Graph colouring: at most this many colours (a satisfaction problem).
    pub colours: Option<u32>,
    pub purpose: Purpose,
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

/// A solution in the puzzle's own terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The `solution` field of the JSON output.
    pub json: Value,
    /// The picture printed in text mode (without the `----------` line).
    pub text: String,
    /// The objective value, for optimisation puzzles.
    pub objective: Option<i64>,
}

/// One parsed instance of a puzzle.
pub trait Instance: Send + Sync + fmt::Debug {
    /// The model for these options. `Err` is a message for options that make no sense for this
    /// instance (e.g. `--colours 0`).
    fn build(&self, options: &ModelOptions) -> Result<Built, String>;

    /// Decode and render a solution of a model built by `build`.
    fn answer(&self, built: &Built, solution: &Solution) -> Answer;

    /// Check an answer against the rules alone, without the engine: `Err` says which rule
    /// is broken.
    fn check(&self, answer: &Answer) -> Result<(), String>;
}

// ----- small helpers shared by the parsers ------------------------------------------------

/// The lines of a file that carry content: `(1-based line number, trimmed text)`, skipping
/// blank lines and `%` comments (FORMATS.md, "Common rules").
pub fn content_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('%'))
        .collect()
}

/// Reject binary input: a NUL byte or invalid UTF-8 is reported by the command line before
/// parsing; this catches control characters other than tab, CR and LF.
pub fn check_text(text: &str) -> Result<(), ParseError> {
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = line
            .chars()
            .find(|&c| c.is_control() && c != '\t' && c != '\r')
        {
            return Err(ParseError::new(
                i + 1,
                format!(
                    "unexpected control character {:?}: not a text puzzle file",
                    c
                ),
            ));
        }
    }
    Ok(())
}

/// Render a grid of optional numbers as text, `·` for `None`, columns aligned.
pub fn render_grid(rows: &[Vec<Option<i64>>]) -> String {
    let width = rows
        .iter()
        .flatten()
        .map(|c| c.map_or(1, |v| v.to_string().len()))
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                Some(v) => format!("{v:>width$}"),
                None => format!("{:>width$}", "·"),
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}
