//! # Explaining cumulative with variable durations, uses and capacity
//!
//! `cumulative_var` (`cumulative_var.rs`) applies four time-tabling rules to the least
//! duration and use of each task and the greatest capacity. Its explanation replays them on
//! a graph of derived bounds (`bound_replay.rs`), with the profile of
//! `time_table_explain.rs`, so that every bound names what it rests on (after Schutt,
//! Feydy, Stuckey & Wallace, "Explaining the cumulative propagator", Constraints 2011):
//!
//! 1. **capacity** `c ≥ h`: the tasks covering the highest segment (their starts' bounds,
//!    least durations and uses); `c ≥ r`: the task's least duration (it runs) and use;
//! 2. **starts**: just enough tasks covering the segment the start leaves, the task's least
//!    duration and use, and `c`'s upper bound;
//! 3. **uses** `r ≤ c − others`: the task's start bounds and least duration (it covers the
//!    segment), every other task covering that segment, and `c`'s upper bound;
//! 4. **durations** `d ≤ longest`: the task's start bounds, its least use, `c`'s upper bound
//!    and just enough tasks of each segment that cuts a run short.
//!
//! Non-negativity (`d, r, c ≥ 0`) is the constraint itself and needs no reason.

use super::time_table_explain::{nodes_of, Amount, ReplayTask, TimeTableReplay};
use crate::domain::Domain;
use crate::propagators::bound_replay::BoundGraph;
use crate::store::VarId;

/// Replay a run from `inputs`; `vars` are the subscriptions, `(start, duration, use)` of
/// each task in turn and the capacity last.
pub(crate) fn replay<'a>(vars: &[VarId], inputs: &'a [Domain]) -> BoundGraph<'a> {
    let n = vars.len() / 3;
    let cap = 3 * n;
    let mut graph = BoundGraph::new(vars.to_vec(), inputs);
    if n == 0 {
        return graph;
    }
    for k in (0..n).flat_map(|i| [3 * i + 1, 3 * i + 2]).chain([cap]) {
        if !graph.stopped() {
            graph.raise_lo(k, 0, Vec::new());
        }
    }
    if graph.stopped() {
        return graph;
    }
    let least = |graph: &BoundGraph<'_>, k: usize| Amount {
        value: graph.lo[k],
        node: Some(graph.lo_node[k]),
    };
    let tasks: Vec<ReplayTask> = (0..n)
        .map(|i| ReplayTask {
            start: 3 * i,
            duration: least(&graph, 3 * i + 1),
            usage: least(&graph, 3 * i + 2),
        })
        .collect();
    let capacity = Amount {
        value: graph.hi[cap],
        node: Some(graph.hi_node[cap]),
    };
    let table = TimeTableReplay::snapshot(&graph, tasks, capacity);
    raise_capacity(&mut graph, &table, cap);
    for i in 0..n {
        if graph.stopped() {
            break;
        }
        let task = table.tasks[i];
        let (d, r) = (task.duration.value, task.usage.value);
        if d > 0 {
            if r > 0 {
                table.push_task(&mut graph, i);
            }
            if !graph.stopped() {
                lower_use(&mut graph, &table, i);
            }
        }
        if !graph.stopped() {
            lower_duration(&mut graph, &table, i);
        }
    }
    graph
}

/// Rule 1: the capacity is at least the highest segment and every sure use.
fn raise_capacity(graph: &mut BoundGraph<'_>, table: &TimeTableReplay, cap: usize) {
    if let Some(seg) = table
        .segments
        .iter()
        .max_by_key(|seg| table.others(seg, usize::MAX))
    {
        let height = table.others(seg, usize::MAX);
        let from = table.all_others(graph, seg, usize::MAX);
        graph.raise_lo(cap, height, from);
    }
    for task in &table.tasks {
        if task.duration.value > 0 && !graph.stopped() {
            let from = nodes_of(task.duration)
                .into_iter()
                .chain(nodes_of(task.usage));
            graph.raise_lo(cap, task.usage.value, from.collect());
        }
    }
}

/// Rule 3: the task runs over its compulsory part in time, so its use fits beside the
/// others on every segment that part meets (and under the capacity in any case).
fn lower_use(graph: &mut BoundGraph<'_>, table: &TimeTableReplay, i: usize) {
    let task = table.tasks[i];
    let s = task.start;
    let (a, b) = (graph.hi[s], graph.lo[s] + task.duration.value);
    let mut from = nodes_of(task.duration);
    from.extend(nodes_of(table.capacity));
    let fullest = (a < b)
        .then(|| {
            table
                .segments
                .iter()
                .filter(|seg| seg.start < b && a < seg.end)
                .max_by_key(|seg| table.others(seg, i))
        })
        .flatten();
    let mut room = table.capacity.value;
    if let Some(seg) = fullest.filter(|seg| table.others(seg, i) > 0) {
        room -= table.others(seg, i);
        from.extend([graph.lo_node[s], graph.hi_node[s]]);
        from.extend(table.all_others(graph, seg, i));
    }
    graph.lower_hi(s + 2, room, from);
}

/// Rule 4: from each start the task runs at most up to the first segment where its least
/// use does not fit beside the others (no use at all: the task gets no duration).
fn lower_duration(graph: &mut BoundGraph<'_>, table: &TimeTableReplay, i: usize) {
    let task = table.tasks[i];
    let (s, r) = (task.start, task.usage.value);
    let room = table.capacity.value - r;
    let mut from = nodes_of(task.usage);
    from.extend(nodes_of(table.capacity));
    if room < 0 {
        graph.lower_hi(s + 1, 0, from);
        return;
    }
    if r <= 0 {
        return;
    }
    from.extend([graph.lo_node[s], graph.hi_node[s]]);
    let (est, lst) = (graph.lo[s], graph.hi[s]);
    let (mut longest, mut reach) = (0, est);
    for seg in &table.segments {
        if reach > lst {
            break;
        }
        if seg.end <= reach {
            continue;
        }
        let Some(nodes) = table.overloading(graph, seg, Some(i), room) else {
            continue;
        };
        from.extend(nodes);
        if seg.start > reach {
            longest = longest.max(seg.start - reach);
        }
        reach = seg.end;
    }
    if reach > lst {
        graph.lower_hi(s + 1, longest, from);
    }
}
