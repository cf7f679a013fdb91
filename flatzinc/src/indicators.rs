//! # Reified equalities of one variable with constants, gathered into one propagator
//!
//! MiniZinc writes each `x = c` or `x != c` that a model uses as a condition as one
//! `int_eq_reif` (or `int_ne_reif`): a model that asks, for each of six blocks, whether a
//! match is placed there writes six on that match's variable. Posted one by one, each is
//! woken by every change of `x`'s domain; gathered, they are one `ValueIndicators`
//! (`engine/src/propagators/indicators.rs`), the channel between `x` and the indicators of
//! its values, which walks only the indicators still open. The fixpoint is the same, so a
//! fixed search builds the same tree.
//!
//! The same two steps as `thresholds.rs`: before building, [`indicated_often`] names the
//! variables that at least two such constraints compare with a constant (read from the
//! syntax); while building, the builtins hand those constraints to [`Gathered`] instead of
//! posting them; after the last constraint, [`Gathered::post`] posts one propagator per
//! variable. A variable compared once keeps its single `reified.rs` propagator.

use crate::ast::{Constraint, FznModel};
use crate::per_variable::{named_at_least_twice, PerVariable};
use engine::propagators::indicators::Indicator;
use engine::Model;
use std::collections::HashSet;

/// The constraints gathered: reified `=` and `≠` of two integers.
const GATHERED: &[&str] = &["int_eq_reif", "int_ne_reif"];

/// The name of the variable side of `c` when it is one of [`GATHERED`] between a variable
/// and an integer literal.
pub(crate) fn indicated_name(c: &Constraint) -> Option<String> {
    if !GATHERED.contains(&c.name.as_str()) {
        return None;
    }
    crate::thresholds::variable_against_constant(c)
}

/// The variables that at least two [`GATHERED`] constraints compare with a constant.
pub fn indicated_often(fzn: &FznModel) -> HashSet<String> {
    named_at_least_twice(fzn, indicated_name)
}

/// The indicators gathered so far, per variable.
pub type Gathered = PerVariable<Indicator>;

impl Gathered {
    /// One `ValueIndicators` per variable.
    pub fn post(self, model: &mut Model) {
        for (x, items) in self.into_groups() {
            model.value_indicators(x, items);
        }
    }
}
