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

use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
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
}
