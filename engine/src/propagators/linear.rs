//! # Linear constraints: `Σ aᵢ·xᵢ (=, <=, >=, !=) c`
//!
//! **Bounds consistency** (for `=`, `<=`, `>=`). Let `lo(aᵢxᵢ)` and `hi(aᵢxᵢ)` be the least
//! and greatest value a term can take (`a·min` and `a·max`, swapped when `a < 0`). For
//! `Σ aᵢxᵢ <= c`, every other term takes at least its `lo`, so term `i` must satisfy
//!
//! ```text
//! aᵢ·xᵢ <= c - (Σⱼ lo(aⱼxⱼ) - lo(aᵢxᵢ))
//! ```
//!
//! which is a new max for `xᵢ` (a new min when `aᵢ < 0`, rounding towards the inside). `=`
//! applies that rule in both directions and repeats until no bound moves. Worked example:
//! `x + y + z = 6` with `x, y, z ∈ 1..9` gives `x <= 6 - 1 - 1 = 4` for each.
//!
//! `!=` waits until at most one variable is free, then removes the single value that would
//! make the sum equal to `c`: domain consistent, O(n).
//!
//! Wakes on bounds (`=`, `<=`) or on fixing (`!=`); O(n) per run for `<=`, O(n·k) for `=`
//! where k is the number of rounds. All sums are `i64`; `Model::linear` refuses (panics on)
//! a constraint whose extreme sums could leave the `i64` range, judged from the domains
//! (they only shrink afterwards), which a model built from sane coefficients never reaches.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{
    Condition, Context, Priority, PropResult, Propagator, RootDomains, Subscription,
};
use crate::propagators::bound_replay::merge_into_equalities;
use crate::propagators::linear_explain::{lifted_failure, lifted_reason, LinearReplay};
use crate::propagators::reasons::split_atom;
use crate::propagators::relations::clamp;
use crate::store::VarId;
use crate::view::View;

/// The comparison in `Σ aᵢxᵢ rel c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Eq,
    Le,
    Ge,
    Ne,
}

/// The propagators for `Σ terms rel rhs`. Terms with coefficient 0 are dropped and repeated
/// variables merged. The caller has checked that the sums fit `i64` (`Model::linear`).
pub fn post_linear(
    terms: &[(i64, VarId)],
    relation: Relation,
    rhs: i64,
) -> Vec<Box<dyn Propagator>> {
    let merged = merge_terms(terms);
    match relation {
        Relation::Le | Relation::Eq => vec![Box::new(Linear {
            terms: merged,
            relation,
            rhs,
        })],
        Relation::Ge => {
            let negated = merged.iter().map(|&(a, x)| (-a, x)).collect();
            vec![Box::new(Linear {
                terms: negated,
                relation: Relation::Le,
                rhs: -rhs,
            })]
        }
        Relation::Ne => vec![Box::new(LinearNe { terms: merged, rhs })],
    }
}

/// Least and greatest value of `a·x`.
#[inline]
fn term_range(ctx: &Context<'_>, a: i64, x: VarId) -> (i64, i64) {
    let (lo, hi) = (ctx.min(x) as i64, ctx.max(x) as i64);
    if a > 0 {
        (a * lo, a * hi)
    } else {
        (a * hi, a * lo)
    }
}

/// Make `a·x <= bound` hold for the bounds of `x`.
#[inline]
fn restrict_term_above(
    ctx: &mut Context<'_>,
    a: i64,
    x: VarId,
    bound: i64,
) -> Result<bool, crate::Conflict> {
    if a > 0 {
        ctx.set_max(x, clamp(bound.div_euclid(a)))
    } else {
        // a·x <= bound  <=>  x >= bound / a (a < 0), rounded up.
        let b = -a;
        ctx.set_min(x, clamp(-((bound).div_euclid(b))))
    }
}

/// Make `a·x >= bound` hold: the same rule on the negated term, `−a·x <= −bound` (the view
/// `−x` of the other side, as `view.rs` would write it).
#[inline]
fn restrict_term_below(
    ctx: &mut Context<'_>,
    a: i64,
    x: VarId,
    bound: i64,
) -> Result<bool, crate::Conflict> {
    restrict_term_above(ctx, -a, x, -bound)
}

fn subscriptions(terms: &[(i64, VarId)], condition: Condition) -> Vec<Subscription> {
    terms
        .iter()
        .map(|&(_, x)| Subscription::new(x, condition))
        .collect()
}

/// `Σ aᵢxᵢ <= c` (one pass) or `Σ aᵢxᵢ = c` (repeated until no bound moves), bounds
/// consistent. (`>=` is `<=` on the negated terms, see [`post_linear`].)
#[derive(Clone, Debug)]
pub struct Linear {
    terms: Vec<(i64, VarId)>,
    relation: Relation,
    rhs: i64,
}

impl Propagator for Linear {
    fn name(&self) -> &'static str {
        match self.relation {
            Relation::Eq => "linear_eq",
            _ => "linear_le",
        }
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        subscriptions(&self.terms, Condition::Bounds)
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        // A sum of 10^5 terms: each call is long, give way to the clock (interrupt.rs).
        ctx.work(self.terms.len() as u32)?;
        match self.relation {
            Relation::Eq => self.propagate_eq(ctx),
            _ => self.propagate_le(ctx),
        }
    }
    /// The other terms' bounds that forced the atom, replayed from the inputs
    /// (`linear_explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let equality = self.relation == Relation::Eq;
        LinearReplay::run(&self.terms, self.rhs, equality, inputs).explain(atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let equality = self.relation == Relation::Eq;
        LinearReplay::run(&self.terms, self.rhs, equality, inputs).explain_failure(reason)
    }
    /// One application of the rule with its slack spent on weaker atoms
    /// (`linear_explain.rs`, lifting); else the replay above.
    fn explain_lifted(
        &self,
        inputs: &[Domain],
        roots: RootDomains<'_>,
        atom: Atom,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let equality = self.relation == Relation::Eq;
        let mark = reason.len();
        if lifted_reason(&self.terms, self.rhs, equality, inputs, roots, atom, reason) {
            merge_tail_into_equalities(reason, mark);
            return true;
        }
        reason.truncate(mark);
        self.explain(inputs, atom, reason)
    }
    fn explain_failure_lifted(
        &self,
        inputs: &[Domain],
        roots: RootDomains<'_>,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let equality = self.relation == Relation::Eq;
        let mark = reason.len();
        if lifted_failure(&self.terms, self.rhs, equality, inputs, roots, reason) {
            merge_tail_into_equalities(reason, mark);
            return true;
        }
        reason.truncate(mark);
        self.explain_failure(inputs, reason)
    }
}

/// `[x ≥ v]` and `[x ≤ v]` written `[x = v]` in the atoms pushed since `mark` (one atom
/// for the learner, as the replay writes it).
fn merge_tail_into_equalities(reason: &mut Vec<Atom>, mark: usize) {
    let mut tail = reason.split_off(mark);
    merge_into_equalities(&mut tail);
    reason.extend(tail);
}

impl Linear {
    /// The least and greatest values of the sum.
    fn sum_range(&self, ctx: &Context<'_>) -> (i64, i64) {
        let (mut min_sum, mut max_sum) = (0i64, 0i64);
        for &(a, x) in &self.terms {
            let (lo, hi) = term_range(ctx, a, x);
            min_sum += lo;
            max_sum += hi;
        }
        (min_sum, max_sum)
    }

    /// `<=`: each term at most `c` minus the least of the others. Tightening `x`'s upper
    /// side does not change its own lo, so one pass is a fixpoint.
    fn propagate_le(&self, ctx: &mut Context<'_>) -> PropResult {
        let (min_sum, max_sum) = self.sum_range(ctx);
        if min_sum > self.rhs {
            return Err(crate::Conflict::new());
        }
        if max_sum <= self.rhs {
            ctx.set_entailed();
            return Ok(());
        }
        // A term narrower than the slack cannot move: skip its division.
        let slack = self.rhs - min_sum;
        for &(a, x) in &self.terms {
            let (lo, hi) = term_range(ctx, a, x);
            if hi - lo > slack {
                restrict_term_above(ctx, a, x, self.rhs - (min_sum - lo))?;
            }
        }
        Ok(())
    }

    /// `=`: the `<=` rule both ways, until no bound moves.
    fn propagate_eq(&self, ctx: &mut Context<'_>) -> PropResult {
        loop {
            ctx.work(self.terms.len() as u32)?;
            let (min_sum, max_sum) = self.sum_range(ctx);
            if min_sum > self.rhs || max_sum < self.rhs {
                return Err(crate::Conflict::new());
            }
            if min_sum == max_sum {
                ctx.set_entailed();
                return Ok(());
            }
            let mut changed = false;
            // A term whose range is within the slack on a side keeps that side: the new
            // bound would be at or beyond its own (no division, no store access).
            let (slack_above, slack_below) = (self.rhs - min_sum, max_sum - self.rhs);
            for &(a, x) in &self.terms {
                let (lo, hi) = term_range(ctx, a, x);
                if hi - lo > slack_above {
                    changed |= restrict_term_above(ctx, a, x, self.rhs - (min_sum - lo))?;
                }
                if hi - lo > slack_below {
                    changed |= restrict_term_below(ctx, a, x, self.rhs - (max_sum - hi))?;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

/// `Σ aᵢxᵢ != c`, acting when at most one variable is free.
#[derive(Clone, Debug)]
pub struct LinearNe {
    terms: Vec<(i64, VarId)>,
    rhs: i64,
}

impl Propagator for LinearNe {
    fn name(&self) -> &'static str {
        "linear_ne"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        subscriptions(&self.terms, Condition::Fixed)
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let mut fixed_sum = 0i64;
        let mut free: Option<(i64, VarId)> = None;
        for &(a, x) in &self.terms {
            if ctx.is_fixed(x) {
                fixed_sum += a * ctx.value(x) as i64;
            } else if free.is_some() {
                return Ok(()); // two free variables: nothing to do yet
            } else {
                free = Some((a, x));
            }
        }
        match free {
            None if fixed_sum == self.rhs => Err(crate::Conflict::new()),
            None => {
                ctx.set_entailed();
                Ok(())
            }
            Some((a, x)) => {
                let rest = self.rhs - fixed_sum;
                if rest % a == 0 {
                    let v = rest / a;
                    if v >= i32::MIN as i64 && v <= i32::MAX as i64 {
                        ctx.remove(x, v as i32)?;
                    }
                }
                ctx.set_entailed();
                Ok(())
            }
        }
    }
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        explain_not_equal(&self.terms, self.rhs, inputs, atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        push_fixed_except(&self.terms, inputs, usize::MAX, reason)
    }
}

/// `Σ aᵢxᵢ ≠ c` removed a value of the one free variable because every other term is fixed:
/// the reason is their values (and, for a bound the removal made, the free variable's own
/// domain). `inputs[i]` is the domain of `terms[i]`'s variable. Also used by the reified
/// sums (`reified.rs`).
pub(crate) fn explain_not_equal(
    terms: &[(i64, VarId)],
    rhs: i64,
    inputs: &[Domain],
    atom: Atom,
    reason: &mut Vec<Atom>,
) -> bool {
    let Some(i) = terms.iter().position(|&(_, x)| x == atom.var()) else {
        return false;
    };
    let Some(needed) = split_atom(atom, &inputs[i], reason) else {
        return false;
    };
    let fixed_sum: i64 = (terms.iter().enumerate())
        .filter(|&(j, _)| j != i && inputs[j].is_fixed())
        .map(|(j, &(a, _))| a * inputs[j].value() as i64)
        .sum();
    let (a, rest) = (terms[i].0, rhs - fixed_sum);
    let forbidden = (rest % a == 0).then(|| rest / a);
    if !needed.iter().all(|&v| Some(v as i64) == forbidden) {
        return false;
    }
    push_fixed_except(terms, inputs, i, reason)
}

/// `[xⱼ = value]` for every term but `skip`; `false` if one of them is not fixed.
pub(crate) fn push_fixed_except(
    terms: &[(i64, VarId)],
    inputs: &[Domain],
    skip: usize,
    reason: &mut Vec<Atom>,
) -> bool {
    for (j, &(_, x)) in terms.iter().enumerate() {
        if j != skip {
            if !inputs[j].is_fixed() {
                return false;
            }
            reason.push(Atom::Equal(x, inputs[j].value()));
        }
    }
    true
}

/// The terms with each variable once (its coefficients added up) and no zero coefficient:
/// `2x + 3y - 2x` is `3y`. Every linear propagator starts from this form. Panics if one
/// variable's coefficients add up beyond `i64`; the model refuses such a sum before it gets
/// here ([`merge_terms_checked`], `Model::linear_fits`).
pub(crate) fn merge_terms(terms: &[(i64, VarId)]) -> Vec<(i64, VarId)> {
    merge_terms_checked(terms).expect("a variable's coefficients add up beyond i64")
}

/// [`merge_terms`], or `None` if one variable's coefficients add up beyond `i64`
/// (`2^62·x + 2^62·x`). Linear in the number of terms (a map from each variable to its
/// place), so that a sum of 300,000 terms is built at once.
pub(crate) fn merge_terms_checked(terms: &[(i64, VarId)]) -> Option<Vec<(i64, VarId)>> {
    let mut merged: Vec<(i64, VarId)> = Vec::with_capacity(terms.len());
    let mut place: std::collections::HashMap<VarId, usize> =
        std::collections::HashMap::with_capacity(terms.len());
    for &(a, x) in terms {
        match place.entry(x) {
            std::collections::hash_map::Entry::Occupied(at) => {
                let sum = &mut merged[*at.get()].0;
                *sum = sum.checked_add(a)?;
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(merged.len());
                merged.push((a, x));
            }
        }
    }
    merged.retain(|&(a, _)| a != 0);
    Some(merged)
}

/// Terms on views as plain terms: `Σ kᵢ·(aᵢ·xᵢ + bᵢ)` is `Σ (kᵢ·aᵢ)·xᵢ + Σ kᵢ·bᵢ`, each
/// view's scale folded into its coefficient and its offset into a constant. Returns the
/// plain terms and the constant, or `None` if a product or the constant leaves `i64`.
pub fn fold_views(terms: &[(i64, View)]) -> Option<(Vec<(i64, VarId)>, i64)> {
    let mut constant = 0i64;
    let mut plain = Vec::with_capacity(terms.len());
    for &(k, view) in terms {
        plain.push((k.checked_mul(view.scale() as i64)?, view.var()));
        constant = constant.checked_add(k.checked_mul(view.offset() as i64)?)?;
    }
    Some((plain, constant))
}
