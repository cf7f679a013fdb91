//! # Reading a parts file, and knowing it is whole
//!
//! `solve-part` needs one part line (and reads only that one: a job array of thousands of
//! parts would otherwise parse the whole file in every task). `merge` needs the whole file,
//! and must know it has it: a file cut short by a full disk or an interrupted copy still
//! parses, line by line, and would merge into a wrong count. So [`read_whole`] checks what
//! the header states against what the file holds — exactly the stated number of parts,
//! each index once, every line with the header's digest, and the digest recomputed from the
//! parts' ids — and refuses anything else with one error line.

use super::{split_digest, FORMAT_VERSION};
use crate::input::InputError;
use crate::Failure;
use serde_json::Value;
use std::io::Read;

/// A parts file: the header and the part lines, in the file's order, each with its line
/// number (from 1).
pub(super) struct PartsFile {
    pub(super) header: Value,
    pub(super) parts: Vec<(usize, Value)>,
}

impl PartsFile {
    /// The number of parts the header states.
    pub(super) fn stated_parts(&self) -> usize {
        self.header["parts"].as_u64().unwrap_or(0) as usize
    }

    /// The split's digest, as the header states it.
    pub(super) fn digest(&self) -> &str {
        self.header["digest"].as_str().unwrap_or("")
    }
}

/// `error: FILE:LINE: message`.
pub(super) fn bad_line(path: &str, line: usize, message: String) -> Failure {
    Failure::Input(InputError {
        file: path.to_string(),
        line,
        message,
    })
}

fn read_text(path: &str, stdin: &mut dyn Read) -> Result<String, Failure> {
    if path == "-" {
        let mut s = String::new();
        stdin
            .read_to_string(&mut s)
            .map_err(|e| Failure::Usage(format!("cannot read standard input ({e})")))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Failure::Usage(format!("cannot read '{path}' ({e})")))
    }
}

/// Read a parts file. With `wanted`, a file with a header has only that part's line parsed.
/// A line that is not JSON (cut, or damaged) is an error, wherever it is.
pub(super) fn read_parts(
    path: &str,
    stdin: &mut dyn Read,
    wanted: Option<usize>,
) -> Result<PartsFile, Failure> {
    let text = read_text(path, stdin)?;
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
        let v: Value = serde_json::from_str(line).map_err(|_| {
            bad_line(
                path,
                i + 1,
                "not a JSON line of 'cpsolve split' (a cut or damaged parts file?)".into(),
            )
        })?;
        if v.get("cpsolve_parts").is_some() && header.is_none() {
            header = Some(v);
        } else if v.get("cpsolve_parts").is_some() {
            return Err(bad_line(path, i + 1, "a second header line".into()));
        } else if v.get("part").is_some() && v.get("decisions").is_some() {
            parts.push((i + 1, v));
        } else {
            return Err(bad_line(
                path,
                i + 1,
                "neither a header nor a part of 'cpsolve split'".into(),
            ));
        }
    }
    // A part alone (one line piped from the parts file) stands for itself.
    let header = match header {
        Some(h) => h,
        None if parts.len() == 1 => parts[0].1.clone(),
        None => {
            return Err(bad_line(
                path,
                1,
                "no header line: expected the output of 'cpsolve split'".into(),
            ))
        }
    };
    Ok(PartsFile { header, parts })
}

/// Read the whole parts file and check that it is whole; the part lines come back in index
/// order (line `k` of `parts` is part `k`).
pub(super) fn read_whole(path: &str) -> Result<PartsFile, Failure> {
    let mut file = read_parts(path, &mut std::io::empty(), None)?;
    let header = &file.header;
    if header.get("cpsolve_parts").is_none() {
        return Err(bad_line(
            path,
            1,
            "no header line: merge needs the whole parts file that 'cpsolve split' wrote".into(),
        ));
    }
    if header["cpsolve_parts"].as_u64() != Some(FORMAT_VERSION) || file.digest().is_empty() {
        return Err(bad_line(
            path,
            1,
            format!(
                "parts format {} without the split's digest (this cpsolve reads format {FORMAT_VERSION}): split again",
                header["cpsolve_parts"]
            ),
        ));
    }
    let Some(stated) = header["parts"].as_u64() else {
        return Err(bad_line(
            path,
            1,
            "the header states no number of parts".into(),
        ));
    };
    let held = file.parts.len() as u64;
    if held > stated {
        return Err(bad_line(
            path,
            1,
            format!("the header states {stated} parts and the file holds {held} part lines"),
        ));
    }
    let mut by_index: Vec<Option<(usize, Value)>> = vec![None; held as usize];
    for (line, part) in std::mem::take(&mut file.parts) {
        check_part_line(path, line, &part, &file.header)?;
        let index = part["part"].as_u64().unwrap_or(u64::MAX);
        // Every index below `held`, each once: with `held <= stated`, any other index
        // means that some part below it is missing, which the count below reports.
        match by_index.get_mut(index as usize) {
            Some(slot @ None) => *slot = Some((line, part)),
            Some(Some((first, _))) => {
                return Err(bad_line(
                    path,
                    line,
                    format!("part {index} again (first on line {first})"),
                ))
            }
            None => {}
        }
    }
    let found: Vec<(usize, Value)> = by_index.into_iter().flatten().collect();
    if (found.len() as u64) < stated {
        let missing = stated - found.len() as u64;
        return Err(bad_line(
            path,
            1,
            format!(
                "the file is cut short: the header states {stated} parts, {missing} of them have no line (a parts file must be whole; split again or copy it again)"
            ),
        ));
    }
    file.parts = found;
    check_digest(path, &file)?;
    Ok(file)
}

/// A part line belongs to the header's split: the same digest, the same number of parts.
fn check_part_line(path: &str, line: usize, part: &Value, header: &Value) -> Result<(), Failure> {
    if part["digest"] != header["digest"] {
        return Err(bad_line(
            path,
            line,
            format!(
                "a part of another split (digest {}, the header's is {})",
                part["digest"], header["digest"]
            ),
        ));
    }
    if part["parts"] != header["parts"] || part["part"].as_u64().is_none() {
        return Err(bad_line(
            path,
            line,
            "a part line that does not agree with the header (its number of parts, or its index)"
                .into(),
        ));
    }
    Ok(())
}

/// The header's digest is the digest of the parts the file holds.
fn check_digest(path: &str, file: &PartsFile) -> Result<(), Failure> {
    let header = &file.header;
    let ids: Vec<&str> = file
        .parts
        .iter()
        .map(|(_, p)| p["id"].as_str().unwrap_or(""))
        .collect();
    let recomputed = split_digest(
        header["instance"].as_str().unwrap_or(""),
        header["mode"].as_str().unwrap_or(""),
        &header["args"],
        &ids,
    );
    if recomputed != file.digest() {
        return Err(bad_line(
            path,
            1,
            format!(
                "the parts do not match the header's digest ({}; they give {recomputed}): a part line was changed or comes from another split",
                file.digest()
            ),
        ));
    }
    Ok(())
}
