//! Kakuro: the first janko.at puzzles of `../shared/data/kakuro` solved at each sum level
//! (`--sum bounds|domain`) and all-different level, proving uniqueness (up to 2 solutions).
//! Every solution goes through the puzzle's checker and must equal the published one.
//! Skips, saying so, when the data is absent (it is never copied into the repository).

use benches::{kakuro_entries, kakuro_solve_checked, KakuroEntry};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::AllDiffLevel;
use puzzles::{ModelOptions, SumLevel};
use std::time::Duration;

/// Puzzles per iteration: bounds-level sums need ~0.1 s for some boards.
const PUZZLES: usize = 20;

fn solve_all(entries: &[KakuroEntry], options: &ModelOptions) -> usize {
    for e in entries {
        kakuro_solve_checked(e, options);
    }
    entries.len()
}

fn kakuro(c: &mut Criterion) {
    let Some(entries) = kakuro_entries(PUZZLES) else {
        return;
    };
    let mut group = c.benchmark_group(format!("kakuro_janko_first{PUZZLES}"));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for sum in [SumLevel::Bounds, SumLevel::Domain] {
        for alldiff in [AllDiffLevel::Value, AllDiffLevel::Domain] {
            let options = ModelOptions {
                alldiff,
                sum,
                ..Default::default()
            };
            let id = BenchmarkId::new(format!("sum_{sum:?}"), format!("alldiff_{alldiff}"));
            group.bench_with_input(id, &options, |b, options| {
                b.iter(|| assert_eq!(solve_all(&entries, options), entries.len()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, kakuro);
criterion_main!(benches);
