//! # All-different by forward checking (value consistency), written plainly
//!
//! **Enforces:** when a view is fixed to `w`, no other view may show `w`. That is all: it
//! does not notice that three variables share two values (that is `bounds.rs` and
//! `domain.rs`). It is what a person does first in a Sudoku, and on n-queens it is as strong
//! as anything cheap. The views (`view.rs`) may be the variables themselves, `x + c` (the
//! n-queens diagonals), `−x` or `k·x`: the rule only reads a view's value and removes a
//! value from the others, and the view maps both.
//!
//! **Incremental:** `notify` records which positions became fixed; `propagate` removes just
//! their values from the others. A variable that this fixes in turn is reported by the
//! engine after the run (the propagator does not claim to be idempotent), and handled in
//! the next run. `propagate_from_scratch` is `reference::forward_checking`.
//!
//! **Wakes on:** fixed. **Cost:** O(n) per newly fixed view.
//!
//! **Made fast:** `fast/value.rs` (`AllDifferentValue`) reaches the same domains with less
//! work on views of scale 1 (the shape of every puzzle's all-different): it scans only the
//! positions still open, a machine word at a time. The model chooses it by the shape of
//! the views; this file is what it does, and what runs on any other view.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::domain::Event;
use crate::propagator::{
    Condition, Context, EnqueueDecision, PropResult, Propagator, Subscription,
};
use crate::propagators::alldiff::explain::ForwardCheckingReplay;
use crate::propagators::alldiff::reference;
use crate::view::View;

#[derive(Clone, Debug)]
pub struct AllDifferentForwardChecking {
    views: Vec<View>,
    /// Positions fixed since the last run (from `notify`).
    pending: Vec<usize>,
}

impl AllDifferentForwardChecking {
    pub fn new(views: &[View]) -> AllDifferentForwardChecking {
        AllDifferentForwardChecking {
            views: views.to_vec(),
            pending: Vec::new(),
        }
    }
}

impl Propagator for AllDifferentForwardChecking {
    fn name(&self) -> &'static str {
        "alldiff_forward_checking"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        (self.views.iter())
            .map(|x| x.subscription(Condition::Fixed))
            .collect()
    }
    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        self.pending.push(local);
        EnqueueDecision::Enqueue
    }
    fn clear_pending(&mut self) {
        self.pending.clear();
    }
    /// The reference: every fixed view against every other, until nothing changes.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        reference::forward_checking(ctx, &self.views)
    }
    /// `[y ≠ v]` because the view fixed to `v` (`explain.rs`, replayed from the inputs).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        ForwardCheckingReplay::run(&self.views, inputs).is_some_and(|r| r.explain(atom, reason))
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        ForwardCheckingReplay::run(&self.views, inputs).is_some_and(|r| r.explain_failure(reason))
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.pending.clear();
        self.propagate_from_scratch(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        while let Some(i) = self.pending.pop() {
            let shown = self.views[i].value(ctx);
            for (j, &other) in self.views.iter().enumerate() {
                if j != i {
                    other.remove(ctx, shown)?;
                }
            }
        }
        Ok(())
    }
}
