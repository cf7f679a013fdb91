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
//! | which atom implies which, on one variable | `implication.rs` |
//! | one fact, one spelling: atoms normalised against the root domains | `canonical.rs` |
//! | every domain change in order, with its level and cause; an atom's place | `trail.rs` |
//! | the reason of an atom from its place on the trail | `causes.rs` |
//! | a run's reasons remembered while it stays on the trail | `reason_cache.rs` |
//! | 1UIP conflict analysis | `analysis.rs` |
//! | nogood minimisation (subsumed atoms; MiniSat's recursive minimisation) | `minimise.rs` |
//! | learned nogoods, two watched atoms, deletion by LBD | `nogoods.rs` |
//! | the checking mode: reasons and nogoods verified by brute force | `checking.rs` |
//! | one learning search step: analyse, minimise, store | `learner.rs` |
//! | a plain hash for the sets of atoms of an analysis | `atom_hash.rs` |
//! | activity-based branching (VSIDS) and phase saving | `activity.rs` |
//! | the learning search and the plain one taking turns (a sequential portfolio) | `slices.rs` |
//!
//! The search uses it in `search/dfs.rs` (`SearchConfig::learn`): every failure is analysed
//! and its nogood stored and propagated; for a first solution or an optimum the search
//! backjumps to the level where the nogood asserts, when counting or listing it backtracks
//! chronologically. Parallel counting and LNS neighbourhoods do not learn.
pub mod activity;
pub mod analysis;
pub mod atom_hash;
pub mod canonical;
pub mod causes;
pub mod checking;
pub mod implication;
pub mod learner;
pub mod minimise;
pub mod nogoods;
pub mod reason;
pub mod reason_cache;
pub mod slices;
pub mod trail;

pub use crate::atom::Atom;
