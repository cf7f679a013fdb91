//! # Band counts: Hall's rule where two partitions of 0/1 cells count the same K
//!
//! **Enforces** that every *line* (a row, say) and every *part* (a region) of a set of 0/1
//! cells holds exactly K ones, where each cell lies in one line and in at most one part (a
//! cell in no part holds 0). Star Battle posts it twice, rows × regions and columns ×
//! regions, beside its sums. One sum at a time sees nothing of how the two partitions
//! interlock; this propagator counts over *bands* of consecutive lines, as a human solver
//! does:
//!
//! 1. **parts inside a band.** The parts whose open cells (1 still in the domain) all lie in
//!    the lines a..=b put all their ones there. If there are as many such parts as lines in the
//!    band, they fill it: every other cell of the band is 0. More such parts than lines: fail.
//! 2. **parts touching a band.** Every one in the band belongs to a part with an open cell
//!    there. If as many parts as lines touch the band, each of them has all its ones in it:
//!    their cells outside the band are 0. Fewer parts than lines: fail.
//!
//! Both are Hall's rule (a set of m parts confined to m lines, or m lines served by m parts),
//! restricted to consecutive lines: the sets that regions drawn on a grid make. Plus the
//! plain count of each line and part (at most K ones fixed, at least K open), so that the
//! propagator checks its constraint on its own.
//!
//! **Consistency.** Checking, with the two rules; no claim of domain consistency. **Wakes
//! on** any change. **Cost** O(n + L² + L²·P/64) per run for n cells, L lines and P parts,
//! from scratch, plus one pass over the cells per band that prunes. **Explanations:** the generic ones. Tested against
//! brute force in `engine/tests/band_counts.rs`.

use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::store::VarId;

/// A cell in no part.
pub const NO_PART: usize = usize::MAX;

/// Every line and every part holds exactly `k` ones; Hall's rule on bands of lines.
#[derive(Clone, Debug)]
pub struct BandCounts {
    cells: Vec<VarId>,
    line_of: Vec<usize>,
    part_of: Vec<usize>,
    lines: usize,
    parts: usize,
    k: i64,
    /// The widest band looked at, in lines.
    widest: usize,
}

impl BandCounts {
    /// `line_of[i]` (0..lines) and `part_of[i]` (0..parts, or [`NO_PART`]) of each cell.
    pub fn new(cells: &[VarId], line_of: Vec<usize>, part_of: Vec<usize>, k: i64) -> BandCounts {
        assert_eq!(cells.len(), line_of.len(), "one line per cell");
        assert_eq!(cells.len(), part_of.len(), "one part (or NO_PART) per cell");
        let lines = line_of.iter().map(|&l| l + 1).max().unwrap_or(0);
        let parts = part_of
            .iter()
            .filter(|&&p| p != NO_PART)
            .map(|&p| p + 1)
            .max()
            .unwrap_or(0);
        BandCounts {
            cells: cells.to_vec(),
            line_of,
            part_of,
            lines,
            parts,
            k,
            widest: lines,
        }
    }

    /// Looks at bands of at most `widest` lines only: a cheaper run, fewer deductions.
    pub fn with_widest_band(mut self, widest: usize) -> BandCounts {
        self.widest = widest.max(1);
        self
    }

    /// Is cell `i` still able to hold a one?
    fn open(&self, ctx: &Context<'_>, i: usize) -> bool {
        ctx.max(self.cells[i]) >= 1
    }

    /// One pass over the cells: the plain counts (at most K ones fixed and at least K open
    /// in every line and part; a cell in no part holds 0) and what the bands need.
    fn tally(&self, ctx: &mut Context<'_>) -> Result<Tally, Conflict> {
        let words = self.parts.div_ceil(64);
        let mut t = Tally {
            words,
            first: vec![usize::MAX; self.parts],
            last: vec![0; self.parts],
            open_in_line: vec![0; self.lines],
            open_in_part: vec![0; self.parts],
            on_line: vec![0; self.lines * words],
            by_last: Vec::new(),
            by_last_start: Vec::new(),
        };
        let mut ones = vec![0i64; self.lines + self.parts];
        for i in 0..self.cells.len() {
            let p = self.part_of[i];
            if p == NO_PART {
                let _ = ctx.set_max(self.cells[i], 0)?;
                continue;
            }
            let l = self.line_of[i];
            if ctx.min(self.cells[i]) >= 1 {
                ones[l] += 1;
                ones[self.lines + p] += 1;
            }
            if self.open(ctx, i) {
                t.first[p] = t.first[p].min(l);
                t.last[p] = t.last[p].max(l);
                t.open_in_line[l] += 1;
                t.open_in_part[p] += 1;
                t.on_line[l * words + p / 64] |= 1 << (p % 64);
            }
        }
        let open_in = |g: usize| {
            if g < self.lines {
                t.open_in_line[g]
            } else {
                t.open_in_part[g - self.lines]
            }
        };
        if (0..ones.len()).any(|g| ones[g] > self.k || open_in(g) < self.k) {
            return Err(Conflict::new());
        }
        // The open parts by their last line (a counting sort).
        let mut count = vec![0; self.lines + 1];
        for p in (0..self.parts).filter(|&p| t.first[p] != usize::MAX) {
            count[t.last[p] + 1] += 1;
        }
        for l in 0..self.lines {
            count[l + 1] += count[l];
        }
        t.by_last = vec![0; count[self.lines]];
        t.by_last_start = count.clone();
        for p in (0..self.parts).filter(|&p| t.first[p] != usize::MAX) {
            t.by_last[count[t.last[p]]] = p;
            count[t.last[p]] += 1;
        }
        Ok(t)
    }

    /// Rules 1 and 2 for every band of consecutive lines shorter than the whole. A rule
    /// that holds but would empty no open cell (the open cells it names are already those
    /// the counts say) skips its pass over the cells.
    fn bands(&self, ctx: &mut Context<'_>, t: &Tally) -> PropResult {
        let mut touching = vec![0u64; t.words];
        for a in 0..self.lines {
            touching.fill(0);
            let (mut touching_count, mut touching_open, mut band_open) = (0, 0, 0);
            // The parts with open cells in lines a..=b only, counted as b grows.
            let (mut inside_count, mut inside_open) = (0, 0);
            for b in a..self.lines.min(a + self.widest) {
                band_open += t.open_in_line[b];
                for (w, word) in touching.iter_mut().enumerate() {
                    let mut new = t.on_line[b * t.words + w] & !*word;
                    *word |= new;
                    while new != 0 {
                        let p = w * 64 + new.trailing_zeros() as usize;
                        new &= new - 1;
                        touching_count += 1;
                        touching_open += t.open_in_part[p];
                    }
                }
                let width = b - a + 1;
                if width == self.lines {
                    break;
                }
                let inside =
                    |p: usize| t.first[p] != usize::MAX && a <= t.first[p] && t.last[p] <= b;
                for &p in t.ending_on(b) {
                    if a <= t.first[p] {
                        inside_count += 1;
                        inside_open += t.open_in_part[p];
                    }
                }
                if inside_count > width || touching_count < width {
                    return Err(Conflict::new());
                }
                if inside_count == width && band_open > inside_open {
                    // Rule 1: the band's cells of the other parts are 0.
                    self.empty_cells(ctx, |line, part| (a..=b).contains(&line) && !inside(part))?;
                }
                if touching_count == width && touching_open > band_open {
                    // Rule 2: the touching parts' cells outside the band are 0.
                    let touches = |p: usize| touching[p / 64] & (1 << (p % 64)) != 0;
                    self.empty_cells(ctx, |line, part| !(a..=b).contains(&line) && touches(part))?;
                }
            }
        }
        Ok(())
    }

    /// Sets to 0 every open cell (of a part) whose line and part `chosen` accepts.
    fn empty_cells(
        &self,
        ctx: &mut Context<'_>,
        chosen: impl Fn(usize, usize) -> bool,
    ) -> PropResult {
        for i in 0..self.cells.len() {
            let p = self.part_of[i];
            if p != NO_PART && self.open(ctx, i) && chosen(self.line_of[i], p) {
                let _ = ctx.set_max(self.cells[i], 0)?;
            }
        }
        Ok(())
    }
}

/// What one pass over the cells counts: each part's first and last line with an open cell,
/// the open cells of each line and part, the parts open on each line (a bit set of `words`
/// words per line), and the parts by their last line.
struct Tally {
    words: usize,
    first: Vec<usize>,
    last: Vec<usize>,
    open_in_line: Vec<i64>,
    open_in_part: Vec<i64>,
    on_line: Vec<u64>,
    /// The parts with an open cell, by their last line: those of line l are
    /// `by_last[by_last_start[l]..by_last_start[l + 1]]`.
    by_last: Vec<usize>,
    by_last_start: Vec<usize>,
}

impl Tally {
    /// The open parts whose last open line is `line`.
    fn ending_on(&self, line: usize) -> &[usize] {
        &self.by_last[self.by_last_start[line]..self.by_last_start[line + 1]]
    }
}

impl Propagator for BandCounts {
    fn name(&self) -> &'static str {
        "band_counts"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.cells, Condition::Domain)
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let tally = self.tally(ctx)?;
        self.bands(ctx, &tally)
    }
}
