//! Restarts on and off on the hard Sudoku sets, in figures that do not depend on the
//! machine's load: nodes, failures and restarts per puzzle (deterministic), and CPU time per
//! puzzle (this process only). The same configurations as `benches/benches/sudoku.rs`
//! (`sudoku_restarts`): domain-consistent all-different, dom/wdeg, first solution.
//!
//! `cargo run --release -p benches --example sudoku_restarts -- [N]` (first N puzzles of
//! each set, default 200; the sets are read from ../shared/data/sudoku and skipped when
//! absent).
use benches::*;
use engine::AllDiffLevel;

/// CPU time used by this process so far, in seconds (user + system).
fn cpu_seconds() -> f64 {
    // /proc/self/stat fields 14 and 15: utime and stime in clock ticks (100 per second).
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    let after_name = &stat[stat.rfind(')').map_or(0, |i| i + 2)..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => (user + system) / 100.0,
        _ => f64::NAN,
    }
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let sets = [
        "puzzles3_magictour_top1465.txt",
        "puzzles5_forum_hardest_1905_11plus_first1000.txt",
    ];
    println!(
        "{:<50} {:>6} {:>7} {:>12} {:>12} {:>10} {:>12}",
        "set", "puzzles", "restarts", "nodes/puz", "failures/puz", "restarts/puz", "cpu ms/puz"
    );
    for set in sets {
        let Some(lines) = sudoku_lines(&format!("sudoku/{set}"), n) else {
            continue;
        };
        let puzzles: Vec<[u8; 81]> = lines.iter().map(|l| sudoku_givens(l)).collect();
        for (name, config) in sudoku_restart_cases() {
            let mut solver = SudokuSolver::new(AllDiffLevel::Domain).with_config(config);
            let (mut nodes, mut failures, mut restarts) = (0u64, 0u64, 0u64);
            let started = cpu_seconds();
            for g in &puzzles {
                let (found, _, stats) = solver.solve_with_stats(g, 1);
                assert_eq!(found, 1, "every puzzle of these sets has a solution");
                nodes += stats.nodes;
                failures += stats.failures;
                restarts += stats.restarts;
            }
            let cpu = cpu_seconds() - started;
            let k = puzzles.len() as f64;
            println!(
                "{:<50} {:>6} {:>7} {:>12.1} {:>12.1} {:>10.2} {:>12.3}",
                set.trim_end_matches(".txt"),
                puzzles.len(),
                name,
                nodes as f64 / k,
                failures as f64 / k,
                restarts as f64 / k,
                1e3 * cpu / k
            );
        }
    }
}
