//! # What the user sees: MiniZinc-style text, or one JSON object per line
//!
//! Text follows the MiniZinc conventions (`docs/formats.md`): each solution is its picture then
//! `----------`; a complete search ends with `==========` (or `=====UNSATISFIABLE=====`); an
//! incomplete one that found nothing prints `=====UNKNOWN=====`; `-s` adds
//! `%%%mzn-stat: name=value` lines closed by `%%%mzn-stat-end`, then the propagator table as
//! `%` comments (which MiniZinc output parsers skip).
//!
//! JSON is written field by field in the contract's order, into a buffer that goes out in one
//! piece: a run that stops half-way never leaves half a line. The one exception is a listing
//! (`-a`/`-n` with `--json`), whose solutions could fill the memory: its line is written as
//! the solutions come (`puzzle`, `instance`, `solutions`, then the other fields), and closed
//! when the search ends, whether it ended by itself, at a limit or at a signal.

use crate::solve::{InstanceRun, Mode, Status};
use puzzles::{Answer, AnswerJson};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::{self, Write};

/// A solution's picture and separator.
pub fn write_answer(out: &mut dyn Write, answer: &Answer) -> io::Result<()> {
    let mut text = String::with_capacity(answer.text.len() + 32);
    text.push_str(&answer.text);
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if let Some(objective) = answer.objective {
        let _ = writeln!(text, "% objective: {objective}");
    }
    text.push_str("----------\n");
    out.write_all(text.as_bytes())
}

/// The text after the search of one instance (the listed solutions were streamed already).
pub fn write_text(out: &mut dyn Write, run: &InstanceRun, stats: bool) -> io::Result<()> {
    match run.mode {
        Mode::Count => {
            let count = run.count.unwrap_or(0);
            let plural = if count == 1 { "" } else { "s" };
            if run.status == Status::Unknown {
                writeln!(
                    out,
                    "at least {count} solution{plural} (the search stopped at a limit)"
                )?;
            } else {
                writeln!(out, "{count} solution{plural}")?;
            }
        }
        Mode::First | Mode::Optimum => {
            if let Some(answer) = &run.solution {
                write_answer(out, answer)?;
            }
        }
        Mode::List { .. } => {}
    }
    match run.status {
        Status::Unsatisfiable => writeln!(out, "=====UNSATISFIABLE=====")?,
        Status::Unknown => writeln!(out, "=====UNKNOWN=====")?,
        Status::Optimal | Status::AllSolutions => writeln!(out, "==========")?,
        Status::Satisfied => {}
    }
    if stats {
        out.write_all(stat_lines(run).as_bytes())?;
    }
    Ok(())
}

/// `%%%mzn-stat:` lines, `%%%mzn-stat-end`, then the propagator table as `%` comments.
pub fn stat_lines(run: &InstanceRun) -> String {
    let s = &run.stats;
    let mut t = String::new();
    let mut stat = |name: &str, value: String| {
        let _ = writeln!(t, "%%%mzn-stat: {name}={value}");
    };
    stat("nodes", s.nodes.to_string());
    stat("failures", s.failures.to_string());
    stat("restarts", s.restarts.to_string());
    stat("propagations", s.propagations.to_string());
    stat("peakDepth", s.peak_depth.to_string());
    if s.nogoods > 0 {
        // With --learn: the nogoods learned, and their mean size in atoms.
        stat("nogoods", s.nogoods.to_string());
        let mean = s.nogood_atoms as f64 / s.nogoods as f64;
        stat("nogoodMeanSize", format!("{mean:.1}"));
        stat("backjumps", s.backjumps.to_string());
    }
    stat("solveTime", format!("{:.6}", s.time.as_secs_f64()));
    stat("solutions", s.solutions.to_string());
    stat("nSolutions", s.solutions.to_string());
    stat("variables", run.variables.to_string());
    stat("propagators", run.propagators.to_string());
    if let Some(objective) = run.objective {
        stat("objective", objective.to_string());
    }
    t.push_str("%%%mzn-stat-end\n");
    for line in run.profile.table().lines() {
        let _ = writeln!(t, "% {line}");
    }
    t
}

/// `value` as compact JSON, byte for byte what `serde_json::to_writer` writes. Lists and
/// one-digit numbers — a Sudoku answer is nothing else — are written here directly, which
/// costs a few instructions per cell instead of a pass through serde's serializer; strings,
/// objects and other numbers go through serde_json, which escapes and formats them.
fn write_json(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json(out, item);
            }
            out.push(b']');
        }
        Value::Number(n) => match n.as_u64() {
            Some(digit @ 0..=9) => out.push(b'0' + digit as u8),
            _ => serde_json::to_writer(&mut *out, n).expect("writing JSON to memory"),
        },
        other => serde_json::to_writer(&mut *out, other).expect("writing JSON to memory"),
    }
}

/// An answer's `solution` as compact JSON: rows of numbers written straight from the numbers
/// (a Sudoku's answer: no `Value` to walk), anything else through [`write_json`].
fn write_answer_json(out: &mut Vec<u8>, json: &AnswerJson) {
    match json {
        AnswerJson::Rows { values, width } => {
            out.push(b'[');
            for (r, row) in values.chunks(*width).enumerate() {
                if r > 0 {
                    out.push(b',');
                }
                write_row(out, row);
            }
            out.push(b']');
        }
        AnswerJson::Value(value) => write_json(out, value),
    }
}

/// `[5,1,7]`. A row of one-digit numbers (a Sudoku's) is laid out in one go, 2 bytes a
/// number: a comma in every byte, then the brackets at the ends and the digits at the odd
/// places.
fn write_row(out: &mut Vec<u8>, row: &[i64]) {
    if !row.is_empty() && row.iter().all(|&v| (0..=9).contains(&v)) {
        let start = out.len();
        out.resize(start + 2 * row.len() + 1, b',');
        let text = &mut out[start..];
        text[0] = b'[';
        for (k, &digit) in row.iter().enumerate() {
            text[2 * k + 1] = b'0' + digit as u8;
        }
        text[2 * row.len()] = b']';
        return;
    }
    out.push(b'[');
    for (c, &v) in row.iter().enumerate() {
        if c > 0 {
            out.push(b',');
        }
        if v < 0 {
            out.push(b'-');
        }
        write_decimal(out, v.unsigned_abs());
    }
    out.push(b']');
}

/// One JSON object, one line: `puzzle, instance, status, solution, solutions, count,
/// objective, stats`.
pub fn json_line(puzzle: &str, instance: usize, run: &InstanceRun) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(512);
    json_head(&mut out, puzzle, instance);
    json_rest(&mut out, run, false);
    out
}

/// An answer's `solution` as compact JSON (an element of a streamed `solutions` list).
pub fn write_answer_json_of(out: &mut Vec<u8>, answer: &Answer) {
    write_answer_json(out, &answer.json);
}

/// `,"name":`
fn field(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"\":");
}

/// The start of a JSON line: `{"puzzle":...,"instance":N`.
pub fn json_head(out: &mut Vec<u8>, puzzle: &str, instance: usize) {
    out.extend_from_slice(b"{\"puzzle\":");
    serde_json::to_writer(&mut *out, puzzle).expect("writing JSON to memory");
    field(out, "instance");
    write_decimal(out, instance as u64);
}

/// The rest of a JSON line after [`json_head`], to its newline. `solutions_streamed`: the
/// `solutions` field was written already, as the solutions came (so `run.listed` is empty).
pub fn json_rest(out: &mut Vec<u8>, run: &InstanceRun, solutions_streamed: bool) {
    let _ = write!(out, ",\"status\":\"{}\"", run.status.as_str());
    if let Some(answer) = &run.solution {
        field(out, "solution");
        write_answer_json(out, &answer.json);
    }
    if matches!(run.mode, Mode::List { .. }) && !solutions_streamed {
        field(out, "solutions");
        out.push(b'[');
        for (i, answer) in run.listed.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_answer_json(out, &answer.json);
        }
        out.push(b']');
    }
    if let Some(count) = run.count {
        field(out, "count");
        write_decimal(out, count);
    }
    if let Some(objective) = run.objective {
        let _ = write!(out, ",\"objective\":{objective}");
    }
    // The statistics: a dozen integers on every line of a batch, written digit by digit
    // (through `write!` they cost about as much as the rest of the line).
    let s = &run.stats;
    out.extend_from_slice(b",\"stats\":{\"nodes\":");
    write_decimal(out, s.nodes);
    for (name, value) in [("failures", s.failures), ("propagations", s.propagations)] {
        field(out, name);
        write_decimal(out, value);
    }
    field(out, "time_ms");
    write_milliseconds(out, s.time.as_nanos() as u64);
    for (name, value) in [
        ("restarts", s.restarts),
        ("peak_depth", s.peak_depth),
        ("solutions", s.solutions),
        ("variables", run.variables as u64),
    ] {
        field(out, name);
        write_decimal(out, value);
    }
    out.extend_from_slice(b",\"propagators\":[");
    for (i, (name, c)) in run.profile.by_kind.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"name\":");
        serde_json::to_writer(&mut *out, name).expect("writing JSON to memory");
        for (name, value) in [
            ("instances", c.instances),
            ("calls", c.calls),
            ("prunings", c.prunings),
            ("removed", c.removed),
            ("failures", c.failures),
        ] {
            field(out, name);
            write_decimal(out, value);
        }
        // Always present, as the shape says; 0 unless `--profile` measured it.
        field(out, "time_ms");
        write_milliseconds(out, c.time_ns);
        out.push(b'}');
    }
    out.extend_from_slice(b"]}}\n");
}

/// `n` in decimal, as `write!` writes it.
fn write_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

/// Nanoseconds as a JSON number of milliseconds, to the microsecond.
fn write_milliseconds(out: &mut Vec<u8>, ns: u64) {
    let us = ns.saturating_add(500) / 1000;
    write_decimal(out, us / 1000);
    let fraction = us % 1000;
    out.extend_from_slice(&[
        b'.',
        b'0' + (fraction / 100) as u8,
        b'0' + (fraction / 10 % 10) as u8,
        b'0' + (fraction % 10) as u8,
    ]);
}

#[cfg(test)]
mod tests {
    use super::{write_answer_json, write_decimal, write_json, write_milliseconds};
    use proptest::prelude::*;
    use puzzles::AnswerJson;
    use serde_json::{json, Value};

    fn written(value: &Value) -> String {
        let mut out = Vec::new();
        write_json(&mut out, value);
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn write_json_writes_what_serde_json_writes() {
        for value in [
            json!([[5, 3, 4], [6, 7, 2]]),
            json!([0, 9, 10, -1, 1.5, -0.0, 1e300, u64::MAX, i64::MIN]),
            json!([null, true, false, "a \"quoted\" ┼\n", {"k": [1, {"x": null}]}]),
            json!([]),
            json!([[]]),
            json!({"solution": [[1]]}),
        ] {
            assert_eq!(written(&value), serde_json::to_string(&value).unwrap());
        }
    }

    /// Values made of what answers are made of: lists, numbers, strings, null.
    fn answer_like() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            (-20i64..20).prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
                .prop_map(Value::from),
            "[a-z┼·\"\\\\]{0,4}".prop_map(Value::from),
            Just(Value::Null),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop::collection::vec(inner, 0..6).prop_map(Value::Array)
        })
    }

    proptest! {
        #[test]
        fn write_json_agrees_with_serde_json(value in answer_like()) {
            prop_assert_eq!(written(&value), serde_json::to_string(&value).unwrap());
        }

        /// Rows of numbers, written from the numbers, are what their `Value` writes.
        #[test]
        fn rows_are_written_as_their_value(
            width in 1usize..12,
            values in prop::collection::vec(prop_oneof![0i64..10, any::<i64>()], 0..40),
        ) {
            let rows = AnswerJson::Rows { values, width };
            let mut out = Vec::new();
            write_answer_json(&mut out, &rows);
            prop_assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&*rows.to_value()).unwrap()
            );
        }
    }

    #[test]
    fn milliseconds_are_json_numbers() {
        let milliseconds = |ns| {
            let mut out = Vec::new();
            write_milliseconds(&mut out, ns);
            String::from_utf8(out).expect("UTF-8")
        };
        assert_eq!(milliseconds(0), "0.000");
        assert_eq!(milliseconds(410_000), "0.410");
        assert_eq!(milliseconds(12_345_678_901), "12345.679");
        assert_eq!(milliseconds(1_000_499), "1.000");
        assert_eq!(milliseconds(1_000_500), "1.001");
        let v: f64 = serde_json::from_str(&milliseconds(1_500)).unwrap();
        assert_eq!(v, 0.002);
    }

    proptest! {
        #[test]
        fn decimals_are_what_write_writes(n in any::<u64>(), small in 0u64..100_000) {
            for n in [n, small] {
                let mut out = Vec::new();
                write_decimal(&mut out, n);
                prop_assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
            }
        }

        #[test]
        fn milliseconds_are_what_format_writes(ns in 0u64..u64::MAX - 1000) {
            let mut out = Vec::new();
            write_milliseconds(&mut out, ns);
            let us = (ns + 500) / 1000;
            prop_assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("{}.{:03}", us / 1000, us % 1000)
            );
        }
    }
}
