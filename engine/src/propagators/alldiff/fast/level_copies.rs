//! # The units' state, copied per search level
//!
//! `units.rs` keeps its own view of the domains (bitmasks and their holders). The store
//! restores the domains on a backtrack, not that view: [`LevelCopies`] keeps one copy of it
//! per level, so that a run after a backtrack starts from the copy of the level it is back
//! at, and rereads only what was announced since.

use crate::propagator::Context;
use crate::store::LevelStamp;

/// Copies of a run's state (the units' domains and holders), one per search level.
///
/// **Why.** The store puts the domains back when the search backtracks, but the propagator's
/// own views are its own business: without a copy, a run after a backtrack would have to
/// read every domain again and rebuild `holders` from them, value by value (that rebuild
/// cost more than the holders saved). A dedicated solver copies its state at each guess;
/// this is the same, kept by the propagator inside a trailing engine: at the end of each
/// successful run it copies its state for the current level (about 800 bytes for a
/// Sudoku), and after a backtrack it starts from the copy of the level it is back at, then
/// rereads only the variables announced since.
///
/// **Why a copy is right.** A copy taken at depth `d` describes the store as it was at the
/// end of that run. The store's level `d` changes after that only by changes announced to
/// this propagator (which the next run rereads), or not at all; deeper levels are undone by
/// the backtrack. A copy is usable while level `d` is still open — its [`LevelStamp`]'s epoch
/// is still the level's, epochs being never reused — and while no announcement was lost
/// since at that level or at one opened after it ([`Context::still_valid`]: after a conflict
/// the engine drops its queue, and the propagators what was announced to them). In a
/// search that is always so: a conflict closes the level it happened at.
#[derive(Clone, Debug, Default)]
pub(super) struct LevelCopies {
    /// The copies' levels, shallowest first, each deeper than the one before.
    pub(super) marks: Vec<LevelStamp>,
    /// The copies, one after the other: `dom`, then the holders' sets in use.
    pub(super) words: Vec<u64>,
}

impl LevelCopies {
    /// Forget every copy.
    pub(super) fn clear(&mut self) {
        self.marks.clear();
        self.words.clear();
    }

    /// Drop the copies of levels that are closed, and those at `depth` or deeper.
    pub(super) fn drop_from(&mut self, ctx: &Context<'_>, depth: usize) {
        while let Some(mark) = self.marks.last() {
            if mark.depth() < depth && ctx.is_open(mark) {
                break;
            }
            self.marks.pop();
        }
    }

    /// Copy a run's state, its domains `dom` and the holders' sets in use, for the current
    /// level.
    pub(super) fn save(&mut self, ctx: &Context<'_>, dom: &[u64], holders: &[u64]) {
        let stamp = ctx.level_stamp();
        self.drop_from(ctx, stamp.depth());
        let size = dom.len() + holders.len();
        self.words.truncate(self.marks.len() * size);
        self.words.extend_from_slice(dom);
        self.words.extend_from_slice(holders);
        self.marks.push(stamp);
    }

    /// Put back the copy of the deepest level still open into a run's `dom`, `read` and
    /// `holders`; false if there is none that can be trusted.
    pub(super) fn restore(
        &mut self,
        ctx: &Context<'_>,
        dom: &mut [u64],
        read: &mut [u64],
        holders: &mut [u64],
    ) -> bool {
        self.drop_from(ctx, ctx.level_stamp().depth() + 1);
        let Some(mark) = self.marks.last() else {
            return false;
        };
        // Announcements lost at the copy's level since, or at a level opened after it: the
        // copy and the announcements no longer tell the whole story.
        if !ctx.still_valid(mark) {
            return false;
        }
        let n = dom.len();
        let size = n + holders.len();
        let copy = &self.words[(self.marks.len() - 1) * size..][..size];
        dom.copy_from_slice(&copy[..n]);
        read.copy_from_slice(&copy[..n]);
        holders.copy_from_slice(&copy[n..]);
        true
    }
}
