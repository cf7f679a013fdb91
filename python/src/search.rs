//! # Solve, count, and stream the solutions of a model built from Python
//!
//! Each entry point copies the model (so that it can be solved again, with other options),
//! builds the engine's [`SearchConfig`], and runs the engine's own search: [`engine::search`]
//! for one solution, an optimum or every solution; [`engine::search::portfolio::race`] when
//! several threads look for one answer; [`engine::count_parallel`] to count on several
//! threads (the command line's `--count -p N`). Their verdict is the engine's
//! [`engine::Status`], spelt as MiniZinc and the command line's JSON spell it.
//!
//! [`SolutionStream`] is the one new piece: the search runs on a thread of its own and hands
//! each solution over a bounded channel, so that a Python generator can take them one by one
//! however many there are (the search waits while the channel is full: memory stays flat).

use crate::interrupt::run_interruptible;
use crate::model::NativeModel;
use engine::search::portfolio;
use engine::{Control, Goal, Limits, Model, Outcome, SearchConfig, Solution};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Solutions a stream holds before the search waits for the reader.
const STREAM_BUFFER: usize = 64;

/// The search of `model`, with a time limit in seconds and a stop flag.
fn config(
    model: &NativeModel,
    time_limit: Option<f64>,
    seed: Option<u64>,
    stop: &Arc<AtomicBool>,
) -> PyResult<SearchConfig> {
    let deadline = match time_limit {
        None => None,
        Some(t) if t.is_finite() && t >= 0.0 => {
            Some(Instant::now() + Duration::from_secs_f64(t.min(1e9)))
        }
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "time_limit must be a number of seconds >= 0, not {t}"
            )))
        }
    };
    Ok(SearchConfig {
        objective: model.objective,
        seed: seed.unwrap_or(0),
        limits: Limits {
            deadline,
            stop: Some(stop.clone()),
            ..Limits::default()
        },
        ..SearchConfig::default()
    })
}

/// The statistics as a dict: the engine's counters, the time in seconds, and one entry per
/// kind of propagator.
fn stats<'py>(py: Python<'py>, outcome: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let s = &outcome.stats;
    let d = PyDict::new_bound(py);
    d.set_item("nodes", s.nodes)?;
    d.set_item("failures", s.failures)?;
    d.set_item("propagations", s.propagations)?;
    d.set_item("solutions", outcome.solutions)?;
    d.set_item("restarts", s.restarts)?;
    d.set_item("peak_depth", s.peak_depth)?;
    d.set_item("time", s.time.as_secs_f64())?;
    let kinds = PyList::empty_bound(py);
    for (name, c) in &outcome.profile.by_kind {
        let k = PyDict::new_bound(py);
        k.set_item("name", *name)?;
        k.set_item("instances", c.instances)?;
        k.set_item("calls", c.calls)?;
        k.set_item("prunings", c.prunings)?;
        k.set_item("removed", c.removed)?;
        k.set_item("failures", c.failures)?;
        kinds.append(k)?;
    }
    d.set_item("propagators", kinds)?;
    Ok(d)
}

/// What a finished search gives back to Python.
fn result<'py>(
    py: Python<'py>,
    outcome: &Outcome,
    goal: Goal,
    listed: Option<Vec<Vec<i32>>>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new_bound(py);
    d.set_item("status", outcome.status(goal).as_str())?;
    d.set_item("values", outcome.best.as_ref().map(|s| s.values.clone()))?;
    d.set_item("objective", outcome.objective)?;
    d.set_item("solutions", listed)?;
    d.set_item("stats", stats(py, outcome)?)?;
    Ok(d)
}

/// A model with a constraint that was false when posted: nothing to search.
fn unsatisfiable(model: &NativeModel) -> Option<Outcome> {
    model.unsatisfiable.then(|| Outcome {
        complete: true,
        ..Outcome::default()
    })
}

/// Solve `model`: its first solution, its optimum (when it has an objective), or with
/// `all_solutions` every solution (every improving one, for an optimisation). Returns the
/// result and the exception a Ctrl-C raised, if one did.
#[pyfunction]
#[pyo3(signature = (model, time_limit=None, threads=1, all_solutions=false, seed=None))]
pub(crate) fn solve<'py>(
    py: Python<'py>,
    model: &NativeModel,
    time_limit: Option<f64>,
    threads: usize,
    all_solutions: bool,
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyDict>, Option<PyErr>)> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut config = config(model, time_limit, seed, &stop)?;
    let goal = match (model.objective.is_some(), all_solutions) {
        (true, _) => Goal::Optimise,
        (false, true) => Goal::Enumerate,
        (false, false) => Goal::Satisfy,
    };
    if goal == Goal::Satisfy {
        config.solution_limit = Some(1);
    }
    if let Some(outcome) = unsatisfiable(model) {
        let listed = all_solutions.then(Vec::new);
        return Ok((result(py, &outcome, goal, listed)?, None));
    }
    let mut engine_model: Model = model.model.clone();
    let threads = threads.max(1);
    let ((outcome, listed), interrupt) = run_interruptible(py, &stop, move || {
        if threads > 1 && !all_solutions {
            let configs = portfolio::diversify(&config, threads);
            return (portfolio::race(&engine_model, &configs), None);
        }
        let mut listed: Vec<Vec<i32>> = Vec::new();
        let outcome = engine::search(
            &mut engine_model,
            &config,
            &mut engine::search::NoListener,
            &mut |s: &Solution| {
                if all_solutions {
                    listed.push(s.values.clone());
                }
                Control::Continue
            },
        );
        (outcome, all_solutions.then_some(listed))
    })?;
    Ok((result(py, &outcome, goal, listed)?, interrupt))
}

/// Count the solutions of `model` (its objective ignored), on `threads` threads.
#[pyfunction]
#[pyo3(signature = (model, threads=1, time_limit=None))]
pub(crate) fn count<'py>(
    py: Python<'py>,
    model: &NativeModel,
    threads: usize,
    time_limit: Option<f64>,
) -> PyResult<(Bound<'py, PyDict>, Option<PyErr>)> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut config = config(model, time_limit, None, &stop)?;
    config.objective = None;
    if let Some(outcome) = unsatisfiable(model) {
        let d = result(py, &outcome, Goal::Count, None)?;
        d.set_item("count", 0)?;
        return Ok((d, None));
    }
    let engine_model: Model = model.model.clone();
    let threads = threads.max(1);
    let (outcome, interrupt) = run_interruptible(py, &stop, move || {
        if threads > 1 {
            engine::count_parallel(&engine_model, &config, threads)
        } else {
            let mut m = engine_model;
            engine::count(&mut m, &config)
        }
    })?;
    let d = result(py, &outcome, Goal::Count, None)?;
    d.set_item("count", outcome.solutions)?;
    Ok((d, interrupt))
}

/// What the search thread of a stream sends.
enum Message {
    Solution(Vec<i32>),
    Done(Outcome),
}

/// The solutions of a model, one by one, as the search finds them (an iterator).
#[pyclass(module = "cpsolve._native")]
pub struct SolutionStream {
    receiver: Option<Receiver<Message>>,
    stop: Arc<AtomicBool>,
    goal: Goal,
    /// The verdict and statistics, once the search is over.
    #[pyo3(get)]
    finished: Option<PyObject>,
}

/// Stream the solutions of `model` (every one, or the improving ones of an optimisation),
/// at most `limit`.
#[pyfunction]
#[pyo3(signature = (model, limit=None, time_limit=None, seed=None))]
pub(crate) fn solutions(
    model: &NativeModel,
    limit: Option<u64>,
    time_limit: Option<f64>,
    seed: Option<u64>,
) -> PyResult<SolutionStream> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut config = config(model, time_limit, seed, &stop)?;
    config.solution_limit = limit;
    let goal = if model.objective.is_some() {
        Goal::Optimise
    } else {
        Goal::Enumerate
    };
    let (sender, receiver): (SyncSender<Message>, _) = mpsc::sync_channel(STREAM_BUFFER);
    if let Some(outcome) = unsatisfiable(model) {
        let _ = sender.send(Message::Done(outcome));
    } else if limit == Some(0) {
        let _ = sender.send(Message::Done(Outcome::default()));
    } else {
        let mut engine_model: Model = model.model.clone();
        std::thread::spawn(move || {
            let outcome = engine::search(
                &mut engine_model,
                &config,
                &mut engine::search::NoListener,
                &mut |s: &Solution| match sender.send(Message::Solution(s.values.clone())) {
                    Ok(()) => Control::Continue,
                    // The reader is gone: stop.
                    Err(_) => Control::Stop,
                },
            );
            let _ = sender.send(Message::Done(outcome));
        });
    }
    Ok(SolutionStream {
        receiver: Some(receiver),
        stop,
        goal,
        finished: None,
    })
}

#[pymethods]
impl SolutionStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next solution's values (by variable index), or the end.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Vec<i32>>> {
        loop {
            let Some(receiver) = self.receiver.take() else {
                return Ok(None);
            };
            // The receiver goes into the GIL-free wait and comes back.
            let (message, receiver) = py.allow_threads(move || {
                let m = receiver.recv_timeout(crate::interrupt::SLICE);
                (m, receiver)
            });
            match message {
                Ok(Message::Solution(values)) => {
                    self.receiver = Some(receiver);
                    return Ok(Some(values));
                }
                Ok(Message::Done(outcome)) => {
                    self.finished =
                        Some(result(py, &outcome, self.goal, None)?.into_any().unbind());
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.receiver = Some(receiver);
                    if let Err(e) = py.check_signals() {
                        self.close();
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// Stop the search (the stream ends).
    fn close(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.receiver = None;
    }
}

impl Drop for SolutionStream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}
