//! # `colour_paths`: each colour's cells join its two terminals in one connected piece
//!
//! `colour_paths(col, graph, terminals)`: a graph (a grid's cells and their orthogonal
//! neighbours), a colour variable per node, and for each colour l a pair of terminals
//! (sₗ, eₗ). The nodes of colour l form one connected set that holds sₗ and eₗ. Values that
//! are no colour's index (Numberlink's "empty") are not constrained. Flow Free and Numberlink
//! post it beside their successor model: the paths' `circuit` forbids separate loops, but it
//! does not see that a colour can no longer *reach* a cell, nor that a colour must pass
//! through a bottleneck.
//!
//! **Rule 1: reachability.** The nodes that may still take colour l (l ∈ dom(col)) form a
//! graph Gₗ. A node of Gₗ that sₗ does not reach in Gₗ cannot be of colour l, since every
//! node of colour l is joined to sₗ through nodes of colour l; if eₗ is not reached, fail.
//!
//! **Rule 2: bottlenecks.** A node v that separates sₗ from eₗ in Gₗ (an articulation point
//! on every sₗ–eₗ path) must be of colour l. One depth-first search from sₗ (Tarjan 1972)
//! finds them: walking the search tree from eₗ back to sₗ, a node v whose child c towards eₗ
//! has `low(c) ≥ disc(v)` cuts c's subtree, and eₗ with it, from sₗ.
//!
//! **Consistency.** Checking (an assignment that breaks a colour's connectivity fails), with
//! the two rules; no claim of domain consistency. **Events.** Any removal from a colour's
//! domain. **Cost** O(K·(n + m)) per run, from scratch (K colours, a graph of n nodes and m
//! edges). **Explanations:** the generic ones (the current domains).

use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::store::VarId;

/// A depth-first search's "not visited yet".
const UNSEEN: u32 = u32::MAX;

/// Each colour's nodes form one connected set holding its two terminals (module docs).
#[derive(Clone, Debug)]
pub struct ColourPaths {
    col: Vec<VarId>,
    /// The neighbours of each node.
    neighbours: Vec<Vec<usize>>,
    /// The terminals of colour l at index l.
    terminals: Vec<(usize, usize)>,
}

/// One depth-first search of Gₗ from a terminal: discovery times, low points, tree parents.
struct Search {
    disc: Vec<u32>,
    low: Vec<u32>,
    parent: Vec<usize>,
}

impl ColourPaths {
    pub fn new(
        col: &[VarId],
        neighbours: Vec<Vec<usize>>,
        terminals: Vec<(usize, usize)>,
    ) -> ColourPaths {
        assert_eq!(col.len(), neighbours.len(), "one neighbour list per node");
        ColourPaths {
            col: col.to_vec(),
            neighbours,
            terminals,
        }
    }

    /// Tarjan's depth-first search from `start` through the nodes `may` accepts, iterative
    /// (a path of a large grid is deeper than a thread's stack).
    fn search(&self, start: usize, may: &dyn Fn(usize) -> bool, s: &mut Search) {
        let n = self.col.len();
        s.disc.clear();
        s.disc.resize(n, UNSEEN);
        s.low.clear();
        s.low.resize(n, UNSEEN);
        s.parent.clear();
        s.parent.resize(n, usize::MAX);
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

    /// Rules 1 and 2 for colour `l`.
    fn propagate_colour(&self, ctx: &mut Context<'_>, l: usize, s: &mut Search) -> PropResult {
        let (start, end) = self.terminals[l];
        let colour = l as i32;
        let _ = ctx.fix(self.col[start], colour)?;
        let _ = ctx.fix(self.col[end], colour)?;
        {
            let may = |i: usize| ctx.contains(self.col[i], colour);
            self.search(start, &may, s);
        }
        if s.disc[end] == UNSEEN {
            return Err(Conflict::new());
        }
        // Rule 1: the nodes sₗ does not reach lose colour l.
        for (i, &x) in self.col.iter().enumerate() {
            if s.disc[i] == UNSEEN && ctx.contains(x, colour) {
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
        let mut search = Search {
            disc: Vec::new(),
            low: Vec::new(),
            parent: Vec::new(),
        };
        for l in 0..self.terminals.len() {
            self.propagate_colour(ctx, l, &mut search)?;
        }
        Ok(())
    }
}
