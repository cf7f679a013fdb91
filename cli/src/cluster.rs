//! # `split`, `solve-part`, `merge`: one search on a cluster's own scheduler
//!
//! Embarrassingly Parallel Search (Régin, Rezgui and Malapert, CP 2013, JAIR 2016) with the
//! scheduler a cluster already has (a Slurm job array, GNU parallel, a Kubernetes indexed
//! Job) instead of one of our own:
//!
//! 1. `cpsolve split PUZZLE [FILE|N] --parts N [flags] > parts.jsonl` (or `split model.fzn`)
//!    cuts the top of the search tree into about N disjoint, propagated parts
//!    (`engine::search::decompose`) and writes one JSON line each, after a header line. A part line is self-contained: the
//!    instance (its file and its content hash), the flags that shape the model and the
//!    search, the mode, and the decisions from the root.
//! 2. `cpsolve solve-part parts.jsonl --index I [-o results/]` rebuilds the model from the
//!    same flags, checks that the file still has the same hash, applies part I's decisions
//!    and runs the ordinary search on it. Its one result line goes to a new file in the
//!    results folder, written to a hidden temporary file and renamed: a worker killed
//!    half-way leaves nothing or a whole line, never half of one.
//! 3. `cpsolve merge parts.jsonl results/` sums the counts, takes the best objective, and
//!    names the parts still missing with the command that reruns them. Each result carries
//!    the part's identity (instance hash, index, hash of its decisions), so a part run twice
//!    is counted once (and the two runs must agree), a result of another split is refused,
//!    and a truncated line is reported, never counted.
//!
//! **Optimisation with a shared bound.** `--bound-file FILE` lets the parts share the best
//! objective found so far: a part starts from "better than the file's value" and writes each
//! better value it finds back (again by rename). A part searched under a bound proves only
//! "nothing better than the bound here"; `merge` therefore says `OPTIMAL` only when every
//! part finished *and* the best solution it holds is at least as good as every bound a part
//! used — a bound whose solution was lost (its worker died after writing the bound) cannot
//! turn into a wrong claim of optimality.
//!
//! The instance side (read, hash, build the model and its search, name the decisions, read
//! a solution) is [`Prepared`]: a puzzle, or a FlatZinc model (`cluster/fzn.rs`: decisions
//! by the model's variable names, `-a` keeping every solution, `merge --fzn` printing the
//! answer as a FlatZinc solver does).

use crate::args::{self, Options};
use crate::input::{self, Source};
use crate::solve::{Mode, Plan};
use crate::Failure;
use engine::search::{
    decompose, restrict_objective, restrict_to_part, Decision, DecisionOp, NoListener,
};
use engine::{Control, Limits, SearchConfig, VarId};
use puzzles::{Built, Instance, Purpose, PuzzleKind};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The commands of this module.
pub const COMMANDS: [&str; 3] = ["split", "solve-part", "merge"];

/// The version of the parts and results format (the `cpsolve_parts` field of the header).
const FORMAT_VERSION: u64 = 1;

/// Run a cluster command when the first word names one; `None` otherwise.
pub fn dispatch(
    args: &[String],
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Option<Result<(), Failure>> {
    let command = args.first()?;
    if !COMMANDS.contains(&command.as_str()) {
        return None;
    }
    let rest = args[1..].to_vec();
    Some(match command.as_str() {
        "split" => split(rest, stdin, out),
        "solve-part" => solve_part(rest, stdin, out),
        _ => merge(rest, out, err),
    })
}

/// FNV-1a, 64 bits: a content hash that is the same on every build and machine (unlike
/// std's `DefaultHasher`). Not cryptographic: it tells a changed file, not a forged one.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn hex(h: u64) -> String {
    format!("fnv1a64:{h:016x}")
}

/// Remove `--name VALUE` (or `--name=VALUE`) from `args`; the last one wins.
fn take_flag(args: &mut Vec<String>, names: &[&str]) -> Result<Option<String>, Failure> {
    let mut found = None;
    let mut i = 0;
    while i < args.len() {
        let word = &args[i];
        if let Some(name) = names.iter().find(|n| word == *n) {
            let Some(value) = args.get(i + 1).cloned() else {
                return Err(Failure::Usage(format!("{name} needs a value")));
            };
            found = Some(value);
            args.drain(i..i + 2);
            continue;
        }
        if let Some(value) = names
            .iter()
            .find_map(|n| word.strip_prefix(&format!("{n}=")))
        {
            found = Some(value.to_string());
            args.remove(i);
            continue;
        }
        i += 1;
    }
    Ok(found)
}

fn parse_number(flag: &str, value: &str) -> Result<u64, Failure> {
    value
        .trim()
        .parse()
        .map_err(|_| Failure::Usage(format!("{flag} needs a whole number, found '{value}'")))
}

/// What a part asks for.
fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Count => "count",
        Mode::Optimum => "optimise",
        _ => "satisfy",
    }
}

mod fzn;

/// Where an instance comes from: what builds it, names its decisions and reads its
/// solutions.
pub(crate) enum Origin {
    Puzzle {
        kind: &'static PuzzleKind,
        instance: Box<dyn Instance>,
        built: Built,
    },
    /// A `.fzn` file (`cluster/fzn.rs`).
    FlatZinc(fzn::FlatZincModel),
}

/// One instance, read, hashed and built, with the search its flags ask for.
pub(crate) struct Prepared {
    pub origin: Origin,
    pub config: SearchConfig,
    pub mode: Mode,
    /// The content hash of the puzzle name and the instance's text (of a FlatZinc file,
    /// of its bytes).
    pub hash: String,
    /// The file as named on the command line (or the built-in example, or N).
    pub file: String,
}

impl Prepared {
    /// `puzzle_args`: the puzzle's own command line (`queens 12 --count`, `model.fzn -a`,
    /// ...); its `-t` bounds the part's search, from now.
    pub(crate) fn new(puzzle_args: &[String]) -> Result<Prepared, Failure> {
        let options: Options = args::parse(puzzle_args).map_err(Failure::Usage)?;
        let name = options.command.clone().ok_or_else(|| {
            Failure::Usage("name the puzzle or the model, e.g. 'split queens 12'".into())
        })?;
        if crate::flatzinc::is_model_file(&name) {
            let prepared = fzn::prepare(&name, &options)?;
            return Ok(Prepared {
                origin: Origin::FlatZinc(prepared.model),
                config: prepared.config,
                mode: prepared.mode,
                hash: prepared.hash,
                file: name,
            });
        }
        let limits = &Limits {
            deadline: options.time_limit.map(|t| Instant::now() + t),
            ..Limits::default()
        };
        let kind = puzzles::find(&name)
            .ok_or_else(|| Failure::Usage(format!("unknown puzzle '{name}'")))?;
        if options.enumerates() || options.trace.is_some() {
            return Err(Failure::Usage(
                "split parts count (--count), optimise or find one solution; -a, -n and --trace are not supported".into(),
            ));
        }
        let source = input::source_for(kind, &options.operands, &options.operands_os)
            .map_err(Failure::Usage)?;
        let (text, file) = match &source {
            Source::Seed => (kind.seed.as_bytes().to_vec(), String::new()),
            Source::Argument(n) => (n.as_bytes().to_vec(), n.clone()),
            Source::File(path) => (
                std::fs::read(path).map_err(|e| {
                    Failure::Usage(format!("cannot read '{}' ({e})", path.display()))
                })?,
                path.to_string_lossy().into_owned(),
            ),
            Source::Stdin => {
                return Err(Failure::Usage(
                    "the parts must name their instance: give a file, not standard input".into(),
                ))
            }
        };
        let mut hashed = kind.name.as_bytes().to_vec();
        hashed.push(0);
        hashed.extend_from_slice(&text);
        let mut instances =
            input::load(kind, &source, &mut std::io::empty()).map_err(Failure::Input)?;
        if instances.len() != 1 {
            return Err(Failure::Usage(format!(
                "the file holds {} instances; split one instance per file",
                instances.len()
            )));
        }
        let instance = instances.remove(0);
        let plan = Plan {
            kind,
            options: &options,
            threads: 1,
        };
        let purpose = if options.count {
            Purpose::Count
        } else {
            Purpose::Solve
        };
        let model_options = plan.model_options(purpose);
        let built = instance
            .build_prepared(&model_options, limits)
            .map_err(Failure::Usage)?;
        let mode = if options.count {
            Mode::Count
        } else if built.search.objective.is_some() {
            Mode::Optimum
        } else {
            Mode::First
        };
        let config = plan.search_config(&built, mode, limits);
        Ok(Prepared {
            origin: Origin::Puzzle {
                kind,
                instance,
                built,
            },
            config,
            mode,
            hash: hex(fnv1a64(&hashed)),
            file,
        })
    }

    /// The model, before any part's decisions.
    fn model(&self) -> &engine::Model {
        match &self.origin {
            Origin::Puzzle { built, .. } => &built.model,
            Origin::FlatZinc(m) => &m.built.model,
        }
    }

    /// What the header and the part lines say the instance is: `"puzzle": NAME`, or
    /// `"model": "flatzinc"`.
    fn describe(&self, line: &mut Value) {
        match &self.origin {
            Origin::Puzzle { kind, .. } => line["puzzle"] = json!(kind.name),
            Origin::FlatZinc(_) => line["model"] = json!("flatzinc"),
        }
    }

    /// Does a part keep every solution it finds (`-a` on a FlatZinc model)?
    fn keeps_every_solution(&self) -> bool {
        matches!(&self.origin, Origin::FlatZinc(m) if m.keeps_every_solution)
    }

    fn decision_json(&self, d: &Decision) -> Value {
        match &self.origin {
            Origin::Puzzle { .. } => json!([d.var.0, d.op.symbol(), d.value]),
            Origin::FlatZinc(m) => m.decision_json(d),
        }
    }

    fn decision_from_json(&self, v: &Value) -> Option<Decision> {
        let a = v.as_array()?;
        let var = match &self.origin {
            Origin::Puzzle { .. } => VarId(u32::try_from(a.first()?.as_u64()?).ok()?),
            Origin::FlatZinc(m) => m.var_named(a.first()?)?,
        };
        if var.index() >= self.model().num_vars() {
            return None;
        }
        let op = match a.get(1)?.as_str()? {
            "=" => DecisionOp::Eq,
            "!=" => DecisionOp::Ne,
            "<=" => DecisionOp::Le,
            ">" => DecisionOp::Gt,
            _ => return None,
        };
        let value = i32::try_from(a.get(2)?.as_i64()?).ok()?;
        Some(Decision { var, op, value })
    }

    /// A solution in the instance's words, checked (by the puzzle's checker, or against
    /// the FlatZinc model), and the objective as the puzzle states it.
    fn answer(&self, solution: &engine::Solution) -> Result<(Value, Option<i64>), Failure> {
        match &self.origin {
            Origin::Puzzle {
                kind,
                instance,
                built,
            } => {
                let answer = instance.answer_without_picture(built, solution);
                instance.check(&answer).map_err(|why| {
                    Failure::Internal(format!(
                        "{}: the engine's solution fails the puzzle's checker ({why}); this is a bug",
                        kind.name
                    ))
                })?;
                Ok((answer.json.to_value().into_owned(), answer.objective))
            }
            Origin::FlatZinc(m) => {
                m.check(solution)?;
                Ok((m.solution_json(solution), None))
            }
        }
    }
}

/// The identity of a part's decisions: a result names it, so that a result of another
/// split of the same instance is refused.
fn decisions_hash(decisions: &Value) -> String {
    hex(fnv1a64(decisions.to_string().as_bytes()))
}

/// `cpsolve split PUZZLE [FILE|N] --parts N [flags]`.
fn split(mut args: Vec<String>, _stdin: &mut dyn Read, out: &mut dyn Write) -> Result<(), Failure> {
    let target = match take_flag(&mut args, &["--parts"])? {
        Some(v) => parse_number("--parts", &v)?.max(1) as usize,
        None => 64,
    };
    let compiled = match take_flag(&mut args, &["--compile-to"])? {
        Some(fzn) => {
            let (compiled_args, source) = fzn::compile_for_split(args, &fzn)?;
            args = compiled_args;
            Some(source)
        }
        None => None,
    };
    let prepared = Prepared::new(&args)?;
    let parts = decompose(prepared.model(), &prepared.config, target);
    let mut header = json!({
        "cpsolve_parts": FORMAT_VERSION,
        "parts": parts.len(),
        "file": prepared.file,
        "instance": prepared.hash,
        "mode": mode_name(prepared.mode),
        "args": args,
    });
    prepared.describe(&mut header);
    if let (Mode::Optimum, Some(o)) = (prepared.mode, prepared.config.objective) {
        header["minimize"] = json!(o.minimize);
    }
    if let Some(source) = compiled {
        header["compiled_from"] = json!(source);
    }
    if let Origin::FlatZinc(m) = &prepared.origin {
        header["output"] = m.layout();
        header["list"] = json!(m.keeps_every_solution);
    }
    writeln!(out, "{header}")?;
    for (index, part) in parts.iter().enumerate() {
        let decisions = Value::Array(
            part.decisions
                .iter()
                .map(|d| prepared.decision_json(d))
                .collect(),
        );
        let mut line = json!({
            "part": index,
            "parts": parts.len(),
            "instance": prepared.hash,
            "mode": mode_name(prepared.mode),
            "args": args,
            "id": decisions_hash(&decisions),
            "log2_size": (part.log_size * 100.0).round() / 100.0,
            "decisions": decisions,
        });
        prepared.describe(&mut line);
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A parts file: the header and the part lines, in order.
struct PartsFile {
    header: Value,
    parts: Vec<Value>,
}

/// Read a parts file. With `wanted`, a file with a header has only that part's line parsed
/// (a job array of thousands of parts would otherwise parse the whole file in every task).
fn read_parts(
    path: &str,
    stdin: &mut dyn Read,
    wanted: Option<usize>,
) -> Result<PartsFile, Failure> {
    let text = if path == "-" {
        let mut s = String::new();
        stdin
            .read_to_string(&mut s)
            .map_err(|e| Failure::Usage(format!("cannot read standard input ({e})")))?;
        s
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Failure::Usage(format!("cannot read '{path}' ({e})")))?
    };
    let bad = |line: usize, what: &str| {
        Failure::Input(input::InputError {
            file: path.to_string(),
            line,
            message: what.to_string(),
        })
    };
    let mut header = None;
    let mut parts = Vec::new();
    let key = wanted
        .filter(|_| text.contains("\"cpsolve_parts\""))
        .map(|i| format!("\"part\":{i},"));
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(key) = &key {
            if !line.contains(key.as_str()) && !line.contains("\"cpsolve_parts\"") {
                continue;
            }
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|_| bad(i + 1, "not a JSON line of 'cpsolve split'"))?;
        if v.get("cpsolve_parts").is_some() {
            header = Some(v);
        } else if v.get("part").is_some() && v.get("decisions").is_some() {
            parts.push(v);
        } else {
            return Err(bad(i + 1, "neither a header nor a part of 'cpsolve split'"));
        }
    }
    // A part alone (one line piped from the parts file) stands for itself.
    let header = match header {
        Some(h) => h,
        None if parts.len() == 1 => parts[0].clone(),
        None => {
            return Err(bad(
                1,
                "no header line: expected the output of 'cpsolve split'",
            ))
        }
    };
    Ok(PartsFile { header, parts })
}

/// The array index of a job scheduler, when one is set.
fn scheduler_index() -> Option<(String, String)> {
    [
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
        "CPSOLVE_PART_INDEX",
    ]
    .iter()
    .find_map(|name| std::env::var(name).ok().map(|v| (name.to_string(), v)))
}

fn string_list(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Read the bound file: the best objective known so far, if any.
fn read_bound(path: &Path) -> Option<i64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Write `text` to `path` atomically: a temporary file in the same folder, then a rename.
fn write_atomically(path: &Path, text: &[u8]) -> std::io::Result<()> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let temporary = folder.unwrap_or(Path::new(".")).join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    {
        let mut f = std::fs::File::create(&temporary)?;
        f.write_all(text)?;
        f.sync_all()?;
    }
    std::fs::rename(&temporary, path)
}

/// Write a better bound to the bound file, unless the file already holds one at least as
/// good. (Two workers may race here; the loser's value is only a weaker bound, never a
/// wrong answer: see the module's header.)
fn offer_bound(path: &Path, value: i64, minimize: bool) {
    let better = match read_bound(path) {
        Some(known) if minimize => value < known,
        Some(known) => value > known,
        None => true,
    };
    if better {
        let _ = write_atomically(path, format!("{value}\n").as_bytes());
    }
}

/// `cpsolve solve-part PARTS --index I [-o DIR] [--bound-file FILE]`.
fn solve_part(
    mut args: Vec<String>,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let index = take_flag(&mut args, &["--index"])?;
    let folder = take_flag(&mut args, &["-o", "--output"])?.map(PathBuf::from);
    let bound_file = take_flag(&mut args, &["--bound-file"])?.map(PathBuf::from);
    let path = match args.as_slice() {
        [one] => one.clone(),
        [] => "-".to_string(),
        [_, extra, ..] => {
            return Err(Failure::Usage(format!(
                "solve-part takes one parts file, found a second word '{extra}'"
            )))
        }
    };
    let asked = match &index {
        Some(v) => Some(parse_number("--index", v)? as usize),
        None => match scheduler_index() {
            Some((name, v)) => Some(parse_number(&name, &v)? as usize),
            None => None,
        },
    };
    let parts = read_parts(&path, stdin, asked)?;
    let piped_one = parts.parts.len() == 1 && parts.header.get("cpsolve_parts").is_none();
    let index = match (index.is_some(), asked) {
        // A single part (one line piped in) is the part asked for, whatever the
        // scheduler's index says.
        (false, _) if piped_one => parts.parts[0]["part"].as_u64().unwrap_or(0) as usize,
        (_, Some(i)) => i,
        (_, None) => {
            return Err(Failure::Usage(
                "which part? give --index I (or run in a job array: SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)".into(),
            ))
        }
    };
    let part = parts
        .parts
        .iter()
        .find(|p| p["part"].as_u64() == Some(index as u64))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "no part {index} in '{path}' (it has {} parts, numbered from 0)",
                parts.header["parts"]
            ))
        })?;
    let started = Instant::now();
    let puzzle_args = string_list(&part["args"]);
    let prepared = Prepared::new(&puzzle_args)?;
    let expected = part["instance"].as_str().unwrap_or("");
    if prepared.hash != expected {
        return Err(Failure::Usage(format!(
            "the instance is not the one that was split: '{}' hashes to {}, the parts say {expected}",
            prepared.file, prepared.hash
        )));
    }
    let decisions: Vec<Decision> = part["decisions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| prepared.decision_from_json(d))
                .collect::<Option<Vec<_>>>()
        })
        .unwrap_or(Some(Vec::new()))
        .ok_or_else(|| Failure::Usage(format!("part {index}: a decision is malformed")))?;

    // The search proper: the part's decisions, the bound, then the ordinary search.
    let mut model = prepared.model().clone();
    let objective = match prepared.mode {
        Mode::Optimum => prepared.config.objective,
        _ => None,
    };
    let bound = match (&bound_file, objective) {
        (Some(file), Some(_)) => read_bound(file),
        _ => None,
    };
    let mut feasible = restrict_to_part(&mut model, &decisions).is_ok();
    if let (true, Some(objective), Some(b)) = (feasible, objective, bound) {
        feasible = restrict_objective(&mut model, objective, b).is_ok();
    }
    // Only the first solution (the improving ones when optimising) is kept, and checked
    // after the search: a count may pass millions of solutions through here. With `-a` on
    // a FlatZinc model every solution is kept, in the model's words, checked as it comes.
    let mut kept: Option<engine::Solution> = None;
    let keep_all = prepared.keeps_every_solution();
    let mut every_solution: Vec<Value> = Vec::new();
    let mut wrong: Option<Failure> = None;
    let outcome = if feasible {
        let mut on_solution = |s: &engine::Solution| {
            if keep_all {
                match prepared.answer(s) {
                    Ok((json, _)) => every_solution.push(json),
                    Err(e) => {
                        wrong = Some(e);
                        return Control::Stop;
                    }
                }
            }
            if kept.is_none() || objective.is_some() {
                kept = Some(s.clone());
                if let (Some(file), Some(o)) = (&bound_file, objective) {
                    offer_bound(file, s.value(o.var) as i64, o.minimize);
                }
            }
            Control::Continue
        };
        engine::search(
            &mut model,
            &prepared.config,
            &mut NoListener,
            &mut on_solution,
        )
    } else {
        engine::Outcome {
            complete: true,
            ..Default::default()
        }
    };
    if let Some(e) = wrong {
        return Err(e);
    }
    let found = outcome.solutions > 0;
    let status = match (prepared.mode, outcome.complete, found) {
        (_, true, false) => "UNSATISFIABLE",
        (_, false, false) => "UNKNOWN",
        (Mode::Count, true, true) => "ALL_SOLUTIONS",
        (Mode::Count, false, true) => "UNKNOWN",
        (Mode::Optimum, true, true) => "OPTIMAL",
        _ => "SATISFIED",
    };
    let best = match objective {
        Some(_) => outcome.best.clone().or(kept),
        None => kept,
    };
    let mut line = json!({
        "part": index,
        "parts": part["parts"],
        "instance": prepared.hash,
        "id": part["id"],
        "mode": mode_name(prepared.mode),
        "status": status,
        "complete": outcome.complete,
        "solutions": outcome.solutions,
        "stats": {
            "nodes": outcome.stats.nodes,
            "failures": outcome.stats.failures,
            "propagations": outcome.stats.propagations,
            "time_ms": started.elapsed().as_secs_f64() * 1000.0,
        },
    });
    if prepared.mode == Mode::Count {
        line["count"] = json!(outcome.solutions);
    }
    if keep_all {
        line["solution_list"] = Value::Array(every_solution);
    }
    if let Some(b) = bound {
        line["bound"] = json!(b);
    }
    if let Some(s) = &best {
        let (solution, stated) = prepared.answer(s)?;
        line["solution"] = solution;
        // The objective as the puzzle states it (as the ordinary run reports it), else the
        // objective variable's value.
        let value = stated.or(objective.map(|o| s.value(o.var) as i64));
        if let Some(v) = value {
            line["objective"] = json!(v);
        }
        // The engine's objective variable, in which bounds are written and compared.
        if let Some(o) = objective {
            line["objective_var"] = json!(s.value(o.var));
        }
    }
    let mut text = line.to_string().into_bytes();
    text.push(b'\n');
    match folder {
        None => out.write_all(&text)?,
        Some(folder) => {
            std::fs::create_dir_all(&folder).map_err(|e| {
                Failure::Usage(format!("cannot create '{}' ({e})", folder.display()))
            })?;
            // A new name for every run: a part run twice leaves two results, which merge
            // counts once (after checking that they agree).
            let name = format!(
                "part-{index:06}-{}-{}.json",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            );
            write_atomically(&folder.join(name), &text).map_err(|e| {
                Failure::Internal(format!(
                    "cannot write the result in '{}': {e}",
                    folder.display()
                ))
            })?;
        }
    }
    Ok(())
}

/// One result line that belongs to the split.
struct PartResult {
    complete: bool,
    solutions: u64,
    count: Option<u64>,
    /// The objective as the puzzle states it, and the engine's objective variable.
    objective: Option<i64>,
    objective_var: Option<i64>,
    bound: Option<i64>,
    solution: Option<Value>,
    /// Every solution of the part (`-a` on a FlatZinc model).
    solution_list: Option<Vec<Value>>,
    status: String,
    stats: [f64; 4],
}

/// `cpsolve merge PARTS RESULTS... [--fzn]` (folders of result files, or result files).
fn merge(mut args: Vec<String>, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Failure> {
    let as_flatzinc = args.iter().any(|a| a == "--fzn");
    args.retain(|a| a != "--fzn");
    let [parts_path, results @ ..] = args.as_slice() else {
        return Err(Failure::Usage(
            "usage: cpsolve merge parts.jsonl results/ [more results...] [--fzn]".into(),
        ));
    };
    let parts = read_parts(parts_path, &mut std::io::empty(), None)?;
    let header = &parts.header;
    if as_flatzinc && header.get("model").is_none() {
        return Err(Failure::Usage(
            "--fzn prints the answer of a FlatZinc model; these parts are of a puzzle".into(),
        ));
    }
    let instance = header["instance"].as_str().unwrap_or("").to_string();
    let mode = header["mode"].as_str().unwrap_or("").to_string();
    let total = parts.parts.len();
    let ids: Vec<String> = parts
        .parts
        .iter()
        .map(|p| p["id"].as_str().unwrap_or("").to_string())
        .collect();

    // Every result file: the folders' visible files (a hidden one is a write in progress).
    // A folder that does not exist holds no result yet (no worker has written one, or a
    // split into no part at all): said, and merged as empty.
    let mut files: Vec<PathBuf> = Vec::new();
    let mut problems = Vec::new();
    for r in results {
        let path = PathBuf::from(r);
        if !path.exists() {
            if total == 0 {
                continue;
            }
            problems.push(format!(
                "{r}: no such file or folder, no result read from it"
            ));
        } else if path.is_dir() {
            let entries = std::fs::read_dir(&path)
                .map_err(|e| Failure::Usage(format!("cannot read '{r}' ({e})")))?;
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if !name.starts_with('.') && e.path().is_file() {
                    files.push(e.path());
                }
            }
        } else {
            files.push(path);
        }
    }
    files.sort();

    let mut by_part: Vec<Vec<PartResult>> = (0..total).map(|_| Vec::new()).collect();
    for file in &files {
        let text = std::fs::read(file)
            .map_err(|e| Failure::Usage(format!("cannot read '{}' ({e})", file.display())))?;
        let text = String::from_utf8_lossy(&text);
        let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
        lines.retain(|l| !l.trim().is_empty());
        for (n, line) in lines.iter().enumerate() {
            let place = format!("{}:{}", file.display(), n + 1);
            if !line.ends_with('\n') {
                problems.push(format!("{place}: truncated result line, not counted"));
                continue;
            }
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                problems.push(format!("{place}: not a JSON result line, not counted"));
                continue;
            };
            let index = v["part"].as_u64().map(|i| i as usize);
            let belongs = v["instance"].as_str() == Some(&instance)
                && index.is_some_and(|i| i < total && v["id"].as_str() == Some(&ids[i]));
            let (Some(index), true) = (index, belongs) else {
                problems.push(format!(
                    "{place}: a result of another split or instance, not counted"
                ));
                continue;
            };
            let stats = &v["stats"];
            by_part[index].push(PartResult {
                complete: v["complete"].as_bool().unwrap_or(false),
                solutions: v["solutions"].as_u64().unwrap_or(0),
                count: v["count"].as_u64(),
                objective: v["objective"].as_i64(),
                objective_var: v["objective_var"].as_i64(),
                bound: v["bound"].as_i64(),
                solution: v.get("solution").cloned(),
                solution_list: v["solution_list"].as_array().cloned(),
                status: v["status"].as_str().unwrap_or("").to_string(),
                stats: ["nodes", "failures", "propagations", "time_ms"]
                    .map(|k| stats[k].as_f64().unwrap_or(0.0)),
            });
        }
    }

    let minimize = header_minimize(&parts);
    let mut missing = Vec::new();
    let mut count: u64 = 0;
    let mut best: Option<(i64, Option<i64>, Value)> = None;
    let mut satisfied: Option<Value> = None;
    let mut every_solution: Vec<Value> = Vec::new();
    let mut bounds: Vec<i64> = Vec::new();
    let mut stats = [0.0f64; 4];
    for (index, results) in by_part.iter().enumerate() {
        for r in results {
            for (s, x) in stats.iter_mut().zip(r.stats) {
                *s += x;
            }
        }
        // A part is answered when its tree was explored, or (satisfaction) it found one.
        let complete: Vec<&PartResult> = results
            .iter()
            .filter(|r| r.complete || (mode == "satisfy" && r.solutions > 0))
            .collect();
        // Runs of one part must agree: the same count, the same verdict.
        if let Some(first) = complete.first() {
            let disagree = complete.iter().any(|r| {
                (mode == "count" && r.count != first.count)
                    || (mode == "satisfy" && (r.solutions > 0) != (first.solutions > 0))
            });
            if disagree {
                problems.push(format!(
                    "part {index}: its runs disagree ({}), not counted",
                    complete
                        .iter()
                        .map(|r| format!("{} {}", r.status, r.count.unwrap_or(r.solutions)))
                        .collect::<Vec<_>>()
                        .join(" against ")
                ));
                missing.push(index);
                continue;
            }
        }
        if complete.is_empty() {
            missing.push(index);
        }
        // Its solutions (`-a`): those of its complete run, which are all of them; else those
        // of the run the lower bound below counts, so that the list holds what is counted.
        let listed = complete
            .first()
            .copied()
            .or_else(|| results.iter().max_by_key(|r| r.count.unwrap_or(0)));
        if let Some(list) = listed.and_then(|r| r.solution_list.as_ref()) {
            every_solution.extend(list.iter().cloned());
        }
        // The part's count: the complete run's, else the largest lower bound.
        count += match complete.first() {
            Some(r) => r.count.unwrap_or(r.solutions),
            None => results
                .iter()
                .map(|r| r.count.unwrap_or(0))
                .max()
                .unwrap_or(0),
        };
        for r in results {
            // Compared on the engine's objective variable, the scale of the bounds.
            if let (Some(o), Some(s)) = (r.objective_var.or(r.objective), &r.solution) {
                let better = match &best {
                    None => true,
                    Some((b, _, _)) => (minimize && o < *b) || (!minimize && o > *b),
                };
                if better {
                    best = Some((o, r.objective, s.clone()));
                }
            }
            if satisfied.is_none() {
                satisfied = r.solution.clone();
            }
        }
        // A complete run under bound b proves only "nothing better than b in this part";
        // of several runs, the one with no bound, else the one with the loosest bound
        // (the largest when minimising), says the most.
        if !complete.is_empty() && complete.iter().all(|r| r.bound.is_some()) {
            let part_bounds = complete.iter().filter_map(|r| r.bound);
            bounds.extend(if minimize {
                part_bounds.max()
            } else {
                part_bounds.min()
            });
        }
    }
    let all_done = missing.is_empty();
    let mut line = json!({ "instance": 1 });
    for what in ["puzzle", "model"] {
        if let Some(name) = header.get(what) {
            line[what] = name.clone();
        }
    }
    let status = match mode.as_str() {
        "count" => {
            line["count"] = json!(count);
            if header["list"].as_bool() == Some(true) {
                line["solutions"] = Value::Array(std::mem::take(&mut every_solution));
            }
            match (all_done, count) {
                (true, 0) => "UNSATISFIABLE",
                (true, _) => "ALL_SOLUTIONS",
                _ => "UNKNOWN",
            }
        }
        "optimise" => {
            let proved = |b: i64| {
                all_done
                    && bounds
                        .iter()
                        .all(|&x| if minimize { b <= x } else { b >= x })
            };
            match &best {
                Some((o, stated, s)) => {
                    line["solution"] = s.clone();
                    line["objective"] = json!(stated.unwrap_or(*o));
                    if proved(*o) {
                        "OPTIMAL"
                    } else {
                        "SATISFIED"
                    }
                }
                None if all_done && bounds.is_empty() => "UNSATISFIABLE",
                None => "UNKNOWN",
            }
        }
        _ => match &satisfied {
            Some(s) => {
                line["solution"] = s.clone();
                "SATISFIED"
            }
            None if all_done => "UNSATISFIABLE",
            None => "UNKNOWN",
        },
    };
    line["status"] = json!(status);
    line["parts"] = json!(total);
    line["parts_done"] = json!(total - missing.len());
    line["parts_missing"] = json!(missing);
    line["stats"] = json!({
        "nodes": stats[0] as u64,
        "failures": stats[1] as u64,
        "propagations": stats[2] as u64,
        "time_ms": stats[3],
    });
    if as_flatzinc {
        out.write_all(fzn::merged_fzn(header, &line).as_bytes())?;
    } else {
        writeln!(out, "{line}")?;
    }
    for p in &problems {
        writeln!(err, "warning: {p}")?;
    }
    // A satisfaction problem needs no more parts once one part has a solution.
    let nothing_to_rerun = missing.is_empty() || (mode == "satisfy" && satisfied.is_some());
    if !nothing_to_rerun {
        let folder = results.first().map_or("results/", |s| s.as_str());
        writeln!(
            err,
            "warning: {} of {total} parts have no complete result; rerun them with:",
            missing.len()
        )?;
        let list = missing
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        writeln!(
            err,
            "  for i in {list}; do cpsolve solve-part {parts_path} --index $i -o {folder}; done"
        )?;
    }
    Ok(())
}

/// Whether the objective is minimised (the header says so for optimisation).
fn header_minimize(parts: &PartsFile) -> bool {
    parts.header["minimize"].as_bool().unwrap_or(true)
}
