//! `AllDifferentUnits` (`alldiff/fast/units.rs`): many all-differents over shared variables as one
//! propagator. Two kinds of evidence:
//!
//! * the exhaustive harness against brute force: sound, checking, incremental = from
//!   scratch, backtracking; domain consistent when the units are disjoint (then the
//!   conjunction's supports are each unit's);
//! * the same domains as one reference all-different (`alldiff/reference.rs`) per unit, after every step of random dives
//!   with backtracking, on families too big for brute force (Latin squares, Sudoku-shaped
//!   grids, random overlapping units). This is the claim of the file: the same fixpoint,
//!   reached with less traffic.

use engine::propagator::{
    Condition, Conflict, Context, Priority, PropResult, Propagator, Subscription,
};
use engine::propagators::alldiff::fast::units::AllDifferentUnits;
use engine::propagators::alldiff::reference::AllDifferentReference;
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::AllDiffLevel;
use engine::{Model, VarId, View};

/// The views `xs[i] + offsets[i]`.
fn shifted(xs: &[VarId], offsets: &[i32]) -> Vec<View> {
    xs.iter().zip(offsets).map(|(&x, &c)| x.plus(c)).collect()
}

/// The units (indices into `xs`) as lists of variables.
fn family_of(units: &[Vec<usize>], xs: &[VarId]) -> Vec<Vec<VarId>> {
    units
        .iter()
        .map(|u| u.iter().map(|&i| xs[i]).collect())
        .collect()
}

/// Does every unit (indices into `t`) hold pairwise different values?
fn units_hold(units: &[Vec<usize>], t: &[i32]) -> bool {
    units
        .iter()
        .all(|u| (0..u.len()).all(|a| (a + 1..u.len()).all(|b| t[u[a]] != t[u[b]])))
}

fn harness(name: &str, units: Vec<Vec<usize>>, cfg: HarnessConfig) {
    let base = cfg.lo;
    let check_units = units.clone();
    check_propagator(
        name,
        &cfg,
        &move |t: &[i32]| units_hold(&check_units, t),
        &move |xs: &[VarId]| {
            let family = family_of(&units, xs);
            Box::new(AllDifferentUnits::new(&family, base).expect("a word-sized family"))
        },
    );
}

#[test]
fn overlapping_units_are_sound_and_checking() {
    // A ring of triples and a cross-cutting one: every variable in two units.
    let units = vec![vec![0, 1, 2], vec![2, 3, 4], vec![4, 5, 0], vec![1, 3, 5]];
    for (lo, hi, seed) in [(0, 3, 1), (1, 5, 2), (-2, 2, 3)] {
        let mut cfg = HarnessConfig::new(6, lo, hi, Consistency::Checking);
        cfg.trials = 200;
        cfg.seed = seed;
        harness("alldiff_units ring", units.clone(), cfg);
    }
}

#[test]
fn a_latin_square_of_order_three_is_sound_and_checking() {
    // Rows and columns of a 3×3 square, values 1..3: tight units, where hidden singles act.
    let units = vec![
        vec![0, 1, 2],
        vec![3, 4, 5],
        vec![6, 7, 8],
        vec![0, 3, 6],
        vec![1, 4, 7],
        vec![2, 5, 8],
    ];
    let mut cfg = HarnessConfig::new(9, 1, 3, Consistency::Checking);
    cfg.trials = 150;
    cfg.seed = 7;
    harness("alldiff_units latin 3", units, cfg);
}

#[test]
fn disjoint_units_are_domain_consistent() {
    let units = vec![vec![0, 1, 2], vec![3, 4]];
    for (lo, hi, seed) in [(0, 2, 11), (0, 4, 12)] {
        let mut cfg = HarnessConfig::new(5, lo, hi, Consistency::Domain);
        cfg.trials = 300;
        cfg.seed = seed;
        harness("alldiff_units disjoint", units.clone(), cfg);
    }
}

#[test]
fn a_variable_twice_in_a_unit_or_too_many_units_is_refused() {
    let mut m = Model::new();
    let xs = m.new_vars(3, 0, 5);
    assert!(AllDifferentUnits::new(&[vec![xs[0], xs[1], xs[0]]], 0).is_none());
    let many: Vec<Vec<VarId>> = (0..129).map(|_| vec![xs[0], xs[1]]).collect();
    assert!(AllDifferentUnits::new(&many, 0).is_none());
    assert!(AllDifferentUnits::new(&many[..128], 0).is_some());
}

/// The units of a Latin square of order `n` (rows and columns), or of a Sudoku of box side
/// `b` (n = b²: rows, columns, boxes), as indices into the n² cells.
fn grid_units(n: usize, box_side: Option<usize>) -> Vec<Vec<usize>> {
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..n {
        units.push((0..n).map(|c| r * n + c).collect());
        units.push((0..n).map(|c| c * n + r).collect());
    }
    if let Some(b) = box_side {
        for by in 0..b {
            for bx in 0..b {
                units.push(
                    (0..n)
                        .map(|k| (by * b + k / b) * n + bx * b + k % b)
                        .collect(),
                );
            }
        }
    }
    units
}

/// Random units over `n` variables: each of 2..=`max_len` distinct variables.
fn random_units(rng: &mut Rng, n: usize, count: usize, max_len: usize) -> Vec<Vec<usize>> {
    (0..count)
        .map(|_| {
            let len = 2 + rng.below((max_len.min(n) - 1) as u64) as usize;
            let mut unit: Vec<usize> = Vec::new();
            while unit.len() < len {
                let i = rng.below(n as u64) as usize;
                if !unit.contains(&i) {
                    unit.push(i);
                }
            }
            unit
        })
        .collect()
}

/// Random domains over `lo..=hi` (each value kept with probability about 3/4, never empty).
fn random_domains(rng: &mut Rng, n: usize, lo: i32, hi: i32) -> Vec<Vec<i32>> {
    (0..n)
        .map(|_| {
            let mut values: Vec<i32> = (lo..=hi).filter(|_| rng.below(4) != 0).collect();
            if values.is_empty() {
                values.push(lo + rng.below((hi - lo + 1) as u64) as i32);
            }
            values
        })
        .collect()
}

/// The family and the separate all-differents on the same domains: identical domains (or
/// both failed) after every propagation of a random dive, going down by fixing or removing
/// a value and, now and then, back up.
fn same_as_separate(case: &str, rng: &mut Rng, units: &[Vec<usize>], domains: &[Vec<i32>]) {
    same_as_separate_beside(case, rng, units, domains, &[]);
}

/// [`same_as_separate`] with other constraints posted in both models: `x[a] ≠ x[b] + c` for
/// each `(a, b, c)` of `others`. Their prunings reach the family only through `notify`
/// between its runs, which is what its copy of the domains (reread only where announced)
/// must not miss.
fn same_as_separate_beside(
    case: &str,
    rng: &mut Rng,
    units: &[Vec<usize>],
    domains: &[Vec<i32>],
    others: &[(usize, usize, i32)],
) {
    let build = |together: bool| {
        let mut m = Model::new();
        let xs: Vec<VarId> = domains.iter().map(|d| m.new_var_from_values(d)).collect();
        let family = family_of(units, &xs);
        if together {
            let lo = domains.iter().flatten().copied().min().unwrap();
            m.post(Box::new(AllDifferentUnits::new(&family, lo).unwrap()));
        } else {
            // The oracle is the reference lane (`alldiff/reference.rs`), which shares no code
            // with the family: not `Model::all_different`, whose domain level runs the same
            // word matching as the family's units.
            for unit in &family {
                let offsets = vec![0; unit.len()];
                m.post(Box::new(AllDifferentReference::new(
                    &shifted(unit, &offsets),
                    AllDiffLevel::Domain,
                )));
            }
        }
        for &(a, b, c) in others {
            m.not_equal_offset(xs[a], xs[b], c);
        }
        (m, xs)
    };
    let (mut together, xs) = build(true);
    let (mut separate, _) = build(false);
    let shown = |m: &Model| -> Vec<Vec<i32>> {
        xs.iter().map(|&x| m.domain(x).values().to_vec()).collect()
    };
    let mut levels = Vec::new();
    for step in 0..40 {
        let a = together.propagate();
        let b = separate.propagate();
        assert_eq!(a.is_ok(), b.is_ok(), "{case} step {step}: only one failed");
        if a.is_ok() {
            assert_eq!(shown(&together), shown(&separate), "{case} step {step}");
        }
        let open: Vec<VarId> = xs
            .iter()
            .copied()
            .filter(|&x| !together.is_fixed(x))
            .collect();
        if a.is_err() || open.is_empty() || (!levels.is_empty() && rng.below(4) == 0) {
            let Some((t, s)) = levels.pop() else {
                return;
            };
            together.rollback(t);
            separate.rollback(s);
            continue;
        }
        let x = open[rng.below(open.len() as u64) as usize];
        let values = together.domain(x).values();
        let v = values[rng.below(values.len() as u64) as usize];
        levels.push((together.checkpoint(), separate.checkpoint()));
        if rng.below(2) == 0 {
            together.fix(x, v).unwrap();
            separate.fix(x, v).unwrap();
        } else {
            together.remove(x, v).unwrap();
            separate.remove(x, v).unwrap();
        }
    }
}

#[test]
fn latin_squares_and_sudoku_grids_prune_as_the_separate_all_differents() {
    let mut rng = Rng::new(20_261_122);
    for case in 0..60 {
        // Order 12 has 144 cells: the propagator's sets of variables take three words.
        // And 16×16 Sudoku grids: 256 cells, 48 units, the size the fast lane is used at.
        let (n, box_side) = match case % 6 {
            0 => (4, Some(2)),
            1 => (9, Some(3)),
            2 => (5, None),
            3 => (12, None),
            4 => (16, Some(4)),
            _ => (7, None),
        };
        let units = grid_units(n, box_side);
        let domains = random_domains(&mut rng, n * n, 1, n as i32);
        same_as_separate(&format!("grid case {case}"), &mut rng, &units, &domains);
    }
}

#[test]
fn random_overlapping_units_prune_as_the_separate_all_differents() {
    let mut rng = Rng::new(4242);
    for case in 0..300 {
        let n = 3 + rng.below(20) as usize;
        let count = 1 + rng.below(10) as usize;
        let units = random_units(&mut rng, n, count, 8);
        // Mostly tight (about as many values as a unit's variables), sometimes a full word.
        let (lo, hi) = if case % 5 == 0 {
            (-10, 53)
        } else {
            (0, 2 + rng.below(6) as i32)
        };
        let domains = random_domains(&mut rng, n, lo, hi);
        same_as_separate(&format!("random case {case}"), &mut rng, &units, &domains);
    }
}

#[test]
fn units_beside_other_constraints_prune_as_the_separate_all_differents() {
    // Latin squares of order 4 and 5 with disequalities between random cells: the family
    // runs between the other propagators' prunings, on every level of a dive.
    let mut rng = Rng::new(20_261_123);
    for case in 0..200 {
        let n = 4 + case % 2;
        let units = grid_units(n, None);
        let domains = random_domains(&mut rng, n * n, 1, n as i32);
        let others: Vec<(usize, usize, i32)> = (0..1 + rng.below(2 * n as u64) as usize)
            .map(|_| {
                let a = rng.below((n * n) as u64) as usize;
                let b = (a + 1 + rng.below((n * n - 1) as u64) as usize) % (n * n);
                (a, b, rng.below(3) as i32 - 1)
            })
            .collect();
        same_as_separate_beside(
            &format!("beside case {case}"),
            &mut rng,
            &units,
            &domains,
            &others,
        );
    }
}

#[test]
fn counting_with_other_constraints_finds_what_the_separate_all_differents_find() {
    // A whole search (backtracks, failures found by either kind of propagator) on Latin
    // squares of order 4 with random orderings between cells: the same number of
    // solutions either way, and at least one case where the orderings leave some and one
    // where they leave none.
    let mut rng = Rng::new(11_23);
    let mut kinds = [0, 0];
    for case in 0..40 {
        let n = 4;
        let units = grid_units(n, None);
        let pairs: Vec<(usize, usize)> = (0..1 + rng.below(6) as usize)
            .map(|_| {
                let a = rng.below((n * n) as u64) as usize;
                (
                    a,
                    (a + 1 + rng.below((n * n - 1) as u64) as usize) % (n * n),
                )
            })
            .collect();
        let count = |together: bool| {
            let mut m = Model::new();
            let xs = m.new_vars(n * n, 1, n as i32);
            let family = family_of(&units, &xs);
            if together {
                m.post(Box::new(AllDifferentUnits::new(&family, 1).unwrap()));
            } else {
                for unit in &family {
                    let offsets = vec![0; unit.len()];
                    m.post(Box::new(AllDifferentReference::new(
                        &shifted(unit, &offsets),
                        AllDiffLevel::Domain,
                    )));
                }
            }
            for &(a, b) in &pairs {
                m.less_than(xs[a], xs[b]);
            }
            engine::count(&mut m, &engine::SearchConfig::default()).solutions
        };
        let expected = count(false);
        assert_eq!(count(true), expected, "case {case}: {pairs:?}");
        kinds[(expected > 0) as usize] += 1;
    }
    assert!(
        kinds[0] > 0 && kinds[1] > 0,
        "both outcomes tested: {kinds:?}"
    );
}

/// A propagator that fails when its two variables are both fixed to the same value, without
/// touching any domain (so the store stays valid at the level where it fails).
#[derive(Clone, Debug)]
struct FailsOnEqualFixed(VarId, VarId);

impl Propagator for FailsOnEqualFixed {
    fn name(&self) -> &'static str {
        "fails_on_equal_fixed"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.0, Condition::Fixed),
            Subscription::new(self.1, Condition::Fixed),
        ]
    }
    fn priority(&self) -> Priority {
        Priority::High
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (a, b) = (ctx.domain(self.0), ctx.domain(self.1));
        if a.is_fixed() && b.is_fixed() && a.value() == b.value() {
            return Err(Conflict::new());
        }
        Ok(())
    }
}

#[test]
fn announcements_lost_at_a_level_left_open_are_not_missed() {
    // After a conflict the engine drops its queue and each propagator what was announced to
    // it. A search then closes that level; this test does not. The family must not start
    // again from the copy of its state it kept for the level below, with the announcements
    // made since (they were lost: it would miss the variables fixed meanwhile).
    //
    // A Latin square of order 4; cells 0 and 5 share no unit.
    let n = 4;
    let units = grid_units(n, None);
    let mut m = Model::new();
    let xs = m.new_vars(n * n, 1, n as i32);
    let family = family_of(&units, &xs);
    m.post(Box::new(AllDifferentUnits::new(&family, 1).unwrap()));
    m.post(Box::new(FailsOnEqualFixed(xs[0], xs[5])));
    m.propagate().unwrap();
    let _level = m.checkpoint();
    // Both fixed to 1: the other propagator (which runs first) fails, and the
    // announcements of cells 0 and 5 to the family are dropped.
    m.fix(xs[0], 1).unwrap();
    m.fix(xs[5], 1).unwrap();
    assert!(m.propagate().is_err());
    // Still at that level: a change elsewhere wakes the family alone.
    m.remove(xs[15], 4).unwrap();
    m.propagate().unwrap();
    for (u, unit) in units.iter().enumerate() {
        for &fixed in [0, 5].iter().filter(|f| unit.contains(f)) {
            for &i in unit.iter().filter(|&&i| i != fixed) {
                assert!(
                    !m.domain(xs[i]).contains(1),
                    "unit {u}: cell {i} still holds the value of cell {fixed}"
                );
            }
        }
    }
}
