//! # Taking a stopped search up again: its path, and the right branches taken on the way
//!
//! A depth-first search is its stack of open levels, each the left decision taken there
//! (`dfs.rs`). That stack alone does not say where the search stands: at each level, the
//! left branches already refuted below it were turned into right branches (`x ≠ v`), applied
//! at that level, with no frame of their own. To stop a search and take it up again later
//! from the root (learning in turns with the plain search, `learning/slices.rs`), both are
//! needed: replaying the decisions alone would search again every subtree those right
//! branches had refuted.
//!
//! ```text
//! depth 0:  x ≠ 1   x ≠ 2           (right branches at the root: x = 1, x = 2 refuted)
//! depth 1:  x = 3                   (the first frame)
//!           y ≠ 5                   (right branch under x = 3)
//! depth 2:  y = 6                   (the second frame)
//! ```
//!
//! The log below keeps the right branches with the depth they were taken at, in the order
//! taken. When a level closes, the right branches taken under it are no longer true of the
//! search (its left decision is refuted or replaced), so they go: the log is always the
//! right branches of the open levels, ordered by depth.
//!
//! Replaying is sound however the root has changed since, as long as it has only tightened
//! (a better bound, facts learned at the root): a right branch says "the left subtree here
//! holds no solution better than the bound", and a tighter root and a tighter bound keep it
//! true.

use super::brancher::Decision;

/// The right branches taken on the open levels of a search, oldest first, each with the
/// depth it was taken at (the number of open levels then: 0 at the root).
#[derive(Clone, Debug, Default)]
pub struct RightBranches {
    taken: Vec<(usize, Decision)>,
}

impl RightBranches {
    /// Forget them all (the search went back to its root).
    pub fn clear(&mut self) {
        self.taken.clear();
    }

    /// Every level deeper than `depth` was closed: the right branches taken there go.
    pub fn close_above(&mut self, depth: usize) {
        while self.taken.last().is_some_and(|&(d, _)| d > depth) {
            self.taken.pop();
        }
    }

    /// The right branch `decision` was taken at `depth` (every deeper level is closed).
    pub fn take(&mut self, depth: usize, decision: Decision) {
        self.close_above(depth);
        self.taken.push((depth, decision));
    }

    /// The right branches taken at `depth`, in order.
    pub fn at(&self, depth: usize) -> impl Iterator<Item = Decision> + '_ {
        let start = self.taken.partition_point(|&(d, _)| d < depth);
        self.taken[start..]
            .iter()
            .take_while(move |&&(d, _)| d == depth)
            .map(|&(_, decision)| decision)
    }

    pub fn len(&self) -> usize {
        self.taken.len()
    }

    pub fn is_empty(&self) -> bool {
        self.taken.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::DecisionOp;
    use crate::VarId;

    fn ne(x: u32, v: i32) -> Decision {
        Decision {
            var: VarId(x),
            op: DecisionOp::Ne,
            value: v,
        }
    }

    #[test]
    fn closing_a_level_forgets_the_right_branches_taken_under_it() {
        let mut log = RightBranches::default();
        log.take(0, ne(0, 1));
        log.take(0, ne(0, 2));
        log.take(1, ne(1, 5));
        log.take(2, ne(2, 7));
        assert_eq!(log.at(0).collect::<Vec<_>>(), [ne(0, 1), ne(0, 2)]);
        assert_eq!(log.at(1).collect::<Vec<_>>(), [ne(1, 5)]);
        // Backtracking to depth 1 closes level 2: its right branch goes, depth 1's stays.
        log.take(1, ne(1, 6));
        assert_eq!(log.at(1).collect::<Vec<_>>(), [ne(1, 5), ne(1, 6)]);
        assert_eq!(log.at(2).count(), 0);
        log.close_above(0);
        assert_eq!(log.len(), 2);
        assert_eq!(log.at(1).count(), 0);
    }
}
