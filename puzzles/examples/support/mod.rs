//! What the colouring examples share: where the DIMACS graphs are, and reading one.
// Each example compiles this module on its own and uses part of it.
#![allow(dead_code)]

use puzzles::colouring::{parse_graph, Colouring};
use std::path::{Path, PathBuf};

/// The shared DIMACS colouring set, which is not in the repository: `../shared/data/dimacs-col`
/// beside the repository, or `/work/shared/data/dimacs-col`; `None` if neither holds its
/// `chromatic_numbers.csv`.
pub(crate) fn dimacs_dir() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        repo.join("../shared/data/dimacs-col"),
        PathBuf::from("/work/shared/data/dimacs-col"),
    ]
    .into_iter()
    .find(|p| p.join("chromatic_numbers.csv").exists())
}

/// The graph `NAME.col` of the set; `None` (said on standard error) when the set is not
/// here.
pub(crate) fn dimacs_graph(name: &str) -> Option<Colouring> {
    let Some(dir) = dimacs_dir() else {
        eprintln!("skipped: the DIMACS set (../shared/data/dimacs-col) is not here");
        return None;
    };
    let text = std::fs::read_to_string(dir.join(format!("{name}.col"))).expect("graph file");
    Some(parse_graph(&text).expect("parses"))
}
