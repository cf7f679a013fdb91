//! # All-different, at three strengths
//!
//! `alldifferent(x₁, …, xₙ)`: no two variables take the same value. It is the constraint of
//! Sudoku rows, Latin squares, Kakuro runs and n-queens. How much a propagator removes for
//! it is a trade between work per node and nodes searched, so cpsolve keeps three
//! algorithms side by side and lets the user pick (`--alldiff value|bounds|domain`):
//!
//! | level | file | removes | cost per run |
//! |---|---|---|---|
//! | value | `value.rs` | the value of each fixed view from the others (forward checking) | O(n) per fixed view |
//! | bounds | `bounds.rs` | bounds that no assignment can support (Hall intervals) | O(n log n) |
//! | domain | `domain.rs` | every value that no assignment can support (Régin's matching) | O(n·d·√n) worst case |
//!
//! `reference.rs` holds the same three algorithms written plainly, as a reader would from the
//! papers: the oracle every file here is tested against, and the place to start reading.
//!
//! **Views.** Every propagator here constrains *views* (`view.rs`): `x`, `x + c` (the
//! n-queens diagonals), `−x`, `k·x`. [`new_all_different`] takes the views and picks the
//! propagator by their shape, as Gecode's `distinct` picks its view types: views of scale 1
//! (`x + c`, the shape of every puzzle) go to the fast lane where it exists.
//!
//! **The fast lane**, `fast/`, holds what makes the puzzles quick and can be skipped on a
//! first reading: `fast/value.rs` is `value.rs` made fast (only the open positions, a word
//! at a time); `fast/units.rs` (`AllDifferentUnits`) runs many domain-level all-differents
//! over shared variables (the 27 units of a Sudoku) as one propagator, to the same fixpoint;
//! `fast/offset_family.rs` (`AllDifferentOffsetFamily`) does the same for value-level
//! all-differents over the same variables with other constants (the rows and diagonals of
//! n-queens); `fast/word_matching.rs` is Régin's algorithm on bitmasks, which `domain.rs`
//! tries first. `Model::all_different` gathers consecutive all-differents of those shapes
//! into one of these propagators (`engine/src/model/mod.rs`).

pub mod bounds;
pub mod domain;
pub(crate) mod explain;
pub mod fast;
pub mod reference;
pub mod value;

use crate::propagator::Propagator;
use crate::view::View;
use std::fmt;
use std::str::FromStr;

/// How strongly all-different propagates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AllDiffLevel {
    /// Forward checking: a fixed value is removed from the other variables.
    #[default]
    Value,
    /// Bounds consistency.
    Bounds,
    /// Domain (generalised arc) consistency.
    Domain,
}

impl FromStr for AllDiffLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "value" => Ok(AllDiffLevel::Value),
            "bounds" => Ok(AllDiffLevel::Bounds),
            "domain" => Ok(AllDiffLevel::Domain),
            _ => Err(format!(
                "unknown all-different level '{s}' (expected value, bounds or domain)"
            )),
        }
    }
}

impl fmt::Display for AllDiffLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AllDiffLevel::Value => "value",
            AllDiffLevel::Bounds => "bounds",
            AllDiffLevel::Domain => "domain",
        })
    }
}

/// The all-different propagator of the given level over `views`, chosen by their shape:
/// views of scale 1 (`x + c`) take the fast lane (`fast/value.rs`, and the word-level
/// matching of `domain.rs`), any other view the plain propagator of its level.
pub fn new_all_different(views: &[View], level: AllDiffLevel) -> Box<dyn Propagator> {
    let shifts = views.iter().all(|x| x.is_shift());
    match level {
        AllDiffLevel::Value if shifts => Box::new(fast::value::AllDifferentValue::new(views)),
        AllDiffLevel::Value => Box::new(value::AllDifferentForwardChecking::new(views)),
        AllDiffLevel::Bounds => Box::new(bounds::AllDifferentBounds::new(views)),
        AllDiffLevel::Domain => Box::new(domain::AllDifferentDomain::new(views)),
    }
}
