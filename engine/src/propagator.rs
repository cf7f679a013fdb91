//! # Propagator: a constraint that removes values
//!
//! A constraint says which combinations of values are allowed. A **propagator** is the code
//! that makes a constraint *act*: looking at the current domains, it removes the values that
//! cannot be part of any solution of that one constraint. If it finds that no combination is
//! left, it reports a [`Conflict`] and the search backtracks.
//!
//! Every propagator in cpsolve implements the [`Propagator`] trait below:
//!
//! * `name` — for the profiler and for traces;
//! * `subscriptions` — the variables it watches and which [`Event`]s wake it
//!   ([`Condition::Fixed`] = only when a variable gets a value, [`Condition::Bounds`] = when
//!   a bound moves, [`Condition::Domain`] = on any removal);
//! * `priority` — cheap propagators run before expensive ones;
//! * `propagate_from_scratch` — **required**, the reference algorithm: reads the domains and
//!   prunes, remembering nothing (it takes `&self`). Tests use it as the oracle;
//! * `register` and `reset_and_propagate` — **optional**: allocate reversible integers when
//!   posted; rebuild the incremental state on the first run (by default, run the reference);
//! * `notify` and `propagate` — **optional**, the incremental path: `notify` is told which of
//!   its variables changed (cheaply, before the propagator is queued), and `propagate` may use
//!   what it was told instead of recomputing everything. By default `propagate` calls
//!   `propagate_from_scratch`.
//!
//! A propagator that can never prune again (all its variables fixed and the constraint true,
//! say) calls [`Context::set_entailed`]: it leaves the queue until the search backtracks above
//! the point where it became entailed.
//!
//! How to write one: see `docs/03-propagators-and-queue.md`.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::domain::Event;
use crate::store::{RevId, Store, VarId};
use std::fmt;

pub use crate::conflict::{Conflict, PropResult};

/// When a propagator wants to be woken up for a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Condition {
    /// Any removal.
    Domain = 0,
    /// The min or max moved (or the variable was fixed).
    Bounds = 1,
    /// The variable was fixed.
    Fixed = 2,
}

impl Condition {
    /// Does `event` satisfy this condition?
    #[inline]
    pub fn woken_by(self, event: Event) -> bool {
        event as u8 >= self as u8
    }

    /// The weakest event that satisfies this condition.
    #[inline]
    pub fn weakest_event(self) -> Event {
        match self {
            Condition::Domain => Event::Domain,
            Condition::Bounds => Event::Bounds,
            Condition::Fixed => Event::Fixed,
        }
    }
}

/// A variable a propagator watches. Its position in the list returned by `subscriptions` is
/// the *local index* passed back to `notify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subscription {
    pub var: VarId,
    pub condition: Condition,
}

impl Subscription {
    pub fn new(var: VarId, condition: Condition) -> Subscription {
        Subscription { var, condition }
    }
    /// The same condition on each of `xs`, in order (local index `i` is `xs[i]`).
    pub fn all(xs: &[VarId], condition: Condition) -> Vec<Subscription> {
        xs.iter()
            .map(|&x| Subscription::new(x, condition))
            .collect()
    }
}

/// Cheap propagators run first; a global propagator runs after the simple ones have settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// Unary and binary relations: constant time.
    High = 0,
    /// Linear in the number of variables (sums, forward-checking all-different).
    Medium = 1,
    /// Super-linear (matching-based all-different, tables).
    Low = 2,
}

/// Number of priority levels.
pub const PRIORITIES: usize = 3;

/// Whether a propagator told of a change (by `notify`) wants to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnqueueDecision {
    /// Schedule the propagator.
    Enqueue,
    /// Nothing it can use: leave it asleep.
    Skip,
}

/// What a propagator may do while it is posted: allocate the reversible integers it keeps
/// for its incremental state. Nothing else of the store is open to it here.
#[derive(Debug)]
pub struct PostContext<'a> {
    store: &'a mut Store,
}

impl<'a> PostContext<'a> {
    pub(crate) fn new(store: &'a mut Store) -> PostContext<'a> {
        PostContext { store }
    }
    /// A new reversible integer holding `value`: restored on backtrack.
    pub fn new_rev(&mut self, value: i64) -> RevId {
        self.store.new_rev(value)
    }
}

/// A propagator's copy of the store's per-level counters (see [`Context::level_stamp`]).
pub use crate::store::LevelStamp;

/// What a propagator sees while it runs: it can read the domains, prune them, read and set
/// its reversible integers, and declare itself entailed. It cannot open or close trail
/// levels, allocate reversible integers or register watches: those belong to the search and
/// to posting.
#[derive(Debug)]
pub struct Context<'a> {
    store: &'a mut Store,
    entailed: bool,
}

impl<'a> Context<'a> {
    pub fn new(store: &'a mut Store) -> Context<'a> {
        Context {
            store,
            entailed: false,
        }
    }
    /// The constraint holds for every remaining combination: stop waking this propagator
    /// until the search backtracks past this point.
    pub fn set_entailed(&mut self) {
        self.entailed = true;
    }
    pub fn is_entailed(&self) -> bool {
        self.entailed
    }

    // ----- reading ---------------------------------------------------------------------

    /// Number of variables in the store.
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.store.num_vars()
    }
    /// All the domains, indexed by `VarId::index`.
    #[inline]
    pub fn domains(&self) -> &[Domain] {
        self.store.domains()
    }
    #[inline]
    pub fn domain(&self, x: VarId) -> &Domain {
        self.store.domain(x)
    }
    #[inline]
    pub fn min(&self, x: VarId) -> i32 {
        self.store.min(x)
    }
    #[inline]
    pub fn max(&self, x: VarId) -> i32 {
        self.store.max(x)
    }
    #[inline]
    pub fn size(&self, x: VarId) -> u32 {
        self.store.size(x)
    }
    #[inline]
    pub fn is_fixed(&self, x: VarId) -> bool {
        self.store.is_fixed(x)
    }
    #[inline]
    pub fn value(&self, x: VarId) -> i32 {
        self.store.value(x)
    }
    #[inline]
    pub fn contains(&self, x: VarId, v: i32) -> bool {
        self.store.contains(x, v)
    }
    /// Values removed in the store so far (the removal recorder counts a run's, explain.rs).
    pub(crate) fn removed_count(&self) -> u64 {
        self.store.removed_count()
    }
    /// The store itself, read-only (the learning trail reads the level of a run's changes).
    pub(crate) fn store(&self) -> &Store {
        self.store
    }

    // ----- pruning (each returns whether the domain changed, or a conflict if it emptied) --

    #[inline]
    pub fn remove(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.store.remove(x, v)
    }
    #[inline]
    pub fn set_min(&mut self, x: VarId, lo: i32) -> Result<bool, Conflict> {
        self.store.set_min(x, lo)
    }
    #[inline]
    pub fn set_max(&mut self, x: VarId, hi: i32) -> Result<bool, Conflict> {
        self.store.set_max(x, hi)
    }
    /// Remove every value of `first..=last`: a gap between supported values of a wide
    /// domain in one step, where `retain` would visit every value of an interval domain.
    #[inline]
    pub fn remove_range(&mut self, x: VarId, first: i32, last: i32) -> Result<bool, Conflict> {
        self.store.remove_range(x, first, last)
    }
    #[inline]
    pub fn fix(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.store.fix(x, v)
    }
    #[inline]
    pub fn retain(&mut self, x: VarId, keep: impl FnMut(i32) -> bool) -> Result<bool, Conflict> {
        self.store.retain(x, keep)
    }
    #[inline]
    pub fn intersect(&mut self, x: VarId, other: &Domain) -> Result<bool, Conflict> {
        self.store.intersect(x, other)
    }
    /// Keep only the values `base + k` whose bit `k` is set in `mask`.
    #[inline]
    pub fn intersect_mask(&mut self, x: VarId, base: i32, mask: u64) -> Result<bool, Conflict> {
        self.store.intersect_mask(x, base, mask)
    }
    /// Remove the values whose bits are set in `bits` (a one-word domain): the event, or
    /// `None` if nothing changed.
    #[inline]
    pub fn remove_bits(&mut self, x: VarId, bits: u64) -> Result<Option<Event>, Conflict> {
        self.store.remove_bits(x, bits)
    }

    // ----- a long call gives way to the clock (interrupt.rs) ------------------------------

    /// Count `units` of work (a cell of a layered graph, a term of a sum). A propagator whose
    /// one call can be long calls it in its loops, with `?`: once the search's deadline has
    /// passed (or a signal came) it returns `Err`, and the propagator must return at once.
    /// That `Err` is an interruption, not a conflict: the fixpoint reports it as such
    /// ([`crate::Model::is_interrupted`]). The clock is read once every
    /// [`crate::interrupt::WORK_BETWEEN_POLLS`] units, so a call costs a subtraction.
    #[inline]
    pub fn work(&mut self, units: u32) -> PropResult {
        if self.store.interrupt.work(units) {
            return Err(Conflict::new());
        }
        Ok(())
    }

    // ----- reversible integers (allocated at posting, see `PostContext`) ------------------

    #[inline]
    pub fn rev(&self, r: RevId) -> i64 {
        self.store.rev(r)
    }
    #[inline]
    pub fn set_rev(&mut self, r: RevId, value: i64) {
        self.store.set_rev(r, value)
    }

    // ----- the fast lane's per-level copies ---------------------------------------------

    /// A stamp of the store's current level, for a propagator that keeps copies of its own
    /// state per search level (the fast all-different lane): [`Context::still_valid`] says
    /// later whether nothing it watched has changed unseen since.
    #[inline]
    pub fn level_stamp(&self) -> LevelStamp {
        self.store.level_stamp()
    }
    /// Is the level `stamp` was taken at still open, with no announcement lost since at it
    /// or at a level opened after it?
    #[inline]
    pub fn still_valid(&self, stamp: &LevelStamp) -> bool {
        self.store.still_valid(stamp)
    }
    /// Is the level `stamp` was taken at still open?
    #[inline]
    pub(crate) fn is_open(&self, stamp: &LevelStamp) -> bool {
        self.store.is_open(stamp)
    }
    /// A count that moves whenever domains may have changed without an announcement
    /// reaching their watchers (a level popped, changes dropped after a conflict).
    #[inline]
    pub(crate) fn silent_changes(&self) -> u64 {
        self.store.silent_changes()
    }
    /// Remove `bits` (all present, a one-word domain) from `x`: the event.
    #[inline]
    pub(crate) fn remove_present_bits(&mut self, x: VarId, bits: u64) -> Result<Event, Conflict> {
        self.store.remove_present_bits(x, bits)
    }
}

/// Cloning a boxed propagator, so that a whole model can be cloned for another thread.
/// Implemented for every propagator that is `Clone`: derive `Clone` and nothing more.
pub trait PropagatorClone {
    fn clone_box(&self) -> Box<dyn Propagator>;
}

impl<T: Propagator + Clone + 'static> PropagatorClone for T {
    fn clone_box(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

/// A constraint's filtering algorithm. See the module documentation.
pub trait Propagator: PropagatorClone + Send + Sync + fmt::Debug {
    /// A short name for the profile, e.g. `"alldiff_value"`.
    fn name(&self) -> &'static str;

    /// The variables to watch, and when to be woken for each.
    fn subscriptions(&self) -> Vec<Subscription>;

    /// When to run relative to other propagators.
    fn priority(&self) -> Priority {
        Priority::Medium
    }

    /// Called once when the propagator is posted, before its first run: allocate the
    /// reversible integers its incremental state needs.
    fn register(&mut self, _post: &mut PostContext<'_>) {}

    /// The reference algorithm: prune from the current domains alone. It takes `&self`, so
    /// it cannot remember anything: tests use it as the oracle of the incremental path.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult;

    /// The engine's first run after posting, and after a restart: forget the incremental
    /// state, rebuild it from the current domains and prune. It must prune exactly what
    /// `propagate_from_scratch` prunes. By default, that very algorithm.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate_from_scratch(ctx)
    }

    /// Variable number `local` (its index in `subscriptions`) changed with `event`. Record
    /// what the incremental `propagate` needs, and say whether to schedule the propagator.
    fn notify(&mut self, _local: usize, _event: Event) -> EnqueueDecision {
        EnqueueDecision::Enqueue
    }

    /// The incremental algorithm, run when scheduled. Defaults to the reference algorithm.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate_from_scratch(ctx)
    }

    /// Forget anything recorded by `notify` (called when a conflict empties the queue).
    fn clear_pending(&mut self) {}

    /// Does one run reach this propagator's own fixpoint? If so, its own prunings do not
    /// wake it again.
    fn idempotent(&self) -> bool {
        false
    }

    /// Does this propagator stand for several constraints in the degree heuristics
    /// (`occurrence`, dom/wdeg, AFC)? Then [`Propagator::open_constraints_on`] says how
    /// many of them still watch each variable; otherwise each watch counts once.
    fn counts_as_several(&self) -> bool {
        false
    }

    /// How many of the constraints this propagator stands for are still open on its
    /// variable number `local` (asked only when [`Propagator::counts_as_several`]): a
    /// ladder of fifty `b ⇔ x ≤ t` (`thresholds.rs`) weighs on `x` as the fifty separate
    /// propagators it replaces would, minus the ones already decided.
    fn open_constraints_on(&self, _local: usize, _store: &Store) -> u64 {
        1
    }

    /// A rule of the search that removes solutions (symmetry breaking such as
    /// `precedence.rs`), not a constraint. Learning must rest only on constraints, so it
    /// treats what a rule does as it treats a decision: never explained, kept as it is in a
    /// nogood, and a rule's failure teaches nothing (`learning/causes.rs`).
    fn is_search_rule(&self) -> bool {
        false
    }

    /// Learning (`engine/src/learning/reason.rs`): push onto `reason` atoms that hold in
    /// `inputs` (the domains of `subscriptions`, by local index, before a run) and with this
    /// constraint imply `atom`, which a run from those inputs made true. Return `false` to
    /// leave it to the generic reason (all the inputs), which is what the default does.
    fn explain(&self, _inputs: &[Domain], _atom: Atom, _reason: &mut Vec<Atom>) -> bool {
        false
    }

    /// Learning: push atoms that hold in `inputs` and with this constraint admit no
    /// assignment, after a run from those inputs failed. `false`: use the generic reason.
    fn explain_failure(&self, _inputs: &[Domain], _reason: &mut Vec<Atom>) -> bool {
        false
    }

    /// Learning, given also the root domains of the inputs (`roots`): [`Propagator::explain`]
    /// with the freedom to name *weaker* atoms, as far as the constraint allows, down to
    /// root facts, which the learner drops (lifting, `propagators/linear_explain.rs`). The
    /// default is `explain`, which a propagator without such freedom keeps.
    fn explain_lifted(
        &self,
        inputs: &[Domain],
        _roots: RootDomains<'_>,
        atom: Atom,
        reason: &mut Vec<Atom>,
    ) -> bool {
        self.explain(inputs, atom, reason)
    }

    /// [`Propagator::explain_failure`] with the root domains, as `explain_lifted`.
    fn explain_failure_lifted(
        &self,
        inputs: &[Domain],
        _roots: RootDomains<'_>,
        reason: &mut Vec<Atom>,
    ) -> bool {
        self.explain_failure(inputs, reason)
    }
}

/// The root domains of a propagator's variables, by local index, as learning lends them to
/// [`Propagator::explain_lifted`]: what holds in every solution, so an atom true in its
/// root domain says nothing and a reason need not name it.
#[derive(Clone, Copy)]
pub struct RootDomains<'a> {
    /// The variables by local index (as in `subscriptions`).
    pub vars: &'a [VarId],
    /// The root domain of a variable.
    pub of: &'a dyn Fn(VarId) -> &'a Domain,
}

impl fmt::Debug for RootDomains<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RootDomains of {:?}", self.vars)
    }
}

impl<'a> RootDomains<'a> {
    /// The root domain of local variable `i`.
    pub fn get(&self, i: usize) -> &'a Domain {
        (self.of)(self.vars[i])
    }
}

impl Clone for Box<dyn Propagator> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
