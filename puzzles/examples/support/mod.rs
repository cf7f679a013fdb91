//! What the colouring examples share: where the DIMACS graphs are.

use std::path::{Path, PathBuf};

/// The shared DIMACS colouring set, which is not in the repository: `../shared/data/dimacs-col`
/// beside the repository, or `/work/shared/data/dimacs-col`; `None` if neither holds its
/// `chromatic_numbers.csv`.
pub fn dimacs_dir() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        repo.join("../shared/data/dimacs-col"),
        PathBuf::from("/work/shared/data/dimacs-col"),
    ]
    .into_iter()
    .find(|p| p.join("chromatic_numbers.csv").exists())
}
