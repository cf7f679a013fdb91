//! # Set variables as views over booleans
//!
//! FlatZinc has `var set of 1..n` variables; the engine has integer domains only. A set
//! variable is read as its **characteristic booleans**: one engine 0/1 variable per value of
//! its declared universe (its upper bound), `bᵥ = 1 ⇔ v ∈ S`. The domain a set solver keeps
//! for `S` is then a view over those booleans:
//!
//! * the **lower bound** (glb): the values whose boolean is fixed to 1, known to be in;
//! * the **upper bound** (lub): the values whose boolean is not fixed to 0, not known out;
//! * the **cardinality** `|S|`: the sum of the booleans.
//!
//! Every set constraint then becomes clauses and sums over booleans
//! (`set_builtins.rs`), except the order of sets, which has its own propagator
//! (`engine/src/propagators/sets/order.rs`). Search on a set (`set_search`) is search on its
//! booleans (`search.rs`), and a solution prints the set of values whose boolean is 1
//! ([`format_set`]).
//!
//! A constant set (`{1, 3}` as an argument, a `set of int` parameter) is read the same way
//! (`sets.rs`, `set_of`): its booleans are the shared constant 1, and every value outside
//! it is out. A worked example: `var set of 1..4: S` with `card(S) = 2` and `3 in S` is four
//! booleans `b₁..b₄` with `b₃ = 1` and `b₁ + b₂ + b₃ + b₄ = 2`; the glb is `{3}`, the lub
//! `1..4`; fixing `b₁ = 1` forces `b₂ = b₄ = 0` and `S = {1, 3}`.

use engine::VarId;

/// The most values a set variable's universe may hold (one boolean each).
pub const MAX_UNIVERSE: usize = 1 << 16;

/// The most booleans all the set variables of a model may take together: each declaration
/// line costs one boolean per value of its universe, so without a total a small file of
/// wide sets would ask for gigabytes before the search starts.
pub const MAX_SET_BOOLEANS: usize = 1 << 22;

/// The most cells (values × sets) the set constraints of a model may align together: a set
/// builtin posts a small constraint per value of its sets' union, and a constant set of
/// 65,536 values on every line of a file would otherwise post millions of them.
pub const MAX_SET_CELLS: usize = 1 << 21;

/// A set variable: each value of its universe, increasing, with its boolean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetVar {
    pub elements: Vec<(i32, VarId)>,
}

impl SetVar {
    /// The values of the universe, increasing.
    pub fn universe(&self) -> impl Iterator<Item = i32> + '_ {
        self.elements.iter().map(|e| e.0)
    }

    /// The boolean of `v`, if `v` is in the universe (otherwise `v` is out of the set).
    pub fn boolean(&self, v: i32) -> Option<VarId> {
        (self.elements.binary_search_by_key(&v, |e| e.0).ok()).map(|i| self.elements[i].1)
    }

    /// The booleans, in the order of the values.
    pub fn booleans(&self) -> Vec<VarId> {
        self.elements.iter().map(|e| e.1).collect()
    }
}

/// A set as FlatZinc prints it, the way Gecode does: `{}`, `1..3` for a run of two or more
/// consecutive values, else `{1, 4, 5}`.
pub fn format_set(values: &[i64]) -> String {
    let run = values.len() >= 2 && values[values.len() - 1] - values[0] == values.len() as i64 - 1;
    if run {
        return format!("{}..{}", values[0], values[values.len() - 1]);
    }
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("{{{}}}", items.join(", "))
}
