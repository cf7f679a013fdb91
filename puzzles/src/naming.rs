//! # Naming: the puzzle's words for the model's variables
//!
//! A model knows variables by number (`x37`); a person solving a Sudoku says "row 5,
//! column 2" and writes digits, not the engine's integers. Traces and pictures of the search
//! (`cpsolve --trace`, `cpsolve tree`) speak the person's language, so each puzzle says how
//! its variables are called ([`crate::Instance::naming`]); these are the shared helpers.
//!
//! The naming also carries the puzzle's picture ([`Layout`]: where each cell is drawn, the
//! clues around it, region borders, colours), which `cpsolve --animate` replays the search on.

use crate::rotation::RotationBoard;
use engine::search::{Layout, Naming};
use engine::VarId;

/// Cells of a grid, row by row, `width` to a row, named `r1c1`, `r1c2`, ... (from 1).
pub fn grid(cells: &[VarId], width: usize) -> Naming {
    let places: Vec<(usize, usize)> = (0..cells.len()).map(|i| (i / width, i % width)).collect();
    at_places(cells, places)
}

/// Variables drawn at the given `(row, column)` places (from 0), named `rRcC` (from 1).
pub fn at_places(vars: &[VarId], places: Vec<(usize, usize)>) -> Naming {
    Naming {
        names: vars
            .iter()
            .zip(&places)
            .map(|(&x, &(r, c))| (x, format!("r{}c{}", r + 1, c + 1)))
            .collect(),
        layout: Layout::at(places),
        ..Naming::default()
    }
}

/// Variables with names of their own, drawn one under the other (a list: a ranking's
/// runners, v3ck's edges, a circuit's switches).
pub fn list(vars: &[VarId], names: impl IntoIterator<Item = String>) -> Naming {
    Naming {
        names: vars.iter().copied().zip(names).collect(),
        layout: Layout::at((0..vars.len()).map(|i| (i, 0)).collect()),
        ..Naming::default()
    }
}

/// The turns of the pieces of a rotation board (Infinity Loop, Match 22), each at its place:
/// in the trace, how far it is turned clockwise (`90°`); in the picture, the piece as the
/// turn shows it, `shape(place, turns)`. [`RotationBoard`]'s variables are `[total, turns of
/// each piece..., ...]`, pieces in board order.
pub fn rotations(
    board: &RotationBoard,
    built: &crate::common::Built,
    shape: impl Fn(usize, usize) -> String,
) -> Naming {
    let pieces = board.piece_places();
    let places: Vec<(usize, usize)> = pieces
        .iter()
        .map(|&i| (i / board.cols, i % board.cols))
        .collect();
    let turns = &built.vars[1..=places.len()];
    let mut naming = at_places(turns, places);
    naming.value_words = words(&["0°", "90°", "180°", "270°"]);
    naming.layout.cell_words = pieces
        .iter()
        .map(|&i| (0..4).map(|t| shape(i, t)).collect())
        .collect();
    naming
}

/// A graph with at most this many vertices is drawn as a graph; larger ones as a row.
pub const MAX_GRAPH: usize = 60;

/// Words for the values 0, 1, ...
pub fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// `n` colours that tell apart at a glance (value `v` painted `palette(n)[v]`), repeating
/// after twelve.
pub fn palette(n: usize) -> Vec<String> {
    const COLOURS: [&str; 12] = [
        "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
        "#bfef45", "#fabed4", "#9a6324", "#dcbeff",
    ];
    (0..n)
        .map(|i| COLOURS[i % COLOURS.len()].to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_names_count_rows_and_columns_from_one() {
        let cells: Vec<VarId> = (0..6).map(VarId).collect();
        let naming = grid(&cells, 3);
        let names: Vec<&str> = naming.names.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["r1c1", "r1c2", "r1c3", "r2c1", "r2c2", "r2c3"]);
        assert_eq!(naming.layout.places[4], (1, 1));
    }

    #[test]
    fn a_list_is_drawn_one_name_under_the_other() {
        let vars: Vec<VarId> = (0..3).map(VarId).collect();
        let naming = list(&vars, ["a", "b", "c"].map(String::from));
        assert_eq!(naming.names[2], (VarId(2), "c".to_string()));
        assert_eq!(naming.layout.places, [(0, 0), (1, 0), (2, 0)]);
    }
}
