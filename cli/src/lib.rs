//! # `cpsolve`: the command line, as a library
//!
//! `cpsolve <puzzle> [FILE | N] [flags]` reads a puzzle file, asks the puzzle for a model, runs
//! the engine's search on it, checks every answer with the puzzle's own checker, and prints
//! the answers as MiniZinc-style text or as JSON lines. Its contract — formats, flags, JSON
//! fields, exit statuses — is `docs/formats.md`; `docs/cli.md` is the flag
//! reference.
//!
//! The whole command is [`run`], which takes the arguments and the three standard streams as
//! parameters, so the tests drive it like a function; `main.rs` only hands it the real ones.
//! The pieces, in the order a run uses them:
//!
//! | step | file |
//! |---|---|
//! | the words of the command line | [`args`] |
//! | bytes to instances, or one error line | [`input`] |
//! | the search for one instance, and its verdict | [`solve`] |
//! | text and JSON | [`output`] |
//! | `-v` | [`progress`] |
//! | SIGINT and SIGTERM | [`signals`] |
//! | many instances, in order or side by side | `batch.rs` |
//! | `--help`, `cpsolve help`, "did you mean" | [`help`] |
//! | `cpsolve tour` | `tour.rs` |
//! | why a run failed, and its exit status | [`error`] |
//!
//! This file only routes: the first word picks the command (a cluster command, `tree`,
//! `help`, `tour`, a `.fzn`/`.mzn` model, or a puzzle), and the modules above do the work.
//! Nothing here knows any particular puzzle: everything goes through the registry
//! (`puzzles::all()`, each puzzle's `KIND`), so a new puzzle needs no change here.
//!
//! **Exit status**: 0 when the run reached a verdict (`UNSATISFIABLE` and a limit's `UNKNOWN`
//! included); 2 for bad usage or bad input, with one line `error: FILE:LINE: ...` on standard
//! error; 1 for an internal error (an answer that fails its puzzle's checker, a panic, a failed
//! write).

pub mod animate;
pub mod args;
mod batch;
pub mod cluster;
pub mod domains;
pub mod error;
pub mod explain;
pub mod flatzinc;
pub mod help;
pub mod heuristics;
pub mod input;
pub mod output;
pub mod output_files;
pub mod progress;
pub mod signals;
pub mod solve;
pub mod spelling;
mod tour;
pub mod tree;

use args::{Options, Target};
pub use error::Failure;
use error::{one_line, panic_message};
pub use help::help;
use input::Source;
use progress::Progress;
use puzzles::PuzzleKind;
use std::ffi::OsStr;
use std::io::{BufWriter, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// What `main` knows about the process that the library cannot see.
#[derive(Clone, Copy, Debug, Default)]
pub struct Environment {
    /// Draw `-v` progress as a spinner redrawn in place (else: a plain line per second).
    pub stderr_is_terminal: bool,
}

/// Run the command with these arguments (without the program name) and streams. Returns the
/// exit status.
pub fn run<S: AsRef<OsStr>>(
    args: &[S],
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    run_with(args, stdin, stdout, stderr, Environment::default())
}

/// [`run`], with what `main` knows about the terminal.
pub fn run_with<S: AsRef<OsStr>>(
    args: &[S],
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    environment: Environment,
) -> i32 {
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    // The last line of defence: a panic anywhere becomes one error line, not a backtrace.
    let result = catch_unwind(AssertUnwindSafe(|| {
        execute(args, stdin, &mut out, stderr, environment)
    }))
    .unwrap_or_else(|payload| Err(Failure::Internal(panic_message(&*payload))));
    let flushed = out.flush();
    let (mut status, line) = match result {
        Ok(()) => match flushed {
            Ok(()) => (0, None),
            Err(e) => Failure::Io(e).report(),
        },
        Err(f) => f.report(),
    };
    if let Some(line) = line {
        if writeln!(stderr, "{}", one_line(&line)).is_err() && status == 0 {
            status = 1;
        }
    }
    let _ = stderr.flush();
    status
}

/// Route the command by its first word.
fn execute<S: AsRef<OsStr>>(
    args: &[S],
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    environment: Environment,
) -> Result<(), Failure> {
    // `-t` counts from here: reading and parsing the input are part of the run it bounds.
    let run_started = Instant::now();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    if let Some(result) = cluster::dispatch(&words, stdin, out, err) {
        return result;
    }
    if words.first().is_some_and(|w| w == "tree") {
        return tree::command(&words[1..]).map_err(Failure::from);
    }
    let options = args::parse(args).map_err(Failure::Usage)?;
    if options.version {
        writeln!(out, "cpsolve {}", env!("CARGO_PKG_VERSION"))?;
        return Ok(());
    }
    let Some(command) = options.command.clone() else {
        out.write_all(help().as_bytes())?;
        return Ok(());
    };
    if options.help {
        out.write_all(help().as_bytes())?;
        return Ok(());
    }
    if command == "help" {
        return help::command(&options.operands, out);
    }
    if flatzinc::is_model_file(&command) {
        return flatzinc::run(&command, &options, stdin, out, err);
    }
    if command == "tour" {
        return tour::tour(&options, out, err, environment);
    }
    let kind = puzzles::find(&command).ok_or_else(|| help::unknown(&command))?;
    solve_puzzle(kind, &options, stdin, out, err, environment, run_started)
}

/// `cpsolve PUZZLE [FILE | N] [flags]`: read the instances, solve them, print the verdicts.
fn solve_puzzle(
    kind: &'static PuzzleKind,
    options: &Options,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    environment: Environment,
    run_started: Instant,
) -> Result<(), Failure> {
    let source =
        input::source_for(kind, &options.operands, &options.operands_os).map_err(Failure::Usage)?;
    warn_about_flags_that_do_not_apply(kind, options, err)?;
    let instances = input::load(kind, &source, stdin).map_err(Failure::Input)?;
    // Every output file is checked and opened before the search (cli/src/output_files.rs).
    let input_file = match &source {
        Source::File(path) => Some(path.as_path()),
        _ => None,
    };
    output_files::prepare(options, input_file)?;
    let mut progress = options
        .verbose
        .then(|| Progress::new(environment.stderr_is_terminal, err, instances.len()));
    let result = batch::solve_all(
        kind,
        &instances,
        options,
        out,
        progress.as_mut(),
        Some(run_started),
    );
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    result
}

/// A flag the puzzle has no use for is not dropped in silence: one warning line. Which
/// puzzles read a puzzle-only flag is what their `KIND`s declare.
fn warn_about_flags_that_do_not_apply(
    kind: &PuzzleKind,
    options: &Options,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    debug_assert!(options.refused_by(Target::Puzzle).is_none());
    for (flag, which) in options.puzzle_only_flags() {
        if !kind.takes(which) {
            writeln!(
                err,
                "warning: {} applies to {} only; {} ignores it",
                flag.name(),
                help::takers(which),
                kind.name
            )?;
        }
    }
    if options.no_lns {
        writeln!(
            err,
            "warning: --no-lns applies to FlatZinc and MiniZinc models only; {} ignores it",
            kind.name
        )?;
    }
    if options.learn == Some(true) && options.count && options.threads.is_some_and(|n| n > 1) {
        writeln!(
            err,
            "warning: --learn: a count split over threads does not learn; -p 1 learns"
        )?;
    }
    if options.trace.is_some() && options.threads.is_some_and(|n| n > 1) {
        writeln!(
            err,
            "warning: --trace records one search on one thread; -p is ignored"
        )?;
    }
    Ok(())
}
