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
//! below that node), so a removal that "succeeds" must really remove. The holes are few in
//! practice (only removals inside the bounds make them, and a bound that moves past a hole
//! makes it irrelevant), so each operation simply walks the list: O(holes).
//!
//! **Where they live, and how the trail restores them.** In the domain's `high` words: the
//! first is the number of holes in force, and each word after it one hole, its first and
//! last values packed in the two halves. The list is append-only along a branch: a new hole
//! is written after the holes in force (the box grows when full). The trail saves and
//! restores the first word only (`Domain::high_words` shows it no more), as it does the
//! words of any wide domain: going back to a node restores the number of holes, and the
//! holes past it (of an abandoned branch) are overwritten by the next push. Holes are disjoint, and each lies strictly
//! inside the bounds when it is made; bounds only ever land on values in the domain, so a
//! hole is later either still strictly inside the bounds or wholly outside them.
//!
//! The operations below are `#[cold]` and never inlined: the bitset's fast paths reach them
//! through one branch they seldom take, and must not grow by their code.
//!
//! **Invariants** (with `n = high[0]`): `offset == i32::MAX` and `low == 0`, so that the
//! single-word test of `contains` answers "no" (an interval never holds `i32::MAX`, see
//! [`super::MAX_VALUE`]) and `is_interval` is one comparison; `high[1..=n]` are disjoint;
//! `min` and `max` are values of the domain (in no hole); `size` is `max - min + 1` minus
//! the values of the holes strictly between them.

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
        for pair in values.windows(2) {
            if pair[1] > pair[0] + 1 {
                self.push_hole(pair[0] + 1, pair[1] - 1);
            }
        }
        self.size = values.len() as u32;
    }

    /// The holes in force (some may lie outside the bounds, where they no longer matter).
    fn holes_in_force(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let n = if self.is_interval() {
            self.high[0] as usize
        } else {
            0
        };
        self.high[1..=n].iter().map(|&w| unpack(w))
    }

    fn push_hole(&mut self, first: i32, last: i32) {
        debug_assert!(self.is_interval());
        let n = self.high[0] as usize;
        if n + 1 == self.high.len() {
            // Full: a box twice as long. The trail holds only `high[0]`, so it does not mind.
            let mut bigger = vec![0; 2 * self.high.len()];
            bigger[..self.high.len()].copy_from_slice(&self.high);
            self.high = bigger.into_boxed_slice();
        }
        self.high[n + 1] = pack(first, last);
        self.high[0] += 1;
    }

    #[cold]
    #[inline(never)]
    pub(super) fn interval_contains(&self, v: i64) -> bool {
        v >= self.min as i64
            && v <= self.max as i64
            && self.size != 0
            && !self
                .holes_in_force()
                .any(|(a, b)| a as i64 <= v && v <= b as i64)
    }

    /// The smallest value of the domain `>= v`; the caller knows there is one.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_up(&self, mut v: i32) -> i32 {
        'again: loop {
            for (a, b) in self.holes_in_force() {
                if a <= v && v <= b {
                    v = b + 1;
                    continue 'again;
                }
            }
            return v;
        }
    }

    /// The largest value of the domain `<= v`; the caller knows there is one.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_down(&self, mut v: i32) -> i32 {
        'again: loop {
            for (a, b) in self.holes_in_force() {
                if a <= v && v <= b {
                    v = a - 1;
                    continue 'again;
                }
            }
            return v;
        }
    }

    /// The holes strictly inside the bounds, sorted.
    fn holes_inside(&self) -> SmallVec<[(i32, i32); 8]> {
        let mut inside: SmallVec<[(i32, i32); 8]> = self
            .holes_in_force()
            .filter(|&(a, b)| a > self.min && b < self.max)
            .collect();
        inside.sort_unstable();
        inside
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
        for (a, b) in self.holes_inside() {
            // Holes made one after the other may touch: no empty range between them.
            if a > from {
                ranges.push((from, a - 1));
            }
            from = b + 1;
        }
        ranges.push((from, self.max));
        ranges
    }

    /// Remove every value of `first..=last`: the one shrinking operation of an interval
    /// domain, which `remove`, `remove_below` and `remove_above` come down to.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_remove_range(&mut self, first: i32, last: i32) -> Change {
        let (a, b) = (first.max(self.min), last.min(self.max));
        if a > b {
            return Ok(None);
        }
        let overlap: i64 = self
            .holes_in_force()
            .map(|(x, y)| (y.min(b) as i64 - x.max(a) as i64 + 1).max(0))
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
        if a == self.min {
            // `b < max`, or every value would have gone.
            self.min = self.interval_up(b + 1);
        } else if b == self.max {
            self.max = self.interval_down(a - 1);
        } else {
            // Strictly inside: the parts of `a..=b` not yet in a hole become holes.
            let mut covered: SmallVec<[(i32, i32); 8]> = self
                .holes_in_force()
                .filter(|&(x, y)| x <= b && y >= a)
                .collect();
            covered.sort_unstable();
            let mut from = a;
            for (x, y) in covered {
                if x > from {
                    self.push_hole(from, x - 1);
                }
                from = y + 1;
            }
            if from <= b {
                self.push_hole(from, b);
            }
        }
        self.event_after(old_min, old_max)
    }

    /// `retain` on an interval domain: visits every value, removing the runs not kept.
    #[cold]
    #[inline(never)]
    pub(super) fn interval_retain(&mut self, mut keep: impl FnMut(i32) -> bool) -> Change {
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        let mut runs: Vec<(i32, i32)> = Vec::new();
        for (a, b) in self.interval_ranges() {
            let mut run_from = None;
            for v in a..=b {
                if !keep(v) {
                    run_from.get_or_insert(v);
                } else if let Some(from) = run_from.take() {
                    runs.push((from, v - 1));
                }
            }
            if let Some(from) = run_from {
                runs.push((from, b));
            }
        }
        for (a, b) in runs {
            self.interval_remove_range(a, b)?;
        }
        if self.size == old_size {
            return Ok(None);
        }
        self.event_after(old_min, old_max)
    }

    /// `intersect` when either domain is an interval one: bounds first, then the holes of
    /// `other` (or, for a bitset `other`, the at most `BITSET_MAX_SPAN` values left).
    #[cold]
    #[inline(never)]
    pub(super) fn intersect_wide(&mut self, other: &Domain) -> Change {
        if !self.is_interval() {
            return self.retain(|v| other.contains(v));
        }
        let (old_min, old_max, old_size) = (self.min, self.max, self.size);
        self.remove_below(other.min)?;
        self.remove_above(other.max)?;
        if other.is_interval() {
            for (a, b) in other.holes_in_force() {
                if a > other.min && b < other.max {
                    self.interval_remove_range(a, b)?;
                }
            }
        } else {
            self.interval_retain(|v| other.contains(v))?;
        }
        if self.size == old_size {
            return Ok(None);
        }
        self.event_after(old_min, old_max)
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::{Domain, EmptyDomain, Event, BITSET_MAX_SPAN, MAX_SPAN, MAX_VALUE};
    use crate::rng::Rng;
    use crate::store::Store;
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
                if model.size() == 0 {
                    assert!(result.is_err(), "{what}: should fail");
                    store.pop_level();
                    model = saved.pop().unwrap();
                    check_same(store.domain(x), &model, &probes, &what);
                    continue;
                }
                assert!(result.is_ok(), "{what}: failed");
                check_same(store.domain(x), &model, &probes, &what);
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
