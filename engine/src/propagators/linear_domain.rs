//! # Linear equality at the domain level: `Σ aᵢ·xᵢ = c` by supports, within a budget
//!
//! **Enforces:** `Σ aᵢ·xᵢ = c`, keeping only the values that take part in a solution of the
//! equation: domain (generalised arc) consistency, where `linear.rs` keeps bounds. A
//! MiniZinc model asks for it with `:: domain` on `int_lin_eq`, as the compiler does for the
//! index of a multi-dimensional table lookup: `idx = 11·port + week - 11` feeding an
//! element constraint. The element punches holes in `idx`; bounds reasoning passes none of
//! them back to `week` and `port`, so a port whose weeks all lead to removed entries stays
//! in its domain until the search tries it. Gecode, told `:: domain`, removes it at once.
//!
//! **Algorithm: supports, the reference way** (as `arithmetic/`). Solve for the term with
//! the largest domain, `last`; enumerate every combination of values of the other terms,
//! and when `c - Σ` is a multiple of `a_last` whose quotient is in `D(last)`, that
//! combination and that value are supported. Keep exactly the supported values. Worked
//! example: `x + 2y = 5`, `x ∈ {1, 2, 3}`, `y ∈ {0, 1, 2}`: `y = 0` needs `x = 5`, `y = 1`
//! needs `x = 3`, `y = 2` needs `x = 1`: `y ∈ {1, 2}`, `x ∈ {1, 3}`. Bounds reasoning
//! would keep every value.
//!
//! **The budget.** Enumeration costs `Π |D(xᵢ)|` over the terms but `last`. Beyond
//! [`DEFAULT_COMBINATION_BUDGET`] combinations the propagator does nothing: it is posted
//! beside the bounds propagator of `linear.rs`, which keeps the equation bounds consistent
//! and checks it once everything is fixed, so past the budget the pair is exactly the bounds
//! propagator. Once the domains have shrunk under the budget (deeper in the search) it
//! prunes again.
//!
//! **Consistency:** domain within the budget; none of its own beyond (bounds with its
//! partner). Idempotent: a value kept is supported by a combination of values kept.
//!
//! **Wakes on:** any removal from any `xᵢ`. **Cost:** O(n · Π |D(xᵢ)|) within the budget,
//! over all but the largest domain, plus O(Σ |D(xᵢ)|) to read and prune the domains; it
//! allocates its scratch lists per run.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::{explain_by_supports, unsupported_reason};
use crate::store::VarId;
use crate::view::View;

/// Combinations enumerated before the propagator leaves the equation to its bounds partner.
pub const DEFAULT_COMBINATION_BUDGET: u64 = 1 << 12;

/// `Σ aᵢ·xᵢ = c`, domain consistent within a budget.
#[derive(Clone, Debug)]
pub struct LinearEqDomain {
    terms: Vec<(i64, VarId)>,
    rhs: i64,
    budget: u64,
}

impl LinearEqDomain {
    /// Terms with a zero coefficient are dropped; repeated variables are merged.
    pub fn new(terms: &[(i64, VarId)], rhs: i64) -> LinearEqDomain {
        LinearEqDomain::with_budget(terms, rhs, DEFAULT_COMBINATION_BUDGET)
    }

    /// `Σ kᵢ·viewᵢ = c` on views (`view.rs`), folded into plain terms
    /// (`linear::fold_views`); `None` if a coefficient or the constant leaves `i64`.
    pub fn from_views(terms: &[(i64, View)], rhs: i64) -> Option<LinearEqDomain> {
        let (plain, constant) = crate::propagators::linear::fold_views(terms)?;
        Some(LinearEqDomain::new(&plain, rhs.checked_sub(constant)?))
    }

    /// With another enumeration budget (tests use 0 to exercise the fallback).
    pub fn with_budget(terms: &[(i64, VarId)], rhs: i64, budget: u64) -> LinearEqDomain {
        let merged = crate::propagators::linear::merge_terms(terms);
        LinearEqDomain {
            terms: merged,
            rhs,
            budget,
        }
    }
}

impl LinearEqDomain {
    /// Does the tuple `t` (one value per term) satisfy the sum?
    fn holds(&self, t: &[i32]) -> bool {
        let sum: i64 = self
            .terms
            .iter()
            .zip(t)
            .map(|(&(a, _), &v)| a * v as i64)
            .sum();
        sum == self.rhs
    }
}

impl Propagator for LinearEqDomain {
    fn name(&self) -> &'static str {
        "linear_eq_domain"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        (self.terms.iter())
            .map(|&(_, x)| Subscription::new(x, Condition::Domain))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// No combination of the other terms' values completes the sum: their bounds and the
    /// missing values that matter (`reasons::unsupported_reason`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let vars: Vec<VarId> = self.terms.iter().map(|&(_, x)| x).collect();
        explain_by_supports(&vars, inputs, &|t| self.holds(t), atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let vars: Vec<VarId> = self.terms.iter().map(|&(_, x)| x).collect();
        unsupported_reason(&vars, inputs, &|t| self.holds(t), None, reason)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        if self.terms.is_empty() {
            return if self.rhs == 0 {
                Ok(())
            } else {
                Err(crate::Conflict::new())
            };
        }
        // The term solved for: the largest domain.
        let last = (0..self.terms.len())
            .max_by_key(|&i| ctx.size(self.terms[i].1))
            .expect("terms");
        let combinations = (0..self.terms.len())
            .filter(|&i| i != last)
            .map(|i| ctx.size(self.terms[i].1) as u64)
            .try_fold(1u64, |p, s| p.checked_mul(s))
            .unwrap_or(u64::MAX);
        if combinations > self.budget.max(1) {
            return Ok(());
        }
        let (a_last, x_last) = self.terms[last];
        // The other terms, their values listed, and a mark per value: supported?
        let others: Vec<(i64, VarId)> = (0..self.terms.len())
            .filter(|&i| i != last)
            .map(|i| self.terms[i])
            .collect();
        let values: Vec<Vec<i32>> = (others.iter())
            .map(|&(_, x)| ctx.domain(x).iter().collect())
            .collect();
        let mut supported: Vec<Vec<bool>> = values.iter().map(|v| vec![false; v.len()]).collect();
        let mut last_values: Vec<i32> = Vec::new();
        // An odometer over the combinations: position k of `at` indexes `values[k]`.
        let mut at = vec![0usize; others.len()];
        loop {
            let sum: i64 = (others.iter().zip(&at).zip(&values))
                .map(|((&(a, _), &j), vs)| a * vs[j] as i64)
                .sum();
            let need = self.rhs - sum;
            if need % a_last == 0 {
                let v = need / a_last;
                if ctx.domain(x_last).contains_wide(v) {
                    last_values.push(v as i32);
                    for (k, &j) in at.iter().enumerate() {
                        supported[k][j] = true;
                    }
                }
            }
            // Next combination.
            let mut k = 0;
            while k < at.len() {
                at[k] += 1;
                if at[k] < values[k].len() {
                    break;
                }
                at[k] = 0;
                k += 1;
            }
            if k == at.len() {
                break;
            }
        }
        if last_values.is_empty() {
            return Err(crate::Conflict::new());
        }
        for (k, &(_, x)) in others.iter().enumerate() {
            let (vs, marks) = (&values[k], &supported[k]);
            ctx.retain(x, |v| vs.binary_search(&v).is_ok_and(|j| marks[j]))?;
        }
        ctx.intersect(x_last, &Domain::from_values(&last_values))?;
        if self.terms.iter().all(|&(_, x)| ctx.is_fixed(x)) {
            ctx.set_entailed();
        }
        Ok(())
    }
}
