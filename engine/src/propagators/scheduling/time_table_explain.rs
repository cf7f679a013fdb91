//! # Explaining time-tabling by replaying it on a graph of derived bounds
//!
//! Time-tabling (the parent module) moves a start out of a segment of the profile because
//! the compulsory parts covering that segment leave too little room. To explain the moves
//! of one run from its inputs alone, [`TimeTableReplay`] does the run again on a
//! [`BoundGraph`] (`bound_replay.rs`): each compulsory part remembers the nodes that made
//! it (its start's two bounds, its least duration and use), each move names the nodes of
//! *just enough* covering tasks (the largest uses first) beside the moved task's own, and
//! a new bound that lands on a hole names the skipped values. The reason of an atom is then
//! the input bounds reached by walking back from the bound that implies it.
//!
//! The replay is shared by `disjunctive` (capacity 1, constant durations, which then goes on
//! with its other rules on the same graph) and `cumulative_var` (variable durations, uses
//! and capacity, whose nodes join the reasons). A replay may derive more than the run (it
//! reads each bound as the replay has moved it), never less, so it explains every atom the
//! run made true.

use crate::atom::Atom;
use crate::propagators::bound_replay::BoundGraph;

/// A least duration, use or (for the capacity) greatest value: the amount, and the node of
/// the graph that says so (`None` for a constant).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Amount {
    pub value: i64,
    pub node: Option<usize>,
}

impl Amount {
    pub(crate) fn constant(value: i64) -> Amount {
        Amount { value, node: None }
    }
}

/// A task as the replay sees it: its start (a variable of the graph, by index), its least
/// duration and least use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReplayTask {
    pub start: usize,
    pub duration: Amount,
    pub usage: Amount,
}

/// A segment of the profile: `[start, end)`, the tasks whose compulsory parts cover it.
#[derive(Clone, Debug)]
pub(crate) struct CoveredSegment {
    pub start: i64,
    pub end: i64,
    pub tasks: Vec<usize>,
}

/// The compulsory parts of one snapshot of the graph, with their nodes.
pub(crate) struct TimeTableReplay {
    pub tasks: Vec<ReplayTask>,
    pub capacity: Amount,
    /// Per task: `(lst, ect, nodes)` if it has a compulsory part that counts.
    pub parts: Vec<Option<(i64, i64, Vec<usize>)>>,
    pub segments: Vec<CoveredSegment>,
}

/// The nodes of an amount, as a list (none for a constant).
pub(crate) fn nodes_of(amount: Amount) -> Vec<usize> {
    amount.node.into_iter().collect()
}

impl TimeTableReplay {
    /// The parts and the profile of the graph's current bounds.
    pub(crate) fn snapshot(
        graph: &BoundGraph<'_>,
        tasks: Vec<ReplayTask>,
        capacity: Amount,
    ) -> TimeTableReplay {
        let parts: Vec<Option<(i64, i64, Vec<usize>)>> = tasks
            .iter()
            .map(|t| {
                let (d, r, s) = (t.duration.value, t.usage.value, t.start);
                let (lst, ect) = (graph.hi[s], graph.lo[s] + d);
                (d > 0 && r > 0 && lst < ect).then(|| {
                    let mut nodes = vec![graph.lo_node[s], graph.hi_node[s]];
                    nodes.extend(t.duration.node.into_iter().chain(t.usage.node));
                    (lst, ect, nodes)
                })
            })
            .collect();
        let mut times: Vec<i64> = parts.iter().flatten().flat_map(|p| [p.0, p.1]).collect();
        times.sort_unstable();
        times.dedup();
        let segments = times
            .windows(2)
            .map(|w| CoveredSegment {
                start: w[0],
                end: w[1],
                tasks: (0..parts.len())
                    .filter(|&j| {
                        parts[j]
                            .as_ref()
                            .is_some_and(|p| p.0 <= w[0] && w[1] <= p.1)
                    })
                    .collect(),
            })
            .filter(|seg| !seg.tasks.is_empty())
            .collect();
        TimeTableReplay {
            tasks,
            capacity,
            parts,
            segments,
        }
    }

    /// The others' use over `seg` (task `skip` left out).
    pub(crate) fn others(&self, seg: &CoveredSegment, skip: usize) -> i64 {
        seg.tasks
            .iter()
            .filter(|&&j| j != skip)
            .map(|&j| self.tasks[j].usage.value)
            .sum()
    }

    /// If the others covering `seg` (task `skip` left out) use more than `room`, the nodes
    /// of just enough of them, the largest uses first.
    pub(crate) fn overloading(
        &self,
        graph: &mut BoundGraph<'_>,
        seg: &CoveredSegment,
        skip: Option<usize>,
        room: i64,
    ) -> Option<Vec<usize>> {
        let mut covering: Vec<usize> = seg
            .tasks
            .iter()
            .copied()
            .filter(|&j| Some(j) != skip)
            .collect();
        covering.sort_by_key(|&j| std::cmp::Reverse(self.tasks[j].usage.value));
        let mut used = 0;
        let mut count = 0;
        for &j in &covering {
            used += self.tasks[j].usage.value;
            count += 1;
            if used > room {
                break;
            }
        }
        (used > room).then(|| {
            (covering[..count].iter())
                .flat_map(|&j| self.covers(graph, j, seg))
                .collect()
        })
    }

    /// The nodes of every task covering `seg` but `skip`: the others' whole use there.
    pub(crate) fn all_others(
        &self,
        graph: &mut BoundGraph<'_>,
        seg: &CoveredSegment,
        skip: usize,
    ) -> Vec<usize> {
        (seg.tasks.iter())
            .filter(|&&j| j != skip)
            .flat_map(|&j| self.covers(graph, j, seg))
            .collect()
    }

    /// The nodes that make task `j` cover `seg`: its least duration and use, and for its
    /// start the weakest atoms that keep it over the segment (`[s ≥ end − d]`, `[s ≤ start]`,
    /// as `cumulative.rs` says them) where the inputs already imply them, else the bounds
    /// of the replay.
    fn covers(&self, graph: &mut BoundGraph<'_>, j: usize, seg: &CoveredSegment) -> Vec<usize> {
        let (task, part) = (self.tasks[j], self.parts[j].as_ref().unwrap());
        let (s, x) = (task.start, graph.var(task.start));
        let mut nodes: Vec<usize> = part.2[2..].to_vec();
        let input = graph.input(s);
        let from = seg.end - task.duration.value;
        nodes.push(match i32::try_from(from) {
            Ok(w) if input.min() >= w => graph.input_atom(Atom::AtLeast(x, w)),
            _ => part.2[0],
        });
        nodes.push(match i32::try_from(seg.start) {
            Ok(w) if input.max() <= w => graph.input_atom(Atom::AtMost(x, w)),
            _ => part.2[1],
        });
        nodes
    }

    /// Replay the check: a segment whose parts exceed the capacity fails the graph.
    pub(crate) fn check_overload(&self, graph: &mut BoundGraph<'_>) {
        let capacity = self.capacity;
        for seg in &self.segments {
            if let Some(mut nodes) = self.overloading(graph, seg, None, capacity.value) {
                nodes.extend(nodes_of(capacity));
                graph.fail(nodes);
                return;
            }
        }
    }

    /// Replay the pushes of task `i` (least duration and use positive): its earliest start
    /// past every segment where its use does not fit beside the others, then its latest
    /// start before them, each jump a node of the graph.
    pub(crate) fn push_task(&self, graph: &mut BoundGraph<'_>, i: usize) {
        let task = self.tasks[i];
        let (d, r, s) = (task.duration.value, task.usage.value, task.start);
        let mut own = nodes_of(task.duration);
        own.extend(nodes_of(task.usage));
        own.extend(nodes_of(self.capacity));
        let room = self.capacity.value - r;
        for seg in &self.segments {
            if graph.stopped() {
                return;
            }
            let est = graph.lo[s];
            if seg.start < est + d && est < seg.end {
                if let Some(mut from) = self.overloading(graph, seg, Some(i), room) {
                    from.extend_from_slice(&own);
                    from.push(graph.lo_node[s]);
                    graph.raise_lo(s, seg.end, from);
                }
            }
        }
        for seg in self.segments.iter().rev() {
            if graph.stopped() {
                return;
            }
            let lst = graph.hi[s];
            if seg.start < lst + d && lst < seg.end {
                if let Some(mut from) = self.overloading(graph, seg, Some(i), room) {
                    from.extend_from_slice(&own);
                    from.push(graph.hi_node[s]);
                    graph.lower_hi(s, seg.start - d, from);
                }
            }
        }
    }
}
