//! # Large neighbourhood search: improve a solution by re-solving a part of it
//!
//! On an optimisation problem too large to prove, what matters is the best solution found
//! in the time given. Branch and bound improves its incumbent only where its depth-first
//! tree happens to be; **large neighbourhood search** (Shaw 1998) improves it everywhere:
//!
//! ```text
//! keep the incumbent (the best solution so far).
//! repeat:
//!     choose a neighbourhood: a part of the variables to free;
//!     fix every other variable to its value in the incumbent, require a better objective;
//!     search what is left, giving up after a few failures;
//!     a solution found there is the new incumbent.
//! ```
//!
//! A neighbourhood is small enough to search quickly and large enough to hold a better
//! solution. Which variables to free decides both; three kinds take turns here:
//!
//! * **random**: each variable freed with some probability (MiniZinc's
//!   `relax_and_reconstruct(x, p)` asks for exactly this, `p` % of `x`);
//! * **constraint graph**: variables linked through the propagators, grown from a random
//!   one, so that what is freed can actually move together;
//! * **groups**: a window of one of the groups the model states (the variables of one
//!   `int_search`, one output array: a row, a machine, a route).
//!
//! Without a fixed percentage the share freed adapts: a neighbourhood searched to the end
//! without improvement was too small (grow it), one cut off by the failure limit too large
//! (shrink it).
//!
//! **What LNS cannot do is prove.** A neighbourhood searched to the end says nothing of the
//! rest of the space. So the driver alternates neighbourhoods with runs of the complete
//! search (the restart policy's cutoffs, growing): each complete run starts from the root
//! with the incumbent's bound, and only such a run, exhausted, proves the optimum (or that
//! there is no solution). The incumbent LNS finds makes those runs shorter; it never makes
//! them unnecessary.
//!
//! **Two ways to branch, taking turns.** A model's own search annotation often knows the
//! problem (which variables decide, which values are cheap); dom/wdeg with restarts learns
//! where the conflicts are. Neither wins everywhere, so [`Lns::alternate`] may give a
//! second branching. The alternate's way has the first complete run, then the other way;
//! from then on the way whose last run improved the objective faster (per propagation)
//! keeps the turn, for at most `MAX_RUNS_IN_A_ROW` runs. Each way counts its own runs,
//! so its cutoffs grow as if it ran alone: either one would end in a proof. A way that
//! builds the same tree every time (an annotation without dom/wdeg or random values) would,
//! under an unchanged bound, only repeat its last run's first nodes; once there is an
//! incumbent, such a run searches twice as far as its last instead.
//!
//! **How the time is shared.** Work is counted in propagations (deterministic, and close to
//! time). An LNS phase gets a share of the work of the complete run before it; the share
//! grows (×1.5) when the phase improved the objective faster per propagation than that
//! run, and shrinks (×0.7) otherwise, within `MIN_LNS_SHARE`–`MAX_LNS_SHARE`. On a
//! problem where branch and bound improves faster than the neighbourhoods, the complete
//! runs get most of the time, and the proof comes sooner.

use super::events::SearchListener;
use super::stats::SearchStats;
use super::{
    search, Control, Objective, Outcome, RestartPolicy, SearchConfig, Solution, ValSelect,
    VarSelect,
};
use crate::model::Model;
use crate::rng::Rng;
use crate::store::VarId;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The bounds of an LNS phase's work, as a share of the complete run's before it.
const MIN_LNS_SHARE: f64 = 0.1;
const MAX_LNS_SHARE: f64 = 4.0;

/// The most complete runs in a row one way to branch gets while the other waits.
const MAX_RUNS_IN_A_ROW: u32 = 4;

/// What a large neighbourhood search frees, and how much.
#[derive(Clone, Debug, Default)]
pub struct Lns {
    /// The variables a neighbourhood frees or fixes (the others follow by propagation).
    pub vars: Vec<VarId>,
    /// Groups of variables the model states: a neighbourhood may free a window of one.
    pub groups: Vec<Vec<VarId>>,
    /// `Some(p)`: free each variable with probability `p` % and only by chance
    /// (`relax_and_reconstruct`); `None`: the three kinds in turn, the share adapting.
    pub percentage: Option<u32>,
    /// Failures allowed to the search of one neighbourhood.
    pub failure_limit: u64,
    /// A second way to branch, taking turns with the configuration's (see the header).
    pub alternate: Option<Branching>,
}

/// How a search branches: which variable, which value (the branching part of a
/// [`SearchConfig`]).
#[derive(Clone, Debug)]
pub struct Branching {
    pub var_select: VarSelect,
    pub val_select: ValSelect,
    pub val_select_of: Vec<(VarId, ValSelect)>,
    pub branch_vars: Option<Vec<VarId>>,
}

impl Branching {
    /// The branching `config` uses.
    pub fn of(config: &SearchConfig) -> Branching {
        Branching {
            var_select: config.var_select.clone(),
            val_select: config.val_select,
            val_select_of: config.val_select_of.clone(),
            branch_vars: config.branch_vars.clone(),
        }
    }

    fn apply_to(&self, config: &mut SearchConfig) {
        config.var_select = self.var_select.clone();
        config.val_select = self.val_select;
        config.val_select_of = self.val_select_of.clone();
        config.branch_vars = self.branch_vars.clone();
    }
}

/// Does a search branching this way build the same tree every time from the same domains?
/// Not when it weighs variables by their failures (dom/wdeg, AFC: the weights grow from one
/// run to the next) or picks values at random.
fn repeats_itself(branching: &Branching) -> bool {
    let weighs = matches!(
        branching.var_select,
        VarSelect::DomWDeg | VarSelect::AfcSize
    );
    let random = branching.val_select == ValSelect::Random
        || (branching.val_select_of.iter()).any(|(_, v)| *v == ValSelect::Random);
    !weighs && !random
}

/// The variables each propagator watches: the graph the "constraint graph" neighbourhood
/// grows along.
struct ConstraintGraph {
    vars_of: Vec<Vec<VarId>>,
    props_of: Vec<Vec<u32>>,
}

impl ConstraintGraph {
    fn new(model: &Model) -> ConstraintGraph {
        let n = model.num_vars();
        let mut vars_of: Vec<Vec<VarId>> = vec![Vec::new(); model.num_propagators()];
        let mut props_of = vec![Vec::new(); n];
        for x in (0..n as u32).map(VarId) {
            for p in model.propagation.watchers_of(x) {
                vars_of[p as usize].push(x);
                props_of[x.index()].push(p);
            }
        }
        ConstraintGraph { vars_of, props_of }
    }

    /// Up to `target` variables of `wanted`, grown breadth first from `start` through the
    /// propagators (a propagator over more than 64 variables links too much to say
    /// anything and is skipped).
    fn grow(&self, start: VarId, target: usize, wanted: &[bool]) -> Vec<VarId> {
        let mut seen = vec![false; self.props_of.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        seen[start.index()] = true;
        let mut out = Vec::new();
        while let Some(x) = queue.pop_front() {
            if wanted[x.index()] {
                out.push(x);
                if out.len() >= target {
                    break;
                }
            }
            for &p in &self.props_of[x.index()] {
                let vars = &self.vars_of[p as usize];
                if vars.len() > 64 {
                    continue;
                }
                for &y in vars {
                    if !std::mem::replace(&mut seen[y.index()], true) {
                        queue.push_back(y);
                    }
                }
            }
        }
        out
    }
}

/// The state of one large neighbourhood search.
struct Driver<'a> {
    config: &'a SearchConfig,
    objective: Objective,
    lns: &'a Lns,
    best: Option<Solution>,
    bound: Option<i64>,
    solutions: u64,
    stats: SearchStats,
    rng: Rng,
    /// The share of `lns.vars` a neighbourhood frees (adapted when no percentage is given).
    rate: f64,
    started: Instant,
    /// The callback asked to stop.
    callback_stopped: bool,
    /// Does the current run (and the neighbourhoods after it) branch the alternate's way?
    alternate_turn: bool,
    /// The work (propagations) of an LNS phase, as a share of the complete run's before it.
    lns_share: f64,
}

/// Search `model` for the best solution by branch and bound with large neighbourhood search
/// between its restarts (see the module's header). `config.objective` must be set (without
/// one this is [`search`]). The outcome is complete only when a complete run proved it.
pub fn search_lns(
    model: &mut Model,
    config: &SearchConfig,
    lns: &Lns,
    listener: &mut dyn SearchListener,
    on_solution: &mut dyn FnMut(&Solution) -> Control,
) -> Outcome {
    let Some(objective) = config.objective else {
        return search(model, config, listener, on_solution);
    };
    let graph = ConstraintGraph::new(model);
    let mut driver = Driver {
        config,
        objective,
        lns,
        best: None,
        bound: None,
        solutions: 0,
        stats: SearchStats::default(),
        rng: Rng::new(config.seed.wrapping_add(0x4c4e53)),
        rate: lns.percentage.map_or(0.2, |p| p as f64 / 100.0),
        started: Instant::now(),
        callback_stopped: false,
        alternate_turn: lns.alternate.is_some(),
        lns_share: 1.0,
    };
    let policy = match config.restarts {
        RestartPolicy::Never => RestartPolicy::Luby { scale: 100 },
        p => p,
    };
    let propagations_before = model.propagation.propagations;
    let mut complete = false;
    // Each way to branch counts its own runs, so its cutoffs grow as if it were alone.
    let mut runs_of = [0u64; 2];
    // Each way's last gain per propagation (untried: infinite, so that it gets a run),
    // and how many runs in a row the current way has had.
    let mut rate_of = [f64::INFINITY; 2];
    let mut in_a_row = 0;
    // A way that branches the same way every time repeats, from the same bound, the tree
    // of its last run: its cutoff and the bound of that run.
    let repeats = [
        repeats_itself(&Branching::of(config)),
        lns.alternate.as_ref().is_some_and(repeats_itself),
    ];
    let mut last_run_of: [Option<(u64, Option<i64>)>; 2] = [None; 2];
    loop {
        // A run of the complete search from the root, under the incumbent's bound.
        let way = driver.alternate_turn as usize;
        let mut cutoff = policy.cutoff(runs_of[way]);
        runs_of[way] += 1;
        if let (Some(c), Some((last, bound)), true) = (cutoff, last_run_of[way], repeats[way]) {
            // Under the same incumbent's bound, a run no longer than the last one would
            // search nothing new: search twice as far. (Not before a first solution: there
            // dom/wdeg's restarts are what find one, and a growing run would starve them.)
            if bound.is_some() && bound == driver.bound {
                cutoff = Some(c.max(last.saturating_mul(2)));
            }
        }
        last_run_of[way] = cutoff.map(|c| (c, driver.bound));
        let (work_before, bound_before) = (model.propagation.propagations, driver.bound);
        let outcome = driver.sub_search(model, &[], cutoff, listener, on_solution);
        if outcome.complete {
            complete = true;
            break;
        }
        if driver.must_stop(&outcome) {
            break;
        }
        let work = model.propagation.propagations - work_before;
        let run_rate = driver.gain_since(bound_before) / work.max(1) as f64;
        rate_of[way] = run_rate;
        // The way that improves faster keeps the turn, for at most MAX_RUNS_IN_A_ROW runs:
        // the other one never starves, and either one alone ends in a proof.
        in_a_row += 1;
        let keep = run_rate > 0.0 && run_rate >= rate_of[1 - way] && in_a_row < MAX_RUNS_IN_A_ROW;
        if lns.alternate.is_some() && !keep {
            driver.alternate_turn = !driver.alternate_turn;
            in_a_row = 0;
        }
        // Then neighbourhoods of the incumbent, for a share of the run's work.
        if driver.best.is_some()
            && !driver.neighbourhoods(model, &graph, work, run_rate, listener, on_solution)
        {
            break;
        }
    }
    driver.stats.propagations = model.propagation.propagations - propagations_before;
    driver.stats.time = driver.started.elapsed();
    Outcome {
        complete,
        solutions: driver.solutions,
        best: driver.best,
        objective: driver.bound,
        stats: driver.stats,
        profile: model.propagation.profile(),
    }
}

impl Driver<'_> {
    /// Search neighbourhoods of the incumbent for `lns_share` × `work` propagations (at
    /// least one neighbourhood), then adapt the share: when the phase improved the
    /// objective faster per propagation than the complete run before it (`run_rate`), the
    /// next phase gets a larger share, else a smaller one. So the time goes where the
    /// improvements come from. False when the whole search must stop (a limit, or the
    /// callback).
    fn neighbourhoods(
        &mut self,
        model: &mut Model,
        graph: &ConstraintGraph,
        work: u64,
        run_rate: f64,
        listener: &mut dyn SearchListener,
        on_solution: &mut dyn FnMut(&Solution) -> Control,
    ) -> bool {
        let budget = (work as f64 * self.lns_share) as u64;
        let (start, bound_before) = (model.propagation.propagations, self.bound);
        let mut round = 0u64;
        while round == 0 || model.propagation.propagations - start < budget {
            let fixed = self.neighbourhood(graph, round);
            round += 1;
            let before = self.bound;
            let outcome = self.sub_search(
                model,
                &fixed,
                Some(self.lns.failure_limit),
                listener,
                on_solution,
            );
            if self.must_stop(&outcome) {
                return false;
            }
            if self.lns.percentage.is_none() && self.bound == before {
                // Exhausted without improvement: too small; cut off: too large.
                let factor = if outcome.complete { 1.15 } else { 0.93 };
                self.rate = (self.rate * factor).clamp(0.02, 0.9);
            }
        }
        let spent = (model.propagation.propagations - start).max(1);
        let lns_rate = self.gain_since(bound_before) / spent as f64;
        let factor = if lns_rate > run_rate { 1.5 } else { 0.7 };
        self.lns_share = (self.lns_share * factor).clamp(MIN_LNS_SHARE, MAX_LNS_SHARE);
        true
    }

    /// How much the objective improved since `before` (0 when it did not, or when there
    /// was no incumbent then: a first solution is no measurable gain).
    fn gain_since(&self, before: Option<i64>) -> f64 {
        match (before, self.bound) {
            (Some(b), Some(now)) => (b - now).unsigned_abs() as f64,
            _ => 0.0,
        }
    }

    /// The variables to fix (with their incumbent values) in neighbourhood number `round`.
    fn neighbourhood(&mut self, graph: &ConstraintGraph, round: u64) -> Vec<(VarId, i32)> {
        let vars = &self.lns.vars;
        let best = self.best.as_ref().expect("an incumbent");
        let n = vars.len();
        let target = ((self.rate * n as f64).ceil() as usize).clamp(1, n.max(1));
        let mut free = vec![false; best.values.len()];
        let kind = if self.lns.percentage.is_some() {
            0
        } else {
            round % 3
        };
        match kind {
            1 if n > 0 => {
                let mut wanted = vec![false; best.values.len()];
                vars.iter().for_each(|x| wanted[x.index()] = true);
                let start = vars[self.rng.below(n as u64) as usize];
                for x in graph.grow(start, target, &wanted) {
                    free[x.index()] = true;
                }
            }
            2 if !self.lns.groups.is_empty() => {
                let groups = &self.lns.groups;
                let group = &groups[self.rng.below(groups.len() as u64) as usize];
                let width = target.min(group.len()).max(1);
                let first = self.rng.below((group.len() - width + 1) as u64) as usize;
                group[first..first + width]
                    .iter()
                    .for_each(|x| free[x.index()] = true);
            }
            _ => {
                let per_million = (self.rate * 1e6) as u64;
                for x in vars {
                    free[x.index()] = self.rng.below(1_000_000) < per_million;
                }
            }
        }
        (vars.iter())
            .filter(|x| !free[x.index()])
            .map(|&x| (x, best.value(x)))
            .collect()
    }

    /// Search from the root with `fixed` fixed, a better objective than the incumbent's
    /// required, and at most `failures` failures; take in what it finds. A neighbourhood
    /// that fails at once is reported as searched to the end without a solution.
    fn sub_search(
        &mut self,
        model: &mut Model,
        fixed: &[(VarId, i32)],
        failures: Option<u64>,
        listener: &mut dyn SearchListener,
        on_solution: &mut dyn FnMut(&Solution) -> Control,
    ) -> Outcome {
        let checkpoint = model.checkpoint();
        let mut ok = match self.bound {
            Some(b) if self.objective.minimize => {
                let bound = crate::propagators::relations::clamp(b - 1);
                model.set_max(self.objective.var, bound).is_ok()
            }
            Some(b) => {
                let bound = crate::propagators::relations::clamp(b + 1);
                model.set_min(self.objective.var, bound).is_ok()
            }
            None => true,
        };
        for &(x, v) in fixed {
            ok = ok && model.fix(x, v).is_ok();
        }
        let outcome = if ok {
            let config = self.sub_config(failures);
            let mut stop_asked = false;
            let mut pass_on = |s: &Solution| {
                let control = on_solution(s);
                stop_asked |= control == Control::Stop;
                control
            };
            let outcome = search(model, &config, listener, &mut pass_on);
            self.callback_stopped |= stop_asked;
            outcome
        } else {
            Outcome {
                complete: true,
                ..Outcome::default()
            }
        };
        model.rollback(checkpoint);
        self.stats.add(&outcome.stats);
        self.stats.restarts += 1;
        if outcome.solutions > 0 {
            self.solutions += outcome.solutions;
            self.best = outcome.best.clone();
            self.bound = outcome.objective;
        }
        outcome
    }

    /// The configuration of one sub-search: the caller's, without restarts, with this
    /// failure limit and what is left of the node and solution limits.
    fn sub_config(&self, failures: Option<u64>) -> SearchConfig {
        let mut config = self.config.clone();
        if let (true, Some(branching)) = (self.alternate_turn, &self.lns.alternate) {
            branching.apply_to(&mut config);
        }
        config.restarts = RestartPolicy::Never;
        // The neighbourhoods are searched without learning (learning/ is for the plain
        // branch and bound).
        config.learn = false;
        let left = (self.config.limits.failures).map(|n| n.saturating_sub(self.stats.failures));
        config.limits.failures = match (failures, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        config.limits.nodes =
            (self.config.limits.nodes).map(|n| n.saturating_sub(self.stats.nodes));
        config.solution_limit =
            (self.config.solution_limit).map(|n| n.saturating_sub(self.solutions));
        config
    }

    /// Must the whole search stop after this sub-search? (A limit of the caller's, or the
    /// callback, stopped it.)
    fn must_stop(&self, outcome: &Outcome) -> bool {
        let limits = &self.config.limits;
        let enough_solutions = !outcome.complete
            && outcome.solutions > 0
            && self
                .config
                .solution_limit
                .is_some_and(|n| self.solutions >= n);
        enough_solutions
            || self.callback_stopped
            || limits.failures.is_some_and(|n| self.stats.failures >= n)
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
            || limits.nodes.is_some_and(|n| self.stats.nodes >= n)
            || (limits.stop.as_ref()).is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
