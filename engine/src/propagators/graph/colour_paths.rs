//! # `colour_paths`: each colour's cells lie on a route between its two terminals
//!
//! `colour_paths(col, graph, terminals)`: a graph (a grid's cells and their orthogonal
//! neighbours), a colour variable per node, and for each colour l a pair of terminals
//! (sₗ, eₗ). The nodes of colour l form one connected set S that holds sₗ and eₗ, and every
//! node of S lies on some simple path from sₗ to eₗ inside S. Flow Free's and Numberlink's
//! paths satisfy it (a path's cells are exactly one such route). Values that are no colour's
//! index (Numberlink's "empty") are not constrained. Flow Free and Numberlink post it beside
//! their successor model: the paths' `circuit` forbids separate loops, but it does not see
//! that a colour can no longer *reach* a cell, nor that a colour must pass through a
//! bottleneck, nor that a pocket hanging off a single cell is a dead end for every colour
//! whose terminals are outside it.
//!
//! **Rule 1: routes.** The nodes that may still take colour l (l ∈ dom(col)) form a graph
//! Gₗ. A node of Gₗ on no simple sₗ–eₗ path of Gₗ cannot be of colour l. Those that are on
//! one are the nodes of the *blocks* (biconnected components) on the way from sₗ to eₗ in
//! the block–cut tree: a node sₗ does not reach is on no route, and neither is a pocket that
//! hangs off the way through one articulation point (a route would have to leave it through
//! the cell it entered by). If eₗ is not reached, fail.
//!
//! **Rule 2: bottlenecks.** A node v that separates sₗ from eₗ in Gₗ (an articulation point
//! on every sₗ–eₗ path) must be of colour l.
//!
//! Both come from one depth-first search from sₗ (Tarjan 1972): discovery times `disc` and
//! low points `low`. A tree edge (p, c) with `low(c) ≥ disc(p)` starts a new block below p;
//! every other node shares the block of its tree parent, so a walk in discovery order gives
//! each node its block. The blocks on the way are those of the tree path from eₗ back to sₗ
//! (every route crosses the same blocks), and the cut nodes on it are the bottlenecks.
//!
//! **Layers.** A run reads every colour's graph from the run's *input* domains (a copy
//! of the nodes that may take each colour it works on, made before any change), and only
//! then makes its changes: one colour's deductions do not feed another colour's graph in
//! the same run, they wake the propagator for the next run. So every change of a run
//! follows from one colour's graph in the inputs, which is what an explanation needs.
//!
//! **Incremental lane.** Both rules for colour l read only Gₗ, so a run need only redo the
//! colours whose graph changed since the last run: the colours that left a node's domain
//! since then (or came back: a rerun is sound either way). Each node keeps the set of colours its domain held when a run last looked
//! (`seen`, a bit per colour, trailed: backtracking restores it with the domains); `notify`
//! lists the nodes that changed, and a run compares their domains with `seen` before it
//! works. The reference, `propagate_from_scratch`, redoes every colour.
//!
//! **Explanations** (learning), by *cuts*: a set of nodes C and its boundary, the nodes
//! next to C that cannot take colour l (`[colᵤ ≠ l]` each, true in the inputs). Whatever
//! else holds, a route of colour l that enters C can leave it only through a node of the
//! boundary, which it cannot use. So:
//!
//! * a node v that sₗ cannot reach loses l because of the boundary of sₗ's region in Gₗ, or
//!   of v's own region, whichever is smaller;
//! * a node v of a pocket hanging off the way through one node a loses l because of the
//!   boundary of the pocket (v's region in Gₗ without a): a route would leave it through a;
//! * a bottleneck v takes l because of the boundary of sₗ's region in Gₗ without v (or of
//!   eₗ's), a region that does not hold the other terminal;
//! * sₗ not reaching eₗ fails because of the boundary of sₗ's region (or of eₗ's);
//! * a terminal loses every other colour because of the constraint alone.
//!
//! `explain` recomputes the one colour's search from the inputs; a failure is found again
//! by recomputing every colour (an unreachable terminal, a node taken by two colours or
//! left with none).
//!
//! **Consistency.** Checking (an assignment that breaks a colour's routes fails), with the
//! two rules; no claim of domain consistency. **Events.** Any removal from a colour's domain.
//! **Cost** O(K·(n + m)) per run from scratch (K colours, a graph of n nodes and m edges);
//! incrementally, O(n + m) per colour that lost a node. An explanation costs one search
//! per colour it asks about.

use crate::atom::Atom;
use crate::domain::{Domain, Event};
use crate::propagator::Subscription;
use crate::propagator::{
    Condition, Conflict, Context, EnqueueDecision, PostContext, Priority, PropResult, Propagator,
};
use crate::propagators::reasons::split_atom;
use crate::store::{RevId, VarId};

/// A depth-first search's "not visited yet".
pub(super) const UNSEEN: u32 = u32::MAX;

/// Each colour's nodes lie on routes between its two terminals (module docs).
#[derive(Clone, Debug)]
pub struct ColourPaths {
    pub(super) col: Vec<VarId>,
    /// The neighbours of each node.
    pub(super) neighbours: Vec<Vec<usize>>,
    /// The terminals of colour l at index l.
    pub(super) terminals: Vec<(usize, usize)>,
    /// Incremental lane: each node's colours (bit l for colour l) when a run last looked.
    seen: Vec<RevId>,
    /// Incremental lane: the nodes changed since the last run, and whether each is listed.
    changed: Vec<usize>,
    listed: Vec<bool>,
    /// A variable stands for two nodes: explanations are left to the generic reason.
    repeats_a_variable: bool,
}

/// The most colours the incremental lane tracks (a bit each in one word); with more, every
/// run redoes every colour.
const TRACKED_COLOURS: usize = 64;

/// One depth-first search of Gₗ from a terminal: discovery times, low points, tree parents,
/// the nodes in discovery order, and each node's block (named by the node that starts it).
pub(super) struct Search {
    pub(super) disc: Vec<u32>,
    pub(super) low: Vec<u32>,
    pub(super) parent: Vec<usize>,
    pub(super) order: Vec<usize>,
    pub(super) block: Vec<usize>,
    /// The blocks on the way from the start to the end, by the node that starts them.
    pub(super) on_way: Vec<bool>,
}

impl ColourPaths {
    pub fn new(
        col: &[VarId],
        neighbours: Vec<Vec<usize>>,
        terminals: Vec<(usize, usize)>,
    ) -> ColourPaths {
        assert_eq!(col.len(), neighbours.len(), "one neighbour list per node");
        let mut sorted = col.to_vec();
        sorted.sort();
        sorted.dedup();
        ColourPaths {
            repeats_a_variable: sorted.len() < col.len(),
            col: col.to_vec(),
            listed: vec![false; neighbours.len()],
            neighbours,
            terminals,
            seen: Vec::new(),
            changed: Vec::new(),
        }
    }

    /// The colours still in node `i`'s domain, a bit each.
    fn colours_of(&self, ctx: &Context<'_>, i: usize) -> u64 {
        let all = u64::MAX >> (TRACKED_COLOURS - self.terminals.len());
        ctx.domain(self.col[i]).mask_from(0) & all
    }

    /// Rules 1 and 2 for the colours of `dirty` (a bit each).
    fn propagate_colours(&self, ctx: &mut Context<'_>, mut dirty: u64) -> PropResult {
        let mut colours = Vec::new();
        while dirty != 0 {
            colours.push(dirty.trailing_zeros() as usize);
            dirty &= dirty - 1;
        }
        self.propagate_layered(ctx, &colours)
    }

    /// Rules 1 and 2 for each colour of `colours`, every graph read from the run's input
    /// domains before any change (the header, "Layers").
    fn propagate_layered(&self, ctx: &mut Context<'_>, colours: &[usize]) -> PropResult {
        let graphs: Vec<Vec<bool>> = colours
            .iter()
            .map(|&l| {
                let colour = l as i32;
                self.col.iter().map(|&x| ctx.contains(x, colour)).collect()
            })
            .collect();
        let mut search = Search::new();
        for (&l, graph) in colours.iter().zip(&graphs) {
            self.propagate_colour(ctx, l, graph, &mut search)?;
        }
        Ok(())
    }

    /// Tarjan's depth-first search from `start` through the nodes `may` accepts, iterative
    /// (a path of a large grid is deeper than a thread's stack).
    pub(super) fn search(&self, start: usize, may: &dyn Fn(usize) -> bool, s: &mut Search) {
        let n = self.col.len();
        s.disc.clear();
        s.disc.resize(n, UNSEEN);
        s.low.clear();
        s.low.resize(n, UNSEEN);
        s.parent.clear();
        s.parent.resize(n, usize::MAX);
        s.order.clear();
        s.order.push(start);
        let mut time = 0;
        s.disc[start] = time;
        s.low[start] = time;
        // Each entry: a node and the index of its next neighbour to look at.
        let mut stack = vec![(start, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            if let Some(&w) = self.neighbours[v].get(next) {
                top.1 += 1;
                if !may(w) {
                    continue;
                }
                if s.disc[w] == UNSEEN {
                    time += 1;
                    s.disc[w] = time;
                    s.low[w] = time;
                    s.parent[w] = v;
                    s.order.push(w);
                    stack.push((w, 0));
                } else if w != s.parent[v] {
                    s.low[v] = s.low[v].min(s.disc[w]);
                }
            } else {
                let _ = stack.pop();
                let p = s.parent[v];
                if p != usize::MAX {
                    s.low[p] = s.low[p].min(s.low[v]);
                }
            }
        }
    }

    /// After [`Self::search`] from `start`: each reached node's block (the node that starts
    /// it: a tree child c with `low(c) ≥ disc(parent)`, else the parent's block), and the
    /// blocks of the tree path from `end` back to `start` marked as on the way.
    pub(super) fn mark_blocks_on_way(&self, start: usize, end: usize, s: &mut Search) {
        let n = self.col.len();
        s.block.clear();
        s.block.resize(n, usize::MAX);
        s.on_way.clear();
        s.on_way.resize(n, false);
        s.block[start] = start;
        for &c in &s.order[1..] {
            let p = s.parent[c];
            s.block[c] = if s.low[c] >= s.disc[p] { c } else { s.block[p] };
        }
        let mut v = end;
        while v != start {
            s.on_way[s.block[v]] = true;
            v = s.parent[v];
        }
    }

    /// Rules 1 and 2 for colour `l`, on the graph Gₗ of the nodes `may` marks.
    fn propagate_colour(
        &self,
        ctx: &mut Context<'_>,
        l: usize,
        may: &[bool],
        s: &mut Search,
    ) -> PropResult {
        let (start, end) = self.terminals[l];
        let colour = l as i32;
        let _ = ctx.fix(self.col[start], colour)?;
        let _ = ctx.fix(self.col[end], colour)?;
        self.search(start, &|i| may[i], s);
        if s.disc[end] == UNSEEN {
            return Err(Conflict::new());
        }
        // Rule 1: the nodes on no route lose colour l.
        self.mark_blocks_on_way(start, end, s);
        for (i, &x) in self.col.iter().enumerate() {
            if !s.on_route(start, i) && ctx.contains(x, colour) {
                let _ = ctx.remove(x, colour)?;
            }
        }
        // Rule 2: the cut nodes on the tree path from eₗ back to sₗ take colour l.
        let mut child = end;
        let mut v = s.parent[end];
        while v != usize::MAX && v != start {
            if s.low[child] >= s.disc[v] {
                let _ = ctx.fix(self.col[v], colour)?;
            }
            child = v;
            v = s.parent[v];
        }
        Ok(())
    }
}

impl Propagator for ColourPaths {
    fn name(&self) -> &'static str {
        "colour_paths"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.col, Condition::Domain)
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let colours: Vec<usize> = (0..self.terminals.len()).collect();
        self.propagate_layered(ctx, &colours)
    }

    fn register(&mut self, post: &mut PostContext<'_>) {
        if self.terminals.len() <= TRACKED_COLOURS {
            self.seen = (0..self.col.len()).map(|_| post.new_rev(0)).collect();
        }
    }

    /// Every node's colours recorded as seen, then every colour redone.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.clear_pending();
        for (i, &r) in self.seen.iter().enumerate() {
            let colours = self.colours_of(ctx, i);
            ctx.set_rev(r, colours as i64);
        }
        self.propagate_from_scratch(ctx)
    }

    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        if !std::mem::replace(&mut self.listed[local], true) {
            self.changed.push(local);
        }
        EnqueueDecision::Enqueue
    }

    /// The colours that left a changed node since the last run are redone (the header,
    /// "Incremental lane").
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if self.seen.is_empty() {
            self.clear_pending();
            return self.propagate_from_scratch(ctx);
        }
        let mut dirty = 0u64;
        for k in 0..self.changed.len() {
            let i = self.changed[k];
            self.listed[i] = false;
            let now = self.colours_of(ctx, i);
            let before = ctx.rev(self.seen[i]) as u64;
            if now != before {
                dirty |= before ^ now;
                ctx.set_rev(self.seen[i], now as i64);
            }
        }
        self.changed.clear();
        self.propagate_colours(ctx, dirty)
    }

    fn clear_pending(&mut self) {
        for &i in &self.changed {
            self.listed[i] = false;
        }
        self.changed.clear();
    }

    /// A cut around the values the atom needs removed (the header, "Explanations").
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable {
            return false;
        }
        let Some(v) = self.col.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let mut found = Vec::new();
        let Some(needed) = split_atom(atom, &inputs[v], &mut found) else {
            return false;
        };
        for w in needed {
            if !self.explain_removal(inputs, v, w, &mut found) {
                return false;
            }
        }
        found.sort();
        found.dedup();
        reason.extend(found);
        true
    }

    /// The failure found again from the inputs, every colour's graph read from them.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable {
            return false;
        }
        let mut found = Vec::new();
        if !self.find_failure(inputs, &mut found) {
            return false;
        }
        found.sort();
        found.dedup();
        reason.extend(found);
        true
    }
}

impl Search {
    /// After [`ColourPaths::mark_blocks_on_way`]: is node `i` on a route?
    pub(super) fn on_route(&self, start: usize, i: usize) -> bool {
        i == start || (self.disc[i] != UNSEEN && self.on_way[self.block[i]])
    }

    pub(super) fn new() -> Search {
        Search {
            disc: Vec::new(),
            low: Vec::new(),
            parent: Vec::new(),
            order: Vec::new(),
            block: Vec::new(),
            on_way: Vec::new(),
        }
    }
}
