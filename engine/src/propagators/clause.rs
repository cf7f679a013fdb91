//! # Clause: at least one literal is true (watched literals)
//!
//! **Enforces:** `p₁ ∨ … ∨ pₖ ∨ ¬n₁ ∨ … ∨ ¬nₘ` over 0/1 variables: at least one `pᵢ` is 1 or
//! at least one `nⱼ` is 0. Clauses are the language of SAT solvers, and in puzzles they say
//! things like "if this cell is black then one of its neighbours is black".
//!
//! **Algorithm: two watched literals** (Moskewicz et al., "Chaff", DAC 2001). A clause can
//! only prune when all its literals but one are false. So it watches *two* literals that are
//! not false, and is woken only when one of *those* becomes false (`notify` ignores every
//! other variable, which is the whole point: most fixings cost the clause nothing). Then it
//! looks for another non-false literal to watch instead; if there is none, the other watched
//! literal must be true — set it (unit propagation) — or, if it is false too, fail.
//! The watches need no restoring on backtrack: undoing assignments only makes literals
//! non-false again.
//!
//! Worked example: `a ∨ b ∨ ¬c`, watching `a` and `b`. `c = 1`: not watched, nothing runs.
//! `a = 0`: look for a replacement; `¬c` is false, so none; `b` becomes 1.
//!
//! **Consistency: domain** (what unit propagation gives a single clause). The variables are
//! restricted to `{0, 1}` at the first run. **Wakes on:** fixing, of a watched variable
//! only. **Cost:** O(k) per wake-up in the worst case, O(1) usually.

use crate::atom::Atom;
use crate::domain::{Domain, Event};
use crate::propagator::{
    Condition, Context, EnqueueDecision, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::reasons::{explain_by_clauses, explain_failure_by_clauses};
use crate::store::VarId;

/// A literal: `(x, true)` is `x = 1`, `(x, false)` is `x = 0`.
pub type Literal = (VarId, bool);

/// The literal is false: its variable has lost the literal's value.
#[inline]
pub(crate) fn is_false(ctx: &Context<'_>, (x, sign): Literal) -> bool {
    !ctx.contains(x, sign as i32)
}

/// The literal is true: its variable is fixed to the literal's value.
#[inline]
pub(crate) fn is_true(ctx: &Context<'_>, (x, sign): Literal) -> bool {
    ctx.is_fixed(x) && ctx.value(x) == sign as i32
}

/// Two watches on `lits` (positions; equal when there is one literal): if watch `w`'s
/// literal no longer `qualifies`, move the watch to another literal that does, other than
/// the other watch's. False when there is none. A clause watches literals that are not
/// false; a conjunction (`conjunction.rs`) literals that are not true.
#[inline]
pub(crate) fn move_watch(
    lits: &[Literal],
    watch: &mut [usize; 2],
    w: usize,
    qualifies: impl Fn(Literal) -> bool,
) -> bool {
    if qualifies(lits[watch[w]]) {
        return true;
    }
    let other = watch[1 - w];
    for (p, &lit) in lits.iter().enumerate() {
        if p != other && qualifies(lit) {
            watch[w] = p;
            return true;
        }
    }
    false
}

#[derive(Clone, Debug)]
pub struct Clause {
    /// The literals.
    lits: Vec<Literal>,
    /// Positions in `lits` of the two watched literals (equal when there is one literal).
    watch: [usize; 2],
    /// The clause contains `x` and `¬x`: always true.
    tautology: bool,
    /// A watched literal was fixed since the last run.
    pending: bool,
}

impl Clause {
    pub fn new(pos: &[VarId], neg: &[VarId]) -> Clause {
        let mut lits: Vec<(VarId, bool)> = Vec::new();
        let mut tautology = false;
        for (&x, sign) in pos
            .iter()
            .map(|x| (x, true))
            .chain(neg.iter().map(|x| (x, false)))
        {
            match lits.iter().find(|l| l.0 == x) {
                Some(l) if l.1 != sign => tautology = true,
                Some(_) => {}
                None => lits.push((x, sign)),
            }
        }
        let second = if lits.len() > 1 { 1 } else { 0 };
        Clause {
            lits,
            watch: [0, second],
            tautology,
            pending: false,
        }
    }

    /// Make watch `w` point at a non-false literal other than the other watch, if any.
    fn rewatch(&mut self, ctx: &Context<'_>, w: usize) -> bool {
        move_watch(&self.lits, &mut self.watch, w, |lit| !is_false(ctx, lit))
    }

    /// Both watches valid, or unit propagation, or failure.
    fn settle(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if self.tautology {
            ctx.set_entailed();
            return Ok(());
        }
        if self.lits.is_empty() {
            return Err(crate::Conflict::new());
        }
        let found = [self.rewatch(ctx, 0), self.rewatch(ctx, 1)];
        let single = self.lits.len() == 1;
        if single || !found[0] || !found[1] {
            // At most one non-false literal: the one still watched must be true.
            let w = if found[0] { 0 } else { 1 };
            let (x, sign) = self.lits[self.watch[w]];
            if !found[w] || !ctx.contains(x, sign as i32) {
                return Err(crate::Conflict::new());
            }
            let _ = ctx.fix(x, sign as i32)?;
            ctx.set_entailed();
            return Ok(());
        }
        if is_true(ctx, self.lits[self.watch[0]]) || is_true(ctx, self.lits[self.watch[1]]) {
            ctx.set_entailed();
        }
        Ok(())
    }
}

impl Propagator for Clause {
    fn name(&self) -> &'static str {
        "clause"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        self.lits
            .iter()
            .map(|&(x, _)| Subscription::new(x, Condition::Fixed))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        if local == self.watch[0] || local == self.watch[1] {
            self.pending = true;
        }
        if self.pending {
            EnqueueDecision::Enqueue
        } else {
            EnqueueDecision::Skip
        }
    }
    fn clear_pending(&mut self) {
        self.pending = false;
    }
    /// The reference: count the literals that are not false. None: fail; one: it must be
    /// true (unit propagation).
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        for &(x, _) in &self.lits {
            ctx.set_min(x, 0)?;
            ctx.set_max(x, 1)?;
        }
        if self.tautology {
            ctx.set_entailed();
            return Ok(());
        }
        let mut open = self.lits.iter().filter(|&&lit| !is_false(ctx, lit));
        match (open.next(), open.next()) {
            (None, _) => Err(crate::Conflict::new()),
            (Some(&(x, sign)), None) => {
                ctx.fix(x, sign as i32)?;
                ctx.set_entailed();
                Ok(())
            }
            _ => {
                if self.lits.iter().any(|&lit| is_true(ctx, lit)) {
                    ctx.set_entailed();
                }
                Ok(())
            }
        }
    }
    /// The engine's first run: the watches start on the first two non-false literals.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.pending = false;
        for &(x, _) in &self.lits {
            ctx.set_min(x, 0)?;
            ctx.set_max(x, 1)?;
        }
        // Watch the first two non-false literals, wherever the old watches were.
        self.watch = [0, if self.lits.len() > 1 { 1 } else { 0 }];
        self.settle(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.pending = false;
        self.settle(ctx)
    }
    /// Unit propagation's reason: every other literal is false.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let vars: Vec<VarId> = self.lits.iter().map(|&(x, _)| x).collect();
        if self.tautology {
            // No clause to use: only the variable's own domain, kept 0/1.
            let clauses: [Vec<(VarId, bool)>; 0] = [];
            return explain_by_clauses(&clauses, &vars, inputs, atom, reason);
        }
        explain_by_clauses(&[self.lits.clone()], &vars, inputs, atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let vars: Vec<VarId> = self.lits.iter().map(|&(x, _)| x).collect();
        let clauses = [self.lits.clone()];
        explain_failure_by_clauses(&clauses, &vars, inputs, reason)
    }
}
