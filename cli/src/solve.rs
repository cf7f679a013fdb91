//! # One instance, one verdict
//!
//! The command line's flags decide what kind of search runs on an instance:
//!
//! | flags | model built for | search | status when complete / stopped |
//! |---|---|---|---|
//! | (none), satisfaction | solving | first solution | `SATISFIED` or `UNSATISFIABLE` / `UNKNOWN` |
//! | (none), optimisation | solving | branch and bound to the optimum | `OPTIMAL` / `SATISFIED` (best so far) or `UNKNOWN` |
//! | `-a`, `-n N`, satisfaction | counting | every solution (or N) | `ALL_SOLUTIONS` / `SATISFIED` |
//! | `-a`, `-n N`, optimisation | solving | every improving solution (or N) | `OPTIMAL` / `SATISFIED` |
//! | `--count` | counting | whole tree, in parallel with `-p` | `ALL_SOLUTIONS` / `UNKNOWN` (a lower bound) |
//!
//! A complete search that finds nothing is `UNSATISFIABLE` in every mode. Whatever the mode,
//! every answer shown goes through the puzzle's own checker first: the engine's word is never
//! taken on trust.

use crate::args::Options;
use crate::Failure;
use engine::search::probing::{NodeProbing, ProbeAt};
use engine::search::{NoListener, SearchListener};
use engine::{
    Checkpoint, Control, Limits, Model, Outcome, PropagatorProfile, RestartPolicy, SearchConfig,
    SearchStats, Solution, VarSelect,
};
use puzzles::{Answer, Built, Hints, Instance, ModelOptions, Purpose, PuzzleKind};

/// The verdict of a run on one instance (the `status` field of the JSON output): the
/// engine's, from what the search was asked for ([`Mode::goal`]).
pub use engine::Status;

/// What a search mode is, once the flags and the model are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The first solution of a satisfaction problem.
    First,
    /// The optimum (branch and bound).
    Optimum,
    /// Several solutions: every one (`-a`) or up to N (`-n N`); for an optimisation problem,
    /// the improving ones.
    List { optimising: bool },
    /// `--count`.
    Count,
}

impl Mode {
    /// What the engine's search is asked for in this mode.
    pub fn goal(self) -> engine::Goal {
        match self {
            Mode::First => engine::Goal::Satisfy,
            Mode::Optimum | Mode::List { optimising: true } => engine::Goal::Optimise,
            Mode::List { optimising: false } => engine::Goal::Enumerate,
            Mode::Count => engine::Goal::Count,
        }
    }
}

/// Everything known about one instance after its search.
#[derive(Debug)]
pub struct InstanceRun {
    pub mode: Mode,
    pub status: Status,
    /// `solution`: the first one found, or the best one when optimising.
    pub solution: Option<Answer>,
    /// `solutions` (with `-a`/`-n`, in JSON mode; in text mode they are streamed instead).
    pub listed: Vec<Answer>,
    /// `count` (with `--count`).
    pub count: Option<u64>,
    pub objective: Option<i64>,
    pub stats: SearchStats,
    pub profile: PropagatorProfile,
    pub variables: usize,
    pub propagators: usize,
}

/// The shared models of a batch (see [`Instance::shared_model_key`]): the model of the last
/// key seen, at its root level, ready to be restricted to the next instance. One per thread.
#[derive(Debug, Default)]
pub struct SharedModels {
    slot: Option<(SharedId, Built)>,
    /// Opened on the checked-out model before the instance's givens: checking in rolls
    /// back to it.
    checkpoint: Option<Checkpoint>,
}

/// Which shared model: the puzzle's key and what the model is for (the options are those of
/// the run, the same for every instance).
type SharedId = (u64, Purpose);

impl SharedModels {
    /// The shared model for `instance`, restricted to it on a new trail level, or `None` when
    /// the puzzle builds each instance on its own (or its givens clash at once).
    fn check_out(
        &mut self,
        instance: &dyn Instance,
        options: &ModelOptions,
    ) -> Result<Option<(SharedId, Built)>, Failure> {
        let Some(key) = instance.shared_model_key() else {
            return Ok(None);
        };
        let id = (key, options.purpose);
        let mut built = match self.slot.take() {
            Some((held, built)) if held == id => built,
            _ => {
                let mut built = instance.build_shared(options).map_err(Failure::Usage)?;
                if built.model.propagate().is_err() {
                    return Ok(None);
                }
                built
            }
        };
        // Each instance starts with zero counters (and no failure weights from the last).
        built.model.reset_counters();
        let checkpoint = built.model.checkpoint();
        if instance.restrict(&mut built).is_err() {
            built.model.rollback(checkpoint);
            self.slot = Some((id, built));
            return Ok(None);
        }
        self.checkpoint = Some(checkpoint);
        Ok(Some((id, built)))
    }

    /// Take the model back after the search: undo the instance's level.
    fn check_in(&mut self, id: SharedId, mut built: Built) {
        let checkpoint = self.checkpoint.take().expect("a model checked out");
        built.model.rollback(checkpoint);
        self.slot = Some((id, built));
    }
}

/// A model ready to search: built for one instance, or a shared one restricted to it (to be
/// given back with [`SharedModels::check_in`]).
struct Obtained {
    built: Built,
    shared: Option<SharedId>,
    /// What `Instance::prepare` found (its answer stands if the search finds none; its
    /// model, if any, is `built`).
    hints: Hints,
    /// The time was up before the model was built: `built` is empty and is not searched.
    skipped: bool,
}

/// Has the deadline passed, or a signal come? Then a model not yet built is not built: the
/// answer could only be `UNKNOWN` (or what preparing found), and building a large one takes
/// seconds (a colouring of 10^6 edges).
fn time_is_up(limits: &Limits) -> bool {
    engine::StopCheck::new(limits.deadline, limits.stop.clone()).is_some_and(|c| c.is_due())
}

/// A model with nothing in it, in place of one the time did not allow to build.
fn not_built() -> Built {
    Built {
        model: Model::new(),
        search: SearchConfig::default(),
        vars: Vec::new(),
    }
}

/// The search-independent inputs of a run, shared by every instance of a file.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    pub kind: &'static PuzzleKind,
    pub options: &'a Options,
    /// Threads for this instance's search (1 when instances run side by side).
    pub threads: usize,
}

impl Plan<'_> {
    pub(crate) fn model_options(&self, purpose: Purpose) -> ModelOptions {
        ModelOptions {
            alldiff: self
                .options
                .alldiff
                .unwrap_or_else(|| self.kind.default_alldiff()),
            sum: self.options.sum.unwrap_or_else(|| self.kind.default_sum()),
            colours: self.options.colours,
            viewpoint: self.options.viewpoint.unwrap_or_default(),
            purpose,
            learn: self.learns(),
        }
    }

    /// Whether the search learns: as the user said (`--learn`, `--no-learn`), else as the
    /// puzzle declares in its `KIND`.
    pub(crate) fn learns(&self) -> bool {
        (self.options.learn).unwrap_or_else(|| self.kind.default_learn())
    }

    /// Where the search probes: as the user said (`--probe`, `--probe-at`), else as the
    /// puzzle declares in its `KIND`.
    pub(crate) fn probe_at(&self) -> ProbeAt {
        (self.options.probe).unwrap_or_else(|| self.kind.default_probe())
    }

    /// Build the model this run needs (or restrict a shared one), and say which mode the
    /// search runs in.
    fn build(
        &self,
        instance: &dyn Instance,
        shared: &mut SharedModels,
        limits: &Limits,
    ) -> Result<(Obtained, Mode), Failure> {
        let o = self.options;
        let mut build = |purpose| -> Result<Obtained, Failure> {
            let options = self.model_options(purpose);
            if time_is_up(limits) {
                return Ok(Obtained {
                    built: not_built(),
                    shared: None,
                    hints: Hints::default(),
                    skipped: true,
                });
            }
            if let Some((id, built)) = shared.check_out(instance, &options)? {
                return Ok(Obtained {
                    built,
                    shared: Some(id),
                    hints: Hints::default(),
                    skipped: false,
                });
            }
            let mut hints = instance.prepare(&options, limits);
            if time_is_up(limits) {
                return Ok(Obtained {
                    built: not_built(),
                    shared: None,
                    hints,
                    skipped: true,
                });
            }
            let built = match hints.built.take() {
                Some(built) => *built,
                None => instance.build(&options).map_err(Failure::Usage)?,
            };
            Ok(Obtained {
                built,
                shared: None,
                hints,
                skipped: false,
            })
        };
        if o.count {
            return Ok((build(Purpose::Count)?, Mode::Count));
        }
        if o.enumerates() {
            // Listing every solution of a satisfaction problem is counting them one by one, so
            // it uses the counting model (which, e.g., has no symmetry breaking). An
            // optimisation model lists its improving solutions.
            if !self.kind.optimisation {
                return Ok((build(Purpose::Count)?, Mode::List { optimising: false }));
            }
            let built = build(Purpose::Solve)?;
            if built.built.search.objective.is_some() || built.skipped {
                return Ok((built, Mode::List { optimising: true }));
            }
            // An optimisation puzzle asked a satisfaction question (`--colours K`).
            return Ok((build(Purpose::Count)?, Mode::List { optimising: false }));
        }
        let built = build(Purpose::Solve)?;
        let optimising = if built.skipped {
            self.kind.optimisation
        } else {
            built.built.search.objective.is_some()
        };
        let mode = if optimising {
            Mode::Optimum
        } else {
            Mode::First
        };
        Ok((built, mode))
    }

    /// The puzzle's recommended search, adjusted by the flags.
    pub(crate) fn search_config(&self, built: &Built, mode: Mode, limits: &Limits) -> SearchConfig {
        let o = self.options;
        let mut config = built.search.clone();
        if let Some(seed) = o.seed {
            config.seed = seed;
        }
        let finds_each_solution_once =
            matches!(mode, Mode::Count | Mode::List { optimising: false });
        if o.free {
            config.var_select = VarSelect::DomWDeg;
            if !finds_each_solution_once {
                config.restarts = RestartPolicy::Luby { scale: 100 };
            }
        }
        if let Some(order) = o.var {
            config.var_select = order.select();
        }
        if let Some(order) = o.val {
            config.val_select = order;
        }
        if let Some(policy) = o.restarts {
            config.restarts = policy;
        }
        config.learn = self.learns();
        // `-f` lets the engine choose: with `--learn`, it branches on activity (VSIDS).
        config.activity = o.learn == Some(true) && o.free;
        if finds_each_solution_once {
            // A restart would find the solutions of the first runs again.
            config.restarts = RestartPolicy::Never;
        }
        match mode {
            Mode::First => config.solution_limit = Some(1),
            Mode::Optimum => config.solution_limit = None,
            Mode::List { .. } => config.solution_limit = o.num_solutions,
            Mode::Count => {
                config.objective = None;
                config.solution_limit = None;
            }
        }
        config.limits = Limits {
            nodes: o.nodes,
            failures: o.failures,
            ..limits.clone()
        };
        config.node_probing = match self.probe_at() {
            ProbeAt::Nodes => {
                let vars = probed_vars(&built.model, &config);
                let probing = NodeProbing::new(&built.model, &vars, PROBE_MAX_SIZE);
                // The puzzle's branching on the tries' scores, unless a flag chose the order.
                let scored = match (&built.search.node_probing, o.var, o.free) {
                    (Some(declared), None, false) => declared.scored.clone(),
                    _ => Vec::new(),
                };
                // The implications the tries find are kept if the puzzle declares so.
                let implications =
                    (built.search.node_probing.as_ref()).and_then(|declared| declared.implications);
                Some(NodeProbing {
                    scored,
                    implications,
                    ..probing
                })
            }
            ProbeAt::Off | ProbeAt::Root => None,
        };
        config
    }
}

/// Decode a solution and check it against the puzzle's rules (with `--json`, without
/// drawing the picture that JSON output never prints).
fn checked_answer(
    plan: &Plan<'_>,
    instance: &dyn Instance,
    built: &Built,
    solution: &Solution,
) -> Result<Answer, Failure> {
    let answer = if plan.options.json {
        instance.answer_without_picture(built, solution)
    } else {
        instance.answer(built, solution)
    };
    instance.check(&answer).map_err(|why| {
        Failure::Internal(format!(
            "{}: the engine's solution fails the puzzle's checker ({why}); this is a bug",
            plan.kind.name
        ))
    })?;
    Ok(answer)
}

/// Where [`solve`] hands each listed solution as it is found (text output). An error (the
/// output could not be written) stops the search and becomes [`Failure::Io`].
pub type Emit<'a> = &'a mut dyn FnMut(&Answer) -> std::io::Result<()>;

/// Solve one instance. `emit` receives each listed solution (`-a`/`-n`) as it is found, for
/// text output; without it they are collected in [`InstanceRun::listed`].
///
/// `shared` holds the models that instances of a batch share (see
/// [`Instance::shared_model_key`]); pass the same one for every instance of a file.
pub fn solve(
    plan: &Plan<'_>,
    instance: &dyn Instance,
    shared: &mut SharedModels,
    listener: &mut dyn SearchListener,
    emit: Option<Emit<'_>>,
) -> Result<InstanceRun, Failure> {
    solve_on_clock(plan, None, instance, shared, listener, emit)
}

/// [`solve`], with `-t` counted from `clock_started` instead of from now: the first instance
/// of a run counts from the start of the run, so that reading and parsing its file count
/// against the limit too (docs/cli.md, "Limits").
///
/// Three steps: build the model (or restrict a shared one) within the run's limits, search
/// it ([`count_in_parallel`] or [`search_and_check`]), and turn the outcome into the verdict
/// ([`verdict`]).
pub fn solve_on_clock(
    plan: &Plan<'_>,
    clock_started: Option<std::time::Instant>,
    instance: &dyn Instance,
    shared: &mut SharedModels,
    listener: &mut dyn SearchListener,
    emit: Option<Emit<'_>>,
) -> Result<InstanceRun, Failure> {
    panic_if_asked("start");
    // One deadline for the whole instance: preparing a model may search too (colouring's
    // local search), and that time counts against -t.
    let started = clock_started.unwrap_or_else(std::time::Instant::now);
    let limits = Limits {
        deadline: plan.options.time_limit.map(|t| started + t),
        // SIGINT/SIGTERM (when `main` installed the handler) stop the search like a limit.
        stop: crate::signals::stop_flag(),
        ..Limits::default()
    };
    let (obtained, mode) = plan.build(instance, shared, &limits)?;
    let (mut built, shared_id, hints) = (obtained.built, obtained.shared, obtained.hints);
    let skipped = obtained.skipped;
    let config = plan.search_config(&built, mode, &limits);
    if listener.listens() {
        listener.name_variables(&instance.naming(&built));
    }
    // The search gets the model itself (no copy: in a file of 10,000 Sudokus it would be
    // 10,000 copies); decoding needs only the solution and `built.vars`.
    let mut model: Model = std::mem::take(&mut built.model);
    model.set_profiling(plan.options.profile);
    let refuted = plan.probe_at() == ProbeAt::Root
        && !skipped
        && probe_before_search(&mut model, &config, &limits) == Probed::Refuted;
    let size = (model.num_vars(), model.num_propagators());
    let searched = if skipped {
        // No model, no search: stopped before it began.
        Searched {
            outcome: Outcome::default(),
            first: None,
            listed: Vec::new(),
        }
    } else if refuted {
        // Probing proved the root infeasible: the search would fail at its root, once.
        let mut outcome = Outcome {
            complete: true,
            profile: model.profile(),
            ..Outcome::default()
        };
        outcome.stats.failures = 1;
        Searched {
            outcome,
            first: None,
            listed: Vec::new(),
        }
    } else if mode == Mode::Count && plan.threads > 1 {
        Searched {
            outcome: count_in_parallel(plan, &model, &config, listener),
            first: None,
            listed: Vec::new(),
        }
    } else {
        let checking = Checking {
            plan,
            instance,
            built: &built,
            mode,
        };
        search_and_check(&checking, &mut model, &config, listener, emit)?
    };
    built.model = model;
    let run = verdict(plan, instance, &built, mode, searched, hints, size)?;
    if let Some(id) = shared_id {
        shared.check_in(id, built);
    }
    Ok(run)
}

/// The cells with at most this many values are probed (`--probe`, `--probe-at`).
const PROBE_MAX_SIZE: u32 = 3;

/// What [`probe_before_search`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probed {
    /// The model is at a fixpoint, with what probing removed (or probing was stopped by
    /// the limits: what it removed still holds).
    Narrowed,
    /// The model has no solution. Its domains are left half-narrowed: it must not be
    /// searched (a shared model is rolled back to before its instance's givens anyway).
    Refuted,
}

/// `--probe`: root propagation, then probing of the branching variables with few values.
/// What probing removes is implied by the constraints alone, so every mode (counting
/// included) stays exact. The limits also stop a propagation under way (interrupt.rs): then
/// nothing is proved, and the search, out of time at once, says so.
///
/// A refuted model is not marked by posting anything into it (an empty clause posted here
/// once stayed in the shared model of a file's Sudokus, a propagator more for every later
/// instance): the caller skips the search and reports the failure itself.
fn probe_before_search(model: &mut Model, config: &SearchConfig, limits: &Limits) -> Probed {
    let vars = probed_vars(model, config);
    let check = engine::StopCheck::new(limits.deadline, limits.stop.clone());
    let outer_check = model.set_stop_check(check);
    let failed = model.propagate().is_err()
        || engine::search::probing::probe(model, &vars, PROBE_MAX_SIZE, limits).is_err();
    let interrupted = model.is_interrupted();
    model.set_stop_check(outer_check);
    if failed && !interrupted {
        return Probed::Refuted;
    }
    Probed::Narrowed
}

/// The variables probed: those the search branches on.
fn probed_vars(model: &Model, config: &SearchConfig) -> Vec<engine::VarId> {
    match &config.branch_vars {
        Some(vars) => vars.clone(),
        None => (0..model.num_vars() as u32).map(engine::VarId).collect(),
    }
}

/// `--count -p N`: the tree split over N threads. They publish their counters; this thread
/// shows them (-v) until they finish.
fn count_in_parallel(
    plan: &Plan<'_>,
    model: &Model,
    config: &SearchConfig,
    listener: &mut dyn SearchListener,
) -> Outcome {
    let shared = engine::search::Progress::default();
    let mut outcome = std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        let shared = &shared;
        scope.spawn(move || {
            let outcome = engine::search::count_parallel_with_progress(
                model,
                config,
                plan.threads,
                Some(shared),
            );
            let _ = done.send(outcome);
        });
        loop {
            match finished.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok(outcome) => break outcome,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => listener.on_progress(shared),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("the counting thread stopped without an answer")
                }
            }
        }
    });
    listener.on_progress(&shared);
    // Each thread's copy of the model counts its propagators again: show the model's own
    // number of propagators of each kind.
    for (name, own) in model.profile().by_kind {
        if let Some(c) = outcome.profile.by_kind.get_mut(name) {
            c.instances = own.instances;
        }
    }
    outcome
}

/// What decoding and checking a solution needs, besides the solution.
struct Checking<'a, 'p> {
    plan: &'a Plan<'p>,
    instance: &'a dyn Instance,
    built: &'a Built,
    mode: Mode,
}

/// What a search left: the engine's outcome, and the answers decoded and checked during it.
struct Searched {
    outcome: Outcome,
    /// The first answer found (its picture included, unless `--json`).
    first: Option<Answer>,
    /// The listed answers (`-a`/`-n`) when there is no `emit` to stream them to.
    listed: Vec<Answer>,
}

/// One search on this thread. Each solution the mode keeps is decoded and checked as it is
/// found; a listed one goes to `emit` at once (or is kept in [`Searched::listed`]).
fn search_and_check(
    checking: &Checking<'_, '_>,
    model: &mut Model,
    config: &SearchConfig,
    listener: &mut dyn SearchListener,
    mut emit: Option<Emit<'_>>,
) -> Result<Searched, Failure> {
    let Checking {
        plan,
        instance,
        built,
        mode,
    } = *checking;
    let mut first: Option<Answer> = None;
    let mut listed: Vec<Answer> = Vec::new();
    let mut failure: Option<Failure> = None;
    let mut on_solution = |solution: &Solution| -> Control {
        let keep = match mode {
            Mode::Count | Mode::First => first.is_none(),
            // Only the last (best) one is kept, after the search.
            Mode::Optimum => false,
            Mode::List { .. } => true,
        };
        if !keep {
            return Control::Continue;
        }
        let answer = match checked_answer(plan, instance, built, solution) {
            Ok(answer) => answer,
            Err(f) => {
                failure = Some(f);
                return Control::Stop;
            }
        };
        if let Mode::List { .. } = mode {
            match emit.as_mut() {
                Some(emit) => {
                    if let Err(e) = emit(&answer) {
                        failure = Some(Failure::Io(e));
                        return Control::Stop;
                    }
                }
                None => listed.push(answer.clone()),
            }
        }
        if first.is_none() {
            first = Some(answer);
        }
        panic_if_asked("solution");
        Control::Continue
    };
    let outcome = engine::search(model, config, listener, &mut on_solution);
    match failure {
        Some(f) => Err(f),
        None => Ok(Searched {
            outcome,
            first,
            listed,
        }),
    }
}

/// The verdict on one instance: the answer shown as `solution` (the best for optimisation,
/// else the first found; or one found while preparing, when the search stopped without
/// one), its status and objective, and the search's figures. `size`: the model's variables
/// and propagators.
fn verdict(
    plan: &Plan<'_>,
    instance: &dyn Instance,
    built: &Built,
    mode: Mode,
    searched: Searched,
    hints: Hints,
    size: (usize, usize),
) -> Result<InstanceRun, Failure> {
    let Searched {
        outcome,
        first,
        listed,
    } = searched;
    let mut solution = match (mode, &outcome.best) {
        (Mode::Optimum | Mode::List { optimising: true }, Some(best)) => {
            Some(checked_answer(plan, instance, built, best)?)
        }
        (Mode::Count, Some(best)) if first.is_none() => {
            Some(checked_answer(plan, instance, built, best)?)
        }
        _ => first,
    };
    let mut status = outcome.status(mode.goal());
    // An answer found while preparing stands when the search stopped without one.
    if let (Mode::First | Mode::Optimum, Status::Unknown, Some(answer)) =
        (mode, status, hints.answer)
    {
        instance.check(&answer).map_err(|why| {
            Failure::Internal(format!(
                "{}: the prepared solution fails the puzzle's checker ({why}); this is a bug",
                plan.kind.name
            ))
        })?;
        let optimal = hints.optimal && mode == Mode::Optimum;
        status = if optimal {
            Status::Optimal
        } else {
            Status::Satisfied
        };
        solution = Some(answer);
    }
    // The value of `solution` (a counted solution of an optimisation puzzle has one too).
    let objective = solution.as_ref().and_then(|a| a.objective).or(match mode {
        Mode::Optimum | Mode::List { optimising: true } => outcome.objective,
        _ => None,
    });
    let mut stats = outcome.stats;
    stats.solutions = outcome.solutions;
    Ok(InstanceRun {
        mode,
        status,
        solution,
        listed,
        count: (mode == Mode::Count).then_some(outcome.solutions),
        objective,
        stats,
        profile: outcome.profile,
        variables: size.0,
        propagators: size.1,
    })
}

/// A panic on purpose when the environment variable `CPSOLVE_TEST_PANIC` says `at` (`start`:
/// before the instance's model is built, `solution`: after its first solution was printed),
/// so that the tests can see what an internal error gives (exit status 1, one line `error:
/// internal error: ...`, whole lines on standard output; `cli/tests/limits.rs`). Only in
/// builds with debug assertions (the tests' and CI's): a release build has no such hook.
fn panic_if_asked(at: &str) {
    static ASKED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if cfg!(debug_assertions)
        && ASKED
            .get_or_init(|| std::env::var("CPSOLVE_TEST_PANIC").ok())
            .as_deref()
            == Some(at)
    {
        panic!("CPSOLVE_TEST_PANIC={at}: a panic on purpose");
    }
}

/// For callers without a listener.
pub fn no_listener() -> NoListener {
    NoListener
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_model_is_restricted_per_instance_and_restored_after() {
        let first = format!("1{}", ".".repeat(80));
        let second = format!(".2{}", ".".repeat(79));
        let clash = format!("33{}", ".".repeat(79));
        let instances = puzzles::sudoku::parse(&[first, second, clash].join("\n")).unwrap();
        let options = ModelOptions::default();
        let mut shared = SharedModels::default();

        let (id, built) = shared.check_out(&*instances[0], &options).unwrap().unwrap();
        assert_eq!(built.model.level(), 1, "the givens live on their own level");
        assert_eq!(built.model.size(built.vars[0]), 1);
        shared.check_in(id, built);

        let (id, built) = shared.check_out(&*instances[1], &options).unwrap().unwrap();
        let store = &built.model;
        assert_eq!(store.level(), 1, "the first instance's level was popped");
        assert_eq!(
            store.size(built.vars[0]),
            9,
            "the first instance's given is gone"
        );
        assert_eq!(
            (store.size(built.vars[1]), store.value(built.vars[1])),
            (1, 2)
        );
        shared.check_in(id, built);

        // Clashing givens: propagation fails on the shared model, and checking it in
        // leaves nothing behind (neither the givens nor the failed propagation).
        let (id, mut built) = shared.check_out(&*instances[2], &options).unwrap().unwrap();
        assert!(built.model.propagate().is_err());
        shared.check_in(id, built);
        let (_, built) = shared.slot.as_ref().unwrap();
        assert_eq!(built.model.level(), 0);
        assert!(built.vars.iter().all(|&x| built.model.size(x) == 9));
    }
}
