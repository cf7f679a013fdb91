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
    /// What [`Instance::prepare`] found, for `build` to use (empty: nothing prepared).
    pub hints: Hints,
}

/// What the optional preparation step ([`Instance::prepare`]) found before the model is
/// built: data for the puzzle's own `build` (a clique, bounds, a solution to follow), and an
/// answer already found, which is the run's answer if the search finds none.
#[derive(Clone, Debug, Default)]
pub struct Hints {
    /// The puzzle's own data, read back by its `build` (`downcast_ref`).
    pub data: Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>,
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
/// 10 to free (about a quarter of the command's instructions outside the search). A grid
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

    /// An optional step before [`Instance::build`]: heuristics run within `limits` (deadline
    /// and stop flag) that give the model bounds or a solution to follow, passed back to
    /// `build` in [`ModelOptions::hints`]. `build` itself stays pure: the same options give
    /// the same model. The default prepares nothing.
    fn prepare(&self, _options: &ModelOptions, _limits: &engine::Limits) -> Hints {
        Hints::default()
    }

    /// [`Instance::prepare`], then [`Instance::build`] with what it found.
    fn build_prepared(
        &self,
        options: &ModelOptions,
        limits: &engine::Limits,
    ) -> Result<Built, String> {
        let hints = self.prepare(options, limits);
        self.build(&ModelOptions {
            hints,
            ..options.clone()
        })
    }

    /// Decode and render a solution of a model built by `build`.
    fn answer(&self, built: &Built, solution: &Solution) -> Answer;

    /// [`Instance::answer`] for JSON output, which never prints the picture: a puzzle may
    /// leave `text` empty here when drawing it costs much next to solving (a Sudoku in a
    /// batch of thousands: about 3 % of the command's instructions). The default builds
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

// ----- small helpers shared by the parsers ------------------------------------------------

/// The lines of a file that carry content: `(1-based line number, trimmed text)`, skipping
/// blank lines and `%` comments (FORMATS.md, "Common rules").
pub fn content_lines(text: &str) -> Vec<(usize, &str)> {
    iter_content_lines(text).collect()
}

/// [`content_lines`] one at a time, for a caller that may stop early (is there any
/// content at all, in a batch of thousands of lines?).
pub fn iter_content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('%'))
}

/// Reject binary input: a NUL byte or invalid UTF-8 is reported by the command line before
/// parsing; this catches control characters other than tab, CR and LF.
pub fn check_text(text: &str) -> Result<(), ParseError> {
    // The common case first, a byte at a time: printable ASCII, tab and line ends only (a
    // file of 10,000 Sudokus is 820,000 bytes). Anything else is looked at character by
    // character below.
    if text
        .bytes()
        .all(|b| matches!(b, b' '..=b'~' | b'\t' | b'\r' | b'\n'))
    {
        return Ok(());
    }
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

/// The values of `vars` in a solution (a grid puzzle's cells, row-major).
pub fn values_of(vars: &[VarId], solution: &Solution) -> Vec<i64> {
    vars.iter().map(|&x| solution.value(x) as i64).collect()
}

/// Row-major `values` as the JSON rows of FORMATS.md: `[[5,1,7,...], ...]`, `width` per row.
pub fn json_rows(values: &[i64], width: usize) -> Value {
    Value::Array(
        values
            .chunks(width)
            .map(|row| Value::Array(row.iter().map(|&v| Value::from(v)).collect()))
            .collect(),
    )
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

// ----- helpers shared by the grid puzzles (sudoku, strimko, suko, kakuro) ------------------

/// A cell token of a number grid: `.` or `0` is a blank (`Some(None)`), `1..=max` a given
/// (`Some(Some(v))`); anything else is not a cell (`None`).
pub fn parse_cell(token: &str, max: u32) -> Option<Option<u32>> {
    match token {
        "." | "0" => Some(None),
        _ if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) => token
            .parse::<u32>()
            .ok()
            .filter(|&v| v >= 1 && v <= max)
            .map(Some),
        _ => None,
    }
}

/// Make `model` fail at the root: posted when a puzzle's givens already contradict each other
/// (e.g. [`Model::fix`] returned a conflict), so that the search reports `UNSATISFIABLE`
/// instead of the parser calling a well-formed file malformed.
pub fn post_failure(model: &mut Model) {
    let b = model.new_bool();
    let _ = model.linear(&[(1, b)], engine::Relation::Eq, 2);
}

/// Read an answer's JSON as `rows` × `cols` cells, each a whole number or `null` (`None`).
/// For the checkers: a shape error is a broken answer, not a panic.
pub fn json_grid(json: &Value, rows: usize, cols: usize) -> Result<Vec<Vec<Option<i64>>>, String> {
    let list = json.as_array().ok_or("solution is not a list of rows")?;
    if list.len() != rows {
        return Err(format!("expected {rows} rows, found {}", list.len()));
    }
    let mut grid = Vec::with_capacity(rows);
    for (r, row) in list.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| format!("row {} is not a list", r + 1))?;
        if cells.len() != cols {
            return Err(format!(
                "row {} has {} cells, expected {cols}",
                r + 1,
                cells.len()
            ));
        }
        let mut out = Vec::with_capacity(cols);
        for (c, cell) in cells.iter().enumerate() {
            out.push(match cell {
                Value::Null => None,
                v => {
                    Some(v.as_i64().ok_or_else(|| {
                        format!("cell [{}, {}] is not a whole number", r + 1, c + 1)
                    })?)
                }
            });
        }
        grid.push(out);
    }
    Ok(grid)
}

/// [`json_grid`] where every cell must be a number in `lo..=hi` (read in one pass, without
/// the grid of `Option`s).
pub fn json_number_grid(
    json: &Value,
    rows: usize,
    cols: usize,
    lo: i64,
    hi: i64,
) -> Result<Vec<Vec<i64>>, String> {
    let mut out = vec![Vec::with_capacity(cols); rows];
    for_each_grid_number(json, rows, cols, lo, hi, |r, _, v| {
        out[r].push(v);
        Ok(())
    })?;
    Ok(out)
}

/// Walk a JSON grid of `rows` rows of `cols` numbers in `lo..=hi`, row by row, calling
/// `visit(row, col, value)` on each (0-based), without copying it: a checker that needs
/// only one pass (every Sudoku answer of a batch goes through here) allocates nothing.
/// `Err` for the first cell out of shape or range, or the first `Err` of `visit`.
pub fn for_each_grid_number(
    json: &Value,
    rows: usize,
    cols: usize,
    lo: i64,
    hi: i64,
    mut visit: impl FnMut(usize, usize, i64) -> Result<(), String>,
) -> Result<(), String> {
    let list = json.as_array().ok_or("solution is not a list of rows")?;
    if list.len() != rows {
        return Err(format!("expected {rows} rows, found {}", list.len()));
    }
    for (r, row) in list.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| format!("row {} is not a list", r + 1))?;
        if cells.len() != cols {
            return Err(format!(
                "row {} has {} cells, expected {cols}",
                r + 1,
                cells.len()
            ));
        }
        for (c, cell) in cells.iter().enumerate() {
            match cell.as_i64() {
                Some(v) if (lo..=hi).contains(&v) => visit(r, c, v)?,
                None if !cell.is_null() => {
                    return Err(format!("cell [{}, {}] is not a whole number", r + 1, c + 1))
                }
                _ => {
                    return Err(format!(
                        "cell [{}, {}] must hold a number from {lo} to {hi}",
                        r + 1,
                        c + 1
                    ))
                }
            }
        }
    }
    Ok(())
}

/// `Err` naming `what` if two of `values` are equal.
pub fn check_distinct(values: &[i64], what: &str) -> Result<(), String> {
    for (i, a) in values.iter().enumerate() {
        if values[i + 1..].contains(a) {
            return Err(format!("{what} holds {a} twice"));
        }
    }
    Ok(())
}

/// Every solution of `instance` under `options` (up to `limit`, if given), each decoded and
/// run through the puzzle's checker; the flag says whether the search was complete. The
/// puzzles' tests use it to compare answers across all-different levels.
pub fn all_solutions(
    instance: &dyn Instance,
    options: &ModelOptions,
    limit: Option<u64>,
) -> Result<(Vec<Answer>, bool), String> {
    let built = instance.build(options)?;
    let mut model = built.model.clone();
    let config = SearchConfig {
        solution_limit: limit,
        ..built.search.clone()
    };
    let mut answers = Vec::new();
    let mut failed = None;
    let outcome = engine::search(
        &mut model,
        &config,
        &mut engine::search::NoListener,
        &mut |solution| {
            let answer = instance.answer(&built, solution);
            if let Err(e) = instance.check(&answer) {
                failed = Some(format!(
                    "the checker rejects a solution: {e}\n{}",
                    answer.text
                ));
                return engine::Control::Stop;
            }
            answers.push(answer);
            engine::Control::Continue
        },
    );
    match failed {
        Some(e) => Err(e),
        None => Ok((answers, outcome.complete)),
    }
}

/// [`all_solutions`] at each all-different level (value, bounds, domain), which must agree:
/// a stronger propagator may only prune more, never change the answers. Returns the answers
/// of the first level.
pub fn all_solutions_every_level(
    instance: &dyn Instance,
    options: &ModelOptions,
    limit: Option<u64>,
) -> Result<(Vec<Answer>, bool), String> {
    let levels = [
        AllDiffLevel::Value,
        AllDiffLevel::Bounds,
        AllDiffLevel::Domain,
    ];
    all_solutions_at_levels(instance, options, limit, &levels)
}

/// [`all_solutions_every_level`] for the given levels only (the first one is the reference).
pub fn all_solutions_at_levels(
    instance: &dyn Instance,
    options: &ModelOptions,
    limit: Option<u64>,
    levels: &[AllDiffLevel],
) -> Result<(Vec<Answer>, bool), String> {
    let mut first: Option<(Vec<Answer>, bool)> = None;
    for &level in levels {
        let options = ModelOptions {
            alldiff: level,
            ..options.clone()
        };
        let found = all_solutions(instance, &options, limit)?;
        // The order of the solutions may differ between levels; the set must not.
        let sorted = |answers: &[Answer]| {
            let mut v: Vec<String> = answers.iter().map(|a| a.json.to_string()).collect();
            v.sort();
            v
        };
        match &first {
            None => first = Some(found),
            Some(f) => {
                let same = if limit.is_none() {
                    f.1 == found.1 && sorted(&f.0) == sorted(&found.0)
                } else {
                    f.0.len() == found.0.len()
                };
                if !same {
                    return Err(format!(
                        "--alldiff {level} finds {} solutions (complete: {}), --alldiff {} {} (complete: {}), or others",
                        found.0.len(),
                        found.1,
                        levels[0],
                        f.0.len(),
                        f.1
                    ));
                }
            }
        }
    }
    first.ok_or_else(|| "no all-different level given".to_string())
}

/// A section of a keyword file (Strimko's `streams`/`givens`, Suko's `groups`/`inner`/`totals`,
/// V3ck's `colours`/`edges`/`tallies`): the header line, the text after the keyword on that
/// line, and the content lines up to the next header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    pub line: usize,
    pub name: &'a str,
    pub args: &'a str,
    pub body: Vec<(usize, &'a str)>,
}

/// Split content lines into sections whose first word is one of `names`. Content before the
/// first header and a section given twice are errors.
pub fn sections<'a>(
    lines: &[(usize, &'a str)],
    names: &[&'a str],
) -> Result<Vec<Section<'a>>, ParseError> {
    let mut out: Vec<Section<'a>> = Vec::new();
    for &(line, text) in lines {
        let word = text.split_whitespace().next().unwrap_or("");
        if let Some(&name) = names.iter().find(|&&n| n == word) {
            if let Some(earlier) = out.iter().find(|s| s.name == name) {
                return Err(ParseError::new(
                    line,
                    format!(
                        "a second '{name}' section (the first is on line {})",
                        earlier.line
                    ),
                ));
            }
            out.push(Section {
                line,
                name,
                args: text[word.len()..].trim(),
                body: Vec::new(),
            });
        } else {
            match out.last_mut() {
                Some(section) => section.body.push((line, text)),
                None => {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "unexpected '{}': expected a section header ({})",
                            word,
                            names.join(", ")
                        ),
                    ))
                }
            }
        }
    }
    Ok(out)
}

// ----- helpers for the puzzles' robustness tests -------------------------------------------

/// `text` with `edits` applied, each `(position, character, operation)`: operation 0 inserts
/// the character, 1 deletes, 2 replaces (positions taken modulo the length). The property tests
/// feed it random edits of valid files.
pub fn mutate(text: &str, edits: &[(usize, char, u8)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, c, op) in edits {
        let i = at % (chars.len() + 1);
        match op {
            0 => chars.insert(i, c),
            1 if i < chars.len() => {
                let _ = chars.remove(i);
            }
            _ if i < chars.len() => chars[i] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Parse `text`; for whatever parses, build each instance (at most `max_instances`) under each
/// of `options` and search briefly (200 nodes): any solution found must pass the checker. The
/// property tests call it on random input, where the only thing asserted is "no panic, no
/// wrong answer".
pub fn parse_and_poke(parse: Parse, text: &str, options: &[ModelOptions], max_instances: usize) {
    let Ok(instances) = parse(text) else {
        return;
    };
    for instance in instances.iter().take(max_instances) {
        for o in options {
            let Ok(built) = instance.build(o) else {
                continue;
            };
            let mut model = built.model.clone();
            let config = SearchConfig {
                solution_limit: Some(1),
                limits: engine::Limits {
                    nodes: Some(200),
                    ..Default::default()
                },
                ..built.search.clone()
            };
            if let Some(solution) = engine::solve(&mut model, &config).best {
                let answer = instance.answer(&built, &solution);
                if let Err(e) = instance.check(&answer) {
                    panic!("the checker rejects a solution: {e}\n{}", answer.text);
                }
            }
        }
    }
}

// ----- helpers shared by the board puzzles (slider, loop, monodot, match22) -----------------

/// A rectangle of one-character cells (Slider, Infinity Loop): every content line is a row,
/// whitespace inside a line is ignored, and every row must have the same length. Returns
/// `(1-based line number, cells)` per row.
pub fn char_rows(text: &str) -> Result<Vec<(usize, Vec<char>)>, ParseError> {
    check_text(text)?;
    let rows: Vec<(usize, Vec<char>)> = content_lines(text)
        .into_iter()
        .map(|(line, l)| (line, l.chars().filter(|c| !c.is_whitespace()).collect()))
        .collect();
    let Some((first_line, first)) = rows.first() else {
        return Err(ParseError::new(0, "empty file: expected rows of cells"));
    };
    for (line, cells) in &rows {
        if cells.len() != first.len() {
            return Err(ParseError::new(
                *line,
                format!(
                    "row has {} cells, expected {} like the first row (line {first_line})",
                    cells.len(),
                    first.len()
                ),
            ));
        }
    }
    Ok(rows)
}

/// A whole number `token` on line `line`, between `lo` and `hi`, described as `what` in the
/// error message.
pub fn parse_number(
    line: usize,
    token: &str,
    what: &str,
    lo: usize,
    hi: usize,
) -> Result<usize, ParseError> {
    match token.parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(ParseError::new(
            line,
            format!("{what} must be between {lo} and {hi}, found {n}"),
        )),
        Err(_) => Err(ParseError::new(
            line,
            format!("expected {what}, a whole number, found '{token}'"),
        )),
    }
}

/// The up-to-eight cells a chess king reaches from `(r, c)` on a `rows × cols` board.
pub fn king_neighbours(rows: usize, cols: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(8);
    for dr in -1i64..=1 {
        for dc in -1i64..=1 {
            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
            if (dr, dc) != (0, 0) && nr >= 0 && nc >= 0 && nr < rows as i64 && nc < cols as i64 {
                out.push((nr as usize, nc as usize));
            }
        }
    }
    out
}
