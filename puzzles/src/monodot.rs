//! # Monodot: build a graph from a list of degrees, with a custom propagator
//!
//! A row of loose nodes, each labelled with a number, and an empty grid. A node dropped on a
//! cell is wired to every node in the eight cells around it (a king's move); the puzzle is
//! solved when every node ends with exactly as many neighbours as its label (seed 000).
//!
//! **The seed's model** (Hartmann): a binary `x[cell][t]` per cell and degree, an occupancy
//! `o[cell] = Σ_t x[cell][t]`, the counts `Σ_cells x[cell][t] = a_t`, and the degree as two
//! linear inequalities with a big constant `M = 8` that go slack on an empty cell.
//!
//! **This model** folds the binaries of a cell into one variable, as a CP model does:
//!
//! * `label[cell] ∈ {0} ∪ {wanted degrees}` — which degree sits here, `0` = empty;
//! * `global_cardinality(label, {0: cells − nodes, t: a_t})` — every node is placed once
//!   (the seed's `Σ x = a_t`; "at most one node per cell" is free: a cell has one label);
//! * `king_degree(label[cell], label[neighbours])` per cell — the engine's own propagator
//!   (`engine/src/propagators/king_degree.rs`) for "a used cell sees exactly `label`
//!   occupied neighbours", **instead of the big-M pair**.
//!
//! **What propagates.** `king_degree` is domain consistent: a label is removed as soon as the
//! neighbours surely occupied outnumber it, or those possibly occupied fall short of it; a
//! placed node whose count is tight fills or empties its whole neighbourhood at once. The
//! cardinality constraint removes a degree from every other cell once its nodes are all
//! placed. On the seed (a 4 and four 3s on 5×5) placing the 4 forces its four arms.
//!
//! **Search:** smallest domain first, and the *largest* label first: placing a node makes
//! `king_degree` act, leaving a cell empty rarely does.
//!
//! The seed's instance has 9 solutions, the same plus slid to nine places: the degrees fix
//! the shape, the board only says where it may sit. `--count` reports all 9.
//!
//! Run it: `cpsolve monodot`, `cpsolve monodot --count`.

use crate::common::{
    check_text, content_lines, king_neighbours, parse_number, render_grid, Answer, Built, Instance,
    ModelOptions, ParseError,
};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::propagators::king_degree::KingDegree;
use engine::{Model, SearchConfig, Solution, ValSelect, VarId};
use serde_json::{json, Value};

pub const KIND: PuzzleKind = PuzzleKind {
    name: "monodot",
    aliases: &[],
    summary: "Monodot: place labelled nodes on a grid so each has its number of king-neighbours",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/monodot.txt"),
    seed_file: Some("instances/seed/monodot.txt"),
    parse,
    page: Some("docs/puzzles/monodot.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 100;
/// A king has eight neighbours: no node can want more.
pub const MAX_DEGREE: usize = 8;

/// A board of `rows × cols` cells and the wanted degree of each node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monodot {
    pub rows: usize,
    pub cols: usize,
    pub degrees: Vec<usize>,
}

/// Parse `grid N` (or `grid R C`) and `degrees d1 d2 ...`, in either order.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_instance(text)?)])
}

/// Parse one instance into its typed form.
pub fn parse_instance(text: &str) -> Result<Monodot, ParseError> {
    check_text(text)?;
    let mut grid: Option<(usize, usize, usize)> = None; // rows, cols, line
    let mut degrees: Option<(Vec<usize>, usize)> = None; // degrees, line
    for (line, l) in content_lines(text) {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        match tokens[0] {
            "grid" => {
                if grid.is_some() {
                    return Err(ParseError::new(line, "a second 'grid' line"));
                }
                let side = |t: &str| parse_number(line, t, "a board side", 1, MAX_SIDE);
                let (r, c) = match tokens.len() {
                    2 => (side(tokens[1])?, side(tokens[1])?),
                    3 => (side(tokens[1])?, side(tokens[2])?),
                    _ => {
                        return Err(ParseError::new(
                            line,
                            "expected 'grid N' or 'grid ROWS COLS'",
                        ))
                    }
                };
                grid = Some((r, c, line));
            }
            "degrees" => {
                if degrees.is_some() {
                    return Err(ParseError::new(line, "a second 'degrees' line"));
                }
                if tokens.len() < 2 {
                    return Err(ParseError::new(
                        line,
                        "expected 'degrees' followed by at least one degree",
                    ));
                }
                let ds = tokens[1..]
                    .iter()
                    .map(|t| parse_number(line, t, "a degree", 1, MAX_DEGREE))
                    .collect::<Result<Vec<_>, _>>()?;
                degrees = Some((ds, line));
            }
            other => {
                return Err(ParseError::new(
                    line,
                    format!(
                        "unexpected {}: expected a 'grid' or a 'degrees' line",
                        crate::parse::quoted(other)
                    ),
                ))
            }
        }
    }
    let last = content_lines(text).last().map_or(0, |(l, _)| *l);
    let (rows, cols, _) = grid.ok_or_else(|| ParseError::new(last, "no 'grid N' line"))?;
    let (degrees, degrees_line) =
        degrees.ok_or_else(|| ParseError::new(last, "no 'degrees' line"))?;
    if degrees.len() > rows * cols {
        return Err(ParseError::new(
            degrees_line,
            format!(
                "{} nodes cannot fit on {} cells",
                degrees.len(),
                rows * cols
            ),
        ));
    }
    Ok(Monodot {
        rows,
        cols,
        degrees,
    })
}

impl Monodot {
    /// How many nodes want each degree `t` (index `t`, 0 unused).
    pub fn wanted(&self) -> [usize; MAX_DEGREE + 1] {
        let mut a = [0; MAX_DEGREE + 1];
        for &d in &self.degrees {
            a[d] += 1;
        }
        a
    }

    /// The model of the module documentation; `vars` are the labels, row by row.
    pub fn model(&self) -> Built {
        let wanted = self.wanted();
        let cells = self.rows * self.cols;
        let mut values = vec![0];
        values.extend((1..=MAX_DEGREE as i32).filter(|&t| wanted[t as usize] > 0));
        let mut model = Model::new();
        let label: Vec<VarId> = (0..cells)
            .map(|_| model.new_var_from_values(&values))
            .collect();
        // Every node placed exactly once, the other cells empty.
        let mut counts = vec![(0, (cells - self.degrees.len()) as u32)];
        counts.extend(
            (1..=MAX_DEGREE)
                .filter(|&t| wanted[t] > 0)
                .map(|t| (t as i32, wanted[t] as u32)),
        );
        model.global_cardinality(&label, &counts);
        // A used cell sees exactly `label` occupied king-neighbours.
        for r in 0..self.rows {
            for c in 0..self.cols {
                let around: Vec<VarId> = king_neighbours(self.rows, self.cols, r, c)
                    .into_iter()
                    .map(|(nr, nc)| label[nr * self.cols + nc])
                    .collect();
                model.post(Box::new(KingDegree::new(label[r * self.cols + c], &around)));
            }
        }
        // Place a node before leaving a cell empty, the largest label first: a placed node
        // wakes its neighbourhood, an empty cell tells almost nothing: "empty" first wanders
        // through placements that leave the nodes for last, and finds large boards late.
        let search = SearchConfig {
            branch_vars: Some(label.clone()),
            val_select: ValSelect::Max,
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: label,
        }
    }

    /// Rules only: the board's shape, the multiset of labels placed equals the wanted one,
    /// and every node sees exactly its label in occupied king-neighbours.
    pub fn check_board(&self, board: &[Vec<Option<usize>>]) -> Result<(), String> {
        if board.len() != self.rows || board.iter().any(|row| row.len() != self.cols) {
            return Err(format!(
                "expected {} rows of {} cells",
                self.rows, self.cols
            ));
        }
        let mut placed = [0; MAX_DEGREE + 1];
        for (r, row) in board.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let Some(d) = *cell else { continue };
                if d == 0 || d > MAX_DEGREE {
                    return Err(format!(
                        "({},{}) holds the impossible degree {d}",
                        r + 1,
                        c + 1
                    ));
                }
                placed[d] += 1;
                let seen = king_neighbours(self.rows, self.cols, r, c)
                    .into_iter()
                    .filter(|&(nr, nc)| board[nr][nc].is_some())
                    .count();
                if seen != d {
                    return Err(format!(
                        "the node at ({},{}) wants {d} neighbours but has {seen}",
                        r + 1,
                        c + 1
                    ));
                }
            }
        }
        if placed != self.wanted() {
            return Err("the nodes placed are not the nodes asked for".into());
        }
        Ok(())
    }
}

impl Instance for Monodot {
    fn build(&self, _options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model())
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let board: Vec<Vec<Option<i64>>> = built
            .vars
            .chunks(self.cols)
            .map(|row| {
                row.iter()
                    .map(|&x| Some(solution.value(x) as i64).filter(|&d| d != 0))
                    .collect()
            })
            .collect();
        Answer {
            json: json!(board).into(),
            text: render_grid(&board),
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let board: Vec<Vec<Option<usize>>> = json
            .as_array()
            .ok_or("solution is not a list of rows")?
            .iter()
            .map(|row| {
                row.as_array()?
                    .iter()
                    .map(|cell| match cell {
                        Value::Null => Some(None),
                        v => v.as_u64().map(|d| Some(d as usize)),
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<_>>()
            .ok_or("a cell is neither a degree nor null")?;
        self.check_board(&board)
    }

    /// Cells "r1c1"..; a cell shows its node's label, or `·` when it stays empty.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut words = vec!["·".to_string()];
        words.extend((1..=MAX_DEGREE).map(|d| d.to_string()));
        engine::search::Naming {
            value_words: words,
            ..crate::naming::grid(&built.vars, self.cols)
        }
    }
}
