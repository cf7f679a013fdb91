//! # Model helpers for the scheduling, packing and permutation globals
//!
//! The modelling vocabulary for `inverse`, `cumulative`, `disjunctive` and `diffn` (the
//! globals that MiniZinc models reach through `mznlib/`). Each helper only chooses
//! propagators; the algorithms live in `propagators/inverse.rs`, `propagators/scheduling/`
//! and `propagators/packing/`.

use crate::model::Model;
use crate::propagation::PropId;
use crate::propagators::alldiff::AllDiffLevel;
use crate::propagators::inverse::Inverse;
use crate::propagators::packing::diffn::Diffn;
use crate::propagators::scheduling::cumulative::Cumulative;
use crate::propagators::scheduling::cumulative_var::CumulativeVar;
use crate::propagators::scheduling::disjunctive::Disjunctive;
use crate::propagators::scheduling::edge_finding::{Amount, EdgeFinding, Task};
use crate::store::VarId;

/// The most tasks a resource may have for edge finding to be posted beside its
/// time-table: the reference algorithm costs O(n³) a run, twice (both directions); past
/// this size Vilím's O(kn log n) algorithm is the one to write.
pub(crate) const EDGE_FINDING_MAX_TASKS: usize = 16;

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
    /// use more than `capacity` at once (time-tabling, `scheduling/cumulative.rs`), with
    /// edge finding beside it on a resource of at most [`EDGE_FINDING_MAX_TASKS`] tasks, as
    /// Gecode posts both for MiniZinc's `cumulative` with constant uses: the energy a task
    /// needs inside its window, which time-tabling does not see before the task has a
    /// compulsory part, closed most of the tree of the `smelt` model
    /// (docs/performance/trees.md, "Edge finding on every small cumulative").
    pub fn cumulative(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
        uses: &[i32],
        capacity: i32,
    ) -> PropId {
        let id = self.post(Box::new(Cumulative::new(starts, durations, uses, capacity)));
        let tasks = (0..starts.len())
            .map(|i| Task {
                start: starts[i],
                duration: Amount::Fixed(durations[i] as i64),
                usage: Amount::Fixed(uses[i] as i64),
            })
            .collect();
        self.edge_finding(tasks, Amount::Fixed(capacity as i64));
        id
    }

    /// Edge finding (`scheduling/edge_finding.rs`) over `tasks` on a resource of
    /// `capacity`, to post beside a time-table; nothing on more than
    /// [`EDGE_FINDING_MAX_TASKS`] tasks, where its reference algorithm costs too much (O(n³)
    /// a run). The model posts it beside every [`Model::cumulative`] and
    /// [`Model::disjunctive`], and beside a [`Model::cumulative_var`] whose tasks cannot
    /// overlap.
    pub fn edge_finding(&mut self, tasks: Vec<Task>, capacity: Amount) {
        if tasks.len() >= 2 && tasks.len() <= EDGE_FINDING_MAX_TASKS {
            let _ = self.post(Box::new(EdgeFinding::new(tasks, capacity)));
        }
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
            // The disjunctive brings its own edge finding, on a capacity of one: stronger
            // than the cumulative rule here, where a task leaves less than half the
            // capacity to the others.
            let least_durations: Vec<i32> = durations.iter().map(|&d| self.min(d).max(0)).collect();
            let _ = self.disjunctive(starts, &least_durations, false);
        }
        id
    }

    /// Tasks starting at `starts[i]` and running `durations[i]` never overlap (zero-length
    /// tasks may sit anywhere unless `strict`; `scheduling/disjunctive.rs`).
    pub fn disjunctive(&mut self, starts: &[VarId], durations: &[i32], strict: bool) -> PropId {
        let id = self.post(Box::new(Disjunctive::new(starts, durations, strict)));
        let tasks = (0..starts.len())
            .map(|i| Task {
                start: starts[i],
                duration: Amount::Fixed(durations[i] as i64),
                usage: Amount::Fixed(1),
            })
            .collect();
        self.edge_finding(tasks, Amount::Fixed(1));
        id
    }

    /// Rectangles at `(x[i], y[i])` of width `dx[i]` and height `dy[i]` never overlap; a
    /// rectangle with a zero size still may not lie inside another unless `strict` is false
    /// (MiniZinc's `diffn` and `diffn_nonstrict`; pairwise reasoning, `packing/diffn.rs`).
    ///
    /// When every size is a constant `≥ 0`, also posts the two redundant **projections**, as
    /// Gecode's FlatZinc front end does: seen along the x axis, the rectangles are tasks
    /// starting at `x[i]`, lasting `dx[i]` and using `dy[i]` units of a resource whose
    /// capacity is the height of the strip the `y` may span, `max y + max dy − min y`; and the
    /// same along y. A `disjunctive` when no two tasks fit side by side, else a `cumulative`.
    /// The projections reason about all rectangles at once (the overload check), which the
    /// pairwise rules cannot.
    pub fn diffn(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
        strict: bool,
    ) -> PropId {
        let id = self.post(Box::new(Diffn::new(x, y, dx, dy, strict)));
        let constant = |m: &Model, sizes: &[VarId]| -> Option<Vec<i32>> {
            sizes
                .iter()
                .map(|&s| (m.is_fixed(s) && m.value(s) >= 0).then(|| m.value(s)))
                .collect()
        };
        if let (Some(widths), Some(heights)) = (constant(self, dx), constant(self, dy)) {
            self.packing_projection(x, &widths, &heights, y);
            self.packing_projection(y, &heights, &widths, x);
        }
        id
    }

    /// One projection of `diffn` (see [`Model::diffn`]): tasks `(starts[i], durations[i],
    /// uses[i])` within the capacity of the strip that `across` and `uses` span.
    fn packing_projection(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
        uses: &[i32],
        across: &[VarId],
    ) {
        // Only the tasks that take room count (as in `cumulative`).
        let counted: Vec<usize> = (0..starts.len())
            .filter(|&i| durations[i] > 0 && uses[i] > 0)
            .collect();
        if counted.len() < 2 {
            return;
        }
        let low = across.iter().map(|&v| self.min(v) as i64).min().unwrap();
        let high = across.iter().map(|&v| self.max(v) as i64).max().unwrap();
        let tallest = uses.iter().copied().max().unwrap() as i64;
        let Ok(capacity) = i32::try_from(high + tallest - low) else {
            return;
        };
        let mut smallest: Vec<i64> = counted.iter().map(|&i| uses[i] as i64).collect();
        smallest.sort_unstable();
        let starts: Vec<VarId> = counted.iter().map(|&i| starts[i]).collect();
        let durations: Vec<i32> = counted.iter().map(|&i| durations[i]).collect();
        if smallest[0] + smallest[1] > capacity as i64 {
            let _ = self.disjunctive(&starts, &durations, false);
        } else {
            let uses: Vec<i32> = counted.iter().map(|&i| uses[i]).collect();
            let _ = self.cumulative(&starts, &durations, &uses, capacity);
        }
    }
}
