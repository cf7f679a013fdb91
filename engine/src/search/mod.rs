//! # Search: explore the tree of guesses
//!
//! Propagation alone rarely solves a puzzle. The search takes a model at its fixpoint, makes a
//! guess (`brancher.rs`), propagates, and either goes deeper, finds a solution, or fails and
//! tries the other branch (`dfs.rs`). Around that loop sit the features a real solver needs:
//!
//! * enumeration (all solutions, the first N) and counting, also projected on a subset of
//!   the variables ("how many different pictures", whatever the hidden choices);
//! * optimisation by **branch and bound**: each solution found tightens the bound on the
//!   objective, so the next one must be better; when the tree is exhausted the last one is
//!   optimal;
//! * limits on nodes, failures and time, which stop cleanly with the best answer so far;
//! * restarts (`restarts.rs`);
//! * events for listeners (`events.rs`): statistics, traces;
//! * counting on every core (`parallel.rs`);
//! * cutting the tree into described parts for other machines (`decompose.rs`);
//! * large neighbourhood search for optimisation, between restarts (`lns.rs`).

pub mod brancher;
pub mod decompose;
pub mod dfs;
pub mod events;
pub mod lns;
pub mod parallel;
pub mod portfolio;
pub mod probe_implications;
pub mod probe_scores;
pub mod probing;
pub mod progress;
pub mod restarts;
pub mod resume;
pub mod stats;

pub use brancher::{Decision, DecisionOp, Neighbours, ValSelect, VarSelect};
pub use decompose::{decompose, restrict_objective, restrict_to_part, Part};
pub use dfs::search;
pub use events::{Layout, Naming, NoListener, Progress, SearchEvent, SearchListener, TraceWriter};
pub use lns::{search_lns, Branching, Lns};
pub use parallel::{count_parallel, count_parallel_with_progress};
pub use progress::{Both, ProgressListener};
pub use restarts::RestartPolicy;
pub use stats::SearchStats;

use crate::stats::PropagatorProfile;
use crate::store::VarId;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Minimise or maximise a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Objective {
    pub var: VarId,
    pub minimize: bool,
}

impl Objective {
    pub fn minimize(var: VarId) -> Objective {
        Objective {
            var,
            minimize: true,
        }
    }
    pub fn maximize(var: VarId) -> Objective {
        Objective {
            var,
            minimize: false,
        }
    }
}

/// When to give up. A stopped search reports what it found; it is never wrong, only
/// incomplete.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub nodes: Option<u64>,
    pub failures: Option<u64>,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Set by another thread to stop this search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A deadline `time` from now.
    pub fn with_time(mut self, time: Duration) -> Limits {
        self.deadline = Some(Instant::now() + time);
        self
    }
}

/// What to search for and how.
#[derive(Clone, Debug, Default)]
pub struct SearchConfig {
    pub var_select: VarSelect,
    pub val_select: ValSelect,
    /// Value choices of their own for some variables, overriding `val_select` (a FlatZinc
    /// `seq_search` gives each phase one). Empty: `val_select` for every variable.
    pub val_select_of: Vec<(VarId, ValSelect)>,
    /// The variables a solution is made of (default: all). The others are fixed afterwards.
    pub branch_vars: Option<Vec<VarId>>,
    /// Count and enumerate distinct assignments of `branch_vars` only: for each one, a single
    /// completion of the other variables is searched for.
    pub project: bool,
    pub objective: Option<Objective>,
    /// Stop after this many solutions (for optimisation: improving solutions).
    pub solution_limit: Option<u64>,
    pub limits: Limits,
    pub restarts: RestartPolicy,
    pub seed: u64,
    /// Learn a nogood from every failure (learning/): counts, first solutions and optima
    /// are the same as without; only the tree is smaller. The sequential search only.
    pub learn: bool,
    /// With `learn`: verify every reason and every nogood by brute force on the model
    /// (learning/checking.rs; small models, tests and debugging).
    pub check_learning: bool,
    /// With `learn`: branch on the primary variable of highest activity (VSIDS), on the
    /// value it had last (phase saving), instead of `var_select` and `val_select`
    /// (learning/activity.rs).
    pub activity: bool,
    /// Probe at every node, after its propagation (`probing.rs`); `None`: no probing. With
    /// `learn`, each refuted try is analysed and its nogood kept (and the tries keep to
    /// failed values: no removal by comparing them).
    pub node_probing: Option<probing::NodeProbing>,
    /// With `learn`, for a first solution or an optimum: learn in turns with the plain
    /// search, each turn from the root (learning/slices.rs). `None`: learn throughout.
    pub learning_slices: Option<crate::learning::slices::Slices>,
}

/// A full assignment: the value of every variable, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub values: Vec<i32>,
}

impl Solution {
    #[inline]
    pub fn value(&self, x: VarId) -> i32 {
        self.values[x.index()]
    }
}

/// What the callback says after each solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Stop,
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The whole tree was explored: the count is exact, the optimum proved, or there is no
    /// solution. False when a limit or the callback stopped the search.
    pub complete: bool,
    /// Solutions found (for optimisation: improving solutions).
    pub solutions: u64,
    /// The last solution found (the best one when optimising).
    pub best: Option<Solution>,
    /// Objective value of `best`.
    pub objective: Option<i64>,
    pub stats: SearchStats,
    pub profile: PropagatorProfile,
}

/// What a search was asked for: it decides what its outcome proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A solution (the search stops at the first).
    Satisfy,
    /// The best solution (branch and bound), or every improving one.
    Optimise,
    /// Every solution, each one reported.
    Enumerate,
    /// The number of solutions.
    Count,
}

/// The verdict of a search, in the words of MiniZinc's output (`----------`, `==========`,
/// `=====UNSATISFIABLE=====`, `=====UNKNOWN=====`) and of the CLI's JSON `status` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A solution was found (the optimum or the full list not proved, if those were asked).
    Satisfied,
    /// The best solution was found and proved best: the whole tree was explored.
    Optimal,
    /// Every solution was found (and counted): the whole tree was explored.
    AllSolutions,
    /// The whole tree was explored and holds no solution.
    Unsatisfiable,
    /// The search stopped before it knew: no solution yet, or a count cut short.
    Unknown,
}

impl Status {
    /// The status as MiniZinc and the JSON output spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Satisfied => "SATISFIED",
            Status::Optimal => "OPTIMAL",
            Status::AllSolutions => "ALL_SOLUTIONS",
            Status::Unsatisfiable => "UNSATISFIABLE",
            Status::Unknown => "UNKNOWN",
        }
    }
}

impl Outcome {
    /// What this outcome proves, for a search asked for `goal`. Only a complete search
    /// proves a negative (no solution), an optimum or a full list; a count cut short is no
    /// count at all, while a list or a branch and bound cut short still found solutions.
    pub fn status(&self, goal: Goal) -> Status {
        match (goal, self.complete, self.solutions > 0) {
            (_, true, false) => Status::Unsatisfiable,
            (_, false, false) => Status::Unknown,
            (Goal::Count, true, true) => Status::AllSolutions,
            (Goal::Count, false, true) => Status::Unknown,
            (Goal::Optimise, true, true) => Status::Optimal,
            (Goal::Enumerate, true, true) => Status::AllSolutions,
            (Goal::Satisfy, _, true) | (Goal::Optimise | Goal::Enumerate, false, true) => {
                Status::Satisfied
            }
        }
    }
}
