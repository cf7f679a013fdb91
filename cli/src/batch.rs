//! # The instances of a file, one after another or side by side
//!
//! A puzzle file may hold one instance or ten thousand. [`solve_all`] runs them in file
//! order and prints each verdict as it comes (text, or one JSON line each); with `-p N` and
//! several instances, N workers take chunks of consecutive instances and this thread prints
//! the chunks in file order ([`solve_side_by_side`]): the same bytes as one thread, but the
//! measured times. The trace (`--trace`, `--tree`) and the animation (`--animate`) listen to
//! the searches of a run; both need one search at a time on one thread.

use crate::args::Options;
use crate::error::panic_message;
use crate::progress::Progress;
use crate::solve::{self, InstanceRun, Plan, SharedModels};
use crate::{animate, domains, explain, output, signals, tree, Failure};
use engine::search::{NoListener, SearchEvent, SearchListener, TraceWriter};
use puzzles::{Answer, Instance, PuzzleKind};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

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
    // A count split over threads does not learn: with `--learn`, one thread unless `-p` says.
    let default = if options.learn == Some(true) && options.count {
        1
    } else {
        cores
    };
    options.threads.map_or(default, |n| n.clamp(1, cores))
}

/// Solve every instance of a file, printing each verdict in order. `-t` gives each instance
/// its own budget; the first one's counts from `run_started` (the reading and parsing of the
/// file included), the others' from their own start.
pub(crate) fn solve_all(
    kind: &'static PuzzleKind,
    instances: &[Box<dyn Instance>],
    options: &Options,
    out: &mut dyn Write,
    progress: Option<&mut Progress<'_>>,
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
        let plan = Plan {
            kind,
            options,
            threads: 1,
        };
        return solve_side_by_side(&plan, instances, threads, out, progress, run_started);
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
    let listened = Listened {
        trace: trace.as_mut(),
        animation: animation.as_mut(),
        progress,
    };
    solve_in_order(&plan, instances, run_started, listened, out)?;
    if let (Some(path), Some(recorder)) = (&options.animate, animation) {
        let title = format!("{}: the search, step by step", kind.name);
        std::fs::write(path, recorder.html(&title))
            .map_err(|e| crate::output_files::write_failed("--animate", path, e))?;
    }
    if let Some(mut t) = trace {
        t.file
            .flush()
            .map_err(|e| Failure::Internal(format!("cannot write the trace: {e}")))?;
        t.draw_tree(options)?;
    }
    Ok(())
}

/// What listens to the searches of a run solved in order (each may be off).
struct Listened<'a, 'b> {
    trace: Option<&'a mut Trace>,
    animation: Option<&'a mut animate::Recorder>,
    progress: Option<&'a mut Progress<'b>>,
}

/// The instances one after another on this thread, with the run's listeners and the
/// comment lines of `--show-domains` and `--explain` before each verdict.
fn solve_in_order(
    plan: &Plan<'_>,
    instances: &[Box<dyn Instance>],
    run_started: Option<Instant>,
    mut listened: Listened<'_, '_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let (kind, options) = (plan.kind, plan.options);
    let several = instances.len() > 1;
    let mut shared = SharedModels::default();
    for (i, instance) in instances.iter().enumerate() {
        if signals::interrupted() {
            break;
        }
        let index = i + 1;
        if let Some(t) = listened.trace.as_deref_mut() {
            if several {
                writeln!(
                    t.file,
                    "{{\"event\":\"instance\",\"puzzle\":\"{}\",\"instance\":{index}}}",
                    kind.name
                )?;
            }
        }
        if options.show_domains {
            domains::show(plan, &**instance, several.then_some(index), out)?;
        }
        if let Some(cell) = &options.explain {
            explain::show(plan, &**instance, several.then_some(index), cell, out)?;
        }
        let mut listeners = Listeners {
            trace: listened
                .trace
                .as_deref_mut()
                .map(|t| TraceWriter::new(&mut t.file)),
            progress: listened.progress.as_deref_mut(),
            animation: listened.animation.as_deref_mut(),
        };
        let printed = Printed {
            index,
            several,
            clock_started: (i == 0).then_some(run_started).flatten(),
        };
        let result = solve_and_print(plan, printed, &**instance, &mut shared, &mut listeners, out);
        if let Some(t) = listeners.trace.take() {
            if let Some(e) = t.error {
                return Err(Failure::Internal(format!("cannot write the trace: {e}")));
            }
        }
        result?;
        if let Some(p) = listened.progress.as_deref_mut() {
            p.finish_instance();
        }
    }
    Ok(())
}

/// What a worker sends back for one chunk: the output of the instances it solved, in
/// order, and the failure that stopped it, if one did (the failing instance's own partial
/// output is left out).
struct Chunk {
    text: Vec<u8>,
    solved: usize,
    nodes: u64,
    solutions: u64,
    failure: Option<Failure>,
}

/// Many instances on many threads. Each worker takes the next *chunk* of consecutive
/// instances not yet taken (an atomic counter), searches them one after another on its own
/// shared model, and sends their printed output back in one message; this thread prints the
/// chunks in file order as soon as each one's predecessors are out. The workers are created
/// once per run, not per instance.
///
/// Why chunks: a file of 10,000 easy Sudokus takes about 20 µs a puzzle, and with one message
/// and one turn of the shared counter per puzzle, two threads were slower than one. Why small
/// ones: a hard instance holds up only the rest of its own chunk, and a file of a few dozen
/// instances (16 chunks per thread at least) gets chunks of one.
fn solve_side_by_side(
    plan: &Plan<'_>,
    instances: &[Box<dyn Instance>],
    threads: usize,
    out: &mut dyn Write,
    progress: Option<&mut Progress<'_>>,
    run_started: Option<Instant>,
) -> Result<(), Failure> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::mpsc;

    let chunk_size = (instances.len() / (16 * threads)).clamp(1, 64);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Chunk)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(instances.len()) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
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
                    let chunk = solve_chunk(plan, instances, start..end, run_started, &mut shared);
                    if sender.send((start / chunk_size, chunk)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let outcome = print_in_order(receiver, out, progress);
        if outcome.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        outcome
    })
}

/// The instances `range` of the file (numbered from 0 in the whole file), one after another,
/// their output kept in the chunk; the first failure ends the chunk.
fn solve_chunk(
    plan: &Plan<'_>,
    instances: &[Box<dyn Instance>],
    range: std::ops::Range<usize>,
    run_started: Option<Instant>,
    shared: &mut SharedModels,
) -> Chunk {
    let mut chunk = Chunk {
        text: Vec::with_capacity(512 * range.len()),
        solved: 0,
        nodes: 0,
        solutions: 0,
        failure: None,
    };
    for i in range {
        let mark = chunk.text.len();
        let printed = Printed {
            index: i + 1,
            several: true,
            clock_started: (i == 0).then_some(run_started).flatten(),
        };
        let instance = instances[i].as_ref();
        let result = catch_unwind(AssertUnwindSafe(|| {
            solve_and_print(
                plan,
                printed,
                instance,
                shared,
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
    chunk
}

/// Print the chunks in file order: keep those that arrive early until their turn. The first
/// failure (a chunk's, or a failed write) ends the printing; the chunks still arriving are
/// dropped.
fn print_in_order(
    receiver: std::sync::mpsc::Receiver<(usize, Chunk)>,
    out: &mut dyn Write,
    mut progress: Option<&mut Progress<'_>>,
) -> Result<(), Failure> {
    let mut waiting = std::collections::BTreeMap::new();
    let mut printed = 0;
    for (k, chunk) in receiver.iter() {
        waiting.insert(k, chunk);
        while let Some(chunk) = waiting.remove(&printed) {
            printed += 1;
            let written = out.write_all(&chunk.text).map_err(Failure::from);
            if let Some(p) = progress.as_deref_mut() {
                p.add_finished(chunk.solved, chunk.nodes, chunk.solutions);
            }
            if let Some(f) = written.err().or(chunk.failure) {
                return Err(f);
            }
        }
    }
    Ok(())
}

/// Where an instance's verdict goes in the output: its number in the file, whether the file
/// has several (text mode then heads each with a comment line), and when its `-t` started
/// (`None`: when its search starts).
#[derive(Clone, Copy, Debug)]
struct Printed {
    index: usize,
    several: bool,
    clock_started: Option<Instant>,
}

/// Solve one instance and print its verdict (text or one JSON line).
fn solve_and_print(
    plan: &Plan<'_>,
    printed: Printed,
    instance: &dyn Instance,
    shared: &mut SharedModels,
    listener: &mut dyn SearchListener,
    out: &mut dyn Write,
) -> Result<InstanceRun, Failure> {
    let options = plan.options;
    let Printed {
        index,
        several,
        clock_started,
    } = printed;
    if options.json && options.enumerates() {
        return list_in_json(plan, printed, instance, shared, listener, out);
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

/// `--json` with `-a` or `-n`: the listed solutions are streamed into the line as they are
/// found, so memory stays flat however many there are. The line is closed after the search
/// (a signal or a limit included), with `status` and the rest after `solutions`.
fn list_in_json(
    plan: &Plan<'_>,
    printed: Printed,
    instance: &dyn Instance,
    shared: &mut SharedModels,
    listener: &mut dyn SearchListener,
    out: &mut dyn Write,
) -> Result<InstanceRun, Failure> {
    let mut opened = false;
    let run = {
        let mut emit = |answer: &Answer| {
            let mut piece = Vec::new();
            if !opened {
                output::json_head(&mut piece, plan.kind.name, printed.index);
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
                printed.clock_started,
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
        output::json_head(&mut line, plan.kind.name, printed.index);
    }
    output::json_rest(&mut line, &run, opened);
    out.write_all(&line)?;
    Ok(run)
}
