//! # Model helpers for the scheduling and permutation globals
//!
//! The modelling vocabulary for `inverse`, `cumulative` and `disjunctive` (the globals that
//! MiniZinc models reach through `mznlib/`). Each helper only chooses propagators; the
//! algorithms live in `propagators/inverse.rs` and `propagators/scheduling/`.

use crate::model::Model;
use crate::propagation::PropId;
use crate::propagators::alldiff::AllDiffLevel;
use crate::propagators::inverse::Inverse;
use crate::propagators::scheduling::cumulative::Cumulative;
use crate::propagators::scheduling::cumulative_var::CumulativeVar;
use crate::propagators::scheduling::disjunctive::Disjunctive;
use crate::store::VarId;

impl Model {
    /// `xs[i] = y_base + j ⇔ ys[j] = x_base + i`, positions of `xs` counted from `x_base`
    /// and of `ys` from `y_base` (MiniZinc's `inverse` with its index sets). Posts the
    /// channelling propagator and a domain-consistent all-different on `xs`: together they
    /// are domain consistent for the whole constraint (see `inverse.rs`).
    pub fn inverse(&mut self, xs: &[VarId], x_base: i32, ys: &[VarId], y_base: i32) -> PropId {
        let id = self.post(Box::new(Inverse::new(xs, x_base, ys, y_base)));
        if xs.len() > 1 {
            let _ = self.all_different(xs, AllDiffLevel::Domain);
        }
        id
    }

    /// Tasks starting at `starts[i]`, running `durations[i]` and using `uses[i]` units, never
    /// use more than `capacity` at once (time-tabling, `scheduling/cumulative.rs`).
    pub fn cumulative(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
        uses: &[i32],
        capacity: i32,
    ) -> PropId {
        self.post(Box::new(Cumulative::new(starts, durations, uses, capacity)))
    }

    /// [`Model::cumulative`] with variable durations, uses and capacity (time-tabling with
    /// each task's least duration and use, `scheduling/cumulative_var.rs`). Also makes the
    /// durations and uses non-negative, and the capacity too when there is a task.
    ///
    /// When the least uses of any two tasks already exceed the largest capacity, no two tasks
    /// of positive length may overlap: the resource is unary. Then a [`Model::disjunctive`]
    /// over the least durations is posted beside it (implied, since a task runs at least
    /// that long), for its overload check and detectable precedences, which time-tabling
    /// lacks — as Gecode does for MiniZinc's `cumulative`, and as MiniZinc itself does
    /// when the uses are constants.
    pub fn cumulative_var(
        &mut self,
        starts: &[VarId],
        durations: &[VarId],
        uses: &[VarId],
        capacity: VarId,
    ) -> PropId {
        let id = self.post(Box::new(CumulativeVar::new(
            starts, durations, uses, capacity,
        )));
        let mut least_uses: Vec<i64> = uses.iter().map(|&r| self.min(r).max(0) as i64).collect();
        least_uses.sort_unstable();
        if least_uses.len() >= 2 && least_uses[0] + least_uses[1] > self.max(capacity) as i64 {
            let least_durations: Vec<i32> = durations.iter().map(|&d| self.min(d).max(0)).collect();
            let _ = self.disjunctive(starts, &least_durations, false);
        }
        id
    }

    /// Tasks starting at `starts[i]` and running `durations[i]` never overlap (zero-length
    /// tasks may sit anywhere unless `strict`; `scheduling/disjunctive.rs`).
    pub fn disjunctive(&mut self, starts: &[VarId], durations: &[i32], strict: bool) -> PropId {
        self.post(Box::new(Disjunctive::new(starts, durations, strict)))
    }
}
