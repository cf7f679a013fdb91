//! # The set builtins, over the characteristic booleans
//!
//! Each set is read as its booleans (`set_var.rs`), the sets of one constraint aligned on
//! the union of their universes (`sets::aligned`: a value outside a set's universe is the
//! constant 0 there). Most set constraints are then **one small constraint per value**,
//! posted with the engine's clause, conjunction, equality and sum propagators:
//!
//! | builtin | per value `v` (`a`, `b`, `c`: the booleans of the sets at `v`) |
//! |---|---|
//! | `set_union(A, B, C)` | `c ⇔ a ∨ b` |
//! | `set_intersect(A, B, C)` | `c ⇔ a ∧ b` |
//! | `set_diff(A, B, C)` | `c ⇔ a ∧ ¬b` |
//! | `set_symdiff(A, B, C)` | `c ⇔ a ≠ b` |
//! | `set_subset(A, B)` / `set_superset` | `a ⇒ b` / `b ⇒ a` |
//! | `set_eq(A, B)` / `set_ne` | `a = b` / one value with `a ≠ b` (a clause) |
//! | `..._reif(.., r)` | `r ⇔` the conjunction of the per-value facts (`_imp`: `r ⇒`) |
//! | `set_card(A, k)` | `Σ a = k` |
//! | `set_in(x, A)` (`_reif`, `_imp`) | `A`'s boolean at `x` is 1 (is `r`): an element |
//! | `array_set_element(i, [S₁..Sₙ], C)` | `c ⇔ i ∈ {j : v ∈ Sⱼ}` |
//! | `array_var_set_element(i, [S₁..Sₙ], C)` | `c = sⱼ[i]`: an element per value |
//!
//! Each per-value constraint is domain consistent, and the pieces share at most one
//! variable (`r`, or the index `i`) pairwise, a Berge-acyclic decomposition, so the whole
//! reaches **domain consistency on the booleans** = set bounds consistency (glb and lub
//! exact), except where stated in `docs/minizinc.md`. The order of sets (`set_le`,
//! `set_lt`) has its own propagator (`engine/src/propagators/sets/order.rs`).

use crate::ast::{Constraint, FznError};
use crate::builder::{Builder, Value};
use crate::set_var::SetVar;
use crate::sets::{aligned, set_of, sets_of};
use engine::propagators::reified::LinRel;
use engine::propagators::sets::order::SetOrder;
use engine::{Relation, VarId};

/// Does the builtin `name` take set variables? (All but `set_in`, `set_in_reif` and
/// `set_in_imp`, which take constant sets too.)
pub fn takes_a_set_variable(name: &str) -> bool {
    let set_in = ["set_in", "set_in_reif", "set_in_imp"].contains(&name);
    (name.starts_with("set_") && !set_in) || name.contains("_set_element")
}

/// The booleans of two (or three) set arguments, aligned on one universe.
fn columns(b: &mut Builder, c: &Constraint, n: usize) -> Result<Vec<Vec<VarId>>, FznError> {
    let sets: Vec<SetVar> = (0..n)
        .map(|k| set_of(b, &c.args[k]))
        .collect::<Result<_, _>>()?;
    let refs: Vec<&SetVar> = sets.iter().collect();
    Ok(aligned(b, &refs)?.1)
}

/// A binary operation `C = A op B`: `c ⇔ op(a, b)` per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOp {
    Union,
    Intersect,
    Diff,
    Symdiff,
}

/// `set_union`, `set_intersect`, `set_diff`, `set_symdiff`.
pub fn set_op(b: &mut Builder, c: &Constraint, op: SetOp) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let cols = columns(b, c, 3)?;
    for v in 0..cols[0].len() {
        let (x, y, z) = (cols[0][v], cols[1][v], cols[2][v]);
        match op {
            // ¬z ⇔ ¬x ∧ ¬y
            SetOp::Union => drop(b.model.conjunction(&[(x, false), (y, false)], (z, false))),
            SetOp::Intersect => drop(b.model.conjunction(&[(x, true), (y, true)], (z, true))),
            SetOp::Diff => drop(b.model.conjunction(&[(x, true), (y, false)], (z, true))),
            SetOp::Symdiff => {
                let _ = (b.model).reified_linear(z, &[(1, x), (-1, y)], LinRel::Ne, 0, false);
            }
        }
    }
    Ok(())
}

/// `set_card(A, k)`: `Σ a = k`.
pub fn set_card(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let a = set_of(b, &c.args[0])?;
    let k = b.var(&c.args[1])?;
    let _ = b.set_cards.insert(a.booleans(), k);
    let mut terms: Vec<(i64, VarId)> = a.booleans().into_iter().map(|x| (1, x)).collect();
    terms.push((-1, k));
    b.model.linear(&terms, Relation::Eq, 0);
    Ok(())
}

/// What a comparison of two sets says at one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetRel {
    /// `a ⇒ b` at every value.
    Subset,
    /// `a = b` at every value.
    Eq,
}

/// `set_subset`, `set_superset` (arguments swapped), `set_eq`, `set_ne` (`negated`),
/// with `reif` (`Some(half)`: `r ⇔`, or `r ⇒` when half) or without.
pub fn set_compare(
    b: &mut Builder,
    c: &Constraint,
    rel: SetRel,
    swapped: bool,
    negated: bool,
    reif: Option<bool>,
) -> Result<(), FznError> {
    b.arity(c, if reif.is_some() { 3 } else { 2 })?;
    let mut cols = columns(b, c, 2)?;
    if swapped {
        cols.swap(0, 1);
    }
    let (xs, ys) = (&cols[0], &cols[1]);
    let r = match reif {
        Some(_) => b.bool_var(&c.args[2])?,
        // Not reified: the comparison holds (fails, for `set_ne`), as with r fixed to 1.
        None => b.constant(1)?,
    };
    let half = reif.unwrap_or(true);
    // holdsᵥ ⇔ (a ⇒ b) or (a = b) at value v.
    let mut holds = Vec::with_capacity(xs.len());
    for (&x, &y) in xs.iter().zip(ys) {
        let h = b.model.new_bool();
        match rel {
            // h ⇔ ¬(x ∧ ¬y)
            SetRel::Subset => drop(b.model.conjunction(&[(x, true), (y, false)], (h, false))),
            SetRel::Eq => {
                let _ = (b.model).reified_linear(h, &[(1, x), (-1, y)], LinRel::Eq, 0, false);
            }
        }
        holds.push(h);
    }
    match (negated, half) {
        // r ⇔ ∧ holds (set_ne: ¬r ⇔ ∧ holds).
        (false, false) => drop(b.model.conjunction(&lits(&holds), (r, true))),
        (true, false) => drop(b.model.conjunction(&lits(&holds), (r, false))),
        // r ⇒ holdsᵥ for each v.
        (false, true) => {
            for &h in &holds {
                b.model.clause(&[h], &[r]);
            }
        }
        // r ⇒ some value differs.
        (true, true) => {
            b.model.clause(&[], &[&holds[..], &[r]].concat());
        }
    }
    Ok(())
}

fn lits(xs: &[VarId]) -> Vec<(VarId, bool)> {
    xs.iter().map(|&x| (x, true)).collect()
}

/// `set_le`, `set_lt` and their `_reif` / `_imp` forms: the order of sets, natively.
pub fn set_order(
    b: &mut Builder,
    c: &Constraint,
    strict: bool,
    reif: Option<bool>,
) -> Result<(), FznError> {
    b.arity(c, if reif.is_some() { 3 } else { 2 })?;
    let cols = columns(b, c, 2)?;
    let order = match reif {
        None => SetOrder::new(&cols[0], &cols[1], strict),
        Some(half) => {
            let r = b.bool_var(&c.args[2])?;
            SetOrder::reified(&cols[0], &cols[1], strict, r, half)
        }
    };
    let (x, y) = (set_of(b, &c.args[0])?, set_of(b, &c.args[1])?);
    b.set_orders.push((x.booleans(), y.booleans(), order));
    Ok(())
}

/// Post the orders of sets, each told the variable counting each side's elements when a
/// `set_card` gives one (anywhere in the file: hence last): the order and the counts are
/// then reasoned about together (`engine/src/propagators/sets/order.rs`).
pub fn post_set_orders(b: &mut Builder) {
    for (x, y, order) in std::mem::take(&mut b.set_orders) {
        let counted = (b.set_cards.get(&x).copied(), b.set_cards.get(&y).copied());
        let order = order.with_cardinalities(counted.0, counted.1);
        let _ = b.model.post(Box::new(order));
    }
}

/// `set_in(x, S)`, `set_in_reif(x, S, r)`, `set_in_imp(x, S, r)`: `S` a constant set (a
/// unary constraint on `x`, or `engine`'s reified membership) or a set variable (an element:
/// `r = s[x]`, the booleans of `S` over the values of `x`, 0 outside `S`'s universe).
pub fn set_in(b: &mut Builder, c: &Constraint, reif: Option<bool>) -> Result<(), FznError> {
    b.arity(c, if reif.is_some() { 3 } else { 2 })?;
    let x = b.var(&c.args[0])?;
    match b.value(&c.args[1])? {
        Value::SetVar(s) => set_in_var(b, c, x, &s, reif),
        _ => match reif {
            None => {
                let ranges = b.set_ranges(&c.args[1])?;
                b.restrict(x, &ranges);
                Ok(())
            }
            Some(half) => {
                let values = b.set(&c.args[1])?;
                let r = b.bool_var(&c.args[2])?;
                b.model.reified_member(r, x, &values, half);
                Ok(())
            }
        },
    }
}

/// [`set_in`] with a set variable.
fn set_in_var(
    b: &mut Builder,
    c: &Constraint,
    x: VarId,
    s: &SetVar,
    reif: Option<bool>,
) -> Result<(), FznError> {
    if reif.is_none() {
        // x takes a value of S's universe.
        let universe: Vec<i32> = s.universe().collect();
        let ranges = crate::parse::ranges_of(universe.iter().map(|&v| v as i64).collect());
        let ranges: Vec<(i32, i32)> = ranges.iter().map(|&(l, h)| (l as i32, h as i32)).collect();
        b.restrict(x, &ranges);
    }
    if b.model.is_fixed(x) {
        return set_in_value(b, c, b.model.value(x), s, reif);
    }
    let (lo, hi) = (b.model.min(x) as i64, b.model.max(x) as i64);
    if hi - lo >= crate::set_var::MAX_UNIVERSE as i64 {
        return b.error(format!(
            "{}: the integer ranges over more than {} values, too many to look up in a set variable",
            c.name,
            crate::set_var::MAX_UNIVERSE
        ));
    }
    let zero = b.constant(0)?;
    let array: Vec<VarId> = (lo..=hi)
        .map(|v| s.boolean(v as i32).unwrap_or(zero))
        .collect();
    let found = match reif {
        None => b.constant(1)?,
        Some(false) => b.bool_var(&c.args[2])?,
        Some(true) => b.model.new_bool(),
    };
    b.model.element_var(x, lo as i32, &array, found);
    if reif == Some(true) {
        let r = b.bool_var(&c.args[2])?;
        b.model.clause(&[found], &[r]);
    }
    Ok(())
}

/// [`set_in`] of a constant `v`: the boolean of `v` is 1 (is `r`; `r ⇒` it).
fn set_in_value(
    b: &mut Builder,
    c: &Constraint,
    v: i32,
    s: &SetVar,
    reif: Option<bool>,
) -> Result<(), FznError> {
    let zero = b.constant(0)?;
    let member = s.boolean(v).unwrap_or(zero);
    match reif {
        None => {
            if b.model.restrict_to(member, &[1]).is_err() {
                b.model_is_unsatisfiable = true;
            }
        }
        Some(false) => {
            let r = b.bool_var(&c.args[2])?;
            if r != member {
                // (Equal when `r` was declared as the boolean itself: sets::alias_of.)
                b.model.equal_offset(r, member, 0);
            }
        }
        Some(true) => {
            let r = b.bool_var(&c.args[2])?;
            b.model.clause(&[member], &[r]);
        }
    }
    Ok(())
}

/// `array_set_element(i, [S₁, …, Sₙ], C)` with constant `Sⱼ`: `c ⇔ i ∈ {j : v ∈ Sⱼ}` per
/// value `v`.
pub fn array_set_element(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let i = b.var(&c.args[0])?;
    let sets = sets_of(b, &c.args[1])?;
    let result = set_of(b, &c.args[2])?;
    let n = sets.len() as i32;
    b.restrict(i, &[(1, n.max(1))]);
    if n == 0 {
        return b.post_false();
    }
    let mut refs: Vec<&SetVar> = sets.iter().collect();
    refs.push(&result);
    let (universe, cols) = aligned(b, &refs)?;
    let constant = |b: &Builder, x: VarId| b.model.is_fixed(x);
    if !(cols[..sets.len()].iter().flatten()).all(|&x| constant(b, x)) {
        return array_var_set_element(b, c);
    }
    for v in 0..universe.len() {
        let positions: Vec<i32> = (0..sets.len())
            .filter(|&j| b.model.value(cols[j][v]) == 1)
            .map(|j| j as i32 + 1)
            .collect();
        b.model
            .reified_member(cols[sets.len()][v], i, &positions, false);
    }
    Ok(())
}

/// `array_var_set_element(i, [S₁, …, Sₙ], C)`: `c = sⱼ` at `j = i`, one element per value.
pub fn array_var_set_element(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let i = b.var(&c.args[0])?;
    let sets = sets_of(b, &c.args[1])?;
    let result = set_of(b, &c.args[2])?;
    if sets.is_empty() {
        return b.post_false();
    }
    let mut refs: Vec<&SetVar> = sets.iter().collect();
    refs.push(&result);
    let (universe, cols) = aligned(b, &refs)?;
    for v in 0..universe.len() {
        let entries: Vec<VarId> = (0..sets.len()).map(|j| cols[j][v]).collect();
        b.model.element_var(i, 1, &entries, cols[sets.len()][v]);
    }
    Ok(())
}
