//! Count n-queens solutions:
//! `cargo run --release -p engine --example queens_count -- 12 [threads] [family|three]`.
//!
//! `family` (the default, as `cpsolve queens` does) posts the rows and both diagonals with
//! `Model::all_different`, which runs them as one family (`alldiff/fast/offset_family.rs`);
//! `three` posts three separate value all-different propagators (`alldiff/fast/value.rs`),
//! for comparing the two.
use engine::propagators::alldiff::new_all_different;
use engine::{AllDiffLevel, Model, SearchConfig, View};
fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let three = args.next().is_some_and(|a| a == "three");
    let mut m = Model::new();
    let q = m.new_vars(n, 0, n as i32 - 1);
    for step in [0, 1, -1] {
        let shifted: Vec<View> = (0..n).map(|c| q[c].plus(step * c as i32)).collect();
        if three {
            m.post(new_all_different(&shifted, AllDiffLevel::Value));
        } else {
            m.all_different(&shifted, AllDiffLevel::Value);
        }
    }
    let t = std::time::Instant::now();
    let out = engine::count_parallel(&m, &SearchConfig::default(), threads);
    println!(
        "{n}-queens: {} solutions, {} nodes, {} failures, {:.3} s",
        out.solutions,
        out.stats.nodes,
        out.stats.failures,
        t.elapsed().as_secs_f64()
    );
}
