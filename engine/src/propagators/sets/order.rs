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
//! reasons on the glb and lub too; this propagator keeps no value that has no support, so
//! it prunes at least as much. A variable standing twice (at two positions, or in both
//! sets) is read as two: still sound, possibly weaker.
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
}

/// What the two booleans of one position may still be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    x0: bool,
    x1: bool,
    y0: bool,
    y1: bool,
}

impl Cell {
    fn can_equal(self) -> bool {
        (self.x0 && self.y0) || (self.x1 && self.y1)
    }
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

/// Can `x ≤ y` (`x < y` when `strict`) hold within `cells`? (module docs)
fn satisfiable(cells: &[Cell], strict: bool) -> bool {
    let n = cells.len();
    // y_later[i]: some yⱼ, j > i, can be 1; x_empty_later[i]: every xⱼ, j > i, can be 0.
    let mut y_later = vec![false; n];
    let mut x_empty_later = vec![true; n];
    for i in (0..n.saturating_sub(1)).rev() {
        y_later[i] = y_later[i + 1] || cells[i + 1].y1;
        x_empty_later[i] = x_empty_later[i + 1] && cells[i + 1].x0;
    }
    for (i, c) in cells.iter().enumerate() {
        if (c.x1 && c.y0 && y_later[i]) || (c.x0 && c.y1 && x_empty_later[i]) {
            return true; // the first difference can be here
        }
        if !c.can_equal() {
            return false; // the prefix cannot stay equal past i
        }
    }
    !strict
}

/// The same with the roles swapped: `¬(x ≤ y)` is `y < x`, `¬(x < y)` is `y ≤ x`.
fn negation_satisfiable(cells: &[Cell], strict: bool) -> bool {
    satisfiable(&swap(cells), !strict)
}

/// Remove every value of `xs`/`ys` with no support in `x ≤ y` (`<` when `strict`).
fn prune(
    ctx: &mut Context<'_>,
    xs: &[VarId],
    ys: &[VarId],
    cells: &[Cell],
    strict: bool,
) -> PropResult {
    if !satisfiable(cells, strict) {
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
            let supported = satisfiable(&trial, strict);
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
        subs
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let cells = self.cells(ctx);
        let Some((r, half)) = self.reified else {
            prune(ctx, &self.xs, &self.ys, &cells, self.strict)?;
            if !negation_satisfiable(&self.cells(ctx), self.strict) {
                ctx.set_entailed();
            }
            return Ok(());
        };
        if !ctx.contains(r, 0) {
            return prune(ctx, &self.xs, &self.ys, &cells, self.strict);
        }
        if !ctx.contains(r, 1) {
            if !half {
                prune(ctx, &self.ys, &self.xs, &swap(&cells), !self.strict)?;
            }
            return Ok(());
        }
        if !satisfiable(&cells, self.strict) {
            ctx.fix(r, 0)?;
        } else if !half && !negation_satisfiable(&cells, self.strict) {
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
