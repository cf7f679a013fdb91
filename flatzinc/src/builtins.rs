//! # The FlatZinc builtins: one small function per constraint, in one table
//!
//! [`BUILTINS`] maps each FlatZinc constraint name to the function that posts it on the
//! engine model. Each function reads its arguments and chooses a propagator; the
//! propagators themselves live in the engine (`engine/src/propagators/`). A new global
//! (a `fzn_*` predicate of `mznlib/` that reaches a native propagator) is one more row.
//!
//! Booleans are 0/1 variables, so many boolean builtins are integer ones in disguise:
//! `bool_le_reif(a, b, r)` is `r ⇔ a - b ≤ 0`, the same propagator as `int_le_reif`. The
//! arguments are still read by type ([`Kind`]): `int_le(true, x)` is refused.

use crate::ast::{Constraint, Expr, FznError};
use crate::builder::{Builder, Kind, Value};
use crate::set_builtins::{
    array_set_element, array_var_set_element, set_card, set_compare, set_in, set_op, set_order,
    SetOp, SetRel,
};
use engine::propagators::arithmetic::ArithOp;
use engine::propagators::linear_domain::LinearEqDomain;
use engine::propagators::reified::LinRel;
use engine::{AllDiffLevel, Relation, VarId};

const SUBSET: SetRel = SetRel::Subset;
const EQ: SetRel = SetRel::Eq;

/// Posts one constraint.
pub type Post = fn(&mut Builder, &Constraint) -> Result<(), FznError>;

/// Every constraint cpsolve knows, by FlatZinc name.
pub const BUILTINS: &[(&str, Post)] = &[
    // ----- integer comparisons: x rel y, and their (half-)reified forms --------------------
    ("int_eq", |b, c| int_eq(b, c, INTS)),
    ("int_ne", |b, c| int_ne(b, c, INTS)),
    ("int_le", |b, c| int_le(b, c, INTS)),
    ("int_lt", |b, c| int_lt(b, c, INTS)),
    ("int_eq_reif", |b, c| {
        compare(b, c, LinRel::Eq, 0, false, Kind::Int)
    }),
    ("int_ne_reif", |b, c| {
        compare(b, c, LinRel::Ne, 0, false, Kind::Int)
    }),
    ("int_le_reif", |b, c| {
        compare(b, c, LinRel::Le, 0, false, Kind::Int)
    }),
    ("int_lt_reif", |b, c| {
        compare(b, c, LinRel::Le, -1, false, Kind::Int)
    }),
    ("int_eq_imp", |b, c| {
        compare(b, c, LinRel::Eq, 0, true, Kind::Int)
    }),
    ("int_ne_imp", |b, c| {
        compare(b, c, LinRel::Ne, 0, true, Kind::Int)
    }),
    ("int_le_imp", |b, c| {
        compare(b, c, LinRel::Le, 0, true, Kind::Int)
    }),
    ("int_lt_imp", |b, c| {
        compare(b, c, LinRel::Le, -1, true, Kind::Int)
    }),
    // ----- linear: Σ aᵢ·xᵢ rel c ------------------------------------------------------------
    ("int_lin_eq", linear_eq),
    ("int_lin_ne", |b, c| linear(b, c, Relation::Ne, Kind::Int)),
    ("int_lin_le", |b, c| linear(b, c, Relation::Le, Kind::Int)),
    ("int_lin_eq_reif", |b, c| {
        linear_reif(b, c, LinRel::Eq, false)
    }),
    ("int_lin_ne_reif", |b, c| {
        linear_reif(b, c, LinRel::Ne, false)
    }),
    ("int_lin_le_reif", |b, c| {
        linear_reif(b, c, LinRel::Le, false)
    }),
    ("int_lin_eq_imp", |b, c| linear_reif(b, c, LinRel::Eq, true)),
    ("int_lin_ne_imp", |b, c| linear_reif(b, c, LinRel::Ne, true)),
    ("int_lin_le_imp", |b, c| linear_reif(b, c, LinRel::Le, true)),
    // ----- arithmetic: z = f(x, y) ------------------------------------------------------------
    ("int_plus", int_plus),
    ("int_times", |b, c| arith(b, c, ArithOp::Times)),
    ("int_div", |b, c| arith(b, c, ArithOp::Div)),
    ("int_mod", |b, c| arith(b, c, ArithOp::Mod)),
    ("int_pow", |b, c| arith(b, c, ArithOp::Pow)),
    ("int_min", |b, c| arith(b, c, ArithOp::Min)),
    ("int_max", |b, c| arith(b, c, ArithOp::Max)),
    ("int_abs", int_abs),
    ("array_int_maximum", |b, c| array_extremum(b, c, true)),
    ("array_int_minimum", |b, c| array_extremum(b, c, false)),
    // ----- element: z = array[i] ------------------------------------------------------------
    ("array_int_element", |b, c| array_element(b, c, Kind::Int)),
    ("array_bool_element", |b, c| array_element(b, c, Kind::Bool)),
    ("array_var_int_element", |b, c| {
        array_var_element(b, c, Kind::Int)
    }),
    ("array_var_bool_element", |b, c| {
        array_var_element(b, c, Kind::Bool)
    }),
    // ----- booleans -------------------------------------------------------------------------
    ("bool_eq", |b, c| int_eq(b, c, BOOLS)),
    ("bool_ne", |b, c| int_ne(b, c, BOOLS)),
    ("bool_le", |b, c| int_le(b, c, BOOLS)),
    ("bool_lt", |b, c| int_lt(b, c, BOOLS)),
    ("bool_not", bool_not),
    ("bool2int", |b, c| int_eq(b, c, [Kind::Bool, Kind::Int])),
    ("bool_eq_reif", |b, c| {
        compare(b, c, LinRel::Eq, 0, false, Kind::Bool)
    }),
    ("bool_ne_reif", |b, c| {
        compare(b, c, LinRel::Ne, 0, false, Kind::Bool)
    }),
    ("bool_le_reif", |b, c| {
        compare(b, c, LinRel::Le, 0, false, Kind::Bool)
    }),
    ("bool_lt_reif", |b, c| {
        compare(b, c, LinRel::Le, -1, false, Kind::Bool)
    }),
    ("bool_eq_imp", |b, c| {
        compare(b, c, LinRel::Eq, 0, true, Kind::Bool)
    }),
    ("bool_ne_imp", |b, c| {
        compare(b, c, LinRel::Ne, 0, true, Kind::Bool)
    }),
    ("bool_le_imp", |b, c| {
        compare(b, c, LinRel::Le, 0, true, Kind::Bool)
    }),
    ("bool_lt_imp", |b, c| {
        compare(b, c, LinRel::Le, -1, true, Kind::Bool)
    }),
    ("bool_and", |b, c| bool_and_or(b, c, true, false)),
    ("bool_or", |b, c| bool_and_or(b, c, false, false)),
    ("bool_and_imp", |b, c| bool_and_or(b, c, true, true)),
    ("bool_or_imp", |b, c| bool_and_or(b, c, false, true)),
    ("bool_xor", bool_xor),
    ("bool_xor_imp", bool_xor),
    ("bool_clause", bool_clause),
    ("array_bool_and", |b, c| array_and_or(b, c, true, false)),
    ("array_bool_or", |b, c| array_and_or(b, c, false, false)),
    ("array_bool_and_imp", |b, c| array_and_or(b, c, true, true)),
    ("array_bool_or_imp", |b, c| array_and_or(b, c, false, true)),
    ("array_bool_xor", array_bool_xor),
    ("bool_lin_eq", |b, c| linear(b, c, Relation::Eq, Kind::Bool)),
    ("bool_lin_le", |b, c| linear(b, c, Relation::Le, Kind::Bool)),
    // ----- sets: over their characteristic booleans (set_builtins.rs) -----------------------
    ("set_in", |b, c| set_in(b, c, None)),
    ("set_in_reif", |b, c| set_in(b, c, Some(false))),
    ("set_in_imp", |b, c| set_in(b, c, Some(true))),
    ("set_card", set_card),
    ("set_union", |b, c| set_op(b, c, SetOp::Union)),
    ("set_intersect", |b, c| set_op(b, c, SetOp::Intersect)),
    ("set_diff", |b, c| set_op(b, c, SetOp::Diff)),
    ("set_symdiff", |b, c| set_op(b, c, SetOp::Symdiff)),
    ("set_subset", |b, c| {
        set_compare(b, c, SUBSET, false, false, None)
    }),
    ("set_subset_reif", |b, c| {
        set_compare(b, c, SUBSET, false, false, Some(false))
    }),
    ("set_subset_imp", |b, c| {
        set_compare(b, c, SUBSET, false, false, Some(true))
    }),
    ("set_superset", |b, c| {
        set_compare(b, c, SUBSET, true, false, None)
    }),
    ("set_superset_reif", |b, c| {
        set_compare(b, c, SUBSET, true, false, Some(false))
    }),
    ("set_superset_imp", |b, c| {
        set_compare(b, c, SUBSET, true, false, Some(true))
    }),
    ("set_eq", |b, c| set_compare(b, c, EQ, false, false, None)),
    ("set_eq_reif", |b, c| {
        set_compare(b, c, EQ, false, false, Some(false))
    }),
    ("set_eq_imp", |b, c| {
        set_compare(b, c, EQ, false, false, Some(true))
    }),
    ("set_ne", |b, c| set_compare(b, c, EQ, false, true, None)),
    ("set_ne_reif", |b, c| {
        set_compare(b, c, EQ, false, true, Some(false))
    }),
    ("set_ne_imp", |b, c| {
        set_compare(b, c, EQ, false, true, Some(true))
    }),
    ("set_le", |b, c| set_order(b, c, false, None)),
    ("set_le_reif", |b, c| set_order(b, c, false, Some(false))),
    ("set_le_imp", |b, c| set_order(b, c, false, Some(true))),
    ("set_lt", |b, c| set_order(b, c, true, None)),
    ("set_lt_reif", |b, c| set_order(b, c, true, Some(false))),
    ("set_lt_imp", |b, c| set_order(b, c, true, Some(true))),
    ("array_set_element", array_set_element),
    ("array_var_set_element", array_var_set_element),
    // ----- globals reached through mznlib/ (fzn_* predicates) -------------------------------
    ("fzn_all_different_int", all_different),
    ("cpsolve_global_cardinality", |b, c| gcc(b, c, false)),
    ("cpsolve_global_cardinality_closed", |b, c| gcc(b, c, true)),
    ("cpsolve_global_cardinality_low_up", |b, c| {
        gcc_low_up(b, c, false)
    }),
    ("cpsolve_global_cardinality_low_up_closed", |b, c| {
        gcc_low_up(b, c, true)
    }),
    ("fzn_table_int", |b, c| table(b, c, Kind::Int)),
    ("fzn_table_bool", |b, c| table(b, c, Kind::Bool)),
    ("fzn_count_eq", count_eq),
    ("fzn_count_eq_par", count_eq),
    ("cpsolve_inverse", inverse),
    ("cpsolve_cumulative", cumulative),
    ("cpsolve_cumulative_var", cumulative_var),
    ("cpsolve_disjunctive", |b, c| disjunctive(b, c, false)),
    ("cpsolve_disjunctive_strict", |b, c| disjunctive(b, c, true)),
    ("cpsolve_diffn", |b, c| diffn(b, c, true)),
    ("cpsolve_diffn_nonstrict", |b, c| diffn(b, c, false)),
    ("cpsolve_circuit", |b, c| circuit(b, c, false)),
    ("cpsolve_subcircuit", |b, c| circuit(b, c, true)),
    ("cpsolve_lex_less", |b, c| lex(b, c, true)),
    ("cpsolve_lex_lesseq", |b, c| lex(b, c, false)),
    ("cpsolve_regular", regular),
];

/// The builtin posting constraint `name`, if cpsolve knows it.
pub fn find(name: &str) -> Option<Post> {
    BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, post)| post)
}

/// The types of the two arguments of `int_eq` and its kin.
type Pair = [Kind; 2];
const INTS: Pair = [Kind::Int, Kind::Int];
const BOOLS: Pair = [Kind::Bool, Kind::Bool];

fn two_vars(b: &mut Builder, c: &Constraint, kinds: Pair) -> Result<(VarId, VarId), FznError> {
    b.arity(c, 2)?;
    Ok((
        b.var_as(&c.args[0], kinds[0])?,
        b.var_as(&c.args[1], kinds[1])?,
    ))
}

fn int_eq(b: &mut Builder, c: &Constraint, kinds: Pair) -> Result<(), FznError> {
    let (x, y) = two_vars(b, c, kinds)?;
    b.model.equal_offset(x, y, 0);
    Ok(())
}

fn int_ne(b: &mut Builder, c: &Constraint, kinds: Pair) -> Result<(), FznError> {
    let (x, y) = two_vars(b, c, kinds)?;
    b.model.not_equal_offset(x, y, 0);
    Ok(())
}

fn int_le(b: &mut Builder, c: &Constraint, kinds: Pair) -> Result<(), FznError> {
    let (x, y) = two_vars(b, c, kinds)?;
    b.model.less_equal_offset(x, y, 0);
    Ok(())
}

fn int_lt(b: &mut Builder, c: &Constraint, kinds: Pair) -> Result<(), FznError> {
    let (x, y) = two_vars(b, c, kinds)?;
    b.model.less_equal_offset(x, y, -1);
    Ok(())
}

/// `r ⇔ x - y rel rhs` (`r ⇒ ...` when `half`); `x` and `y` of type `kind`, `r` a boolean.
fn compare(
    b: &mut Builder,
    c: &Constraint,
    rel: LinRel,
    rhs: i64,
    half: bool,
    kind: Kind,
) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let x = b.var_as(&c.args[0], kind)?;
    let y = b.var_as(&c.args[1], kind)?;
    let r = b.bool_var(&c.args[2])?;
    let terms = [(1, x), (-1, y)];
    let gathered = (crate::thresholds::compared_name(c))
        .filter(|name| b.compared_often.contains(name))
        .and_then(|_| b.model.as_threshold(r, &terms, rhs));
    if let Some((x, threshold)) = gathered {
        b.gathered.add(x, threshold);
        return Ok(());
    }
    let indicator = (crate::indicators::indicated_name(c))
        .filter(|name| b.indicated_often.contains(name))
        .and_then(|_| b.model.as_indicator(r, &terms, rel, rhs));
    match indicator {
        Some((x, indicator)) => b.gathered_indicators.add(x, indicator),
        None => {
            b.model.reified_linear(r, &terms, rel, rhs, half);
        }
    }
    Ok(())
}

/// The terms of a linear constraint over variables of type `kind`, checked to fit the
/// engine's 64-bit arithmetic on their domains (`Model::linear_fits`): coefficients of 2^30
/// are fine on 0..2, not on 32-bit domains.
fn linear_terms(
    b: &mut Builder,
    c: &Constraint,
    kind: Kind,
) -> Result<(Vec<(i64, VarId)>, i64), FznError> {
    let coefs = b.ints(&c.args[0])?;
    let vars = b.vars_as(&c.args[1], kind)?;
    if coefs.len() != vars.len() {
        return b.error(format!(
            "{}: {} coefficients for {} variables",
            c.name,
            coefs.len(),
            vars.len()
        ));
    }
    let mut terms: Vec<(i64, VarId)> = coefs.into_iter().zip(vars).collect();
    // bool_lin_eq's right-hand side may be a variable: move it to the left.
    let rhs = match b.value(&c.args[2])? {
        Value::Var(..) => {
            let z = b.var(&c.args[2])?;
            terms.push((-1, z));
            0
        }
        _ => b.int(&c.args[2])?,
    };
    if !b.model.linear_fits(&terms, rhs) {
        return b.error(format!(
            "{}: coefficients too large for 64-bit sums over these domains (Σ |a|·max|x| + |rhs| reaches 2^62)",
            c.name
        ));
    }
    Ok((terms, rhs))
}

fn linear(b: &mut Builder, c: &Constraint, rel: Relation, kind: Kind) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let (terms, rhs) = linear_terms(b, c, kind)?;
    if terms.is_empty() {
        let holds = match rel {
            Relation::Eq => rhs == 0,
            Relation::Ne => rhs != 0,
            Relation::Le => 0 <= rhs,
            Relation::Ge => 0 >= rhs,
        };
        if !holds {
            b.post_false()?;
        }
        return Ok(());
    }
    b.model.linear(&terms, rel, rhs);
    Ok(())
}

/// `int_lin_eq`; with `:: domain` (MiniZinc's request for domain consistency, which it
/// makes for the index of a multi-dimensional table lookup) the domain-level propagator of
/// `linear_domain.rs` is posted beside the bounds one.
fn linear_eq(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    linear(b, c, Relation::Eq, Kind::Int)?;
    let asks_domain = (c.annotations.iter()).any(|a| matches!(a, Expr::Ident(n) if n == "domain"));
    if asks_domain {
        let (terms, rhs) = linear_terms(b, c, Kind::Int)?;
        if !terms.is_empty() {
            let _ = b.model.post(Box::new(LinearEqDomain::new(&terms, rhs)));
        }
    }
    Ok(())
}

fn linear_reif(b: &mut Builder, c: &Constraint, rel: LinRel, half: bool) -> Result<(), FznError> {
    b.arity(c, 4)?;
    let (terms, rhs) = linear_terms(b, c, Kind::Int)?;
    let r = b.bool_var(&c.args[3])?;
    b.model.reified_linear(r, &terms, rel, rhs, half);
    Ok(())
}

fn int_plus(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let (x, y, z) = (b.var(&c.args[0])?, b.var(&c.args[1])?, b.var(&c.args[2])?);
    b.model.linear(&[(1, x), (1, y), (-1, z)], Relation::Eq, 0);
    Ok(())
}

fn arith(b: &mut Builder, c: &Constraint, op: ArithOp) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let (x, y, z) = (b.var(&c.args[0])?, b.var(&c.args[1])?, b.var(&c.args[2])?);
    b.model.arith(op, x, y, z);
    Ok(())
}

/// `array_int_maximum(m, x)`: `m = max(x)` (`array_int_minimum`: the minimum), one
/// propagator where MiniZinc's default is a chain of `int_max` (mznlib/redefinitions.mzn
/// declares the two). An empty array has no maximum: the model has no solution.
fn array_extremum(b: &mut Builder, c: &Constraint, maximum: bool) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let m = b.var(&c.args[0])?;
    let xs = b.vars(&c.args[1])?;
    if xs.is_empty() {
        b.post_false()?;
        return Ok(());
    }
    b.model.array_extremum(maximum, &xs, m);
    Ok(())
}

fn int_abs(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    let (x, z) = two_vars(b, c, INTS)?;
    let unused = b.constant(0)?;
    b.model.arith(ArithOp::Abs, x, unused, z);
    Ok(())
}

/// `array_int_element(i, a, z)`: `z = a[i]`, 1-based, `a` constant. The engine's element
/// is 0-based: position 0 holds a copy of `a[1]` and `i ≥ 1` rules it out. `kind`: the type
/// of the entries and of `z` (`array_bool_element`).
fn array_element(b: &mut Builder, c: &Constraint, kind: Kind) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let index = b.var(&c.args[0])?;
    let array = b.consts_as(&c.args[1], kind)?;
    let z = b.var_as(&c.args[2], kind)?;
    if array.is_empty() {
        b.post_false()?;
        return Ok(());
    }
    let mut padded = Vec::with_capacity(array.len() + 1);
    padded.push(array[0]);
    padded.extend_from_slice(&array);
    let mut entries = Vec::with_capacity(padded.len());
    for v in padded {
        if v < i32::MIN as i64 || v > i32::MAX as i64 {
            return b.error(format!("{}: the entry {v} does not fit in 32 bits", c.name));
        }
        entries.push(v as i32);
    }
    let one = b.constant(1)?;
    b.model.less_equal_offset(one, index, 0);
    b.model.element(index, &entries, z);
    Ok(())
}

fn array_var_element(b: &mut Builder, c: &Constraint, kind: Kind) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let index = b.var(&c.args[0])?;
    let array = b.vars_as(&c.args[1], kind)?;
    let z = b.var_as(&c.args[2], kind)?;
    b.model.element_var(index, 1, &array, z);
    Ok(())
}

fn bool_not(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    let (x, y) = two_vars(b, c, BOOLS)?;
    b.model.linear(&[(1, x), (1, y)], Relation::Eq, 1);
    Ok(())
}

/// `r ⇔ x ∧ y` (`and`) or `r ⇔ x ∨ y`; `half`: only `r ⇒ ...`.
fn bool_and_or(b: &mut Builder, c: &Constraint, and: bool, half: bool) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let x = b.bool_var(&c.args[0])?;
    let y = b.bool_var(&c.args[1])?;
    let r = b.bool_var(&c.args[2])?;
    post_and_or(b, &[x, y], r, and, half);
    Ok(())
}

/// `r ⇔ ∧ xs` or `r ⇔ ∨ xs` as one conjunction propagator; half (the direction `r ⇒`
/// only) as clauses.
fn post_and_or(b: &mut Builder, xs: &[VarId], r: VarId, and: bool, half: bool) {
    if !half {
        // r ⇔ ∧ xs; r ⇔ ∨ xs is ¬r ⇔ ∧ ¬xs (engine/src/propagators/conjunction.rs).
        let lits: Vec<(VarId, bool)> = xs.iter().map(|&x| (x, and)).collect();
        b.model.conjunction(&lits, (r, and));
    } else if and {
        // r ⇒ xᵢ for each i.
        for &x in xs {
            b.model.clause(&[x], &[r]);
        }
    } else {
        // r ⇒ ∨ xs.
        b.model.clause(xs, &[r]);
    }
}

fn array_and_or(b: &mut Builder, c: &Constraint, and: bool, half: bool) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let xs = b.bool_vars(&c.args[0])?;
    let r = b.bool_var(&c.args[1])?;
    post_and_or(b, &xs, r, and, half);
    Ok(())
}

/// `bool_xor(x, y)`: `x ≠ y`; `bool_xor(x, y, r)`: `r ⇔ x ≠ y` (`_imp`: `r ⇒ x ≠ y`).
fn bool_xor(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    if c.args.len() == 2 {
        return int_ne(b, c, BOOLS);
    }
    compare(b, c, LinRel::Ne, 0, c.name.ends_with("_imp"), Kind::Bool)
}

fn bool_clause(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let pos = b.bool_vars(&c.args[0])?;
    let neg = b.bool_vars(&c.args[1])?;
    b.model.clause(&pos, &neg);
    Ok(())
}

/// An odd number of `xs` is true: `Σ xs = 2k + 1` with a fresh `k`.
fn array_bool_xor(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 1)?;
    let xs = b.bool_vars(&c.args[0])?;
    let k = b
        .model
        .new_var(0, (xs.len() / 2).min(i32::MAX as usize) as i32);
    let mut terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
    terms.push((-2, k));
    b.model.linear(&terms, Relation::Eq, 1);
    Ok(())
}

/// A constant that fits the engine's `i32` values, or the constraint's error.
fn small(b: &Builder, c: &Constraint, v: i64) -> Result<i32, FznError> {
    i32::try_from(v).or_else(|_| b.error(format!("{}: {v} is out of range", c.name)))
}

fn smalls(b: &Builder, c: &Constraint, e: &crate::ast::Expr) -> Result<Vec<i32>, FznError> {
    b.ints(e)?.into_iter().map(|v| small(b, c, v)).collect()
}

/// `cpsolve_inverse(f, f_base, invf, invf_base)`: `f[i] = j ⇔ invf[j] = i` (mznlib/fzn_inverse.mzn).
fn inverse(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 4)?;
    let f = b.vars(&c.args[0])?;
    let f_base = small(b, c, b.int(&c.args[1])?)?;
    let g = b.vars(&c.args[2])?;
    let g_base = small(b, c, b.int(&c.args[3])?)?;
    // `f[i] = j` names a position of `g` and `g[j] = i` one of `f`: said at once, so that
    // the all-different inside never meets a domain of billions of values.
    restrict_to_positions(b, c, &f, g_base, g.len())?;
    restrict_to_positions(b, c, &g, f_base, f.len())?;
    b.model.inverse(&f, f_base, &g, g_base);
    Ok(())
}

/// Restrict each of `xs` to the positions `first..first + len - 1` of an array (none when
/// `len` is 0: the model has no solution if `xs` is not empty).
fn restrict_to_positions(
    b: &mut Builder,
    c: &Constraint,
    xs: &[VarId],
    first: i32,
    len: usize,
) -> Result<(), FznError> {
    let ranges = match len {
        0 => vec![],
        _ => vec![(first, small(b, c, first as i64 + len as i64 - 1)?)],
    };
    for &x in xs {
        b.restrict(x, &ranges);
    }
    Ok(())
}

/// `cpsolve_cumulative(s, d, r, capacity)` with constant durations and uses.
fn cumulative(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 4)?;
    let s = b.vars(&c.args[0])?;
    let d = smalls(b, c, &c.args[1])?;
    let r = smalls(b, c, &c.args[2])?;
    let capacity = small(b, c, b.int(&c.args[3])?)?;
    if d.len() != s.len() || r.len() != s.len() {
        return b.error(format!("{}: one duration and one use per task", c.name));
    }
    b.model.cumulative(&s, &d, &r, capacity);
    Ok(())
}

/// `cpsolve_cumulative_var(s, d, r, capacity)` with variable durations, uses and capacity.
fn cumulative_var(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 4)?;
    let s = b.vars(&c.args[0])?;
    let d = b.vars(&c.args[1])?;
    let r = b.vars(&c.args[2])?;
    let capacity = b.var(&c.args[3])?;
    if d.len() != s.len() || r.len() != s.len() {
        return b.error(format!("{}: one duration and one use per task", c.name));
    }
    b.model.cumulative_var(&s, &d, &r, capacity);
    Ok(())
}

/// `cpsolve_disjunctive(_strict)(s, d)` with constant durations.
fn disjunctive(b: &mut Builder, c: &Constraint, strict: bool) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let s = b.vars(&c.args[0])?;
    let d = smalls(b, c, &c.args[1])?;
    if d.len() != s.len() {
        return b.error(format!("{}: one duration per task", c.name));
    }
    b.model.disjunctive(&s, &d, strict);
    Ok(())
}

/// `cpsolve_diffn(_nonstrict)(x, y, dx, dy)`: rectangles that never overlap (mznlib/fzn_diffn.mzn).
fn diffn(b: &mut Builder, c: &Constraint, strict: bool) -> Result<(), FznError> {
    b.arity(c, 4)?;
    let x = b.vars(&c.args[0])?;
    let y = b.vars(&c.args[1])?;
    let dx = b.vars(&c.args[2])?;
    let dy = b.vars(&c.args[3])?;
    if y.len() != x.len() || dx.len() != x.len() || dy.len() != x.len() {
        return b.error(format!("{}: the four arrays differ in length", c.name));
    }
    b.model.diffn(&x, &y, &dx, &dy, strict);
    Ok(())
}

/// `cpsolve_(sub)circuit(succ, first_index)`.
fn circuit(b: &mut Builder, c: &Constraint, sub: bool) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let succ = b.vars(&c.args[0])?;
    let first = small(b, c, b.int(&c.args[1])?)?;
    // A successor names a node, `first..first + n - 1`: said at once, so that the
    // all-different inside the circuit never meets a domain of billions of values.
    restrict_to_positions(b, c, &succ, first, succ.len())?;
    if sub {
        b.model.subcircuit_from(&succ, first);
    } else {
        b.model.circuit_from(&succ, first);
    }
    Ok(())
}

/// `cpsolve_lex_less(eq)(x, y)`.
fn lex(b: &mut Builder, c: &Constraint, strict: bool) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let x = b.vars(&c.args[0])?;
    let y = b.vars(&c.args[1])?;
    if strict {
        b.model.lex_less(&x, &y);
    } else {
        b.model.lex_lesseq(&x, &y);
    }
    Ok(())
}

/// `cpsolve_regular(x, Q, S, d, q0, F)`: `d` row-major, `Q` rows of `S` next states (0 dead),
/// symbols 1..S.
fn regular(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 6)?;
    let x = b.vars(&c.args[0])?;
    let states = b.int(&c.args[1])?;
    let symbols = b.int(&c.args[2])?;
    let d = b.ints(&c.args[3])?;
    let start = b.int(&c.args[4])?;
    let accepting = b.set(&c.args[5])?;
    if states < 1
        || symbols < 1
        || Some(d.len() as i64) != states.checked_mul(symbols)
        || d.iter().any(|&q| q < 0 || q > states)
        || start < 1
        || start > states
    {
        return b.error(format!(
            "{}: the transition table is not Q × S states in 0..Q, or the start state is not in 1..Q",
            c.name
        ));
    }
    let next: Vec<Vec<usize>> = d
        .chunks(symbols as usize)
        .map(|row| row.iter().map(|&q| q as usize).collect())
        .collect();
    let dfa = engine::propagators::regular::Dfa {
        states: states as usize,
        first_value: 1,
        symbols: symbols as usize,
        next,
        start: start as usize,
        accepting: accepting
            .into_iter()
            .filter(|&q| q >= 1 && q as i64 <= states)
            .map(|q| q as usize)
            .collect(),
    };
    b.model.regular(&x, dfa);
    Ok(())
}

/// The widest union of domains (from the least value to the greatest) handed to a
/// propagator that keeps memory per value (Régin's matching in
/// `engine/src/propagators/value_graph.rs`: about fifty bytes a value). Wider, a
/// representation by bounds is chosen instead: two variables in `1..2147483646` would
/// otherwise ask for gigabytes.
pub const VALUE_GRAPH_MAX_SPAN: i64 = 1 << 16;

/// From the least value of `xs` to the greatest, how many values (0 when `xs` is empty).
fn union_span(b: &Builder, xs: &[VarId]) -> i64 {
    let lo = xs.iter().map(|&x| b.model.min(x) as i64).min();
    let hi = xs.iter().map(|&x| b.model.max(x) as i64).max();
    match (lo, hi) {
        (Some(lo), Some(hi)) => hi - lo + 1,
        _ => 0,
    }
}

/// Domain consistent (Régin) while the values are few enough to list; past
/// [`VALUE_GRAPH_MAX_SPAN`], Hall intervals on the bounds (López-Ortiz et al.) with forward
/// checking, whose memory is per variable: weaker pruning, the same solutions.
fn all_different(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 1)?;
    let xs = b.vars(&c.args[0])?;
    let level = if union_span(b, &xs) <= VALUE_GRAPH_MAX_SPAN {
        AllDiffLevel::Domain
    } else {
        AllDiffLevel::Bounds
    };
    b.model.all_different(&xs, level);
    Ok(())
}

/// `count(x = cover[j]) = counts[j]`: Régin's flow propagator when every count is fixed,
/// else one counting sum per value. `closed`: the `x` take only values of `cover`.
fn gcc(b: &mut Builder, c: &Constraint, closed: bool) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let xs = b.vars(&c.args[0])?;
    let cover = b.ints(&c.args[1])?;
    let counts = b.vars(&c.args[2])?;
    if cover.len() != counts.len() {
        return b.error(format!("{}: cover and counts differ in length", c.name));
    }
    if closed {
        restrict_to_cover(b, &xs, &cover)?;
    }
    let mut fixed = Vec::new();
    for (&v, &n) in cover.iter().zip(&counts) {
        if b.model.is_fixed(n) && b.model.value(n) >= 0 && fits(v) {
            fixed.push((v as i32, b.model.value(n) as u32));
        }
    }
    // Régin's flow keeps memory per value of the union of the domains (see
    // `VALUE_GRAPH_MAX_SPAN`); wider, one counting sum per value.
    if fixed.len() == cover.len() && union_span(b, &xs) <= VALUE_GRAPH_MAX_SPAN {
        b.model.global_cardinality(&xs, &fixed);
        return Ok(());
    }
    for (&v, &n) in cover.iter().zip(&counts) {
        post_count(b, &xs, v, n)?;
    }
    Ok(())
}

fn gcc_low_up(b: &mut Builder, c: &Constraint, closed: bool) -> Result<(), FznError> {
    b.arity(c, 4)?;
    let xs = b.vars(&c.args[0])?;
    let cover = b.ints(&c.args[1])?;
    let low = b.ints(&c.args[2])?;
    let up = b.ints(&c.args[3])?;
    if cover.len() != low.len() || cover.len() != up.len() {
        return b.error(format!("{}: cover and bounds differ in length", c.name));
    }
    if closed {
        restrict_to_cover(b, &xs, &cover)?;
    }
    for j in 0..cover.len() {
        if !fits(cover[j]) {
            continue; // no 32-bit variable takes it: the count is 0
        }
        let (lo, hi) = (
            low[j].clamp(-1, i32::MAX as i64),
            up[j].clamp(-1, i32::MAX as i64),
        );
        b.model
            .count_between(&xs, cover[j] as i32, lo as i32, hi as i32);
        if lo > 0 && lo > xs.len() as i64 || hi < 0 {
            b.post_false()?;
        }
    }
    Ok(())
}

fn fits(v: i64) -> bool {
    v >= i32::MIN as i64 && v <= i32::MAX as i64
}

fn restrict_to_cover(b: &mut Builder, xs: &[VarId], cover: &[i64]) -> Result<(), FznError> {
    let values: Vec<i64> = cover.iter().copied().filter(|&v| fits(v)).collect();
    let ranges: Vec<(i32, i32)> = crate::parse::ranges_of(values)
        .into_iter()
        .map(|(lo, hi)| (lo as i32, hi as i32))
        .collect();
    for &x in xs {
        b.restrict(x, &ranges);
    }
    Ok(())
}

/// `n = #{i : xs[i] = v}`: one reification per variable and a sum.
fn post_count(b: &mut Builder, xs: &[VarId], v: i64, n: VarId) -> Result<(), FznError> {
    let mut terms: Vec<(i64, VarId)> = Vec::with_capacity(xs.len() + 1);
    for &x in xs {
        if fits(v) && b.model.contains(x, v as i32) {
            let r = b.model.new_bool();
            b.model.reify_eq(r, x, v as i32);
            terms.push((1, r));
        }
    }
    terms.push((-1, n));
    b.model.linear(&terms, Relation::Eq, 0);
    Ok(())
}

/// `count(x = y) = c`: the engine's counting propagator when `y` and `c` are fixed, else
/// reifications and a sum.
fn count_eq(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    b.arity(c, 3)?;
    let xs = b.vars(&c.args[0])?;
    let y = b.var(&c.args[1])?;
    let n = b.var(&c.args[2])?;
    if b.model.is_fixed(y) && b.model.is_fixed(n) {
        let (v, k) = (b.model.value(y), b.model.value(n));
        b.model.count_eq(&xs, v, k);
        return Ok(());
    }
    if b.model.is_fixed(y) {
        let v = b.model.value(y) as i64;
        return post_count(b, &xs, v, n);
    }
    let mut terms: Vec<(i64, VarId)> = Vec::with_capacity(xs.len() + 1);
    for &x in &xs {
        let r = b.model.new_bool();
        b.model
            .reified_linear(r, &[(1, x), (-1, y)], LinRel::Eq, 0, false);
        terms.push((1, r));
    }
    terms.push((-1, n));
    b.model.linear(&terms, Relation::Eq, 0);
    Ok(())
}

/// `x` is a row of `t` (given flat, row after row); `kind`: of the `x` and the entries.
fn table(b: &mut Builder, c: &Constraint, kind: Kind) -> Result<(), FznError> {
    b.arity(c, 2)?;
    let xs = b.vars_as(&c.args[0], kind)?;
    let flat = b.consts_as(&c.args[1], kind)?;
    if xs.is_empty() {
        return Ok(());
    }
    if flat.len() % xs.len() != 0 {
        return b.error(format!(
            "{}: the table's size is not a multiple of the arity",
            c.name
        ));
    }
    let mut tuples = Vec::with_capacity(flat.len() / xs.len());
    for row in flat.chunks(xs.len()) {
        if row.iter().all(|&v| fits(v)) {
            tuples.push(row.iter().map(|&v| v as i32).collect());
        }
    }
    b.model.table(&xs, tuples);
    Ok(())
}
