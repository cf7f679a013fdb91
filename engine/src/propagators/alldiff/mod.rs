//! # All-different, at three strengths
//!
//! `alldifferent(x₁, …, xₙ)`: no two variables take the same value. It is the constraint of
//! Sudoku rows, Latin squares, Kakuro runs and n-queens. How much a propagator removes for
//! it is a trade between work per node and nodes searched, so cpsolve keeps three
//! algorithms side by side and lets the user pick (`--alldiff value|bounds|domain`):
//!
//! | level | file | removes | cost per run |
//! |---|---|---|---|
//! | value | `fast/value.rs` | the value of each fixed variable from the others (forward checking) | O(n) per fixed variable |
//! | bounds | `bounds.rs` | bounds that no assignment can support (Hall intervals) | O(n log n) |
//! | domain | `domain.rs` | every value that no assignment can support (Régin's matching) | O(n·d·√n) worst case |
//!
//! `reference.rs` holds the same three algorithms written plainly, as a reader would from the
//! papers: the oracle every file here is tested against, and the place to start reading.
//!
//! The fast lane, `fast/`, holds what makes the puzzles quick and can be skipped on a first
//! reading: `fast/units.rs` (`AllDifferentUnits`) runs many domain-level all-differents over
//! shared variables (the 27 units of a Sudoku) as one propagator, to the same fixpoint;
//! `fast/offset_family.rs` (`AllDifferentOffsetFamily`) does the same for value-level
//! all-differents with offsets over the same variables (the rows and diagonals of n-queens);
//! `fast/word_matching.rs` is Régin's algorithm on bitmasks, which `domain.rs` tries first.
//!
//! Every variant accepts an *offset* per variable and constrains `xᵢ + offsetᵢ` to be
//! different (the n-queens diagonals), so no auxiliary variables are needed.

pub mod bounds;
pub mod domain;
pub mod fast;
pub mod reference;

use crate::propagator::Propagator;
use crate::store::VarId;
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

/// The all-different propagator of the given level over `xs[i] + offsets[i]`.
pub fn new_all_different(
    xs: &[VarId],
    offsets: &[i32],
    level: AllDiffLevel,
) -> Box<dyn Propagator> {
    assert_eq!(xs.len(), offsets.len());
    match level {
        AllDiffLevel::Value => Box::new(fast::value::AllDifferentValue::new(xs, offsets)),
        AllDiffLevel::Bounds => Box::new(bounds::AllDifferentBounds::new(xs, offsets)),
        AllDiffLevel::Domain => Box::new(domain::AllDifferentDomain::new(xs, offsets)),
    }
}
