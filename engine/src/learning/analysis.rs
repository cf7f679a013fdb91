//! # Conflict analysis: from a failure back to its first unique implication point
//!
//! A failure comes with a first nogood: atoms that hold and, with one constraint, admit no
//! assignment (the failed propagator's `explain_failure`, or all its inputs; or a learned
//! nogood all of whose atoms hold). That set is a valid nogood already, but it speaks of
//! atoms deep in the current level's propagation, which will never hold again in that
//! combination. Analysis rewrites it, as a SAT solver does (Marques-Silva & Sakallah's
//! GRASP, Feydy & Stuckey's lazy clause generation):
//!
//! ```text
//! while more than one atom of the nogood was made true at the current level:
//!     take the one made true last (the latest place on the trail);
//!     replace it by its reason (causes.rs)
//! ```
//!
//! Each step is a resolution: `reason ⇒ atom` and `¬(atom ∧ rest)` give `¬(reason ∧ rest)`,
//! so the set stays a nogood. The atom left alone at the current level is the **first
//! unique implication point** (1UIP): every path from the level's decision to the failure
//! passes through it. Atoms true at the root (facts) are dropped on the way. A decision has
//! no reason; with chronological backtracking a level may hold several (its left decision
//! and the right branches taken there), and the analysis stops when only decisions are left
//! to replace: the result is still a nogood, only not asserting.
//!
//! Every atom is first spelt canonically (`canonical.rs`): counted under two spellings, one
//! fact of the current level would hide the unique implication point.
//!
//! A reason longer than `reason::MAX_REASON_ATOMS` (a domain with a wide hole, described
//! value by value) ends the analysis with nothing learned, as does a first nogood that long.
//!
//! Every reason is checked as it is used: its atoms must hold before the change they
//! explain. A reason that breaks this (a faulty `explain`) ends the analysis with nothing
//! learned; the checking mode (`checking.rs`) goes further and verifies each reason by
//! brute force.

use super::atom_hash::{AtomSet, LevelSet};
use super::causes::{reason_of, Origin, Propagators};
use super::nogoods::NogoodStore;
use super::reason::MAX_REASON_ATOMS;
use super::trail::{Place, Trail};
use crate::atom::Atom;
use std::collections::BinaryHeap;

/// A learned nogood, with its literal block distance (distinct levels among its atoms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learned {
    pub atoms: Vec<Atom>,
    pub lbd: u32,
    /// The highest level among its atoms but the current one's (the asserting level).
    pub backjump_level: usize,
    /// Exactly one atom is of the current level (the 1UIP): once the search is back at
    /// `backjump_level`, the nogood imposes its negation.
    pub asserting: bool,
}

/// A reason used by the analysis: `atom`, first true after change `position`, follows from
/// `reason`. The checking mode verifies each one.
pub type ReasonCheck<'a> = &'a mut dyn FnMut(usize, Atom, &[Atom]);

/// Analyse a failure at `level` whose first nogood is `start`. `None` if a reason was
/// found faulty (nothing is learned then).
pub fn analyse(
    trail: &Trail,
    nogoods: &NogoodStore,
    propagators: Propagators<'_>,
    start: &[Atom],
    level: usize,
    mut check: Option<ReasonCheck<'_>>,
) -> Option<Learned> {
    let mut seen = AtomSet::default();
    let mut current: BinaryHeap<(usize, Atom)> = BinaryHeap::new();
    let mut kept: Vec<(Atom, Place)> = Vec::new();
    let mut decisions_here = 0usize;
    let mut add = |atom: Atom,
                   before: usize,
                   current: &mut BinaryHeap<(usize, Atom)>,
                   kept: &mut Vec<(Atom, Place)>|
     -> Option<()> {
        let atom = trail.canonical(atom);
        if !seen.insert(atom) {
            return Some(());
        }
        match trail.place(atom) {
            Place::Root => {}
            Place::Nowhere => return None,
            Place::At(p) if p >= before => return None,
            Place::At(p) => {
                if trail.change(p).level == level {
                    current.push((p, atom));
                } else {
                    kept.push((atom, Place::At(p)));
                }
            }
        }
        Some(())
    };
    if start.len() > MAX_REASON_ATOMS {
        return None;
    }
    for &atom in start {
        add(atom, trail.len(), &mut current, &mut kept)?;
    }
    let mut reason = Vec::new();
    while current.len() + decisions_here > 1 {
        let Some((p, atom)) = current.pop() else {
            break;
        };
        reason.clear();
        match reason_of(trail, nogoods, propagators, p, atom, &mut reason) {
            Origin::Decision => {
                decisions_here += 1;
                kept.push((atom, Place::At(p)));
            }
            // Nothing worth keeping is learned through a reason that long (`reason.rs`).
            Origin::TooLong => return None,
            Origin::Derived => {
                if let Some(check) = check.as_mut() {
                    check(p, atom, &reason);
                }
                for &r in &reason {
                    add(r, p, &mut current, &mut kept)?;
                }
            }
        }
    }
    let asserting = current.len() + decisions_here == 1;
    kept.extend(current.into_iter().map(|(p, a)| (a, Place::At(p))));
    let levels: LevelSet = kept.iter().map(|&(_, p)| trail.level_of(p)).collect();
    let backjump_level = kept
        .iter()
        .map(|&(_, p)| trail.level_of(p))
        .filter(|&l| l != level)
        .max()
        .unwrap_or(0);
    Some(Learned {
        atoms: kept.into_iter().map(|(a, _)| a).collect(),
        lbd: levels.len() as u32,
        backjump_level,
        asserting,
    })
}
