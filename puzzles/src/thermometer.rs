//! # Thermometers: fill each tube from its bulb so that rows and columns meet their counts
//!
//! Every cell lies on at most one thermometer; a thermometer is filled from its bulb
//! (position 1) without a gap, and each row and column holds a given number of filled cells.
//!
//! **Model (seed 001, Hartmann's).** One 0/1 variable per cell; a cell on no thermometer is
//! fixed to 0. A row or column count is a linear sum `Σ x = count`. "No gap" is an *ordering*
//! chain along each thermometer: `x[k+1] ≤ x[k]` for consecutive positions, so a filled
//! position forces every position before it and an empty one empties every position after it.
//! It teaches that a chain of binary inequalities is already a global constraint (the
//! filled prefix of a thermometer is decided by one number, its level) and that bounds
//! reasoning on the sums does the rest: most boards fall without search.
//!
//! Run it: `cpsolve thermometer`, `cpsolve thermometer puzzles/instances/beyond/thermometer6x6-3.txt --count`.

use crate::common::{check_text, content_lines, parse_number};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Relation, SearchConfig, Solution, VarSelect};
use std::collections::HashMap;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "thermometer",
    aliases: &[],
    summary: "Thermometers: fill tubes from the bulb to meet row and column counts",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/thermometer4x4-1.txt"),
    seed_file: Some("instances/beyond/thermometer4x4-1.txt"),
    parse,
    page: Some("docs/puzzles/thermometer.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermometer {
    pub rows: usize,
    pub cols: usize,
    /// Filled cells per column, left to right.
    pub col_counts: Vec<usize>,
    /// Filled cells per row, top to bottom.
    pub row_counts: Vec<usize>,
    /// Each thermometer's cells (row-major indices), bulb first.
    pub thermometers: Vec<Vec<usize>>,
    /// The thermometer names, as written, in order of first appearance.
    pub names: Vec<String>,
}

/// The counts on one line: exactly `n` numbers in `0..=hi`.
fn counts(
    line: usize,
    text: &str,
    n: usize,
    hi: usize,
    what: &str,
) -> Result<Vec<usize>, ParseError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != n {
        return Err(ParseError::new(
            line,
            format!("expected {n} {what} counts, found {}", tokens.len()),
        ));
    }
    tokens
        .iter()
        .map(|t| parse_number(line, t, &format!("a {what} count"), 0, hi))
        .collect()
}

/// Parse `H W`, the column counts, the row counts and H rows of `t.k` / `.` tokens.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    let Some(&(size_line, size_text)) = lines.first() else {
        return Err(ParseError::new(0, "empty file: expected a line 'H W'"));
    };
    let size: Vec<&str> = size_text.split_whitespace().collect();
    if size.len() != 2 {
        return Err(ParseError::new(
            size_line,
            format!("expected 'H W', two positive numbers, found '{size_text}'"),
        ));
    }
    let rows = parse_number(size_line, size[0], "the height H", 1, MAX_SIDE)?;
    let cols = parse_number(size_line, size[1], "the width W", 1, MAX_SIDE)?;
    let Some(&(line, text)) = lines.get(1) else {
        return Err(ParseError::new(
            size_line,
            "expected the column counts after 'H W'",
        ));
    };
    let col_counts = counts(line, text, cols, rows, "column")?;
    let Some(&(line, text)) = lines.get(2) else {
        return Err(ParseError::new(
            line,
            "expected the row counts after the column counts",
        ));
    };
    let row_counts = counts(line, text, rows, cols, "row")?;
    let grid = &lines[3..];
    if grid.len() != rows {
        let at = grid.last().map_or(line, |&(l, _)| l);
        return Err(ParseError::new(
            at,
            format!("expected {rows} rows of cells, found {}", grid.len()),
        ));
    }
    let mut names: Vec<String> = Vec::new();
    // Name to thermometer, beside `names`: 40,000 one-cell thermometers are read in linear time.
    let mut index: HashMap<&str, usize> = HashMap::new();
    // (position, cell, line) per thermometer.
    let mut positions: Vec<Vec<(usize, usize, usize)>> = Vec::new();
    for (r, &(line, text)) in grid.iter().enumerate() {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() != cols {
            return Err(ParseError::new(
                line,
                format!("a row has {} cells, expected {cols}", tokens.len()),
            ));
        }
        for (c, token) in tokens.iter().enumerate() {
            if *token == "." {
                continue;
            }
            let bad = || {
                ParseError::new(
                    line,
                    format!("unexpected '{token}': a cell is 't.k' (thermometer t, position k >= 1) or '.'"),
                )
            };
            let (name, k) = token.split_once('.').ok_or_else(bad)?;
            if name.is_empty() || !name.chars().all(char::is_alphanumeric) {
                return Err(bad());
            }
            if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let k: usize = match k.parse() {
                Ok(k) if k >= 1 => k,
                _ => return Err(bad()),
            };
            let t = *index.entry(name).or_insert_with(|| {
                names.push(name.to_string());
                positions.push(Vec::new());
                names.len() - 1
            });
            positions[t].push((k, r * cols + c, line));
        }
    }
    let mut thermometers = Vec::with_capacity(names.len());
    for (t, mut cells) in positions.into_iter().enumerate() {
        cells.sort();
        for (i, &(k, _, line)) in cells.iter().enumerate() {
            if k != i + 1 {
                return Err(ParseError::new(
                    line,
                    format!(
                        "thermometer '{}' has position {k} where {} was expected: its positions must be exactly 1..{}, each once",
                        names[t],
                        i + 1,
                        cells.len()
                    ),
                ));
            }
        }
        thermometers.push(cells.iter().map(|&(_, cell, _)| cell).collect());
    }
    Ok(vec![Box::new(Thermometer {
        rows,
        cols,
        col_counts,
        row_counts,
        thermometers,
        names,
    })])
}

impl Thermometer {
    pub fn model(&self) -> Built {
        let (h, w) = (self.rows, self.cols);
        let mut model = Model::new();
        let cells = model.new_vars(h * w, 0, 1);
        let mut on_thermometer = vec![false; h * w];
        for t in &self.thermometers {
            for &cell in t {
                on_thermometer[cell] = true;
            }
            // No gap: position k+1 filled only if position k is.
            for pair in t.windows(2) {
                model.less_equal_offset(cells[pair[1]], cells[pair[0]], 0);
            }
        }
        for (i, &on) in on_thermometer.iter().enumerate() {
            if !on {
                // Always possible: the domain is {0, 1}.
                let _ = model.fix(cells[i], 0);
            }
        }
        for (r, &count) in self.row_counts.iter().enumerate() {
            let terms: Vec<(i64, _)> = (0..w).map(|c| (1, cells[r * w + c])).collect();
            model.linear(&terms, Relation::Eq, count as i64);
        }
        for (c, &count) in self.col_counts.iter().enumerate() {
            let terms: Vec<(i64, _)> = (0..h).map(|r| (1, cells[r * w + c])).collect();
            model.linear(&terms, Relation::Eq, count as i64);
        }
        let search = SearchConfig {
            // Every cell has two values, so first-fail is input order; dom/wdeg branches where
            // the counts have failed (measured on the janko.at set: docs/PERFORMANCE.md, "The
            // puzzles beyond the seeds on the public sets").
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

    /// Rules only: counts met, nothing off the thermometers, every thermometer a filled prefix.
    pub fn check_grid(&self, grid: &[i64]) -> Result<(), String> {
        let (h, w) = (self.rows, self.cols);
        for r in 0..h {
            let n = (0..w).filter(|&c| grid[r * w + c] == 1).count();
            if n != self.row_counts[r] {
                return Err(format!(
                    "row {} has {n} filled cells, expected {}",
                    r + 1,
                    self.row_counts[r]
                ));
            }
        }
        for c in 0..w {
            let n = (0..h).filter(|&r| grid[r * w + c] == 1).count();
            if n != self.col_counts[c] {
                return Err(format!(
                    "column {} has {n} filled cells, expected {}",
                    c + 1,
                    self.col_counts[c]
                ));
            }
        }
        let mut on = vec![false; h * w];
        for (t, cells) in self.thermometers.iter().enumerate() {
            for (k, &cell) in cells.iter().enumerate() {
                on[cell] = true;
                if k > 0 && grid[cell] == 1 && grid[cells[k - 1]] == 0 {
                    return Err(format!(
                        "thermometer '{}' has position {} filled but position {} empty",
                        self.names[t],
                        k + 1,
                        k
                    ));
                }
            }
        }
        if let Some(i) = (0..h * w).find(|&i| !on[i] && grid[i] == 1) {
            return Err(format!(
                "cell [{}, {}] is on no thermometer but filled",
                i / w + 1,
                i % w + 1
            ));
        }
        Ok(())
    }
}

/// Rows of `#` (filled) and `.` (empty).
pub fn picture(values: &[i64], width: usize, filled: char) -> String {
    let mut out = String::new();
    for row in values.chunks(width) {
        let cells: Vec<String> = row
            .iter()
            .map(|&v| {
                if v == 1 {
                    filled.to_string()
                } else {
                    ".".to_string()
                }
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

impl Instance for Thermometer {
    fn build(&self, _options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model())
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        Answer {
            text: picture(&values, self.cols, '#'),
            json: crate::common::AnswerJson::Rows {
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

    /// Cells "r1c1"..: mercury `●` or empty `·`; each thermometer bordered, the row counts
    /// at the right and the column counts below.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let (h, w) = (self.rows, self.cols);
        let mut naming = crate::naming::grid(&built.vars, w);
        // Cells on no thermometer are regions of their own.
        let mut region: Vec<usize> = (0..h * w).map(|i| self.thermometers.len() + i).collect();
        for (t, cells) in self.thermometers.iter().enumerate() {
            for &cell in cells {
                region[cell] = t;
            }
        }
        naming.layout.regions = region;
        for (r, count) in self.row_counts.iter().enumerate() {
            naming.layout.labels.push((r, w, count.to_string()));
        }
        for (c, count) in self.col_counts.iter().enumerate() {
            naming.layout.labels.push((h, c, count.to_string()));
        }
        naming.value_words = crate::naming::words(&["·", "●"]);
        naming.layout.value_colours = crate::naming::words(&["#fff", "#f4a0a0"]);
        naming
    }
}
