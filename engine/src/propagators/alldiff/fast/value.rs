//! # All-different by forward checking (value consistency)
//!
//! **Enforces:** when `xᵢ` is fixed to `v`, no other `xⱼ` may show `v` (on shifted views
//! `xᵢ + cᵢ`: no `xⱼ + cⱼ = v + cᵢ`). That is all: it does not notice that three variables share two
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
//! **How it is fast** (`singles.rs`, shared with `offset_family.rs`): only the open
//! positions are scanned — a variable whose value has left the others is closed until the
//! search backtracks above it, the open ones kept in a reversible sparse set — and the scan
//! runs in two phases, first a branch-free bitmask of the positions that still hold the
//! value, then the removals. When every domain fits in one machine word and there are at
//! most 64 positions (one bit each in the word of holders; the domains are checked once per
//! from-scratch run: a domain's layout — the value of its bit 0 and its number of words —
//! never changes, whatever is removed or restored), the test is a
//! subtraction, a comparison and a shift of that word, with the value that bit 0 of each
//! word stands for computed in advance (`bit0`); otherwise it is `Domain::contains_wide`.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::domain::Event;
use crate::propagator::{
    Condition, Context, EnqueueDecision, PostContext, PropResult, Propagator, Subscription,
};
use crate::propagators::alldiff::explain::ForwardCheckingReplay;
use crate::propagators::alldiff::fast::singles::OpenPositions;
use crate::propagators::alldiff::reference;
use crate::store::VarId;
use crate::view::View;

#[derive(Clone, Debug)]
pub struct AllDifferentValue {
    xs: Vec<VarId>,
    views: Vec<View>,
    /// The positions, the open ones first: one family of shifted views.
    open: OpenPositions<1>,
    /// Every domain fits in one word (the word layout of `singles.rs`).
    one_word: bool,
}

impl AllDifferentValue {
    /// Forward checking over shifted views `xᵢ + cᵢ` (scale 1, [`View::is_shift`]).
    pub fn new(views: &[View]) -> AllDifferentValue {
        assert!(
            views.iter().all(|x| x.is_shift()),
            "the fast lane takes x + c views"
        );
        let xs: Vec<VarId> = views.iter().map(|x| x.var()).collect();
        let shifts = views.iter().map(|x| x.offset()).collect();
        AllDifferentValue {
            open: OpenPositions::new(&xs, 1, shifts),
            xs,
            views: views.to_vec(),
            one_word: false,
        }
    }

    /// Remove the values of the fixed variables in `open.pending` (and of any variable this
    /// fixes in turn) from the open positions.
    fn process_pending(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let count = self.open.open_count(ctx);
        let count = self.open.forward_check(ctx, count, self.one_word)?;
        self.open.save_count(ctx, count);
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
        self.open.pending.push(local as u32);
        EnqueueDecision::Enqueue
    }
    fn clear_pending(&mut self) {
        self.open.pending.clear();
    }
    fn register(&mut self, post: &mut PostContext<'_>) {
        self.open.register(post);
    }
    /// The reference: forward checking (`reference::forward_check`) until nothing changes.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        while reference::forward_check(ctx, &self.views)? {}
        if self.xs.iter().all(|&x| ctx.is_fixed(x)) {
            ctx.set_entailed();
        }
        Ok(())
    }
    /// `[y ≠ v]` because the view fixed to `v` (`explain.rs`, replayed from the inputs).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        ForwardCheckingReplay::run(&self.views, inputs).is_some_and(|r| r.explain(atom, reason))
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        ForwardCheckingReplay::run(&self.views, inputs).is_some_and(|r| r.explain_failure(reason))
    }
    /// Every position open again (a trailed change, undone on backtrack), every fixed
    /// variable handled against every other.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.one_word = self.open.reset(ctx);
        self.process_pending(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.process_pending(ctx)
    }
}
