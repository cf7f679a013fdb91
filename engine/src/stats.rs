//! # Statistics: what the propagators did
//!
//! The search tree's own figures (nodes, failures, ...) are `search::stats::SearchStats`,
//! filled by listening to the search's events. [`PropagatorProfile`] counts, per propagator, how often it ran, how often it
//! pruned, how many values it removed, how many failures it found and, only when profiling
//! is switched on, how long it took: the figures an engineer needs to see where time goes.

use std::collections::BTreeMap;

/// Counters of one propagator (or, summed, of one kind of propagator).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PropagatorCounters {
    /// Number of propagators summed here (1 for a single propagator).
    pub instances: u64,
    /// Times it ran.
    pub calls: u64,
    /// Runs that removed at least one value.
    pub prunings: u64,
    /// Values removed.
    pub removed: u64,
    /// Runs that found a conflict.
    pub failures: u64,
    /// Time spent in it, in nanoseconds (0 unless profiling is on).
    pub time_ns: u64,
}

impl PropagatorCounters {
    pub fn add(&mut self, o: &PropagatorCounters) {
        self.instances += o.instances;
        self.calls += o.calls;
        self.prunings += o.prunings;
        self.removed += o.removed;
        self.failures += o.failures;
        self.time_ns += o.time_ns;
    }
}

/// The profile of a whole run: counters per propagator kind (its `name`), sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PropagatorProfile {
    pub by_kind: BTreeMap<&'static str, PropagatorCounters>,
}

impl PropagatorProfile {
    pub fn add(&mut self, other: &PropagatorProfile) {
        for (name, c) in &other.by_kind {
            self.by_kind.entry(name).or_default().add(c);
        }
    }

    /// A plain-text table, one line per kind, for `-s`.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{:<22} {:>9} {:>12} {:>12} {:>12} {:>10} {:>10}\n",
            "propagator", "instances", "calls", "prunings", "removed", "failures", "time_ms"
        );
        for (name, c) in &self.by_kind {
            out.push_str(&format!(
                "{:<22} {:>9} {:>12} {:>12} {:>12} {:>10} {:>10.3}\n",
                name,
                c.instances,
                c.calls,
                c.prunings,
                c.removed,
                c.failures,
                c.time_ns as f64 / 1e6
            ));
        }
        out
    }
}
