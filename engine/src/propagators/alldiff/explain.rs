//! # Explaining all-different: forward checking and Hall intervals
//!
//! Value-level all-different removes a fixed view's value from the others, so the reason of
//! `[y ≠ v]` is `[x = v]` for the view `x` fixed to it. A run goes on to its fixpoint, so `x`
//! may itself have been fixed *by the run* (every other value of it removed): then its
//! reason is the reasons of those removals and `x`'s own input domain (its bounds and
//! holes). [`ForwardCheckingReplay`] replays the fixpoint from the inputs and records the
//! reason of every removal as it goes, so `explain` never depends on what the run did.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagators::bound_replay::{merge_into_equalities, BoundGraph};
use crate::propagators::reasons::split_atom;
use crate::view::View;
use std::collections::BTreeMap;

/// Largest input domain the replay copies (beyond it, the generic reason).
const MOST_VALUES: u32 = 256;

/// Forward checking replayed from the inputs, with the reason of each removal.
pub(crate) struct ForwardCheckingReplay<'a> {
    views: &'a [View],
    inputs: &'a [Domain],
    /// The values left of each position's variable.
    left: Vec<Vec<i32>>,
    /// For each position, the values the replay removed and why.
    removed: Vec<BTreeMap<i32, Vec<Atom>>>,
    /// Why the replay failed, if it did.
    failure: Option<Vec<Atom>>,
}

impl<'a> ForwardCheckingReplay<'a> {
    /// `None` when two views share a variable or a domain is too wide to copy.
    pub(crate) fn run(views: &'a [View], inputs: &'a [Domain]) -> Option<Self> {
        let n = views.len();
        if (0..n).any(|i| (0..i).any(|j| views[j].var() == views[i].var()))
            || inputs.iter().any(|d| d.size() > MOST_VALUES)
        {
            return None;
        }
        let mut replay = ForwardCheckingReplay {
            views,
            inputs,
            left: inputs.iter().map(|d| d.iter().collect()).collect(),
            removed: vec![BTreeMap::new(); n],
            failure: None,
        };
        let mut queue: Vec<(usize, Vec<Atom>)> = (0..n)
            .filter(|&i| inputs[i].is_fixed())
            .map(|i| (i, vec![Atom::Equal(views[i].var(), inputs[i].value())]))
            .collect();
        while let Some((i, because)) = queue.pop() {
            let shown = views[i].show(replay.left[i][0]);
            for j in (0..n).filter(|&j| j != i) {
                let Some(u) = views[j].inverse(shown) else {
                    continue;
                };
                let Ok(at) = replay.left[j].binary_search(&u) else {
                    continue;
                };
                replay.left[j].remove(at);
                replay.removed[j].insert(u, because.clone());
                match replay.left[j].len() {
                    0 => {
                        let mut reason = Vec::new();
                        Atom::describe(views[j].var(), &inputs[j], &mut reason);
                        replay.push_removals(j, &inputs[j].values(), &mut reason);
                        replay.failure = Some(reason);
                        return Some(replay);
                    }
                    1 => {
                        let fixed = Atom::Equal(views[j].var(), replay.left[j][0]);
                        let mut reason = Vec::new();
                        let needed = split_atom(fixed, &inputs[j], &mut reason)?;
                        replay.push_removals(j, &needed, &mut reason);
                        queue.push((j, reason));
                    }
                    _ => {}
                }
            }
        }
        Some(replay)
    }

    /// The reasons of removing `values` from position `j` (all removed by the replay).
    fn push_removals(&self, j: usize, values: &[i32], reason: &mut Vec<Atom>) -> bool {
        for v in values {
            match self.removed[j].get(v) {
                Some(because) => reason.extend_from_slice(because),
                None => return false,
            }
        }
        merge_into_equalities(reason);
        true
    }

    /// The reason of `atom` (on a view's variable), from the removals it needs.
    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.failure.is_some() {
            return self.explain_failure(reason); // no assignment at all: implies anything
        }
        let Some(j) = self.views.iter().position(|v| v.var() == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &self.inputs[j], reason) else {
            return false;
        };
        self.push_removals(j, &needed, reason)
    }

    /// The reason of the failure, if the replay failed.
    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        match &self.failure {
            Some(atoms) => {
                reason.extend_from_slice(atoms);
                true
            }
            None => false,
        }
    }
}

/// Most views a Hall-interval replay handles (it is cubic in their number).
const MOST_VIEWS: usize = 64;

/// Bounds-level all-different replayed from the inputs, as `reference::hall_intervals`
/// does it (every interval from a least to a greatest shown value; a *Hall interval* holds
/// as many views as values, and pushes every other view's bound out of it), on a
/// [`BoundGraph`] of the views' variables. The reason of a bound pushed out of `[a, b]` is
/// the bounds of the views inside (`[yⱼ ≥ a]`, `[yⱼ ≤ b]`) and the pushed view's own bound
/// that put it in `[a, b]`; a failure, the bounds of more views than values in `[a, b]`.
pub(crate) struct HallReplay<'a> {
    views: &'a [View],
    graph: BoundGraph<'a>,
}

impl<'a> HallReplay<'a> {
    /// `None` when two views share a variable or there are too many.
    pub(crate) fn run(views: &'a [View], inputs: &'a [Domain]) -> Option<HallReplay<'a>> {
        let n = views.len();
        if n > MOST_VIEWS || (0..n).any(|i| (0..i).any(|j| views[j].var() == views[i].var())) {
            return None;
        }
        let graph = BoundGraph::new(views.iter().map(|v| v.var()).collect(), inputs);
        let mut replay = HallReplay { views, graph };
        while !replay.graph.stopped() && replay.round() {}
        Some(replay)
    }

    /// The least value view `i` shows, and the node of the bound it comes from.
    fn shown_min(&self, i: usize) -> (i64, usize) {
        let (v, g) = (self.views[i], &self.graph);
        if v.scale() > 0 {
            (v.scale() as i64 * g.lo[i] + v.offset() as i64, g.lo_node[i])
        } else {
            (v.scale() as i64 * g.hi[i] + v.offset() as i64, g.hi_node[i])
        }
    }

    /// The greatest value view `i` shows, and its node.
    fn shown_max(&self, i: usize) -> (i64, usize) {
        let (v, g) = (self.views[i], &self.graph);
        if v.scale() > 0 {
            (v.scale() as i64 * g.hi[i] + v.offset() as i64, g.hi_node[i])
        } else {
            (v.scale() as i64 * g.lo[i] + v.offset() as i64, g.lo_node[i])
        }
    }

    /// View `i` shows at least `w` (`at_least`) or at most `w`, because of `from`.
    fn push_shown(&mut self, i: usize, w: i64, at_least: bool, from: Vec<usize>) -> bool {
        let (a, rest) = (
            self.views[i].scale() as i64,
            w - self.views[i].offset() as i64,
        );
        let (floor, ceil) = (floor_of(rest, a), ceil_of(rest, a));
        match (at_least, a > 0) {
            (true, true) => self.graph.raise_lo(i, ceil, from),
            (true, false) => self.graph.lower_hi(i, floor, from),
            (false, true) => self.graph.lower_hi(i, floor, from),
            (false, false) => self.graph.raise_lo(i, ceil, from),
        }
    }

    /// Every interval once: whether a bound moved.
    fn round(&mut self) -> bool {
        let n = self.views.len();
        let mins: Vec<(i64, usize)> = (0..n).map(|i| self.shown_min(i)).collect();
        let maxs: Vec<(i64, usize)> = (0..n).map(|i| self.shown_max(i)).collect();
        for &(a, _) in &mins {
            for &(b, _) in &maxs {
                if a > b {
                    continue;
                }
                let inside: Vec<usize> = (0..n)
                    .filter(|&i| a <= mins[i].0 && maxs[i].0 <= b)
                    .collect();
                let because: Vec<usize> = inside
                    .iter()
                    .flat_map(|&i| [mins[i].1, maxs[i].1])
                    .collect();
                if inside.len() as i64 > b - a + 1 {
                    self.graph.fail(because);
                    return false;
                }
                if (inside.len() as i64) < b - a + 1 {
                    continue;
                }
                let mut moved = false;
                for i in (0..n).filter(|i| !inside.contains(i)) {
                    if a <= mins[i].0 && mins[i].0 <= b {
                        let from = [&because[..], &[mins[i].1]].concat();
                        moved |= self.push_shown(i, b + 1, true, from);
                    }
                    if !self.graph.stopped() && a <= maxs[i].0 && maxs[i].0 <= b {
                        let from = [&because[..], &[maxs[i].1]].concat();
                        moved |= self.push_shown(i, a - 1, false, from);
                    }
                    if self.graph.stopped() {
                        return false;
                    }
                }
                if moved {
                    // The bounds changed under the loops: start the round again.
                    return true;
                }
            }
        }
        false
    }

    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        self.graph.explain(atom, reason)
    }

    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        self.graph.explain_failure(reason)
    }
}

/// `⌊n / d⌋` for any signs.
fn floor_of(n: i64, d: i64) -> i64 {
    let q = n / d;
    if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈n / d⌉` for any signs.
fn ceil_of(n: i64, d: i64) -> i64 {
    -floor_of(-n, d)
}

/// Domain-level all-different (Régin's matching) explained by a **Hall set**: a value `v`
/// leaves `x` when the views of a set `S` not holding `x` can only show the `|S|` values
/// of a set `U` holding `v` (they need all of them). The reason confines each view of `S`
/// to `U`: its bounds, and `[y ≠ w]` for each value between them that `U` lacks. `S` is
/// found from a maximum matching of the inputs: the views reachable by alternating paths
/// from the view matched to `v`. A failure is a Hall set with more views than values,
/// reached from an unmatched view.
pub(crate) struct HallSets<'a> {
    views: &'a [View],
    inputs: &'a [Domain],
    /// The values each view shows, from its input domain.
    shown: Vec<Vec<i64>>,
    /// The value each view is matched to (`None`: unmatched).
    matched: Vec<Option<i64>>,
    /// The view each value is matched to.
    owner: BTreeMap<i64, usize>,
}

impl<'a> HallSets<'a> {
    /// `None` when two views share a variable or a domain is too wide.
    pub(crate) fn new(views: &'a [View], inputs: &'a [Domain]) -> Option<HallSets<'a>> {
        let n = views.len();
        if n > MOST_VIEWS
            || (0..n).any(|i| (0..i).any(|j| views[j].var() == views[i].var()))
            || inputs.iter().any(|d| d.size() > MOST_VALUES)
        {
            return None;
        }
        let shown = (0..n)
            .map(|i| inputs[i].iter().map(|v| views[i].show(v)).collect())
            .collect();
        let mut sets = HallSets {
            views,
            inputs,
            shown,
            matched: vec![None; n],
            owner: BTreeMap::new(),
        };
        for i in 0..n {
            let mut seen = vec![false; n];
            sets.augment(i, &mut seen);
        }
        Some(sets)
    }

    /// Kuhn's augmenting path from view `i`: whether it got a value.
    fn augment(&mut self, i: usize, seen: &mut [bool]) -> bool {
        if std::mem::replace(&mut seen[i], true) {
            return false;
        }
        for k in 0..self.shown[i].len() {
            let v = self.shown[i][k];
            let free = match self.owner.get(&v) {
                None => true,
                Some(&j) => self.augment(j, seen),
            };
            if free {
                self.matched[i] = Some(v);
                self.owner.insert(v, i);
                return true;
            }
        }
        false
    }

    /// The views reachable from view `start` by alternating paths (any value it shows, then
    /// the view matched to that value), and whether a free value is reachable.
    fn reachable(&self, start: usize) -> (Vec<bool>, bool) {
        let mut inside = vec![false; self.views.len()];
        let mut stack = vec![start];
        inside[start] = true;
        let mut free_value = false;
        while let Some(i) = stack.pop() {
            for v in &self.shown[i] {
                match self.owner.get(v) {
                    None => free_value = true,
                    Some(&j) if !inside[j] => {
                        inside[j] = true;
                        stack.push(j);
                    }
                    Some(_) => {}
                }
            }
        }
        (inside, free_value)
    }

    /// Push the atoms that confine every view of `set` to the values its views show.
    fn confine(&self, set: &[bool], reason: &mut Vec<Atom>) -> bool {
        let values: std::collections::BTreeSet<i64> = (0..set.len())
            .filter(|&i| set[i])
            .flat_map(|i| self.shown[i].iter().copied())
            .collect();
        for i in (0..set.len()).filter(|&i| set[i]) {
            let (d, view) = (&self.inputs[i], self.views[i]);
            if d.max() as i64 - d.min() as i64 > 64 {
                return false;
            }
            reason.push(Atom::AtLeast(view.var(), d.min()));
            reason.push(Atom::AtMost(view.var(), d.max()));
            for w in (d.min()..=d.max()).filter(|&w| !values.contains(&view.show(w))) {
                reason.push(Atom::NotEqual(view.var(), w));
            }
        }
        true
    }

    /// Push why view `i` cannot show `v`: the Hall set that needs `v`.
    pub(crate) fn value_taken(&self, i: usize, v: i64, reason: &mut Vec<Atom>) -> bool {
        let Some(&j) = self.owner.get(&v) else {
            return false; // a free value: x could take it
        };
        if j == i {
            return false;
        }
        let (set, free_value) = self.reachable(j);
        !set[i] && !free_value && self.confine(&set, reason)
    }

    /// Does every view get a value of its own?
    pub(crate) fn is_perfect(&self) -> bool {
        self.matched.iter().all(|m| m.is_some())
    }

    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.matched.iter().any(|m| m.is_none()) {
            return self.explain_failure(reason); // no assignment at all: implies anything
        }
        let Some(i) = self.views.iter().position(|v| v.var() == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &self.inputs[i], reason) else {
            return false;
        };
        let view = self.views[i];
        let explained = needed
            .iter()
            .all(|&u| self.value_taken(i, view.show(u), reason));
        merge_into_equalities(reason);
        explained
    }

    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        let Some(u) = self.matched.iter().position(|m| m.is_none()) else {
            return false;
        };
        let (set, _) = self.reachable(u);
        let explained = self.confine(&set, reason);
        merge_into_equalities(reason);
        explained
    }
}

/// Several domain-level all-differents over shared variables (the fast lane
/// `fast/units.rs`), replayed from the inputs: each unit in turn by its Hall sets
/// ([`HallSets`]), until no unit removes anything. A Hall set found on domains the replay
/// already narrowed names removed values; each is replaced by the reason recorded when it
/// was removed, so that every reason is made of input atoms only.
pub(crate) struct UnitsReplay<'a> {
    vars: &'a [crate::store::VarId],
    inputs: &'a [Domain],
    /// The reason (input atoms) of each value the replay removed, by variable position.
    removed: BTreeMap<(usize, i32), Vec<Atom>>,
    failure: Option<Vec<Atom>>,
}

impl<'a> UnitsReplay<'a> {
    /// `units[u]` lists the positions (in `vars`) of unit `u`'s variables. `None` when a
    /// domain is too wide or a reason could not be found.
    pub(crate) fn run(
        units: &[Vec<usize>],
        vars: &'a [crate::store::VarId],
        inputs: &'a [Domain],
    ) -> Option<UnitsReplay<'a>> {
        let mut replay = UnitsReplay {
            vars,
            inputs,
            removed: BTreeMap::new(),
            failure: None,
        };
        let mut current: Vec<Domain> = inputs.to_vec();
        loop {
            let mut changed = false;
            for unit in units {
                let views: Vec<View> = unit.iter().map(|&p| View::from(vars[p])).collect();
                let domains: Vec<Domain> = unit.iter().map(|&p| current[p].clone()).collect();
                let sets = HallSets::new(&views, &domains)?;
                if !sets.is_perfect() {
                    let mut local = Vec::new();
                    if !sets.explain_failure(&mut local) {
                        return None;
                    }
                    replay.failure = Some(replay.expand(&local)?);
                    return Some(replay);
                }
                let mut removals = Vec::new();
                for (k, &p) in unit.iter().enumerate() {
                    for w in domains[k].iter() {
                        let mut local = Vec::new();
                        if sets.value_taken(k, w as i64, &mut local) {
                            removals.push((p, w, replay.expand(&local)?));
                        }
                    }
                }
                for (p, w, reason) in removals {
                    let _ = current[p].remove(w); // never the last: a view keeps its matched value
                    replay.removed.insert((p, w), reason);
                    changed = true;
                }
            }
            if !changed {
                return Some(replay);
            }
        }
    }

    /// Input atoms for atoms that hold on the replay's narrowed domains: each atom's own
    /// part of the input domain, and the recorded reasons of the values it needs gone.
    fn expand(&self, atoms: &[Atom]) -> Option<Vec<Atom>> {
        expand(self.vars, self.inputs, &self.removed, atoms)
    }

    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        explain_by_replay(
            &self.failure,
            self.vars,
            self.inputs,
            &self.removed,
            atom,
            reason,
        )
    }

    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        explain_failure_by_replay(&self.failure, reason)
    }
}

/// The reason of `atom` after a replay that recorded `removed` (or found `failure`): a failed
/// replay admits no assignment at all, so its failure implies anything.
fn explain_by_replay(
    failure: &Option<Vec<Atom>>,
    vars: &[crate::store::VarId],
    inputs: &[Domain],
    removed: &BTreeMap<(usize, i32), Vec<Atom>>,
    atom: Atom,
    reason: &mut Vec<Atom>,
) -> bool {
    if let Some(failure) = failure {
        reason.extend_from_slice(failure);
        return true;
    }
    match expand(vars, inputs, removed, &[atom]) {
        Some(atoms) => {
            reason.extend(atoms);
            true
        }
        None => false,
    }
}

/// The reason of a failure a replay found, if it found one.
fn explain_failure_by_replay(failure: &Option<Vec<Atom>>, reason: &mut Vec<Atom>) -> bool {
    match failure {
        Some(failure) => {
            reason.extend_from_slice(failure);
            true
        }
        None => false,
    }
}

/// Input atoms for atoms that hold on domains a replay narrowed: each atom's own part of the
/// input domain, and the recorded reasons (`removed`, by position and value) of the values
/// it needs gone. `None` if one of those was not removed by the replay.
fn expand(
    vars: &[crate::store::VarId],
    inputs: &[Domain],
    removed: &BTreeMap<(usize, i32), Vec<Atom>>,
    atoms: &[Atom],
) -> Option<Vec<Atom>> {
    let mut out = Vec::new();
    for &atom in atoms {
        let p = vars.iter().position(|&x| x == atom.var())?;
        for v in split_atom(atom, &inputs[p], &mut out)? {
            out.extend_from_slice(removed.get(&(p, v))?);
        }
    }
    merge_into_equalities(&mut out);
    Some(out)
}

/// Several value-level all-differents on `xᵢ + cₖᵢ` over the same variables (the n-queens
/// lane `fast/offset_family.rs`), replayed from the inputs: forward checking in every family
/// and, on a family with one offset for all (`constant`), the pigeonhole rule (fewer values
/// than views fails; with exactly as many, a value one view alone can show goes to it). Each
/// removal's reason is said on the replay's domains, then expanded to input atoms.
pub(crate) struct FamilyReplay<'a> {
    vars: &'a [crate::store::VarId],
    inputs: &'a [Domain],
    removed: BTreeMap<(usize, i32), Vec<Atom>>,
    failure: Option<Vec<Atom>>,
}

impl<'a> FamilyReplay<'a> {
    pub(crate) fn run(
        families: &[Vec<View>],
        constant: Option<usize>,
        vars: &'a [crate::store::VarId],
        inputs: &'a [Domain],
    ) -> Option<FamilyReplay<'a>> {
        let n = vars.len();
        if inputs.iter().any(|d| d.size() > MOST_VALUES)
            || (0..n).any(|i| (0..i).any(|j| vars[j] == vars[i]))
        {
            return None;
        }
        let mut replay = FamilyReplay {
            vars,
            inputs,
            removed: BTreeMap::new(),
            failure: None,
        };
        let mut current: Vec<Domain> = inputs.to_vec();
        loop {
            let mut changed = false;
            for family in families {
                changed |= replay.forward_check(family, &mut current)?;
                if replay.failure.is_some() {
                    return Some(replay);
                }
            }
            if let Some(k) = constant {
                changed |= replay.pigeonhole(&families[k], &mut current)?;
                if replay.failure.is_some() {
                    return Some(replay);
                }
            }
            if !changed {
                return Some(replay);
            }
        }
    }

    /// Remove `w` from position `p` for the reason `local` (atoms of `current`); a failure
    /// if it was the last value.
    fn remove(&mut self, current: &mut [Domain], p: usize, w: i32, local: &[Atom]) -> Option<()> {
        let mut reason = expand(self.vars, self.inputs, &self.removed, local)?;
        if current[p].is_fixed() {
            let mut own = Vec::new();
            Atom::describe(self.vars[p], &current[p], &mut own);
            reason.extend(expand(self.vars, self.inputs, &self.removed, &own)?);
            merge_into_equalities(&mut reason);
            self.failure = Some(reason);
            return Some(());
        }
        let _ = current[p].remove(w); // not the last value: checked above
        self.removed.insert((p, w), reason);
        Some(())
    }

    /// One round of forward checking in `family`: whether a value went.
    fn forward_check(&mut self, family: &[View], current: &mut [Domain]) -> Option<bool> {
        let mut changed = false;
        for i in 0..family.len() {
            if !current[i].is_fixed() {
                continue;
            }
            let (u, shown) = (current[i].value(), family[i].show(current[i].value()));
            for j in (0..family.len()).filter(|&j| j != i) {
                let Some(w) = family[j].inverse(shown) else {
                    continue;
                };
                if current[j].contains(w) {
                    self.remove(current, j, w, &[Atom::Equal(self.vars[i], u)])?;
                    changed = true;
                    if self.failure.is_some() {
                        return Some(true);
                    }
                }
            }
        }
        Some(changed)
    }

    /// The pigeonhole rule on `family`: whether a value went.
    fn pigeonhole(&mut self, family: &[View], current: &mut [Domain]) -> Option<bool> {
        let n = family.len();
        let mut holders: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for i in 0..n {
            for v in current[i].iter() {
                holders.entry(family[i].show(v)).or_default().push(i);
            }
        }
        let mut everyone = Vec::new();
        for i in 0..n {
            Atom::describe(self.vars[i], &current[i], &mut everyone);
        }
        if holders.len() < n {
            self.failure = Some(expand(self.vars, self.inputs, &self.removed, &everyone)?);
            return Some(false);
        }
        if holders.len() > n {
            return Some(false);
        }
        let mut changed = false;
        for (shown, held_by) in holders {
            let [i] = held_by[..] else { continue };
            let keep = family[i].inverse(shown)?;
            let others: Vec<i32> = current[i].iter().filter(|&v| v != keep).collect();
            for w in others {
                self.remove(current, i, w, &everyone)?;
                changed = true;
            }
        }
        Some(changed)
    }

    pub(crate) fn explain(&self, atom: Atom, reason: &mut Vec<Atom>) -> bool {
        explain_by_replay(
            &self.failure,
            self.vars,
            self.inputs,
            &self.removed,
            atom,
            reason,
        )
    }

    pub(crate) fn explain_failure(&self, reason: &mut Vec<Atom>) -> bool {
        explain_failure_by_replay(&self.failure, reason)
    }
}
