//! # Explanations: which propagator removed a value, and why
//!
//! A human solver justifies every pencil mark she erases: "not 5 here, because there is a 5
//! in this row". A propagator does the same work, but silently. This file makes it speak.
//!
//! **Recording.** When a [`RemovalRecorder`] is switched on ([`Model::start_recording`]),
//! the fixpoint loop hands it every propagator run. For each run it counts the values
//! removed (the trace's per-node summary: which propagators removed how much), and when the
//! propagator watches one of the variables to explain, it keeps a copy of the domains of the
//! propagator's variables *just before* the run: the propagator's inputs. A [`Removal`]
//! says: this propagator, given these domains, removed these values from that variable.
//! Switched off, the recorder costs one test per fixpoint: the loop has a second copy for
//! recording (propagation.rs; docs/PERFORMANCE.md, "The removal recorder switched off").
//!
//! **Explaining.** The inputs of a propagator over many variables are mostly irrelevant to
//! one removal: a Sudoku row's all-different removes 5 from r1c1 because r1c4 = 5, whatever
//! the other cells hold. [`Model::explain`] finds the inputs that matter by trying: it
//! forgets one input at a time (gives it every value of the propagator's range), runs the
//! propagator alone, from scratch, on a fresh store with what is left, and keeps the input
//! forgotten if the value is still removed. Of an input that must stay it then tries the
//! bounds alone. What remains is a [`Reason`]: a small set of domains that, on their own,
//! make the propagator remove the value. It is not a paraphrase: [`Model::reproduces`]
//! re-applies it, and the explanation is only given when that check passes.
//!
//! (A propagator justifying its prunings is what a *lazy clause generation* solver such as
//! Pumpkin or Chuffed asks of every propagator, to learn clauses from conflicts. Here the
//! reasons are found after the fact, by re-running the reference algorithm, which needs
//! nothing from the propagators but their `propagate_from_scratch`.)

use crate::domain::Domain;
use crate::model::Model;
use crate::propagator::{Context, PropResult, Propagator};
use crate::store::{Store, VarId};

/// Which variables' removals are recorded with their inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Watched {
    /// None: only the counts per propagator run (for the trace).
    Nothing,
    /// These variables.
    Vars(Vec<VarId>),
    /// Every variable.
    All,
}

/// One propagator run that removed values from a watched variable.
#[derive(Clone, Debug)]
pub struct Removal {
    /// The fixpoint it happened in (see [`RemovalRecorder::fixpoints`]).
    pub fixpoint: u64,
    /// The propagator (its number in the model) and its name.
    pub propagator: u32,
    pub name: &'static str,
    /// The variable that lost values, and the values it lost.
    pub var: VarId,
    pub values: Vec<i32>,
    /// The domain of each variable the propagator watches just before the run (`var`'s too).
    pub inputs: Vec<(VarId, Domain)>,
}

/// Why `propagator` removed `value` from `var`: it does so on its own, run from scratch,
/// when the variables of `stated` have those domains and every other variable has
/// `others` (which holds every value of the propagator's variables when recording began).
#[derive(Clone, Debug)]
pub struct Reason {
    pub propagator: u32,
    pub name: &'static str,
    pub var: VarId,
    pub value: i32,
    /// The inputs that matter: each variable's domain before the run, or only its bounds
    /// (then the domain is the whole interval between them).
    pub stated: Vec<(VarId, Domain)>,
    /// The domain given to every variable not in `stated`.
    pub others: Domain,
}

/// What the fixpoint loop records while it is switched on.
#[derive(Clone, Debug)]
pub struct RemovalRecorder {
    watched: Watched,
    /// `is_watched[x]` for `Watched::Vars` (empty otherwise).
    is_watched: Vec<bool>,
    /// Per propagator, its variables (from its subscriptions, each once), filled when the
    /// propagator first runs; and whether any of them is watched.
    inputs: Vec<Option<(Vec<VarId>, bool)>>,
    /// Every domain when recording began: what "any value" means for an input.
    initial: Vec<Domain>,
    /// Fixpoints begun since recording began (the first is number 1).
    pub fixpoints: u64,
    /// The runs of the latest fixpoint that removed values: (propagator, values removed).
    latest: Vec<(u32, u64)>,
    /// Every removal from a watched variable, in order.
    removals: Vec<Removal>,
}

impl RemovalRecorder {
    /// Record the removals from `watched` in a model whose domains are `domains`.
    fn new(watched: Watched, domains: &[Domain]) -> RemovalRecorder {
        let mut is_watched = Vec::new();
        if let Watched::Vars(vars) = &watched {
            is_watched = vec![false; domains.len()];
            for x in vars {
                if let Some(w) = is_watched.get_mut(x.index()) {
                    *w = true;
                }
            }
        }
        RemovalRecorder {
            watched,
            is_watched,
            inputs: Vec::new(),
            initial: domains.to_vec(),
            fixpoints: 0,
            latest: Vec::new(),
            removals: Vec::new(),
        }
    }

    fn watches(&self, x: VarId) -> bool {
        match self.watched {
            Watched::Nothing => false,
            Watched::All => true,
            Watched::Vars(_) => self.is_watched.get(x.index()).copied().unwrap_or(false),
        }
    }

    /// The removals recorded so far, in order.
    pub fn removals(&self) -> &[Removal] {
        &self.removals
    }

    /// The propagator runs of the latest fixpoint (number [`RemovalRecorder::fixpoints`])
    /// that removed values: (propagator, how many values), in the order they ran.
    pub fn latest_fixpoint(&self) -> &[(u32, u64)] {
        &self.latest
    }

    /// The fixpoint loop begins a fixpoint.
    pub(crate) fn begin_fixpoint(&mut self) {
        self.fixpoints += 1;
        self.latest.clear();
    }

    /// The fixpoint loop runs propagator `p` through `run`: count what it removes and, if it
    /// watches a watched variable, record its removals from it with the inputs.
    pub(crate) fn record(
        &mut self,
        p: u32,
        prop: &mut Box<dyn Propagator>,
        ctx: &mut Context<'_>,
        run: impl FnOnce(&mut Box<dyn Propagator>, &mut Context<'_>) -> PropResult,
    ) -> PropResult {
        let removed_before = ctx.removed_count();
        let i = p as usize;
        if self.inputs.len() <= i {
            self.inputs.resize(i + 1, None);
        }
        if self.inputs[i].is_none() && self.watched != Watched::Nothing {
            let mut vars: Vec<VarId> = prop.subscriptions().iter().map(|s| s.var).collect();
            vars.sort_by_key(|x| x.0);
            vars.dedup();
            let any = vars.iter().any(|&x| self.watches(x));
            self.inputs[i] = Some((vars, any));
        }
        let before: Vec<(VarId, Domain)> = match &self.inputs[i] {
            Some((vars, true)) => vars.iter().map(|&x| (x, ctx.domain(x).clone())).collect(),
            _ => Vec::new(),
        };
        let result = run(prop, ctx);
        let removed = ctx.removed_count() - removed_before;
        if removed == 0 {
            return result;
        }
        self.latest.push((p, removed));
        // A run that failed removed values on the way to a conflict: the node fails, and
        // those removals explain nothing.
        result?;
        for (x, was) in &before {
            if !self.watches(*x) || ctx.size(*x) == was.size() {
                continue;
            }
            let values: Vec<i32> = was.iter().filter(|&v| !ctx.contains(*x, v)).collect();
            self.removals.push(Removal {
                fixpoint: self.fixpoints,
                propagator: p,
                name: prop.name(),
                var: *x,
                values,
                inputs: before.clone(),
            });
        }
        Ok(())
    }
}

impl Model {
    /// Switch the removal recorder on: from now on every propagator run is counted, and the
    /// removals from `watched` variables are recorded with their inputs. The domains now
    /// are the "any value" of [`Model::explain`]: start before the first propagation.
    pub fn start_recording(&mut self, watched: Watched) {
        let recorder = RemovalRecorder::new(watched, self.store.domains());
        self.propagation.recorder = Some(Box::new(recorder));
    }

    /// Switch the recorder off, and return what it recorded.
    pub fn stop_recording(&mut self) -> Option<RemovalRecorder> {
        self.propagation.recorder.take().map(|r| *r)
    }

    /// The recorder, if it is on.
    pub fn recorder(&self) -> Option<&RemovalRecorder> {
        self.propagation.recorder.as_deref()
    }

    /// The name of propagator `p`.
    pub fn propagator_name(&self, p: u32) -> &'static str {
        self.propagation.name(p)
    }

    /// Propagator `p` itself: to re-run its reference algorithm alone on a reason's
    /// domains (the tests re-apply every reason `--explain` prints).
    pub fn propagator(&self, p: u32) -> &dyn Propagator {
        self.propagation.propagator(p)
    }

    /// Why `removal` happened: one [`Reason`] per value removed, with as few inputs as the
    /// propagator needs to remove it again (see the module documentation). `initial` is the
    /// recorder's (the domains when recording began). A value whose removal the propagator
    /// does not repeat from scratch on the recorded inputs (an incremental run that removed
    /// more than its reference would: a bug) gets no reason.
    pub fn explain(&self, recorder: &RemovalRecorder, removal: &Removal) -> Vec<Reason> {
        // "Any value": every value any input of this propagator had when recording began.
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for (x, _) in &removal.inputs {
            if let Some(d) = recorder.initial.get(x.index()).filter(|d| !d.is_empty()) {
                lo = lo.min(d.min());
                hi = hi.max(d.max());
            }
        }
        if lo > hi {
            return Vec::new();
        }
        let others = Domain::interval(lo, hi);
        let mut reasons = Vec::new();
        for &value in &removal.values {
            let mut reason = Reason {
                propagator: removal.propagator,
                name: removal.name,
                var: removal.var,
                value,
                stated: removal.inputs.clone(),
                others: others.clone(),
            };
            if !self.reproduces(&reason) {
                continue;
            }
            // Forget inputs one at a time: the variable itself first, then the unfixed
            // ones, then the fixed ones (a reason that keeps fixed values reads best).
            let mut order: Vec<VarId> = removal.inputs.iter().map(|(x, _)| *x).collect();
            order.sort_by_key(|&x| {
                let fixed = removal.inputs.iter().any(|(y, d)| *y == x && d.is_fixed());
                (x != removal.var, fixed)
            });
            for x in order {
                let at = reason.stated.iter().position(|(y, _)| *y == x).unwrap();
                let kept = reason.stated.remove(at);
                if !self.reproduces(&reason) {
                    reason.stated.insert(at, kept);
                }
            }
            // Of the inputs that stay, are the bounds enough?
            for at in 0..reason.stated.len() {
                let d = &reason.stated[at].1;
                let hull = Domain::interval(d.min(), d.max());
                if hull.size() == d.size() {
                    continue;
                }
                let exact = std::mem::replace(&mut reason.stated[at].1, hull);
                if !self.reproduces(&reason) {
                    reason.stated[at].1 = exact;
                }
            }
            reasons.push(reason);
        }
        reasons
    }

    /// Re-apply `reason` on its own: a fresh store where the stated variables have their
    /// stated domains and every other variable `reason.others`, the propagator alone run
    /// once from scratch. True when it succeeds and `reason.value` is no longer in the
    /// domain of `reason.var`.
    pub fn reproduces(&self, reason: &Reason) -> bool {
        let mut store = Store::new();
        for i in 0..self.num_vars() {
            let x = VarId(i as u32);
            let domain = match reason.stated.iter().find(|(y, _)| *y == x) {
                Some((_, d)) => d.clone(),
                None => reason.others.clone(),
            };
            store.new_var(domain);
        }
        if !store.contains(reason.var, reason.value) {
            return false;
        }
        let prop = self.propagation.propagator(reason.propagator);
        prop.propagate_from_scratch(&mut Context::new(&mut store))
            .is_ok()
            && !store.contains(reason.var, reason.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AllDiffLevel, Relation};

    #[test]
    fn an_all_different_removes_a_fixed_value_because_of_that_value_alone() {
        let mut m = Model::new();
        let xs = m.new_vars(4, 1, 4);
        m.all_different(&xs, AllDiffLevel::Value);
        m.fix(xs[2], 3).unwrap();
        m.start_recording(Watched::Vars(vec![xs[0]]));
        m.propagate().unwrap();
        let recorder = m.stop_recording().unwrap();
        let removals = recorder.removals();
        assert_eq!(removals.len(), 1);
        assert_eq!(
            (removals[0].var, removals[0].values.clone()),
            (xs[0], vec![3])
        );
        let reasons = m.explain(&recorder, &removals[0]);
        assert_eq!(reasons.len(), 1);
        // Only x2 = 3 matters: the other inputs were forgotten.
        assert_eq!(reasons[0].stated.len(), 1);
        assert_eq!(reasons[0].stated[0].0, xs[2]);
        assert!(m.reproduces(&reasons[0]));
        // Without the one stated input, the propagator would not remove the value.
        let mut weaker = reasons[0].clone();
        weaker.stated.clear();
        assert!(!m.reproduces(&weaker));
    }

    #[test]
    fn a_sum_states_the_bounds_that_force_the_removal() {
        // x + y = 10 with y in {1, 3} (an interval's ends suffice) removes x < 7.
        let mut m = Model::new();
        let x = m.new_var(1, 9);
        let y = m.new_var_from_values(&[1, 3]);
        m.linear(&[(1, x), (1, y)], Relation::Eq, 10);
        m.start_recording(Watched::All);
        m.propagate().unwrap();
        let recorder = m.stop_recording().unwrap();
        let from_x: Vec<&Removal> = recorder.removals().iter().filter(|r| r.var == x).collect();
        assert!(!from_x.is_empty());
        for removal in from_x {
            for reason in m.explain(&recorder, removal) {
                assert!(m.reproduces(&reason), "{reason:?}");
                assert!(reason.stated.iter().any(|(v, _)| *v == y), "{reason:?}");
            }
        }
        // The counts of the last fixpoint add up to what the store removed.
        let counted: u64 = recorder.latest_fixpoint().iter().map(|(_, n)| n).sum();
        assert_eq!(counted, m.removed_count());
    }
}
