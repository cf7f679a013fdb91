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
//! weak together (nonograms, where two lines each allow a cell both ways but not together).
//!
//! **At every node.** The same rounds can run at each node of the search, after the node's
//! propagation ([`probe_node`], called by `dfs.rs` when the configuration holds a
//! [`NodeProbing`]). What they remove is made at the node's level, so the trail undoes it
//! when the search leaves the node; a value removed there has no solution *below that node*,
//! so counts stay exact too. The nonogram tournament programs do this (Wu et al.'s "fully
//! probing"); here it saves many nodes but costs a whole round of tries per node
//! (`docs/performance/probing.md`).

use super::Limits;
use crate::model::Model;
use crate::store::VarId;
use crate::Conflict;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The widest span (largest minus smallest value) of a domain whose values the tries are
/// compared on (rule 2 of the header): one bit per value in a 64-bit word.
const COMPARED_SPAN: i32 = 64;

/// Where probing runs: the `--probe-at` of the command line, and what a puzzle declares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProbeAt {
    /// No probing.
    #[default]
    Off,
    /// Once, at the root, before the search ([`probe`]).
    Root,
    /// At every node of the search, the root included ([`probe_node`]).
    Nodes,
}

impl std::str::FromStr for ProbeAt {
    type Err = String;
    fn from_str(s: &str) -> Result<ProbeAt, String> {
        match s {
            "off" => Ok(ProbeAt::Off),
            "root" => Ok(ProbeAt::Root),
            "nodes" => Ok(ProbeAt::Nodes),
            _ => Err(format!("expected off, root or nodes, found '{s}'")),
        }
    }
}

/// Probing at the search's nodes: which variables, up to which size. The search
/// (`dfs.rs`) calls [`probe_node`] after each node's propagation when its configuration
/// holds one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeProbing {
    /// The variables probed, those with two values first (0/1 cells: one try refuted fixes
    /// the cell).
    pub vars: Vec<VarId>,
    /// Only the variables with at most this many values left are probed.
    pub max_size: u32,
    /// Only the nodes at most this deep are probed (the root is depth 0); `None`: every
    /// node. The nodes near the root are few and their subtrees large: there probing pays
    /// best for its cost.
    pub max_depth: Option<usize>,
}

impl NodeProbing {
    /// Probe `vars` (in order of their size in `model` now, smallest first) while they have
    /// at most `max_size` values.
    pub fn new(model: &Model, vars: &[VarId], max_size: u32) -> NodeProbing {
        let mut vars = vars.to_vec();
        vars.sort_by_key(|&x| model.size(x));
        NodeProbing {
            vars,
            max_size,
            max_depth: None,
        }
    }
}

/// What probing did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeStats {
    /// Values tried (`x = v` propagated and undone).
    pub probes: u64,
    /// Values removed from the domains, in all.
    pub removed: u64,
    /// Rounds over the variables begun (the last one ends once a whole cycle of the
    /// variables removed nothing, unless stopped).
    pub rounds: u64,
    /// Stopped by the limits before the fixpoint (what was removed still holds).
    pub stopped: bool,
}

/// How probing ended.
pub type ProbeResult = Result<ProbeStats, Conflict>;

/// Probe every variable of `vars` with at least two and at most `max_size` values, in rounds
/// until a whole cycle of the variables removes nothing. Call it on a model at its root
/// fixpoint (after `Model::propagate`); it leaves the model at a fixpoint. `Err` means the
/// model has no solution. The limits' deadline and stop flag are checked between tries.
pub fn probe(model: &mut Model, vars: &[VarId], max_size: u32, limits: &Limits) -> ProbeResult {
    let mut stats = ProbeStats::default();
    let stop = || stopped(limits);
    probe_to_fixpoint(model, vars, max_size, &stop, &mut stats)?;
    Ok(stats)
}

/// Probing at one search node `depth` decisions deep: [`probe`] on the variables of
/// `probing`, to the fixpoint, unless the node is deeper than `probing.max_depth`.
/// What it removes is undone when the search leaves the node (it is made at the node's
/// level). `Err` is a failed node, or an interruption (`Model::is_interrupted`: the stop
/// check installed by the search fired inside a try; then nothing was removed on its
/// account).
pub fn probe_node(model: &mut Model, probing: &NodeProbing, depth: usize) -> Result<(), Conflict> {
    if probing.max_depth.is_some_and(|d| depth > d) {
        return Ok(());
    }
    let mut stats = ProbeStats::default();
    // The search's stop check polls the limits inside each try's propagation.
    probe_to_fixpoint(
        model,
        &probing.vars,
        probing.max_size,
        &|| false,
        &mut stats,
    )
}

/// The loop of [`probe`]: probe the variables in turn, cycling, until `vars.len()` of them
/// in a row removed nothing (a whole cycle since the last removal) or `stop` says so.
fn probe_to_fixpoint(
    model: &mut Model,
    vars: &[VarId],
    max_size: u32,
    stop: &dyn Fn() -> bool,
    stats: &mut ProbeStats,
) -> Result<(), Conflict> {
    let mut quiet = 0;
    while !vars.is_empty() {
        stats.rounds += 1;
        let compared = Compared::of(model);
        for &x in vars {
            if stop() {
                stats.stopped = true;
                return Ok(());
            }
            let removed_before = stats.removed;
            let size = model.size(x);
            if size >= 2 && size <= max_size {
                probe_variable(model, x, &compared, stats)?;
            }
            quiet = if stats.removed == removed_before {
                quiet + 1
            } else {
                0
            };
            if quiet >= vars.len() {
                return Ok(());
            }
        }
    }
    Ok(())
}

fn stopped(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The variables whose values the tries are compared on, each with its smallest value: the
/// unfixed ones whose values fit in one word (listing a wide domain at every try would cost
/// more than the try). Taken once per round; a variable fixed since is compared harmlessly
/// (every try keeps its one value).
struct Compared {
    vars: Vec<VarId>,
    base: Vec<i32>,
}

impl Compared {
    fn of(model: &Model) -> Compared {
        let (mut vars, mut base) = (Vec::new(), Vec::new());
        for i in 0..model.num_vars() {
            let y = VarId(i as u32);
            let (lo, hi) = (model.min(y), model.max(y));
            if lo < hi && (hi as i64 - lo as i64) < COMPARED_SPAN as i64 {
                vars.push(y);
                base.push(lo);
            }
        }
        Compared { vars, base }
    }

    /// The values left to the `k`-th compared variable, one bit each from its base.
    fn mask(&self, model: &Model, k: usize) -> u64 {
        let (base, y) = (self.base[k], self.vars[k]);
        let (lo, hi) = (model.min(y), model.max(y));
        if (hi - lo + 1) as u32 == model.size(y) {
            // An interval (every 0/1 variable): its bits at once.
            let width = (hi - lo + 1) as u32;
            return (u64::MAX >> (64 - width)) << (lo - base);
        }
        (model.domain(y).iter()).fold(0, |m, v| m | 1u64 << (v - base))
    }
}

/// Try each value of `x`; remove the values whose try fails, then the values of every other
/// variable that no surviving try kept.
fn probe_variable(
    model: &mut Model,
    x: VarId,
    compared: &Compared,
    stats: &mut ProbeStats,
) -> Result<(), Conflict> {
    let values: Vec<i32> = model.domain(x).iter().collect();
    // For each compared variable, the values some surviving try kept (`None`: no try
    // survived yet).
    let mut kept: Option<Vec<u64>> = None;
    let mut failed = Vec::new();
    for v in values {
        stats.probes += 1;
        let checkpoint = model.checkpoint();
        let outcome = model.fix(x, v).and_then(|()| model.propagate());
        match outcome {
            Ok(()) => {
                let union = kept.get_or_insert_with(|| vec![0; compared.vars.len()]);
                for (k, bits) in union.iter_mut().enumerate() {
                    *bits |= compared.mask(model, k);
                }
            }
            // A try cut short by the stop check refutes nothing: give up at once.
            Err(conflict) if model.is_interrupted() => {
                model.rollback(checkpoint);
                return Err(conflict);
            }
            Err(_) => failed.push(v),
        }
        model.rollback(checkpoint);
    }
    for v in failed {
        model.remove(x, v)?;
        stats.removed += 1;
    }
    // No try survived: the removals above emptied x, and `remove` said so.
    let kept = kept.expect("a surviving try, or a conflict above");
    for (k, &y) in compared.vars.iter().enumerate() {
        if y == x {
            continue;
        }
        let gone = compared.mask(model, k) & !kept[k];
        for bit in 0..COMPARED_SPAN {
            if gone & (1u64 << bit) != 0 {
                model.remove(y, compared.base[k] + bit)?;
                stats.removed += 1;
            }
        }
    }
    model.propagate()
}
