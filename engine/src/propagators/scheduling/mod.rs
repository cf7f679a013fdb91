//! # Scheduling: tasks on resources
//!
//! A task `i` starts at a variable `s[i]`, runs for a constant duration `d[i]` over the
//! half-open interval `[s[i], s[i] + d[i])`, and uses `r[i]` units of a resource whose
//! capacity is `c`. Three propagators share the reasoning of this file:
//!
//! * [`cumulative`]: at every time the tasks running use at most `c` units
//!   (time-tabling, Beldiceanu & Carlsson 2002; Letort, Beldiceanu & Carlsson 2012);
//! * [`cumulative_var`]: the same with variable durations, uses and capacity, the least
//!   duration and use of each task making its compulsory part;
//! * [`disjunctive`]: a unary resource, no two tasks overlap (time-tabling plus Vilím's
//!   overload check, 2004);
//! * [`edge_finding`]: beside each of them, energy reasoning over task intervals (Nuijten
//!   1994; Mercier & Van Hentenryck 2008), which sees tasks that have no compulsory part.
//!
//! **The compulsory part** of a task is `[lst, ect)` where `lst = max(s)` is its latest start
//! and `ect = min(s) + d` its earliest end: when `lst < ect` the task runs over that interval
//! whatever start it gets. The sum of the compulsory parts is the **profile**, a step function
//! of time; it is a lower bound of the resource use in every solution below this node.
//!
//! All time arithmetic is in `i64`: a start near `i32::MAX` plus a duration must not wrap.

pub mod cumulative;
pub mod cumulative_var;
mod cumulative_var_explain;
pub mod disjunctive;
mod disjunctive_explain;
pub mod edge_finding;
mod time_table_explain;

use crate::propagator::{Conflict, Context, PropResult};
use crate::store::VarId;

/// An interval `[start, end)` of constant, positive profile height. Every end of a
/// compulsory part is the end of a segment, so a segment lies wholly inside or wholly
/// outside each compulsory part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    pub start: i64,
    pub end: i64,
    pub height: i64,
}

/// A compulsory part: whatever start it gets, the task runs over `[start, end)` and uses at
/// least `height` units there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub start: i64,
    pub end: i64,
    pub height: i64,
}

impl Segment {
    /// The use of the *other* tasks over this segment, when `own` is the task's compulsory
    /// part as the profile was built from it (`None` when it added nothing to the profile).
    pub(crate) fn others(&self, own: Option<Part>) -> i64 {
        match own {
            Some(p) if p.start <= self.start && self.end <= p.end => self.height - p.height,
            _ => self.height,
        }
    }
}

/// The compulsory part `[lst, ect)` of a task, if it is not empty.
pub(crate) fn compulsory_part(ctx: &Context<'_>, s: VarId, d: i64) -> Option<(i64, i64)> {
    let lst = ctx.max(s) as i64;
    let ect = ctx.min(s) as i64 + d;
    (lst < ect).then_some((lst, ect))
}

/// The compulsory part of a task of (least) duration `d` and (least) use `r`, if it has one
/// that counts: a task with no duration or no use adds nothing to the profile.
pub(crate) fn part_of(ctx: &Context<'_>, s: VarId, d: i64, r: i64) -> Option<Part> {
    if d <= 0 || r <= 0 {
        return None;
    }
    compulsory_part(ctx, s, d).map(|(start, end)| Part {
        start,
        end,
        height: r,
    })
}

/// The profile of the given compulsory parts, as segments sorted by time.
pub(crate) fn profile(parts: &[Option<Part>]) -> Vec<Segment> {
    let mut events: Vec<(i64, i64)> = Vec::new();
    for part in parts.iter().flatten() {
        events.push((part.start, part.height));
        events.push((part.end, -part.height));
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

/// The starts `[est, lst]` of a task of length `d > 0` and use `r > 0`, narrowed out of every
/// segment where `r` beside the others' use exceeds `capacity`: the earliest start jumps past
/// each such segment it would overlap (a left-to-right sweep), the latest start before it (the
/// mirror sweep). `own` is the task's compulsory part in the profile.
pub(crate) fn push_out_of_segments(
    segments: &[Segment],
    own: Option<Part>,
    (est, lst): (i64, i64),
    d: i64,
    r: i64,
    capacity: i64,
) -> (i64, i64) {
    let blocks = |seg: &Segment| seg.others(own) + r > capacity;
    let mut est = est;
    for seg in segments {
        if seg.start < est + d && est < seg.end && blocks(seg) {
            est = seg.end;
        }
    }
    let mut lst = lst;
    for seg in segments.iter().rev() {
        if seg.start < lst + d && lst < seg.end && blocks(seg) {
            lst = seg.start - d;
        }
    }
    (est, lst)
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
    let parts: Vec<Option<Part>> = tasks
        .iter()
        .map(|&(s, d, r)| part_of(ctx, s, d, r))
        .collect();
    let segments = profile(&parts);
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
        let starts = (ctx.min(s) as i64, ctx.max(s) as i64);
        let (est, lst) = push_out_of_segments(&segments, own, starts, d, r, capacity);
        set_min_wide(ctx, s, est)?;
        set_max_wide(ctx, s, lst)?;
    }
    Ok(())
}
