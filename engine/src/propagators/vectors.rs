//! # Two vectors differ: `(x₁, …, xₙ) ≠ (y₁, …, yₙ)`
//!
//! The building block of "all rows are different" (Takuzu, Binary Sudoku): all-different over
//! tuples, posted as one `VectorsDiffer` per pair of rows ([`crate::Model::all_different_vectors`]).
//!
//! **Why not lexicographic ordering?** `lex_less(row i, row j)` for i < j would also make the
//! rows distinct, but it orders them, which is only sound when rows are interchangeable
//! (a symmetry). A Takuzu's rows are not — the givens pin them — so the puzzle needs the
//! disequality itself, not an ordering.
//!
//! **Rule (domain consistent).** Position k *can differ* unless `x_k` and `y_k` are both fixed
//! to the same value. If no position can differ, the vectors are equal: conflict. If exactly
//! one position k can differ, it must: `x_k ≠ y_k`, so a fixed side's value is removed from the
//! other side. Otherwise nothing can be pruned: every value of every variable has a support,
//! found by making another position differ (two positions that can differ leave one free to
//! differ whatever is chosen at the other). This is the pairwise decomposition of
//! all-different over tuples; it is domain consistent per pair, not for the whole family
//! (as the binary `≠` decomposition of all-different is not).
//!
//! **Events.** Whether a position can differ changes only when a variable is fixed, so the
//! propagator wakes on `Fixed`. **Cost** O(n) per run. When two positions hold different fixed
//! values the constraint is entailed.
//!
//! Reference: the "distinct rows" of Takuzu models (e.g. Hartmann's Binary Sudoku model);
//! all-different on tuples is Gecode's `distinct` over tuple variables, decomposed here.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// `xs ≠ ys` as tuples (at least one position differs).
#[derive(Clone, Debug)]
pub struct VectorsDiffer {
    xs: Vec<VarId>,
    ys: Vec<VarId>,
}

impl VectorsDiffer {
    /// Panics if the vectors have different lengths.
    pub fn new(xs: &[VarId], ys: &[VarId]) -> VectorsDiffer {
        assert_eq!(xs.len(), ys.len(), "vectors_differ: lengths differ");
        VectorsDiffer {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
        }
    }
}

impl Propagator for VectorsDiffer {
    fn name(&self) -> &'static str {
        "vectors_differ"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        self.xs
            .iter()
            .chain(&self.ys)
            .map(|&v| Subscription::new(v, Condition::Fixed))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        // The one position that can still differ, if there is exactly one.
        let mut free = None;
        let mut free_count = 0;
        for (k, (&x, &y)) in self.xs.iter().zip(&self.ys).enumerate() {
            let (fx, fy) = (ctx.is_fixed(x), ctx.is_fixed(y));
            if fx && fy {
                if ctx.value(x) != ctx.value(y) {
                    ctx.set_entailed();
                    return Ok(());
                }
                continue;
            }
            free_count += 1;
            free = Some(k);
            if free_count > 1 {
                return Ok(());
            }
        }
        let Some(k) = free else {
            return Err(crate::propagator::Conflict::new());
        };
        let (x, y) = (self.xs[k], self.ys[k]);
        if ctx.is_fixed(x) {
            let v = ctx.value(x);
            ctx.remove(y, v)?;
        } else if ctx.is_fixed(y) {
            let v = ctx.value(y);
            ctx.remove(x, v)?;
        }
        Ok(())
    }

    /// Every other position fixed to one value on both sides, and the fixed side of the
    /// last one.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let n = self.xs.len();
        if self.repeats_a_variable() {
            return false;
        }
        let at = |k: usize| (&inputs[k], &inputs[n + k]);
        let Some(k) = (0..n).find(|&k| self.xs[k] == atom.var() || self.ys[k] == atom.var()) else {
            return false;
        };
        let (own, other, other_var) = if self.xs[k] == atom.var() {
            (at(k).0, at(k).1, self.ys[k])
        } else {
            (at(k).1, at(k).0, self.xs[k])
        };
        if !other.is_fixed() {
            return false;
        }
        let Some(needed) = split_atom(atom, own, reason) else {
            return false;
        };
        if !needed.iter().all(|&v| v == other.value()) {
            return false;
        }
        reason.push(Atom::Equal(other_var, other.value()));
        self.push_equal_pairs(inputs, Some(k), reason)
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        !self.repeats_a_variable() && self.push_equal_pairs(inputs, None, reason)
    }
}

impl VectorsDiffer {
    fn repeats_a_variable(&self) -> bool {
        let all: Vec<VarId> = self.xs.iter().chain(&self.ys).copied().collect();
        (0..all.len()).any(|i| (0..i).any(|j| all[j] == all[i]))
    }

    /// `[xⱼ = v]` and `[yⱼ = v]` for every position but `skip`; `false` if one of them is not
    /// fixed to one value on both sides.
    fn push_equal_pairs(
        &self,
        inputs: &[Domain],
        skip: Option<usize>,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let n = self.xs.len();
        for j in (0..n).filter(|&j| Some(j) != skip) {
            let (dx, dy) = (&inputs[j], &inputs[n + j]);
            if !(dx.is_fixed() && dy.is_fixed() && dx.value() == dy.value()) {
                return false;
            }
            reason.push(Atom::Equal(self.xs[j], dx.value()));
            reason.push(Atom::Equal(self.ys[j], dy.value()));
        }
        true
    }
}
