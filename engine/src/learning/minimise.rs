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

use super::atom_hash::{AtomMap, AtomSet};
use super::causes::{reason_of, Origin, Propagators};
use super::implication::implies;
use super::nogoods::NogoodStore;
use super::trail::{Place, Trail};
use crate::atom::Atom;

/// Drop the atoms implied by another atom of `atoms` on the same variable (of two equal
/// atoms, one stays).
pub fn drop_subsumed(atoms: &mut Vec<Atom>) {
    // Sorted by variable, the atoms that can imply one another are neighbours: each is
    // compared with its own variable's run only. The result is in the atoms' own order.
    atoms.sort_unstable_by_key(|&a| (a.var(), a));
    atoms.dedup();
    let mut kept = Vec::with_capacity(atoms.len());
    for run in atoms.chunk_by(|a, b| a.var() == b.var()) {
        kept.extend((run.iter()).filter(|&&a| !run.iter().any(|&b| b != a && implies(b, a))));
    }
    kept.sort_unstable();
    *atoms = kept;
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
        levels: levels_of(atoms, trail),
        verdicts: AtomMap::default(),
        reasons: Vec::new(),
        steps: 0,
    };
    let keep: Vec<bool> = atoms
        .iter()
        .map(|&a| {
            walk.steps = 0;
            match trail.place(a) {
                Place::At(p) => !walk.reason_is_implied(a, p),
                _ => false, // a root fact
            }
        })
        .collect();
    let mut i = 0;
    atoms.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// For each decision level up to the highest of `atoms`, whether one of them is of it.
fn levels_of(atoms: &[Atom], trail: &Trail) -> Vec<bool> {
    let levels: Vec<usize> = (atoms.iter())
        .map(|&a| trail.level_of(trail.place(a)))
        .collect();
    let mut of = vec![false; levels.iter().max().map_or(0, |&l| l + 1)];
    for l in levels {
        of[l] = true;
    }
    of
}

/// The state of one recursive minimisation.
struct RedundancyWalk<'t, 'n, 'p> {
    trail: &'t Trail,
    nogoods: &'n NogoodStore,
    propagators: Propagators<'p>,
    in_nogood: AtomSet,
    /// Which decision levels the nogood's atoms are of (`levels[l]`: an atom of level `l`).
    levels: Vec<bool>,
    /// The verdicts found so far: is the atom implied by the nogood's atoms and facts?
    verdicts: AtomMap<bool>,
    /// The reasons of the atoms on the walk's path, end to end (one buffer for the whole
    /// minimisation: each step appends its reason and cuts it off when done).
    reasons: Vec<Atom>,
    steps: usize,
}

impl RedundancyWalk<'_, '_, '_> {
    /// Is `atom` (which holds, first after change `p`) implied by the other atoms of the
    /// nogood through the reasons on the trail? Its reason's atoms must each be a root
    /// fact, an atom of the nogood, or implied the same way.
    fn reason_is_implied(&mut self, atom: Atom, p: usize) -> bool {
        if let Some(&verdict) = self.verdicts.get(&atom) {
            return verdict;
        }
        self.steps += 1;
        let start = self.reasons.len();
        let origin = reason_of(
            self.trail,
            self.nogoods,
            self.propagators,
            p,
            atom,
            &mut self.reasons,
        );
        let mut verdict = origin == Origin::Derived && self.steps <= MOST_STEPS;
        let mut i = start;
        while verdict && i < self.reasons.len() {
            let r = self.trail.canonical(self.reasons[i]);
            i += 1;
            verdict = match self.trail.place(r) {
                Place::Root => true,
                Place::At(q) if q < p => {
                    self.in_nogood.contains(&r)
                        || (self.levels.get(self.trail.change(q).level) == Some(&true)
                            && self.reason_is_implied(r, q))
                }
                _ => false,
            };
        }
        self.reasons.truncate(start);
        self.verdicts.insert(atom, verdict);
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::VarId;

    /// On mixed atoms of three variables, `drop_subsumed` keeps, sorted, exactly the atoms
    /// no other atom implies (one of two equal atoms), as the definition compares every
    /// pair.
    #[test]
    fn drop_subsumed_keeps_the_atoms_no_other_implies() {
        let every: Vec<Atom> = (0..3)
            .flat_map(|x| crate::atom::every_atom(VarId(x), 0..4))
            .collect();
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut atoms = Vec::new();
            for &a in &every {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (seed >> 33) % 5 == 0 {
                    atoms.push(a);
                    if (seed >> 40) % 3 == 0 {
                        atoms.push(a);
                    }
                }
            }
            let mut expected = atoms.clone();
            expected.sort();
            expected.dedup();
            let copy = expected.clone();
            expected.retain(|&a| !copy.iter().any(|&b| b != a && implies(b, a)));
            let mut got = atoms.clone();
            drop_subsumed(&mut got);
            assert_eq!(got, expected, "from {atoms:?}");
        }
    }
}
