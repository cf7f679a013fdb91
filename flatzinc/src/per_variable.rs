//! # Constraints on one variable, gathered per variable
//!
//! The bookkeeping `thresholds.rs` and `indicators.rs` share: before building, which
//! variables at least two constraints of a kind name ([`named_at_least_twice`], read from
//! the syntax); while building, the constraints handed over, kept per variable in the order
//! the variables were met ([`PerVariable`]); after the last constraint, each module posts
//! one propagator per variable from [`PerVariable::into_groups`].

use crate::ast::{Constraint, FznModel};
use engine::VarId;
use std::collections::{HashMap, HashSet};

/// The variables that `name_of` names for at least two constraints of `fzn`.
pub fn named_at_least_twice(
    fzn: &FznModel,
    name_of: fn(&Constraint) -> Option<String>,
) -> HashSet<String> {
    let mut count: HashMap<String, u32> = HashMap::new();
    for name in fzn.constraints.iter().filter_map(name_of) {
        *count.entry(name).or_default() += 1;
    }
    count
        .into_iter()
        .filter(|&(_, n)| n >= 2)
        .map(|(name, _)| name)
        .collect()
}

/// Items gathered per variable, in the order the variables were met.
#[derive(Debug)]
pub struct PerVariable<T> {
    order: Vec<VarId>,
    by_var: HashMap<VarId, Vec<T>>,
}

impl<T> Default for PerVariable<T> {
    fn default() -> Self {
        PerVariable {
            order: Vec::new(),
            by_var: HashMap::new(),
        }
    }
}

impl<T> PerVariable<T> {
    pub fn add(&mut self, x: VarId, item: T) {
        let list = self.by_var.entry(x).or_insert_with(|| {
            self.order.push(x);
            Vec::new()
        });
        list.push(item);
    }

    /// Each variable with its items, in the order the variables were met.
    pub fn into_groups(self) -> Vec<(VarId, Vec<T>)> {
        let mut by_var = self.by_var;
        (self.order.into_iter())
            .map(|x| (x, by_var.remove(&x).unwrap_or_default()))
            .collect()
    }
}
