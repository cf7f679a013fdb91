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

use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
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
}
