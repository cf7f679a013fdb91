//! # Sudoku: all-different, three times over
//!
//! Fill an n×n grid (n = m², so 4×4, 9×9, 16×16, 25×25, ...) with 1..n so that every row,
//! every column and every m×m box holds each number once; some cells are given.
//!
//! **Model (seed 003).** The seed writes Sudoku as a 0/1 program: `x[i][j][k] = 1` when cell
//! (i, j) holds k, with "exactly one k per row, per column, per box, per cell" as sums equal
//! to 1, and the givens set to 1. The code folds the digit choice back into one integer
//! variable per cell, `cell[i][j] ∈ 1..n` ("exactly one k per cell" is then free), and says
//! "exactly one k per row" as `alldifferent(row)`, and the same for columns and boxes: 3n
//! all-different constraints over n cells each. Givens are fixed before the search starts.
//!
//! **Propagation.** The all-different level is the user's (`--alldiff value|bounds|domain`):
//! `value` is the pencil-mark rule "a placed digit leaves its row, column and box"; `domain`
//! (Régin's matching) also finds hidden singles and naked/hidden pairs, triples, ... within
//! each unit, which is why most newspaper puzzles need no search at all at that level.
//! **Search:** smallest domain first, ties broken by the pressure on the open peers: the
//! peers sharing a candidate, those with fewer candidates weighing more
//! (`Sudoku::cell_choice`).
//!
//! Givens that clash are not a format error: the model simply fails at the root and the
//! answer is `UNSATISFIABLE`.
//!
//! Run it: `cpsolve sudoku`, `cpsolve sudoku puzzles.txt --alldiff domain`.

use crate::common::{parse_cell, post_failure};
use crate::common::{Answer, AnswerJson, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::search::{Neighbours, VarSelect};
use engine::{Model, SearchConfig, Solution, VarId};
use std::sync::Arc;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "sudoku",
    aliases: &[],
    summary: "Sudoku n×n (n = 4, 9, 16, 25, ...): rows, columns and boxes hold 1..n once",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/sudoku.txt"),
    seed_file: Some("instances/seed/sudoku.txt"),
    parse,
    page: Some("docs/puzzles/sudoku.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest box side accepted (a 100×100 grid); the search is the real limit.
pub const MAX_BOX: usize = 10;

// The checker keeps the values of a unit as the bits of a `u128`.
const _: () = assert!(MAX_BOX * MAX_BOX < 128);

/// One Sudoku: the box side m, the grid side n = m², and the givens row by row (0 = blank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    pub box_size: usize,
    pub n: usize,
    pub givens: Vec<u8>,
}

// ----- parsing --------------------------------------------------------------------------

/// The box side m of a grid side n = m² (m ≥ 2), if n is one.
fn box_side(n: usize) -> Option<usize> {
    (2..=MAX_BOX).find(|&m| m * m == n)
}

/// The characters of the grid form that only draw lines.
fn is_rule_char(c: char) -> bool {
    c.is_whitespace() || c == '|' || c == '-' || c == '+'
}

/// A grid being read, row by row.
struct GridInProgress {
    first_line: usize,
    last_line: usize,
    box_size: usize,
    n: usize,
    rows: usize,
    givens: Vec<u8>,
}

impl GridInProgress {
    fn incomplete(&self) -> ParseError {
        ParseError::new(
            self.last_line,
            format!(
                "the grid that starts on line {} has {} rows, expected {} (one per row of the {}×{} puzzle)",
                self.first_line, self.rows, self.n, self.n, self.n
            ),
        )
    }
}

/// One puzzle in the one-line form: n² characters, `1..n` given, `.` or `0` blank. This is
/// the hot path for big collections (one allocation per puzzle).
fn parse_one_line(line: &str, line_no: usize) -> Result<Sudoku, ParseError> {
    let len = line.chars().count();
    let n = match len {
        16 => 4,
        81 => 9,
        _ => {
            return Err(ParseError::new(
                line_no,
                format!(
                    "a one-line puzzle has 81 characters (9×9) or 16 (4×4), found {len}; \
                     larger grids are written in grid form"
                ),
            ))
        }
    };
    // Every valid character is ASCII, so up to the first wrong one the bytes are the
    // characters (and that one starts at byte `i`, which is character `i`).
    let valid = |b: u8| b == b'.' || (b'0'..=b'0' + n as u8).contains(&b);
    if let Some(i) = line.bytes().position(|b| !valid(b)) {
        let c = line[i..]
            .chars()
            .next()
            .expect("a character starts at byte i");
        return Err(ParseError::new(
            line_no,
            format!(
                "unexpected {c:?} at character {}: expected a digit 1..{n}, '.' or '0'",
                i + 1
            ),
        ));
    }
    let givens = line
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    Ok(Sudoku {
        box_size: box_side(n).expect("4 and 9 are squares"),
        n,
        givens,
    })
}

/// Parse a whole file: one-line puzzles and grid-form puzzles, in order.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    let mut puzzles: Vec<Box<dyn Instance>> = Vec::new();
    let mut grid: Option<GridInProgress> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            // A blank line ends a grid; it must be complete by then.
            if let Some(g) = grid.take() {
                return Err(g.incomplete());
            }
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        // Fast path: the usual 81-character line of Sudoku collections.
        if grid.is_none()
            && (line.len() == 81 || line.len() == 16)
            && line.bytes().all(|b| b == b'.' || b.is_ascii_digit())
        {
            puzzles.push(Box::new(parse_one_line(line, line_no)?));
            continue;
        }
        let mut tokens: Vec<&str> = line.split(is_rule_char).filter(|t| !t.is_empty()).collect();
        if tokens.is_empty() {
            continue; // a line of rules like `------+-------+------`
        }
        if tokens.len() == 1 {
            let only = tokens[0];
            if grid.is_none() && only.chars().count() >= 10 {
                puzzles.push(Box::new(parse_one_line(only, line_no)?));
                continue;
            }
            // A compact row such as `53..7....`: one cell per character.
            tokens = only
                .char_indices()
                .map(|(at, c)| &only[at..at + c.len_utf8()])
                .collect();
        }
        let g = match grid.as_mut() {
            Some(g) => g,
            None => {
                let n = tokens.len();
                let Some(m) = box_side(n) else {
                    return Err(ParseError::new(
                        line_no,
                        format!(
                            "a grid row has n cells with n = 4, 9, 16, 25, ... (a square, at most {}); found {n}",
                            MAX_BOX * MAX_BOX
                        ),
                    ));
                };
                grid.insert(GridInProgress {
                    first_line: line_no,
                    last_line: line_no,
                    box_size: m,
                    n,
                    rows: 0,
                    givens: Vec::with_capacity(n * n),
                })
            }
        };
        if tokens.len() != g.n {
            return Err(ParseError::new(
                line_no,
                format!(
                    "row {} has {} cells, expected {} like the first row (line {})",
                    g.rows + 1,
                    tokens.len(),
                    g.n,
                    g.first_line
                ),
            ));
        }
        for t in &tokens {
            match parse_cell(t, g.n as u32) {
                Some(v) => g.givens.push(v.unwrap_or(0) as u8),
                None => {
                    return Err(ParseError::new(
                        line_no,
                        format!(
                            "unexpected {}: a cell is a number 1..{}, '.' or '0'",
                            crate::parse::quoted(t),
                            g.n
                        ),
                    ))
                }
            }
        }
        g.rows += 1;
        g.last_line = line_no;
        if g.rows == g.n {
            let g = grid.take().expect("a grid is in progress");
            puzzles.push(Box::new(Sudoku {
                box_size: g.box_size,
                n: g.n,
                givens: g.givens,
            }));
        }
    }
    if let Some(g) = grid {
        return Err(g.incomplete());
    }
    if puzzles.is_empty() {
        return Err(ParseError::new(
            0,
            "no puzzle in the file: expected lines of 81 characters or grids of n rows",
        ));
    }
    Ok(puzzles)
}

// ----- model, decoding, rendering, checking ------------------------------------------------

impl Sudoku {
    /// The cells of each row, column and box, as indices into the row-major grid.
    pub fn units(&self) -> Vec<Vec<usize>> {
        (0..3 * self.n)
            .map(|u| (0..self.n).map(|k| self.unit_cell(u, k)).collect())
            .collect()
    }

    /// Cell `k` of unit `u` (units `0..n` are the rows, `n..2n` the columns, `2n..3n` the
    /// boxes), as an index into the row-major grid.
    fn unit_cell(&self, u: usize, k: usize) -> usize {
        let (n, m) = (self.n, self.box_size);
        let i = u % n;
        match u / n {
            0 => i * n + k,
            1 => k * n + i,
            _ => {
                let (top, left) = ((i / m) * m, (i % m) * m);
                (top + k / m) * n + left + k % m
            }
        }
    }

    /// The name of unit `u` of [`Sudoku::units`], for the checker's messages.
    fn unit_name(&self, u: usize) -> String {
        let n = self.n;
        match u / n {
            0 => format!("row {}", u % n + 1),
            1 => format!("column {}", u % n + 1),
            _ => format!("box {}", u % n + 1),
        }
    }

    /// The model of this puzzle: the rules, and the givens fixed.
    pub fn model(&self, options: &ModelOptions) -> Built {
        let mut built = self.rules_model(options);
        let mut model = built.model;
        for (&x, &g) in built.vars.iter().zip(&self.givens) {
            if g != 0 && model.fix(x, g as i32).is_err() {
                post_failure(&mut model);
            }
        }
        built.model = model;
        built
    }

    /// The rules alone (an empty grid of this size): the model every puzzle of the size
    /// shares, which [`Instance::restrict`] narrows to one puzzle's givens.
    pub fn rules_model(&self, options: &ModelOptions) -> Built {
        let n = self.n;
        let mut model = Model::new();
        let cells = model.new_vars(n * n, 1, n as i32);
        let units: Vec<Vec<_>> = self
            .units()
            .iter()
            .map(|unit| unit.iter().map(|&i| cells[i]).collect())
            .collect();
        // Posted one by one; at the domain level the model runs the units as one propagator
        // (`engine/src/model/alldiff.rs`).
        for unit in &units {
            model.all_different(unit, options.alldiff);
        }
        let search = SearchConfig {
            var_select: self.cell_choice(&cells, model.num_vars()),
            branch_vars: Some(cells.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: cells,
        }
    }

    /// The search's variable choice: a cell with the fewest candidates, and among those the
    /// one that presses hardest on its open *peers* (the cells sharing a row, column or box
    /// with it): each peer sharing a candidate counts one over the square of its number of
    /// candidates.
    ///
    /// Smallest domain alone ("first fail") leaves many ties on a Sudoku: a hard grid has a
    /// dozen cells with two candidates. The tie-break is a weighted *degree* rule: the
    /// branches on a cell strike its candidates from its peers, and a peer with few
    /// candidates left is the one that this fixes (more propagation) or empties (a wrong
    /// guess fails at once). It takes fewer nodes than smallest domain alone, or than a count
    /// of shared candidates (measured in `docs/PERFORMANCE.md`, "Sudoku, eighth pass" and
    /// "eleventh pass").
    fn cell_choice(&self, cells: &[VarId], num_vars: usize) -> VarSelect {
        let units: Vec<Vec<VarId>> = self
            .units()
            .iter()
            .map(|unit| unit.iter().map(|&i| cells[i]).collect())
            .collect();
        VarSelect::SmallestDomainConstrainedNeighbours(Arc::new(Neighbours::from_groups(
            num_vars, &units,
        )))
    }

    /// Whether a full grid of values in `1..=n`, row-major, keeps the givens and holds each
    /// value once in every row, column and box. Every answer of a batch comes through here,
    /// so it only says yes or no, in one pass without a branch per unit: n values in 1..n
    /// are all different exactly when the bits `1 << value` of the unit, or-ed together, are
    /// all n bits (a `u128`, as n ≤ `MAX_BOX`²). [`Sudoku::first_broken_rule`] names what is
    /// wrong.
    fn obeys_rules(&self, values: &[i64]) -> bool {
        let (n, m) = (self.n, self.box_size);
        let all: u128 = ((1u128 << n) - 1) << 1;
        // The columns' bits, then the boxes'.
        let mut seen = vec![0u128; 2 * n];
        let (columns, boxes) = seen.split_at_mut(n);
        let mut givens_kept = true;
        let mut rows_full = true;
        let rows = values.chunks_exact(n).zip(self.givens.chunks_exact(n));
        for (r, (row, row_givens)) in rows.enumerate() {
            let mut in_row = 0u128;
            // A box's width of cells at a time: the cells, their givens, their columns, and
            // the box (the boxes of this row's band in turn). No division per cell.
            let band = &mut boxes[r / m * m..][..m];
            let segments = (row.chunks_exact(m).zip(row_givens.chunks_exact(m)))
                .zip(columns.chunks_exact_mut(m).zip(band));
            for ((cells, givens), (columns, in_box)) in segments {
                for ((&v, &given), column) in cells.iter().zip(givens).zip(columns) {
                    givens_kept &= given == 0 || v == given as i64;
                    let bit = 1u128 << v;
                    in_row |= bit;
                    *column |= bit;
                    *in_box |= bit;
                }
            }
            rows_full &= in_row == all;
        }
        givens_kept && rows_full && seen.iter().all(|&unit| unit == all)
    }

    /// The first rule a full grid of values in `1..=n` breaks, in the order a reader finds
    /// it: cell by cell, row-major, its given, then its row, column and box. The values each
    /// unit holds so far are a bitset (units numbered as in `unit_cell`), so a value seen
    /// twice in a unit is caught when it comes. Slower than `Sudoku::obeys_rules`, which
    /// it explains (and which the tests check against it).
    pub fn first_broken_rule(&self, values: &[i64]) -> Result<(), String> {
        let (n, m) = (self.n, self.box_size);
        let mut seen = vec![0u128; 3 * n];
        for (i, (&v, &given)) in values.iter().zip(&self.givens).enumerate() {
            let (r, c) = (i / n, i % n);
            if given != 0 && v != given as i64 {
                return Err(format!(
                    "cell [{}, {}] is given as {given} but holds {v}",
                    r + 1,
                    c + 1
                ));
            }
            let bit = 1u128 << v;
            for u in [r, n + c, 2 * n + (r / m) * m + c / m] {
                if seen[u] & bit != 0 {
                    return Err(format!("{} holds {v} twice", self.unit_name(u)));
                }
                seen[u] |= bit;
            }
        }
        Ok(())
    }

    /// The grid as text, boxes separated by `|` and `-+-` lines (itself a valid grid-form
    /// puzzle).
    pub fn render(&self, values: &[i64]) -> String {
        use std::fmt::Write;
        let (n, m) = (self.n, self.box_size);
        let width = n.to_string().len();
        let mut out = String::with_capacity(n * (n + m) * (width + 1) * 2);
        for r in 0..n {
            if r > 0 && r % m == 0 {
                // The rule between bands of boxes: `------+-------+------` for 9×9.
                for b in 0..m {
                    if b > 0 {
                        out.push_str("-+-");
                    }
                    (1..m * (width + 1)).for_each(|_| out.push('-'));
                }
                out.push('\n');
            }
            for c in 0..n {
                if c > 0 {
                    out.push_str(if c % m == 0 { " | " } else { " " });
                }
                match values[r * n + c] {
                    // One digit: the common case of a 9×9 grid, without the formatter.
                    v @ 1..=9 if width == 1 => out.push((b'0' + v as u8) as char),
                    0 => {
                        let _ = write!(out, "{:>width$}", ".");
                    }
                    v => {
                        let _ = write!(out, "{v:>width$}");
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

impl Instance for Sudoku {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        Answer {
            text: self.render(&values),
            json: AnswerJson::Rows {
                values,
                width: self.n,
            },
            objective: None,
        }
    }

    fn answer_without_picture(&self, built: &Built, solution: &Solution) -> Answer {
        Answer {
            json: AnswerJson::Rows {
                values: crate::common::values_of(&built.vars, solution),
                width: self.n,
            },
            text: String::new(),
            objective: None,
        }
    }

    /// Cells "r1c1".. (the digits are the model's values already), boxes bordered.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let (n, m) = (self.n, self.box_size);
        let mut naming = crate::naming::grid(&built.vars, n);
        naming.layout.regions = (0..n * n).map(|i| i / n / m * m + i % n / m).collect();
        naming
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let n = self.n;
        let values = answer.json.grid_numbers(n, n, 1, n as i64)?;
        if self.obeys_rules(&values) {
            return Ok(());
        }
        // Something is wrong: find it again cell by cell, to name it.
        self.first_broken_rule(&values)?;
        Err("the two passes of the checker disagree (a bug in the checker)".to_string())
    }

    /// Every Sudoku of one size shares the model of the rules; the givens are the
    /// restriction.
    fn shared_model_key(&self) -> Option<u64> {
        Some(self.n as u64)
    }

    fn build_shared(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.rules_model(options))
    }

    fn restrict(&self, built: &mut Built) -> Result<(), engine::Conflict> {
        for (&x, &g) in built.vars.iter().zip(&self.givens) {
            if g != 0 {
                built.model.fix(x, g as i32)?;
            }
        }
        Ok(())
    }
}
