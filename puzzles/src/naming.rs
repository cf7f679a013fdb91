//! # Naming: the puzzle's words for the model's variables
//!
//! A model knows variables by number (`x37`); a person solving a Sudoku says "row 5,
//! column 2" and writes digits, not the engine's integers. Traces and pictures of the search
//! (`cpsolve --trace`, `cpsolve tree`) speak the person's language, so each puzzle says how
//! its variables are called ([`crate::Instance::naming`]); these are the shared helpers.

use engine::search::Naming;
use engine::VarId;

/// Cells of a grid, row by row, `width` to a row, named `r1c1`, `r1c2`, ... (from 1).
pub fn grid(cells: &[VarId], width: usize) -> Naming {
    Naming {
        names: cells
            .iter()
            .enumerate()
            .map(|(i, &x)| (x, format!("r{}c{}", i / width + 1, i % width + 1)))
            .collect(),
        ..Naming::default()
    }
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
    }
}
