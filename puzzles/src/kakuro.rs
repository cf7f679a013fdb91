//! # Kakuro: all-different plus a sum, on every run
//!
//! White cells take the digits 1..9; each maximal run of white cells, across or down, must
//! hold different digits adding up to the total its clue cell announces.
//!
//! **Model (seed 001).** Hartmann's integer program has a 0/1 variable `x[i][j][d]` per white
//! cell and digit, "one digit per cell", "each digit at most once per run" and
//! `Σ d·x[i][j][d] = r_k` per run. The seed's own listing, and this code, fold the digit back
//! into one variable per white cell, `cell ∈ 1..9`, and post per run `alldifferent(run)` and
//! `Σ run = total`.
//!
//! **Propagation.** The all-different has the user's level (`--alldiff`), the sum is bounds
//! consistent by default. A run's two constraints are weak apart: `a + b = 4`, `a ≠ b` leaves
//! `{1, 2, 3}` to each with bounds reasoning, while the only digits that fit are 1 and 3.
//! With `--sum domain` each run gets the engine's `distinct_sum`, domain consistent for the
//! conjunction "all different and adding up to t": the solver's version of the Kakuro
//! player's table of combinations ("16 in two = 7 + 9").
//!
//! Run it: `cpsolve kakuro`, `cpsolve kakuro board.txt --sum domain --alldiff domain`.

use crate::common::{check_distinct, check_text, content_lines, json_grid, post_failure};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError, SumLevel};
use crate::instance::{Defaults, Input, PuzzleFlag, PuzzleKind};
use engine::{Model, SearchConfig, Solution, VarId};
use serde_json::Value;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "kakuro",
    aliases: &[],
    summary: "Kakuro (cross sums): runs of different digits adding up to their clues",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/kakuro.txt"),
    seed_file: Some("instances/seed/kakuro.txt"),
    parse,
    page: Some("docs/puzzles/kakuro.md"),
    defaults: Defaults {
        // Kakuro's runs are short sums of distinct digits, where the precomputed digit sets
        // (domain consistency) solve most boards without search, which bounds consistency
        // does not.
        sum: SumLevel::Domain,
        ..Defaults::STANDARD
    },
    flags: &[PuzzleFlag::Sum],
};

/// The largest total a run can have: 1 + 2 + ... + 9.
pub const MAX_TOTAL: u32 = 45;

/// One cell of the rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A cell to fill with 1..9.
    White,
    /// A black cell without a clue.
    Black,
    /// A clue cell: the total of the run below it (`down`) and of the run to its right
    /// (`across`), either possibly absent.
    Clue {
        down: Option<u32>,
        across: Option<u32>,
    },
}

/// A run and its total: the indices (row-major) of its white cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub total: u32,
    pub cells: Vec<usize>,
    pub across: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kakuro {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell>,
    pub runs: Vec<Run>,
}

// ----- parsing --------------------------------------------------------------------------

/// One part of a clue (`12` in `12\`): empty, or a total 1..45.
fn parse_total(part: &str, line: usize, token: &str) -> Result<Option<u32>, ParseError> {
    if part.is_empty() {
        return Ok(None);
    }
    match part.parse::<u32>() {
        Ok(t) if (1..=MAX_TOTAL).contains(&t) && part.bytes().all(|b| b.is_ascii_digit()) => {
            Ok(Some(t))
        }
        _ => Err(ParseError::new(
            line,
            format!(
                "clue {}: a total is a whole number 1..{MAX_TOTAL} (the sum of different digits)",
                crate::parse::quoted(token)
            ),
        )),
    }
}

fn parse_token(token: &str, line: usize) -> Result<Cell, ParseError> {
    match token {
        "." => Ok(Cell::White),
        "#" => Ok(Cell::Black),
        _ => match token.split_once('\\') {
            Some((down, across)) => {
                if across.contains('\\') {
                    return Err(ParseError::new(
                        line,
                        format!("clue {} has more than one '\\': expected DOWN\\ACROSS", crate::parse::quoted(token)),
                    ));
                }
                let down = parse_total(down, line, token)?;
                let across = parse_total(across, line, token)?;
                if down.is_none() && across.is_none() {
                    // `\` alone announces nothing: a black cell.
                    Ok(Cell::Black)
                } else {
                    Ok(Cell::Clue { down, across })
                }
            }
            None => Err(ParseError::new(
                line,
                format!(
                    "unexpected {}: a cell is '.' (white), '#' (black) or a clue DOWN\\ACROSS such as 12\\ or \\11", crate::parse::quoted(token)
                ),
            )),
        },
    }
}

/// Parse a Kakuro rectangle; checks that every run of two or more cells has its clue and
/// every clue has its run.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(
            0,
            "empty file: expected rows of '.', '#' and clue cells DOWN\\ACROSS",
        ));
    }
    let mut cells = Vec::new();
    let mut line_of_row = Vec::new();
    let mut cols = 0;
    for &(line, text) in &lines {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if line_of_row.is_empty() {
            cols = tokens.len();
        } else if tokens.len() != cols {
            return Err(ParseError::new(
                line,
                format!(
                    "row {} has {} cells, expected {cols} like the first row",
                    line_of_row.len() + 1,
                    tokens.len()
                ),
            ));
        }
        for t in tokens {
            cells.push(parse_token(t, line)?);
        }
        line_of_row.push(line);
    }
    let rows = line_of_row.len();
    let runs = find_runs(rows, cols, &cells, &line_of_row)?;
    Ok(vec![Box::new(Kakuro {
        rows,
        cols,
        cells,
        runs,
    })])
}

/// The runs announced by the clues, in reading order of the clues (across before down for
/// each clue), after checking the rules of announcement.
fn find_runs(
    rows: usize,
    cols: usize,
    cells: &[Cell],
    line_of_row: &[usize],
) -> Result<Vec<Run>, ParseError> {
    let at = |r: usize, c: usize| cells[r * cols + c];
    let white = |r: usize, c: usize| at(r, c) == Cell::White;
    let mut runs = Vec::new();
    // Every clue part announces the white cells that follow it. `line` is row `r`'s line in
    // the file, for the errors.
    for (r, &line) in line_of_row.iter().enumerate() {
        for c in 0..cols {
            let Cell::Clue { down, across } = at(r, c) else {
                continue;
            };
            if let Some(total) = across {
                let run: Vec<usize> = (c + 1..cols)
                    .take_while(|&k| white(r, k))
                    .map(|k| r * cols + k)
                    .collect();
                if run.is_empty() {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "the clue at [{}, {}] announces {total} across but no white cell follows it on the right",
                            r + 1,
                            c + 1
                        ),
                    ));
                }
                runs.push(Run {
                    total,
                    cells: run,
                    across: true,
                });
            }
            if let Some(total) = down {
                let run: Vec<usize> = (r + 1..rows)
                    .take_while(|&k| white(k, c))
                    .map(|k| k * cols + c)
                    .collect();
                if run.is_empty() {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "the clue at [{}, {}] announces {total} down but no white cell lies below it",
                            r + 1,
                            c + 1
                        ),
                    ));
                }
                runs.push(Run {
                    total,
                    cells: run,
                    across: false,
                });
            }
        }
    }
    // Every run of two or more white cells must have been announced.
    for (r, &line) in line_of_row.iter().enumerate() {
        for c in 0..cols {
            if !white(r, c) {
                continue;
            }
            let starts_across = c == 0 || !white(r, c - 1);
            if starts_across {
                let len = (c..cols).take_while(|&k| white(r, k)).count();
                let announced = c > 0
                    && matches!(
                        at(r, c - 1),
                        Cell::Clue {
                            across: Some(_),
                            ..
                        }
                    );
                if len >= 2 && !announced {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "the across run of {len} white cells starting at [{}, {}] has no clue on its left (expected a clue cell \\A)",
                            r + 1,
                            c + 1
                        ),
                    ));
                }
            }
            let starts_down = r == 0 || !white(r - 1, c);
            if starts_down {
                let len = (r..rows).take_while(|&k| white(k, c)).count();
                let announced = r > 0 && matches!(at(r - 1, c), Cell::Clue { down: Some(_), .. });
                if len >= 2 && !announced {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "the down run of {len} white cells starting at [{}, {}] has no clue above it (expected a clue cell D\\)",
                            r + 1,
                            c + 1
                        ),
                    ));
                }
            }
        }
    }
    Ok(runs)
}

// ----- model, decoding, rendering, checking ------------------------------------------------

impl Kakuro {
    pub fn model(&self, options: &ModelOptions) -> Built {
        let mut model = Model::new();
        // One variable per white cell, in reading order; `var_of[i]` for grid index i.
        let mut var_of: Vec<Option<VarId>> = vec![None; self.cells.len()];
        let mut vars = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            if *cell == Cell::White {
                let x = model.new_var(1, 9);
                var_of[i] = Some(x);
                vars.push(x);
            }
        }
        for run in &self.runs {
            let xs: Vec<VarId> = run
                .cells
                .iter()
                .map(|&i| var_of[i].expect("runs hold white cells"))
                .collect();
            if xs.len() == 1 {
                // A single cell: its digit is the total (a total above 9 cannot be met).
                if model.fix(xs[0], run.total as i32).is_err() {
                    post_failure(&mut model);
                }
                continue;
            }
            // The all-different at the user's level either way: with `--sum domain` it is
            // implied by `distinct_sum`, but its cheap forward checking still wakes first.
            let _ = model.all_different(&xs, options.alldiff);
            let _ = match options.sum {
                SumLevel::Bounds => model.sum_equals(&xs, run.total as i64),
                SumLevel::Domain => model.distinct_sum(&xs, run.total as i64),
            };
        }
        let search = SearchConfig {
            branch_vars: Some(vars.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars,
        }
    }

    /// The grid of digits: `Some(d)` for white cells, `None` elsewhere.
    fn grid(&self, built: &Built, solution: &Solution) -> Vec<Vec<Option<i64>>> {
        let mut next = built.vars.iter();
        self.cells
            .chunks(self.cols)
            .map(|row| {
                row.iter()
                    .map(|cell| match cell {
                        Cell::White => next.next().map(|&x| solution.value(x) as i64),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    /// The solved board as text: digits in white cells, the clues as written, `#` for black.
    pub fn render(&self, grid: &[Vec<Option<i64>>]) -> String {
        let tokens: Vec<Vec<String>> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| match self.cells[r * self.cols + c] {
                        Cell::White => grid[r][c].map_or(".".into(), |v| v.to_string()),
                        Cell::Black => "#".into(),
                        Cell::Clue { down, across } => format!(
                            "{}\\{}",
                            down.map_or(String::new(), |d| d.to_string()),
                            across.map_or(String::new(), |a| a.to_string())
                        ),
                    })
                    .collect()
            })
            .collect();
        let width = tokens.iter().flatten().map(|t| t.len()).max().unwrap_or(1);
        let mut out = String::new();
        for row in tokens {
            let cells: Vec<String> = row.iter().map(|t| format!("{t:>width$}")).collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    /// Rules only: digits 1..9 in white cells and nothing elsewhere; every run all different
    /// and adding up to its total.
    pub fn check_grid(&self, grid: &[Vec<Option<i64>>]) -> Result<(), String> {
        for (i, &cell) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.cols, i % self.cols);
            match (cell == Cell::White, grid[r][c]) {
                (true, Some(1..=9)) | (false, None) => {}
                (true, _) => {
                    return Err(format!(
                        "white cell [{}, {}] must hold a digit 1..9",
                        r + 1,
                        c + 1
                    ))
                }
                (false, Some(_)) => {
                    return Err(format!(
                        "cell [{}, {}] is not white and must be null",
                        r + 1,
                        c + 1
                    ))
                }
            }
        }
        for run in &self.runs {
            let digits: Vec<i64> = run
                .cells
                .iter()
                .map(|&i| grid[i / self.cols][i % self.cols].unwrap_or(0))
                .collect();
            let first = run.cells[0];
            let name = format!(
                "the {} run starting at [{}, {}]",
                if run.across { "across" } else { "down" },
                first / self.cols + 1,
                first % self.cols + 1
            );
            check_distinct(&digits, &name)?;
            let sum: i64 = digits.iter().sum();
            if sum != run.total as i64 {
                return Err(format!("{name} adds up to {sum}, not {}", run.total));
            }
        }
        Ok(())
    }
}

impl Instance for Kakuro {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let grid = self.grid(built, solution);
        let json = Value::Array(
            grid.iter()
                .map(|row| {
                    Value::Array(
                        row.iter()
                            .map(|c| c.map_or(Value::Null, Value::from))
                            .collect(),
                    )
                })
                .collect(),
        );
        Answer {
            json: json.into(),
            text: self.render(&grid),
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = json_grid(&answer.json.to_value(), self.rows, self.cols)?;
        self.check_grid(&grid)
    }

    /// White cells "r2c3", drawn among the clue cells (`16\7`: 16 down, 7 across).
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut places = Vec::new();
        let mut labels = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.cols, i % self.cols);
            match cell {
                Cell::White => places.push((r, c)),
                Cell::Black => labels.push((r, c, String::new())),
                Cell::Clue { down, across } => {
                    let total = |t: &Option<u32>| t.map_or(String::new(), |t| t.to_string());
                    labels.push((r, c, format!("{}\\{}", total(down), total(across))));
                }
            }
        }
        let mut naming = crate::naming::at_places(&built.vars, places);
        naming.layout.labels = labels;
        naming
    }
}
