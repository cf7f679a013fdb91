//! # Reified comparisons of one variable with constants, gathered into one propagator
//!
//! MiniZinc writes each `x ≤ c` or `c ≤ x` that a model uses as a condition as one
//! `int_le_reif` (or `int_lt_reif`): a model that compares a coordinate with the positions
//! of fifty places writes fifty on that coordinate. Posted one by one, each is woken by every
//! bound change of `x`; gathered, they are one `ReifiedThresholds`
//! (`engine/src/propagators/thresholds.rs`), which walks only the thresholds a change
//! decides. The fixpoint is the same, so a fixed search builds the same tree.
//!
//! Two steps: before building, [`compared_often`] names the variables that at least two
//! such constraints compare with a constant (read from the syntax); while building, the
//! builtins hand those constraints to [`Gathered`] (`per_variable.rs`) instead of posting
//! them; after the last constraint, [`Gathered::post`] posts one propagator per variable.
//! A variable compared once keeps its single `reified.rs` propagator, where it was.

use crate::ast::{Constraint, Expr, FznModel};
use crate::per_variable::{named_at_least_twice, PerVariable};
use engine::propagators::thresholds::Threshold;
use engine::Model;
use std::collections::HashSet;

/// The constraints gathered: reified `≤` of two integers (with `int_lt_reif`'s offset).
const GATHERED: &[&str] = &["int_le_reif", "int_lt_reif"];

/// The name of the variable side of `c` when it is one of [`GATHERED`] between a variable
/// (a name or an array element) and an integer literal.
pub(crate) fn compared_name(c: &Constraint) -> Option<String> {
    if !GATHERED.contains(&c.name.as_str()) {
        return None;
    }
    variable_against_constant(c)
}

/// The name of the variable side of a reified comparison `c` of three arguments whose
/// first two are a variable (a name or an array element) and an integer literal.
pub(crate) fn variable_against_constant(c: &Constraint) -> Option<String> {
    if c.args.len() != 3 {
        return None;
    }
    let name = |e: &Expr| match e {
        Expr::Ident(n) => Some(n.clone()),
        Expr::Access(n, i) => Some(format!("{n}[{i}]")),
        _ => None,
    };
    match (&c.args[0], &c.args[1]) {
        (Expr::Int(_), e) | (e, Expr::Int(_)) => name(e),
        _ => None,
    }
}

/// The variables that at least two [`GATHERED`] constraints compare with a constant.
pub fn compared_often(fzn: &FznModel) -> HashSet<String> {
    named_at_least_twice(fzn, compared_name)
}

/// The thresholds gathered so far, per variable.
pub type Gathered = PerVariable<Threshold>;

impl Gathered {
    /// One `ReifiedThresholds` per variable.
    pub fn post(self, model: &mut Model) {
        for (x, items) in self.into_groups() {
            model.reified_thresholds(x, items);
        }
    }
}
