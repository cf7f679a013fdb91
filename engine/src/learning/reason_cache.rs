//! # Remembering a propagator's reasons while they stay on the trail
//!
//! A propagator explains lazily: the learner asks for an atom's reason only when conflict
//! analysis or minimisation reaches it (`causes.rs`), and the propagator then computes it
//! from the run's inputs, which may mean replaying the run (a long `linear_eq`, a support
//! search). The same atom of the same run is asked for again and again: by the
//! minimisation's walk after the analysis, and at the next failures, as long as the run
//! stays on the trail (a backjump keeps the levels below it). Chuffed keeps each
//! explanation once computed; so does this cache, for the runs' reasons.
//!
//! An entry belongs to the change's place on the trail and to the atom, and remembers the
//! level and the epoch of that change: a place is reused only after its level was closed,
//! and a closed level's epoch never comes back, so an entry that does not match the change
//! now at its place is stale and is not used.
//!
//! **Layout.** Places on the trail are dense numbers, so the cache is a table by place
//! rather than a hash map: each place heads a short chain of entries (one per atom asked
//! for, rarely more than two), and every reason's atoms sit end to end in one arena. A
//! lookup is an index and a walk of that chain; remembering a reason allocates nothing once
//! the arena has grown. Everything is dropped at once when the arena holds more than
//! [`MOST_ATOMS`] atoms.

use super::reason::Origin;
use crate::atom::Atom;
use crate::domain::Domain;

/// The most atoms of remembered reasons kept before the cache is emptied.
pub const MOST_ATOMS: usize = 1 << 20;

/// Which change of the trail a reason belongs to: its level and the epoch of that level
/// (`trail.rs`, `Change`). A place on the trail holds another change once its level closed,
/// and a closed level's epoch never comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeStamp {
    pub level: usize,
    pub epoch: u64,
}

/// No entry (the end of a chain).
const NONE: u32 = u32::MAX;

/// One remembered reason: the atom it explains, the change it belongs to (its level and
/// epoch), the answer (its atoms at `start..start + len` of the arena), and the next entry
/// of the same place.
#[derive(Clone, Copy, Debug)]
struct Entry {
    atom: Atom,
    stamp: ChangeStamp,
    origin: Origin,
    start: u32,
    len: u32,
    next: u32,
}

/// The reasons of runs' atoms computed so far, by place on the trail and atom.
#[derive(Clone, Debug, Default)]
pub struct ReasonCache {
    /// For each place on the trail, its first entry (`NONE` if none).
    first: Vec<u32>,
    entries: Vec<Entry>,
    /// The reasons' atoms, end to end.
    arena: Vec<Atom>,
    pub hits: u64,
    /// The inputs of the run explained last (`trail.rs`, `Trail::inputs`), and which run
    /// that was: the run's number and its change's stamp. A run that changed several
    /// domains is asked for each; its inputs are read back from the trail once.
    inputs: Vec<Domain>,
    inputs_of: Option<(u32, ChangeStamp)>,
    /// The vector a propagator explains into (`causes.rs`), kept for its memory.
    pub scratch: Vec<Atom>,
}

impl ReasonCache {
    /// The remembered reason of `atom` made true by the change `stamp` at `position`, appended to
    /// `out`; `None` if there is none (or it is stale).
    pub fn recall(
        &mut self,
        position: usize,
        atom: Atom,
        stamp: ChangeStamp,
        out: &mut Vec<Atom>,
    ) -> Option<Origin> {
        let mut e = *self.first.get(position)?;
        while e != NONE {
            let entry = self.entries[e as usize];
            if entry.stamp != stamp {
                return None; // the chain belongs to a change no longer on the trail
            }
            if entry.atom == atom {
                let (start, len) = (entry.start as usize, entry.len as usize);
                out.extend_from_slice(&self.arena[start..start + len]);
                self.hits += 1;
                return Some(entry.origin);
            }
            e = entry.next;
        }
        None
    }

    /// The inputs of run `r` (of the change `stamp`): `read` reads them back from the trail
    /// into the vector it is given, unless they are those of the run asked for last.
    pub fn inputs_of_run(
        &mut self,
        r: u32,
        stamp: ChangeStamp,
        read: impl FnOnce(&mut Vec<Domain>),
    ) -> &[Domain] {
        if self.inputs_of != Some((r, stamp)) {
            read(&mut self.inputs);
            self.inputs_of = Some((r, stamp));
        }
        &self.inputs
    }

    /// Remember `reason` (and its origin) for `atom` made true by the change `stamp` at
    /// `position`.
    pub fn remember(
        &mut self,
        position: usize,
        atom: Atom,
        stamp: ChangeStamp,
        origin: Origin,
        reason: &[Atom],
    ) {
        if self.arena.len() + reason.len() > MOST_ATOMS || self.entries.len() >= NONE as usize {
            self.first.clear();
            self.entries.clear();
            self.arena.clear();
        }
        if self.first.len() <= position {
            self.first.resize(position + 1, NONE);
        }
        let head = self.first[position];
        // A chain of another change (its level since closed) is dropped whole.
        let next = if head != NONE && self.entries[head as usize].stamp == stamp {
            head
        } else {
            NONE
        };
        self.entries.push(Entry {
            atom,
            stamp,
            origin,
            start: self.arena.len() as u32,
            len: reason.len() as u32,
            next,
        });
        self.arena.extend_from_slice(reason);
        self.first[position] = (self.entries.len() - 1) as u32;
    }
}

/// The cache as the trail holds it: filled through a shared borrow of the trail (the
/// analysis reads the trail, never changes it), and shared across threads with the model
/// (a lock nobody contends). A copy of the trail starts with an empty cache.
#[derive(Debug, Default)]
pub struct SharedReasonCache(std::sync::Mutex<ReasonCache>);

impl SharedReasonCache {
    /// The cache, for one lookup or one entry.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, ReasonCache> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Clone for SharedReasonCache {
    fn clone(&self) -> SharedReasonCache {
        SharedReasonCache::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::VarId;

    fn change(level: usize, epoch: u64) -> ChangeStamp {
        ChangeStamp { level, epoch }
    }

    #[test]
    fn a_reason_is_recalled_for_its_own_change_only() {
        let mut cache = ReasonCache::default();
        let atom = Atom::AtLeast(VarId(0), 3);
        let reason = [Atom::AtLeast(VarId(1), 2), Atom::AtMost(VarId(2), 5)];
        cache.remember(7, atom, change(2, 11), Origin::Derived, &reason);
        let mut out = vec![Atom::Equal(VarId(4), 1)];
        assert_eq!(
            cache.recall(7, atom, change(2, 11), &mut out),
            Some(Origin::Derived)
        );
        assert_eq!(out[1..], reason);
        // The same place after its level was closed and opened again: a new epoch.
        assert_eq!(cache.recall(7, atom, change(2, 12), &mut out), None);
        // Another atom of the same change, another place: nothing remembered.
        assert_eq!(
            cache.recall(7, Atom::AtLeast(VarId(0), 2), change(2, 11), &mut out),
            None
        );
        assert_eq!(cache.recall(8, atom, change(2, 11), &mut out), None);
        assert_eq!(out.len(), 3);
    }

    /// Several atoms of one change are each recalled with their own reason; once the place
    /// holds a change of a new epoch, the old chain is gone and the new one answers alone.
    #[test]
    fn the_atoms_of_one_place_keep_their_own_reasons_until_the_place_is_reused() {
        let mut cache = ReasonCache::default();
        let (a, b) = (Atom::AtLeast(VarId(0), 3), Atom::AtLeast(VarId(0), 4));
        let (ra, rb) = ([Atom::AtMost(VarId(1), 2)], [Atom::Equal(VarId(2), 5)]);
        cache.remember(3, a, change(1, 5), Origin::Derived, &ra);
        cache.remember(3, b, change(1, 5), Origin::TooLong, &rb);
        let mut out = Vec::new();
        assert_eq!(
            cache.recall(3, a, change(1, 5), &mut out),
            Some(Origin::Derived)
        );
        assert_eq!(
            cache.recall(3, b, change(1, 5), &mut out),
            Some(Origin::TooLong)
        );
        assert_eq!(out, [ra[0], rb[0]]);
        cache.remember(3, b, change(1, 6), Origin::Derived, &ra);
        out.clear();
        assert_eq!(cache.recall(3, a, change(1, 6), &mut out), None);
        assert_eq!(cache.recall(3, a, change(1, 5), &mut out), None);
        assert_eq!(
            cache.recall(3, b, change(1, 6), &mut out),
            Some(Origin::Derived)
        );
        assert_eq!(out, ra);
    }

    /// A run's inputs are read back from the trail once while the same run is asked for,
    /// and again for another run or for the same run number at a new epoch.
    #[test]
    fn a_runs_inputs_are_read_once_per_run_and_change() {
        let mut cache = ReasonCache::default();
        let mut reads = 0;
        let read = |v: i32| {
            move |inputs: &mut Vec<Domain>| {
                inputs.clear();
                inputs.push(Domain::interval(0, v));
            }
        };
        let mut ask = |cache: &mut ReasonCache, r: u32, stamp: ChangeStamp, v: i32| {
            let mut fresh = false;
            let inputs = cache.inputs_of_run(r, stamp, |d| {
                fresh = true;
                read(v)(d)
            });
            let max = inputs[0].max();
            reads += fresh as u32;
            max
        };
        assert_eq!(ask(&mut cache, 4, change(1, 3), 5), 5);
        assert_eq!(ask(&mut cache, 4, change(1, 3), 9), 5);
        assert_eq!(ask(&mut cache, 5, change(1, 3), 7), 7);
        assert_eq!(ask(&mut cache, 5, change(1, 4), 8), 8);
        assert_eq!(reads, 3);
    }
}
