//! # Explaining `colour_paths` by cuts
//!
//! Learning asks why `colour_paths` removed colour l from a node, gave a node colour l, or
//! failed (`colour_paths.rs`, "Explanations"). Every answer here is a **cut**: a set C of
//! nodes and its *boundary*, the nodes next to C that could not take colour l in the run's
//! inputs. Given only the atoms `[colᵤ ≠ l]` of the boundary, a route of colour l that is
//! inside C stays inside C (or leaves through the one node the rule names), so:
//!
//! * a node in a region of Gₗ that holds neither terminal is on no route;
//! * a node of a pocket that hangs off the way through node a is on no route (a route would
//!   have to leave the pocket through a, which it entered by);
//! * a node v such that sₗ's region without v misses eₗ is on every route;
//! * a region that holds one terminal and not the other admits no route at all.
//!
//! A cut is sound whatever the other domains are, so it can be computed again from the
//! inputs when the learner asks, one colour at a time: a run of `colour_paths` reads every
//! colour's graph from its inputs (its "Layers"), so each of its changes follows from one
//! colour's graph there.

use super::colour_paths::{ColourPaths, Search, UNSEEN};
use crate::atom::Atom;
use crate::domain::Domain;

impl ColourPaths {
    /// Push a reason for "value `w` left node `v`" (true in `inputs`); `false` if the rules
    /// do not remove it from these inputs (the generic reason is then used).
    pub(super) fn explain_removal(
        &self,
        inputs: &[Domain],
        v: usize,
        w: i32,
        out: &mut Vec<Atom>,
    ) -> bool {
        // A terminal's colour is the constraint's alone.
        if self
            .terminals
            .iter()
            .enumerate()
            .any(|(l, &(s, e))| (v == s || v == e) && w != l as i32)
        {
            return true;
        }
        if w >= 0
            && (w as usize) < self.terminals.len()
            && self.off_routes(inputs, v, w as usize, out)
        {
            return true;
        }
        // A bottleneck of another colour took the node.
        (0..self.terminals.len())
            .filter(|&l| l as i32 != w && inputs[v].contains(l as i32))
            .any(|l| self.bottleneck(inputs, v, l, out))
    }

    /// The cut that puts node `v` on no route of colour `l` in the inputs' Gₗ, if any.
    fn off_routes(&self, inputs: &[Domain], v: usize, l: usize, out: &mut Vec<Atom>) -> bool {
        let (start, end) = self.terminals[l];
        let may = |i: usize| inputs[i].contains(l as i32);
        let mut s = Search::new();
        self.search(start, &may, &mut s);
        if s.disc[v] == UNSEEN || s.disc[end] == UNSEEN {
            // Not reached, or no route at all: the smaller of the terminals' cut and v's.
            let from_start: Vec<bool> = s.disc.iter().map(|&d| d != UNSEEN).collect();
            let from_v = self.region(v, &may, None);
            let other = if s.disc[v] == UNSEEN {
                from_v
            } else {
                self.region(end, &may, None)
            };
            let cut = self.smaller_cut(&from_start, &other, &may, None, l);
            out.extend(cut);
            return true;
        }
        self.mark_blocks_on_way(start, end, &mut s);
        if s.on_route(start, v) {
            return false;
        }
        // The pocket's root: the first node on a route up the search tree from v.
        let mut root = s.parent[v];
        while !s.on_route(start, root) {
            root = s.parent[root];
        }
        let pocket = self.region(v, &may, Some(root));
        if pocket[start] || pocket[end] {
            return false;
        }
        out.extend(self.cut(&pocket, &may, Some(root), l));
        true
    }

    /// The cut that makes node `v` a bottleneck of colour `l` in the inputs' Gₗ, if it is.
    fn bottleneck(&self, inputs: &[Domain], v: usize, l: usize, out: &mut Vec<Atom>) -> bool {
        let (start, end) = self.terminals[l];
        if v == start || v == end {
            return false;
        }
        let may = |i: usize| inputs[i].contains(l as i32);
        let from_start = self.region(start, &may, Some(v));
        if from_start[end] {
            return false;
        }
        let from_end = self.region(end, &may, Some(v));
        out.extend(self.smaller_cut(&from_start, &from_end, &may, Some(v), l));
        true
    }

    /// Push a reason why the inputs admit no assignment, every colour's graph read from
    /// them (as a run does); `false` if none is found.
    pub(super) fn find_failure(&self, inputs: &[Domain], out: &mut Vec<Atom>) -> bool {
        let k = self.terminals.len();
        // A terminal without its colour; a terminal that cannot reach the other.
        for (l, &(start, end)) in self.terminals.iter().enumerate() {
            for t in [start, end] {
                if !inputs[t].contains(l as i32) {
                    out.push(Atom::NotEqual(self.col[t], l as i32));
                    return true;
                }
            }
            let may = |i: usize| inputs[i].contains(l as i32);
            let from_start = self.region(start, &may, None);
            if !from_start[end] {
                let from_end = self.region(end, &may, None);
                out.extend(self.smaller_cut(&from_start, &from_end, &may, None, l));
                return true;
            }
        }
        // A node taken by two colours (a terminal's or a bottleneck's).
        let n = self.col.len();
        let mut taken: Vec<Option<usize>> = vec![None; n];
        for (l, &(start, end)) in self.terminals.iter().enumerate() {
            for t in [start, end] {
                if let Some(m) = taken[t].filter(|&m| m != l) {
                    let _ = self.explain_taken(inputs, t, m, out);
                    return true;
                }
                taken[t] = Some(l);
            }
        }
        for l in 0..k {
            for v in self.bottlenecks(inputs, l) {
                if let Some(m) = taken[v].filter(|&m| m != l) {
                    let mut reason = Vec::new();
                    if self.explain_taken(inputs, v, m, &mut reason)
                        && self.explain_taken(inputs, v, l, &mut reason)
                    {
                        out.extend(reason);
                        return true;
                    }
                    return false;
                }
                taken[v] = Some(l);
            }
        }
        // A node left with no value: each of its colours off that colour's routes.
        for v in 0..n {
            if taken[v].is_some() || inputs[v].iter().any(|w| w < 0 || w as usize >= k) {
                continue;
            }
            let mut reason = Vec::new();
            if inputs[v]
                .iter()
                .all(|w| self.off_routes(inputs, v, w as usize, &mut reason))
            {
                Atom::describe(self.col[v], &inputs[v], out);
                out.extend(reason);
                return true;
            }
        }
        false
    }

    /// Push why node `v` takes colour `l`: nothing for a terminal, a cut for a bottleneck.
    fn explain_taken(&self, inputs: &[Domain], v: usize, l: usize, out: &mut Vec<Atom>) -> bool {
        let (start, end) = self.terminals[l];
        v == start || v == end || self.bottleneck(inputs, v, l, out)
    }

    /// The bottlenecks of colour `l` in the inputs' Gₗ (sₗ reaching eₗ).
    fn bottlenecks(&self, inputs: &[Domain], l: usize) -> Vec<usize> {
        let (start, end) = self.terminals[l];
        let may = |i: usize| inputs[i].contains(l as i32);
        let mut s = Search::new();
        self.search(start, &may, &mut s);
        let mut found = Vec::new();
        let (mut child, mut v) = (end, s.parent[end]);
        while v != usize::MAX && v != start {
            if s.low[child] >= s.disc[v] {
                found.push(v);
            }
            child = v;
            v = s.parent[v];
        }
        found
    }

    /// The nodes reached from `from` through nodes `may` accepts, never entering `avoid`.
    fn region(&self, from: usize, may: &dyn Fn(usize) -> bool, avoid: Option<usize>) -> Vec<bool> {
        let mut inside = vec![false; self.col.len()];
        inside[from] = true;
        let mut stack = vec![from];
        while let Some(i) = stack.pop() {
            for &j in &self.neighbours[i] {
                if Some(j) != avoid && !inside[j] && may(j) {
                    inside[j] = true;
                    stack.push(j);
                }
            }
        }
        inside
    }

    /// The boundary of `region` for colour `l`: `[colᵤ ≠ l]` for each node u next to it,
    /// outside it, not `avoid` (the node a rule lets a route pass), and refused by `may`.
    fn cut(
        &self,
        region: &[bool],
        may: &dyn Fn(usize) -> bool,
        avoid: Option<usize>,
        l: usize,
    ) -> Vec<Atom> {
        let mut at = vec![false; region.len()];
        let mut atoms = Vec::new();
        for (i, _) in region.iter().enumerate().filter(|&(_, &r)| r) {
            for &u in &self.neighbours[i] {
                if !region[u] && Some(u) != avoid && !may(u) && !std::mem::replace(&mut at[u], true)
                {
                    atoms.push(Atom::NotEqual(self.col[u], l as i32));
                }
            }
        }
        atoms
    }

    /// The shorter of the two regions' cuts.
    fn smaller_cut(
        &self,
        one: &[bool],
        other: &[bool],
        may: &dyn Fn(usize) -> bool,
        avoid: Option<usize>,
        l: usize,
    ) -> Vec<Atom> {
        let a = self.cut(one, may, avoid, l);
        let b = self.cut(other, may, avoid, l);
        if b.len() < a.len() {
            b
        } else {
            a
        }
    }
}
