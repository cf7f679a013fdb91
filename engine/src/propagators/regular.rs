//! # `regular`: a sequence of variables spells a word of a regular language
//!
//! `regular(x₁, …, xₙ, A)` holds when the word `x₁ x₂ … xₙ` is accepted by the deterministic
//! finite automaton `A` ([`Dfa`]: states `1..=Q`, 0 the dead state, a transition table, a
//! start state, accepting states). Nonogram lines are its textbook use: the clue `3,1` is the
//! language `0* 1³ 0⁺ 1 0*`.
//!
//! **Consistency: domain.** Pesant's layered graph (G. Pesant, "A Regular Language Membership
//! Constraint for Finite Sequences of Variables", CP 2004): layer i holds the automaton states
//! reachable after reading i symbols; an edge `q →v q'` from layer i to i+1 exists when `v` is in
//! the domain of `xᵢ₊₁` and `δ(q, v) = q'`. A forward pass marks the states reachable from the
//! start, a backward pass those from which an accepting state of the last layer is reachable;
//! a value `v` of `xᵢ` is supported exactly when some edge labelled `v` joins a state of both
//! kinds. Every edge on a start-to-accept path is a solution of the constraint, so the values
//! kept are exactly those with a support: domain consistency.
//!
//! **Events.** Any removal (a value gone can cut paths anywhere). **Cost** O(n · Q · S) per run
//! for S symbols, from scratch (Pesant's incremental version keeps the graph on the trail;
//! this file is the reference version, which nonograms of 25×25 with Q ≤ 26 afford).

use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// A deterministic finite automaton over the values `first_value .. first_value + symbols`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    /// Q: the states are `1..=Q`; 0 is the dead state (no way back).
    pub states: usize,
    /// The value of symbol 0.
    pub first_value: i32,
    /// S: the number of symbols.
    pub symbols: usize,
    /// `next[q - 1][s]`: the state after reading symbol `s` in state `q` (0: dead).
    pub next: Vec<Vec<usize>>,
    pub start: usize,
    pub accepting: Vec<usize>,
}

impl Dfa {
    /// The state after reading value `v` in state `q` (0: dead, also for values outside the
    /// alphabet).
    pub fn step(&self, q: usize, v: i32) -> usize {
        let s = v as i64 - self.first_value as i64;
        if q == 0 || s < 0 || s >= self.symbols as i64 {
            return 0;
        }
        self.next[q - 1][s as usize]
    }

    /// Does the automaton accept `word`?
    pub fn accepts(&self, word: &[i32]) -> bool {
        let q = word.iter().fold(self.start, |q, &v| self.step(q, v));
        q != 0 && self.accepting.contains(&q)
    }

    /// Panics if the table's shape or a state number is wrong.
    fn validate(&self) {
        assert_eq!(self.next.len(), self.states, "regular: one row per state");
        for row in &self.next {
            assert_eq!(row.len(), self.symbols, "regular: one column per symbol");
            assert!(
                row.iter().all(|&q| q <= self.states),
                "regular: state out of range"
            );
        }
        assert!(
            self.start >= 1 && self.start <= self.states,
            "regular: bad start state"
        );
        assert!(self.accepting.iter().all(|&q| q >= 1 && q <= self.states));
    }
}

/// `xs` spells a word accepted by `dfa`.
#[derive(Clone, Debug)]
pub struct Regular {
    xs: Vec<VarId>,
    dfa: Dfa,
}

impl Regular {
    /// Panics if the automaton is malformed (see [`Dfa`]).
    pub fn new(xs: &[VarId], dfa: Dfa) -> Regular {
        dfa.validate();
        Regular {
            xs: xs.to_vec(),
            dfa,
        }
    }
}

impl Propagator for Regular {
    fn name(&self) -> &'static str {
        "regular"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        self.xs
            .iter()
            .map(|&x| Subscription::new(x, Condition::Domain))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (n, q_count) = (self.xs.len(), self.dfa.states + 1);
        let dfa = &self.dfa;
        // forward[i][q]: state q reachable after reading i symbols (index 0 = dead, unused).
        let mut forward = vec![vec![false; q_count]; n + 1];
        forward[0][dfa.start] = true;
        for (i, &x) in self.xs.iter().enumerate() {
            // One layer's work: on a long line, one call can outlast the time limit.
            ctx.work(q_count as u32)?;
            for q in 1..q_count {
                if !forward[i][q] {
                    continue;
                }
                for v in ctx.domain(x).iter() {
                    let to = dfa.step(q, v);
                    if to != 0 {
                        forward[i + 1][to] = true;
                    }
                }
            }
        }
        // backward[i][q]: from state q after i symbols, an accepting state at n is reachable
        // (and q itself is reachable: the two passes meet).
        let mut backward = vec![vec![false; q_count]; n + 1];
        for &q in &dfa.accepting {
            backward[n][q] = forward[n][q];
        }
        if !backward[n].iter().any(|&b| b) {
            return Err(crate::propagator::Conflict::new());
        }
        for i in (0..n).rev() {
            let x = self.xs[i];
            ctx.work(q_count as u32)?;
            for q in 1..q_count {
                if forward[i][q] {
                    backward[i][q] = ctx
                        .domain(x)
                        .iter()
                        .any(|v| backward[i + 1][dfa.step(q, v)]);
                }
            }
        }
        // A value is kept when an edge labelled with it joins two marked states.
        for (i, &x) in self.xs.iter().enumerate() {
            let (from, to) = (&backward[i], &backward[i + 1]);
            ctx.retain(x, |v| (1..q_count).any(|q| from[q] && to[dfa.step(q, v)]))?;
        }
        Ok(())
    }
}
