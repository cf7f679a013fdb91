//! # Explaining the disjunctive: its three rules replayed with their reasons
//!
//! A run of `disjunctive` (`disjunctive.rs`) chains its rules: time-tabling moves a start,
//! and the overload check and the detectable precedences read the moved bound. Its
//! explanation replays the same rules, in the same order, on a graph of derived bounds
//! (`bound_replay.rs`), each move naming only what it rests on:
//!
//! * **time-tabling** (`time_table_explain.rs`): the one other task whose compulsory part
//!   covers the segment (capacity 1);
//! * **strict zero-length tasks**: the compulsory part the task may not sit inside;
//! * **overload**: the tasks of the task interval `Ω` that does not fit, each by its two
//!   bounds (`est(Ω) + p(Ω) > lct(Ω)`);
//! * **detectable precedences**: for `i` pushed past the set `Ω'` that ends last, `i`'s
//!   earliest start (which detects each precedence) and each task of `Ω'` by its latest
//!   start (detected before `i`) and its earliest start (where `Ω'` begins).
//!
//! The reason of an atom is the input bounds behind the bound that implies it; a replay that
//! fails explains any atom by its failure.

use super::time_table_explain::{Amount, ReplayTask, TimeTableReplay};
use crate::domain::Domain;
use crate::propagators::bound_replay::BoundGraph;
use crate::store::VarId;

/// Which rules a run used (the propagator's switches).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    pub strict: bool,
    pub overload_check: bool,
    pub detectable_precedences: bool,
}

/// Replay a run from `inputs` (the starts' domains) on a bound graph.
pub(crate) fn replay<'a>(
    starts: &[VarId],
    durations: &[i64],
    rules: Rules,
    inputs: &'a [Domain],
) -> BoundGraph<'a> {
    let mut graph = BoundGraph::new(starts.to_vec(), inputs);
    let tasks: Vec<ReplayTask> = (0..starts.len())
        .map(|i| ReplayTask {
            start: i,
            duration: Amount::constant(durations[i]),
            usage: Amount::constant(1),
        })
        .collect();
    let table = TimeTableReplay::snapshot(&graph, tasks, Amount::constant(1));
    table.check_overload(&mut graph);
    for i in (0..starts.len()).filter(|&i| durations[i] > 0) {
        table.push_task(&mut graph, i);
    }
    if rules.strict && !graph.stopped() {
        zero_length_out_of_parts(&mut graph, durations);
    }
    if rules.overload_check && !graph.stopped() {
        overload_check(&mut graph, durations);
    }
    if rules.detectable_precedences && !graph.stopped() {
        detectable_precedences(&mut graph, durations);
    }
    graph
}

/// The nodes of task `j`'s two bounds.
fn both_bounds(graph: &BoundGraph<'_>, j: usize) -> [usize; 2] {
    [graph.lo_node[j], graph.hi_node[j]]
}

/// Strict form: each zero-length task leaves the open interval `(lst, ect)` of every other
/// compulsory part (the parts read before any move, as the run does).
fn zero_length_out_of_parts(graph: &mut BoundGraph<'_>, durations: &[i64]) {
    let n = durations.len();
    let mut parts: Vec<(i64, i64, [usize; 2])> = (0..n)
        .filter(|&j| durations[j] > 0 && graph.hi[j] < graph.lo[j] + durations[j])
        .map(|j| {
            (
                graph.hi[j],
                graph.lo[j] + durations[j],
                both_bounds(graph, j),
            )
        })
        .collect();
    parts.sort_unstable_by_key(|p| (p.0, p.1));
    for i in (0..n).filter(|&i| durations[i] == 0) {
        for &(a, b, nodes) in &parts {
            if !graph.stopped() && a < graph.lo[i] && graph.lo[i] < b {
                let from = vec![nodes[0], nodes[1], graph.lo_node[i]];
                graph.raise_lo(i, b, from);
            }
        }
        for &(a, b, nodes) in parts.iter().rev() {
            if !graph.stopped() && a < graph.hi[i] && graph.hi[i] < b {
                let from = vec![nodes[0], nodes[1], graph.hi_node[i]];
                graph.lower_hi(i, a, from);
            }
        }
    }
}

/// Overload check: the task interval that does not fit fails the graph.
fn overload_check(graph: &mut BoundGraph<'_>, durations: &[i64]) {
    let mut windows: Vec<usize> = (0..durations.len()).filter(|&j| durations[j] > 0).collect();
    windows.sort_unstable_by_key(|&j| std::cmp::Reverse(graph.lo[j]));
    for &last in &windows {
        let end = graph.hi[last] + durations[last];
        let (mut work, mut inside) = (0, Vec::new());
        for &j in &windows {
            if graph.hi[j] + durations[j] <= end {
                work += durations[j];
                inside.push(j);
                if graph.lo[j] + work > end {
                    let from = inside.iter().flat_map(|&k| both_bounds(graph, k)).collect();
                    graph.fail(from);
                    return;
                }
            }
        }
    }
}

/// Detectable precedences: every move computed from one snapshot, then made.
fn detectable_precedences(graph: &mut BoundGraph<'_>, durations: &[i64]) {
    let w: Vec<usize> = (0..durations.len()).filter(|&j| durations[j] > 0).collect();
    let (lo, hi) = (graph.lo.clone(), graph.hi.clone());
    let (lo_node, hi_node) = (graph.lo_node.clone(), graph.hi_node.clone());
    let mut moves: Vec<(usize, i64, bool, Vec<usize>)> = Vec::new();
    for &i in &w {
        let p = durations[i];
        // Predecessors: i cannot end by their latest start.
        let mut before: Vec<usize> = w
            .iter()
            .copied()
            .filter(|&j| j != i && lo[i] + p > hi[j])
            .collect();
        if !before.is_empty() {
            before.sort_unstable_by_key(|&j| std::cmp::Reverse(lo[j]));
            let (mut work, mut best, mut best_len) = (0, i64::MIN, 0);
            for (k, &j) in before.iter().enumerate() {
                work += durations[j];
                if lo[j] + work > best {
                    (best, best_len) = (lo[j] + work, k + 1);
                }
            }
            let mut from = vec![lo_node[i]];
            from.extend(
                before[..best_len]
                    .iter()
                    .flat_map(|&j| [lo_node[j], hi_node[j]]),
            );
            moves.push((i, best, true, from));
        }
        // Successors: they cannot end by i's latest start.
        let mut after: Vec<usize> = w
            .iter()
            .copied()
            .filter(|&j| j != i && lo[j] + durations[j] > hi[i])
            .collect();
        if !after.is_empty() {
            after.sort_unstable_by_key(|&j| hi[j] + durations[j]);
            let (mut work, mut best, mut best_len) = (0, i64::MAX, 0);
            for (k, &j) in after.iter().enumerate() {
                work += durations[j];
                if hi[j] + durations[j] - work < best {
                    (best, best_len) = (hi[j] + durations[j] - work, k + 1);
                }
            }
            let mut from = vec![hi_node[i]];
            from.extend(
                after[..best_len]
                    .iter()
                    .flat_map(|&j| [lo_node[j], hi_node[j]]),
            );
            moves.push((i, best - p, false, from));
        }
    }
    for (i, bound, is_min, from) in moves {
        if graph.stopped() {
            return;
        }
        if is_min {
            graph.raise_lo(i, bound, from);
        } else {
            graph.lower_hi(i, bound, from);
        }
    }
}
