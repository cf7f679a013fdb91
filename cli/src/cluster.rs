//! # `split`, `solve-part`, `merge`: one search on a cluster's own scheduler
//!
//! Embarrassingly Parallel Search (Régin, Rezgui and Malapert, CP 2013, JAIR 2016) with the
//! scheduler a cluster already has (a Slurm job array, GNU parallel, a Kubernetes indexed
//! Job) instead of one of our own:
//!
//! 1. `cpsolve split PUZZLE [FILE|N] --parts N [flags] > parts.jsonl` (or `split model.fzn`)
//!    cuts the top of the search tree into about N disjoint, propagated parts
//!    (`engine::search::decompose`) and writes one JSON line each, after a header line
//!    (`cluster/split.rs`). A part line is self-contained: the instance (its file and its
//!    content hash), the flags that shape the model and the search, the mode, and the
//!    decisions from the root.
//! 2. `cpsolve solve-part parts.jsonl --index I [-o results/]` rebuilds the model from the
//!    same flags, checks that the file still has the same hash, applies part I's decisions
//!    and runs the ordinary search on it (`cluster/solve_part.rs`). Its one result line goes
//!    to `results/part-00000I.json`, written to a hidden temporary file and renamed: a worker
//!    killed half-way leaves nothing or a whole line, never half of one.
//! 3. `cpsolve merge parts.jsonl results/` sums the counts, takes the best objective
//!    (`cluster/merge.rs`).
//!
//! **A merge that cannot miscount.** The header states how many parts the split made and a
//! *digest* of the whole problem: the instance, the mode, the flags and every part's id
//! (`split_digest`). Every part line and every result repeats that digest and names its
//! part. `merge` first checks that the parts file is whole (every part of the stated number,
//! each once, with the stated digest: a file cut by a full disk or an interrupted copy is
//! refused), then that the results are exactly one per part of that whole (a missing,
//! duplicated, cut or foreign result is refused, exit 2, in one line that names it), and that
//! each result is possible (a count no larger than its part's search space, a status that
//! agrees with its count). Only then does it add up, in checked arithmetic.
//!
//! **Optimisation with a shared bound.** `--bound-file FILE` lets the parts share the best
//! objective found so far: a part starts from "better than the file's value" and writes each
//! better value it finds back (again by rename), with the split's digest beside it so that a
//! bound of another run is refused. A part searched under a bound proves only "nothing
//! better than the bound here"; `merge` therefore says `OPTIMAL` only when every part
//! finished *and* the best solution it holds is at least as good as every bound a part used
//! — a bound whose solution was lost (its worker died after writing the bound) cannot turn
//! into a wrong claim of optimality.
//!
//! The instance side (read, hash, build the model and its search, name the decisions, read
//! a solution) is [`Prepared`]: a puzzle, or a FlatZinc model (`cluster/fzn.rs`: decisions
//! by the model's variable names, `-a` keeping every solution, `merge --fzn` printing the
//! answer as a FlatZinc solver does).

use crate::args::{self, Options};
use crate::input::{self, Source};
use crate::solve::{Mode, Plan};
use crate::Failure;
use engine::search::{Decision, DecisionOp};
use engine::{Limits, SearchConfig, VarId};
use puzzles::{Built, Instance, Purpose, PuzzleKind};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::Instant;

mod fzn;
mod merge;
mod parts;
mod solve_part;
mod split;

/// The commands of this module.
pub const COMMANDS: [&str; 3] = ["split", "solve-part", "merge"];

/// The version of the parts and results format (the `cpsolve_parts` field of the header).
/// Version 2 added the split's `digest` to the header, to every part line and to every result.
const FORMAT_VERSION: u64 = 2;

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
        "split" => split::split(rest, out),
        "solve-part" => solve_part::solve_part(rest, stdin, out),
        _ => merge::merge(rest, out, err),
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

/// The identity of a part's decisions: a result names it, so that a result of another
/// split of the same instance is refused.
fn decisions_hash(decisions: &Value) -> String {
    hex(fnv1a64(decisions.to_string().as_bytes()))
}

/// The digest of a whole split: what was split (the instance's hash, the mode, the flags)
/// and how (the number of parts and each part's id, in order). The header, every part line
/// and every result carry it; merge recomputes it from the part lines it reads.
fn split_digest(instance: &str, mode: &str, args: &Value, ids: &[&str]) -> String {
    let mut text = format!("cpsolve split\0{instance}\0{mode}\0{args}\0{}", ids.len());
    for id in ids {
        text.push('\0');
        text.push_str(id);
    }
    hex(fnv1a64(text.as_bytes()))
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

/// A word left over after the flags a command knows were taken: a flag-like word (`-x`,
/// `--json`) is an unknown flag, refused, never taken for a file or folder name. `-` alone
/// (standard input) is a name.
fn refuse_unknown_flags(command: &str, words: &[String], known: &str) -> Result<(), Failure> {
    match words
        .iter()
        .find(|w| w.starts_with('-') && w.as_str() != "-")
    {
        Some(flag) => Err(Failure::Usage(format!(
            "{command}: unknown flag {} (its flags: {known})",
            puzzles::parse::quoted(flag)
        ))),
        None => Ok(()),
    }
}

fn parse_number(flag: &str, value: &str) -> Result<u64, Failure> {
    value.trim().parse().map_err(|_| {
        Failure::Usage(format!(
            "{flag} needs a whole number, found {}",
            puzzles::parse::quoted(value)
        ))
    })
}

/// What a part asks for.
fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Count => "count",
        Mode::Optimum => "optimise",
        _ => "satisfy",
    }
}

/// log2 of the product of every variable's domain size in `model`, rounded up to 1/100:
/// no search of this model can count more solutions than 2 to this power, which is how
/// merge tells an impossible count.
fn log2_space(model: &engine::Model) -> f64 {
    let exact: f64 = (0..model.num_vars() as u32)
        .map(|i| (model.size(VarId(i)) as f64).log2())
        .sum();
    (exact * 100.0).ceil() / 100.0
}

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
        if name == "-" {
            return Err(Failure::Usage(
                "the parts must name their model: give a .fzn file, not standard input".into(),
            ));
        }
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
        let kind = puzzles::find(&name)
            .ok_or_else(|| Failure::Usage(format!("unknown puzzle '{name}'")))?;
        if options.enumerates() || options.trace.is_some() {
            return Err(Failure::Usage(
                "split parts count (--count), optimise or find one solution; -a, -n and --trace are not supported".into(),
            ));
        }
        let source = input::source_for(kind, &options.operands, &options.operands_os)
            .map_err(Failure::Usage)?;
        let (text, file) = instance_text(kind, &source)?;
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
        let (built, config, mode) = build_puzzle(kind, &*instance, &options)?;
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

/// The bytes a puzzle's instance hash covers, and the file as the parts name it.
fn instance_text(kind: &PuzzleKind, source: &Source) -> Result<(Vec<u8>, String), Failure> {
    Ok(match source {
        Source::Seed => (kind.seed.as_bytes().to_vec(), String::new()),
        Source::Argument(n) => (n.as_bytes().to_vec(), n.clone()),
        Source::File(path) => (
            std::fs::read(path)
                .map_err(|e| Failure::Usage(format!("cannot read '{}' ({e})", path.display())))?,
            path.to_string_lossy().into_owned(),
        ),
        Source::Stdin => {
            return Err(Failure::Usage(
                "the parts must name their instance: give a file, not standard input".into(),
            ))
        }
    })
}

/// A puzzle's model and search, as the ordinary run builds them; `-t` bounds the part's
/// search from now.
fn build_puzzle(
    kind: &'static PuzzleKind,
    instance: &dyn Instance,
    options: &Options,
) -> Result<(Built, SearchConfig, Mode), Failure> {
    let limits = &Limits {
        deadline: options.time_limit.map(|t| Instant::now() + t),
        // SIGINT/SIGTERM stop a part like a limit: its result says it is incomplete.
        stop: crate::signals::stop_flag(),
        ..Limits::default()
    };
    let plan = Plan {
        kind,
        options,
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
    Ok((built, config, mode))
}
