//! # Explaining the global cardinality constraint: counting certificates
//!
//! `GlobalCardinality` (`count.rs`) is domain consistent through a flow; its explanation
//! does not replay the flow but asks why no flow exists. A value `v` leaves `x` because the
//! constraint has no solution once `x = v`; and an assignment of positions to values that
//! meets every count fails, by the theory of flows (Hall's theorem with both bounds), for
//! one of two countable reasons:
//!
//! * **too few takers**: a set `W` of values needs `Σ low(W)` positions, but fewer positions
//!   can take a value of `W`. The reason: every other position avoids `W` (`x ∉ W`);
//! * **too many takers**: a set `S` of positions must all take values of `W`, whose counts
//!   allow fewer than `|S|` (a Hall set, as for all-different). The reason: each position of
//!   `S` confined to `W` (`x ∈ W`).
//!
//! Both are found by the textbook two-phase search for a feasible flow, in its plain
//! augmenting-path form: first give each listed value its lower count of positions, then
//! give every position left a value with room. An augmenting search that fails has visited
//! exactly the set the certificate names. For `[x ≠ v]` the search runs with `x` fixed to
//! `v`, and the certificate's atoms on `x` (true of `v`) are dropped: with the constraint,
//! the rest of the reason implies that `x` breaks them, so `x ≠ v`.
//!
//! Values not listed are free (no count): they stand together as one value of unbounded
//! room, which a Hall set never needs and a short value set never holds.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagators::bound_replay::merge_into_equalities;
use crate::store::VarId;

/// Most values an atom set "`x ∈ W`" may need to list as holes before giving up.
const MOST_HOLES: usize = 64;

/// The constraint as the certificate search sees it: positions (variables, possibly
/// repeated) and listed values with their `(low, up)` counts.
pub(crate) struct Cardinality<'a> {
    pub(crate) xs: &'a [VarId],
    /// `(value, low, up)`, sorted by value, each value once.
    pub(crate) listed: Vec<(i32, u32, u32)>,
}

/// Where each position may go: listed values by index, and whether some free value is left.
struct Choices {
    listed: Vec<Vec<usize>>,
    free: Vec<bool>,
}

/// What a failed search proves.
enum Certificate {
    /// These values (by index) need more positions than can take them.
    TooFewTakers(Vec<usize>),
    /// These positions must all take these values (by index), which have too little room.
    TooManyTakers(Vec<usize>, Vec<usize>),
}

impl<'a> Cardinality<'a> {
    /// From the counts as given (a value listed twice with two counts can never be met).
    pub(crate) fn new(xs: &'a [VarId], counts: &[(i32, u32)]) -> Cardinality<'a> {
        let mut listed: Vec<(i32, u32, u32)> = Vec::new();
        for &(v, c) in counts {
            match listed.iter_mut().find(|t| t.0 == v) {
                Some(t) if t.1 != c => *t = (v, 1, 0),
                Some(_) => {}
                None => listed.push((v, c, c)),
            }
        }
        listed.sort_unstable();
        Cardinality { xs, listed }
    }

    /// Push why no assignment meets the counts in `inputs` with `fixed = Some((x, v))`
    /// forcing `x = v` (atoms on `x` left out). `false` if the search finds an assignment
    /// or the reason would be too large.
    pub(crate) fn explain_no_flow(
        &self,
        inputs: &[Domain],
        fixed: Option<(VarId, i32)>,
        reason: &mut Vec<Atom>,
    ) -> bool {
        if self.listed.iter().any(|&(_, low, up)| low > up) {
            return true; // no assignment at all
        }
        let choices = self.choices(inputs, fixed);
        let Some(certificate) = self.search(&choices) else {
            return false;
        };
        let skip = fixed.map(|(x, _)| x);
        let ok = match certificate {
            Certificate::TooFewTakers(values) => {
                let w: Vec<i32> = values.iter().map(|&k| self.listed[k].0).collect();
                (0..self.xs.len())
                    .filter(|&p| Some(self.xs[p]) != skip)
                    .filter(|&p| !values.iter().any(|k| choices.listed[p].contains(k)))
                    .all(|p| avoids(self.xs[p], &inputs[p], &w, reason))
            }
            Certificate::TooManyTakers(positions, values) => {
                let w: Vec<i32> = values.iter().map(|&k| self.listed[k].0).collect();
                positions
                    .iter()
                    .filter(|&&p| Some(self.xs[p]) != skip)
                    .all(|&p| confined(self.xs[p], &inputs[p], &w, reason))
            }
        };
        merge_into_equalities(reason);
        ok
    }

    fn choices(&self, inputs: &[Domain], fixed: Option<(VarId, i32)>) -> Choices {
        let mut choices = Choices {
            listed: Vec::new(),
            free: Vec::new(),
        };
        for (p, d) in inputs.iter().enumerate().take(self.xs.len()) {
            let (listed, free) = match fixed {
                Some((x, v)) if x == self.xs[p] => {
                    let k = self.listed.binary_search_by_key(&v, |t| t.0);
                    (k.ok().into_iter().collect(), k.is_err())
                }
                _ => {
                    let listed: Vec<usize> = (0..self.listed.len())
                        .filter(|&k| d.contains(self.listed[k].0))
                        .collect();
                    let free = d.size() as usize > listed.len();
                    (listed, free)
                }
            };
            choices.listed.push(listed);
            choices.free.push(free);
        }
        choices
    }

    /// The two-phase search; `None` if it assigns every position (no certificate).
    fn search(&self, choices: &Choices) -> Option<Certificate> {
        let n = self.xs.len();
        let mut search = Search {
            choices,
            up: self.listed.iter().map(|t| t.2).collect(),
            taken: vec![0; self.listed.len()],
            value_of: vec![None; n],
            seen_position: vec![false; n],
            seen_value: vec![false; self.listed.len()],
        };
        // Phase 1: each listed value gets its lower count of positions.
        for (k, &(_, low, _)) in self.listed.iter().enumerate() {
            while search.taken[k] < low {
                search.clear_marks();
                if !search.find_position_for(k) {
                    let values = (0..self.listed.len())
                        .filter(|&k| search.seen_value[k])
                        .collect();
                    return Some(Certificate::TooFewTakers(values));
                }
            }
        }
        // Phase 2: every position left gets a value with room.
        for p in 0..n {
            if search.value_of[p].is_none() {
                search.clear_marks();
                if !search.find_value_for(p) {
                    let positions = (0..n).filter(|&q| search.seen_position[q]).collect();
                    let values = (0..self.listed.len())
                        .filter(|&k| search.seen_value[k])
                        .collect();
                    return Some(Certificate::TooManyTakers(positions, values));
                }
            }
        }
        None
    }
}

/// The state of the augmenting-path search. `value_of[p]`: `Some(Some(k))` listed value
/// `k`, `Some(None)` a free value, `None` not yet assigned.
struct Search<'c> {
    choices: &'c Choices,
    up: Vec<u32>,
    taken: Vec<u32>,
    value_of: Vec<Option<Option<usize>>>,
    seen_position: Vec<bool>,
    seen_value: Vec<bool>,
}

impl Search<'_> {
    fn clear_marks(&mut self) {
        self.seen_position.fill(false);
        self.seen_value.fill(false);
    }

    /// Phase 1: one more position for value `k`, moving others along an alternating path.
    fn find_position_for(&mut self, k: usize) -> bool {
        self.seen_value[k] = true;
        for p in 0..self.value_of.len() {
            if self.seen_position[p]
                || self.value_of[p] == Some(Some(k))
                || !self.choices.listed[p].contains(&k)
            {
                continue;
            }
            self.seen_position[p] = true;
            let free_to_move = match self.value_of[p] {
                None => true,
                Some(Some(other)) => self.find_position_for(other),
                Some(None) => unreachable!("phase 1 assigns listed values only"),
            };
            if free_to_move {
                if let Some(Some(other)) = self.value_of[p] {
                    self.taken[other] -= 1;
                }
                self.value_of[p] = Some(Some(k));
                self.taken[k] += 1;
                return true;
            }
        }
        false
    }

    /// Phase 2: a value with room for position `p`, moving others along an alternating path.
    fn find_value_for(&mut self, p: usize) -> bool {
        self.seen_position[p] = true;
        if self.choices.free[p] {
            self.value_of[p] = Some(None);
            return true;
        }
        for i in 0..self.choices.listed[p].len() {
            let k = self.choices.listed[p][i];
            if self.seen_value[k] {
                continue;
            }
            self.seen_value[k] = true;
            let room = self.taken[k] < self.up[k];
            let made_room = room
                || (0..self.value_of.len()).any(|q| {
                    !self.seen_position[q]
                        && self.value_of[q] == Some(Some(k))
                        && self.find_value_for(q)
                });
            if made_room {
                if room {
                    self.taken[k] += 1;
                }
                self.value_of[p] = Some(Some(k));
                return true;
            }
        }
        false
    }
}

/// Push atoms of `x` (input domain `d`, which avoids every value of `w`) saying `x ∉ w`:
/// `[x ≠ u]` for the values of `w` inside `d`'s bounds, a bound for those outside.
fn avoids(x: VarId, d: &Domain, w: &[i32], reason: &mut Vec<Atom>) -> bool {
    let below = w.iter().filter(|&&u| u < d.min()).max();
    let above = w.iter().filter(|&&u| u > d.max()).min();
    if let Some(&u) = below {
        reason.push(Atom::AtLeast(x, u + 1));
    }
    if let Some(&u) = above {
        reason.push(Atom::AtMost(x, u - 1));
    }
    for &u in w {
        if d.min() <= u && u <= d.max() {
            reason.push(Atom::NotEqual(x, u));
        }
    }
    true
}

/// Push atoms of `x` (input domain `d ⊆ w`, `w` sorted) saying `x ∈ w`: the weakest bounds
/// that keep `x` inside the run of `w` around `d`, and `[x ≠ u]` for the gaps of `w`
/// between them. `false` if that is more than [`MOST_HOLES`] gaps.
fn confined(x: VarId, d: &Domain, w: &[i32], reason: &mut Vec<Atom>) -> bool {
    let inside = |v: i64| w.binary_search(&(v as i32)).is_ok();
    let mut lo = d.min() as i64;
    while lo > i32::MIN as i64 && inside(lo - 1) {
        lo -= 1;
    }
    let mut hi = d.max() as i64;
    while hi < i32::MAX as i64 && inside(hi + 1) {
        hi += 1;
    }
    // Fewer than 64 values of `w` between two of its gaps: count the gaps inside d's bounds.
    let gaps: Vec<i32> = (d.min()..=d.max())
        .filter(|&v| !inside(v as i64))
        .take(MOST_HOLES + 1)
        .collect();
    if gaps.len() > MOST_HOLES {
        return false;
    }
    if lo > i32::MIN as i64 {
        reason.push(Atom::AtLeast(x, lo as i32));
    }
    if hi < i32::MAX as i64 {
        reason.push(Atom::AtMost(x, hi as i32));
    }
    reason.extend(gaps.into_iter().map(|v| Atom::NotEqual(x, v)));
    true
}
