//! # SIGINT and SIGTERM: stop the search, keep what it found
//!
//! A MiniZinc solver is stopped by a signal as a matter of course (the IDE's stop button, a
//! cluster's time limit, Ctrl-C), and it is expected to print what it has: the best solution
//! so far, the count so far with status `UNKNOWN`, the statistics. So a signal here does not
//! end the process: it sets the engine's stop flag ([`engine::Limits::stop`]), the search
//! notices it within a few nodes and returns as if a time limit had passed, and the run
//! prints its verdict with whole lines as usual.
//!
//! A second signal of either kind ends the process at once (the default action), for a run
//! that does not notice the first one soon enough, such as a model still being built.
//!
//! Any front end can use it (puzzles, FlatZinc, the cluster commands): call [`install`] once
//! at the start of `main`, then give [`stop_flag`] to every search's `Limits`, and look at
//! [`interrupted`] between instances. Without [`install`], [`stop_flag`] is `None` and nothing
//! changes: the library's tests never see a handler.
//!
//! Written by hand over `libc::sigaction` rather than with a crate such as `ctrlc` or
//! `signal-hook`: the handler is a dozen lines, it must do two different things on the first
//! and the second signal, and it needs nothing but an atomic flag. A signal handler may only
//! call async-signal-safe functions: it stores to atomics and, the second time, calls
//! `signal` and `raise`, nothing else (no allocation, no lock, no printing).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};

/// The stop flag handed to the searches; set by the first signal.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The number of the first signal received (0: none yet).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Catch SIGINT and SIGTERM from now on. Calling it again does nothing. Returns the flag that
/// the first signal sets.
pub fn install() -> Arc<AtomicBool> {
    let mut first_call = false;
    let flag = STOP
        .get_or_init(|| {
            first_call = true;
            Arc::new(AtomicBool::new(false))
        })
        .clone();
    if first_call {
        #[cfg(unix)]
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: `on_signal` is an `extern "C" fn(c_int)` that only touches atomics and
            // calls async-signal-safe functions; the `sigaction` struct is fully initialised.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
    flag
}

/// The flag to put in a search's `Limits::stop`: `None` when no handler is installed.
pub fn stop_flag() -> Option<Arc<AtomicBool>> {
    STOP.get().cloned()
}

/// Has a signal asked the run to stop? (Then start no new instance.)
pub fn interrupted() -> bool {
    STOP.get().is_some_and(|flag| flag.load(Ordering::Relaxed))
}

/// The name of the signal that stopped the run, if one did.
pub fn received() -> Option<&'static str> {
    match RECEIVED.load(Ordering::Relaxed) {
        0 => None,
        #[cfg(unix)]
        libc::SIGINT => Some("SIGINT"),
        #[cfg(unix)]
        libc::SIGTERM => Some("SIGTERM"),
        _ => Some("a signal"),
    }
}

/// The handler. The first signal sets the stop flag; a second one restores the default
/// action and sends itself the signal again, which ends the process.
#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    let first = RECEIVED
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    if first {
        if let Some(flag) = STOP.get() {
            flag.store(true, Ordering::SeqCst);
        }
        return;
    }
    // SAFETY: `signal` and `raise` are async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
