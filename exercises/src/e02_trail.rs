//! # Exercise 2 — a trail (chapter 2, `docs/02-store-and-trail.md`)
//!
//! The search changes the store going down the tree and must undo those changes coming back
//! up. Copying every integer at every level is simple and slow; a **trail** records, for each
//! change, the old value, and undoes a level by popping its records.
//!
//! Write `Trail`: `n` reversible integers (all 0 at first) with levels. `set` records the old
//! value before changing it (once per integer and level is enough: chapter 2's "copy on first
//! write"); `pop_level` restores every integer changed since the matching `push_level`.
//! Popping with no level open is a bug of the caller: panic.
//!
//! The grader compares with a copy of all the integers at every level, over thousands of
//! random operations.

/// `n` reversible integers with levels. Add the fields you need.
#[derive(Debug)]
pub struct Trail {
    values: Vec<i64>,
}

impl Trail {
    /// `n` integers, all 0, at level 0.
    pub fn new(n: usize) -> Trail {
        let _ = n;
        todo!("store the values, and the records of old values per level")
    }
    pub fn get(&self, i: usize) -> i64 {
        self.values[i]
    }
    /// Change integer `i`, remembering its old value for `pop_level`.
    pub fn set(&mut self, i: usize, value: i64) {
        let _ = (i, value);
        todo!("record (i, old value) unless already recorded at this level")
    }
    /// Open a level.
    pub fn push_level(&mut self) {
        todo!("remember where this level's records start")
    }
    /// Undo every change made since the matching `push_level`.
    pub fn pop_level(&mut self) {
        todo!("pop this level's records, newest first, restoring each old value")
    }
    /// The number of open levels (0 at first).
    pub fn level(&self) -> usize {
        todo!()
    }
}
