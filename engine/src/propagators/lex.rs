//! # Lexicographic ordering: `x ≤lex y` and `x <lex y`
//!
//! `x` comes before `y` in dictionary order: at the first position where they differ, `x`'s
//! value is smaller; if one is a prefix of the other, the shorter comes first; equal vectors
//! satisfy `≤lex` but not `<lex`. The classic symmetry-breaking constraint between
//! interchangeable rows of a matrix model (not used by Takuzu, whose rows are not
//! interchangeable: see `vectors.rs`).
//!
//! **Consistency: domain** (Frisch, Hnich, Kiziltan, Miguel and Walsh, "Global constraints for
//! lexicographic orderings", CP 2002, reach it in linear time with two pointers α and β; this
//! file reaches the same fixpoint with the equivalent automaton view). Reading the pairs
//! `(xᵢ, yᵢ)` left to right, the comparison is in one of two states: *equal so far* (E) or
//! *already less* (L, after which anything goes). `E` is reachable before position i when every
//! earlier position can be equal (`dom xⱼ ∩ dom yⱼ ≠ ∅`); `L` when some earlier position in
//! reach of E can be strictly less (`min xⱼ < max yⱼ`). From E at position i the constraint can
//! still be satisfied (`accept[i]`) if `min xᵢ < max yᵢ`, or the pair can be equal and
//! `accept[i+1]`; at the end of the shorter vector, E accepts by the lengths. A value `a` of
//! `xᵢ` is supported when L is reachable at i, or E is and `a < max yᵢ` or (`a ∈ dom yᵢ` and
//! `accept[i+1]`); symmetrically for `yᵢ`. Every such support extends to a solution, so the
//! pruning is exactly domain consistency.
//!
//! **Events.** Any removal (membership in the other domain matters). **Cost** O(n · d) per run
//! for domains of size d, from scratch.

use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::store::VarId;

/// `xs ≤lex ys` (`strict`: `xs <lex ys`).
#[derive(Clone, Debug)]
pub struct Lex {
    xs: Vec<VarId>,
    ys: Vec<VarId>,
    strict: bool,
}

impl Lex {
    pub fn new(xs: &[VarId], ys: &[VarId], strict: bool) -> Lex {
        Lex {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            strict,
        }
    }
}

impl Propagator for Lex {
    fn name(&self) -> &'static str {
        if self.strict {
            "lex_less"
        } else {
            "lex_lesseq"
        }
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        self.xs
            .iter()
            .chain(&self.ys)
            .map(|&v| Subscription::new(v, Condition::Domain))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let m = self.xs.len().min(self.ys.len());
        let can_equal = |ctx: &Context<'_>, i: usize| {
            let (x, y) = (self.xs[i], self.ys[i]);
            ctx.domain(x).iter().any(|v| ctx.contains(y, v))
        };
        let can_less = |ctx: &Context<'_>, i: usize| ctx.min(self.xs[i]) < ctx.max(self.ys[i]);
        // accept[i]: from "equal so far" before position i, the constraint can be satisfied.
        let mut accept = vec![false; m + 1];
        accept[m] = if self.strict {
            self.xs.len() < self.ys.len()
        } else {
            self.xs.len() <= self.ys.len()
        };
        for i in (0..m).rev() {
            accept[i] = can_less(ctx, i) || (accept[i + 1] && can_equal(ctx, i));
        }
        if !accept[0] {
            return Err(Conflict::new());
        }
        // Walk forward while "already less" is out of reach; once it is reachable, every
        // later value is supported.
        for i in 0..m {
            let (x, y) = (self.xs[i], self.ys[i]);
            let (ymax, xmin) = (ctx.max(y), ctx.min(x));
            let next = accept[i + 1];
            // From E at i (E is reachable here, L is not: see the loop's exits).
            let y_dom = ctx.domain(y).clone();
            ctx.retain(x, |a| a < ymax || (next && y_dom.contains(a)))?;
            let x_dom = ctx.domain(x).clone();
            ctx.retain(y, |b| xmin < b || (next && x_dom.contains(b)))?;
            if ctx.min(x) < ctx.max(y) {
                break; // L becomes reachable at i + 1: nothing later is pruned
            }
            // Here x and y can only be equal at i (or the constraint fails): E continues.
            if !can_equal(ctx, i) {
                return Err(Conflict::new());
            }
        }
        Ok(())
    }
}
