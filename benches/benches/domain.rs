//! Domain operations alone: the innermost loop of every propagator. Domains of 9 values
//! (a Sudoku cell), 64 (the one-word limit) and 200 (several words).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::Domain;

fn domain_ops(c: &mut Criterion) {
    let mut group = c.benchmark_group("domain");
    for span in [9, 64, 200] {
        let full = Domain::interval(1, span);
        group.bench_with_input(BenchmarkId::new("contains_all", span), &full, |b, d| {
            b.iter(|| {
                let n = (0..=span + 1).filter(|&v| black_box(d).contains(v)).count();
                assert_eq!(n, span as usize);
                n
            })
        });
        group.bench_with_input(
            BenchmarkId::new("remove_every_other", span),
            &full,
            |b, d| {
                b.iter(|| {
                    let mut d = d.clone();
                    for v in (1..=span).step_by(2) {
                        d.remove(black_box(v)).unwrap();
                    }
                    assert_eq!(d.size() as i32, span / 2);
                    d
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("bounds_and_fix", span), &full, |b, d| {
            b.iter(|| {
                let mut d = d.clone();
                d.remove_below(black_box(2)).unwrap();
                d.remove_above(black_box(span - 1)).unwrap();
                d.fix(black_box(span / 2)).unwrap();
                assert!(d.is_fixed());
                d
            })
        });
        group.bench_with_input(BenchmarkId::new("iterate", span), &full, |b, d| {
            b.iter(|| {
                let sum: i64 = black_box(d).iter().map(i64::from).sum();
                assert_eq!(sum, (span as i64) * (span as i64 + 1) / 2);
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, domain_ops);
criterion_main!(benches);
