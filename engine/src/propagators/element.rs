//! # Element: `result = array[index]` for a constant array
//!
//! **Enforces:** `index` is a position of `array` (0-based) and `result` equals the entry
//! there. It is how a model looks a value up in a table: the size of the region a cell
//! belongs to, the cost of choosing option `index`, ...
//!
//! **Algorithm.** Keep in `index` the positions `i` whose entry `array[i]` is still a value
//! of `result`; keep in `result` the entries of the positions left in `index`. Worked
//! example: `array = [5, 7, 5, 9]`, `index ∈ 0..3`, `result ∈ {5, 6, 9}`: position 1 (entry
//! 7) goes, so `index ∈ {0, 2, 3}`, and `result` keeps `{5, 9}` (nothing shows 6).
//!
//! **Consistency: domain.** After the two steps every position left shows a value left and
//! every value left is shown by a position left, so one run is the fixpoint (idempotent).
//!
//! **Wakes on:** any domain change of either variable. **Cost:** O(|D(index)| +
//! |D(result)|·log m) per run, m = number of distinct entries. No allocation per run on a
//! bitset result: the distinct entries are sorted once, and a scratch mark per distinct
//! entry is reused.
//!
//! **A wide result** (an interval with holes, `domain/interval.rs`: a cost in `0..10^6`)
//! is never visited value by value. Its values are its sorted ranges, so with many
//! positions left one merge of the sorted distinct entries with those ranges says which
//! entries are still values, O(m + ranges), instead of a binary search per position; and
//! the result is intersected with the sorted entries shown (those of the few positions
//! left, sorted, or those the marks say), one merge again. Both steps read the index
//! domain in one pass, and the second is skipped when as many values are shown as the
//! result has (each value shown is one of its values, so none would go).
//!
//! **Reference** (`propagate_from_scratch`): the two rules with plain sets, no scratch; the
//! engine's runs (`propagate`) reuse scratch arrays and are tested against it.

use crate::atom::Atom;
use crate::conflict::Conflict;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::{no_partner, split_atom};
use crate::store::VarId;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
pub struct Element {
    index: VarId,
    result: VarId,
    array: Vec<i32>,
    /// The distinct entries of `array`, sorted.
    distinct: Vec<i32>,
    /// For each position, the rank of its entry in `distinct`.
    rank: Vec<u32>,
    /// Scratch: is distinct entry `r` shown by a position still in `index`?
    shown: Vec<bool>,
    /// Scratch: the entries of the positions kept, when few are (for a wide result).
    values: Vec<i32>,
    /// Scratch: is distinct entry `r` a value of `result` (filled by a merge, for a wide
    /// result)?
    entry_in_result: Vec<bool>,
    /// Scratch: does position `i` still show a value of `result`?
    keep_position: Vec<bool>,
}

impl Element {
    pub fn new(index: VarId, array: &[i32], result: VarId) -> Element {
        let mut distinct = array.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let rank = array
            .iter()
            .map(|v| distinct.binary_search(v).expect("entry") as u32)
            .collect();
        Element {
            index,
            result,
            array: array.to_vec(),
            shown: vec![false; distinct.len()],
            entry_in_result: vec![false; distinct.len()],
            values: Vec::new(),
            keep_position: vec![false; array.len()],
            distinct,
            rank,
        }
    }
}

impl Element {
    /// Push why position `i` cannot be the index: outside the array (no reason needed), or
    /// its entry not a value of the result's input.
    fn position_excluded(&self, inputs: &[Domain], i: i32, reason: &mut Vec<Atom>) -> bool {
        match usize::try_from(i).ok().and_then(|i| self.array.get(i)) {
            None => true,
            Some(&entry) => no_partner(self.result, &inputs[1], entry as i64, reason),
        }
    }

    /// Push why no position holding `v` can be the index (each gone from its input).
    fn value_unheld(&self, inputs: &[Domain], v: i32, reason: &mut Vec<Atom>) -> bool {
        (self.array.iter().enumerate())
            .filter(|&(_, &entry)| entry == v)
            .all(|(p, _)| no_partner(self.index, &inputs[0], p as i64, reason))
    }
}

impl Element {
    /// `entry_in_result[r]`: is distinct entry `r` a value of `result`? One merge of the
    /// sorted entries with the result's sorted ranges, from its min to its max.
    fn mark_entries_in(&mut self, result: &Domain) {
        self.entry_in_result.iter_mut().for_each(|s| *s = false);
        let ranges = result.ranges();
        let from = self.distinct.partition_point(|&v| v < result.min());
        let mut k = 0;
        for (r, &v) in self.distinct.iter().enumerate().skip(from) {
            while k < ranges.len() && ranges[k].1 < v {
                k += 1;
            }
            if k == ranges.len() {
                break;
            }
            self.entry_in_result[r] = ranges[k].0 <= v;
        }
    }
}

impl Propagator for Element {
    fn name(&self) -> &'static str {
        "element"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.index, Condition::Domain),
            Subscription::new(self.result, Condition::Domain),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// The reference, the rule as the header states it with plain sets: a position stays
    /// if its entry is a value of `result`, a value stays if a position left shows it.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (index, result) = (self.index, self.result);
        ctx.set_min(index, 0)?;
        let last = (self.array.len() as i64 - 1).min(i32::MAX as i64) as i32;
        ctx.set_max(index, last)?;
        let positions: BTreeSet<i32> = ctx
            .domain(index)
            .iter()
            .filter(|&i| ctx.contains(result, self.array[i as usize]))
            .collect();
        ctx.retain(index, |i| positions.contains(&i))?;
        let shown: BTreeSet<i32> = positions.iter().map(|&i| self.array[i as usize]).collect();
        ctx.retain(result, |v| shown.contains(&v))?;
        if ctx.is_fixed(index) {
            ctx.set_entailed();
        }
        Ok(())
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    /// A position leaves the index because its entry is not a value of the result; a value
    /// leaves the result because every position holding it is gone from the index.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let (index, result) = (self.index, self.result);
        if index == result {
            return false;
        }
        let at_index = atom.var() == index;
        let own = if at_index { &inputs[0] } else { &inputs[1] };
        let Some(needed) = split_atom(atom, own, reason) else {
            return false;
        };
        needed.iter().all(|&v| {
            if at_index {
                self.position_excluded(inputs, v, reason)
            } else {
                self.value_unheld(inputs, v, reason)
            }
        })
    }
    /// Every position of the index's input lacks its entry in the result.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.index == self.result || inputs[0].size() > 256 {
            return false;
        }
        Atom::describe(self.index, &inputs[0], reason);
        inputs[0]
            .iter()
            .all(|i| self.position_excluded(inputs, i, reason))
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (index, result) = (self.index, self.result);
        // 1. Positions: inside the array, and showing a value of `result`.
        ctx.set_min(index, 0)?;
        ctx.set_max(
            index,
            (self.array.len() as i64 - 1).min(i32::MAX as i64) as i32,
        )?;
        // (Decide first, prune second: the two domains cannot be borrowed at once.)
        let index_size = ctx.domain(index).size() as usize;
        let wide = ctx.domain(result).is_interval();
        // A wide result answers `contains` by a binary search over its holes; past a few
        // positions per distinct entry, one merge of the sorted entries with its ranges
        // answers for all entries at once.
        let by_merge = wide
            && index_size * (self.distinct.len().max(1).ilog2() as usize + 1) > self.distinct.len();
        if by_merge {
            self.mark_entries_in(ctx.domain(result));
        }
        // The values shown by the positions kept, gathered in the same pass: with few
        // positions (and a wide result), their entries in a list to sort; otherwise a mark
        // per distinct entry, counted.
        let few = wide && index_size * 4 < self.distinct.len();
        self.values.clear();
        if !few {
            self.shown.iter_mut().for_each(|s| *s = false);
        }
        let mut shown_count = 0;
        let mut drop_some = false;
        for i in ctx.domain(index).iter() {
            let r = self.rank[i as usize] as usize;
            let keep = if by_merge {
                self.entry_in_result[r]
            } else {
                ctx.contains(result, self.array[i as usize])
            };
            self.keep_position[i as usize] = keep;
            drop_some |= !keep;
            if keep && few {
                self.values.push(self.array[i as usize]);
            } else if keep && !self.shown[r] {
                self.shown[r] = true;
                shown_count += 1;
            }
        }
        if drop_some {
            let keep = &self.keep_position;
            ctx.retain(index, |i| keep[i as usize])?;
        }
        // 2. Values: shown by a position left. Each value shown is a value of `result`
        // (step 1), so when as many are shown as `result` has, nothing goes.
        if few {
            self.values.sort_unstable();
            self.values.dedup();
            shown_count = self.values.len();
        }
        if shown_count == 0 {
            return Err(Conflict::new());
        }
        if shown_count == ctx.domain(result).size() as usize {
            // Nothing to remove.
        } else if wide {
            // A wide result (a MiniZinc model's): intersect with the values shown, sorted,
            // never visiting the result's own values one by one.
            if !few {
                let (distinct, shown) = (&self.distinct, &self.shown);
                self.values.extend(
                    (distinct.iter().zip(shown.iter()))
                        .filter(|&(_, &s)| s)
                        .map(|(&v, _)| v),
                );
            }
            ctx.intersect(result, &Domain::from_values(&self.values))?;
        } else {
            let (distinct, shown) = (&self.distinct, &self.shown);
            ctx.retain(result, |v| {
                distinct.binary_search(&v).is_ok_and(|r| shown[r])
            })?;
        }
        if ctx.is_fixed(index) {
            ctx.set_entailed();
        }
        Ok(())
    }
}
