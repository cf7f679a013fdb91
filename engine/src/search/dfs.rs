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
//! Restarts: when the failures of the current run exceed the policy's cutoff, every level is
//! closed and the search begins again from the root (which keeps the best bound, the
//! dom/wdeg weights and the random generator's state).
//!
//! Probing at nodes (`probing.rs`): when the configuration asks for it, each node's
//! propagation is followed by a round of tries (`Dfs::probe`); a refutation there fails the
//! node like a conflict.

use super::brancher::{Brancher, Decision};
use super::events::{SearchEvent, SearchListener};
use super::stats::SearchStats;
use super::{Control, Outcome, SearchConfig, Solution};
use crate::model::Model;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// One open level: the decision taken there, and whether its variable was primary.
#[derive(Clone, Copy, Debug)]
struct Frame {
    decision: Decision,
    primary: bool,
}

/// Why the main loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Exhausted,
    Stopped,
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
        dfs.fixpoint();
        dfs.run(on_solution)
    };
    // Leave the model as we found it.
    while dfs.model.store.level() > base_level {
        dfs.model.store.pop_level();
    }
    dfs.model.propagation.abandon(&mut dfs.model.store);
    let _ = dfs.model.set_stop_check(outer_check);
    if recording {
        dfs.model.stop_recording();
    }
    dfs.stats.propagations = dfs.model.propagation.propagations - propagations_before;
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
    fn run(&mut self, on_solution: &mut dyn FnMut(&Solution) -> Control) -> End {
        loop {
            if self.limit_reached() {
                return End::Stopped;
            }
            match self.brancher.next(self.model) {
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
                    if !self.backtrack() {
                        return self.end();
                    }
                }
                Some((decision, primary)) => {
                    self.model.store.push_level();
                    self.stack.push(Frame { decision, primary });
                    self.branch(decision, true);
                    let ok = decision.apply(self.model).is_ok() && self.propagate_ok();
                    if !ok && (self.interrupted || !self.after_failure()) {
                        return self.end();
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
    fn propagate_ok(&mut self) -> bool {
        match self.model.propagate().and_then(|()| self.probe()) {
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
            Some(probing) => super::probing::probe_node(self.model, probing, self.stack.len()),
        }
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
        self.model.propagation.abandon(&mut self.model.store);
        self.failures_since_restart += 1;
        // The propagator's name is for the listener alone (the statistics only count).
        let listening = self.listening;
        let event = SearchEvent::Failure {
            depth: self.stack.len(),
            propagator: propagator
                .filter(|_| listening)
                .map(|p| self.model.propagation.name(p)),
        };
        self.announce(&event);
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
    fn after_failure(&mut self) -> bool {
        if let Some(cutoff) = self.config.restarts.cutoff(self.run) {
            if self.failures_since_restart >= cutoff {
                return self.restart();
            }
        }
        self.backtrack()
    }

    /// Close levels until a right branch propagates. False when no level is left.
    /// (Always inlined into the search loop, its one caller in a hot path.)
    #[inline(always)]
    fn backtrack(&mut self) -> bool {
        while let Some(frame) = self.stack.pop() {
            self.model.store.pop_level();
            if self.bound_excludes_level() {
                // No solution below this level can beat the bound: its right branch need
                // not be tried (not a node: nothing is decided).
                continue;
            }
            let right = frame.decision.negation();
            self.branch(right, false);
            let ok = right.apply(self.model).is_ok() && self.apply_bound() && self.propagate_ok();
            if ok {
                return true;
            }
            if self.interrupted {
                return false;
            }
        }
        false
    }

    /// Go back to the root, keeping the bound, and propagate there.
    fn restart(&mut self) -> bool {
        self.run += 1;
        let event = SearchEvent::Restart {
            number: self.run,
            failures: self.failures_since_restart,
        };
        self.announce(&event);
        self.failures_since_restart = 0;
        // A new run breaks its ties differently: the same order would replay the same tree.
        self.brancher.shuffle_ties();
        while self.stack.pop().is_some() {
            self.model.store.pop_level();
        }
        self.model.propagation.abandon(&mut self.model.store);
        self.apply_bound() && self.propagate_ok()
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

    /// `apply_bound` once there is a bound to apply.
    fn tighten_to_bound(&mut self, objective: super::Objective, bound: i64) -> bool {
        let store = &mut self.model.store;
        let result = if objective.minimize {
            store.set_max(
                objective.var,
                crate::propagators::relations::clamp(bound - 1),
            )
        } else {
            store.set_min(
                objective.var,
                crate::propagators::relations::clamp(bound + 1),
            )
        };
        if result.is_err() {
            self.fail(None);
            return false;
        }
        true
    }

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
