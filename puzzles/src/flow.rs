//! # Flow Free: join each pair of equal labels by a path, covering every cell
//!
//! Every label appears on exactly two endpoint cells. Give every cell a label so that the
//! cells of each label form one path between its endpoints through orthogonal neighbours, a
//! path that never touches itself (two neighbouring cells of a label are consecutive on it).
//!
//! **Model (successor + colour).** The K paths are chained into a single Hamiltonian cycle
//! through every cell: path 1 from its first endpoint to its second, then a virtual edge to the
//! first endpoint of path 2, and so on back to path 1. So `succ[i]` (the next cell) ranges over
//! the orthogonal neighbours of i, the second endpoint's successor is fixed to the next
//! path's start, and the engine's `circuit` (all-different plus nocycle) forbids any separate
//! loop: connectivity is a propagator, not a generate-and-test of paths. A colour viewpoint
//! `col[i] ∈ 0..K` is channelled by `succ[a] = b → col[b] = col[a]` (clauses over reified
//! equalities), and "never touches itself" is, for neighbours a and b of one colour,
//! `succ[a] = b ∨ succ[b] = a`. It teaches how a global constraint on one big structure
//! (one cycle) can encode several small ones (K paths). What the cycle does not see, the
//! colours' reachability and bottlenecks, `colour_paths` adds; the search grows the paths
//! from their heads (`search_order`).
//!
//! Run it: `cpsolve flow`, `cpsolve flow puzzles/instances/beyond/zucker-regular_7x7_01.txt`.

use crate::common::{check_text, content_lines};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, SearchConfig, Solution, VarId, VarSelect};
use serde_json::Value;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "flow",
    aliases: &[],
    summary: "Flow Free: join equal labels by paths that cover every cell",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/zucker-regular_5x5_01.txt"),
    seed_file: Some("instances/beyond/zucker-regular_5x5_01.txt"),
    parse,
    page: Some("docs/puzzles/flow.md"),
    defaults: Defaults {
        // With the colours' reachability and the search from the path heads, trying each
        // successor's values at every node pays on the hardest levels, where one wrong
        // turn costs a whole subtree (measured in docs/performance/paths.md).
        probe: engine::search::probing::ProbeAt::Nodes,
        ..Defaults::STANDARD
    },
    flags: &[],
};

pub const NUMBERLINK: PuzzleKind = PuzzleKind {
    name: "numberlink",
    aliases: &[],
    summary: "Numberlink (Arukone): Flow Free where cells may stay empty",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/numberlink4x4-1.txt"),
    seed_file: Some("instances/beyond/numberlink4x4-1.txt"),
    parse: parse_numberlink,
    page: Some("docs/puzzles/flow.md"),
    defaults: Defaults {
        // As `flow`: on the large sparse boards a wrong turn costs a whole subtree (measured
        // in docs/performance/paths.md).
        probe: engine::search::probing::ProbeAt::Nodes,
        ..Defaults::STANDARD
    },
    flags: &[],
};

/// The largest number of cells accepted.
pub const MAX_CELLS: usize = 40_000;

/// The most cells × labels accepted. The model has a Boolean "cell i has label l" for each
/// pair, and its memory and root propagation grow with their number (about 0.4 GB here); the
/// largest puzzle of the public sets has 67,200 (35×48 cells, 40 labels).
pub const MAX_CELL_LABELS: usize = 250_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    pub rows: usize,
    pub cols: usize,
    /// The labels, in order of first appearance.
    pub labels: Vec<String>,
    /// Each label's two endpoint cells (row-major), first appearance first.
    pub endpoints: Vec<(usize, usize)>,
    /// Numberlink: cells may stay empty (out of every path).
    pub allow_empty: bool,
}

/// Numberlink: the `flow` format, cells may stay empty.
pub fn parse_numberlink(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    let mut flow = parse_flow(text)?;
    flow.allow_empty = true;
    Ok(vec![Box::new(flow)])
}

pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_flow(text)?)])
}

/// The grid of `flow` and `numberlink`.
pub fn parse_flow(text: &str) -> Result<Flow, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(0, "empty file: expected rows of cells"));
    }
    let token_form = lines.iter().any(|(_, l)| l.contains(char::is_whitespace));
    let mut cells: Vec<Option<String>> = Vec::new();
    let mut cols = 0;
    let mut label_lines: Vec<(String, Vec<usize>, usize)> = Vec::new(); // label, cells, last line
                                                                        // Label to its entry in `label_lines`: the lookups stay linear in the grid.
    let mut label_index: std::collections::HashMap<String, usize> = Default::default();
    for (r, &(line, text)) in lines.iter().enumerate() {
        let tokens: Vec<String> = if token_form {
            text.split_whitespace().map(str::to_string).collect()
        } else {
            text.chars().map(|c| c.to_string()).collect()
        };
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
            if token == "." || token == "-" {
                cells.push(None);
                continue;
            }
            if !token_form && !token.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(ParseError::new(
                    line,
                    format!("unexpected '{token}': a cell is a letter or digit (an endpoint), '.' or '-'"),
                ));
            }
            let index = cells.len();
            match label_index.get(&token).map(|&k| &mut label_lines[k]) {
                Some(entry) => {
                    entry.1.push(index);
                    entry.2 = line;
                    if entry.1.len() > 2 {
                        return Err(ParseError::new(
                            line,
                            format!("label '{token}' appears more than twice (a label has two endpoints)"),
                        ));
                    }
                }
                None => {
                    label_index.insert(token.clone(), label_lines.len());
                    label_lines.push((token.clone(), vec![index], line));
                }
            }
            cells.push(Some(token));
        }
        if cells.len() > MAX_CELLS {
            return Err(ParseError::new(
                line,
                format!("more than {MAX_CELLS} cells"),
            ));
        }
    }
    if label_lines.is_empty() {
        return Err(ParseError::new(
            lines[lines.len() - 1].0,
            "no endpoint at all: every label appears twice",
        ));
    }
    for (label, at, line) in &label_lines {
        if at.len() != 2 {
            return Err(ParseError::new(
                *line,
                format!("label '{label}' appears once (a label has two endpoints)"),
            ));
        }
    }
    let pairs = cells.len() * label_lines.len();
    if pairs > MAX_CELL_LABELS {
        return Err(ParseError::new(
            lines[lines.len() - 1].0,
            format!(
                "{} cells and {} labels make {pairs} cell-label pairs, more than {MAX_CELL_LABELS}, the most cpsolve models",
                cells.len(),
                label_lines.len()
            ),
        ));
    }
    Ok(Flow {
        rows: lines.len(),
        cols,
        labels: label_lines.iter().map(|(l, _, _)| l.clone()).collect(),
        endpoints: label_lines
            .iter()
            .map(|(_, at, _)| (at[0], at[1]))
            .collect(),
        allow_empty: false,
    })
}

impl Flow {
    /// The orthogonal neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c) = (i / self.cols, i % self.cols);
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push(i - self.cols);
        }
        if r + 1 < self.rows {
            out.push(i + self.cols);
        }
        if c > 0 {
            out.push(i - 1);
        }
        if c + 1 < self.cols {
            out.push(i + 1);
        }
        out
    }

    /// A cell's square on a chessboard colouring of the grid: dark when row + column is even.
    pub fn is_dark(&self, i: usize) -> bool {
        (i / self.cols + i % self.cols) % 2 == 0
    }

    /// **Parity.** Neighbouring cells differ in shade, so a path alternates dark and light:
    /// between two dark endpoints it holds one dark cell more than light ones, between two
    /// light endpoints one light cell more, and as many of each between endpoints of
    /// different shades. Summed over the paths, the cells used hold `Σ δₗ` more dark cells
    /// than light ones (δₗ = +1, −1 or 0 by the shades of label l's endpoints), whatever
    /// the routes. So the empty cells hold `(dark − light on the board) − Σ δₗ` more dark
    /// than light cells: this function's value. When it is not 0, covering every cell is
    /// impossible, and a Numberlink solution needs at least that many empty cells of the
    /// shade it names (four of janko's six Arukone boards with empty cells are such).
    pub fn empty_parity(&self) -> i64 {
        let n = self.rows * self.cols;
        let dark_minus_light: i64 = (0..n).map(|i| if self.is_dark(i) { 1 } else { -1 }).sum();
        let paths: i64 = self
            .endpoints
            .iter()
            .map(|&(s, e)| match (self.is_dark(s), self.is_dark(e)) {
                (true, true) => 1,
                (false, false) => -1,
                _ => 0,
            })
            .sum();
        dark_minus_light - paths
    }

    pub fn model(&self) -> Built {
        let n = self.rows * self.cols;
        let k = self.labels.len();
        let mut model = Model::new();
        let mut is_start = vec![false; n];
        let mut end_of = vec![None; n];
        for (label, &(s, e)) in self.endpoints.iter().enumerate() {
            is_start[s] = true;
            end_of[e] = Some(label);
        }
        // Successors: a neighbour that is not a path's start (a start's predecessor is the
        // previous path's end, by the virtual edge); the end of path l goes to path l+1's start.
        let succ: Vec<VarId> = (0..n)
            .map(|i| match end_of[i] {
                Some(label) => {
                    let next = self.endpoints[(label + 1) % k].0;
                    model.new_var(next as i32, next as i32)
                }
                None => {
                    let mut next: Vec<i32> = self
                        .neighbours(i)
                        .into_iter()
                        .filter(|&j| !is_start[j])
                        .map(|j| j as i32)
                        .collect();
                    if self.allow_empty && !is_start[i] {
                        next.push(i as i32); // empty: out of the cycle
                    }
                    if next.is_empty() {
                        // No way on: the board is unsolvable.
                        let x = model.new_var(0, 0);
                        crate::common::post_failure(&mut model);
                        x
                    } else {
                        model.new_var_from_values(&next)
                    }
                }
            })
            .collect();
        // Numberlink's empty cells: colour k, successor itself (out of the subcircuit).
        let colours = k + self.allow_empty as usize;
        let col = model.new_vars(n, 0, colours as i32 - 1);
        // Numberlink: empty[i] ⇔ cell i stays empty, for the cells that may.
        let mut empty = Vec::new();
        let mut empty_terms = Vec::new();
        if self.allow_empty {
            model.subcircuit(&succ);
            for i in 0..n {
                if model.contains(succ[i], i as i32) {
                    let b = model.new_bool();
                    model.reify_eq(b, succ[i], i as i32);
                    model.reify_eq(b, col[i], k as i32);
                    empty.push(b);
                    empty_terms.push((if self.is_dark(i) { 1 } else { -1 }, b));
                }
            }
        } else {
            model.circuit(&succ);
        }
        // The paths' parity (see `empty_parity`): the dark empty cells outnumber the light
        // ones by a count the endpoints fix; Flow Free leaves none empty.
        let parity = self.empty_parity();
        let mut extra_pairs = None;
        if empty_terms.is_empty() {
            if parity != 0 {
                crate::common::post_failure(&mut model);
            }
        } else {
            let _ = model.linear(&empty_terms, engine::Relation::Eq, parity);
            // The empty cells of the shade parity does not ask for: each comes with one of
            // the other shade, beyond the |parity| that shade must have.
            let minority = if parity >= 0 { -1 } else { 1 };
            let mut terms: Vec<(i64, VarId)> = empty_terms
                .iter()
                .filter(|&&(shade, _)| shade == minority)
                .map(|&(_, b)| (1, b))
                .collect();
            let pairs = model.new_var(0, terms.len() as i32);
            terms.push((-1, pairs));
            let _ = model.linear(&terms, engine::Relation::Eq, 0);
            extra_pairs = Some(pairs);
        }
        for (label, &(s, e)) in self.endpoints.iter().enumerate() {
            let _ = model.fix(col[s], label as i32);
            let _ = model.fix(col[e], label as i32);
        }
        // Each label reaches all its cells, and passes its bottlenecks.
        let neighbours = (0..n).map(|i| self.neighbours(i)).collect();
        model.colour_paths(&col, neighbours, self.endpoints.clone());
        // is[i][l] ⇔ col[i] = l, for the labels (not the empty colour).
        let is: Vec<Vec<VarId>> = (0..n)
            .map(|i| {
                (0..k)
                    .map(|l| {
                        let b = model.new_bool();
                        model.reify_eq(b, col[i], l as i32);
                        b
                    })
                    .collect()
            })
            .collect();
        // step(a, b) ⇔ succ[a] = b, for real edges.
        let mut step = std::collections::HashMap::new();
        for a in 0..n {
            if end_of[a].is_some() {
                continue;
            }
            for b in self.neighbours(a) {
                if b != a && model.contains(succ[a], b as i32) {
                    let s = model.new_bool();
                    model.reify_eq(s, succ[a], b as i32);
                    step.insert((a, b), s);
                    // succ[a] = b → col[b] = col[a].
                    for (&is_a, &is_b) in is[a].iter().zip(&is[b]) {
                        model.clause(&[is_b], &[s, is_a]);
                    }
                }
            }
        }
        // Neighbours of one colour are consecutive on the path.
        for a in 0..n {
            for b in self.neighbours(a) {
                if b < a {
                    continue;
                }
                let pos: Vec<VarId> = [step.get(&(a, b)), step.get(&(b, a))]
                    .into_iter()
                    .flatten()
                    .copied()
                    .collect();
                for (&is_a, &is_b) in is[a].iter().zip(&is[b]) {
                    model.clause(&pos, &[is_a, is_b]);
                }
            }
        }
        let search = search_order(&succ, &empty, extra_pairs);
        Built {
            model,
            search,
            vars: col,
        }
    }

    /// Rules only, on a grid of label indices.
    pub fn check_labels(&self, grid: &[Option<usize>]) -> Result<(), String> {
        let name = |i: usize| format!("[{}, {}]", i / self.cols + 1, i % self.cols + 1);
        let mut endpoint = vec![false; grid.len()];
        for (l, &(s, e)) in self.endpoints.iter().enumerate() {
            for x in [s, e] {
                endpoint[x] = true;
                if grid[x] != Some(l) {
                    return Err(format!(
                        "endpoint {} must keep label '{}'",
                        name(x),
                        self.labels[l]
                    ));
                }
            }
        }
        for i in 0..grid.len() {
            let Some(label) = grid[i] else {
                if !self.allow_empty {
                    return Err(format!("cell {} is empty: flow covers every cell", name(i)));
                }
                continue;
            };
            let same = self
                .neighbours(i)
                .into_iter()
                .filter(|&j| grid[j] == grid[i])
                .count();
            let want = if endpoint[i] { 1 } else { 2 };
            if same != want {
                return Err(format!(
                    "cell {} has {same} neighbours labelled '{}', expected {want}",
                    name(i),
                    self.labels[label]
                ));
            }
        }
        // Each label's cells are connected (no separate loop).
        for (l, &(s, _)) in self.endpoints.iter().enumerate() {
            let mut seen = vec![false; grid.len()];
            let mut stack = vec![s];
            seen[s] = true;
            while let Some(i) = stack.pop() {
                for j in self.neighbours(i) {
                    if grid[j] == Some(l) && !std::mem::replace(&mut seen[j], true) {
                        stack.push(j);
                    }
                }
            }
            if let Some(i) = (0..grid.len()).find(|&i| grid[i] == Some(l) && !seen[i]) {
                return Err(format!(
                    "cell {} of '{}' is not on its path",
                    name(i),
                    self.labels[l]
                ));
            }
        }
        Ok(())
    }
}

/// The search grows the paths from their heads. Flow Free: among the successors of the
/// cells that end a chain of fixed successors grown from a path's start (a *head*; a start
/// is one, its predecessor being the previous path's end), the smallest domain first; so
/// every decision extends a path instead of laying a piece of one somewhere in the grid.
///
/// Numberlink: before that, the number of pairs of empty cells beyond the ones parity asks
/// for (`extra_pairs`, [`Flow::empty_parity`]), smallest first. The first dive is then the
/// board with the fewest empty cells parity allows: on a board of parity 0 every cell
/// covered (the Flow Free model, whose propagation is far stronger: a cell no colour can
/// reach fails at once, where Numberlink would just leave it empty), on the others exactly
/// |parity| cells of one shade empty. Backtracking tries one more pair at a time, so the
/// search stays complete and counts stay exact. The empty cells themselves are then
/// decided by the paths (a cell no path can reach is empty), their flags branched on
/// last. Janko's Arukone boards, whose solutions cover every cell but on six boards (four
/// of them of parity ≠ 0, each with exactly |parity| empty cells), are why
/// (docs/performance/paths.md).
fn search_order(succ: &[VarId], empty: &[VarId], extra_pairs: Option<VarId>) -> SearchConfig {
    let succ_of_cell = succ.to_vec();
    let choose = move |model: &Model, open: &[VarId]| {
        // The open variables come in the order of `branch_vars`: the pairs first.
        if Some(open[0]) == extra_pairs {
            return open[0];
        }
        path_head(model, &succ_of_cell).unwrap_or_else(|| {
            *open
                .iter()
                .min_by_key(|&&x| model.size(x))
                .expect("the brancher asks with an open variable")
        })
    };
    let order = extra_pairs
        .iter()
        .chain(succ)
        .chain(empty)
        .copied()
        .collect();
    SearchConfig {
        branch_vars: Some(order),
        var_select: VarSelect::Custom(std::sync::Arc::new(choose)),
        ..Default::default()
    }
}

/// The open successor with the smallest domain among the heads: cells whose predecessor is
/// fixed (a successor fixed to them, not a numberlink self-loop) and whose successor is not.
fn path_head(model: &Model, succ: &[VarId]) -> Option<VarId> {
    let mut has_predecessor = vec![false; succ.len()];
    for (i, &x) in succ.iter().enumerate() {
        if model.is_fixed(x) && model.value(x) != i as i32 {
            has_predecessor[model.value(x) as usize] = true;
        }
    }
    succ.iter()
        .enumerate()
        .filter(|&(i, &x)| has_predecessor[i] && !model.is_fixed(x))
        .min_by_key(|&(_, &x)| model.size(x))
        .map(|(_, &x)| x)
}

impl Instance for Flow {
    fn build(&self, _options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model())
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        let rows: Vec<Vec<Option<&str>>> = values
            .chunks(self.cols)
            .map(|r| {
                // The empty colour (Numberlink) is the one past the labels.
                r.iter()
                    .map(|&l| self.labels.get(l as usize).map(String::as_str))
                    .collect()
            })
            .collect();
        let width = self
            .labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1);
        let text: String = rows
            .iter()
            .map(|r| {
                let cells: Vec<String> = r
                    .iter()
                    .map(|l| format!("{:>width$}", l.unwrap_or("·")))
                    .collect();
                cells.join(" ") + "\n"
            })
            .collect();
        let json = Value::Array(
            rows.iter()
                .map(|r| {
                    Value::Array(
                        r.iter()
                            .map(|&l| l.map_or(Value::Null, Value::from))
                            .collect(),
                    )
                })
                .collect(),
        );
        Answer {
            json: json.into(),
            text,
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let rows = json.as_array().ok_or("solution is not a list of rows")?;
        if rows.len() != self.rows {
            return Err(format!("expected {} rows, found {}", self.rows, rows.len()));
        }
        let mut grid = Vec::with_capacity(self.rows * self.cols);
        for (r, row) in rows.iter().enumerate() {
            let cells = row
                .as_array()
                .ok_or_else(|| format!("row {} is not a list", r + 1))?;
            if cells.len() != self.cols {
                return Err(format!(
                    "row {} has {} cells, expected {}",
                    r + 1,
                    cells.len(),
                    self.cols
                ));
            }
            for (c, cell) in cells.iter().enumerate() {
                if cell.is_null() {
                    grid.push(None);
                    continue;
                }
                let label = cell
                    .as_str()
                    .and_then(|s| self.labels.iter().position(|l| l == s))
                    .ok_or_else(|| {
                        format!("cell [{}, {}] holds no label of the puzzle", r + 1, c + 1)
                    })?;
                grid.push(Some(label));
            }
        }
        self.check_labels(&grid)
    }

    /// Cells "r1c1"..: the label of the path through it, in that path's colour (`·`:
    /// Numberlink's empty cell).
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut naming = crate::naming::grid(&built.vars, self.cols);
        naming.value_words = self.labels.clone();
        naming.layout.value_colours = crate::naming::palette(self.labels.len());
        if self.allow_empty {
            naming.value_words.push("·".to_string());
            naming.layout.value_colours.push("#fff".to_string());
        }
        naming
    }
}
