//! Count n-queens solutions:
//! `cargo run --release -p engine --example queens_count -- 12 [threads] [family|three]`.
//!
//! `family` (the default, as `cpsolve queens` does) posts the rows and both diagonals as one
//! family of offset all-differents (`alldiff/fast/offset_family.rs`); `three` posts three separate
//! value all-differents (`alldiff/fast/value.rs`), for comparing the two.
use engine::{AllDiffLevel, Model, SearchConfig};
fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let three = args.next().is_some_and(|a| a == "three");
    let mut m = Model::new();
    let q = m.new_vars(n, 0, n as i32 - 1);
    let rows = vec![0; n];
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = (0..n as i32).map(|c| -c).collect();
    if three {
        m.all_different_offset(&q, &rows, AllDiffLevel::Value);
        m.all_different_offset(&q, &up, AllDiffLevel::Value);
        m.all_different_offset(&q, &down, AllDiffLevel::Value);
    } else {
        m.all_different_family(&q, &[rows, up, down], AllDiffLevel::Value);
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
