//! # The order of sets: `x ≤ y` and `x < y` (MiniZinc's `set_le`, `set_lt`, reified)
//!
//! MiniZinc orders sets of integers as it orders their **sorted lists of elements**,
//! lexicographically, a proper prefix coming first: `{} < {1} < {1, 2} < {1, 3} < {2}`,
//! and `{1, 5} < {2}`. (Its own decomposition, `std/nosets.mzn`, walks the elements the
//! same way; the tests compare with a brute force written from this sentence.)
//!
//! **Over the characteristic booleans** (`mod.rs`): both sets are read over one universe
//! `u₁ < … < uₙ`, `xᵢ ⇔ uᵢ ∈ x` and `yᵢ ⇔ uᵢ ∈ y`. Walk the positions in increasing order
//! while `xᵢ = yᵢ`. At the first position `i` where they differ:
//!
//! * `xᵢ = 1, yᵢ = 0`: the lists agree up to `uᵢ`, where `x` has `uᵢ` and `y` has either
//!   a larger element next (then `x < y`) or none (then `y` is a prefix of `x`: `x > y`).
//!   So `x < y` **iff `y` has an element after `uᵢ`**;
//! * `xᵢ = 0, yᵢ = 1`: symmetrically `x < y` **iff `x` has no element after `uᵢ`**;
//! * no such position: `x = y` (`≤` holds, `<` does not).
//!
//! **Can it still hold?** (`satisfiable`) Yes iff some position `i` can be the first
//! difference: every earlier position can be equal (`0` or `1` on both sides), and either
//! `xᵢ` can be 1, `yᵢ` 0 and some later `yⱼ` can be 1, or `xᵢ` can be 0, `yᵢ` 1 and every
//! later `xⱼ` can be 0; or (for `≤`) every position can be equal. Each condition reads
//! other positions only, which are free otherwise, so the scan answers exactly: one pass
//! from the right for the two suffix facts, one from the left for the equal prefix.
//!
//! **Consistency: domain on the booleans** (the strongest the set-bounds view can state:
//! glb and lub are exactly the elements in, resp. possibly in, some solution). A value of a
//! boolean is kept iff the constraint is satisfiable with the boolean fixed to it; one pass
//! suffices, since a support uses only supported values. Gecode's set order (`Set::Rel::Lq`)
//! also reasons on the glb and lub, but orders sets by another rule than MiniZinc's
//! (docs/minizinc.md, "Set variables"): a model it solves is not quite the same model. A variable standing twice (at two positions, or in both
//! sets) is read as two: still sound, possibly weaker.
//!
//! **With counts** (`with_cardinalities`): when the model counts a set's elements
//! (`set_card(x, k)`), the order reads `k`'s bounds too. The check above then also asks
//! that the counts can land in them: the equal prefix gives both sets any number `p` of
//! common elements between those forced and those possible, each side's suffix between its
//! forced and its possible ones, so each case is a few interval intersections. `x ≤ y` with
//! `|x| = |y| = 3` and `y = {1, 2, 3}` then forces `x = {1, 2, 3}`, which the order and the
//! sum, each alone, do not see. Still one O(n) check; the counts are read, never pruned
//! (their sum does that).
//!
//! **Reified** `r ⇔ x ≤ y` (or `r ⇒` when half): with `r` fixed to 1 the order is
//! propagated; fixed to 0 its negation `y < x` (`x < y`: `y ≤ x`); open, `r` is fixed when
//! one side cannot hold.
//!
//! **Events**: any change of a boolean. **Cost** O(n²) per run for a universe of `n`
//! values: one O(n) check per undecided boolean and value (the reference algorithm; no
//! incremental path yet).

use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::store::VarId;

/// `x ≤ y` or `x < y` over aligned characteristic booleans, maybe reified.
#[derive(Clone, Debug)]
pub struct SetOrder {
    /// `xs[i]`, `ys[i]`: is the `i`-th value of the universe in `x`, in `y`.
    xs: Vec<VarId>,
    ys: Vec<VarId>,
    strict: bool,
    /// `Some((r, half))`: `r ⇔ order` (`r ⇒ order` when half).
    reified: Option<(VarId, bool)>,
    /// The variables counting the elements of `x` and of `y`, when the model has them
    /// (`set_card`): their bounds are read, never pruned here.
    cardinalities: [Option<VarId>; 2],
}

/// What the two booleans of one position may still be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    x0: bool,
    x1: bool,
    y0: bool,
    y1: bool,
}

impl SetOrder {
    /// `x ≤ y` (`strict`: `x < y`); `xs` and `ys` of equal length, position `i` the same
    /// value of the universe on both sides (a value outside a set's upper bound: a
    /// boolean fixed to 0).
    pub fn new(xs: &[VarId], ys: &[VarId], strict: bool) -> SetOrder {
        assert_eq!(
            xs.len(),
            ys.len(),
            "the two sets are aligned on one universe"
        );
        SetOrder {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            strict,
            reified: None,
            cardinalities: [None, None],
        }
    }

    /// The same, knowing that `kx` counts the elements of `x` and `ky` those of `y`: the
    /// order is then propagated together with those counts' bounds.
    pub fn with_cardinalities(mut self, kx: Option<VarId>, ky: Option<VarId>) -> SetOrder {
        self.cardinalities = [kx, ky];
        self
    }

    /// The numbers of elements the sets may have: the counts' bounds, else 0..n.
    fn cards(&self, ctx: &Context<'_>) -> Cards {
        let n = self.xs.len() as i64;
        let bounds = |k: Option<VarId>| match k {
            Some(k) => (ctx.min(k) as i64, ctx.max(k) as i64),
            None => (0, n),
        };
        Cards {
            x: bounds(self.cardinalities[0]),
            y: bounds(self.cardinalities[1]),
        }
    }

    /// `r ⇔ x ≤ y` (`strict`: `<`; `half`: `r ⇒ ...` only).
    pub fn reified(xs: &[VarId], ys: &[VarId], strict: bool, r: VarId, half: bool) -> SetOrder {
        SetOrder {
            reified: Some((r, half)),
            ..SetOrder::new(xs, ys, strict)
        }
    }

    fn cells(&self, ctx: &Context<'_>) -> Vec<Cell> {
        (self.xs.iter().zip(&self.ys))
            .map(|(&x, &y)| Cell {
                x0: ctx.contains(x, 0),
                x1: ctx.contains(x, 1),
                y0: ctx.contains(y, 0),
                y1: ctx.contains(y, 1),
            })
            .collect()
    }
}

/// How many elements each set may have: `x` between `x.0` and `x.1`, `y` likewise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cards {
    x: (i64, i64),
    y: (i64, i64),
}

impl Cards {
    fn swapped(self) -> Cards {
        Cards {
            x: self.y,
            y: self.x,
        }
    }
}

/// Over a run of positions, how many elements each set has at least (forced) and at most.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    x_min: i64,
    x_max: i64,
    y_min: i64,
    y_max: i64,
}

impl Counts {
    fn minus(self, o: Counts) -> Counts {
        Counts {
            x_min: self.x_min - o.x_min,
            x_max: self.x_max - o.x_max,
            y_min: self.y_min - o.y_min,
            y_max: self.y_max - o.y_max,
        }
    }

    fn plus(self, c: Cell) -> Counts {
        Counts {
            x_min: self.x_min + (!c.x0) as i64,
            x_max: self.x_max + c.x1 as i64,
            y_min: self.y_min + (!c.y0) as i64,
            y_max: self.y_max + c.y1 as i64,
        }
    }
}

/// Is some integer in every one of the closed intervals?
fn meet(intervals: &[(i64, i64)]) -> bool {
    let lo = intervals.iter().map(|r| r.0).max().unwrap_or(i64::MIN);
    let hi = intervals.iter().map(|r| r.1).min().unwrap_or(i64::MAX);
    lo <= hi
}

/// Can `x ≤ y` (`x < y` when `strict`) hold within `cells`, each set's number of elements
/// within `cards`? (module docs) `p` counts the elements the equal prefix gives both sets:
/// any number between the positions forced to 1 and those that can be 1.
fn satisfiable(cells: &[Cell], strict: bool, cards: Cards) -> bool {
    // The counts strictly after position i: all of them less those up to i (no table).
    let total = cells.iter().fold(Counts::default(), |t, &c| t.plus(c));
    let mut upto = Counts::default();
    let (mut p_min, mut p_max) = (0i64, 0i64);
    for &c in cells {
        upto = upto.plus(c);
        let s = total.minus(upto);
        let prefix = (p_min, p_max);
        // First difference xᵢ = 1, yᵢ = 0: y needs an element later.
        if c.x1 && c.y0 && s.y_max >= 1 {
            let x = (cards.x.0 - 1 - s.x_max, cards.x.1 - 1 - s.x_min);
            let y = (cards.y.0 - s.y_max, cards.y.1 - s.y_min.max(1));
            if meet(&[prefix, x, y]) {
                return true;
            }
        }
        // First difference xᵢ = 0, yᵢ = 1: x has no element later.
        if c.x0 && c.y1 && s.x_min == 0 {
            let y = (cards.y.0 - 1 - s.y_max, cards.y.1 - 1 - s.y_min);
            if meet(&[prefix, cards.x, y]) {
                return true;
            }
        }
        match (c.x0 && c.y0, c.x1 && c.y1) {
            (false, false) => return false, // the prefix cannot stay equal past i
            (false, true) => (p_min, p_max) = (p_min + 1, p_max + 1),
            (true, true) => p_max += 1,
            (true, false) => {}
        }
    }
    !strict && meet(&[(p_min, p_max), cards.x, cards.y])
}

/// The same with the roles swapped: `¬(x ≤ y)` is `y < x`, `¬(x < y)` is `y ≤ x`.
fn negation_satisfiable(cells: &[Cell], strict: bool, cards: Cards) -> bool {
    satisfiable(&swap(cells), !strict, cards.swapped())
}

/// Remove every value of `xs`/`ys` with no support in `x ≤ y` (`<` when `strict`).
fn prune(
    ctx: &mut Context<'_>,
    xs: &[VarId],
    ys: &[VarId],
    cells: &[Cell],
    strict: bool,
    cards: Cards,
) -> PropResult {
    if !satisfiable(cells, strict, cards) {
        return Err(Conflict::new());
    }
    let mut trial = cells.to_vec();
    for i in 0..cells.len() {
        let c = cells[i];
        for (on_x, value) in [(true, 0), (true, 1), (false, 0), (false, 1)] {
            let open = if on_x { c.x0 && c.x1 } else { c.y0 && c.y1 };
            if !open {
                continue;
            }
            let mut t = c;
            match (on_x, value) {
                (true, 0) => t.x1 = false,
                (true, _) => t.x0 = false,
                (false, 0) => t.y1 = false,
                (false, _) => t.y0 = false,
            }
            trial[i] = t;
            let supported = satisfiable(&trial, strict, cards);
            trial[i] = c;
            if !supported {
                let var = if on_x { xs[i] } else { ys[i] };
                ctx.remove(var, value)?;
            }
        }
    }
    Ok(())
}

impl Propagator for SetOrder {
    fn name(&self) -> &'static str {
        match (self.strict, self.reified.is_some()) {
            (false, false) => "set_le",
            (true, false) => "set_lt",
            (false, true) => "set_le_reif",
            (true, true) => "set_lt_reif",
        }
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs = Subscription::all(&self.xs, Condition::Domain);
        subs.extend(Subscription::all(&self.ys, Condition::Domain));
        if let Some((r, _)) = self.reified {
            subs.push(Subscription::new(r, Condition::Domain));
        }
        for k in self.cardinalities.into_iter().flatten() {
            subs.push(Subscription::new(k, Condition::Bounds));
        }
        subs
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (cells, cards, strict) = (self.cells(ctx), self.cards(ctx), self.strict);
        let Some((r, half)) = self.reified else {
            prune(ctx, &self.xs, &self.ys, &cells, strict, cards)?;
            // Entailed when the order cannot fail any more; with counts, it also stands for
            // them (its tests post it alone), so it stays awake.
            let counted = self.cardinalities.iter().any(|k| k.is_some());
            if !counted && !negation_satisfiable(&self.cells(ctx), strict, cards) {
                ctx.set_entailed();
            }
            return Ok(());
        };
        if !ctx.contains(r, 0) {
            return prune(ctx, &self.xs, &self.ys, &cells, strict, cards);
        }
        if !ctx.contains(r, 1) {
            if !half {
                let swapped = swap(&cells);
                prune(ctx, &self.ys, &self.xs, &swapped, !strict, cards.swapped())?;
            }
            return Ok(());
        }
        if !satisfiable(&cells, strict, cards) {
            ctx.fix(r, 0)?;
        } else if !half && !negation_satisfiable(&cells, strict, cards) {
            ctx.fix(r, 1)?;
        }
        Ok(())
    }
}

/// The cells read from `y`'s side.
fn swap(cells: &[Cell]) -> Vec<Cell> {
    (cells.iter())
        .map(|c| Cell {
            x0: c.y0,
            x1: c.y1,
            y0: c.x0,
            y1: c.x1,
        })
        .collect()
}
