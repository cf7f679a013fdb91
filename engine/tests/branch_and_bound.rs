//! Branch and bound skips the levels whose objective domain cannot beat the bound: after a
//! solution found under a decision that fixed the objective, it backtracks past them
//! without a node (as Gecode's branch and bound does by constraining the copies on its
//! path), and the optimum it proves is the same.

use engine::{search, Control, Model, Objective, Relation, SearchConfig, Status, VarSelect};
use engine::{Goal, Outcome, ValSelect};

/// Minimise `obj`, deciding `order` in that order, smallest value first.
fn minimise_in_order(model: &mut Model, order: Vec<engine::VarId>, obj: engine::VarId) -> Outcome {
    let config = SearchConfig {
        var_select: VarSelect::InputOrder,
        val_select: ValSelect::Min,
        branch_vars: Some(order),
        objective: Some(Objective::minimize(obj)),
        ..SearchConfig::default()
    };
    search(model, &config, &mut engine::search::NoListener, &mut |_| {
        Control::Continue
    })
}

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
    let outcome = minimise_in_order(&mut model, order, obj);
    assert_eq!(outcome.status(Goal::Optimise), Status::Optimal);
    assert_eq!(outcome.objective, Some(3));
    // The dive only: every level above the solution has obj = 3 (or min 3), no better.
    assert_eq!(outcome.stats.nodes, 7, "{:?}", outcome.stats);
    assert_eq!(outcome.stats.failures, 0);
}

#[test]
fn a_level_where_the_new_bound_fails_costs_a_failure_and_no_node() {
    // a, b, c all different in 1..4, obj >= each, minimise obj; decided a, b, c, obj in
    // order, smallest value first. The first dive, a = 1, b = 2, c = 3, obj = 3, is the
    // optimum (4 nodes). Backtracking with obj <= 2: at the level of b = 2 the objective's
    // domain still holds 2 (b could be 2), but the bound propagated there leaves b and c
    // only the value 2, which all-different refutes; the same above it (a, b, c within
    // 1..2). Each level is closed by that failure, without trying its right branch as a
    // node (as Gecode's branch and bound drops the alternatives below a copy the new bound
    // fails): 4 nodes in all, where trying `b != 2` and `a != 1` made 6.
    let mut model = Model::new();
    let abc = model.new_vars(3, 1, 4);
    let obj = model.new_var(1, 4);
    model.all_different(&abc, engine::AllDiffLevel::Domain);
    for &x in &abc {
        model.linear(&[(1, x), (-1, obj)], Relation::Le, 0);
    }
    let mut order = abc.clone();
    order.push(obj);
    let outcome = minimise_in_order(&mut model, order, obj);
    assert_eq!(outcome.status(Goal::Optimise), Status::Optimal);
    assert_eq!(outcome.objective, Some(3));
    assert_eq!(outcome.stats.nodes, 4, "{:?}", outcome.stats);
}
