//! # All-different, the reference lane: three textbook algorithms, written plainly
//!
//! `alldifferent(v₁, …, vₙ)`: no two views show the same value. A view (`view.rs`) is a
//! variable seen as `a·x + b`: the variable itself, `x + c` (the n-queens diagonals), `−x`
//! or `k·x`; every rule below reads and prunes views and never needs to know which. This
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
use crate::view::View;
use crate::Conflict;
use std::collections::BTreeMap;

use super::AllDiffLevel;

/// One round of forward checking: for every fixed view, its value is removed from every
/// other (a second view fixed to the same value empties and fails). Returns whether a domain
/// changed.
pub fn forward_check(ctx: &mut Context<'_>, views: &[View]) -> Result<bool, Conflict> {
    let mut changed = false;
    for (i, &x) in views.iter().enumerate() {
        if !x.is_fixed(ctx) {
            continue;
        }
        let shown = x.value(ctx);
        for (j, &y) in views.iter().enumerate() {
            if j != i {
                changed |= y.remove(ctx, shown)?;
            }
        }
    }
    Ok(changed)
}

/// **Forward checking** (value level): [`forward_check`] until nothing changes. O(n²) per
/// round.
pub fn forward_checking(ctx: &mut Context<'_>, views: &[View]) -> PropResult {
    while forward_check(ctx, views)? {}
    Ok(())
}

/// The pigeonhole rule: the `n` views must show `n` different values, so fewer values in
/// the union of what they show is a failure, and with exactly `n`, a value shown by one view
/// only goes to it ("hidden singles"). Returns whether a domain changed.
pub fn pigeonhole(ctx: &mut Context<'_>, views: &[View]) -> Result<bool, Conflict> {
    let mut holders: BTreeMap<i64, Vec<View>> = BTreeMap::new();
    for &x in views {
        for w in x.values(ctx) {
            holders.entry(w).or_default().push(x);
        }
    }
    if holders.len() < views.len() {
        return Err(Conflict::new());
    }
    let mut changed = false;
    if holders.len() == views.len() {
        for (shown, held_by) in holders {
            if let [x] = held_by[..] {
                changed |= x.fix(ctx, shown)?;
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
pub fn hall_intervals(ctx: &mut Context<'_>, views: &[View]) -> PropResult {
    let n = views.len();
    loop {
        let lo: Vec<i64> = views.iter().map(|x| x.min(ctx)).collect();
        let hi: Vec<i64> = views.iter().map(|x| x.max(ctx)).collect();
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
                    let x = views[i];
                    let (min, max) = (x.min(ctx), x.max(ctx));
                    if a <= min && min <= b {
                        changed |= x.set_min(ctx, b + 1)?;
                    }
                    if a <= max && max <= b {
                        changed |= x.set_max(ctx, a - 1)?;
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
/// view to the values it shows. The constraint has a solution exactly when a matching
/// covers every view. Then an edge `x — v` belongs to some solution
/// exactly when it is in the matching, or on an alternating cycle, or on an alternating path
/// that starts at a value no variable is matched to. Orient matched edges value → variable
/// and the others variable → value: the cycles are inside strongly connected components
/// (Tarjan), the paths are what a search from the free values reaches backwards.
pub fn regin(ctx: &mut Context<'_>, views: &[View]) -> PropResult {
    let n = views.len();
    // The value graph: `values` lists the values shown, `adj[i]` the indices of those view
    // i shows.
    let mut values: Vec<i64> = views.iter().flat_map(|x| x.values(ctx)).collect();
    values.sort_unstable();
    values.dedup();
    let adj: Vec<Vec<usize>> = (views.iter())
        .map(|x| {
            (x.values(ctx))
                .map(|w| values.binary_search(&w).unwrap())
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
        let mut keep: Vec<i64> = adj[i]
            .iter()
            .filter(|&&k| {
                var_of_value[k] == Some(i)
                    || component[i] == component[n + k]
                    || reaches_free[n + k]
            })
            .map(|&k| values[k])
            .collect();
        keep.sort_unstable(); // a negative scale lists its values downwards
        views[i].retain(ctx, |w| keep.binary_search(&w).is_ok())?;
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

/// The reference all-different as a propagator: the chosen textbook algorithm, run from
/// scratch every time. At the bounds level forward checking runs first, as the model's
/// bounds level posts it (so that a fixed value in the middle of a domain is removed too).
#[derive(Clone, Debug)]
pub struct AllDifferentReference {
    views: Vec<View>,
    level: AllDiffLevel,
}

impl AllDifferentReference {
    /// All of `views` different, propagated at `level`.
    pub fn new(views: &[View], level: AllDiffLevel) -> AllDifferentReference {
        AllDifferentReference {
            views: views.to_vec(),
            level,
        }
    }
}

impl Propagator for AllDifferentReference {
    fn name(&self) -> &'static str {
        "alldiff_reference"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        (self.views.iter())
            .map(|x| x.subscription(Condition::Domain))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        match self.level {
            AllDiffLevel::Value => forward_checking(ctx, &self.views),
            AllDiffLevel::Bounds => {
                forward_checking(ctx, &self.views)?;
                hall_intervals(ctx, &self.views)
            }
            AllDiffLevel::Domain => regin(ctx, &self.views),
        }
    }
}
