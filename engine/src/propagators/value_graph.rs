//! # The value graph: matching variables to values (Régin's all-different and cardinality)
//!
//! Draw the variables on the left, the values on the right, and an edge `x — v` for every
//! value `v` still in the domain of `x`. An assignment that satisfies **all-different** is a
//! *matching* that covers every variable: each variable picks one edge, and no value is
//! picked twice. So the question "can `x` still take `v`?" becomes "is the edge `x — v` in
//! some matching that covers all the variables?", and matching theory answers it for every
//! edge at once (J.-C. Régin, "A filtering algorithm for constraints of difference in
//! CSPs", AAAI 1994):
//!
//! 1. find one maximum matching (here: augmenting paths, repaired from the matching of the
//!    previous run, which is usually still almost right). If it does not cover every
//!    variable, there is no solution;
//! 2. orient the edges: a non-matching edge from the variable to the value, a matching edge
//!    from the value back to its variable. Add a sink node `T`, with an edge `v → T` from
//!    every value that still has room and `T → v` to every value that is used;
//! 3. an edge not in the matching can be swapped into some other maximum matching exactly
//!    when it lies on a cycle of this directed graph, that is when its two ends are in the
//!    same **strongly connected component** (Tarjan's algorithm, linear time). The cycles
//!    through `T` are the "even alternating paths from a free value" of Régin's paper;
//! 4. remove every other edge: that value cannot be taken by that variable.
//!
//! Worked example: `x ∈ {1,2}`, `y ∈ {1,2}`, `z ∈ {1,2,3}`. Matching `x=1, y=2, z=3`. The
//! edges `x→2 →y →1 →x` form a cycle (x and y may swap), but `z→1` and `z→2` lead into that
//! cycle and never come back: 1 and 2 are removed from `z`, which is fixed to 3.
//!
//! The same graph with **capacities** gives the global cardinality constraint with fixed
//! counts (Régin 1996): value `v` must be used by exactly `count(v)` variables. The matching
//! becomes a flow (a value holds several variables), and a second phase pulls variables
//! towards values still below their count. The components step is unchanged: `v → T` exists
//! while `v` may take one more variable, `T → v` while it may give one away.
//!
//! Every edge kept is in a solution: this is **domain consistency** for the conjunction.
//! Cost per run: O(e) to rebuild the edges and the components (`e` = total domain size),
//! plus O(k·e) for `k` augmenting paths (k = number of variables whose matched value was
//! removed since the last run, usually 0 to 2). No allocation after the first run: all the
//! arrays are kept in the struct and reused.
//!
//! The vertices are views (`view.rs`): the graph is over the values they *show*, `aᵢ·xᵢ + bᵢ`
//! (the variable itself, `xᵢ + c`, `−xᵢ`, …).
//!
//! Memory: O(n + span) where `span` is the width of the union of the domains at the first
//! run (the value table is indexed by `value - min`), fine for puzzle digits, columns and
//! positions; a model with all-different over domains a million wide should use the bounds
//! level instead.

use crate::propagator::{Conflict, Context, PropResult};
use crate::view::View;

/// No value / no variable.
const NONE: u32 = u32::MAX;

/// How many variables each value may (and must) hold.
#[derive(Clone, Debug)]
pub(crate) struct Capacities {
    /// Listed values, sorted: (value, lower, upper).
    listed: Vec<(i64, u32, u32)>,
    /// Bounds for every value not listed.
    default_lower: u32,
    default_upper: u32,
}

impl Capacities {
    /// All-different: every value at most once.
    pub(crate) fn all_different() -> Capacities {
        Capacities {
            listed: Vec::new(),
            default_lower: 0,
            default_upper: 1,
        }
    }

    /// Each listed value exactly `count` times; other values any number of times.
    pub(crate) fn exact_counts(counts: &[(i32, u32)], n: usize) -> Capacities {
        let mut listed: Vec<(i64, u32, u32)> = Vec::with_capacity(counts.len());
        for &(v, c) in counts {
            // A value listed twice must satisfy both counts: keep the stricter, and make it
            // impossible if they disagree.
            match listed.iter_mut().find(|t| t.0 == v as i64) {
                Some(t) if t.1 != c => *t = (v as i64, 1, 0),
                Some(_) => {}
                None => listed.push((v as i64, c, c)),
            }
        }
        listed.sort_unstable();
        Capacities {
            listed,
            default_lower: 0,
            default_upper: n as u32,
        }
    }

    /// (lower, upper) for `value`.
    fn of(&self, value: i64) -> (u32, u32) {
        match self.listed.binary_search_by_key(&value, |t| t.0) {
            Ok(i) => (self.listed[i].1, self.listed[i].2),
            Err(_) => (self.default_lower, self.default_upper),
        }
    }
}

/// The value graph, its matching (kept between runs), and the scratch arrays of one run.
#[derive(Clone, Debug)]
pub(crate) struct ValueGraph {
    views: Vec<View>,
    caps: Capacities,

    // ---- the value table: value index `k` stands for the shown value `base + k` ----------
    base: i64,
    span: usize,
    lower: Vec<u32>,
    upper: Vec<u32>,
    /// Number of variables matched to each value.
    flow: Vec<u32>,
    /// The variables matched to each value (at most `upper` of them).
    holders: Vec<Vec<u32>>,
    /// The value index each variable is matched to, or `NONE`.
    mate: Vec<u32>,

    // ---- edges of this run (compressed rows) ------------------------------------------------
    /// Variable `i`'s value indices are `adj[adj_start[i]..adj_start[i + 1]]`.
    adj_start: Vec<u32>,
    adj: Vec<u32>,
    /// Values present in some domain in this run.
    live: Vec<u32>,
    /// Stamps: `live_stamp[k] == stamp` iff value `k` is in `live`; `seen[k] == search` iff
    /// visited by the current augmenting-path search.
    live_stamp: Vec<u32>,
    stamp: u32,
    seen: Vec<u32>,
    search: u32,
    /// For the lower-bound phase: variables containing each value (compressed rows).
    rev_start: Vec<u32>,
    rev: Vec<u32>,
    /// Write cursor per value while filling `rev`.
    cursor: Vec<u32>,

    // ---- Tarjan's algorithm --------------------------------------------------------------------
    /// Discovery order of each node (vars `0..n`, values `n..n+span`, sink `n+span`); 0 =
    /// unvisited in this run.
    order: Vec<u32>,
    low: Vec<u32>,
    component: Vec<u32>,
    on_stack: Vec<bool>,
    node_stack: Vec<u32>,
    /// Explicit call stack: (node, next successor position).
    calls: Vec<(u32, u32)>,
}

impl ValueGraph {
    pub(crate) fn new(views: &[View], caps: Capacities) -> ValueGraph {
        let n = views.len();
        ValueGraph {
            views: views.to_vec(),
            caps,
            base: 0,
            span: 0,
            lower: Vec::new(),
            upper: Vec::new(),
            flow: Vec::new(),
            holders: Vec::new(),
            mate: vec![NONE; n],
            adj_start: Vec::with_capacity(n + 1),
            adj: Vec::new(),
            live: Vec::new(),
            live_stamp: Vec::new(),
            stamp: 0,
            seen: Vec::new(),
            search: 0,
            rev_start: Vec::new(),
            rev: Vec::new(),
            cursor: Vec::new(),
            order: Vec::new(),
            low: Vec::new(),
            component: Vec::new(),
            on_stack: Vec::new(),
            node_stack: Vec::new(),
            calls: Vec::new(),
        }
    }

    fn n(&self) -> usize {
        self.views.len()
    }

    /// Make the value table cover the shown values `lo..=hi`, forgetting the matching if it
    /// has to move (only at the first run: domains only shrink afterwards).
    fn cover(&mut self, lo: i64, hi: i64) {
        if self.span > 0 && lo >= self.base && hi < self.base + self.span as i64 {
            return;
        }
        self.base = lo;
        self.span = (hi - lo + 1) as usize;
        let (span, n) = (self.span, self.n());
        self.lower = (0..span).map(|k| self.caps.of(lo + k as i64).0).collect();
        self.upper = (0..span).map(|k| self.caps.of(lo + k as i64).1).collect();
        self.flow = vec![0; span];
        self.holders = vec![Vec::new(); span];
        self.mate = vec![NONE; n];
        self.live_stamp = vec![0; span];
        self.stamp = 0;
        self.seen = vec![0; span];
        self.search = 0;
        let nodes = n + span + 1;
        self.order = vec![0; nodes];
        self.low = vec![0; nodes];
        self.component = vec![0; nodes];
        self.on_stack = vec![false; nodes];
        self.rev_start = vec![0; span + 1];
    }

    /// Match variable `i` to value `k` (unmatching it from its previous value).
    fn assign(&mut self, i: usize, k: u32) {
        self.unassign(i);
        self.mate[i] = k;
        self.flow[k as usize] += 1;
        self.holders[k as usize].push(i as u32);
    }

    fn unassign(&mut self, i: usize) {
        let old = self.mate[i];
        if old == NONE {
            return;
        }
        let h = &mut self.holders[old as usize];
        let pos = h.iter().position(|&j| j as usize == i).expect("holder");
        let _ = h.swap_remove(pos);
        self.flow[old as usize] -= 1;
        self.mate[i] = NONE;
    }

    /// Augmenting path from the unmatched variable `i`: give it a value with room, possibly
    /// moving the holders of a full value elsewhere.
    fn augment(&mut self, i: usize) -> bool {
        for e in self.adj_start[i]..self.adj_start[i + 1] {
            let k = self.adj[e as usize];
            let ku = k as usize;
            if self.seen[ku] == self.search {
                continue;
            }
            self.seen[ku] = self.search;
            if self.flow[ku] < self.upper[ku] {
                self.assign(i, k);
                return true;
            }
            let mut h = 0;
            while h < self.holders[ku].len() {
                let j = self.holders[ku][h] as usize;
                if self.augment(j) {
                    self.assign(i, k);
                    return true;
                }
                h += 1;
            }
        }
        false
    }

    /// Value `k` is below its lower bound: move one variable onto it from a value that can
    /// spare one (possibly through a chain of such moves).
    fn pull(&mut self, k: u32) -> bool {
        let ku = k as usize;
        for e in self.rev_start[ku]..self.rev_start[ku + 1] {
            let j = self.rev[e as usize] as usize;
            let w = self.mate[j];
            if w == k || self.seen[w as usize] == self.search {
                continue;
            }
            self.seen[w as usize] = self.search;
            let wu = w as usize;
            if self.flow[wu] > self.lower[wu] || self.pull(w) {
                self.assign(j, k);
                return true;
            }
        }
        false
    }

    fn next_search(&mut self) {
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.search = 1;
        }
    }

    /// The `pos`-th successor of `node` in the oriented graph, or `None` when exhausted.
    /// Positions are skipped over edges that do not exist (the matched edge of a variable).
    #[inline]
    fn successor(&self, node: u32, pos: u32) -> Option<u32> {
        let n = self.n() as u32;
        let sink = n + self.span as u32;
        if node < n {
            // Variable: every non-matching edge, to its value.
            let i = node as usize;
            let e = self.adj_start[i] + pos;
            if e >= self.adj_start[i + 1] {
                return None;
            }
            let k = self.adj[e as usize];
            Some(if k == self.mate[i] { NONE } else { n + k })
        } else if node < sink {
            // Value: back to its holders, then to the sink if it has room.
            let k = (node - n) as usize;
            let h = &self.holders[k];
            if (pos as usize) < h.len() {
                Some(h[pos as usize])
            } else if pos as usize == h.len() && self.flow[k] < self.upper[k] {
                Some(sink)
            } else {
                None
            }
        } else {
            // Sink: to every value that may give a variable away.
            let k = *self.live.get(pos as usize)? as usize;
            Some(if self.flow[k] > self.lower[k] {
                n + k as u32
            } else {
                NONE
            })
        }
    }

    /// Tarjan's strongly connected components from `root` (iterative).
    fn tarjan_from(&mut self, root: u32, counter: &mut u32, components: &mut u32) {
        *counter += 1;
        self.order[root as usize] = *counter;
        self.low[root as usize] = *counter;
        self.node_stack.push(root);
        self.on_stack[root as usize] = true;
        self.calls.push((root, 0));
        while let Some(&(node, pos)) = self.calls.last() {
            let top = self.calls.len() - 1;
            self.calls[top].1 = pos + 1;
            match self.successor(node, pos) {
                Some(NONE) => {}
                Some(next) => {
                    let nu = next as usize;
                    if self.order[nu] == 0 {
                        *counter += 1;
                        self.order[nu] = *counter;
                        self.low[nu] = *counter;
                        self.node_stack.push(next);
                        self.on_stack[nu] = true;
                        self.calls.push((next, 0));
                    } else if self.on_stack[nu] {
                        let l = self.low[node as usize].min(self.order[nu]);
                        self.low[node as usize] = l;
                    }
                }
                None => {
                    let _ = self.calls.pop();
                    let nodeu = node as usize;
                    if self.low[nodeu] == self.order[nodeu] {
                        *components += 1;
                        loop {
                            let w = self.node_stack.pop().expect("tarjan stack");
                            self.on_stack[w as usize] = false;
                            self.component[w as usize] = *components;
                            if w == node {
                                break;
                            }
                        }
                    }
                    if let Some(&(parent, _)) = self.calls.last() {
                        let l = self.low[parent as usize].min(self.low[nodeu]);
                        self.low[parent as usize] = l;
                    }
                }
            }
        }
    }

    /// Check the constraint and remove every value that is in no solution of it.
    pub(crate) fn filter(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.n();
        if n == 0 {
            return if self.caps.listed.iter().any(|t| t.1 > 0) {
                Err(Conflict::new())
            } else {
                Ok(())
            };
        }
        // 0. The value table covers the hull of the shown values.
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for &x in &self.views {
            lo = lo.min(x.min(ctx));
            hi = hi.max(x.max(ctx));
        }
        self.cover(lo, hi);

        // 1. The edges of this run, and the values that appear.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.live_stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.adj_start.clear();
        self.adj.clear();
        self.live.clear();
        for i in 0..n {
            self.adj_start.push(self.adj.len() as u32);
            let (view, base) = (self.views[i], self.base);
            for v in ctx.domain(view.var()).iter() {
                let k = (view.show(v) - base) as u32;
                self.adj.push(k);
                if self.live_stamp[k as usize] != self.stamp {
                    self.live_stamp[k as usize] = self.stamp;
                    self.live.push(k);
                }
            }
        }
        self.adj_start.push(self.adj.len() as u32);

        // 2. Keep the matching edges still present; match the other variables.
        for i in 0..n {
            let k = self.mate[i];
            if k != NONE && !self.views[i].contains(ctx, self.base + k as i64) {
                self.unassign(i);
            }
        }
        // An augmenting path may cross the whole graph: on thousands of variables of
        // thousands of values one call is long, so it gives way to the clock (interrupt.rs).
        let path_cost = self
            .adj
            .len()
            .min(crate::interrupt::WORK_BETWEEN_POLLS as usize) as u32;
        for i in 0..n {
            if self.mate[i] == NONE {
                ctx.work(path_cost)?;
                self.next_search();
                if !self.augment(i) {
                    return Err(Conflict::new());
                }
            }
        }

        // 3. Values below their lower bound (cardinality only) pull variables over.
        let has_lower = self.caps.default_lower > 0 || self.caps.listed.iter().any(|t| t.1 > 0);
        if has_lower {
            for t in 0..self.caps.listed.len() {
                let (v, l, u) = self.caps.listed[t];
                if l > u || (l > 0 && (v < self.base || v >= self.base + self.span as i64)) {
                    return Err(Conflict::new());
                }
            }
            self.build_reverse_edges();
            for li in 0..self.live.len() {
                let k = self.live[li];
                while self.flow[k as usize] < self.lower[k as usize] {
                    self.next_search();
                    self.seen[k as usize] = self.search;
                    if !self.pull(k) {
                        return Err(Conflict::new());
                    }
                }
            }
            for t in 0..self.caps.listed.len() {
                let (v, l, _) = self.caps.listed[t];
                if l > 0 && self.live_stamp[(v - self.base) as usize] != self.stamp {
                    return Err(Conflict::new()); // a value that must be used appears nowhere
                }
            }
        }

        // 4. Strongly connected components of the oriented graph.
        let sink = (n + self.span) as u32;
        for i in 0..n {
            self.order[i] = 0;
            self.on_stack[i] = false;
        }
        for li in 0..self.live.len() {
            let node = n + self.live[li] as usize;
            self.order[node] = 0;
            self.on_stack[node] = false;
        }
        self.order[sink as usize] = 0;
        self.on_stack[sink as usize] = false;
        self.node_stack.clear();
        let mut counter = 0;
        let mut components = 0;
        for i in 0..n as u32 {
            if self.order[i as usize] == 0 {
                self.tarjan_from(i, &mut counter, &mut components);
            }
        }
        if self.order[sink as usize] == 0 {
            self.tarjan_from(sink, &mut counter, &mut components);
        }
        for li in 0..self.live.len() {
            let node = n as u32 + self.live[li];
            if self.order[node as usize] == 0 {
                self.tarjan_from(node, &mut counter, &mut components);
            }
        }

        // 5. Remove the edges between different components (except matching edges).
        for i in 0..n {
            let ci = self.component[i];
            for e in self.adj_start[i]..self.adj_start[i + 1] {
                let k = self.adj[e as usize];
                if k != self.mate[i] && self.component[n + k as usize] != ci {
                    let _ = self.views[i].remove(ctx, self.base + k as i64)?;
                }
            }
        }
        Ok(())
    }

    /// For each live value, the variables whose domain contains it.
    fn build_reverse_edges(&mut self) {
        let span = self.span;
        self.rev_start.clear();
        self.rev_start.resize(span + 1, 0);
        for &k in &self.adj {
            self.rev_start[k as usize + 1] += 1;
        }
        for k in 0..span {
            self.rev_start[k + 1] += self.rev_start[k];
        }
        self.rev.clear();
        self.rev.resize(self.adj.len(), 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.rev_start[..span]);
        for i in 0..self.n() {
            for e in self.adj_start[i]..self.adj_start[i + 1] {
                let k = self.adj[e as usize] as usize;
                self.rev[self.cursor[k] as usize] = i as u32;
                self.cursor[k] += 1;
            }
        }
    }
}
