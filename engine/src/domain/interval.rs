//! # Interval domains: bounds plus the holes removed inside them
//!
//! A MiniZinc `var int` may range over `-10^9..10^9`, or over nearly all of `i32`: a bitset
//! of that span would take 500 MB. Such a domain is kept as its **bounds** `min..=max` plus
//! the **holes**: the ranges of values removed strictly between them. Bounds reasoning, the
//! bread and butter of linear and arithmetic propagators, costs O(1) as before; a removal
//! inside the bounds (a not-equal, an element's missing value) adds a hole.
//!
//! **Why every hole is kept.** The tempting shortcut, an interval that ignores removals
//! inside it, is unsound here: a propagator may remove a value and then consider itself
//! entailed (`x != y + c` removes `y + c` from `x` once `y` is fixed and never looks again
//! below that node), so a removal that "succeeds" must really remove.
//!
//! **Holes kept sorted.** Holes are not always few: an element constraint whose table holds
//! a few thousand costs spread over `0..10^6` leaves its result a few thousand holes, and a
//! linear sum over such results asks for bounds and membership at every node. So the holes
//! are kept **sorted, disjoint, not touching, and strictly inside the bounds** (a hole that
//! reaches a bound moves the bound instead). Then `contains` and the next value up or down
//! are one binary search, O(log holes); a removal is a binary search and a splice of the
//! holes it covers into one (a `memmove`); `retain` and `intersect` rebuild the list in one
//! merge of sorted ranges. This is the layout of Gecode's range-list domains, in an array.
//!
//! **Where they live, and how the trail restores them.** In the domain's `high` words: the
//! first is the number of holes `n`, the next `n` words the holes, each with its first and
//! last values packed in the two halves (the box grows when full, and never shrinks). As
//! the list changes anywhere, the trail saves the whole of it, `n` words and then `n`, and
//! gives it back on backtracking ([`Domain::save_wide_words`], [`Domain::restore_wide_words`]):
//! O(holes) per level at which the domain changes, as a bitset saves all its words.
//!
//! **Invariants** (with `n = high[0]`): `offset == i32::MAX` and `low == 0`, so that the
//! single-word test of `contains` answers "no" (an interval never holds `i32::MAX`, see
//! [`super::MAX_VALUE`]) and `is_interval` is one comparison; `high[1..=n]` sorted, each
//! hole `(a, b)` with `min < a <= b < max`, and a value of the domain between two holes;
//! `size` is `max - min + 1` minus the values of the holes.

use super::{Change, Domain, EmptyDomain};
use smallvec::SmallVec;

/// A hole as one word: its first value in the high half, its last in the low half.
fn pack(first: i32, last: i32) -> u64 {
    (first as u32 as u64) << 32 | last as u32 as u64
}

fn unpack(word: u64) -> (i32, i32) {
    ((word >> 32) as u32 as i32, word as u32 as i32)
}

impl Domain {
    /// The interval `lo..=hi` as an interval domain (the caller checked `hi <= MAX_VALUE`).
    pub(super) fn wide_interval(lo: i32, hi: i32) -> Domain {
        Domain {
            offset: i32::MAX,
            min: lo,
            max: hi,
            size: (hi as i64 - lo as i64 + 1) as u32,
            low: 0,
            // No hole yet, room for three.
            high: vec![0; 4].into_boxed_slice(),
        }
    }

    /// For a new interval domain spanning exactly the given values: make the gaps between
    /// them holes.
    pub(super) fn keep_only_sorted(&mut self, values: &[i32]) {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        let ranges: Vec<(i32, i32)> = values.iter().map(|&v| (v, v)).collect();
        self.set_ranges(&ranges);
    }

    /// The number of holes.
    fn hole_count(&self) -> usize {
        self.high[0] as usize
    }

    /// Hole `i` (0-based, in sorted order).
    fn hole(&self, i: usize) -> (i32, i32) {
        unpack(self.high[1 + i])
    }

    /// The holes, sorted.
    fn holes(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.high[1..=self.hole_count()].iter().map(|&w| unpack(w))
    }

    /// The number of holes that end before `v` (a binary search): the hole that may hold
    /// `v` is the next one.
    fn holes_before(&self, v: i64) -> usize {
        self.high[1..=self.hole_count()].partition_point(|&w| (unpack(w).1 as i64) < v)
    }

    /// Room for `n` holes.
    fn reserve_holes(&mut self, n: usize) {
        if n + 1 > self.high.len() {
            let mut bigger = vec![0; (2 * self.high.len()).max(n + 1)];
            bigger[..self.high.len()].copy_from_slice(&self.high);
            self.high = bigger.into_boxed_slice();
        }
    }

    /// Make the domain the union of `ranges` (sorted, disjoint, not empty): its bounds, its
    /// size, and the gaps between the ranges as its holes.
    fn set_ranges(&mut self, ranges: &[(i32, i32)]) {
        debug_assert!(!ranges.is_empty());
        let mut merged: SmallVec<[(i32, i32); 16]> = SmallVec::new();
        for &(a, b) in ranges {
            match merged.last_mut() {
                Some(last) if last.1 as i64 + 1 >= a as i64 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        self.reserve_holes(merged.len() - 1);
        for (i, pair) in merged.windows(2).enumerate() {
            self.high[1 + i] = pack(pair[0].1 + 1, pair[1].0 - 1);
        }
        self.high[0] = (merged.len() - 1) as u64;
        self.min = merged[0].0;
        self.max = merged[merged.len() - 1].1;
        self.size = merged
            .iter()
            .map(|&(a, b)| (b as i64 - a as i64 + 1) as u32)
            .sum();
    }

    #[cold]
    #[inline(never)]
    pub(super) fn interval_contains(&self, v: i64) -> bool {
        if v < self.min as i64 || v > self.max as i64 || self.size == 0 {
            return false;
        }
        let i = self.holes_before(v);
        i == self.hole_count() || (self.hole(i).0 as i64) > v
    }

    /// The smallest value of the domain `>= v`; the caller knows there is one.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_up(&self, v: i32) -> i32 {
        let i = self.holes_before(v as i64);
        match (i < self.hole_count()).then(|| self.hole(i)) {
            // Holes do not touch: the value after one is in the domain.
            Some((a, b)) if a <= v => b + 1,
            _ => v,
        }
    }

    /// The largest value of the domain `<= v`; the caller knows there is one.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_down(&self, v: i32) -> i32 {
        let i = self.holes_before(v as i64);
        match (i < self.hole_count()).then(|| self.hole(i)) {
            Some((a, _)) if a <= v => a - 1,
            _ => v,
        }
    }

    /// The values of an interval domain as sorted maximal ranges (empty for a bitset).
    #[cold]
    #[inline(never)]
    pub(super) fn interval_ranges(&self) -> SmallVec<[(i32, i32); 4]> {
        let mut ranges = SmallVec::new();
        if !self.is_interval() || self.size == 0 {
            return ranges;
        }
        let mut from = self.min;
        for (a, b) in self.holes() {
            ranges.push((from, a - 1));
            from = b + 1;
        }
        ranges.push((from, self.max));
        ranges
    }

    /// Remove every value of `first..=last`: the one shrinking operation of an interval
    /// domain, which `remove`, `remove_below` and `remove_above` come down to. The holes it
    /// overlaps or touches become one (or, at a bound, the bound moves past them).
    #[cold]
    #[inline(never)]
    pub(super) fn interval_remove_range(&mut self, first: i32, last: i32) -> Change {
        let (a, b) = (first.max(self.min), last.min(self.max));
        if a > b {
            return Ok(None);
        }
        // Holes `lo..hi` overlap `a..=b`.
        let lo = self.holes_before(a as i64);
        let hi = lo + self.high[1 + lo..=self.hole_count()].partition_point(|&w| unpack(w).0 <= b);
        let overlap: i64 = (lo..hi)
            .map(|i| {
                let (x, y) = self.hole(i);
                y.min(b) as i64 - x.max(a) as i64 + 1
            })
            .sum();
        let present = b as i64 - a as i64 + 1 - overlap;
        if present == 0 {
            return Ok(None);
        }
        if present == self.size as i64 {
            self.size = 0;
            return Err(EmptyDomain);
        }
        let (old_min, old_max) = (self.min, self.max);
        self.size -= present as u32;
        // The new hole: `a..=b` with the holes it overlaps and the ones it touches.
        let (mut lo, mut hi) = (lo, hi);
        let (mut from, mut to) = (a, b);
        if lo < hi {
            from = from.min(self.hole(lo).0);
            to = to.max(self.hole(hi - 1).1);
        }
        if lo > 0 && self.hole(lo - 1).1 as i64 + 1 == from as i64 {
            lo -= 1;
            from = self.hole(lo).0;
        }
        if hi < self.hole_count() && self.hole(hi).0 as i64 - 1 == to as i64 {
            to = self.hole(hi).1;
            hi += 1;
        }
        // At a bound, the bound moves past it instead (the value there is in the domain).
        let keep_hole = if from <= self.min {
            self.min = to + 1;
            false
        } else if to >= self.max {
            self.max = from - 1;
            false
        } else {
            true
        };
        // Splice: holes `lo..hi` become the new hole, or none.
        let n = self.hole_count();
        let new_n = n - (hi - lo) + keep_hole as usize;
        self.reserve_holes(new_n.max(n));
        let tail_to = 1 + lo + keep_hole as usize;
        self.high.copy_within(1 + hi..1 + n, tail_to);
        if keep_hole {
            self.high[1 + lo] = pack(from, to);
        }
        self.high[0] = new_n as u64;
        self.event_after(old_min, old_max)
    }

    /// `retain` on an interval domain: visits every value, then rebuilds the holes from the
    /// runs kept.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_retain(&mut self, mut keep: impl FnMut(i32) -> bool) -> Change {
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        let mut kept: Vec<(i32, i32)> = Vec::new();
        for (a, b) in self.interval_ranges() {
            let mut run_from = None;
            for v in a..=b {
                if keep(v) {
                    run_from.get_or_insert(v);
                } else if let Some(from) = run_from.take() {
                    kept.push((from, v - 1));
                }
            }
            if let Some(from) = run_from {
                kept.push((from, b));
            }
        }
        self.keep_ranges(&kept, old_min, old_max, old_size)
    }

    /// The domain becomes the union of `kept` (sorted, disjoint, a subset of its values).
    fn keep_ranges(
        &mut self,
        kept: &[(i32, i32)],
        old_min: i32,
        old_max: i32,
        old_size: u32,
    ) -> Change {
        if kept.is_empty() {
            self.size = 0;
            return Err(EmptyDomain);
        }
        self.set_ranges(kept);
        if self.size == old_size {
            return Ok(None);
        }
        self.event_after(old_min, old_max)
    }

    /// `intersect` when either domain is an interval one: the ranges of both, merged.
    #[cold]
    #[inline(never)]
    pub(super) fn intersect_wide(&mut self, other: &Domain) -> Change {
        if !self.is_interval() {
            return self.retain(|v| other.contains(v));
        }
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        let mine = self.interval_ranges();
        let theirs = other.ranges();
        let mut kept: Vec<(i32, i32)> = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < mine.len() && j < theirs.len() {
            let (a, b) = (mine[i].0.max(theirs[j].0), mine[i].1.min(theirs[j].1));
            if a <= b {
                kept.push((a, b));
            }
            if mine[i].1 < theirs[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        self.keep_ranges(&kept, old_min, old_max, old_size)
    }

    /// The trail's copy of the holes: the holes, then their number (on top, so that
    /// [`Domain::restore_interval_words`] knows how many to take back).
    pub(super) fn save_interval_words(&self, trail: &mut Vec<u64>) {
        let n = self.hole_count();
        trail.extend_from_slice(&self.high[1..=n]);
        trail.push(n as u64);
    }

    /// Take back from the top of the trail what `save_interval_words` put there.
    pub(super) fn restore_interval_words(&mut self, trail: &mut Vec<u64>) {
        let n = trail.pop().expect("a saved interval domain") as usize;
        self.reserve_holes(n);
        let from = trail.len() - n;
        self.high[1..=n].copy_from_slice(&trail[from..]);
        self.high[0] = n as u64;
        trail.truncate(from);
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::{Domain, EmptyDomain, Event, BITSET_MAX_SPAN, MAX_SPAN, MAX_VALUE};
    use crate::rng::Rng;
    use crate::store::{Store, VarId};
    use crate::Conflict;
    use std::collections::BTreeSet;

    /// The obvious model of a wide domain: bounds minus a set of removed values.
    #[derive(Clone, Debug)]
    struct Model {
        lo: i64,
        hi: i64,
        removed: BTreeSet<i64>,
    }

    impl Model {
        fn contains(&self, v: i64) -> bool {
            self.lo <= v && v <= self.hi && !self.removed.contains(&v)
        }
        fn size(&self) -> i64 {
            if self.lo > self.hi {
                return 0;
            }
            let inside = self.removed.range(self.lo..=self.hi).count() as i64;
            (self.hi - self.lo + 1 - inside).max(0)
        }
        /// Tighten the bounds onto values of the domain.
        fn normalise(&mut self) {
            while self.lo <= self.hi && self.removed.contains(&self.lo) {
                self.lo += 1;
            }
            while self.hi >= self.lo && self.removed.contains(&self.hi) {
                self.hi -= 1;
            }
        }
        fn next_from(&self, v: i64) -> Option<i64> {
            (v.max(self.lo)..=self.hi).find(|&w| self.contains(w))
        }
        fn prev_from(&self, v: i64) -> Option<i64> {
            (self.lo..=v.min(self.hi)).rev().find(|&w| self.contains(w))
        }
    }

    fn check_same(d: &Domain, m: &Model, probes: &[i64], what: &str) {
        assert!(d.is_interval(), "{what}");
        assert_eq!(d.size() as i64, m.size(), "{what}: size of {d:?} vs {m:?}");
        assert_eq!(
            (d.min() as i64, d.max() as i64),
            (m.lo, m.hi),
            "{what}: bounds"
        );
        for &v in probes {
            assert_eq!(d.contains_wide(v), m.contains(v), "{what}: contains {v}");
            if let Ok(v) = i32::try_from(v) {
                assert_eq!(
                    d.next_from(v).map(i64::from),
                    m.next_from(v as i64),
                    "{what}: next_from {v}"
                );
                assert_eq!(
                    d.prev_from(v).map(i64::from),
                    m.prev_from(v as i64),
                    "{what}: prev_from {v}"
                );
            }
        }
        // The ranges cover exactly the values.
        let ranges = d.ranges();
        let total: i64 = ranges.iter().map(|&(a, b)| b as i64 - a as i64 + 1).sum();
        assert_eq!(total, m.size(), "{what}: ranges {ranges:?}");
        for w in ranges.windows(2) {
            assert!(
                w[0].1 as i64 + 1 < w[1].0 as i64,
                "{what}: ranges not maximal {ranges:?}"
            );
        }
        for &(a, b) in &ranges {
            assert!(
                m.contains(a as i64) && m.contains(b as i64),
                "{what}: {ranges:?}"
            );
        }
    }

    /// After one operation on the store and the same on the model: an emptied model must be
    /// a failure, undone by popping the level (false: the step is over); otherwise a
    /// success that leaves the store's domain equal to the model (true).
    fn step_agrees(
        store: &mut Store,
        x: VarId,
        model: &mut Model,
        saved: &mut Vec<Model>,
        result: Result<(), Conflict>,
        probes: &[i64],
        what: &str,
    ) -> bool {
        if model.size() == 0 {
            assert!(result.is_err(), "{what}: should fail");
            store.pop_level();
            *model = saved.pop().unwrap();
            check_same(store.domain(x), model, probes, what);
            return false;
        }
        assert!(result.is_ok(), "{what}: failed");
        check_same(store.domain(x), model, probes, what);
        true
    }

    /// Random operations at random trail levels, on wide domains (anywhere in the 32-bit
    /// range, close to its ends too), against the model: the same answers, events, values,
    /// and after each backtrack the same state as before the level was opened.
    #[test]
    fn interval_domain_matches_a_model_with_backtracking() {
        let mut rng = Rng::new(21);
        for trial in 0..400 {
            // Interesting values: a few anchors across the range, and their neighbours.
            let anchors: Vec<i64> = (0..4)
                .map(|_| match rng.below(5) {
                    0 => i32::MIN as i64,
                    1 => MAX_VALUE as i64,
                    _ => i32::MIN as i64 + rng.below(MAX_SPAN as u64) as i64,
                })
                .collect();
            let pick = |rng: &mut Rng| -> i64 {
                let a = anchors[rng.below(anchors.len() as u64) as usize];
                (a + rng.below(11) as i64 - 5).clamp(i32::MIN as i64, MAX_VALUE as i64)
            };
            let (mut lo, mut hi) = (pick(&mut rng), pick(&mut rng));
            if lo > hi {
                std::mem::swap(&mut lo, &mut hi);
            }
            if hi - lo < BITSET_MAX_SPAN {
                lo = i32::MIN as i64;
                hi = MAX_VALUE as i64;
            }
            if trial % 3 == 0 {
                // Created from values: the gaps between them are holes from the start.
                let mut values: Vec<i32> = (0..6).map(|_| pick(&mut rng) as i32).collect();
                values.extend([lo as i32, hi as i32]);
                let d = Domain::from_values(&values);
                let distinct: BTreeSet<i32> = values.iter().copied().collect();
                assert!(d.is_interval());
                assert_eq!(d.size() as usize, distinct.len());
                assert!(
                    d.iter().eq(distinct.iter().copied()),
                    "{d:?} vs {distinct:?}"
                );
                continue;
            }
            let mut store = Store::new();
            let x = store.new_var(Domain::interval(lo as i32, hi as i32));
            let mut model = Model {
                lo,
                hi,
                removed: BTreeSet::new(),
            };
            store.watch(x, Event::Domain, 0);
            let probes: Vec<i64> = anchors
                .iter()
                .flat_map(|&a| a - 7..=a + 7)
                .chain([lo - 1, lo, hi, hi + 1])
                .collect();
            let mut saved: Vec<Model> = Vec::new();
            check_same(store.domain(x), &model, &probes, "start");
            for step in 0..30 {
                if !saved.is_empty() && rng.below(4) == 0 {
                    store.pop_level();
                    model = saved.pop().unwrap();
                    check_same(store.domain(x), &model, &probes, "after pop");
                    continue;
                }
                store.push_level();
                saved.push(model.clone());
                let v = pick(&mut rng);
                let before = model.clone();
                let (result, what) = match rng.below(5) {
                    0 | 1 => {
                        model.removed.insert(v);
                        (store.remove(x, v as i32).map(|_| ()), "remove")
                    }
                    2 => {
                        model.lo = model.lo.max(v);
                        (store.set_min(x, v as i32).map(|_| ()), "set_min")
                    }
                    3 => {
                        model.hi = model.hi.min(v);
                        (store.set_max(x, v as i32).map(|_| ()), "set_max")
                    }
                    _ => {
                        if model.contains(v) {
                            model.lo = v;
                            model.hi = v;
                        } else {
                            model.hi = model.lo - 1;
                        }
                        (store.fix(x, v as i32).map(|_| ()), "fix")
                    }
                };
                model.normalise();
                let what = format!("trial {trial} step {step}: {what} {v} on {before:?}");
                if !step_agrees(
                    &mut store, x, &mut model, &mut saved, result, &probes, &what,
                ) {
                    continue;
                }
                let mut events = Vec::new();
                store.take_modified(&mut events);
                let expected = if model.size() == before.size() {
                    None
                } else if model.size() == 1 {
                    Some(Event::Fixed)
                } else if (model.lo, model.hi) != (before.lo, before.hi) {
                    Some(Event::Bounds)
                } else {
                    Some(Event::Domain)
                };
                assert_eq!(events.first().map(|e| e.1), expected, "{what}");
            }
            while !saved.is_empty() {
                store.pop_level();
                model = saved.pop().unwrap();
                check_same(store.domain(x), &model, &probes, "unwinding");
            }
        }
    }

    /// The layout's invariants: holes sorted, not touching, strictly inside the bounds, and
    /// the size their complement.
    fn check_layout(d: &Domain, what: &str) {
        let holes: Vec<(i32, i32)> = d.holes().collect();
        let mut size = d.max as i64 - d.min as i64 + 1;
        for (i, &(a, b)) in holes.iter().enumerate() {
            assert!(
                d.min < a && a <= b && b < d.max,
                "{what}: hole {a}..={b} in {d:?}"
            );
            if i > 0 {
                assert!(holes[i - 1].1 + 1 < a, "{what}: holes {holes:?}");
            }
            size -= b as i64 - a as i64 + 1;
        }
        assert_eq!(size, d.size as i64, "{what}: size");
    }

    /// Many holes close together (as an element constraint's result gets): random removals
    /// of values and of ranges, bounds, `retain`, intersections with bitsets and with other
    /// interval domains, at random trail levels, against the model; the layout's invariants
    /// after each step, and after each backtrack the state from before the level.
    #[test]
    fn many_holes_match_a_model_with_backtracking() {
        let mut rng = Rng::new(7);
        let (lo, hi) = (-3i64, BITSET_MAX_SPAN + 100);
        // Most values picked near the bottom, where the holes crowd; some near the top.
        let pick = |rng: &mut Rng| -> i64 {
            match rng.below(8) {
                0 => hi - rng.below(40) as i64,
                _ => lo + rng.below(300) as i64,
            }
        };
        let probes: Vec<i64> = (lo - 2..lo + 305).chain(hi - 45..=hi + 2).collect();
        for trial in 0..60 {
            let mut store = Store::new();
            let x = store.new_var(Domain::interval(lo as i32, hi as i32));
            let mut model = Model {
                lo,
                hi,
                removed: BTreeSet::new(),
            };
            let mut saved: Vec<Model> = Vec::new();
            for step in 0..300 {
                if !saved.is_empty() && rng.below(6) == 0 {
                    store.pop_level();
                    model = saved.pop().unwrap();
                    check_same(store.domain(x), &model, &probes, "after pop");
                    check_layout(store.domain(x), "after pop");
                    continue;
                }
                store.push_level();
                saved.push(model.clone());
                let before = model.clone();
                let (v, w) = (pick(&mut rng), pick(&mut rng));
                let (a, b) = (v.min(w), v.min(w) + rng.below(6) as i64);
                let result = match rng.below(7) {
                    0 | 1 => {
                        model.removed.insert(v);
                        store.remove(x, v as i32).map(|_| ())
                    }
                    2 => {
                        // A range out: intersect with the two sides (`from_ranges`
                        // removes the gap between them, `intersect` merges).
                        model.removed.extend(a..=b);
                        let sides = Domain::from_ranges(&[
                            (lo as i32, a as i32 - 1),
                            (b as i32 + 1, hi as i32),
                        ]);
                        store.intersect(x, &sides).map(|_| ())
                    }
                    3 => {
                        model.lo = model.lo.max(a);
                        model.hi = model.hi.min(hi - rng.below(20) as i64);
                        let top = model.hi as i32;
                        store
                            .set_min(x, a as i32)
                            .and_then(|_| store.set_max(x, top))
                            .map(|_| ())
                    }
                    4 => {
                        // Keep the values of the crowded window not divisible by `k`.
                        let k = 2 + rng.below(5) as i64;
                        let top = lo + 320;
                        model.removed.extend((lo..=top).filter(|v| v % k == 0));
                        store
                            .retain(x, |v| v as i64 > top || v as i64 % k != 0)
                            .map(|_| ())
                    }
                    _ => {
                        // Intersect with values listed (an element's support): a bitset
                        // in the crowded window, or a wide domain that keeps some values
                        // of both windows and everything between them.
                        let values: Vec<i32> = (0..40).map(|_| pick(&mut rng) as i32).collect();
                        let keep: BTreeSet<i64> = values.iter().map(|&v| v as i64).collect();
                        let bottom = lo + 300;
                        let other = if rng.below(2) == 0 {
                            let low: Vec<i32> = values
                                .iter()
                                .copied()
                                .filter(|&v| (v as i64) <= bottom)
                                .chain([lo as i32 + 1])
                                .collect();
                            model.lo = model.lo.max(*low.iter().min().unwrap() as i64);
                            model.hi = model.hi.min(*low.iter().max().unwrap() as i64);
                            Domain::from_values(&low)
                        } else {
                            let mut ranges: Vec<(i32, i32)> = keep
                                .iter()
                                .filter(|&&v| v <= bottom)
                                .map(|&v| (v as i32, v as i32))
                                .collect();
                            ranges.push((bottom as i32 + 1, hi as i32 - 46));
                            ranges.extend(
                                (keep.iter().filter(|&&v| v > bottom))
                                    .map(|&v| (v as i32, v as i32)),
                            );
                            model.lo = model.lo.max(ranges[0].0 as i64);
                            model.hi = model.hi.min(ranges[ranges.len() - 1].1 as i64);
                            Domain::from_ranges(&ranges)
                        };
                        let removed: Vec<i64> = probes
                            .iter()
                            .copied()
                            .filter(|&v| !other.contains_wide(v))
                            .collect();
                        model.removed.extend(removed);
                        store.intersect(x, &other).map(|_| ())
                    }
                };
                model.normalise();
                let what = format!("trial {trial} step {step} on {before:?}");
                if !step_agrees(
                    &mut store, x, &mut model, &mut saved, result, &probes, &what,
                ) {
                    continue;
                }
                check_layout(store.domain(x), &what);
            }
        }
    }

    #[test]
    fn sizes_and_printing_over_the_whole_range() {
        let mut d = Domain::interval(i32::MIN, MAX_VALUE);
        assert!(d.is_interval() && !d.is_single_word() && d.as_word().is_none());
        assert_eq!(d.size(), u32::MAX);
        assert_eq!(d.remove(0), Ok(Some(Event::Domain)));
        assert_eq!(d.remove_below(-1_000_000_000), Ok(Some(Event::Bounds)));
        assert_eq!(d.remove_above(1_000_000_000), Ok(Some(Event::Bounds)));
        assert_eq!(d.size(), 2_000_000_000);
        assert_eq!(format!("{d:?}"), "{-1000000000..-1, 1..1000000000}");
        // Removing a range across a hole counts the hole once.
        assert_eq!(d.remove_below(1), Ok(Some(Event::Bounds)));
        assert_eq!((d.min(), d.size()), (1, 1_000_000_000));
        assert_eq!(d.remove(2), Ok(Some(Event::Domain)));
        assert_eq!(d.remove(1), Ok(Some(Event::Bounds)));
        assert_eq!(d.min(), 3);
        assert_eq!(d.fix(7), Ok(Some(Event::Fixed)));
        assert_eq!(d.remove(7), Err(EmptyDomain));
        let sparse = Domain::from_values(&[-1_000_000_000, 5, 1_000_000_000]);
        assert_eq!(format!("{sparse:?}"), "{-1000000000, 5, 1000000000}");
        assert_eq!(
            sparse.values().as_slice(),
            &[-1_000_000_000, 5, 1_000_000_000]
        );
        assert_eq!(sparse.next_from(6), Some(1_000_000_000));
        assert_eq!(sparse.prev_from(4), Some(-1_000_000_000));
    }

    #[test]
    fn intersections_and_masks_with_interval_domains() {
        let wide = || Domain::interval(-1_000_000, 1_000_000);
        let mut d = wide();
        assert_eq!(d.intersect_mask(10, 0b1011), Ok(Some(Event::Bounds)));
        assert_eq!(format!("{d:?}"), "{10..11, 13}");
        assert_eq!(d.mask_from(10), 0b1011);
        assert_eq!(d.mask_from(i32::MAX), 0);
        let mut d = wide();
        assert_eq!(
            d.intersect(&Domain::from_values(&[-5, 0, 7])),
            Ok(Some(Event::Bounds))
        );
        assert_eq!(format!("{d:?}"), "{-5, 0, 7}");
        let mut holes = wide();
        holes.remove(3).unwrap();
        holes.remove_below(-10).unwrap();
        let mut d = wide();
        assert_eq!(d.intersect(&holes), Ok(Some(Event::Bounds)));
        assert_eq!(format!("{d:?}"), "{-10..2, 4..1000000}");
        assert!(d == holes);
        let mut small = Domain::interval(0, 9);
        assert_eq!(small.intersect(&holes), Ok(Some(Event::Domain)));
        assert_eq!(format!("{small:?}"), "{0..2, 4..9}");
        // Retain: runs of removed values become holes.
        let mut d = Domain::interval(0, 100_000);
        d.remove_above(20).unwrap();
        assert_eq!(d.retain(|v| v % 5 != 1), Ok(Some(Event::Domain)));
        assert_eq!(format!("{d:?}"), "{0, 2..5, 7..10, 12..15, 17..20}");
        // The bits of the first word stand for values an interval never holds.
        assert_eq!(d.remove_first_word_bits(!0), Ok(None));
        let mut copy = Domain::interval(0, 3);
        copy.clone_from(&d);
        assert!(copy == d && copy.is_interval());
    }
}
