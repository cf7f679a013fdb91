//! # One learning step: from a failure to a stored nogood
//!
//! What the search does at each failure when learning is on, in order:
//!
//! 1. the **first nogood**: the failed propagator's `explain_failure` (or all its inputs),
//!    or the learned nogood that found every one of its atoms holding;
//! 2. **analysis** to the first unique implication point (`analysis.rs`);
//! 3. **minimisation** (`minimise.rs`: subsumed atoms, then recursive minimisation);
//! 4. in checking mode, the nogood verified against every solution (`checking.rs`);
//! 5. **storage**: the nogood store propagates it from the next node on (`nogoods.rs`),
//!    and deletes the worst half of its nogoods when it grows past its limit.

use super::activity::Activity;
use super::analysis::{analyse, Learned};
use super::causes::Propagators;
use super::checking::Checker;
use super::minimise::{drop_redundant, drop_subsumed};
use super::nogoods::NogoodStore;
use super::reason::generic_reason_within_ceiling;
use super::trail::{Cause, Trail};
use crate::atom::Atom;
use crate::propagator::RootDomains;
use crate::store::{Store, VarId};

/// The learning state of one search.
#[derive(Clone, Debug)]
pub struct Learner {
    pub nogoods: NogoodStore,
    /// The checking mode's brute force, when it is on.
    pub checker: Option<Box<Checker>>,
    /// The nogood that found the last conflict, if a nogood did.
    pub nogood_conflict: Option<u32>,
    /// Failures from which nothing was learned (a reason found faulty, or no propagator to
    /// ask: a bound that could not be applied).
    pub unexplained: u64,
    /// The variables' activities (bumped by every nogood), for activity-based branching.
    pub activity: Activity,
}

impl Learner {
    pub fn new(num_vars: usize, checker: Option<Checker>) -> Learner {
        Learner {
            nogoods: NogoodStore::new(num_vars),
            checker: checker.map(Box::new),
            nogood_conflict: None,
            unexplained: 0,
            activity: Activity::new(num_vars),
        }
    }

    /// The atoms that failed together: the nogood that fired, or the failed run's reason.
    fn first_nogood(
        &mut self,
        trail: &mut Trail,
        propagators: Propagators<'_>,
        failed: Option<u32>,
    ) -> Option<Vec<Atom>> {
        let run = trail.failure.take();
        if let Some(k) = self.nogood_conflict.take() {
            return Some(self.nogoods.atoms(k).to_vec());
        }
        let run = run.filter(|r| Some(r.propagator) == failed)?;
        let prop = propagators(run.propagator);
        if prop.is_search_rule() {
            // Not a constraint: its failure is no nogood (`causes.rs`).
            return None;
        }
        let inputs = trail.inputs(&run);
        let mut atoms = Vec::new();
        let root_of = |x: VarId| trail.root_domain(x);
        let roots = RootDomains {
            vars: trail.vars_of(run.propagator),
            of: &root_of,
        };
        if !prop.explain_failure_lifted(&inputs, roots, &mut atoms) {
            atoms.clear();
            let vars = trail.vars_of(run.propagator);
            let root = |x| trail.root(x);
            if !generic_reason_within_ceiling(vars, &inputs, root, &mut atoms) {
                return None;
            }
        }
        if let Some(checker) = self.checker.as_mut() {
            let root = |x: VarId| trail.root_domain(x);
            checker.check_reason(prop, trail.vars_of(run.propagator), &root, &atoms, None);
        }
        Some(atoms)
    }

    /// Learn from the failure just found at the store's current level (`failed`: the
    /// propagator that failed, if one did); `better` says which solutions the nogood must
    /// keep (all, or those beating the bound). The nogood learned, if any, is stored.
    pub fn learn(
        &mut self,
        trail: &mut Trail,
        store: &Store,
        propagators: Propagators<'_>,
        failed: Option<u32>,
        better: &dyn Fn(&[i32]) -> bool,
    ) -> Option<Learned> {
        trail.sync(store);
        let start = if trail.broken {
            None
        } else {
            self.first_nogood(trail, propagators, failed)
        };
        let Some(start) = start else {
            self.unexplained += 1;
            return None;
        };
        let learned = {
            let checker = &mut self.checker;
            let trail_ref: &Trail = trail;
            let mut check = |position: usize, atom: Atom, reason: &[Atom]| {
                let Some(checker) = checker.as_mut() else {
                    return;
                };
                if let Cause::Run(r) = trail_ref.change(position).cause {
                    let p = trail_ref.run(r).propagator;
                    let root = |x: VarId| trail_ref.root_domain(x);
                    let vars = trail_ref.vars_of(p);
                    checker.check_reason(propagators(p), vars, &root, reason, Some(atom));
                }
            };
            analyse(
                trail_ref,
                &self.nogoods,
                propagators,
                &start,
                store.level(),
                Some(&mut check),
            )
        };
        let Some(mut learned) = learned else {
            self.unexplained += 1;
            return None;
        };
        drop_subsumed(&mut learned.atoms);
        drop_redundant(&mut learned.atoms, trail, &self.nogoods, propagators);
        settle_levels(&mut learned, trail, store.level());
        if let Some(checker) = self.checker.as_mut() {
            checker.check_nogood(&learned.atoms, better);
        }
        let mut vars: Vec<_> = learned.atoms.iter().map(|a| a.var()).collect();
        vars.dedup();
        for x in vars {
            self.activity.bump(x);
        }
        self.activity.decay();
        self.nogoods.add(learned.atoms.clone(), learned.lbd);
        self.nogoods.reduce(trail);
        Some(learned)
    }
}

/// After minimisation, where the nogood sends the search back to: with one atom of the
/// current level, to the highest level of the others (there it imposes that atom's
/// negation); with none, to its highest level (there it fails at once); with several, it
/// does not assert, and the search backtracks one level as usual.
fn settle_levels(learned: &mut Learned, trail: &Trail, level: usize) {
    let levels: Vec<usize> = learned
        .atoms
        .iter()
        .map(|&a| trail.level_of(trail.place(a)))
        .collect();
    let here = levels.iter().filter(|&&l| l == level).count();
    let below = levels
        .iter()
        .copied()
        .filter(|&l| l < level)
        .max()
        .unwrap_or(0);
    learned.asserting = here <= 1;
    learned.backjump_level = below;
}
