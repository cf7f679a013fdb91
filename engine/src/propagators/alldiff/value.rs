//! # All-different by forward checking (value consistency)
//!
//! **Enforces:** when `xᵢ` is fixed to `v`, no other `xⱼ` may show `v` (with offsets: no
//! `xⱼ + oⱼ = v + oᵢ`). That is all: it does not notice that three variables share two
//! values (that is `bounds.rs` and `domain.rs`). It is what a person does first in a Sudoku,
//! and on n-queens it is as strong as anything cheap.
//!
//! **Incremental:** `notify` records which variables became fixed; `propagate` handles just
//! those. When removing a value fixes another variable, that one is handled in the same run,
//! so one run reaches the propagator's fixpoint (it is idempotent). `propagate_from_scratch`
//! handles every fixed variable: the reference the tests compare against.
//!
//! **Wakes on:** fixed. **Cost:** O(n) per newly fixed variable. Entailed when all are fixed.
//!
//! **Why it is written in two phases.** Most of the time the value being removed is already
//! gone from most of the other variables, and which ones still hold it is unpredictable. A
//! loop `if contains { remove }` then mispredicts a branch on most variables, and on
//! n-queens that was half of the whole run time. So the loop first computes, with no branch,
//! a bitmask of the positions that still hold the value (one bit test per variable, `OR`ed
//! into a word), and only then visits the set bits of that mask to remove the value. Cost
//! per variable: a load, a shift, an `OR`; the expensive part (trail, events) is paid only
//! where something is removed.

use crate::domain::Event;
use crate::propagator::{Condition, Context, PropResult, Propagator, Subscription};
use crate::store::VarId;

#[derive(Clone, Debug)]
pub struct AllDifferentValue {
    xs: Vec<VarId>,
    offsets: Vec<i32>,
    /// Local indices of variables fixed since the last run.
    pending: Vec<u32>,
}

impl AllDifferentValue {
    pub fn new(xs: &[VarId], offsets: &[i32]) -> AllDifferentValue {
        AllDifferentValue {
            xs: xs.to_vec(),
            offsets: offsets.to_vec(),
            pending: Vec::new(),
        }
    }

    /// Remove the values of the fixed variables in `self.pending` (and of any variable this
    /// fixes in turn) from the others.
    fn process_pending(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.xs.len();
        while let Some(i) = self.pending.pop() {
            let i = i as usize;
            let shown = ctx.value(self.xs[i]) as i64 + self.offsets[i] as i64;
            // The positions, 64 at a time, that still hold the value `shown` (shifted back
            // by each one's offset).
            for chunk in (0..n).step_by(64) {
                let end = (chunk + 64).min(n);
                let mut holders = 0u64;
                let domains = ctx.domains();
                let positions = self.xs[chunk..end].iter().zip(&self.offsets[chunk..end]);
                for (k, (&x, &offset)) in positions.enumerate() {
                    let holds = domains[x.index()].contains_wide(shown - offset as i64);
                    holders |= (holds as u64) << k;
                }
                if (chunk..end).contains(&i) {
                    holders &= !(1u64 << (i - chunk));
                }
                while holders != 0 {
                    let j = chunk + holders.trailing_zeros() as usize;
                    holders &= holders - 1;
                    let x = self.xs[j];
                    ctx.remove(x, (shown - self.offsets[j] as i64) as i32)?;
                    if ctx.is_fixed(x) {
                        self.pending.push(j as u32);
                    }
                }
            }
        }
        Ok(())
    }
}

impl Propagator for AllDifferentValue {
    fn name(&self) -> &'static str {
        "alldiff_value"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        self.xs
            .iter()
            .map(|&x| Subscription::new(x, Condition::Fixed))
            .collect()
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn notify(&mut self, local: usize, _event: Event) -> bool {
        self.pending.push(local as u32);
        true
    }
    fn clear_pending(&mut self) {
        self.pending.clear();
    }
    fn propagate_from_scratch(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.pending.clear();
        for (i, &x) in self.xs.iter().enumerate() {
            if ctx.is_fixed(x) {
                self.pending.push(i as u32);
            }
        }
        self.process_pending(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.process_pending(ctx)
    }
    fn clone_box(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}
