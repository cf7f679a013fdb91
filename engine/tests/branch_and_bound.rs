//! Branch and bound skips the levels whose objective domain cannot beat the bound: after a
//! solution found under a decision that fixed the objective, it backtracks past them
//! without a node (as Gecode's branch and bound does by constraining the copies on its
//! path), and the optimum it proves is the same.

use engine::{search, Control, Model, Objective, Relation, SearchConfig, Status, VarSelect};
use engine::{Goal, ValSelect};

#[test]
fn levels_that_cannot_beat_the_bound_cost_no_node() {
    // obj in 3..9 decided first (at its minimum, 3), then six 0/1 variables summing to at
    // most obj: the first dive is a solution at depth 7 with obj = 3, the optimum.
    let mut model = Model::new();
    let obj = model.new_var(3, 9);
    let xs = model.new_vars(6, 0, 1);
    let mut terms: Vec<(i64, engine::VarId)> = xs.iter().map(|&x| (1, x)).collect();
    terms.push((-1, obj));
    model.linear(&terms, Relation::Le, 0);
    let mut order = vec![obj];
    order.extend(&xs);
    let config = SearchConfig {
        var_select: VarSelect::InputOrder,
        val_select: ValSelect::Min,
        branch_vars: Some(order),
        objective: Some(Objective::minimize(obj)),
        ..SearchConfig::default()
    };
    let outcome = search(
        &mut model,
        &config,
        &mut engine::search::NoListener,
        &mut |_| Control::Continue,
    );
    assert_eq!(outcome.status(Goal::Optimise), Status::Optimal);
    assert_eq!(outcome.objective, Some(3));
    // The dive only: every level above the solution has obj = 3 (or min 3), no better.
    assert_eq!(outcome.stats.nodes, 7, "{:?}", outcome.stats);
    assert_eq!(outcome.stats.failures, 0);
}
