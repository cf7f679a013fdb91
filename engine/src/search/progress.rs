//! # Progress of a long search, shared between threads
//!
//! A search of minutes should say how it is going. [`Progress`] (in `events.rs`, beside the
//! listener that receives it) is a set of atomic counters
//! (nodes, failures, solutions, subproblems done and in total, best objective) that searches
//! update and that another thread — the command line's progress bar — reads at its own pace.
//! Searches update it through a [`ProgressListener`], which batches its counts locally and
//! publishes them every few thousand events, so the shared cache line is touched rarely.

pub use super::events::Progress;
use super::events::{SearchEvent, SearchListener};
use std::sync::atomic::Ordering;

/// Events published to a [`Progress`], in batches.
#[derive(Debug)]
pub struct ProgressListener<'a> {
    progress: &'a Progress,
    nodes: u64,
    failures: u64,
    pending: u32,
}

/// Events between two publications.
const BATCH: u32 = 4096;

impl<'a> ProgressListener<'a> {
    pub fn new(progress: &'a Progress) -> ProgressListener<'a> {
        ProgressListener {
            progress,
            nodes: 0,
            failures: 0,
            pending: 0,
        }
    }

    /// Publish the counts gathered since the last publication.
    pub fn flush(&mut self) {
        self.progress.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.progress
            .failures
            .fetch_add(self.failures, Ordering::Relaxed);
        self.nodes = 0;
        self.failures = 0;
        self.pending = 0;
    }
}

impl Drop for ProgressListener<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

impl SearchListener for ProgressListener<'_> {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        match event {
            SearchEvent::Branch { .. } => self.nodes += 1,
            SearchEvent::Failure { .. } => self.failures += 1,
            SearchEvent::Solution { objective, .. } => {
                self.progress.solutions.fetch_add(1, Ordering::Relaxed);
                if let Some(o) = objective {
                    self.progress.best_objective.store(*o, Ordering::Relaxed);
                    self.progress.has_objective.store(true, Ordering::Relaxed);
                }
            }
            SearchEvent::Restart { .. } => {
                self.progress.restarts.fetch_add(1, Ordering::Relaxed);
            }
            SearchEvent::Nogood { .. } | SearchEvent::Backjump { .. } => {}
        }
        self.pending += 1;
        if self.pending >= BATCH {
            self.flush();
        }
    }
}

/// Two listeners in one: e.g. a trace file and a progress bar.
#[derive(Debug)]
pub struct Both<A, B>(pub A, pub B);

impl<A: SearchListener, B: SearchListener> SearchListener for Both<A, B> {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        self.0.on_event(event);
        self.1.on_event(event);
    }
}
