//! # Cumulative: tasks sharing a resource of limited capacity
//!
//! `cumulative(s, d, r, c)`: task `i` runs over `[s[i], s[i] + d[i])` and uses `r[i]` units;
//! at every time `t` the tasks running use at most `c` units in total:
//! `∀t: Σ { r[i] : s[i] ≤ t < s[i] + d[i] } ≤ c`. Durations, uses and the capacity are
//! constants here (MiniZinc's variable forms are left to its decomposition). A task with no
//! duration or no use constrains nothing, as in MiniZinc's `fzn_cumulative`.
//!
//! **Time-tabling** (Beldiceanu & Carlsson, "A new multi-resource cumulatives constraint
//! with negative heights", CP 2002; Letort, Beldiceanu & Carlsson, "A scalable sweep
//! algorithm for the cumulative constraint", CP 2012; the rule itself goes back to
//! Le Pape's ILOG Schedule): build the profile of the compulsory parts (see the parent
//! module), fail if it exceeds `c` anywhere, and move the start of each task out of every
//! segment where its use, added to the others' compulsory use, would exceed `c`.
//!
//! **Consistency**: checking (a violated constraint is detected once the starts are fixed,
//! since then every task is its own compulsory part), plus the time-tabling rule — weaker
//! than bounds consistency, which is NP-hard for cumulative. Edge finding
//! (`edge_finding.rs`) sees what this rule does not, and `Model::cumulative` posts it
//! beside this propagator on resources of at most 16 tasks; energetic reasoning is not
//! implemented.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | bounds of the starts | time-tabling | O(n log n) for the profile, O(n · segments) to prune |

use super::time_table;
use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{
    Condition, Conflict, Context, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// Tasks `(start, duration, use)` on a resource of capacity `capacity` (see the module docs).
#[derive(Clone, Debug)]
pub struct Cumulative {
    tasks: Vec<(VarId, i64, i64)>,
    capacity: i64,
}

impl Cumulative {
    /// `starts[i]` runs `durations[i]` and uses `uses[i]`; the three slices have one entry per
    /// task. Negative durations or uses make the constraint false (MiniZinc asserts them
    /// non-negative); such a task is kept and fails at propagation.
    pub fn new(starts: &[VarId], durations: &[i32], uses: &[i32], capacity: i32) -> Cumulative {
        assert!(
            starts.len() == durations.len() && starts.len() == uses.len(),
            "cumulative: one duration and one use per task"
        );
        Cumulative {
            tasks: starts
                .iter()
                .zip(durations.iter().zip(uses))
                .map(|(&s, (&d, &r))| (s, d as i64, r as i64))
                .collect(),
            capacity: capacity as i64,
        }
    }
}

impl Propagator for Cumulative {
    fn name(&self) -> &'static str {
        "cumulative"
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
        if self.tasks.iter().any(|&(_, d, r)| d < 0 || r < 0)
            || (self.capacity < 0 && !self.tasks.is_empty())
        {
            return Err(Conflict::new());
        }
        // Entailed only if the starts were fixed *before* this run: then the profile was
        // the exact use and it fitted. Starts fixed by this run's own pushes were placed
        // against a profile that did not yet hold the other pushes of the run.
        let all_fixed = self.tasks.iter().all(|&(s, _, _)| ctx.is_fixed(s));
        time_table(ctx, &self.tasks, self.capacity)?;
        if all_fixed {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// Time-table reasons: a start `t` was removed because at some time `τ` in
    /// `[t, t + d)` the compulsory parts of other tasks leave less than the task's use. The
    /// reason names just enough of those tasks, each by the weakest bounds that make it
    /// cover `τ` (`[sⱼ ≥ τ − dⱼ + 1]`, `[sⱼ ≤ τ]`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let Some(i) = self.tasks.iter().position(|&(s, _, _)| s == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[i], reason) else {
            return false;
        };
        needed
            .iter()
            .all(|&t| self.start_blocked(inputs, i, t as i64, reason))
    }

    /// An overload at some time (just enough compulsory parts), a task using more than the
    /// capacity (the constraint alone), or a task none of whose starts fits.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let (capacity, n) = (self.capacity, self.tasks.len());
        if self
            .tasks
            .iter()
            .any(|&(_, d, r)| d < 0 || r < 0 || (d > 0 && r > capacity))
            || capacity < 0 && n > 0
        {
            return true;
        }
        let parts: Vec<Option<(i64, i64)>> = (0..n).map(|j| self.part(inputs, j)).collect();
        for tau in parts.iter().flatten().map(|&(start, _)| start) {
            if self.covering(&parts, None, tau, capacity, reason) {
                return true;
            }
        }
        for i in 0..n {
            let d = &inputs[i];
            if d.size() <= 256 {
                let mark = reason.len();
                Atom::describe(self.tasks[i].0, d, reason);
                if d.iter()
                    .all(|t| self.start_blocked(inputs, i, t as i64, reason))
                {
                    return true;
                }
                reason.truncate(mark);
            }
        }
        false
    }
}

impl Cumulative {
    fn repeats_a_variable(&self) -> bool {
        (0..self.tasks.len()).any(|i| (0..i).any(|j| self.tasks[j].0 == self.tasks[i].0))
    }

    /// The compulsory part `[lst, ect)` of task `j` in the inputs, if it has one.
    fn part(&self, inputs: &[Domain], j: usize) -> Option<(i64, i64)> {
        let (_, d, r) = self.tasks[j];
        let (lst, ect) = (inputs[j].max() as i64, inputs[j].min() as i64 + d);
        (d > 0 && r > 0 && lst < ect).then_some((lst, ect))
    }

    /// If the compulsory parts covering time `tau` (task `skip` left out) use more than
    /// `room`, push the weakest bounds of just enough of them, the largest uses first.
    fn covering(
        &self,
        parts: &[Option<(i64, i64)>],
        skip: Option<usize>,
        tau: i64,
        room: i64,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let mut covering: Vec<usize> = (0..parts.len())
            .filter(|&j| Some(j) != skip && parts[j].is_some_and(|(a, b)| a <= tau && tau < b))
            .collect();
        covering.sort_by_key(|&j| std::cmp::Reverse(self.tasks[j].2));
        let mut used = 0;
        for (k, &j) in covering.iter().enumerate() {
            used += self.tasks[j].2;
            if used > room {
                for &j in &covering[..=k] {
                    let (s, d, _) = self.tasks[j];
                    let (Ok(from), Ok(to)) = (i32::try_from(tau - d + 1), i32::try_from(tau))
                    else {
                        return false;
                    };
                    reason.extend([Atom::AtLeast(s, from), Atom::AtMost(s, to)]);
                }
                return true;
            }
        }
        false
    }

    /// Push why task `i` cannot start at `t`: a time of `[t, t + d)` where the others'
    /// compulsory parts leave less than its use (no reason if it uses nothing).
    fn start_blocked(&self, inputs: &[Domain], i: usize, t: i64, reason: &mut Vec<Atom>) -> bool {
        let (_, d, r) = self.tasks[i];
        if d <= 0 || r <= 0 {
            return false;
        }
        let parts: Vec<Option<(i64, i64)>> = (0..self.tasks.len())
            .map(|j| self.part(inputs, j))
            .collect();
        let starts = parts
            .iter()
            .flatten()
            .map(|&(a, _)| a)
            .filter(|&a| t < a && a < t + d);
        std::iter::once(t)
            .chain(starts)
            .any(|tau| self.covering(&parts, Some(i), tau, self.capacity - r, reason))
    }
}
