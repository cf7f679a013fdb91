//! # Search annotations: how the model asks to be searched
//!
//! A FlatZinc solve item may carry `int_search(vars, var_choice, val_choice, strategy)`,
//! `bool_search(...)` or `seq_search([...])`. They map onto the engine's brancher:
//!
//! | FlatZinc | engine |
//! |---|---|
//! | `input_order` | `VarSelect::InputOrder` |
//! | `first_fail` | `VarSelect::SmallestDomain` |
//! | `dom_w_deg` | `VarSelect::DomWDeg` |
//! | `anti_first_fail`, `smallest`, `largest`, `max_regret` | `VarSelect::Custom` (below) |
//! | `indomain_min` / `indomain_max` | `ValSelect::Min` / `Max` |
//! | `indomain_split`, `indomain_median` | `ValSelect::Split` (lower half first) |
//! | `indomain_reverse_split` | `ValSelect::Max` (upper values first) |
//! | `indomain_random` | `ValSelect::Random` |
//!
//! Approximations, stated: the engine has one strategy per search, so a `seq_search`
//! branches on the variables of all its parts in order with the choices of the first part;
//! `indomain_median` splits at the middle of the bounds, not at the median value;
//! `indomain_reverse_split` tries the largest value first instead of the upper half.
//! Every mapping keeps the search complete: only the order of the tree changes.
//!
//! Without annotations (or with `-f`), the engine's default for FlatZinc: dom/wdeg with
//! Luby restarts (restarts only when every solution is not asked for).

use crate::ast::Expr;
use crate::build::{Built, Value};
use engine::search::VarSelect;
use engine::{Model, ValSelect, VarId};
use std::sync::Arc;

/// The branching the annotations ask for: variables, variable choice, value choice.
#[derive(Clone, Debug)]
pub struct Branching {
    pub vars: Vec<VarId>,
    pub var_select: VarSelect,
    pub val_select: ValSelect,
}

/// Read the solve item's annotations; `None` when there is no usable search annotation.
pub fn from_annotations(built: &Built) -> Option<Branching> {
    let mut vars = Vec::new();
    let mut choices = None;
    for ann in &built.search_annotations {
        collect(built, ann, &mut vars, &mut choices);
    }
    let (var_select, val_select) = choices?;
    if vars.is_empty() {
        return None;
    }
    Some(Branching {
        vars,
        var_select,
        val_select,
    })
}

fn collect(
    built: &Built,
    ann: &Expr,
    vars: &mut Vec<VarId>,
    choices: &mut Option<(VarSelect, ValSelect)>,
) {
    let Expr::Call(name, args) = ann else { return };
    match name.as_str() {
        "seq_search" | "warm_start_array" => {
            if let Some(Expr::Array(parts)) = args.first() {
                for part in parts {
                    collect(built, part, vars, choices);
                }
            }
        }
        "int_search" | "bool_search" if args.len() >= 3 => {
            for x in annotation_vars(built, &args[0]) {
                if !vars.contains(&x) {
                    vars.push(x);
                }
            }
            if choices.is_none() {
                let var = match &args[1] {
                    Expr::Ident(s) => var_select(s),
                    _ => VarSelect::InputOrder,
                };
                let val = match &args[2] {
                    Expr::Ident(s) => val_select(s),
                    _ => ValSelect::Min,
                };
                *choices = Some((var, val));
            }
        }
        _ => {}
    }
}

/// The variables an annotation names (constants are skipped).
fn annotation_vars(built: &Built, e: &Expr) -> Vec<VarId> {
    let mut out = Vec::new();
    let mut push = |v: &Value| {
        if let Value::Var(x, _) = v {
            out.push(*x);
        }
    };
    match e {
        Expr::Ident(n) => match built.names.get(n) {
            Some(Value::Array(items)) => items.iter().for_each(&mut push),
            Some(v) => push(v),
            None => {}
        },
        Expr::Array(items) => {
            for item in items {
                match item {
                    Expr::Ident(n) => {
                        if let Some(v) = built.names.get(n) {
                            push(v)
                        }
                    }
                    Expr::Access(n, i) => {
                        if let Some(Value::Array(a)) = built.names.get(n) {
                            if *i >= 1 {
                                if let Some(v) = a.get(*i as usize - 1) {
                                    push(v)
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    out
}

/// A custom variable choice: the candidate with the least `key`, ties by order.
fn by_key(key: fn(&Model, VarId) -> i64) -> VarSelect {
    VarSelect::Custom(Arc::new(move |model: &Model, candidates: &[VarId]| {
        *candidates
            .iter()
            .min_by_key(|&&x| key(model, x))
            .expect("the brancher asks only with candidates")
    }))
}

/// FlatZinc's variable choice.
pub fn var_select(name: &str) -> VarSelect {
    match name {
        "first_fail" => VarSelect::SmallestDomain,
        "dom_w_deg" => VarSelect::DomWDeg,
        "anti_first_fail" => by_key(|m, x| -(m.size(x) as i64)),
        "smallest" => by_key(|m, x| m.min(x) as i64),
        "largest" => by_key(|m, x| -(m.max(x) as i64)),
        "max_regret" => by_key(|m, x| {
            let d = m.domain(x);
            let lo = d.min();
            let next = lo.checked_add(1).and_then(|v| d.next_from(v));
            let regret = next.map_or(0, |v| v as i64 - lo as i64);
            -regret
        }),
        _ => VarSelect::InputOrder,
    }
}

/// FlatZinc's value choice.
pub fn val_select(name: &str) -> ValSelect {
    match name {
        "indomain_max" | "indomain_reverse_split" => ValSelect::Max,
        "indomain_split" | "indomain_median" | "indomain_middle" => ValSelect::Split,
        "indomain_random" => ValSelect::Random,
        _ => ValSelect::Min,
    }
}
