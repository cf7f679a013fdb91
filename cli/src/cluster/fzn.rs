//! # The FlatZinc side of `split`, `solve-part` and `merge`
//!
//! A FlatZinc model is split like a puzzle (see the parent module): the same decomposition,
//! the same result lines, the same merge. Three things differ, and live here.
//!
//! * **Identity.** The instance is the `.fzn` file itself: its hash is FNV-1a of its bytes,
//!   and its search is the one `cpsolve model.fzn` runs — the solve item's search annotation,
//!   or (with none, or with `-f`) dom/wdeg over every declared variable
//!   (`flatzinc::solve::config`).
//! * **Decisions by name.** A part's decisions are written with the FlatZinc names of their
//!   variables (`["X_INTRODUCED_3_", "=", 5]`), not with engine indices: a part names the
//!   model's own variables, so it reads the same whatever order a later cpsolve builds its
//!   variables in. Every branching variable has a name: FlatZinc declares each one as a
//!   scalar (an array's elements are names of scalars). Of several names for one variable
//!   (`var 1..8: y = x;`), the first declared is used.
//! * **Answers in the model's words.** A solution is a JSON object of the model's output
//!   variables (`output_var`, `output_array`; an array as its flat list of values, in the
//!   order FlatZinc prints it), and the parts file's header keeps the output's layout (names
//!   and index ranges), so that `merge --fzn` prints the answer exactly as a FlatZinc solver
//!   does: `name = value;` lines, `----------` after each solution, `==========` when the
//!   search is complete, `=====UNSATISFIABLE=====`, `=====UNKNOWN=====`. MiniZinc's
//!   `solns2out` (`minizinc --ozn-file model.ozn`) turns that into the model's own output.
//!
//! The modes: `-a` on a satisfaction model counts every solution and keeps them all (merge
//! lists them, in part order); `--count` counts without keeping them; a `minimize` or
//! `maximize` model is optimised (`-a` asks for nothing more there: the merged answer is the
//! optimum, the last solution a FlatZinc solver would print); otherwise one solution.
//!
//! A MiniZinc model is split through its FlatZinc: `split model.mzn [data.dzn] --compile-to
//! model.fzn` runs `minizinc -c` with cpsolve's `mznlib/` (`crate::flatzinc::compile`) and
//! splits the file it wrote, which the parts then name.
//!
//! Every solution a part keeps is checked before it is written: all the model's variables
//! fixed to the solution's values on a fresh copy, and propagated to a fixpoint without a
//! conflict (each propagator checks a fully assigned scope).

use super::{hex, Mode};
use crate::args::Options;
use crate::input::InputError;
use crate::Failure;
use ::flatzinc::build::{OutputItem, Value as FznValue};
use engine::search::{Decision, DecisionOp};
use engine::{Model, SearchConfig, Solution, VarId};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

/// A FlatZinc model, read, hashed and built, with the search its flags ask for.
pub(crate) struct FlatZincModel {
    pub built: ::flatzinc::Built,
    /// The FlatZinc name of each engine variable that has one (by `VarId` index).
    names: Vec<Option<String>>,
    /// Every scalar variable's name, to read decisions back.
    by_name: HashMap<String, VarId>,
    /// `-a` on a satisfaction model: every solution is kept, not only counted.
    pub keeps_every_solution: bool,
}

/// What [`prepare`] returns: the model, its search, its mode, its hash.
pub(crate) struct PreparedModel {
    pub model: FlatZincModel,
    pub config: SearchConfig,
    pub mode: Mode,
    pub hash: String,
}

/// Read and build `file` with `options` (the words after it on the split's command line).
pub(crate) fn prepare(file: &str, options: &Options) -> Result<PreparedModel, Failure> {
    let started = Instant::now();
    if file.ends_with(".mzn") {
        return Err(Failure::Usage(format!(
            "split a compiled model: give --compile-to model.fzn, or compile it first: minizinc --solver cpsolve.msc -c {file} [data.dzn] --fzn model.fzn --ozn model.ozn"
        )));
    }
    if let Some(extra) = options.operands.first() {
        return Err(Failure::Usage(format!(
            "a FlatZinc file takes no other file, found '{extra}'"
        )));
    }
    refuse_flags(options)?;
    let bytes = std::fs::read(file).map_err(|e| {
        Failure::Input(InputError {
            file: file.to_string(),
            line: 1,
            message: format!("cannot read the file: {e}"),
        })
    })?;
    let input_error = |e: ::flatzinc::FznError| {
        Failure::Input(InputError {
            file: file.to_string(),
            line: e.line,
            message: e.message,
        })
    };
    let text = String::from_utf8_lossy(&bytes);
    let parsed = ::flatzinc::parse(&text).map_err(input_error)?;
    let built = ::flatzinc::build(&parsed).map_err(input_error)?;

    let mut names: Vec<Option<String>> = vec![None; built.model.num_vars()];
    let mut by_name = HashMap::new();
    for d in parsed.decls.iter().filter(|d| d.ty.array_len.is_none()) {
        if let Some(FznValue::Var(x, _)) = built.names.get(&d.name) {
            by_name.insert(d.name.clone(), *x);
            let slot = &mut names[x.index()];
            if slot.is_none() {
                *slot = Some(d.name.clone());
            }
        }
    }

    let optimising = built.objective.is_some() && !options.count;
    let mode = if options.count || (options.all && !optimising) {
        Mode::Count
    } else if optimising {
        Mode::Optimum
    } else {
        Mode::First
    };
    let fzn_options = ::flatzinc::solve::Options {
        all: mode == Mode::Count,
        deadline: options.time_limit.map(|t| started + t),
        // SIGINT/SIGTERM stop a part like a limit: its result says it is incomplete.
        stop: crate::signals::stop_flag(),
        free: options.free,
        seed: options.seed.unwrap_or(0),
        ..Default::default()
    };
    let mut config = ::flatzinc::solve::config(&built, &fzn_options);
    config.limits.nodes = options.nodes;
    config.limits.failures = options.failures;
    if mode == Mode::Count {
        // `--count` on an optimisation model counts the solutions of its constraints.
        config.objective = None;
        config.solution_limit = None;
        config.restarts = engine::RestartPolicy::Never;
    }
    Ok(PreparedModel {
        model: FlatZincModel {
            built,
            names,
            by_name,
            keeps_every_solution: mode == Mode::Count && options.all,
        },
        config,
        mode,
        hash: hex(super::fnv1a64(&bytes)),
    })
}

/// The flags a split FlatZinc model cannot take, refused rather than dropped.
fn refuse_flags(options: &Options) -> Result<(), Failure> {
    if options.num_solutions.is_some() || options.intermediate || options.trace.is_some() {
        return Err(Failure::Usage(
            "a split FlatZinc model is solved (one solution, the optimum) or counted (-a, --count); -n, -i and --trace are not supported".into(),
        ));
    }
    // The puzzles' own flags would be dropped without a word: refused instead.
    let puzzle_flags = [
        ("--alldiff", options.alldiff.is_some()),
        ("--sum", options.sum.is_some()),
        ("--colours", options.colours.is_some()),
        ("--var", options.var.is_some()),
        ("--val", options.val.is_some()),
        ("--restarts", options.restarts.is_some()),
        ("--tree", options.tree.is_some()),
        ("--animate", options.animate.is_some()),
        ("--show-domains", options.show_domains),
        ("--profile", options.profile),
    ];
    if let Some((flag, _)) = puzzle_flags.iter().find(|(_, given)| *given) {
        return Err(Failure::Usage(format!(
            "{flag} is a puzzle flag; a FlatZinc model's parts take -a, --count, -f, -r, -t, --nodes, --failures"
        )));
    }
    Ok(())
}

/// `split model.mzn [data.dzn ...] --compile-to model.fzn`: compile the model with its data
/// (`model.ozn` beside it), and return the split's command line with the compiled file in
/// place of the model and its data files, and the words it replaced (for the header).
pub(crate) fn compile_for_split(
    mut args: Vec<String>,
    fzn: &str,
) -> Result<(Vec<String>, Vec<String>), Failure> {
    let options = crate::args::parse(&args).map_err(Failure::Usage)?;
    let Some(model) = options.command.clone().filter(|c| c.ends_with(".mzn")) else {
        return Err(Failure::Usage(
            "--compile-to compiles a MiniZinc model: name a .mzn file".into(),
        ));
    };
    if !fzn.ends_with(".fzn") {
        return Err(Failure::Usage(format!(
            "--compile-to names the FlatZinc file to write, ending in .fzn, found '{fzn}'"
        )));
    }
    crate::flatzinc::compile(&model, &options.operands, std::path::Path::new(fzn))?;
    let at = args
        .iter()
        .position(|a| *a == model)
        .expect("the model is one of the words");
    args[at] = fzn.to_string();
    for data in &options.operands {
        if let Some(k) = args[at + 1..].iter().position(|a| a == data) {
            args.remove(at + 1 + k);
        }
    }
    let mut source = vec![model];
    source.extend(options.operands.iter().cloned());
    Ok((args, source))
}

impl FlatZincModel {
    /// A decision as a part line writes it: the variable's FlatZinc name, or its engine
    /// index when it has none (a variable the builder made, never a branching one).
    pub(crate) fn decision_json(&self, d: &Decision) -> Value {
        match self.names.get(d.var.index()).and_then(|n| n.as_ref()) {
            Some(name) => json!([name, d.op.symbol(), d.value]),
            None => json!([d.var.0, d.op.symbol(), d.value]),
        }
    }

    /// The variable a decision names.
    pub(crate) fn var_named(&self, v: &Value) -> Option<VarId> {
        match v {
            Value::String(name) => self.by_name.get(name).copied(),
            other => Some(VarId(u32::try_from(other.as_u64()?).ok()?)),
        }
    }

    /// The output variables' values, as a JSON object.
    pub(crate) fn solution_json(&self, s: &Solution) -> Value {
        let mut object = serde_json::Map::new();
        for item in &self.built.output {
            let (name, value) = match item {
                OutputItem::Scalar { name, value } => (name, value_json(value, s)),
                OutputItem::Array { name, values, .. } => (
                    name,
                    Value::Array(values.iter().map(|v| value_json(v, s)).collect()),
                ),
            };
            object.insert(name.clone(), value);
        }
        Value::Object(object)
    }

    /// The output's layout for the header: each item's name, and an array's index ranges.
    pub(crate) fn layout(&self) -> Value {
        Value::Array(
            self.built
                .output
                .iter()
                .map(|item| match item {
                    OutputItem::Scalar { name, .. } => json!({ "name": name }),
                    OutputItem::Array { name, dims, .. } => json!({ "name": name, "dims": dims }),
                })
                .collect(),
        )
    }

    /// Check a solution against the model: every variable fixed to its value, then
    /// propagated without a conflict.
    pub(crate) fn check(&self, s: &Solution) -> Result<(), Failure> {
        let mut model: Model = self.built.model.clone();
        let fixed = (0..model.num_vars() as u32).try_for_each(|i| {
            let var = VarId(i);
            Decision {
                var,
                op: DecisionOp::Eq,
                value: s.value(var),
            }
            .apply(&mut model)
        });
        if fixed.and_then(|_| model.propagate()).is_err() {
            return Err(Failure::Internal(
                "the engine's solution violates the FlatZinc model; this is a bug".into(),
            ));
        }
        Ok(())
    }
}

fn value_json(v: &FznValue, s: &Solution) -> Value {
    match v {
        FznValue::Int(i) => json!(i),
        FznValue::Bool(b) => json!(b),
        FznValue::Var(x, true) => json!(s.value(*x) != 0),
        FznValue::Var(x, false) => json!(s.value(*x)),
        FznValue::Set(ranges) => json!({ "set": ranges }),
        FznValue::SetVar(set) => {
            // The values in the set, as ranges like a constant set's.
            let values: Vec<i64> = (set.elements.iter())
                .filter(|&&(_, x)| s.value(x) == 1)
                .map(|&(v, _)| v as i64)
                .collect();
            json!({ "set": flatzinc::parse::ranges_of(values) })
        }
        FznValue::Array(items) => Value::Array(items.iter().map(|i| value_json(i, s)).collect()),
    }
}

/// One JSON value as FlatZinc prints it (`flatzinc::solve::format_solution`'s rules).
fn value_fzn(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(value_fzn).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(o) => match o.get("set").and_then(|r| r.as_array()) {
            Some(ranges) if !ranges.is_empty() => ranges
                .iter()
                .map(|r| format!("{}..{}", r[0], r[1]))
                .collect::<Vec<_>>()
                .join(" union "),
            _ => "{}".to_string(),
        },
        other => other.to_string(),
    }
}

/// The lines of one solution, in the layout's order, without the `----------`.
fn solution_fzn(layout: &[Value], solution: &Value) -> String {
    let mut text = String::new();
    for item in layout {
        let name = item["name"].as_str().unwrap_or("");
        let value = &solution[name];
        match item["dims"].as_array() {
            None => {
                let _ = writeln!(text, "{name} = {};", value_fzn(value));
            }
            Some(dims) => {
                let ranges: Vec<String> =
                    dims.iter().map(|d| format!("{}..{}", d[0], d[1])).collect();
                let _ = writeln!(
                    text,
                    "{name} = array{}d({}, {});",
                    dims.len(),
                    ranges.join(", "),
                    value_fzn(value)
                );
            }
        }
    }
    text
}

/// The merged answer as a FlatZinc solver prints it: every solution kept (`-a`) or the one
/// answer, each closed by `----------`, then the search's verdict. A count without the
/// solutions (`--count`) is given as the standard statistic `nSolutions`.
pub(crate) fn merged_fzn(header: &Value, merged: &Value) -> String {
    let layout = header["output"].as_array().cloned().unwrap_or_default();
    let mut text = String::new();
    let solutions: Vec<&Value> = match merged["solutions"].as_array() {
        Some(list) => list.iter().collect(),
        None => merged.get("solution").into_iter().collect(),
    };
    let printed = solutions.len();
    for s in solutions {
        text.push_str(&solution_fzn(&layout, s));
        text.push_str("----------\n");
    }
    match merged["status"].as_str().unwrap_or("") {
        "ALL_SOLUTIONS" | "OPTIMAL" => text.push_str("==========\n"),
        "UNSATISFIABLE" => text.push_str("=====UNSATISFIABLE=====\n"),
        "UNKNOWN" if printed == 0 => text.push_str("=====UNKNOWN=====\n"),
        _ => {}
    }
    if let Some(count) = merged["count"].as_u64() {
        let _ = writeln!(text, "%%%mzn-stat: nSolutions={count}");
        let _ = writeln!(text, "%%%mzn-stat-end");
    }
    text
}
