//! # The implications probing finds, kept: a 2-SAT closure over the tries
//!
//! A try of probing (`probing.rs`) imposes `x = a` on a 0/1 variable and propagates. Every
//! other 0/1 variable `y` the try fixes, say to `b`, is an **implication** found at the node:
//! `x = a → y = b`. Read backwards (its contrapositive) it says `y = ¬b → x = ¬a`, and that
//! direction is what propagation may not see: `y = b` can follow from `x = a` through several
//! constraints together (two lines of a nonogram each fixing a cell that a third line then
//! combines), while `y = ¬b` alone wakes nothing that leads back to `x`. The nonogram
//! tournament programs after Wu et al. (LalaFrog's later versions) keep these implications
//! and close over them, as a 2-SAT solver does over binary clauses.
//!
//! **What is kept.** The try of `x = a` fixes a set `S(x = a)` of literals. For each `m` in
//! it, the contrapositive `¬m → ¬(x = a)` is worth keeping only if propagation does not
//! already give it: if the try of `¬m` in the same pass survived without fixing `x` to
//! `¬a`. So implications are gathered at the end of a pass over the variables,
//! when every try of the pass is known, and only those that the try of their premise was
//! seen to miss are kept. (An implication whose premise was not tried in the pass, or
//! failed, is dropped: the premise was already settled, or nothing says it is new.)
//!
//! **Where it holds.** An implication found at a node follows from the constraints and the
//! node's domains, so it holds at the node and everywhere below it, and not elsewhere. Each
//! is kept with the stamp of the node's level (`LevelStamp`) and forgotten once the search
//! has left that level: the implications form a stack, the deepest node's last.
//!
//! **How it is used.** Inside each later try (the tries are the only place where a literal
//! is imposed that probing did not derive; a decision's consequences are caught by the tries
//! of the variables it touches), after propagation: every 0/1 variable the try fixed has its
//! implications applied, and propagation runs again, until no implication fixes anything
//! new (the closure). A try that fails only through them is a failed literal that plain
//! probing misses. A variable whose literal gained an implication is tried again in the
//! next pass, which `probing.rs` then runs. The passes end: an implication is kept only if
//! the try of its premise missed it, and once kept every try of that premise applies it,
//! so no implication is kept twice and there are finitely many.
//!
//! **Which nodes keep them.** Every node (the most pruning, the most passes), or only the
//! nodes near the root: what the root of a run finds holds for the whole search, and the
//! nodes below then pay only for the closure of each try (`NodeProbing::implications`;
//! `docs/performance/nonograms.md` measures both on the TAAI nonograms).
//!
//! Everything kept is implied by the constraints at the node, so no solution below it is
//! lost and counts stay exact (`engine/tests/probe_implications.rs` checks both against
//! brute force). The graph is stored as linked
//! lists threaded through three arrays (`from`, `to`, `next`), so that forgetting a level is
//! truncating them and restoring each list's head.

use crate::model::Model;
use crate::store::{LevelStamp, VarId};
use crate::Conflict;

/// "No entry": the end of a list, a variable that has no literals.
const NONE: u32 = u32::MAX;

/// The implications found by probing at the open nodes of the branch, and what a pass of
/// tries saw. A literal is `2 i + b` for the `i`-th probed variable (in
/// `NodeProbing::vars`) taking the value `b` of 0 and 1.
#[derive(Clone, Debug, Default)]
pub struct ProbeImplications {
    /// For each variable of the model, its index among the probed variables if it is a 0/1
    /// variable, else [`NONE`].
    index: Vec<u32>,
    /// The probed variables (by index), [`VarId`] of each.
    vars: Vec<VarId>,
    /// Implication `e` is `from[e] → to[e]`; `next[e]` is the implication found before it
    /// with the same premise ([`NONE`] if none), `head[lit]` the last one found with
    /// premise `lit`.
    from: Vec<u32>,
    to: Vec<u32>,
    next: Vec<u32>,
    head: Vec<u32>,
    /// For each level that found implications, its stamp and the first of them.
    levels: Vec<(LevelStamp, usize)>,
    /// The pass now under way (counted from 1) and, for each literal, the last pass whose
    /// try of it survived.
    pass: u32,
    tried_in: Vec<u32>,
    /// The literals each try of this pass fixed: a bit set of literals per tried literal
    /// (`words` words each), and the list of them.
    words: usize,
    fixed_by: Vec<u64>,
    fixed_list: Vec<Vec<u32>>,
    /// The literals tried (and surviving) in this pass, in order.
    tried: Vec<u32>,
    /// The variables (by index) whose literal gained an implication, to try again.
    retry: Vec<bool>,
    /// Within a try, the literals whose implications were applied (`walked[lit] ==
    /// walk`), and the try's number.
    walked: Vec<u32>,
    walk: u32,
    /// Implications kept in all (for the statistics).
    pub found: u64,
    /// Whether the node now probed keeps what its tries find (`NodeProbing::implications`
    /// says which nodes do); the implications kept before are applied either way.
    pub recording: bool,
}

impl ProbeImplications {
    /// The implications among `vars` (those of them whose domain is within {0, 1} now: at
    /// the root, before the search).
    pub fn new(model: &Model, vars: &[VarId]) -> ProbeImplications {
        let mut index = vec![NONE; model.num_vars()];
        for (i, &x) in vars.iter().enumerate() {
            if model.min(x) >= 0 && model.max(x) <= 1 {
                index[x.index()] = i as u32;
            }
        }
        let literals = 2 * vars.len();
        let words = literals.div_ceil(64);
        ProbeImplications {
            index,
            vars: vars.to_vec(),
            head: vec![NONE; literals],
            tried_in: vec![0; literals],
            words,
            fixed_by: vec![0; literals * words],
            fixed_list: vec![Vec::new(); literals],
            retry: vec![false; vars.len()],
            walked: vec![0; literals],
            ..ProbeImplications::default()
        }
    }

    /// The literal "`y` is fixed to its value", if `y` is a fixed 0/1 variable of the graph.
    fn fixed_literal(&self, model: &Model, y: VarId) -> Option<u32> {
        let i = *self.index.get(y.index())?;
        (i != NONE && model.is_fixed(y)).then(|| 2 * i + model.value(y) as u32)
    }

    /// Forget the implications of the levels the search has left (call at each node before
    /// probing: everything found since those levels closed is theirs, at the top).
    pub fn forget_closed_levels(&mut self, model: &Model) {
        while let Some(&(stamp, first)) = self.levels.last() {
            if model.store.is_open(&stamp) {
                break;
            }
            for e in (first..self.from.len()).rev() {
                self.head[self.from[e] as usize] = self.next[e];
            }
            self.from.truncate(first);
            self.to.truncate(first);
            self.next.truncate(first);
            self.levels.pop();
        }
    }

    /// Inside a try (its level open and propagated): apply the implications of every
    /// literal the try fixed, propagate, and repeat until none fixes anything new. `Err`:
    /// the try fails.
    pub fn close_try(&mut self, model: &mut Model) -> Result<(), Conflict> {
        self.walk += 1;
        let mut implied = Vec::new();
        loop {
            let changed: Vec<VarId> = model.store.changed_at_this_level().collect();
            for y in changed {
                let Some(lit) = self.fixed_literal(model, y) else {
                    continue;
                };
                if self.walked[lit as usize] == self.walk {
                    continue;
                }
                self.walked[lit as usize] = self.walk;
                let mut e = self.head[lit as usize];
                while e != NONE {
                    implied.push(self.to[e as usize]);
                    e = self.next[e as usize];
                }
            }
            let mut fixed_any = false;
            for lit in implied.drain(..) {
                let (z, b) = (self.vars[lit as usize / 2], (lit % 2) as i32);
                if !model.is_fixed(z) {
                    fixed_any = true;
                }
                model.fix(z, b)?;
            }
            if !fixed_any {
                return Ok(());
            }
            model.propagate()?;
        }
    }

    /// Begin a pass over the variables.
    pub fn begin_pass(&mut self) {
        self.pass += 1;
        self.tried.clear();
    }

    /// The try of `x = v` (its level still open) survived: remember what it fixed.
    pub fn note_try(&mut self, model: &Model, x: VarId, v: i32) {
        let Some(&i) = self.index.get(x.index()).filter(|&&i| i != NONE) else {
            return;
        };
        let lit = (2 * i + v as u32) as usize;
        let mut list = std::mem::take(&mut self.fixed_list[lit]);
        list.clear();
        for y in model.store.changed_at_this_level() {
            if let Some(m) = self.fixed_literal(model, y).filter(|_| y != x) {
                list.push(m);
            }
        }
        let row = &mut self.fixed_by[lit * self.words..(lit + 1) * self.words];
        row.iter_mut().for_each(|w| *w = 0);
        for &m in &list {
            row[m as usize / 64] |= 1 << (m % 64);
        }
        self.fixed_list[lit] = list;
        self.tried_in[lit] = self.pass;
        self.tried.push(lit as u32);
    }

    /// Did the try of `lit` in this pass fix `m`?
    fn fixed_in_pass(&self, lit: u32, m: u32) -> bool {
        let row = lit as usize * self.words;
        self.fixed_by[row + m as usize / 64] >> (m % 64) & 1 == 1
    }

    /// End the pass: keep, with the stamp of the node's level (`stamp`), each
    /// contrapositive `¬m → ¬l` of a try `l` that fixed `m` where the try of `¬m` survived
    /// this pass without fixing `¬l` (the header). Returns how many were kept.
    pub fn end_pass(&mut self, stamp: LevelStamp) -> usize {
        let before = self.from.len();
        if !self.recording {
            return 0; // a node too deep to keep implications
        }
        for t in 0..self.tried.len() {
            let l = self.tried[t];
            for k in 0..self.fixed_list[l as usize].len() {
                let m = self.fixed_list[l as usize][k];
                let (not_m, not_l) = (m ^ 1, l ^ 1);
                if self.tried_in[not_m as usize] != self.pass || self.fixed_in_pass(not_m, not_l) {
                    continue;
                }
                self.push(not_m, not_l);
                self.retry[not_m as usize / 2] = true;
            }
        }
        let kept = self.from.len() - before;
        if kept > 0 {
            match self.levels.last() {
                Some((last, _)) if *last == stamp => {}
                _ => self.levels.push((stamp, before)),
            }
        }
        self.found += kept as u64;
        kept
    }

    fn push(&mut self, from: u32, to: u32) {
        let e = self.from.len() as u32;
        self.from.push(from);
        self.to.push(to);
        self.next.push(self.head[from as usize]);
        self.head[from as usize] = e;
    }

    /// Is the `i`-th probed variable to be tried again (one of its literals gained an
    /// implication)? Clears the mark.
    pub fn take_retry(&mut self, i: usize) -> bool {
        std::mem::take(self.retry.get_mut(i).unwrap_or(&mut false))
    }

    /// The implications kept now, each as `((x, a), (y, b))`: `x = a → y = b`.
    pub fn kept(&self) -> impl Iterator<Item = ((VarId, i32), (VarId, i32))> + '_ {
        let literal = |lit: u32| (self.vars[lit as usize / 2], (lit % 2) as i32);
        (self.from.iter().zip(&self.to)).map(move |(&a, &b)| (literal(a), literal(b)))
    }

    /// How many implications are kept now.
    pub fn len(&self) -> usize {
        self.from.len()
    }

    pub fn is_empty(&self) -> bool {
        self.from.is_empty()
    }
}
