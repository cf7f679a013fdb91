//! # The nogood store: learned clauses, propagated by two watched atoms
//!
//! A learned **nogood** is a set of atoms `{a1, …, ak}` that never hold together; read as a
//! clause, `¬a1 ∨ … ∨ ¬ak`. It propagates like a SAT clause: once all atoms but one hold,
//! the last must not, and its negation is imposed (the nogood is the change's cause, its
//! other atoms the reason); once all hold, the node fails.
//!
//! **Two watched atoms** (MiniSat's watched literals): a nogood needs attention only when
//! one of two atoms that did not hold comes to hold, so it watches two such atoms (its
//! first two) and sleeps on the others. When a watched atom holds, the nogood looks for an
//! atom that does not to watch instead; failing that, it is unit (or failed). Domains only
//! shrink down a branch and come back in reverse order on backtracking, so the watches need
//! no repair when the search backtracks.
//!
//! **Blockers** (MiniSat 2.2's): each watch also carries another atom of its nogood. If that
//! atom cannot hold any more, the nogood is satisfied, and the watch is passed over without
//! reading the nogood itself (a cache miss saved on most visits).
//!
//! **Deletion.** Nogoods accumulate; most are never useful again. When the store holds
//! more than its limit, the half with the highest **LBD** (literal block distance: the
//! number of decision levels among a nogood's atoms when it was learned; Audemard & Simon's
//! Glucose) is deleted, except the nogoods that are the cause of a change on the trail.

use super::trail::{Cause, Trail};
use crate::atom::Atom;
use crate::store::{Store, VarId};

/// One learned nogood.
#[derive(Clone, Debug)]
struct Nogood {
    /// The atoms; the first two are watched (if there are two).
    atoms: Vec<Atom>,
    lbd: u32,
    deleted: bool,
}

/// One watch: nogood `nogood` watches, in its slot `slot` (0 or 1), the atom `watched` of
/// the variable whose list holds this watch; `blocker` is another of its atoms (see the
/// header). A watch whose nogood has since put another atom in that slot is stale, and is
/// dropped when met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Watch {
    nogood: u32,
    slot: u8,
    watched: Atom,
    blocker: Atom,
}

/// A conflict found by the nogoods: nogood `.0` has all its atoms holding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NogoodConflict(pub u32);

/// The learned nogoods and their watches.
#[derive(Clone, Debug, Default)]
pub struct NogoodStore {
    nogoods: Vec<Nogood>,
    /// For each variable, the watches on one of its atoms. Entries whose nogood moved its
    /// watch elsewhere are dropped when met.
    watches: Vec<Vec<Watch>>,
    /// Nogoods of one atom (no second atom to watch): checked at every pass.
    units: Vec<u32>,
    /// Nogoods added since the last pass: checked once in full.
    fresh: Vec<u32>,
    /// Trail changes already looked at.
    seen: usize,
    /// Live nogoods, and the count above which deletion begins.
    live: usize,
    pub limit: usize,
    /// Statistics: nogoods learned, their total size, nogoods deleted.
    pub learned: u64,
    pub total_size: u64,
    pub deleted: u64,
}

impl NogoodStore {
    pub fn new(num_vars: usize) -> NogoodStore {
        NogoodStore {
            watches: vec![Vec::new(); num_vars],
            limit: 10_000,
            ..NogoodStore::default()
        }
    }

    /// The atoms of nogood `k`.
    pub fn atoms(&self, k: u32) -> &[Atom] {
        &self.nogoods[k as usize].atoms
    }

    /// How many nogoods are stored (live).
    pub fn live(&self) -> usize {
        self.live
    }

    /// Add a nogood (its atoms must not all hold together in any solution). It is looked at
    /// in full at the next [`NogoodStore::propagate`].
    pub fn add(&mut self, atoms: Vec<Atom>, lbd: u32) -> u32 {
        let k = self.nogoods.len() as u32;
        self.learned += 1;
        self.total_size += atoms.len() as u64;
        if atoms.len() <= 1 {
            // One atom (or none: the model has no solution) has nothing to watch: looked
            // at in every pass.
            self.units.push(k);
        } else if atoms.len() >= 2 {
            for slot in 0..2u8 {
                let watch = Watch {
                    nogood: k,
                    slot,
                    watched: atoms[slot as usize],
                    blocker: atoms[1 - slot as usize],
                };
                self.watches[atoms[slot as usize].var().index()].push(watch);
            }
        }
        self.nogoods.push(Nogood {
            atoms,
            lbd,
            deleted: false,
        });
        self.live += 1;
        self.fresh.push(k);
        k
    }

    /// Look at every live nogood in full at the next pass, from the start of the trail: for
    /// a new trail, begun at the root, whose facts may hold some watched atoms already
    /// (`learning/slices.rs` resumes learning so).
    pub fn revisit_all(&mut self) {
        self.seen = 0;
        self.fresh = (0..self.nogoods.len() as u32)
            .filter(|&k| !self.nogoods[k as usize].deleted)
            .collect();
    }

    /// Impose what the nogoods imply on the changes of the trail not yet looked at, until
    /// nothing more follows. `Ok(true)` if some domain changed; a conflict names a nogood
    /// all of whose atoms hold.
    pub fn propagate(
        &mut self,
        store: &mut Store,
        trail: &mut Trail,
    ) -> Result<bool, NogoodConflict> {
        trail.sync(store);
        // Changes undone by a backtrack since the last pass were replaced by others.
        self.seen = self.seen.min(trail.shortest_since_asked());
        let mut changed = false;
        let mut pending: Vec<u32> = std::mem::take(&mut self.fresh);
        pending.extend_from_slice(&self.units);
        for k in pending {
            changed |= self.visit_whole(k, store, trail)?;
        }
        while self.seen < trail.len() {
            let x = trail.change(self.seen).var;
            self.seen += 1;
            changed |= self.wake(x, store, trail)?;
        }
        Ok(changed)
    }

    /// Look at every nogood watching an atom of `x`.
    fn wake(
        &mut self,
        x: VarId,
        store: &mut Store,
        trail: &mut Trail,
    ) -> Result<bool, NogoodConflict> {
        let mut changed = false;
        let mut i = 0;
        while i < self.watches[x.index()].len() {
            let Watch {
                nogood: k,
                slot,
                watched,
                blocker,
            } = self.watches[x.index()][i];
            // Neither test reads the nogood itself: the watched atom does not hold (nothing
            // to do), or the blocker fails (the nogood is satisfied).
            if !watched.holds_in(store.domain(x)) || blocker.fails_in(store.domain(blocker.var())) {
                i += 1;
                continue;
            }
            let nogood = &mut self.nogoods[k as usize];
            let s = slot as usize;
            if nogood.deleted || nogood.atoms.len() < 2 || nogood.atoms[s] != watched {
                self.watches[x.index()].swap_remove(i);
                continue;
            }
            let other = nogood.atoms[1 - s];
            if other.fails_in(store.domain(other.var())) {
                // Satisfied: the other watch becomes this watch's blocker.
                self.watches[x.index()][i].blocker = other;
                i += 1;
                continue;
            }
            // The watched atom holds: watch another that does not, if there is one.
            let replacement = (2..nogood.atoms.len())
                .find(|&j| !nogood.atoms[j].holds_in(store.domain(nogood.atoms[j].var())));
            if let Some(j) = replacement {
                nogood.atoms.swap(s, j);
                let y = nogood.atoms[s].var();
                if y != x {
                    self.watches[x.index()].swap_remove(i);
                    self.watches[y.index()].push(Watch {
                        nogood: k,
                        slot,
                        watched: nogood.atoms[s],
                        blocker: other,
                    });
                    continue;
                }
                self.watches[x.index()][i].watched = nogood.atoms[s];
                i += 1;
                continue;
            }
            i += 1;
            changed |= self.settle(k, other, store, trail)?;
        }
        Ok(changed)
    }

    /// Every atom of nogood `k` but `last` holds: if `last` holds too, a conflict; if it
    /// can still fail, impose its negation.
    fn settle(
        &mut self,
        k: u32,
        last: Atom,
        store: &mut Store,
        trail: &mut Trail,
    ) -> Result<bool, NogoodConflict> {
        let x = last.var();
        if last.fails_in(store.domain(x)) {
            return Ok(false);
        }
        if last.holds_in(store.domain(x)) {
            return Err(NogoodConflict(k));
        }
        let imposed = last.negated();
        let before = store.domain(x).clone();
        let result = match imposed {
            Atom::AtLeast(_, v) => store.set_min(x, v),
            Atom::AtMost(_, v) => store.set_max(x, v),
            Atom::Equal(_, v) => store.fix(x, v),
            Atom::NotEqual(_, v) => store.remove(x, v),
        };
        if result.is_err() {
            return Err(NogoodConflict(k));
        }
        trail.record(store, x, before, Cause::Nogood(k, imposed));
        Ok(true)
    }

    /// Look at nogood `k` in full (just added, or a unit nogood): order its atoms so that
    /// the watched ones do not hold if possible, and impose what follows.
    fn visit_whole(
        &mut self,
        k: u32,
        store: &mut Store,
        trail: &mut Trail,
    ) -> Result<bool, NogoodConflict> {
        let nogood = &mut self.nogoods[k as usize];
        if nogood.deleted || nogood.atoms.is_empty() {
            return if nogood.deleted {
                Ok(false)
            } else {
                Err(NogoodConflict(k))
            };
        }
        let holds = |a: &Atom| a.holds_in(store.domain(a.var()));
        let not_holding: Vec<usize> = (0..nogood.atoms.len())
            .filter(|&j| !holds(&nogood.atoms[j]))
            .collect();
        match not_holding.len() {
            0 => Err(NogoodConflict(k)),
            1 => {
                let last = nogood.atoms[not_holding[0]];
                self.settle(k, last, store, trail)
            }
            _ => {
                if nogood.atoms.len() >= 2 {
                    self.rewatch(k, not_holding[0], not_holding[1]);
                }
                Ok(false)
            }
        }
    }

    /// Make atoms `a` and `b` of nogood `k` its watched pair.
    fn rewatch(&mut self, k: u32, a: usize, b: usize) {
        let nogood = &mut self.nogoods[k as usize];
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        nogood.atoms.swap(0, a);
        nogood.atoms.swap(1, b);
        for slot in 0..2u8 {
            let watched = nogood.atoms[slot as usize];
            let blocker = nogood.atoms[1 - slot as usize];
            let list = &mut self.watches[watched.var().index()];
            match list.iter_mut().find(|w| w.nogood == k && w.slot == slot) {
                Some(w) => {
                    w.watched = watched;
                    w.blocker = blocker;
                }
                None => list.push(Watch {
                    nogood: k,
                    slot,
                    watched,
                    blocker,
                }),
            }
        }
    }

    /// If the store holds more than its limit, delete the worse half by LBD, keeping the
    /// nogoods the trail still uses as causes, and raise the limit a little.
    pub fn reduce(&mut self, trail: &Trail) {
        if self.live <= self.limit {
            return;
        }
        let in_use: std::collections::HashSet<u32> = trail.nogoods_in_use().collect();
        let mut candidates: Vec<u32> = (0..self.nogoods.len() as u32)
            .filter(|&k| {
                let n = &self.nogoods[k as usize];
                !n.deleted && n.atoms.len() > 2 && !in_use.contains(&k)
            })
            .collect();
        candidates.sort_by_key(|&k| std::cmp::Reverse(self.nogoods[k as usize].lbd));
        for &k in candidates.iter().take(candidates.len() / 2) {
            let n = &mut self.nogoods[k as usize];
            n.deleted = true;
            n.atoms = Vec::new();
            self.live -= 1;
            self.deleted += 1;
        }
        self.limit += self.limit / 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;

    /// Three 0/1 variables, learning recorded from the root, and the nogood
    /// `{x ≥ 1, y ≥ 1, z ≥ 1}`.
    fn three_cells() -> (Store, Trail, NogoodStore, [VarId; 3]) {
        let mut store = Store::new();
        let vars = [0; 3].map(|_| store.new_var(Domain::interval(0, 1)));
        let trail = Trail::new(store.domains());
        let mut nogoods = NogoodStore::new(3);
        nogoods.add(vars.iter().map(|&x| Atom::AtLeast(x, 1)).collect(), 1);
        (store, trail, nogoods, vars)
    }

    fn decide(store: &mut Store, trail: &mut Trail, x: VarId, v: i32) {
        store.push_level();
        let before = store.domain(x).clone();
        store.fix(x, v).unwrap();
        trail.record(store, x, before, Cause::Decision(Atom::Equal(x, v)));
    }

    /// Two atoms holding make the nogood unit through its watches (and their blockers):
    /// the third atom's negation is imposed, caused by the nogood.
    #[test]
    fn a_nogood_with_all_but_one_atom_holding_imposes_the_last_ones_negation() {
        let (mut store, mut trail, mut nogoods, [x, y, z]) = three_cells();
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        decide(&mut store, &mut trail, x, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        decide(&mut store, &mut trail, y, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(true));
        assert_eq!(store.domain(z).max(), 0);
        let last = trail.change(trail.len() - 1);
        assert_eq!(last.cause, Cause::Nogood(0, Atom::AtMost(z, 0)));
    }

    /// A nogood one of whose atoms fails is satisfied: the watches pass over it (the
    /// blocker), and it neither fails nor imposes anything; after a backtrack that undoes
    /// the failing atom, it propagates again.
    #[test]
    fn a_satisfied_nogood_is_passed_over_and_wakes_again_after_a_backtrack() {
        let (mut store, mut trail, mut nogoods, [x, y, z]) = three_cells();
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        decide(&mut store, &mut trail, y, 0);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        decide(&mut store, &mut trail, x, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        decide(&mut store, &mut trail, z, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        assert_eq!(store.domain(y).max(), 0);
        // Back to the root; then x = 1 and y = 1 must impose z ≤ 0.
        for _ in 0..3 {
            store.pop_level();
        }
        decide(&mut store, &mut trail, x, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        decide(&mut store, &mut trail, y, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(true));
        assert_eq!(store.domain(z).max(), 0);
    }

    /// A watch that moves to another atom of its own variable keeps watching it: with
    /// `{x ≥ 1, y ≥ 1, x ≤ 2}`, `x ≥ 1` makes the watch move to `x ≤ 2`, and `x ≤ 2` then
    /// makes the nogood unit.
    #[test]
    fn a_watch_moved_within_its_variable_still_wakes_its_nogood() {
        let mut store = Store::new();
        let x = store.new_var(Domain::interval(0, 3));
        let y = store.new_var(Domain::interval(0, 1));
        let mut trail = Trail::new(store.domains());
        let mut nogoods = NogoodStore::new(2);
        let atoms = vec![Atom::AtLeast(x, 1), Atom::AtLeast(y, 1), Atom::AtMost(x, 2)];
        nogoods.add(atoms, 1);
        assert_eq!(nogoods.propagate(&mut store, &mut trail), Ok(false));
        for bound in [Atom::AtLeast(x, 1), Atom::AtMost(x, 2)] {
            store.push_level();
            let before = store.domain(x).clone();
            match bound {
                Atom::AtLeast(_, v) => store.set_min(x, v),
                _ => store.set_max(x, 2),
            }
            .unwrap();
            trail.record(&store, x, before, Cause::Decision(bound));
            let changed = nogoods.propagate(&mut store, &mut trail);
            assert_eq!(changed, Ok(bound == Atom::AtMost(x, 2)));
        }
        assert_eq!(store.domain(y).max(), 0);
    }
}
