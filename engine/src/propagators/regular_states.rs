//! # `regular` with its states made variables: one transition constraint per layer
//!
//! `regular.rs` keeps Pesant's layered graph inside one propagator: fast, but when a
//! learning search asks *why* it removed a value, the only words it has are the cells'
//! missing values, and a cut of the graph in those words can take half the line
//! (`regular.rs`, "Explanations"). The graph has better words: its **states**. Made
//! variables, `s₀ … sₙ` (`sᵢ`: the automaton's state after reading `x₁ … xᵢ`), the
//! constraint becomes a chain of small ones,
//!
//! ```text
//! s₀ = start,   sᵢ₊₁ = δ(sᵢ, xᵢ₊₁) for each layer,   sₙ accepting
//! ```
//!
//! (the decomposition of Quimper & Walsh, and the encoding SAT-based solvers such as CP-SAT
//! give an automaton). Each [`Transition`] is a ternary constraint on `(sᵢ, xᵢ₊₁, sᵢ₊₁)`
//! whose explanations have a few atoms each ("`xᵢ₊₁ ≠ 1` because `sᵢ ≤ 3` and
//! `sᵢ₊₁ ≠ 5`"), and a learned nogood can say "by cell 7 the second block has not begun"
//! (`[s₇ ≤ 4]`): one fact that holds in many branches, where the same nogood over cells
//! must list a whole pattern of them.
//!
//! **Consistency: domain**, like `regular.rs`. Each transition is domain consistent, and the
//! chain's constraint graph is Berge-acyclic (two neighbouring transitions share one
//! variable), so domain consistency on each transition is domain consistency on the whole
//! (Beeri et al., 1983; Bessière et al., "Decomposition of the NValue constraint" discuss
//! the argument for CP). The cost is the propagation going along the chain one transition
//! at a time, where `regular.rs` makes one pass.
//!
//! The states' domains are cut at posting to the states that can be reached from the start
//! after `i` symbols and can still reach an accepting state in the symbols left
//! ([`reachable_layers`]).

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::split_atom;
use crate::propagators::regular::Dfa;
use crate::store::VarId;

/// For each layer `0..=n`, the states reachable from the start in `i` symbols from which an
/// accepting state is reachable in `n - i` more (sorted; empty layers if none is).
pub fn reachable_layers(dfa: &Dfa, n: usize) -> Vec<Vec<i32>> {
    let q_count = dfa.states + 1;
    let mut forward = vec![vec![false; q_count]; n + 1];
    forward[0][dfa.start] = true;
    for i in 0..n {
        for q in 1..q_count {
            if forward[i][q] {
                for s in 0..dfa.symbols {
                    forward[i + 1][dfa.next[q - 1][s]] = true;
                }
            }
        }
        forward[i + 1][0] = false;
    }
    let mut backward = vec![vec![false; q_count]; n + 1];
    for &q in &dfa.accepting {
        backward[n][q] = forward[n][q];
    }
    for i in (0..n).rev() {
        for q in 1..q_count {
            backward[i][q] =
                forward[i][q] && (0..dfa.symbols).any(|s| backward[i + 1][dfa.next[q - 1][s]]);
        }
    }
    backward
        .iter()
        .map(|layer| {
            (1..q_count)
                .filter(|&q| layer[q])
                .map(|q| q as i32)
                .collect()
        })
        .collect()
}

/// `to = δ(from, symbol)` for the automaton's transition function δ (the dead state is no
/// value of `to`: a transition into it is refused).
#[derive(Clone, Debug)]
pub struct Transition {
    from: VarId,
    symbol: VarId,
    to: VarId,
    /// The transitions `(q, v, q')` of the automaton, dead ones left out.
    edges: Vec<(i32, i32, i32)>,
    /// The fast lane's layout, when every end's values fit in one word: the value of bit 0
    /// of each end's mask, and each edge's three bit positions.
    words: Option<([i32; 3], Vec<[u8; 3]>)>,
}

impl Transition {
    pub fn new(from: VarId, symbol: VarId, to: VarId, dfa: &Dfa) -> Transition {
        let mut edges = Vec::new();
        for q in 1..=dfa.states {
            for s in 0..dfa.symbols {
                let target = dfa.next[q - 1][s];
                if target != 0 {
                    edges.push((q as i32, dfa.first_value + s as i32, target as i32));
                }
            }
        }
        let base = [
            edges.iter().map(|e| e.0).min().unwrap_or(0),
            edges.iter().map(|e| e.1).min().unwrap_or(0),
            edges.iter().map(|e| e.2).min().unwrap_or(0),
        ];
        let bits = |e: &(i32, i32, i32)| {
            let offsets = [e.0 - base[0], e.1 - base[1], e.2 - base[2]];
            offsets.map(|o| u8::try_from(o).ok().filter(|&o| o < 64))
        };
        let words = edges
            .iter()
            .map(|e| {
                let [a, b, c] = bits(e);
                Some([a?, b?, c?])
            })
            .collect::<Option<Vec<[u8; 3]>>>()
            .map(|positions| (base, positions));
        Transition {
            from,
            symbol,
            to,
            edges,
            words,
        }
    }

    /// The fast lane of `propagate_from_scratch`: the same, with each domain read as one
    /// word and each edge tested with three bit tests.
    fn propagate_words(
        &self,
        ctx: &mut Context<'_>,
        base: [i32; 3],
        positions: &[[u8; 3]],
    ) -> PropResult {
        let ends = [self.from, self.symbol, self.to];
        let masks = [0, 1, 2].map(|k| ctx.domain(ends[k]).mask_from(base[k]));
        let mut kept = [0u64; 3];
        for p in positions {
            let bit = [0, 1, 2].map(|k| 1u64 << p[k]);
            if (0..3).all(|k| masks[k] & bit[k] != 0) {
                for k in 0..3 {
                    kept[k] |= bit[k];
                }
            }
        }
        if kept[0] == 0 {
            return Err(crate::Conflict::new());
        }
        for k in 0..3 {
            if kept[k] != masks[k] || ctx.size(ends[k]) != masks[k].count_ones() {
                ctx.intersect_mask(ends[k], base[k], kept[k])?;
            }
        }
        Ok(())
    }

    /// An edge is alive when its three ends are in the three domains.
    fn alive(edge: (i32, i32, i32), d: [&Domain; 3]) -> bool {
        d[0].contains(edge.0) && d[1].contains(edge.1) && d[2].contains(edge.2)
    }

    /// Explain why every edge `e` with `wanted(e)` is dead in `inputs`: for each, one end
    /// missing from its input domain, chosen outside the domain's bounds where one is (so
    /// that one bound atom covers many edges). `false` if one such edge is alive.
    fn explain_dead(
        &self,
        inputs: &[Domain],
        wanted: impl Fn((i32, i32, i32)) -> bool,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let d = [&inputs[0], &inputs[1], &inputs[2]];
        let mut missing: [Vec<i32>; 3] = Default::default();
        for &e in self.edges.iter().filter(|&&e| wanted(e)) {
            let ends = [e.0, e.1, e.2];
            let absent = |k: usize| !d[k].contains(ends[k]);
            let outside = |k: usize| ends[k] < d[k].min() || ends[k] > d[k].max();
            let Some(k) = (0..3)
                .find(|&k| absent(k) && outside(k))
                .or_else(|| (0..3).find(|&k| absent(k)))
            else {
                return false;
            };
            missing[k].push(ends[k]);
        }
        for (k, x) in [self.from, self.symbol, self.to].into_iter().enumerate() {
            exclusion_atoms(x, d[k], &mut missing[k], reason);
        }
        true
    }
}

/// Atoms holding in `d` that exclude every value of `values` from `x`: one bound atom for
/// all the values below `d`'s minimum (the weakest that does: `[x ≥ v + 1]` for the
/// largest such `v`), one for those above its maximum, `[x ≠ v]` for each in between.
fn exclusion_atoms(x: VarId, d: &Domain, values: &mut Vec<i32>, out: &mut Vec<Atom>) {
    values.sort_unstable();
    values.dedup();
    if let Some(&below) = values.iter().rev().find(|&&v| v < d.min()) {
        out.push(Atom::AtLeast(x, below + 1));
    }
    if let Some(&above) = values.iter().find(|&&v| v > d.max()) {
        out.push(Atom::AtMost(x, above - 1));
    }
    for &v in values.iter().filter(|&&v| v > d.min() && v < d.max()) {
        out.push(Atom::NotEqual(x, v));
    }
}

impl Propagator for Transition {
    fn name(&self) -> &'static str {
        "regular_transition"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        [self.from, self.symbol, self.to]
            .iter()
            .map(|&x| Subscription::new(x, Condition::Domain))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// Keep the values that lie on an edge whose three ends are all in their domains.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let mut kept: [Vec<i32>; 3] = Default::default();
        for &e in &self.edges {
            let d = [
                ctx.domain(self.from),
                ctx.domain(self.symbol),
                ctx.domain(self.to),
            ];
            if Self::alive(e, d) {
                kept[0].push(e.0);
                kept[1].push(e.1);
                kept[2].push(e.2);
            }
        }
        if kept[0].is_empty() {
            return Err(crate::Conflict::new());
        }
        for (k, x) in [self.from, self.symbol, self.to].into_iter().enumerate() {
            kept[k].sort_unstable();
            ctx.retain(x, |v| kept[k].binary_search(&v).is_ok())?;
        }
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        match &self.words {
            Some((base, positions)) => self.propagate_words(ctx, *base, positions),
            None => self.propagate_from_scratch(ctx),
        }
    }

    /// `atom` on one end: every edge that would let the end take a value the atom excludes
    /// is dead (see [`Transition::explain_dead`]).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let ends = [self.from, self.symbol, self.to];
        let Some(k) = ends.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[k], reason) else {
            return false;
        };
        self.explain_dead(inputs, |e| needed.contains(&[e.0, e.1, e.2][k]), reason)
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        self.explain_dead(inputs, |_| true, reason)
    }
}
