//! # `cpsolve --help`, `cpsolve help [PUZZLE]`, and "did you mean"
//!
//! Every line of help is read from a table: the commands from [`USAGE`], the puzzles from
//! the registry (`puzzles::all()`: name, summary, input, seed file, defaults, the flags only
//! they take), the flags from [`args::FLAGS`] (which also decides what each command
//! accepts). So the help cannot list a flag a command then refuses, or miss a puzzle.
//!
//! A word that names nothing gets the nearest name (by edit distance, `spelling.rs`) in its
//! error line: `cpsolve sudokku` says "did you mean 'sudoku'?", exit status 2.

use crate::args;
use crate::{spelling, Failure};
use engine::search::probing::ProbeAt;
use puzzles::{Input, PuzzleFlag, PuzzleKind};
use std::io::Write;

/// The commands, one usage line each: (the command's word, empty for the puzzle and model
/// lines; its operands and flags; what it does).
pub const USAGE: &[(&str, &str, &str)] = &[
    (
        "",
        "<puzzle> [FILE] [flags]",
        "FILE '-' is standard input; no FILE: the built-in example",
    ),
    (
        "",
        "queens [N] [flags]",
        "n-queens takes the board size instead of a file",
    ),
    (
        "",
        "model.fzn [flags]",
        "a FlatZinc model, solved as the FlatZinc specification says",
    ),
    (
        "",
        "model.mzn [data.dzn] [flags]",
        "a MiniZinc model, compiled by minizinc with cpsolve's mznlib/",
    ),
    (
        "help",
        "[PUZZLE | COMMAND]",
        "this help, or one puzzle's: its input, example, defaults and flags",
    ),
    (
        "tour",
        "[flags]",
        "solve every built-in example and show it",
    ),
    (
        "tree",
        "TRACE.jsonl -o FILE.svg|FILE.html",
        "draw the search tree of a trace written by --trace",
    ),
    (
        "split",
        "<puzzle> [FILE] --parts N [flags] > parts.jsonl",
        "cut a search into parts",
    ),
    (
        "split",
        "model.fzn --parts N [-a|--count] > parts.jsonl",
        "(FlatZinc; .mzn: --compile-to F.fzn)",
    ),
    (
        "solve-part",
        "parts.jsonl --index I [-o DIR] [--bound-file FILE]",
        "solve one part",
    ),
    (
        "merge",
        "parts.jsonl DIR [--fzn]",
        "the whole answer (see docs/cluster.md)",
    ),
];

/// The width of the usage column of `--help`.
const USAGE_WIDTH: usize = 40;

/// The kinds of file the commands read: (kind, what it is).
const FILES: &[(&str, &str)] = &[
    (
        "puzzle files",
        "each puzzle's own text format; cpsolve help PUZZLE names its example and page",
    ),
    (
        ".fzn",
        "a FlatZinc model (the flat language MiniZinc compiles to), solved directly",
    ),
    (
        ".mzn, .dzn",
        "a MiniZinc model and its data: needs the minizinc command on the PATH",
    ),
    (
        ".jsonl",
        "a trace (--trace) for cpsolve tree; the parts and results of split, solve-part, merge",
    ),
];

/// Where each command is described in full.
fn page_of(command: &str) -> &'static str {
    match command {
        "tree" => "docs/cli.md (The trace and the tree)",
        "split" | "solve-part" | "merge" => "docs/cluster.md",
        _ => "docs/cli.md",
    }
}

/// `cpsolve` alone, or `--help`.
pub fn help() -> String {
    let mut h = String::from(
        "cpsolve: solve logic puzzles and MiniZinc/FlatZinc models with a hand-written constraint solver\n\n",
    );
    for (i, (command, operands, what)) in USAGE.iter().enumerate() {
        let lead = if i == 0 { "usage:" } else { "" };
        let line = format!(
            "cpsolve {command}{}{operands}",
            if command.is_empty() { "" } else { " " }
        );
        if line.len() <= USAGE_WIDTH {
            h.push_str(&format!("{lead:<6} {line:<USAGE_WIDTH$} {what}\n"));
        } else {
            // Too long to share its line: the meaning goes below, in its column.
            h.push_str(&format!(
                "{lead:<6} {line}\n{:<7}{:<USAGE_WIDTH$} {what}\n",
                "", ""
            ));
        }
    }
    h.push_str("\nfiles:\n");
    for (kind, what) in FILES {
        h.push_str(&format!("  {kind:<14} {what}\n"));
    }
    h.push_str("\npuzzles:\n");
    let width = puzzles::all()
        .iter()
        .map(|k| k.name.len())
        .max()
        .unwrap_or(0);
    for kind in puzzles::all() {
        h.push_str(&format!("  {:<width$}  {}\n", kind.name, kind.summary));
    }
    h.push_str("\nflags (in brackets: the only commands that take it):\n");
    for flag in args::FLAGS {
        h.push_str(&flag_line(flag));
    }
    h.push_str(
        "\nexit status: 0 verdict reached (UNSATISFIABLE and UNKNOWN included, a stop by SIGINT or SIGTERM too),\n\
         \x20            2 bad usage or input (an output file that cannot be created included),\n\
         \x20            1 internal error, or a write that failed once the run had started\n",
    );
    h
}

/// One flag of `--help`: spellings, value, meaning, and who takes it when not every command.
fn flag_line(flag: &args::Flag) -> String {
    let spelled = if flag.value.is_empty() {
        flag.shown()
    } else {
        format!("{} {}", flag.shown(), flag.value)
    };
    let who = match (flag.puzzle_only, flag.takes) {
        (Some(which), _) => format!(" [{}]", takers(which)),
        (None, t) if t.puzzle && t.flatzinc && t.minizinc => String::new(),
        (None, t) if t.flatzinc => " [puzzles, .fzn]".to_string(),
        (None, _) => " [puzzles]".to_string(),
    };
    format!("  {spelled:<26} {}{who}\n", flag.meaning)
}

/// The puzzles that read a puzzle-only flag, from their `KIND`s: `colouring`, `a and b`.
pub fn takers(which: PuzzleFlag) -> String {
    let names: Vec<&str> = puzzles::all()
        .iter()
        .filter(|k| k.takes(which))
        .map(|k| k.name)
        .collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "no puzzle".to_string(),
    }
}

/// `cpsolve help [TOPIC]`: the whole help, one puzzle's, or one command's.
pub(crate) fn command(topics: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    let text = match topics {
        [] => help(),
        [topic] => topic_help(topic)?,
        [_, extra, ..] => {
            return Err(Failure::Usage(format!(
                "help takes one puzzle or command, found a second one: '{extra}'"
            )))
        }
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The help of one puzzle (by name or alias) or one command.
fn topic_help(topic: &str) -> Result<String, Failure> {
    if let Some(kind) = puzzles::find(topic) {
        return Ok(puzzle_help(kind));
    }
    let lines: Vec<_> = USAGE.iter().filter(|(c, _, _)| *c == topic).collect();
    if lines.is_empty() {
        return Err(unknown(topic));
    }
    let mut h = String::new();
    for (command, operands, what) in lines {
        h.push_str(&format!(
            "usage: cpsolve {command} {operands}\n       {what}\n"
        ));
    }
    h.push_str(&format!("more: {}\n", page_of(topic)));
    Ok(h)
}

/// `cpsolve help PUZZLE`: what its `KIND` declares, in words.
pub fn puzzle_help(kind: &PuzzleKind) -> String {
    let name = kind.name;
    let mut h = format!("{name}: {}\n\n", kind.summary);
    let (operands, what) = match kind.input {
        Input::File => (
            "[FILE]",
            "FILE '-' is standard input; no FILE: the built-in example",
        ),
        Input::Number => ("[N]", "N on the command line; no N: the built-in example"),
        Input::BuiltIn => ("", "built in: it takes no file"),
        Input::FileOrNumber => (
            "[FILE | N]",
            "a file, or a number; none: the built-in example",
        ),
    };
    h.push_str(&format!(
        "usage: cpsolve {name} {operands} [flags]   {what}\n"
    ));
    for alias in kind.aliases {
        h.push_str(&format!("       cpsolve {alias} ...   the same puzzle\n"));
    }
    match kind.seed_file {
        Some(file) => h.push_str(&format!("example: puzzles/{file}\n")),
        None if !kind.seed.is_empty() => h.push_str(&format!("example: {name} {}\n", kind.seed)),
        None => {}
    }
    h.push_str(if kind.optimisation {
        "search: optimisation: the best answer, OPTIMAL once proved; -a lists each improving one\n"
    } else {
        "search: satisfaction: the first solution; -a lists them all, --count counts them\n"
    });
    h.push_str(&format!(
        "defaults: --alldiff {} --sum {}{}{}\n",
        kind.defaults.alldiff,
        kind.defaults.sum,
        match kind.defaults.probe {
            ProbeAt::Off => "",
            ProbeAt::Root => " --probe-at root",
            ProbeAt::Nodes => " --probe-at nodes",
        },
        if kind.defaults.learn { " --learn" } else { "" },
    ));
    let mut ignored = Vec::new();
    for flag in args::FLAGS.iter().filter(|f| f.puzzle_only.is_some()) {
        let which = flag.puzzle_only.expect("filtered");
        if kind.takes(which) {
            h.push_str(&format!("its own flag:{}", flag_line(flag)));
        } else {
            ignored.push(format!("{} (for {})", flag.name(), takers(which)));
        }
    }
    if !ignored.is_empty() {
        h.push_str(&format!("ignored here: {}\n", ignored.join(", ")));
    }
    if let Some(page) = kind.page {
        h.push_str(&format!("more: {page}\n"));
    }
    h.push_str("the flags every puzzle takes: cpsolve --help\n");
    h
}

/// The commands' words, once each, in the order of [`USAGE`].
fn commands() -> Vec<&'static str> {
    let mut words: Vec<&str> = Vec::new();
    for (command, _, _) in USAGE {
        if !command.is_empty() && !words.contains(command) {
            words.push(command);
        }
    }
    words
}

/// The usage error of a first word that names no puzzle, command or model file, with the
/// nearest command, puzzle or alias when one is close.
pub(crate) fn unknown(word: &str) -> Failure {
    let mut known = commands();
    for kind in puzzles::all() {
        known.push(kind.name);
        known.extend(kind.aliases.iter().copied());
    }
    let hint = match spelling::closest(word, known) {
        Some(near) => format!("did you mean '{near}'? "),
        None => String::new(),
    };
    let names: Vec<&str> = puzzles::all().iter().map(|k| k.name).collect();
    Failure::Usage(format!(
        "unknown puzzle {} ({hint}expected one of: {}; a command: {}; \
         or a .fzn/.mzn file; see cpsolve --help)",
        puzzles::parse::quoted(word),
        names.join(", "),
        commands().join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands the router knows have a usage line (a new cluster command included).
    #[test]
    fn every_command_has_a_usage_line() {
        let listed = commands();
        for command in ["help", "tour", "tree"]
            .into_iter()
            .chain(crate::cluster::COMMANDS)
        {
            assert!(listed.contains(&command), "{command}");
        }
    }
}
