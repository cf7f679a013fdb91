//! # Branching on what the tries did: look-ahead scores
//!
//! Probing a 0/1 variable `x` (`probing.rs`) propagates `x = 0` and `x = 1` in turn. When
//! both tries survive, each has said how much its value would settle: the number of
//! variables its propagation changed, `n₀` and `n₁`. A search that probes at every node has
//! these counts for free, and they make a **look-ahead** branching rule: branch on the
//! variable whose two branches both settle most, so that each child starts far down the
//! tree. SAT look-ahead solvers (march, kcnfs) and the nonogram tournament programs (Wu et
//! al. 2013, "An efficient approach to solving nonograms", after fully probing) branch so.
//!
//! How to fold the two counts into one score ([`ScoreRule`]):
//!
//! * the **product** `(n₀ + 1)(n₁ + 1)`, march's rule: large when both are large, and a
//!   very lopsided pair still scores well when its big side is big;
//! * the **minimum**, then the maximum to break ties: the branch that settles least
//!   decides, so a cell that settles much one way and nothing the other (where the search
//!   would most likely go the other way and learn nothing) never wins.
//!
//! Which value to try first ([`ScoredValue`]): the smallest (`x = 0`), or the value whose try
//! settled more (its subtree is the smaller one, and if the guess is wrong it fails soonest),
//! or the one that settled fewer (the less constrained side, more likely to hold a solution).
//!
//! A variable the node did not try again (nothing around it changed, `ProbeMemory`) keeps
//! the counts of its last try on the branch.
//!
//! **Taking turns across restarts.** No one rule is best on every problem: on the random
//! TAAI boards each leaves open boards another solves at once (the heavy tails of Gomes et
//! al.). A search that restarts can give each run its own rule, in turns ([`branching_of_run`]):
//! the brancher's choice (dom/wdeg, whose weights the failures of every run teach) in one
//! run, the scores by one rule in the next, by another in the next, and again; the cutoffs
//! grow, so each rule in turn gets longer, and a problem costs about the number of rules
//! times what the best of them needs on it.

use crate::model::Model;
use crate::store::VarId;

/// The variables changed by each try of a 0/1 variable: `low` by its smaller value, `high`
/// by its larger one (the variable itself included, so both are at least 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TryCounts {
    pub low: u32,
    pub high: u32,
}

/// How the two counts of a variable become its score (the header).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreRule {
    /// `(n₀ + 1)(n₁ + 1)`.
    #[default]
    Product,
    /// `min(n₀, n₁)`, ties broken by `max(n₀, n₁)`.
    Min,
}

impl ScoreRule {
    /// The score of `counts`: the larger, the better a variable to branch on.
    pub fn score(self, counts: TryCounts) -> u64 {
        let (low, high) = (counts.low as u64, counts.high as u64);
        match self {
            ScoreRule::Product => (low + 1) * (high + 1),
            ScoreRule::Min => (low.min(high) << 32) | low.max(high),
        }
    }
}

/// Which value of the chosen variable is tried first (the header).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoredValue {
    /// The smaller value.
    #[default]
    Smallest,
    /// The value whose try changed more variables (the smaller value on a tie).
    MoreChanged,
    /// The value whose try changed fewer variables (the smaller value on a tie).
    FewerChanged,
}

/// Branching on the tries' scores: the rule and the value order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreBranching {
    pub rule: ScoreRule,
    pub value: ScoredValue,
}

/// The branching of run number `run` (the first run is 0) when the runs take `turns` in
/// order (the header): `None` is the brancher's choice, and so is an empty list.
pub fn branching_of_run(turns: &[Option<ScoreBranching>], run: u64) -> Option<&ScoreBranching> {
    match turns.len() {
        0 => None,
        n => turns[(run % n as u64) as usize].as_ref(),
    }
}

impl ScoreBranching {
    /// The variable of `vars` with two values left in `model` and the best score among
    /// those with counts (`counts[i]` belongs to `vars[i]`; `None`: no two surviving tries
    /// recorded), the first of the best in the order of `vars`; and its value to try first.
    pub fn choose(
        &self,
        model: &Model,
        vars: &[VarId],
        counts: &[Option<TryCounts>],
    ) -> Option<(VarId, i32)> {
        let mut best: Option<(VarId, TryCounts, u64)> = None;
        for (&x, counted) in vars.iter().zip(counts) {
            let Some(counts) = *counted else { continue };
            if model.size(x) != 2 {
                continue;
            }
            let score = self.rule.score(counts);
            if best.is_none_or(|(_, _, top)| score > top) {
                best = Some((x, counts, score));
            }
        }
        let (x, counts, _) = best?;
        let (low, high) = (model.min(x), model.max(x));
        let value = match self.value {
            ScoredValue::Smallest => low,
            ScoredValue::MoreChanged if counts.high > counts.low => high,
            ScoredValue::FewerChanged if counts.high < counts.low => high,
            _ => low,
        };
        Some((x, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_rules_rank_a_lopsided_pair_differently() {
        let lopsided = TryCounts { low: 1, high: 40 };
        let even = TryCounts { low: 5, high: 5 };
        // (2 · 41 = 82) > (6 · 6 = 36), but min 1 < min 5.
        assert!(ScoreRule::Product.score(lopsided) > ScoreRule::Product.score(even));
        assert!(ScoreRule::Min.score(lopsided) < ScoreRule::Min.score(even));
        // Min breaks a tie on the minimum by the maximum.
        let better = TryCounts { low: 6, high: 5 };
        assert!(ScoreRule::Min.score(better) > ScoreRule::Min.score(even));
    }

    /// Three cells with the counts of their tries, and a fourth fixed: each rule picks its
    /// own cell, and the value order follows the counts.
    #[test]
    fn each_rule_picks_its_cell_and_value() {
        let mut model = Model::new();
        let cells = model.new_vars(4, 0, 1);
        model.fix(cells[3], 1).unwrap();
        let counts = [
            Some(TryCounts { low: 1, high: 40 }),  // product 82, min 1
            Some(TryCounts { low: 9, high: 5 }),   // product 60, min 5
            None,                                  // not probed: never chosen
            Some(TryCounts { low: 50, high: 50 }), // the best, but fixed: never chosen
        ];
        let by = |rule, value| ScoreBranching { rule, value };
        let pick = |branching: ScoreBranching| branching.choose(&model, &cells, &counts);
        use ScoreRule::{Min, Product};
        use ScoredValue::{FewerChanged, MoreChanged, Smallest};
        assert_eq!(pick(by(Product, Smallest)), Some((cells[0], 0)));
        assert_eq!(pick(by(Product, MoreChanged)), Some((cells[0], 1)));
        assert_eq!(pick(by(Product, FewerChanged)), Some((cells[0], 0)));
        assert_eq!(pick(by(Min, Smallest)), Some((cells[1], 0)));
        assert_eq!(pick(by(Min, MoreChanged)), Some((cells[1], 0)));
        assert_eq!(pick(by(Min, FewerChanged)), Some((cells[1], 1)));
        // Nothing counted: no choice (the brancher chooses).
        assert_eq!(by(Min, Smallest).choose(&model, &cells, &[None; 4]), None);
    }

    #[test]
    fn the_runs_take_their_turns_in_order() {
        let min = ScoreBranching {
            rule: ScoreRule::Min,
            value: ScoredValue::Smallest,
        };
        let product = ScoreBranching::default();
        let turns = [None, Some(product), Some(min)];
        let of = |run| branching_of_run(&turns, run).copied();
        assert_eq!(
            (0..7).map(of).collect::<Vec<_>>(),
            [
                None,
                Some(product),
                Some(min),
                None,
                Some(product),
                Some(min),
                None
            ]
        );
        assert_eq!(branching_of_run(&[Some(min)], 5), Some(&min));
        assert_eq!(branching_of_run(&[], 1), None);
    }
}
