//! # Rung 4 of the ladder: a whole constraint solver in one file
//!
//! The ideas of a real CP solver, and nothing else (after MiniCP's `tinycsp`):
//!
//! * **variables with domains**: a domain is the set of values still possible;
//! * **constraints that propagate**: each one removes the values it can prove impossible
//!   (here only `x ≠ y + c`, enough for n-queens);
//! * **propagation to a fixpoint**: run every constraint again and again until none of them
//!   changes anything — one removal may enable another, far from where it started;
//! * **search by binary decisions**: take the first open variable `x` and its smallest value
//!   `v`; try `x = v`, and when that subtree is done, `x ≠ v`. Each branch is a *node*. Going
//!   back restores a copy of the domains taken before the branch.
//!
//! The engine (`ladder_5_engine`) does exactly this, made fast: domains as bitsets, a trail
//! instead of copies, a queue that wakes only the constraints whose variables changed.
//!
//! `cargo run --release -p engine --example ladder_4_fixpoint -- 8`

/// The values still possible for each variable: `domains[x][v]`.
type Domains = Vec<Vec<bool>>;

/// The node has no solution.
#[derive(Debug)]
pub(crate) struct Inconsistency;

/// `x ≠ y + c`.
#[derive(Debug)]
pub(crate) struct NotEqual {
    x: usize,
    y: usize,
    c: i64,
}

impl NotEqual {
    /// Remove what this constraint forbids; say whether anything changed.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Inconsistency> {
        let mut changed = false;
        if let Some(v) = fixed(&d[self.x]) {
            changed |= remove(&mut d[self.y], v as i64 - self.c)?;
        }
        if let Some(w) = fixed(&d[self.y]) {
            changed |= remove(&mut d[self.x], w as i64 + self.c)?;
        }
        Ok(changed)
    }
}

/// The value of a domain with one value left.
fn fixed(domain: &[bool]) -> Option<usize> {
    let mut values = (0..domain.len()).filter(|&v| domain[v]);
    match (values.next(), values.next()) {
        (Some(v), None) => Some(v),
        _ => None,
    }
}

/// Remove `v` (if it is a value of the domain); an emptied domain is an inconsistency.
fn remove(domain: &mut [bool], v: i64) -> Result<bool, Inconsistency> {
    if v < 0 || v >= domain.len() as i64 || !domain[v as usize] {
        return Ok(false);
    }
    domain[v as usize] = false;
    if domain.contains(&true) {
        Ok(true)
    } else {
        Err(Inconsistency)
    }
}

/// Run every constraint until none changes anything.
fn fix_point(constraints: &[NotEqual], d: &mut Domains) -> Result<(), Inconsistency> {
    let mut changed = true;
    while changed {
        changed = false;
        for c in constraints {
            changed |= c.propagate(d)?;
        }
    }
    Ok(())
}

/// Depth-first search with binary decisions; counts solutions and nodes.
fn dfs(constraints: &[NotEqual], d: Domains, solutions: &mut u64, nodes: &mut u64) {
    let Some(x) = (0..d.len()).find(|&x| fixed(&d[x]).is_none()) else {
        *solutions += 1;
        return;
    };
    let v = d[x]
        .iter()
        .position(|&b| b)
        .expect("an open domain has values");
    // Left: x = v.
    *nodes += 1;
    let mut left = d.clone();
    left[x] = (0..left[x].len()).map(|w| w == v).collect();
    if fix_point(constraints, &mut left).is_ok() {
        dfs(constraints, left, solutions, nodes);
    }
    // Right: x ≠ v.
    *nodes += 1;
    let mut right = d;
    if remove(&mut right[x], v as i64).is_ok() && fix_point(constraints, &mut right).is_ok() {
        dfs(constraints, right, solutions, nodes);
    }
}

/// Solutions and nodes (branches) of n-queens.
pub(crate) fn count(n: usize) -> (u64, u64) {
    // q[i] ≠ q[j], q[i] ≠ q[j] + (j - i), q[i] ≠ q[j] - (j - i) for every pair of columns.
    let mut constraints = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let gap = (j - i) as i64;
            for c in [0, gap, -gap] {
                constraints.push(NotEqual { x: i, y: j, c });
            }
        }
    }
    let (mut solutions, mut nodes) = (0, 0);
    let mut root = vec![vec![true; n]; n];
    if fix_point(&constraints, &mut root).is_ok() {
        dfs(&constraints, root, &mut solutions, &mut nodes);
    }
    (solutions, nodes)
}

#[allow(dead_code)]
fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let (solutions, nodes) = count(n);
    println!("{n}-queens, propagation to a fixpoint: {solutions} solutions, {nodes} nodes");
}
