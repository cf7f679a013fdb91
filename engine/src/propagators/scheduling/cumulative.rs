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
//! than bounds consistency, which is NP-hard for cumulative. Energetic reasoning and
//! edge-finding are stronger and not implemented.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | bounds of the starts | time-tabling | O(n log n) for the profile, O(n · segments) to prune |

use super::time_table;
use crate::propagator::{
    Condition, Conflict, Context, Priority, PropResult, Propagator, Subscription,
};
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
}
