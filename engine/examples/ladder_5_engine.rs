//! # Rung 5 of the ladder: the engine
//!
//! The same model as rung 4 — n queens, no two on a row or a diagonal, the first open
//! column and its smallest row first — stated with the engine's propagators: three
//! all-different constraints over views of the rows (`q[c]`, `q[c] + c`, `q[c] - c`, see
//! `engine/src/view.rs`) at the value level, which is forward checking written once for the
//! whole constraint. Each is posted as its own propagator (`alldiff::new_all_different`):
//! `Model::all_different` would gather the three into one n-queens family, which adds a
//! pigeonhole rule that rung 4 does not have. The search
//! is the engine's: the same binary decisions, made fast (bitset domains, a trail, a queue).
//! With `first-fail` as second argument the engine picks the column with the fewest rows left.
//!
//! `cargo run --release -p engine --example ladder_5_engine -- 8 [first-fail]`

use engine::propagators::alldiff::new_all_different;
use engine::{AllDiffLevel, Model, SearchConfig, VarSelect, View};

/// Solutions and nodes of n-queens, columns in order or by first fail.
pub(crate) fn count(n: usize, first_fail: bool) -> (u64, u64) {
    let mut m = Model::new();
    let q = m.new_vars(n, 0, n as i32 - 1);
    for step in [0, 1, -1] {
        let shifted: Vec<View> = (0..n).map(|c| q[c].plus(step * c as i32)).collect();
        m.post(new_all_different(&shifted, AllDiffLevel::Value));
    }
    let config = SearchConfig {
        var_select: if first_fail {
            VarSelect::SmallestDomain
        } else {
            VarSelect::InputOrder
        },
        ..SearchConfig::default()
    };
    let outcome = engine::count(&mut m, &config);
    (outcome.solutions, outcome.stats.nodes)
}

#[allow(dead_code)]
fn main() {
    let mut args = std::env::args().skip(1);
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let first_fail = args.next().is_some_and(|a| a == "first-fail");
    let (solutions, nodes) = count(n, first_fail);
    println!("{n}-queens, the engine: {solutions} solutions, {nodes} nodes");
}
