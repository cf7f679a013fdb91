//! # Checking mode: every reason and every nogood verified by brute force
//!
//! A wrong reason makes a wrong nogood, and a wrong nogood silently cuts solutions away: a
//! count too low, an optimum that is not one, "unsatisfiable" for a satisfiable model.
//! Nothing in the search would notice. So the tests (and anyone debugging a new `explain`)
//! can switch on a checking mode (`SearchConfig::check_learning`) that, on small models,
//! tries every assignment:
//!
//! * **a reason** (`reason ⇒ atom` under one propagator's constraint): every assignment of
//!   the propagator's variables, within the root domains and the reason's atoms, that the
//!   constraint accepts satisfies the atom; for a failure's reason, none is accepted. The
//!   root domains are the trail's (where the learning turn began): the analysis drops the
//!   atoms that hold there, so a reason may leave them out too (a lifted reason does);
//! * **a nogood**: no solution of the model (better than the bound, when optimising) has
//!   all its atoms.
//!
//! A constraint "accepts" a full assignment when its reference propagator
//! (`propagate_from_scratch`), run on those fixed values, reports no conflict. A violation
//! panics with the offending reason or nogood. Models too large to enumerate are not checked.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Context, Propagator};
use crate::store::{Store, VarId};

/// Assignments enumerated at most, per reason or for the model's solutions.
pub const MAX_ASSIGNMENTS: u64 = 200_000;

/// A scratch store to run propagators on fixed values, and the model's solutions.
#[derive(Clone, Debug)]
pub struct Checker {
    scratch: Store,
    root: Vec<Domain>,
    /// Every solution of the model (None: too many assignments to enumerate).
    solutions: Option<Vec<Vec<i32>>>,
    pub reasons_checked: u64,
    pub nogoods_checked: u64,
}

/// Does `prop` accept the values `assignment` (pairs of variable and value)?
fn accepts(prop: &dyn Propagator, scratch: &mut Store, assignment: &[(VarId, i32)]) -> bool {
    scratch.push_level();
    let fixed = assignment.iter().all(|&(x, v)| scratch.fix(x, v).is_ok());
    let ok = fixed
        && prop
            .propagate_from_scratch(&mut Context::new(scratch))
            .is_ok();
    scratch.drop_modified();
    scratch.pop_level();
    ok
}

/// Call `visit` on every assignment of `vars` within `domains` (one domain per variable),
/// unless there are more than [`MAX_ASSIGNMENTS`]: then false.
fn each_assignment(
    vars: &[VarId],
    domains: &[Vec<i32>],
    mut visit: impl FnMut(&[(VarId, i32)]),
) -> bool {
    let count = domains
        .iter()
        .try_fold(1u64, |n, d| n.checked_mul(d.len() as u64));
    if count.is_none_or(|n| n > MAX_ASSIGNMENTS) {
        return false;
    }
    let mut index = vec![0usize; vars.len()];
    let mut assignment: Vec<(VarId, i32)> = Vec::with_capacity(vars.len());
    if domains.iter().any(|d| d.is_empty()) {
        return true;
    }
    loop {
        assignment.clear();
        assignment.extend(
            vars.iter()
                .enumerate()
                .map(|(k, &x)| (x, domains[k][index[k]])),
        );
        visit(&assignment);
        let mut k = 0;
        loop {
            if k == vars.len() {
                return true;
            }
            index[k] += 1;
            if index[k] < domains[k].len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

impl Checker {
    /// A checker for a model whose store (at the search's root, after propagation) is
    /// `store`, and whose propagators are `propagators`.
    pub fn new(store: &Store, propagators: &[&dyn Propagator]) -> Checker {
        let mut scratch = store.clone();
        let root = store.domains().to_vec();
        let vars: Vec<VarId> = (0..root.len() as u32).map(VarId).collect();
        let domains: Vec<Vec<i32>> = root.iter().map(|d| d.iter().collect()).collect();
        let mut solutions = Vec::new();
        let complete = each_assignment(&vars, &domains, |assignment| {
            if propagators
                .iter()
                .all(|p| accepts(*p, &mut scratch, assignment))
            {
                solutions.push(assignment.iter().map(|&(_, v)| v).collect());
            }
        });
        Checker {
            scratch,
            root,
            solutions: complete.then_some(solutions),
            reasons_checked: 0,
            nogoods_checked: 0,
        }
    }

    /// Check that `reason` and `prop`'s constraint imply `atom` (a failure if `None`), within
    /// the trail's root domains `root`.
    pub fn check_reason<'r>(
        &mut self,
        prop: &dyn Propagator,
        vars: &[VarId],
        root: &dyn Fn(VarId) -> &'r Domain,
        reason: &[Atom],
        atom: Option<Atom>,
    ) {
        let mut scope: Vec<VarId> = vars.to_vec();
        scope.extend(atom.map(|a| a.var()));
        scope.sort();
        scope.dedup();
        let domains: Vec<Vec<i32>> = scope
            .iter()
            .map(|&x| {
                (self.root[x.index()].iter())
                    .filter(|&v| root(x).contains(v))
                    .filter(|&v| reason.iter().all(|a| a.var() != x || a.holds_for(v)))
                    .collect()
            })
            .collect();
        let scratch = &mut self.scratch;
        let mut counterexample = None;
        let checked = each_assignment(&scope, &domains, |assignment| {
            if counterexample.is_some() || !accepts(prop, scratch, assignment) {
                return;
            }
            let holds = atom.is_some_and(|a| {
                assignment
                    .iter()
                    .any(|&(x, v)| x == a.var() && a.holds_for(v))
            });
            if !holds {
                counterexample = Some(assignment.to_vec());
            }
        });
        if let Some(values) = counterexample {
            let reason: Vec<String> = reason.iter().map(|a| a.to_string()).collect();
            panic!(
                "learning check: {} explains {} by [{}], but accepts {:?}",
                prop.name(),
                atom.map_or("a failure".to_string(), |a| a.to_string()),
                reason.join(", "),
                values
            );
        }
        if checked {
            self.reasons_checked += 1;
        }
    }

    /// Check that no solution of the model (accepted by `better`, the bound) has every atom
    /// of `nogood`.
    pub fn check_nogood(&mut self, nogood: &[Atom], better: impl Fn(&[i32]) -> bool) {
        let Some(solutions) = &self.solutions else {
            return;
        };
        for s in solutions {
            if better(s) && nogood.iter().all(|a| a.holds_for(s[a.var().index()])) {
                let atoms: Vec<String> = nogood.iter().map(|a| a.to_string()).collect();
                panic!(
                    "learning check: the nogood [{}] excludes the solution {s:?}",
                    atoms.join(", ")
                );
            }
        }
        self.nogoods_checked += 1;
    }

    /// How many solutions the model has, if it was small enough to enumerate.
    pub fn solution_count(&self) -> Option<usize> {
        self.solutions.as_ref().map(|s| s.len())
    }
}
