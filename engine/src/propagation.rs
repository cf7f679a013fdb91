//! # Propagation to fixpoint
//!
//! This file is the loop at the heart of constraint propagation:
//!
//! 1. a domain changes (a search decision, or another propagator's pruning);
//! 2. every propagator *subscribed* to that variable for that kind of event is told
//!    (`notify`) and put in the [`PropagationQueue`];
//! 3. the queue hands out the next propagator; it prunes; go to 1;
//! 4. when the queue is empty nothing more can be deduced: the **fixpoint**. If any
//!    propagator reported a conflict on the way, the node fails at once.
//!
//! **What it costs.** The loop runs millions of times per second, so its bookkeeping is kept
//! to plain arrays. The watchers of each variable are kept in one list sorted by
//! [`Condition`] — Domain watchers, then Bounds, then Fixed —
//! so that an event walks exactly a prefix of it: a value removed from the middle of a
//! domain never even looks at the propagators that only wait for the variable to be fixed.
//! Better still, the store is told the weakest event anyone watches on each variable
//! ([`Store::watch`]) and does not record the others at all: on n-queens, where every
//! propagator waits for fixed variables, two removals in three cost no event. And while an
//! idempotent propagator runs, its changes to variables that no other propagator watches
//! are not recorded either ([`Store::set_quiet_propagator`]): they could only wake itself,
//! which an idempotent propagator never needs. The queue is a flag per propagator plus one
//! FIFO per priority, both reused from node to node.
//!
//! **A time limit inside the loop.** Every [`RUNS_BETWEEN_POLLS`] runs the loop reads the
//! search's stop check (interrupt.rs); past the deadline it returns `Err` with the store
//! marked interrupted, which the search reads as "limit reached", never as a failure.
//!
//! The engine also keeps, per propagator, its entailment flag (a reversible integer, so it is
//! restored on backtrack), its failure count (the weights of the dom/wdeg heuristic), and its
//! profile counters.

use crate::domain::Event;
use crate::explain::RemovalRecorder;
use crate::interrupt::RUNS_BETWEEN_POLLS;
use crate::learning::trail::Trail;
use crate::propagator::{
    Condition, Conflict, Context, EnqueueDecision, PostContext, Priority, PropResult, Propagator,
};
use crate::queue::PropagationQueue;
use crate::stats::{PropagatorCounters, PropagatorProfile};
use crate::store::{RevId, Store, VarId};
use std::time::Instant;

/// Identifies a posted propagator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PropId(pub u32);

/// A propagator watching a variable (the condition is the list it is in).
#[derive(Clone, Copy, Debug)]
struct Watch {
    prop: u32,
    local: u32,
}

/// The loop's bookkeeping for one propagator.
#[derive(Clone, Copy, Debug)]
struct PropState {
    /// Reversible flag: 1 once entailed (until the search backtracks above that point).
    entailed: RevId,
    priority: Priority,
    /// One run reaches its own fixpoint: its own prunings do not wake it again.
    idempotent: bool,
    /// Still to be run from scratch once (just posted, or after a restart).
    fresh: bool,
    /// Stands for several constraints in the degree heuristics ([`Propagator::counts_as_several`]).
    several: bool,
}

/// A posted propagator, with the loop's bookkeeping and profile counters for it.
#[derive(Clone, Debug)]
struct Posted {
    prop: Box<dyn Propagator>,
    state: PropState,
    counters: PropagatorCounters,
}

/// The watchers of one variable, sorted by condition: `list[..ends[0]]` wait for any
/// removal (Domain), `list[ends[0]..ends[1]]` for a bound change, the rest for fixing. An
/// event `e` wakes the prefix `list[..end(e)]` (a `Fixed` event wakes everyone).
#[derive(Clone, Debug, Default)]
struct Watchers {
    list: Vec<Watch>,
    /// End of the Domain watchers, end of the Bounds watchers.
    ends: [u32; 2],
}

impl Watchers {
    /// Add a watcher at the end of its condition's group.
    fn add(&mut self, watch: Watch, condition: Condition) {
        let at = match condition {
            Condition::Domain => self.ends[0] as usize,
            Condition::Bounds => self.ends[1] as usize,
            Condition::Fixed => self.list.len(),
        };
        self.list.insert(at, watch);
        for (k, end) in self.ends.iter_mut().enumerate() {
            if k >= condition as usize {
                *end += 1;
            }
        }
    }

    /// Remove every watch of propagator `prop` (to subscribe it again, `replace_last`).
    fn remove_propagator(&mut self, prop: u32) {
        let mut ends = [0u32; 2];
        let mut kept = Vec::with_capacity(self.list.len());
        for (i, &w) in self.list.iter().enumerate() {
            if w.prop == prop {
                continue;
            }
            for (k, end) in ends.iter_mut().enumerate() {
                if (i as u32) < self.ends[k] {
                    *end += 1;
                }
            }
            kept.push(w);
        }
        self.list = kept;
        self.ends = ends;
    }

    /// The watchers `event` wakes.
    #[inline]
    fn woken_by(&self, event: Event) -> &[Watch] {
        match event {
            Event::Domain => &self.list[..self.ends[0] as usize],
            Event::Bounds => &self.list[..self.ends[1] as usize],
            Event::Fixed => &self.list,
        }
    }
}

/// The posted propagators, who watches what, and the queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct Propagation {
    /// Each posted propagator with what the loop needs to know about it and its counters,
    /// in one record: a wake-up or a run looks up one entry (one bounds check), not three.
    posted: Vec<Posted>,
    /// For each variable, the propagators that watch it, by condition.
    watchers: Vec<Watchers>,
    queue: PropagationQueue,
    /// Measure time per propagator (costs two clock reads per call).
    pub profiling: bool,
    /// Total propagator runs.
    pub propagations: u64,
    /// When on, every run goes through it (explain.rs): `--explain`, the trace's summaries.
    pub(crate) recorder: Option<Box<RemovalRecorder>>,
    /// When learning is on, every run's changes go on it with the run's inputs
    /// (learning/trail.rs): the same recording copy of the loop as the recorder's.
    pub(crate) trail: Option<Box<Trail>>,
    /// `recorder` or `trail` is on: the fixpoint takes the recording copy of the loop. One
    /// flag, so that the loop without them tests one thing per fixpoint, as before the trail;
    /// kept by [`Propagation::observe`].
    observed: bool,
    /// Each propagator's accumulated failure count with decay (AFC), see [`Afc`].
    afc: Afc,
}

/// The accumulated failure count of each propagator (Boussemart et al.'s weights, with the
/// decay Gecode gives them, the reading of FlatZinc's `dom_w_deg` there): each starts at 1;
/// when a propagator fails, its count becomes `(count + 1) / decay`. A failure weighs
/// `1 / decay` times more than the one before it in the same propagator, so recent
/// failures count more than old ones. Counts that grow too large for an `f64` are all
/// scaled down together, which keeps their ratios (the only thing a heuristic compares).
#[derive(Clone, Debug, Default)]
struct Afc {
    counts: Vec<f64>,
}

/// The decay of [`Afc`]: Gecode's FlatZinc default (`-decay 0.99`).
const AFC_DECAY: f64 = 0.99;

impl Afc {
    /// Past this count, every count is scaled by `RESCALE`.
    const RESCALE_ABOVE: f64 = 1e250;
    const RESCALE: f64 = 1e-250;

    /// A fresh propagator `p`'s count: 1.
    fn reset(&mut self, p: u32) {
        let p = p as usize;
        if self.counts.len() <= p {
            self.counts.resize(p + 1, 1.0);
        }
        self.counts[p] = 1.0;
    }

    /// Propagator `p` failed.
    fn fail(&mut self, p: u32) {
        let count = &mut self.counts[p as usize];
        *count = (*count + 1.0) / AFC_DECAY;
        if *count > Self::RESCALE_ABOVE {
            for c in &mut self.counts {
                *c *= Self::RESCALE;
            }
        }
    }
}

impl Propagation {
    /// Add a propagator watching variables of `store`. It runs at the next `fixpoint`.
    pub(crate) fn post(&mut self, store: &mut Store, mut prop: Box<dyn Propagator>) -> PropId {
        let id = self.posted.len() as u32;
        let state = self.subscribe(store, &mut prop, id);
        self.posted.push(Posted {
            prop,
            state,
            counters: PropagatorCounters {
                instances: 1,
                ..Default::default()
            },
        });
        self.queue.resize(self.posted.len());
        self.queue.push(id, state.priority);
        self.afc.reset(id);
        PropId(id)
    }

    /// Register `prop` as propagator `id`: its state, its watches.
    fn subscribe(
        &mut self,
        store: &mut Store,
        prop: &mut Box<dyn Propagator>,
        id: u32,
    ) -> PropState {
        prop.register(&mut PostContext::new(store));
        if self.watchers.len() < store.num_vars() {
            self.watchers
                .resize_with(store.num_vars(), Default::default);
        }
        for (local, sub) in prop.subscriptions().into_iter().enumerate() {
            let watch = Watch {
                prop: id,
                local: local as u32,
            };
            self.watchers[sub.var.index()].add(watch, sub.condition);
            store.watch(sub.var, sub.condition.weakest_event(), id);
        }
        PropState {
            entailed: store.new_rev(0),
            priority: prop.priority(),
            idempotent: prop.idempotent(),
            fresh: true,
            several: prop.counts_as_several(),
        }
    }

    /// Put `prop` in place of the last propagator posted, under the same id (the model
    /// gathers consecutive all-differents into one, `Model::all_different`). Its watches,
    /// state and counters start afresh; it is queued to run from scratch. The old one's
    /// reversible cells stay allocated, unused.
    pub(crate) fn replace_last(
        &mut self,
        store: &mut Store,
        mut prop: Box<dyn Propagator>,
    ) -> PropId {
        let id = self.posted.len() as u32 - 1;
        for sub in self.posted[id as usize].prop.subscriptions() {
            self.watchers[sub.var.index()].remove_propagator(id);
        }
        self.queue.forget(id);
        let state = self.subscribe(store, &mut prop, id);
        self.posted[id as usize] = Posted {
            prop,
            state,
            counters: PropagatorCounters {
                instances: 1,
                ..Default::default()
            },
        };
        self.queue.push(id, state.priority);
        self.afc.reset(id);
        PropId(id)
    }

    pub(crate) fn len(&self) -> usize {
        self.posted.len()
    }

    /// The name of propagator `p`.
    pub(crate) fn name(&self, p: u32) -> &'static str {
        self.posted[p as usize].prop.name()
    }

    /// Propagator `p` itself (to re-run its reference algorithm on its own, explain.rs).
    pub(crate) fn propagator(&self, p: u32) -> &dyn Propagator {
        &*self.posted[p as usize].prop
    }

    /// The propagators watching `x` (for heuristics such as dom/wdeg).
    pub(crate) fn watchers_of(&self, x: VarId) -> impl Iterator<Item = u32> + '_ {
        self.watchers
            .get(x.index())
            .into_iter()
            .flat_map(|w| &w.list)
            .map(|w| w.prop)
    }

    /// The watches of `x`: (propagator, its local index of `x`).
    pub(crate) fn watches_of(&self, x: VarId) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.watchers
            .get(x.index())
            .into_iter()
            .flat_map(|w| &w.list)
            .map(|w| (w.prop, w.local))
    }

    /// How many constraints watch through propagator `p`'s watch `local` in the degree
    /// heuristics: 1, or what a propagator that stands for several says.
    pub(crate) fn watch_weight(&self, store: &Store, p: u32, local: u32) -> u64 {
        let posted = &self.posted[p as usize];
        if posted.state.several {
            posted.prop.open_constraints_on(local as usize, store)
        } else {
            1
        }
    }

    /// Has propagator `p` become entailed at the current node?
    pub(crate) fn is_entailed(&self, store: &Store, p: u32) -> bool {
        store.rev(self.posted[p as usize].state.entailed) != 0
    }

    /// How many times propagator `p` failed (its dom/wdeg weight, minus one).
    pub(crate) fn failures_of(&self, p: u32) -> u64 {
        self.posted[p as usize].counters.failures
    }

    /// Propagator `p`'s accumulated failure count with decay ([`Afc`]).
    pub(crate) fn afc_of(&self, p: u32) -> f64 {
        self.afc.counts[p as usize]
    }

    /// Run propagators until nothing changes, or until one fails. Always inlined (into
    /// `Model::propagate`, and so into the search loop): on n-queens, one fixpoint per node,
    /// the call and the reloading of the loop's state around it were a visible share of the
    /// instructions.
    ///
    /// With the removal recorder on (explain.rs), the same loop runs in a second copy that
    /// hands every run to the recorder: the loop is written once, generic over `RECORDING`,
    /// and the copy without the recorder has no instruction for it: a test per run, in the
    /// loop's one copy, was measurable on n-queens (docs/PERFORMANCE.md, "The removal
    /// recorder switched off").
    #[inline(always)]
    pub(crate) fn fixpoint(&mut self, store: &mut Store) -> Result<(), Conflict> {
        if self.observed {
            return self.fixpoint_recording(store);
        }
        self.fixpoint_loop::<false>(store)
    }

    /// Switch the recorder and the learning trail on or off (`None`): the fixpoint reads
    /// one flag to choose its copy of the loop.
    pub(crate) fn observe(
        &mut self,
        recorder: Option<Box<RemovalRecorder>>,
        trail: Option<Box<Trail>>,
    ) -> (Option<Box<RemovalRecorder>>, Option<Box<Trail>>) {
        let old_recorder = std::mem::replace(&mut self.recorder, recorder);
        let old_trail = std::mem::replace(&mut self.trail, trail);
        self.observed = self.recorder.is_some() || self.trail.is_some();
        (old_recorder, old_trail)
    }

    /// The fixpoint loop with the recorder on: out of line, kept out of the search loop.
    #[inline(never)]
    #[cold]
    fn fixpoint_recording(&mut self, store: &mut Store) -> Result<(), Conflict> {
        if let Some(recorder) = self.recorder.as_deref_mut() {
            recorder.begin_fixpoint();
        }
        self.fixpoint_loop::<true>(store)
    }

    /// The loop itself; `RECORDING`: hand each run to the recorder.
    #[inline(always)]
    fn fixpoint_loop<const RECORDING: bool>(&mut self, store: &mut Store) -> Result<(), Conflict> {
        self.schedule(store, None);
        while let Some(p) = self.queue.pop() {
            let posted = &mut self.posted[p as usize];
            let state = posted.state;
            if store.rev(state.entailed) != 0 {
                posted.prop.clear_pending();
                continue;
            }
            let removed_before = store.removed_count();
            let started = if self.profiling {
                Some(Instant::now())
            } else {
                None
            };
            store.set_quiet_propagator(state.idempotent.then_some(p));
            let mut ctx = Context::new(store);
            let result = if state.fresh {
                posted.state.fresh = false;
                posted.prop.clear_pending();
                if RECORDING {
                    Self::run_recorded(
                        (&mut self.recorder, &mut self.trail),
                        p,
                        &mut posted.prop,
                        &mut ctx,
                        true,
                    )
                } else {
                    posted.prop.reset_and_propagate(&mut ctx)
                }
            } else if RECORDING {
                Self::run_recorded(
                    (&mut self.recorder, &mut self.trail),
                    p,
                    &mut posted.prop,
                    &mut ctx,
                    false,
                )
            } else {
                posted.prop.propagate(&mut ctx)
            };
            let entailed = ctx.is_entailed();
            store.set_quiet_propagator(None);
            self.propagations += 1;
            let c = &mut posted.counters;
            c.calls += 1;
            if let Some(t) = started {
                c.time_ns += t.elapsed().as_nanos() as u64;
            }
            let removed = store.removed_count() - removed_before;
            if removed > 0 {
                c.prunings += 1;
                c.removed += removed;
            }
            if let Err(mut conflict) = result {
                if store.interrupt.fired() {
                    // The propagator gave way to the clock (interrupt.rs): not a failure.
                    posted.prop.clear_pending();
                    self.abandon(store);
                    return Err(conflict);
                }
                c.failures += 1;
                posted.prop.clear_pending();
                self.afc.fail(p);
                conflict.propagator = Some(p);
                self.abandon(store);
                return Err(conflict);
            }
            if entailed {
                store.set_rev(state.entailed, 1);
            }
            let skip = if state.idempotent { Some(p) } else { None };
            self.schedule(store, skip);
            // The clock, now and then (interrupt.rs): the run counter is there already.
            if self.propagations & (RUNS_BETWEEN_POLLS - 1) == 0 && store.interrupt.poll() {
                self.abandon(store);
                return Err(Conflict::new());
            }
        }
        if store.interrupt.fired() {
            // A propagator gave way to the clock inside another one, which went on: this
            // fixpoint is no fixpoint.
            return Err(Conflict::new());
        }
        Ok(())
    }

    /// One run of a propagator through the recorder and the learning trail, whichever are
    /// on: from scratch (`fresh`) or incremental.
    fn run_recorded(
        (recorder, trail): (&mut Option<Box<RemovalRecorder>>, &mut Option<Box<Trail>>),
        p: u32,
        prop: &mut Box<dyn Propagator>,
        ctx: &mut Context<'_>,
        fresh: bool,
    ) -> PropResult {
        let mut run =
            |prop: &mut Box<dyn Propagator>, ctx: &mut Context<'_>| match recorder.as_deref_mut() {
                Some(recorder) => {
                    recorder.record(p, prop, ctx, |prop, ctx| Self::run(prop, fresh, ctx))
                }
                None => Self::run(prop, fresh, ctx),
            };
        match trail.as_deref_mut() {
            Some(trail) => trail.observe_run(p, prop, ctx, run),
            None => run(prop, ctx),
        }
    }

    fn run(prop: &mut Box<dyn Propagator>, fresh: bool, ctx: &mut Context<'_>) -> PropResult {
        if fresh {
            prop.reset_and_propagate(ctx)
        } else {
            prop.propagate(ctx)
        }
    }

    /// Are propagators waiting to run (posted and not yet run, or woken)?
    pub(crate) fn has_pending(&self) -> bool {
        !self.queue.is_empty()
    }

    /// Queue every propagator from scratch (after a restart, or to re-check a whole node).
    pub(crate) fn schedule_all_from_scratch(&mut self) {
        for (p, posted) in self.posted.iter_mut().enumerate() {
            posted.state.fresh = true;
            self.queue.push(p as u32, posted.state.priority);
        }
    }

    /// Drop the queue after a conflict (or when a search abandons a node).
    pub(crate) fn abandon(&mut self, store: &mut Store) {
        store.drop_modified();
        let posted = &mut self.posted;
        self.queue
            .clear(|q| posted[q as usize].prop.clear_pending());
    }

    /// Wake the watchers of every variable changed since the last look. Inlined into the
    /// fixpoint loop, its only caller (two places): the loop's state stays in registers,
    /// and after most
    /// propagator runs there is nothing to wake, which is then one test.
    #[inline(always)]
    fn schedule(&mut self, store: &mut Store, skip: Option<u32>) {
        if !store.has_modified() {
            return;
        }
        for (x, event) in store.modified_events() {
            // The store records only events that some watcher of `x` wakes on.
            for w in self.watchers[x.index()].woken_by(event) {
                let posted = &mut self.posted[w.prop as usize];
                if Some(w.prop) == skip || store.rev(posted.state.entailed) != 0 {
                    continue;
                }
                let priority = posted.state.priority;
                if posted.prop.notify(w.local as usize, event) == EnqueueDecision::Enqueue {
                    self.queue.push(w.prop, priority);
                }
            }
        }
        store.clear_modified();
    }

    /// The tests' oracle: every propagator's stateless `propagate_from_scratch`, round after
    /// round until a round removes nothing (no queue, no events, no incremental state).
    pub(crate) fn reference_fixpoint(&self, store: &mut Store) -> Result<(), Conflict> {
        loop {
            let removed_before = store.removed_count();
            for posted in &self.posted {
                posted
                    .prop
                    .propagate_from_scratch(&mut Context::new(store))?;
            }
            store.drop_modified();
            if store.removed_count() == removed_before {
                return Ok(());
            }
        }
    }

    /// Counters per propagator kind.
    pub(crate) fn profile(&self) -> PropagatorProfile {
        let mut profile = PropagatorProfile::default();
        for posted in &self.posted {
            let c = &posted.counters;
            profile
                .by_kind
                .entry(posted.prop.name())
                .or_default()
                .add(c);
        }
        profile
    }

    /// Zero the call counters (not the failure weights' history used by heuristics).
    pub(crate) fn reset_counters(&mut self) {
        for posted in &mut self.posted {
            posted.counters = PropagatorCounters {
                instances: 1,
                ..Default::default()
            };
        }
        self.propagations = 0;
    }
}
