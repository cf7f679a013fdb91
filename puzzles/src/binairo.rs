//! # Binairo and Takuzu (Binary Sudoku): balanced binary grids
//!
//! Fill a grid with 0s and 1s so that every row and column holds as many 0s as 1s and no three
//! equal cells are adjacent in a row or column (`binairo`, janko's rules). `takuzu` (Hartmann's
//! Binary Sudoku, also `binary-sudoku`) adds: all rows are different, all columns are different.
//!
//! **Model (seed 000).** One 0/1 variable per cell. Balance is a sum `Σ row = W/2`. "No three
//! in a row" is, for every window of three consecutive cells, `1 ≤ Σ window ≤ 2`. Distinct
//! rows (and columns) are all-different over *tuples*: the engine's `vectors_differ`
//! propagator, one per pair of rows, which is domain consistent for the pair (see
//! `engine/src/propagators/vectors.rs` for why not a lexicographic ordering: the rows are
//! not interchangeable, so ordering them would lose solutions). It teaches that a global
//! constraint can range over vectors, not only over single variables.
//!
//! Run it: `cpsolve takuzu`, `cpsolve binairo puzzles/instances/beyond/binairo8-3.txt --count`.

use crate::common::{check_text, content_lines};
use crate::common::{Answer, AnswerJson, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Relation, SearchConfig, Solution, VarSelect};

pub const BINAIRO: PuzzleKind = PuzzleKind {
    name: "binairo",
    aliases: &[],
    summary: "Binairo: balanced 0/1 rows and columns, no three equal in a row",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/binairo6-2.txt"),
    seed_file: Some("instances/beyond/binairo6-2.txt"),
    parse: parse_binairo,
    page: Some("docs/puzzles/binairo.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

pub const TAKUZU: PuzzleKind = PuzzleKind {
    name: "takuzu",
    aliases: &["binary-sudoku"],
    summary: "Takuzu (binary-sudoku): Binairo with all rows and all columns different",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/takuzu6-2.txt"),
    seed_file: Some("instances/beyond/takuzu6-2.txt"),
    parse: parse_takuzu,
    page: Some("docs/puzzles/binairo.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binairo {
    pub rows: usize,
    pub cols: usize,
    /// `Some(0)`, `Some(1)` given, `None` blank; row-major.
    pub givens: Vec<Option<u8>>,
    /// Takuzu's extra rule: all rows different, all columns different.
    pub distinct_lines: bool,
}

pub fn parse_binairo(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_grid(text, false)?)])
}

pub fn parse_takuzu(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_grid(text, true)?)])
}

/// A grid of `0`, `1`, `.`: one character per cell, or whitespace-separated tokens.
pub fn parse_grid(text: &str, distinct_lines: bool) -> Result<Binairo, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(
            0,
            "empty file: expected rows of 0, 1 and .",
        ));
    }
    let mut givens = Vec::new();
    let mut cols = 0;
    for (i, &(line, row)) in lines.iter().enumerate() {
        let cells: Vec<String> = if row.contains(char::is_whitespace) {
            row.split_whitespace().map(str::to_string).collect()
        } else {
            row.chars().map(|c| c.to_string()).collect()
        };
        for cell in &cells {
            givens.push(match cell.as_str() {
                "0" => Some(0),
                "1" => Some(1),
                "." => None,
                _ => {
                    return Err(ParseError::new(
                        line,
                        format!("unexpected '{cell}': a cell is 0, 1 or '.' (janko's 2 is written 0, '-' is '.')"),
                    ))
                }
            });
        }
        if i == 0 {
            cols = cells.len();
        } else if cells.len() != cols {
            return Err(ParseError::new(
                line,
                format!(
                    "a row has {} cells, expected {cols} like the first row",
                    cells.len()
                ),
            ));
        }
    }
    let rows = lines.len();
    let last = lines[rows - 1].0;
    if rows % 2 == 1 || cols % 2 == 1 {
        return Err(ParseError::new(
            last,
            format!(
                "the grid is {rows}×{cols}: rows and columns must both be even (as many 0s as 1s)"
            ),
        ));
    }
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(ParseError::new(
            last,
            format!("the grid is {rows}×{cols}, larger than {MAX_SIDE}×{MAX_SIDE}"),
        ));
    }
    Ok(Binairo {
        rows,
        cols,
        givens,
        distinct_lines,
    })
}

impl Binairo {
    /// Every row and every column, as lists of cells.
    fn lines(&self) -> Vec<(String, Vec<usize>)> {
        let (h, w) = (self.rows, self.cols);
        let mut out = Vec::with_capacity(h + w);
        for r in 0..h {
            out.push((
                format!("row {}", r + 1),
                (0..w).map(|c| r * w + c).collect(),
            ));
        }
        for c in 0..w {
            out.push((
                format!("column {}", c + 1),
                (0..h).map(|r| r * w + c).collect(),
            ));
        }
        out
    }

    pub fn model(&self) -> Built {
        let (h, w) = (self.rows, self.cols);
        let mut model = Model::new();
        let cells = model.new_vars(h * w, 0, 1);
        for (&x, g) in cells.iter().zip(&self.givens) {
            if let Some(v) = g {
                let _ = model.fix(x, *v as i32);
            }
        }
        for (_, line) in self.lines() {
            let terms: Vec<(i64, _)> = line.iter().map(|&i| (1, cells[i])).collect();
            model.linear(&terms, Relation::Eq, line.len() as i64 / 2);
            for window in line.windows(3) {
                let terms: Vec<(i64, _)> = window.iter().map(|&i| (1, cells[i])).collect();
                model.linear(&terms, Relation::Ge, 1);
                model.linear(&terms, Relation::Le, 2);
            }
        }
        if self.distinct_lines {
            let rows: Vec<Vec<_>> = (0..h).map(|r| cells[r * w..(r + 1) * w].to_vec()).collect();
            let columns: Vec<Vec<_>> = (0..w)
                .map(|c| (0..h).map(|r| cells[r * w + c]).collect())
                .collect();
            model.all_different_vectors(&rows);
            model.all_different_vectors(&columns);
        }
        let search = SearchConfig {
            // Every cell has two values, so first-fail is input order; dom/wdeg branches where
            // the balance and window constraints have failed (measured on the janko.at set:
            // docs/PERFORMANCE.md, "The puzzles beyond the seeds on the public sets").
            var_select: VarSelect::DomWDeg,
            branch_vars: Some(cells.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: cells,
        }
    }

    /// Rules only.
    pub fn check_grid(&self, grid: &[i64]) -> Result<(), String> {
        for (i, g) in self.givens.iter().enumerate() {
            if let Some(v) = g {
                if grid[i] != *v as i64 {
                    return Err(format!(
                        "cell [{}, {}] is given as {v}",
                        i / self.cols + 1,
                        i % self.cols + 1
                    ));
                }
            }
        }
        let mut seen_rows: Vec<Vec<i64>> = Vec::new();
        let mut seen_cols: Vec<Vec<i64>> = Vec::new();
        for (name, line) in self.lines() {
            let values: Vec<i64> = line.iter().map(|&i| grid[i]).collect();
            let ones = values.iter().filter(|&&v| v == 1).count();
            if 2 * ones != values.len() {
                return Err(format!("{name} holds {ones} 1s out of {}", values.len()));
            }
            if values.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) {
                return Err(format!("{name} has three equal cells in a row"));
            }
            if self.distinct_lines {
                let seen = if name.starts_with("row") {
                    &mut seen_rows
                } else {
                    &mut seen_cols
                };
                if seen.contains(&values) {
                    return Err(format!("{name} repeats an earlier line"));
                }
                seen.push(values);
            }
        }
        Ok(())
    }
}

impl Instance for Binairo {
    fn build(&self, _options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model())
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        let mut text = String::new();
        for row in values.chunks(self.cols) {
            let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        Answer {
            text,
            json: AnswerJson::Rows {
                values,
                width: self.cols,
            },
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = answer.json.grid_numbers(self.rows, self.cols, 0, 1)?;
        self.check_grid(&grid)
    }

    /// Cells "r1c1"..: 0 or 1, the 1s shaded.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut naming = crate::naming::grid(&built.vars, self.cols);
        naming.layout.value_colours = crate::naming::words(&["#fff", "#b8c8e8"]);
        naming
    }
}
