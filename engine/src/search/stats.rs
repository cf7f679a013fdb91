//! # Search statistics: what the search did
//!
//! [`SearchStats`] counts the search tree: nodes (decisions taken), failures (dead ends),
//! solutions, restarts, the deepest level reached, the time. It is filled by listening to
//! the search's events (see `events.rs`), like any other listener: the search loop itself
//! keeps no counters.

use super::events::{SearchEvent, SearchListener};
use std::time::Duration;

/// Counters of one search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Decisions applied (left and right branches).
    pub nodes: u64,
    /// Nodes whose propagation failed.
    pub failures: u64,
    pub solutions: u64,
    pub restarts: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Deepest search level reached.
    pub peak_depth: u64,
    pub time: Duration,
    /// Nogoods learned from failures (with `SearchConfig::learn`), and their total size
    /// in atoms.
    pub nogoods: u64,
    pub nogood_atoms: u64,
    /// Backjumps: failures after which the search closed levels without trying their right
    /// branches, back to the level where the nogood learned imposes something.
    pub backjumps: u64,
    /// Node probing (`probing.rs`): values tried, variables not tried because nothing
    /// around them had changed since their last probe, and (with learning) refuted tries
    /// analysed into a nogood.
    pub probes: u64,
    pub probes_skipped: u64,
    pub probes_learned: u64,
}

impl SearchStats {
    /// Add the counters of another (parallel) search; the time is the caller's to set.
    pub fn add(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.solutions += other.solutions;
        self.restarts += other.restarts;
        self.propagations += other.propagations;
        self.peak_depth = self.peak_depth.max(other.peak_depth);
        self.nogoods += other.nogoods;
        self.nogood_atoms += other.nogood_atoms;
        self.backjumps += other.backjumps;
        self.probes += other.probes;
        self.probes_skipped += other.probes_skipped;
        self.probes_learned += other.probes_learned;
    }
}

impl SearchListener for SearchStats {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        match event {
            SearchEvent::Branch { depth, .. } => {
                self.nodes += 1;
                self.peak_depth = self.peak_depth.max(*depth as u64);
            }
            SearchEvent::Failure { .. } => self.failures += 1,
            SearchEvent::Solution { .. } => self.solutions += 1,
            SearchEvent::Restart { .. } => self.restarts += 1,
            SearchEvent::Backjump { .. } => self.backjumps += 1,
            // Counted from the nogood store when the search ends (deleted ones included).
            SearchEvent::Nogood { .. } => {}
        }
    }
}
