//! # Knight's tour: number the cells along a knight's path
//!
//! Fill the N cells of a board that are not `#` with 1..N so that consecutive numbers are a
//! knight's move apart; in a closed tour N and 1 are too. Some numbers may be given.
//!
//! **Model (seed 000).** A tour is a Hamiltonian path in the knight's graph, so the model is a
//! *successor* model: `succ[k]` is the cell after cell k, its domain the cell's knight moves.
//! A path is a `circuit` through one extra dummy node: the last cell's successor is the dummy,
//! the dummy's successor the first cell. The engine's `circuit` (all-different plus the nocycle
//! rule of Caseau and Laburthe) forbids closing a chain before every cell is on it. Numbers
//! are a second viewpoint, `pos[k] ∈ 1..N`, channelled by `succ[k] = j → pos[j] = pos[k] + 1`
//! (a reified equality and two linear inequalities), so givens prune successors and successors
//! fix numbers. A closed tour adds that the first and last cells are a knight's move apart: a
//! table over (first cell, last cell). It teaches the successor viewpoint of routing problems
//! and why a path needs a subtour-elimination propagator, not just all-different.
//!
//! Run it: `cpsolve knights`, `cpsolve knights 5 --count` (1,728 directed open tours).

use crate::common::{check_text, content_lines};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Relation, SearchConfig, Solution};
use serde_json::Value;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "knights",
    aliases: &[],
    summary: "Knight's tour: number the cells along a knight's path (N: the empty N×N board)",
    optimisation: false,
    input: Input::FileOrNumber,
    seed: include_str!("../instances/beyond/knights6x6-closed.txt"),
    seed_file: Some("instances/beyond/knights6x6-closed.txt"),
    parse,
    page: Some("docs/puzzles/knights.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knights {
    pub rows: usize,
    pub cols: usize,
    pub closed: bool,
    /// `None` for `#` (off the tour); `Some(0)` a cell to fill; `Some(v)` a given number.
    pub cells: Vec<Option<usize>>,
}

/// A file, or the text of a number N alone: the empty N×N board, open tour.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if let [(line, only)] = lines[..] {
        if only.bytes().all(|b| b.is_ascii_digit()) && only.parse::<usize>().is_ok_and(|n| n != 1) {
            let n = crate::common::parse_number(line, only, "the board size N", 1, MAX_SIDE)?;
            return Ok(vec![Box::new(Knights {
                rows: n,
                cols: n,
                closed: false,
                cells: vec![Some(0); n * n],
            })]);
        }
    }
    let mut closed = false;
    let mut body = &lines[..];
    if let Some(&(_, first)) = lines.first() {
        if first == "closed" || first == "open" {
            closed = first == "closed";
            body = &lines[1..];
        }
    }
    if body.is_empty() {
        return Err(ParseError::new(
            lines.last().map_or(0, |l| l.0),
            "no board: expected rows of numbers, '.' and '#'",
        ));
    }
    let mut cells = Vec::new();
    let mut cols = 0;
    let mut given_at: Vec<(usize, usize)> = Vec::new(); // (number, line)
    for (r, &(line, text)) in body.iter().enumerate() {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if r == 0 {
            cols = tokens.len();
        } else if tokens.len() != cols {
            return Err(ParseError::new(
                line,
                format!(
                    "a row has {} cells, expected {cols} like the first row",
                    tokens.len()
                ),
            ));
        }
        for token in tokens {
            cells.push(match token {
                "." => Some(0),
                "#" => None,
                _ => match token.parse::<usize>() {
                    Ok(v) if v >= 1 && token.bytes().all(|b| b.is_ascii_digit()) => {
                        given_at.push((v, line));
                        Some(v)
                    }
                    _ => {
                        return Err(ParseError::new(
                            line,
                            format!("unexpected '{token}': a cell is a number >= 1, '.' or '#'"),
                        ))
                    }
                },
            });
        }
    }
    let rows = body.len();
    let last = body[rows - 1].0;
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(ParseError::new(
            last,
            format!("the board is larger than {MAX_SIDE}×{MAX_SIDE}"),
        ));
    }
    let n = cells.iter().filter(|c| c.is_some()).count();
    if n == 0 {
        return Err(ParseError::new(
            last,
            "no cell on the tour: every cell is '#'",
        ));
    }
    let mut seen = vec![false; n + 1];
    for &(v, line) in &given_at {
        if v > n {
            return Err(ParseError::new(
                line,
                format!("{v} is above {n}, the number of cells on the tour"),
            ));
        }
        if std::mem::replace(&mut seen[v], true) {
            return Err(ParseError::new(line, format!("{v} is given twice")));
        }
    }
    Ok(vec![Box::new(Knights {
        rows,
        cols,
        closed,
        cells,
    })])
}

/// Are cells `a` and `b` (row-major on a board `cols` wide) a knight's move apart?
fn knight_move(a: usize, b: usize, cols: usize) -> bool {
    let (dr, dc) = ((a / cols).abs_diff(b / cols), (a % cols).abs_diff(b % cols));
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}

impl Knights {
    /// The cells on the tour (row-major indices).
    fn tour_cells(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].is_some())
            .collect()
    }

    pub fn model(&self) -> Built {
        let cells = self.tour_cells();
        let n = cells.len();
        let dummy = n;
        let mut model = Model::new();
        // Node k < n is tour cell cells[k]; node n is the dummy joining the end to the start.
        let mut succ = Vec::with_capacity(n + 1);
        for &a in &cells {
            let mut next: Vec<i32> = (0..n)
                .filter(|&j| knight_move(a, cells[j], self.cols))
                .map(|j| j as i32)
                .collect();
            next.push(dummy as i32);
            succ.push(model.new_var_from_values(&next));
        }
        succ.push(model.new_var(0, n as i32 - 1));
        model.circuit(&succ);
        let pos = model.new_vars(n, 1, n as i32);
        model.all_different(&pos, engine::AllDiffLevel::Bounds);
        for (k, &a) in cells.iter().enumerate() {
            if let Some(v) = self.cells[a].filter(|&v| v > 0) {
                let _ = model.fix(pos[k], v as i32);
            }
        }
        // succ[k] = j → pos[j] = pos[k] + 1, as pos[j] − pos[k] − 1 ∈ [−M(1−b), M(1−b)].
        let big = n as i64;
        for k in 0..n {
            for j in 0..n {
                if !model.contains(succ[k], j as i32) {
                    continue;
                }
                let b = model.new_bool();
                model.reify_eq(b, succ[k], j as i32);
                model.linear(
                    &[(1, pos[j]), (-1, pos[k]), (big, b)],
                    Relation::Le,
                    1 + big,
                );
                model.linear(
                    &[(1, pos[j]), (-1, pos[k]), (-big, b)],
                    Relation::Ge,
                    1 - big,
                );
            }
        }
        if self.closed && n > 1 {
            // last = the node whose successor is the dummy; (first, last) a knight's move.
            let last = model.new_var(0, n as i32 - 1);
            for (k, &s) in succ.iter().enumerate().take(n) {
                let b = model.new_bool();
                model.reify_eq(b, s, dummy as i32);
                model.reify_eq(b, last, k as i32);
            }
            let pairs: Vec<Vec<i32>> = (0..n)
                .flat_map(|f| (0..n).map(move |l| (f, l)))
                .filter(|&(f, l)| knight_move(cells[f], cells[l], self.cols))
                .map(|(f, l)| vec![f as i32, l as i32])
                .collect();
            model.table(&[succ[dummy], last], pairs);
        }
        let search = SearchConfig {
            branch_vars: Some(succ.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: pos,
        }
    }

    /// Rules only.
    pub fn check_grid(&self, grid: &[Vec<Option<i64>>]) -> Result<(), String> {
        let n = self.tour_cells().len();
        let mut at = vec![None; n + 1];
        for (i, cell) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.cols, i % self.cols);
            match (cell, grid[r][c]) {
                (None, None) => {}
                (None, Some(_)) => {
                    return Err(format!("cell [{}, {}] is '#' but numbered", r + 1, c + 1))
                }
                (Some(_), None) => {
                    return Err(format!("cell [{}, {}] has no number", r + 1, c + 1))
                }
                (Some(g), Some(v)) => {
                    if v < 1 || v > n as i64 {
                        return Err(format!(
                            "cell [{}, {}] holds {v}, outside 1..{n}",
                            r + 1,
                            c + 1
                        ));
                    }
                    if *g != 0 && *g as i64 != v {
                        return Err(format!("cell [{}, {}] is given as {g}", r + 1, c + 1));
                    }
                    if at[v as usize].replace(i).is_some() {
                        return Err(format!("{v} appears twice"));
                    }
                }
            }
        }
        for v in 1..n {
            let (a, b) = (at[v].unwrap(), at[v + 1].unwrap());
            if !knight_move(a, b, self.cols) {
                return Err(format!("{v} and {} are not a knight's move apart", v + 1));
            }
        }
        if self.closed && n > 1 && !knight_move(at[n].unwrap(), at[1].unwrap(), self.cols) {
            return Err(format!(
                "the tour is not closed: {n} and 1 are not a knight's move apart"
            ));
        }
        Ok(())
    }
}

impl Instance for Knights {
    fn build(&self, _options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model())
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        let mut next = values.iter();
        let rows: Vec<Vec<Option<i64>>> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| self.cells[r * self.cols + c].and_then(|_| next.next().copied()))
                    .collect()
            })
            .collect();
        let json = Value::Array(
            rows.iter()
                .map(|row| {
                    Value::Array(
                        row.iter()
                            .map(|v| v.map_or(Value::Null, Value::from))
                            .collect(),
                    )
                })
                .collect(),
        );
        Answer {
            text: crate::common::render_grid(&rows),
            json: json.into(),
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = crate::common::json_grid(&answer.json.to_value(), self.rows, self.cols)?;
        self.check_grid(&grid)
    }

    /// Cells "r1c1"..: the number of the knight's visit, from 1.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        crate::naming::grid(&built.vars, self.cols)
    }
}
