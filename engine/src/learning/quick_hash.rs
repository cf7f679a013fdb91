//! # A quick hash for the analysis's sets of atoms
//!
//! Conflict analysis and minimisation keep sets of atoms and of levels (`analysis.rs`,
//! `minimise.rs`), filled and emptied at every failure. The standard library's default
//! hash (SipHash) is built to resist an adversary choosing keys; these keys are the
//! solver's own atoms, so a multiplicative hash (as in rustc's `FxHash`: rotate, xor,
//! multiply by an odd constant) is enough, and a few times cheaper per atom.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The multiplicative hasher.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuickHasher {
    hash: u64,
}

/// The odd constant of the multiplication (from `FxHash`).
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl QuickHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
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
        self.hash
    }
}

/// A hash set with the quick hash.
pub type QuickSet<T> = HashSet<T, BuildHasherDefault<QuickHasher>>;
/// A hash map with the quick hash.
pub type QuickMap<K, V> = HashMap<K, V, BuildHasherDefault<QuickHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atom::Atom;
    use crate::store::VarId;

    #[test]
    fn distinct_atoms_stay_distinct_in_a_quick_set() {
        let mut set: QuickSet<Atom> = QuickSet::default();
        for x in 0..20u32 {
            for v in -5..5 {
                set.insert(Atom::AtLeast(VarId(x), v));
                set.insert(Atom::NotEqual(VarId(x), v));
            }
        }
        assert_eq!(set.len(), 400);
        assert!(set.contains(&Atom::NotEqual(VarId(3), -5)));
        assert!(!set.contains(&Atom::AtMost(VarId(3), -5)));
    }
}
