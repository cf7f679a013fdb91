//! # `circuit`: the successors form a single cycle through every node
//!
//! `circuit(succ₀, …, succₙ₋₁)`: node i is followed by node `succᵢ` (values `0..n`, 0-based),
//! every node has one predecessor, and following the successors from any node visits all n
//! nodes before coming back — a Hamiltonian cycle. A Hamiltonian *path* (an open knight's
//! tour) is a circuit with one extra dummy node that joins the path's end to its start.
//!
//! **Rule: no premature cycle (Caseau and Laburthe, "Solving small TSPs with constraints",
//! ICLP 1997, the `nocycle` rule).** The fixed successors form chains. For a chain from `s` to
//! `e` of fewer than n nodes, `succ[e] = s` would close a cycle that misses a node: remove `s`
//! from the domain of `succ[e]`. A cycle of fixed successors shorter than n, or two fixed
//! successors naming one node, is a conflict. One successor per node (all-different) is the
//! job of an all-different propagator posted beside it ([`crate::Model::circuit`] posts the
//! domain-consistent one).
//!
//! **Consistency.** Checking, with the nocycle pruning (not domain consistency: deciding
//! whether a value lies on some Hamiltonian cycle is NP-hard). **Events.** `Fixed`: chains only
//! change when a successor is fixed. **Cost** O(n) per run, from scratch.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// The successors form one cycle through all nodes (nocycle pruning; see the module docs).
#[derive(Clone, Debug)]
pub struct Circuit {
    succ: Vec<VarId>,
}

impl Circuit {
    pub fn new(succ: &[VarId]) -> Circuit {
        Circuit {
            succ: succ.to_vec(),
        }
    }
}

impl Propagator for Circuit {
    fn name(&self) -> &'static str {
        "circuit"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        self.succ
            .iter()
            .map(|&x| Subscription::new(x, Condition::Fixed))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.succ.len();
        // Successors outside 0..n, and (for n > 1) a node following itself.
        for (i, &x) in self.succ.iter().enumerate() {
            if ctx.min(x) < 0 || ctx.max(x) >= n as i32 {
                ctx.retain(x, |v| v >= 0 && v < n as i32)?;
            }
            if n > 1 {
                ctx.remove(x, i as i32)?;
            }
        }
        // The fixed successor of each node, and which nodes have a fixed predecessor.
        let fixed: Vec<Option<usize>> = self
            .succ
            .iter()
            .map(|&x| ctx.is_fixed(x).then(|| ctx.value(x) as usize))
            .collect();
        let mut has_pred = vec![false; n];
        for &j in fixed.iter().flatten() {
            if std::mem::replace(&mut has_pred[j], true) {
                return Err(Conflict::new()); // two nodes followed by j
            }
        }
        // Walk each chain from its start (a node with no fixed predecessor).
        let mut visited = vec![false; n];
        for start in 0..n {
            if has_pred[start] {
                continue;
            }
            let (mut end, mut length) = (start, 1);
            visited[start] = true;
            while let Some(next) = fixed[end] {
                end = next;
                visited[end] = true;
                length += 1;
            }
            if length < n {
                ctx.remove(self.succ[end], start as i32)?;
            }
        }
        // Nodes left unvisited lie on cycles of fixed successors: one is fine only if it is
        // the whole circuit.
        if let Some(first) = (0..n).find(|&i| !visited[i]) {
            let mut length = 1;
            let mut node = fixed[first].expect("a node on a fixed cycle");
            while node != first {
                node = fixed[node].expect("a node on a fixed cycle");
                length += 1;
            }
            if length < n {
                return Err(Conflict::new());
            }
            ctx.set_entailed();
        }
        Ok(())
    }

    /// A successor outside the nodes, or a node's own number: no reason (the constraint
    /// alone). The start of a chain as the successor of its end: the fixed successors along
    /// the chain.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let Some(k) = self.succ.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[k], reason) else {
            return false;
        };
        let mut chain_reason = Vec::new();
        for v in needed {
            if self.excluded_alone(k, v) {
                continue;
            }
            // The chain that ends at `k`, walked back through the fixed successors.
            let Some((start, length)) = self.chain_to(inputs, k, &mut chain_reason) else {
                return false;
            };
            if v != start as i32
                || length >= self.succ.len()
                || self.fixed_successor(inputs, k, &mut Vec::new()).is_some()
            {
                return false;
            }
        }
        chain_reason.sort();
        chain_reason.dedup();
        reason.extend(chain_reason);
        true
    }

    /// A successor with no value left, two nodes followed by one, or a fixed cycle short
    /// of all the nodes.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let n = self.succ.len();
        let mut followed_by: Vec<Option<usize>> = vec![None; n];
        for k in 0..n {
            if inputs[k].iter().all(|v| self.excluded_alone(k, v)) {
                Atom::describe(self.succ[k], &inputs[k], reason);
                return true;
            }
            if let Some(j) = self.fixed_successor(inputs, k, &mut Vec::new()) {
                if let Some(other) = followed_by[j].replace(k) {
                    self.fixed_successor(inputs, other, reason);
                    self.fixed_successor(inputs, k, reason);
                    return true;
                }
            }
        }
        for first in 0..n {
            let (mut node, mut length, mut atoms) = (first, 0, Vec::new());
            while let Some(next) = self.fixed_successor(inputs, node, &mut atoms) {
                node = next;
                length += 1;
                if node == first || length > n {
                    break;
                }
            }
            if node == first && length > 0 && length < n {
                reason.extend(atoms);
                return true;
            }
        }
        false
    }
}

impl Circuit {
    fn repeats_a_variable(&self) -> bool {
        (0..self.succ.len()).any(|i| (0..i).any(|j| self.succ[j] == self.succ[i]))
    }

    /// Is `v` never a successor of node `k`, by the constraint alone?
    fn excluded_alone(&self, k: usize, v: i32) -> bool {
        let n = self.succ.len();
        v < 0 || v >= n as i32 || (n > 1 && v == k as i32)
    }

    /// The successor of node `k` if its input, less what the constraint excludes alone, has
    /// one value; its reason (the input's atoms that leave only it) pushed onto `reason`.
    fn fixed_successor(
        &self,
        inputs: &[Domain],
        k: usize,
        reason: &mut Vec<Atom>,
    ) -> Option<usize> {
        let d = &inputs[k];
        if d.size() > 64 {
            return None;
        }
        let mut left = d.iter().filter(|&v| !self.excluded_alone(k, v));
        let (Some(j), None) = (left.next(), left.next()) else {
            return None;
        };
        let needed = split_atom(Atom::Equal(self.succ[k], j), d, reason)?;
        debug_assert!(needed.iter().all(|&v| self.excluded_alone(k, v)));
        Some(j as usize)
    }

    /// The start of the chain of fixed successors that ends at `end`, and its length (in
    /// nodes); the reasons of its fixed successors pushed onto `reason`.
    fn chain_to(
        &self,
        inputs: &[Domain],
        end: usize,
        reason: &mut Vec<Atom>,
    ) -> Option<(usize, usize)> {
        let n = self.succ.len();
        let mut predecessor: Vec<Option<usize>> = vec![None; n];
        for k in 0..n {
            if let Some(j) = self.fixed_successor(inputs, k, &mut Vec::new()) {
                predecessor[j] = Some(k);
            }
        }
        let (mut start, mut length) = (end, 1);
        while let Some(p) = predecessor[start] {
            self.fixed_successor(inputs, p, reason)?;
            start = p;
            length += 1;
            if length > n {
                return None; // a cycle, not a chain
            }
        }
        Some((start, length))
    }
}
