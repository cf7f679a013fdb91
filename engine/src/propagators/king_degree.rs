//! # King degree: a placed node has exactly as many occupied neighbours as its label says
//!
//! **Enforces** `label = 0  ∨  label = #{ i : neighbourᵢ ≠ 0 }` — the heart of Monodot. Every
//! cell of the board has a *label* variable: `0` when the cell is empty, `d ≥ 1` when a node
//! that wants `d` neighbours sits there. A cell's neighbours are the up to eight cells a chess
//! king reaches, and a neighbour counts as *occupied* when its own label is not `0`. Only
//! occupancy matters for the neighbours: which degree they carry is their own business.
//!
//! The seed writes this with a big constant `M = 8`, two linear inequalities per cell that
//! meet on a used cell and fall slack on an empty one. A big-M sum propagates badly (the slack
//! hides everything until the cell is known to be used); this propagator reasons on the count
//! directly, from two numbers:
//!
//! ```text
//! sure     = #{ i : 0 ∉ dom(neighbourᵢ) }     neighbours certainly occupied
//! possible = #{ i : dom(neighbourᵢ) ≠ {0} }   neighbours that may still be occupied
//! ```
//!
//! 1. a label `d ≥ 1` outside `sure..=possible` cannot be met: remove it from the cell;
//! 2. if the cell is surely used (`0 ∉ dom(label)`) and its label is now fixed to `d`:
//!    `d = possible` means every undecided neighbour must be occupied (remove `0` from each);
//!    `d = sure` means every undecided neighbour must stay empty (fix each to `0`).
//!
//! **Consistency: domain.** A nonzero label `d` has a support exactly when
//! `sure ≤ d ≤ possible` (occupy `d - sure` of the undecided neighbours); `0` always has one.
//! An undecided neighbour's `0` loses its support only when the cell must hold a node whose
//! label can only be `possible`, and its nonzero values only when the label can only be `sure`;
//! every nonzero value of a neighbour stands or falls together, since only occupancy is
//! counted. Rules 1 and 2 remove exactly those values, and one run reaches the fixpoint
//! (after rule 2 `sure = possible = d`), so the propagator is idempotent.
//!
//! **Wakes on** any domain change (a neighbour loses `0`, or loses all but `0`, in the middle
//! of its domain as well as at a bound). **Cost** O(k) for k neighbours, k ≤ 8. **Entailed**
//! once the cell is known empty, or once its label is fixed and every neighbour decided.
//!
//! Tested against brute force in `engine/tests/king_degree.rs`; see
//! `docs/propagators/king_degree.md`.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// `label = 0 ∨ label = #{ i : neighbours[i] ≠ 0 }`.
#[derive(Clone, Debug)]
pub struct KingDegree {
    label: VarId,
    neighbours: Vec<VarId>,
}

impl KingDegree {
    /// The constraint for one cell: its label variable and its neighbours' label variables.
    pub fn new(label: VarId, neighbours: &[VarId]) -> KingDegree {
        KingDegree {
            label,
            neighbours: neighbours.to_vec(),
        }
    }
}

impl Propagator for KingDegree {
    fn name(&self) -> &'static str {
        "king_degree"
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        let mut subs = vec![Subscription::new(self.label, Condition::Domain)];
        subs.extend(
            self.neighbours
                .iter()
                .map(|&y| Subscription::new(y, Condition::Domain)),
        );
        subs
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let x = self.label;
        if ctx.is_fixed(x) && ctx.value(x) == 0 {
            // An empty cell asks nothing of its neighbours.
            ctx.set_entailed();
            return Ok(());
        }
        let mut sure = 0i32;
        let mut possible = 0i32;
        for &y in &self.neighbours {
            let may_be_empty = ctx.contains(y, 0);
            let may_be_used = !(ctx.is_fixed(y) && may_be_empty);
            if !may_be_empty {
                sure += 1;
            }
            if may_be_used {
                possible += 1;
            }
        }
        // Rule 1: a nonzero label must lie between the sure and the possible counts.
        ctx.retain(x, |d| d == 0 || (sure <= d && d <= possible))?;
        // Rule 2: a surely used cell whose label is now known, with a tight count.
        if ctx.contains(x, 0) || !ctx.is_fixed(x) {
            return Ok(());
        }
        let d = ctx.value(x);
        if d == possible {
            for &y in &self.neighbours {
                let surely_empty = ctx.is_fixed(y) && ctx.contains(y, 0);
                if !surely_empty {
                    ctx.remove(y, 0)?;
                }
            }
        } else if d == sure {
            for &y in &self.neighbours {
                if ctx.contains(y, 0) {
                    ctx.fix(y, 0)?;
                }
            }
        } else {
            return Ok(());
        }
        ctx.set_entailed();
        Ok(())
    }

    /// Rule 1: a label below the sure count (that many `[y ≠ 0]`) or above the possible one
    /// (enough `[y = 0]`). Rule 2: the label fixed (its other values gone by rule 1) and the
    /// neighbours that make the count tight.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        if self.shares_a_variable() {
            return false;
        }
        if atom.var() == self.label {
            return split_atom(atom, &inputs[0], reason).is_some_and(|needed| {
                needed
                    .iter()
                    .all(|&d| self.label_excluded(inputs, d, reason))
            });
        }
        let Some(k) = self.neighbours.iter().position(|&y| y == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[1 + k], reason) else {
            return false;
        };
        let (sure, possible) = self.counts(inputs);
        let label = &inputs[0];
        // The value the label is left with after rule 1.
        let left: Vec<i32> = label
            .iter()
            .filter(|&d| d == 0 || (sure <= d && d <= possible))
            .take(2)
            .collect();
        let [d] = left[..] else { return false };
        if d == 0 || !self.label_fixed(inputs, d, reason) {
            return false;
        }
        if needed.iter().all(|&v| v == 0) && d == possible {
            self.push_empty(inputs, usize::MAX, reason);
            true
        } else if needed.iter().all(|&v| v != 0) && d == sure {
            self.push_sure(inputs, usize::MAX, reason);
            true
        } else {
            false
        }
    }

    /// Rule 1 removed every value of the label.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        if self.shares_a_variable() || inputs[0].contains(0) {
            return false;
        }
        Atom::describe(self.label, &inputs[0], reason);
        self.push_sure(inputs, usize::MAX, reason);
        self.push_empty(inputs, usize::MAX, reason);
        true
    }
}

impl KingDegree {
    fn shares_a_variable(&self) -> bool {
        let all: Vec<VarId> = std::iter::once(self.label)
            .chain(self.neighbours.iter().copied())
            .collect();
        (0..all.len()).any(|i| (0..i).any(|j| all[j] == all[i]))
    }

    /// The sure and the possible counts of occupied neighbours in the inputs.
    fn counts(&self, inputs: &[Domain]) -> (i32, i32) {
        let neighbours = &inputs[1..];
        let sure = neighbours.iter().filter(|d| !d.contains(0)).count() as i32;
        let empty = neighbours
            .iter()
            .filter(|d| d.is_fixed() && d.contains(0))
            .count() as i32;
        (sure, neighbours.len() as i32 - empty)
    }

    /// `[y ≠ 0]` for the first `most` neighbours surely occupied.
    fn push_sure(&self, inputs: &[Domain], most: usize, reason: &mut Vec<Atom>) {
        let sure = (self.neighbours.iter().zip(&inputs[1..])).filter(|(_, d)| !d.contains(0));
        reason.extend(sure.take(most).map(|(&y, _)| Atom::NotEqual(y, 0)));
    }

    /// `[y = 0]` for the first `most` neighbours surely empty.
    fn push_empty(&self, inputs: &[Domain], most: usize, reason: &mut Vec<Atom>) {
        let empty = (self.neighbours.iter().zip(&inputs[1..]))
            .filter(|(_, d)| d.is_fixed() && d.contains(0));
        reason.extend(empty.take(most).map(|(&y, _)| Atom::Equal(y, 0)));
    }

    /// Push why rule 1 removes the nonzero label `d` (`false` for 0, or a label it keeps).
    fn label_excluded(&self, inputs: &[Domain], d: i32, reason: &mut Vec<Atom>) -> bool {
        let (sure, possible) = self.counts(inputs);
        let n = self.neighbours.len() as i32;
        if d != 0 && d < sure {
            self.push_sure(inputs, d as usize + 1, reason);
            true
        } else if d != 0 && d > possible {
            self.push_empty(inputs, (n - d + 1).max(0) as usize, reason);
            true
        } else {
            false
        }
    }

    /// Push why the label is `d` after rule 1: its own domain and rule 1's other removals.
    fn label_fixed(&self, inputs: &[Domain], d: i32, reason: &mut Vec<Atom>) -> bool {
        split_atom(Atom::Equal(self.label, d), &inputs[0], reason).is_some_and(|others| {
            others
                .iter()
                .all(|&v| self.label_excluded(inputs, v, reason))
        })
    }
}
