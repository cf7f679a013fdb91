//! # Distinct sum: all different and adding up to a total (the Kakuro run)
//!
//! **Enforces:** `all-different(x₁, …, xₙ) ∧ x₁ + … + xₙ = total`, as one constraint. Posting
//! the two halves separately loses information: `x, y ∈ 1..9` with `x ≠ y` and `x + y = 4`
//! leaves `2` in the domains (2 + 2 = 4 passes the sum, 2 ≠ ... passes the all-different
//! while the other is free), but together only `{1, 3}` makes 4. A Kakuro solver by hand
//! knows these "magic blocks" by heart: 3 in two cells is {1, 2}, 45 in nine is 1..9.
//!
//! **Algorithm: dynamic programming over sets of values.** Let `U` be the values still in
//! some domain (the digits, at most 16 of them here). Go through the variables in order:
//!
//! * forward, `reach[S]` = the first `|S|` variables can take exactly the values of the set
//!   `S`, all different (`reach[S]` is true if some `v ∈ S` is in the domain of variable
//!   `|S| - 1` and `reach[S \ {v}]`);
//! * backward, `finish[S]` = the remaining variables can take values outside `S` so that
//!   the final set adds up to `total` (for `|S| = n`: `sum(S) = total`);
//! * value `v` of variable `k` is **supported** exactly when some set `S` of `k` values has
//!   `reach[S]`, `v ∉ S`, and `finish[S ∪ {v}]`.
//!
//! Every value left is in a solution, every value removed is in none: **domain
//! consistency** for the conjunction. One run is a fixpoint (idempotent).
//!
//! Worked example: two cells, total 4, `x ∈ 1..3`, `y ∈ 1..3`. Sets of two values adding to
//! 4: `{1, 3}` only. `reach[{1}] = reach[{2}] = reach[{3}] = true`; `finish[{1}]` (y takes
//! 3) and `finish[{3}]` are true, `finish[{2}]` is false. So `x ∈ {1, 3}`, likewise `y`.
//!
//! **Wakes on:** any domain change. **Cost:** O(2^|U| · |U|) per run, with the work only on
//! sets of at most `n` values: for Kakuro digits at most 512 sets. No allocation after the
//! first run. With more than 16 distinct values the propagator only checks (fails when all
//! variables are fixed and the constraint is false); for wide domains post
//! `all_different` and `sum_equals` instead.
//!
//! There is no paper to cite for this particular code; the same idea (precomputed or
//! dynamic-programmed digit sets for "sum of distinct digits") is folklore among Kakuro
//! solvers, and Régin's "Generalized arc consistency for global cardinality constraint"
//! framework covers the general problem. Overflow: values are `i32`, sums are `i64`.
//!
//! **Reference** (`propagate_from_scratch`): the run itself on a copy of the scratch buffers;
//! the run keeps nothing between runs (every buffer is rewritten before it is read).

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::{explain_by_supports, unsupported_reason};
use crate::store::VarId;

/// The largest number of distinct values the dynamic programme handles (2^16 sets).
pub const MAX_DISTINCT_VALUES: usize = 16;

#[derive(Clone, Debug)]
pub struct DistinctSum {
    xs: Vec<VarId>,
    total: i64,
    // Scratch, reused by every run.
    /// The distinct values in the domains, sorted: bit `p` of a set stands for `values[p]`.
    values: Vec<i32>,
    /// The domain of each variable as a set of value positions.
    domain_set: Vec<u32>,
    /// The values of each variable found to be supported.
    support: Vec<u32>,
    reach: Vec<bool>,
    finish: Vec<bool>,
    sum_of: Vec<i64>,
}

impl DistinctSum {
    pub fn new(xs: &[VarId], total: i64) -> DistinctSum {
        DistinctSum {
            xs: xs.to_vec(),
            total,
            values: Vec::new(),
            domain_set: vec![0; xs.len()],
            support: vec![0; xs.len()],
            reach: Vec::new(),
            finish: Vec::new(),
            sum_of: Vec::new(),
        }
    }

    /// More than `MAX_DISTINCT_VALUES` values: fail only on a fixed, false assignment.
    /// (Uses the `values` scratch vector, so no allocation either.)
    fn check_only(&mut self, ctx: &Context<'_>) -> PropResult {
        if self.xs.iter().all(|&x| ctx.is_fixed(x)) {
            self.values.clear();
            self.values.extend(self.xs.iter().map(|&x| ctx.value(x)));
            let sum: i64 = self.values.iter().map(|&v| v as i64).sum();
            self.values.sort_unstable();
            if sum != self.total || self.values.windows(2).any(|w| w[0] == w[1]) {
                return Err(crate::Conflict::new());
            }
        }
        Ok(())
    }
}

impl DistinctSum {
    /// Are the values of `t` distinct, and do they add up to the total?
    fn holds(&self, t: &[i32]) -> bool {
        let distinct = (0..t.len()).all(|i| (0..i).all(|j| t[i] != t[j]));
        distinct && t.iter().map(|&v| v as i64).sum::<i64>() == self.total
    }
}

impl Propagator for DistinctSum {
    fn name(&self) -> &'static str {
        "distinct_sum"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Domain)
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// No distinct values of the others complete the total: their bounds and the missing
    /// values that matter (`reasons::unsupported_reason`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        explain_by_supports(&self.xs, inputs, &|t| self.holds(t), atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        unsupported_reason(&self.xs, inputs, &|t| self.holds(t), None, reason)
    }
    /// The reference: the same dynamic programme on a copy of the scratch buffers. `propagate`
    /// is stateless already (every buffer is rewritten before it is read, every run), so the
    /// copy only lends it writable scratch.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        self.clone().propagate(ctx)
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.xs.len();
        // The distinct values still possible.
        self.values.clear();
        for k in 0..n {
            for v in ctx.domain(self.xs[k]).iter() {
                if let Err(p) = self.values.binary_search(&v) {
                    if self.values.len() == MAX_DISTINCT_VALUES {
                        return self.check_only(ctx);
                    }
                    self.values.insert(p, v);
                }
            }
        }
        let m = self.values.len();
        if n > m {
            return Err(crate::Conflict::new()); // pigeonhole: not enough values
        }
        for (k, &x) in self.xs.iter().enumerate() {
            let values = &self.values;
            self.domain_set[k] = ctx
                .domain(x)
                .iter()
                .map(|v| 1u32 << values.binary_search(&v).expect("collected"))
                .fold(0, |a, b| a | b);
        }
        let sets = 1usize << m;
        self.reach.clear();
        self.reach.resize(sets, false);
        self.finish.clear();
        self.finish.resize(sets, false);
        self.sum_of.clear();
        self.sum_of.resize(sets, 0);

        // Forward: which sets can the first |S| variables take?
        self.reach[0] = true;
        for s in 1..sets {
            let low = s.trailing_zeros() as usize;
            self.sum_of[s] = self.sum_of[s & (s - 1)] + self.values[low] as i64;
            let k = s.count_ones() as usize;
            if k > n {
                continue;
            }
            let mut candidates = s as u32 & self.domain_set[k - 1];
            while candidates != 0 {
                let bit = candidates & candidates.wrapping_neg();
                candidates ^= bit;
                if self.reach[s ^ bit as usize] {
                    self.reach[s] = true;
                    break;
                }
            }
        }

        // Backward: which sets can be completed to the total? And the supports on the way.
        self.support.iter_mut().for_each(|s| *s = 0);
        for s in (0..sets).rev() {
            let k = s.count_ones() as usize;
            if k > n {
                continue;
            }
            if k == n {
                self.finish[s] = self.sum_of[s] == self.total;
                continue;
            }
            let mut candidates = self.domain_set[k] & !(s as u32);
            while candidates != 0 {
                let bit = candidates & candidates.wrapping_neg();
                candidates ^= bit;
                if self.finish[s | bit as usize] {
                    self.finish[s] = true;
                    if self.reach[s] {
                        self.support[k] |= bit;
                    } else {
                        break; // no support to record from an unreachable set
                    }
                }
            }
        }
        if !self.finish[0] {
            return Err(crate::Conflict::new());
        }
        if n == 0 {
            return Ok(());
        }

        // Keep the supported values: as one word-parallel intersection when the values
        // span at most 64 (the digits), else value by value.
        let base = self.values[0];
        let narrow = self.values[m - 1] as i64 - base as i64 <= 63;
        for (k, &x) in self.xs.iter().enumerate() {
            let sup = self.support[k];
            if sup == self.domain_set[k] {
                continue;
            }
            if narrow {
                let mut mask = 0u64;
                let mut bits = sup;
                while bits != 0 {
                    let p = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    mask |= 1u64 << (self.values[p] - base);
                }
                ctx.intersect_mask(x, base, mask)?;
            } else {
                let values = &self.values;
                ctx.retain(x, |v| {
                    values.binary_search(&v).is_ok_and(|p| sup & (1 << p) != 0)
                })?;
            }
        }
        Ok(())
    }
}
