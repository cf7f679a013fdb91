//! # From FlatZinc to an engine model: declarations, constraints, output and search
//!
//! The builder walks the syntax tree once. Each declaration becomes an engine variable (a
//! `var bool` is a 0/1 variable; a `var int` keeps exactly its declared domain; a
//! `var set of U` is one 0/1 variable per value of `U`, `set_var.rs`), each
//! constraint is handed to its builtin in `builtins.rs`, and the annotations are collected:
//! which variables to print (`output_var`, `output_array`) and how to search (`int_search`,
//! `bool_search`, `seq_search`, checked here and read in `search.rs`).
//!
//! The state of the walk and the readers of arguments live in `builder.rs`, the floor that
//! both this file and `builtins.rs` stand on (so neither imports the other's caller).

use crate::ast::{BaseType, Constraint, Decl, Expr, FznError, FznModel, Goal};
use crate::builder::{check_domain_span, Builder, Kind};
use crate::limits::limit_passed;
use engine::{Limits, Model, VarId};
use std::collections::HashMap;

pub use crate::builder::Value;

/// One thing to print for each solution.
#[derive(Clone, Debug)]
pub enum OutputItem {
    /// `name = value;`
    Scalar { name: String, value: Value },
    /// `name = arrayNd(ranges, [values]);`
    Array {
        name: String,
        dims: Vec<(i64, i64)>,
        values: Vec<Value>,
    },
}

/// The model, ready to search.
#[derive(Debug)]
pub struct Built {
    pub model: Model,
    pub output: Vec<OutputItem>,
    /// `Some((objective, minimize))` for an optimisation problem.
    pub objective: Option<(VarId, bool)>,
    /// The solve item's annotations.
    pub search_annotations: Vec<Expr>,
    /// Every named variable, in declaration order (the default branching order).
    pub decision_vars: Vec<VarId>,
    /// The variables MiniZinc marks `:: is_defined_var`: a constraint computes each from
    /// others (a partial sum, an element's result), so fixing the others fixes it.
    pub defined_vars: Vec<VarId>,
    /// Name -> value, for the search annotations.
    pub names: HashMap<String, Value>,
}

/// How many items pass between two looks at the clock.
const CLOCK_EVERY: usize = 256;

/// The scalar type of a declaration's values (`None`: floats and sets, not solved over).
fn kind_of(d: &Decl) -> Option<Kind> {
    match d.ty.base {
        BaseType::Int => Some(Kind::Int),
        BaseType::Bool => Some(Kind::Bool),
        BaseType::Float | BaseType::SetOfInt => None,
    }
}

/// Declare one parameter or variable.
fn declare(b: &mut Builder, d: &Decl) -> Result<Option<OutputItem>, FznError> {
    b.line = d.line;
    if b.names.contains_key(&d.name) {
        return b.error(format!("'{}' is declared twice", d.name));
    }
    if d.ty.var && d.ty.base == BaseType::Float {
        return b.error(format!(
            "'{}': var float is not supported by cpsolve (integers and booleans only)",
            d.name
        ));
    }
    let value = if !d.ty.var {
        let Some(e) = &d.value else {
            return b.error(format!("the parameter '{}' has no value", d.name));
        };
        if d.ty.base == BaseType::Float {
            // Float parameters are only ever used by float constraints, refused there.
            Value::Array(vec![])
        } else {
            let value = b.value(e)?;
            check_parameter(b, d, &value)?;
            value
        }
    } else if d.ty.base == BaseType::SetOfInt {
        set_variables(b, d)?
    } else if d.ty.array_len.is_some() {
        let Some(e) = &d.value else {
            return b.error(format!("the variable array '{}' has no elements", d.name));
        };
        let items = match b.value(e)? {
            Value::Array(items) => items,
            _ => return b.error(format!("'{}' must be an array", d.name)),
        };
        let is_bool = d.ty.base == BaseType::Bool;
        let kind = if is_bool { Kind::Bool } else { Kind::Int };
        for item in &items {
            b.check_kind(item, kind)?;
        }
        Value::Array(
            items
                .into_iter()
                .map(|v| match v {
                    Value::Var(x, _) => Value::Var(x, is_bool),
                    other => other,
                })
                .collect(),
        )
    } else {
        new_variable(b, d)?
    };
    // `array [1..n]` holds n elements: a shorter or longer list is an error, not an
    // output that lies about its index set.
    if let (Some(n), Value::Array(items)) = (d.ty.array_len, &value) {
        if items.len() != n && d.ty.base != BaseType::Float {
            return b.error(format!(
                "the array '{}' is declared with {n} elements and given {}",
                d.name,
                items.len()
            ));
        }
    }
    b.names.insert(d.name.clone(), value.clone());
    output_of(b, d, value)
}

/// A `var set` (one boolean per value of its universe, `sets.rs`), or an array of them,
/// whose items are set variables or constant sets.
fn set_variables(b: &mut Builder, d: &Decl) -> Result<Value, FznError> {
    if d.ty.array_len.is_none() {
        return crate::sets::declare(b, d);
    }
    let Some(e) = &d.value else {
        return b.error(format!("the variable array '{}' has no elements", d.name));
    };
    let Value::Array(items) = b.value(e)? else {
        return b.error(format!("'{}' must be an array", d.name));
    };
    for item in &items {
        if !matches!(item, Value::SetVar(_) | Value::Set(_)) {
            return b.error(format!("'{}' must be an array of sets", d.name));
        }
    }
    Ok(Value::Array(items))
}

/// A parameter's value has its declared type: `int: n = true;` is refused, not read as 1.
fn check_parameter(b: &Builder, d: &Decl, value: &Value) -> Result<(), FznError> {
    let scalars: &[Value] = match (d.ty.array_len, value) {
        (Some(_), Value::Array(items)) => items,
        (Some(_), _) => return b.error(format!("'{}' must be an array", d.name)),
        (None, _) => std::slice::from_ref(value),
    };
    for v in scalars {
        match (kind_of(d), v) {
            (Some(kind), _) => b.check_kind(v, kind)?,
            (None, Value::Set(_)) => {}
            (None, _) => return b.error(format!("'{}' must be a set of integers", d.name)),
        }
    }
    Ok(())
}

/// A scalar `var bool` or `var int`.
fn new_variable(b: &mut Builder, d: &Decl) -> Result<Value, FznError> {
    let is_bool = d.ty.base == BaseType::Bool;
    let kind = if is_bool { Kind::Bool } else { Kind::Int };
    if let Some(e) = &d.value {
        // `var int: x = y;` names another variable or a constant.
        let x = b.var_as(e, kind)?;
        if let Some(ranges) = &d.ty.domain {
            let ranges = domain_ranges(b, ranges)?;
            b.restrict(x, &ranges);
        }
        return Ok(Value::Var(x, is_bool));
    }
    let alias = (is_bool && d.ty.domain.is_none())
        .then(|| crate::sets::alias_of(b, &d.name))
        .flatten();
    if let Some(x) = alias {
        return Ok(Value::Var(x, true));
    }
    let x = if is_bool {
        b.model.new_bool()
    } else {
        let inferred = b.inferred.get(&d.name).map(|&r| vec![r]);
        match d.ty.domain.as_ref().or(inferred.as_ref()) {
            None => {
                return b.error(format!(
                    "'{}' has no bounds, and none follows from its constraints: cpsolve needs a 'var int' to have a range within {}..{}",
                    d.name,
                    i32::MIN,
                    engine::domain::MAX_VALUE
                ))
            }
            Some(ranges) if ranges.len() == 1 && ranges[0].0 <= ranges[0].1 => {
                let (lo, hi) = ranges[0];
                check_domain_span(lo, hi, b.line)?;
                b.model.new_var(lo as i32, hi as i32)
            }
            Some(ranges) => {
                let ranges = domain_ranges(b, ranges)?;
                if ranges.is_empty() {
                    b.model_is_unsatisfiable = true;
                    b.model.new_var(0, 0)
                } else {
                    b.model.new_var_from_ranges(&ranges)
                }
            }
        }
    };
    if let Some(ranges) = &d.ty.domain {
        if ranges.is_empty() {
            b.model_is_unsatisfiable = true;
        }
    }
    Ok(Value::Var(x, is_bool))
}

/// A declared domain as sorted, disjoint, non-empty ranges (never enumerated: it may
/// span billions of values). Its hull must fit the engine, as one range would.
fn domain_ranges(b: &Builder, ranges: &[(i64, i64)]) -> Result<Vec<(i32, i32)>, FznError> {
    let mut sorted: Vec<(i64, i64)> = ranges.iter().copied().filter(|r| r.0 <= r.1).collect();
    sorted.sort_unstable();
    if let (Some(first), Some(last)) = (sorted.first(), sorted.iter().map(|r| r.1).max()) {
        check_domain_span(first.0, last, b.line)?;
    }
    let mut merged: Vec<(i32, i32)> = Vec::new();
    for (lo, hi) in sorted {
        check_domain_span(lo, hi, b.line)?;
        let (lo, hi) = (lo as i32, hi as i32);
        match merged.last_mut() {
            Some(last) if lo as i64 <= last.1 as i64 + 1 => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    Ok(merged)
}

/// The output item a declaration's annotations ask for.
fn output_of(b: &Builder, d: &Decl, value: Value) -> Result<Option<OutputItem>, FznError> {
    for ann in &d.annotations {
        match ann {
            Expr::Ident(a) if a == "output_var" => {
                return Ok(Some(OutputItem::Scalar {
                    name: d.name.clone(),
                    value,
                }))
            }
            Expr::Call(a, args) if a == "output_array" => {
                let Some(Expr::Array(ranges)) = args.first() else {
                    return b.error("output_array takes an array of index sets");
                };
                let mut dims = Vec::new();
                for r in ranges {
                    match r {
                        Expr::Set(rs) if rs.len() == 1 => dims.push(rs[0]),
                        Expr::Set(rs) if rs.is_empty() => dims.push((1, 0)),
                        _ => return b.error("output_array takes ranges lo..hi"),
                    }
                }
                let Value::Array(values) = value else {
                    return b.error("output_array on a non-array");
                };
                // The index sets must cover the elements exactly, or the printed
                // `arrayNd` would lie about them.
                let cells = dims.iter().try_fold(1i64, |n, &(lo, hi)| {
                    n.checked_mul(hi.saturating_sub(lo).saturating_add(1).max(0))
                });
                if cells != Some(values.len() as i64) {
                    return b.error(format!(
                        "output_array of '{}': its index sets do not hold its {} elements",
                        d.name,
                        values.len()
                    ));
                }
                return Ok(Some(OutputItem::Array {
                    name: d.name.clone(),
                    dims,
                    values,
                }));
            }
            _ => {}
        }
    }
    Ok(None)
}

/// Build the engine model of a parsed FlatZinc file.
pub fn build(fzn: &FznModel) -> Result<Built, FznError> {
    build_within(fzn, &Limits::default())
}

/// [`build`] under the run's deadline and stop flag (see `limits.rs`).
pub fn build_within(fzn: &FznModel, limits: &Limits) -> Result<Built, FznError> {
    let mut b = Builder::new(crate::bounds::infer(fzn), limits.clone());
    b.compared_often = crate::thresholds::compared_often(fzn);
    b.indicated_often = crate::indicators::indicated_often(fzn);
    b.membership_aliases = crate::sets::membership_aliases(fzn);
    let mut output = Vec::new();
    let mut decision_vars = Vec::new();
    let mut defined_vars = Vec::new();
    for (i, d) in fzn.decls.iter().enumerate() {
        look_at_the_clock(&b, i, d.line)?;
        if let Some(item) = declare(&mut b, d)? {
            output.push(item);
        }
        // A set's membership boolean under another name is the set's (already counted).
        let aliased = d.ty.base == BaseType::Bool
            && d.value.is_none()
            && crate::sets::alias_of(&b, &d.name).is_some();
        if d.ty.var && d.ty.array_len.is_none() && !aliased {
            // A set variable decides through its booleans.
            let decided = match b.names.get(&d.name) {
                Some(Value::Var(x, _)) => vec![*x],
                Some(Value::SetVar(s)) => s.booleans(),
                _ => vec![],
            };
            let defined = Expr::Ident("is_defined_var".to_string());
            if d.annotations.contains(&defined) {
                defined_vars.extend(&decided);
            }
            decision_vars.extend(decided);
        }
    }
    for (i, c) in fzn.constraints.iter().enumerate() {
        look_at_the_clock(&b, i, c.line)?;
        b.line = c.line;
        post_constraint(&mut b, c)?;
    }
    std::mem::take(&mut b.gathered).post(&mut b.model);
    std::mem::take(&mut b.gathered_indicators).post(&mut b.model);
    crate::set_builtins::post_set_orders(&mut b);
    b.line = fzn.solve.line;
    if let Err(message) = crate::builder::check_annotations(&b.names, &fzn.solve.annotations) {
        return b.error(message);
    }
    let objective = match &fzn.solve.goal {
        Goal::Satisfy => None,
        Goal::Minimize(e) => Some((b.var(e)?, true)),
        Goal::Maximize(e) => Some((b.var(e)?, false)),
    };
    if b.model_is_unsatisfiable {
        // An empty declared domain: post a constraint that fails at the root.
        b.post_false()?;
    }
    Ok(Built {
        model: b.model,
        output,
        objective,
        search_annotations: fzn.solve.annotations.clone(),
        decision_vars,
        defined_vars,
        names: b.names,
    })
}

/// Every `CLOCK_EVERY` items, stop if the deadline or a stop signal has passed.
fn look_at_the_clock(b: &Builder, item: usize, line: usize) -> Result<(), FznError> {
    if item % CLOCK_EVERY == CLOCK_EVERY - 1 && limit_passed(&b.limits) {
        return Err(FznError::limit(line));
    }
    Ok(())
}

/// Hand one constraint to its builtin, or say why it cannot be built.
fn post_constraint(b: &mut Builder, c: &Constraint) -> Result<(), FznError> {
    match crate::builtins::find(&c.name) {
        Some(post) => post(b, c),
        None => b.error(unknown_constraint_message(&c.name)),
    }
}

/// The message for a constraint no builtin handles.
pub fn unknown_constraint_message(name: &str) -> String {
    if name.starts_with("float_") || name.contains("_float") {
        return format!("'{name}': float constraints are not supported by cpsolve");
    }
    let global = name.strip_prefix("fzn_").unwrap_or(name);
    format!(
        "unknown constraint '{name}': cpsolve's mznlib has no fzn_{global}, so MiniZinc should have decomposed it (was the model compiled for another solver? compile with --solver cpsolve)"
    )
}
