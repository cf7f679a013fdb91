//! Each strong propagator alone, at several sizes, on generated domains.
//!
//! Every instance *plants* a solution: random domains that all contain the planted values.
//! A benchmark iteration is one search node: open a level, remove one value that the planted
//! solution does not use, propagate to the fixpoint, close the level. Before measuring, every
//! such node is run once and checked: propagation must succeed and keep the planted solution
//! (a propagator that pruned it would be unsound), and the domain-consistent propagators must
//! leave the same domains as a fresh model propagated from scratch (the incremental path
//! agrees with the reference).
//!
//! Run: `cargo bench -p benches --bench propagators` (or add a filter such as `alldiff`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use engine::rng::Rng;
use engine::{AllDiffLevel, Model, VarId};
use std::hint::black_box;

/// A model with variables over planted domains, the planted values, and the nodes to replay.
struct Instance {
    model: Model,
    vars: Vec<VarId>,
    planted: Vec<i32>,
    /// (variable position, value to remove): never a planted value.
    nodes: Vec<(usize, i32)>,
}

/// `n` variables over `lo..=hi`: each domain holds its planted value and each other value
/// with probability `density`.
fn planted_domains(
    rng: &mut Rng,
    planted: &[i32],
    lo: i32,
    hi: i32,
    density: f64,
) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars = planted
        .iter()
        .map(|&p| {
            let values: Vec<i32> = (lo..=hi)
                .filter(|&v| v == p || (rng.below(1000) as f64) < density * 1000.0)
                .collect();
            m.new_var_from_values(&values)
        })
        .collect();
    (m, vars)
}

/// Builds a fresh model over the given domains, with the benchmarked constraint posted, and
/// returns it with its variables: the from-scratch reference for the incremental check.
type Rebuild = dyn Fn(&[Vec<i32>]) -> (Model, Vec<VarId>);

fn finish(
    mut model: Model,
    vars: Vec<VarId>,
    planted: Vec<i32>,
    rng: &mut Rng,
    rebuild: &Rebuild,
) -> Instance {
    model.propagate().expect("the planted solution exists");
    let doms = |m: &Model, xs: &[VarId]| -> Vec<Vec<i32>> {
        xs.iter().map(|&x| m.domain(x).iter().collect()).collect()
    };
    let mut nodes = Vec::new();
    for _ in 0..64 {
        let free: Vec<usize> = (0..vars.len())
            .filter(|&i| model.size(vars[i]) > 1)
            .collect();
        if free.is_empty() {
            break;
        }
        let i = free[rng.below(free.len() as u64) as usize];
        let others: Vec<i32> = model
            .domain(vars[i])
            .iter()
            .filter(|&v| v != planted[i])
            .collect();
        nodes.push((i, others[rng.below(others.len() as u64) as usize]));
    }
    // Check every node once: sound, and incremental = from scratch.
    for &(i, v) in &nodes {
        let checkpoint = model.checkpoint();
        let _ = model.remove(vars[i], v);
        let before = doms(&model, &vars);
        assert!(model.propagate().is_ok(), "a planted solution exists");
        let after = doms(&model, &vars);
        for (k, d) in after.iter().enumerate() {
            assert!(
                d.contains(&planted[k]),
                "the planted value of x{k} was pruned"
            );
        }
        let (mut fresh, fvars) = rebuild(&before);
        assert!(fresh.propagate().is_ok());
        assert_eq!(doms(&fresh, &fvars), after, "incremental != from scratch");
        model.rollback(checkpoint);
    }
    Instance {
        model,
        vars,
        planted,
        nodes,
    }
}

fn model_from(doms: &[Vec<i32>]) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs = doms.iter().map(|d| m.new_var_from_values(d)).collect();
    (m, xs)
}

fn permutation(rng: &mut Rng, n: usize) -> Vec<i32> {
    let mut p: Vec<i32> = (0..n as i32).collect();
    rng.shuffle(&mut p);
    p
}

fn run_nodes(inst: &mut Instance) {
    for &(i, v) in &inst.nodes {
        let checkpoint = inst.model.checkpoint();
        let _ = inst.model.remove(inst.vars[i], v);
        let ok = inst.model.propagate().is_ok();
        black_box(ok);
        inst.model.rollback(checkpoint);
    }
}

fn alldiff(c: &mut Criterion) {
    let mut group = c.benchmark_group("alldiff");
    for n in [9usize, 32, 128] {
        for level in [
            AllDiffLevel::Value,
            AllDiffLevel::Bounds,
            AllDiffLevel::Domain,
        ] {
            let mut rng = Rng::new(n as u64);
            let planted = permutation(&mut rng, n);
            let (mut m, xs) = planted_domains(&mut rng, &planted, 0, n as i32 - 1, 0.5);
            m.all_different(&xs, level);
            let rebuild = move |d: &[Vec<i32>]| {
                let (mut m, xs) = model_from(d);
                m.all_different(&xs, level);
                (m, xs)
            };
            let mut inst = finish(m, xs, planted, &mut rng, &rebuild);
            group.bench_with_input(BenchmarkId::new(level.to_string(), n), &n, |b, _| {
                b.iter(|| run_nodes(&mut inst))
            });
            black_box(&inst.planted);
        }
    }
    group.finish();
}

fn cardinality(c: &mut Criterion) {
    let mut group = c.benchmark_group("cardinality");
    for n in [6usize, 24, 96] {
        // Values 0..k, each used n / k times by the planted solution.
        let k = 3;
        let mut rng = Rng::new(100 + n as u64);
        let planted: Vec<i32> = permutation(&mut rng, n).iter().map(|v| v % k).collect();
        let counts: Vec<(i32, u32)> = (0..k).map(|v| (v, (n as i32 / k) as u32)).collect();
        let (mut m, xs) = planted_domains(&mut rng, &planted, 0, k - 1, 0.7);
        m.global_cardinality(&xs, &counts);
        let cc = counts.clone();
        let rebuild = move |d: &[Vec<i32>]| {
            let (mut m, xs) = model_from(d);
            m.global_cardinality(&xs, &cc);
            (m, xs)
        };
        let mut inst = finish(m, xs, planted.clone(), &mut rng, &rebuild);
        group.bench_with_input(BenchmarkId::new("gcc", n), &n, |b, _| {
            b.iter(|| run_nodes(&mut inst))
        });
        // The same with one count_eq per value (weaker, cheaper).
        let (mut m, xs) = planted_domains(&mut Rng::new(7 + n as u64), &planted, 0, k - 1, 0.7);
        for &(v, c) in &counts {
            m.count_eq(&xs, v, c as i32);
        }
        let cc = counts.clone();
        let rebuild = move |d: &[Vec<i32>]| {
            let (mut m, xs) = model_from(d);
            for &(v, c) in &cc {
                m.count_eq(&xs, v, c as i32);
            }
            (m, xs)
        };
        let mut inst = finish(m, xs, planted, &mut rng, &rebuild);
        group.bench_with_input(BenchmarkId::new("count_eq_per_value", n), &n, |b, _| {
            b.iter(|| run_nodes(&mut inst))
        });
    }
    group.finish();
}

fn element_and_table(c: &mut Criterion) {
    let mut group = c.benchmark_group("element_table");
    for size in [16usize, 256, 4096] {
        let mut rng = Rng::new(size as u64);
        let array: Vec<i32> = (0..size)
            .map(|_| rng.below(size as u64 / 2 + 1) as i32)
            .collect();
        let index = rng.below(size as u64) as usize;
        let planted = vec![index as i32, array[index]];
        let mut m = Model::new();
        let i = m.new_var(0, size as i32 - 1);
        let r = m.new_var(0, size as i32 / 2);
        m.element(i, &array, r);
        let a = array.clone();
        let rebuild = move |d: &[Vec<i32>]| {
            let (mut m, xs) = model_from(d);
            m.element(xs[0], &a, xs[1]);
            (m, xs)
        };
        let mut inst = finish(m, vec![i, r], planted, &mut rng, &rebuild);
        group.bench_with_input(BenchmarkId::new("element", size), &size, |b, _| {
            b.iter(|| run_nodes(&mut inst))
        });

        // A table of `size` random rows over 4 variables with values 0..8, plus the planted row.
        let mut rows: Vec<Vec<i32>> = (0..size)
            .map(|_| (0..4).map(|_| rng.below(8) as i32).collect())
            .collect();
        let planted = rows[rng.below(size as u64) as usize].clone();
        rows.push(planted.clone());
        let mut m = Model::new();
        let xs = m.new_vars(4, 0, 7);
        m.table(&xs, rows.clone());
        let rebuild = move |d: &[Vec<i32>]| {
            let (mut m, xs) = model_from(d);
            m.table(&xs, rows.clone());
            (m, xs)
        };
        let mut inst = finish(m, xs, planted, &mut rng, &rebuild);
        group.bench_with_input(BenchmarkId::new("table_4", size), &size, |b, _| {
            b.iter(|| run_nodes(&mut inst))
        });
    }
    group.finish();
}

fn distinct_sum(c: &mut Criterion) {
    let mut group = c.benchmark_group("distinct_sum");
    for n in [2usize, 5, 9] {
        let mut rng = Rng::new(300 + n as u64);
        let planted: Vec<i32> = permutation(&mut rng, 9)[..n]
            .iter()
            .map(|v| v + 1)
            .collect();
        let total: i64 = planted.iter().map(|&v| v as i64).sum();
        let (mut m, xs) = planted_domains(&mut rng, &planted, 1, 9, 0.8);
        m.distinct_sum(&xs, total);
        let rebuild = move |d: &[Vec<i32>]| {
            let (mut m, xs) = model_from(d);
            m.distinct_sum(&xs, total);
            (m, xs)
        };
        let mut inst = finish(m, xs, planted, &mut rng, &rebuild);
        group.bench_with_input(BenchmarkId::new("dp", n), &n, |b, _| {
            b.iter(|| run_nodes(&mut inst))
        });
    }
    group.finish();
}

fn clauses(c: &mut Criterion) {
    let mut group = c.benchmark_group("clause");
    for n in [4usize, 32, 256] {
        // n variables, n clauses of 3 random literals satisfied by a planted assignment.
        let mut rng = Rng::new(500 + n as u64);
        let planted: Vec<i32> = (0..n).map(|_| rng.below(2) as i32).collect();
        let mut clauses: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        while clauses.len() < n {
            let lits: Vec<(usize, bool)> = (0..3)
                .map(|_| (rng.below(n as u64) as usize, rng.below(2) == 0))
                .collect();
            if lits.iter().any(|&(x, s)| planted[x] == s as i32) {
                let pos = lits.iter().filter(|l| l.1).map(|l| l.0).collect();
                let neg = lits.iter().filter(|l| !l.1).map(|l| l.0).collect();
                clauses.push((pos, neg));
            }
        }
        let post = |m: &mut Model, xs: &[VarId], clauses: &[(Vec<usize>, Vec<usize>)]| {
            for (pos, neg) in clauses {
                let p: Vec<VarId> = pos.iter().map(|&i| xs[i]).collect();
                let q: Vec<VarId> = neg.iter().map(|&i| xs[i]).collect();
                m.clause(&p, &q);
            }
        };
        let mut m = Model::new();
        let xs = m.new_vars(n, 0, 1);
        post(&mut m, &xs, &clauses);
        let cl = clauses.clone();
        let rebuild = move |d: &[Vec<i32>]| {
            let (mut m, xs) = model_from(d);
            post(&mut m, &xs, &cl);
            (m, xs)
        };
        let mut inst = finish(m, xs, planted, &mut rng, &rebuild);
        group.bench_with_input(BenchmarkId::new("3-literal", n), &n, |b, _| {
            b.iter(|| run_nodes(&mut inst))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    alldiff,
    cardinality,
    element_and_table,
    distinct_sum,
    clauses
);
criterion_main!(benches);
