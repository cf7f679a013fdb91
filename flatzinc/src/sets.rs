//! # Reading set variables and set arguments
//!
//! A `var set of U` declaration becomes one fresh boolean per value of `U`, a
//! [`SetVar`] (`set_var.rs` says why a set is a view over booleans); a set argument of a
//! constraint, variable or constant, is read as a `SetVar` too, and several sets are aligned
//! on one universe for the builtins of `set_builtins.rs`.

use crate::ast::{Decl, Expr, FznError, FznModel};
use crate::builder::{Builder, Value};
use crate::set_var::{SetVar, MAX_SET_BOOLEANS, MAX_SET_CELLS, MAX_UNIVERSE};
use engine::VarId;
use std::collections::HashMap;

/// The values of sorted disjoint `ranges`, refused past [`MAX_UNIVERSE`].
fn values_of(b: &Builder, ranges: &[(i64, i64)]) -> Result<Vec<i32>, FznError> {
    let mut values: Vec<i32> = Vec::new();
    let mut sorted: Vec<(i64, i64)> = ranges.iter().copied().filter(|r| r.0 <= r.1).collect();
    sorted.sort_unstable();
    for (lo, hi) in sorted {
        crate::builder::check_domain_span(lo, hi, b.line)?;
        if values.len() as i64 + (hi - lo + 1) > MAX_UNIVERSE as i64 {
            return b.error(format!(
                "a set variable over more than {MAX_UNIVERSE} values is too large for this version (one boolean per value)"
            ));
        }
        values.extend(lo as i32..=hi as i32);
    }
    values.dedup();
    Ok(values)
}

/// A declared `var set of U: name` (a fresh boolean per value of `U`), or one given a value
/// (`= other` or `= {1, 3}`), restricted to `U` when `U` is declared.
pub fn declare(b: &mut Builder, d: &Decl) -> Result<Value, FznError> {
    let universe = match &d.ty.domain {
        Some(ranges) => Some(values_of(b, ranges)?),
        None => None,
    };
    if let Some(e) = &d.value {
        let s = set_of(b, e)?;
        if let Some(universe) = universe {
            for &(v, x) in &s.elements {
                if universe.binary_search(&v).is_err() {
                    // A value outside the declared universe is out of the set.
                    if b.model.contains(x, 0) {
                        let _ = b.model.restrict_to(x, &[0]);
                    } else {
                        b.model_is_unsatisfiable = true;
                    }
                }
            }
        }
        return Ok(Value::SetVar(s));
    }
    let Some(universe) = universe else {
        return b.error(format!(
            "'{}': a set variable needs a finite universe ('var set of 1..n'), not 'var set of int'",
            d.name
        ));
    };
    b.set_booleans += universe.len();
    if b.set_booleans > MAX_SET_BOOLEANS {
        return b.error(format!(
            "'{}': the set variables declared so far need more than {MAX_SET_BOOLEANS} booleans in all (one per value of each universe): too large for this version",
            d.name
        ));
    }
    let elements = universe
        .into_iter()
        .map(|v| (v, b.model.new_bool()))
        .collect();
    Ok(Value::SetVar(SetVar { elements }))
}

/// A set argument (a set variable, a constant set, or a set parameter) as a [`SetVar`].
pub fn set_of(b: &mut Builder, e: &Expr) -> Result<SetVar, FznError> {
    let v = b.value(e)?;
    set_of_value(b, &v)
}

/// [`set_of`] for a value already read.
pub fn set_of_value(b: &mut Builder, v: &Value) -> Result<SetVar, FznError> {
    match v {
        Value::SetVar(s) => Ok(s.clone()),
        Value::Set(ranges) => {
            let values = values_of(b, ranges)?;
            let one = b.constant(1)?;
            Ok(SetVar {
                elements: values.into_iter().map(|v| (v, one)).collect(),
            })
        }
        _ => b.error("expected a set of integers"),
    }
}

/// An array of set arguments.
pub fn sets_of(b: &mut Builder, e: &Expr) -> Result<Vec<SetVar>, FznError> {
    match b.value(e)? {
        Value::Array(items) => items.iter().map(|v| set_of_value(b, v)).collect(),
        _ => b.error("expected an array of sets"),
    }
}

/// Several sets read over one universe (the union of theirs): for each value, each set's
/// boolean, the shared constant 0 where the value is outside a set's universe.
pub fn aligned(b: &mut Builder, sets: &[&SetVar]) -> Result<(Vec<i32>, Vec<Vec<VarId>>), FznError> {
    let mut universe: Vec<i32> = sets.iter().flat_map(|s| s.universe()).collect();
    universe.sort_unstable();
    universe.dedup();
    b.set_cells += universe.len() * sets.len();
    if b.set_cells > MAX_SET_CELLS {
        return b.error(format!(
            "the set constraints so far span more than {MAX_SET_CELLS} values of their sets in all (a constraint per value): too large for this version"
        ));
    }
    let zero = b.constant(0)?;
    let columns = (sets.iter())
        .map(|s| {
            (universe.iter())
                .map(|&v| s.boolean(v).unwrap_or(zero))
                .collect()
        })
        .collect();
    Ok((universe, columns))
}

/// The booleans that only name a set's membership: `set_in_reif(v, S, b)` with a constant
/// `v` says `b ⇔ v ∈ S`, which is `S`'s own boolean of `v`. MiniZinc writes one such `b`
/// for each `bool2int(v in S)` of a model; read as an alias (`b` is the boolean, not a
/// variable kept equal to it), it costs no propagator. Name of `b` → (`S`, `v`), for the
/// `b` that are plain names (`build.rs` declares them as the boolean, when `S` is a set
/// variable declared before `b` and `v` in its universe).
pub fn membership_aliases(fzn: &FznModel) -> HashMap<String, (Expr, i64)> {
    let mut aliases = HashMap::new();
    for c in &fzn.constraints {
        if let (true, [Expr::Int(v), set, Expr::Ident(r)]) =
            (c.name == "set_in_reif", c.args.as_slice())
        {
            let _ = aliases.entry(r.clone()).or_insert((set.clone(), *v));
        }
    }
    aliases
}

/// The boolean a `var bool` named `name` aliases (see [`membership_aliases`]), if any.
pub fn alias_of(b: &Builder, name: &str) -> Option<VarId> {
    let (set, v) = b.membership_aliases.get(name)?;
    match b.value(set).ok()? {
        Value::SetVar(s) => s.boolean(i32::try_from(*v).ok()?),
        _ => None,
    }
}
