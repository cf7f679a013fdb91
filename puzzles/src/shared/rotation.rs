//! # Turning pieces into agreement: the rotation model shared by Match 22 and Infinity Loop
//!
//! Seed 001 treats both puzzles as one model "wearing different data". A board holds pieces
//! (disks, tiles) with four sides numbered as the seed does — `0` top, `1` left, `2` bottom,
//! `3` right — and a value on each side: a colour for Match 22, "a line leaves here" (1) or
//! not (0) for Infinity Loop. One turn is a quarter turn **counter-clockwise**: the top goes
//! to the left. So after `j` turns the value showing at side `h` is the one that started at
//! side `(h − j) mod 4` — the seed's "rotation riding along as a relabelling of fixed data".
//!
//! **The CP model.** The seed uses one binary per (piece, turns) and linear sums for the
//! colour now showing. Here each piece has
//!
//! * `turns ∈ {0, 1, 2, 3}` — restricted to the *useful* turn counts: a piece that looks the
//!   same after two turns (a straight line, `RGRG`) would never be turned twice by an optimum,
//!   so only the fewest turns giving each distinct orientation are kept;
//! * `shown[h]` — the value showing at side `h`;
//! * one **table** `(turns, shown[0..4])` whose rows are the piece's orientations: the
//!   relabelling written out as data. It is domain consistent: a colour disappears from a side
//!   as soon as no remaining orientation shows it there, and the other way round.
//!
//! Touching sides agree, `shown_left_piece[3] = shown_right_piece[1]` and
//! `shown_upper[2] = shown_lower[0]` (equalities, domain consistent), and Infinity Loop adds
//! the border rule: an outward side shows `0` (its `shown` variable is created as `{0}`).
//! The objective is `total = Σ turns`, minimised by branch and bound; it is posted as a sum
//! of row sums, so a tile's change wakes two short sums rather than one over the whole board.
//! The search branches on the turns with dom/wdeg (a tile whose constraints failed often is
//! turned first), fewest turns first; `docs/PERFORMANCE.md` has the measurements behind both
//! choices.
//!
//! **Pictures versus turn choices.** The puzzles count distinct *pictures*, not turn vectors.
//! For counting ([`Purpose::Count`]) the search branches on the `shown` variables with
//! `project: true`: each distinct assignment of the picture is counted once, whatever turns
//! produce it — the engine's projected counting.

use crate::common::{Built, Purpose};
use engine::{Model, Objective, Relation, SearchConfig, Solution, ValSelect, VarId, VarSelect};

/// The four sides, in the seed's order.
pub const TOP: usize = 0;
pub const LEFT: usize = 1;
pub const BOTTOM: usize = 2;
pub const RIGHT: usize = 3;

/// The value showing at side `position` after `turns` counter-clockwise quarter turns.
pub fn shown<T: Copy>(sides: &[T; 4], turns: usize, position: usize) -> T {
    sides[(position + 4 - turns % 4) % 4]
}

/// The piece after `turns` counter-clockwise quarter turns.
pub fn turned<T: Copy>(sides: &[T; 4], turns: usize) -> [T; 4] {
    [0, 1, 2, 3].map(|h| shown(sides, turns, h))
}

/// The fewest turns giving each distinct orientation of the piece, in increasing order.
pub fn useful_turns<T: Copy + PartialEq>(sides: &[T; 4]) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for j in 0..4 {
        if out.iter().all(|&k| turned(sides, k) != turned(sides, j)) {
            out.push(j);
        }
    }
    out
}

/// The fewest turns that bring `from` to look like `to`, if any.
pub fn turns_between<T: Copy + PartialEq>(from: &[T; 4], to: &[T; 4]) -> Option<usize> {
    (0..4).find(|&j| turned(from, j) == *to)
}

/// A new variable equal to `Σ xs` (turn counts: all non-negative, at most 3 each).
fn sum_of(model: &mut Model, xs: &[VarId]) -> VarId {
    let most: i32 = xs.iter().map(|&x| model.max(x)).sum();
    let total = model.new_var(0, most);
    let mut terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
    terms.push((-1, total));
    model.linear(&terms, Relation::Eq, 0);
    total
}

/// A board of pieces, `None` for an empty place (which touches nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RotationBoard {
    pub rows: usize,
    pub cols: usize,
    /// Row by row.
    pub pieces: Vec<Option<[i32; 4]>>,
    /// Infinity Loop: no line may leave the board (outward sides show 0).
    pub closed_border: bool,
}

/// Where a [`RotationBoard`]'s variables sit in [`Built::vars`]: `[total, turns of each
/// piece..., shown[0..4] of each piece...]`, pieces in board order, empty places skipped.
impl RotationBoard {
    /// The indices of the places that hold a piece, in board order.
    pub fn piece_places(&self) -> Vec<usize> {
        (0..self.pieces.len())
            .filter(|&i| self.pieces[i].is_some())
            .collect()
    }

    /// The model of the module documentation.
    pub fn model(&self, purpose: Purpose) -> Built {
        let places = self.piece_places();
        let mut model = Model::new();
        let mut slot = vec![usize::MAX; self.pieces.len()]; // place -> piece number
        let mut turns = Vec::new();
        let mut shown_vars: Vec<[VarId; 4]> = Vec::new();
        for (n, &place) in places.iter().enumerate() {
            slot[place] = n;
            let sides = self.pieces[place].expect("places hold pieces");
            let (r, c) = (place / self.cols, place % self.cols);
            let useful = useful_turns(&sides);
            let turn_values: Vec<i32> = useful.iter().map(|&j| j as i32).collect();
            let t = model.new_var_from_values(&turn_values);
            let on_border = [r == 0, c == 0, r + 1 == self.rows, c + 1 == self.cols];
            let s: [VarId; 4] = [0, 1, 2, 3].map(|h| {
                if self.closed_border && on_border[h] {
                    model.new_var_from_values(&[0])
                } else {
                    let mut values: Vec<i32> = sides.to_vec();
                    values.sort_unstable();
                    values.dedup();
                    model.new_var_from_values(&values)
                }
            });
            // One row per orientation: (turns, shown top, left, bottom, right).
            let rows: Vec<Vec<i32>> = useful
                .iter()
                .map(|&j| {
                    let mut row = vec![j as i32];
                    row.extend(turned(&sides, j));
                    row
                })
                .collect();
            model.table(&[t, s[0], s[1], s[2], s[3]], rows);
            turns.push(t);
            shown_vars.push(s);
        }
        // Touching sides agree.
        for &place in &places {
            let (r, c) = (place / self.cols, place % self.cols);
            let me = shown_vars[slot[place]];
            if c + 1 < self.cols && self.pieces[place + 1].is_some() {
                model.equal_offset(me[RIGHT], shown_vars[slot[place + 1]][LEFT], 0);
            }
            if r + 1 < self.rows && self.pieces[place + self.cols].is_some() {
                model.equal_offset(me[BOTTOM], shown_vars[slot[place + self.cols]][TOP], 0);
            }
        }
        // The objective, as a sum of row sums: one tile's change then wakes a sum over its
        // row and one over the rows, not a sum over the whole board. For unit coefficients
        // the bounds reasoning is the same as the flat sum's (the mins and maxes add up).
        let mut row_sums = Vec::new();
        for r in 0..self.rows {
            let in_row: Vec<VarId> = places
                .iter()
                .zip(&turns)
                .filter(|(&place, _)| place / self.cols == r)
                .map(|(_, &t)| t)
                .collect();
            if !in_row.is_empty() {
                row_sums.push(sum_of(&mut model, &in_row));
            }
        }
        let total = sum_of(&mut model, &row_sums);

        let picture: Vec<VarId> = shown_vars.iter().flatten().copied().collect();
        let search = match purpose {
            Purpose::Solve => SearchConfig {
                branch_vars: Some(turns.clone()),
                var_select: VarSelect::DomWDeg,
                val_select: ValSelect::Min,
                objective: Some(Objective::minimize(total)),
                ..Default::default()
            },
            Purpose::Count => SearchConfig {
                branch_vars: Some(picture.clone()),
                project: true,
                ..Default::default()
            },
        };
        let mut vars = vec![total];
        vars.extend(turns);
        vars.extend(picture);
        Built {
            model,
            search,
            vars,
        }
    }

    /// The turns of each piece (board order, empty places skipped) in a solution.
    pub fn turns_of(&self, built: &Built, solution: &Solution) -> Vec<usize> {
        let n = self.piece_places().len();
        built.vars[1..=n]
            .iter()
            .map(|&t| solution.value(t) as usize)
            .collect()
    }

    /// Rules only, for a board and a turn count per piece: every touching pair of sides
    /// agrees and, with a closed border, nothing shows outward. Returns the turned pieces.
    pub fn check_turns(&self, turns: &[usize]) -> Result<Vec<Option<[i32; 4]>>, String> {
        let places = self.piece_places();
        if turns.len() != places.len() || turns.iter().any(|&j| j > 3) {
            return Err(format!(
                "expected {} turn counts between 0 and 3",
                places.len()
            ));
        }
        let mut now: Vec<Option<[i32; 4]>> = vec![None; self.pieces.len()];
        for (&place, &j) in places.iter().zip(turns) {
            now[place] = self.pieces[place].map(|p| turned(&p, j));
        }
        self.check_picture(&now)?;
        Ok(now)
    }

    /// Rules only, for the final picture: touching sides agree, and with a closed border no
    /// side shows a line outward.
    pub fn check_picture(&self, now: &[Option<[i32; 4]>]) -> Result<(), String> {
        for r in 0..self.rows {
            for c in 0..self.cols {
                let Some(p) = now[r * self.cols + c] else {
                    continue;
                };
                let at = format!("({},{})", r + 1, c + 1);
                if c + 1 < self.cols {
                    if let Some(q) = now[r * self.cols + c + 1] {
                        if p[RIGHT] != q[LEFT] {
                            return Err(format!("{at} and its right neighbour disagree"));
                        }
                    }
                }
                if r + 1 < self.rows {
                    if let Some(q) = now[(r + 1) * self.cols + c] {
                        if p[BOTTOM] != q[TOP] {
                            return Err(format!("{at} and the piece below disagree"));
                        }
                    }
                }
                if self.closed_border {
                    let outward = [r == 0, c == 0, r + 1 == self.rows, c + 1 == self.cols];
                    if (0..4).any(|h| outward[h] && p[h] != 0) {
                        return Err(format!("a line leaves the board at {at}"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The slow reference, for tests: try every turn vector (4ⁿ of them, so only for a handful of
/// pieces) against the rules alone. Returns the fewest turns of a valid picture (None if there
/// is none) and the number of distinct valid pictures.
impl RotationBoard {
    pub fn brute_force(&self) -> (Option<usize>, usize) {
        let n = self.piece_places().len();
        assert!(n <= 10, "brute force is for small boards");
        let mut best: Option<usize> = None;
        let mut pictures = std::collections::HashSet::new();
        for code in 0..4usize.pow(n as u32) {
            let turns: Vec<usize> = (0..n).map(|i| (code >> (2 * i)) & 3).collect();
            if let Ok(picture) = self.check_turns(&turns) {
                let total = turns.iter().sum::<usize>();
                best = Some(best.map_or(total, |b| b.min(total)));
                let _ = pictures.insert(picture);
            }
        }
        (best, pictures.len())
    }
}
