//! # A plain hash for atoms and levels
//!
//! Conflict analysis and minimisation look atoms up in sets and maps hundreds of times per
//! failure (`analysis.rs`: which atoms were seen; `minimise.rs`: which are in the nogood,
//! which were found implied). The standard library's hash (SipHash) is built to resist keys
//! chosen by an attacker, and costs tens of instructions per key; the keys here are a
//! variable number and a value, chosen by no one. Like the hash of rustc (FxHash) and of
//! most SAT solvers' tables, [`AtomHasher`] folds each word in with one multiplication and
//! a rotation: a few instructions, and a spread good enough for a hash table's buckets.
//!
//! ```
//! use engine::learning::atom_hash::AtomSet;
//! use engine::{Atom, VarId};
//! let mut seen = AtomSet::default();
//! assert!(seen.insert(Atom::Equal(VarId(3), 1)));
//! assert!(!seen.insert(Atom::Equal(VarId(3), 1)));
//! assert!(!seen.contains(&Atom::NotEqual(VarId(3), 1)));
//! ```

use crate::atom::Atom;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-and-rotate hashing of the words written (FxHash's constant).
#[derive(Clone, Copy, Debug, Default)]
pub struct AtomHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl AtomHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for AtomHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(b as u64);
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }
    fn write_i32(&mut self, n: i32) {
        self.add(n as u32 as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn write_isize(&mut self, n: isize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A set of atoms under [`AtomHasher`].
pub type AtomSet = HashSet<Atom, BuildHasherDefault<AtomHasher>>;
/// A map from atoms under [`AtomHasher`].
pub type AtomMap<V> = HashMap<Atom, V, BuildHasherDefault<AtomHasher>>;
/// A set of decision levels under [`AtomHasher`].
pub type LevelSet = HashSet<usize, BuildHasherDefault<AtomHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::VarId;
    use std::hash::{BuildHasher, Hash};

    fn hash(atom: Atom) -> u64 {
        let build = BuildHasherDefault::<AtomHasher>::default();
        let mut h = build.build_hasher();
        atom.hash(&mut h);
        h.finish()
    }

    /// The atoms of 50 variables over 20 values (4,000 atoms, as many as a large analysis
    /// meets) hash to distinct values, and a set of them finds each and nothing else.
    #[test]
    fn atoms_hash_apart_and_a_set_finds_each() {
        let atoms: Vec<Atom> = (0..50)
            .flat_map(|x| crate::atom::every_atom(VarId(x), -5..15))
            .collect();
        let mut hashes: Vec<u64> = atoms.iter().map(|&a| hash(a)).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), atoms.len());
        let set: AtomSet = atoms.iter().step_by(2).copied().collect();
        for (i, a) in atoms.iter().enumerate() {
            assert_eq!(set.contains(a), i % 2 == 0, "{a}");
        }
    }
}
