//! # Decomposition: a search cut into parts for other machines
//!
//! Embarrassingly Parallel Search (Régin, Rezgui and Malapert, CP 2013, JAIR 2016) runs a
//! search on many machines that never talk to each other: cut the top of the tree into many
//! more subproblems than there are workers (30–100 per worker), each one propagated, and let
//! the workers take them one after the other. Subproblems that a machine's scheduler hands
//! out must be *described*, not held in memory: here a part is the list of binary decisions
//! (`x = v`, `x != v`, `x <= v`, `x > v`) that leads to it from the root.
//!
//! **Disjoint and complete by construction.** The parts are the leaves of a binary decision
//! tree grown with the search's own brancher: the two branches of a decision are disjoint
//! and cover their parent, so every solution of the instance lies in exactly one part. A
//! leaf whose propagation fails holds no solution and is dropped.
//!
//! **Which leaf to grow.** Growing the tree breadth-first, level by level, balances badly
//! with binary decisions: `x != v` keeps almost all of its parent, so after k levels one
//! part still holds about half of the work. As in `parallel.rs`, the open part with the
//! largest search space (the product of its domain sizes, kept as a sum of logarithms) is
//! split next, until there are enough. The parts are returned largest first, the order in
//! which a scheduler should hand them out (longest processing time first).
//!
//! The expansion runs on one thread: it propagates a few hundred nodes (milliseconds, against
//! the seconds to hours of the parts' own searches), so threads would not pay for themselves.
//!
//! A part is applied to a fresh copy of the model with [`restrict_to_part`] before an
//! ordinary search or count; for optimisation, [`restrict_objective`] adds the bound "better
//! than the best known value" so that later parts prune with earlier parts' solutions.

use super::brancher::{Brancher, Decision, DecisionOp};
use super::{Objective, SearchConfig};
use crate::model::Model;
use crate::store::VarId;
use crate::Conflict;

/// One subproblem: the decisions from the root, and the base-2 logarithm of its search
/// space after propagation (an estimate of its work).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub decisions: Vec<Decision>,
    pub log_size: f64,
}

/// log2 of the product of the domain sizes of `vars`.
fn log_search_space(model: &Model, vars: &[VarId]) -> f64 {
    vars.iter().map(|&x| (model.size(x) as f64).log2()).sum()
}

/// Apply a part's decisions to `model` at its current level, propagating after each one
/// (as the search does, so that the brancher sees the same domains). `Err` when the part
/// has no solution.
pub fn restrict_to_part(model: &mut Model, decisions: &[Decision]) -> Result<(), Conflict> {
    model.propagate()?;
    for d in decisions {
        d.apply(model)?;
        model.propagate()?;
    }
    Ok(())
}

/// Require the objective to be strictly better than `bound` (then propagate). `Err` when
/// nothing better is possible.
pub fn restrict_objective(
    model: &mut Model,
    objective: Objective,
    bound: i64,
) -> Result<(), Conflict> {
    let bound = bound.clamp(i32::MIN as i64 + 1, i32::MAX as i64 - 1) as i32;
    let decision = if objective.minimize {
        // objective <= bound - 1
        Decision {
            var: objective.var,
            op: DecisionOp::Le,
            value: bound - 1,
        }
    } else {
        // objective > bound
        Decision {
            var: objective.var,
            op: DecisionOp::Gt,
            value: bound,
        }
    };
    decision.apply(model)?;
    model.propagate()
}

/// Cut the search tree of `model` (with the brancher `config` describes) into about
/// `target` parts that survive propagation, largest first. Fewer when the tree is smaller:
/// a part whose branching variables are all fixed is not split further. An instance that
/// fails at the root gives no part at all.
///
/// Only the brancher's primary decisions are expanded, so a projected count stays exact: a
/// part never splits one assignment of the branching variables into two.
pub fn decompose(model: &Model, config: &SearchConfig, target: usize) -> Vec<Part> {
    let mut root = model.clone();
    if root.propagate().is_err() {
        return Vec::new();
    }
    let primary: Vec<VarId> = match &config.branch_vars {
        Some(vars) => vars.clone(),
        None => (0..root.num_vars() as u32).map(VarId).collect(),
    };
    let mut brancher = Brancher::from_config(&root, config);
    let mut open = vec![Part {
        decisions: Vec::new(),
        log_size: log_search_space(&root, &primary),
    }];
    let mut finished: Vec<Part> = Vec::new();
    while !open.is_empty() && open.len() + finished.len() < target.max(1) {
        let largest = (0..open.len())
            .max_by(|&a, &b| open[a].log_size.total_cmp(&open[b].log_size))
            .expect("open is not empty");
        let part = open.swap_remove(largest);
        let mut m = root.clone();
        if restrict_to_part(&mut m, &part.decisions).is_err() {
            continue;
        }
        let Some((decision, true)) = brancher.next(&m) else {
            finished.push(part);
            continue;
        };
        for branch in [decision, decision.negation()] {
            let mut child = m.clone();
            if branch.apply(&mut child).is_err() || child.propagate().is_err() {
                continue;
            }
            let mut decisions = part.decisions.clone();
            decisions.push(branch);
            open.push(Part {
                decisions,
                log_size: log_search_space(&child, &primary),
            });
        }
    }
    open.extend(finished);
    // Largest first; equal sizes in the order of their decisions, so that the output does
    // not depend on the order of the open list.
    open.sort_by(|a, b| {
        b.log_size.total_cmp(&a.log_size).then_with(|| {
            let key = |p: &Part| {
                p.decisions
                    .iter()
                    .map(|d| (d.var.0, d.op.symbol(), d.value))
                    .collect::<Vec<_>>()
            };
            key(a).cmp(&key(b))
        })
    });
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{search, Control, NoListener};
    use crate::AllDiffLevel;

    /// n-queens with one variable per row.
    fn queens(n: usize) -> Model {
        let mut m = Model::new();
        let q = m.new_vars(n, 0, n as i32 - 1);
        m.all_different(&q, AllDiffLevel::Value);
        let up: Vec<_> = (0..n).map(|i| q[i].plus(i as i32)).collect();
        let down: Vec<_> = (0..n).map(|i| q[i].plus(-(i as i32))).collect();
        m.all_different(&up, AllDiffLevel::Value);
        m.all_different(&down, AllDiffLevel::Value);
        m
    }

    fn count(model: &Model, decisions: &[Decision]) -> u64 {
        let mut m = model.clone();
        if restrict_to_part(&mut m, decisions).is_err() {
            return 0;
        }
        let config = SearchConfig::default();
        search(&mut m, &config, &mut NoListener, &mut |_| Control::Continue).solutions
    }

    #[test]
    fn the_parts_partition_the_solutions() {
        for n in [6, 8] {
            let model = queens(n);
            let whole = count(&model, &[]);
            for target in [1, 2, 7, 40] {
                let parts = decompose(&model, &SearchConfig::default(), target);
                assert!(parts.len() <= target.max(1));
                let sum: u64 = parts.iter().map(|p| count(&model, &p.decisions)).sum();
                assert_eq!(sum, whole, "queens {n}, {target} parts");
            }
        }
    }

    #[test]
    fn the_parts_are_disjoint() {
        // Every solution of every part, as a full assignment: no two parts share one.
        let model = queens(7);
        let parts = decompose(&model, &SearchConfig::default(), 20);
        assert!(parts.len() > 10, "queens 7 splits into many parts");
        let mut seen = std::collections::HashSet::new();
        for p in &parts {
            let mut m = model.clone();
            restrict_to_part(&mut m, &p.decisions).unwrap();
            search(
                &mut m,
                &SearchConfig::default(),
                &mut NoListener,
                &mut |s| {
                    assert!(seen.insert(s.values.clone()), "a solution in two parts");
                    Control::Continue
                },
            );
        }
        assert_eq!(seen.len(), 40);
    }

    /// Latin squares of order n: rows and columns all-different.
    fn latin_square(n: usize) -> Model {
        let mut m = Model::new();
        let cells = m.new_vars(n * n, 0, n as i32 - 1);
        for i in 0..n {
            let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
            let column: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
            m.all_different(&row, AllDiffLevel::Domain);
            m.all_different(&column, AllDiffLevel::Domain);
        }
        m
    }

    #[test]
    fn latin_squares_of_order_5_in_parts() {
        // 161,280 Latin squares of order 5 (OEIS A002860).
        let model = latin_square(5);
        let parts = decompose(&model, &SearchConfig::default(), 64);
        assert!(parts.len() > 32);
        let sum: u64 = parts.iter().map(|p| count(&model, &p.decisions)).sum();
        assert_eq!(sum, 161_280);
    }

    #[test]
    fn a_bound_keeps_only_better_solutions() {
        let mut m = Model::new();
        let x = m.new_var(0, 9);
        restrict_objective(&mut m, Objective::minimize(x), 4).unwrap();
        assert_eq!(m.max(x), 3);
        let mut m = Model::new();
        let x = m.new_var(0, 9);
        restrict_objective(&mut m, Objective::maximize(x), 4).unwrap();
        assert_eq!(m.min(x), 5);
        assert!(restrict_objective(&mut m, Objective::maximize(x), 9).is_err());
    }
}
