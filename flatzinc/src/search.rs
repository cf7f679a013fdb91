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
//! A `seq_search` of several parts branches phase by phase: the next variable comes from the
//! first part that still has one unfixed, by that part's rule, and its value by that part's
//! value choice (`SearchConfig::val_select_of`). Approximations, stated: `dom_w_deg` inside
//! a sequence is `first_fail`;
//! `indomain_median` splits at the middle of the bounds, not at the median value;
//! `indomain_reverse_split` tries the largest value first instead of the upper half.
//! Every mapping keeps the search complete: only the order of the tree changes.
//!
//! Without annotations (or with `-f`), the engine's default for FlatZinc: dom/wdeg with
//! Luby restarts (restarts only when every solution is not asked for).

use crate::ast::Expr;
use crate::builder::Value;
use engine::search::VarSelect;
use engine::{Model, ValSelect, VarId};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Name -> value, as the builder left them.
type Names = HashMap<String, Value>;

/// The branching the annotations ask for: variables, variable choice, value choice.
#[derive(Clone, Debug)]
pub struct Branching {
    pub vars: Vec<VarId>,
    pub var_select: VarSelect,
    pub val_select: ValSelect,
    /// The value choice of each later phase whose choice differs from the first's, for that
    /// phase's variables (a variable named by several phases takes the first's).
    pub val_select_of: Vec<(VarId, ValSelect)>,
}

/// One `int_search`/`bool_search`: its variables and its two choices.
#[derive(Clone, Debug)]
struct Phase {
    vars: Vec<VarId>,
    var_choice: String,
    val_choice: String,
}

/// Read the solve item's annotations; `None` when there is no usable search annotation.
/// (`names` and `annotations` are a built model's `names` and `search_annotations`.)
pub fn from_annotations(names: &Names, annotations: &[Expr]) -> Option<Branching> {
    let mut phases = collect(names, annotations).ok()?;
    phases.retain(|p| !p.vars.is_empty());
    let first = phases.first()?.clone();
    // Each variable once, in the order of the phases (a set beside the list: an annotation
    // over 100,000 variables is read in linear time).
    let mut vars: Vec<VarId> = Vec::new();
    let mut seen: HashSet<VarId> = HashSet::new();
    let mut val_select_of = Vec::new();
    let first_choice = val_select(&first.val_choice);
    for p in &phases {
        let choice = val_select(&p.val_choice);
        for &x in &p.vars {
            if seen.insert(x) {
                vars.push(x);
                if choice != first_choice {
                    val_select_of.push((x, choice));
                }
            }
        }
    }
    let var_select = if phases.len() == 1 {
        var_select(&first.var_choice)
    } else {
        phase_by_phase(phases)
    };
    Some(Branching {
        vars,
        var_select,
        val_select: first_choice,
        val_select_of,
    })
}

/// Is every variable the search annotations name declared? (The builder asks, so that a
/// misspelt name is an error at the solve item's line rather than a search order silently
/// lost.) `Err` holds the message.
pub fn check_annotations(names: &Names, annotations: &[Expr]) -> Result<(), String> {
    collect(names, annotations).map(|_| ())
}

/// The phases of the search annotations, in order: `seq_search` parts opened in place,
/// with a stack rather than recursion (however deep a file nests them, within the parser's
/// `MAX_NESTING`). Annotations the engine does not know are skipped, as the specification
/// allows; a variable that is not declared is an error.
fn collect(names: &Names, annotations: &[Expr]) -> Result<Vec<Phase>, String> {
    let mut phases = Vec::new();
    // Still to read, the next one on top.
    let mut pending: Vec<&Expr> = annotations.iter().rev().collect();
    while let Some(ann) = pending.pop() {
        let Expr::Call(name, args) = ann else {
            continue;
        };
        match name.as_str() {
            "seq_search" => {
                if let Some(Expr::Array(parts)) = args.first() {
                    pending.extend(parts.iter().rev());
                }
            }
            "int_search" | "bool_search" if args.len() >= 3 => {
                let word = |e: &Expr| match e {
                    Expr::Ident(s) => s.clone(),
                    _ => String::new(),
                };
                phases.push(Phase {
                    vars: annotation_vars(names, name, &args[0])?,
                    var_choice: word(&args[1]),
                    val_choice: word(&args[2]),
                });
            }
            _ => {}
        }
    }
    Ok(phases)
}

/// A `seq_search` of several phases: the variable comes from the first phase that still has
/// an unfixed variable, chosen by that phase's rule (`dom_w_deg` inside a sequence is
/// `first_fail`: the weights live in the engine's own selector).
fn phase_by_phase(phases: Vec<Phase>) -> VarSelect {
    VarSelect::Custom(Arc::new(move |model: &Model, candidates: &[VarId]| {
        for phase in &phases {
            let open: Vec<VarId> = phase
                .vars
                .iter()
                .copied()
                .filter(|&x| !model.is_fixed(x))
                .collect();
            if !open.is_empty() {
                return pick(&phase.var_choice, model, &open);
            }
        }
        candidates[0]
    }))
}

/// The variable `rule` chooses among `open` (not empty), ties by order.
fn pick(rule: &str, model: &Model, open: &[VarId]) -> VarId {
    let key = |x: VarId| -> i64 {
        match rule {
            "first_fail" | "dom_w_deg" => model.size(x) as i64,
            "anti_first_fail" => -(model.size(x) as i64),
            "smallest" => model.min(x) as i64,
            "largest" => -(model.max(x) as i64),
            "max_regret" => -regret(model, x),
            _ => 0,
        }
    };
    *open
        .iter()
        .min_by_key(|&&x| key(x))
        .expect("pick is asked with open variables")
}

/// The gap between the two smallest values of `x` (0 when fixed).
fn regret(model: &Model, x: VarId) -> i64 {
    let d = model.domain(x);
    let lo = d.min();
    let next = lo.checked_add(1).and_then(|v| d.next_from(v));
    next.map_or(0, |v| v as i64 - lo as i64)
}

/// The variables an annotation names (constants are skipped); a name that is not declared,
/// or an index outside its array, is an error.
fn annotation_vars(names: &Names, annotation: &str, e: &Expr) -> Result<Vec<VarId>, String> {
    let undeclared = |n: &str| format!("{annotation} names '{n}', which is not declared");
    let mut out = Vec::new();
    let mut push = |v: &Value| {
        if let Value::Var(x, _) = v {
            out.push(*x);
        }
    };
    match e {
        Expr::Ident(n) => match names.get(n) {
            Some(Value::Array(items)) => items.iter().for_each(&mut push),
            Some(v) => push(v),
            None => return Err(undeclared(n)),
        },
        Expr::Array(items) => {
            for item in items {
                match item {
                    Expr::Ident(n) => push(names.get(n).ok_or_else(|| undeclared(n))?),
                    Expr::Access(n, i) => {
                        let Some(Value::Array(a)) = names.get(n) else {
                            return Err(undeclared(n));
                        };
                        let element = usize::try_from(*i)
                            .ok()
                            .and_then(|i| a.get(i.checked_sub(1)?))
                            .ok_or_else(|| format!("{annotation}: {n}[{i}] is outside '{n}'"))?;
                        push(element);
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    Ok(out)
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
        "max_regret" => by_key(|m, x| -regret(m, x)),
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
