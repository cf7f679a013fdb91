//! # The trail of changes: what changed, when, and why
//!
//! Conflict analysis walks back from a failure through the changes that led to it, so a
//! learning solver keeps, beside the store's undo trail, a record of every domain change in
//! the order it happened (Feydy & Stuckey's "trail of literals", Pumpkin's assignment
//! trail). Each [`Change`] says which variable went from which domain to which, at which
//! decision level, and its [`Cause`]:
//!
//! * a **decision** of the search (`x = 3`, or the right branch `x ≠ 3`): no reason, it was
//!   chosen;
//! * the **bound** of branch and bound (`objective ≤ 41`): a constraint that only tightens,
//!   so it is treated as a fact, as if it had been posted at the root;
//! * a **propagator run**, and where on the trail it began: its *inputs* (the domains of its
//!   variables just before it ran) are read back from the trail when the propagator is asked
//!   to explain the change (`reason.rs`);
//! * a **learned nogood** that became unit (`nogoods.rs`): its other atoms are the reason.
//!
//! An atom ([`crate::atom::Atom`]) has a **place** on the trail: the earliest change after
//! which it holds (domains only shrink along the trail, so it holds from then on). An atom
//! that held already when learning began (after the search's root propagation) is a
//! *root fact*: implied by the constraints alone, it never appears in a nogood.
//!
//! **Cost.** The trail is filled only while learning is on: the propagation loop's
//! recording copy (propagation.rs) hands every run to [`Trail::observe_run`]; a run that
//! removed no value costs one test. Only a run that changed something (or failed) is kept,
//! as its propagator and its place on the trail, and each domain it changed (its size
//! differs from the trail's latest domain of that variable) as a [`Change`]. Each variable
//! keeps the positions of its changes with the bounds they left, so that finding an atom's
//! place is a binary search over a short array of its own. With learning off,
//! none of this exists. The trail follows the store's levels lazily: a change made at a
//! level that has since been closed is dropped ([`Trail::sync`]) before anything is added.

use super::reason::{has_holes, Root, SPARSE_ROOT};
use super::reason_cache::SharedReasonCache;
use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Context, PropResult, Propagator};
use crate::store::{Store, VarId};

/// Why a domain changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A search decision (left or right branch): the atom the search imposed.
    Decision(Atom),
    /// The objective bound of branch and bound: a fact from then on.
    Bound(Atom),
    /// A propagator run: index into [`Trail::runs`].
    Run(u32),
    /// Learned nogood number `.0` became unit and imposed atom `.1`.
    Nogood(u32, Atom),
}

/// One domain change.
#[derive(Clone, Debug)]
pub struct Change {
    pub var: VarId,
    pub before: Domain,
    pub after: Domain,
    /// The store's level when it happened, and that level's epoch (never reused).
    pub level: usize,
    pub epoch: u64,
    pub cause: Cause,
}

/// One propagator run that changed something (or failed): the propagator, and where on the
/// trail it began. Its **inputs**, the domains of its subscriptions by local index just
/// before the run, are not copied: they are what the trail says of those variables at that
/// position ([`Trail::inputs`]), since every change of a domain is on the trail.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub propagator: u32,
    /// The number of changes on the trail when the run began.
    pub start: u32,
}

/// One change of a variable, as the variable's own list keeps it: where it is on the trail
/// and the bounds it left. [`Trail::place`] searches these lists; the bounds answer most
/// atoms (`≥`, `≤`, `=`, and `≠` a value outside them) without reading the change itself.
#[derive(Clone, Copy, Debug)]
struct VarStep {
    position: u32,
    min: i32,
    max: i32,
}

impl VarStep {
    fn new(position: usize, after: &Domain) -> VarStep {
        VarStep {
            position: position as u32,
            min: after.min(),
            max: after.max(),
        }
    }
}

/// Where an atom stands on the trail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// It held when learning began: a root fact.
    Root,
    /// It holds since change number `.0`.
    At(usize),
    /// It does not hold now.
    Nowhere,
}

/// Every change since learning began, in order.
#[derive(Clone, Debug, Default)]
pub struct Trail {
    /// The domains when learning began (after the root propagation).
    root: Vec<Domain>,
    /// The values of each root domain with holes and at most `SPARSE_ROOT` values, listed
    /// (`reason.rs` describes a domain against its root by walking them).
    root_values: Vec<Option<Vec<i32>>>,
    changes: Vec<Change>,
    runs: Vec<Run>,
    /// For each variable, its changes in order: their positions and the bounds after each.
    of_var: Vec<Vec<VarStep>>,
    /// For each propagator, its subscriptions' variables by local index (filled on first run).
    vars_of: Vec<Vec<VarId>>,
    /// The run that failed last, with its inputs (the start of conflict analysis).
    pub failure: Option<Run>,
    /// A propagator changed a variable it does not subscribe to: its changes cannot be
    /// explained, and learning stops (nothing is learned from then on).
    pub broken: bool,
    /// For each variable, the value it last had when a backtrack undid it (phase saving,
    /// `activity.rs`); `NO_PHASE` if none yet.
    phases: Vec<i32>,
    /// The shortest the trail has been since [`Trail::shortest_since_asked`] was last
    /// called: a reader that went through the trail up to some position must look again
    /// from here.
    shortest: usize,
    /// The runs' reasons computed so far (`reason_cache.rs`), filled while explaining.
    pub reason_cache: SharedReasonCache,
}

/// `Trail::phases` of a variable never undone while fixed.
const NO_PHASE: i32 = i32::MIN;

impl Trail {
    /// Start recording in a store whose current domains become the root facts.
    pub fn new(domains: &[Domain]) -> Trail {
        let sparse = |d: &Domain| has_holes(d) && d.size() <= SPARSE_ROOT;
        Trail {
            root: domains.to_vec(),
            root_values: (domains.iter())
                .map(|d| sparse(d).then(|| d.iter().collect()))
                .collect(),
            of_var: vec![Vec::new(); domains.len()],
            phases: vec![NO_PHASE; domains.len()],
            ..Trail::default()
        }
    }

    pub fn len(&self) -> usize {
        self.changes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    pub fn change(&self, position: usize) -> &Change {
        &self.changes[position]
    }

    pub fn run(&self, r: u32) -> &Run {
        &self.runs[r as usize]
    }

    /// The inputs of `run`: the domains of its propagator's variables, by local index, when
    /// it began (the last change of each before `run.start`, or its root domain).
    pub fn inputs(&self, run: &Run) -> Vec<Domain> {
        (self.vars_of(run.propagator).iter())
            .map(|&x| self.domain_at(x, run.start as usize).clone())
            .collect()
    }

    /// [`Trail::inputs`] into `out`, reusing its domains' memory.
    pub fn inputs_into(&self, run: &Run, out: &mut Vec<Domain>) {
        let vars = self.vars_of(run.propagator);
        out.truncate(vars.len());
        for (i, &x) in vars.iter().enumerate() {
            let domain = self.domain_at(x, run.start as usize);
            match out.get_mut(i) {
                Some(d) => d.clone_from(domain),
                None => out.push(domain.clone()),
            }
        }
    }

    /// The domain of `x` just before change number `position`.
    fn domain_at(&self, x: VarId, position: usize) -> &Domain {
        let steps = &self.of_var[x.index()];
        match steps.partition_point(|s| (s.position as usize) < position) {
            0 => &self.root[x.index()],
            k => &self.changes[steps[k - 1].position as usize].after,
        }
    }

    /// The domain of `x` when learning began.
    pub fn root_domain(&self, x: VarId) -> &Domain {
        &self.root[x.index()]
    }

    /// The root domain of `x` as the learner's descriptions use it (`reason.rs`).
    pub fn root(&self, x: VarId) -> Root<'_> {
        Root::new(
            &self.root[x.index()],
            self.root_values[x.index()].as_deref(),
        )
    }

    /// `atom` in its canonical spelling (`canonical.rs`): the one all analyses use.
    pub fn canonical(&self, atom: Atom) -> Atom {
        super::canonical::canonical(atom, &self.root[atom.var().index()])
    }

    /// Propagator `p`'s variables by local index (known once it has run while recording).
    pub fn vars_of(&self, p: u32) -> &[VarId] {
        self.vars_of.get(p as usize).map_or(&[], |v| v)
    }

    /// The shortest the trail has been since the last call (its length now, if it did not
    /// shrink).
    pub fn shortest_since_asked(&mut self) -> usize {
        let shortest = self.shortest.min(self.changes.len());
        self.shortest = self.changes.len();
        shortest
    }

    /// The value `x` last had when a backtrack undid it, if it was ever undone while fixed.
    pub fn phase(&self, x: VarId) -> Option<i32> {
        let v = self.phases[x.index()];
        (v != NO_PHASE).then_some(v)
    }

    /// Drop the changes made at levels the store has closed since.
    pub fn sync(&mut self, store: &Store) {
        while let Some(last) = self.changes.last() {
            if store.epoch_at(last.level) == Some(last.epoch) {
                break;
            }
            let change = self.changes.pop().unwrap();
            self.shortest = self.shortest.min(self.changes.len());
            self.of_var[change.var.index()].pop();
            if change.after.is_fixed() {
                self.phases[change.var.index()] = change.after.value();
            }
            if let Cause::Run(r) = change.cause {
                self.runs.truncate(r as usize);
            }
        }
    }

    /// Record that `x`, which was `before`, is now as in `store`, because of `cause`.
    pub fn record(&mut self, store: &Store, x: VarId, before: Domain, cause: Cause) {
        self.sync(store);
        self.push(store, x, before, cause);
    }

    fn push(&mut self, store: &Store, x: VarId, before: Domain, cause: Cause) {
        let level = store.level();
        let change = Change {
            var: x,
            before,
            after: store.domain(x).clone(),
            level,
            epoch: store.epoch_at(level).unwrap_or(0),
            cause,
        };
        self.of_var[x.index()].push(VarStep::new(self.changes.len(), &change.after));
        self.changes.push(change);
    }

    /// Where `atom` stands: the earliest change after which it holds.
    pub fn place(&self, atom: Atom) -> Place {
        let x = atom.var();
        if atom.holds_in(&self.root[x.index()]) {
            return Place::Root;
        }
        let steps = &self.of_var[x.index()];
        // Holding is monotone along the trail: find the first change after which it holds.
        let holds_after = |s: &VarStep| match atom {
            Atom::AtLeast(_, v) => s.min >= v,
            Atom::AtMost(_, v) => s.max <= v,
            Atom::Equal(_, v) => s.min == v && s.max == v,
            Atom::NotEqual(_, v) if v < s.min || v > s.max => true,
            Atom::NotEqual(..) => atom.holds_in(&self.changes[s.position as usize].after),
        };
        let first = steps.partition_point(|s| !holds_after(s));
        match steps.get(first) {
            Some(s) => Place::At(s.position as usize),
            None => Place::Nowhere,
        }
    }

    /// The decision level of a place (the root facts' is 0).
    pub fn level_of(&self, place: Place) -> usize {
        match place {
            Place::At(p) => self.changes[p].level,
            _ => 0,
        }
    }

    /// The propagation loop runs propagator `p` through `run`: record each variable it
    /// changed (or, if it failed, the failed run for conflict analysis). Nothing is copied
    /// or measured before the run: the domains before it are the trail's latest ones (every
    /// change of a domain is on the trail), so a run that removed nothing costs one test.
    pub(crate) fn observe_run(
        &mut self,
        p: u32,
        prop: &mut Box<dyn Propagator>,
        ctx: &mut Context<'_>,
        run: impl FnOnce(&mut Box<dyn Propagator>, &mut Context<'_>) -> PropResult,
    ) -> PropResult {
        let i = p as usize;
        if self.vars_of.len() <= i {
            self.vars_of.resize(i + 1, Vec::new());
        }
        if self.vars_of[i].is_empty() {
            self.vars_of[i] = prop.subscriptions().iter().map(|s| s.var).collect();
        }
        let removed_before = ctx.removed_count();
        let result = run(prop, ctx);
        let removed = ctx.removed_count() - removed_before;
        if result.is_ok() && removed == 0 {
            return result;
        }
        // The trail up to here is what the store held before the run.
        self.sync(ctx.store());
        let start = self.changes.len() as u32;
        if result.is_err() {
            self.failure = Some(Run {
                propagator: p,
                start,
            });
            return result;
        }
        let r = self.runs.len() as u32;
        let mut accounted = 0u64;
        for local in 0..self.vars_of[i].len() {
            let x = self.vars_of[i][local];
            let before = self.domain_at(x, start as usize);
            if ctx.size(x) == before.size() || self.vars_of[i][..local].contains(&x) {
                continue;
            }
            accounted += (before.size() - ctx.size(x)) as u64;
            let before = before.clone();
            let store = ctx.store();
            let level = store.level();
            let after = store.domain(x).clone();
            self.of_var[x.index()].push(VarStep::new(self.changes.len(), &after));
            self.changes.push(Change {
                var: x,
                before,
                after,
                level,
                epoch: store.epoch_at(level).unwrap_or(0),
                cause: Cause::Run(r),
            });
        }
        if accounted != removed {
            self.broken = true;
        }
        self.runs.push(Run {
            propagator: p,
            start,
        });
        result
    }

    /// The positions of changes of nogood causes (their nogoods must not be deleted).
    pub fn nogoods_in_use(&self) -> impl Iterator<Item = u32> + '_ {
        self.changes.iter().filter_map(|c| match c.cause {
            Cause::Nogood(k, _) => Some(k),
            _ => None,
        })
    }
}
