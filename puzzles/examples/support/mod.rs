//! What the colouring examples share: where the DIMACS graphs are, and reading one.
// Each example compiles this module on its own and uses part of it.
#![allow(dead_code)]

use puzzles::colouring::{parse_graph, Colouring};
use std::path::PathBuf;

/// The shared DIMACS colouring set, which is not in the repository: `dimacs-col` of the data
/// folder (`engine::testing::data_dir`); `None`, said on standard output, when it does not
/// hold its `chromatic_numbers.csv`.
pub(crate) fn dimacs_dir() -> Option<PathBuf> {
    engine::testing::data_path("dimacs-col/chromatic_numbers.csv")?;
    engine::testing::data_dir().map(|dir| dir.join("dimacs-col"))
}

/// The graph `NAME.col` of the set; `None` (said on standard error) when the set is not
/// here.
pub(crate) fn dimacs_graph(name: &str) -> Option<Colouring> {
    let dir = dimacs_dir()?;
    let text = std::fs::read_to_string(dir.join(format!("{name}.col"))).expect("graph file");
    Some(parse_graph(&text).expect("parses"))
}
