//! # Explanations, the model's half: switching the recorder on, and finding reasons
//!
//! The recorder (engine/src/explain.rs) sits in the propagation loop and keeps, for each
//! removal from a watched variable, the domains the propagator read. Here, with the whole
//! model at hand, a removal becomes a [`Reason`]: the few of those domains that make the
//! propagator, run alone from scratch on a fresh store, remove the value again.

use super::Model;
use crate::domain::Domain;
use crate::explain::{Reason, Removal, RemovalRecorder, Watched};
use crate::propagator::{Context, Propagator};
use crate::store::{Store, VarId};

impl Model {
    /// Switch the removal recorder on: from now on every propagator run is counted, and the
    /// removals from `watched` variables are recorded with their inputs. The domains now
    /// are the "any value" of [`Model::explain`]: start before the first propagation.
    pub fn start_recording(&mut self, watched: Watched) {
        let recorder = RemovalRecorder::new(watched, self.store.domains());
        let trail = self.propagation.trail.take();
        self.propagation.observe(Some(Box::new(recorder)), trail);
    }

    /// Switch the recorder off, and return what it recorded.
    pub fn stop_recording(&mut self) -> Option<RemovalRecorder> {
        let trail = self.propagation.trail.take();
        let (recorder, _) = self.propagation.observe(None, trail);
        recorder.map(|r| *r)
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
