//! # All-different, the reference lane: three textbook algorithms, written plainly
//!
//! `alldifferent(x₁ + o₁, …, xₙ + oₙ)`: no two shifted variables take the same value. This
//! file holds the three classic ways of propagating it, each as a reader would write it from
//! the paper, with plain vectors and no bit tricks. It is the oracle that every faster
//! all-different in `alldiff/` is tested against (`engine/tests/alldiff_reference.rs`), and
//! the worked example of `docs/propagators/alldiff-*.md`.
//!
//! | level | function | removes |
//! |---|---|---|
//! | value | [`forward_checking`] | the value of each fixed variable from the others |
//! | bounds | [`hall_intervals`] | bounds that no assignment supports (bounds(Z) consistency) |
//! | domain | [`regin`] | every value that no assignment supports (domain consistency) |
//!
//! Each function reads the domains, prunes, and remembers nothing: [`AllDifferentReference`]
//! wraps them as a propagator whose only algorithm is `propagate_from_scratch`. Two of the
//! rules, one round of [`forward_check`] and the [`pigeonhole`] rule, are also the stateless
//! references (`propagate_from_scratch`) of the fast propagators in this folder.

use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;
use crate::Conflict;
use std::collections::BTreeMap;

use super::AllDiffLevel;

/// One round of forward checking on `xs[i] + offsets[i]`: for every fixed variable, its
/// shown value is removed from every other (a second variable fixed to the same shown value
/// empties and fails). Returns whether a domain changed.
pub fn forward_check(
    ctx: &mut Context<'_>,
    xs: &[VarId],
    offsets: &[i32],
) -> Result<bool, Conflict> {
    let mut changed = false;
    for (i, &x) in xs.iter().enumerate() {
        if !ctx.is_fixed(x) {
            continue;
        }
        let shown = ctx.value(x) as i64 + offsets[i] as i64;
        for (j, &y) in xs.iter().enumerate() {
            if j == i {
                continue;
            }
            let v = shown - offsets[j] as i64;
            if v >= i32::MIN as i64 && v <= i32::MAX as i64 {
                changed |= ctx.remove(y, v as i32)?;
            }
        }
    }
    Ok(changed)
}

/// **Forward checking** (value level): [`forward_check`] until nothing changes. O(n²) per
/// round.
pub fn forward_checking(ctx: &mut Context<'_>, xs: &[VarId], offsets: &[i32]) -> PropResult {
    while forward_check(ctx, xs, offsets)? {}
    Ok(())
}

/// The pigeonhole rule on `xs[i] + offset` (one offset for all): the `n` variables must
/// show `n` different values, so fewer values in the union of their domains is a failure,
/// and with exactly `n`, a value held by one variable only goes to it ("hidden singles").
/// Returns whether a domain changed.
pub fn pigeonhole(ctx: &mut Context<'_>, xs: &[VarId], offset: i32) -> Result<bool, Conflict> {
    let mut holders: BTreeMap<i64, Vec<VarId>> = BTreeMap::new();
    for &x in xs {
        for v in ctx.domain(x).iter() {
            holders.entry(v as i64 + offset as i64).or_default().push(x);
        }
    }
    if holders.len() < xs.len() {
        return Err(Conflict::new());
    }
    let mut changed = false;
    if holders.len() == xs.len() {
        for (shown, held_by) in holders {
            if let [x] = held_by[..] {
                changed |= ctx.fix(x, (shown - offset as i64) as i32)?;
            }
        }
    }
    Ok(changed)
}

/// **Hall intervals** (bounds level; Puget 1998, Leconte 1996). An interval `[a, b]` of
/// values is a *Hall interval* when exactly `b - a + 1` variables have their whole range
/// inside it: those variables use up every value of it, so every other variable leaves it —
/// a bound inside `[a, b]` moves past it. More than `b - a + 1` such variables: a conflict.
/// This plain version tries every pair (a min, a max) and repeats until nothing changes:
/// O(n³) per round, where López-Ortiz et al. (2003) need O(n log n).
pub fn hall_intervals(ctx: &mut Context<'_>, xs: &[VarId], offsets: &[i32]) -> PropResult {
    let n = xs.len();
    loop {
        let lo: Vec<i64> = (0..n)
            .map(|i| ctx.min(xs[i]) as i64 + offsets[i] as i64)
            .collect();
        let hi: Vec<i64> = (0..n)
            .map(|i| ctx.max(xs[i]) as i64 + offsets[i] as i64)
            .collect();
        let mut changed = false;
        for &a in &lo {
            for &b in &hi {
                if a > b {
                    continue;
                }
                let inside: Vec<bool> = (0..n).map(|i| a <= lo[i] && hi[i] <= b).collect();
                let count = inside.iter().filter(|&&k| k).count() as i64;
                if count > b - a + 1 {
                    return Err(Conflict::new());
                }
                if count < b - a + 1 {
                    continue;
                }
                for i in (0..n).filter(|&i| !inside[i]) {
                    let (x, o) = (xs[i], offsets[i] as i64);
                    let (min, max) = (ctx.min(x) as i64 + o, ctx.max(x) as i64 + o);
                    if a <= min && min <= b {
                        changed |= ctx.set_min(x, clamp(b + 1 - o))?;
                    }
                    if a <= max && max <= b {
                        changed |= ctx.set_max(x, clamp(a - 1 - o))?;
                    }
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// **Régin's matching** (domain level; J.-C. Régin, AAAI 1994). The value graph links each
/// variable to the (shifted) values of its domain. The constraint has a solution exactly
/// when a matching covers every variable. Then an edge `x — v` belongs to some solution
/// exactly when it is in the matching, or on an alternating cycle, or on an alternating path
/// that starts at a value no variable is matched to. Orient matched edges value → variable
/// and the others variable → value: the cycles are inside strongly connected components
/// (Tarjan), the paths are what a search from the free values reaches backwards.
pub fn regin(ctx: &mut Context<'_>, xs: &[VarId], offsets: &[i32]) -> PropResult {
    let n = xs.len();
    // The value graph: `values` lists the shifted values, `adj[i]` the indices of variable
    // i's values.
    let mut values: Vec<i64> = Vec::new();
    for i in 0..n {
        for v in ctx.domain(xs[i]).iter() {
            values.push(v as i64 + offsets[i] as i64);
        }
    }
    values.sort_unstable();
    values.dedup();
    let adj: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            ctx.domain(xs[i])
                .iter()
                .map(|v| {
                    values
                        .binary_search(&(v as i64 + offsets[i] as i64))
                        .unwrap()
                })
                .collect()
        })
        .collect();
    // 1. A maximum matching by augmenting paths (Kuhn's algorithm: a DFS per variable).
    let mut var_of_value: Vec<Option<usize>> = vec![None; values.len()];
    for i in 0..n {
        let mut seen = vec![false; values.len()];
        if !augment(i, &adj, &mut var_of_value, &mut seen) {
            return Err(Conflict::new());
        }
    }
    // 2. The oriented graph on n + m vertices: variable i is vertex i, value k is n + k.
    let m = values.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n + m];
    for i in 0..n {
        for &k in &adj[i] {
            if var_of_value[k] == Some(i) {
                out[n + k].push(i);
            } else {
                out[i].push(n + k);
            }
        }
    }
    // 3. Edges on an even alternating path from a free value: walk backwards from the free
    //    values (a vertex that reaches a free value forwards).
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n + m];
    for (u, targets) in out.iter().enumerate() {
        for &w in targets {
            into[w].push(u);
        }
    }
    let mut reaches_free = vec![false; n + m];
    let mut stack: Vec<usize> = (0..m)
        .filter(|&k| var_of_value[k].is_none())
        .map(|k| n + k)
        .collect();
    for &s in &stack {
        reaches_free[s] = true;
    }
    while let Some(w) = stack.pop() {
        for &u in &into[w] {
            if !reaches_free[u] {
                reaches_free[u] = true;
                stack.push(u);
            }
        }
    }
    // 4. Alternating cycles: strongly connected components.
    let component = tarjan(&out);
    // 5. Keep an edge x — v when it is matched, or both ends are in one component, or v
    //    reaches a free value (then x → v → … → free value is an even alternating path).
    for i in 0..n {
        let o = offsets[i] as i64;
        let keep: Vec<i64> = adj[i]
            .iter()
            .filter(|&&k| {
                var_of_value[k] == Some(i)
                    || component[i] == component[n + k]
                    || reaches_free[n + k]
            })
            .map(|&k| values[k])
            .collect();
        ctx.retain(xs[i], |v| keep.binary_search(&(v as i64 + o)).is_ok())?;
    }
    Ok(())
}

/// Kuhn's step: find an augmenting path from variable `i`, flipping it into the matching.
fn augment(
    i: usize,
    adj: &[Vec<usize>],
    var_of_value: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for &k in &adj[i] {
        if seen[k] {
            continue;
        }
        seen[k] = true;
        let free_or_moved = match var_of_value[k] {
            None => true,
            Some(j) => augment(j, adj, var_of_value, seen),
        };
        if free_or_moved {
            var_of_value[k] = Some(i);
            return true;
        }
    }
    false
}

/// Tarjan's strongly connected components: the component number of every vertex.
fn tarjan(out: &[Vec<usize>]) -> Vec<usize> {
    struct Walk<'a> {
        out: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        component: Vec<usize>,
        next_index: usize,
        components: usize,
    }
    fn visit(w: &mut Walk<'_>, u: usize) {
        w.index[u] = Some(w.next_index);
        w.low[u] = w.next_index;
        w.next_index += 1;
        w.stack.push(u);
        w.on_stack[u] = true;
        for e in 0..w.out[u].len() {
            let t = w.out[u][e];
            match w.index[t] {
                None => {
                    visit(w, t);
                    w.low[u] = w.low[u].min(w.low[t]);
                }
                Some(ti) if w.on_stack[t] => w.low[u] = w.low[u].min(ti),
                Some(_) => {}
            }
        }
        if Some(w.low[u]) == w.index[u] {
            loop {
                let t = w.stack.pop().expect("u is on the stack");
                w.on_stack[t] = false;
                w.component[t] = w.components;
                if t == u {
                    break;
                }
            }
            w.components += 1;
        }
    }
    let v = out.len();
    let mut w = Walk {
        out,
        index: vec![None; v],
        low: vec![0; v],
        on_stack: vec![false; v],
        stack: Vec::new(),
        component: vec![0; v],
        next_index: 0,
        components: 0,
    };
    for u in 0..v {
        if w.index[u].is_none() {
            visit(&mut w, u);
        }
    }
    w.component
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The reference all-different as a propagator: the chosen textbook algorithm, run from
/// scratch every time. At the bounds level forward checking runs first, as the model's
/// bounds level posts it (so that a fixed value in the middle of a domain is removed too).
#[derive(Clone, Debug)]
pub struct AllDifferentReference {
    xs: Vec<VarId>,
    offsets: Vec<i32>,
    level: AllDiffLevel,
}

impl AllDifferentReference {
    /// All of `xs[i] + offsets[i]` different, propagated at `level`.
    pub fn new(xs: &[VarId], offsets: &[i32], level: AllDiffLevel) -> AllDifferentReference {
        assert_eq!(xs.len(), offsets.len());
        AllDifferentReference {
            xs: xs.to_vec(),
            offsets: offsets.to_vec(),
            level,
        }
    }
}

impl Propagator for AllDifferentReference {
    fn name(&self) -> &'static str {
        "alldiff_reference"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Domain)
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        match self.level {
            AllDiffLevel::Value => forward_checking(ctx, &self.xs, &self.offsets),
            AllDiffLevel::Bounds => {
                forward_checking(ctx, &self.xs, &self.offsets)?;
                hall_intervals(ctx, &self.xs, &self.offsets)
            }
            AllDiffLevel::Domain => regin(ctx, &self.xs, &self.offsets),
        }
    }
}
