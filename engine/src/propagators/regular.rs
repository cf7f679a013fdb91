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
//! **Events.** Any removal (a value gone can cut paths anywhere); one run is the fixpoint
//! (idempotent) unless a variable appears twice. **Cost** O(n · Q · S) per run
//! for S symbols at worst, from scratch; each layer visits only the states it holds and
//! the symbols its variable can still read (Pesant's incremental version keeps the graph on the trail;
//! this file is the reference version, which nonograms of 25×25 with Q ≤ 26 afford).
//!
//! **Explanations** (learning). A value `v` of `xᵢ` was removed because no path of the
//! layered graph uses the edge labels `v` at layer i: the reason is a set of *missing
//! labels* `[xⱼ ≠ w]` (j ≠ i) that cuts every such path (Katsirelos, Narodytska & Walsh,
//! "Reformulating global grammar constraints", 2009, explain `regular` by such a cut). We
//! find one greedily: start from every label missing in the inputs, and put each back in
//! turn if `v` stays without a path; those that cannot go back are the reason, a minimal
//! cut (no label of it can be dropped). A failure is explained the same way with no value
//! singled out. Such a cut speaks of cells only, and is costly to find: a learning search
//! is better served by the same automaton with its states as variables
//! (`regular_states.rs`, `Model::regular_with_states`).

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::split_atom;
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
    /// No variable appears twice: then one run reaches the fixpoint (see `idempotent`).
    distinct: bool,
}

impl Regular {
    /// Panics if the automaton is malformed (see [`Dfa`]).
    pub fn new(xs: &[VarId], dfa: Dfa) -> Regular {
        dfa.validate();
        let mut regular = Regular {
            xs: xs.to_vec(),
            dfa,
            distinct: false,
        };
        regular.distinct = !regular.repeats_a_variable();
        regular
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

    /// Every value left has a start-to-accept path through values left, so a second run
    /// removes nothing: its own prunings need not wake it. Not so when a variable appears
    /// twice (a path may read two different values of it).
    fn idempotent(&self) -> bool {
        self.distinct
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (n, q_count, symbols) = (self.xs.len(), self.dfa.states + 1, self.dfa.symbols);
        let dfa = &self.dfa;
        // The symbols each variable can still read (its values inside the alphabet), layer
        // by layer, read once: `labels[label_start[i]..label_start[i + 1]]`.
        let mut labels = Vec::new();
        let mut label_start = Vec::with_capacity(n + 1);
        for &x in &self.xs {
            label_start.push(labels.len());
            labels.extend(ctx.domain(x).iter().filter_map(|v| self.symbol(v)));
        }
        label_start.push(labels.len());
        let layer_labels = |i: usize| &labels[label_start[i]..label_start[i + 1]];
        // Forward: the states reachable after reading i symbols, as marks
        // (`forward[i * q_count + q]`; 0 the dead state, never marked) and as a list per
        // layer (`reached[reached_start[i]..reached_start[i + 1]]`), so that each pass
        // visits only the states a layer holds, not all Q.
        let mut forward = vec![false; (n + 1) * q_count];
        forward[dfa.start] = true;
        let mut reached = vec![dfa.start];
        let mut reached_start = vec![0, 1];
        for i in 0..n {
            // One layer's work: on a long line, one call can outlast the time limit.
            ctx.work(q_count as u32)?;
            for k in reached_start[i]..reached_start[i + 1] {
                let q = reached[k];
                for &s in layer_labels(i) {
                    let to = dfa.next[q - 1][s];
                    if to != 0 && !forward[(i + 1) * q_count + to] {
                        forward[(i + 1) * q_count + to] = true;
                        reached.push(to);
                    }
                }
            }
            reached_start.push(reached.len());
        }
        // Backward: from state q after i symbols an accepting state at n is reachable (and
        // q itself is reachable: the two passes meet). The same pass collects the supported
        // symbols of each layer: `v` of xᵢ is kept when an edge labelled `v` joins two
        // marked states, which is what the pass looks at anyway.
        let mut backward = vec![false; (n + 1) * q_count];
        for &q in &dfa.accepting {
            backward[n * q_count + q] = forward[n * q_count + q];
        }
        if !dfa.accepting.iter().any(|&q| backward[n * q_count + q]) {
            return Err(crate::propagator::Conflict::new());
        }
        let mut supported = vec![false; n * symbols];
        for i in (0..n).rev() {
            ctx.work(q_count as u32)?;
            for &q in &reached[reached_start[i]..reached_start[i + 1]] {
                for &s in layer_labels(i) {
                    if backward[(i + 1) * q_count + dfa.next[q - 1][s]] {
                        backward[i * q_count + q] = true;
                        supported[i * symbols + s] = true;
                    }
                }
            }
        }
        for (i, &x) in self.xs.iter().enumerate() {
            let keep = &supported[i * symbols..(i + 1) * symbols];
            ctx.retain(x, |v| self.symbol(v).is_some_and(|s| keep[s]))?;
        }
        Ok(())
    }

    /// A minimal cut of missing labels on the other layers (see the module documentation).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        let Some(i) = self.xs.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[i], reason) else {
            return false;
        };
        let mut cut = Vec::new();
        for v in needed {
            match self.symbol(v) {
                None => {} // outside the alphabet: the automaton itself refuses it
                Some(s) => match self.minimal_cut(inputs, Some((i, s))) {
                    Some(atoms) => cut.extend(atoms),
                    None => return false,
                },
            }
        }
        cut.sort();
        cut.dedup();
        reason.extend(cut);
        true
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.repeats_a_variable() {
            return false;
        }
        match self.minimal_cut(inputs, None) {
            Some(atoms) => {
                reason.extend(atoms);
                true
            }
            None => false,
        }
    }
}

impl Regular {
    fn repeats_a_variable(&self) -> bool {
        (0..self.xs.len()).any(|i| (0..i).any(|j| self.xs[j] == self.xs[i]))
    }

    /// The symbol of value `v`, if it is in the alphabet.
    fn symbol(&self, v: i32) -> Option<usize> {
        let s = v as i64 - self.dfa.first_value as i64;
        (0..self.dfa.symbols as i64)
            .contains(&s)
            .then_some(s as usize)
    }

    /// Does a start-to-accept path exist over the labels `allowed[j][s]` (with layer `i`
    /// reading only symbol `s`, when `only` is `Some((i, s))`)?
    fn has_path(&self, allowed: &[Vec<bool>], only: Option<(usize, usize)>) -> bool {
        let dfa = &self.dfa;
        let mut layer = vec![false; dfa.states + 1];
        layer[dfa.start] = true;
        for (j, labels) in allowed.iter().enumerate() {
            let mut next = vec![false; dfa.states + 1];
            for q in (1..=dfa.states).filter(|&q| layer[q]) {
                for s in (0..dfa.symbols).filter(|&s| labels[s]) {
                    if only.is_some_and(|(i, t)| i == j && t != s) {
                        continue;
                    }
                    next[dfa.next[q - 1][s]] = true;
                }
            }
            next[0] = false;
            layer = next;
        }
        dfa.accepting.iter().any(|&q| layer[q])
    }

    /// The labels missing in the inputs that no path can do without, putting back every
    /// other one (greedily): `None` if a path exists even without putting any back.
    fn minimal_cut(&self, inputs: &[Domain], only: Option<(usize, usize)>) -> Option<Vec<Atom>> {
        let dfa = &self.dfa;
        let mut allowed: Vec<Vec<bool>> = (inputs.iter())
            .map(|d| {
                (0..dfa.symbols)
                    .map(|s| d.contains(dfa.first_value + s as i32))
                    .collect()
            })
            .collect();
        if self.has_path(&allowed, only) {
            return None;
        }
        let mut cut = Vec::new();
        for j in 0..allowed.len() {
            if only.is_some_and(|(i, _)| i == j) {
                continue; // the layer of the value itself reads that value only
            }
            let missing: Vec<usize> = (0..dfa.symbols).filter(|&s| !allowed[j][s]).collect();
            for s in missing {
                allowed[j][s] = true;
                if self.has_path(&allowed, only) {
                    allowed[j][s] = false;
                    cut.push(Atom::NotEqual(self.xs[j], dfa.first_value + s as i32));
                }
            }
        }
        Some(cut)
    }
}
