//! n-queens counting, n = 8..14, on 1 and 2 threads; every count is checked against the
//! known numbers (OEIS A000170). The large ones run few samples.
//!
//! `queens_three_alldiffs` counts 10..12 with the rows and diagonals posted as three separate
//! value all-differents (`alldiff/fast/value.rs`) instead of one family (`alldiff/fast/offset_family.rs`,
//! what `cpsolve queens` and `queens_model` post), with the same search: forward checking
//! alone, without the family's pigeonhole check, so more nodes, each dearer for the engine.

use benches::{queens_model, QUEENS_SOLUTIONS};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::{AllDiffLevel, Model};
use std::time::Duration;

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens_count");
    // n = 8..=14, with its known count.
    for (n, &known) in (8..=14usize).zip(&QUEENS_SOLUTIONS[8..]) {
        let (model, search) = queens_model(n);
        // Criterion's minimum is 10 samples; keep the big ones short.
        group.sample_size(if n <= 11 { 20 } else { 10 });
        group.measurement_time(Duration::from_secs(if n <= 12 { 3 } else { 10 }));
        for threads in [1, 2] {
            group.bench_with_input(
                BenchmarkId::new(format!("{threads}thread"), n),
                &model,
                |b, model| {
                    b.iter(|| {
                        let out = engine::count_parallel(model, &search, threads);
                        assert_eq!(out.solutions, known);
                        out.solutions
                    })
                },
            );
        }
    }
    group.finish();
}

/// The model before the family: three value all-differents.
fn queens_three_alldiffs_model(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.new_vars(n, 0, n as i32 - 1);
    for step in [0, 1, -1] {
        let shifted: Vec<engine::View> = (0..n).map(|c| q[c].plus(step * c as i32)).collect();
        // Posted as three propagators: `Model::all_different` would gather them into one.
        m.post(engine::propagators::alldiff::new_all_different(
            &shifted,
            AllDiffLevel::Value,
        ));
    }
    m
}

fn queens_three_alldiffs(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens_three_alldiffs");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    for (n, &known) in (10..=12usize).zip(&QUEENS_SOLUTIONS[10..]) {
        let model = queens_three_alldiffs_model(n);
        let (_, search) = queens_model(n);
        group.bench_with_input(BenchmarkId::new("1thread", n), &model, |b, model| {
            b.iter(|| {
                let out = engine::count_parallel(model, &search, 1);
                assert_eq!(out.solutions, known);
                out.solutions
            })
        });
    }
    group.finish();
}

criterion_group!(benches, queens, queens_three_alldiffs);
criterion_main!(benches);
