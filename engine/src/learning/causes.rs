//! # The reason of an atom on the trail
//!
//! Conflict analysis replaces an atom by the atoms that made it true. An atom's place on
//! the trail (`trail.rs`) is the change after which it first held; that change's cause says
//! where its reason comes from:
//!
//! * a **propagator run**: the propagator explains the atom from the run's inputs
//!   ([`crate::Propagator::explain`]); if it cannot, the generic reason (all its inputs,
//!   `reason.rs`) is always right; the answer is remembered while the run stays on the
//!   trail (`reason_cache.rs`);
//! * a **learned nogood** that imposed `¬l`: the nogood's other atoms, which all held;
//! * the **bound**: nothing (a fact), or, if the bound alone does not imply the atom, the
//!   variable's domain before it (the bound narrowed a domain with holes);
//! * a **decision** `d`: the atom *is* the decision (it has no reason: analysis stops
//!   there), or `d` implies it, or `d` together with the domain before does;
//! * a **search rule**'s run (`Propagator::is_search_rule`, e.g. symmetry breaking): like a
//!   decision, no reason. What a rule fixes holds because of the way the search went, not
//!   because of the constraints, and a nogood must follow from the constraints alone.
//!
//! Every atom of a reason holds before the change, so each step of the analysis moves
//! strictly back along the trail, and the analysis ends.

use super::implication::implies;
use super::nogoods::NogoodStore;
pub use super::reason::Origin;
use super::reason::{
    describe_against_root, description_size, generic_reason_within_ceiling, MAX_REASON_ATOMS,
};
use super::reason_cache::ChangeStamp;
use super::trail::{Cause, Trail};
use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Propagator, RootDomains};
use crate::store::VarId;

/// The propagators of the model, by number (the search lends them to the analysis).
pub type Propagators<'a> = &'a dyn Fn(u32) -> &'a dyn Propagator;

/// Push the reason of `atom`, which first held after change `position`.
pub fn reason_of(
    trail: &Trail,
    nogoods: &NogoodStore,
    propagators: Propagators<'_>,
    position: usize,
    atom: Atom,
    out: &mut Vec<Atom>,
) -> Origin {
    let change = trail.change(position);
    let root = trail.root(change.var);
    // A run's reason comes from its propagator; the other causes may have to describe the
    // domain before (sized first: a wide hole is not written out).
    if !matches!(change.cause, Cause::Run(_))
        && description_size(&change.before, root) > MAX_REASON_ATOMS
    {
        // The domain before may have to be described: not within the ceiling.
        let implied = match change.cause {
            Cause::Decision(d) => trail.canonical(d) == trail.canonical(atom) || implies(d, atom),
            Cause::Bound(b) | Cause::Nogood(_, b) => implies(b, atom),
            Cause::Run(_) => true,
        };
        if !implied {
            return Origin::TooLong;
        }
    }
    let describe_before =
        |out: &mut Vec<Atom>| describe_against_root(change.var, &change.before, root, out);
    match change.cause {
        Cause::Decision(d) => {
            if trail.canonical(d) == trail.canonical(atom) {
                // The decision itself, perhaps spelt otherwise (`canonical.rs`).
                return Origin::Decision;
            }
            out.push(d);
            if !implies(d, atom) {
                describe_before(out);
            }
        }
        Cause::Bound(b) => {
            if !implies(b, atom) {
                describe_before(out);
            }
        }
        Cause::Nogood(k, imposed) => {
            out.extend(
                nogoods
                    .atoms(k)
                    .iter()
                    .copied()
                    .filter(|&a| a.negated() != imposed),
            );
            if !implies(imposed, atom) {
                describe_before(out);
            }
        }
        Cause::Run(r) => {
            let mut cache = trail.reason_cache.lock();
            let stamp = ChangeStamp {
                level: change.level,
                epoch: change.epoch,
            };
            if let Some(origin) = cache.recall(position, atom, stamp, out) {
                return origin;
            }
            // A propagator explains into an empty vector of its own (some rewrite the whole
            // vector they are given), reused from one explanation to the next.
            let mut reason = std::mem::take(&mut cache.scratch);
            reason.clear();
            let inputs = cache.inputs_of_run(r, stamp, |v| trail.inputs_into(trail.run(r), v));
            let origin = explain_run(trail, propagators, r, inputs, atom, &mut reason);
            cache.remember(position, atom, stamp, origin, &reason);
            out.extend_from_slice(&reason);
            cache.scratch = reason;
            return origin;
        }
    }
    Origin::Derived
}

/// The reason of `atom`, made true by run `r` whose inputs were `inputs`, from the
/// propagator (or the generic reason).
fn explain_run(
    trail: &Trail,
    propagators: Propagators<'_>,
    r: u32,
    inputs: &[Domain],
    atom: Atom,
    out: &mut Vec<Atom>,
) -> Origin {
    let run = trail.run(r);
    let prop = propagators(run.propagator);
    if prop.is_search_rule() {
        return Origin::Decision;
    }
    let start = out.len();
    let root_of = |x: VarId| trail.root_domain(x);
    let roots = RootDomains {
        vars: trail.vars_of(run.propagator),
        of: &root_of,
    };
    let explained = prop.explain_lifted(inputs, roots, atom, out);
    if !explained {
        out.truncate(start);
        let vars = trail.vars_of(run.propagator);
        let root = |x: VarId| trail.root(x);
        if !generic_reason_within_ceiling(vars, inputs, root, out) {
            return Origin::TooLong;
        }
    }
    if out.len() - start > MAX_REASON_ATOMS {
        return Origin::TooLong;
    }
    Origin::Derived
}
