//! # Diffn: rectangles that never overlap, by pairwise reasoning
//!
//! `diffn(x, y, dx, dy)`: rectangle `i` at `(x[i], y[i])` with sizes `dx[i]`, `dy[i]` (all
//! variables). For every pair `i < j`, one of the four relative positions holds:
//!
//! ```text
//! x[i] + dx[i] ≤ x[j]   (i left of j)      x[j] + dx[j] ≤ x[i]   (i right of j)
//! y[i] + dy[i] ≤ y[j]   (i below j)        y[j] + dy[j] ≤ y[i]   (i above j)
//! ```
//!
//! This is MiniZinc's `fzn_diffn`, read literally: it is **strict**, a rectangle with a zero
//! size is a segment or a point that still may not lie inside another rectangle. The
//! **non-strict** form (`fzn_diffn_nonstrict`) adds four more ways out for the pair: any of
//! `dx[i]`, `dy[i]`, `dx[j]`, `dy[j]` is 0 (a rectangle with no area goes anywhere). Sizes are
//! normally non-negative; the propagator does not assume it and enforces the formula as
//! written, whatever the signs.
//!
//! **The pairwise rule** (as Gecode's `int/no-overlap`, Schulte et al.): for each pair, a
//! position `a + da ≤ b` is still possible when `min(a) + min(da) ≤ max(b)`, a zero size when
//! the size's domain holds 0. None possible: fail. Exactly one possible: enforce it on the
//! bounds, with the smallest size, as a linear inequality does:
//!
//! ```text
//! b ≥ min(a) + min(da)      a ≤ max(b) − min(da)      da ≤ max(b) − min(a)
//! ```
//!
//! (the last one shrinks the size's upper bound), or fix the size to 0.
//!
//! **The hole rule** (Gecode's `IntDim::nooverlap`): when the ways left are the two along
//! one axis, `x[i] + dx[i] ≤ x[j] ∨ x[j] + dx[j] ≤ x[i]` (the rectangles already overlap on
//! the other axis whatever happens), the pair is a disjunctive pair of tasks on that axis,
//! and `x[i]` loses every value `v` for which neither holds:
//!
//! ```text
//! v + min(dx[i]) > max(x[j])   and   min(x[j]) + min(dx[j]) > v
//! ```
//!
//! — `i` would cover part of the compulsory part `[max x[j], min x[j] + min dx[j])` of `j`.
//! Those values lie in the middle of the domain, so this removes a hole, which the bounds
//! of a decomposition never do; the same for `x[j]`. Put together: for each pair and each
//! origin, a value goes when no way of the pair holds with it, judged on the bounds of the
//! other variables.
//!
//! Each run goes once over the pairs in order, reading the domains as they are at that
//! moment; a pair changed by a later pair is seen by the next run (the engine runs the
//! propagator again, since it does not declare itself idempotent).
//!
//! **What it sees, what it misses.** The pairwise rule alone is exactly what MiniZinc's
//! decomposition (one reified `≤` per position and a clause per pair) propagates; the hole
//! rule is what it adds. One propagator, no variables of its own, where the decomposition
//! has `4·n(n−1)/2` booleans and `n(n−1)/2` clauses. The rules subsume the
//! compulsory parts rectangle by rectangle: two rectangles whose compulsory parts
//! `[max x, min x + min dx) × [max y, min y + min dy)` meet have no way left, and a rectangle
//! is kept out of the compulsory part of another. They do not reason about three or more
//! rectangles at once: Beldiceanu & Carlsson's sweep ("Sweep as a generic pruning technique
//! applied to the non-overlapping rectangles constraint", CP 2001) and energetic reasoning
//! are stronger and not implemented. What covers part of that ground: `Model::diffn`, when
//! the sizes are constants, also posts the projections of the rectangles on each axis as a
//! `cumulative` or `disjunctive` (see `model/scheduling.rs`), as Gecode's FlatZinc front end
//! does (measured on the `filters` family in docs/PERFORMANCE.md).
//!
//! **Consistency**: checking (once everything is fixed each pair is decided exactly), plus
//! the pairwise rule and the hole rule.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | bounds of positions and sizes (any removal of a size in the non-strict form) | checking + pairwise rule + hole rule | O(n²) per run, plus the holes |
//!
//! **Explanations** (learning): the pairs replayed on a graph of derived bounds, each rule
//! naming the bounds it read (`diffn_explain.rs`).

use super::diffn_explain::replay;
use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{
    Condition, Conflict, Context, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::scheduling::{set_max_wide, set_min_wide};
use crate::store::VarId;

/// One rectangle: origin `(x, y)`, width `dx`, height `dy`.
#[derive(Clone, Copy, Debug)]
struct Rectangle {
    x: VarId,
    y: VarId,
    dx: VarId,
    dy: VarId,
}

/// One way for a pair of rectangles not to overlap.
#[derive(Clone, Copy, Debug)]
enum Way {
    /// `start + size ≤ other`: one rectangle ends, along one axis, where the other starts.
    Before {
        start: VarId,
        size: VarId,
        other: VarId,
    },
    /// `size = 0` (non-strict form only): a rectangle with no area.
    NoArea(VarId),
}

impl Way {
    /// Can this way still hold, judged on the bounds (and on the presence of 0 for a size)?
    fn possible(self, ctx: &Context<'_>) -> bool {
        match self {
            Way::Before { start, size, other } => {
                ctx.min(start) as i64 + ctx.min(size) as i64 <= ctx.max(other) as i64
            }
            Way::NoArea(size) => ctx.contains(size, 0),
        }
    }

    /// Make this way hold: bounds propagation of `start + size ≤ other`, or `size = 0`.
    fn enforce(self, ctx: &mut Context<'_>) -> PropResult {
        match self {
            Way::Before { start, size, other } => {
                set_min_wide(ctx, other, ctx.min(start) as i64 + ctx.min(size) as i64)?;
                set_max_wide(ctx, start, ctx.max(other) as i64 - ctx.min(size) as i64)?;
                set_max_wide(ctx, size, ctx.max(other) as i64 - ctx.min(start) as i64)?;
            }
            Way::NoArea(size) => {
                let _ = ctx.fix(size, 0)?;
            }
        }
        Ok(())
    }
}

/// The hole rule (see the module docs): on one axis, `a + da ≤ b ∨ b + db ≤ a`; each origin
/// loses the values that would make it cover part of the other's compulsory part.
fn disjunctive_pair(ctx: &mut Context<'_>, a: VarId, da: VarId, b: VarId, db: VarId) -> PropResult {
    remove_between(
        ctx,
        a,
        ctx.max(b) as i64 - ctx.min(da) as i64 + 1,
        ctx.min(b) as i64 + ctx.min(db) as i64 - 1,
    )?;
    remove_between(
        ctx,
        b,
        ctx.max(a) as i64 - ctx.min(db) as i64 + 1,
        ctx.min(a) as i64 + ctx.min(da) as i64 - 1,
    )
}

/// Remove the values `lo..=hi` of `v`: a bound moves when the interval covers one end, else
/// a hole is cut.
fn remove_between(ctx: &mut Context<'_>, v: VarId, lo: i64, hi: i64) -> PropResult {
    let (min, max) = (ctx.min(v) as i64, ctx.max(v) as i64);
    if lo > hi || hi < min || lo > max {
        return Ok(());
    }
    if lo <= min {
        set_min_wide(ctx, v, hi + 1)
    } else if hi >= max {
        set_max_wide(ctx, v, lo - 1)
    } else {
        // min < lo ≤ hi < max: both ends are values of an i32 domain.
        let (lo, hi) = (lo as i32, hi as i32);
        let _ = ctx.retain(v, |value| value < lo || value > hi)?;
        Ok(())
    }
}

/// Rectangles that never overlap (see the module docs).
#[derive(Clone, Debug)]
pub struct Diffn {
    rectangles: Vec<Rectangle>,
    /// `false`: a rectangle with a zero size may lie anywhere (`diffn_nonstrict`).
    strict: bool,
    /// Run the hole rule (off to see what the pairwise rule alone, the decomposition's
    /// strength, does).
    hole_rule: bool,
}

impl Diffn {
    /// Rectangle `i` at `(x[i], y[i])`, of width `dx[i]` and height `dy[i]`; the four slices
    /// have one entry per rectangle. `strict` as in the module docs (`true` is MiniZinc's
    /// `diffn`, `false` its `diffn_nonstrict`).
    pub fn new(x: &[VarId], y: &[VarId], dx: &[VarId], dy: &[VarId], strict: bool) -> Diffn {
        assert!(
            x.len() == y.len() && x.len() == dx.len() && x.len() == dy.len(),
            "diffn: one x, y, dx and dy per rectangle"
        );
        Diffn {
            rectangles: (0..x.len())
                .map(|i| Rectangle {
                    x: x[i],
                    y: y[i],
                    dx: dx[i],
                    dy: dy[i],
                })
                .collect(),
            strict,
            hole_rule: true,
        }
    }

    /// The pairwise rule alone, without the hole rule: exactly MiniZinc's decomposition (for
    /// measurements and tests).
    pub fn without_hole_rule(mut self) -> Diffn {
        self.hole_rule = false;
        self
    }

    /// The ways for rectangles `p` and `q` not to overlap: the four relative positions, and
    /// in the non-strict form the four sizes that may be 0. Returns them and how many there
    /// are.
    fn ways(&self, p: Rectangle, q: Rectangle) -> ([Way; 8], usize) {
        let before = |start, size, other| Way::Before { start, size, other };
        let ways = [
            before(p.x, p.dx, q.x),
            before(q.x, q.dx, p.x),
            before(p.y, p.dy, q.y),
            before(q.y, q.dy, p.y),
            Way::NoArea(p.dx),
            Way::NoArea(p.dy),
            Way::NoArea(q.dx),
            Way::NoArea(q.dy),
        ];
        (ways, if self.strict { 4 } else { 8 })
    }
}

impl Propagator for Diffn {
    fn name(&self) -> &'static str {
        "diffn"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        // The non-strict form asks whether a size can be 0, which a removal inside the
        // domain can answer.
        let size_condition = if self.strict {
            Condition::Bounds
        } else {
            Condition::Domain
        };
        self.rectangles
            .iter()
            .flat_map(|r| {
                [
                    Subscription::new(r.x, Condition::Bounds),
                    Subscription::new(r.y, Condition::Bounds),
                    Subscription::new(r.dx, size_condition),
                    Subscription::new(r.dy, size_condition),
                ]
            })
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        // Entailed if everything was fixed before this run and every pair holds.
        let all_fixed = self
            .rectangles
            .iter()
            .all(|r| [r.x, r.y, r.dx, r.dy].iter().all(|&v| ctx.is_fixed(v)));
        for (k, &p) in self.rectangles.iter().enumerate() {
            for &q in &self.rectangles[k + 1..] {
                let (ways, count) = self.ways(p, q);
                // Bit k set: way k is possible.
                let possible = (0..count)
                    .filter(|&k| ways[k].possible(ctx))
                    .fold(0u8, |set, k| set | 1 << k);
                match possible.count_ones() {
                    0 => return Err(Conflict::new()),
                    1 => ways[possible.trailing_zeros() as usize].enforce(ctx)?,
                    _ if self.hole_rule && possible == 0b0011 => {
                        disjunctive_pair(ctx, p.x, p.dx, q.x, q.dx)?
                    }
                    _ if self.hole_rule && possible == 0b1100 => {
                        disjunctive_pair(ctx, p.y, p.dy, q.y, q.dy)?
                    }
                    _ => {}
                }
            }
        }
        if all_fixed {
            ctx.set_entailed();
        }
        Ok(())
    }

    /// The replayed pairs' reason for `atom` (see `diffn_explain.rs`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        replay(&self.variables(), inputs, self.strict, self.hole_rule).explain(atom, reason)
    }

    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        replay(&self.variables(), inputs, self.strict, self.hole_rule).explain_failure(reason)
    }
}

impl Diffn {
    /// The subscriptions' variables: `x, y, dx, dy` of each rectangle in turn.
    fn variables(&self) -> Vec<VarId> {
        (self.rectangles.iter())
            .flat_map(|r| [r.x, r.y, r.dx, r.dy])
            .collect()
    }
}
