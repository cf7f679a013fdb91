//! # `--explain CELL`: why each value left a cell
//!
//! A human solver justifies each pencil mark she erases ("not 5: there is a 5 in this row").
//! The propagators do the same work without a word; this file makes them say it. The search
//! runs once more, as the real one does, with the engine's removal recorder watching one
//! cell (engine/src/explain.rs): every propagator run that removes values from it is kept
//! with the domains it read, and each removed value gets a [`Reason`]: the few domains that,
//! on their own, make that propagator remove it. The reasons are re-checked by running the
//! propagator alone on them ([`Model::reproduces`]), so what is printed is exact, not a
//! paraphrase: at the root it is the puzzle's "logic"; below, the node where it happened
//! (its number is the trace's, `--trace`) and the decision that led there.
//!
//! With `--learn`, the story names what learning did on the way: each nogood learned from
//! a failure (its atoms as the puzzle reads them) and each backjump (the decisions undone
//! without trying their alternatives, and the node the search goes on from).
//!
//! The lines are comments (`% `), printed before the answer, like `--show-domains`. A
//! FlatZinc model's variables are named as the file names them (`X_INTRODUCED_3_`).

use crate::solve::{Mode, Plan};
use crate::Failure;
use engine::explain::{Reason, Removal, Watched};
use engine::search::{Naming, SearchEvent, SearchListener};
use engine::{Control, Domain, Limits, Model, VarId};
use puzzles::{Instance, Purpose};
use std::io::Write;

/// At most this many removals are explained (a long search removes a cell's values at
/// thousands of nodes); the others are counted.
const MAX_EXPLAINED: usize = 200;

/// At most this many nogoods and backjumps are told (a long search learns thousands); the
/// others are counted.
const MAX_LEARNED: usize = 50;

/// Why one run of a propagator removed values from the cell.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The node it happened at (the trace's numbering: the root is 0), and the decision that
    /// made that node (`None` at a root).
    pub node: u64,
    pub decision: Option<String>,
    pub removal: Removal,
    /// One reason per value removed. A value without one (its propagator does not remove it
    /// again from scratch on the recorded inputs) is said so.
    pub reasons: Vec<Reason>,
}

/// Everything `--explain` found about one cell.
#[derive(Debug)]
pub struct Explanation {
    /// The model searched (its propagators re-check the reasons).
    pub model: Model,
    pub naming: Naming,
    pub cell: VarId,
    /// The cell's domain before the first propagation.
    pub initial: Domain,
    /// What happened to the cell, in order.
    pub steps: Vec<Step>,
    /// Removals beyond [`MAX_EXPLAINED`], not explained.
    pub unexplained: usize,
    /// Nogoods and backjumps beyond [`MAX_LEARNED`], not told.
    pub untold: usize,
    /// The cell's value in the solution found, if one was.
    pub solution: Option<i32>,
}

/// One thing that happened to the cell.
#[derive(Clone, Debug)]
pub enum Step {
    /// A propagator removed values.
    Removed(Explained),
    /// The search decided about the cell itself (`r1c1 = 5` or `r1c1 != 5`) at `node`.
    Decided { node: u64, decision: String },
    /// Learning (`--learn`): a nogood learned from the failure of `node`, or a backjump from
    /// it, in words.
    Learned { node: u64, text: String },
}

/// Parse `cell` as `naming` names a variable (`r2c3`), or as a variable number (`12`, `x12`).
pub fn find_cell(cell: &str, naming: &Naming, num_vars: usize) -> Result<VarId, String> {
    if let Some((x, _)) = naming
        .names
        .iter()
        .find(|(_, name)| name.eq_ignore_ascii_case(cell))
    {
        return Ok(*x);
    }
    let digits = cell.strip_prefix('x').unwrap_or(cell);
    if let Ok(i) = digits.parse::<usize>() {
        if i < num_vars {
            return Ok(VarId(i as u32));
        }
        return Err(format!(
            "--explain: there is no variable {i}: this model has {num_vars} (0 to {})",
            num_vars.saturating_sub(1)
        ));
    }
    let examples: Vec<&str> = naming
        .names
        .iter()
        .take(3)
        .map(|(_, n)| n.as_str())
        .collect();
    Err(format!(
        "--explain: no cell named {} (names look like {}, or give a variable number)",
        puzzles::parse::quoted(cell),
        if examples.is_empty() {
            "x0".to_string()
        } else {
            examples.join(", ")
        }
    ))
}

/// Run `instance`'s search (the first solution, or the optimum) with the recorder watching
/// `cell`, and explain every value it lost.
pub fn explain(
    plan: &Plan<'_>,
    instance: &dyn Instance,
    cell: &str,
) -> Result<Explanation, Failure> {
    let limits = Limits {
        deadline: plan
            .options
            .time_limit
            .map(|t| std::time::Instant::now() + t),
        stop: crate::signals::stop_flag(),
        ..Limits::default()
    };
    let options = plan.model_options(Purpose::Solve);
    let built = instance
        .build_prepared(&options, &limits)
        .map_err(Failure::Usage)?;
    let naming = instance.naming(&built);
    let mode = if built.search.objective.is_some() {
        Mode::Optimum
    } else {
        Mode::First
    };
    let config = plan.search_config(&built, mode, &limits);
    explain_search(built.model, naming, &config, cell)
}

/// `--explain` on a FlatZinc model: its variables are named as the file names them (the
/// introduced ones too), and the search is the one the file's annotations and the flags ask
/// for, stopped at the first solution (or the optimum).
pub fn explain_flatzinc(
    built: ::flatzinc::build::Built,
    options: &::flatzinc::solve::Options,
    cell: &str,
) -> Result<Explanation, Failure> {
    let mut config = ::flatzinc::solve::config(&built, options);
    if config.objective.is_none() {
        config.solution_limit = Some(1);
    }
    config.limits.deadline = options.deadline;
    let mut names: Vec<(VarId, String)> = built
        .names
        .iter()
        .filter_map(|(name, value)| match value {
            ::flatzinc::build::Value::Var(x, _) => Some((*x, name.clone())),
            _ => None,
        })
        .collect();
    names.sort_by_key(|(x, _)| x.0);
    let naming = Naming {
        names,
        ..Naming::default()
    };
    explain_search(built.model, naming, &config, cell)
}

/// Search `model` as `config` says with the recorder watching `cell`, and explain every
/// value it lost.
fn explain_search(
    mut model: Model,
    naming: Naming,
    config: &engine::SearchConfig,
    cell: &str,
) -> Result<Explanation, Failure> {
    let x = find_cell(cell, &naming, model.num_vars()).map_err(Failure::Usage)?;
    let initial = model.domain(x).clone();
    model.start_recording(Watched::Vars(vec![x]));
    let mut listener = CellListener {
        cell: x,
        naming: naming.clone(),
        node: 0,
        next_node: 1,
        decision: None,
        path: vec![0],
        seen: 0,
        steps: Vec::new(),
        unexplained: 0,
        learned: 0,
    };
    let mut solution = None;
    engine::search(&mut model, config, &mut listener, &mut |s| {
        solution = Some(s.value(x));
        Control::Continue
    });
    model.stop_recording();
    Ok(Explanation {
        model,
        naming,
        cell: x,
        initial,
        steps: listener.steps,
        unexplained: listener.unexplained,
        untold: listener.learned.saturating_sub(MAX_LEARNED),
        solution,
    })
}

/// Follows the search's nodes (numbered as the trace numbers them) and collects the cell's
/// removals at each fixpoint or conflict.
struct CellListener {
    cell: VarId,
    naming: Naming,
    /// The current node, the id the next one gets, and the decision that made the current.
    node: u64,
    next_node: u64,
    decision: Option<String>,
    /// The nodes from the root to the current one, by depth (a backjump goes back to one).
    path: Vec<u64>,
    /// The recorder's removals already collected.
    seen: usize,
    steps: Vec<Step>,
    unexplained: usize,
    /// Nogoods and backjumps met.
    learned: usize,
}

impl CellListener {
    fn collect(&mut self, model: &Model) {
        let Some(recorder) = model.recorder() else {
            return;
        };
        for removal in &recorder.removals()[self.seen..] {
            if self.steps.len() >= MAX_EXPLAINED {
                self.unexplained += 1;
                continue;
            }
            self.steps.push(Step::Removed(Explained {
                node: self.node,
                decision: self.decision.clone(),
                removal: removal.clone(),
                reasons: model.explain(recorder, removal),
            }));
        }
        self.seen = recorder.removals().len();
    }

    /// Tell a nogood or a backjump at the current node (the first [`MAX_LEARNED`] of them).
    fn learned(&mut self, text: String) {
        self.learned += 1;
        if self.learned <= MAX_LEARNED {
            self.steps.push(Step::Learned {
                node: self.node,
                text,
            });
        }
    }

    /// A nogood in words: `never together r3c2 = knife, r4c6 = fork (2 atoms, LBD 2)`, and
    /// whether it speaks of the cell.
    fn nogood_words(&self, atoms: &[engine::Atom], lbd: u32, backjump: Option<usize>) -> String {
        let n = &self.naming;
        let words: Vec<String> = atoms
            .iter()
            .map(|&a| n.show_atom(a, n.name_of(a.var())))
            .collect();
        let about = if atoms.iter().any(|a| a.var() == self.cell) {
            format!(", about {}", name(n, self.cell))
        } else {
            String::new()
        };
        let then = match backjump {
            Some(d) => format!("; it sends the search back to depth {d}"),
            None => String::new(),
        };
        let never = if atoms.len() == 1 {
            "never"
        } else {
            "never together"
        };
        format!(
            "node {} fails; learned the nogood: {never} {} ({} atom{}, LBD {lbd}{about}){then}",
            self.node,
            words.join(", "),
            atoms.len(),
            if atoms.len() == 1 { "" } else { "s" }
        )
    }
}

impl SearchListener for CellListener {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        match event {
            SearchEvent::Branch {
                decision, depth, ..
            } => {
                self.node = self.next_node;
                self.next_node += 1;
                self.path.truncate(*depth);
                self.path.push(self.node);
                let shown = format!(
                    "{} {} {}",
                    name(&self.naming, decision.var),
                    decision.op.symbol(),
                    self.naming.show_value(decision.value)
                );
                if decision.var == self.cell && self.steps.len() < MAX_EXPLAINED {
                    self.steps.push(Step::Decided {
                        node: self.node,
                        decision: shown.clone(),
                    });
                }
                self.decision = Some(shown);
            }
            SearchEvent::Restart { .. } => {
                // The trace gives the new tree's root a node of its own.
                self.node = self.next_node;
                self.next_node += 1;
                self.decision = None;
                self.path = vec![self.node];
            }
            SearchEvent::Nogood {
                atoms,
                lbd,
                backjump,
            } => {
                let text = self.nogood_words(atoms, *lbd, *backjump);
                self.learned(text);
            }
            SearchEvent::Backjump { from, to } => {
                let target = self.path.get(*to).copied().unwrap_or(0);
                let undone = from - to;
                let text = format!(
                    "backjump from node {} to node {target} (depth {from} to {to}): {undone} decision{} undone without trying {}",
                    self.node,
                    if undone == 1 { "" } else { "s" },
                    if undone == 1 { "its alternative" } else { "their alternatives" }
                );
                self.learned(text);
                self.path.truncate(to + 1);
                self.node = target;
                self.decision = Some("the backjump to it".to_string());
            }
            _ => {}
        }
    }

    fn on_fixpoint(&mut self, model: &Model) {
        self.collect(model);
    }

    fn on_conflict(&mut self, model: &Model) {
        self.collect(model);
    }
}

/// What each propagator removed in the model's latest fixpoint, in words
/// ("propagation removed 10 values: alldiff_value_family 10"), when the recorder is on and
/// something was removed (the animation's steps say it beside the decision).
pub fn removal_summary(model: &Model) -> Option<String> {
    let recorder = model.recorder()?;
    let mut by_name: std::collections::BTreeMap<&str, u64> = Default::default();
    for &(p, removed) in recorder.latest_fixpoint() {
        *by_name.entry(model.propagator_name(p)).or_default() += removed;
    }
    let total: u64 = by_name.values().sum();
    if total == 0 {
        return None;
    }
    let each: Vec<String> = by_name.iter().map(|(n, k)| format!("{n} {k}")).collect();
    Some(format!(
        "propagation removed {total} value{}: {}",
        if total == 1 { "" } else { "s" },
        each.join(", ")
    ))
}

/// A variable's name: the puzzle's, else `x12`.
fn name(naming: &Naming, x: VarId) -> String {
    naming
        .names
        .iter()
        .find(|(y, _)| *y == x)
        .map_or_else(|| format!("x{}", x.0), |(_, n)| n.clone())
}

/// A value of `x` as the user reads it (the puzzle's way for its named cells).
fn value(naming: &Naming, x: VarId, v: i32) -> String {
    if naming.names.iter().any(|(y, _)| *y == x) {
        naming.show_value(v)
    } else {
        v.to_string()
    }
}

/// `= 5`, `∈ 1..4`, `∈ {1, 3, 8}`.
fn domain_words(naming: &Naming, x: VarId, d: &Domain) -> String {
    if d.is_fixed() {
        return format!("= {}", value(naming, x, d.value()));
    }
    // A range of words ("fork..spoon") says less than the words themselves.
    let words = !naming.value_words.is_empty() && naming.names.iter().any(|(y, _)| *y == x);
    if !words && d.size() as i64 == d.max() as i64 - d.min() as i64 + 1 && d.size() > 2 {
        return format!(
            "∈ {}..{}",
            value(naming, x, d.min()),
            value(naming, x, d.max())
        );
    }
    let values: Vec<String> = d.iter().map(|v| value(naming, x, v)).collect();
    format!("∈ {{{}}}", values.join(", "))
}

/// A propagator's name in words, with its profile name.
pub fn propagator_words(name: &str) -> String {
    let words = match name {
        n if n.starts_with("alldiff") => "all-different",
        "distinct_sum" => "sum of different values",
        "linear_eq" => "linear equation",
        "linear_le" => "linear inequality",
        "linear_ne" => "linear disequation",
        "not_equal_offset" => "not equal",
        "equal_offset" => "equal",
        "less_equal_offset" => "less or equal",
        "table" => "table of allowed tuples",
        "element" | "element_var" => "element",
        "count" => "count",
        "global_cardinality" => "cardinality",
        "clause" => "clause",
        n if n.starts_with("reify") => "reified",
        _ => "",
    };
    if words.is_empty() {
        name.to_string()
    } else {
        format!("{words} ({name})")
    }
}

impl Explanation {
    /// One reason in words: `r1c1 ≠ 5: all-different (alldiff_units), because r1c4 = 5`.
    pub fn reason_line(&self, reason: &Reason) -> String {
        let n = &self.naming;
        let mut because: Vec<String> = reason
            .stated
            .iter()
            .filter(|(x, _)| *x != reason.var)
            .map(|(x, d)| format!("{} {}", name(n, *x), domain_words(n, *x, d)))
            .collect();
        if let Some((x, d)) = reason.stated.iter().find(|(x, _)| *x == reason.var) {
            because.push(format!("{} was {}", name(n, *x), domain_words(n, *x, d)));
        }
        let because = if because.is_empty() {
            "whatever the other variables hold".to_string()
        } else {
            format!("because {}", because.join(", "))
        };
        format!(
            "{} ≠ {}: {}, {because}",
            name(n, reason.var),
            value(n, reason.var, reason.value),
            propagator_words(reason.name)
        )
    }

    /// The text `--explain` prints (without the `% ` of each line).
    pub fn lines(&self) -> Vec<String> {
        let n = &self.naming;
        let cell = name(n, self.cell);
        let mut lines = vec![format!("why {cell} lost its values:")];
        lines.push(if self.initial.is_fixed() {
            format!(
                "{cell} {} is given",
                domain_words(n, self.cell, &self.initial)
            )
        } else {
            format!(
                "{cell} starts {}",
                domain_words(n, self.cell, &self.initial)
            )
        });
        let mut at: Option<u64> = None;
        for step in &self.steps {
            match step {
                Step::Decided { node, decision } => {
                    lines.push(format!("node {node}: the search decides {decision}"));
                    at = None;
                }
                Step::Learned { text, .. } => {
                    lines.push(text.clone());
                    at = None;
                }
                Step::Removed(e) => {
                    if at != Some(e.node) {
                        lines.push(match &e.decision {
                            None if e.node == 0 => "at the root:".to_string(),
                            None => format!("at node {} (a restart's root):", e.node),
                            Some(d) => format!("at node {} (after {d}):", e.node),
                        });
                        at = Some(e.node);
                    }
                    for reason in &e.reasons {
                        lines.push(format!("  {}", self.reason_line(reason)));
                    }
                    for v in &e.removal.values {
                        if !e.reasons.iter().any(|r| r.value == *v) {
                            lines.push(format!(
                                "  {cell} ≠ {}: {}, not reproduced from scratch on its inputs",
                                value(n, self.cell, *v),
                                propagator_words(e.removal.name)
                            ));
                        }
                    }
                }
            }
        }
        if self.unexplained > 0 {
            lines.push(format!(
                "... and {} more removals, not explained (at most {MAX_EXPLAINED} are)",
                self.unexplained
            ));
        }
        if self.untold > 0 {
            lines.push(format!(
                "... and {} more nogoods and backjumps, not told (at most {MAX_LEARNED} are)",
                self.untold
            ));
        }
        if let Some(v) = self.solution {
            lines.push(format!(
                "{cell} = {} in the solution",
                value(n, self.cell, v)
            ));
        }
        lines
    }
}

/// `--explain CELL` for one instance: print the explanation as comment lines.
pub fn show(
    plan: &Plan<'_>,
    instance: &dyn Instance,
    index: Option<usize>,
    cell: &str,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let explanation = explain(plan, instance, cell)?;
    if let Some(i) = index {
        writeln!(out, "% instance {i}:")?;
    }
    print(&explanation, out)
}

/// The explanation as `% ` comment lines.
pub fn print(explanation: &Explanation, out: &mut dyn Write) -> Result<(), Failure> {
    for line in explanation.lines() {
        writeln!(out, "% {line}")?;
    }
    Ok(())
}
