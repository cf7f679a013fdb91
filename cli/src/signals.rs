//! # SIGINT and SIGTERM: stop the search, keep what it found
//!
//! A MiniZinc solver is stopped by a signal as a matter of course (the IDE's stop button, a
//! cluster's time limit, Ctrl-C), and it is expected to print what it has: the best solution
//! so far, the count so far with status `UNKNOWN`, the statistics. So a signal here does not
//! end the process: it sets the engine's stop flag ([`engine::Limits::stop`]), the search
//! notices it within a few nodes and returns as if a time limit had passed, and the run
//! prints its verdict with whole lines as usual.
//!
//! A second signal of either kind ends the process (the default action: killed by that
//! signal), for a run that does not notice the first one soon enough, such as a model still
//! being built. It never cuts a line of the output in two: standard output goes through
//! [`WholeLines`], which knows whether a line is half written; if one is, the process ends as
//! soon as that line is complete instead of at once. A third signal ends it at once even then
//! (a reader that stopped reading would otherwise hold it forever).
//!
//! The handler and the writer meet in one atomic word, `OUTPUT`: a bit saying that a line
//! is open, and the number of a signal waiting for its end. Each side changes it with one
//! atomic operation that also reads what the other side did, so neither can miss the other:
//! the handler either sees no open line (and ends the process) or leaves its signal in the
//! word before the writer closes the line (and the writer ends the process).
//!
//! Any front end can use it (puzzles, FlatZinc, the cluster commands): call [`install`] once
//! at the start of `main`, then give [`stop_flag`] to every search's `Limits`, and look at
//! [`interrupted`] between instances. Without [`install`], [`stop_flag`] is `None` and nothing
//! changes: the library's tests never see a handler.
//!
//! Written by hand over `libc::sigaction` rather than with a crate such as `ctrlc` or
//! `signal-hook`: the handler is a dozen lines, it must do two different things on the first
//! and the second signal, and it needs nothing but atomics. A signal handler may only
//! call async-signal-safe functions: it stores to atomics and, to end the process, calls
//! `signal` and `raise`, nothing else (no allocation, no lock, no printing).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
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

/// The stop flag, created without a handler: for a front end that catches the signals itself
/// and sets the flag (the Python package, which polls Python's own SIGINT handler while the
/// search runs; python/src/interrupt.rs). After this, [`stop_flag`] returns it too.
pub fn stop_flag_without_handler() -> Arc<AtomicBool> {
    STOP.get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone()
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

/// Standard output and the second signal: bit 0 is set while a line is open (some of its
/// bytes have been handed to the output, not yet its newline); bits 8 and up hold the number
/// of a second signal waiting for that line's end (0: none).
static OUTPUT: AtomicU32 = AtomicU32::new(0);
const LINE_OPEN: u32 = 1;
const SIGNAL_SHIFT: u32 = 8;

/// The handler. The first signal sets the stop flag. A second one ends the process at once
/// when no line is open, else leaves its number for [`WholeLines`] to act on at the end of
/// the line; a third one (a signal already waiting) ends the process at once.
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
    loop {
        let state = OUTPUT.load(Ordering::SeqCst);
        if state & LINE_OPEN == 0 || state >> SIGNAL_SHIFT != 0 {
            end_process(signal);
            return;
        }
        let waiting = state | ((signal as u32) << SIGNAL_SHIFT);
        if OUTPUT
            .compare_exchange(state, waiting, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
        // The writer changed the word in between (it closed the line): look again.
    }
}

/// End the process by `signal`, as if no handler had been installed. Inside the handler the
/// signal is blocked, so it is delivered (and kills) as soon as the handler returns; outside,
/// at once.
#[cfg(unix)]
fn end_process(signal: libc::c_int) {
    // SAFETY: `signal` and `raise` are async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// The most bytes of an unfinished line [`WholeLines`] holds back; a longer line (a JSON
/// listing of many solutions) is written as it comes, and stays open until its newline.
const MAX_HELD: usize = 1 << 16;

/// A writer that hands its output on in whole lines whenever it can, and tells the signal
/// handler whether a line is open (see the module's header). `main` puts it around standard
/// output; the library's tests write to vectors and never need it.
///
/// It keeps back the bytes after the last newline it was given (up to [`MAX_HELD`]), so what
/// has reached the output ends with a newline except while a very long line is written.
#[derive(Debug)]
pub struct WholeLines<W: Write> {
    inner: W,
    held: Vec<u8>,
}

impl<W: Write> WholeLines<W> {
    pub fn new(inner: W) -> WholeLines<W> {
        WholeLines {
            inner,
            held: Vec::new(),
        }
    }

    /// Write what is held, leaving the line open: it does not end with a newline.
    fn write_held_open(&mut self) -> io::Result<()> {
        OUTPUT.fetch_or(LINE_OPEN, Ordering::SeqCst);
        self.inner.write_all(&self.held)?;
        self.held.clear();
        Ok(())
    }

    /// Write what is held, then `lines` (which ends with a newline), and close the line; a
    /// second signal that waited for it ends the process now.
    fn write_closing(&mut self, lines: &[u8]) -> io::Result<()> {
        OUTPUT.fetch_or(LINE_OPEN, Ordering::SeqCst);
        self.inner.write_all(&self.held)?;
        self.held.clear();
        self.inner.write_all(lines)?;
        self.inner.flush()?;
        let state = OUTPUT.fetch_and(!LINE_OPEN, Ordering::SeqCst);
        #[cfg(unix)]
        if state >> SIGNAL_SHIFT != 0 {
            end_process((state >> SIGNAL_SHIFT) as libc::c_int);
        }
        Ok(())
    }
}

impl<W: Write> Write for WholeLines<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                self.write_closing(&bytes[..=last])?;
                self.held.extend_from_slice(&bytes[last + 1..]);
            }
            None => self.held.extend_from_slice(bytes),
        }
        if self.held.len() > MAX_HELD {
            self.write_held_open()?;
        }
        Ok(bytes.len())
    }

    /// Everything held goes out (at the end of the run the last line is complete).
    fn flush(&mut self) -> io::Result<()> {
        if !self.held.is_empty() {
            self.write_held_open()?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines come out whole, whatever the pieces they were written in; a line longer than
    /// what is held goes out as it comes; flush writes the rest.
    #[test]
    fn whole_lines_keep_back_an_unfinished_line() {
        let mut w = WholeLines::new(Vec::new());
        w.write_all(b"ab").unwrap();
        assert!(w.inner.is_empty());
        w.write_all(b"c\nde").unwrap();
        assert_eq!(w.inner, b"abc\n");
        w.write_all(b"f\ng\nh").unwrap();
        assert_eq!(w.inner, b"abc\ndef\ng\n");
        let long = vec![b'x'; MAX_HELD + 10];
        w.write_all(&long).unwrap();
        assert_eq!(w.inner.len(), "abc\ndef\ng\nh".len() + long.len());
        w.write_all(b"\nend").unwrap();
        w.flush().unwrap();
        let mut expected = b"abc\ndef\ng\nh".to_vec();
        expected.extend_from_slice(&long);
        expected.extend_from_slice(b"\nend");
        assert_eq!(w.inner, expected);
        assert_eq!(OUTPUT.load(Ordering::SeqCst) >> SIGNAL_SHIFT, 0);
    }
}
