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
//! |D(result)|·log m) per run, m = number of distinct entries. No allocation per run: the
//! distinct entries are sorted once, and a scratch mark per distinct entry is reused.
//!
//! **Reference** (`propagate_from_scratch`): the two rules with plain sets, no scratch; the
//! engine's runs (`propagate`) reuse scratch arrays and are tested against it.

use crate::conflict::Conflict;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
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
            keep_position: vec![false; array.len()],
            distinct,
            rank,
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
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (index, result) = (self.index, self.result);
        // 1. Positions: inside the array, and showing a value of `result`.
        ctx.set_min(index, 0)?;
        ctx.set_max(
            index,
            (self.array.len() as i64 - 1).min(i32::MAX as i64) as i32,
        )?;
        // (Decide first, prune second: the two domains cannot be borrowed at once.)
        let mut drop_some = false;
        for i in ctx.domain(index).iter() {
            let keep = ctx.contains(result, self.array[i as usize]);
            self.keep_position[i as usize] = keep;
            drop_some |= !keep;
        }
        if drop_some {
            let keep = &self.keep_position;
            ctx.retain(index, |i| keep[i as usize])?;
        }
        // 2. Values: shown by a position left.
        self.shown.iter_mut().for_each(|s| *s = false);
        for i in ctx.domain(index).iter() {
            self.shown[self.rank[i as usize] as usize] = true;
        }
        let (distinct, shown) = (&self.distinct, &self.shown);
        if ctx.domain(result).is_interval() {
            // A wide result (a MiniZinc model's): intersect with the values shown, never
            // visiting the result's own values one by one.
            let values: Vec<i32> = (distinct.iter().zip(shown.iter()))
                .filter(|&(_, &s)| s)
                .map(|(&v, _)| v)
                .collect();
            if values.is_empty() {
                return Err(Conflict::new());
            }
            ctx.intersect(result, &Domain::from_values(&values))?;
        } else {
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
