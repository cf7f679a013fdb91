//! # Interrupting propagation: a time limit that holds inside a node
//!
//! A search reads the clock between nodes. That is not enough: one node's propagation can
//! run for minutes (a chain of 100,000 `x < y` at the root moves one bound one step per
//! propagator run, some 10^9 runs), and one propagator call can be long too (`regular` over
//! a line of thousands of cells, a linear over 10^5 terms). So the work itself polls.
//!
//! **The stop check.** A [`StopCheck`] is a deadline and a flag another thread (a signal
//! handler) may set. The search installs its limits' check in the store
//! ([`crate::Model::set_stop_check`]) for as long as it runs. Reading the clock costs tens of
//! nanoseconds, more than a cheap propagator run, so nobody reads it every time:
//!
//! * the fixpoint loop polls once every [`RUNS_BETWEEN_POLLS`] propagator runs (its run
//!   counter already exists: the test is one mask and one branch per run);
//! * a long propagator counts its own work with [`crate::Context::work`] (one unit: a cell
//!   of a layered graph, a term of a sum) and the store polls once every
//!   [`WORK_BETWEEN_POLLS`] units.
//!
//! **Interrupted is not failed.** Once a poll finds the deadline past (or the flag set), the
//! store remembers it: `Context::work` returns `Err`, the propagator returns at once, and the
//! fixpoint returns `Err` *with the store marked interrupted*. Whoever receives that `Err`
//! must ask [`crate::Model::is_interrupted`] before reading it as a conflict: the search
//! ends as at a limit ("limit reached", the best known answer, never `UNSATISFIABLE`, never
//! a count with a subtree missing). Without a check installed nothing is ever interrupted, so
//! every other caller of `propagate` keeps its meaning.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Propagator runs between two polls of the fixpoint loop (a power of two: a mask tests it).
pub const RUNS_BETWEEN_POLLS: u64 = 1 << 12;

/// Units of propagator work ([`crate::Context::work`]) between two polls.
pub const WORK_BETWEEN_POLLS: u32 = 1 << 16;

/// When to stop: a deadline, a flag set from outside (SIGINT, SIGTERM), or both.
#[derive(Clone, Debug, Default)]
pub struct StopCheck {
    pub deadline: Option<Instant>,
    pub flag: Option<Arc<AtomicBool>>,
}

impl StopCheck {
    /// A check that can fire (it has a deadline or a flag), or `None`.
    pub fn new(deadline: Option<Instant>, flag: Option<Arc<AtomicBool>>) -> Option<StopCheck> {
        (deadline.is_some() || flag.is_some()).then_some(StopCheck { deadline, flag })
    }

    /// Is it time to stop? (Reads the clock: call it rarely.)
    pub fn is_due(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// What the store keeps for interruption: the installed check, the work left before the next
/// poll, and whether a poll has fired.
#[derive(Clone, Debug)]
pub(crate) struct Interrupt {
    check: Option<StopCheck>,
    work_left: u32,
    fired: bool,
}

impl Default for Interrupt {
    fn default() -> Self {
        Interrupt {
            check: None,
            work_left: WORK_BETWEEN_POLLS,
            fired: false,
        }
    }
}

impl Interrupt {
    /// Install `check` (or none), forgetting an earlier interruption; returns the check
    /// installed before.
    pub(crate) fn set(&mut self, check: Option<StopCheck>) -> Option<StopCheck> {
        std::mem::replace(
            self,
            Interrupt {
                check,
                ..Interrupt::default()
            },
        )
        .check
    }

    /// Has a poll found the deadline past or the flag set?
    #[inline]
    pub(crate) fn fired(&self) -> bool {
        self.fired
    }

    /// Count `units` of work; poll when the budget is spent. True once interrupted.
    #[inline]
    pub(crate) fn work(&mut self, units: u32) -> bool {
        match self.work_left.checked_sub(units) {
            Some(left) if left > 0 => {
                self.work_left = left;
                self.fired
            }
            _ => self.poll(),
        }
    }

    /// Read the clock and the flag now. True once interrupted.
    #[cold]
    #[inline(never)]
    pub(crate) fn poll(&mut self) -> bool {
        self.work_left = WORK_BETWEEN_POLLS;
        if !self.fired {
            self.fired = self.check.as_ref().is_some_and(StopCheck::is_due);
        }
        self.fired
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn fires_only_with_a_check_that_is_due() {
        let mut none = Interrupt::default();
        assert!(!none.poll() && !none.work(WORK_BETWEEN_POLLS * 2));

        let mut later = Interrupt::default();
        later.set(StopCheck::new(
            Some(Instant::now() + Duration::from_secs(3600)),
            None,
        ));
        assert!(!later.poll());

        let flag = Arc::new(AtomicBool::new(false));
        let mut signalled = Interrupt::default();
        signalled.set(StopCheck::new(None, Some(flag.clone())));
        assert!(!signalled.work(WORK_BETWEEN_POLLS));
        flag.store(true, Ordering::Relaxed);
        // Noticed at the next poll, not before: work is counted, the clock read rarely.
        assert!(!signalled.work(1));
        assert!(signalled.work(WORK_BETWEEN_POLLS));
        assert!(signalled.fired() && signalled.work(1), "it stays fired");
        signalled.set(None);
        assert!(
            !signalled.fired(),
            "a new check forgets the old interruption"
        );

        let mut past = Interrupt::default();
        past.set(StopCheck::new(Some(Instant::now()), None));
        assert!(past.poll());
    }
}
