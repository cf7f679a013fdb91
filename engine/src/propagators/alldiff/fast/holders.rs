//! # The units' bookkeeping: each value's holders, and stacks without a branch
//!
//! Two small structures of `units.rs` (`AllDifferentUnits`), each one idea:
//!
//! * [`Holders`], the *transposed view* of the domains: for each value, the set of variables
//!   that still hold it, one bit per variable. Forward checking reads the holders of a
//!   fixed variable's value among its peers with one `AND` per word of variables, instead
//!   of looking at every peer.
//! * [`PosStack`], a stack that is written whether it pushes or not, so that the hot loops
//!   move its top by 0 or 1 instead of branching on data.

use crate::unchecked::{PerVariable, Pos};

/// A stack of positions with room for every variable once, and one more: [`PosStack::push_if`]
/// writes its slot whether it pushes or not.
///
/// **Why.** In a search the rules' tests ("did this narrowing fix the variable?", "does
/// this peer hold the value?") go either way at random, and a mispredicted branch costs
/// the processor more than the few instructions it would skip. So the
/// hot loops write the candidate to the top slot always, and move the top by 0 or 1:
/// no branch to mispredict.
#[derive(Clone, Debug)]
pub(super) struct PosStack {
    pub(super) slots: Box<[Pos]>,
    pub(super) len: usize,
}

impl PosStack {
    /// Room for `n` positions, each pushed at most once between two `clear`s.
    pub(super) fn new(n: usize) -> PosStack {
        PosStack {
            slots: vec![Pos::from_known(0, 1); n + 1].into_boxed_slice(),
            len: 0,
        }
    }

    /// Push `i` if `really`; the slot above the top is written either way.
    #[inline(always)]
    pub(super) fn push_if(&mut self, i: Pos, really: bool) {
        // `len < slots.len()` holds: at most `n` pushes, `n + 1` slots. The `min` keeps the
        // index visibly in range so that no bounds check (and no panic path) is compiled.
        let top = self.len.min(self.slots.len() - 1);
        self.slots[top] = i;
        self.len += really as usize;
    }

    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<Pos> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.slots[self.len])
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    pub(super) fn as_slice(&self) -> &[Pos] {
        &self.slots[..self.len]
    }
}

/// For each value, the set of variables whose domain holds it: the domains read the other
/// way (the *transposed view*), one bit per variable.
///
/// **Why.** A naked single — `i` fixed to `v` — removes `v` from the peers of `i` that hold
/// it. Read from the domains, that takes a look at every peer (20 in a Sudoku, of which
/// about three hold `v`); read from here it is one `AND` per word of variables (two in a
/// Sudoku) between the set of `v`'s holders and the set of `i`'s peers, and the holders
/// leave the set in one more. The price is keeping the two views equal: every other
/// change to a domain flips its variable's bit in the set of each value it lost or gained
/// (`toggle`), and after a backtrack both views start again from a copy ([`LevelCopies`]):
/// rebuilt from the domains instead, value by value, they cost more than they saved
/// (the figures: `docs/performance/views.md`, "Why the fast lanes look as they do").
#[derive(Clone, Debug)]
pub(super) struct Holders {
    /// Words per value: one bit for each variable.
    pub(super) words: usize,
    /// The values (bits of a domain) whose sets are in use: `0..rows` (the others are empty).
    pub(super) rows: usize,
    /// The set of value `k` (bit `k` of a domain) is `sets[k * words..(k + 1) * words]`.
    pub(super) sets: Box<[u64]>,
}

impl Holders {
    /// Empty sets for `n` variables (as the domains of `Work` start: all empty).
    pub(super) fn new(n: usize) -> Holders {
        let words = n.div_ceil(64);
        Holders {
            words,
            rows: 0,
            sets: vec![0; 64 * words].into_boxed_slice(),
        }
    }

    /// Make the sets in use cover the values of `union`; true if that takes more than before.
    pub(super) fn cover(&mut self, union: u64) -> bool {
        let rows = 64 - union.leading_zeros() as usize;
        let more = rows > self.rows;
        self.rows = self.rows.max(rows);
        more
    }

    /// The sets in use, one after the other.
    pub(super) fn in_use(&self) -> &[u64] {
        &self.sets[..self.rows * self.words]
    }

    pub(super) fn in_use_mut(&mut self) -> &mut [u64] {
        &mut self.sets[..self.rows * self.words]
    }

    /// Word `w` of the set of the variables holding `value` (a domain with one bit).
    #[inline(always)]
    pub(super) fn word(&self, value: u64, w: usize) -> u64 {
        self.sets[value.trailing_zeros() as usize * self.words + w]
    }

    /// Take the variables of `vars` (word `w`) out of the set of `value` (one bit).
    #[inline(always)]
    pub(super) fn remove_all(&mut self, value: u64, w: usize, vars: u64) {
        self.sets[value.trailing_zeros() as usize * self.words + w] &= !vars;
    }

    /// Whether the sets say exactly what `dom` says (for the debug builds the tests run
    /// in): every value of every domain has its variable in its set, and the sets hold
    /// nothing more.
    pub(super) fn agree_with(&self, dom: &PerVariable<u64>) -> bool {
        let listed: u32 = self.sets.iter().map(|w| w.count_ones()).sum();
        let held: u32 = dom.as_slice().iter().map(|d| d.count_ones()).sum();
        let all_listed = dom.as_slice().iter().enumerate().all(|(i, &d)| {
            let (w, bit) = (i / 64, 1u64 << (i % 64));
            let mut values = d;
            while values != 0 {
                let k = values.trailing_zeros() as usize;
                if self.sets[k * self.words + w] & bit == 0 {
                    return false;
                }
                values &= values - 1;
            }
            true
        });
        all_listed && listed == held && self.sets[self.rows * self.words..].iter().all(|&w| w == 0)
    }

    /// Flip variable `i` in the sets of the values in `values` (those its domain lost or
    /// gained).
    #[inline(always)]
    pub(super) fn toggle(&mut self, i: Pos, mut values: u64) {
        let (w, bit) = (i.index() / 64, 1u64 << (i.index() % 64));
        while values != 0 {
            let k = values.trailing_zeros() as usize;
            self.sets[k * self.words + w] ^= bit;
            values &= values - 1;
        }
    }
}
