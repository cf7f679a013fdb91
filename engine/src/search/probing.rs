//! # Probing: try each value, keep what every try agrees on
//!
//! Propagation looks at one constraint at a time. **Probing** looks further, at the price of a
//! small search: for a variable `x` with few values, try each value `x = v` in turn, propagate
//! it to the fixpoint, and undo it. Two things follow, both implied by the constraints alone:
//!
//! 1. a value whose try fails can never be part of a solution: remove it (a *failed literal*,
//!    in SAT words; Freuder's singleton consistency on that value);
//! 2. a value that another variable `y` keeps in **no** surviving try cannot be part of a
//!    solution either, since every solution gives `x` one of the tried values: remove it from
//!    `y` too (what the nonogram champions call *fully probing*, Wu et al. 2013, and
//!    constructive disjunction in CP).
//!
//! Removals wake the propagators, which may make other tries fail, so probing repeats in
//! rounds until a whole round removes nothing (a fixpoint), or the limits stop it. After that
//! fixpoint every value of a probed variable survives its own try: the probed variables are
//! singleton arc consistent (Debruyne & Bessière 1997).
//!
//! Probing never removes a solution, so counts stay exact. It costs one propagation per value
//! of each probed variable per round: worth it at the root of puzzles whose propagators are
//! weak together (nonograms, where two lines each allow a cell both ways but not together),
//! rarely at every node.

use super::Limits;
use crate::model::Model;
use crate::store::VarId;
use crate::Conflict;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The largest domain whose values the tries are compared on (rule 2 of the header).
const COMPARED_SIZE: u32 = 64;

/// What probing did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeStats {
    /// Values tried (`x = v` propagated and undone).
    pub probes: u64,
    /// Values removed from the domains, in all.
    pub removed: u64,
    /// Rounds over the variables (the last one removed nothing, unless stopped).
    pub rounds: u64,
    /// Stopped by the limits before the fixpoint (what was removed still holds).
    pub stopped: bool,
}

/// How probing ended.
pub type ProbeResult = Result<ProbeStats, Conflict>;

/// Probe every variable of `vars` with at least two and at most `max_size` values, in rounds
/// until a round removes nothing. Call it on a model at its root fixpoint (after
/// `Model::propagate`); it leaves the model at a fixpoint. `Err` means the model has no
/// solution. The limits' deadline and stop flag are checked between tries.
pub fn probe(model: &mut Model, vars: &[VarId], max_size: u32, limits: &Limits) -> ProbeResult {
    let mut stats = ProbeStats::default();
    loop {
        stats.rounds += 1;
        let removed_before = stats.removed;
        for &x in vars {
            if stopped(limits) {
                stats.stopped = true;
                return Ok(stats);
            }
            let size = model.size(x);
            if size >= 2 && size <= max_size {
                probe_variable(model, x, &mut stats)?;
            }
        }
        if stats.removed == removed_before {
            return Ok(stats);
        }
    }
}

fn stopped(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
}

/// Try each value of `x`; remove the values whose try fails, then the values of every other
/// variable that no surviving try kept.
fn probe_variable(model: &mut Model, x: VarId, stats: &mut ProbeStats) -> Result<(), Conflict> {
    let values: Vec<i32> = model.domain(x).iter().collect();
    // The variables whose values the tries are compared on: the unfixed ones with few values
    // (listing a wide domain at every try would cost more than the try).
    let compared: Vec<VarId> = (0..model.num_vars())
        .map(|i| VarId(i as u32))
        .filter(|&y| y != x && (2..=COMPARED_SIZE).contains(&model.size(y)))
        .collect();
    // For each compared variable, the values some surviving try kept (`None`: no try
    // survived yet).
    let mut kept: Option<Vec<Vec<i32>>> = None;
    let mut failed = Vec::new();
    for v in values {
        stats.probes += 1;
        let checkpoint = model.checkpoint();
        let outcome = model.fix(x, v).and_then(|()| model.propagate());
        if outcome.is_ok() {
            let domains = domains_of(model, &compared);
            kept = Some(match kept {
                None => domains,
                Some(union) => union
                    .into_iter()
                    .zip(domains)
                    .map(|(a, b)| sorted_union(&a, &b))
                    .collect(),
            });
        } else {
            failed.push(v);
        }
        model.rollback(checkpoint);
    }
    for v in failed {
        model.remove(x, v)?;
        stats.removed += 1;
    }
    // No try survived: the removals above emptied x, and `remove` said so.
    let kept = kept.expect("a surviving try, or a conflict above");
    for (&y, values) in compared.iter().zip(&kept) {
        let gone: Vec<i32> = model
            .domain(y)
            .iter()
            .filter(|v| values.binary_search(v).is_err())
            .collect();
        for v in gone {
            model.remove(y, v)?;
            stats.removed += 1;
        }
    }
    model.propagate()
}

/// The values of each of `vars`, in order.
fn domains_of(model: &Model, vars: &[VarId]) -> Vec<Vec<i32>> {
    vars.iter()
        .map(|&y| model.domain(y).iter().collect())
        .collect()
}

/// The values of two sorted lists, sorted, each once.
fn sorted_union(a: &[i32], b: &[i32]) -> Vec<i32> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(_), Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!(),
        };
        out.push(next);
    }
    out
}
