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
//!
//! **Explanations** (learning): a value `y_base + j` leaves `xs[i]` because `ys[j]` has lost
//! `x_base + i`, so the reason is that one channelling atom `[ys[j] ≠ x_base + i]` (none
//! when `j` is no position of `ys`). A failure is one variable all of whose values lost
//! their partner: its domain and those atoms.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::Condition;
use crate::propagator::{Conflict, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::split_atom;
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

    /// The channelling atoms of the removed values (see the module docs).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.xs.len() != self.ys.len() {
            return true; // the constraint alone is false
        }
        let vars: Vec<VarId> = self.xs.iter().chain(&self.ys).copied().collect();
        let Some(p) = vars.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[p], reason) else {
            return false;
        };
        needed
            .iter()
            .all(|&v| self.partner_gone(inputs, atom.var(), v, reason))
    }

    /// Unequal lengths (the constraint alone), or a variable none of whose values keeps its
    /// partner.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.xs.len() != self.ys.len() {
            return true;
        }
        let vars: Vec<VarId> = self.xs.iter().chain(&self.ys).copied().collect();
        for (p, &x) in vars.iter().enumerate() {
            let mark = reason.len();
            if inputs[p].size() <= 256 {
                Atom::describe(x, &inputs[p], reason);
                if inputs[p]
                    .iter()
                    .all(|v| self.partner_gone(inputs, x, v, reason))
                {
                    return true;
                }
            }
            reason.truncate(mark);
        }
        false
    }
}

impl Inverse {
    /// Push why variable `x` may not take `v`: at some position of `x`, `v` names no
    /// position of the other array, or the variable there has lost the way back (an atom
    /// that holds in the inputs). `false` if no position of `x` says so.
    fn partner_gone(&self, inputs: &[Domain], x: VarId, v: i32, reason: &mut Vec<Atom>) -> bool {
        let n = self.xs.len();
        let sides = [
            (&self.xs, self.x_base, &self.ys, self.y_base, n),
            (&self.ys, self.y_base, &self.xs, self.x_base, 0),
        ];
        for (from, from_base, to, to_base, to_offset) in sides {
            for i in (0..from.len()).filter(|&i| from[i] == x) {
                let j = v as i64 - to_base as i64;
                if j < 0 || j as usize >= to.len() {
                    return true;
                }
                let Ok(back) = i32::try_from(from_base as i64 + i as i64) else {
                    return true; // no value of `to[j]` can name position i
                };
                let gone = Atom::NotEqual(to[j as usize], back);
                if gone.holds_in(&inputs[to_offset + j as usize]) {
                    reason.push(gone);
                    return true;
                }
            }
        }
        false
    }
}
