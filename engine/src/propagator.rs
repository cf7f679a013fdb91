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
//!   prunes, remembering nothing. Tests use it as the oracle;
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

pub use crate::conflict::{Conflict, PropResult};
use crate::domain::Event;
use crate::store::{Store, VarId};
use std::fmt;
use std::ops::{Deref, DerefMut};

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

/// What a propagator sees while it runs: the store (through `Deref`), plus a way to declare
/// itself entailed.
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
}

impl Deref for Context<'_> {
    type Target = Store;
    fn deref(&self) -> &Store {
        self.store
    }
}

impl DerefMut for Context<'_> {
    fn deref_mut(&mut self) -> &mut Store {
        self.store
    }
}

/// A constraint's filtering algorithm. See the module documentation.
pub trait Propagator: Send + Sync + fmt::Debug {
    /// A short name for the profile, e.g. `"alldiff_value"`.
    fn name(&self) -> &'static str;

    /// The variables to watch, and when to be woken for each.
    fn subscriptions(&self) -> Vec<Subscription>;

    /// When to run relative to other propagators.
    fn priority(&self) -> Priority {
        Priority::Medium
    }

    /// The reference algorithm: prune from the current domains alone.
    fn propagate_from_scratch(&mut self, ctx: &mut Context<'_>) -> PropResult;

    /// Variable number `local` (its index in `subscriptions`) changed with `event`. Record
    /// what the incremental `propagate` needs, and return whether to schedule the propagator.
    fn notify(&mut self, _local: usize, _event: Event) -> bool {
        true
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

    /// A boxed copy, so that a whole model can be cloned for another thread.
    fn clone_box(&self) -> Box<dyn Propagator>;
}

impl Clone for Box<dyn Propagator> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
