//! # All-different by Hall intervals (bounds consistency)
//!
//! **Enforces:** no two of the views `vᵢ` (`view.rs`: `xᵢ`, `xᵢ + c`, `−xᵢ`, …) are equal, and moves every bound that no solution
//! can use, looking at each domain as the interval `min..=max`: **bounds(Z) consistency**.
//! It does not look at holes inside the domains (that is `domain.rs`).
//!
//! **The idea: Hall intervals.** If `k` variables all live inside an interval of exactly `k`
//! values, they use up that interval between them, so every *other* variable must leave it.
//! Worked example: `x, y ∈ 1..2` and `z ∈ 1..3`. The interval `1..2` holds two values and
//! two variables: a Hall interval, so `z` must avoid it and `z = 3`. If `k` variables lived
//! in fewer than `k` values there would be no solution at all.
//!
//! **Algorithm** (A. López-Ortiz, C.-G. Quimper, J. Tromp, P. van Beek, "A fast and simple
//! algorithm for bounds consistency of the alldifferent constraint", IJCAI 2003). Sort the
//! variables by their upper bounds and give each distinct bound a rank. Scan the variables
//! by increasing max, placing each one in the leftmost free value at or after its min; a
//! union-find-like forest over the ranks (`t`, with path compression) finds that value
//! fast, and a second forest (`h`) remembers the Hall intervals found so far, so that a
//! variable whose min falls inside one jumps past it. One scan moves the lower bounds; the
//! mirror scan (by decreasing min) moves the upper bounds.
//!
//! A moved bound can land in a hole of the domain, and the real new bound then goes further,
//! which may create a new Hall interval: the run repeats the two scans until no bound moves,
//! so it is idempotent.
//!
//! **Wakes on:** bounds. **Cost:** O(n log n) per scan (the sorts; the scans themselves are
//! almost linear). No allocation: every array is kept in the struct.
//!
//! **Reference** (`propagate_from_scratch`): `reference::hall_intervals`, every candidate
//! interval tried plainly; the scans above are tested against it.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::alldiff::explain::HallReplay;
use crate::propagators::alldiff::reference;
use crate::view::View;

#[derive(Clone, Debug)]
pub struct AllDifferentBounds {
    views: Vec<View>,
    // Scratch, one entry per variable.
    lo: Vec<i64>,
    hi: Vec<i64>,
    new_lo: Vec<i64>,
    new_hi: Vec<i64>,
    min_sorted: Vec<usize>,
    max_sorted: Vec<usize>,
    min_rank: Vec<usize>,
    max_rank: Vec<usize>,
    // Scratch, one entry per distinct bound (at most 2n + 2).
    bounds: Vec<i64>,
    /// "Tree" links to the next rank with free room (the placement forest).
    t: Vec<isize>,
    /// Free values between rank `i - 1` and rank `i` (`filter_lower`).
    d: Vec<i64>,
    /// Hall interval links.
    h: Vec<isize>,
}

fn path_max(t: &[isize], mut i: isize) -> isize {
    while t[i as usize] > i {
        i = t[i as usize];
    }
    i
}

fn path_min(t: &[isize], mut i: isize) -> isize {
    while t[i as usize] < i {
        i = t[i as usize];
    }
    i
}

/// Point every link on the path `start → … → end` straight at `to` (path compression).
fn path_set(t: &mut [isize], start: isize, end: isize, to: isize) {
    let mut l = start;
    while l != end {
        let k = l;
        l = t[k as usize];
        t[k as usize] = to;
    }
}

impl AllDifferentBounds {
    /// All of `views` different, bounds consistent (for views of scale ±1; on others, sound).
    pub fn new(views: &[View]) -> AllDifferentBounds {
        let n = views.len();
        AllDifferentBounds {
            views: views.to_vec(),
            lo: vec![0; n],
            hi: vec![0; n],
            new_lo: vec![0; n],
            new_hi: vec![0; n],
            min_sorted: (0..n).collect(),
            max_sorted: (0..n).collect(),
            min_rank: vec![0; n],
            max_rank: vec![0; n],
            bounds: vec![0; 2 * n + 2],
            t: vec![0; 2 * n + 2],
            d: vec![0; 2 * n + 2],
            h: vec![0; 2 * n + 2],
        }
    }

    /// Sort by bounds and rank the distinct values of `lo` and `hi + 1`. Returns the number
    /// of distinct bounds `nb`; `bounds[0]` and `bounds[nb + 1]` are sentinels.
    fn rank_bounds(&mut self) -> usize {
        let n = self.views.len();
        let (lo, hi) = (&self.lo, &self.hi);
        self.min_sorted.sort_unstable_by_key(|&i| lo[i]);
        self.max_sorted.sort_unstable_by_key(|&i| hi[i]);
        let mut min = self.lo[self.min_sorted[0]];
        let mut max = self.hi[self.max_sorted[0]] + 1;
        let mut last = min - 2;
        let mut nb = 0;
        self.bounds[0] = last;
        let (mut i, mut j) = (0, 0);
        loop {
            if i < n && min <= max {
                if min != last {
                    nb += 1;
                    last = min;
                    self.bounds[nb] = min;
                }
                self.min_rank[self.min_sorted[i]] = nb;
                i += 1;
                if i < n {
                    min = self.lo[self.min_sorted[i]];
                }
            } else {
                if max != last {
                    nb += 1;
                    last = max;
                    self.bounds[nb] = max;
                }
                self.max_rank[self.max_sorted[j]] = nb;
                j += 1;
                if j == n {
                    break;
                }
                max = self.hi[self.max_sorted[j]] + 1;
            }
        }
        self.bounds[nb + 1] = self.bounds[nb] + 2;
        nb
    }

    /// Raise the lower bounds past the Hall intervals. `false` if there is no solution.
    fn filter_lower(&mut self, nb: usize) -> bool {
        let (t, d, h, b) = (&mut self.t, &mut self.d, &mut self.h, &self.bounds);
        for i in 1..=nb + 1 {
            t[i] = i as isize - 1;
            h[i] = i as isize - 1;
            d[i] = b[i] - b[i - 1];
        }
        for &v in &self.max_sorted {
            let x = self.min_rank[v] as isize;
            let y = self.max_rank[v] as isize;
            let mut z = path_max(t, x + 1);
            let j = t[z as usize];
            d[z as usize] -= 1;
            if d[z as usize] == 0 {
                t[z as usize] = z + 1;
                z = path_max(t, t[z as usize]);
                t[z as usize] = j;
            }
            path_set(t, x + 1, z, z);
            if d[z as usize] < b[z as usize] - b[y as usize] {
                return false; // more variables than values in b[y]..b[z]
            }
            if h[x as usize] > x {
                let w = path_max(h, h[x as usize]);
                self.new_lo[v] = b[w as usize];
                path_set(h, x, w, w);
            }
            if d[z as usize] == b[z as usize] - b[y as usize] {
                let start = h[y as usize];
                path_set(h, start, j - 1, y);
                h[y as usize] = j - 1;
            }
        }
        true
    }

    /// The mirror image: lower the upper bounds.
    fn filter_upper(&mut self, nb: usize) -> bool {
        let (t, d, h, b) = (&mut self.t, &mut self.d, &mut self.h, &self.bounds);
        for i in 0..=nb {
            t[i] = i as isize + 1;
            h[i] = i as isize + 1;
            d[i] = b[i + 1] - b[i];
        }
        for &v in self.min_sorted.iter().rev() {
            let x = self.max_rank[v] as isize;
            let y = self.min_rank[v] as isize;
            let mut z = path_min(t, x - 1);
            let j = t[z as usize];
            d[z as usize] -= 1;
            if d[z as usize] == 0 {
                t[z as usize] = z - 1;
                z = path_min(t, t[z as usize]);
                t[z as usize] = j;
            }
            path_set(t, x - 1, z, z);
            if d[z as usize] < b[y as usize] - b[z as usize] {
                return false;
            }
            if h[x as usize] < x {
                let w = path_min(h, h[x as usize]);
                self.new_hi[v] = b[w as usize] - 1;
                path_set(h, x, w, w);
            }
            if d[z as usize] == b[y as usize] - b[z as usize] {
                let start = h[y as usize];
                path_set(h, start, j + 1, y);
                h[y as usize] = j + 1;
            }
        }
        true
    }
}

impl Propagator for AllDifferentBounds {
    fn name(&self) -> &'static str {
        "alldiff_bounds"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        (self.views.iter())
            .map(|x| x.subscription(Condition::Bounds))
            .collect()
    }
    fn priority(&self) -> Priority {
        Priority::Medium
    }
    fn idempotent(&self) -> bool {
        true
    }
    /// The reference: Hall intervals found plainly (`reference::hall_intervals`: every pair
    /// of a min and a max, until nothing moves), with none of the scans' forests. Bounds(Z)
    /// consistency is one set of bounds, so both must reach the same.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        reference::hall_intervals(ctx, &self.views)
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    /// The Hall interval that pushed the bound: the bounds of the views inside it
    /// (`explain.rs`, replayed from the inputs).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        HallReplay::run(&self.views, inputs).is_some_and(|r| r.explain(atom, reason))
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        HallReplay::run(&self.views, inputs).is_some_and(|r| r.explain_failure(reason))
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if self.views.is_empty() {
            return Ok(());
        }
        loop {
            for (i, &x) in self.views.iter().enumerate() {
                self.lo[i] = x.min(ctx);
                self.hi[i] = x.max(ctx);
            }
            self.new_lo.copy_from_slice(&self.lo);
            self.new_hi.copy_from_slice(&self.hi);
            let nb = self.rank_bounds();
            if !self.filter_lower(nb) || !self.filter_upper(nb) {
                return Err(crate::Conflict::new());
            }
            let mut moved = false;
            for (i, &x) in self.views.iter().enumerate() {
                if self.new_lo[i] > self.lo[i] {
                    x.set_min(ctx, self.new_lo[i])?;
                    moved = true;
                }
                if self.new_hi[i] < self.hi[i] {
                    x.set_max(ctx, self.new_hi[i])?;
                    moved = true;
                }
            }
            // When every new bound is a value of its domain, one round is a fixpoint
            // (the algorithm is complete for intervals); a bound that fell into a hole
            // moved further, so look again.
            let mut landed_in_hole = false;
            if moved {
                for (i, &x) in self.views.iter().enumerate() {
                    let (lo, hi) = (x.min(ctx), x.max(ctx));
                    if lo != self.new_lo[i] || hi != self.new_hi[i] {
                        landed_in_hole = true;
                        break;
                    }
                }
            }
            if !landed_in_hole {
                return Ok(());
            }
        }
    }
}
