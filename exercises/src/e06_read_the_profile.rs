//! # Exercise 6 — read a profile (chapter 6, `docs/06-statistics-and-profiling.md`)
//!
//! `cpsolve … -s --profile` prints, per kind of propagator, its calls and the values it
//! removed (`engine::PropagatorProfile`, `by_kind`). A propagator that is called often and
//! removes little is where time goes for nothing; one that removes many values per call is
//! doing the work.
//!
//! Return the kind that removed the most values per call. Skip kinds never called; on a tie,
//! the first name in alphabetical order (the order of `by_kind`). Divide exactly: compare
//! `removed₁ · calls₂` with `removed₂ · calls₁` in `u128`, not floating point.

use engine::PropagatorProfile;

/// The kind of propagator with the most values removed per call, or `None` if none ran.
pub fn most_removals_per_call(profile: &PropagatorProfile) -> Option<&'static str> {
    let _ = profile;
    todo!("walk profile.by_kind, comparing removed/calls as cross products")
}
