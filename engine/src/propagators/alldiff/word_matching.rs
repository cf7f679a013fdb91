//! # Régin's all-different in one machine word per variable
//!
//! `value_graph.rs` runs Régin's algorithm on an explicit graph: arrays of edges, Tarjan's
//! algorithm with its stacks and indices. That works for any domains, but on a Sudoku unit
//! (9 variables, values 1..9) most of its time goes into bookkeeping for a graph that has
//! at most 81 edges. This file runs *the same algorithm* when every shown value fits in one
//! 64-bit word (span ≤ 64) and there are at most 64 variables, with every set of vertices a
//! `u64` bitmask, so each step of the algorithm is a handful of `AND`/`OR`s:
//!
//! * `dom[i]` — the shown values of variable `i`, bit `k` standing for value `base + k`;
//! * **matching**: `value_of[i]` and `var_of[k]`, kept between runs as a hint, repaired by
//!   augmenting paths found by breadth-first search where "the values not yet visited that
//!   `i` can take" is `dom[i] & !visited`;
//! * **the graph between variables**: with every variable matched, an alternating path
//!   `j —matched— value_of[j] —unmatched— i` is one step `j → i`, taken when `dom[i]`
//!   holds `value_of[j]`. So `succ[j]` = the variables whose domain holds `j`'s value;
//! * **free values** (no variable matched to them) start the "even alternating paths" of
//!   Régin's paper: every variable `R`-eachable from a variable that can take a free value
//!   may give its value away, so its value stays allowed everywhere;
//! * **strongly connected components** of the rest, by the bitset method: the component of
//!   `p` is the set of variables that `p` reaches *and* that reach `p` (two breadth-first
//!   searches on bitmasks, `forward ∩ backward`), removed, repeat.
//!
//! Variable `i` keeps exactly: the free values, the values of `R`, and the values of its
//! own component (which include its own matched value). That is domain consistency, the
//! same pruning as `value_graph.rs` — the property tests run both against brute force.
//!
//! **Cost** on a 9-cell unit: a few hundred simple instructions and no memory but the
//! struct's own small arrays; about ten times less than the general graph (see
//! `benches/benches/propagators.rs`).

use crate::propagator::{Conflict, Context, PropResult};
use crate::store::VarId;

/// No variable / no value.
const NONE: u8 = u8::MAX;

/// The state of the word-sized Régin algorithm (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct WordMatching {
    /// The value `base + k` is bit `k`. The matching hint below is reset when it changes.
    base: i64,
    /// Matched value (bit index) of each variable, or `NONE`.
    value_of: Vec<u8>,
    /// Matched variable of each value, or `NONE`.
    var_of: [u8; 64],
    /// Scratch, reused from run to run: the domains as masks, and the alternating graph.
    dom: Vec<u64>,
    succ: Vec<u64>,
    pred: Vec<u64>,
    allowed: Vec<u64>,
    /// Scratch for the breadth-first search of an augmenting path.
    queue: Vec<u8>,
    came_from: Vec<u8>,
}

/// What a run found (the caller falls back to the general graph on `TooWide`).
pub(crate) enum WordRun {
    Done(PropResult),
    TooWide,
}

impl WordMatching {
    pub(crate) fn new(n: usize) -> WordMatching {
        WordMatching {
            base: i64::MIN,
            value_of: vec![NONE; n],
            var_of: [NONE; 64],
            dom: vec![0; n],
            succ: vec![0; n],
            pred: vec![0; n],
            allowed: vec![0; n],
            queue: Vec::with_capacity(n),
            came_from: vec![NONE; n],
        }
    }

    /// Can this run use one word per domain? Reads the domains into `dom` if so.
    fn load(&mut self, ctx: &Context<'_>, xs: &[VarId], offsets: &[i32]) -> bool {
        let n = xs.len();
        if n > 64 {
            return false;
        }
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for (&x, &o) in xs.iter().zip(offsets) {
            lo = lo.min(ctx.min(x) as i64 + o as i64);
            hi = hi.max(ctx.max(x) as i64 + o as i64);
        }
        if n > 0 && hi - lo >= 64 {
            return false;
        }
        if lo != self.base {
            self.base = lo;
            self.value_of.fill(NONE);
            self.var_of = [NONE; 64];
        }
        for (i, (&x, &o)) in xs.iter().zip(offsets).enumerate() {
            // Bit k of dom[i] is the shown value base + k, i.e. the value base + k - o of x.
            let Ok(from) = i32::try_from(lo - o as i64) else {
                return false;
            };
            self.dom[i] = ctx.domain(x).mask_from(from);
        }
        true
    }

    /// Run Régin's algorithm on `xs[i] + offsets[i]` if the values fit in a word.
    pub(crate) fn run(&mut self, ctx: &mut Context<'_>, xs: &[VarId], offsets: &[i32]) -> WordRun {
        if !self.load(ctx, xs, offsets) {
            return WordRun::TooWide;
        }
        if let Err(conflict) = self.repair_matching() {
            return WordRun::Done(Err(conflict));
        }
        self.find_allowed_values();
        for (i, (&x, &o)) in xs.iter().zip(offsets).enumerate() {
            let keep = self.dom[i] & self.allowed[i];
            if keep != self.dom[i] {
                // `load` checked that base - o fits in an i32.
                let from = (self.base - o as i64) as i32;
                if let Err(conflict) = ctx.intersect_mask(x, from, keep) {
                    return WordRun::Done(Err(conflict));
                }
            }
        }
        WordRun::Done(Ok(()))
    }

    /// Step 1: a matching covering every variable, repaired from the last run's.
    fn repair_matching(&mut self) -> Result<(), Conflict> {
        let n = self.dom.len();
        // Drop the pairs whose value was removed since the last run.
        let mut used = 0u64;
        for i in 0..n {
            let k = self.value_of[i];
            if k != NONE {
                if self.dom[i] >> k & 1 == 0 {
                    self.var_of[k as usize] = NONE;
                    self.value_of[i] = NONE;
                } else {
                    used |= 1 << k;
                }
            }
        }
        for i in 0..n {
            if self.value_of[i] != NONE {
                continue;
            }
            // The cheap case first: a value nobody holds.
            let free = self.dom[i] & !used;
            let k = if free != 0 {
                free.trailing_zeros() as u8
            } else {
                self.augment(i, &mut used).ok_or_else(Conflict::new)?
            };
            self.value_of[i] = k;
            self.var_of[k as usize] = i as u8;
            used |= 1 << k;
        }
        Ok(())
    }

    /// Find an augmenting path from the unmatched variable `start` to a free value by
    /// breadth-first search; shift the matching along it, leaving `start`'s new value to
    /// the caller. The free value at the end of the path joins `used`. `None` if no path
    /// exists (the variables cannot all be matched).
    fn augment(&mut self, start: usize, used: &mut u64) -> Option<u8> {
        self.queue.clear();
        self.queue.push(start as u8);
        self.came_from.fill(NONE);
        let mut visited = 0u64;
        let mut head = 0;
        while head < self.queue.len() {
            let u = self.queue[head] as usize;
            head += 1;
            let reachable = self.dom[u] & !visited;
            let free = reachable & !*used;
            if free != 0 {
                // Walk back: u takes the free value, the variable u came from takes u's old
                // value, ... up to `start`.
                let mut k = free.trailing_zeros() as u8;
                *used |= 1 << k;
                let mut v = u;
                while v != start {
                    let previous = self.value_of[v];
                    self.value_of[v] = k;
                    self.var_of[k as usize] = v as u8;
                    k = previous;
                    v = self.came_from[v] as usize;
                }
                return Some(k);
            }
            visited |= reachable;
            let mut values = reachable;
            while values != 0 {
                let k = values.trailing_zeros() as usize;
                values &= values - 1;
                let w = self.var_of[k];
                if self.came_from[w as usize] == NONE && w as usize != start {
                    self.came_from[w as usize] = u as u8;
                    self.queue.push(w);
                }
            }
        }
        None
    }

    /// Steps 2–4: for each variable, the mask of values it may keep, into `allowed`.
    fn find_allowed_values(&mut self) {
        let n = self.dom.len();
        let all_vars = if n == 64 { !0u64 } else { (1u64 << n) - 1 };
        // The alternating graph between variables: j → i when dom[i] holds j's value.
        let mut used = 0u64;
        for i in 0..n {
            used |= 1 << self.value_of[i];
            self.succ[i] = 0;
        }
        let mut union = 0u64;
        let mut can_take_free = 0u64;
        for i in 0..n {
            let d = self.dom[i];
            union |= d;
            if d & !used != 0 {
                can_take_free |= 1 << i;
            }
            let mut pred = 0u64;
            let mut values = d & used;
            while values != 0 {
                let k = values.trailing_zeros() as usize;
                values &= values - 1;
                let j = self.var_of[k] as usize;
                pred |= 1 << j;
                self.succ[j] |= 1 << i;
            }
            self.pred[i] = pred & !(1 << i);
        }
        for j in 0..n {
            self.succ[j] &= !(1 << j);
        }
        let free_values = union & !used;
        // R: reached from a variable that can take a free value. Their values may move.
        let reach_free = reach(&self.succ, can_take_free, all_vars);
        let movable = free_values | self.values_of(reach_free);
        for i in ones(reach_free) {
            self.allowed[i] = movable;
        }
        // The components of the others: forward ∩ backward reach of a pivot.
        let mut rest = all_vars & !reach_free;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            let forward = reach(&self.succ, 1 << p, rest);
            let backward = reach(&self.pred, 1 << p, rest);
            let component = forward & backward;
            rest &= !component;
            let values = movable | self.values_of(component);
            for i in ones(component) {
                self.allowed[i] = values;
            }
        }
    }

    /// The matched values of the variables in `vars`.
    fn values_of(&self, vars: u64) -> u64 {
        ones(vars).fold(0, |acc, i| acc | 1 << self.value_of[i])
    }
}

/// The variables reached from `from` by following `edges` (bitmask adjacency), staying
/// within `within`. `from` is included.
fn reach(edges: &[u64], from: u64, within: u64) -> u64 {
    let mut reached = from & within;
    let mut frontier = reached;
    while frontier != 0 {
        let u = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = edges[u] & within & !reached;
        reached |= new;
        frontier |= new;
    }
    reached
}

/// The indices of the set bits of `mask`, lowest first.
fn ones(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(i)
    })
}
