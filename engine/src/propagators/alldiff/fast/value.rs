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
//! handles every fixed variable against every other: the reference the tests compare against.
//!
//! **Wakes on:** fixed. **Cost:** O(open positions) per newly fixed variable. Entailed when
//! every position has been handled (all fixed, all different).
//!
//! **Only the open positions are scanned (a reversible sparse set).** Once a fixed variable
//! has been handled, its value is gone from every other variable, and it never needs to be
//! looked at again below this node: the positions still *open* are kept at the front of an
//! array, `open[..count]`, where `count` is a reversible integer. Handling position `i`
//! swaps it to just past the end and decrements `count`. Backtracking restores `count` only:
//! the swaps made below a node all happen inside that node's `open[..count]`, so those
//! first `count` entries are still exactly its open positions (in another order) — the same
//! idea as the valid rows of `table.rs`. Deep in the tree most variables are fixed, so the
//! scan shrinks with the depth instead of costing `n` every time.
//!
//! **Why the scan is written in two phases.** Most of the time the value being removed is
//! already gone from most of the other variables, and which ones still hold it is
//! unpredictable. A loop `if contains { remove }` then mispredicts a branch on most
//! variables, and on n-queens that was half of the whole run time. So the loop first
//! computes, with no branch, a bitmask of the open positions that still hold the value (one
//! bit test per variable, `OR`ed into a word), and only then visits the set bits of that mask
//! to remove the value. When every domain fits in one machine word (spans ≤ 64 values; it
//! is checked once per from-scratch run: a domain's layout — the value of its bit 0 and its
//! number of words — never changes, whatever is removed or restored), the bit test is a
//! subtraction, a comparison and a shift of that word, with the value that bit 0 of each
//! word stands for computed in advance (`bit0`); otherwise it is `Domain::contains_wide`.
//! The expensive part (trail, events) is paid only where something is removed.

use crate::domain::Event;
use crate::propagator::{
    Condition, Context, EnqueueDecision, PostContext, PropResult, Propagator, Subscription,
};
use crate::propagators::alldiff::reference;
use crate::store::{RevId, VarId};

/// One position of the constraint, as kept in the open list.
#[derive(Clone, Copy, Debug)]
struct Slot {
    var: VarId,
    /// Its index in `xs` (the local index of `notify`).
    position: u32,
    /// Its offset: the variable shows `value + offset`.
    offset: i32,
    /// The shown value (value + offset) that bit 0 of the variable's first domain word stands
    /// for. Filled by `propagate_from_scratch`.
    bit0: i64,
}

#[derive(Clone, Debug)]
pub struct AllDifferentValue {
    xs: Vec<VarId>,
    /// Local indices of variables fixed since the last run.
    pending: Vec<u32>,
    /// The positions, the open ones first: `open[..count]`, `count` being `open_count`.
    open: Vec<Slot>,
    /// `place[i]`: where position `i` is in `open`.
    place: Vec<u32>,
    /// How many positions are open (reversible; allocated when posted).
    open_count: Option<RevId>,
    /// Every domain fits in one word, so `bit0` is valid.
    one_word: bool,
}

impl AllDifferentValue {
    pub fn new(xs: &[VarId], offsets: &[i32]) -> AllDifferentValue {
        AllDifferentValue {
            xs: xs.to_vec(),
            pending: Vec::new(),
            open: xs
                .iter()
                .enumerate()
                .map(|(i, &var)| Slot {
                    var,
                    position: i as u32,
                    offset: offsets[i],
                    bit0: 0,
                })
                .collect(),
            place: (0..xs.len() as u32).collect(),
            open_count: None,
            one_word: false,
        }
    }

    /// The positions among `open[from..to]` (at most 64) whose variable still holds the shown
    /// value `shown`, as a bitmask over `from..to`.
    #[inline]
    fn holders(&self, ctx: &Context<'_>, shown: i64, from: usize, to: usize) -> u64 {
        let domains = ctx.domains();
        let mut holders = 0u64;
        if self.one_word {
            for (k, slot) in self.open[from..to].iter().enumerate() {
                let bit = shown - slot.bit0;
                let word = domains[slot.var.index()].first_word();
                // `bit` outside 0..64 (the value is not in the word's range) reads as 0.
                let holds = ((bit as u64) < 64) as u64 & (word >> (bit & 63));
                holders |= (holds & 1) << k;
            }
        } else {
            for (k, slot) in self.open[from..to].iter().enumerate() {
                let holds = domains[slot.var.index()].contains_wide(shown - slot.offset as i64);
                holders |= (holds as u64) << k;
            }
        }
        holders
    }

    /// Remove the values of the fixed variables in `self.pending` (and of any variable this
    /// fixes in turn) from the open positions.
    fn process_pending(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let open_id = self.open_count.expect("allocated when posted");
        let mut count = ctx.rev(open_id) as usize;
        while let Some(i) = self.pending.pop() {
            let at = self.place[i as usize] as usize;
            if at >= count {
                continue; // already handled at this node or above
            }
            // Close position `i`: swap it with the last open one, just past the open ones.
            count -= 1;
            let closed = self.open[at];
            let moved = self.open[count];
            self.open[at] = moved;
            self.open[count] = closed;
            self.place[moved.position as usize] = at as u32;
            self.place[i as usize] = count as u32;

            let shown = ctx.value(closed.var) as i64 + closed.offset as i64;
            let mut from = 0;
            while from < count {
                let to = (from + 64).min(count);
                let mut holders = self.holders(ctx, shown, from, to);
                while holders != 0 {
                    let slot = self.open[from + holders.trailing_zeros() as usize];
                    holders &= holders - 1;
                    // On a conflict the count is not saved: the swaps above stayed inside
                    // this node's open positions, so the trail's count is still right.
                    ctx.remove(slot.var, (shown - slot.offset as i64) as i32)?;
                    if ctx.is_fixed(slot.var) {
                        self.pending.push(slot.position);
                    }
                }
                from = to;
            }
        }
        ctx.set_rev(open_id, count as i64);
        if count == 0 {
            ctx.set_entailed();
        }
        Ok(())
    }
}

impl Propagator for AllDifferentValue {
    fn name(&self) -> &'static str {
        "alldiff_value"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Fixed)
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        self.pending.push(local as u32);
        EnqueueDecision::Enqueue
    }
    fn clear_pending(&mut self) {
        self.pending.clear();
    }
    fn register(&mut self, post: &mut PostContext<'_>) {
        self.open_count = Some(post.new_rev(self.xs.len() as i64));
    }
    /// The reference: forward checking (`reference::forward_check`) until nothing changes.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let offsets: Vec<i32> = (0..self.xs.len())
            .map(|i| self.open[self.place[i] as usize].offset)
            .collect();
        while reference::forward_check(ctx, &self.xs, &offsets)? {}
        if self.xs.iter().all(|&x| ctx.is_fixed(x)) {
            ctx.set_entailed();
        }
        Ok(())
    }
    /// Every position open again (a trailed change, undone on backtrack), every fixed
    /// variable handled against every other.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.xs.len();
        let open_id = self.open_count.expect("allocated when posted");
        ctx.set_rev(open_id, n as i64);
        self.one_word = true;
        for slot in &mut self.open {
            match ctx.domain(slot.var).as_word() {
                Some((first, _)) => slot.bit0 = first as i64 + slot.offset as i64,
                None => self.one_word = false,
            }
        }
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
}
