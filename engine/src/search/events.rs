//! # Search events and listeners
//!
//! The search announces what it does — a branch taken, a failure (and which propagator found
//! it), a solution, a restart — as [`SearchEvent`]s to [`SearchListener`]s. Statistics are one
//! listener (`stats.rs`); [`TraceWriter`] is another, writing one JSON object per line so that
//! a search tree or an animation can be drawn from the file afterwards. A listener that is not
//! there costs nothing.

use super::brancher::Decision;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// Something the search did.
#[derive(Clone, Copy, Debug)]
pub enum SearchEvent<'a> {
    /// A decision was applied at `depth` (1 = first decision below the root).
    Branch {
        depth: usize,
        decision: &'a Decision,
        left: bool,
    },
    /// Propagation failed at `depth`; `propagator` names who found the conflict.
    Failure {
        depth: usize,
        propagator: Option<&'static str>,
    },
    /// Solution number `number` (1-based), with its objective value if optimising.
    Solution { number: u64, objective: Option<i64> },
    /// Restart number `number`, after `failures` failures in the last run.
    Restart { number: u64, failures: u64 },
}

/// Receives search events.
pub trait SearchListener {
    fn on_event(&mut self, event: &SearchEvent<'_>);

    /// A search running on other threads (parallel counting) reports its shared counters,
    /// a few times a second. Most listeners ignore it.
    fn on_progress(&mut self, _progress: &Progress) {}

    /// Does this listener want the events at all? The search asks once, and when the answer
    /// is no it neither builds the events for it nor calls it (a few dozen instructions per
    /// node, which on n-queens is a few per cent of the time).
    fn listens(&self) -> bool {
        true
    }
}

/// A listener that ignores everything.
#[derive(Debug, Default)]
pub struct NoListener;

impl SearchListener for NoListener {
    fn on_event(&mut self, _event: &SearchEvent<'_>) {}

    fn listens(&self) -> bool {
        false
    }
}

/// Writes every event as a JSON line: `{"event":"branch","depth":3,"var":12,"op":"=","value":4,"left":true}`.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    out: W,
    /// The first write error, if any (tracing never stops the search).
    pub error: Option<std::io::Error>,
}

impl<W: Write> TraceWriter<W> {
    pub fn new(out: W) -> TraceWriter<W> {
        TraceWriter { out, error: None }
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> SearchListener for TraceWriter<W> {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        if self.error.is_some() {
            return;
        }
        let line = match event {
            SearchEvent::Branch { depth, decision, left } => format!(
                "{{\"event\":\"branch\",\"depth\":{},\"var\":{},\"op\":\"{}\",\"value\":{},\"left\":{}}}",
                depth,
                decision.var.0,
                decision.op.symbol(),
                decision.value,
                left
            ),
            SearchEvent::Failure { depth, propagator } => match propagator {
                Some(p) => format!("{{\"event\":\"failure\",\"depth\":{depth},\"propagator\":\"{p}\"}}"),
                None => format!("{{\"event\":\"failure\",\"depth\":{depth},\"propagator\":null}}"),
            },
            SearchEvent::Solution { number, objective } => match objective {
                Some(o) => format!("{{\"event\":\"solution\",\"number\":{number},\"objective\":{o}}}"),
                None => format!("{{\"event\":\"solution\",\"number\":{number}}}"),
            },
            SearchEvent::Restart { number, failures } => {
                format!("{{\"event\":\"restart\",\"number\":{number},\"failures\":{failures}}}")
            }
        };
        if let Err(e) = writeln!(self.out, "{line}") {
            self.error = Some(e);
        }
    }
}

/// Counters readable from any thread.
#[derive(Debug)]
pub struct Progress {
    pub nodes: AtomicU64,
    pub failures: AtomicU64,
    pub solutions: AtomicU64,
    pub restarts: AtomicU64,
    /// Parallel counting: subproblems finished and in total (0 = not split).
    pub subproblems_done: AtomicU64,
    pub subproblems_total: AtomicU64,
    /// Best objective value so far (valid when `has_objective`).
    pub best_objective: AtomicI64,
    pub has_objective: AtomicBool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            nodes: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            solutions: AtomicU64::new(0),
            restarts: AtomicU64::new(0),
            subproblems_done: AtomicU64::new(0),
            subproblems_total: AtomicU64::new(0),
            best_objective: AtomicI64::new(0),
            has_objective: AtomicBool::new(false),
        }
    }
}

impl Progress {
    /// The best objective so far, if any.
    pub fn best(&self) -> Option<i64> {
        self.has_objective
            .load(Ordering::Relaxed)
            .then(|| self.best_objective.load(Ordering::Relaxed))
    }
}
