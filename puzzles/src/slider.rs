//! # Slider: a shortest path, modelled as a sequence of positions
//!
//! A block sits on a grid with obstacles and must reach a target. A slide pushes it in one of
//! four directions until the next cell is the edge or an obstacle; it cannot stop partway, and
//! it stops on the target only by coming to rest there. Fewest slides wins (seed 001).
//!
//! **The seed's model** is a network flow: one arc variable per possible slide, one unit of
//! flow from start to target, minimise the arcs used. That suits a MIP solver, whose LP
//! relaxation of a flow is exact. A CP solver prefers to say *where the block is after each
//! slide*, which is what this file teaches: a path as a **sequence of position variables**
//! linked by a **table** of allowed steps.
//!
//! * `p[0] .. p[L]`: the cell where the block rests after `k` slides; `p[0] = start`,
//!   `p[L] = target`. A shortest path never rests twice on one cell, so `L = (number of
//!   cells the block can rest on) - 1` is always long enough.
//! * `table(p[k], p[k+1])`: the rows are the slides `a → b` (from every resting cell but the
//!   target) plus `target → target`: once there, the block **stays**, so paths shorter than
//!   `L` fit the same variables.
//! * `reached[k] ⇔ p[k] = target` (a reified equality), and
//!   `slides + Σ reached[k] = L + 1`: the objective counts the positions before the target.
//!
//! **What propagates.** Each table is domain consistent; on a chain of binary tables that is
//! exact (a tree-shaped network, Freuder 1982): after `p[0] = start` and `p[L] = target`
//! propagate, `p[k]` holds exactly the cells reachable in `k` slides from which the target is
//! still reachable in time. An unreachable target empties a domain at the root:
//! `UNSATISFIABLE` without any search.
//!
//! **Search, and why not iterative deepening.** Iterative deepening (solve with `L = 1, 2,
//! ...` until a path exists) needs one model per length, but an instance hands the search
//! one model. Branching on `slides` first, smallest value first, then on the `reached` flags
//! and the positions, *is* iterative deepening inside one tree: `slides = s` fixes how many
//! `reached` flags are 0, the flags fix which positions are the target, and the positions then
//! fall out without backtracking. The first solution is optimal, and branch and bound proves it
//! at once.
//!
//! **Counting** (`--count`) counts the *shortest* paths: the engine first finds the fewest
//! slides, then the model is rebuilt with `slides` fixed to it ([`Slider::shortest_paths_model`]).
//!
//! Run it: `cpsolve slider` (the seed's stand-in board), `cpsolve slider board.txt --json`.

use crate::common::{
    char_rows, post_failure, Answer, Built, Instance, ModelOptions, ParseError, Purpose,
};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Objective, Relation, SearchConfig, Solution, ValSelect, VarId, VarSelect};
use serde_json::json;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "slider",
    aliases: &[],
    summary: "Slider: slide a block to the target in the fewest slides",
    optimisation: true,
    input: Input::File,
    seed: include_str!("../instances/seed/slider.txt"),
    seed_file: Some("instances/seed/slider.txt"),
    parse,
    page: Some("docs/puzzles/slider.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest board accepted: the model has one table per slide, each with up to four rows
/// per resting cell, so its size grows with the square of the board.
pub const MAX_CELLS: usize = 1600;

/// A board: `free[r][c]` is false on an obstacle; cells are `(row, col)`, 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slider {
    pub rows: usize,
    pub cols: usize,
    pub free: Vec<Vec<bool>>,
    pub start: (usize, usize),
    pub target: (usize, usize),
}

/// The four directions of a slide: up, right, down, left.
const DIRECTIONS: [(i64, i64); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// Parse one board (`.` free, `#` obstacle, `S` the block, `T` the target).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_board(text)?)])
}

/// Parse one board into its typed form.
pub fn parse_board(text: &str) -> Result<Slider, ParseError> {
    let grid = char_rows(text)?;
    let (rows, cols) = (grid.len(), grid[0].1.len());
    if rows * cols > MAX_CELLS {
        return Err(ParseError::new(
            grid[0].0,
            format!("board of {rows}×{cols} cells is larger than the {MAX_CELLS} accepted"),
        ));
    }
    let mut free = vec![vec![true; cols]; rows];
    let (mut start, mut target) = (None, None);
    for (r, (line, cells)) in grid.iter().enumerate() {
        for (c, &ch) in cells.iter().enumerate() {
            match ch {
                '.' => {}
                '#' => free[r][c] = false,
                'S' | 'T' => {
                    let slot = if ch == 'S' { &mut start } else { &mut target };
                    if slot.is_some() {
                        return Err(ParseError::new(
                            *line,
                            format!("a second '{ch}': the board has one block and one target"),
                        ));
                    }
                    *slot = Some((r, c));
                }
                _ => {
                    return Err(ParseError::new(
                        *line,
                        format!("unexpected '{ch}': expected '.', '#', 'S' or 'T'"),
                    ))
                }
            }
        }
    }
    let last = grid.last().map_or(0, |(l, _)| *l);
    let start = start.ok_or_else(|| ParseError::new(last, "no 'S': where is the block?"))?;
    let target = target.ok_or_else(|| ParseError::new(last, "no 'T': where is the target?"))?;
    Ok(Slider {
        rows,
        cols,
        free,
        start,
        target,
    })
}

impl Slider {
    fn index(&self, (r, c): (usize, usize)) -> i32 {
        (r * self.cols + c) as i32
    }

    fn cell(&self, index: i32) -> (usize, usize) {
        (index as usize / self.cols, index as usize % self.cols)
    }

    fn is_free(&self, r: i64, c: i64) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows
            && (c as usize) < self.cols
            && self.free[r as usize][c as usize]
    }

    /// Where one slide in each direction brings the block from `from` (directions in which it
    /// cannot move at all are left out). This is the rule of the puzzle, used by the model and
    /// by the checker alike.
    pub fn slides_from(&self, from: (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (from.0 as i64, from.1 as i64);
            while self.is_free(r + dr, c + dc) {
                r += dr;
                c += dc;
            }
            if (r as usize, c as usize) != from {
                out.push((r as usize, c as usize));
            }
        }
        out
    }

    /// The cells the block can ever rest on: the start, and the end of any slide from a free
    /// cell. (A local property of the board: no path search here.)
    pub fn resting_cells(&self) -> Vec<(usize, usize)> {
        let mut rest = vec![vec![false; self.cols]; self.rows];
        rest[self.start.0][self.start.1] = true;
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.free[r][c] {
                    for (er, ec) in self.slides_from((r, c)) {
                        rest[er][ec] = true;
                    }
                }
            }
        }
        (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| rest[r][c])
            .collect()
    }

    /// The model of the module documentation. `vars` = `[slides, p[0], .., p[L]]`.
    pub fn model(&self) -> Built {
        let resting = self.resting_cells();
        let horizon = resting.len().saturating_sub(1).max(1);
        let target = self.index(self.target);
        let mut values: Vec<i32> = resting.iter().map(|&c| self.index(c)).collect();
        if !values.contains(&target) {
            values.push(target); // p[L] = target; the table will show it cannot be reached
        }
        // The allowed steps: every slide from a resting cell other than the target, and
        // staying on the target once it is reached.
        let mut steps: Vec<Vec<i32>> = vec![vec![target, target]];
        for &cell in &resting {
            if cell != self.target {
                for next in self.slides_from(cell) {
                    steps.push(vec![self.index(cell), self.index(next)]);
                }
            }
        }

        let mut model = Model::new();
        let positions: Vec<VarId> = (0..=horizon)
            .map(|k| match k {
                0 => model.new_var_from_values(&[self.index(self.start)]),
                k if k == horizon => model.new_var_from_values(&[target]),
                _ => model.new_var_from_values(&values),
            })
            .collect();
        for k in 0..horizon {
            model.table(&[positions[k], positions[k + 1]], steps.clone());
        }
        let reached: Vec<VarId> = positions
            .iter()
            .map(|&p| {
                let b = model.new_bool();
                model.reify_eq(b, p, target);
                b
            })
            .collect();
        let slides = model.new_var(0, horizon as i32);
        let mut terms: Vec<(i64, VarId)> = reached.iter().map(|&b| (1, b)).collect();
        terms.push((1, slides));
        model.linear(&terms, Relation::Eq, horizon as i64 + 1);

        // Iterative deepening inside one tree: slides first, then the flags, then positions.
        let mut order = vec![slides];
        order.extend(&reached[1..]);
        order.extend(&positions[1..]);
        let search = SearchConfig {
            var_select: VarSelect::InputOrder,
            val_select: ValSelect::Min,
            branch_vars: Some(order),
            objective: Some(Objective::minimize(slides)),
            ..Default::default()
        };
        let mut vars = vec![slides];
        vars.extend(positions);
        Built {
            model,
            search,
            vars,
        }
    }

    /// For `--count`: the shortest paths. Every walk to the target of at most `L` slides is a
    /// solution of [`Slider::model`], which is not worth counting; so the engine first finds
    /// the fewest slides, and the model to count has `slides` fixed to it (with no objective).
    /// Each shortest path is then one assignment of the positions: they stay on the target
    /// after it.
    pub fn shortest_paths_model(&self) -> Built {
        let mut built = self.model();
        let mut model = built.model.clone();
        let fewest = engine::solve(&mut model, &built.search).objective;
        match fewest {
            Some(slides) => {
                if built.model.fix(built.vars[0], slides as i32).is_err() {
                    post_failure(&mut built.model);
                }
            }
            None => post_failure(&mut built.model), // no path at all: nothing to count
        }
        built.search.objective = None;
        built
    }

    /// Rules only: the path starts on the block, each step is one slide, it ends on the target
    /// and touches the target nowhere before.
    pub fn check_path(&self, path: &[(usize, usize)]) -> Result<(), String> {
        if path.first() != Some(&self.start) {
            return Err("the path does not begin where the block stands".into());
        }
        if path.last() != Some(&self.target) {
            return Err("the path does not end on the target".into());
        }
        for (k, pair) in path.windows(2).enumerate() {
            if pair[0] == self.target {
                return Err(format!(
                    "the block rests on the target before slide {}",
                    k + 1
                ));
            }
            if !self.slides_from(pair[0]).contains(&pair[1]) {
                return Err(format!(
                    "slide {}: no slide takes the block from ({},{}) to ({},{})",
                    k + 1,
                    pair[0].0 + 1,
                    pair[0].1 + 1,
                    pair[1].0 + 1,
                    pair[1].1 + 1
                ));
            }
        }
        Ok(())
    }

    /// The board with the resting cells numbered by slide (1-9, then a-z), and the path.
    fn render(&self, path: &[(usize, usize)]) -> String {
        const STEP: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyz";
        let mut grid: Vec<Vec<char>> = self
            .free
            .iter()
            .map(|row| row.iter().map(|&f| if f { '.' } else { '#' }).collect())
            .collect();
        for (k, &(r, c)) in path.iter().enumerate().skip(1) {
            grid[r][c] = STEP.get(k - 1).map_or('*', |&b| b as char);
        }
        grid[self.start.0][self.start.1] = 'S';
        let mut text: String = grid
            .iter()
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect();
        let cells: Vec<String> = path
            .iter()
            .map(|(r, c)| format!("({},{})", r + 1, c + 1))
            .collect();
        text.push_str(&format!(
            "{} slides: {}\n",
            path.len().saturating_sub(1),
            cells.join(" ")
        ));
        text
    }
}

impl Instance for Slider {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        match options.purpose {
            Purpose::Solve => Ok(self.model()),
            Purpose::Count => Ok(self.shortest_paths_model()),
        }
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let slides = solution.value(built.vars[0]) as usize;
        let path: Vec<(usize, usize)> = built.vars[1..=slides + 1]
            .iter()
            .map(|&p| self.cell(solution.value(p)))
            .collect();
        Answer {
            json: json!(path.iter().map(|(r, c)| [r + 1, c + 1]).collect::<Vec<_>>()).into(),
            text: self.render(&path),
            objective: Some(slides as i64),
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let path: Vec<(usize, usize)> = json
            .as_array()
            .ok_or("solution is not a list of cells")?
            .iter()
            .map(|cell| {
                let rc = cell.as_array()?;
                let (r, c) = (rc.first()?.as_u64()?, rc.get(1)?.as_u64()?);
                (rc.len() == 2 && r >= 1 && c >= 1).then(|| (r as usize - 1, c as usize - 1))
            })
            .collect::<Option<_>>()
            .ok_or("a cell is not [row, col] counted from 1")?;
        self.check_path(&path)?;
        let slides = path.len() as i64 - 1;
        if answer.objective != Some(slides) {
            return Err(format!(
                "objective {:?} is not the {slides} slides of the path",
                answer.objective
            ));
        }
        Ok(())
    }

    /// The block's place after each slide, "step0", "step1", ..., shown as its cell "r2c3".
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let positions = &built.vars[1..];
        engine::search::Naming {
            names: positions
                .iter()
                .enumerate()
                .map(|(k, &p)| (p, format!("step{k}")))
                .collect(),
            value_words: (0..self.rows * self.cols)
                .map(|i| format!("r{}c{}", i / self.cols + 1, i % self.cols + 1))
                .collect(),
            layout: engine::search::Layout::at((0..positions.len()).map(|k| (0, k)).collect()),
            ..Default::default()
        }
    }
}
