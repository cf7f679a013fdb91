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
//! An entry is keyed by the atom and the change's place on the trail, and remembers the
//! level and the epoch of that change: a place is reused only after its level was closed,
//! and a closed level's epoch never comes back, so an entry that does not match the change
//! now at its place is stale and is not used. The cache is emptied when it grows past
//! [`MOST_ENTRIES`].

use super::atom_hash::AtomHasher;
use super::reason::Origin;
use crate::atom::Atom;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The most reasons kept before the cache is emptied.
pub const MOST_ENTRIES: usize = 1 << 16;

/// Which change of the trail a reason belongs to: its level and the epoch of that level
/// (`trail.rs`, `Change`). A place on the trail holds another change once its level closed,
/// and a closed level's epoch never comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeStamp {
    pub level: usize,
    pub epoch: u64,
}

/// One remembered reason: the change it belongs to (its level and epoch), and the answer.
#[derive(Clone, Debug)]
struct Entry {
    stamp: ChangeStamp,
    origin: Origin,
    reason: Vec<Atom>,
}

/// The reasons of runs' atoms computed so far, by place on the trail and atom.
#[derive(Clone, Debug, Default)]
pub struct ReasonCache {
    entries: HashMap<(usize, Atom), Entry, BuildHasherDefault<AtomHasher>>,
    pub hits: u64,
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
        let entry = self.entries.get(&(position, atom))?;
        if entry.stamp != stamp {
            return None;
        }
        out.extend_from_slice(&entry.reason);
        self.hits += 1;
        Some(entry.origin)
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
        if self.entries.len() >= MOST_ENTRIES {
            self.entries.clear();
        }
        let entry = Entry {
            stamp,
            origin,
            reason: reason.to_vec(),
        };
        self.entries.insert((position, atom), entry);
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
}
