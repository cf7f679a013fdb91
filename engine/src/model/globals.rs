//! # The globals of the puzzles beyond the seeds, as `Model` methods
//!
//! A separate `impl Model` block (the modelling vocabulary of `model.rs` stays as it is):
//! vectors that differ (Takuzu's distinct rows and columns), `regular` (nonogram lines),
//! `circuit` and `subcircuit` (knight's tours, Flow Free, Numberlink), `colour_paths` (Flow
//! Free, Numberlink), `lex_lesseq` and
//! `lex_less` (for the FlatZinc front end).

use crate::model::Model;
use crate::propagation::PropId;
use crate::propagators::alldiff::AllDiffLevel;
use crate::propagators::band_counts::BandCounts;
use crate::propagators::graph::circuit::Circuit;
use crate::propagators::graph::colour_paths::ColourPaths;
use crate::propagators::graph::subcircuit::Subcircuit;
use crate::propagators::lex::Lex;
use crate::propagators::regular::{Dfa, Regular};
use crate::propagators::vectors::VectorsDiffer;
use crate::store::VarId;

impl Model {
    /// `xs ≠ ys` as tuples: at least one position differs (domain consistent,
    /// `propagators/vectors.rs`). Panics if the lengths differ.
    pub fn vectors_differ(&mut self, xs: &[VarId], ys: &[VarId]) -> PropId {
        self.post(Box::new(VectorsDiffer::new(xs, ys)))
    }

    /// All vectors pairwise different (all-different over tuples), one
    /// [`Model::vectors_differ`] per pair.
    pub fn all_different_vectors(&mut self, vectors: &[Vec<VarId>]) {
        for i in 0..vectors.len() {
            for j in i + 1..vectors.len() {
                self.vectors_differ(&vectors[i], &vectors[j]);
            }
        }
    }

    /// `xs` spells a word accepted by `dfa` (domain consistent, Pesant's layered graph,
    /// `propagators/regular.rs`). Panics if the automaton is malformed.
    pub fn regular(&mut self, xs: &[VarId], dfa: Dfa) -> PropId {
        self.post(Box::new(Regular::new(xs, dfa)))
    }

    /// The 0/1 cells `xs` show the blocks of 1s `clue`, in order, one 0 or more between two
    /// (a nonogram line; domain consistent, `propagators/nonogram_line.rs`). Panics if a
    /// block is empty.
    pub fn nonogram_line(&mut self, xs: &[VarId], clue: &[usize]) -> PropId {
        self.post(Box::new(
            crate::propagators::nonogram_line::NonogramLine::new(xs, clue),
        ))
    }

    /// `xs` spells a word accepted by `dfa`, posted as its layered graph made explicit
    /// (`propagators/regular_states.rs`): a state variable per layer, `states[0]` the start
    /// state and `states[n]` accepting, and one transition constraint
    /// `states[i + 1] = δ(states[i], xs[i])` per layer. Domain consistent like
    /// [`Model::regular`] (the decomposition is a chain: Berge-acyclic), slower to propagate,
    /// but what a learning search needs: a nogood can name a state, and each transition's
    /// explanation has at most a handful of atoms. Returns the state variables.
    pub fn regular_with_states(&mut self, xs: &[VarId], dfa: Dfa) -> Vec<VarId> {
        let layers = crate::propagators::regular_states::reachable_layers(&dfa, xs.len());
        let states: Vec<VarId> = layers
            .iter()
            // A layer no word reaches gets the dead state 0 alone: no transition enters or
            // leaves it, so the model fails at its first propagation.
            .map(|layer| self.new_var_from_values(if layer.is_empty() { &[0] } else { layer }))
            .collect();
        for i in 0..xs.len() {
            self.post(Box::new(
                crate::propagators::regular_states::Transition::new(
                    states[i],
                    xs[i],
                    states[i + 1],
                    &dfa,
                ),
            ));
        }
        states
    }

    /// `succ` (0-based node numbers) forms one cycle through every node: the nocycle
    /// propagator (`propagators/graph/circuit.rs`) beside a domain-consistent all-different.
    pub fn circuit(&mut self, succ: &[VarId]) -> PropId {
        self.all_different(succ, AllDiffLevel::Domain);
        self.post(Box::new(Circuit::new(succ)))
    }

    /// [`Model::circuit`] with nodes numbered from `first` (MiniZinc's `circuit` numbers
    /// them from 1): 0-based copies `y = x − first` carry the constraint.
    pub fn circuit_from(&mut self, succ: &[VarId], first: i32) -> PropId {
        let shifted = self.shifted(succ, first);
        self.circuit(&shifted)
    }

    /// [`Model::subcircuit`] with nodes numbered from `first` (MiniZinc's `subcircuit`).
    pub fn subcircuit_from(&mut self, succ: &[VarId], first: i32) -> PropId {
        let shifted = self.shifted(succ, first);
        self.subcircuit(&shifted)
    }

    /// 0-based copies `y = x − first` of successors numbered from `first` (`succ` itself when
    /// `first` is 0).
    fn shifted(&mut self, succ: &[VarId], first: i32) -> Vec<VarId> {
        if first == 0 {
            return succ.to_vec();
        }
        succ.iter()
            .map(|&x| {
                // Within the values a domain may hold: a value of `x` whose shift falls
                // outside them is no node's index, and `equal_offset` removes it.
                let shift = |v: i32| {
                    (v as i64 - first as i64).clamp(i32::MIN as i64, i32::MAX as i64 - 1) as i32
                };
                let y = self.new_var(shift(self.min(x)), shift(self.max(x)));
                self.equal_offset(x, y, first);
                y
            })
            .collect()
    }

    /// `succ` (0-based): the nodes with `succ[i] ≠ i` form one cycle, the others are out
    /// (`propagators/graph/subcircuit.rs`), beside a domain-consistent all-different.
    pub fn subcircuit(&mut self, succ: &[VarId]) -> PropId {
        self.all_different(succ, AllDiffLevel::Domain);
        self.post(Box::new(Subcircuit::new(succ)))
    }

    /// Colour l's nodes (`col[i] = l`) form one connected set holding `terminals[l]`, in the
    /// graph `neighbours` (`propagators/graph/colour_paths.rs`: reachability and bottlenecks).
    pub fn colour_paths(
        &mut self,
        col: &[VarId],
        neighbours: Vec<Vec<usize>>,
        terminals: Vec<(usize, usize)>,
    ) -> PropId {
        self.post(Box::new(ColourPaths::new(col, neighbours, terminals)))
    }

    /// Every line and every part of the 0/1 `cells` holds exactly `k` ones (`line_of`,
    /// `part_of` per cell; `band_counts::NO_PART` for a cell in no part), with Hall's rule
    /// on bands of at most `widest` consecutive lines (`propagators/band_counts.rs`; Star
    /// Battle).
    pub fn band_counts(
        &mut self,
        cells: &[VarId],
        line_of: Vec<usize>,
        part_of: Vec<usize>,
        k: i64,
        widest: usize,
    ) -> PropId {
        let bands = BandCounts::new(cells, line_of, part_of, k).with_widest_band(widest);
        self.post(Box::new(bands))
    }

    /// `xs ≤lex ys` (domain consistent, `propagators/lex.rs`); a proper prefix comes first.
    pub fn lex_lesseq(&mut self, xs: &[VarId], ys: &[VarId]) -> PropId {
        self.post(Box::new(Lex::new(xs, ys, false)))
    }

    /// `xs <lex ys` (domain consistent, `propagators/lex.rs`).
    pub fn lex_less(&mut self, xs: &[VarId], ys: &[VarId]) -> PropId {
        self.post(Box::new(Lex::new(xs, ys, true)))
    }
}
