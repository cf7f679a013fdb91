//! # From FlatZinc to an engine model: declarations, arguments, output and search
//!
//! The builder walks the syntax tree once. Each declaration becomes an engine variable (a
//! `var bool` is a 0/1 variable; a `var int` keeps exactly its declared domain), each
//! constraint is handed to its builtin in `builtins.rs`, and the annotations are collected:
//! which variables to print (`output_var`, `output_array`) and how to search (`int_search`,
//! `bool_search`, `seq_search`, see `search.rs`).
//!
//! Names resolve to [`Value`]s: a parameter is a constant, a variable an engine `VarId`, an
//! array a list of either. A constant used where a variable is expected becomes a fixed
//! variable (one per distinct constant, shared).

use crate::ast::{BaseType, Constraint, Decl, Expr, FznError, FznModel, Goal};
use engine::{Model, VarId};
use std::collections::HashMap;

/// What a name stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// A set of integers as sorted disjoint ranges.
    Set(Vec<(i64, i64)>),
    /// A variable, and whether it is a `var bool`.
    Var(VarId, bool),
    Array(Vec<Value>),
}

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
    /// Name -> value, for the search annotations.
    pub names: HashMap<String, Value>,
}

/// The most values a set parameter may list (its values are enumerated).
pub const MAX_SET_VALUES: i64 = 1 << 26;

/// The one place that decides whether a declared domain fits the engine: any range of
/// 32-bit values does, except that a wide one (an interval domain,
/// `engine/src/domain/interval.rs`) stops at `engine::domain::MAX_VALUE` (`i32::MAX - 1`).
/// A domain is never clamped to fit (that would give wrong answers): one reaching beyond is
/// refused with a clear message.
pub fn check_domain_span(lo: i64, hi: i64, line: usize) -> Result<(), FznError> {
    let wide = hi - lo + 1 > engine::domain::BITSET_MAX_SPAN;
    let top = if wide {
        engine::domain::MAX_VALUE as i64
    } else {
        i32::MAX as i64
    };
    if lo < i32::MIN as i64 || hi > top {
        return Err(FznError::new(
            line,
            format!(
                "the domain {lo}..{hi} reaches beyond the values this version supports ({}..{top})",
                i32::MIN
            ),
        ));
    }
    Ok(())
}

/// The builder's state while it walks the tree.
#[derive(Debug)]
pub struct Builder {
    pub model: Model,
    pub names: HashMap<String, Value>,
    constants: HashMap<i64, VarId>,
    /// The line of the item being built, for errors.
    pub line: usize,
    /// A declared domain was empty: the model has no solution.
    model_is_unsatisfiable: bool,
    /// Ranges computed for `var int` declared without one (`bounds.rs`).
    inferred: HashMap<String, (i64, i64)>,
}

impl Builder {
    pub fn error<T>(&self, message: impl Into<String>) -> Result<T, FznError> {
        Err(FznError::new(self.line, message))
    }

    /// A constraint that always fails (0 = 1): the model has no solution.
    pub fn post_false(&mut self) -> Result<(), FznError> {
        let zero = self.constant(0)?;
        self.model.linear(&[(1, zero)], engine::Relation::Eq, 1);
        Ok(())
    }

    /// A fixed variable holding `v` (shared between uses).
    pub fn constant(&mut self, v: i64) -> Result<VarId, FznError> {
        if let Some(&x) = self.constants.get(&v) {
            return Ok(x);
        }
        if v < i32::MIN as i64 || v > i32::MAX as i64 {
            return self.error(format!("the constant {v} does not fit in 32 bits"));
        }
        let x = self.model.new_var(v as i32, v as i32);
        self.constants.insert(v, x);
        Ok(x)
    }

    /// The value of an expression.
    pub fn value(&self, e: &Expr) -> Result<Value, FznError> {
        match e {
            Expr::Int(v) => Ok(Value::Int(*v)),
            Expr::Bool(b) => Ok(Value::Bool(*b)),
            Expr::Set(r) => Ok(Value::Set(r.clone())),
            Expr::Float(_) => self.error("float values are not supported by cpsolve"),
            Expr::Str(_) => self.error("a string is not a value here"),
            Expr::Ident(name) => self
                .names
                .get(name)
                .cloned()
                .map_or_else(|| self.error(format!("unknown name '{name}'")), Ok),
            Expr::Access(name, i) => match self.names.get(name) {
                Some(Value::Array(items)) => {
                    if *i >= 1 && (*i as usize) <= items.len() {
                        Ok(items[*i as usize - 1].clone())
                    } else {
                        self.error(format!("index {i} out of the bounds of '{name}'"))
                    }
                }
                Some(_) => self.error(format!("'{name}' is not an array")),
                None => self.error(format!("unknown name '{name}'")),
            },
            Expr::Array(items) => Ok(Value::Array(
                items
                    .iter()
                    .map(|x| self.value(x))
                    .collect::<Result<_, _>>()?,
            )),
            Expr::Call(name, _) => self.error(format!("'{name}(...)' is not a value")),
        }
    }

    /// An integer parameter.
    pub fn int(&self, e: &Expr) -> Result<i64, FznError> {
        match self.value(e)? {
            Value::Int(v) => Ok(v),
            Value::Bool(b) => Ok(b as i64),
            _ => self.error("expected an integer constant"),
        }
    }

    /// A variable (a constant becomes a fixed variable).
    pub fn var(&mut self, e: &Expr) -> Result<VarId, FznError> {
        let v = self.value(e)?;
        self.var_of(&v)
    }

    fn var_of(&mut self, v: &Value) -> Result<VarId, FznError> {
        match v {
            Value::Var(x, _) => Ok(*x),
            Value::Int(i) => self.constant(*i),
            Value::Bool(b) => self.constant(*b as i64),
            _ => self.error("expected a variable or an integer"),
        }
    }

    fn array(&self, e: &Expr) -> Result<Vec<Value>, FznError> {
        match self.value(e)? {
            Value::Array(items) => Ok(items),
            _ => self.error("expected an array"),
        }
    }

    /// An array of integer parameters.
    pub fn ints(&self, e: &Expr) -> Result<Vec<i64>, FznError> {
        self.array(e)?
            .iter()
            .map(|v| match v {
                Value::Int(i) => Ok(*i),
                Value::Bool(b) => Ok(*b as i64),
                _ => self.error("expected an array of integer constants"),
            })
            .collect()
    }

    /// An array of variables.
    pub fn vars(&mut self, e: &Expr) -> Result<Vec<VarId>, FznError> {
        let items = self.array(e)?;
        items.iter().map(|v| self.var_of(v)).collect()
    }

    /// A set parameter, as its values (sets wider than a domain are refused).
    pub fn set(&self, e: &Expr) -> Result<Vec<i32>, FznError> {
        match self.value(e)? {
            Value::Set(ranges) => {
                let mut values = Vec::new();
                for &(lo, hi) in &ranges {
                    check_domain_span(lo, hi, self.line)?;
                    if values.len() as i64 + (hi - lo + 1).max(0) > MAX_SET_VALUES {
                        return self.error(format!(
                            "a set of more than {MAX_SET_VALUES} values is too large for this version"
                        ));
                    }
                    values.extend(lo as i32..=hi as i32);
                }
                Ok(values)
            }
            _ => self.error("expected a set of integers"),
        }
    }

    /// Check the number of arguments of a constraint.
    pub fn arity(&self, c: &Constraint, n: usize) -> Result<(), FznError> {
        if c.args.len() != n {
            return self.error(format!(
                "{} takes {n} arguments, found {}",
                c.name,
                c.args.len()
            ));
        }
        Ok(())
    }

    /// Declare one parameter or variable.
    fn declare(&mut self, d: &Decl) -> Result<Option<OutputItem>, FznError> {
        self.line = d.line;
        if self.names.contains_key(&d.name) {
            return self.error(format!("'{}' is declared twice", d.name));
        }
        if d.ty.var && d.ty.base == BaseType::Float {
            return self.error(format!(
                "'{}': var float is not supported by cpsolve (integers and booleans only)",
                d.name
            ));
        }
        if d.ty.var && d.ty.base == BaseType::SetOfInt {
            return self.error(format!(
                "'{}': set variables are not supported by cpsolve (integers and booleans only; through MiniZinc, its nosets.mzn turns them into booleans)",
                d.name
            ));
        }
        let value = if !d.ty.var {
            let Some(e) = &d.value else {
                return self.error(format!("the parameter '{}' has no value", d.name));
            };
            if d.ty.base == BaseType::Float {
                // Float parameters are only ever used by float constraints, refused there.
                Value::Array(vec![])
            } else {
                self.value(e)?
            }
        } else if d.ty.array_len.is_some() {
            let Some(e) = &d.value else {
                return self.error(format!("the variable array '{}' has no elements", d.name));
            };
            let items = match self.value(e)? {
                Value::Array(items) => items,
                _ => return self.error(format!("'{}' must be an array", d.name)),
            };
            let is_bool = d.ty.base == BaseType::Bool;
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
            self.new_variable(d)?
        };
        // `array [1..n]` holds n elements: a shorter or longer list is an error, not an
        // output that lies about its index set.
        if let (Some(n), Value::Array(items)) = (d.ty.array_len, &value) {
            if items.len() != n && d.ty.base != BaseType::Float {
                return self.error(format!(
                    "the array '{}' is declared with {n} elements and given {}",
                    d.name,
                    items.len()
                ));
            }
        }
        self.names.insert(d.name.clone(), value.clone());
        self.output_of(d, value)
    }

    /// A scalar `var bool` or `var int`.
    fn new_variable(&mut self, d: &Decl) -> Result<Value, FznError> {
        let is_bool = d.ty.base == BaseType::Bool;
        if let Some(e) = &d.value {
            // `var int: x = y;` names another variable or a constant.
            let v = self.value(e)?;
            let x = self.var_of(&v)?;
            if let Some(ranges) = &d.ty.domain {
                let ranges = self.domain_ranges(ranges)?;
                if self.model.restrict_to_ranges(x, &ranges).is_err() {
                    self.model_is_unsatisfiable = true;
                }
            }
            return Ok(Value::Var(x, is_bool));
        }
        let x = if is_bool {
            self.model.new_bool()
        } else {
            let inferred = self.inferred.get(&d.name).map(|&r| vec![r]);
            match d.ty.domain.as_ref().or(inferred.as_ref()) {
                None => {
                    return self.error(format!(
                        "'{}' has no bounds, and none follows from its constraints: cpsolve needs a 'var int' to have a range within {}..{}",
                        d.name,
                        i32::MIN,
                        engine::domain::MAX_VALUE
                    ))
                }
                Some(ranges) if ranges.len() == 1 => {
                    let (lo, hi) = ranges[0];
                    check_domain_span(lo, hi, self.line)?;
                    self.model.new_var(lo as i32, hi as i32)
                }
                Some(ranges) => {
                    let ranges = self.domain_ranges(ranges)?;
                    if ranges.is_empty() {
                        self.model_is_unsatisfiable = true;
                        self.model.new_var(0, 0)
                    } else {
                        self.model.new_var_from_ranges(&ranges)
                    }
                }
            }
        };
        if let Some(ranges) = &d.ty.domain {
            if ranges.is_empty() {
                self.model_is_unsatisfiable = true;
            }
        }
        Ok(Value::Var(x, is_bool))
    }

    /// A declared domain as sorted, disjoint, non-empty ranges (never enumerated: it may
    /// span billions of values).
    fn domain_ranges(&self, ranges: &[(i64, i64)]) -> Result<Vec<(i32, i32)>, FznError> {
        let mut sorted: Vec<(i64, i64)> = ranges.iter().copied().filter(|r| r.0 <= r.1).collect();
        sorted.sort_unstable();
        let mut merged: Vec<(i32, i32)> = Vec::new();
        for (lo, hi) in sorted {
            check_domain_span(lo, hi, self.line)?;
            let (lo, hi) = (lo as i32, hi as i32);
            match merged.last_mut() {
                Some(last) if lo as i64 <= last.1 as i64 + 1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Ok(merged)
    }

    /// The output item a declaration's annotations ask for.
    fn output_of(&self, d: &Decl, value: Value) -> Result<Option<OutputItem>, FznError> {
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
                        return self.error("output_array takes an array of index sets");
                    };
                    let mut dims = Vec::new();
                    for r in ranges {
                        match r {
                            Expr::Set(rs) if rs.len() == 1 => dims.push(rs[0]),
                            Expr::Set(rs) if rs.is_empty() => dims.push((1, 0)),
                            _ => return self.error("output_array takes ranges lo..hi"),
                        }
                    }
                    let Value::Array(values) = value else {
                        return self.error("output_array on a non-array");
                    };
                    // The index sets must cover the elements exactly, or the printed
                    // `arrayNd` would lie about them.
                    let cells = dims.iter().try_fold(1i64, |n, &(lo, hi)| {
                        n.checked_mul(hi.saturating_sub(lo).saturating_add(1).max(0))
                    });
                    if cells != Some(values.len() as i64) {
                        return self.error(format!(
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
}

/// Build the engine model of a parsed FlatZinc file.
pub fn build(fzn: &FznModel) -> Result<Built, FznError> {
    let mut b = Builder {
        model: Model::new(),
        names: HashMap::new(),
        constants: HashMap::new(),
        line: 0,
        model_is_unsatisfiable: false,
        inferred: crate::bounds::infer(fzn),
    };
    let mut output = Vec::new();
    let mut decision_vars = Vec::new();
    for d in &fzn.decls {
        if let Some(item) = b.declare(d)? {
            output.push(item);
        }
        if d.ty.var && d.ty.array_len.is_none() {
            if let Some(Value::Var(x, _)) = b.names.get(&d.name) {
                decision_vars.push(*x);
            }
        }
    }
    for c in &fzn.constraints {
        b.line = c.line;
        post_constraint(&mut b, c)?;
    }
    b.line = fzn.solve.line;
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
        names: b.names,
    })
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
    if name.starts_with("set_") {
        return format!("'{name}': set constraints are not supported by cpsolve");
    }
    let global = name.strip_prefix("fzn_").unwrap_or(name);
    format!(
        "unknown constraint '{name}': cpsolve's mznlib has no fzn_{global}, so MiniZinc should have decomposed it (was the model compiled for another solver? compile with --solver cpsolve)"
    )
}
