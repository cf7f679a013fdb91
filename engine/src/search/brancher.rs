//! # Branching: which variable, which value
//!
//! When propagation can deduce nothing more, the search must guess. A guess is a binary
//! [`Decision`]: the *left* branch `x = v` (or `x <= v`), and, if that subtree holds no
//! (better) solution, the *right* branch `x != v` (or `x > v`). Two branches that together
//! cover every value make the search complete, and disjoint subtrees never count a solution
//! twice.
//!
//! *Which variable* ([`VarSelect`]) matters most: "first fail" (smallest domain first) tries
//! the most constrained variable, where a wrong guess is found quickly; dom/wdeg (Boussemart
//! et al. 2004) divides the domain size by the number of failures the variable's constraints
//! have caused, so the search learns where the problem is hard. A puzzle may also bring its
//! own rule (`Custom`), e.g. DSATUR for graph colouring.
//!
//! *Which value* ([`ValSelect`]): the smallest, the largest, a random one, or a split of the
//! domain in halves.

use crate::model::Model;
use crate::rng::Rng;
use crate::store::VarId;
use std::fmt;
use std::sync::Arc;

/// The operator of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionOp {
    Eq,
    Ne,
    Le,
    Gt,
}

impl DecisionOp {
    pub fn symbol(self) -> &'static str {
        match self {
            DecisionOp::Eq => "=",
            DecisionOp::Ne => "!=",
            DecisionOp::Le => "<=",
            DecisionOp::Gt => ">",
        }
    }
}

/// `var op value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub var: VarId,
    pub op: DecisionOp,
    pub value: i32,
}

impl Decision {
    /// The other branch.
    pub fn negation(self) -> Decision {
        let op = match self.op {
            DecisionOp::Eq => DecisionOp::Ne,
            DecisionOp::Ne => DecisionOp::Eq,
            DecisionOp::Le => DecisionOp::Gt,
            DecisionOp::Gt => DecisionOp::Le,
        };
        Decision { op, ..self }
    }

    /// Apply to the model's store (the caller then propagates).
    pub fn apply(self, model: &mut Model) -> Result<(), crate::Conflict> {
        let s = &mut model.store;
        match self.op {
            DecisionOp::Eq => s.fix(self.var, self.value),
            DecisionOp::Ne => s.remove(self.var, self.value),
            DecisionOp::Le => s.set_max(self.var, self.value),
            DecisionOp::Gt => s.set_min(self.var, self.value.saturating_add(1)),
        }
        .map(|_| ())
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{} {} {}", self.var.0, self.op.symbol(), self.value)
    }
}

/// A puzzle's own variable choice: given the model and the candidate variables (all unfixed),
/// return one of them.
pub type CustomVarSelect = Arc<dyn Fn(&Model, &[VarId]) -> VarId + Send + Sync>;

/// Which variable to branch on.
#[derive(Clone, Default)]
pub enum VarSelect {
    /// The first unfixed variable, in the order given.
    InputOrder,
    /// Smallest domain first ("first fail"), ties by input order.
    #[default]
    SmallestDomain,
    /// Smallest domain / weighted degree (failures of the variable's constraints).
    DomWDeg,
    /// The puzzle decides.
    Custom(CustomVarSelect),
}

impl fmt::Debug for VarSelect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarSelect::InputOrder => "InputOrder",
            VarSelect::SmallestDomain => "SmallestDomain",
            VarSelect::DomWDeg => "DomWDeg",
            VarSelect::Custom(_) => "Custom",
        })
    }
}

/// Which value to try first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValSelect {
    #[default]
    Min,
    Max,
    /// `x <= mid` first, then `x > mid`.
    Split,
    Random,
}

/// Chooses decisions. Keeps the candidate lists and the random generator.
#[derive(Clone, Debug)]
pub struct Brancher {
    /// Variables the search must fix (the ones a solution is made of).
    primary: Vec<VarId>,
    /// Every other variable, fixed afterwards so that a solution is a full assignment.
    secondary: Vec<VarId>,
    var_select: VarSelect,
    val_select: ValSelect,
    rng: Rng,
    scratch: Vec<VarId>,
}

impl Brancher {
    pub fn new(
        model: &Model,
        primary: Option<&[VarId]>,
        var_select: VarSelect,
        val_select: ValSelect,
        seed: u64,
    ) -> Brancher {
        let all: Vec<VarId> = (0..model.num_vars() as u32).map(VarId).collect();
        let (primary, secondary) = match primary {
            None => (all, Vec::new()),
            Some(p) => {
                let mut is_primary = vec![false; model.num_vars()];
                for x in p {
                    is_primary[x.index()] = true;
                }
                (
                    p.to_vec(),
                    all.into_iter().filter(|x| !is_primary[x.index()]).collect(),
                )
            }
        };
        Brancher {
            primary,
            secondary,
            var_select,
            val_select,
            rng: Rng::new(seed),
            scratch: Vec::new(),
        }
    }

    /// The next decision, and whether it is on a primary variable; `None` when every
    /// variable is fixed (a solution).
    pub fn next(&mut self, model: &Model) -> Option<(Decision, bool)> {
        if let Some(x) = self.select_var(model, true) {
            return Some((self.select_value(model, x), true));
        }
        // Completing the secondary variables: plain input order and smallest value.
        let x = self
            .secondary
            .iter()
            .copied()
            .find(|&x| !model.store.is_fixed(x))?;
        Some((
            Decision {
                var: x,
                op: DecisionOp::Eq,
                value: model.store.min(x),
            },
            false,
        ))
    }

    fn select_var(&mut self, model: &Model, _primary: bool) -> Option<VarId> {
        let store = &model.store;
        match &self.var_select {
            VarSelect::InputOrder => self.primary.iter().copied().find(|&x| !store.is_fixed(x)),
            VarSelect::SmallestDomain => {
                // Run once per node over every variable, so kept to plain locals on the
                // borrowed slice of domains, with one comparison per variable: the key
                // `size - 2` wraps around to the two largest numbers for sizes 1 and 0 (fixed,
                // or empty after a conflict), so the smallest key below those is the smallest
                // open domain.
                let domains = store.domains();
                let mut best_key = u32::MAX - 1;
                let mut best = None;
                for &x in &self.primary {
                    let key = domains[x.index()].size().wrapping_sub(2);
                    if key < best_key {
                        best_key = key;
                        best = Some(x);
                        if key == 0 {
                            break; // two values: no open domain is smaller
                        }
                    }
                }
                best
            }
            VarSelect::DomWDeg => {
                let mut best: Option<(f64, VarId)> = None;
                for &x in &self.primary {
                    let s = store.size(x);
                    if s <= 1 {
                        continue;
                    }
                    let wdeg: u64 = model
                        .propagation
                        .watchers_of(x)
                        .filter(|&p| !model.propagation.is_entailed(store, p))
                        .map(|p| 1 + model.propagation.failures_of(p))
                        .sum();
                    let score = s as f64 / wdeg.max(1) as f64;
                    if best.is_none_or(|(b, _)| score < b) {
                        best = Some((score, x));
                    }
                }
                best.map(|(_, x)| x)
            }
            VarSelect::Custom(choose) => {
                self.scratch.clear();
                self.scratch
                    .extend(self.primary.iter().copied().filter(|&x| !store.is_fixed(x)));
                if self.scratch.is_empty() {
                    None
                } else {
                    Some(choose(model, &self.scratch))
                }
            }
        }
    }

    fn select_value(&mut self, model: &Model, x: VarId) -> Decision {
        let d = model.store.domain(x);
        match self.val_select {
            ValSelect::Min => Decision {
                var: x,
                op: DecisionOp::Eq,
                value: d.min(),
            },
            ValSelect::Max => Decision {
                var: x,
                op: DecisionOp::Eq,
                value: d.max(),
            },
            ValSelect::Split => {
                let mid = ((d.min() as i64 + d.max() as i64).div_euclid(2)) as i32;
                Decision {
                    var: x,
                    op: DecisionOp::Le,
                    value: mid,
                }
            }
            ValSelect::Random => {
                let k = self.rng.below(d.size() as u64) as usize;
                let value = d.iter().nth(k).expect("k < size");
                Decision {
                    var: x,
                    op: DecisionOp::Eq,
                    value,
                }
            }
        }
    }
}
