//! Core propagators alone, on generated domains of several sizes: the linear sum (bounds
//! consistency) and all-different at each level. Each iteration opens a level, narrows a
//! few variables, propagates to the fixpoint and closes the level; the answer (how many
//! values were removed) is checked against the first run, so a change that prunes less or
//! more is seen, not timed.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::{AllDiffLevel, Model, Relation, VarId};

/// Domains of `n` variables over `1..=d`, with a deterministic pattern of holes.
fn generated_vars(m: &mut Model, n: usize, d: i32) -> Vec<VarId> {
    (0..n)
        .map(|i| {
            let values: Vec<i32> = (1..=d).filter(|v| (v + i as i32) % 7 != 0).collect();
            m.new_var_from_values(&values)
        })
        .collect()
}

/// Time `narrow` + propagation at a fresh level; check the removed-value count is stable.
fn bench_model(
    c: &mut Criterion,
    group: &str,
    id: BenchmarkId,
    mut m: Model,
    narrow: impl Fn(&mut Model) -> bool,
) {
    m.propagate().expect("root propagates");
    let mut expected: Option<(bool, u64)> = None;
    c.benchmark_group(group).bench_function(id, |b| {
        b.iter(|| {
            let before = m.removed_count();
            let checkpoint = m.checkpoint();
            let ok = narrow(&mut m) && m.propagate().is_ok();
            let removed = m.removed_count() - before;
            m.rollback(checkpoint);
            let got = (ok, removed);
            assert_eq!(*expected.get_or_insert(got), got, "pruning changed");
            got
        })
    });
}

fn linear(c: &mut Criterion) {
    for n in [4, 16, 64] {
        let mut m = Model::new();
        let xs = generated_vars(&mut m, n, 20);
        let terms: Vec<(i64, VarId)> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| (1 + i as i64 % 3, x))
            .collect();
        let total: i64 = terms.iter().map(|&(a, _)| a * 10).sum();
        m.linear(&terms, Relation::Eq, total);
        let (a, b) = (xs[0], xs[n - 1]);
        bench_model(
            c,
            "linear_eq",
            BenchmarkId::from_parameter(n),
            m,
            move |m| m.set_min(a, 15).is_ok() && m.set_max(b, 5).is_ok(),
        );
    }
}

fn all_different(c: &mut Criterion) {
    for level in [
        AllDiffLevel::Value,
        AllDiffLevel::Bounds,
        AllDiffLevel::Domain,
    ] {
        for n in [9, 16, 32] {
            let mut m = Model::new();
            let xs = generated_vars(&mut m, n, n as i32 + 2);
            m.all_different(&xs, level);
            let fixed: Vec<VarId> = xs.iter().copied().step_by(3).collect();
            bench_model(
                c,
                &format!("alldiff_{level}"),
                BenchmarkId::from_parameter(n),
                m,
                move |m| {
                    fixed.iter().all(|&x| {
                        let v = m.max(x);
                        m.fix(x, v).is_ok() && m.propagate().is_ok()
                    })
                },
            );
        }
    }
}

criterion_group!(benches, linear, all_different);
criterion_main!(benches);
