//! # cpsolve's engine: a constraint-programming solver, written to be read
//!
//! The concepts of constraint programming, one file each:
//!
//! | concept | file |
//! |---|---|
//! | a variable's set of possible values | [`domain`] |
//! | all the variables, and going back in time (the trail) | `store.rs` ([`Store`]) |
//! | a constraint's filtering algorithm | [`propagator`], [`propagators`] |
//! | running propagators until nothing changes | `queue.rs`, `propagation.rs` ([`Model::propagate`]) |
//! | why a value was removed | [`explain`] |
//! | learning from failure: atoms, reasons, nogoods | [`learning`] |
//! | variables + constraints | [`model`] |
//! | guessing, backtracking, optimising, counting | [`search`](mod@search) |
//! | what happened, and where the time went | `stats.rs` ([`PropagatorProfile`]) |
//!
//! The modules a user of the library needs are public; the engine's own machinery (the
//! store and its trail, the queue, the propagation loop, the statistics, the unchecked
//! indexing) is private to the crate, and the types a user meets from it are re-exported
//! here.
//!
//! A tiny example, the classic SEND + MORE = MONEY:
//!
//! ```
//! use engine::{Model, AllDiffLevel, Relation, SearchConfig};
//! let mut m = Model::new();
//! let v = m.new_vars(8, 0, 9); // S E N D M O R Y
//! let (s, e, n, d, mm, o, r, y) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
//! m.all_different(&v, AllDiffLevel::Value);
//! m.linear(&[(1000, s), (100, e), (10, n), (1, d), (1000, mm), (100, o), (10, r), (1, e),
//!            (-10000, mm), (-1000, o), (-100, n), (-10, e), (-1, y)], Relation::Eq, 0);
//! m.linear(&[(1, s)], Relation::Ge, 1);
//! m.linear(&[(1, mm)], Relation::Ge, 1);
//! let outcome = engine::solve(&mut m, &SearchConfig::default());
//! let sol = outcome.best.unwrap();
//! assert_eq!((sol.value(s), sol.value(e), sol.value(n), sol.value(d)), (9, 5, 6, 7));
//! ```

#![deny(unsafe_code)]

pub mod atom;
pub(crate) mod conflict;
pub mod domain;
pub mod explain;
pub mod interrupt;
pub mod learning;
pub mod model;
pub(crate) mod propagation;
pub mod propagator;
pub mod propagators;
pub(crate) mod queue;
pub mod rng;
pub mod search;
pub(crate) mod stats;
pub(crate) mod store;
pub mod testing;
mod unchecked;
pub mod view;

pub use atom::Atom;
pub use domain::{Domain, Event};
pub use interrupt::StopCheck;
pub use model::{Checkpoint, Model};
pub use propagation::PropId;
pub use propagator::{
    Condition, Conflict, Context, EnqueueDecision, PostContext, Priority, PropResult, Propagator,
    PropagatorClone, Subscription,
};
pub use propagators::alldiff::AllDiffLevel;
pub use propagators::linear::Relation;
pub use search::SearchStats;
pub use search::{
    count_parallel, search, Control, Goal, Limits, Objective, Outcome, RestartPolicy, SearchConfig,
    Solution, Status, ValSelect, VarSelect,
};
pub use stats::PropagatorProfile;
pub use store::{LevelStamp, Store, VarId};
pub use view::View;

/// The first solution (or, with an objective, the optimum), with no listener.
pub fn solve(model: &mut Model, config: &SearchConfig) -> Outcome {
    let mut config = config.clone();
    if config.objective.is_none() && config.solution_limit.is_none() {
        config.solution_limit = Some(1);
    }
    search(model, &config, &mut search::NoListener, &mut |_| {
        Control::Continue
    })
}

/// The number of solutions (projected on `config.branch_vars` when `config.project`).
pub fn count(model: &mut Model, config: &SearchConfig) -> Outcome {
    let config = SearchConfig {
        objective: None,
        solution_limit: None,
        ..config.clone()
    };
    search(model, &config, &mut search::NoListener, &mut |_| {
        Control::Continue
    })
}
