//! # Nogood minimisation: fewer atoms, the same nogood
//!
//! A shorter nogood prunes more: it needs fewer atoms to hold before it acts. Two cheap
//! rewritings keep it a nogood:
//!
//! 1. **Subsumed atoms.** `[x ≥ 5]` and `[x ≥ 3]` together say no more than `[x ≥ 5]`: an
//!    atom implied by another atom of the nogood on the same variable is dropped
//!    (`implication.rs`).
//! 2. **Atoms whose reason is implied** (MiniSat's minimisation, Sörensson & Biere 2009):
//!    if every atom of `a`'s reason is a root fact or an atom of the nogood, the rest of the
//!    nogood implies `a`, and `a` can go (MiniSat's *local* rule). The *recursive* rule,
//!    [`drop_redundant`], also accepts a reason atom that is itself implied that way: its own
//!    reason, followed back along the trail, ends in atoms of the nogood and root facts only.
//!    A reason's atoms lie strictly earlier on the trail than the atom they explain, so no
//!    atom is dropped on the strength of one dropped after it: the argument is an induction
//!    along the trail. The walk stops at a decision (no reason: not implied) and at an atom
//!    of a decision level where the nogood has no atom (it cannot rest on the nogood's atoms
//!    without a decision of that level: MiniSat's cheap test that keeps the walks short).
//!    Each atom's verdict is remembered for the rest of the minimisation.

use super::causes::{reason_of, Origin, Propagators};
use super::implication::implies;
use super::nogoods::NogoodStore;
use super::quick_hash::{QuickMap, QuickSet};
use super::trail::{Place, Trail};
use crate::atom::Atom;

/// Drop the atoms implied by another atom of `atoms` on the same variable (of two equal
/// atoms, one stays).
pub fn drop_subsumed(atoms: &mut Vec<Atom>) {
    atoms.sort_by_key(|&a| (a.var(), a));
    atoms.dedup();
    // Only atoms of one variable imply each other: compare within each variable's run.
    let copy = atoms.clone();
    atoms.retain(|&a| {
        let first = copy.partition_point(|b| b.var() < a.var());
        let mut same_var = copy[first..].iter().take_while(|b| b.var() == a.var());
        !same_var.any(|&b| b != a && implies(b, a))
    });
}

/// How deep the walk of [`drop_redundant`] may go back before it gives up on an atom (it is
/// then kept: keeping an atom is always sound).
const MOST_STEPS: usize = 400;

/// Drop the atoms whose reason, followed back recursively, rests on the rest of the nogood
/// and root facts only (see the header, rule 2). The atoms are canonical (`canonical.rs`).
pub fn drop_redundant(
    atoms: &mut Vec<Atom>,
    trail: &Trail,
    nogoods: &NogoodStore,
    propagators: Propagators<'_>,
) {
    let mut walk = RedundancyWalk {
        trail,
        nogoods,
        propagators,
        in_nogood: atoms.iter().copied().collect(),
        levels: atoms
            .iter()
            .map(|&a| trail.level_of(trail.place(a)))
            .collect(),
        verdicts: QuickMap::default(),
        steps: 0,
    };
    let keep: Vec<bool> = atoms
        .iter()
        .map(|&a| {
            walk.steps = 0;
            !walk.reason_is_implied(a)
        })
        .collect();
    let mut i = 0;
    atoms.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// The state of one recursive minimisation.
struct RedundancyWalk<'t, 'n, 'p> {
    trail: &'t Trail,
    nogoods: &'n NogoodStore,
    propagators: Propagators<'p>,
    in_nogood: QuickSet<Atom>,
    /// The decision levels of the nogood's atoms.
    levels: QuickSet<usize>,
    /// The verdicts found so far: is the atom implied by the nogood's atoms and facts?
    verdicts: QuickMap<Atom, bool>,
    steps: usize,
}

impl RedundancyWalk<'_, '_, '_> {
    /// Is `atom` (which holds) implied by the other atoms of the nogood through the reasons
    /// on the trail? Its reason's atoms must each be a root fact, an atom of the nogood, or
    /// implied the same way.
    fn reason_is_implied(&mut self, atom: Atom) -> bool {
        let Place::At(p) = self.trail.place(atom) else {
            return true; // a root fact
        };
        if let Some(&verdict) = self.verdicts.get(&atom) {
            return verdict;
        }
        self.steps += 1;
        let mut reason = Vec::new();
        let origin = reason_of(
            self.trail,
            self.nogoods,
            self.propagators,
            p,
            atom,
            &mut reason,
        );
        let verdict = origin == Origin::Derived
            && self.steps <= MOST_STEPS
            && reason.iter().all(|&r| {
                let r = self.trail.canonical(r);
                match self.trail.place(r) {
                    Place::Root => true,
                    Place::At(q) if q < p => {
                        self.in_nogood.contains(&r)
                            || (self.levels.contains(&self.trail.change(q).level)
                                && self.reason_is_implied(r))
                    }
                    _ => false,
                }
            });
        self.verdicts.insert(atom, verdict);
        verdict
    }
}
