//! # Cumulative with variable durations, uses and capacity
//!
//! `cumulative(s, d, r, c)` where every argument is a variable: task `i` runs over
//! `[s[i], s[i] + d[i])` and uses `r[i]` units, and at every time `t` the tasks running use at
//! most `c` units: `∀t: Σ { r[i] : s[i] ≤ t < s[i] + d[i] } ≤ c`. As MiniZinc assumes,
//! durations and uses are non-negative, and with at least one task the capacity is too: this
//! propagator enforces `d[i] ≥ 0`, `r[i] ≥ 0` and `c ≥ 0` (the constant form in
//! `cumulative.rs` fails on a negative constant the same way). With constant durations, uses
//! and capacity, use `cumulative.rs`: it prunes the starts exactly as this one does.
//!
//! **Time-tabling with the least duration and use** (Beldiceanu & Carlsson, "A new
//! multi-resource cumulatives constraint with negative heights", CP 2002, which has variable
//! durations and heights; the rules for them as in Schutt, Feydy, Stuckey & Wallace, "Explaining
//! the cumulative propagator", Constraints 2011): whatever values it gets, task `i` runs at
//! least over `[max(s), min(s) + min(d))` using at least `min(r)`, so that is its compulsory
//! part, and the profile of these parts (see the parent module) is a lower bound of the use at
//! every time. Then, with `others` the profile less the task's own part:
//!
//! 1. **capacity**: fail if the profile exceeds `max(c)`; raise `min(c)` to its peak, and to
//!    `min(r)` of every task that surely runs (`min(d) > 0`);
//! 2. **starts** (task with `min(d) > 0` and `min(r) > 0`): leave every segment where
//!    `others + min(r) > max(c)`, with the length `min(d)` — exactly the constant rule;
//! 3. **uses** (task with `min(d) > 0`): the task runs over its compulsory part (in time, even
//!    when `min(r) = 0`), so `r ≤ max(c) − others` on every segment meeting it, and
//!    `r ≤ max(c)` in any case;
//! 4. **durations** (task with `min(r) > 0`): a segment where `others + min(r) > max(c)` may not
//!    be covered, so from a start `t` the task runs at most up to the first such segment at or
//!    after `t` (not at all if `t` is inside one). `max(d)` falls to the longest such run over
//!    the starts in `[min(s), max(s)]`; a task whose `min(r)` exceeds `max(c)` gets `d = 0`.
//!
//! **Consistency**: checking (once everything is fixed every task is its own compulsory part
//! and the profile is the exact use), plus the rules above — weaker than bounds consistency,
//! which is NP-hard for cumulative. Energetic reasoning and edge-finding are not implemented.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | bounds of starts, durations, uses, capacity | time-tabling | O(n log n) for the profile, O(n · segments) to prune |
//!
//! **Explanations** (learning): the four rules replayed on a graph of derived bounds, each
//! bound naming the tasks it rests on (`cumulative_var_explain.rs`).

use super::cumulative_var_explain::replay;
use super::{part_of, profile, push_out_of_segments, set_max_wide, set_min_wide, Part, Segment};
use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// One task: its start, duration and use, all variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    pub start: VarId,
    pub duration: VarId,
    pub usage: VarId,
}

/// Tasks on a resource of variable capacity (see the module docs).
#[derive(Clone, Debug)]
pub struct CumulativeVar {
    tasks: Vec<Task>,
    capacity: VarId,
}

impl CumulativeVar {
    /// `starts[i]` runs `durations[i]` and uses `uses[i]`; the three slices have one entry per
    /// task.
    pub fn new(
        starts: &[VarId],
        durations: &[VarId],
        uses: &[VarId],
        capacity: VarId,
    ) -> CumulativeVar {
        assert!(
            starts.len() == durations.len() && starts.len() == uses.len(),
            "cumulative: one duration and one use per task"
        );
        CumulativeVar {
            tasks: (0..starts.len())
                .map(|i| Task {
                    start: starts[i],
                    duration: durations[i],
                    usage: uses[i],
                })
                .collect(),
            capacity,
        }
    }
}

/// Rule 4: the longest a task may run from a start in `[est, lst]` without covering a
/// segment where its least use `r` does not fit beside the others; `None` when some start
/// has no such segment after it. `own` is the task's part in the profile.
fn longest_run(
    segments: &[Segment],
    own: Option<Part>,
    (est, lst): (i64, i64),
    r: i64,
    capacity: i64,
) -> Option<i64> {
    let mut longest = 0;
    // The earliest start not yet known to lie inside a blocking segment.
    let mut from = est;
    for seg in segments {
        if from > lst {
            return Some(longest);
        }
        if seg.end <= from || seg.others(own) + r <= capacity {
            continue;
        }
        if seg.start > from {
            longest = longest.max(seg.start - from);
        }
        from = seg.end;
    }
    (from > lst).then_some(longest)
}

/// Rule 3: the most a task whose compulsory part in time is `[a, b)` may use, or `capacity`
/// when that part is empty. `own` is the task's part in the profile.
fn room_over(segments: &[Segment], own: Option<Part>, (a, b): (i64, i64), capacity: i64) -> i64 {
    if a >= b {
        return capacity;
    }
    let others = segments
        .iter()
        .filter(|seg| seg.start < b && a < seg.end)
        .map(|seg| seg.others(own))
        .max()
        .unwrap_or(0);
    capacity - others
}

impl Propagator for CumulativeVar {
    fn name(&self) -> &'static str {
        "cumulative_var"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs: Vec<Subscription> = self
            .tasks
            .iter()
            .flat_map(|t| [t.start, t.duration, t.usage])
            .map(|x| Subscription::new(x, Condition::Bounds))
            .collect();
        subs.push(Subscription::new(self.capacity, Condition::Bounds));
        subs
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        if self.tasks.is_empty() {
            ctx.set_entailed();
            return Ok(());
        }
        // Entailed only if everything was fixed *before* this run (see `cumulative.rs`).
        let all_fixed = ctx.is_fixed(self.capacity)
            && self.tasks.iter().all(|t| {
                ctx.is_fixed(t.start) && ctx.is_fixed(t.duration) && ctx.is_fixed(t.usage)
            });
        set_min_wide(ctx, self.capacity, 0)?;
        for t in &self.tasks {
            set_min_wide(ctx, t.duration, 0)?;
            set_min_wide(ctx, t.usage, 0)?;
        }
        // The least duration and use of each task, read once: the profile is built from them.
        let least: Vec<(i64, i64)> = self
            .tasks
            .iter()
            .map(|t| (ctx.min(t.duration) as i64, ctx.min(t.usage) as i64))
            .collect();
        let parts: Vec<Option<Part>> = self
            .tasks
            .iter()
            .zip(&least)
            .map(|(t, &(d, r))| part_of(ctx, t.start, d, r))
            .collect();
        let segments = profile(&parts);
        let capacity = ctx.max(self.capacity) as i64;

        // 1. The capacity.
        let peak = segments.iter().map(|seg| seg.height).max().unwrap_or(0);
        let largest_sure_use = least
            .iter()
            .filter(|&&(d, _)| d > 0)
            .map(|&(_, r)| r)
            .max()
            .unwrap_or(0);
        set_min_wide(ctx, self.capacity, peak.max(largest_sure_use))?;

        for ((t, &(d, r)), &own) in self.tasks.iter().zip(&least).zip(&parts) {
            if d > 0 {
                // 2. The starts.
                if r > 0 {
                    let starts = (ctx.min(t.start) as i64, ctx.max(t.start) as i64);
                    let (est, lst) = push_out_of_segments(&segments, own, starts, d, r, capacity);
                    set_min_wide(ctx, t.start, est)?;
                    set_max_wide(ctx, t.start, lst)?;
                }
                // 3. The use, over the compulsory part in time as the starts are now.
                let part = (ctx.max(t.start) as i64, ctx.min(t.start) as i64 + d);
                set_max_wide(ctx, t.usage, room_over(&segments, own, part, capacity))?;
            }
            // 4. The duration.
            if r > capacity {
                set_max_wide(ctx, t.duration, 0)?;
            } else if r > 0 {
                let starts = (ctx.min(t.start) as i64, ctx.max(t.start) as i64);
                if let Some(longest) = longest_run(&segments, own, starts, r, capacity) {
                    set_max_wide(ctx, t.duration, longest)?;
                }
            }
        }
        if all_fixed {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// The replayed rules' reason for `atom` (see `cumulative_var_explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        replay(&self.variables(), inputs).explain(atom, reason)
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        replay(&self.variables(), inputs).explain_failure(reason)
    }
}

impl CumulativeVar {
    /// The subscriptions' variables: each task's start, duration and use, then the capacity.
    fn variables(&self) -> Vec<VarId> {
        let mut vars: Vec<VarId> = (self.tasks.iter())
            .flat_map(|t| [t.start, t.duration, t.usage])
            .collect();
        vars.push(self.capacity);
        vars
    }
}
