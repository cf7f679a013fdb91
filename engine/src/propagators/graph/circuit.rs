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

use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
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
}
