//! # `cpsolve merge`: the whole answer from one result per part
//!
//! Adding up a split is only right when every part is counted exactly once, so merge reads
//! in three steps, and each can only refuse (exit 2, one line naming the file, the part or
//! the parts concerned), never guess:
//!
//! 1. the parts file is whole (`parts::read_whole`);
//! 2. the results are exactly one per part of that whole ([`collect_results`]): a result
//!    missing, two for one part, a line cut or damaged, a result of another split (another
//!    digest) — any of these is refused;
//! 3. each result is possible ([`check_result`]): its status agrees with its count and its
//!    completeness, its count is no larger than its part's search space, a solution under a
//!    bound is better than that bound.
//!
//! Then it adds up, in checked arithmetic. A part stopped by a limit (`-t`, `--nodes`) has
//! a result, but an incomplete one: the verdict is then `UNKNOWN` (a count is a lower bound),
//! and merge says on standard error which parts to run again.

use super::fzn;
use super::parts::{bad_line, read_whole, PartsFile};
use super::refuse_unknown_flags;
use crate::Failure;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;

/// One result line, checked against its part.
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
    stats: [f64; 4],
}

/// What merge was asked: the parts file, the results, and the form of the answer.
struct Request {
    parts_path: String,
    results: Vec<String>,
    as_flatzinc: bool,
    list_missing: bool,
}

const USAGE: &str =
    "usage: cpsolve merge parts.jsonl results/ [more results...] [--json | --fzn] [--missing]";

fn request(mut args: Vec<String>) -> Result<Request, Failure> {
    let mut take = |flag: &str| {
        let given = args.iter().any(|a| a == flag);
        args.retain(|a| a != flag);
        given
    };
    let as_flatzinc = take("--fzn");
    let as_json = take("--json");
    let list_missing = take("--missing");
    if as_flatzinc && as_json {
        return Err(Failure::Usage(
            "merge: --json and --fzn are two forms of the answer; choose one".into(),
        ));
    }
    refuse_unknown_flags("merge", &args, "--json, --fzn, --missing")?;
    let [parts_path, results @ ..] = args.as_slice() else {
        return Err(Failure::Usage(USAGE.into()));
    };
    Ok(Request {
        parts_path: parts_path.clone(),
        results: results.to_vec(),
        as_flatzinc,
        list_missing,
    })
}

/// `cpsolve merge PARTS RESULTS... [--json | --fzn] [--missing]` (folders of result files,
/// or result files).
pub(super) fn merge(
    args: Vec<String>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let request = request(args)?;
    let parts = read_whole(&request.parts_path)?;
    let header = &parts.header;
    if request.as_flatzinc && header.get("model").is_none() {
        return Err(Failure::Usage(
            "--fzn prints the answer of a FlatZinc model; these parts are of a puzzle".into(),
        ));
    }
    if request.results.is_empty() && parts.stated_parts() > 0 {
        return Err(Failure::Usage(USAGE.into()));
    }
    let files = result_files(&request.results, parts.stated_parts())?;
    let found = collect_results(&files, &parts)?;
    let missing: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_none()).collect();
    if request.list_missing {
        for i in &missing {
            writeln!(out, "{i}")?;
        }
        return Ok(());
    }
    if !missing.is_empty() {
        return Err(Failure::Usage(missing_message(
            &request,
            &missing,
            found.len(),
        )));
    }
    let results: Vec<PartResult> = found.into_iter().flatten().collect();
    let (line, unfinished) = combine(&parts, &results)?;
    if request.as_flatzinc {
        out.write_all(fzn::merged_fzn(header, &line).as_bytes())?;
    } else {
        writeln!(out, "{line}")?;
    }
    if !unfinished.is_empty() {
        writeln!(
            err,
            "warning: {} of {} parts stopped at a limit before the end of their search; rerun them with:",
            unfinished.len(),
            results.len()
        )?;
        writeln!(err, "  {}", rerun_command(&request, &unfinished))?;
    }
    Ok(())
}

/// Part indices as ranges: `0-3 7 9-12`.
fn ranges(indices: &[usize]) -> String {
    let mut text = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        text.push(if i == j {
            indices[i].to_string()
        } else {
            format!("{}-{}", indices[i], indices[j])
        });
        i = j + 1;
    }
    text.join(" ")
}

fn rerun_command(request: &Request, parts: &[usize]) -> String {
    let folder = request.results.first().map_or("results/", |s| s.as_str());
    let list = if parts.len() <= 20 {
        parts
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!(
            "$(cpsolve merge {} {} --missing)",
            request.parts_path,
            request.results.join(" ")
        )
    };
    format!(
        "for i in {list}; do cpsolve solve-part {} --index $i -o {folder}; done",
        request.parts_path
    )
}

fn missing_message(request: &Request, missing: &[usize], total: usize) -> String {
    format!(
        "merge: {} of {total} parts have no result in {} ({} {}); a merge needs one result per part: {}",
        missing.len(),
        request.results.join(" "),
        if missing.len() == 1 { "part" } else { "parts" },
        ranges(missing),
        rerun_command(request, missing)
    )
}

/// Every result file: the folders' visible files (a hidden one is a write in progress),
/// and the files named. A folder that does not exist holds no result (no worker has written
/// one yet), which is not an error only when the split made no part at all.
fn result_files(results: &[String], total: usize) -> Result<Vec<PathBuf>, Failure> {
    let mut files: Vec<PathBuf> = Vec::new();
    for r in results {
        let path = PathBuf::from(r);
        if !path.exists() {
            if total == 0 {
                continue;
            }
            return Err(Failure::Usage(format!(
                "merge: '{r}': no such file or folder, so no result of its parts"
            )));
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
    files.dedup();
    Ok(files)
}

/// Read every result line and give each part its one result. Refused: a line that is not a
/// whole JSON result, a result of another split, two results for one part, an impossible
/// result. A part may be left without result (the caller names the missing ones).
fn collect_results(
    files: &[PathBuf],
    parts: &PartsFile,
) -> Result<Vec<Option<PartResult>>, Failure> {
    let mut found: Vec<Option<(String, PartResult)>> =
        (0..parts.stated_parts()).map(|_| None).collect();
    for file in files {
        let shown = file.display().to_string();
        let bytes = std::fs::read(file)
            .map_err(|e| Failure::Usage(format!("cannot read '{shown}' ({e})")))?;
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{shown}:{}", n + 1);
            let (index, result) = read_result(&shown, n + 1, line, parts)?;
            if let Some((first, _)) = &found[index] {
                return Err(Failure::Usage(format!(
                    "merge: part {index} has two results, {first} and {place}: keep one (a part run again into another folder?)"
                )));
            }
            found[index] = Some((place, result));
        }
    }
    Ok(found.into_iter().map(|r| r.map(|(_, r)| r)).collect())
}

/// One line of a result file: its part's index and the checked result.
fn read_result(
    file: &str,
    line: usize,
    text: &str,
    parts: &PartsFile,
) -> Result<(usize, PartResult), Failure> {
    let bad = |what: String| bad_line(file, line, what);
    let v: Value = serde_json::from_str(text).map_err(|_| {
        bad(
            "not a whole result line of 'cpsolve solve-part' (cut or damaged): run its part again"
                .into(),
        )
    })?;
    if v["digest"].as_str() != Some(parts.digest()) {
        return Err(bad(format!(
            "a result of another split (digest {}, the parts file's is {}): remove it",
            v["digest"],
            parts.digest()
        )));
    }
    let total = parts.stated_parts();
    let index = match v["part"].as_u64() {
        Some(i) if (i as usize) < total && i < u64::MAX => i as usize,
        _ => {
            return Err(bad(format!(
                "no part {} in a split of {total} parts",
                v["part"]
            )))
        }
    };
    let part = &parts.parts[index].1;
    if v["id"] != part["id"] || v["instance"] != parts.header["instance"] {
        return Err(bad(format!(
            "the result of part {index} names another part or instance than the parts file"
        )));
    }
    let result = check_result(&v, part, &parts.header).map_err(|why| {
        bad(format!(
            "part {index}: an impossible result ({why}): run it again"
        ))
    })?;
    Ok((index, result))
}

/// A result as its fields state it, refused when they cannot all be true.
fn check_result(v: &Value, part: &Value, header: &Value) -> Result<PartResult, String> {
    let mode = header["mode"].as_str().unwrap_or("");
    let complete = v["complete"].as_bool().ok_or("no 'complete'")?;
    let solutions = v["solutions"].as_u64().ok_or("no count of 'solutions'")?;
    let status = v["status"].as_str().unwrap_or("");
    let count = match mode {
        "count" => Some(v["count"].as_u64().ok_or("no whole 'count'")?),
        _ => None,
    };
    let found = solutions > 0;
    let agrees = match status {
        "UNSATISFIABLE" => complete && !found,
        "ALL_SOLUTIONS" => complete && found && mode == "count",
        "OPTIMAL" => complete && found && mode == "optimise",
        "SATISFIED" => found && mode != "count",
        "UNKNOWN" => !complete && (!found || mode == "count"),
        _ => false,
    };
    if !agrees || count.is_some_and(|c| c != solutions) {
        return Err(format!(
            "status {status:?}, complete {complete}, {solutions} solutions"
        ));
    }
    if let Some(space) = part["log2_space"].as_f64() {
        if solutions > 0 && (solutions as f64).log2() > space + 1e-9 {
            return Err(format!(
                "{solutions} solutions where the part has at most 2^{space} assignments"
            ));
        }
    }
    let solution = v.get("solution").cloned();
    let solution_list = v["solution_list"].as_array().cloned();
    if solution_list
        .as_ref()
        .is_some_and(|l| l.len() as u64 != solutions)
    {
        return Err("a list of solutions that is not as long as their count".into());
    }
    if found && mode != "count" && solution.is_none() {
        return Err("solutions found, none given".into());
    }
    let objective_var = v["objective_var"].as_i64();
    let bound = v["bound"].as_i64();
    if mode == "optimise" && solution.is_some() {
        let Some(o) = objective_var else {
            return Err("a solution without its objective".into());
        };
        let minimize = header["minimize"].as_bool();
        if let (Some(b), Some(min)) = (bound, minimize) {
            if (min && o >= b) || (!min && o <= b) {
                return Err(format!("objective {o} found under the bound {b}"));
            }
        }
    }
    let stats = &v["stats"];
    Ok(PartResult {
        complete,
        solutions,
        count,
        objective: v["objective"].as_i64(),
        objective_var,
        bound,
        solution,
        solution_list,
        stats: ["nodes", "failures", "propagations", "time_ms"]
            .map(|k| stats[k].as_f64().unwrap_or(0.0)),
    })
}

/// The merged JSON line, and the parts whose search a limit stopped.
fn combine(parts: &PartsFile, results: &[PartResult]) -> Result<(Value, Vec<usize>), Failure> {
    let header = &parts.header;
    let mode = header["mode"].as_str().unwrap_or("");
    // A part is answered when its tree was explored, or (satisfaction) it found a solution.
    let answered = |r: &PartResult| r.complete || (mode == "satisfy" && r.solutions > 0);
    let unfinished: Vec<usize> = (0..results.len())
        .filter(|&i| !answered(&results[i]))
        .collect();
    let all_done = unfinished.is_empty();
    let mut line = json!({ "instance": 1 });
    for what in ["puzzle", "model"] {
        if let Some(name) = header.get(what) {
            line[what] = name.clone();
        }
    }
    let status = match mode {
        "count" => combine_counts(header, results, all_done, &mut line)?,
        "optimise" => combine_optima(header, results, all_done, &mut line),
        _ => match results.iter().find_map(|r| r.solution.as_ref()) {
            Some(s) => {
                line["solution"] = s.clone();
                "SATISFIED"
            }
            None if all_done => "UNSATISFIABLE",
            None => "UNKNOWN",
        },
    };
    let mut stats = [0.0f64; 4];
    for r in results {
        for (s, x) in stats.iter_mut().zip(r.stats) {
            *s += x;
        }
    }
    line["status"] = json!(status);
    line["parts"] = json!(results.len());
    line["parts_done"] = json!(results.len() - unfinished.len());
    line["parts_missing"] = json!(unfinished);
    line["stats"] = json!({
        "nodes": stats[0] as u64,
        "failures": stats[1] as u64,
        "propagations": stats[2] as u64,
        "time_ms": stats[3],
    });
    // A satisfaction problem needs no more parts once one part has a solution.
    let rerun = if mode == "satisfy" && status == "SATISFIED" {
        Vec::new()
    } else {
        unfinished
    };
    Ok((line, rerun))
}

/// The sum of the parts' counts (exact when every part finished, else a lower bound), in
/// arithmetic that cannot wrap: a sum past 2^64 - 1 is an error (no search counts that many
/// solutions one by one).
fn combine_counts(
    header: &Value,
    results: &[PartResult],
    all_done: bool,
    line: &mut Value,
) -> Result<&'static str, Failure> {
    let mut count: u64 = 0;
    for (index, r) in results.iter().enumerate() {
        count = count
            .checked_add(r.count.unwrap_or(r.solutions))
            .ok_or_else(|| {
                Failure::Usage(format!(
                    "merge: the counts add up past 2^64 - 1 at part {index}: an impossible count (a damaged result?)"
                ))
            })?;
    }
    line["count"] = json!(count);
    if header["list"].as_bool() == Some(true) {
        let every: Vec<Value> = results
            .iter()
            .flat_map(|r| r.solution_list.iter().flatten().cloned())
            .collect();
        line["solutions"] = Value::Array(every);
    }
    Ok(match (all_done, count) {
        (true, 0) => "UNSATISFIABLE",
        (true, _) => "ALL_SOLUTIONS",
        _ => "UNKNOWN",
    })
}

/// The best solution of the parts. A complete run under bound b proves only "nothing better
/// than b in this part", so `OPTIMAL` needs every part finished and the best solution at
/// least as good as every bound a part used.
fn combine_optima(
    header: &Value,
    results: &[PartResult],
    all_done: bool,
    line: &mut Value,
) -> &'static str {
    let minimize = header["minimize"].as_bool().unwrap_or(true);
    let better = |a: i64, b: i64| if minimize { a < b } else { a > b };
    let mut best: Option<(i64, Option<i64>, &Value)> = None;
    for r in results {
        // Compared on the engine's objective variable, the scale of the bounds.
        if let (Some(o), Some(s)) = (r.objective_var.or(r.objective), &r.solution) {
            if best.is_none_or(|(b, _, _)| better(o, b)) {
                best = Some((o, r.objective, s));
            }
        }
    }
    let bounds: Vec<i64> = results.iter().filter_map(|r| r.bound).collect();
    match best {
        Some((o, stated, s)) => {
            line["solution"] = s.clone();
            line["objective"] = json!(stated.unwrap_or(o));
            if all_done && bounds.iter().all(|&b| !better(b, o)) {
                "OPTIMAL"
            } else {
                "SATISFIED"
            }
        }
        None if all_done && bounds.is_empty() => "UNSATISFIABLE",
        None => "UNKNOWN",
    }
}
