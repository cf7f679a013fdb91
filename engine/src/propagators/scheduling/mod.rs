//! # Scheduling: tasks on resources
//!
//! A task `i` starts at a variable `s[i]`, runs for a constant duration `d[i]` over the
//! half-open interval `[s[i], s[i] + d[i])`, and uses `r[i]` units of a resource whose
//! capacity is `c`. Two propagators share the reasoning of this file:
//!
//! * [`cumulative`]: at every time the tasks running use at most `c` units
//!   (time-tabling, Beldiceanu & Carlsson 2002; Letort, Beldiceanu & Carlsson 2012);
//! * [`disjunctive`]: a unary resource, no two tasks overlap (time-tabling plus Vilím's
//!   overload check, 2004).
//!
//! **The compulsory part** of a task is `[lst, ect)` where `lst = max(s)` is its latest start
//! and `ect = min(s) + d` its earliest end: when `lst < ect` the task runs over that interval
//! whatever start it gets. The sum of the compulsory parts is the **profile**, a step function
//! of time; it is a lower bound of the resource use in every solution below this node.
//!
//! All time arithmetic is in `i64`: a start near `i32::MAX` plus a duration must not wrap.

pub mod cumulative;
pub mod disjunctive;

use crate::propagator::{Conflict, Context, PropResult};
use crate::store::VarId;

/// A maximal interval `[start, end)` of constant, positive profile height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    pub start: i64,
    pub end: i64,
    pub height: i64,
}

/// The compulsory part `[lst, ect)` of a task, if it is not empty.
pub(crate) fn compulsory_part(ctx: &Context<'_>, s: VarId, d: i64) -> Option<(i64, i64)> {
    let lst = ctx.max(s) as i64;
    let ect = ctx.min(s) as i64 + d;
    (lst < ect).then_some((lst, ect))
}

/// The compulsory part of every task `(start, duration, use)` that has one and counts
/// (a task with no duration or no use adds nothing), read once from the current domains.
pub(crate) fn compulsory_parts(
    ctx: &Context<'_>,
    tasks: &[(VarId, i64, i64)],
) -> Vec<Option<(i64, i64)>> {
    tasks
        .iter()
        .map(|&(s, d, r)| {
            if d > 0 && r > 0 {
                compulsory_part(ctx, s, d)
            } else {
                None
            }
        })
        .collect()
}

/// The profile of the given compulsory parts, as segments sorted by time.
pub(crate) fn profile(tasks: &[(VarId, i64, i64)], parts: &[Option<(i64, i64)>]) -> Vec<Segment> {
    let mut events: Vec<(i64, i64)> = Vec::new();
    for (&(_, _, r), part) in tasks.iter().zip(parts) {
        if let Some((a, b)) = *part {
            events.push((a, r));
            events.push((b, -r));
        }
    }
    events.sort_unstable();
    let mut segments = Vec::new();
    let mut height = 0;
    let mut k = 0;
    while k < events.len() {
        let t = events[k].0;
        while k < events.len() && events[k].0 == t {
            height += events[k].1;
            k += 1;
        }
        if height > 0 && k < events.len() {
            segments.push(Segment {
                start: t,
                end: events[k].0,
                height,
            });
        }
    }
    segments
}

/// Set `s ≥ lo`, failing when `lo` is beyond every `i32` (so beyond the domain).
pub(crate) fn set_min_wide(ctx: &mut Context<'_>, s: VarId, lo: i64) -> PropResult {
    if lo > i32::MAX as i64 {
        return Err(Conflict::new());
    }
    if lo > ctx.min(s) as i64 {
        ctx.set_min(s, lo as i32)?;
    }
    Ok(())
}

/// Set `s ≤ hi`, failing when `hi` is below every `i32`.
pub(crate) fn set_max_wide(ctx: &mut Context<'_>, s: VarId, hi: i64) -> PropResult {
    if hi < i32::MIN as i64 {
        return Err(Conflict::new());
    }
    if hi < ctx.max(s) as i64 {
        ctx.set_max(s, hi as i32)?;
    }
    Ok(())
}

/// Time-tabling: check the profile against `capacity`, then push every task out of the
/// segments where it does not fit beside the compulsory parts of the others. One run
/// (not a fixpoint: a pushed task grows its compulsory part, which the next run sees).
pub(crate) fn time_table(
    ctx: &mut Context<'_>,
    tasks: &[(VarId, i64, i64)],
    capacity: i64,
) -> PropResult {
    let parts = compulsory_parts(ctx, tasks);
    let segments = profile(tasks, &parts);
    if segments.iter().any(|seg| seg.height > capacity) {
        return Err(Conflict::new());
    }
    for (&(s, d, r), &own) in tasks.iter().zip(&parts) {
        if d <= 0 || r <= 0 {
            continue;
        }
        if r > capacity {
            return Err(Conflict::new());
        }
        // The task's own compulsory part (as it was when the profile was built) is inside
        // the profile: a segment lies either wholly inside it or wholly outside (its ends
        // are breakpoints of the profile).
        let others = |seg: &Segment| match own {
            Some((a, b)) if a <= seg.start && seg.end <= b => seg.height - r,
            _ => seg.height,
        };
        // Earliest start: sweep the segments left to right, jumping past each one the task
        // would overlap and cannot share.
        let mut est = ctx.min(s) as i64;
        for seg in &segments {
            if seg.start < est + d && est < seg.end && others(seg) + r > capacity {
                est = seg.end;
            }
        }
        // Latest start: the mirror sweep, right to left.
        let mut lst = ctx.max(s) as i64;
        for seg in segments.iter().rev() {
            if seg.start < lst + d && lst < seg.end && others(seg) + r > capacity {
                lst = seg.start - d;
            }
        }
        set_min_wide(ctx, s, est)?;
        set_max_wide(ctx, s, lst)?;
    }
    Ok(())
}
