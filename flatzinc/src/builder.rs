//! # Reading a constraint's arguments: names to values, each of the type it must have
//!
//! The builder's state while it walks the tree ([`Builder`]), and the readers every builtin
//! uses for its arguments. Names resolve to [`Value`]s: a parameter is a constant, a variable
//! an engine `VarId`, an array a list of either. A constant used where a variable is
//! expected becomes a fixed variable (one per distinct constant, shared).
//!
//! FlatZinc is typed: an integer argument is never `true`, a boolean one never `3`. The
//! engine holds booleans as 0/1 variables, so nothing below would notice a mix, and a
//! careless file would be solved as something it does not say. So each reader is told the
//! [`Kind`] it wants and refuses the other with the argument's line.
//!
//! `build.rs` walks the file with a `Builder`; `builtins.rs` reads arguments through it.
//! Neither is imported here: this file is the floor both stand on.

use crate::ast::{Constraint, Expr, FznError};
use engine::{Limits, Model, VarId};
use std::collections::{HashMap, HashSet};

/// What a name stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// A set of integers as sorted disjoint ranges.
    Set(Vec<(i64, i64)>),
    /// A variable, and whether it is a `var bool`.
    Var(VarId, bool),
    /// A set variable, as its characteristic booleans (`set_var.rs`).
    SetVar(crate::set_var::SetVar),
    Array(Vec<Value>),
}

/// The two scalar types of a FlatZinc argument cpsolve solves over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Int => "an integer",
            Kind::Bool => "a boolean",
        }
    }
}

/// The most values a set parameter may list (its values are enumerated).
pub const MAX_SET_VALUES: i64 = 1 << 26;

/// The one place that decides whether a declared domain fits the engine: any range of
/// 32-bit values does, except that a wide one (an interval domain,
/// `engine/src/domain/interval.rs`) stops at `engine::domain::MAX_VALUE` (`i32::MAX - 1`).
/// A domain made of several ranges is judged by its hull (`{1, 2147483647}` is as wide as
/// `1..2147483647`). A domain is never clamped to fit (that would give wrong answers): one
/// reaching beyond is refused with a clear message.
pub fn check_domain_span(lo: i64, hi: i64, line: usize) -> Result<(), FznError> {
    let wide = hi.saturating_sub(lo).saturating_add(1) > engine::domain::BITSET_MAX_SPAN;
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
    pub model_is_unsatisfiable: bool,
    /// Ranges computed for `var int` declared without one (`bounds.rs`).
    pub inferred: HashMap<String, (i64, i64)>,
    /// The run's deadline and stop flag, looked at while building.
    pub limits: Limits,
    /// The variables whose reified comparisons with constants are gathered into one
    /// propagator (`thresholds.rs`), and those gathered so far.
    pub compared_often: HashSet<String>,
    pub gathered: crate::thresholds::Gathered,
    /// The same for reified equalities with constants (`indicators.rs`).
    pub indicated_often: HashSet<String>,
    pub gathered_indicators: crate::indicators::Gathered,
    /// Each set's booleans → the variable a `set_card` counts them with, and the orders of
    /// sets waiting for them (posted last, `set_builtins::post_set_orders`).
    pub set_cards: HashMap<Vec<VarId>, VarId>,
    pub set_orders: Vec<(
        Vec<VarId>,
        Vec<VarId>,
        engine::propagators::sets::order::SetOrder,
    )>,
    /// `var bool`s that are a set's boolean of a constant (`sets::membership_aliases`).
    pub membership_aliases: HashMap<String, (Expr, i64)>,
    /// The booleans the set variables declared so far hold, against
    /// [`crate::set_var::MAX_SET_BOOLEANS`].
    pub set_booleans: usize,
    /// The cells the set constraints aligned so far hold, against
    /// [`crate::set_var::MAX_SET_CELLS`].
    pub set_cells: usize,
}

impl Builder {
    /// An empty model, with the ranges `bounds.rs` inferred.
    pub fn new(inferred: HashMap<String, (i64, i64)>, limits: Limits) -> Builder {
        Builder {
            model: Model::new(),
            names: HashMap::new(),
            constants: HashMap::new(),
            line: 0,
            model_is_unsatisfiable: false,
            inferred,
            limits,
            compared_often: HashSet::new(),
            gathered: Default::default(),
            indicated_often: HashSet::new(),
            gathered_indicators: Default::default(),
            set_cards: HashMap::new(),
            set_orders: Vec::new(),
            membership_aliases: HashMap::new(),
            set_booleans: 0,
            set_cells: 0,
        }
    }

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

    /// The value of an expression (nested as deep as the parser allows, `MAX_NESTING`).
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

    /// Is the scalar `v` of type `kind`? (An error naming what it is otherwise.)
    pub fn check_kind(&self, v: &Value, kind: Kind) -> Result<(), FznError> {
        let found = match (v, kind) {
            (Value::Int(_), Kind::Int) | (Value::Bool(_), Kind::Bool) => return Ok(()),
            (Value::Var(_, is_bool), _) if *is_bool == (kind == Kind::Bool) => return Ok(()),
            (Value::Int(i), _) => format!("the integer {i}"),
            (Value::Bool(b), _) => format!("the boolean {b}"),
            (Value::Var(_, true), _) => "a bool variable".to_string(),
            (Value::Var(_, false), _) => "an int variable".to_string(),
            (Value::Set(_), _) => "a set".to_string(),
            (Value::SetVar(_), _) => "a set variable".to_string(),
            (Value::Array(_), _) => "an array".to_string(),
        };
        self.error(format!("expected {}, found {found}", kind.name()))
    }

    /// An integer parameter.
    pub fn int(&self, e: &Expr) -> Result<i64, FznError> {
        match self.value(e)? {
            Value::Int(v) => Ok(v),
            other => self
                .check_kind(&other, Kind::Int)
                .and_then(|_| self.error("expected an integer constant")),
        }
    }

    /// An integer variable (a constant becomes a fixed variable).
    pub fn var(&mut self, e: &Expr) -> Result<VarId, FznError> {
        self.var_as(e, Kind::Int)
    }

    /// A boolean variable, as a 0/1 variable (`true` and `false` become fixed ones).
    pub fn bool_var(&mut self, e: &Expr) -> Result<VarId, FznError> {
        self.var_as(e, Kind::Bool)
    }

    /// A variable of type `kind`.
    pub fn var_as(&mut self, e: &Expr, kind: Kind) -> Result<VarId, FznError> {
        let v = self.value(e)?;
        self.var_of(&v, kind)
    }

    /// The variable a value of type `kind` stands for.
    pub fn var_of(&mut self, v: &Value, kind: Kind) -> Result<VarId, FznError> {
        self.check_kind(v, kind)?;
        match v {
            Value::Var(x, _) => Ok(*x),
            Value::Int(i) => self.constant(*i),
            Value::Bool(b) => self.constant(*b as i64),
            _ => self.error("expected a variable or a constant"),
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
        self.consts_as(e, Kind::Int)
    }

    /// An array of constants of type `kind`, as integers (booleans as 0/1).
    pub fn consts_as(&self, e: &Expr, kind: Kind) -> Result<Vec<i64>, FznError> {
        self.array(e)?
            .iter()
            .map(|v| {
                self.check_kind(v, kind)?;
                match v {
                    Value::Int(i) => Ok(*i),
                    Value::Bool(b) => Ok(*b as i64),
                    _ => self.error(format!("expected an array of constants ({})", kind.name())),
                }
            })
            .collect()
    }

    /// An array of integer variables.
    pub fn vars(&mut self, e: &Expr) -> Result<Vec<VarId>, FznError> {
        self.vars_as(e, Kind::Int)
    }

    /// An array of boolean variables.
    pub fn bool_vars(&mut self, e: &Expr) -> Result<Vec<VarId>, FznError> {
        self.vars_as(e, Kind::Bool)
    }

    /// An array of variables of type `kind`.
    pub fn vars_as(&mut self, e: &Expr, kind: Kind) -> Result<Vec<VarId>, FznError> {
        let items = self.array(e)?;
        items.iter().map(|v| self.var_of(v, kind)).collect()
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

    /// Keep only the values of `x` within `ranges` (sorted and disjoint). When none would be
    /// left, the model has no solution: that is recorded (the build then posts a constraint
    /// that fails at the root) and `x` is left as it was, so that no propagator ever meets an
    /// emptied domain.
    pub fn restrict(&mut self, x: VarId, ranges: &[(i32, i32)]) {
        let d = self.model.domain(x);
        let meets = (ranges.iter()).any(|&(lo, hi)| d.next_from(lo).is_some_and(|v| v <= hi));
        if !meets || self.model.restrict_to_ranges(x, ranges).is_err() {
            self.model_is_unsatisfiable = true;
        }
    }

    /// A set parameter as sorted disjoint ranges of 32-bit values (never enumerated).
    pub fn set_ranges(&self, e: &Expr) -> Result<Vec<(i32, i32)>, FznError> {
        match self.value(e)? {
            Value::Set(ranges) => (ranges.iter())
                .map(|&(lo, hi)| {
                    check_domain_span(lo, hi, self.line)?;
                    Ok((lo as i32, hi as i32))
                })
                .collect(),
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
}

/// Is every name the search annotations use declared? The builder asks, so that a
/// misspelt name is an error at the solve item's line rather than a search order silently
/// lost. The annotations are walked with a stack (`seq_search` and `warm_start_array` opened
/// in place); `Err` holds the message.
pub fn check_annotations(
    names: &HashMap<String, Value>,
    annotations: &[Expr],
) -> Result<(), String> {
    let mut pending: Vec<&Expr> = annotations.iter().rev().collect();
    while let Some(ann) = pending.pop() {
        let Expr::Call(name, args) = ann else {
            continue;
        };
        match (name.as_str(), args.first()) {
            ("seq_search" | "warm_start_array", Some(Expr::Array(parts))) => {
                pending.extend(parts.iter().rev())
            }
            (
                "int_search"
                | "bool_search"
                | "set_search"
                | "warm_start"
                | "warm_start_bool"
                | "warm_start_int"
                | "relax_and_reconstruct",
                Some(vars),
            ) => check_declared(names, name, vars)?,
            _ => {}
        }
    }
    Ok(())
}

/// The names an annotation's variable argument uses are declared, and its array accesses
/// fall inside their arrays.
fn check_declared(
    names: &HashMap<String, Value>,
    annotation: &str,
    e: &Expr,
) -> Result<(), String> {
    let undeclared = |n: &str| format!("{annotation} names '{n}', which is not declared");
    let items: &[Expr] = match e {
        Expr::Array(items) => items,
        other => std::slice::from_ref(other),
    };
    for item in items {
        match item {
            Expr::Ident(n) if !names.contains_key(n) => return Err(undeclared(n)),
            Expr::Access(n, i) => {
                let Some(Value::Array(a)) = names.get(n) else {
                    return Err(undeclared(n));
                };
                let inside = usize::try_from(*i).is_ok_and(|i| i >= 1 && i <= a.len());
                if !inside {
                    return Err(format!("{annotation}: {n}[{i}] is outside '{n}'"));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
