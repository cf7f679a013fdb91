//! # Disjunctive: a unary resource, tasks that never overlap
//!
//! `disjunctive(s, d)`: no two tasks with a positive duration overlap,
//! `∀i<j: d[i] = 0 ∨ d[j] = 0 ∨ s[i] + d[i] ≤ s[j] ∨ s[j] + d[j] ≤ s[i]`. The **strict** form
//! drops the escape for zero durations: a zero-length task may not sit strictly inside
//! another, `∀i<j: s[i] + d[i] ≤ s[j] ∨ s[j] + d[j] ≤ s[i]` (MiniZinc's
//! `fzn_disjunctive_strict`). Durations are constants.
//!
//! Three rules run, cheapest first:
//!
//! 1. **Time-tabling** with capacity 1 (see `cumulative.rs`): two compulsory parts may not
//!    meet, and a task leaves every compulsory part of another. In the strict form a
//!    zero-length task also leaves the open interval `(lst, ect)` of every other compulsory
//!    part.
//! 2. **Overload checking** (Vilím, "O(n log n) filtering algorithms for unary resource
//!    constraint", CPAIOR 2004): for every set Ω of tasks, `est(Ω) + p(Ω) ≤ lct(Ω)` — the
//!    tasks of Ω fit between the earliest start and the latest end of Ω. It only fails, never
//!    prunes, but it sees an overload long before the compulsory parts do. Vilím computes it
//!    in O(n log n) with a Θ-tree; this is the O(n²) reference version: for each latest end
//!    `L`, the tasks ending by `L` taken by decreasing earliest start (only such "task
//!    intervals" need checking).
//!
//! 3. **Detectable precedences** (Vilím, same paper): if task `i` cannot end by the latest
//!    start of `j` (`est(i) + p(i) > lst(j)`), `i` cannot come before `j`, so `j` precedes
//!    `i`; then `i` starts no earlier than the earliest end of the whole set of its detected
//!    predecessors, `ECT(Ω) = max over Ω' ⊆ Ω of est(Ω') + p(Ω')`. The mirror rule moves the
//!    latest starts. Vilím does it for all tasks in O(n log n) with a Θ-tree; this is the
//!    O(n² log n) reference.
//!
//! Not-first/not-last and edge-finding (Vilím's Θ-Λ-tree) are stronger still and not
//! implemented.
//!
//! **Consistency**: checking, plus the three rules above.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | bounds of the starts | time-tabling + overload check + detectable precedences | O(n² log n) per run |
//!
//! **Explanations** (learning): the run replayed rule by rule on a graph of derived bounds,
//! each move naming the tasks it rests on (`disjunctive_explain.rs`).

use super::disjunctive_explain::{replay, Rules};
use super::{compulsory_part, set_max_wide, set_min_wide, time_table};
use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{
    Condition, Conflict, Context, Priority, PropResult, Propagator, Subscription,
};
use crate::store::VarId;

/// Tasks `(start, duration)` on a unary resource (see the module docs).
#[derive(Clone, Debug)]
pub struct Disjunctive {
    /// `(start, duration, 1)`: the cumulative form, for time-tabling.
    tasks: Vec<(VarId, i64, i64)>,
    /// Zero-length tasks may not sit strictly inside another task.
    strict: bool,
    /// Run the overload check (off to measure what time-tabling alone does).
    overload_check: bool,
    /// Run detectable precedences (off to measure what they add).
    detectable_precedences: bool,
}

impl Disjunctive {
    /// `starts[i]` runs `durations[i]`; `strict` as in the module docs.
    pub fn new(starts: &[VarId], durations: &[i32], strict: bool) -> Disjunctive {
        assert_eq!(
            starts.len(),
            durations.len(),
            "disjunctive: one duration per task"
        );
        Disjunctive {
            tasks: starts
                .iter()
                .zip(durations)
                .map(|(&s, &d)| (s, d as i64, 1))
                .collect(),
            strict,
            overload_check: true,
            detectable_precedences: true,
        }
    }

    /// Time-tabling only, without the overload check and the detectable precedences (for
    /// measurements and tests).
    pub fn time_tabling_only(mut self) -> Disjunctive {
        self.overload_check = false;
        self.detectable_precedences = false;
        self
    }

    /// Without the detectable precedences (for measurements and tests).
    pub fn without_detectable_precedences(mut self) -> Disjunctive {
        self.detectable_precedences = false;
        self
    }
}

/// Strict form: push each zero-length task out of the open interval `(lst, ect)` of every
/// compulsory part of a task with a positive duration. The parts are disjoint (time-tabling
/// has just checked that), so one sweep in order of time moves a bound past all of them.
fn zero_length_out_of_parts(ctx: &mut Context<'_>, tasks: &[(VarId, i64, i64)]) -> PropResult {
    let mut parts: Vec<(i64, i64)> = tasks
        .iter()
        .filter(|&&(_, d, _)| d > 0)
        .filter_map(|&(s, d, _)| compulsory_part(ctx, s, d))
        .collect();
    parts.sort_unstable();
    for &(s, d, _) in tasks {
        if d != 0 {
            continue;
        }
        let mut est = ctx.min(s) as i64;
        for &(a, b) in &parts {
            if a < est && est < b {
                est = b;
            }
        }
        let mut lst = ctx.max(s) as i64;
        for &(a, b) in parts.iter().rev() {
            if a < lst && lst < b {
                lst = a;
            }
        }
        set_min_wide(ctx, s, est)?;
        set_max_wide(ctx, s, lst)?;
    }
    Ok(())
}

/// Overload check, the O(n²) reference (see the module docs).
fn overload_check(ctx: &Context<'_>, tasks: &[(VarId, i64, i64)]) -> PropResult {
    // (est, lct, duration) of the tasks with a positive duration, by decreasing est.
    let mut windows: Vec<(i64, i64, i64)> = tasks
        .iter()
        .filter(|&&(_, d, _)| d > 0)
        .map(|&(s, d, _)| (ctx.min(s) as i64, ctx.max(s) as i64 + d, d))
        .collect();
    windows.sort_unstable_by_key(|w| std::cmp::Reverse(w.0));
    for &(_, end, _) in &windows {
        let mut work = 0;
        for &(est, lct, d) in &windows {
            if lct <= end {
                work += d;
                if est + work > end {
                    return Err(Conflict::new());
                }
            }
        }
    }
    Ok(())
}

/// Detectable precedences, the O(n² log n) reference (see the module docs). Reads all bounds
/// first, then moves them: every move is justified by the bounds of the same snapshot.
fn detectable_precedences(ctx: &mut Context<'_>, tasks: &[(VarId, i64, i64)]) -> PropResult {
    // (start, est, lst, p) of the tasks with a positive duration.
    let w: Vec<(VarId, i64, i64, i64)> = tasks
        .iter()
        .filter(|&&(_, d, _)| d > 0)
        .map(|&(s, d, _)| (s, ctx.min(s) as i64, ctx.max(s) as i64, d))
        .collect();
    let mut moves = Vec::new();
    let mut set: Vec<(i64, i64)> = Vec::new();
    for (i, &(s, est, lst, p)) in w.iter().enumerate() {
        // Tasks that must end before i starts: i cannot end by their latest start.
        set.clear();
        set.extend(
            w.iter()
                .enumerate()
                .filter(|&(j, t)| j != i && est + p > t.2)
                .map(|(_, t)| (t.1, t.3)),
        );
        if !set.is_empty() {
            // ECT of the set: the latest est(Ω') + p(Ω') over its suffixes by est.
            set.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
            let (mut work, mut ect) = (0, i64::MIN);
            for &(e, q) in &set {
                work += q;
                ect = ect.max(e + work);
            }
            moves.push((s, ect, true));
        }
        // Tasks that must start after i ends: they cannot end by i's latest start.
        set.clear();
        set.extend(
            w.iter()
                .enumerate()
                .filter(|&(j, t)| j != i && t.1 + t.3 > lst)
                .map(|(_, t)| (t.2 + t.3, t.3)),
        );
        if !set.is_empty() {
            // LST of the set: the earliest lct(Ω') − p(Ω') over its prefixes by lct.
            set.sort_unstable_by_key(|t| t.0);
            let (mut work, mut lst_set) = (0, i64::MAX);
            for &(l, q) in &set {
                work += q;
                lst_set = lst_set.min(l - work);
            }
            moves.push((s, lst_set - p, false));
        }
    }
    for (s, bound, is_min) in moves {
        if is_min {
            set_min_wide(ctx, s, bound)?;
        } else {
            set_max_wide(ctx, s, bound)?;
        }
    }
    Ok(())
}

impl Propagator for Disjunctive {
    fn name(&self) -> &'static str {
        "disjunctive"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        self.tasks
            .iter()
            .map(|&(s, _, _)| Subscription::new(s, Condition::Bounds))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        if self.tasks.iter().any(|&(_, d, _)| d < 0) {
            return Err(Conflict::new());
        }
        // Entailed only if the starts were fixed before this run (see `cumulative.rs`).
        let all_fixed = self.tasks.iter().all(|&(s, _, _)| ctx.is_fixed(s));
        time_table(ctx, &self.tasks, 1)?;
        if self.strict {
            zero_length_out_of_parts(ctx, &self.tasks)?;
        }
        if self.overload_check {
            overload_check(ctx, &self.tasks)?;
        }
        if self.detectable_precedences {
            detectable_precedences(ctx, &self.tasks)?;
        }
        if all_fixed {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// The replayed run's reason for `atom` (see `disjunctive_explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        match self.replayable() {
            Some(true) => true, // a negative duration: the constraint alone is false
            Some(false) => self.replay(inputs).explain(atom, reason),
            None => false,
        }
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        match self.replayable() {
            Some(true) => true,
            Some(false) => self.replay(inputs).explain_failure(reason),
            None => false,
        }
    }
}

impl Disjunctive {
    /// `Some(true)`: a negative duration (no solution at all); `Some(false)`: the run can be
    /// replayed; `None`: a start variable stands twice (the replay would keep two copies).
    fn replayable(&self) -> Option<bool> {
        if self.tasks.iter().any(|&(_, d, _)| d < 0) {
            return Some(true);
        }
        let n = self.tasks.len();
        let repeated = (0..n).any(|i| (0..i).any(|j| self.tasks[j].0 == self.tasks[i].0));
        (!repeated).then_some(false)
    }

    fn replay<'a>(&self, inputs: &'a [Domain]) -> crate::propagators::bound_replay::BoundGraph<'a> {
        let starts: Vec<VarId> = self.tasks.iter().map(|t| t.0).collect();
        let durations: Vec<i64> = self.tasks.iter().map(|t| t.1).collect();
        let rules = Rules {
            strict: self.strict,
            overload_check: self.overload_check,
            detectable_precedences: self.detectable_precedences,
        };
        replay(&starts, &durations, rules, inputs)
    }
}
