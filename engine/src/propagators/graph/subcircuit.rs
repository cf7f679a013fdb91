//! # `subcircuit`: the nodes that do not follow themselves form a single cycle
//!
//! `subcircuit(succ₀, …, succₙ₋₁)`: `succᵢ = i` takes node i *out*; the other nodes form one
//! cycle (or none at all), as MiniZinc's `subcircuit` (0-based here). Numberlink uses it: an
//! empty cell is out, every other cell lies on the one cycle that chains the paths.
//!
//! **Rule: nocycle for subcircuits.** As in `circuit.rs` (Caseau and Laburthe 1997), the
//! fixed successors (self-loops aside) form chains. Closing a chain from `s` to `e` (`succ[e] =
//! s`, for a chain of two or more nodes) makes it *the* cycle, so every node off the chain
//! must then be out: if some node off the chain cannot be out (`i ∉ dom(succᵢ)`), remove `s`
//! from `succ[e]`. A cycle of fixed successors forces every other node out (fixing
//! `succᵢ = i`), which fails if one cannot be. Two fixed successors naming one node fail.
//!
//! **Consistency.** Checking, with that pruning. **Events.** `Fixed` for the chains, and any
//! removal, since "can node i be out" changes when `i` leaves `dom(succᵢ)`. **Cost** O(n) per
//! run, from scratch.
//!
//! **Explanations** (learning), the path and cycle reasons as in `circuit.rs`: `s` leaves
//! `succ[e]` because of the chain's fixed successors from `s` to `e` and one node off the
//! chain that cannot be out (`[succₘ ≠ m]`); a node is out because of a fixed cycle that
//! misses it. A failure: two fixed successors naming one node, one naming a node that is
//! out, or a fixed cycle and a node off it that cannot be out.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// The nodes with `succ[i] ≠ i` form one cycle (see the module docs).
#[derive(Clone, Debug)]
pub struct Subcircuit {
    succ: Vec<VarId>,
}

impl Subcircuit {
    pub fn new(succ: &[VarId]) -> Subcircuit {
        Subcircuit {
            succ: succ.to_vec(),
        }
    }
}

impl Propagator for Subcircuit {
    fn name(&self) -> &'static str {
        "subcircuit"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        self.succ
            .iter()
            .map(|&x| Subscription::new(x, Condition::Domain))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.succ.len();
        for &x in &self.succ {
            if ctx.min(x) < 0 || ctx.max(x) >= n as i32 {
                ctx.retain(x, |v| v >= 0 && v < n as i32)?;
            }
        }
        // The fixed successor of each node that is not out.
        let fixed: Vec<Option<usize>> = (0..n)
            .map(|i| {
                let x = self.succ[i];
                (ctx.is_fixed(x) && ctx.value(x) != i as i32).then(|| ctx.value(x) as usize)
            })
            .collect();
        let out = |ctx: &Context<'_>, i: usize| {
            ctx.is_fixed(self.succ[i]) && ctx.value(self.succ[i]) == i as i32
        };
        let must_be_in: Vec<bool> = (0..n)
            .map(|i| !ctx.contains(self.succ[i], i as i32))
            .collect();
        let must_in_total = must_be_in.iter().filter(|&&b| b).count();
        let mut has_pred = vec![false; n];
        for &j in fixed.iter().flatten() {
            if std::mem::replace(&mut has_pred[j], true) || out(ctx, j) {
                return Err(Conflict::new());
            }
        }
        let mut visited = vec![false; n];
        for start in 0..n {
            if has_pred[start] || out(ctx, start) {
                continue;
            }
            let (mut end, mut length, mut must_in_chain) = (start, 1, must_be_in[start] as usize);
            visited[start] = true;
            while let Some(next) = fixed[end] {
                end = next;
                visited[end] = true;
                length += 1;
                must_in_chain += must_be_in[end] as usize;
            }
            if length >= 2 && must_in_chain < must_in_total {
                ctx.remove(self.succ[end], start as i32)?;
            }
        }
        // A cycle of fixed successors: every other node is out.
        if let Some(first) = (0..n).find(|&i| !visited[i] && !out(ctx, i)) {
            let mut on_cycle = vec![false; n];
            let mut node = first;
            loop {
                on_cycle[node] = true;
                node = fixed[node].expect("a node on a fixed cycle");
                if node == first {
                    break;
                }
            }
            for (i, &on) in on_cycle.iter().enumerate() {
                if !on {
                    ctx.fix(self.succ[i], i as i32)?;
                }
            }
            ctx.set_entailed();
        }
        Ok(())
    }

    /// The chain or the cycle of fixed successors that made the change (module docs).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let n = self.succ.len();
        let Some(k) = self.succ.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[k], reason) else {
            return false;
        };
        let fixed: Vec<Option<usize>> = (0..n)
            .map(|i| self.successor(inputs, i, &mut Vec::new()))
            .collect();
        let mut why = Vec::new();
        for v in needed {
            if v < 0 || v >= n as i32 {
                continue;
            }
            let closing = self
                .chain_to(&fixed, k)
                .filter(|&(start, length)| v == start as i32 && length >= 2);
            let mark = why.len();
            if let Some((start, _)) = closing {
                let on_chain = self.walk(&fixed, start, inputs, &mut why);
                if let Some(m) = (0..n).find(|&m| !on_chain[m] && !inputs[m].contains(m as i32)) {
                    why.push(Atom::NotEqual(self.succ[m], m as i32));
                    continue;
                }
                why.truncate(mark);
            }
            // Else a fixed cycle that misses node k: k is out.
            let Some(first) = self.fixed_cycle(&fixed).filter(|_| v != k as i32) else {
                return false;
            };
            if self.walk(&fixed, first, inputs, &mut why)[k] {
                return false;
            }
        }
        why.sort();
        why.dedup();
        reason.extend(why);
        true
    }

    /// No successor in range, two fixed successors naming one node or one naming a node that
    /// is out, or a fixed cycle beside a node that cannot be out.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let n = self.succ.len();
        for (k, d) in inputs.iter().enumerate() {
            if d.size() <= 256 && d.iter().all(|v| v < 0 || v >= n as i32) {
                Atom::describe(self.succ[k], d, reason);
                return true;
            }
        }
        let fixed: Vec<Option<usize>> = (0..n)
            .map(|i| self.successor(inputs, i, &mut Vec::new()))
            .collect();
        let mut named_by: Vec<Option<usize>> = vec![None; n];
        for k in 0..n {
            let Some(j) = fixed[k].filter(|&j| j != k) else {
                continue;
            };
            let other = match named_by[j].replace(k) {
                Some(other) => other,
                None if fixed[j] == Some(j) => j,
                None => continue,
            };
            self.successor(inputs, k, reason);
            self.successor(inputs, other, reason);
            return true;
        }
        if let Some(first) = self.fixed_cycle(&fixed) {
            let mut why = Vec::new();
            let on_cycle = self.walk(&fixed, first, inputs, &mut why);
            if let Some(m) = (0..n).find(|&m| !on_cycle[m] && !inputs[m].contains(m as i32)) {
                reason.extend(why);
                reason.push(Atom::NotEqual(self.succ[m], m as i32));
                return true;
            }
        }
        false
    }
}

impl Subcircuit {
    fn repeats_a_variable(&self) -> bool {
        (0..self.succ.len()).any(|i| (0..i).any(|j| self.succ[j] == self.succ[i]))
    }

    /// The successor of node `k` (itself: out) if its input has one value in `0..n`; the
    /// input's atoms that leave only it pushed onto `reason`.
    fn successor(&self, inputs: &[Domain], k: usize, reason: &mut Vec<Atom>) -> Option<usize> {
        let (d, n) = (&inputs[k], self.succ.len() as i32);
        if d.size() > 64 {
            return None;
        }
        let mut left = d.iter().filter(|&v| 0 <= v && v < n);
        let (Some(j), None) = (left.next(), left.next()) else {
            return None;
        };
        split_atom(Atom::Equal(self.succ[k], j), d, reason)?;
        Some(j as usize)
    }

    /// The start of the chain of fixed successors (self-loops aside) that ends at `end`, and
    /// its length in nodes; `None` if `end` lies on a cycle.
    fn chain_to(&self, fixed: &[Option<usize>], end: usize) -> Option<(usize, usize)> {
        let n = self.succ.len();
        let (mut start, mut length) = (end, 1);
        while let Some(p) = (0..n).find(|&p| p != start && fixed[p] == Some(start)) {
            start = p;
            length += 1;
            if length > n {
                return None;
            }
        }
        Some((start, length))
    }

    /// A node on a cycle of fixed successors (self-loops aside), if there is one.
    fn fixed_cycle(&self, fixed: &[Option<usize>]) -> Option<usize> {
        let n = self.succ.len();
        (0..n).find(|&first| {
            let (mut node, mut steps) = (first, 0);
            while let Some(next) = fixed[node].filter(|&j| j != node) {
                node = next;
                steps += 1;
                if node == first || steps > n {
                    break;
                }
            }
            node == first && steps > 0
        })
    }

    /// Follow the fixed successors from `from` until they stop or come back; push their
    /// atoms and return which nodes were met.
    fn walk(
        &self,
        fixed: &[Option<usize>],
        from: usize,
        inputs: &[Domain],
        reason: &mut Vec<Atom>,
    ) -> Vec<bool> {
        let mut met = vec![false; self.succ.len()];
        let mut node = from;
        met[node] = true;
        while let Some(next) = fixed[node].filter(|&j| j != node) {
            self.successor(inputs, node, reason);
            if met[next] {
                break;
            }
            met[next] = true;
            node = next;
        }
        met
    }
}
