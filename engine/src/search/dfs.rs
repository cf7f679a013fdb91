//! # Depth-first search with backtracking
//!
//! The loop, in the words of a textbook:
//!
//! ```text
//! propagate the root; if it fails, there is no solution.
//! loop:
//!     pick a decision d (brancher); if there is none, every variable is fixed: a solution.
//!         record it; for optimisation remember its value as the bound to beat; backtrack.
//!     open a level, apply d (the left branch), propagate.
//!     on failure, backtrack:
//!         close the newest level (the trail undoes everything since it was opened),
//!         apply not-d (the right branch) at the level below, re-apply the bound, propagate;
//!         if that fails too, close the next level, and so on; with no level left, the
//!         search is complete.
//! ```
//!
//! The right branch is applied at the parent's level rather than at a new one: once the left
//! subtree is exhausted, `not d` is simply true there. So the stack of open levels is the
//! stack of left decisions, and its size is the depth.
//!
//! Branch and bound: after a solution of objective value `o` (minimising), every node from
//! then on must satisfy `objective <= o - 1`. The bound is re-applied after each backtrack,
//! because closing a level also undoes the bound applied inside it.
//!
//! Limits: every 64 nodes the search reads the clock and the stop flag; inside a node the
//! propagation polls them too (interrupt.rs), and a propagation cut short is no failure: the
//! search ends as at a limit, the tree not exhausted.
//!
//! Learning (`SearchConfig::learn`, learning/): the propagation loop records every change
//! with its cause on a trail, decisions and the bound are recorded here, and at each failure
//! the learner analyses it and stores a nogood, which the nogood store propagates at every
//! node from then on (after each fixpoint of the propagators, until neither changes
//! anything). A nogood is implied by the constraints (and the bound, which only tightens),
//! never by a solution found, so counts stay exact. When counting or listing solutions the
//! search backtracks chronologically; for a first solution or an optimum it backjumps to
//! the level where the new nogood imposes something (`backjump`). Each nogood and each
//! backjump is announced as a search event (events.rs), after the failure's.
//!
//! Restarts: when the failures of the current run exceed the policy's cutoff, every level is
//! closed and the search begins again from the root (which keeps the best bound, the
//! dom/wdeg weights and the random generator's state).
//!
//! Probing at nodes (`probing.rs`): when the configuration asks for it, each node's
//! propagation is followed by a round of tries (`Dfs::probe`); a refutation there fails the
//! node like a conflict.

use super::brancher::{Brancher, Decision, DecisionOp};
use super::events::{SearchEvent, SearchListener};
use super::probing::{ProbeMemory, Tries};
use super::resume::RightBranches;
use super::stats::SearchStats;
use super::{Control, Outcome, SearchConfig, Solution};
use crate::atom::Atom;
use crate::learning::checking::Checker;
use crate::learning::learner::Learner;
use crate::learning::nogoods::NogoodConflict;
use crate::learning::slices::Slices;
use crate::learning::trail::{Cause, Trail};
use crate::model::Model;
use crate::propagator::Propagator;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// One open level: the decision taken there, and whether its variable was primary.
#[derive(Clone, Copy, Debug)]
struct Frame {
    decision: Decision,
    primary: bool,
    /// `x = v` of an n-ary branching ([`crate::ValSelect::EveryValue`]): its other
    /// alternatives are `x = w` for the next values `w`, not `x != v`.
    every_value: bool,
}

/// Why the main loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Exhausted,
    Stopped,
    /// A turn of learning in slices is over (learning/slices.rs): the next one begins.
    Turn,
}

/// State of one search run.
struct Dfs<'a> {
    model: &'a mut Model,
    config: &'a SearchConfig,
    brancher: Brancher,
    stack: Vec<Frame>,
    stats: SearchStats,
    listener: &'a mut dyn SearchListener,
    /// `listener.listens()`, asked once: when false, events only go to `stats`.
    listening: bool,
    /// Best objective value so far.
    bound: Option<i64>,
    best: Option<Solution>,
    solutions: u64,
    failures_since_restart: u64,
    run: u64,
    /// Propagation gave way to the stop check (interrupt.rs): the search stops as at a
    /// limit, and the node it was in is not a failure.
    interrupted: bool,
    /// With `config.learn`: the nogoods and the analysis (the trail is in the model's
    /// propagation, which records on it).
    learner: Option<Box<Learner>>,
    /// With learning, for a first solution or an optimum: the level the last nogood sends
    /// the search back to (see `backjump`).
    backjump_to: Option<usize>,
    /// A better solution was just found and no node has been explored since: each level
    /// the backtracking reaches is first asked whether the new bound alone fails there.
    unwinding: bool,
    /// Node probing's memory from node to node (`probing.rs`, [`ProbeMemory`]).
    probe_memory: ProbeMemory,
    /// Learning in turns with the plain search (learning/slices.rs): the budgets, if this
    /// search takes turns; the turn under way; the failures counted when it began; the
    /// learner put aside during a plain turn; the right branches the plain turn under way
    /// took on its open levels (`resume.rs`); the path where the last plain turn stopped,
    /// with its right branches; and whether the turn has run out.
    slices: Option<Slices>,
    turn: u64,
    turn_began_at: u64,
    parked: Option<Box<Learner>>,
    right_branches: RightBranches,
    plain_path: Vec<Frame>,
    plain_right_branches: RightBranches,
    turn_over: bool,
    /// Checking mode (`config.check_learning`): the domains where the last plain turn
    /// stopped, below its failed node; the resumed path must lie within them.
    plain_stop_domains: Option<Vec<crate::Domain>>,
}

/// Search `model` as `config` says. Every solution is passed to `on_solution`, which may stop
/// the search; every event goes to `listener`. The model is left at its root state.
pub fn search(
    model: &mut Model,
    config: &SearchConfig,
    listener: &mut dyn SearchListener,
    on_solution: &mut dyn FnMut(&Solution) -> Control,
) -> Outcome {
    let started = Instant::now();
    let propagations_before = model.propagation.propagations;
    let brancher = Brancher::from_config(model, config);
    let mut dfs = Dfs {
        model,
        config,
        brancher,
        stack: Vec::new(),
        stats: SearchStats::default(),
        listening: listener.listens(),
        listener,
        bound: None,
        best: None,
        solutions: 0,
        failures_since_restart: 0,
        run: 0,
        interrupted: false,
        learner: None,
        backjump_to: None,
        unwinding: false,
        probe_memory: ProbeMemory::default(),
        // Turns restart the search: a first solution or an optimum only (slices.rs).
        slices: config.learning_slices.filter(|_| {
            config.learn
                && !config.project
                && (config.objective.is_some() || config.solution_limit == Some(1))
        }),
        turn: 0,
        turn_began_at: 0,
        parked: None,
        right_branches: RightBranches::default(),
        plain_path: Vec::new(),
        plain_right_branches: RightBranches::default(),
        turn_over: false,
        plain_stop_domains: None,
    };
    // Propagation itself polls the deadline and the stop flag, so that one long fixpoint or
    // one long propagator call cannot outlast the limits (interrupt.rs).
    let limits = &config.limits;
    let outer_check = dfs
        .model
        .set_stop_check(crate::StopCheck::new(limits.deadline, limits.stop.clone()));
    // The search opens its own root level, so that what it deduces there (the right branches
    // taken at depth 0, the bound) is undone when it returns: the model can be searched again.
    let base_level = dfs.model.store.level();
    // Propagators still to run (a model never propagated at its root) run inside that level;
    // once it is undone they must be waiting again, or the next search would go without
    // them (engine/tests/search_again.rs).
    let pending_at_start = dfs.model.propagation.has_pending();
    // A listener that shows what each node's propagation removed needs the recorder.
    let recording =
        dfs.listening && dfs.listener.wants_removal_counts() && dfs.model.recorder().is_none();
    if recording {
        dfs.model.start_recording(crate::explain::Watched::Nothing);
    }
    dfs.model.store.push_level();
    let end = if dfs.model.propagate().and_then(|()| dfs.probe()).is_err() {
        if dfs.model.is_interrupted() {
            End::Stopped
        } else {
            dfs.fail(None);
            End::Exhausted
        }
    } else {
        if config.learn {
            dfs.start_learning();
        }
        dfs.fixpoint();
        dfs.run_in_turns(on_solution)
    };
    if let Some(learner) = dfs.learner.take().or(dfs.parked.take()) {
        dfs.stats.nogoods = learner.nogoods.learned;
        dfs.stats.nogood_atoms = learner.nogoods.total_size;
        let recorder = dfs.model.propagation.recorder.take();
        dfs.model.propagation.observe(recorder, None);
    }
    // Leave the model as we found it.
    while dfs.model.store.level() > base_level {
        dfs.model.store.pop_level();
    }
    dfs.model.propagation.abandon(&mut dfs.model.store);
    if pending_at_start {
        dfs.model.propagation.schedule_all_from_scratch();
    }
    let _ = dfs.model.set_stop_check(outer_check);
    if recording {
        dfs.model.stop_recording();
    }
    dfs.stats.propagations = dfs.model.propagation.propagations - propagations_before;
    dfs.stats.probes = dfs.probe_memory.stats.probes;
    dfs.stats.probes_skipped = dfs.probe_memory.stats.skipped;
    dfs.stats.probes_learned = dfs.probe_memory.stats.learned;
    dfs.stats.time = started.elapsed();
    Outcome {
        complete: end == End::Exhausted,
        solutions: dfs.solutions,
        objective: dfs.bound,
        best: dfs.best,
        stats: dfs.stats,
        profile: dfs.model.propagation.profile(),
    }
}

impl Dfs<'_> {
    /// The search loop; `LEARN`: learning is on. The loop is compiled twice, and the copy
    /// without learning has no test for it at each node.
    fn run<const LEARN: bool>(&mut self, on_solution: &mut dyn FnMut(&Solution) -> Control) -> End {
        loop {
            if self.limit_reached() {
                return End::Stopped;
            }
            match self.next_decision::<LEARN>() {
                None => {
                    if self.record_solution(on_solution) == Control::Stop {
                        return End::Stopped;
                    }
                    if self.config.project {
                        // One completion of the primary assignment is enough: drop the
                        // alternatives of the secondary decisions.
                        while self.stack.last().is_some_and(|f| !f.primary) {
                            self.stack.pop();
                            self.model.store.pop_level();
                        }
                    }
                    if !self.backtrack::<LEARN>() {
                        return self.end();
                    }
                }
                Some((decision, primary)) => {
                    let every_value = decision.op == DecisionOp::Eq
                        && self.brancher.tries_every_value(self.model, decision.var);
                    self.model.store.push_level();
                    self.stack.push(Frame {
                        decision,
                        primary,
                        every_value,
                    });
                    self.branch(decision, true);
                    let ok = self.apply_decision::<LEARN>(decision) && self.propagate_ok::<LEARN>();
                    if !ok && (self.interrupted || !self.after_failure::<LEARN>()) {
                        return if self.turn_over && !self.interrupted {
                            End::Turn
                        } else {
                            self.end()
                        };
                    }
                }
            }
        }
    }

    /// Propagate; report a failure event if it fails, the fixpoint if it does not. Always
    /// inlined (into the search loop, and `backtrack`): left to itself the compiler stopped
    /// inlining it once `fail` also showed the listener the conflict, and the call was
    /// measurable on n-queens (docs/PERFORMANCE.md, "The removal recorder switched off").
    #[inline(always)]
    fn propagate_ok<const LEARN: bool>(&mut self) -> bool {
        let result = if LEARN {
            self.propagate_with_nogoods()
                .and_then(|()| self.probe_learning())
        } else {
            self.model.propagate().and_then(|()| self.probe())
        };
        match result {
            Ok(()) => {
                self.fixpoint();
                true
            }
            Err(conflict) => {
                if self.model.is_interrupted() {
                    self.interrupted = true;
                } else {
                    self.fail(conflict.propagator);
                }
                false
            }
        }
    }

    /// Probe at this node, after its propagation, if the configuration asks for it
    /// (`probing.rs`): the one hook of probing in the search.
    #[inline(always)]
    fn probe(&mut self) -> Result<(), crate::Conflict> {
        match &self.config.node_probing {
            None => Ok(()),
            Some(probing) => super::probing::probe_node(
                self.model,
                probing,
                &mut self.probe_memory,
                self.stack.len(),
            ),
        }
    }

    /// [`Dfs::probe`] when learning: the tries run through the search ([`Tries`] below),
    /// so that a refuted one is learned from.
    #[inline(always)]
    fn probe_learning(&mut self) -> Result<(), crate::Conflict> {
        let config = self.config;
        let Some(probing) = &config.node_probing else {
            return Ok(());
        };
        let mut memory = std::mem::take(&mut self.probe_memory);
        let depth = self.stack.len();
        let result = super::probing::probe_node_with(self, probing, &mut memory, depth);
        self.probe_memory = memory;
        result
    }

    /// Why the tree walk ended when no level is left to try: the whole tree was seen, unless
    /// propagation was interrupted on the way.
    fn end(&self) -> End {
        if self.interrupted {
            End::Stopped
        } else {
            End::Exhausted
        }
    }

    /// A failed node; `propagator` found the conflict, if one did.
    fn fail(&mut self, propagator: Option<u32>) {
        if self.listening {
            self.show_conflict();
        }
        // The propagator's name is for the listener alone (the statistics only count).
        let listening = self.listening;
        let event = SearchEvent::Failure {
            depth: self.stack.len(),
            propagator: if listening {
                self.failed_name(propagator)
            } else {
                None
            },
        };
        self.announce(&event);
        // After the failure's event: the nogood learned from it is announced next.
        if self.learner.is_some() {
            self.learn(propagator);
        }
        self.model.propagation.abandon(&mut self.model.store);
        self.failures_since_restart += 1;
    }

    /// Who found a conflict, for a listener: the failed propagator, or a learned nogood
    /// (`None`: the bound of branch and bound).
    fn failed_name(&self, propagator: Option<u32>) -> Option<&'static str> {
        match propagator {
            Some(p) => Some(self.model.propagation.name(p)),
            None => self
                .learner
                .as_ref()
                .and_then(|l| l.nogood_conflict)
                .map(|_| "learned_nogood"),
        }
    }

    /// Show the listener the domains of a conflict (out of line: rare, and the search loop
    /// stays small).
    #[cold]
    #[inline(never)]
    fn show_conflict(&mut self) {
        self.listener.on_conflict(self.model);
    }

    fn branch(&mut self, decision: Decision, left: bool) {
        // The depth of the choice point: a left branch has just pushed it, a right branch
        // has just popped it.
        let event = SearchEvent::Branch {
            depth: if left {
                self.stack.len()
            } else {
                self.stack.len() + 1
            },
            decision: &decision,
            left,
        };
        self.announce(&event);
    }

    /// Show the listener, if it listens, the domains at a fixpoint.
    #[inline]
    fn fixpoint(&mut self) {
        if self.listening {
            self.listener.on_fixpoint(self.model);
        }
    }

    /// Count the event in the statistics, and pass it to the listener if it listens.
    #[inline]
    fn announce(&mut self, event: &SearchEvent<'_>) {
        self.stats.on_event(event);
        if self.listening {
            self.listener.on_event(event);
        }
    }

    /// After a failed node: restart if the policy says so, else backtrack. False when the
    /// tree is exhausted.
    fn after_failure<const LEARN: bool>(&mut self) -> bool {
        if let Some(slices) = self.slices {
            if self.stats.failures - self.turn_began_at >= slices.budget(self.turn) {
                self.turn_over = true;
                return false;
            }
        }
        if let Some(cutoff) = self.config.restarts.cutoff(self.run) {
            if self.failures_since_restart >= cutoff {
                return self.restart::<LEARN>();
            }
        }
        if LEARN {
            if let Some(level) = self.backjump_to.take() {
                return self.backjump(level);
            }
        }
        self.backtrack::<LEARN>()
    }

    /// Learning's backjump (conflict-directed, as a SAT solver's): close every level above
    /// `level` without trying their right branches, and propagate there, where the nogood
    /// just learned imposes the negation of its one atom of the failed level. The decisions
    /// undone are not refuted, only forgotten: the search takes them again if it wants, so
    /// nothing is lost, but a solution already found could be found again. So it is done
    /// only when the search stops at the first solution or only accepts better ones.
    fn backjump(&mut self, mut level: usize) -> bool {
        loop {
            if level >= self.model.store.level() || self.stack.is_empty() {
                return self.backtrack::<true>();
            }
            let from = self.stack.len();
            while self.model.store.level() > level && self.stack.pop().is_some() {
                self.model.store.pop_level();
            }
            let event = SearchEvent::Backjump {
                from,
                to: self.stack.len(),
            };
            self.announce(&event);
            if self.apply_bound() && self.propagate_ok::<true>() {
                return true;
            }
            if self.interrupted {
                return false;
            }
            match self.backjump_to.take() {
                Some(next) => level = next,
                None => return self.backtrack::<true>(),
            }
        }
    }

    /// Close levels until a right branch propagates. False when no level is left.
    /// (Always inlined into the search loop, its one caller in a hot path.)
    #[inline(always)]
    fn backtrack<const LEARN: bool>(&mut self) -> bool {
        while let Some(frame) = self.stack.pop() {
            self.model.store.pop_level();
            if self.bound_excludes_level() {
                // No solution below this level can beat the bound: its right branch need
                // not be tried (not a node: nothing is decided).
                continue;
            }
            if self.unwinding {
                if !self.bound_holds_at_level() {
                    if self.interrupted {
                        return false;
                    }
                    continue;
                }
                self.unwinding = false;
            }
            if frame.every_value {
                if self.next_value::<LEARN>(frame) {
                    return true;
                }
                if self.interrupted {
                    return false;
                }
                continue;
            }
            let right = frame.decision.negation();
            if !LEARN && self.slices.is_some() {
                self.right_branches.take(self.stack.len(), right);
            }
            self.branch(right, false);
            let ok = self.apply_decision::<LEARN>(right)
                && self.apply_bound()
                && self.propagate_ok::<LEARN>();
            if ok {
                return true;
            }
            if self.interrupted {
                return false;
            }
        }
        false
    }

    /// The next alternative of an n-ary branching, after `frame`'s `x = v` was closed: a new
    /// level with `x = w` for the next value `w` still in the domain. False when there is
    /// none, or when it fails (the failed level is then on the stack, and the caller's
    /// backtracking goes on from it to the value after `w`).
    fn next_value<const LEARN: bool>(&mut self, frame: Frame) -> bool {
        let x = frame.decision.var;
        let Some(w) = (frame.decision.value.checked_add(1))
            .and_then(|v| self.model.store.domain(x).next_from(v))
        else {
            return false;
        };
        let decision = Decision {
            value: w,
            ..frame.decision
        };
        if !LEARN && self.slices.is_some() {
            self.right_branches.close_above(self.stack.len());
        }
        self.model.store.push_level();
        self.stack.push(Frame { decision, ..frame });
        self.branch(decision, true);
        self.apply_decision::<LEARN>(decision) && self.apply_bound() && self.propagate_ok::<LEARN>()
    }

    /// Go back to the root, keeping the bound, and propagate there.
    fn restart<const LEARN: bool>(&mut self) -> bool {
        // A new run breaks its ties differently: the same order would replay the same tree.
        self.brancher.shuffle_ties();
        self.begin_run_at_root();
        self.apply_bound() && self.propagate_ok::<LEARN>()
    }

    /// A new run, announced as a restart, and every open level undone (the bound and the
    /// root's propagation are the caller's: a restart and a turn differ there).
    fn begin_run_at_root(&mut self) {
        self.run += 1;
        let event = SearchEvent::Restart {
            number: self.run,
            failures: self.failures_since_restart,
        };
        self.announce(&event);
        self.failures_since_restart = 0;
        self.unwinding = false;
        self.right_branches.clear();
        while self.stack.pop().is_some() {
            self.model.store.pop_level();
        }
        self.model.propagation.abandon(&mut self.model.store);
    }

    /// Require the objective to beat the best solution so far. False on conflict.
    /// Only the test "is there a bound?" is inlined (into `backtrack`, at every right
    /// branch): without a bound, the common case, the call cost more than the test (the
    /// compiler had stopped inlining it whole).
    #[inline(always)]
    fn apply_bound(&mut self) -> bool {
        let (Some(objective), Some(bound)) = (self.config.objective, self.bound) else {
            return true;
        };
        self.tighten_to_bound(objective, bound)
    }

    /// Does the objective's domain at the current level already rule out beating the best
    /// solution? (Minimising: its smallest value is no better than the bound.) Then every
    /// node below is a failure, whichever branch: after a solution found deep under a
    /// decision that fixed the objective, backtracking skips the levels above it instead of
    /// failing once on each, as Gecode's branch and bound does by constraining the copies
    /// it keeps on its path.
    #[inline(always)]
    fn bound_excludes_level(&self) -> bool {
        let (Some(objective), Some(bound)) = (self.config.objective, self.bound) else {
            return false;
        };
        let store = &self.model.store;
        if objective.minimize {
            store.min(objective.var) as i64 >= bound
        } else {
            store.max(objective.var) as i64 <= bound
        }
    }

    /// After a better solution, at a level the backtracking has just reopened: does the
    /// bound, propagated there, leave anything? If not, no solution below this level can
    /// beat the new bound, whichever branch is taken: the level is closed with one failure
    /// and no node, and the backtracking goes on to the level above. This is what Gecode's
    /// branch and bound does when it recomputes a node from a copy kept on its path: it
    /// constrains the copy by the new solution first, and a copy that fails drops every
    /// alternative below it. (`bound_excludes_level` is the test without propagation.)
    ///
    /// The failure is counted, but no event is announced: it belongs to no node (a trace
    /// would pin it on the node last visited, a solution).
    fn bound_holds_at_level(&mut self) -> bool {
        if !self.apply_bound() {
            return false;
        }
        if self.model.propagate().is_ok() {
            return true;
        }
        if self.model.is_interrupted() {
            self.interrupted = true;
        } else {
            self.model.propagation.abandon(&mut self.model.store);
            self.stats.failures += 1;
            self.failures_since_restart += 1;
        }
        false
    }

    /// `apply_bound` once there is a bound to apply.
    fn tighten_to_bound(&mut self, objective: super::Objective, bound: i64) -> bool {
        let store = &mut self.model.store;
        let before = self
            .learner
            .is_some()
            .then(|| store.domain(objective.var).clone());
        let (result, atom) = if objective.minimize {
            let limit = crate::propagators::relations::clamp(bound - 1);
            let result = store.set_max(objective.var, limit);
            (result, Atom::AtMost(objective.var, limit))
        } else {
            let limit = crate::propagators::relations::clamp(bound + 1);
            let result = store.set_min(objective.var, limit);
            (result, Atom::AtLeast(objective.var, limit))
        };
        match result {
            Err(_) => {
                self.fail(None);
                false
            }
            Ok(changed) => {
                if let (true, Some(before)) = (changed, before) {
                    self.record(objective.var, before, Cause::Bound(atom));
                }
                true
            }
        }
    }

    // ----- learning (learning/) ------------------------------------------------------------

    /// The search loop, with learning or without, and with learning in slices
    /// (`learning/slices.rs`) the turns one after the other until one ends the search.
    fn run_in_turns(&mut self, on_solution: &mut dyn FnMut(&Solution) -> Control) -> End {
        loop {
            let end = if self.learner.is_some() {
                self.run::<true>(on_solution)
            } else {
                self.run::<false>(on_solution)
            };
            if end != End::Turn {
                return end;
            }
            // A plain turn may run out while it takes its path again: then the next.
            while !self.next_turn() {
                if !self.turn_over || self.interrupted {
                    return self.end();
                }
            }
            if self.interrupted {
                return End::Stopped;
            }
        }
    }

    /// Begin the next turn of learning in slices: back to the root as a restart goes, then
    /// learning put aside (a plain turn, which goes on where the last one stopped) or taken
    /// up again on a trail begun here, its nogoods looked at afresh. False if the search
    /// is over (the root fails), or if the plain turn ran out on its way back.
    fn next_turn(&mut self) -> bool {
        if !Slices::learns(self.turn) {
            self.plain_path = self.stack.clone();
            self.plain_right_branches = std::mem::take(&mut self.right_branches);
            if self.config.check_learning {
                self.plain_stop_domains = self.domains_below_failed_node();
            }
        }
        self.turn_over = false;
        self.turn += 1;
        self.turn_began_at = self.stats.failures;
        self.backjump_to = None;
        self.begin_run_at_root();
        let recorder = self.model.propagation.recorder.take();
        if Slices::learns(self.turn) {
            let trail = Trail::new(self.model.store.domains());
            self.model
                .propagation
                .observe(recorder, Some(Box::new(trail)));
            self.learner = self.parked.take();
            if let Some(learner) = self.learner.as_deref_mut() {
                learner.nogoods.revisit_all();
            }
            self.apply_bound() && self.propagate_ok::<true>()
        } else {
            self.model.propagation.observe(recorder, None);
            self.parked = self.learner.take();
            self.apply_bound() && self.propagate_ok::<false>() && self.resume_plain_path()
        }
    }

    /// A plain turn does not start its tree over: it takes the path where the last plain
    /// turn stopped again, level by level, each level's right branches (`resume.rs`) then
    /// the next decision, and goes on from there (a level the tighter bound now refutes
    /// fails, and the search backtracks from it as usual). False if the search is over or
    /// the turn ran out.
    fn resume_plain_path(&mut self) -> bool {
        let path = std::mem::take(&mut self.plain_path);
        let right_branches = std::mem::take(&mut self.plain_right_branches);
        for depth in 0..=path.len() {
            for right in right_branches.at(depth) {
                self.right_branches.take(depth, right);
                if !(self.apply_decision::<false>(right) && self.propagate_ok::<false>()) {
                    return self.interrupted || self.after_failure::<false>();
                }
            }
            let Some(&frame) = path.get(depth) else {
                break;
            };
            if depth + 1 == path.len() {
                self.check_within_stop_domains();
            }
            self.model.store.push_level();
            self.stack.push(frame);
            if !(self.apply_decision::<false>(frame.decision) && self.propagate_ok::<false>()) {
                return self.interrupted || self.after_failure::<false>();
            }
        }
        true
    }

    /// Checking mode: where a plain turn stops (just after a failed node), the domains one
    /// level up, where its last decision was taken.
    fn domains_below_failed_node(&mut self) -> Option<Vec<crate::Domain>> {
        self.stack.pop()?;
        self.model.store.pop_level();
        self.model.propagation.abandon(&mut self.model.store);
        Some(self.model.store.domains().to_vec())
    }

    /// Checking mode: the resumed path, just before its last decision, lies within the
    /// domains where the turn stopped (the root has only tightened since, and propagation
    /// is monotone and reaches its fixpoint). Panics naming the first variable outside.
    fn check_within_stop_domains(&mut self) {
        let Some(stop) = self.plain_stop_domains.take() else {
            return;
        };
        let store = &self.model.store;
        for (i, before) in stop.iter().enumerate() {
            let now = store.domain(crate::VarId(i as u32));
            assert!(
                now.iter().all(|v| before.contains(v)),
                "the resumed path left the domains where its turn stopped: x{i} is {now:?}, was {before:?}"
            );
        }
    }

    /// The brancher's decision, or with activity-based branching, `x = v` on the most active
    /// primary variable and its saved phase.
    #[inline(always)]
    fn next_decision<const LEARN: bool>(&mut self) -> Option<(Decision, bool)> {
        if LEARN && self.config.activity {
            if let Some(decision) = self.most_active_decision() {
                return Some((decision, true));
            }
        }
        if let Some(probing) = self.config.node_probing.as_ref() {
            if let Some((var, value)) = (probing.scored_in_run(self.run))
                .and_then(|s| self.probe_memory.best_scored(self.model, probing, s))
            {
                let op = DecisionOp::Eq;
                return Some((Decision { var, op, value }, true));
            }
        }
        self.brancher.next(self.model)
    }

    fn most_active_decision(&self) -> Option<Decision> {
        let learner = self.learner.as_deref()?;
        let trail = self.model.propagation.trail.as_deref()?;
        let store = &self.model.store;
        let x = learner
            .activity
            .most_active(self.brancher.primary(), store)?;
        let domain = store.domain(x);
        let value = trail
            .phase(x)
            .filter(|&v| domain.contains(v))
            .unwrap_or(domain.min());
        Some(Decision {
            var: x,
            op: super::DecisionOp::Eq,
            value,
        })
    }

    /// Switch learning on, at the root after its propagation: the trail records from here,
    /// and what holds now is a fact.
    fn start_learning(&mut self) {
        let model = &mut *self.model;
        let checker = self.config.check_learning.then(|| {
            let props: Vec<&dyn Propagator> = (0..model.propagation.len() as u32)
                .map(|p| model.propagation.propagator(p))
                .collect();
            Checker::new(&model.store, &props)
        });
        let recorder = model.propagation.recorder.take();
        let trail = Trail::new(model.store.domains());
        model.propagation.observe(recorder, Some(Box::new(trail)));
        self.learner = Some(Box::new(Learner::new(model.store.num_vars(), checker)));
    }

    /// Apply a decision (left or right branch); with learning, record it. False on conflict.
    #[inline(always)]
    fn apply_decision<const LEARN: bool>(&mut self, decision: Decision) -> bool {
        if !LEARN {
            return decision.apply(self.model).is_ok();
        }
        self.apply_recorded_decision(decision)
    }

    fn apply_recorded_decision(&mut self, decision: Decision) -> bool {
        let x = decision.var;
        let before = self.model.store.domain(x).clone();
        if decision.apply(self.model).is_err() {
            return false;
        }
        if self.model.store.size(x) != before.size() {
            let atom = match decision.op {
                super::DecisionOp::Eq => Atom::Equal(x, decision.value),
                super::DecisionOp::Ne => Atom::NotEqual(x, decision.value),
                super::DecisionOp::Le => Atom::AtMost(x, decision.value),
                super::DecisionOp::Gt => Atom::AtLeast(x, decision.value.saturating_add(1)),
            };
            self.record(x, before, Cause::Decision(atom));
        }
        true
    }

    /// Put a change made by the search on the learning trail.
    fn record(&mut self, x: crate::VarId, before: crate::Domain, cause: Cause) {
        if let Some(trail) = self.model.propagation.trail.as_deref_mut() {
            trail.record(&self.model.store, x, before, cause);
        }
    }

    /// Propagate the propagators and the learned nogoods in turn until neither changes
    /// anything.
    fn propagate_with_nogoods(&mut self) -> Result<(), crate::Conflict> {
        loop {
            self.model.propagate()?;
            let (Some(learner), Some(trail)) = (
                self.learner.as_deref_mut(),
                self.model.propagation.trail.as_deref_mut(),
            ) else {
                return Ok(());
            };
            match learner.nogoods.propagate(&mut self.model.store, trail) {
                Ok(false) => return Ok(()),
                Ok(true) => {}
                Err(NogoodConflict(k)) => {
                    learner.nogood_conflict = Some(k);
                    return Err(crate::Conflict::new());
                }
            }
        }
    }

    /// Learn a nogood from the failure just found (`propagator` failed, if one did), and
    /// announce it.
    #[cold]
    #[inline(never)]
    fn learn(&mut self, propagator: Option<u32>) {
        // The trail is lent to the analysis and put back (no propagation in between, so
        // the propagation's `observed` flag may stay as it is).
        let (Some(learner), Some(mut trail)) = (
            self.learner.as_deref_mut(),
            self.model.propagation.trail.take(),
        ) else {
            return;
        };
        let (objective, bound) = (self.config.objective, self.bound);
        let better = move |values: &[i32]| match (objective, bound) {
            (Some(o), Some(b)) => {
                let v = values[o.var.index()] as i64;
                if o.minimize {
                    v < b
                } else {
                    v > b
                }
            }
            _ => true,
        };
        let propagation = &self.model.propagation;
        let propagators = |p: u32| propagation.propagator(p);
        let learned = learner.learn(
            &mut trail,
            &self.model.store,
            &propagators,
            propagator,
            &better,
        );
        self.model.propagation.trail = Some(trail);
        let may_jump = !self.config.project
            && (self.config.objective.is_some() || self.config.solution_limit == Some(1));
        self.backjump_to = learned
            .as_ref()
            .filter(|l| may_jump && l.asserting)
            .map(|l| l.backjump_level);
        if let Some(learned) = learned {
            // Levels of the store count from below the search's root; depths from it.
            let root = self.model.store.level() - self.stack.len();
            let event = SearchEvent::Nogood {
                atoms: &learned.atoms,
                lbd: learned.lbd,
                backjump: self.backjump_to.map(|level| level.saturating_sub(root)),
            };
            self.announce(&event);
        }
    }

    #[inline(always)]
    fn record_solution(&mut self, on_solution: &mut dyn FnMut(&Solution) -> Control) -> Control {
        let store = &self.model.store;
        // Reuse the vector of the previous solution: counting millions of solutions then
        // allocates nothing.
        let mut solution = self.best.take().unwrap_or(Solution { values: Vec::new() });
        solution.values.clear();
        solution
            .values
            .extend((0..store.num_vars() as u32).map(|i| store.value(crate::VarId(i))));
        self.solutions += 1;
        let objective = self.config.objective.map(|o| solution.value(o.var) as i64);
        if objective.is_some() {
            self.bound = objective;
            self.unwinding = true;
        }
        let event = SearchEvent::Solution {
            number: self.solutions,
            objective,
            values: &solution.values,
        };
        self.announce(&event);
        let control = on_solution(&solution);
        self.best = Some(solution);
        if control == Control::Stop
            || self
                .config
                .solution_limit
                .is_some_and(|n| self.solutions >= n)
        {
            return Control::Stop;
        }
        Control::Continue
    }

    fn limit_reached(&self) -> bool {
        let limits = &self.config.limits;
        if limits.nodes.is_some_and(|n| self.stats.nodes >= n) {
            return true;
        }
        if limits.failures.is_some_and(|n| self.stats.failures >= n) {
            return true;
        }
        // Reading the clock and the shared flag costs more than a node: look every 64 nodes.
        if self.stats.nodes.is_multiple_of(64) {
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                return true;
            }
            if limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return true;
            }
        }
        false
    }
}

/// Node probing under learning (`probing.rs`): each try is a level of its own, its value
/// recorded on the learning trail as a decision, and a refuted try is analysed like a failed
/// node, so that its nogood is kept and prunes everywhere.
impl Tries for Dfs<'_> {
    fn model(&mut self) -> &mut Model {
        self.model
    }

    fn open(&mut self, x: crate::VarId, v: i32) -> Result<(), crate::Conflict> {
        self.model.store.push_level();
        let before = self.model.store.domain(x).clone();
        self.model.store.fix(x, v)?;
        self.record(x, before, Cause::Decision(Atom::Equal(x, v)));
        self.propagate_with_nogoods()
    }

    fn close(&mut self) {
        self.model.propagation.abandon(&mut self.model.store);
        self.model.store.pop_level();
    }

    fn refuted(&mut self, conflict: crate::Conflict) -> Option<Result<bool, crate::Conflict>> {
        self.learn(conflict.propagator);
        // The try's level is closed below, not backjumped from.
        self.backjump_to = None;
        self.close();
        let before = self.trail_length();
        let result = self.propagate_with_nogoods();
        Some(result.map(|()| self.trail_length() != before))
    }

    fn learns(&self) -> bool {
        true
    }
}

impl Dfs<'_> {
    /// The learning trail's changes on the open levels.
    fn trail_length(&mut self) -> Option<usize> {
        let trail = self.model.propagation.trail.as_deref_mut()?;
        trail.sync(&self.model.store);
        Some(trail.len())
    }
}
