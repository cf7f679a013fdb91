//! # Explaining forward checking: `[y ≠ v]` because `[x = v]`
//!
//! Value-level all-different removes a fixed view's value from the others, so the reason of
//! `[y ≠ v]` is `[x = v]` for the view `x` fixed to it. A run goes on to its fixpoint, so `x`
//! may itself have been fixed *by the run* (every other value of it removed): then its
//! reason is the reasons of those removals and `x`'s own input domain (its bounds and
//! holes). [`ForwardCheckingReplay`] replays the fixpoint from the inputs and records the
//! reason of every removal as it goes, so `explain` never depends on what the run did.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagators::bound_replay::merge_into_equalities;
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
            return false;
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
