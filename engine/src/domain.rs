//! # Domain: the set of values a variable may still take
//!
//! A finite-domain variable is nothing but a set of integers that shrinks during the search.
//! Everything a constraint solver does — propagation, branching, backtracking — is a way of
//! removing values from these sets (and of putting them back when a guess was wrong).
//!
//! This file keeps the set as a **bitset**: bit `i` says whether the value `offset + i` is
//! still possible. The first 64 bits live in one machine word inside the struct (`low`);
//! only a domain spanning more than 64 values has further words, on the heap (`high`).
//! So for every puzzle digit, queen row or colour below 64, each operation is a couple of
//! instructions on one `u64` — a bit test, an `AND`, a `count_ones`, a `trailing_zeros` —
//! and nothing is ever allocated or looped over. The bounds and the size are cached so that
//! `min`, `max`, `size`, `is_fixed` are O(1); `contains` and `remove` are O(1); moving a
//! bound clears the words between the old and the new bound.
//!
//! What runs over many words reads them as one bit slice of the `bitvec` crate
//! ([`Domain::high_bits`]): finding the next value up or down past the current word
//! (`first_one`, `last_one`), clearing a range of values (`fill`), counting (`count_ones`)
//! and loading a 64-value window (`load_le`) are its word-at-a-time loops rather than
//! hand-written ones. What is one word's business stays written by hand: a bit's test or
//! removal, the rest of the word a scan starts in, and walking the values (a word at a
//! time, `trailing_zeros`). The first word stays a plain `u64`, outside the slice, so the
//! one-word fast paths never meet it.
//!
//! The trail (`store.rs`) saves a domain's small state (bounds, size, first word) and, for a
//! wide bitset, its other words, unless it has no holes: then its bounds say what the words
//! are, and only the words between the old and the new bounds are set back on a pop
//! ([`Domain::save_wide_words`]).
//!
//! One invariant makes the single-word fast paths branch-free: **no bit is set outside
//! `min..=max`**. So `contains` need not compare with the bounds first: the bit is 0 there.
//!
//! A domain too wide for a bitset (a MiniZinc `var int` over `-10^9..10^9`) is an
//! **interval with holes** instead: its bounds plus the list of ranges removed strictly
//! inside them (`domain/interval.rs`). Every domain the search would enumerate value by value
//! (at most [`BITSET_MAX_SPAN`] values, as `search/brancher.rs` splits wider ones) is a
//! bitset, so the puzzles never meet the second kind, and the fast paths test for it only
//! where they already leave the single word.
//!
//! Every operation that shrinks the domain says how it changed it, as an [`Event`]:
//! `Fixed` (one value left), `Bounds` (the min or the max moved), or `Domain` (a value
//! inside was removed). Propagators subscribe to the events they care about (see
//! `propagator.rs`), which is how the queue knows whom to wake.

use bitvec::field::BitField;
use bitvec::order::Lsb0;
use bitvec::slice::BitSlice;
use bitvec::view::BitView;
use smallvec::SmallVec;
use std::fmt;

/// The largest value an interval domain may hold. Its `offset` is `i32::MAX` and its
/// first word empty, so that the single-word test of [`Domain::contains`] (bit
/// `v - offset` for `v - offset < 64`) answers "no" for `i32::MAX` without knowing the
/// domain's kind, and every value it may hold goes past that test to the interval's own.
/// (A bitset may hold `i32::MAX`.)
pub const MAX_VALUE: i32 = i32::MAX - 1;

/// The largest number of values a domain may span (`max - min + 1` when created): all of
/// `i32::MIN..=MAX_VALUE`, as many as a `u32` size counts.
pub const MAX_SPAN: i64 = MAX_VALUE as i64 - i32::MIN as i64 + 1;

/// The widest domain kept as a bitset (`max - min + 1` when created); wider ones are
/// intervals with holes. The same limit as the brancher's `SPLIT_ABOVE`: what the search
/// enumerates is a bitset, what it splits in halves is an interval.
pub const BITSET_MAX_SPAN: i64 = 1 << 16;

/// How a domain changed. Ordered by strength: a fixed variable also had its bounds moved,
/// and a bounds change is also a domain change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    /// A value strictly between min and max was removed.
    Domain = 0,
    /// The min or the max moved (and more than one value is left).
    Bounds = 1,
    /// Exactly one value is left.
    Fixed = 2,
}

/// The domain became empty: no value is left, so the current node has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyDomain;

/// What a shrinking operation did: `Ok(None)` nothing, `Ok(Some(event))` it removed values.
pub type Change = Result<Option<Event>, EmptyDomain>;

/// The cached part of a domain that the trail saves and restores (see `store.rs`): the
/// bounds, the size and the first word. Wider domains also save their `high` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SmallState {
    pub min: i32,
    pub max: i32,
    pub size: u32,
    pub low: u64,
}

/// A finite set of `i32` values, stored as a bitset with cached bounds and size, or (for
/// spans over [`BITSET_MAX_SPAN`]) as an interval with holes.
pub struct Domain {
    /// The value that bit 0 stands for.
    offset: i32,
    /// Smallest value left (meaningless when `size == 0`).
    min: i32,
    /// Largest value left (meaningless when `size == 0`).
    max: i32,
    /// Number of values left.
    size: u32,
    /// Bits 0..64: values `offset..offset + 64`. The whole domain when it spans ≤ 64 values.
    low: u64,
    /// Bit `i` of `high[w]` is value `offset + 64 * (w + 1) + i`. Empty (and never allocated)
    /// for domains of at most 64 values. For an interval domain (see `domain/interval.rs`):
    /// `high[0]` is the number of holes, and the holes follow it, sorted.
    high: Box<[u64]>,
}

mod interval;

impl Domain {
    /// The interval `lo..=hi`. Panics if it is empty, or spans more than [`BITSET_MAX_SPAN`]
    /// values and reaches beyond [`MAX_VALUE`]: models are built by code, and such a model is
    /// a programming error.
    pub fn interval(lo: i32, hi: i32) -> Domain {
        assert!(lo <= hi, "empty domain {lo}..={hi}");
        let span = hi as i64 - lo as i64 + 1;
        if span > BITSET_MAX_SPAN {
            assert!(
                hi <= MAX_VALUE,
                "domain {lo}..={hi}: values above {MAX_VALUE}"
            );
            return Domain::wide_interval(lo, hi);
        }
        let n_words = ((span + 63) / 64) as usize;
        let mut words = vec![!0u64; n_words];
        let tail = (span % 64) as u32;
        if tail != 0 {
            words[n_words - 1] = (1u64 << tail) - 1;
        }
        Domain {
            offset: lo,
            min: lo,
            max: hi,
            size: span as u32,
            low: words[0],
            high: words[1..].into(),
        }
    }

    /// The set of the given values (duplicates allowed). Panics if `values` is empty.
    pub fn from_values(values: &[i32]) -> Domain {
        let lo = *values
            .iter()
            .min()
            .expect("a domain needs at least one value");
        let hi = *values.iter().max().unwrap();
        let mut d = Domain::interval(lo, hi);
        if d.is_interval() {
            d.keep_only_sorted(values);
            return d;
        }
        d.low = 0;
        d.high.fill(0);
        for &v in values {
            d.set_bit(d.index(v), true);
        }
        d.size = d.count_bits();
        d
    }

    /// The union of the ranges `(first, last)`, given sorted and disjoint (for a domain
    /// too wide to list by values: its holes are the gaps). Panics if `ranges` is empty.
    pub fn from_ranges(ranges: &[(i32, i32)]) -> Domain {
        let (lo, hi) = (ranges[0].0, ranges[ranges.len() - 1].1);
        let mut d = Domain::interval(lo, hi);
        if !d.is_interval() {
            let values: Vec<i32> = ranges.iter().flat_map(|&(a, b)| a..=b).collect();
            return Domain::from_values(&values);
        }
        for pair in ranges.windows(2) {
            assert!(pair[0].1 < pair[1].0, "ranges not sorted and disjoint");
            if pair[1].0 > pair[0].1 + 1 {
                d.remove_range(pair[0].1 + 1, pair[1].0 - 1)
                    .expect("a gap between two ranges leaves both");
            }
        }
        d
    }

    #[inline]
    pub fn min(&self) -> i32 {
        self.min
    }
    #[inline]
    pub fn max(&self) -> i32 {
        self.max
    }
    #[inline]
    pub fn size(&self) -> u32 {
        self.size
    }
    #[inline]
    pub fn is_fixed(&self) -> bool {
        self.size == 1
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }
    /// The value of a fixed domain (its min otherwise).
    #[inline]
    pub fn value(&self) -> i32 {
        self.min
    }

    /// Does the domain fit in one word (a span of at most 64 values)?
    #[inline]
    pub fn is_single_word(&self) -> bool {
        self.high.is_empty()
    }

    /// Is it an interval with holes (a span over [`BITSET_MAX_SPAN`] when created) rather
    /// than a bitset?
    #[inline]
    pub fn is_interval(&self) -> bool {
        // The mark of the kind: a bitset whose offset is `i32::MAX` holds one value at most,
        // so it has no heap words.
        self.offset == i32::MAX && !self.high.is_empty()
    }

    #[inline]
    pub fn contains(&self, v: i32) -> bool {
        self.contains_wide(v as i64)
    }

    /// `contains` for a value computed in `i64` (e.g. `value + offset`), which may lie
    /// outside the `i32` range: such a value is simply not in the domain.
    #[inline]
    pub fn contains_wide(&self, v: i64) -> bool {
        // `i` as u64: a value below `offset` wraps to a huge index and fails the range test,
        // so one comparison covers both sides. No bound test is needed: bits outside
        // min..=max are always 0 (and a value beyond `i32::MAX` lands past the last value
        // of any domain, whose bits are 0 too).
        let i = (v - self.offset as i64) as u64;
        if i < 64 {
            return self.low >> i & 1 != 0;
        }
        if self.is_interval() {
            return self.interval_contains(v);
        }
        // One bit: a word load and a shift (the slice's `get` would decode its pointer).
        let w = (i >> 6) as usize;
        w <= self.high.len() && self.high[w - 1] >> (i & 63) & 1 != 0
    }

    /// The event that describes a change from `old_min, old_max` to the current state.
    #[inline]
    fn event_after(&self, old_min: i32, old_max: i32) -> Change {
        if self.size == 0 {
            Err(EmptyDomain)
        } else if self.size == 1 {
            Ok(Some(Event::Fixed))
        } else if self.min != old_min || self.max != old_max {
            Ok(Some(Event::Bounds))
        } else {
            Ok(Some(Event::Domain))
        }
    }

    /// Remove one value.
    #[inline]
    pub fn remove(&mut self, v: i32) -> Change {
        if !self.contains(v) {
            return Ok(None);
        }
        self.remove_present(v).map(Some)
    }

    /// Remove `v`, which the caller has just seen is in the domain (the store tests
    /// `contains` first, to skip the trail when there is nothing to do).
    #[inline]
    pub(crate) fn remove_present(&mut self, v: i32) -> Result<Event, EmptyDomain> {
        debug_assert!(self.contains(v));
        if self.is_interval() {
            return self
                .interval_remove_range(v, v)
                .map(|e| e.expect("v was present"));
        }
        let i = self.index(v);
        self.set_bit(i, false);
        self.size -= 1;
        match self.size {
            0 => Err(EmptyDomain),
            1 => {
                // The one value left is the other bound.
                let other = if v == self.min { self.max } else { self.min };
                self.min = other;
                self.max = other;
                Ok(Event::Fixed)
            }
            _ if v == self.min => {
                self.min = self.scan_up(i);
                Ok(Event::Bounds)
            }
            _ if v == self.max => {
                self.max = self.scan_down(i);
                Ok(Event::Bounds)
            }
            _ => Ok(Event::Domain),
        }
    }

    /// Remove every value of `first..=last` (for an interval domain, without visiting them).
    pub fn remove_range(&mut self, first: i32, last: i32) -> Change {
        if first > last {
            return Ok(None);
        }
        if self.is_interval() {
            return self.interval_remove_range(first, last);
        }
        if first <= self.min && last >= self.max {
            self.size = 0;
            return Err(EmptyDomain);
        }
        if first <= self.min {
            return self.remove_below(last + 1);
        }
        if last >= self.max {
            return self.remove_above(first - 1);
        }
        // Strictly inside the bounds: the bounds stay, only the size changes.
        let old_size = self.size;
        self.clear_index_range(self.index(first), self.index(last) + 1);
        Ok((self.size != old_size).then_some(Event::Domain))
    }

    /// Remove every value below `lo`.
    pub fn remove_below(&mut self, lo: i32) -> Change {
        if lo <= self.min {
            return Ok(None);
        }
        if lo > self.max {
            self.size = 0;
            return Err(EmptyDomain);
        }
        if self.is_interval() {
            return self.interval_remove_range(self.min, lo - 1);
        }
        let old_min = self.min;
        let (old_min_i, lo_i) = (self.index(old_min), self.index(lo));
        self.clear_index_range(old_min_i, lo_i);
        self.min = self.scan_up(lo_i);
        self.event_after(old_min, self.max)
    }

    /// Remove every value above `hi`.
    pub fn remove_above(&mut self, hi: i32) -> Change {
        if hi >= self.max {
            return Ok(None);
        }
        if hi < self.min {
            self.size = 0;
            return Err(EmptyDomain);
        }
        if self.is_interval() {
            return self.interval_remove_range(hi + 1, self.max);
        }
        let old_max = self.max;
        let (hi_i, old_max_i) = (self.index(hi), self.index(old_max));
        self.clear_index_range(hi_i + 1, old_max_i + 1);
        self.max = self.scan_down(hi_i);
        self.event_after(self.min, old_max)
    }

    /// Keep only `v`.
    pub fn fix(&mut self, v: i32) -> Change {
        if !self.contains(v) {
            self.size = 0;
            return Err(EmptyDomain);
        }
        if self.size == 1 {
            return Ok(None);
        }
        let i = self.index(v);
        if self.high.is_empty() {
            self.low = 1u64 << i;
        } else if self.is_interval() {
            // One value: no hole inside the bounds.
            self.high[0] = 0;
        } else {
            self.low = 0;
            self.high.fill(0);
            self.set_bit(i, true);
        }
        self.min = v;
        self.max = v;
        self.size = 1;
        Ok(Some(Event::Fixed))
    }

    /// Keep only the values for which `keep` is true.
    /// On an interval domain this visits every value left: narrow the bounds first.
    pub fn retain(&mut self, mut keep: impl FnMut(i32) -> bool) -> Change {
        if self.is_interval() {
            return self.interval_retain(keep);
        }
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        // Value by value, a word at a time (each value is one word's business).
        for w in 0..1 + self.high.len() {
            let mut bits = self.word(w);
            let mut kept = 0u64;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                if keep(self.offset + (w * 64) as i32 + b as i32) {
                    kept |= 1u64 << b;
                }
            }
            *self.word_mut(w) = kept;
        }
        self.after_bulk_removal(old_min, old_max, old_size)
    }

    /// Keep only the values that are also in `other` (intersection).
    pub fn intersect(&mut self, other: &Domain) -> Change {
        if self.offset == other.offset && self.high.is_empty() && other.high.is_empty() {
            // Same layout, one word each: one AND.
            let (old_min, old_max, old_size) = (self.min, self.max, self.size);
            self.low &= other.low;
            return self.after_bulk_removal(old_min, old_max, old_size);
        }
        if self.is_interval() || other.is_interval() {
            return self.intersect_wide(other);
        }
        self.retain(|v| other.contains(v))
    }

    /// Keep only the values `base + i` for the bits `i` set in `mask` (so every value
    /// outside `base..base + 64` goes). This is the word-parallel way for a propagator to
    /// prune a small domain: compute the mask of supported values with a few bit operations,
    /// then intersect once. When the domain's own first word starts at `base`, it is a
    /// single `AND`.
    pub fn intersect_mask(&mut self, base: i32, mask: u64) -> Change {
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        if base == self.offset && self.high.is_empty() {
            self.low &= mask;
            return self.after_bulk_removal(old_min, old_max, old_size);
        }
        if self.is_interval() {
            // Bounds first, so that `retain` visits at most 64 values.
            let last = (base as i64 + 63).min(i32::MAX as i64) as i32;
            let below = self.remove_below(base)?.is_some();
            let above = self.remove_above(last)?.is_some();
            let inside = self
                .retain(|v| mask >> (v as i64 - base as i64) & 1 != 0)?
                .is_some();
            if !(below || above || inside) {
                return Ok(None);
            }
            return self.event_after(old_min, old_max);
        }
        self.retain(|v| {
            let i = v as i64 - base as i64;
            (0..64).contains(&i) && mask >> i & 1 != 0
        })
    }

    /// Remove the values whose bits are set in `bits`, bit `i` standing for the value of
    /// bit 0 of the first word plus `i` (the layout of [`Domain::as_word`]). Several values
    /// of a small domain go in one `AND`.
    #[inline]
    pub fn remove_first_word_bits(&mut self, bits: u64) -> Change {
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        self.low &= !bits;
        self.after_bulk_removal(old_min, old_max, old_size)
    }

    /// For a single-word domain: the bit that stands for `v` (0 if `v` is outside the word,
    /// whether or not the value is still in the domain).
    #[inline]
    pub(crate) fn word_bit(&self, v: i32) -> u64 {
        debug_assert!(self.high.is_empty());
        let i = (v as i64 - self.offset as i64) as u64;
        ((i < 64) as u64) << (i & 63)
    }

    /// Narrow a single-word domain to `low`, a strict subset of its word: every shrinking
    /// operation on a small domain comes down to this (the store's fast path for fixing,
    /// removing a value, removing several). The size and the bounds follow from the new
    /// word in one instruction each (POPCNT, TZCNT, LZCNT), computed in registers and
    /// written once.
    #[inline]
    pub(crate) fn narrow_word(&mut self, low: u64) -> Result<Event, EmptyDomain> {
        debug_assert!(self.high.is_empty() && low & !self.low == 0 && low != self.low);
        self.low = low;
        if low == 0 {
            self.size = 0;
            return Err(EmptyDomain);
        }
        let (old_min, old_max) = (self.min, self.max);
        let size = low.count_ones();
        let min = self.offset + low.trailing_zeros() as i32;
        let max = self.offset + (63 - low.leading_zeros() as i32);
        self.size = size;
        self.min = min;
        self.max = max;
        Ok(if size == 1 {
            Event::Fixed
        } else if min != old_min || max != old_max {
            Event::Bounds
        } else {
            Event::Domain
        })
    }

    /// After bits were cleared anywhere: recount, find the new bounds, name the event.
    #[inline]
    fn after_bulk_removal(&mut self, old_min: i32, old_max: i32, old_size: u32) -> Change {
        if self.high.is_empty() {
            // One word: size, min and max are one instruction each (POPCNT, TZCNT, LZCNT).
            let size = self.low.count_ones();
            if size == old_size {
                return Ok(None);
            }
            self.size = size;
            if size == 0 {
                return Err(EmptyDomain);
            }
            self.min = self.offset + self.low.trailing_zeros() as i32;
            self.max = self.offset + (63 - self.low.leading_zeros() as i32);
            return self.event_after(old_min, old_max);
        }
        if self.is_interval() {
            // Only `remove_first_word_bits` comes here: its bits stand for `i32::MAX` and
            // beyond, which an interval domain never holds, and `low` stays 0.
            debug_assert_eq!(self.low, 0);
            return Ok(None);
        }
        let size = self.count_bits();
        if size == old_size {
            return Ok(None);
        }
        self.size = size;
        if size == 0 {
            return Err(EmptyDomain);
        }
        self.min = self.scan_up(self.index(old_min));
        self.max = self.scan_down(self.index(old_max));
        self.event_after(old_min, old_max)
    }

    /// The smallest value `>= v` in the domain.
    #[inline]
    pub fn next_from(&self, v: i32) -> Option<i32> {
        if v > self.max || self.size == 0 {
            return None;
        }
        if v <= self.min {
            return Some(self.min);
        }
        if self.is_interval() {
            return Some(self.interval_up(v));
        }
        Some(self.scan_up(self.index(v)))
    }

    /// The largest value `<= v` in the domain.
    #[inline]
    pub fn prev_from(&self, v: i32) -> Option<i32> {
        if v < self.min || self.size == 0 {
            return None;
        }
        if v >= self.max {
            return Some(self.max);
        }
        if self.is_interval() {
            return Some(self.interval_down(v));
        }
        Some(self.scan_down(self.index(v)))
    }

    /// The first set bit at index `>= i`, as a value. The caller knows there is one (a
    /// value `>= i` is left, e.g. the max).
    #[inline]
    fn scan_up(&self, i: usize) -> i32 {
        // The rest of the word holding `i`, by hand (most often the value is there)...
        let w = i >> 6;
        let bits = self.word(w) & (!0u64 << (i & 63));
        if bits != 0 {
            return self.offset + ((w * 64) as i32 + bits.trailing_zeros() as i32);
        }
        // ... then the words after it, as a bit slice: word `w + 1` starts at bit `64 * w`
        // of `high`.
        let from = 64 * w;
        let j = self.high_bits()[from..]
            .first_one()
            .expect("a value at or above the index is left");
        self.offset + (64 + (from + j) as i32)
    }

    /// The last set bit at index `<= i`, as a value. The caller knows there is one.
    #[inline]
    fn scan_down(&self, i: usize) -> i32 {
        // The part of the word holding `i` up to it, by hand...
        let w = i >> 6;
        let bits = self.word(w) & (!0u64 >> (63 - (i & 63)));
        if bits != 0 {
            // (The index first: `offset + 63` alone may pass `i32::MAX`.)
            return self.offset + ((w * 64) as i32 + 63 - bits.leading_zeros() as i32);
        }
        // ... then the heap words before it, as a bit slice, and last the first word.
        if w >= 2 {
            if let Some(j) = self.high_bits()[..64 * (w - 1)].last_one() {
                return self.offset + (64 + j as i32);
            }
        }
        debug_assert!(self.low != 0, "a value at or below the index is left");
        self.offset + (63 - self.low.leading_zeros() as i32)
    }

    /// The values in increasing order (on an interval domain, as many as it has: a caller
    /// that may meet one looks at `size` first, or walks [`Domain::ranges`]).
    pub fn iter(&self) -> impl Iterator<Item = i32> + '_ {
        // A word at a time, by hand: the slice's `iter_ones` finds each value anew from
        // where the last one was, which costs more than a value should.
        let words = if self.is_interval() {
            0
        } else {
            1 + self.high.len()
        };
        let bits = (0..words).flat_map(move |w| {
            let base = self.offset + 64 * w as i32;
            let mut bits = self.word(w);
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(base + b as i32)
            })
        });
        let intervals = (self.is_interval().then(|| self.interval_ranges()))
            .into_iter()
            .flatten()
            .flat_map(|(a, b)| a..=b);
        bits.chain(intervals)
    }

    /// The values as sorted maximal ranges `(first, last)`: the way to walk a domain that
    /// may be an interval of billions of values.
    pub fn ranges(&self) -> SmallVec<[(i32, i32); 4]> {
        if self.is_interval() {
            return self.interval_ranges();
        }
        let mut ranges: SmallVec<[(i32, i32); 4]> = SmallVec::new();
        for v in self.iter() {
            match ranges.last_mut() {
                Some((_, last)) if *last + 1 == v => *last = v,
                _ => ranges.push((v, v)),
            }
        }
        ranges
    }

    /// The values in increasing order, collected (for callers that modify while iterating).
    pub fn values(&self) -> SmallVec<[i32; 16]> {
        self.iter().collect()
    }

    /// For a domain of at most 64 values: `(offset, bits)`, bit `i` standing for
    /// `offset + i`. For propagators that work on whole words (e.g. a word-parallel
    /// all-different). `None` for wider domains.
    #[inline]
    pub fn as_word(&self) -> Option<(i32, u64)> {
        if self.high.is_empty() {
            Some((self.offset, self.low))
        } else {
            None
        }
    }

    /// The first word of the bitset: bit `i` stands for `offset + i` (see [`Domain::as_word`];
    /// for a domain of at most 64 values this is the whole domain). For tight loops that have
    /// checked once, outside the loop, that their domains are single-word.
    #[inline]
    pub fn first_word(&self) -> u64 {
        self.low
    }

    /// For small domains (span of at most 64 values from `base`): the values as a bitmask
    /// where bit `i` stands for `base + i`. Values outside `base..base+64` are dropped.
    #[inline]
    pub fn mask_from(&self, base: i32) -> u64 {
        if self.offset == base {
            // The common case (a propagator reading domains in their own layout): one load.
            return self.low;
        }
        if !self.high.is_empty() {
            return self.wide_mask_from(base);
        }
        // One word, shifted into place.
        let shift = self.offset as i64 - base as i64;
        match shift {
            0..=63 => self.low << shift,
            -63..=-1 => self.low >> -shift,
            _ => 0,
        }
    }

    /// `mask_from` for a domain of more than 64 values (out of line: the one-word case above
    /// is what propagators' loops meet).
    #[inline(never)]
    fn wide_mask_from(&self, base: i32) -> u64 {
        if self.is_interval() {
            return (0..64)
                .filter(|&i| self.contains_wide(base as i64 + i))
                .fold(0, |mask, i| mask | 1 << i);
        }
        // The first word shifted into place, as for a one-word domain...
        let shift = self.offset as i64 - base as i64;
        let mut mask = match shift {
            0..=63 => self.low << shift,
            -63..=-1 => self.low >> -shift,
            _ => 0,
        };
        // ... and the at most 64 bits of the slice that fall in `base..base + 64`, loaded
        // as one integer: bit `j` of the slice is bit `j + s` of the mask.
        let high = self.high_bits();
        let s = shift + 64;
        let from = (-s).clamp(0, high.len() as i64) as usize;
        let to = (64 - s).clamp(0, high.len() as i64) as usize;
        if from < to {
            mask |= high[from..to].load_le::<u64>() << (from as i64 + s);
        }
        mask
    }

    // ----- for the trail (store.rs) ------------------------------------------------------

    /// The cached fields and the first word: all the trail needs to save for a domain of at
    /// most 64 values.
    #[inline]
    pub(crate) fn small_state(&self) -> SmallState {
        SmallState {
            min: self.min,
            max: self.max,
            size: self.size,
            low: self.low,
        }
    }

    /// Put back what `small_state` returned (and, for a wide domain, the caller puts back
    /// its other words with `restore_wide_words`).
    #[inline]
    pub(crate) fn restore_small_state(&mut self, s: SmallState) {
        self.min = s.min;
        self.max = s.max;
        self.size = s.size;
        self.low = s.low;
    }

    /// Save on `trail` the words beyond the first, if any: a wide bitset's words, or an
    /// interval domain's holes (`domain/interval.rs`). The store calls it when it saves the
    /// domain, and [`Domain::restore_wide_words`] when it restores it.
    ///
    /// A wide bitset **without holes** (`size = max - min + 1`: every value between its
    /// bounds is in) is saved by its bounds alone, already in its small state: its words
    /// follow from them. One marker word goes on the trail instead of all the words, so
    /// that a product or a sum over 10,000 values whose bounds move at every node costs a
    /// word to save and, to restore, only the words between the old and the new bounds.
    #[inline]
    pub(crate) fn save_wide_words(&self, trail: &mut Vec<u64>) {
        if self.is_interval() {
            self.save_interval_words(trail);
        } else if !self.high.is_empty() {
            if self.has_no_holes() {
                trail.push(0);
            } else {
                trail.extend_from_slice(&self.high);
            }
        }
    }

    /// Take back from the top of `trail` what [`Domain::save_wide_words`] put there, for
    /// the domain whose small state was `saved`. Call it before putting the small state
    /// back: a bitset saved by its bounds is refilled from where it stands now.
    #[inline]
    pub(crate) fn restore_wide_words(&mut self, saved: SmallState, trail: &mut Vec<u64>) {
        if self.is_interval() {
            self.restore_interval_words(trail);
        } else if !self.high.is_empty() {
            if saved.size as i64 == saved.max as i64 - saved.min as i64 + 1 {
                trail.pop();
                self.refill_high_words(saved);
            } else {
                let from = trail.len() - self.high.len();
                self.high.copy_from_slice(&trail[from..]);
                trail.truncate(from);
            }
        }
    }

    /// Every value between the bounds is in (and there is one).
    #[inline]
    fn has_no_holes(&self) -> bool {
        self.size != 0 && self.size as i64 == self.max as i64 - self.min as i64 + 1
    }

    /// Set the heap words back to the values `saved.min..=saved.max`, a domain without holes
    /// that the current one is a subset of (only removals happened since). When the current
    /// one has no holes either, only the values between the old and the new bounds are
    /// set; otherwise the whole range. The first word comes back with the small state.
    fn refill_high_words(&mut self, saved: SmallState) {
        let (lo, hi) = (self.index(saved.min), self.index(saved.max) + 1);
        let set = |d: &mut Domain, from: usize, to: usize| {
            let (from, to) = (from.max(64), to.max(64));
            if from < to {
                d.high_bits_mut()[from - 64..to - 64].fill(true);
            }
        };
        if self.has_no_holes() {
            let (now_lo, now_hi) = (self.index(self.min), self.index(self.max) + 1);
            set(self, lo, now_lo);
            set(self, now_hi, hi);
        } else {
            set(self, lo, hi);
        }
    }

    // ----- private helpers ---------------------------------------------------------------

    /// Word `w` of the bitset: the first word, or heap word `w - 1`.
    #[inline]
    fn word(&self, w: usize) -> u64 {
        if w == 0 {
            self.low
        } else {
            self.high[w - 1]
        }
    }

    #[inline]
    fn word_mut(&mut self, w: usize) -> &mut u64 {
        if w == 0 {
            &mut self.low
        } else {
            &mut self.high[w - 1]
        }
    }

    /// The words beyond the first as one bit slice: bit `j` stands for the value
    /// `offset + 64 + j`. (For a bitset only: an interval domain keeps its holes there.)
    #[inline]
    fn high_bits(&self) -> &BitSlice<u64, Lsb0> {
        self.high.view_bits::<Lsb0>()
    }

    #[inline]
    fn high_bits_mut(&mut self) -> &mut BitSlice<u64, Lsb0> {
        self.high.view_bits_mut::<Lsb0>()
    }

    /// Set or clear bit `i` (of the whole bitset: the first word, then the heap words). One
    /// bit is one word's business, written by hand; the slice is for runs of words.
    #[inline]
    fn set_bit(&mut self, i: usize, value: bool) {
        let word = self.word_mut(i >> 6);
        if value {
            *word |= 1u64 << (i & 63);
        } else {
            *word &= !(1u64 << (i & 63));
        }
    }

    #[inline]
    fn count_bits(&self) -> u32 {
        self.low.count_ones() + self.high_bits().count_ones() as u32
    }

    #[inline]
    fn index(&self, v: i32) -> usize {
        (v as i64 - self.offset as i64) as usize
    }

    /// Clear bits `from..to` (indices) and update the size.
    fn clear_index_range(&mut self, from: usize, to: usize) {
        if from < 64 {
            // The part in the first word: bits `from..min(to, 64)`.
            let above_from = !0u64 << from;
            let below_to = if to >= 64 { !0u64 } else { (1u64 << to) - 1 };
            let mask = above_from & below_to;
            self.size -= (self.low & mask).count_ones();
            self.low &= !mask;
        }
        if to > 64 {
            let range = &mut self.high_bits_mut()[from.saturating_sub(64)..to - 64];
            let cleared = range.count_ones() as u32;
            range.fill(false);
            self.size -= cleared;
        }
    }
}

/// Written out for `clone_from`: it reuses the heap words of the domain it overwrites when
/// there are as many (the derived one would allocate new ones), so that a propagator keeping
/// a copy of a wide domain refreshes it without allocating (`EqualOffset` in `relations.rs`).
impl Clone for Domain {
    fn clone(&self) -> Domain {
        Domain {
            offset: self.offset,
            min: self.min,
            max: self.max,
            size: self.size,
            low: self.low,
            high: self.high.clone(),
        }
    }

    fn clone_from(&mut self, source: &Domain) {
        self.offset = source.offset;
        self.min = source.min;
        self.max = source.max;
        self.size = source.size;
        self.low = source.low;
        if self.high.len() == source.high.len() {
            self.high.copy_from_slice(&source.high);
        } else {
            self.high = source.high.clone();
        }
    }
}

/// Two domains are equal when they hold the same values in the same representation (for
/// a bitset, with the same offset, as before intervals existed).
impl PartialEq for Domain {
    fn eq(&self, other: &Domain) -> bool {
        if self.is_interval() || other.is_interval() {
            return self.is_interval() == other.is_interval()
                && (self.min, self.max, self.size) == (other.min, other.max, other.size)
                && self.interval_ranges() == other.interval_ranges();
        }
        (self.offset, self.min, self.max, self.size, self.low)
            == (other.offset, other.min, other.max, other.size, other.low)
            && self.high == other.high
    }
}

impl Eq for Domain {}

impl fmt::Debug for Domain {
    /// Prints `{1..3, 5, 7..9}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, (first, last)) in self.ranges().into_iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            if first == last {
                write!(f, "{first}")?;
            } else {
                write!(f, "{first}..{last}")?;
            }
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn interval_bounds_and_size() {
        let d = Domain::interval(-3, 70);
        assert_eq!((d.min(), d.max(), d.size()), (-3, 70, 74));
        assert!(d.contains(-3) && d.contains(70) && !d.contains(71) && !d.contains(-4));
        assert_eq!(format!("{d:?}"), "{-3..70}");
    }

    #[test]
    fn clone_from_copies_whatever_the_widths() {
        let mut wide = Domain::interval(0, 199);
        wide.remove(100).unwrap();
        // Into a domain of another width (new words), then of the same width (reused).
        for mut copy in [Domain::interval(0, 0), Domain::interval(-50, 149)] {
            copy.clone_from(&wide);
            assert!(copy == wide);
            assert_eq!(format!("{copy:?}"), "{0..99, 101..199}");
        }
        let mut narrow = Domain::interval(-5, 150);
        narrow.clone_from(&Domain::from_values(&[3, 7]));
        assert_eq!(format!("{narrow:?}"), "{3, 7}");
    }

    /// The layout the instruction counts of docs/PERFORMANCE.md ("Interval domains") were
    /// measured with: the store indexes its domains by 40 bytes with one `lea`, by 32 with
    /// two instructions. An interval domain must not make every domain bigger.
    #[test]
    fn a_domain_is_forty_bytes() {
        assert_eq!(std::mem::size_of::<Domain>(), 40);
    }

    #[test]
    fn from_ranges_gives_a_bitset_or_an_interval() {
        let small = Domain::from_ranges(&[(-3, -1), (5, 5), (60, 70)]);
        assert!(!small.is_interval());
        assert_eq!(format!("{small:?}"), "{-3..-1, 5, 60..70}");
        let wide = Domain::from_ranges(&[(-1_000_000, -1), (5, 5), (60, 1_000_000)]);
        assert!(wide.is_interval());
        assert_eq!(format!("{wide:?}"), "{-1000000..-1, 5, 60..1000000}");
        assert_eq!(wide.size(), 1_000_000 + 1 + 999_941);
    }

    /// A wide bitset whose values end at `i32::MAX`: the scans compute the index first, so
    /// that `offset + 63` never passes the largest `i32` on the way to a value below it.
    #[test]
    fn a_wide_bitset_at_the_top_of_i32() {
        let top = i32::MAX;
        for span in [64, 65, 130, 200] {
            let mut d = Domain::interval(top - span + 1, top);
            assert_eq!(d.remove_above(top - 1), Ok(Some(Event::Bounds)));
            assert_eq!(d.max(), top - 1);
            d.remove_range(top - 40, top - 2).unwrap();
            assert_eq!(d.remove_above(top - 2), Ok(Some(Event::Bounds)));
            assert_eq!(d.max(), top - 41);
            assert_eq!(d.prev_from(top), Some(top - 41));
            assert_eq!(d.next_from(top - span + 1), Some(top - span + 1));
            assert_eq!(d.remove(top - span + 1), Ok(Some(Event::Bounds)));
            assert_eq!(d.min(), top - span + 2);
        }
    }

    #[test]
    fn events_are_reported() {
        let mut d = Domain::interval(1, 9);
        assert_eq!(d.remove(5), Ok(Some(Event::Domain)));
        assert_eq!(d.remove(5), Ok(None));
        assert_eq!(d.remove(1), Ok(Some(Event::Bounds)));
        assert_eq!(d.min(), 2);
        assert_eq!(d.remove_above(4), Ok(Some(Event::Bounds)));
        assert_eq!(d.remove_below(4), Ok(Some(Event::Fixed)));
        assert_eq!(d.value(), 4);
        assert_eq!(d.remove(4), Err(EmptyDomain));
    }

    #[derive(Debug, Clone)]
    enum Op {
        Remove(i32),
        Below(i32),
        Above(i32),
        Fix(i32),
        RetainEven,
        IntersectMask(i32, u64),
        RemoveRange(i32, i32),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (-70..400i32).prop_map(Op::Remove),
            (-70..400i32).prop_map(Op::Below),
            (-70..400i32).prop_map(Op::Above),
            (-70..400i32).prop_map(Op::Fix),
            Just(Op::RetainEven),
            (-70..400i32, any::<u64>()).prop_map(|(b, m)| Op::IntersectMask(b, m)),
            (-70..400i32, 0..80i32).prop_map(|(a, n)| Op::RemoveRange(a, a + n)),
        ]
    }

    proptest! {
        /// The bitset domain behaves exactly like a `BTreeSet` model, for every operation,
        /// across word boundaries (up to seven words: the bit slice's loops) and with
        /// negative values.
        #[test]
        fn matches_a_set_model(lo in -70..10i32, span in 1..400i32, ops in prop::collection::vec(op(), 1..40)) {
            let mut d = Domain::interval(lo, lo + span - 1);
            let mut set: BTreeSet<i32> = (lo..lo + span).collect();
            for op in ops {
                let before = set.clone();
                match op {
                    Op::Remove(v) => { set.remove(&v); }
                    Op::Below(v) => set.retain(|&x| x >= v),
                    Op::Above(v) => set.retain(|&x| x <= v),
                    Op::Fix(v) => set.retain(|&x| x == v),
                    Op::RetainEven => set.retain(|&x| x % 2 == 0),
                    Op::IntersectMask(b, m) => set.retain(|&x| (b..b + 64).contains(&x) && m >> (x - b) & 1 == 1),
                    Op::RemoveRange(a, b) => set.retain(|&x| x < a || x > b),
                }
                let r = match op {
                    Op::Remove(v) => d.remove(v),
                    Op::Below(v) => d.remove_below(v),
                    Op::Above(v) => d.remove_above(v),
                    Op::Fix(v) => d.fix(v),
                    Op::RetainEven => d.retain(|x| x % 2 == 0),
                    Op::IntersectMask(b, m) => d.intersect_mask(b, m),
                    Op::RemoveRange(a, b) => d.remove_range(a, b),
                };
                if set.is_empty() {
                    prop_assert_eq!(r, Err(EmptyDomain));
                    break;
                }
                let expected = if set == before { None } else if set.len() == 1 { Some(Event::Fixed) }
                    else if set.first() != before.first() || set.last() != before.last() { Some(Event::Bounds) }
                    else { Some(Event::Domain) };
                prop_assert_eq!(r, Ok(expected));
                prop_assert_eq!(d.size() as usize, set.len());
                prop_assert_eq!(d.min(), *set.first().unwrap());
                prop_assert_eq!(d.max(), *set.last().unwrap());
                prop_assert_eq!(d.iter().collect::<Vec<_>>(), set.iter().copied().collect::<Vec<_>>());
                for v in lo - 2..lo + span + 2 {
                    prop_assert_eq!(d.contains(v), set.contains(&v));
                    prop_assert_eq!(d.next_from(v), set.range(v..).next().copied());
                    prop_assert_eq!(d.prev_from(v), set.range(..=v).next_back().copied());
                }
                let base = d.min();
                let mask = d.mask_from(base);
                for v in base..base + 64 {
                    prop_assert_eq!(mask >> (v - base) & 1 == 1, set.contains(&v));
                }
            }
        }
    }
}
