//! n-queens counting, n = 8..14, on 1 and 2 threads; every count is checked against the
//! known numbers (OEIS A000170). The large ones run few samples.

use benches::{queens_model, QUEENS_SOLUTIONS};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::SearchConfig;
use std::time::Duration;

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens_count");
    for n in 8..=14usize {
        let model = queens_model(n);
        // Criterion's minimum is 10 samples; keep the big ones short.
        group.sample_size(if n <= 11 { 20 } else { 10 });
        group.measurement_time(Duration::from_secs(if n <= 12 { 3 } else { 10 }));
        for threads in [1, 2] {
            group.bench_with_input(
                BenchmarkId::new(format!("{threads}thread"), n),
                &model,
                |b, model| {
                    b.iter(|| {
                        let out = engine::count_parallel(model, &SearchConfig::default(), threads);
                        assert_eq!(out.solutions, QUEENS_SOLUTIONS[n]);
                        out.solutions
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, queens);
criterion_main!(benches);
