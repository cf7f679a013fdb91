//! # Conflict: the current node has no solution
//!
//! When a propagator finds that no combination of values is left for its constraint, it
//! returns a [`Conflict`] instead of pruning further, and the search backtracks. Every
//! engine function that prunes returns `Result<_, Conflict>`, so a failure travels up with
//! `?` from wherever it is found. This module depends on nothing else in the engine: the
//! store, the propagators and the search all use it.

/// The current node has no solution. The engine fills in which propagator found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Conflict {
    /// Index of the propagator that failed, if a propagator did.
    pub propagator: Option<u32>,
}

impl Conflict {
    pub fn new() -> Conflict {
        Conflict { propagator: None }
    }
}

/// What a propagator returns: `Ok(())` after pruning what it could, or a conflict.
pub type PropResult = Result<(), Conflict>;
