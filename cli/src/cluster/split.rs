//! # `cpsolve split`: the parts file
//!
//! A header line, then one line per part, numbered from 0. The header states the whole: how
//! many parts there are and the split's digest (`super::split_digest`), which every part line
//! repeats; a reader can then tell a whole file from one cut short, and a part of this split
//! from a part of another. Each part line also states `log2_space`, an upper bound on the
//! number of solutions in its part (the log2 of the product of every domain size after its
//! decisions are propagated), by which merge refuses an impossible count.

use super::{decisions_hash, fzn, log2_space, mode_name, parse_number, split_digest, take_flag};
use super::{Origin, Prepared, FORMAT_VERSION};
use crate::solve::Mode;
use crate::Failure;
use engine::search::{decompose, restrict_to_part, Part};
use serde_json::{json, Value};
use std::io::Write;

/// The most parts a split makes (EPS wants 30-100 per worker: this is enough for 100,000
/// workers).
const MAX_PARTS: u64 = 1 << 24;

/// `cpsolve split PUZZLE [FILE|N] --parts N [flags]`.
pub(super) fn split(mut args: Vec<String>, out: &mut dyn Write) -> Result<(), Failure> {
    let target = match take_flag(&mut args, &["--parts"])? {
        Some(v) => match parse_number("--parts", &v)? {
            n @ 1..=MAX_PARTS => n as usize,
            n => {
                return Err(Failure::Usage(format!(
                    "--parts {n}: between 1 and {MAX_PARTS}"
                )))
            }
        },
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
    let lines = part_lines(&prepared, &parts, &args);
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["id"].as_str().unwrap_or(""))
        .collect();
    let mode = mode_name(prepared.mode);
    let digest = split_digest(&prepared.hash, mode, &json!(args), &ids);
    let mut header = json!({
        "cpsolve_parts": FORMAT_VERSION,
        "parts": parts.len(),
        "digest": digest,
        "file": prepared.file,
        "instance": prepared.hash,
        "mode": mode,
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
    for mut line in lines {
        line["digest"] = json!(digest);
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// One line per part, without the digest (which needs every part's id first).
fn part_lines(prepared: &Prepared, parts: &[Part], args: &[String]) -> Vec<Value> {
    parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            let decisions = Value::Array(
                part.decisions
                    .iter()
                    .map(|d| prepared.decision_json(d))
                    .collect(),
            );
            let mut model = prepared.model().clone();
            // A part that fails here holds no solution: its space is one empty assignment.
            let space = match restrict_to_part(&mut model, &part.decisions) {
                Ok(()) => log2_space(&model),
                Err(_) => 0.0,
            };
            let mut line = json!({
                "part": index,
                "parts": parts.len(),
                "instance": prepared.hash,
                "mode": mode_name(prepared.mode),
                "args": args,
                "id": decisions_hash(&decisions),
                "log2_size": (part.log_size * 100.0).round() / 100.0,
                "log2_space": space,
                "decisions": decisions,
            });
            prepared.describe(&mut line);
            line
        })
        .collect()
}
