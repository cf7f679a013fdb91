//! # Learning in slices: the learning search and the plain one, taking turns
//!
//! Learning makes a tree smaller, but every node of it dearer: each failure is analysed,
//! minimised and stored, and on a MiniZinc model a learning search goes through ten to
//! thirty times fewer nodes a second than the plain one (docs/performance/learning.md).
//! Where the nogoods prune ten to thirty times the nodes, learning wins; where they do not
//! (a model whose failures rarely recur), the plain search wins, and neither can be known
//! before the search. A **sequential portfolio** runs both on one core, taking turns
//! (Gomes & Selman's portfolios, here in time slices rather than threads):
//!
//! ```text
//! learn for L failures, plain for P·L, learn for 2L, plain for 2P·L, learn for 4L, ...
//! ```
//!
//! Every turn begins at the root, as a restart does, keeping the best solution's bound.
//! A learning turn keeps the nogoods of the turns before (they follow from the constraints
//! and a bound that only tightens, so they stay true), and resumes with them, as a SAT
//! solver resumes after a restart; a plain turn takes again the path where the last plain
//! turn stopped, its decisions and the right branches taken on the way (`search/resume.rs`),
//! and goes on from there, repeating none of the plain turns' work but the path itself.
//! Budgets double, so whichever search would have finished alone finishes within a small
//! factor of its own time. `P` weighs a plain
//! failure against a learning one (a plain failure is that many times cheaper).
//!
//! Turns are counted in failures, not seconds: the same model searches the same tree every
//! time. Slicing needs the freedom to restart: a first solution or an optimum, never a count
//! or a list of every solution (a plain turn would find the same solutions again).

/// The turns' budgets: the first learning turn's failures, and how many plain failures a
/// plain turn gets for each failure of the learning turn before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slices {
    pub first_learning: u64,
    pub plain_per_learning: u64,
}

impl Slices {
    /// The budgets `cpsolve` uses on FlatZinc under `--learn` (docs/minizinc.md).
    pub const FLATZINC: Slices = Slices {
        first_learning: 1_000,
        plain_per_learning: 16,
    };

    /// Does turn `turn` (counting from 0, the first learning turn) learn?
    pub fn learns(turn: u64) -> bool {
        turn % 2 == 0
    }

    /// The failures turn `turn` may spend before the next begins.
    pub fn budget(&self, turn: u64) -> u64 {
        let learning = self.first_learning.saturating_mul(1 << (turn / 2).min(40));
        if Self::learns(turn) {
            learning
        } else {
            learning.saturating_mul(self.plain_per_learning)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_alternate_and_budgets_double_from_one_pair_to_the_next() {
        let s = Slices {
            first_learning: 3,
            plain_per_learning: 5,
        };
        let budgets: Vec<(bool, u64)> = (0..6).map(|t| (Slices::learns(t), s.budget(t))).collect();
        assert_eq!(
            budgets,
            [
                (true, 3),
                (false, 15),
                (true, 6),
                (false, 30),
                (true, 12),
                (false, 60)
            ]
        );
        // Budgets stop doubling after forty doublings (no overflow however long the search).
        assert_eq!(s.budget(1_001), 15 << 40);
    }
}
