//! # The nonogram line: blocks of given lengths, in order, on a line of 0/1 cells
//!
//! `nonogram_line(x₁ … xₙ, c₁ … cₖ)` holds when the cells painted 1 form exactly k blocks,
//! of lengths c₁, …, cₖ from left to right, each two separated by at least one 0. It is the
//! constraint of one row or column of a nonogram, and the **line solver** every nonogram
//! program is built around. `regular.rs` reaches the same pruning through the clue's
//! automaton; this file teaches what a constraint gains from knowing its own shape.
//!
//! **Consistency: domain.** Two tables, the line read from both ends:
//!
//! - `prefix[j][e]`: the first `j` blocks fit in the cells `0..e` (every cell there that no
//!   block covers can be 0, every covered one can be 1, consecutive blocks one cell apart);
//! - `suffix[j][s]`: blocks `j..k` fit in the cells `s..n` the same way.
//!
//! Cell `i` can be 0 when, for some `j`, `prefix[j][i]` and `suffix[j][i + 1]` (the first `j`
//! blocks left of it, the others right of it); it can be 1 when some block `b` can be placed
//! over it: its cells can all be 1, and what lies left and right of it fits (`prefix[b]` up
//! to the 0 before it, `suffix[b + 1]` from the 0 after it). Each support is a whole line,
//! so the values kept are exactly those of some solution of the line. This is the dynamic
//! program of the tournament solvers (Wu, Sun et al., "An efficient approach to solving
//! nonograms", IEEE TCIAIG 2013; Batenburg & Kosters, "Solving nonograms by combining
//! relaxations", 2009), O(n · k) cells of table.
//!
//! **Two lanes.** [`LineTables`] computes the tables cell by cell, the reference
//! (`propagate_from_scratch`, any length). The fast lane ([`bit_parallel_supports`], lines of
//! at most 63 cells, every TAAI board's 25) holds each row of a table in one 64-bit word, bit
//! `e` for position `e`: placing a block is a shift and an AND of the cells that can be 1,
//! and "then any number of 0s" is an occluded fill (the carry trick of chess programs), a
//! handful of word operations per block instead of a pass over the line. `suffix` is
//! `prefix` of the line read backwards (its bits reversed). The tests check both lanes
//! against each other and against brute force.
//!
//! **A cache.** Search and probing ask the same line the same question again and again (a
//! probe is undone, then the next probe revisits the lines the last one did). Each line keeps
//! a small table from what its cells allow (two words) to the answer, as the tournament
//! solvers do; a hit costs a lookup instead of the tables. What the table holds is a
//! function of the cells alone, so it never needs undoing.
//!
//! **Events.** Any change of a cell (a 0/1 cell changes only by being fixed); one run
//! reaches the line's fixpoint (idempotent). **Explanations:** none of its own: under
//! learning it gets the generic reason (all its cells); a learning search models the line as
//! `regular` with its states as variables (`regular_states.rs`), whose reasons are small.

use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// The longest line the fast lane takes: its positions `0..=n` fit in one 64-bit word.
pub const FAST_LANE_MAX: usize = 63;

/// How many answers each line's cache keeps (a power of two).
const CACHE_SLOTS: usize = 64;

/// One row or column: its cells and its clue.
#[derive(Clone, Debug)]
pub struct NonogramLine {
    cells: Vec<VarId>,
    clue: Vec<usize>,
    /// The cache of the fast lane: `(can_be_0, can_be_1)` of the cells → the supported
    /// values `(0s, 1s)`, `None` if the line has no solution; direct-mapped by a hash.
    cache: Vec<Option<CachedLine>>,
}

/// One remembered question and its answer.
#[derive(Clone, Copy, Debug)]
struct CachedLine {
    asked: (u64, u64),
    supported: Option<(u64, u64)>,
}

impl NonogramLine {
    /// `cells` (0/1 variables, any other value is removed) show the blocks `clue` in order.
    /// Panics if a block is empty.
    pub fn new(cells: &[VarId], clue: &[usize]) -> NonogramLine {
        assert!(clue.iter().all(|&c| c >= 1), "nonogram_line: a block of 0");
        NonogramLine {
            cells: cells.to_vec(),
            clue: clue.to_vec(),
            cache: Vec::new(),
        }
    }

    /// Keep 0 and 1 only (the cells are 0/1 variables; a wider domain is cut once).
    fn cut_to_bits(&self, ctx: &mut Context<'_>) -> PropResult {
        for &x in &self.cells {
            if ctx.min(x) < 0 || ctx.max(x) > 1 {
                ctx.set_min(x, 0)?;
                ctx.set_max(x, 1)?;
            }
        }
        Ok(())
    }

    /// What each cell allows now: bit `i` of the first word if cell `i` can be 0, of the
    /// second if it can be 1 (lines of at most 64 cells, cells of 0 and 1 only: the bounds
    /// say it all).
    fn masks(&self, ctx: &Context<'_>) -> (u64, u64) {
        let (mut zeros, mut ones) = (0u64, 0u64);
        for (i, &x) in self.cells.iter().enumerate() {
            zeros |= ((ctx.min(x) == 0) as u64) << i;
            ones |= ((ctx.max(x) == 1) as u64) << i;
        }
        (zeros, ones)
    }

    /// The fast lane's answer for `asked`, from the cache or computed and remembered.
    fn supports_cached(&mut self, asked: (u64, u64)) -> Option<(u64, u64)> {
        if self.cache.is_empty() {
            self.cache = vec![None; CACHE_SLOTS];
        }
        let hash = (asked.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ asked.1)
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let slot = (hash >> 58) as usize % CACHE_SLOTS;
        if let Some(hit) = self.cache[slot].filter(|c| c.asked == asked) {
            return hit.supported;
        }
        let supported = bit_parallel_supports(asked.0, asked.1, &self.clue, self.cells.len());
        self.cache[slot] = Some(CachedLine { asked, supported });
        supported
    }

    /// Remove from the cells the values outside `supported` (bit masks of 0s and 1s).
    fn prune(&self, ctx: &mut Context<'_>, asked: (u64, u64), supported: (u64, u64)) -> PropResult {
        let (mut gone_0, mut gone_1) = (asked.0 & !supported.0, asked.1 & !supported.1);
        while gone_0 != 0 {
            let i = gone_0.trailing_zeros() as usize;
            ctx.remove(self.cells[i], 0)?;
            gone_0 &= gone_0 - 1;
        }
        while gone_1 != 0 {
            let i = gone_1.trailing_zeros() as usize;
            ctx.remove(self.cells[i], 1)?;
            gone_1 &= gone_1 - 1;
        }
        Ok(())
    }
}

impl Propagator for NonogramLine {
    fn name(&self) -> &'static str {
        "nonogram_line"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.cells, Condition::Domain)
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// The reference: the tables cell by cell, then each value without a support removed.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        // The tables' cells: on a long line (250 cells), one call can outlast a time limit.
        ctx.work((self.cells.len() * (self.clue.len() + 1)) as u32)?;
        self.cut_to_bits(ctx)?;
        let can_0: Vec<bool> = self.cells.iter().map(|&x| ctx.contains(x, 0)).collect();
        let can_1: Vec<bool> = self.cells.iter().map(|&x| ctx.contains(x, 1)).collect();
        let tables = LineTables::new(&can_0, &can_1, &self.clue);
        let Some((keep_0, keep_1)) = tables.supports() else {
            return Err(crate::propagator::Conflict::new());
        };
        for (i, &x) in self.cells.iter().enumerate() {
            if can_0[i] && !keep_0[i] {
                ctx.remove(x, 0)?;
            }
            if can_1[i] && !keep_1[i] {
                ctx.remove(x, 1)?;
            }
        }
        Ok(())
    }

    /// The fast lane with its cache; lines longer than [`FAST_LANE_MAX`] take the reference.
    /// (The cells hold 0 and 1 only since the first run, [`Propagator::reset_and_propagate`].)
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if self.cells.is_empty() || self.cells.len() > FAST_LANE_MAX {
            return self.propagate_from_scratch(ctx);
        }
        let asked = self.masks(ctx);
        match self.supports_cached(asked) {
            None => Err(crate::propagator::Conflict::new()),
            Some(supported) => self.prune(ctx, asked, supported),
        }
    }

    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.cut_to_bits(ctx)?;
        self.propagate(ctx)
    }
}

/// The reference lane's tables for one line (see the module documentation).
#[derive(Debug)]
pub struct LineTables<'a> {
    can_0: &'a [bool],
    can_1: &'a [bool],
    clue: &'a [usize],
    /// `prefix[j][e]`: the first `j` blocks fit in cells `0..e`.
    prefix: Vec<Vec<bool>>,
    /// `suffix[j][s]`: blocks `j..k` fit in cells `s..n`.
    suffix: Vec<Vec<bool>>,
}

impl<'a> LineTables<'a> {
    /// Fill both tables for the cells that `can_0` and `can_1` allow.
    pub fn new(can_0: &'a [bool], can_1: &'a [bool], clue: &'a [usize]) -> LineTables<'a> {
        let (n, k) = (can_0.len(), clue.len());
        let mut t = LineTables {
            can_0,
            can_1,
            clue,
            prefix: vec![vec![false; n + 1]; k + 1],
            suffix: vec![vec![false; n + 1]; k + 1],
        };
        for j in 0..=k {
            for e in 0..=n {
                // Either cell e − 1 is a 0 after the j blocks, or block j − 1 ends at e.
                let by_a_zero = e >= 1 && can_0[e - 1] && t.prefix[j][e - 1];
                let by_a_block = j >= 1 && e >= clue[j - 1] && {
                    let s = e - clue[j - 1];
                    t.all_ones(s, e) && t.fits_left(j - 1, s)
                };
                t.prefix[j][e] = (j == 0 && e == 0) || by_a_zero || by_a_block;
            }
        }
        for j in (0..=k).rev() {
            for s in (0..=n).rev() {
                let by_a_zero = s < n && can_0[s] && t.suffix[j][s + 1];
                let by_a_block = j < k && s + clue[j] <= n && {
                    t.all_ones(s, s + clue[j]) && t.fits_right(j, s + clue[j])
                };
                t.suffix[j][s] = (j == k && s == n) || by_a_zero || by_a_block;
            }
        }
        t
    }

    /// Can every cell of `from..to` be 1?
    fn all_ones(&self, from: usize, to: usize) -> bool {
        self.can_1[from..to].iter().all(|&b| b)
    }

    /// Do the blocks before block `b` fit left of a block `b` starting at `s`?
    fn fits_left(&self, b: usize, s: usize) -> bool {
        match b {
            0 => self.prefix[0][s],
            _ => s >= 1 && self.can_0[s - 1] && self.prefix[b][s - 1],
        }
    }

    /// Do the blocks after block `b` fit right of a block `b` ending at `e` (exclusive)?
    fn fits_right(&self, b: usize, e: usize) -> bool {
        let (n, k) = (self.can_0.len(), self.clue.len());
        match b + 1 == k {
            true => self.suffix[k][e],
            false => e < n && self.can_0[e] && self.suffix[b + 1][e + 1],
        }
    }

    /// For each cell, whether 0 and whether 1 has a support; `None` if the line has no
    /// solution.
    pub fn supports(&self) -> Option<(Vec<bool>, Vec<bool>)> {
        let (n, k) = (self.can_0.len(), self.clue.len());
        if !self.prefix[k][n] {
            return None;
        }
        let keep_0 = (0..n)
            .map(|i| self.can_0[i] && (0..=k).any(|j| self.prefix[j][i] && self.suffix[j][i + 1]))
            .collect();
        let mut keep_1 = vec![false; n];
        for (b, &c) in self.clue.iter().enumerate() {
            for s in 0..=n.saturating_sub(c) {
                if self.all_ones(s, s + c) && self.fits_left(b, s) && self.fits_right(b, s + c) {
                    keep_1[s..s + c].iter_mut().for_each(|one| *one = true);
                }
            }
        }
        Some((keep_0, keep_1))
    }
}

/// The positions reachable from `seeds` moving right through cells that can be 0: bit `e`
/// is set if `e` is a seed, or `e − 1` is reached and cell `e − 1` can be 0 (bit `e − 1` of
/// `can_0`). An occluded fill: the allowed steps double in length each round.
fn fill_zeros_right(seeds: u64, can_0: u64) -> u64 {
    let (mut reached, mut pass) = (seeds, can_0 << 1);
    for shift in [1, 2, 4, 8, 16, 32] {
        reached |= pass & (reached << shift);
        pass &= pass << shift;
    }
    reached
}

/// Bit `s` set if the `length` cells from `s` can all be 1 (and lie on the line).
fn runs_of_ones(can_1: u64, length: usize) -> u64 {
    (1..length).fold(can_1, |run, t| run & (can_1 >> t))
}

/// The largest number of blocks of a line in the fast lane (one cell each, one 0 between).
const MAX_BLOCKS: usize = FAST_LANE_MAX.div_ceil(2);

/// `prefix[j]` of the module documentation, one word per `j` (bit `e` for position `e`), of
/// the blocks `clue` read from the left, or from the right if `backwards`.
fn prefix_words(
    can_0: u64,
    can_1: u64,
    clue: &[usize],
    backwards: bool,
    n: usize,
) -> [u64; MAX_BLOCKS + 1] {
    let positions = u64::MAX >> (63 - n);
    let mut prefix = [0u64; MAX_BLOCKS + 1];
    prefix[0] = fill_zeros_right(1, can_0) & positions;
    let k = clue.len();
    for b in 0..k {
        let c = if backwards { clue[k - 1 - b] } else { clue[b] };
        let starts = match b {
            0 => prefix[0],
            _ => (prefix[b] & can_0) << 1,
        };
        let ends = (starts & runs_of_ones(can_1, c)) << c;
        prefix[b + 1] = fill_zeros_right(ends, can_0) & positions;
    }
    prefix
}

/// The first `bits` bits of `word` in the reverse order.
fn reversed(word: u64, bits: usize) -> u64 {
    word.reverse_bits() >> (64 - bits)
}

/// The fast lane: for a line of `n ≤ 63` cells whose cells can be 0 (bits of `can_0`) and 1
/// (`can_1`), the bits of the 0s and 1s that have a support, or `None` if there is no
/// solution. The same answer as [`LineTables::supports`].
pub fn bit_parallel_supports(
    can_0: u64,
    can_1: u64,
    clue: &[usize],
    n: usize,
) -> Option<(u64, u64)> {
    debug_assert!((1..=FAST_LANE_MAX).contains(&n));
    let k = clue.len();
    if k > MAX_BLOCKS {
        return None; // more blocks than fit on any line of the fast lane
    }
    let prefix = prefix_words(can_0, can_1, clue, false, n);
    if prefix[k] >> n & 1 == 0 {
        return None;
    }
    // suffix[j], bit s: the line read backwards, whose prefix[k − j] ends at n − s.
    let back = prefix_words(reversed(can_0, n), reversed(can_1, n), clue, true, n);
    let suffix = |j: usize| reversed(back[k - j], n + 1);
    let cells = u64::MAX >> (64 - n);
    let mut keep_0 = 0;
    for j in 0..=k {
        keep_0 |= prefix[j] & (suffix(j) >> 1);
    }
    let mut keep_1 = 0;
    for (b, &c) in clue.iter().enumerate() {
        let fits_left = match b {
            0 => prefix[0],
            _ => (prefix[b] & can_0) << 1,
        };
        // Bit e: what follows a block ending at e (exclusive) fits.
        let fits_right = match b + 1 == k {
            true => suffix(k),
            false => can_0 & (suffix(b + 1) >> 1),
        };
        let starts = fits_left & runs_of_ones(can_1, c) & (fits_right >> c);
        keep_1 |= (0..c).fold(0, |covered, t| covered | starts << t);
    }
    Some((keep_0 & can_0 & cells, keep_1 & can_1 & cells))
}
