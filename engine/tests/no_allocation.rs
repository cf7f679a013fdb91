//! # No propagator allocates on its hot path
//!
//! The performance target of `docs/PERFORMANCE.md`, as a test that can fail. A global
//! allocator counts the allocator calls (allocations, reallocations, frees) that a thread
//! makes while that thread has *armed* it. For each propagator that `Model` offers, a small
//! model is searched by random dives made the way `search/dfs.rs` makes them: open a level,
//! apply a decision (`x = v`, `x != v`, `x <= v` or `x > v`), propagate; on a failure close
//! the level and take the other branch at the level below. The counter is armed only around
//! what the search calls after a decision: the propagation fixpoint, and `abandon` after a
//! conflict. Choosing the decisions and opening and closing levels is not measured.
//!
//! **Warm-up.** Buffers may be sized on first use: a propagator's scratch arrays, the trail's
//! stacks, the queue's. So each case first makes its dives unarmed, then *replays the same
//! dives* (same seed) armed: every buffer has then already grown to what those nodes need,
//! and the test checks that it has (the two passes count the same nodes, failures, solutions
//! and propagator runs). What a warm-up cannot hide is work that allocates at every run — a
//! `Vec::new()` filled per run, a `collect()`, the `clone()` of a wide domain — and that is
//! what this test catches. [`a_propagator_that_allocates_is_caught`] shows that it does.
//!
//! Each case is small and fixed-seed; the whole file runs in about a second in the `ci`
//! profile.

use engine::propagators::king_degree::KingDegree;
use engine::rng::Rng;
use engine::search::{Decision, DecisionOp};
use engine::{AllDiffLevel, Context, Model, PropResult, Propagator, Relation, Subscription, VarId};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

// ----- the counting allocator ----------------------------------------------------------------

/// `System`, plus a count of the calls made by a thread while its flag is armed.
struct CountingAllocator;

thread_local! {
    /// Count this thread's allocator calls?
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// This thread's allocator calls while armed.
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// One allocator call: count it if this thread is armed.
fn note_call() {
    // `try_with` rather than `with`: it cannot panic, not even while the thread is being torn
    // down (unwinding out of an allocator is undefined behaviour).
    let armed = ARMED.try_with(Cell::get).unwrap_or(false);
    if armed {
        let _ = CALLS.try_with(|calls| calls.set(calls.get() + 1));
    }
}

// SAFETY: every method passes its arguments unchanged to `System` and returns what `System`
// returns, so the memory handed out is exactly `System`'s and `GlobalAlloc`'s contract is
// `System`'s. The counting beside it cannot break that: it touches two thread-local `Cell`s
// with `const` initialisers and no destructor, which the standard library stores as plain
// thread-local statics — reading or writing them never allocates (no lazy initialisation,
// no destructor to register), so the allocator is never re-entered — and `note_call` never
// panics (`try_with`, no arithmetic that can overflow in practice: a `u64` of calls). The
// flags are per thread, so there is no data race and no lock.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_call();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_call();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_call();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_call();
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Run `f`, counting this thread's allocator calls during it when `armed`. Returns what `f`
/// returns and the number of calls (0 when not armed).
fn counted<R>(armed: bool, f: impl FnOnce() -> R) -> (R, u64) {
    if !armed {
        return (f(), 0);
    }
    let before = CALLS.with(Cell::get);
    ARMED.with(|a| a.set(true));
    let result = f();
    ARMED.with(|a| a.set(false));
    (result, CALLS.with(Cell::get) - before)
}

// ----- random dives, as the search makes them ------------------------------------------------

/// Dives per case (each goes down to a solution or to a node whose both branches fail).
const DIVES: usize = 300;

/// Every this many dives, the dive first reruns every propagator from scratch
/// (`schedule_all_from_scratch`), so that the reference path is measured too.
const FROM_SCRATCH_EVERY: usize = 10;

/// What a series of dives did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// Decisions applied (left and right branches).
    nodes: u64,
    failures: u64,
    solutions: u64,
    /// Propagator runs inside the measured calls.
    runs: u64,
    /// Allocator calls inside the measured calls.
    allocator_calls: u64,
}

impl Tally {
    /// The shape of the tree walked: equal for two passes that made the same dives.
    fn shape(&self) -> (u64, u64, u64, u64) {
        (self.nodes, self.failures, self.solutions, self.runs)
    }
}

/// A random decision on a random unfixed variable, as a brancher would make one; `None` when
/// every variable is fixed.
fn random_decision(model: &Model, rng: &mut Rng) -> Option<Decision> {
    let open = (0..model.num_vars() as u32)
        .map(VarId)
        .filter(|&x| !model.is_fixed(x));
    let var = open.clone().nth(rng.below(open.count() as u64) as usize)?;
    let domain = model.domain(var);
    let op = match rng.below(10) {
        0..=3 => DecisionOp::Eq,
        4..=5 => DecisionOp::Ne,
        6..=7 => DecisionOp::Le,
        _ => DecisionOp::Gt,
    };
    // `x <= v` and `x > v` split the domain: `v` is any value but the largest.
    let choices = match op {
        DecisionOp::Eq | DecisionOp::Ne => domain.size(),
        DecisionOp::Le | DecisionOp::Gt => domain.size() - 1,
    };
    let value = domain.iter().nth(rng.below(choices as u64) as usize)?;
    Some(Decision { var, op, value })
}

/// Apply `decision` and propagate, counting the engine's calls when `armed`. False on a
/// conflict.
fn apply_and_propagate(model: &mut Model, decision: Decision, armed: bool, t: &mut Tally) -> bool {
    t.nodes += 1;
    let runs_before = model.propagations();
    // A decision that empties a domain fails the node at once; the caller rolls the node
    // back (which drops the queue, as `Dfs::fail` does). A failed fixpoint drops its own.
    let (ok, calls) = if decision.apply(model).is_err() {
        (false, 0)
    } else {
        counted(armed, || model.propagate().is_ok())
    };
    t.runs += model.propagations() - runs_before;
    t.allocator_calls += calls;
    if !ok {
        t.failures += 1;
    }
    ok
}

/// One dive from the model's current node, which it leaves as it found it.
fn dive(model: &mut Model, rng: &mut Rng, from_scratch: bool, armed: bool, t: &mut Tally) {
    // The dive's own root level, as the search opens one: the right branches taken at depth
    // 0 go into it and are undone at the end.
    let base = model.checkpoint();
    let mut open = Vec::new();
    let mut ok = true;
    if from_scratch {
        model.schedule_all_from_scratch();
        let runs_before = model.propagations();
        let (result, calls) = counted(armed, || model.propagate());
        t.runs += model.propagations() - runs_before;
        t.allocator_calls += calls;
        ok = result.is_ok();
    }
    while ok {
        let Some(decision) = random_decision(model, rng) else {
            t.solutions += 1;
            break;
        };
        let level = model.checkpoint();
        if apply_and_propagate(model, decision, armed, t) {
            open.push(level);
            continue;
        }
        // `Dfs::backtrack`: close the failed level, take the other branch at the level below.
        model.rollback(level);
        ok = apply_and_propagate(model, decision.negation(), armed, t);
    }
    model.rollback(base);
}

/// `DIVES` dives from the model's current node with the generator seeded by `seed`.
fn dives(model: &mut Model, seed: u64, armed: bool) -> Tally {
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for k in 0..DIVES {
        dive(
            model,
            &mut rng,
            k % FROM_SCRATCH_EVERY == 0,
            armed,
            &mut tally,
        );
    }
    tally
}

/// Propagate `model` at the root, make the dives once to warm up, then replay them with the
/// counter armed. Returns the measured tally and the model (for its profile).
fn warm_then_measure(mut model: Model, seed: u64) -> (Tally, Tally, Model) {
    model
        .propagate()
        .expect("each case's model is consistent at the root");
    let warm = dives(&mut model, seed, false);
    model.reset_counters();
    let measured = dives(&mut model, seed, true);
    (warm, measured, model)
}

/// The assertion of this file: over `DIVES` replayed dives of `model`, propagation made no
/// allocator call. `kinds` are the propagator names (`Propagator::name`) that the case is
/// about: each must have run and pruned during the measured dives, so that the test does not
/// pass by never calling them.
fn assert_no_allocation(case: &str, kinds: &[&str], model: Model) {
    // One seed per case, fixed: the case's name, hashed by hand (FNV-1a).
    let seed = case.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let (warm, measured, model) = warm_then_measure(model, seed);
    assert_eq!(
        warm.shape(),
        measured.shape(),
        "{case}: the measured dives must replay the warm-up's (nodes, failures, solutions, \
         runs), or the warm-up proves nothing"
    );
    assert_eq!(
        measured.allocator_calls, 0,
        "{case}: propagation made {} allocator calls in {} dives ({} nodes, {} propagator \
         runs): {kinds:?} allocates on its hot path",
        measured.allocator_calls, DIVES, measured.nodes, measured.runs
    );
    let profile = model.profile();
    for kind in kinds {
        let c = profile.by_kind.get(kind).copied().unwrap_or_default();
        assert!(
            c.calls >= DIVES as u64 && c.prunings > 0,
            "{case}: {kind} ran {} times and pruned {} times in the measured dives: too few \
             for the test to mean anything",
            c.calls,
            c.prunings
        );
    }
    assert!(measured.failures > 0, "{case}: no dive ever failed");
}

// ----- the counter itself ------------------------------------------------------------------

/// The counter sees an allocation made while armed, not one made while disarmed, and not
/// one made by another thread while this one is armed: so a zero above means something.
#[test]
fn the_counter_counts_this_threads_allocations_only() {
    let (v, calls) = counted(true, || std::hint::black_box(vec![1u64; 100]));
    assert!(calls >= 1, "an allocation while armed is counted");
    let ((), calls) = counted(true, || drop(v));
    assert!(calls >= 1, "a free while armed is counted");
    let (_, calls) = counted(false, || std::hint::black_box(vec![1u64; 100]));
    assert_eq!(calls, 0, "nothing is counted while disarmed");

    // Another thread allocates while this one is armed (and waits by spinning, which
    // allocates nothing).
    let go = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let _ = scope.spawn(|| {
            while !go.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
            for k in 0..1000 {
                drop(std::hint::black_box(vec![k; 64]));
            }
            done.store(true, Ordering::Release);
        });
        let ((), calls) = counted(true, || {
            go.store(true, Ordering::Release);
            while !done.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
        });
        assert_eq!(calls, 0, "another thread's allocations are not counted");
    });
}

/// A propagator that copies a domain into a fresh vector at every run, the kind of code this
/// file is meant to catch. (It prunes nothing: it is `x = x`.)
#[derive(Clone, Debug)]
struct AllocatesEveryRun {
    x: VarId,
}

impl Propagator for AllocatesEveryRun {
    fn name(&self) -> &'static str {
        "allocates_every_run"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new(self.x, engine::Condition::Domain)]
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let values: Vec<i32> = ctx.domain(self.x).iter().collect();
        std::hint::black_box(values);
        Ok(())
    }
}

/// The dives catch a propagator that allocates at every run, warm-up or not.
#[test]
fn a_propagator_that_allocates_is_caught() {
    let mut m = Model::new();
    let xs = m.new_vars(4, 0, 9);
    m.all_different(&xs, AllDiffLevel::Value);
    let _ = m.post(Box::new(AllocatesEveryRun { x: xs[0] }));
    let (_, measured, _) = warm_then_measure(m, 1);
    assert!(
        measured.allocator_calls >= measured.runs / 4,
        "the allocating propagator went unseen: {measured:?}"
    );
}

// ----- one case per propagator -------------------------------------------------------------
//
// Each model is small, consistent at the root, and mixes narrow domains (one 64-bit word)
// with, where a propagator has a separate path for them, wide ones (more than 64 values:
// the domain has heap words, and some propagators take a general path).

/// `xs[i]` over `lo..=hi`, in a fresh model.
fn model_with_vars(n: usize, lo: i32, hi: i32) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs = m.new_vars(n, lo, hi);
    (m, xs)
}

/// Also require `Σ xs = total`. One domain-consistent constraint alone never fails a dive
/// (every value left has a support, and a decision keeps one), so without a second
/// constraint the conflict path — a propagator failing, then `abandon` — would go
/// unmeasured.
fn tighten(m: &mut Model, xs: &[VarId], total: i64) {
    m.sum_equals(xs, total);
}

#[test]
fn equal_offset() {
    for (lo, hi) in [(0, 20), (0, 199)] {
        let (mut m, x) = model_with_vars(6, lo, hi);
        m.equal_offset(x[0], x[1], 2);
        m.equal_offset(x[2], x[1], -3);
        m.equal_offset(x[3], x[4], hi / 3);
        m.equal_offset(x[5], x[2], 1);
        tighten(&mut m, &[x[0], x[3]], hi as i64);
        assert_no_allocation(
            &format!("equal_offset over {lo}..={hi}"),
            &["equal_offset"],
            m,
        );
    }
}

#[test]
fn not_equal_offset() {
    for (lo, hi) in [(0, 3), (0, 99)] {
        let (mut m, x) = model_with_vars(6, lo, hi);
        for i in 0..6 {
            m.not_equal_offset(x[i], x[(i + 1) % 6], 0);
            m.not_equal_offset(x[i], x[(i + 2) % 6], 1);
        }
        tighten(&mut m, &x, 3 * hi as i64);
        assert_no_allocation(
            &format!("not_equal_offset over {lo}..={hi}"),
            &["not_equal_offset"],
            m,
        );
    }
}

#[test]
fn less_equal_offset() {
    for (lo, hi) in [(0, 9), (0, 149)] {
        let (mut m, x) = model_with_vars(5, lo, hi);
        m.less_equal_offset(x[0], x[1], -1);
        m.less_equal_offset(x[1], x[2], 2);
        m.less_than(x[2], x[3]);
        m.less_equal_offset(x[3], x[4], -2);
        tighten(&mut m, &x, 3 * hi as i64);
        assert_no_allocation(
            &format!("less_equal_offset over {lo}..={hi}"),
            &["less_equal_offset"],
            m,
        );
    }
}

#[test]
fn linear() {
    for (lo, hi) in [(0, 9), (-50, 150)] {
        let span = (hi - lo) as i64;
        let cases = [
            (Relation::Le, "linear_le", span),
            (Relation::Ge, "linear_le", span),
            (Relation::Eq, "linear_eq", span / 2),
            (Relation::Ne, "linear_ne", 7),
        ];
        for (relation, kind, rhs) in cases {
            let (mut m, x) = model_with_vars(4, lo, hi);
            let terms = [(3, x[0]), (-2, x[1]), (1, x[2]), (5, x[3])];
            m.linear(&terms, relation, rhs);
            m.linear(
                &[(2, x[0]), (1, x[1]), (-4, x[2])],
                Relation::Eq,
                hi as i64 / 2,
            );
            assert_no_allocation(&format!("linear {relation:?} over {lo}..={hi}"), &[kind], m);
        }
    }
}

#[test]
fn sum_equals() {
    let (mut m, x) = model_with_vars(5, 1, 9);
    m.sum_equals(&x, 25);
    m.sum_equals(&x[1..4], 12);
    assert_no_allocation("sum_equals", &["linear_eq"], m);
}

/// The all-different kinds posted at each level (the bounds level posts the value level
/// first, see `Model::all_different`).
fn all_different_kinds(level: AllDiffLevel) -> &'static [&'static str] {
    match level {
        AllDiffLevel::Value => &["alldiff_value"],
        AllDiffLevel::Bounds => &["alldiff_value", "alldiff_bounds"],
        AllDiffLevel::Domain => &["alldiff_domain"],
    }
}

const LEVELS: [AllDiffLevel; 3] = [
    AllDiffLevel::Value,
    AllDiffLevel::Bounds,
    AllDiffLevel::Domain,
];

#[test]
fn all_different() {
    // Narrow: the domain level runs on one word (`word_matching.rs`). Wide: on the general
    // value graph (`value_graph.rs`), and the value level through `contains_wide`.
    for (lo, hi) in [(0, 7), (0, 99)] {
        for level in LEVELS {
            let (mut m, x) = model_with_vars(7, lo, hi);
            m.all_different(&x, level);
            tighten(&mut m, &x[..4], 2 * hi as i64);
            assert_no_allocation(
                &format!("all_different {level} over {lo}..={hi}"),
                all_different_kinds(level),
                m,
            );
        }
    }
}

#[test]
fn all_different_on_shifted_views() {
    // The two diagonals of 8-queens (views `q[i] ± i`), and the same over wide domains. At
    // the value level the model runs the two as one family.
    for hi in [7, 79] {
        for level in LEVELS {
            let (mut m, q) = model_with_vars(8, 0, hi);
            let up: Vec<_> = (0..8).map(|i| q[i].plus(i as i32)).collect();
            let down: Vec<_> = (0..8).map(|i| q[i].plus(-(i as i32))).collect();
            m.all_different(&up, level);
            m.all_different(&down, level);
            tighten(&mut m, &q[..4], 2 * hi as i64);
            let kinds = match level {
                AllDiffLevel::Value => &["alldiff_value_family"],
                _ => all_different_kinds(level),
            };
            assert_no_allocation(
                &format!("all_different on views {level} over 0..={hi}"),
                kinds,
                m,
            );
        }
    }
}

#[test]
fn all_different_on_units() {
    // A 4×4 Latin square: at the domain level one `AllDifferentUnits` (`alldiff/fast/units.rs`)
    // for all its rows and columns; over wide values, one propagator per unit.
    for (lo, hi) in [(1, 4), (1, 80)] {
        for level in LEVELS {
            let (mut m, x) = model_with_vars(16, lo, hi);
            let rows = (0..4).map(|i| (0..4).map(|j| x[i * 4 + j]).collect());
            let cols = (0..4).map(|j| (0..4).map(|i| x[i * 4 + j]).collect());
            let units: Vec<Vec<VarId>> = rows.chain(cols).collect();
            for unit in &units {
                m.all_different(unit, level);
            }
            // The diagonal adds up to a number that not every Latin square gives.
            let diagonal = [x[0], x[5], x[10], x[15]];
            tighten(&mut m, &diagonal, 2 * (lo + hi) as i64 + 1);
            let kinds = match level {
                AllDiffLevel::Domain if hi - lo < 64 => &["alldiff_units"],
                _ => all_different_kinds(level),
            };
            assert_no_allocation(
                &format!("all_different on units {level} over {lo}..={hi}"),
                kinds,
                m,
            );
        }
    }
}

#[test]
fn all_different_on_a_family() {
    // n-queens: rows and both diagonals. At the value level one `AllDifferentOffsetFamily`:
    // its word path (8 queens, one word each), its plain path over wide domains, and its
    // plain path for more than 64 variables.
    for (n, hi) in [(8, 7), (8, 79), (66, 65)] {
        for level in LEVELS {
            if n > 8 && level != AllDiffLevel::Value {
                continue; // the other levels are separate propagators, covered above
            }
            let (mut m, q) = model_with_vars(n, 0, hi);
            for step in [0, 1, -1] {
                let shifted: Vec<_> = (0..n).map(|i| q[i].plus(step * i as i32)).collect();
                m.all_different(&shifted, level);
            }
            tighten(&mut m, &q[..4], 2 * hi as i64);
            let kinds = match level {
                AllDiffLevel::Value => &["alldiff_value_family"],
                _ => all_different_kinds(level),
            };
            assert_no_allocation(
                &format!("all_different on a family {level}, {n} queens over 0..={hi}"),
                kinds,
                m,
            );
        }
    }
}

#[test]
fn count() {
    let (mut m, x) = model_with_vars(6, 0, 3);
    m.count_eq(&x, 1, 2);
    m.count_at_least(&x, 2, 1);
    m.count_at_most(&x, 3, 2);
    m.count_between(&x, 0, 1, 3);
    tighten(&mut m, &x, 9);
    assert_no_allocation(
        "count_eq, count_at_least, count_at_most, count_between",
        &["count"],
        m,
    );
}

#[test]
fn global_cardinality() {
    // Value 3 (and, wide, every value above 3) is not listed: any number of times.
    // The first four variables add up to `total`.
    for (n, hi, total) in [(6, 3, 5), (8, 79, 90)] {
        let (mut m, x) = model_with_vars(n, 0, hi);
        m.global_cardinality(&x, &[(0, 1), (1, 2), (2, 2)]);
        tighten(&mut m, &x[..4], total);
        assert_no_allocation(
            &format!("global_cardinality over 0..={hi}"),
            &["global_cardinality"],
            m,
        );
    }
}

#[test]
fn element() {
    for (len, lo, hi) in [(10usize, 0, 9), (100, -50, 150)] {
        let mut rng = Rng::new(len as u64);
        let array: Vec<i32> = (0..len)
            .map(|_| lo + rng.below((hi - lo + 1) as u64 / 3) as i32 * 3)
            .collect();
        let mut m = Model::new();
        let index = m.new_var(0, len as i32 - 1);
        let result = m.new_var(lo, hi);
        let other = m.new_var(0, len as i32 - 1);
        m.element(index, &array, result);
        m.element(other, &array, result);
        tighten(&mut m, &[index, other], len as i64 - 1);
        assert_no_allocation(&format!("element of {len} entries"), &["element"], m);
    }
}

/// Element over variables, as MiniZinc models write it (`array_var_int_element`,
/// `array_var_bool_element`): an index over more than 64 positions (two words) and a result
/// spanning more than 256 values, which the word lane once left to the allocating reference.
#[test]
fn element_var_with_a_wide_index_and_result() {
    for (len, lo, hi) in [(80usize, 0, 1), (70, 0, 400)] {
        let mut m = Model::new();
        let entries = m.new_vars(len, lo, hi);
        let index = m.new_var(1, len as i32);
        let other = m.new_var(1, len as i32);
        let result = m.new_var(lo, hi);
        m.element_var(index, 1, &entries, result);
        m.element_var(other, 1, &entries, result);
        tighten(&mut m, &[index, other], len as i64);
        assert_no_allocation(
            &format!("element_var of {len} entries over {lo}..={hi}"),
            &["element_var"],
            m,
        );
    }
}

#[test]
fn table() {
    // Two tables sharing two columns (the second extends the rows of the first).
    for (rows, hi) in [(30, 5), (60, 150)] {
        let mut rng = Rng::new(rows as u64);
        let mut value = || rng.below(hi as u64 + 1) as i32;
        let first: Vec<Vec<i32>> = (0..rows).map(|_| vec![value(), value(), value()]).collect();
        let second: Vec<Vec<i32>> = first.iter().map(|t| vec![t[1], t[2], value()]).collect();
        // A total that the first rows of both tables together reach.
        let total = (first[0][0] + second[0][2]) as i64;
        let (mut m, x) = model_with_vars(4, 0, hi);
        m.table(&x[..3], first);
        m.table(&x[1..], second);
        tighten(&mut m, &[x[0], x[3]], total);
        assert_no_allocation(
            &format!("table of {rows} rows over 0..={hi}"),
            &["table"],
            m,
        );
    }
}

#[test]
fn clause() {
    let mut m = Model::new();
    let b: Vec<VarId> = (0..8).map(|_| m.new_bool()).collect();
    m.clause(&[b[0], b[1], b[2]], &[b[3]]);
    m.clause(&[b[3], b[4]], &[b[0], b[5]]);
    m.clause(&[b[5]], &[b[6], b[7]]);
    m.clause(&[b[6], b[2]], &[b[1]]);
    m.clause(&[], &[b[4], b[7]]);
    tighten(&mut m, &b, 3);
    assert_no_allocation("clause", &["clause"], m);
}

#[test]
fn reify() {
    for (lo, hi) in [(0, 9), (0, 99)] {
        let mut m = Model::new();
        let x = m.new_vars(3, lo, hi);
        let b: Vec<VarId> = (0..6).map(|_| m.new_bool()).collect();
        for (i, &xi) in x.iter().enumerate() {
            m.reify_eq(b[2 * i], xi, hi / 2 + i as i32);
            m.reify_le(b[2 * i + 1], xi, hi / 3);
        }
        tighten(&mut m, &b, 3);
        assert_no_allocation(
            &format!("reify_eq, reify_le over {lo}..={hi}"),
            &["reify_eq", "reify_le"],
            m,
        );
    }
}

#[test]
fn distinct_sum() {
    // Kakuro digits (the dynamic programme on one word); 8 values spread over 0..=140 (the
    // programme, pruning value by value); and 31 values (more than 16: checking only).
    let digits: Vec<i32> = (1..=9).collect();
    let spread: Vec<i32> = (0..8).map(|k| 20 * k).collect();
    let many: Vec<i32> = (0..=30).collect();
    let cases = [
        (&digits, 4, 20, 11),
        (&spread, 3, 200, 120),
        (&many, 3, 40, 21),
    ];
    for (values, n, total, total_of_two) in cases {
        let mut m = Model::new();
        let x: Vec<VarId> = (0..n).map(|_| m.new_var_from_values(values)).collect();
        m.distinct_sum(&x, total);
        // A second run over two of the same cells.
        m.distinct_sum(&x[..2], total_of_two);
        let kinds: &[&str] = if values.len() > 16 {
            &[] // the checking path prunes nothing
        } else {
            &["distinct_sum"]
        };
        assert_no_allocation(
            &format!("distinct_sum of {n} over {} values", values.len()),
            kinds,
            m,
        );
    }
}

#[test]
fn value_precedence() {
    // A 6-cycle coloured with values 1..=4, the colours adding up to 12.
    let (mut m, x) = model_with_vars(6, 1, 4);
    for i in 0..6 {
        m.not_equal_offset(x[i], x[(i + 1) % 6], 0);
    }
    m.value_precedence(&x, 1);
    tighten(&mut m, &x, 12);
    assert_no_allocation("value_precedence", &["value_precedence"], m);
}

#[test]
fn king_degree() {
    // A 3×3 Monodot board: each cell's label is 0 (empty) or its number of occupied
    // neighbours, up to 4 here.
    let (mut m, label) = model_with_vars(9, 0, 4);
    for r in 0..3i32 {
        for c in 0..3i32 {
            let inside = |(rr, cc): &(i32, i32)| (0..3).contains(rr) && (0..3).contains(cc);
            let neighbours: Vec<VarId> = (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
                .filter(|&p| p != (r, c) && inside(&p))
                .map(|(rr, cc)| label[(rr * 3 + cc) as usize])
                .collect();
            let cell = label[(r * 3 + c) as usize];
            let _ = m.post(Box::new(KingDegree::new(cell, &neighbours)));
        }
    }
    assert_no_allocation("king_degree", &["king_degree"], m);
}
