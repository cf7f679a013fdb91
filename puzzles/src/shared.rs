//! # Models shared by more than one puzzle
//!
//! A model two puzzles share lives here, not inside either of them: `rotation` is the
//! rotating-tiles model of Match 22 and Infinity Loop (each tile turned by one of four
//! quarter turns, the sides that meet agreeing).

pub mod rotation;
