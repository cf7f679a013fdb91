//! # Grid helpers: cells, JSON grids, pictures and geometry
//!
//! What the grid puzzles (Sudoku, Strimko, Suko, Kakuro, the board puzzles) share to decode a
//! solution into rows, read the JSON grid of an answer back for the checker, draw a grid for
//! the terminal, and find a cell's neighbours.

use engine::{Model, Solution, VarId};
use serde_json::Value;

/// The values of `vars` in a solution (a grid puzzle's cells, row-major).
pub fn values_of(vars: &[VarId], solution: &Solution) -> Vec<i64> {
    vars.iter().map(|&x| solution.value(x) as i64).collect()
}

/// Row-major `values` as the JSON rows of docs/formats.md: `[[5,1,7,...], ...]`, `width` per row.
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

/// The rows and the columns of an `n`×`n` grid (cells numbered row by row), then one group
/// per name of `group_names` holding the cells `c` with `group_of[c]` equal to its index;
/// each with its name ("row 2", "column 5", "`group_word` 'a'"), for models and checkers.
pub fn rows_columns_groups(
    n: usize,
    group_of: &[usize],
    group_names: &[String],
    group_word: &str,
) -> Vec<(String, Vec<usize>)> {
    let mut units = Vec::with_capacity(2 * n + group_names.len());
    for r in 0..n {
        units.push((
            format!("row {}", r + 1),
            (0..n).map(|c| r * n + c).collect(),
        ));
    }
    for c in 0..n {
        units.push((
            format!("column {}", c + 1),
            (0..n).map(|r| r * n + c).collect(),
        ));
    }
    for (g, name) in group_names.iter().enumerate() {
        let cells = (0..n * n).filter(|&i| group_of[i] == g).collect();
        units.push((format!("{group_word} '{name}'"), cells));
    }
    units
}
