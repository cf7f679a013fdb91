//! # The FlatZinc syntax tree
//!
//! What the parser produces: a FlatZinc file is a list of items (parameters, variables,
//! constraints, one solve item), each remembered with its line for error messages. The
//! builder (`build.rs`) turns this tree into an engine model.

/// An expression: a literal, a name, an array, or (in annotations) a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A set of integers, as sorted disjoint ranges `lo..=hi`.
    Set(Vec<(i64, i64)>),
    Ident(String),
    /// `name[i]`.
    Access(String, i64),
    Array(Vec<Expr>),
    Str(String),
    /// `name(args)`: annotations only.
    Call(String, Vec<Expr>),
}

/// The base type of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    Bool,
    Int,
    Float,
    SetOfInt,
}

/// A declared type: `var`/`par`, the base type, an optional domain, an optional array size.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub var: bool,
    pub base: BaseType,
    /// For ints, the allowed values (`1..9`, `{1, 3}`); for sets, the universe.
    pub domain: Option<Vec<(i64, i64)>>,
    /// `array [1..n] of ...`: `Some(n)`.
    pub array_len: Option<usize>,
}

/// A parameter or variable declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub name: String,
    pub ty: Type,
    pub annotations: Vec<Expr>,
    pub value: Option<Expr>,
    pub line: usize,
}

/// `constraint name(args) :: annotations;`
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    pub name: String,
    pub args: Vec<Expr>,
    pub annotations: Vec<Expr>,
    pub line: usize,
}

/// What the solve item asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    Satisfy,
    Minimize(Expr),
    Maximize(Expr),
}

/// `solve :: annotations goal;`
#[derive(Clone, Debug, PartialEq)]
pub struct Solve {
    pub goal: Goal,
    pub annotations: Vec<Expr>,
    pub line: usize,
}

/// A whole FlatZinc file.
#[derive(Clone, Debug, PartialEq)]
pub struct FznModel {
    /// Parameters and variables, in the file's order.
    pub decls: Vec<Decl>,
    pub constraints: Vec<Constraint>,
    pub solve: Solve,
}

/// A problem in the input, at a line (1-based); or, with `limit_reached`, a time limit or a
/// stop signal that ended the reading first (not a problem of the input: the caller reports
/// it as a limit, `=====UNKNOWN=====`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FznError {
    pub line: usize,
    pub message: String,
    pub limit_reached: bool,
}

impl FznError {
    pub fn new(line: usize, message: impl Into<String>) -> FznError {
        FznError {
            line,
            message: message.into(),
            limit_reached: false,
        }
    }

    /// The time limit or the stop flag passed while reading or building, at `line`.
    pub fn limit(line: usize) -> FznError {
        FznError {
            line,
            message: "the time limit passed (or a stop signal came) while reading the model"
                .to_string(),
            limit_reached: true,
        }
    }
}
