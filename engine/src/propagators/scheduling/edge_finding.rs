//! # Edge finding for cumulative: energy that does not fit before a task's end
//!
//! Time-tabling (`cumulative.rs`) sees only the **compulsory parts**: a task whose window
//! `[est, lct)` is much wider than its duration has none, and adds nothing to the profile,
//! however much of the resource it must take inside that window. Edge finding reasons on
//! **energy** instead: task `j` needs `e[j] = d[j] · r[j]` units of resource × time inside
//! its window, and a set of tasks `Ω` all inside `[est_Ω, lct_Ω)` needs `e_Ω = Σ e[j]` there,
//! of the `C · (lct_Ω − est_Ω)` the resource offers.
//!
//! * **Overload**: `e_Ω > C · (lct_Ω − est_Ω)`: no schedule, fail.
//! * **Detection** (the "edge"): for a task `i ∉ Ω`, if
//!   `e_Ω + e[i] > C · (lct_Ω − min(est_Ω, est[i]))`, then `i` cannot end by `lct_Ω`: it
//!   ends after every task of `Ω` ends (`Ω ⋖ i`).
//! * **Adjustment**: then, for any `Θ ⊆ Ω`, the energy of `Θ` that does not fit beside `i`
//!   in `[est_Θ, lct_Θ)` (where `i` leaves `C − r[i]` units to the others), the
//!   `rest = e_Θ − (C − r[i]) · (lct_Θ − est_Θ)`, if positive, must run before `i` starts:
//!   `est[i] ≥ est_Θ + ⌈rest / r[i]⌉`.
//!
//! The mirror (time turned round) moves the latest end of each task down the same way.
//!
//! Nuijten, "Time and resource constrained scheduling" (PhD thesis, 1994) gave the rules;
//! Mercier & Van Hentenryck, "Edge finding for cumulative scheduling" (INFORMS Journal on
//! Computing 2008) showed the adjustment needs every `Θ ⊆ Ω`, not `Ω` alone; Vilím,
//! "Edge finding filtering algorithm for discrete cumulative resources in O(kn log n)"
//! (CP 2009) is the fast algorithm. Gecode's `cumulative` runs edge finding beside its
//! time-table.
//!
//! **The reference algorithm here: task intervals, O(n³).** It is enough to look at the sets
//! `Ω` that are **task intervals**: the tasks whose windows lie in `[a, b)`, for `a` an
//! earliest start and `b` a latest completion of some task (any other set has a task
//! interval around it with at least its energy and at most its window). With the distinct
//! `a`s and `b`s sorted, the energy of every interval is a table of O(n²) entries, each a
//! sum over the tasks (O(n³) in all). Then, for each task `i`: the value of the adjustment
//! for each interval `Θ` (without `i`), the best value over the intervals inside each
//! interval (a maximum swept over the table, O(n²)), and the best of these over the
//! intervals `Ω` that detect `i`. The bounds of an interval (`a`, `b`) stand in for the
//! least start and the greatest end of its tasks: never tighter than them, so every
//! pruning stays sound, and equal to them for the intervals that matter, which the loop
//! meets too.
//!
//! **Variable durations, uses and capacity** (`cumulative_var.rs`): each task's least
//! duration and least use make its energy and its use `r[i]`, its latest completion is its
//! latest start plus its greatest duration, and `C` is the greatest capacity. Every rule
//! above stays sound with an energy that is only a lower bound, a window that is only an
//! outer bound and `C` an upper bound; the adjustment with a use below the true one is
//! weaker (`est_Θ + rest / r` grows with `r` while `Ω` fits alone).
//!
//! **Consistency**: neither stronger nor weaker than time-tabling, so it runs beside it:
//! `Model::cumulative` and `Model::disjunctive` post it (as Gecode does for MiniZinc's
//! `cumulative` with constant uses), and so `Model::cumulative_var` on a resource whose
//! tasks cannot overlap; elsewhere `Model::edge_finding` posts it on request.
//! **Explanations** under learning: the generic one (the bounds of every task), see
//! `learning/reason.rs`.
//!
//! | wakes on | prunes | cost |
//! |---|---|---|
//! | bounds of the starts (and of durations, uses, capacity when variables) | earliest starts, latest starts | O(n³) |

use super::{set_max_wide, set_min_wide};
use crate::propagator::{
    Condition, Conflict, Context, Priority, PropResult, Propagator, Subscription,
};
use crate::store::VarId;

/// A duration, a use or a capacity: a constant, or a variable read by its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Fixed(i64),
    Var(VarId),
}

impl Amount {
    fn least(self, ctx: &Context<'_>) -> i64 {
        match self {
            Amount::Fixed(v) => v,
            Amount::Var(x) => ctx.min(x) as i64,
        }
    }
    fn greatest(self, ctx: &Context<'_>) -> i64 {
        match self {
            Amount::Fixed(v) => v,
            Amount::Var(x) => ctx.max(x) as i64,
        }
    }
}

/// One task of the resource: its start, duration and use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    pub start: VarId,
    pub duration: Amount,
    pub usage: Amount,
}

/// What edge finding knows of a task: the window it must run in, the energy it needs
/// there, and the use it takes while it runs (`energy > 0` and `usage > 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Earliest start.
    pub est: i64,
    /// Latest completion.
    pub lct: i64,
    pub energy: i64,
    pub usage: i64,
}

/// The earliest start each task may have after edge finding (one per window, never below
/// its `est`), or a conflict when some task interval is overloaded or a task detected to
/// end after an interval cannot. Windows of no energy are ignored (their entry is their
/// own `est`). Time turned round gives the latest completions.
pub fn earliest_starts(windows: &[Window], capacity: i64) -> Result<Vec<i64>, Conflict> {
    let mut new_est: Vec<i64> = windows.iter().map(|w| w.est).collect();
    let active: Vec<usize> = (0..windows.len())
        .filter(|&j| windows[j].energy > 0 && windows[j].usage > 0)
        .collect();
    if active.is_empty() {
        return Ok(new_est);
    }
    let mut starts: Vec<i64> = active.iter().map(|&j| windows[j].est).collect();
    let mut ends: Vec<i64> = active.iter().map(|&j| windows[j].lct).collect();
    starts.sort_unstable();
    starts.dedup();
    ends.sort_unstable();
    ends.dedup();
    // The energy of each task interval [starts[a], ends[b]).
    let (na, nb) = (starts.len(), ends.len());
    // energy[a * nb + b] and inner[a * nb + b]: tables over the intervals, row by row.
    let mut energy = vec![0i64; na * nb];
    // The least room left in any interval: an interval detects task `i` only if its room
    // is less than `i`'s energy (its energy without `i` plus `i`'s exceeds the capacity
    // times a length at least its own), so a task of no more energy is skipped.
    let mut least_room = i64::MAX;
    for (a, &from) in starts.iter().enumerate() {
        for (b, &to) in ends.iter().enumerate() {
            if from >= to {
                continue;
            }
            let e: i64 = active
                .iter()
                .map(|&j| &windows[j])
                .filter(|w| w.est >= from && w.lct <= to)
                .map(|w| w.energy)
                .sum();
            // Overload: the interval's tasks need more than the resource offers in it.
            if e > capacity.saturating_mul(to - from) {
                return Err(Conflict::new());
            }
            energy[a * nb + b] = e;
            least_room = least_room.min(capacity.saturating_mul(to - from) - e);
        }
    }
    let mut inner = vec![i64::MIN; na * nb];
    for &i in &active {
        if windows[i].energy <= least_room {
            continue;
        }
        let best = adjustment_for(windows, i, &starts, &ends, &energy, &mut inner, capacity)?;
        if let Some(est) = best {
            new_est[i] = new_est[i].max(est);
        }
    }
    Ok(new_est)
}

/// For task `i`: the greatest earliest start that the intervals detecting it impose, or
/// `None` when none does. A conflict when an interval detects `i` and `i` cannot end after
/// it.
fn adjustment_for(
    windows: &[Window],
    i: usize,
    starts: &[i64],
    ends: &[i64],
    energy: &[i64],
    inner: &mut [i64],
    capacity: i64,
) -> Result<Option<i64>, Conflict> {
    let wi = &windows[i];
    let (na, nb) = (starts.len(), ends.len());
    // The energy of interval (a, b) without task i.
    let without_i = |a: usize, b: usize| {
        let inside = wi.est >= starts[a] && wi.lct <= ends[b];
        energy[a * nb + b] - if inside { wi.energy } else { 0 }
    };
    // The intervals that detect i (i ends after all their tasks); a conflict when i
    // cannot. Most tasks are detected by none, and then the sweep below is not needed.
    let mut detecting: Vec<usize> = Vec::new();
    for a in 0..na {
        for b in 0..nb {
            let e = without_i(a, b);
            if starts[a] >= ends[b] || e == 0 {
                continue;
            }
            let from = starts[a].min(wi.est);
            if e + wi.energy > capacity.saturating_mul(ends[b] - from) {
                if wi.lct <= ends[b] {
                    return Err(Conflict::new());
                }
                detecting.push(a * nb + b);
            }
        }
    }
    if detecting.is_empty() {
        return Ok(None);
    }
    // inner[a * nb + b]: the best adjustment over the intervals Θ inside
    // [starts[a], ends[b]), swept from the narrowest (greatest a, least b) outwards.
    for a in (0..na).rev() {
        for b in 0..nb {
            let mut best = i64::MIN;
            if a + 1 < na {
                best = best.max(inner[(a + 1) * nb + b]);
            }
            if b > 0 {
                best = best.max(inner[a * nb + b - 1]);
            }
            if starts[a] < ends[b] {
                let length = ends[b] - starts[a];
                let rest = without_i(a, b) - (capacity - wi.usage).saturating_mul(length);
                if rest > 0 && without_i(a, b) > 0 {
                    best = best.max(starts[a] + div_ceil(rest, wi.usage));
                }
            }
            inner[a * nb + b] = best;
        }
    }
    // The best adjustment over the detecting intervals.
    let best = detecting.iter().map(|&cell| inner[cell]).max();
    Ok(best.filter(|&v| v != i64::MIN))
}

/// `⌈a / b⌉` for `b > 0`.
fn div_ceil(a: i64, b: i64) -> i64 {
    a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0)
}

/// Edge finding over the tasks of a cumulative resource (see the module docs).
#[derive(Clone, Debug)]
pub struct EdgeFinding {
    tasks: Vec<Task>,
    capacity: Amount,
}

impl EdgeFinding {
    pub fn new(tasks: Vec<Task>, capacity: Amount) -> EdgeFinding {
        EdgeFinding { tasks, capacity }
    }

    /// Each task's window, energy and use as the domains are now, forward in time or
    /// turned round (`-lct`, `-est`).
    fn windows(&self, ctx: &Context<'_>, turned: bool) -> Vec<Window> {
        self.tasks
            .iter()
            .map(|t| {
                let (d, r) = (t.duration.least(ctx).max(0), t.usage.least(ctx).max(0));
                let est = ctx.min(t.start) as i64;
                let lct = ctx.max(t.start) as i64 + t.duration.greatest(ctx).max(0);
                let (est, lct) = if turned { (-lct, -est) } else { (est, lct) };
                Window {
                    est,
                    lct,
                    energy: d * r,
                    usage: r,
                }
            })
            .collect()
    }
}

impl Propagator for EdgeFinding {
    fn name(&self) -> &'static str {
        "edge_finding"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs: Vec<Subscription> = Vec::new();
        let mut watch = |a: Amount| {
            if let Amount::Var(x) = a {
                subs.push(Subscription::new(x, Condition::Bounds));
            }
        };
        for t in &self.tasks {
            watch(Amount::Var(t.start));
            watch(t.duration);
            watch(t.usage);
        }
        watch(self.capacity);
        subs
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let capacity = self.capacity.greatest(ctx);
        let forward = earliest_starts(&self.windows(ctx, false), capacity)?;
        let backward = earliest_starts(&self.windows(ctx, true), capacity)?;
        for (k, t) in self.tasks.iter().enumerate() {
            set_min_wide(ctx, t.start, forward[k])?;
            // The task ends by -backward[k], so it starts by that less its least duration.
            let least_duration = t.duration.least(ctx).max(0);
            set_max_wide(ctx, t.start, -backward[k] - least_duration)?;
        }
        Ok(())
    }
}
