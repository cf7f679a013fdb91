//! # Search annotations: how the model asks to be searched
//!
//! A FlatZinc solve item may carry `int_search(vars, var_choice, val_choice, strategy)`,
//! `bool_search(...)`, `seq_search([...])`, `warm_start(vars, values)`, a restart
//! annotation and `relax_and_reconstruct(vars, percentage)`. They map onto the engine's
//! brancher, restart policy and large neighbourhood search:
//!
//! | FlatZinc | engine | Gecode 6.2 (for the same tree) |
//! |---|---|---|
//! | `input_order` | `VarSelect::InputOrder` | `INT_VAR_NONE` |
//! | `first_fail` | `VarSelect::SmallestDomain` | `INT_VAR_SIZE_MIN` |
//! | `anti_first_fail` | largest domain | `INT_VAR_SIZE_MAX` |
//! | `smallest` / `largest` | smallest min / largest max | `INT_VAR_MIN_MIN` / `INT_VAR_MAX_MAX` |
//! | `occurrence` | most propagators (`Model::degree`) | `INT_VAR_DEGREE_MAX` |
//! | `most_constrained` | smallest domain, then most propagators | `SIZE_MIN`, then `DEGREE_MAX` |
//! | `max_regret` | largest gap between the two smallest values | `INT_VAR_REGRET_MIN_MAX` |
//! | `dom_w_deg` | `VarSelect::AfcSize` (failure count with decay 0.99 / size, greatest) | `INT_VAR_AFC_SIZE_MAX` (FlatZinc's `-decay 0.99`) |
//! | `indomain_min` / `max` | `ValSelect::Min` / `Max` | `INT_VAL_MIN` / `MAX` |
//! | `indomain` | `ValSelect::EveryValue` (one child per value, smallest first) | `INT_VALUES_MIN` |
//! | `indomain_median` | `ValSelect::Median` | `INT_VAL_MED` |
//! | `indomain_middle` | `ValSelect::Middle` (closest to the middle) | replaced by `INT_VAL_MED` |
//! | `indomain_split` / `reverse_split` | `ValSelect::Split` / `ReverseSplit` | `INT_VAL_SPLIT_MIN` / `MAX` |
//! | `indomain_interval` | `ValSelect::Interval` | replaced by `INT_VAL_SPLIT_MIN` |
//! | `indomain_random` | `ValSelect::Random` | `INT_VAL_RND` |
//! | `warm_start(x, v)` | `ValSelect::Prefer(v)` for each `x` | (not read by 6.2) |
//! | `set_search(s, input_order/first_fail/anti_first_fail, ...)` | the sets' booleans, the set by its undecided values | `SET_VAR_NONE` / `SIZE_MIN` / `SIZE_MAX` |
//! | `set_search(s, _, indomain_min/max)`, `outdomain_min/max` | the least/greatest undecided value, included (`Max` on its boolean) / excluded first | `SET_VAL_MIN_INC` / `MAX_INC` / `MIN_EXC` / `MAX_EXC` |
//! | `restart_none/constant/linear/geometric/luby` | `RestartPolicy` | the same cutoffs |
//! | `relax_and_reconstruct(x, p)` | LNS over `x`, `p` % relaxed (`engine::search::lns`) | the same |
//!
//! Ties are broken as Gecode breaks them: the first variable in the annotation's order.
//! A `seq_search` of several parts branches phase by phase: the next variable comes from the
//! first part that still has one unfixed, by that part's rule, and its value by that part's
//! value choice (`SearchConfig::val_select_of`). Every mapping keeps the search complete:
//! only the order of the tree changes.
//!
//! What is not understood (`float_search`, a variable choice of another solver, ...) is
//! not dropped in silence: [`SearchPlan::unsupported`] names it once, and the CLI prints it
//! as a warning.
//!
//! Without annotations (or with `-f`), the engine's default for FlatZinc: dom/wdeg with
//! Luby restarts (restarts only when every solution is not asked for).

use crate::ast::Expr;
use crate::build::Built;
use crate::builder::Value;
use engine::search::VarSelect;
use engine::{Model, RestartPolicy, ValSelect, VarId};
use std::collections::HashSet;
use std::sync::Arc;

/// The branching the annotations ask for: variables, variable choice, value choice.
#[derive(Clone, Debug)]
pub struct Branching {
    pub vars: Vec<VarId>,
    pub var_select: VarSelect,
    pub val_select: ValSelect,
    /// The value choice of each later phase whose choice differs from the first's, for that
    /// phase's variables (a variable named by several phases takes the first's), then the
    /// warm start's preferred values.
    pub val_select_of: Vec<(VarId, ValSelect)>,
}

/// `relax_and_reconstruct(vars, percentage)`: the variables a large neighbourhood search
/// frees, and the share of them freed each time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relax {
    pub vars: Vec<VarId>,
    pub percentage: u32,
}

/// Everything the solve item's annotations ask of the search.
#[derive(Clone, Debug, Default)]
pub struct SearchPlan {
    /// `None` when no annotation names a variable to branch on.
    pub branching: Option<Branching>,
    /// `Some` when a restart annotation is given (`restart_none` is `Some(Never)`).
    pub restarts: Option<RestartPolicy>,
    pub relax: Option<Relax>,
    /// `warm_start` hints: try this value first for this variable.
    pub warm_start: Vec<(VarId, i32)>,
    /// The variables of each `int_search`/`bool_search`: groups the model states, which a
    /// large neighbourhood search frees together.
    pub groups: Vec<Vec<VarId>>,
    /// Annotations (or choices inside them) this version does not follow, each once.
    pub unsupported: Vec<String>,
}

/// One `int_search`/`bool_search`/`set_search`: its variables and its two choices.
#[derive(Clone, Debug)]
struct Phase {
    vars: Vec<VarId>,
    var_choice: &'static str,
    val_select: ValSelect,
    /// For a `set_search`: each set's booleans, in the order its value choice tries them
    /// (`vars` is their concatenation); the variable choice then picks a set.
    sets: Vec<Vec<VarId>>,
}

/// The variable choices this version follows.
const VAR_CHOICES: [&str; 9] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "occurrence",
    "most_constrained",
    "max_regret",
    "dom_w_deg",
];

/// Read the solve item's annotations; `None` when there is no usable search annotation.
pub fn from_annotations(built: &Built) -> Option<Branching> {
    plan(built).branching
}

/// Read everything the solve item's annotations say about the search.
pub fn plan(built: &Built) -> SearchPlan {
    let mut reader = Reader {
        built,
        phases: Vec::new(),
        plan: SearchPlan::default(),
    };
    for ann in &built.search_annotations {
        reader.read(ann);
    }
    let Reader {
        phases, mut plan, ..
    } = reader;
    plan.branching = branching(phases, &plan.warm_start, plan.restarts.is_some());
    plan
}

/// The brancher of the phases, with the warm start's hints.
fn branching(
    mut phases: Vec<Phase>,
    warm_start: &[(VarId, i32)],
    restarting: bool,
) -> Option<Branching> {
    phases.retain(|p| !p.vars.is_empty());
    let first = phases.first()?.clone();
    // Each variable once, in the order of the phases (a set beside the list: an annotation
    // over 100,000 variables is read in linear time).
    let mut vars: Vec<VarId> = Vec::new();
    let mut seen: HashSet<VarId> = HashSet::new();
    let mut val_select_of = Vec::new();
    for p in &phases {
        for &x in &p.vars {
            if seen.insert(x) {
                vars.push(x);
                if p.val_select != first.val_select {
                    val_select_of.push((x, p.val_select));
                }
            }
        }
    }
    val_select_of.extend(warm_start.iter().map(|&(x, v)| (x, ValSelect::Prefer(v))));
    // The engine's own selectors where they say the same, one phase and no restart (a
    // restart reorders the engine's candidate list; the phases keep their own).
    // A set phase chooses among sets, not booleans: only its input order is the engine's.
    let by_set = (phases.iter()).any(|p| !p.sets.is_empty() && p.var_choice != "input_order");
    let var_select = match (phases.len(), first.var_choice, restarting) {
        _ if by_set => phase_by_phase(phases),
        (1, "input_order", false) => VarSelect::InputOrder,
        (1, "first_fail", false) => VarSelect::SmallestDomain,
        (1, "dom_w_deg", _) => VarSelect::AfcSize,
        _ => phase_by_phase(phases),
    };
    Some(Branching {
        vars,
        var_select,
        val_select: first.val_select,
        val_select_of,
    })
}

/// Reads annotations, recursively through `seq_search` and `warm_start_array`.
struct Reader<'a> {
    built: &'a Built,
    phases: Vec<Phase>,
    plan: SearchPlan,
}

impl Reader<'_> {
    fn read(&mut self, ann: &Expr) {
        let (name, args): (&str, &[Expr]) = match ann {
            Expr::Call(name, args) => (name, args),
            Expr::Ident(name) => (name, &[]),
            _ => return,
        };
        match (name, args) {
            ("seq_search" | "warm_start_array", [Expr::Array(parts)]) => {
                for part in parts {
                    self.read(part);
                }
            }
            ("int_search" | "bool_search", [vars, var_choice, val_choice, rest @ ..]) => {
                let vars = annotation_vars(self.built, vars);
                let var_choice = self.var_choice(name, var_choice);
                let val_select = self.val_choice(name, val_choice);
                if let Some(explore) = rest.first() {
                    if word(explore) != "complete" {
                        self.unsupported(format!("{name}: exploration '{}'", word(explore)));
                    }
                }
                self.plan.groups.push(vars.clone());
                self.phases.push(Phase {
                    vars,
                    var_choice,
                    val_select,
                    sets: Vec::new(),
                });
            }
            ("set_search", [vars, var_choice, val_choice, rest @ ..]) => {
                if let Some(explore) = rest.first() {
                    if word(explore) != "complete" {
                        self.unsupported(format!("{name}: exploration '{}'", word(explore)));
                    }
                }
                let phase = self.set_phase(vars, var_choice, val_choice);
                self.plan.groups.push(phase.vars.clone());
                self.phases.push(phase);
            }
            ("warm_start" | "warm_start_bool" | "warm_start_int", [vars, values]) => {
                let vars = annotation_vars(self.built, vars);
                let values = annotation_values(self.built, values);
                let hints = vars.into_iter().zip(values);
                (self.plan.warm_start)
                    .extend(hints.map(|(x, v)| (x, v.clamp(-1 << 31, (1 << 31) - 1) as i32)));
            }
            ("restart_none", []) => self.plan.restarts = Some(RestartPolicy::Never),
            ("restart_constant", [scale]) => {
                self.plan.restarts = Some(RestartPolicy::Constant {
                    scale: positive(scale),
                })
            }
            ("restart_linear", [scale]) => {
                self.plan.restarts = Some(RestartPolicy::Linear {
                    scale: positive(scale),
                })
            }
            ("restart_luby", [scale]) => {
                self.plan.restarts = Some(RestartPolicy::Luby {
                    scale: positive(scale),
                })
            }
            ("restart_geometric", [base, scale]) => {
                let factor = match base {
                    Expr::Float(f) if *f > 1.0 => *f,
                    Expr::Int(i) if *i > 1 => *i as f64,
                    _ => 1.5,
                };
                self.plan.restarts = Some(RestartPolicy::Geometric {
                    base: positive(scale),
                    factor,
                })
            }
            ("relax_and_reconstruct", [vars, percentage, ..]) => {
                let percentage = match percentage {
                    Expr::Int(p) => (*p).clamp(0, 100) as u32,
                    _ => 50,
                };
                self.plan.relax = Some(Relax {
                    vars: annotation_vars(self.built, vars),
                    percentage,
                });
            }
            _ => self.unsupported(format!("annotation '{name}'")),
        }
    }

    /// The variable choice named by `e`; one this version does not know is reported and
    /// read as `input_order`.
    fn var_choice(&mut self, search: &str, e: &Expr) -> &'static str {
        let name = word(e);
        match VAR_CHOICES.iter().find(|&&c| c == name) {
            Some(c) => c,
            None => {
                self.unsupported(format!(
                    "{search}: variable choice '{name}' (input_order used)"
                ));
                "input_order"
            }
        }
    }

    /// The value choice named by `e`; one this version does not know is reported and read
    /// as `indomain_min`.
    fn val_choice(&mut self, search: &str, e: &Expr) -> ValSelect {
        let name = word(e);
        match val_select(&name) {
            Some(v) => v,
            None => {
                self.unsupported(format!(
                    "{search}: value choice '{name}' (indomain_min used)"
                ));
                ValSelect::Min
            }
        }
    }

    /// A `set_search`, read as Gecode reads it: `indomain_min` includes the smallest
    /// undecided value first (`SET_VAL_MIN_INC`), `indomain_max` the largest,
    /// `outdomain_min`/`max` exclude it first (`indomain` too); `input_order` takes the first set with an
    /// undecided value, `first_fail` the one with fewest (`SET_VAR_SIZE_MIN`),
    /// `anti_first_fail` the most. A branch on a set is a branch on one of its booleans.
    fn set_phase(&mut self, vars: &Expr, var_choice: &Expr, val_choice: &Expr) -> Phase {
        let (descending, include) = match word(val_choice).as_str() {
            "indomain_min" => (false, true),
            "indomain_max" => (true, true),
            // `indomain` tries a value's "out" (0) before its "in" (1), as MiniZinc's own
            // nosets.mzn reads it on the booleans.
            "outdomain_min" | "indomain" => (false, false),
            "outdomain_max" => (true, false),
            other => {
                self.unsupported(format!(
                    "set_search: value choice '{other}' (indomain_min used)"
                ));
                (false, true)
            }
        };
        let var_choice = match word(var_choice).as_str() {
            "input_order" => "input_order",
            "first_fail" => "first_fail",
            "anti_first_fail" => "anti_first_fail",
            other => {
                self.unsupported(format!(
                    "set_search: variable choice '{other}' (input_order used)"
                ));
                "input_order"
            }
        };
        let sets: Vec<Vec<VarId>> = (annotation_items(self.built, vars).into_iter())
            .filter_map(|v| match v {
                Value::SetVar(s) => {
                    let mut booleans = s.booleans();
                    if descending {
                        booleans.reverse();
                    }
                    Some(booleans)
                }
                _ => None,
            })
            .collect();
        Phase {
            vars: sets.concat(),
            var_choice,
            val_select: if include {
                ValSelect::Max
            } else {
                ValSelect::Min
            },
            sets,
        }
    }

    fn unsupported(&mut self, what: String) {
        if !self.plan.unsupported.contains(&what) {
            self.plan.unsupported.push(what);
        }
    }
}

/// The identifier an annotation argument is, or "".
fn word(e: &Expr) -> String {
    match e {
        Expr::Ident(s) => s.clone(),
        Expr::Call(s, _) => s.clone(),
        _ => String::new(),
    }
}

/// A restart scale: a positive integer (1 if the argument is not one).
fn positive(e: &Expr) -> u64 {
    match e {
        Expr::Int(i) if *i >= 1 => *i as u64,
        _ => 1,
    }
}

/// A `seq_search` (or a search that restarts): the variable comes from the first phase that
/// still has an unfixed variable, chosen by that phase's rule.
fn phase_by_phase(phases: Vec<Phase>) -> VarSelect {
    VarSelect::Custom(Arc::new(move |model: &Model, candidates: &[VarId]| {
        for phase in &phases {
            if !phase.sets.is_empty() {
                if let Some(x) = pick_in_sets(phase.var_choice, model, &phase.sets) {
                    return x;
                }
                continue;
            }
            let open: Vec<VarId> = phase
                .vars
                .iter()
                .copied()
                .filter(|&x| !model.is_fixed(x))
                .collect();
            if !open.is_empty() {
                return pick(phase.var_choice, model, &open);
            }
        }
        candidates[0]
    }))
}

/// The boolean to branch on in the set `rule` chooses (by its number of undecided values,
/// ties to the first; `input_order`: the first set with one): that set's first undecided
/// boolean in the value choice's order. `None` when every set is decided.
fn pick_in_sets(rule: &str, model: &Model, sets: &[Vec<VarId>]) -> Option<VarId> {
    let open = |set: &Vec<VarId>| set.iter().filter(|&&x| !model.is_fixed(x)).count() as i64;
    let candidates = sets.iter().filter(|s| open(s) > 0);
    let chosen = match rule {
        "first_fail" => candidates.min_by_key(|s| open(s)),
        "anti_first_fail" => candidates.min_by_key(|s| -open(s)),
        _ => candidates.into_iter().next(),
    }?;
    chosen.iter().copied().find(|&x| !model.is_fixed(x))
}

/// The variable `rule` chooses among `open` (not empty): the least key, ties by order (the
/// first, as Gecode's `TieBreak` without a second criterion takes).
pub fn pick(rule: &str, model: &Model, open: &[VarId]) -> VarId {
    if rule == "dom_w_deg" {
        // Accumulated failure count over size, greatest, the first of equals (Gecode's
        // `INT_VAR_AFC_SIZE_MAX`).
        let merit = |x: VarId| model.afc(x) / model.size(x) as f64;
        let mut best = open[0];
        let mut best_merit = merit(best);
        for &x in &open[1..] {
            let m = merit(x);
            if m > best_merit {
                (best, best_merit) = (x, m);
            }
        }
        return best;
    }
    let key = |x: VarId| -> (i64, i64) {
        let size = model.size(x) as i64;
        match rule {
            "first_fail" => (size, 0),
            "anti_first_fail" => (-size, 0),
            "smallest" => (model.min(x) as i64, 0),
            "largest" => (-(model.max(x) as i64), 0),
            "occurrence" => (-(model.degree(x) as i64), 0),
            "most_constrained" => (size, -(model.degree(x) as i64)),
            "max_regret" => (-regret(model, x), 0),
            _ => (0, 0),
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

/// The variables an annotation names (constants are skipped).
fn annotation_vars(built: &Built, e: &Expr) -> Vec<VarId> {
    let mut out = Vec::new();
    for v in annotation_items(built, e) {
        if let Value::Var(x, _) = v {
            out.push(x);
        }
    }
    out
}

/// The constants an annotation names, in order (booleans as 0/1; variables skipped).
fn annotation_values(built: &Built, e: &Expr) -> Vec<i64> {
    let mut out = Vec::new();
    for v in annotation_items(built, e) {
        match v {
            Value::Int(i) => out.push(i),
            Value::Bool(b) => out.push(b as i64),
            _ => {}
        }
    }
    out
}

/// The items of an annotation's array argument: a named array, or a literal array of
/// names, array accesses and constants.
fn annotation_items(built: &Built, e: &Expr) -> Vec<Value> {
    let named = |n: &String| built.names.get(n).cloned();
    match e {
        Expr::Ident(n) => match named(n) {
            Some(Value::Array(items)) => items,
            Some(v) => vec![v],
            None => Vec::new(),
        },
        Expr::Array(items) => items
            .iter()
            .filter_map(|item| match item {
                Expr::Ident(n) => named(n),
                Expr::Access(n, i) => match named(n) {
                    Some(Value::Array(a)) if *i >= 1 => a.get(*i as usize - 1).cloned(),
                    _ => None,
                },
                Expr::Int(i) => Some(Value::Int(*i)),
                Expr::Bool(b) => Some(Value::Bool(*b)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A custom variable choice by one of the FlatZinc rules, over the brancher's candidates.
fn by_rule(rule: &'static str) -> VarSelect {
    VarSelect::Custom(Arc::new(move |model: &Model, candidates: &[VarId]| {
        pick(rule, model, candidates)
    }))
}

/// FlatZinc's variable choice (an unknown name: input order).
pub fn var_select(name: &str) -> VarSelect {
    match name {
        "first_fail" => VarSelect::SmallestDomain,
        "dom_w_deg" => VarSelect::AfcSize,
        _ => match VAR_CHOICES.iter().find(|&&c| c == name) {
            Some(&rule) if rule != "input_order" => by_rule(rule),
            _ => VarSelect::InputOrder,
        },
    }
}

/// FlatZinc's value choice; `None` for a name this version does not know.
pub fn val_select(name: &str) -> Option<ValSelect> {
    Some(match name {
        "indomain_min" => ValSelect::Min,
        "indomain" => ValSelect::EveryValue,
        "indomain_max" => ValSelect::Max,
        "indomain_split" => ValSelect::Split,
        "indomain_reverse_split" => ValSelect::ReverseSplit,
        "indomain_median" => ValSelect::Median,
        "indomain_middle" => ValSelect::Middle,
        "indomain_interval" => ValSelect::Interval,
        "indomain_random" => ValSelect::Random,
        _ => return None,
    })
}
