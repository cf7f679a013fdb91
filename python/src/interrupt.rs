//! # A search on another thread, stopped by Ctrl-C
//!
//! Python runs signal handlers only between bytecodes, on the main thread: while a native
//! call runs, Ctrl-C is only noted. So the search runs on a worker thread with the GIL
//! released (other Python threads go on), and the calling thread waits for it in short
//! slices; between two slices it asks Python whether a signal came (`check_signals`, which
//! runs the handler: for Ctrl-C, it raises `KeyboardInterrupt`). If one did, it sets the
//! engine's stop flag ([`engine::Limits::stop`]); the search notices it within a few nodes
//! and returns what it found, as if a time limit had passed — the same path as the command
//! line's SIGINT (cli/src/signals.rs). The caller gets both: the result and the exception.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How often the waiting thread looks for a signal.
pub(crate) const SLICE: Duration = Duration::from_millis(20);

/// Run `work` on a worker thread with the GIL released; on Ctrl-C (any exception raised by
/// a signal handler), set `stop` and wait for `work` to return. Returns `work`'s result and
/// the exception, if a signal raised one. A panic in `work` becomes a `RuntimeError`.
pub(crate) fn run_interruptible<T: Send>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(work));
            let _ = sender.send(result);
        });
        let mut interrupt: Option<PyErr> = None;
        let mut receiver = receiver;
        loop {
            // The receiver goes into the GIL-free wait and comes back (it is not `Sync`).
            let (message, back) = py.allow_threads(move || {
                let m = receiver.recv_timeout(SLICE);
                (m, receiver)
            });
            receiver = back;
            match message {
                Ok(Ok(result)) => return Ok((result, interrupt)),
                Ok(Err(payload)) => {
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".to_string());
                    return Err(PyRuntimeError::new_err(format!(
                        "internal error in the engine: {what} (a bug in cpsolve: please report it with the model)"
                    )));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if interrupt.is_none() {
                        if let Err(e) = py.check_signals() {
                            stop.store(true, Ordering::SeqCst);
                            interrupt = Some(e);
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "the search thread ended without an answer",
                    ))
                }
            }
        }
    })
}
