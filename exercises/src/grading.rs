//! # The graders
//!
//! One function per exercise. Each takes the student's code as an argument (a function, or a
//! table of a type's methods), checks it against brute force or against the engine's own
//! algorithm, and panics with what went wrong and a hint if it is not right. Taking the code
//! as an argument lets `exercises/tests/graders_can_fail.rs` run every grader on the untouched stubs
//! and on the model answers alike.
//!
//! Nothing here compares with a stored answer: each truth is computed (all the assignments
//! of a small board, the harness of chapter 7, the engine's own branch and bound).

use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{
    Condition, Context, Control, Limits, Model, Objective, PropResult, Propagator,
    PropagatorProfile, Relation, SearchConfig, Subscription, ValSelect, VarId, VarSelect,
};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Run `grade`; if it panics (a wrong answer, or a `todo!()` still there), panic again with
/// the exercise's name and a hint added to the message.
pub fn with_hint(exercise: &str, hint: &str, grade: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(grade)) {
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        match message {
            Some(message) => panic!("{exercise}: {message}\n  hint: {hint}"),
            None => resume_unwind(payload),
        }
    }
}

// ----- chapter 0 ---------------------------------------------------------------------------

/// Are queens in rows `rows[c]` (one per column `c`) free of attacks?
pub fn queens_ok(rows: &[i32]) -> bool {
    (0..rows.len()).all(|i| {
        (i + 1..rows.len()).all(|j| {
            let gap = (j - i) as i32;
            rows[i] != rows[j] && (rows[i] - rows[j]).abs() != gap
        })
    })
}

/// Every assignment of `n` queens, one per column (generate-and-test's whole space).
fn all_placements(n: usize) -> Vec<Vec<i32>> {
    let mut all = vec![Vec::new()];
    for _ in 0..n {
        all = all
            .into_iter()
            .flat_map(|rows: Vec<i32>| {
                (0..n as i32).map(move |r| {
                    let mut next = rows.clone();
                    next.push(r);
                    next
                })
            })
            .collect();
    }
    all
}

pub fn e00_generate_and_test(assignments_tried: fn() -> u64, solutions_found: fn() -> u64) {
    with_hint(
        "e00_generate_and_test",
        "generate-and-test tries every row for every column; then count those with no attack",
        || {
            let all = all_placements(4);
            assert_eq!(
                assignments_tried(),
                all.len() as u64,
                "not the number of assignments"
            );
            let solutions = all.iter().filter(|rows| queens_ok(rows)).count() as u64;
            assert_eq!(solutions_found(), solutions, "not the number of solutions");
        },
    );
}

// ----- chapter 1 ---------------------------------------------------------------------------

/// A small deterministic generator (the grader must give every student the same cases).
fn mix(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let x = *state;
    (x ^ (x >> 29)).wrapping_mul(0xBF58476D1CE4E5B9) ^ (x >> 32)
}

pub fn e01_next_value(next_value: fn(u64, i32, i32) -> Option<i32>) {
    with_hint(
        "e01_next_value",
        "first = after + 1 - base (at least 0); none if first >= 64; else mask and trailing_zeros",
        || {
            let mut state = 1;
            let bases = [0, -5, 100, i32::MIN, i32::MAX - 63, -1_000_000];
            for round in 0..20_000 {
                let word = match round % 4 {
                    0 => 0,
                    1 => u64::MAX,
                    _ => mix(&mut state) & mix(&mut state),
                };
                let base = bases[round % bases.len()];
                let after = match round % 5 {
                    0 => i32::MIN,
                    1 => i32::MAX,
                    _ => (base as i64 + (mix(&mut state) % 140) as i64 - 70)
                        .clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                };
                let expected = (0..64)
                    .filter(|&k| word >> k & 1 == 1)
                    .map(|k| base as i64 + k)
                    .find(|&v| v > after as i64)
                    .map(|v| v as i32);
                assert_eq!(
                    next_value(word, base, after),
                    expected,
                    "next_value({word:#x}, {base}, {after})"
                );
            }
        },
    );
}

// ----- chapter 2 ---------------------------------------------------------------------------

/// The methods of a `Trail` type, for the grader (see `exercises/tests/grade.rs`).
#[derive(Debug)]
pub struct TrailMethods<T> {
    pub new: fn(usize) -> T,
    pub get: fn(&T, usize) -> i64,
    pub set: fn(&mut T, usize, i64),
    pub push_level: fn(&mut T),
    pub pop_level: fn(&mut T),
    pub level: fn(&T) -> usize,
}

pub fn e02_trail<T>(trail: TrailMethods<T>) {
    with_hint(
        "e02_trail",
        "push_level remembers records.len(); set records (i, old) once per level; pop restores newest first",
        || {
            let n = 6;
            let mut state = 7;
            let mut t = (trail.new)(n);
            // The reference: a full copy of the integers per open level.
            let mut copies: Vec<Vec<i64>> = Vec::new();
            let mut values = vec![0i64; n];
            for step in 0..20_000 {
                match mix(&mut state) % 10 {
                    0..=4 => {
                        let i = (mix(&mut state) % n as u64) as usize;
                        let v = (mix(&mut state) % 100) as i64;
                        (trail.set)(&mut t, i, v);
                        values[i] = v;
                    }
                    5..=6 => {
                        (trail.push_level)(&mut t);
                        copies.push(values.clone());
                    }
                    _ => {
                        if let Some(old) = copies.pop() {
                            (trail.pop_level)(&mut t);
                            values = old;
                        }
                    }
                }
                assert_eq!((trail.level)(&t), copies.len(), "level() after step {step}");
                for (i, &v) in values.iter().enumerate() {
                    assert_eq!((trail.get)(&t, i), v, "integer {i} after step {step}");
                }
            }
        },
    );
}

// ----- chapter 3 ---------------------------------------------------------------------------

pub fn e03_abs(abs: fn(VarId, VarId) -> Box<dyn Propagator>) {
    with_hint(
        "e03_abs",
        "x = -v is supported by y = |v| too: compare absolute values on both sides",
        || {
            let cfg = HarnessConfig::new(2, -4, 4, Consistency::Domain);
            check_propagator("abs", &cfg, &|t| t[1] == t[0].abs(), &|xs| {
                abs(xs[0], xs[1])
            });
        },
    );
}

pub fn e03_not_equal_offset(make: fn(VarId, VarId, i32) -> Box<dyn Propagator>) {
    with_hint(
        "e03_not_equal_offset",
        "when y is fixed to w, x loses w + c; when x is fixed to v, y loses v - c",
        || {
            for c in [-3, 0, 2] {
                let cfg = HarnessConfig::new(2, -3, 3, Consistency::Domain);
                let check = move |t: &[i32]| t[0] != t[1] + c;
                check_propagator("not_equal_offset", &cfg, &check, &|xs| {
                    make(xs[0], xs[1], c)
                });
            }
            // Near the edges of i32, y + c leaves i32: nothing to remove, and no panic.
            let mut m = Model::new();
            let x = m.new_var(i32::MAX - 2, i32::MAX);
            let y = m.new_var(i32::MAX, i32::MAX);
            m.post(make(x, y, 5));
            m.propagate().expect("x != y + 5 holds for every x here");
            assert_eq!(m.size(x), 3, "x lost a value though y + 5 is beyond i32");
        },
    );
}

pub fn e03_max(max: fn(VarId, VarId, VarId) -> Box<dyn Propagator>) {
    with_hint(
        "e03_max",
        "z in [max(min x, min y), max(max x, max y)]; x, y <= max z; if max y < min z then x >= min z",
        || {
            let mut cfg = HarnessConfig::new(3, -3, 4, Consistency::Bounds);
            cfg.trials = 500;
            check_propagator("max", &cfg, &|t| t[2] == t[0].max(t[1]), &|xs| {
                max(xs[0], xs[1], xs[2])
            });
        },
    );
}

pub fn e03_sum(sum_equals: fn(&[VarId], i64) -> Box<dyn Propagator>) {
    with_hint(
        "e03_sum",
        "x_i >= total - (sum of the others' max), x_i <= total - (sum of the others' min), in i64",
        || {
            for (arity, total) in [(2, 3), (3, 4), (4, 2), (3, -1)] {
                let cfg = HarnessConfig::new(arity, -3, 3, Consistency::Bounds);
                let check = move |t: &[i32]| t.iter().map(|&v| v as i64).sum::<i64>() == total;
                check_propagator("sum_equals", &cfg, &check, &|xs| sum_equals(xs, total));
            }
            // Values near i32::MAX: the sums need i64.
            let mut m = Model::new();
            let xs = [m.new_var(i32::MAX - 3, i32::MAX), m.new_var(0, 10)];
            m.post(sum_equals(&xs, i32::MAX as i64 + 5));
            m.propagate().expect("MAX - 3 + 8 = MAX + 5 is a solution");
            assert_eq!(
                (m.min(xs[0]), m.min(xs[1])),
                (i32::MAX - 5 + 2, 5),
                "bounds of x0 + x1 = MAX + 5 with x0 in [MAX-3, MAX], x1 in [0, 10]"
            );
        },
    );
}

pub fn e03_fix_less_than(less_than: fn(VarId, VarId) -> Box<dyn Propagator>) {
    with_hint(
        "e03_fix_less_than",
        "which value of x has no larger value left in y?",
        || {
            let cfg = HarnessConfig::new(2, -3, 3, Consistency::Bounds);
            check_propagator("less_than", &cfg, &|t| t[0] < t[1], &|xs| {
                less_than(xs[0], xs[1])
            });
        },
    );
}

// ----- chapter 4 ---------------------------------------------------------------------------

/// n-queens as exercise 4a states it: `q[i]` the row of column `i`, three `≠` per pair.
pub fn queens(model: &mut Model, n: usize) -> Vec<VarId> {
    let q = model.new_vars(n, 0, n as i32 - 1);
    for i in 0..n {
        for j in i + 1..n {
            let gap = (j - i) as i32;
            model.not_equal_offset(q[i], q[j], 0);
            model.not_equal_offset(q[i], q[j], gap);
            model.not_equal_offset(q[i], q[j], -gap);
        }
    }
    q
}

fn input_order_min() -> SearchConfig {
    SearchConfig {
        var_select: VarSelect::InputOrder,
        val_select: ValSelect::Min,
        ..SearchConfig::default()
    }
}

pub fn e04_predict_nodes(predicted_nodes: fn() -> u64) {
    with_hint(
        "e04_predict_nodes",
        "count the right branches (q != v) too, and let each fixpoint fix what it can",
        || {
            let mut m = Model::new();
            queens(&mut m, 4);
            let outcome = engine::solve(&mut m, &input_order_min());
            assert_eq!(outcome.solutions, 1);
            assert!(
                predicted_nodes() == outcome.stats.nodes,
                "the prediction {} is not the search's node count",
                predicted_nodes()
            );
        },
    );
}

pub fn e04_heuristic(choose: fn(&Model, &[VarId]) -> VarId) {
    with_hint(
        "e04_heuristic",
        "first fail: the candidate with the smallest model.size(x)",
        || {
            for n in [20, 30, 40] {
                let mut m = Model::new();
                let q = queens(&mut m, n);
                let config = SearchConfig {
                    var_select: VarSelect::Custom(Arc::new(move |m: &Model, c: &[VarId]| {
                        let x = choose(m, c);
                        assert!(c.contains(&x), "choose returned a variable not offered");
                        x
                    })),
                    val_select: ValSelect::Min,
                    limits: Limits {
                        nodes: Some(500),
                        ..Limits::default()
                    },
                    ..SearchConfig::default()
                };
                let outcome = engine::solve(&mut m, &config);
                let best = outcome.best.unwrap_or_else(|| {
                    panic!("{n}-queens: no solution within 500 nodes with this choice")
                });
                let rows: Vec<i32> = q.iter().map(|&x| best.value(x)).collect();
                assert!(queens_ok(&rows), "{n}-queens: {rows:?} is not a solution");
            }
        },
    );
}

// ----- chapter 5 ---------------------------------------------------------------------------

pub fn e05_count_by_splitting(count_by_splitting: fn(&mut Model, VarId) -> u64) {
    with_hint(
        "e05_count_by_splitting",
        "for v in the values of x: checkpoint, fix(x, v), engine::count, rollback; add up",
        || {
            for n in [4, 6, 7, 8] {
                let mut m = Model::new();
                let q = queens(&mut m, n);
                let whole = engine::count(&mut m, &SearchConfig::default()).solutions;
                let split_on = q[n / 2];
                let before: Vec<u32> = q.iter().map(|&x| m.size(x)).collect();
                assert_eq!(
                    count_by_splitting(&mut m, split_on),
                    whole,
                    "{n}-queens split on its middle column"
                );
                let after: Vec<u32> = q.iter().map(|&x| m.size(x)).collect();
                assert_eq!(before, after, "the model was not left as it was found");
            }
            // A variable with holes, and values that fail at once.
            let mut m = Model::new();
            let x = m.new_var_from_values(&[-2, 0, 3, 7]);
            let y = m.new_var(0, 4);
            m.linear(&[(1, x), (1, y)], Relation::Le, 4);
            assert_eq!(count_by_splitting(&mut m, x), 5 + 5 + 2);
        },
    );
}

// ----- chapter 6 ---------------------------------------------------------------------------

pub fn e06_read_the_profile(most: fn(&PropagatorProfile) -> Option<&'static str>) {
    with_hint(
        "e06_read_the_profile",
        "skip calls == 0; a beats b when a.removed * b.calls > b.removed * a.calls",
        || {
            const KINDS: [&str; 5] = ["abs", "alldiff_value", "linear", "max", "table"];
            let mut state = 3;
            for case in 0..2_000 {
                let mut profile = PropagatorProfile::default();
                for kind in KINDS {
                    if mix(&mut state) % 3 == 0 {
                        continue;
                    }
                    let counters = profile.by_kind.entry(kind).or_default();
                    counters.calls = mix(&mut state) % 5;
                    counters.removed = if case % 7 == 0 {
                        u64::MAX / 2 // products beyond u64
                    } else {
                        mix(&mut state) % 12
                    };
                }
                // The reference: the rational removed/calls, largest first, earliest name.
                let mut expected: Option<(&str, u64, u64)> = None;
                for (&kind, c) in &profile.by_kind {
                    if c.calls > 0
                        && expected.is_none_or(|(_, r, k)| {
                            (c.removed as u128) * (k as u128) > (r as u128) * (c.calls as u128)
                        })
                    {
                        expected = Some((kind, c.removed, c.calls));
                    }
                }
                assert_eq!(
                    most(&profile),
                    expected.map(|e| e.0),
                    "profile {:?}",
                    profile.by_kind
                );
            }
        },
    );
}

// ----- chapter 7 ---------------------------------------------------------------------------

/// At most one of 0/1 variables is 1: when one is fixed to 1, the others become 0. With
/// `first_three_only`, the bug exercise 7 must catch: it looks at the first three only.
#[derive(Clone, Debug)]
struct AtMostOne {
    xs: Vec<VarId>,
    first_three_only: bool,
}

impl Propagator for AtMostOne {
    fn name(&self) -> &'static str {
        "at_most_one"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Fixed)
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let seen = if self.first_three_only {
            &self.xs[..self.xs.len().min(3)]
        } else {
            &self.xs[..]
        };
        let ones: Vec<VarId> = seen
            .iter()
            .copied()
            .filter(|&x| ctx.is_fixed(x) && ctx.value(x) == 1)
            .collect();
        if let Some(&one) = ones.first() {
            for &x in seen {
                if x != one {
                    ctx.remove(x, 1)?;
                }
            }
        }
        Ok(())
    }
}

pub fn e07_catch_the_bug(at_most_one: fn(&[i32]) -> bool, config: fn() -> HarnessConfig) {
    with_hint(
        "e07_catch_the_bug",
        "the predicate counts the 1s; a lazy propagator may ignore some variables: draw enough of them",
        || {
            for arity in 0..=6u32 {
                for bits in 0..1u32 << arity {
                    let t: Vec<i32> = (0..arity).map(|k| (bits >> k & 1) as i32).collect();
                    let truth = t.iter().filter(|&&v| v == 1).count() <= 1;
                    assert_eq!(at_most_one(&t), truth, "at_most_one({t:?})");
                }
            }
            let cfg = config();
            let run = |first_three_only: bool| {
                catch_unwind(AssertUnwindSafe(|| {
                    check_propagator("at_most_one", &cfg, &at_most_one, &|xs| {
                        Box::new(AtMostOne {
                            xs: xs.to_vec(),
                            first_three_only,
                        })
                    })
                }))
                .is_ok()
            };
            assert!(
                run(false),
                "your configuration rejects the correct propagator"
            );
            assert!(
                !run(true),
                "your configuration lets the buggy propagator through"
            );
        },
    );
}

// ----- chapter 8: modelling ----------------------------------------------------------------

pub fn e08_send_more_money(send_more_money: fn(&mut Model) -> [VarId; 8]) {
    with_hint(
        "e08_send_more_money",
        "eight digits 0..9, all different, S >= 1, M >= 1, SEND + MORE = MONEY as one linear equation",
        || {
            let mut m = Model::new();
            let letters = send_more_money(&mut m);
            let mut found = Vec::new();
            let outcome = engine::search(
                &mut m,
                &SearchConfig::default(),
                &mut engine::search::NoListener,
                &mut |s| {
                    found.push(letters.map(|x| s.value(x)));
                    Control::Continue
                },
            );
            assert!(outcome.complete);
            assert_eq!(
                found,
                vec![[9, 5, 6, 7, 1, 0, 8, 2]],
                "the solutions of your model (S E N D M O R Y)"
            );
        },
    );
}

/// Every solution of n-queens, by plain backtracking (rows by column).
fn queens_solutions(n: usize) -> Vec<Vec<i32>> {
    fn extend(n: usize, rows: &mut Vec<i32>, out: &mut Vec<Vec<i32>>) {
        if rows.len() == n {
            out.push(rows.clone());
            return;
        }
        for r in 0..n as i32 {
            rows.push(r);
            if queens_ok(rows) {
                extend(n, rows, out);
            }
            rows.pop();
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

/// The 8 symmetries of the board applied to a solution (rows by column); the smallest image.
fn canonical(rows: &[i32]) -> Vec<i32> {
    let n = rows.len() as i32;
    let cells: Vec<(i32, i32)> = rows
        .iter()
        .enumerate()
        .map(|(c, &r)| (c as i32, r))
        .collect();
    let maps: [fn(i32, i32, i32) -> (i32, i32); 8] = [
        |_, c, r| (c, r),
        |n, c, r| (c, n - 1 - r),
        |n, c, r| (n - 1 - c, r),
        |n, c, r| (n - 1 - c, n - 1 - r),
        |_, c, r| (r, c),
        |n, c, r| (r, n - 1 - c),
        |n, c, r| (n - 1 - r, c),
        |n, c, r| (n - 1 - r, n - 1 - c),
    ];
    maps.iter()
        .map(|map| {
            let mut image = vec![0; rows.len()];
            for &(c, r) in &cells {
                let (c2, r2) = map(n, c, r);
                image[c2 as usize] = r2;
            }
            image
        })
        .min()
        .unwrap()
}

pub fn e08_break_symmetry(break_symmetry: fn(&mut Model, &[VarId])) {
    with_hint(
        "e08_break_symmetry",
        "mirroring the rows sends q[0] = r to 7 - r: keep q[0] <= 3",
        || {
            let all = queens_solutions(8);
            let mut classes: Vec<Vec<i32>> = all.iter().map(|rows| canonical(rows)).collect();
            classes.sort();
            classes.dedup();

            let mut m = Model::new();
            let q = queens(&mut m, 8);
            break_symmetry(&mut m, &q);
            let mut found = Vec::new();
            let outcome = engine::search(
                &mut m,
                &SearchConfig::default(),
                &mut engine::search::NoListener,
                &mut |s| {
                    found.push(q.iter().map(|&x| s.value(x)).collect::<Vec<i32>>());
                    Control::Continue
                },
            );
            assert!(outcome.complete);
            for rows in &found {
                assert!(queens_ok(rows), "{rows:?} is not a solution");
            }
            assert!(
                found.len() < all.len(),
                "{} solutions left: no symmetric copy was removed",
                found.len()
            );
            let mut kept: Vec<Vec<i32>> = found.iter().map(|rows| canonical(rows)).collect();
            kept.sort();
            kept.dedup();
            assert_eq!(
                kept.len(),
                classes.len(),
                "only {} of the {} classes of solutions survive: a constraint removed more than copies",
                kept.len(),
                classes.len()
            );
        },
    );
}

/// Pigeons into holes with pairwise `≠` only.
fn pigeons(model: &mut Model, pigeons: usize, holes: i32) -> Vec<VarId> {
    let xs = model.new_vars(pigeons, 0, holes - 1);
    for i in 0..pigeons {
        for j in i + 1..pigeons {
            model.not_equal_offset(xs[i], xs[j], 0);
        }
    }
    xs
}

pub fn e08_redundant(add_redundant: fn(&mut Model, &[VarId], i32)) {
    with_hint(
        "e08_redundant",
        "all-different at the bounds or domain level sees all the pigeons at once (a Hall interval)",
        || {
            // Redundant: with as many pigeons as holes the count is unchanged (5! = 120).
            let mut m = Model::new();
            let xs = pigeons(&mut m, 5, 5);
            add_redundant(&mut m, &xs, 5);
            let count = engine::count(&mut m, &SearchConfig::default());
            assert_eq!(count.solutions, 120, "the constraint removed solutions");
            // Useful: 9 pigeons, 8 holes proved impossible within 10 nodes.
            let mut m = Model::new();
            let xs = pigeons(&mut m, 9, 8);
            add_redundant(&mut m, &xs, 8);
            let config = SearchConfig {
                limits: Limits {
                    nodes: Some(10),
                    ..Limits::default()
                },
                ..SearchConfig::default()
            };
            let outcome = engine::count(&mut m, &config);
            assert!(
                outcome.complete && outcome.solutions == 0,
                "9 pigeons in 8 holes not proved impossible within 10 nodes"
            );
        },
    );
}

// ----- chapter 9: optimisation -------------------------------------------------------------

pub fn e09_branch_and_bound(minimize: fn(&mut Model, VarId) -> Option<i32>) {
    with_hint(
        "e09_branch_and_bound",
        "loop { solve; if none, return the last value; set_max(objective, value - 1) }",
        || {
            let mut state = 11;
            for case in 0..60 {
                // Random small models: 4 variables in 0..5, two random inequalities, and an
                // objective variable equal to a random weighted sum.
                let build = |state: &mut u64| {
                    let mut m = Model::new();
                    let xs = m.new_vars(4, 0, 5);
                    for _ in 0..2 {
                        let terms: Vec<(i64, VarId)> = xs
                            .iter()
                            .map(|&x| ((mix(state) % 7) as i64 - 3, x))
                            .collect();
                        let rhs = (mix(state) % 9) as i64 - 4;
                        m.linear(&terms, Relation::Le, rhs);
                    }
                    let objective = m.new_var(-200, 200);
                    let mut terms: Vec<(i64, VarId)> = xs
                        .iter()
                        .map(|&x| ((mix(state) % 9) as i64 - 4, x))
                        .collect();
                    terms.push((-1, objective));
                    m.linear(&terms, Relation::Eq, 0);
                    (m, objective)
                };
                let before = state;
                let (mut mine, objective) = build(&mut state);
                state = before;
                let (mut theirs, _) = build(&mut state);
                let config = SearchConfig {
                    objective: Some(Objective::minimize(objective)),
                    ..SearchConfig::default()
                };
                let reference = engine::solve(&mut theirs, &config)
                    .objective
                    .map(|v| v as i32);
                assert_eq!(
                    minimize(&mut mine, objective),
                    reference,
                    "random model {case}"
                );
            }
        },
    );
}

// ----- chapter 10: learning ----------------------------------------------------------------

pub fn e10_explain_sum(sum_at_most: fn(VarId, VarId, i32) -> Box<dyn Propagator>) {
    with_hint(
        "e10_explain_sum",
        "[y ≥ min(y)] caps x at c − min(y); a max below the cap also needs x's holes above it",
        || {
            for c in [-3, 0, 2, 5] {
                let cfg = HarnessConfig::new(2, -4, 4, Consistency::Bounds);
                let stats = engine::testing::check_explanations(
                    "sum_at_most",
                    &cfg,
                    &|t| t[0] + t[1] <= c,
                    &|xs| sum_at_most(xs[0], xs[1], c),
                );
                assert!(
                    stats.explained > 0
                        && stats.precise == stats.explained
                        && stats.average_reason() < stats.average_generic(),
                    "c = {c}: {} of {} atoms explained by you, {:.2} atoms on average (the \
                     generic reason: {:.2})",
                    stats.precise,
                    stats.explained,
                    stats.average_reason(),
                    stats.average_generic()
                );
            }
        },
    );
}
