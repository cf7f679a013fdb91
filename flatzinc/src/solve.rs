//! # Running a FlatZinc model and printing what the specification asks for
//!
//! The output of a FlatZinc solver is fixed by the specification, so that MiniZinc's
//! `solns2out` can turn it into the model's own output:
//!
//! * each solution: one line `name = value;` per `output_var`, one line
//!   `name = arrayNd(1..n, ..., [v, ...]);` per `output_array`, booleans as `true`/`false`,
//!   then `----------`;
//! * at the end: `==========` when the search is complete (every solution printed, or the
//!   last one proved optimal), `=====UNSATISFIABLE=====` when there is none,
//!   `=====UNKNOWN=====` when a limit stopped the search before any solution;
//! * with `-s`, statistics as `%%%mzn-stat: name=value` lines closed by `%%%mzn-stat-end`,
//!   with MiniZinc's standard names, and the engine's per-propagator profile as `%` comments.

use crate::build::{Built, OutputItem, Value};
use crate::search;
use engine::search::{Lns, VarSelect};
use engine::{Control, Limits, Objective, RestartPolicy, SearchConfig, Solution, ValSelect};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The standard FlatZinc solver flags.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-a`: every solution (satisfaction) or every improving one (optimisation).
    pub all: bool,
    /// `-n N`: stop after N solutions.
    pub solutions: Option<u64>,
    /// `-i`: print intermediate solutions of an optimisation.
    pub intermediate: bool,
    /// `-s`: statistics.
    pub statistics: bool,
    /// `-t MS`: the deadline.
    pub deadline: Option<Instant>,
    /// Set from outside (SIGINT, SIGTERM) to stop the search as a limit does.
    pub stop: Option<Arc<AtomicBool>>,
    /// `-f`: ignore the search annotations (an optimisation then runs large neighbourhood
    /// search between the restarts of its branch and bound).
    pub free: bool,
    /// `--no-lns`: under `-f`, branch and bound only.
    pub no_lns: bool,
    /// `-r SEED`.
    pub seed: u64,
    /// `--nodes N`: stop after N search nodes (cpsolve's own flag, as for the puzzles).
    pub nodes: Option<u64>,
    /// `--failures N`: stop after N failures.
    pub failures: Option<u64>,
    /// `--profile`: time each kind of propagator (the `-s` table's `time_ms` column).
    pub profile: bool,
    /// `--learn`: learn a nogood from each failure (engine/src/learning/).
    pub learn: bool,
    /// `-p N`: with N > 1, a portfolio of N differently configured searches racing for the
    /// first solution or the optimum (`engine/src/search/portfolio.rs`); 0 or 1: one search.
    pub threads: usize,
}

impl Options {
    /// Does this run race a portfolio? Only for one answer (a solution, or the optimum)
    /// printed at the end: `-a`, `-n` and `-i` print solutions as one search finds them.
    pub fn races(&self) -> bool {
        self.threads > 1 && !self.all && !self.intermediate && self.solutions.is_none()
    }
}

/// Print one value of a solution.
fn format_value(v: &Value, sol: &Solution) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Var(x, true) => (sol.value(*x) != 0).to_string(),
        Value::Var(x, false) => sol.value(*x).to_string(),
        Value::Set(ranges) => {
            let parts: Vec<String> = ranges.iter().map(|(l, h)| format!("{l}..{h}")).collect();
            if parts.is_empty() {
                "{}".to_string()
            } else {
                parts.join(" union ")
            }
        }
        Value::SetVar(set) => {
            let values: Vec<i64> = (set.elements.iter())
                .filter(|&&(_, x)| sol.value(x) == 1)
                .map(|&(v, _)| v as i64)
                .collect();
            crate::set_var::format_set(&values)
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| format_value(i, sol)).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// The lines of one solution, without the `----------`.
pub fn format_solution(output: &[OutputItem], sol: &Solution) -> String {
    let mut s = String::new();
    for item in output {
        match item {
            OutputItem::Scalar { name, value } => {
                s.push_str(&format!("{name} = {};\n", format_value(value, sol)));
            }
            OutputItem::Array { name, dims, values } => {
                let ranges: Vec<String> = dims.iter().map(|(l, h)| format!("{l}..{h}")).collect();
                let items: Vec<String> = values.iter().map(|v| format_value(v, sol)).collect();
                s.push_str(&format!(
                    "{name} = array{}d({}, [{}]);\n",
                    dims.len(),
                    ranges.join(", "),
                    items.join(", ")
                ));
            }
        }
    }
    s
}

/// The search configuration for this model and these flags.
pub fn config(built: &Built, options: &Options) -> SearchConfig {
    let mut config = SearchConfig {
        seed: options.seed,
        learn: options.learn,
        // `-f` lets the engine choose: with learning, it branches on activity (VSIDS).
        activity: options.learn && options.free,
        // Learning takes turns with the plain search (engine/src/learning/slices.rs): on
        // FlatZinc a learning node costs ten to thirty plain ones, and which of the two
        // wins is not known before the search (docs/minizinc.md, "Learning and -f").
        learning_slices: options
            .learn
            .then_some(engine::learning::slices::Slices::FLATZINC),
        ..SearchConfig::default()
    };
    config.objective = built
        .objective
        .map(|(var, minimize)| Objective { var, minimize });
    let plan = if options.free {
        search::SearchPlan::default()
    } else {
        search::plan(built)
    };
    match plan.branching {
        Some(b) => {
            config.var_select = b.var_select;
            config.val_select = b.val_select;
            config.val_select_of = b.val_select_of;
            config.branch_vars = Some(b.vars);
        }
        None => {
            config.var_select = VarSelect::DomWDeg;
            config.val_select = ValSelect::Min;
            if !built.decision_vars.is_empty() {
                config.branch_vars = Some(free_search_vars(built, options));
            }
            let every_solution = built.objective.is_none() && options.all;
            if !every_solution {
                config.restarts = RestartPolicy::Luby { scale: 100 };
            }
            // A warm start without a search annotation: the hints over the default search.
            config.val_select_of = (plan.warm_start.iter())
                .map(|&(x, v)| (x, ValSelect::Prefer(v)))
                .collect();
        }
    }
    if let Some(restarts) = plan.restarts {
        config.restarts = restarts;
    }
    config.solution_limit = match (built.objective.is_some(), options.solutions, options.all) {
        (_, Some(n), _) => Some(n),
        (false, None, false) => Some(1),
        _ => None,
    };
    config.limits = Limits {
        nodes: options.nodes,
        failures: options.failures,
        deadline: options.deadline,
        stop: options.stop.clone(),
    };
    config
}

/// The variables dom/wdeg branches on: every named variable, but under `-f` not those a
/// constraint computes from others (`is_defined_var`): fixing the others fixes them, and
/// scanning them at every node costs most of a node where nearly every variable is
/// defined (docs/performance/lns.md). They stay the brancher's secondary variables, so a
/// leaf is still complete. All of them when every one is defined.
fn free_search_vars(built: &Built, options: &Options) -> Vec<engine::VarId> {
    let defined: std::collections::HashSet<_> = built.defined_vars.iter().copied().collect();
    let decisions: Vec<_> = (built.decision_vars.iter())
        .filter(|x| !defined.contains(x))
        .copied()
        .collect();
    if options.free && !decisions.is_empty() {
        decisions
    } else {
        built.decision_vars.clone()
    }
}

/// The large neighbourhood search this model and these flags ask for: under `-f` for an
/// optimisation (unless `--no-lns`), over the variables the search branches on, freeing
/// the annotations' groups and the output arrays together; with
/// the model's search annotation, if any, taking turns with dom/wdeg; with
/// `relax_and_reconstruct(x, p)`, `p` % of `x` at random (the restart annotation's constant
/// cutoff, if any, as each neighbourhood's failure limit). `None` for plain search.
pub fn lns(built: &Built, options: &Options, config: &SearchConfig) -> Option<Lns> {
    // With --learn, branch and bound learns instead (the neighbourhoods would not).
    if built.objective.is_none() || options.races() || options.learn {
        return None;
    }
    if !options.free {
        let plan = search::plan(built);
        let relax = plan.relax?;
        let failure_limit = match plan.restarts {
            Some(RestartPolicy::Constant { scale }) => scale,
            _ => 100,
        };
        return Some(Lns {
            vars: relax.vars,
            groups: Vec::new(),
            percentage: Some(relax.percentage),
            failure_limit,
            alternate: None,
        });
    }
    if options.no_lns {
        return None;
    }
    let mut vars = match &config.branch_vars {
        Some(vars) => vars.clone(),
        None => (0..built.model.num_vars() as u32)
            .map(engine::VarId)
            .collect(),
    };
    // The model's own search, if it states one, takes turns with dom/wdeg.
    let annotated = Options {
        free: false,
        ..options.clone()
    };
    let alternate = (search::plan(built).branching.is_some())
        .then(|| engine::search::Branching::of(&self::config(built, &annotated)));
    if let Some(more) = alternate.as_ref().and_then(|b| b.branch_vars.as_ref()) {
        let mut known: std::collections::HashSet<_> = vars.iter().copied().collect();
        vars.extend(more.iter().filter(|x| known.insert(**x)));
    }
    let mut groups = search::plan(built).groups;
    for item in &built.output {
        if let OutputItem::Array { values, .. } = item {
            let group: Vec<_> = (values.iter())
                .filter_map(|v| match v {
                    Value::Var(x, _) => Some(*x),
                    _ => None,
                })
                .collect();
            if group.len() > 1 {
                groups.push(group);
            }
        }
    }
    // A neighbourhood fixes what it does not free; fixing the objective (to a value the
    // bound forbids) or a variable a constraint computes from others (a partial sum) would
    // leave nothing to move. So neither is among the variables it frees or fixes.
    let objective = built.objective.map(|(x, _)| x);
    let defined: std::collections::HashSet<_> = built.defined_vars.iter().copied().collect();
    let decides = |x: &engine::VarId| Some(*x) != objective && !defined.contains(x);
    if vars.iter().any(decides) {
        vars.retain(decides);
        groups.iter_mut().for_each(|g| g.retain(decides));
    } else {
        vars.retain(|x| Some(*x) != objective);
        groups
            .iter_mut()
            .for_each(|g| g.retain(|x| Some(*x) != objective));
    }
    groups.retain(|g| !g.is_empty());
    Some(Lns {
        vars,
        groups,
        percentage: None,
        failure_limit: 100,
        alternate,
    })
}

/// Search and print, per the specification.
pub fn run(mut built: Built, options: &Options, out: &mut dyn Write) -> io::Result<()> {
    let started = Instant::now();
    let config = config(&built, options);
    let lns = lns(&built, options, &config);
    let optimising = built.objective.is_some();
    let print_each = !optimising || options.all || options.intermediate;
    let output = std::mem::take(&mut built.output);
    built.model.set_profiling(options.profile);
    let mut write_error: Option<io::Error> = None;
    let mut last: Option<Solution> = None;
    let mut on_solution = |sol: &Solution| {
        if print_each {
            let text = format_solution(&output, sol);
            if let Err(e) = out
                .write_all(text.as_bytes())
                .and_then(|_| out.write_all(b"----------\n"))
                .and_then(|_| out.flush())
            {
                write_error = Some(e);
                return Control::Stop;
            }
        } else {
            last = Some(sol.clone());
        }
        Control::Continue
    };
    // A model that fails at the root has no solution: the search reports it.
    let outcome = if options.races() {
        let configs = engine::search::portfolio::diversify(&config, options.threads);
        let outcome = engine::search::portfolio::race(&built.model, &configs);
        last = outcome.best.clone();
        outcome
    } else if let Some(lns) = &lns {
        engine::search::search_lns(
            &mut built.model,
            &config,
            lns,
            &mut engine::search::NoListener,
            &mut on_solution,
        )
    } else {
        engine::search(
            &mut built.model,
            &config,
            &mut engine::search::NoListener,
            &mut on_solution,
        )
    };
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(sol) = &last {
        out.write_all(format_solution(&output, sol).as_bytes())?;
        out.write_all(b"----------\n")?;
    }
    if outcome.complete {
        if outcome.solutions == 0 {
            out.write_all(b"=====UNSATISFIABLE=====\n")?;
        } else if optimising || config.solution_limit.is_none() {
            out.write_all(b"==========\n")?;
        }
    } else if outcome.solutions == 0 {
        out.write_all(b"=====UNKNOWN=====\n")?;
    }
    if options.statistics {
        write_statistics(out, &built, &outcome, started.elapsed())?;
    }
    out.flush()
}

fn write_statistics(
    out: &mut dyn Write,
    built: &Built,
    outcome: &engine::Outcome,
    elapsed: Duration,
) -> io::Result<()> {
    let s = &outcome.stats;
    let mut stat = |name: &str, value: String| writeln!(out, "%%%mzn-stat: {name}={value}");
    stat("solveTime", format!("{:.3}", elapsed.as_secs_f64()))?;
    stat("nSolutions", outcome.solutions.to_string())?;
    stat("variables", built.model.num_vars().to_string())?;
    stat("nodes", s.nodes.to_string())?;
    stat("failures", s.failures.to_string())?;
    stat("restarts", s.restarts.to_string())?;
    stat("propagations", s.propagations.to_string())?;
    stat("peakDepth", s.peak_depth.to_string())?;
    if s.nogoods > 0 {
        // With --learn: the nogoods learned, and their mean size in atoms.
        stat("nogoods", s.nogoods.to_string())?;
        let mean = s.nogood_atoms as f64 / s.nogoods as f64;
        stat("nogoodMeanSize", format!("{mean:.1}"))?;
        stat("backjumps", s.backjumps.to_string())?;
    }
    if let Some(obj) = outcome.objective {
        stat("objective", obj.to_string())?;
        if outcome.complete {
            stat("objectiveBound", obj.to_string())?;
        }
    }
    writeln!(out, "%%%mzn-stat-end")?;
    for line in outcome.profile.table().lines() {
        writeln!(out, "% {line}")?;
    }
    Ok(())
}
