//! # Strimko: a Latin square whose "boxes" are arbitrary streams
//!
//! Fill an n×n grid with 1..n so that every row, every column and every stream (a chain of n
//! cells sharing a letter) holds each number once; some cells are given.
//!
//! **Model (seed 002).** Chlond's set-based model, as the seed writes it: one variable
//! `v[i][j] ∈ 1..n` per cell, `AllDifferent` over each row, each column and each stream, and
//! the givens fixed. The code is the same sentence: 3n all-different constraints of n cells.
//! It teaches that the all-different does not care about the *shape* of its set: Sudoku's boxes,
//! Strimko's streams and Kakuro's runs are one constraint over different families of cells.
//!
//! **Propagation.** All-different at the `--alldiff` level; search smallest domain first.
//!
//! Run it: `cpsolve strimko`, `cpsolve strimko board.txt --alldiff domain`.

use crate::common::{check_distinct, check_text, content_lines, json_number_grid, parse_cell};
use crate::common::{post_failure, sections, Section};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Solution};

pub const KIND: PuzzleKind = PuzzleKind {
    name: "strimko",
    aliases: &[],
    summary: "Strimko: a Latin square whose streams also hold 1..n",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/strimko.txt"),
    seed_file: Some("instances/seed/strimko.txt"),
    parse,
    page: Some("docs/puzzles/strimko.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest side accepted.
pub const MAX_N: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strimko {
    pub n: usize,
    /// The stream names, in order of first appearance.
    pub stream_names: Vec<String>,
    /// The stream of each cell (an index into `stream_names`), row by row.
    pub stream_of: Vec<usize>,
    /// The givens row by row, 0 for blank.
    pub givens: Vec<u32>,
}

/// The rows of a grid section: exactly `n` rows (n = the number of rows when `None`) of `n`
/// whitespace-separated tokens each.
fn grid_rows<'a>(section: &Section<'a>, n: usize) -> Result<Vec<Vec<&'a str>>, ParseError> {
    if section.body.len() != n {
        let line = section.body.last().map_or(section.line, |&(l, _)| l);
        return Err(ParseError::new(
            line,
            format!(
                "'{}' has {} rows, expected {n} (one per row of the {n}×{n} grid)",
                section.name,
                section.body.len()
            ),
        ));
    }
    let mut rows = Vec::with_capacity(n);
    for &(line, text) in &section.body {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() != n {
            return Err(ParseError::new(
                line,
                format!(
                    "a row of '{}' has {} cells, expected {n}",
                    section.name,
                    tokens.len()
                ),
            ));
        }
        rows.push(tokens);
    }
    Ok(rows)
}

/// Parse `streams` (n rows of n stream names) and, optionally, `givens` (n rows of `.` or
/// 1..n).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(
            0,
            "empty file: expected a 'streams' section (and a 'givens' section)",
        ));
    }
    let all = sections(&lines, &["streams", "givens"])?;
    for s in &all {
        if !s.args.is_empty() {
            return Err(ParseError::new(
                s.line,
                format!("unexpected '{}' after '{}'", s.args, s.name),
            ));
        }
    }
    let streams = all.iter().find(|s| s.name == "streams").ok_or_else(|| {
        ParseError::new(
            all[0].line,
            "no 'streams' section: expected 'streams' and n rows of stream names",
        )
    })?;
    let n = streams.body.len();
    if n == 0 || n > MAX_N {
        return Err(ParseError::new(
            streams.line,
            format!("'streams' must be followed by n rows, 1 <= n <= {MAX_N}; found {n}"),
        ));
    }
    let rows = grid_rows(streams, n)?;
    let mut stream_names: Vec<String> = Vec::new();
    let mut first_line: Vec<usize> = Vec::new();
    let mut stream_of = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        for name in row {
            let s = match stream_names.iter().position(|s| s == name) {
                Some(s) => s,
                None => {
                    stream_names.push(name.to_string());
                    first_line.push(streams.body[r].0);
                    stream_names.len() - 1
                }
            };
            stream_of.push(s);
        }
    }
    for (s, name) in stream_names.iter().enumerate() {
        let size = stream_of.iter().filter(|&&t| t == s).count();
        if size != n {
            return Err(ParseError::new(
                first_line[s],
                format!(
                    "stream '{name}' has {size} cells, expected {n} (a stream holds 1..{n} once)"
                ),
            ));
        }
    }
    let mut givens = vec![0; n * n];
    if let Some(section) = all.iter().find(|s| s.name == "givens") {
        let rows = grid_rows(section, n)?;
        for (r, row) in rows.iter().enumerate() {
            for (c, token) in row.iter().enumerate() {
                match parse_cell(token, n as u32) {
                    Some(v) => givens[r * n + c] = v.unwrap_or(0),
                    None => {
                        return Err(ParseError::new(
                            section.body[r].0,
                            format!("unexpected '{token}': a given is a number 1..{n}, '.' or '0'"),
                        ))
                    }
                }
            }
        }
    }
    Ok(vec![Box::new(Strimko {
        n,
        stream_names,
        stream_of,
        givens,
    })])
}

impl Strimko {
    /// The rows, the columns and the streams, as lists of cell indices, with their names.
    pub fn units(&self) -> Vec<(String, Vec<usize>)> {
        crate::grid::rows_columns_groups(self.n, &self.stream_of, &self.stream_names, "stream")
    }

    pub fn model(&self, options: &ModelOptions) -> Built {
        let n = self.n;
        let mut model = Model::new();
        let cells = model.new_vars(n * n, 1, n as i32);
        for (&x, &g) in cells.iter().zip(&self.givens) {
            if g != 0 && model.fix(x, g as i32).is_err() {
                post_failure(&mut model);
            }
        }
        for (_, unit) in self.units() {
            let xs: Vec<_> = unit.iter().map(|&i| cells[i]).collect();
            let _ = model.all_different(&xs, options.alldiff);
        }
        Built::branching_on(model, cells)
    }

    /// Rules only: 1..n everywhere, givens kept, rows, columns and streams all different.
    pub fn check_grid(&self, grid: &[Vec<i64>]) -> Result<(), String> {
        let n = self.n;
        for (i, &g) in self.givens.iter().enumerate() {
            if g != 0 && grid[i / n][i % n] != g as i64 {
                return Err(format!(
                    "cell [{}, {}] is given as {g} but holds {}",
                    i / n + 1,
                    i % n + 1,
                    grid[i / n][i % n]
                ));
            }
        }
        for (name, unit) in self.units() {
            let values: Vec<i64> = unit.iter().map(|&i| grid[i / n][i % n]).collect();
            check_distinct(&values, &name)?;
        }
        Ok(())
    }
}

impl Instance for Strimko {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let n = self.n;
        let values = crate::common::values_of(&built.vars, solution);
        let rows: Vec<Vec<Option<i64>>> = values
            .chunks(n)
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .collect();
        let json = crate::common::json_rows(&values, n);
        Answer {
            json: json.into(),
            text: crate::common::render_grid(&rows),
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = json_number_grid(&answer.json.to_value(), self.n, self.n, 1, self.n as i64)?;
        self.check_grid(&grid)
    }

    /// Cells "r1c1"..; the streams bordered.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut naming = crate::naming::grid(&built.vars, self.n);
        naming.layout.regions = self.stream_of.clone();
        naming
    }
}
