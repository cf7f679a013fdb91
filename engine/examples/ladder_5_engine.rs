//! # Rung 5 of the ladder: the engine
//!
//! The same model as rung 4 — n queens, no two on a row or a diagonal, the first open
//! column and its smallest row first — stated with the engine's modelling vocabulary: three
//! all-different constraints over the shifted rows (`q[c]`, `q[c] + c`, `q[c] - c`) at the
//! value level, which is forward checking written once for the whole constraint. The search
//! is the engine's: the same binary decisions, made fast (bitset domains, a trail, a queue).
//! With `first-fail` as second argument the engine picks the column with the fewest rows left.
//!
//! `cargo run --release -p engine --example ladder_5_engine -- 8 [first-fail]`

use engine::{AllDiffLevel, Model, SearchConfig, VarSelect};

/// Solutions and nodes of n-queens, columns in order or by first fail.
pub(crate) fn count(n: usize, first_fail: bool) -> (u64, u64) {
    let mut m = Model::new();
    let q = m.new_vars(n, 0, n as i32 - 1);
    let rows = vec![0; n];
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = (0..n as i32).map(|c| -c).collect();
    for offsets in [&rows, &up, &down] {
        m.all_different_offset(&q, offsets, AllDiffLevel::Value);
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
