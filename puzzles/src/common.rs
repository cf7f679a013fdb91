//! # The puzzles' shared items under their first path, `puzzles::common`
//!
//! They live by what they are: the instance trait and its data types in `instance.rs`,
//! parsing helpers in `parse.rs`, grids and geometry in `grid.rs`, test helpers in
//! `testing.rs`. Puzzle modules may import them from here or from there.

pub use crate::grid::*;
pub use crate::instance::*;
pub use crate::parse::*;
#[cfg(any(test, feature = "testing"))]
pub use crate::testing::*;
