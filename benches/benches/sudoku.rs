//! Sudoku sets from `../shared/data/sudoku` (skipped, saying so, when absent): first
//! solution and uniqueness (up to 2 solutions) at each all-different level, and restarts
//! on/off on the hard sets. Every solution is checked (rules and givens); uniqueness runs
//! must find exactly one. One model is built per level and reused for every puzzle.

use benches::{sudoku_givens, sudoku_lines, sudoku_restart_cases, SudokuSolver};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::AllDiffLevel;
use std::time::Duration;

/// (file, puzzles per iteration): small samples keep one iteration well under a second.
const SETS: [(&str, usize); 3] = [
    ("puzzles2_17_clue_first1000.txt", 20),
    ("puzzles3_magictour_top1465.txt", 20),
    ("puzzles5_forum_hardest_1905_11plus_first1000.txt", 10),
];

fn solve_all(solver: &mut SudokuSolver, puzzles: &[[u8; 81]], limit: u64) -> u64 {
    let mut total = 0;
    for g in puzzles {
        let (found, _) = solver.solve(g, limit);
        // The solver asserts every solution it finds; here the counts.
        assert_eq!(
            found, 1,
            "every puzzle of these sets has exactly one solution"
        );
        total += found;
    }
    total
}

fn sudoku_levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (file, n) in SETS {
        let Some(lines) = sudoku_lines(&format!("sudoku/{file}"), n) else {
            continue;
        };
        let puzzles: Vec<[u8; 81]> = lines.iter().map(|l| sudoku_givens(l)).collect();
        let set = file.trim_end_matches(".txt");
        for level in [AllDiffLevel::Value, AllDiffLevel::Domain] {
            let mut solver = SudokuSolver::new(level);
            for (mode, limit) in [("first", 1), ("unique", 2)] {
                group.bench_function(BenchmarkId::new(format!("{set}/{mode}"), level), |b| {
                    b.iter(|| solve_all(&mut solver, &puzzles, limit))
                });
            }
        }
    }
    group.finish();
}

fn sudoku_restarts(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku_restarts");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (file, n) in &SETS[1..] {
        let Some(lines) = sudoku_lines(&format!("sudoku/{file}"), *n) else {
            continue;
        };
        let puzzles: Vec<[u8; 81]> = lines.iter().map(|l| sudoku_givens(l)).collect();
        let set = file.trim_end_matches(".txt");
        for (name, config) in sudoku_restart_cases() {
            let mut solver = SudokuSolver::new(AllDiffLevel::Domain).with_config(config);
            group.bench_function(BenchmarkId::new(set, name), |b| {
                b.iter(|| solve_all(&mut solver, &puzzles, 1))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, sudoku_levels, sudoku_restarts);
criterion_main!(benches);
