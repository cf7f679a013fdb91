//! # Element over variables: `result = array[index]` where the entries are variables
//!
//! **Enforces:** `index ∈ offset..offset+n` and `result = array[index - offset]` for an
//! array of variables (FlatZinc's `array_var_int_element`, 1-based: `offset = 1`).
//!
//! **Algorithm.** (1) Remove from `index` every position whose entry shares no value with
//! `result`. (2) Keep in `result` only the values of the entries still indexed. (3) Once
//! `index` is fixed, the chosen entry and `result` are equal: intersect their domains.
//! Worked example: entries `x₁ ∈ {1, 2}`, `x₂ ∈ {5}`, `result ∈ {2, 3}`: position 2 goes,
//! `index = 1`, then `x₁ = result = 2`.
//!
//! **Consistency:** domain on `index` and `result`; an entry is pruned only once `index`
//! is fixed (the usual choice: while `index` is free, every value of an entry is supported
//! by a solution in which another position is chosen). The harness checks it as sound and
//! checking.
//!
//! **Wakes on:** any removal. **Cost:** O(Σ |D(entryᵢ)| + |D(result)|) per run.

use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

#[derive(Clone, Debug)]
pub struct ElementVar {
    index: VarId,
    offset: i32,
    array: Vec<VarId>,
    result: VarId,
}

impl ElementVar {
    pub fn new(index: VarId, offset: i32, array: &[VarId], result: VarId) -> ElementVar {
        ElementVar {
            index,
            offset,
            array: array.to_vec(),
            result,
        }
    }

    /// (3) A fixed index makes the entry equal to `result`.
    fn propagate_fixed_index(&self, ctx: &mut Context<'_>) -> PropResult {
        let index = self.index;
        if ctx.is_fixed(index) {
            let x = self.array[(ctx.value(index) as i64 - self.offset as i64) as usize];
            let rd: Domain = ctx.domain(self.result).clone();
            ctx.intersect(x, &rd)?;
            let xd: Domain = ctx.domain(x).clone();
            ctx.intersect(self.result, &xd)?;
        }
        Ok(())
    }
}

impl Propagator for ElementVar {
    fn name(&self) -> &'static str {
        "element_var"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs = vec![
            Subscription::new(self.index, Condition::Domain),
            Subscription::new(self.result, Condition::Domain),
        ];
        subs.extend(
            self.array
                .iter()
                .map(|&x| Subscription::new(x, Condition::Domain)),
        );
        subs
    }
    fn priority(&self) -> Priority {
        Priority::Medium
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.array.len() as i64;
        let offset = self.offset as i64;
        let (index, result) = (self.index, self.result);
        ctx.retain(index, |i| (i as i64) >= offset && (i as i64) < offset + n)?;
        let entry = |i: i32| self.array[(i as i64 - offset) as usize];
        let positions: Vec<i32> = ctx.domain(index).iter().collect();
        let wide = |x: VarId| ctx.domain(x).is_interval();
        if wide(result) || positions.iter().any(|&i| wide(entry(i))) {
            // Wide domains (a MiniZinc model's), never visited value by value: (1) and (2)
            // on the bounds only, which is sound, and (3) below makes it checking.
            let (lo, hi) = (ctx.min(result), ctx.max(result));
            let overlaps = |x: VarId| ctx.min(x) <= hi && ctx.max(x) >= lo;
            let keep: Vec<i32> = positions
                .into_iter()
                .filter(|&i| overlaps(entry(i)))
                .collect();
            ctx.retain(index, |i| keep.binary_search(&i).is_ok())?;
            let lowest = keep.iter().map(|&i| ctx.min(entry(i))).min();
            let highest = keep.iter().map(|&i| ctx.max(entry(i))).max();
            if let (Some(lowest), Some(highest)) = (lowest, highest) {
                ctx.set_min(result, lowest)?;
                ctx.set_max(result, highest)?;
            }
            return self.propagate_fixed_index(ctx);
        }
        // (1) positions whose entry meets `result`.
        let mut keep: Vec<i32> = Vec::with_capacity(positions.len());
        for &i in &positions {
            let x = entry(i);
            let meets = ctx.domain(x).iter().any(|v| ctx.contains(result, v));
            if meets {
                keep.push(i);
            }
        }
        ctx.retain(index, |i| keep.binary_search(&i).is_ok())?;
        // (2) `result` within the union of the entries left.
        let mut union: Vec<i32> = Vec::new();
        for &i in &keep {
            union.extend(
                ctx.domain(entry(i))
                    .iter()
                    .filter(|&v| ctx.contains(result, v)),
            );
        }
        union.sort_unstable();
        union.dedup();
        ctx.retain(result, |v| union.binary_search(&v).is_ok())?;
        self.propagate_fixed_index(ctx)
    }
}
