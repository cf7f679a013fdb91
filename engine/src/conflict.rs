//! # Conflict: the current node has no solution
//!
//! The one error of the engine. A pruning that empties a domain, or a propagator that finds
//! no combination left, returns `Err(Conflict)`; `?` carries it up to the fixpoint loop, which
//! fills in which propagator failed, and to the search, which backtracks. A leaf module: the
//! store, the propagators and the search all use it, and it uses nothing.

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
