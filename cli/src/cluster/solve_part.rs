//! # `cpsolve solve-part`: one part's search, one result line
//!
//! The part's decisions are applied to a fresh model (propagating after each, as the search
//! does), the shared bound if any, then the ordinary search runs on what is left. The result
//! line names the part, its id and the split's digest, so that merge can tell it belongs to
//! the whole it merges; with `-o DIR` it goes to `DIR/part-00000I.json` by a write to a
//! hidden temporary file and a rename, so a worker killed half-way leaves nothing, or the
//! previous run's whole line, never half of one. A part run again replaces its result.

use super::parts::{read_parts, PartsFile};
use super::{mode_name, parse_number, refuse_unknown_flags, take_flag, Prepared};
use crate::solve::Mode;
use crate::Failure;
use engine::search::{restrict_objective, restrict_to_part, Decision, NoListener};
use engine::{Control, Objective, Outcome, Solution};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `cpsolve solve-part PARTS --index I [-o DIR] [--bound-file FILE]`.
pub(super) fn solve_part(
    mut args: Vec<String>,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let index = take_flag(&mut args, &["--index"])?;
    let folder = take_flag(&mut args, &["-o", "--output"])?.map(PathBuf::from);
    let bound_file = take_flag(&mut args, &["--bound-file"])?.map(PathBuf::from);
    refuse_unknown_flags("solve-part", &args, "--index, -o, --bound-file")?;
    let path = match args.as_slice() {
        [one] => one.clone(),
        [] => "-".to_string(),
        [_, extra, ..] => {
            return Err(Failure::Usage(format!(
                "solve-part takes one parts file, found a second word {}",
                puzzles::parse::quoted(extra)
            )))
        }
    };
    let started = Instant::now();
    let (index, part) = the_part(&path, index, stdin)?;
    let prepared = Prepared::new(&string_list(&part["args"]))?;
    let expected = part["instance"].as_str().unwrap_or("");
    if prepared.hash != expected {
        return Err(Failure::Usage(format!(
            "the instance is not the one that was split: '{}' hashes to {}, the parts say {expected}",
            prepared.file, prepared.hash
        )));
    }
    let Some(digest) = part["digest"].as_str().map(String::from) else {
        return Err(Failure::Usage(format!(
            "part {index} names no split digest: the parts file was written by an older cpsolve; split again"
        )));
    };
    let decisions: Vec<Decision> = part["decisions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| prepared.decision_from_json(d))
                .collect::<Option<Vec<_>>>()
        })
        .unwrap_or(Some(Vec::new()))
        .ok_or_else(|| Failure::Usage(format!("part {index}: a decision is malformed")))?;
    let bound = match (&bound_file, objective_of(&prepared)) {
        (Some(file), Some(_)) => read_bound(file, &digest)?,
        _ => None,
    };
    let shared = bound_file.as_deref().map(|f| (f, digest.as_str()));
    let run = search_part(&prepared, &decisions, bound, shared)?;
    let mut line = result_line(&prepared, &part, index, &run, started)?;
    line["digest"] = json!(digest);
    if let Some(b) = bound {
        line["bound"] = json!(b);
    }
    let mut text = line.to_string().into_bytes();
    text.push(b'\n');
    match folder {
        None => out.write_all(&text)?,
        Some(folder) => write_result(&folder, index, &text)?,
    }
    Ok(())
}

/// Which part, and its line: `--index`, else the scheduler's index, else the one part
/// line piped in.
fn the_part(
    path: &str,
    index: Option<String>,
    stdin: &mut dyn Read,
) -> Result<(usize, Value), Failure> {
    let asked = match &index {
        Some(v) => Some(parse_number("--index", v)? as usize),
        None => match scheduler_index() {
            Some((name, v)) => Some(parse_number(&name, &v)? as usize),
            None => None,
        },
    };
    let parts: PartsFile = read_parts(path, stdin, asked)?;
    let piped_one = parts.parts.len() == 1 && parts.header.get("cpsolve_parts").is_none();
    let index = match (index.is_some(), asked) {
        // A single part (one line piped in) is the part asked for, whatever the
        // scheduler's index says.
        (false, _) if piped_one => parts.parts[0].1["part"].as_u64().unwrap_or(0) as usize,
        (_, Some(i)) => i,
        (_, None) => {
            return Err(Failure::Usage(
                "which part? give --index I (or run in a job array: SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)".into(),
            ))
        }
    };
    let part = parts
        .parts
        .into_iter()
        .map(|(_, p)| p)
        .find(|p| p["part"].as_u64() == Some(index as u64))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "no part {index} in '{path}' (it has {} parts, numbered from 0)",
                parts.header["parts"]
            ))
        })?;
    Ok((index, part))
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

fn objective_of(prepared: &Prepared) -> Option<Objective> {
    match prepared.mode {
        Mode::Optimum => prepared.config.objective,
        _ => None,
    }
}

/// What a part's search found.
struct PartRun {
    outcome: Outcome,
    /// The first solution (the best when optimising).
    best: Option<Solution>,
    /// Every solution, in the model's words (`-a` on a FlatZinc model).
    every_solution: Vec<Value>,
}

/// The search proper: the part's decisions, the bound, then the ordinary search. Only the
/// first solution (the improving ones when optimising) is kept, and checked after the
/// search: a count may pass millions of solutions through here. With `-a` on a FlatZinc
/// model every solution is kept, in the model's words, checked as it comes. `shared`: the
/// bound file and the split's digest, where each better objective is written.
fn search_part(
    prepared: &Prepared,
    decisions: &[Decision],
    bound: Option<i64>,
    shared: Option<(&Path, &str)>,
) -> Result<PartRun, Failure> {
    let mut model = prepared.model().clone();
    let objective = objective_of(prepared);
    let mut feasible = restrict_to_part(&mut model, decisions).is_ok();
    if let (true, Some(objective), Some(b)) = (feasible, objective, bound) {
        feasible = restrict_objective(&mut model, objective, b).is_ok();
    }
    let mut kept: Option<Solution> = None;
    let keep_all = prepared.keeps_every_solution();
    let mut every_solution: Vec<Value> = Vec::new();
    let mut wrong: Option<Failure> = None;
    let outcome = if feasible {
        let mut on_solution = |s: &Solution| {
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
                if let (Some((file, digest)), Some(o)) = (shared, objective) {
                    offer_bound(file, digest, s.value(o.var) as i64, o.minimize);
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
        Outcome {
            complete: true,
            ..Default::default()
        }
    };
    if let Some(e) = wrong {
        return Err(e);
    }
    let best = match objective {
        Some(_) => outcome.best.clone().or(kept),
        None => kept,
    };
    Ok(PartRun {
        outcome,
        best,
        every_solution,
    })
}

/// The result line of a part's run (without the digest and the bound).
fn result_line(
    prepared: &Prepared,
    part: &Value,
    index: usize,
    run: &PartRun,
    started: Instant,
) -> Result<Value, Failure> {
    let outcome = &run.outcome;
    let found = outcome.solutions > 0;
    let status = match (prepared.mode, outcome.complete, found) {
        (_, true, false) => "UNSATISFIABLE",
        (_, false, false) => "UNKNOWN",
        (Mode::Count, true, true) => "ALL_SOLUTIONS",
        (Mode::Count, false, true) => "UNKNOWN",
        (Mode::Optimum, true, true) => "OPTIMAL",
        _ => "SATISFIED",
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
    if prepared.keeps_every_solution() {
        line["solution_list"] = Value::Array(run.every_solution.clone());
    }
    if let Some(s) = &run.best {
        let objective = objective_of(prepared);
        let (solution, stated) = prepared.answer(s)?;
        line["solution"] = solution;
        // The objective as the puzzle states it (as the ordinary run reports it), else the
        // objective variable's value.
        if let Some(v) = stated.or(objective.map(|o| s.value(o.var) as i64)) {
            line["objective"] = json!(v);
        }
        // The engine's objective variable, in which bounds are written and compared.
        if let Some(o) = objective {
            line["objective_var"] = json!(s.value(o.var));
        }
    }
    Ok(line)
}

/// `DIR/part-00000I.json`, by a temporary file and a rename; a run of the same part again
/// replaces it.
fn write_result(folder: &Path, index: usize, text: &[u8]) -> Result<(), Failure> {
    std::fs::create_dir_all(folder)
        .map_err(|e| Failure::Usage(format!("cannot create '{}' ({e})", folder.display())))?;
    write_atomically(&folder.join(result_file_name(index)), text).map_err(|e| {
        Failure::Io(std::io::Error::new(
            e.kind(),
            format!("the result in '{}': {e}", folder.display()),
        ))
    })
}

/// The name of part `index`'s result file in a results folder.
pub(super) fn result_file_name(index: usize) -> String {
    format!("part-{index:06}.json")
}

/// Read the bound file: the best objective known so far, if any. It holds `VALUE DIGEST`
/// (written by a part of this split) or `VALUE` alone (a bound a user states). A value of
/// another split, a value outside the objective's 32-bit range, or text that is not a
/// bound, is refused: it would prune this split's parts with another problem's bound.
fn read_bound(path: &Path, digest: &str) -> Result<Option<i64>, Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Failure::Usage(format!(
                "--bound-file: cannot read '{}' ({e})",
                path.display()
            )))
        }
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = |what: &str| {
        Failure::Input(crate::input::InputError {
            file: path.display().to_string(),
            line: 1,
            message: what.to_string(),
        })
    };
    let value = match words.as_slice() {
        [] => return Ok(None),
        [value] | [value, _] => value.parse::<i32>().map_err(|_| {
            bad("not a bound: expected a whole number within 32 bits, and the split's digest")
        })?,
        _ => {
            return Err(bad(
                "not a bound: expected one number and the split's digest",
            ))
        }
    };
    if let Some(theirs) = words.get(1).filter(|w| **w != digest) {
        return Err(bad(&format!(
            "the bound of another split ({theirs}; these parts are {digest}): remove the file or name another"
        )));
    }
    Ok(Some(value as i64))
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
fn offer_bound(path: &Path, digest: &str, value: i64, minimize: bool) {
    let better = match read_bound(path, digest) {
        Ok(Some(known)) if minimize => value < known,
        Ok(Some(known)) => value > known,
        Ok(None) => true,
        Err(_) => false,
    };
    if better {
        let _ = write_atomically(path, format!("{value} {digest}\n").as_bytes());
    }
}
