//! # `cpsolve`: the command line, as a library
//!
//! `cpsolve <puzzle> [FILE | N] [flags]` reads a puzzle file, asks the puzzle for a model, runs
//! the engine's search on it, checks every answer with the puzzle's own checker, and prints
//! the answers as MiniZinc-style text or as JSON lines. Its contract — formats, flags, JSON
//! fields, exit statuses — is `FORMATS.md` in the project's shared folder; `docs/cli.md` is
//! the flag reference.
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
//!
//! Nothing here knows any particular puzzle: everything goes through the registry
//! (`puzzles::all()`), so a new puzzle needs no change here.
//!
//! **Exit status**: 0 when the run reached a verdict (`UNSATISFIABLE` and a limit's `UNKNOWN`
//! included); 2 for bad usage or bad input, with one line `error: FILE:LINE: ...` on standard
//! error; 1 for an internal error (an answer that fails its puzzle's checker, a panic, a failed
//! write).

pub mod animate;
pub mod args;
pub mod cluster;
pub mod domains;
pub mod explain;
pub mod flatzinc;
pub mod heuristics;
pub mod input;
pub mod output;
pub mod progress;
pub mod signals;
pub mod solve;
pub mod tree;

use args::Options;
use engine::search::{NoListener, SearchEvent, SearchListener, TraceWriter};
use input::{InputError, Source};
use progress::Progress;
use puzzles::{Answer, Instance, PuzzleKind};
use solve::{InstanceRun, Plan, SharedModels};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Why a run ended without a verdict.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or an option the instance cannot take: exit 2.
    Usage(String),
    /// A malformed input: exit 2, `error: FILE:LINE: message`.
    Input(InputError),
    /// A bug: an answer that fails its checker, a panic: exit 1.
    Internal(String),
    /// Writing the output failed: exit 1 (a closed pipe: exit 0, silently).
    Io(io::Error),
}

impl Failure {
    /// The exit status and the error line (none for a closed pipe).
    fn report(&self) -> (i32, Option<String>) {
        match self {
            Failure::Usage(m) => (2, Some(format!("error: {m}"))),
            Failure::Input(e) => (
                2,
                Some(format!("error: {}:{}: {}", e.file, e.line, e.message)),
            ),
            Failure::Internal(m) => (1, Some(format!("error: internal error: {m}"))),
            Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => (0, None),
            Failure::Io(e) => (1, Some(format!("error: cannot write the output: {e}"))),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

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
        Err(Failure::Internal(m)) if m.starts_with("panic: ") => (
            1,
            Some(format!(
                "error: internal error: {} (a bug in cpsolve: please report it with the input)",
                one_line(&m)
            )),
        ),
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

/// What a caught panic said, as the message of an internal error.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("panic: {what}")
}

/// The longest error line written, in characters. Parsers quote bad tokens cut short
/// (`puzzles::quote`); this is the last defence for a message that still carries a huge one.
const MAX_ERROR_LINE_CHARS: usize = 500;

/// Messages are one short line, whatever a puzzle's parser wrote.
fn one_line(s: &str) -> String {
    let line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(MAX_ERROR_LINE_CHARS) {
        Some((cut, _)) => format!(
            "{}… (cut: the message had {} bytes)",
            &line[..cut],
            line.len()
        ),
        None => line,
    }
}

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
    if flatzinc::is_model_file(&command) {
        return flatzinc::run(&command, &options, out, err);
    }
    if command == "tour" {
        if let Some(extra) = options.operands.first() {
            return Err(Failure::Usage(format!(
                "tour takes no file, found '{extra}'"
            )));
        }
        return tour(&options, out, err, environment);
    }
    let kind = puzzles::find(&command).ok_or_else(|| {
        Failure::Usage(format!(
            "unknown puzzle '{command}' (expected one of: {}, or tour; see cpsolve --help)",
            puzzle_names()
        ))
    })?;
    let source =
        input::source_for(kind, &options.operands, &options.operands_os).map_err(Failure::Usage)?;
    refuse_trace_over_input(&options, &source)?;
    warn_about_flags_that_do_not_apply(kind, &options, err)?;
    let instances = input::load(kind, &source, stdin).map_err(Failure::Input)?;
    let mut progress = options
        .verbose
        .then(|| Progress::new(environment.stderr_is_terminal, err, instances.len()));
    let result = solve_all(
        kind,
        &instances,
        &options,
        out,
        progress.as_mut(),
        Some(run_started),
    );
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    result
}

/// `--trace FILE` truncates FILE: refuse when FILE is the puzzle file itself.
fn refuse_trace_over_input(options: &Options, source: &Source) -> Result<(), Failure> {
    let (Some(trace), Source::File(input)) = (&options.trace, source) else {
        return Ok(());
    };
    let same = match (std::fs::canonicalize(trace), std::fs::canonicalize(input)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(Failure::Usage(format!(
            "--trace '{}' is the input file: the trace would overwrite the puzzle; choose another file",
            trace.display()
        )));
    }
    Ok(())
}

/// A flag the puzzle has no use for is not dropped in silence: one warning line.
fn warn_about_flags_that_do_not_apply(
    kind: &PuzzleKind,
    options: &Options,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    if options.colours.is_some() && kind.name != "colouring" {
        writeln!(
            err,
            "warning: --colours applies to colouring only; {} ignores it",
            kind.name
        )?;
    }
    if options.viewpoint.is_some() && kind.name != "pigeonhole" {
        writeln!(
            err,
            "warning: --viewpoint applies to pigeonhole only; {} ignores it",
            kind.name
        )?;
    }
    if options.no_lns {
        writeln!(
            err,
            "warning: --no-lns applies to FlatZinc and MiniZinc models only; {} ignores it",
            kind.name
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

fn puzzle_names() -> String {
    puzzles::all()
        .iter()
        .map(|k| k.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `cpsolve` alone, or `--help`.
pub fn help() -> String {
    let mut h = String::new();
    h.push_str(
        "cpsolve: solve logic puzzles with a hand-written constraint solver\n\n\
         usage: cpsolve <puzzle> [FILE] [flags]   FILE '-' is standard input; no FILE: the built-in example\n\
         \x20      cpsolve queens [N] [flags]\n\
         \x20      cpsolve tour [flags]             solve every built-in example and show it\n\
         \x20      cpsolve split <puzzle> [FILE] --parts N [flags] > parts.jsonl   cut a search into parts\n\
         \x20      cpsolve split model.fzn --parts N [-a|--count] > parts.jsonl     (FlatZinc; .mzn: --compile-to F.fzn)\n\
         \x20      cpsolve solve-part parts.jsonl --index I [-o DIR] [--bound-file FILE]\n\
         \x20      cpsolve merge parts.jsonl DIR [--fzn]   the whole answer (see docs/cluster.md)\n\n\
         puzzles:\n",
    );
    let width = puzzles::all()
        .iter()
        .map(|k| k.name.len())
        .max()
        .unwrap_or(0);
    for kind in puzzles::all() {
        h.push_str(&format!("  {:<width$}  {}\n", kind.name, kind.summary));
    }
    h.push_str("\nflags:\n");
    for (names, value, meaning) in args::FLAGS {
        let spelled = if value.is_empty() {
            names.to_string()
        } else {
            format!("{names} {value}")
        };
        h.push_str(&format!("  {spelled:<26} {meaning}\n"));
    }
    h.push_str(
        "\nexit status: 0 verdict reached (UNSATISFIABLE and UNKNOWN included, a stop by SIGINT or SIGTERM too),\n\
         \x20            2 bad usage or input, 1 internal error or failed write\n",
    );
    h
}

/// The trace file of `--trace`, shared by the instances of a run. `--tree` alone writes
/// the trace to a temporary file, read back and removed when the tree is drawn.
struct Trace {
    file: BufWriter<File>,
    path: std::path::PathBuf,
    temporary: bool,
}

impl Trace {
    fn open(options: &Options) -> Result<Option<Trace>, Failure> {
        let (path, temporary) = match (&options.trace, &options.tree) {
            (Some(path), _) => (path.clone(), false),
            (None, Some(_)) => (
                std::env::temp_dir().join(format!("cpsolve-tree-{}.jsonl", std::process::id())),
                true,
            ),
            (None, None) => return Ok(None),
        };
        let file = File::create(&path).map_err(|e| {
            Failure::Usage(format!("--trace: cannot create '{}' ({e})", path.display()))
        })?;
        Ok(Some(Trace {
            file: BufWriter::new(file),
            path,
            temporary,
        }))
    }

    /// `--tree FILE`: draw the trace just written.
    fn draw_tree(self, options: &Options) -> Result<(), Failure> {
        let Trace {
            file,
            path,
            temporary,
        } = self;
        drop(file);
        let result = match &options.tree {
            Some(output) => tree::write_tree(&path, output).map_err(Failure::from),
            None => Ok(()),
        };
        if temporary {
            let _ = std::fs::remove_file(&path);
        }
        result
    }
}

impl From<tree::TreeError> for Failure {
    fn from(e: tree::TreeError) -> Failure {
        match e {
            tree::TreeError::Usage(m) => Failure::Usage(m),
            tree::TreeError::Input(file, line, message) => Failure::Input(input::InputError {
                file,
                line,
                message,
            }),
        }
    }
}

/// Forwards the search's events to the trace and the progress line, whichever are on.
struct Listeners<'a, 'b> {
    trace: Option<TraceWriter<&'a mut BufWriter<File>>>,
    progress: Option<&'a mut Progress<'b>>,
    animation: Option<&'a mut animate::Recorder>,
}

impl SearchListener for Listeners<'_, '_> {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        if let Some(t) = self.trace.as_mut() {
            t.on_event(event);
        }
        if let Some(p) = self.progress.as_mut() {
            p.on_event(event);
        }
        if let Some(a) = self.animation.as_mut() {
            a.on_event(event);
        }
    }

    fn on_fixpoint(&mut self, model: &engine::Model) {
        if let Some(t) = self.trace.as_mut() {
            t.on_fixpoint(model);
        }
        if let Some(a) = self.animation.as_mut() {
            a.on_fixpoint(model);
        }
    }

    fn on_conflict(&mut self, model: &engine::Model) {
        if let Some(t) = self.trace.as_mut() {
            t.on_conflict(model);
        }
    }

    /// The trace and the animation say what each propagator removed at each node.
    fn wants_removal_counts(&self) -> bool {
        self.trace.is_some() || self.animation.is_some()
    }

    fn on_progress(&mut self, progress: &engine::search::Progress) {
        if let Some(p) = self.progress.as_mut() {
            p.on_progress(progress);
        }
    }

    /// Neither a trace nor a progress line: the search need not build its events.
    fn listens(&self) -> bool {
        self.trace.is_some() || self.progress.is_some() || self.animation.is_some()
    }

    fn name_variables(&mut self, naming: &engine::search::Naming) {
        if let Some(t) = self.trace.as_mut() {
            t.name_variables(naming);
        }
        if let Some(a) = self.animation.as_mut() {
            a.name_variables(naming);
        }
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `-p N`, at most the number of cores: more threads than cores only take turns (and the
/// parallel count splits its tree into more pieces than it can use).
fn threads(options: &Options) -> usize {
    let cores = default_threads();
    options.threads.map_or(cores, |n| n.clamp(1, cores))
}

/// Solve every instance of a file, printing each verdict in order. `-t` gives each instance
/// its own budget; the first one's counts from `run_started` (the reading and parsing of the
/// file included), the others' from their own start.
fn solve_all(
    kind: &'static PuzzleKind,
    instances: &[Box<dyn Instance>],
    options: &Options,
    out: &mut dyn Write,
    mut progress: Option<&mut Progress<'_>>,
    run_started: Option<Instant>,
) -> Result<(), Failure> {
    let threads = threads(options);
    let mut trace = Trace::open(options)?;
    let several = instances.len() > 1;
    if several && options.animate.is_some() {
        return Err(Failure::Usage(format!(
            "--animate replays one search, and this input has {} instances",
            instances.len()
        )));
    }
    let mut animation = options.animate.as_ref().map(|_| animate::Recorder::new());
    if several
        && threads > 1
        && trace.is_none()
        && !options.show_domains
        && options.explain.is_none()
    {
        return solve_side_by_side(
            kind,
            instances,
            options,
            threads,
            out,
            progress,
            run_started,
        );
    }
    let plan = Plan {
        kind,
        options,
        // The trace is one stream of events: its search runs on one thread.
        threads: if trace.is_some() || animation.is_some() {
            1
        } else {
            threads
        },
    };
    let mut shared = SharedModels::default();
    for (i, instance) in instances.iter().enumerate() {
        if signals::interrupted() {
            break;
        }
        let index = i + 1;
        if let Some(t) = trace.as_mut() {
            if several {
                writeln!(
                    t.file,
                    "{{\"event\":\"instance\",\"puzzle\":\"{}\",\"instance\":{index}}}",
                    kind.name
                )?;
            }
        }
        if options.show_domains {
            domains::show(&plan, &**instance, several.then_some(index), out)?;
        }
        if let Some(cell) = &options.explain {
            explain::show(&plan, &**instance, several.then_some(index), cell, out)?;
        }
        let mut listeners = Listeners {
            trace: trace.as_mut().map(|t| TraceWriter::new(&mut t.file)),
            progress: progress.as_deref_mut(),
            animation: animation.as_mut(),
        };
        let result = solve_and_print(
            &plan,
            (i == 0).then_some(run_started).flatten(),
            index,
            several,
            &**instance,
            &mut shared,
            &mut listeners,
            out,
        );
        if let Some(t) = listeners.trace.take() {
            if let Some(e) = t.error {
                return Err(Failure::Internal(format!("cannot write the trace: {e}")));
            }
        }
        result?;
        if let Some(p) = progress.as_deref_mut() {
            p.finish_instance();
        }
    }
    if let (Some(path), Some(recorder)) = (&options.animate, animation) {
        let title = format!("{}: the search, step by step", kind.name);
        std::fs::write(path, recorder.html(&title)).map_err(|e| {
            Failure::Usage(format!(
                "--animate: cannot write '{}' ({e})",
                path.display()
            ))
        })?;
    }
    if let Some(mut t) = trace {
        t.file
            .flush()
            .map_err(|e| Failure::Internal(format!("cannot write the trace: {e}")))?;
        t.draw_tree(options)?;
    }
    Ok(())
}

/// Many instances on many threads. Each worker takes the next *chunk* of consecutive
/// instances not yet taken (an atomic counter), searches them one after another on its own
/// shared model, and sends their printed output back in one message; this thread prints the
/// chunks in file order as soon as each one's predecessors are out. The workers are created
/// once per run, not per instance.
///
/// Why chunks: a file of 10,000 easy Sudokus takes about 20 µs a puzzle, and with one message
/// and one turn of the shared counter per puzzle, two threads were slower than one (0.21 s
/// against 0.19 s). Why small ones: a hard instance holds up only the rest of its own chunk,
/// and a file of a few dozen instances (16 chunks per thread at least) gets chunks of one.
fn solve_side_by_side(
    kind: &'static PuzzleKind,
    instances: &[Box<dyn Instance>],
    options: &Options,
    threads: usize,
    out: &mut dyn Write,
    mut progress: Option<&mut Progress<'_>>,
    run_started: Option<Instant>,
) -> Result<(), Failure> {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::mpsc;

    /// What a worker sends back for one chunk: the output of the instances it solved, in
    /// order, and the failure that stopped it, if one did (the failing instance's own
    /// partial output is left out).
    struct Chunk {
        text: Vec<u8>,
        solved: usize,
        nodes: u64,
        solutions: u64,
        failure: Option<Failure>,
    }

    let plan = Plan {
        kind,
        options,
        threads: 1,
    };
    let chunk_size = (instances.len() / (16 * threads)).clamp(1, 64);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Chunk)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(instances.len()) {
            let sender = sender.clone();
            let (plan, next, stop) = (&plan, &next, &stop);
            scope.spawn(move || {
                let mut shared = SharedModels::default();
                loop {
                    let start = next.fetch_add(chunk_size, Ordering::Relaxed);
                    if start >= instances.len()
                        || stop.load(Ordering::Relaxed)
                        || signals::interrupted()
                    {
                        break;
                    }
                    let end = (start + chunk_size).min(instances.len());
                    let mut chunk = Chunk {
                        text: Vec::with_capacity(512 * (end - start)),
                        solved: 0,
                        nodes: 0,
                        solutions: 0,
                        failure: None,
                    };
                    // `i` numbers the instances of the whole file (from 0), not of the chunk.
                    for (i, instance) in (start..end).zip(&instances[start..end]) {
                        let mark = chunk.text.len();
                        let result = catch_unwind(AssertUnwindSafe(|| {
                            solve_and_print(
                                plan,
                                (i == 0).then_some(run_started).flatten(),
                                i + 1,
                                true,
                                instance.as_ref(),
                                &mut shared,
                                &mut NoListener,
                                &mut chunk.text,
                            )
                        }))
                        .unwrap_or_else(|_| {
                            Err(Failure::Internal(format!(
                                "panic: while solving {} instance {}",
                                plan.kind.name,
                                i + 1
                            )))
                        });
                        match result {
                            Ok(run) => {
                                chunk.solved += 1;
                                chunk.nodes += run.stats.nodes;
                                chunk.solutions += run.stats.solutions;
                            }
                            Err(f) => {
                                chunk.text.truncate(mark);
                                chunk.failure = Some(f);
                                break;
                            }
                        }
                    }
                    if sender.send((start / chunk_size, chunk)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Print in order: keep the chunks that arrive early until their turn.
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        let mut outcome = Ok(());
        for (k, chunk) in receiver.iter() {
            if outcome.is_err() {
                continue;
            }
            waiting.insert(k, chunk);
            while let Some(chunk) = waiting.remove(&printed) {
                printed += 1;
                let written = out.write_all(&chunk.text).map_err(Failure::from);
                if let Some(p) = progress.as_deref_mut() {
                    p.add_finished(chunk.solved, chunk.nodes, chunk.solutions);
                }
                if let Some(f) = written.err().or(chunk.failure) {
                    stop.store(true, Ordering::Relaxed);
                    outcome = Err(f);
                    break;
                }
            }
        }
        outcome
    })
}

/// Solve one instance and print its verdict (text or one JSON line). `-t` counts from
/// `clock_started` (`None`: from now).
// Eight plain arguments, each used once: a struct to group them would only rename them.
#[allow(clippy::too_many_arguments)]
fn solve_and_print(
    plan: &Plan<'_>,
    clock_started: Option<Instant>,
    index: usize,
    several: bool,
    instance: &dyn Instance,
    shared: &mut SharedModels,
    listener: &mut dyn SearchListener,
    out: &mut dyn Write,
) -> Result<InstanceRun, Failure> {
    let options = plan.options;
    if options.json && options.enumerates() {
        // The listed solutions are streamed into the line as they are found: memory stays
        // flat however many there are. The line is closed after the search (a signal or a
        // limit included), with `status` and the rest after `solutions`.
        let mut opened = false;
        let run = {
            let mut emit = |answer: &Answer| {
                let mut piece = Vec::new();
                if !opened {
                    output::json_head(&mut piece, plan.kind.name, index);
                    piece.extend_from_slice(b",\"solutions\":[");
                    opened = true;
                } else {
                    piece.push(b',');
                }
                output::write_answer_json_of(&mut piece, answer);
                out.write_all(&piece)
            };
            catch_unwind(AssertUnwindSafe(|| {
                solve::solve_on_clock(
                    plan,
                    clock_started,
                    instance,
                    shared,
                    listener,
                    Some(&mut emit),
                )
            }))
            .unwrap_or_else(|payload| Err(Failure::Internal(panic_message(&*payload))))
        };
        let run = match run {
            Ok(run) => run,
            Err(failure) => {
                // Never half a JSON line: the solutions already listed are closed into a whole
                // object, without a status (the error line says what happened).
                if opened {
                    out.write_all(b"]}\n")?;
                }
                return Err(failure);
            }
        };
        let mut line = Vec::new();
        if opened {
            line.push(b']');
        } else {
            output::json_head(&mut line, plan.kind.name, index);
        }
        output::json_rest(&mut line, &run, opened);
        out.write_all(&line)?;
        return Ok(run);
    }
    if options.json {
        let run = solve::solve_on_clock(plan, clock_started, instance, shared, listener, None)?;
        out.write_all(&output::json_line(plan.kind.name, index, &run))?;
        return Ok(run);
    }
    if several {
        writeln!(out, "% {} instance {index}", plan.kind.name)?;
    }
    let run = {
        let mut emit = |answer: &Answer| output::write_answer(out, answer);
        solve::solve_on_clock(
            plan,
            clock_started,
            instance,
            shared,
            listener,
            Some(&mut emit),
        )?
    };
    output::write_text(out, &run, options.stats)?;
    Ok(run)
}

/// `cpsolve tour`: every puzzle's built-in example, solved and shown.
fn tour(
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
    environment: Environment,
) -> Result<(), Failure> {
    let mut options = options.clone();
    // The tour must be quick: no example may hold it up for long.
    if options.time_limit.is_none() {
        options.time_limit = Some(Duration::from_secs(10));
    }
    let mut progress = options
        .verbose
        .then(|| Progress::new(environment.stderr_is_terminal, err, puzzles::all().len()));
    let mut first_failure = None;
    for kind in puzzles::all() {
        if !options.json {
            writeln!(out, "% === {}: {}", kind.name, kind.summary)?;
        }
        let result = input::load(kind, &Source::Seed, &mut io::empty())
            .map_err(Failure::Input)
            .and_then(|instances| {
                // Each example counts its own -t.
                solve_all(kind, &instances, &options, out, progress.as_mut(), None)
            });
        if !options.json {
            writeln!(out)?;
        }
        match result {
            Ok(()) => {}
            Err(Failure::Io(e)) => return Err(Failure::Io(e)),
            Err(f) => {
                // Go on with the other puzzles; report the first failure at the end.
                first_failure.get_or_insert(f);
            }
        }
    }
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    match first_failure {
        None => Ok(()),
        Some(f) => Err(f),
    }
}
