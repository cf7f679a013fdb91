//! # Inverse: two arrays that are each other's inverse permutation
//!
//! `inverse(xs, ys)` says `xs[i] = j ⇔ ys[j] = i` for every position: `xs` maps positions of
//! `xs` to positions of `ys`, and `ys` maps them back. It is the classic **channelling**
//! constraint between two viewpoints of one permutation (Cheng, Choi, Lee & Wu, "Increasing
//! constraint propagation by redundant modeling", Constraints 4(2), 1999; Smith, "Modelling",
//! Handbook of CP, 2006): in a scheduling model `xs[task] = slot` and `ys[slot] = task`.
//!
//! MiniZinc numbers positions by the arrays' index sets, which FlatZinc loses (its arrays are
//! 1-based), so the propagator takes them explicitly: `xs[i]` (the `i`-th variable of `xs`,
//! counted from 0) stands for index `x_base + i`, and its values are indices of `ys`, i.e.
//! `y_base + j`; likewise `ys[j]` takes values `x_base + i`.
//!
//! **The rule (channelling).** Value `y_base + j` stays in `xs[i]` only while `x_base + i`
//! is in `ys[j]`, and vice versa; a value that is no index of the other array goes. One pass
//! over `xs` then one over `ys` reach the fixpoint: the second pass removes `i` from `ys[j]`
//! only when `xs[i]` has already lost `j`, which removes no support of the first pass. So the
//! propagator is idempotent.
//!
//! **Consistency.** Domain consistent on each channelling equivalence `xs[i] = j ⇔ ys[j] = i`,
//! and checking for the whole constraint (arrays of different lengths fail at once). It is
//! *not* domain consistent on the whole constraint by itself: that also needs all-different
//! on `xs` (`xs` must be a permutation). At the fixpoint the two domain graphs are transposes
//! of each other, so a domain-consistent all-different on `xs` makes the conjunction domain
//! consistent; [`Model::inverse`](crate::Model::inverse) posts both.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | any domain change | domain (channelling) | O(n²) per run, over the values left |

use crate::propagator::Condition;
use crate::propagator::{Conflict, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// `xs[i] = y_base + j ⇔ ys[j] = x_base + i` (see the module docs).
#[derive(Clone, Debug)]
pub struct Inverse {
    xs: Vec<VarId>,
    ys: Vec<VarId>,
    x_base: i32,
    y_base: i32,
}

impl Inverse {
    /// `xs` indexed from `x_base`, `ys` indexed from `y_base` (MiniZinc's index sets).
    pub fn new(xs: &[VarId], x_base: i32, ys: &[VarId], y_base: i32) -> Inverse {
        Inverse {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            x_base,
            y_base,
        }
    }
}

/// Keep in `from[i]` only the values `to_base + j` (with `j` a position of `to`) for which
/// `to[j]` still holds `from_base + i`. Returns an error when a domain empties.
fn channel(
    ctx: &mut Context<'_>,
    from: &[VarId],
    from_base: i32,
    to: &[VarId],
    to_base: i32,
) -> PropResult {
    for (i, &x) in from.iter().enumerate() {
        let back = from_base as i64 + i as i64;
        // Decide first, prune after: the closure of `retain` may not read the store.
        let supported: Vec<i32> = ctx
            .domain(x)
            .iter()
            .filter(|&v| {
                let j = v as i64 - to_base as i64;
                j >= 0 && (j as usize) < to.len() && ctx.domain(to[j as usize]).contains_wide(back)
            })
            .collect();
        if supported.len() as u32 != ctx.size(x) {
            ctx.retain(x, |v| supported.binary_search(&v).is_ok())?;
        }
    }
    Ok(())
}

impl Propagator for Inverse {
    fn name(&self) -> &'static str {
        "inverse"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        self.xs
            .iter()
            .chain(&self.ys)
            .map(|&x| Subscription::new(x, Condition::Domain))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Medium
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        if self.xs.len() != self.ys.len() {
            // Each array maps injectively into the other's positions: equal lengths.
            return Err(Conflict::new());
        }
        channel(ctx, &self.xs, self.x_base, &self.ys, self.y_base)?;
        channel(ctx, &self.ys, self.y_base, &self.xs, self.x_base)?;
        // Every variable fixed: the two passes have checked each pair, nothing is left to do.
        if self.xs.iter().chain(&self.ys).all(|&x| ctx.is_fixed(x)) {
            ctx.set_entailed();
        }
        Ok(())
    }
    fn idempotent(&self) -> bool {
        true
    }
}
