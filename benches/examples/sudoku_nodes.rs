//! Nodes and propagator runs per Sudoku at each all-different level:
//! `cargo run --release -p benches --example sudoku_nodes -- FILE [N]` (FILE under
//! ../shared/data/sudoku/).
use benches::*;
use engine::AllDiffLevel;
fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "puzzles2_17_clue_first1000.txt".into());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let Some(lines) = sudoku_lines(&format!("sudoku/{file}"), n) else {
        return;
    };
    let levels: Vec<AllDiffLevel> = match args.next() {
        Some(l) => vec![l.parse().expect("value, bounds or domain")],
        None => vec![
            AllDiffLevel::Value,
            AllDiffLevel::Bounds,
            AllDiffLevel::Domain,
        ],
    };
    for level in levels {
        let mut solver = SudokuSolver::new(level);
        let (mut nodes, mut props) = (0u64, 0u64);
        let t = std::time::Instant::now();
        for l in &lines {
            let (found, _, stats) = solver.solve_with_stats(&sudoku_givens(l), 2);
            assert_eq!(found, 1);
            nodes += stats.nodes;
            props += stats.propagations;
        }
        let s = t.elapsed().as_secs_f64();
        let k = lines.len() as f64;
        println!("{level:<7} {:>9.1} nodes/puzzle {:>9.1} propagations/puzzle {:>8.1} µs/puzzle {:>6.0} ns/propagation",
            nodes as f64 / k, props as f64 / k, 1e6 * s / k, 1e9 * s / props as f64);
    }
}
