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
//!
//! **Skipping what did not change.** Most of a node's tries repeat its parent's: the
//! decision changed a few domains, and a variable none of whose neighbours (the variables
//! of the propagators it is in) changed would, most likely, try as before. So each probed
//! variable remembers the level of its last probe and the sum of its neighbours' domain
//! sizes then ([`ProbeMemory`]); below that level (the same branch, where domains only
//! shrink) an equal sum means nothing around it changed, and it is not tried again. This
//! gives up a little of the fixpoint (a change further away, or a new nogood, can still
//! change a try) for far fewer tries; what is removed stays implied, so counts stay exact.
//! A propagator over more than half of the probed variables (one that spans the board) is
//! left out of the neighbourhoods: with it every variable would be every variable's
//! neighbour, and a change anywhere would mean a new try everywhere.
//!
//! **Branching on what the tries did.** The tries of a 0/1 variable say how much each
//! value would settle: the number of variables its propagation changed. With
//! [`NodeProbing::scored`] the search branches on the variable whose two tries both changed
//! most (`probe_scores.rs`: the look-ahead rule of SAT solvers such as march, and what the
//! nonogram champions do after fully probing) instead of asking its brancher, in every run
//! or in turns with the brancher across restarts. A variable skipped at this node keeps the
//! counts of its last probe on the branch.
//!
//! **Keeping what the tries imply.** With [`NodeProbing::implications`], a try of
//! `x = a` that fixes `y = b` leaves the implication `y = ¬b → x = ¬a` behind when the try
//! of `y = ¬b` did not see it, kept while the node's level is open, and each later try is
//! closed over the implications kept (`probe_implications.rs`: a 2-SAT closure, as the
//! nonogram programs after Wu et al. do). Kept from every node, or only from the nodes
//! near the root (the root of each run: what it finds holds for the whole search). Off by
//! default; without learning only.
//!
//! **With learning** (`dfs.rs` implements [`Tries`]): each try is a level of its own with
//! its value recorded as a decision, and a try that fails is analysed like any failure: the
//! nogood it teaches is kept and prunes everywhere, not only `x ≠ v` at this node. Its
//! propagation at the node imposes the negation of its unique implication point; when that
//! is not `x ≠ v` itself, a later round tries `x = v` again and fails sooner, until it is.
//! Rule 2 needs an explanation of a disjunction over the tries, which the learning has no
//! cause for yet: a learning search keeps to rule 1.

use super::probe_implications::ProbeImplications;
use super::probe_scores::{branching_of_run, ScoreBranching, TryCounts};
use super::Limits;
use crate::model::{Checkpoint, Model};
use crate::store::{LevelStamp, VarId};
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
    /// For each of `vars`, its neighbours: the variables of the propagators it is in
    /// (itself included). Empty: every variable is tried at every node (no skipping).
    pub neighbours: Vec<Vec<VarId>>,
    /// Branch on the unfixed 0/1 variable of `vars` whose tries changed most (the header,
    /// "Branching on what the tries did", and `probe_scores.rs`) instead of the brancher's
    /// choice: run number `k` of the search by `scored[k % scored.len()]`, the brancher's
    /// choice where that is `None`; empty: the brancher always.
    pub scored: Vec<Option<ScoreBranching>>,
    /// Keep the implications the tries find at the nodes at most this deep (0: the root of
    /// each run only; `usize::MAX`: every node), and close every try over the implications
    /// kept (`probe_implications.rs`: a 2-SAT closure over the 0/1 variables of `vars`);
    /// `None`: none kept.
    pub implications: Option<usize>,
}

impl NodeProbing {
    /// Probe `vars` (in order of their size in `model` now, smallest first) while they have
    /// at most `max_size` values, skipping a variable whose neighbours did not change since
    /// its last probe on the same branch.
    pub fn new(model: &Model, vars: &[VarId], max_size: u32) -> NodeProbing {
        let mut vars = vars.to_vec();
        vars.sort_by_key(|&x| model.size(x));
        let widest = vars.len() / 2;
        let neighbours = vars
            .iter()
            .map(|&x| neighbours_of(model, x, widest))
            .collect();
        NodeProbing {
            vars,
            max_size,
            max_depth: None,
            neighbours,
            scored: Vec::new(),
            implications: None,
        }
    }

    /// The same, keeping the implications the tries find at every node
    /// (`probe_implications.rs`) if `keep`.
    pub fn keeping_implications(self, keep: bool) -> NodeProbing {
        self.keeping_implications_to_depth(keep.then_some(usize::MAX))
    }

    /// The same, keeping the implications the tries find at the nodes at most `depth` deep
    /// (none if `None`).
    pub fn keeping_implications_to_depth(mut self, depth: Option<usize>) -> NodeProbing {
        self.implications = depth;
        self
    }

    /// The same, branching on the tries' scores (the product, value 0 first).
    pub fn branching_on_scores(self) -> NodeProbing {
        self.branching_by(ScoreBranching::default())
    }

    /// The same, branching on the tries' scores as `scored` says.
    pub fn branching_by(self, scored: ScoreBranching) -> NodeProbing {
        self.taking_turns(vec![Some(scored)])
    }

    /// The same, each run of the search branching by the next of `turns` (`None`: the
    /// brancher's choice), cycling.
    pub fn taking_turns(mut self, turns: Vec<Option<ScoreBranching>>) -> NodeProbing {
        self.scored = turns;
        self
    }

    /// The branching on the scores of run number `run`, if that run branches on them.
    pub(crate) fn scored_in_run(&self, run: u64) -> Option<&ScoreBranching> {
        branching_of_run(&self.scored, run)
    }

    /// Try every variable at every node, as if nothing were remembered (to measure what
    /// skipping saves).
    pub fn without_skipping(mut self) -> NodeProbing {
        self.neighbours.clear();
        self
    }
}

/// `x` and the variables of every propagator that watches `x` and at most `widest`
/// variables. A propagator over more (Star Battle's bands, Flow Free's `circuit`, spanning
/// the whole board) would put every variable in every neighbourhood: any change anywhere
/// would count as a change around each variable, and nothing would ever be skipped.
fn neighbours_of(model: &Model, x: VarId, widest: usize) -> Vec<VarId> {
    let propagation = &model.propagation;
    let mut around = vec![x];
    for p in propagation.watchers_of(x) {
        let subscriptions = propagation.propagator(p).subscriptions();
        if subscriptions.len() > widest {
            continue;
        }
        around.extend(subscriptions.iter().map(|s| s.var));
    }
    around.sort_unstable();
    around.dedup();
    around
}

/// What node probing remembers from node to node: for each probed variable (by its index in
/// [`NodeProbing::vars`]), the level of its last probe and the sum of its neighbours'
/// domain sizes before it; and what it did.
#[derive(Clone, Debug, Default)]
pub struct ProbeMemory {
    last: Vec<Option<(LevelStamp, u64)>>,
    /// For each probed variable, the variables each of its two tries changed in its last
    /// probe where both survived; `None` if none.
    counts: Vec<Option<TryCounts>>,
    /// The implications kept on the branch, with [`NodeProbing::implications`].
    implications: Option<ProbeImplications>,
    pub stats: ProbeStats,
}

impl ProbeMemory {
    /// The implications kept on the branch (with [`NodeProbing::implications`]).
    pub fn implications(&self) -> Option<&ProbeImplications> {
        self.implications.as_ref()
    }

    /// The unfixed variable of `probing` (of two values) with the best score, if any has
    /// one, and its value to try first: what to branch on under `scored`.
    pub(crate) fn best_scored(
        &self,
        model: &Model,
        probing: &NodeProbing,
        scored: &ScoreBranching,
    ) -> Option<(VarId, i32)> {
        scored.choose(model, &probing.vars, &self.counts)
    }

    fn record_counts(&mut self, probing: &NodeProbing, i: usize, counts: TryCounts) {
        if self.counts.len() < probing.vars.len() {
            self.counts.resize(probing.vars.len(), None);
        }
        self.counts[i] = Some(counts);
    }

    /// Is variable number `i` of `probing` to be tried now? Yes unless its last probe ran at
    /// a level still open (this node or one above it on the branch) and its neighbours'
    /// sizes have not changed since. Remembers this look as its last probe when it says yes.
    fn changed_since_last_probe(&mut self, model: &Model, probing: &NodeProbing, i: usize) -> bool {
        let Some(around) = probing.neighbours.get(i) else {
            return true;
        };
        if self.last.len() < probing.vars.len() {
            self.last.resize(probing.vars.len(), None);
        }
        let sizes: u64 = around.iter().map(|&y| model.size(y) as u64).sum();
        if let Some((stamp, before)) = self.last[i] {
            if model.store.is_open(&stamp) && before == sizes {
                self.stats.skipped += 1;
                return false;
            }
        }
        self.last[i] = Some((model.store.level_stamp(), sizes));
        true
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
    /// At nodes: variables not tried because nothing around them changed
    /// ([`ProbeMemory`]).
    pub skipped: u64,
    /// With learning: tries refuted and analysed, each leaving a nogood.
    pub learned: u64,
    /// With [`NodeProbing::implications`]: implications kept, in all.
    pub implications: u64,
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
    let mut tries = Plain::new(model);
    let mut each = |_: &mut Plain<'_>, _: usize| true;
    let mut scored = |_: usize, _: TryCounts| {};
    probe_to_fixpoint(
        &mut tries,
        vars,
        max_size,
        &stop,
        (&mut each, &mut scored),
        None,
        &mut stats,
    )?;
    Ok(stats)
}

/// Probing at one search node `depth` decisions deep: [`probe`] on the variables of
/// `probing`, to the fixpoint, unless the node is deeper than `probing.max_depth`, skipping
/// the variables `memory` says nothing changed around. What it removes is undone when the
/// search leaves the node (it is made at the node's level). `Err` is a failed node, or an
/// interruption (`Model::is_interrupted`: the stop check installed by the search fired
/// inside a try; then nothing was removed on its account).
pub fn probe_node(
    model: &mut Model,
    probing: &NodeProbing,
    memory: &mut ProbeMemory,
    depth: usize,
) -> Result<(), Conflict> {
    probe_node_with(&mut Plain::new(model), probing, memory, depth)
}

/// [`probe_node`] with the tries run by `tries` (the search's, when it learns).
pub(crate) fn probe_node_with(
    tries: &mut impl Tries,
    probing: &NodeProbing,
    memory: &mut ProbeMemory,
    depth: usize,
) -> Result<(), Conflict> {
    if probing.max_depth.is_some_and(|d| depth > d) {
        return Ok(());
    }
    let mut stats = std::mem::take(&mut memory.stats);
    let mut implied = probing.implications.map(|_| {
        std::mem::take(&mut memory.implications)
            .unwrap_or_else(|| ProbeImplications::new(tries.model(), &probing.vars))
    });
    if let Some(graph) = implied.as_mut() {
        graph.recording = probing.implications.is_some_and(|deepest| depth <= deepest);
        graph.forget_closed_levels(tries.model());
    }
    let memory_cell = std::cell::RefCell::new(&mut *memory);
    let mut each = |tries: &mut _, i: usize| -> bool {
        let model: &Model = Tries::model(tries);
        memory_cell
            .borrow_mut()
            .changed_since_last_probe(model, probing, i)
    };
    let mut scored = |i: usize, counts: TryCounts| {
        if !probing.scored.is_empty() {
            memory_cell.borrow_mut().record_counts(probing, i, counts);
        }
    };
    // The search's stop check polls the limits inside each try's propagation.
    let result = probe_to_fixpoint(
        tries,
        &probing.vars,
        probing.max_size,
        &|| false,
        (&mut each, &mut scored),
        implied.as_mut(),
        &mut stats,
    );
    stats.skipped += memory.stats.skipped;
    if let Some(graph) = implied {
        stats.implications = graph.found;
        memory.implications = Some(graph);
    }
    memory.stats = stats;
    result
}

/// Where the tries run: the model alone ([`Plain`]), or the search with its learning
/// (`dfs.rs`), which records each try's value as a decision and learns from a refuted one.
pub(crate) trait Tries {
    fn model(&mut self) -> &mut Model;
    /// Open a level, impose `x = v` there (`v` is in the domain), and propagate. The level
    /// stays open until [`Tries::close`].
    fn open(&mut self, x: VarId, v: i32) -> Result<(), Conflict>;
    /// Close the level of the last try, undoing it.
    fn close(&mut self);
    /// The try just opened failed with `conflict`, its level still open. Without learning
    /// `None`: the caller closes the level and removes the value. With learning: the
    /// failure is analysed and its nogood kept, the level closed, and the nogood propagated
    /// at the node; `Ok(true)` if that changed the node's domains, `Err` if the node fails.
    fn refuted(&mut self, conflict: Conflict) -> Option<Result<bool, Conflict>>;
    /// Does [`Tries::refuted`] learn (then rule 2 is not applied)?
    fn learns(&self) -> bool;
}

/// The tries of probing without learning: checkpoints of the model.
pub(crate) struct Plain<'m> {
    model: &'m mut Model,
    open: Option<Checkpoint>,
}

impl<'m> Plain<'m> {
    fn new(model: &'m mut Model) -> Plain<'m> {
        Plain { model, open: None }
    }
}

impl Tries for Plain<'_> {
    fn model(&mut self) -> &mut Model {
        self.model
    }
    fn open(&mut self, x: VarId, v: i32) -> Result<(), Conflict> {
        self.open = Some(self.model.checkpoint());
        self.model.fix(x, v).and_then(|()| self.model.propagate())
    }
    fn close(&mut self) {
        let checkpoint = self.open.take().expect("a try open");
        self.model.rollback(checkpoint);
    }
    fn refuted(&mut self, _: Conflict) -> Option<Result<bool, Conflict>> {
        None
    }
    fn learns(&self) -> bool {
        false
    }
}

/// The loop of [`probe`]: probe the variables in turn, cycling, until `vars.len()` of them
/// in a row removed nothing (a whole cycle since the last removal) or `stop` says so.
/// `changed(tries, i)`: is variable number `i` worth trying now (else it counts as quiet)?
/// `scored(i, counts)`: variable number `i`'s two tries both survived, changing so many.
#[allow(clippy::type_complexity)]
fn probe_to_fixpoint<T: Tries>(
    tries: &mut T,
    vars: &[VarId],
    max_size: u32,
    stop: &dyn Fn() -> bool,
    (changed, scored): (
        &mut dyn FnMut(&mut T, usize) -> bool,
        &mut dyn FnMut(usize, TryCounts),
    ),
    implied: Option<&mut ProbeImplications>,
    stats: &mut ProbeStats,
) -> Result<(), Conflict> {
    let mut quiet = 0;
    // The implications are kept only without learning (they have no explanation).
    let mut implied = implied.filter(|_| !tries.learns());
    let node = tries.model().store.level_stamp();
    let mut in_pass = 0;
    if let Some(graph) = implied.as_deref_mut() {
        graph.begin_pass();
    }
    while !vars.is_empty() {
        stats.rounds += 1;
        // Rule 2 compares the tries, which a learning search cannot explain (the header).
        let compared = match tries.learns() {
            true => Compared::none(),
            false => Compared::of(tries.model()),
        };
        for (i, &x) in vars.iter().enumerate() {
            if stop() {
                stats.stopped = true;
                return Ok(());
            }
            let removed_before = stats.removed;
            let size = tries.model().size(x);
            let again = implied.as_deref_mut().is_some_and(|g| g.take_retry(i));
            if size >= 2 && size <= max_size && (changed(tries, i) || again) {
                let graph = implied.as_deref_mut();
                if let Some(counts) = probe_variable(tries, x, &compared, graph, stats)? {
                    scored(i, counts);
                }
            }
            quiet = if stats.removed == removed_before {
                quiet + 1
            } else {
                0
            };
            // A whole pass of tries seen: keep the implications they found (a new one
            // makes its premise's variable worth trying again, so the fixpoint waits).
            in_pass += 1;
            if in_pass >= vars.len() || quiet >= vars.len() {
                in_pass = 0;
                if let Some(graph) = implied.as_deref_mut() {
                    if graph.end_pass(node) > 0 {
                        quiet = 0;
                    }
                    graph.begin_pass();
                }
            }
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
    /// For each variable of the model, its index in `vars`, or `NOT_COMPARED`.
    index: Vec<u32>,
}

/// The `index` of a variable not compared.
const NOT_COMPARED: u32 = u32::MAX;

impl Compared {
    /// Nothing compared: rule 2 is not applied.
    fn none() -> Compared {
        Compared {
            vars: Vec::new(),
            base: Vec::new(),
            index: Vec::new(),
        }
    }

    fn of(model: &Model) -> Compared {
        let (mut vars, mut base) = (Vec::new(), Vec::new());
        let mut index = vec![NOT_COMPARED; model.num_vars()];
        for (i, slot) in index.iter_mut().enumerate() {
            let y = VarId(i as u32);
            let (lo, hi) = (model.min(y), model.max(y));
            if lo < hi && (hi as i64 - lo as i64) < COMPARED_SPAN as i64 {
                *slot = vars.len() as u32;
                vars.push(y);
                base.push(lo);
            }
        }
        Compared { vars, base, index }
    }

    /// The compared variables the try now open changed (by their index in `vars`), with
    /// the values each keeps in the try. A variable the try left alone keeps all its values,
    /// so only these can lose one to rule 2.
    fn changed_by_try(&self, model: &Model) -> Vec<(usize, u64)> {
        let changed = model.store.changed_at_this_level();
        let compared = changed.filter_map(|y| match self.index.get(y.index()) {
            Some(&k) if k != NOT_COMPARED => Some(k as usize),
            _ => None,
        });
        compared.map(|k| (k, self.mask(model, k))).collect()
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
/// variable that no surviving try kept. (With learning, a failed try is learned from at
/// once, and its nogood, propagated at the node, does the removing.) When `x` had two
/// values and both tries survived, returns how many variables each changed (the header).
fn probe_variable(
    tries: &mut impl Tries,
    x: VarId,
    compared: &Compared,
    mut implied: Option<&mut ProbeImplications>,
    stats: &mut ProbeStats,
) -> Result<Option<TryCounts>, Conflict> {
    let values: Vec<i32> = tries.model().domain(x).iter().collect();
    // The values some surviving try kept, for each compared variable the first surviving
    // try changed (`None`: no try survived yet); the others lose nothing.
    let mut kept: Option<Vec<(usize, u64)>> = None;
    let mut failed = Vec::new();
    let two_values = values.len() == 2;
    // The variables each surviving try changed, in the order of `values`.
    let mut changed = [0u32; 2];
    for (n, v) in values.into_iter().enumerate() {
        // With learning, a refuted try whose nogood changed the node but left `v` is tried
        // again: it fails sooner, and its nogood's implication point is nearer `x = v`.
        while tries.model().contains(x, v) {
            stats.probes += 1;
            let opened = tries
                .open(x, v)
                .and_then(|()| match implied.as_deref_mut() {
                    Some(graph) => graph.close_try(tries.model()),
                    None => Ok(()),
                });
            match opened {
                Ok(()) => {
                    let model: &Model = tries.model();
                    if let Some(graph) = implied.as_deref_mut() {
                        graph.note_try(model, x, v);
                    }
                    if n < 2 {
                        changed[n] = model.store.changed_count_at_this_level() as u32;
                    }
                    match kept.as_mut() {
                        None => kept = Some(compared.changed_by_try(model)),
                        Some(union) => {
                            for (k, bits) in union.iter_mut() {
                                *bits |= compared.mask(model, *k);
                            }
                        }
                    }
                    tries.close();
                    break;
                }
                // A try cut short by the stop check refutes nothing: give up at once.
                Err(conflict) if tries.model().is_interrupted() => {
                    tries.close();
                    return Err(conflict);
                }
                Err(conflict) => match tries.refuted(conflict) {
                    None => {
                        tries.close();
                        failed.push(v);
                        break;
                    }
                    Some(learned) => {
                        stats.learned += 1;
                        if !learned? {
                            break;
                        }
                        stats.removed += 1;
                    }
                },
            }
        }
    }
    let score = (two_values && failed.is_empty()).then_some(TryCounts {
        low: changed[0],
        high: changed[1],
    });
    if tries.learns() {
        return Ok(score);
    }
    let model = tries.model();
    for v in failed {
        model.remove(x, v)?;
        stats.removed += 1;
    }
    // No try survived: the removals above emptied x, and `remove` said so.
    let kept = kept.expect("a surviving try, or a conflict above");
    for (k, kept_bits) in kept {
        let y = compared.vars[k];
        if y == x {
            continue;
        }
        let mut gone = compared.mask(model, k) & !kept_bits;
        while gone != 0 {
            model.remove(y, compared.base[k] + gone.trailing_zeros() as i32)?;
            stats.removed += 1;
            gone &= gone - 1;
        }
    }
    model.propagate().map(|()| score)
}
