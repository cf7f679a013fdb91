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
        while let Some(i) = self.pending.pop() {
            let i = i as usize;
            let shown = ctx.value(self.xs[i]) as i64 + self.offsets[i] as i64;
            for j in 0..self.xs.len() {
                if j == i {
                    continue;
                }
                let x = self.xs[j];
                let v = shown - self.offsets[j] as i64;
                if v < i32::MIN as i64 || v > i32::MAX as i64 {
                    continue;
                }
                let v = v as i32;
                if ctx.contains(x, v) {
                    ctx.remove(x, v)?;
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
