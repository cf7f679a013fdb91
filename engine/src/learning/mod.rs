//! # Learning from failure: atoms, reasons, conflict analysis, nogoods
//!
//! A depth-first search that forgets every dead end rediscovers it in every branch below the
//! decision that really caused it. A *learning* solver (Chuffed, Pumpkin, CP-SAT, huub:
//! "lazy clause generation", Feydy & Stuckey 2009) asks, at each dead end, *why*, and keeps
//! the answer as a **nogood**: a set of facts that can never hold together.
//!
//! The facts are **atoms** ([`Atom`]): `[x ≥ v]`, `[x ≤ v]`, `[x = v]`, `[x ≠ v]`. Every
//! change a propagator makes is an atom becoming true, and its **reason** is a set of atoms
//! that held before the change and, with the propagator's constraint alone, force it
//! (`reason.rs`). From the reasons, conflict analysis walks back from a failure to the
//! decisions behind it and learns a nogood that search then propagates like any constraint.
//!
//! | idea | file |
//! |---|---|
//! | an atomic constraint, its negation, when it holds | `engine/src/atom.rs` (a floor below, since every propagator's `explain` speaks of atoms) |
//! | what a propagator's reason must be; the generic reason every propagator has | `reason.rs` |
pub mod reason;

pub use crate::atom::Atom;
