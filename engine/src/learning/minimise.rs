//! # Nogood minimisation: fewer atoms, the same nogood
//!
//! A shorter nogood prunes more: it needs fewer atoms to hold before it acts. Two cheap
//! rewritings keep it a nogood:
//!
//! 1. **Subsumed atoms.** `[x ≥ 5]` and `[x ≥ 3]` together say no more than `[x ≥ 5]`: an
//!    atom implied by another atom of the nogood on the same variable is dropped
//!    (`implication.rs`).
//! 2. **Atoms whose reason is in the nogood** (MiniSat's local minimisation, Sörensson &
//!    Biere 2009): if every atom of `a`'s reason is a root fact or is implied by an atom of
//!    the nogood at the same place on the trail, the rest of the nogood implies `a`, and `a`
//!    can go. A reason's atoms lie strictly earlier on the trail than `a`, so no atom is
//!    dropped on the strength of one dropped after it: the argument is an induction along
//!    the trail. Decisions have no reason and always stay.

use super::causes::{reason_of, Origin, Propagators};
use super::implication::implies;
use super::nogoods::NogoodStore;
use super::trail::{Place, Trail};
use crate::atom::Atom;

/// Drop the atoms implied by another atom of `atoms` on the same variable (of two equal
/// atoms, one stays).
pub fn drop_subsumed(atoms: &mut Vec<Atom>) {
    atoms.sort();
    atoms.dedup();
    let copy = atoms.clone();
    atoms.retain(|&a| !copy.iter().any(|&b| b != a && implies(b, a)));
}

/// Drop the atoms whose reason the rest of the nogood implies (see the header).
pub fn drop_implied_by_reasons(
    atoms: &mut Vec<Atom>,
    trail: &Trail,
    nogoods: &NogoodStore,
    propagators: Propagators<'_>,
) {
    let placed: Vec<(Atom, Place)> = atoms.iter().map(|&a| (a, trail.place(a))).collect();
    let mut reason = Vec::new();
    let mut redundant = vec![false; atoms.len()];
    for (i, &(atom, place)) in placed.iter().enumerate() {
        let Place::At(p) = place else { continue };
        reason.clear();
        if reason_of(trail, nogoods, propagators, p, atom, &mut reason) == Origin::Decision {
            continue;
        }
        redundant[i] = reason.iter().all(|&r| match trail.place(r) {
            Place::Root => true,
            Place::At(q) if q < p => placed
                .iter()
                .any(|&(b, place_b)| place_b == Place::At(q) && implies(b, r)),
            _ => false,
        });
    }
    let mut i = 0;
    atoms.retain(|_| {
        i += 1;
        !redundant[i - 1]
    });
}
