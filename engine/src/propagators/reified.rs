//! # Reified and half-reified linear relations, and reified membership
//!
//! **Enforces:** [`ReifiedLinear`]: `b ⇔ (Σ aᵢ·xᵢ  rel  c)` (full reification) or
//! `b ⇒ (Σ aᵢ·xᵢ  rel  c)` (half reification, MiniZinc's `_imp` forms), with `rel` one of
//! `≤`, `=`, `≠`. Every FlatZinc `int_le_reif`, `int_eq_imp`, `int_lin_ne_reif`,
//! `bool_eq_reif`, ... is one of these: `x ≤ y` is `x - y ≤ 0`. [`ReifiedMember`]:
//! `b ⇔ x ∈ S` (or `b ⇒ x ∈ S`) for a constant set `S` (`set_in_reif`, `set_in_imp`).
//!
//! **Algorithm.** A reified constraint is two propagators and a test:
//!
//! * `b = 1`: propagate the relation (the linear bounds rule of `linear.rs`: each term is
//!   bounded by `c` minus the least value of the other terms);
//! * `b = 0` (full reification only): propagate the negation (`≤ c` becomes `≥ c + 1`,
//!   `=` becomes `≠`, `≠` becomes `=`);
//! * `b` free: look at the bounds `lo ≤ Σ ≤ hi`. If they make the relation certain, `b = 1`
//!   (full only: a half reification never forces `b` up); if they make it impossible,
//!   `b = 0`.
//!
//! Worked example: `b ⇔ (x - y ≤ 0)` with `x ∈ 3..5`, `y ∈ 1..3`: `lo = 0`, `hi = 4`, both
//! outcomes possible. Remove 3 from `y`: `lo = 1 > 0`, so `b = 0`, and then `x - y ≥ 1`.
//!
//! **Consistency.** `≤`: bounds(Z) consistent (the test of `b` is exact on the intervals,
//! and the linear rule is bounds(Z) consistent for `≤`). `=` and `≠`: bounds(R) (the test
//! uses only `lo` and `hi`, so `b ⇔ 2x = 3` is not known false before `x` is fixed; the
//! `≠` rule removes a value only when one term is left free). Checking in every case.
//! [`ReifiedMember`] is domain consistent.
//!
//! **Entailed** (out of the queue until the search backtracks above the node) once `b` is
//! fixed and the side it chose holds on the bounds, or the bounds decide `b`: a model's
//! thousands of `x ≤ c ↔ b` then stop waking on every later bound of `x`.
//!
//! **Wakes on:** `b` fixed; any bound of an `xᵢ` (any removal for `≠` and membership).
//! **Cost:** O(n) per run.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::linear::{explain_not_equal, push_fixed_except};
use crate::propagators::reasons::{explain_boolean_atom, split_atom};
use crate::propagators::{bound_replay::merge_into_equalities, linear_explain::LinearReplay};
use crate::store::VarId;

/// The relation of a [`ReifiedLinear`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinRel {
    Le,
    Eq,
    Ne,
}

/// `b ⇔ Σ aᵢ·xᵢ rel c` (or `b ⇒ ...` when `half`).
#[derive(Clone, Debug)]
pub struct ReifiedLinear {
    b: VarId,
    terms: Vec<(i64, VarId)>,
    rel: LinRel,
    rhs: i64,
    half: bool,
}

impl ReifiedLinear {
    /// Terms with a zero coefficient are dropped; repeated variables are merged.
    pub fn new(b: VarId, terms: &[(i64, VarId)], rel: LinRel, rhs: i64, half: bool) -> Self {
        let merged = crate::propagators::linear::merge_terms(terms);
        ReifiedLinear {
            b,
            terms: merged,
            rel,
            rhs,
            half,
        }
    }
}

/// Least and greatest value of `a·x`.
fn term_range(ctx: &Context<'_>, a: i64, x: VarId) -> (i64, i64) {
    let (lo, hi) = (ctx.min(x) as i64, ctx.max(x) as i64);
    if a > 0 {
        (a * lo, a * hi)
    } else {
        (a * hi, a * lo)
    }
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// Lower and upper bound of the sum.
fn sum_range(ctx: &Context<'_>, terms: &[(i64, VarId)]) -> (i64, i64) {
    terms.iter().fold((0, 0), |(lo, hi), &(a, x)| {
        let (l, h) = term_range(ctx, a, x);
        (lo + l, hi + h)
    })
}

/// Make `Σ aᵢ·xᵢ ≤ c` hold on the bounds (the rule of `linear.rs`).
fn enforce_le(ctx: &mut Context<'_>, terms: &[(i64, VarId)], c: i64) -> PropResult {
    enforce_signed_le(ctx, terms, 1, c)
}

/// Make `Σ aᵢ·xᵢ ≥ c` hold: `Σ (−aᵢ)·xᵢ ≤ −c`, the coefficients negated as they are read.
fn enforce_ge(ctx: &mut Context<'_>, terms: &[(i64, VarId)], c: i64) -> PropResult {
    enforce_signed_le(ctx, terms, -1, -c)
}

/// Make `Σ sign·aᵢ·xᵢ ≤ c` hold on the bounds, `sign` being 1 or −1.
fn enforce_signed_le(
    ctx: &mut Context<'_>,
    terms: &[(i64, VarId)],
    sign: i64,
    c: i64,
) -> PropResult {
    let lo = (terms.iter()).fold(0, |lo, &(a, x)| lo + term_range(ctx, sign * a, x).0);
    if lo > c {
        return Err(crate::Conflict::new());
    }
    for &(a, x) in terms {
        let a = sign * a;
        let (l, _) = term_range(ctx, a, x);
        let bound = c - (lo - l); // a·x ≤ bound
        if a > 0 {
            ctx.set_max(x, clamp(bound.div_euclid(a)))?;
        } else {
            ctx.set_min(x, clamp(-(bound.div_euclid(-a))))?;
        }
    }
    Ok(())
}

/// Make `Σ aᵢ·xᵢ ≠ c` hold: fail when all are fixed to `c`; with one term free, remove the
/// value that would make the sum `c`.
fn enforce_ne(ctx: &mut Context<'_>, terms: &[(i64, VarId)], c: i64) -> PropResult {
    let mut free = None;
    let mut fixed_sum = 0i64;
    for &(a, x) in terms {
        if ctx.is_fixed(x) {
            fixed_sum += a * ctx.value(x) as i64;
        } else if free.is_some() {
            return Ok(());
        } else {
            free = Some((a, x));
        }
    }
    match free {
        None if fixed_sum == c => Err(crate::Conflict::new()),
        None => Ok(()),
        Some((a, x)) => {
            let rest = c - fixed_sum;
            if rest % a == 0 {
                let v = rest / a;
                if v >= i32::MIN as i64 && v <= i32::MAX as i64 {
                    ctx.remove(x, v as i32)?;
                }
            }
            Ok(())
        }
    }
}

/// Propagate `Σ rel c` (when `positive`) or its negation.
fn enforce(
    ctx: &mut Context<'_>,
    terms: &[(i64, VarId)],
    rel: LinRel,
    c: i64,
    positive: bool,
) -> PropResult {
    match (rel, positive) {
        (LinRel::Le, true) => enforce_le(ctx, terms, c),
        (LinRel::Le, false) => enforce_ge(ctx, terms, c + 1),
        (LinRel::Eq, true) | (LinRel::Ne, false) => {
            enforce_le(ctx, terms, c)?;
            enforce_ge(ctx, terms, c)
        }
        (LinRel::Ne, true) | (LinRel::Eq, false) => enforce_ne(ctx, terms, c),
    }
}

/// Does `Σ rel c` (when `positive`) or its negation hold for every combination of the
/// bounds? Then the propagator has nothing left to do below this node: it is entailed.
fn holds_on_bounds(
    ctx: &Context<'_>,
    terms: &[(i64, VarId)],
    rel: LinRel,
    c: i64,
    positive: bool,
) -> bool {
    let (lo, hi) = sum_range(ctx, terms);
    match (rel, positive) {
        (LinRel::Le, true) => hi <= c,
        (LinRel::Le, false) => lo > c,
        (LinRel::Eq, true) | (LinRel::Ne, false) => lo == c && hi == c,
        (LinRel::Ne, true) | (LinRel::Eq, false) => lo > c || hi < c || lo == hi && lo != c,
    }
}

impl Propagator for ReifiedLinear {
    fn name(&self) -> &'static str {
        if self.half {
            "linear_imp"
        } else {
            "linear_reif"
        }
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let condition = if self.rel == LinRel::Le {
            Condition::Bounds
        } else {
            Condition::Domain
        };
        let mut subs = vec![Subscription::new(self.b, Condition::Fixed)];
        subs.extend(
            self.terms
                .iter()
                .map(|&(_, x)| Subscription::new(x, condition)),
        );
        subs
    }
    fn priority(&self) -> Priority {
        if self.terms.len() <= 2 {
            Priority::High
        } else {
            Priority::Medium
        }
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let b = self.b;
        ctx.set_min(b, 0)?;
        ctx.set_max(b, 1)?;
        if ctx.is_fixed(b) {
            let positive = ctx.value(b) == 1;
            if !positive && self.half {
                ctx.set_entailed();
                return Ok(());
            }
            enforce(ctx, &self.terms, self.rel, self.rhs, positive)?;
            // Once the enforced side holds on the bounds (one term left, or the sum's range
            // inside it), no later removal can prune through this constraint: it leaves the
            // queue until the search backtracks above this node (Gecode's subsumption).
            if holds_on_bounds(ctx, &self.terms, self.rel, self.rhs, positive) {
                ctx.set_entailed();
            }
            return Ok(());
        }
        let (lo, hi) = sum_range(ctx, &self.terms);
        let c = self.rhs;
        // Some(true): the relation holds for every combination; Some(false): for none.
        let certain = match self.rel {
            LinRel::Le if hi <= c => Some(true),
            LinRel::Le if lo > c => Some(false),
            LinRel::Eq | LinRel::Ne if lo > c || hi < c => Some(self.rel == LinRel::Ne),
            LinRel::Eq | LinRel::Ne if lo == hi => Some(self.rel == LinRel::Eq),
            _ => None,
        };
        match certain {
            Some(false) => {
                ctx.fix(b, 0)?;
                if !self.half {
                    // The negation holds on the bounds already: nothing to prune.
                    enforce(ctx, &self.terms, self.rel, self.rhs, false)?;
                }
                ctx.set_entailed();
            }
            Some(true) => {
                // The relation holds for every combination: `b = 1` (full), or `b` is free
                // to be anything (half).
                if !self.half {
                    ctx.fix(b, 1)?;
                }
                ctx.set_entailed();
            }
            None => {}
        }
        Ok(())
    }
    /// `b` forced by the sum's bounds (the bounds that decided it), or a term's bound by
    /// the side `b` enforces (`linear.rs`'s reasons, and `b`'s value).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.terms.iter().any(|&(_, x)| x == self.b) {
            return false;
        }
        let (b_input, terms_input) = (&inputs[0], &inputs[1..]);
        if atom.var() == self.b {
            let mut because = Vec::new();
            let forced = self.decided(terms_input, &mut because);
            let forced = forced.filter(|&value| !value || !self.half);
            let forced = (b_input.contains(0) && b_input.contains(1))
                .then_some(forced)
                .flatten()
                .map(|value| (value, &because[..]));
            return explain_boolean_atom(atom, b_input, forced, reason);
        }
        let Some(positive) = fixed_boolean(b_input) else {
            return false;
        };
        if !positive && self.half {
            return false;
        }
        reason.push(Atom::NotEqual(self.b, !positive as i32));
        let (terms, rel, rhs) = self.enforced(positive);
        match rel {
            LinRel::Ne => explain_not_equal(&terms, rhs, terms_input, atom, reason),
            _ => {
                LinearReplay::run(&terms, rhs, rel == LinRel::Eq, terms_input).explain(atom, reason)
            }
        }
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.terms.iter().any(|&(_, x)| x == self.b) {
            return false;
        }
        let (b_input, terms_input) = (&inputs[0], &inputs[1..]);
        if !b_input.contains(0) && !b_input.contains(1) {
            Atom::describe(self.b, b_input, reason);
            return true;
        }
        let Some(positive) = fixed_boolean(b_input) else {
            return false;
        };
        reason.push(Atom::NotEqual(self.b, !positive as i32));
        let (terms, rel, rhs) = self.enforced(positive);
        match rel {
            LinRel::Ne => {
                let sum: i64 = (terms.iter().zip(terms_input))
                    .map(|(&(a, _), d)| {
                        if d.is_fixed() {
                            a * d.value() as i64
                        } else {
                            0
                        }
                    })
                    .sum();
                sum == rhs && push_fixed_except(&terms, terms_input, usize::MAX, reason)
            }
            _ => LinearReplay::run(&terms, rhs, rel == LinRel::Eq, terms_input)
                .explain_failure(reason),
        }
    }
}

/// The value of a 0/1 variable whose domain `d` holds just one of 0 and 1.
fn fixed_boolean(d: &Domain) -> Option<bool> {
    match (d.contains(0), d.contains(1)) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    }
}

impl ReifiedLinear {
    /// The side `b = positive` enforces, as `(terms, Le | Eq | Ne, rhs)`.
    fn enforced(&self, positive: bool) -> (Vec<(i64, VarId)>, LinRel, i64) {
        let negated = || self.terms.iter().map(|&(a, x)| (-a, x)).collect();
        match (self.rel, positive) {
            (LinRel::Le, true) => (self.terms.clone(), LinRel::Le, self.rhs),
            (LinRel::Le, false) => (negated(), LinRel::Le, -(self.rhs + 1)),
            (LinRel::Eq, true) | (LinRel::Ne, false) => (self.terms.clone(), LinRel::Eq, self.rhs),
            (LinRel::Ne, true) | (LinRel::Eq, false) => (self.terms.clone(), LinRel::Ne, self.rhs),
        }
    }

    /// Whether the terms' bounds in `inputs` decide the relation (`Some(true)`: it holds for
    /// every combination), with the bounds that do pushed onto `because`.
    fn decided(&self, inputs: &[Domain], because: &mut Vec<Atom>) -> Option<bool> {
        let bound = |i: usize, low: bool| {
            let (a, x) = self.terms[i];
            let d = &inputs[i];
            let value = |v: i32| a * v as i64;
            match (a > 0, low) {
                (true, true) => (value(d.min()), Atom::AtLeast(x, d.min())),
                (true, false) => (value(d.max()), Atom::AtMost(x, d.max())),
                (false, true) => (value(d.max()), Atom::AtMost(x, d.max())),
                (false, false) => (value(d.min()), Atom::AtLeast(x, d.min())),
            }
        };
        let n = self.terms.len();
        let lo: i64 = (0..n).map(|i| bound(i, true).0).sum();
        let hi: i64 = (0..n).map(|i| bound(i, false).0).sum();
        let c = self.rhs;
        let (answer, sides): (bool, &[bool]) = match self.rel {
            LinRel::Le if hi <= c => (true, &[false]),
            LinRel::Le if lo > c => (false, &[true]),
            LinRel::Eq | LinRel::Ne if lo > c => (self.rel == LinRel::Ne, &[true]),
            LinRel::Eq | LinRel::Ne if hi < c => (self.rel == LinRel::Ne, &[false]),
            LinRel::Eq | LinRel::Ne if lo == hi => (self.rel == LinRel::Eq, &[true, false]),
            _ => return None,
        };
        for &low in sides {
            because.extend((0..n).map(|i| bound(i, low).1));
        }
        merge_into_equalities(because);
        Some(answer)
    }
}

/// `b ⇔ x ∈ values` (or `b ⇒ x ∈ values` when `half`), `values` sorted.
#[derive(Clone, Debug)]
pub struct ReifiedMember {
    b: VarId,
    x: VarId,
    values: Vec<i32>,
    half: bool,
}

impl ReifiedMember {
    pub fn new(b: VarId, x: VarId, values: &[i32], half: bool) -> ReifiedMember {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        ReifiedMember { b, x, values, half }
    }
    fn member(&self, v: i32) -> bool {
        self.values.binary_search(&v).is_ok()
    }
}

impl Propagator for ReifiedMember {
    fn name(&self) -> &'static str {
        "member_reif"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.b, Condition::Fixed),
            Subscription::new(self.x, Condition::Domain),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (b, x) = (self.b, self.x);
        ctx.set_min(b, 0)?;
        ctx.set_max(b, 1)?;
        // On a domain with more values than the set (a wide one, in a MiniZinc model), work
        // from the set's values instead of visiting the domain's.
        let from_set = !self.values.is_empty() && ctx.size(x) as usize > self.values.len();
        if ctx.is_fixed(b) {
            if ctx.value(b) == 1 {
                if from_set {
                    let set = Domain::from_values(&self.values);
                    ctx.intersect(x, &set)?;
                } else {
                    ctx.retain(x, |v| self.member(v))?;
                }
            } else if !self.half {
                if from_set {
                    for &v in &self.values {
                        ctx.remove(x, v)?;
                    }
                } else {
                    ctx.retain(x, |v| !self.member(v))?;
                }
            }
            ctx.set_entailed();
            return Ok(());
        }
        let inside = if from_set {
            self.values.iter().filter(|&&v| ctx.contains(x, v)).count() as u32
        } else {
            ctx.domain(x).iter().filter(|&v| self.member(v)).count() as u32
        };
        if inside == 0 {
            ctx.fix(b, 0)?;
            ctx.set_entailed();
        } else if inside == ctx.size(x) && !self.half {
            ctx.fix(b, 1)?;
            ctx.set_entailed();
        }
        Ok(())
    }
    /// `b` forced by `x`'s domain (inside or outside the set), or `x`'s values by `b`.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.x == self.b {
            return false;
        }
        if atom.var() == self.b {
            let mut because = Vec::new();
            let forced = match (inputs[0].contains(0) && inputs[0].contains(1), self.half) {
                (false, _) => None,
                (true, half) => self
                    .decided(&inputs[1], &mut because)
                    .filter(|&inside| !inside || !half),
            };
            let forced = forced.map(|value| (value, &because[..]));
            return explain_boolean_atom(atom, &inputs[0], forced, reason);
        }
        let Some(positive) = fixed_boolean(&inputs[0]) else {
            return false;
        };
        if !positive && self.half {
            return false;
        }
        let Some(needed) = split_atom(atom, &inputs[1], reason) else {
            return false;
        };
        reason.push(Atom::NotEqual(self.b, !positive as i32));
        needed.iter().all(|&v| self.member(v) != positive)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.x == self.b {
            return false;
        }
        if !inputs[0].contains(0) && !inputs[0].contains(1) {
            Atom::describe(self.b, &inputs[0], reason);
            return true;
        }
        let Some(positive) = fixed_boolean(&inputs[0]) else {
            return false;
        };
        reason.push(Atom::NotEqual(self.b, !positive as i32));
        self.decided(&inputs[1], reason) == Some(!positive)
    }
}

/// Most values a membership reason may name.
const MOST_MEMBER_ATOMS: usize = 64;

impl ReifiedMember {
    /// Whether `x`'s domain `d` decides `x ∈ values` (`Some(false)`: no value of `d` is in
    /// the set; `Some(true)`: every one is), with the atoms of `d` that do pushed onto
    /// `because`.
    fn decided(&self, d: &Domain, because: &mut Vec<Atom>) -> Option<bool> {
        let x = self.x;
        let (min, max) = (d.min(), d.max());
        if self.values.iter().all(|&v| !d.contains(v)) {
            let inside: Vec<i32> = self
                .values
                .iter()
                .copied()
                .filter(|&v| min <= v && v <= max)
                .collect();
            if inside.len() > MOST_MEMBER_ATOMS {
                return None;
            }
            if self.values.first().is_some_and(|&v| v < min) {
                because.push(Atom::AtLeast(x, min));
            }
            if self.values.last().is_some_and(|&v| v > max) {
                because.push(Atom::AtMost(x, max));
            }
            because.extend(inside.iter().map(|&v| Atom::NotEqual(x, v)));
            return Some(false);
        }
        if d.size() as usize <= self.values.len() && d.iter().all(|v| self.member(v)) {
            let outside: Vec<i32> = (min..=max)
                .filter(|&v| !self.member(v))
                .take(MOST_MEMBER_ATOMS + 1)
                .collect();
            if outside.len() > MOST_MEMBER_ATOMS {
                return None;
            }
            because.push(Atom::AtLeast(x, min));
            because.push(Atom::AtMost(x, max));
            because.extend(outside.iter().map(|&v| Atom::NotEqual(x, v)));
            merge_into_equalities(because);
            return Some(true);
        }
        None
    }
}
