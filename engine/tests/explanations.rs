//! Every precise explanation (`Propagator::explain`, `explain_failure`) checked against brute
//! force with `engine::testing::check_explanations`: each reason holds before the run and,
//! with the constraint alone, implies the atom over the whole universe. Each test also says
//! that the propagator explained every atom itself and that its reasons are smaller than
//! the generic ones on average. `cargo test -p engine --test explanations -- --nocapture`
//! prints the sizes (the table of `docs/propagators/explanations.md`).

use engine::atom::Atom;
use engine::domain::Domain;
use engine::propagator::{Context, PropResult, Propagator, Subscription};
use engine::propagators::linear::{post_linear, Relation};
use engine::rng::Rng;
use engine::testing::{check_explanations, Consistency, ExplanationStats, HarnessConfig};
use engine::VarId;

/// The harness configuration: `arity` variables over the universe `lo..=hi`.
fn config(arity: usize, lo: i32, hi: i32, seed: u64) -> HarnessConfig {
    let mut cfg = HarnessConfig::new(arity, lo, hi, Consistency::Checking);
    cfg.seed = seed;
    cfg.trials = 200;
    cfg
}

/// Assert that the propagator explained every atom itself (`all_precise`) and that its
/// reasons are smaller than the generic ones on average, and print the sizes.
fn assert_precise(name: &str, stats: ExplanationStats, all_precise: bool) {
    println!(
        "{name}: {} atoms, {} explained precisely, average reason {:.2} atoms, generic {:.2}",
        stats.explained,
        stats.precise,
        stats.average_reason(),
        stats.average_generic()
    );
    assert!(stats.explained > 0, "{name}: nothing to explain");
    if all_precise {
        assert_eq!(
            stats.precise, stats.explained,
            "{name}: some atoms fell back to the generic reason"
        );
    }
    assert!(
        stats.average_reason() < stats.average_generic(),
        "{name}: precise reasons are not smaller on average"
    );
}

/// Running totals over several constraints of one family, for one line of the table.
fn total(all: &mut ExplanationStats, one: ExplanationStats) {
    all.explained += one.explained;
    all.precise += one.precise;
    all.reason_atoms += one.reason_atoms;
    all.generic_atoms += one.generic_atoms;
    all.unlifted_atoms += one.unlifted_atoms;
    all.lifted_atoms += one.lifted_atoms;
    all.lifted_longer += one.lifted_longer;
}

fn sum(coefs: &[i64], t: &[i32], vars: &[usize]) -> i64 {
    coefs.iter().zip(vars).map(|(&a, &i)| a * t[i] as i64).sum()
}

#[test]
fn linear_explains_bounds_from_the_other_terms() {
    let mut rng = Rng::new(11);
    let mut all = ExplanationStats::default();
    for arity in 1..=4 {
        for round in 0..4 {
            let coefs: Vec<i64> = (0..arity)
                .map(|_| [-3i64, -2, -1, 1, 2, 3][rng.below(6) as usize])
                .collect();
            let rhs = rng.below(11) as i64 - 5;
            let vars: Vec<usize> = (0..arity).collect();
            for rel in [Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne] {
                let holds = |t: &[i32]| {
                    let s = sum(&coefs, t, &vars);
                    match rel {
                        Relation::Eq => s == rhs,
                        Relation::Le => s <= rhs,
                        Relation::Ge => s >= rhs,
                        Relation::Ne => s != rhs,
                    }
                };
                let cfg = config(arity, -3, 4, 100 + round);
                let stats = check_explanations(
                    &format!("linear {coefs:?} {rel:?} {rhs}"),
                    &cfg,
                    &holds,
                    &|xs| {
                        let terms: Vec<(i64, VarId)> =
                            coefs.iter().zip(xs).map(|(&a, &x)| (a, x)).collect();
                        post_linear(&terms, rel, rhs).pop().unwrap()
                    },
                );
                assert_eq!(
                    stats.precise, stats.explained,
                    "linear {coefs:?} {rel:?} {rhs}"
                );
                assert_eq!(
                    stats.lifted_longer, 0,
                    "linear {coefs:?} {rel:?} {rhs}: a lifted reason longer than the reason"
                );
                total(&mut all, stats);
            }
        }
    }
    assert_precise("linear", all, true);
    println!(
        "linear, lifted: {} atoms beyond the root, against {} unlifted",
        all.lifted_atoms, all.unlifted_atoms
    );
    assert!(
        all.lifted_atoms < all.unlifted_atoms,
        "lifting never shortened a linear reason"
    );
}

/// `3a + b + c + d ≤ 4` over 0/1 with `b = c = d = 1` forces `a = 0`: the sum of the
/// others is 3 where 2 would do, a slack of 1 that drops one of them. The lifted reason has
/// two atoms, the replayed one (every other term's bound) three.
#[test]
fn a_linear_reason_lifted_by_its_slack_drops_a_term() {
    use engine::propagator::RootDomains;
    let (a, b, c, d) = (VarId(0), VarId(1), VarId(2), VarId(3));
    let sum = post_linear(&[(3, a), (1, b), (1, c), (1, d)], Relation::Le, 4)
        .pop()
        .unwrap();
    let inputs = [
        Domain::interval(0, 1),
        Domain::interval(1, 1),
        Domain::interval(1, 1),
        Domain::interval(1, 1),
    ];
    let root = Domain::interval(0, 1);
    let of = |_: VarId| &root;
    let vars: Vec<VarId> = sum.subscriptions().iter().map(|s| s.var).collect();
    let roots = RootDomains {
        vars: &vars,
        of: &of,
    };
    let (mut full, mut lifted) = (Vec::new(), Vec::new());
    assert!(sum.explain(&inputs, Atom::AtMost(a, 0), &mut full));
    assert!(sum.explain_lifted(&inputs, roots, Atom::AtMost(a, 0), &mut lifted));
    assert_eq!(full.len(), 3, "{full:?}");
    assert_eq!(lifted.len(), 2, "{lifted:?}");
    // The failure of `a = 1` with them: 3 + 3 > 4 by 2, a slack of 1 again.
    let failed = [
        Domain::interval(1, 1),
        inputs[1].clone(),
        inputs[2].clone(),
        inputs[3].clone(),
    ];
    let (mut full, mut lifted) = (Vec::new(), Vec::new());
    assert!(sum.explain_failure(&failed, &mut full));
    assert!(sum.explain_failure_lifted(&failed, roots, &mut lifted));
    assert_eq!((full.len(), lifted.len()), (4, 3), "{full:?} {lifted:?}");
}

#[test]
fn linear_with_a_repeated_variable_explains() {
    // 2x − 3y + x = 3x − 3y once merged; the checker sees the sum as written.
    let vars = [0usize, 1, 0];
    let coefs = [2i64, -3, 1];
    for rel in [Relation::Eq, Relation::Le, Relation::Ge] {
        for rhs in [-4i64, 0, 2] {
            let holds = |t: &[i32]| {
                let s = sum(&coefs, t, &vars);
                match rel {
                    Relation::Eq => s == rhs,
                    Relation::Le => s <= rhs,
                    _ => s >= rhs,
                }
            };
            let stats =
                check_explanations("linear, x twice", &config(2, -4, 5, 3), &holds, &|xs| {
                    let terms: Vec<(i64, VarId)> =
                        coefs.iter().zip(vars).map(|(&a, i)| (a, xs[i])).collect();
                    post_linear(&terms, rel, rhs).pop().unwrap()
                });
            assert_eq!(stats.precise, stats.explained);
            assert_eq!(stats.lifted_longer, 0);
        }
    }
}

/// A propagator whose reasons lose their last atom: the harness must catch it.
#[derive(Clone, Debug)]
struct DropOneAtom(Box<dyn Propagator>);

impl Propagator for DropOneAtom {
    fn name(&self) -> &'static str {
        "drop_one_atom"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        self.0.subscriptions()
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        self.0.propagate_from_scratch(ctx)
    }
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let explained = self.0.explain(inputs, atom, reason);
        reason.pop();
        explained
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let explained = self.0.explain_failure(inputs, reason);
        reason.pop();
        explained
    }
}

#[test]
#[should_panic(expected = "does not imply")]
fn the_harness_catches_a_reason_missing_an_atom() {
    let holds = |t: &[i32]| t[0] + 2 * t[1] - t[2] <= 1;
    check_explanations(
        "x + 2y − z <= 1, one atom short",
        &config(3, -3, 4, 5),
        &holds,
        &|xs| {
            let terms = [(1, xs[0]), (2, xs[1]), (-1, xs[2])];
            Box::new(DropOneAtom(
                post_linear(&terms, Relation::Le, 1).pop().unwrap(),
            ))
        },
    );
}

#[test]
fn relations_on_views_explain_by_the_other_side() {
    use engine::propagators::relations::{Compare, EqualOffset};
    use engine::view::View;
    let mut all = ExplanationStats::default();
    for c in [-2, 0, 3] {
        let stats = check_explanations(
            "x = y + c",
            &config(2, -3, 4, 7),
            &|t| t[0] == t[1] + c,
            &|xs| Box::new(EqualOffset::new(xs[0], xs[1], c)),
        );
        assert_eq!(stats.precise, stats.explained, "x = y + {c}");
        total(&mut all, stats);
    }
    let views: [(&str, fn(VarId) -> View, fn(i32) -> i32); 4] = [
        ("y + 2", |y| y.plus(2), |v| v + 2),
        ("−y", |y| y.neg(), |v| -v),
        ("2y − 1", |y| y.times(2).plus(-1), |v| 2 * v - 1),
        ("−3y + 1", |y| y.times(-3).plus(1), |v| -3 * v + 1),
    ];
    for (shown, view, value) in views {
        let le = |t: &[i32]| t[0] <= value(t[1]);
        let stats =
            check_explanations(&format!("x ≤ {shown}"), &config(2, -4, 5, 8), &le, &|xs| {
                Box::new(Compare::less_equal(xs[0].into(), view(xs[1])))
            });
        assert_eq!(stats.precise, stats.explained, "x ≤ {shown}");
        total(&mut all, stats);
        let ge = |t: &[i32]| -t[0] >= value(t[1]);
        let stats = check_explanations(
            &format!("{shown} ≤ −x"),
            &config(2, -4, 5, 9),
            &ge,
            &|xs| Box::new(Compare::less_equal(view(xs[1]), xs[0].neg())),
        );
        assert_eq!(stats.precise, stats.explained, "{shown} ≤ −x");
        total(&mut all, stats);
        let ne = |t: &[i32]| t[0] != value(t[1]);
        let stats = check_explanations(
            &format!("x ≠ {shown}"),
            &config(2, -4, 5, 10),
            &ne,
            &|xs| Box::new(Compare::not_equal(xs[0].into(), view(xs[1]))),
        );
        assert_eq!(stats.precise, stats.explained, "x ≠ {shown}");
        total(&mut all, stats);
    }
    assert_precise("relations", all, true);
}

#[test]
fn relations_on_one_variable_twice_fall_back_soundly() {
    use engine::propagators::relations::Compare;
    // x ≤ −x + 2 and x ≠ −x + 2: the generic reason where the two sides share a variable.
    check_explanations(
        "x ≤ 2 − x",
        &config(1, -3, 4, 3),
        &|t| t[0] <= 2 - t[0],
        &|xs| Box::new(Compare::less_equal(xs[0].into(), xs[0].neg().plus(2))),
    );
    check_explanations(
        "x ≠ 2 − x",
        &config(1, -3, 4, 3),
        &|t| t[0] != 2 - t[0],
        &|xs| Box::new(Compare::not_equal(xs[0].into(), xs[0].neg().plus(2))),
    );
}

/// Every value 0 or 1.
fn booleans(t: &[i32]) -> bool {
    t.iter().all(|&v| v == 0 || v == 1)
}

#[test]
fn clauses_and_conjunctions_explain_by_unit_propagation() {
    use engine::propagators::clause::Clause;
    use engine::propagators::conjunction::Conjunction;
    let mut clauses = ExplanationStats::default();
    let mut conjunctions = ExplanationStats::default();
    for n in 1..=4usize {
        for signs in 0..(1u32 << n) {
            let sign = |i: usize| signs >> i & 1 == 1;
            let clause = |t: &[i32]| booleans(t) && (0..n).any(|i| t[i] == sign(i) as i32);
            let stats = check_explanations(
                "clause",
                &config(n, -1, 2, 20 + signs as u64),
                &clause,
                &|xs| {
                    let pos: Vec<VarId> = (0..n).filter(|&i| sign(i)).map(|i| xs[i]).collect();
                    let neg: Vec<VarId> = (0..n).filter(|&i| !sign(i)).map(|i| xs[i]).collect();
                    Box::new(Clause::new(&pos, &neg))
                },
            );
            assert_eq!(
                stats.precise, stats.explained,
                "clause of {n}, signs {signs:b}"
            );
            total(&mut clauses, stats);
            // r ⇔ ℓ₀ ∧ … ∧ ℓₙ₋₁ with r the last variable, negated when n is even.
            let r_sign = n % 2 == 1;
            let conj = |t: &[i32]| {
                booleans(t) && ((t[n] == r_sign as i32) == (0..n).all(|i| t[i] == sign(i) as i32))
            };
            let stats = check_explanations(
                "conjunction",
                &config(n + 1, -1, 2, 40 + signs as u64),
                &conj,
                &|xs| {
                    let lits: Vec<(VarId, bool)> = (0..n).map(|i| (xs[i], sign(i))).collect();
                    Box::new(Conjunction::new(&lits, (xs[n], r_sign)))
                },
            );
            assert_eq!(
                stats.precise, stats.explained,
                "conjunction of {n}, signs {signs:b}"
            );
            total(&mut conjunctions, stats);
        }
    }
    assert_precise("clause", clauses, true);
    assert_precise("conjunction", conjunctions, true);
}

#[test]
fn a_clause_with_a_repeated_variable_explains() {
    use engine::propagators::clause::Clause;
    // x ∨ y ∨ x, and the tautology x ∨ ¬x ∨ y.
    let stats = check_explanations(
        "x ∨ y ∨ x",
        &config(2, -1, 2, 4),
        &|t| booleans(t) && (t[0] == 1 || t[1] == 1),
        &|xs| Box::new(Clause::new(&[xs[0], xs[1], xs[0]], &[])),
    );
    assert_eq!(stats.precise, stats.explained);
    let stats = check_explanations("x ∨ ¬x ∨ y", &config(2, -1, 2, 4), &booleans, &|xs| {
        Box::new(Clause::new(&[xs[0], xs[1]], &[xs[0]]))
    });
    assert_eq!(stats.precise, stats.explained);
}

#[test]
fn reify_explains_by_the_other_side() {
    use engine::propagators::reify::Reify;
    use engine::view::View;
    let mut all = ExplanationStats::default();
    let views: [(fn(VarId) -> View, fn(i32) -> i64); 3] = [
        (|x| x.into(), |v| v as i64),
        (|x| x.plus(1), |v| v as i64 + 1),
        (|x| x.times(-2), |v| -2 * v as i64),
    ];
    for (view, shown) in views {
        for v in [-2, 0, 1, 3] {
            let eq =
                |t: &[i32]| (t[0] == 0 || t[0] == 1) && ((t[0] == 1) == (shown(t[1]) == v as i64));
            let stats = check_explanations("b ⇔ x = v", &config(2, -1, 4, 50), &eq, &|xs| {
                Box::new(Reify::equal(xs[0], view(xs[1]), v))
            });
            total(&mut all, stats);
            let le =
                |t: &[i32]| (t[0] == 0 || t[0] == 1) && ((t[0] == 1) == (shown(t[1]) <= v as i64));
            let stats = check_explanations("b ⇔ x ≤ v", &config(2, -1, 4, 51), &le, &|xs| {
                Box::new(Reify::less_equal(xs[0], view(xs[1]), v))
            });
            total(&mut all, stats);
        }
    }
    assert_precise("reify", all, true);
}

#[test]
fn reified_sums_and_membership_explain() {
    use engine::propagators::reified::{LinRel, ReifiedLinear, ReifiedMember};
    let mut rng = Rng::new(13);
    let mut sums = ExplanationStats::default();
    for arity in 1..=3usize {
        for round in 0..4 {
            let coefs: Vec<i64> = (0..arity)
                .map(|_| [-2i64, -1, 1, 2, 3][rng.below(5) as usize])
                .collect();
            let rhs = rng.below(7) as i64 - 3;
            let vars: Vec<usize> = (1..=arity).collect();
            for rel in [LinRel::Le, LinRel::Eq, LinRel::Ne] {
                for half in [false, true] {
                    let holds = |t: &[i32]| {
                        let s = sum(&coefs, t, &vars);
                        let r = match rel {
                            LinRel::Le => s <= rhs,
                            LinRel::Eq => s == rhs,
                            LinRel::Ne => s != rhs,
                        };
                        (t[0] == 0 || t[0] == 1)
                            && if half {
                                t[0] == 0 || r
                            } else {
                                (t[0] == 1) == r
                            }
                    };
                    let name = format!("b ⇔ {coefs:?} {rel:?} {rhs}, half {half}");
                    let stats = check_explanations(
                        &name,
                        &config(arity + 1, -2, 3, 60 + round),
                        &holds,
                        &|xs| {
                            let terms: Vec<(i64, VarId)> =
                                coefs.iter().zip(&xs[1..]).map(|(&a, &x)| (a, x)).collect();
                            Box::new(ReifiedLinear::new(xs[0], &terms, rel, rhs, half))
                        },
                    );
                    total(&mut sums, stats);
                }
            }
        }
    }
    assert_precise("linear_reif / linear_imp", sums, true);
    let mut members = ExplanationStats::default();
    for set in [vec![0, 2], vec![-1, 0, 1], vec![3]] {
        for half in [false, true] {
            let holds = |t: &[i32]| {
                let r = set.contains(&t[1]);
                (t[0] == 0 || t[0] == 1)
                    && if half {
                        t[0] == 0 || r
                    } else {
                        (t[0] == 1) == r
                    }
            };
            let stats = check_explanations("b ⇔ x ∈ S", &config(2, -2, 4, 70), &holds, &|xs| {
                Box::new(ReifiedMember::new(xs[0], xs[1], &set, half))
            });
            assert_eq!(
                stats.precise, stats.explained,
                "b ⇔ x ∈ {set:?}, half {half}"
            );
            total(&mut members, stats);
        }
    }
    assert_precise("member_reif", members, true);
}

/// The values shown by views `scale·x + offset` are all different.
fn shown_all_different(t: &[i32], views: &[(i32, i32)]) -> bool {
    let shown: Vec<i64> = t
        .iter()
        .zip(views)
        .map(|(&v, &(a, b))| a as i64 * v as i64 + b as i64)
        .collect();
    (0..shown.len()).all(|i| (0..i).all(|j| shown[i] != shown[j]))
}

/// All-different at `level` over views `scale·x + offset` of each of `shapes`, every atom
/// explained by the propagator itself (no fallback to the generic reason).
fn all_different_on_views(
    name: &str,
    level: engine::AllDiffLevel,
    shapes: &[Vec<(i32, i32)>],
    first_seed: u64,
    max_size: usize,
) -> ExplanationStats {
    use engine::propagators::alldiff::new_all_different;
    let mut all = ExplanationStats::default();
    for (k, views) in shapes.iter().enumerate() {
        let check = |t: &[i32]| shown_all_different(t, views);
        let mut cfg = config(views.len(), 0, 4, first_seed + k as u64);
        cfg.max_size = max_size;
        let stats = check_explanations(name, &cfg, &check, &|xs| {
            let vs: Vec<engine::view::View> = xs
                .iter()
                .zip(views)
                .map(|(&x, &(a, b))| x.times(a).plus(b))
                .collect();
            new_all_different(&vs, level)
        });
        assert_eq!(stats.precise, stats.explained, "{name}, views {views:?}");
        total(&mut all, stats);
    }
    all
}

#[test]
fn all_different_value_explains_by_the_fixed_views() {
    let shapes = [
        vec![(1, 0); 4],
        vec![(1, 0), (1, 1), (1, 2), (1, 3)],
        vec![(1, 0), (-1, 3), (2, 0)],
        vec![(1, 0), (1, 0), (-1, 4), (1, -1), (1, 2)],
    ];
    let all = all_different_on_views("alldiff value", engine::AllDiffLevel::Value, &shapes, 80, 3);
    assert_precise(
        "alldiff value (forward checking, fast lane and plain)",
        all,
        true,
    );
}

#[test]
fn all_different_bounds_explains_by_hall_intervals() {
    let shapes = [
        vec![(1, 0); 4],
        vec![(1, 0), (1, 1), (1, 2), (1, 3)],
        vec![(1, 0), (-1, 4), (1, 1)],
        vec![(1, 0), (2, -3), (-1, 5), (1, 0)],
    ];
    let all = all_different_on_views(
        "alldiff bounds",
        engine::AllDiffLevel::Bounds,
        &shapes,
        90,
        5,
    );
    assert_precise("alldiff bounds (Hall intervals)", all, true);
}

#[test]
fn element_explains_by_entries_and_positions() {
    use engine::propagators::element::Element;
    let mut all = ExplanationStats::default();
    for (k, array) in [vec![3, 1, 4, 1, 5], vec![0, 0, 2], vec![-1, 2, 2, -1, 0, 3]]
        .iter()
        .enumerate()
    {
        let check =
            |t: &[i32]| t[0] >= 0 && (t[0] as usize) < array.len() && array[t[0] as usize] == t[1];
        let mut cfg = config(2, -1, 6, 100 + k as u64);
        cfg.max_size = 4;
        let stats = check_explanations("element", &cfg, &check, &|xs| {
            Box::new(Element::new(xs[0], array, xs[1]))
        });
        assert_eq!(stats.precise, stats.explained, "element {array:?}");
        total(&mut all, stats);
    }
    assert_precise("element", all, true);
}

#[test]
fn table_explains_by_one_gone_cell_per_row() {
    use engine::propagators::table::Table;
    let mut rng = Rng::new(17);
    let mut all = ExplanationStats::default();
    for (arity, scope) in [(2, vec![0, 1]), (3, vec![0, 1, 2]), (2, vec![0, 1, 0])] {
        for round in 0..5 {
            let rows: Vec<Vec<i32>> = (0..6)
                .map(|_| (0..scope.len()).map(|_| rng.below(5) as i32 - 1).collect())
                .collect();
            let check = |t: &[i32]| {
                rows.iter()
                    .any(|row| row.iter().zip(&scope).all(|(&v, &i)| t[i] == v))
            };
            let stats =
                check_explanations("table", &config(arity, -1, 3, 110 + round), &check, &|xs| {
                    let vars: Vec<VarId> = scope.iter().map(|&i| xs[i]).collect();
                    Box::new(Table::new(&vars, &rows))
                });
            assert_eq!(
                stats.precise, stats.explained,
                "table {rows:?} on {scope:?}"
            );
            total(&mut all, stats);
        }
    }
    assert_precise("table", all, true);
}

#[test]
fn count_explains_by_the_positions_that_decide() {
    use engine::propagators::count::CountRange;
    let mut all = ExplanationStats::default();
    for (scope, value, lo, hi) in [
        (vec![0, 1, 2, 3], 1, 1, 2),
        (vec![0, 1, 2], 0, 2, 2),
        (vec![0, 1, 2, 3], 2, 0, 1),
        (vec![0, 1, 0, 2], 1, 2, 3),
    ] {
        let arity = scope.iter().max().unwrap() + 1;
        let check = |t: &[i32]| {
            let c = scope.iter().filter(|&&i| t[i] == value).count() as i64;
            lo <= c && c <= hi
        };
        let mut cfg = config(arity, -1, 3, 120 + value as u64);
        cfg.max_size = 3;
        let stats = check_explanations("count", &cfg, &check, &|xs| {
            let vars: Vec<VarId> = scope.iter().map(|&i| xs[i]).collect();
            Box::new(CountRange::new(&vars, value, lo, hi))
        });
        assert_eq!(
            stats.precise, stats.explained,
            "count of {value} in {scope:?} within {lo}..={hi}"
        );
        total(&mut all, stats);
    }
    assert_precise("count", all, true);
}

#[test]
fn arithmetic_explains_by_missing_supports() {
    use engine::propagators::arithmetic::{Arith, ArithOp};
    let ops = [
        ArithOp::Times,
        ArithOp::Div,
        ArithOp::Mod,
        ArithOp::Pow,
        ArithOp::Min,
        ArithOp::Max,
        ArithOp::Abs,
    ];
    let mut all = ExplanationStats::default();
    for (k, op) in ops.into_iter().enumerate() {
        let check = |t: &[i32]| op.apply(t[0] as i64, t[1] as i64) == Some(t[2] as i64);
        for budget in [1u64 << 10, 0] {
            let mut cfg = config(3, -3, 4, 130 + k as u64);
            cfg.first_ranges = vec![(-3, 3), (-2, 3), (-4, 6)];
            let stats = check_explanations(&format!("{op:?}"), &cfg, &check, &|xs| {
                Box::new(Arith::with_budget(op, xs[0], xs[1], xs[2], budget))
            });
            assert_eq!(stats.precise, stats.explained, "{op:?}, budget {budget}");
            total(&mut all, stats);
        }
        // A square: x op x = z.
        let square = |t: &[i32]| op.apply(t[0] as i64, t[0] as i64) == Some(t[1] as i64);
        let stats = check_explanations(
            &format!("{op:?}, square"),
            &config(2, -3, 5, 140 + k as u64),
            &square,
            &|xs| Box::new(Arith::new(op, xs[0], xs[0], xs[1])),
        );
        assert_eq!(stats.precise, stats.explained, "{op:?}, square");
        total(&mut all, stats);
    }
    assert_precise(
        "arithmetic (times, div, mod, pow, min, max, abs)",
        all,
        true,
    );
}

#[test]
fn element_var_explains_by_positions_and_entries() {
    use engine::propagators::element_var::ElementVar;
    let mut all = ExplanationStats::default();
    // Variables: index, result, then the array's distinct variables; `entries` lists which
    // of them each array position holds (a variable may stand twice).
    for (k, entries) in [vec![2, 3, 4], vec![2, 3], vec![2, 3, 2]]
        .iter()
        .enumerate()
    {
        let arity = entries.iter().max().unwrap() + 1;
        let offset = 1;
        let check = |t: &[i32]| {
            let p = t[0] as i64 - offset as i64;
            p >= 0 && (p as usize) < entries.len() && t[entries[p as usize]] == t[1]
        };
        let mut cfg = config(arity, -1, 3, 150 + k as u64);
        cfg.max_size = 4;
        let stats = check_explanations("element_var", &cfg, &check, &|xs| {
            let array: Vec<VarId> = entries.iter().map(|&i| xs[i]).collect();
            Box::new(ElementVar::new(xs[0], offset, &array, xs[1]))
        });
        assert_eq!(
            stats.precise, stats.explained,
            "element_var over {entries:?}"
        );
        total(&mut all, stats);
    }
    assert_precise("element_var", all, true);
}

/// `element_var` on wide domains: the chosen entry's bound is the result's bound, and the
/// result's bound is every indexed entry's, each named as weakly as the atom allows. The
/// value-by-value reasons gave up on these (a thousand values) or named the entries' own
/// bounds.
#[test]
fn element_var_explains_bounds_by_the_weakest_bounds() {
    use engine::propagators::element_var::ElementVar;
    let (i, r, a, b) = (VarId(0), VarId(1), VarId(2), VarId(3));
    let element = ElementVar::new(i, 1, &[a, b], r);
    // Subscriptions: index, result, then the entries.
    let chosen = [
        Domain::interval(1, 1),
        Domain::interval(0, 2),
        Domain::interval(0, 1000),
        Domain::interval(0, 1000),
    ];
    let mut reason = Vec::new();
    assert!(element.explain(&chosen, Atom::AtMost(a, 2), &mut reason));
    assert!(reason.contains(&Atom::AtMost(r, 2)), "{reason:?}");
    assert!(
        reason.len() <= 3 && !reason.iter().any(|x| x.var() == b),
        "{reason:?}"
    );
    let either = [
        Domain::interval(1, 2),
        Domain::interval(0, 2000),
        Domain::interval(10, 1000),
        Domain::interval(20, 1000),
    ];
    let mut reason = Vec::new();
    assert!(element.explain(&either, Atom::AtLeast(r, 10), &mut reason));
    assert!(reason.contains(&Atom::AtLeast(b, 10)), "{reason:?}");
    assert!(!reason.contains(&Atom::AtLeast(b, 20)), "{reason:?}");
}

/// `element_var` where a variable plays two roles (the index or the result is also an
/// entry, as FlatZinc's shared constants make common), and on interval domains (a MiniZinc
/// `var int`: the bounds reading of the rules, whose reasons are bounds too).
#[test]
fn element_var_explains_shared_roles_and_interval_domains() {
    use engine::propagators::element_var::ElementVar;
    let mut all = ExplanationStats::default();
    let mut bounds = ExplanationStats::default();
    // Variables: 0 the index, 1 the result, then the entries; `entries` lists which of them
    // each array position holds.
    for (k, entries) in [
        vec![0, 2, 3],
        vec![2, 1, 3],
        vec![1, 0],
        vec![2, 3, 4],
        vec![2, 3],
    ]
    .iter()
    .enumerate()
    {
        for interval in [false, true] {
            let arity = (*entries.iter().max().unwrap()).max(1) + 1;
            let check = |t: &[i32]| {
                let p = t[0] as i64 - 1;
                p >= 0 && (p as usize) < entries.len() && t[entries[p as usize]] == t[1]
            };
            let mut cfg = config(arity, -1, 4, 170 + k as u64);
            cfg.max_size = 4;
            cfg.trials = 300;
            cfg.interval_domains = interval;
            let stats = check_explanations("element_var, shared", &cfg, &check, &|xs| {
                let array: Vec<VarId> = entries.iter().map(|&i| xs[i]).collect();
                Box::new(ElementVar::new(xs[0], 1, &array, xs[1]))
            });
            total(&mut all, stats);
            if interval {
                total(&mut bounds, stats);
            }
        }
    }
    println!(
        "element_var, shared roles and intervals: {} of {} precise; on intervals {} of {}",
        all.precise, all.explained, bounds.precise, bounds.explained
    );
    assert!(
        all.precise * 10 >= all.explained * 9,
        "element_var, shared roles: {} of {} explained precisely",
        all.precise,
        all.explained
    );
    assert_precise("element_var, shared roles and intervals", all, false);
}

#[test]
fn regular_explains_by_a_minimal_cut_of_missing_labels() {
    use engine::propagators::regular::{Dfa, Regular};
    let mut rng = Rng::new(19);
    let mut all = ExplanationStats::default();
    for round in 0..30u64 {
        let arity = 1 + round as usize % 5;
        // A random automaton over 0..=2; the universe -1..=3 has values outside the alphabet.
        let states = 1 + rng.below(4) as usize;
        let next = (0..states)
            .map(|_| {
                (0..3)
                    .map(|_| rng.below(states as u64 + 1) as usize)
                    .collect()
            })
            .collect();
        let accepting = (1..=states).filter(|_| rng.below(2) == 0).collect();
        let start = 1 + rng.below(states as u64) as usize;
        let dfa = Dfa {
            states,
            first_value: 0,
            symbols: 3,
            next,
            start,
            accepting,
        };
        let accepts = dfa.clone();
        let stats = check_explanations(
            "regular",
            &config(arity, -1, 3, 160 + round),
            &|t| accepts.accepts(t),
            &|xs| Box::new(Regular::new(xs, dfa.clone())),
        );
        assert_eq!(stats.precise, stats.explained, "regular, round {round}");
        total(&mut all, stats);
    }
    // A nonogram line of 6 cells with the clue 2 1: 0* 1 1 0+ 1 0*.
    let clue = Dfa {
        states: 5,
        first_value: 0,
        symbols: 2,
        next: vec![vec![1, 2], vec![0, 3], vec![4, 0], vec![4, 5], vec![5, 0]],
        start: 1,
        accepting: vec![5],
    };
    let accepts = clue.clone();
    let mut cfg = config(6, 0, 1, 170);
    cfg.trials = 300;
    let stats = check_explanations("regular, clue 2 1", &cfg, &|t| accepts.accepts(t), &|xs| {
        Box::new(Regular::new(xs, clue.clone()))
    });
    assert_eq!(stats.precise, stats.explained, "regular, clue 2 1");
    total(&mut all, stats);
    assert_precise("regular", all, true);
}

#[test]
fn domain_consistent_sums_explain_by_missing_supports() {
    use engine::propagators::distinct_sum::DistinctSum;
    use engine::propagators::linear_domain::LinearEqDomain;
    let mut rng = Rng::new(23);
    let mut sums = ExplanationStats::default();
    for arity in 1..=3usize {
        for round in 0..5 {
            let coefs: Vec<i64> = (0..arity)
                .map(|_| [-2i64, -1, 1, 2, 3][rng.below(5) as usize])
                .collect();
            let rhs = rng.below(9) as i64 - 4;
            let vars: Vec<usize> = (0..arity).collect();
            let holds = |t: &[i32]| sum(&coefs, t, &vars) == rhs;
            let stats = check_explanations(
                "linear_eq_domain",
                &config(arity, -3, 4, 180 + round),
                &holds,
                &|xs| {
                    let terms: Vec<(i64, VarId)> =
                        coefs.iter().zip(xs).map(|(&a, &x)| (a, x)).collect();
                    Box::new(LinearEqDomain::new(&terms, rhs))
                },
            );
            assert_eq!(stats.precise, stats.explained, "{coefs:?} = {rhs}");
            total(&mut sums, stats);
        }
    }
    assert_precise("linear_eq_domain", sums, true);
    let mut distinct = ExplanationStats::default();
    for (arity, goal) in [(2usize, 7i64), (3, 12), (3, 6), (4, 20)] {
        let holds = |t: &[i32]| {
            (0..t.len()).all(|i| (0..i).all(|j| t[i] != t[j]))
                && t.iter().map(|&v| v as i64).sum::<i64>() == goal
        };
        let stats = check_explanations(
            "distinct_sum",
            &config(arity, 1, 9, 190 + arity as u64),
            &holds,
            &|xs| Box::new(DistinctSum::new(xs, goal)),
        );
        assert_eq!(
            stats.precise, stats.explained,
            "distinct_sum of {arity} = {goal}"
        );
        total(&mut distinct, stats);
    }
    assert_precise("distinct_sum", distinct, true);
}

#[test]
fn king_degree_explains_by_the_counted_neighbours() {
    use engine::propagators::king_degree::KingDegree;
    let mut all = ExplanationStats::default();
    for neighbours in 1..=4usize {
        let check = |t: &[i32]| {
            let occupied = t[1..].iter().filter(|&&v| v != 0).count() as i32;
            t[0] == 0 || t[0] == occupied
        };
        let mut cfg = config(neighbours + 1, 0, 4, 200 + neighbours as u64);
        cfg.max_size = 3;
        let stats = check_explanations("king_degree", &cfg, &check, &|xs| {
            Box::new(KingDegree::new(xs[0], &xs[1..]))
        });
        assert_eq!(
            stats.precise, stats.explained,
            "king_degree with {neighbours} neighbours"
        );
        total(&mut all, stats);
    }
    assert_precise("king_degree", all, true);
}

#[test]
fn all_different_domain_explains_by_hall_sets() {
    let shapes = [
        vec![(1, 0); 4],
        vec![(1, 0), (1, 1), (1, 2), (1, 3)],
        vec![(1, 0), (-1, 4), (2, 0)],
        vec![(1, 0); 5],
    ];
    let all = all_different_on_views(
        "alldiff domain",
        engine::AllDiffLevel::Domain,
        &shapes,
        210,
        5,
    );
    assert_precise("alldiff domain (Hall sets)", all, true);
}

#[test]
fn all_different_units_explain_by_hall_sets_replayed() {
    use engine::propagators::alldiff::fast::units::AllDifferentUnits;
    let shapes: [Vec<Vec<usize>>; 3] = [
        vec![vec![0, 1, 2], vec![2, 3], vec![0, 3, 4]],
        vec![vec![0, 1, 2, 3], vec![0, 4], vec![1, 2, 4]],
        vec![vec![0, 1], vec![1, 2], vec![2, 0]],
    ];
    let mut all = ExplanationStats::default();
    for (k, units) in shapes.iter().enumerate() {
        let arity = units.iter().flatten().max().unwrap() + 1;
        let check = |t: &[i32]| {
            units
                .iter()
                .all(|u| (0..u.len()).all(|i| (0..i).all(|j| t[u[i]] != t[u[j]])))
        };
        let stats = check_explanations(
            "alldiff units",
            &config(arity, 0, 4, 220 + k as u64),
            &check,
            &|xs| {
                let vars: Vec<Vec<VarId>> = units
                    .iter()
                    .map(|u| u.iter().map(|&i| xs[i]).collect())
                    .collect();
                Box::new(AllDifferentUnits::new(&vars, 0).expect("small units"))
            },
        );
        assert_eq!(stats.precise, stats.explained, "alldiff units {units:?}");
        total(&mut all, stats);
    }
    assert_precise("alldiff units (Hall sets, replayed)", all, true);
}

#[test]
fn all_different_offset_families_explain_by_replayed_rules() {
    use engine::propagators::alldiff::fast::offset_family::AllDifferentOffsetFamily;
    // n-queens' three families on 4 queens (rows constant, two diagonals), and two shifted
    // families without a constant one.
    let shapes: [Vec<Vec<i32>>; 2] = [
        vec![vec![0, 0, 0, 0], vec![0, 1, 2, 3], vec![0, -1, -2, -3]],
        vec![vec![0, 2, 1], vec![1, 0, 3]],
    ];
    let mut all = ExplanationStats::default();
    for (k, shifts) in shapes.iter().enumerate() {
        let n = shifts[0].len();
        let check = |t: &[i32]| {
            shifts
                .iter()
                .all(|c| (0..n).all(|i| (0..i).all(|j| t[i] + c[i] != t[j] + c[j])))
        };
        let mut cfg = config(n, 0, 3, 230 + k as u64);
        cfg.trials = 400;
        let stats = check_explanations("alldiff family", &cfg, &check, &|xs| {
            let families: Vec<Vec<engine::view::View>> = shifts
                .iter()
                .map(|c| xs.iter().zip(c).map(|(&x, &ci)| x.plus(ci)).collect())
                .collect();
            Box::new(AllDifferentOffsetFamily::new(&families))
        });
        assert_eq!(stats.precise, stats.explained, "alldiff family {shifts:?}");
        total(&mut all, stats);
    }
    assert_precise(
        "alldiff_value_family (forward checking and pigeonhole, replayed)",
        all,
        true,
    );
}

#[test]
fn circuit_explains_by_the_fixed_chain() {
    use engine::propagators::graph::circuit::Circuit;
    let mut all = ExplanationStats::default();
    for n in 2..=5usize {
        let check = |t: &[i32]| {
            if t.iter().any(|&v| v < 0 || v >= n as i32) {
                return false;
            }
            let (mut node, mut steps) = (0usize, 0);
            loop {
                node = t[node] as usize;
                steps += 1;
                if node == 0 || steps > n {
                    break;
                }
            }
            node == 0 && steps == n
        };
        let mut cfg = config(n, -1, n as i32, 240 + n as u64);
        cfg.max_size = 3;
        let stats = check_explanations("circuit", &cfg, &check, &|xs| Box::new(Circuit::new(xs)));
        assert_eq!(stats.precise, stats.explained, "circuit of {n}");
        total(&mut all, stats);
    }
    assert_precise("circuit", all, true);
}

#[test]
fn cumulative_explains_by_compulsory_parts() {
    use engine::propagators::scheduling::cumulative::Cumulative;
    let mut all = ExplanationStats::default();
    for (k, (durations, uses, capacity)) in [
        (vec![2, 1, 3], vec![1, 2, 1], 2),
        (vec![2, 2, 1, 3], vec![1, 1, 1, 1], 1),
        (vec![3, 2, 2], vec![2, 1, 2], 3),
    ]
    .into_iter()
    .enumerate()
    {
        let check = |t: &[i32]| {
            (-2..12).all(|tau| {
                let used: i32 = (0..t.len())
                    .filter(|&i| t[i] <= tau && tau < t[i] + durations[i])
                    .map(|i| uses[i])
                    .sum();
                used <= capacity
            })
        };
        let mut cfg = config(durations.len(), 0, 5, 250 + k as u64);
        cfg.max_size = 4;
        let stats = check_explanations("cumulative", &cfg, &check, &|xs| {
            Box::new(Cumulative::new(xs, &durations, &uses, capacity))
        });
        assert_eq!(
            stats.precise, stats.explained,
            "cumulative {durations:?} {uses:?} {capacity}"
        );
        total(&mut all, stats);
    }
    assert_precise("cumulative (time-table)", all, true);
}

#[test]
fn vectors_differ_explains_by_the_equal_positions() {
    use engine::propagators::vectors::VectorsDiffer;
    let mut all = ExplanationStats::default();
    for n in 1..=3usize {
        let check = |t: &[i32]| (0..n).any(|k| t[k] != t[n + k]);
        let mut cfg = config(2 * n, 0, 2, 260 + n as u64);
        cfg.max_size = 2;
        let stats = check_explanations("vectors_differ", &cfg, &check, &|xs| {
            Box::new(VectorsDiffer::new(&xs[..n], &xs[n..]))
        });
        assert_eq!(stats.precise, stats.explained, "vectors_differ of {n}");
        total(&mut all, stats);
    }
    assert_precise("vectors_differ", all, true);
}

#[test]
fn global_cardinality_explains_by_counting_certificates() {
    use engine::propagators::count::GlobalCardinality;
    let mut all = ExplanationStats::default();
    for (k, (scope, counts)) in [
        (vec![0, 1, 2, 3], vec![(1, 2), (2, 1)]),
        (vec![0, 1, 2], vec![(0, 1), (1, 1), (2, 1)]),
        (vec![0, 1, 2, 3], vec![(0, 0), (2, 2)]),
        (vec![0, 1, 0, 2], vec![(1, 2), (3, 1)]),
        (vec![0, 1, 2], vec![(1, 1), (1, 2)]),
    ]
    .into_iter()
    .enumerate()
    {
        let arity = scope.iter().max().unwrap() + 1;
        let check = |t: &[i32]| {
            counts
                .iter()
                .all(|&(v, c)| scope.iter().filter(|&&i| t[i] == v).count() as u32 == c)
        };
        let mut cfg = config(arity, -1, 3, 300 + k as u64);
        cfg.max_size = 3;
        let stats = check_explanations("global_cardinality", &cfg, &check, &|xs| {
            let vars: Vec<VarId> = scope.iter().map(|&i| xs[i]).collect();
            Box::new(GlobalCardinality::new(&vars, &counts))
        });
        assert_eq!(
            stats.precise, stats.explained,
            "global_cardinality {scope:?} {counts:?}"
        );
        total(&mut all, stats);
    }
    assert_precise("global_cardinality", all, true);
}

#[test]
fn inverse_explains_by_the_channelling_atoms() {
    use engine::propagators::inverse::Inverse;
    let mut all = ExplanationStats::default();
    for (n, x_base, y_base) in [(2usize, 0, 0), (3, 1, 0), (3, 0, 1), (2, 1, 1)] {
        let check = |t: &[i32]| {
            let (xs, ys) = t.split_at(n);
            let channels = |a: &[i32], a_base: i32, b: &[i32], b_base: i32| {
                (0..n).all(|i| {
                    let j = a[i] - b_base;
                    0 <= j && (j as usize) < n && b[j as usize] == a_base + i as i32
                })
            };
            channels(xs, x_base, ys, y_base) && channels(ys, y_base, xs, x_base)
        };
        let mut cfg = config(2 * n, -1, 3, 310 + n as u64 + x_base as u64);
        cfg.max_size = 3;
        let stats = check_explanations("inverse", &cfg, &check, &|xs| {
            Box::new(Inverse::new(&xs[..n], x_base, &xs[n..], y_base))
        });
        assert_eq!(stats.precise, stats.explained, "inverse of {n}");
        total(&mut all, stats);
    }
    assert_precise("inverse", all, true);
}

#[test]
fn lex_explains_position_by_position() {
    use engine::propagators::lex::Lex;
    let mut all = ExplanationStats::default();
    for (k, (nx, ny, strict)) in [
        (2usize, 2usize, false),
        (3, 3, true),
        (3, 2, false),
        (2, 3, true),
        (3, 3, false),
    ]
    .into_iter()
    .enumerate()
    {
        let check = |t: &[i32]| {
            let (xs, ys) = t.split_at(nx);
            match xs.cmp(ys) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Equal => !strict,
                std::cmp::Ordering::Greater => false,
            }
        };
        let mut cfg = config(nx + ny, 0, 3, 320 + k as u64);
        cfg.max_size = 3;
        let stats = check_explanations("lex", &cfg, &check, &|xs| {
            Box::new(Lex::new(&xs[..nx], &xs[nx..], strict))
        });
        assert_eq!(stats.precise, stats.explained, "lex {nx} {ny} {strict}");
        total(&mut all, stats);
    }
    assert_precise("lex", all, true);
}

/// Lexicographic symmetry breaking compares a matrix with its own rotation: every variable
/// stands on both sides, some positions hold one variable twice. The reasons are read from
/// the inputs, so they stay sound; most atoms are still explained by the prefix.
#[test]
fn lex_with_repeated_variables_explains_by_the_prefix() {
    use engine::propagators::lex::Lex;
    let mut all = ExplanationStats::default();
    // Each case: the variables of x and of y, by index into the harness's variables.
    let cases: [(&[usize], &[usize], usize); 5] = [
        (&[0, 1, 2], &[2, 1, 0], 3),       // a mirror: the middle is one variable
        (&[0, 1], &[1, 0], 2),             // a swap
        (&[0, 1, 2, 3], &[1, 2, 3, 0], 4), // a rotation
        (&[0, 1, 2, 3], &[2, 0, 3, 1], 4), // a 2×2 board turned a quarter
        (&[0, 1, 0, 2], &[1, 2, 3, 0], 4), // a variable twice on one side
    ];
    for (k, (xi, yi, arity)) in cases.into_iter().enumerate() {
        for strict in [false, true] {
            let check = |t: &[i32]| {
                let xs: Vec<i32> = xi.iter().map(|&i| t[i]).collect();
                let ys: Vec<i32> = yi.iter().map(|&i| t[i]).collect();
                if strict {
                    xs < ys
                } else {
                    xs <= ys
                }
            };
            let mut cfg = config(arity, -1, 2, 420 + k as u64);
            cfg.max_size = 3;
            cfg.trials = 300;
            let stats = check_explanations("lex, repeated variables", &cfg, &check, &|xs| {
                let x: Vec<VarId> = xi.iter().map(|&i| xs[i]).collect();
                let y: Vec<VarId> = yi.iter().map(|&i| xs[i]).collect();
                Box::new(Lex::new(&x, &y, strict))
            });
            total(&mut all, stats);
        }
    }
    // Not every atom: where the walk pruned through its own prunings the inputs do not show
    // the prefix, and the generic reason is used. But most.
    assert!(
        all.precise * 10 >= all.explained * 8,
        "lex, repeated variables: {} of {} explained precisely",
        all.precise,
        all.explained
    );
    assert_precise("lex, repeated variables", all, false);
}

/// On a rotation (`[a, b, c, d, f] ≤lex [b, a, e, f, d]`, `a = b = 1`), `c ≤ 2` is
/// explained by the equal prefix, `[e ≤ 2]` and `c`'s own bound `[c ≤ 3]`: six atoms, none
/// on the positions after `c`, where the generic reason describes every input.
#[test]
fn lex_on_a_rotation_is_explained_by_the_prefix_and_one_bound() {
    use engine::propagators::lex::Lex;
    let (a, b, c, e, d, f) = (VarId(0), VarId(1), VarId(2), VarId(3), VarId(4), VarId(5));
    let domain = |x: VarId| match x.0 {
        0 | 1 => Domain::interval(1, 1),
        2 => Domain::interval(0, 3),
        3 => Domain::interval(0, 2),
        4 => Domain::interval(1, 2),
        _ => Domain::interval(0, 1),
    };
    let lex = Lex::new(&[a, b, c, d, f], &[b, a, e, f, d], false);
    let inputs: Vec<Domain> = (lex.subscriptions().iter())
        .map(|s| domain(s.var))
        .collect();
    let mut reason = Vec::new();
    assert!(
        lex.explain(&inputs, Atom::AtMost(c, 2), &mut reason),
        "a repeated variable sent [c ≤ 2] to the generic reason"
    );
    let mut generic = Vec::new();
    let vars: Vec<VarId> = lex.subscriptions().iter().map(|s| s.var).collect();
    engine::learning::reason::generic_reason(&vars, &inputs, &mut generic);
    assert!(reason.len() <= 6, "{reason:?}");
    assert!(
        reason.len() < generic.len(),
        "{reason:?} against {generic:?}"
    );
    assert!(reason.contains(&Atom::AtMost(e, 2)), "{reason:?}");
    assert!(
        !reason.iter().any(|r| r.var() == d || r.var() == f),
        "{reason:?}"
    );
}

#[test]
fn disjunctive_explains_by_its_rules_replayed() {
    use engine::propagators::scheduling::disjunctive::Disjunctive;
    let mut all = ExplanationStats::default();
    for (k, (durations, strict, rules)) in [
        (vec![2, 1, 3], false, 0),
        (vec![2, 2, 2], false, 1),
        (vec![3, 2, 0, 1], true, 0),
        (vec![1, 3, 2, 2], false, 0),
        (vec![2, 0, 2], true, 2),
        (vec![3, 1, 2], false, 2),
    ]
    .into_iter()
    .enumerate()
    {
        let n = durations.len();
        let check = |s: &[i32]| {
            (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    let (di, dj) = (durations[i], durations[j]);
                    (!strict && (di == 0 || dj == 0)) || s[i] + di <= s[j] || s[j] + dj <= s[i]
                })
            })
        };
        let mut cfg = config(n, 0, 7, 330 + k as u64);
        cfg.max_size = 5;
        let stats = check_explanations("disjunctive", &cfg, &check, &|xs| {
            let p = Disjunctive::new(xs, &durations, strict);
            match rules {
                1 => Box::new(p.time_tabling_only()),
                2 => Box::new(p.without_detectable_precedences()),
                _ => Box::new(p),
            }
        });
        assert_eq!(
            stats.precise, stats.explained,
            "disjunctive {durations:?} {strict}"
        );
        total(&mut all, stats);
    }
    assert_precise("disjunctive", all, true);
}

#[test]
fn cumulative_var_explains_by_its_rules_replayed() {
    use engine::propagators::scheduling::cumulative_var::CumulativeVar;
    let mut all = ExplanationStats::default();
    for n in 1..=3usize {
        // Starts, durations, uses, capacity: the harness's variables in that order.
        let check = |t: &[i32]| {
            let (s, rest) = t.split_at(n);
            let (d, rest) = rest.split_at(n);
            let (r, c) = rest.split_at(n);
            d.iter().chain(r).chain(c).all(|&v| v >= 0)
                && (-2..12).all(|tau| {
                    let used: i32 = (0..n)
                        .filter(|&i| s[i] <= tau && tau < s[i] + d[i])
                        .map(|i| r[i])
                        .sum();
                    used <= c[0]
                })
        };
        let mut cfg = config(3 * n + 1, 0, 3, 340 + n as u64);
        cfg.first_ranges = (0..n)
            .map(|_| (0, 4))
            .chain((0..n).map(|_| (-1, 3)))
            .chain((0..n).map(|_| (0, 2)))
            .chain([(-1, 3)])
            .collect();
        cfg.max_size = 3;
        cfg.trials = if n == 3 { 60 } else { 200 };
        let stats = check_explanations("cumulative_var", &cfg, &check, &|v| {
            Box::new(CumulativeVar::new(
                &v[..n],
                &v[n..2 * n],
                &v[2 * n..3 * n],
                v[3 * n],
            ))
        });
        assert_eq!(stats.precise, stats.explained, "cumulative_var of {n}");
        total(&mut all, stats);
    }
    assert_precise("cumulative_var (time-table)", all, true);
}

#[test]
fn subcircuit_explains_by_the_fixed_chain_or_cycle() {
    use engine::propagators::graph::subcircuit::Subcircuit;
    let mut all = ExplanationStats::default();
    for n in 2..=5usize {
        let check = |t: &[i32]| {
            if t.iter().any(|&v| v < 0 || v >= n as i32) {
                return false;
            }
            let inside: Vec<usize> = (0..n).filter(|&i| t[i] != i as i32).collect();
            let Some(&first) = inside.first() else {
                return true;
            };
            let (mut node, mut steps) = (first, 0);
            loop {
                node = t[node] as usize;
                steps += 1;
                if node == first || steps > n || t[node] == node as i32 {
                    break;
                }
            }
            node == first && steps == inside.len()
        };
        let mut cfg = config(n, -1, n as i32, 350 + n as u64);
        cfg.max_size = 3;
        let stats = check_explanations("subcircuit", &cfg, &check, &|xs| {
            Box::new(Subcircuit::new(xs))
        });
        assert_eq!(stats.precise, stats.explained, "subcircuit of {n}");
        total(&mut all, stats);
    }
    assert_precise("subcircuit", all, true);
}

#[test]
fn diffn_explains_by_the_pairs_replayed() {
    use engine::propagators::packing::diffn::Diffn;
    let mut all = ExplanationStats::default();
    for (k, (n, strict, hole_rule)) in [
        (2usize, true, true),
        (2, false, true),
        (2, true, false),
        (3, true, true),
        (3, false, true),
    ]
    .into_iter()
    .enumerate()
    {
        // x, y, dx, dy of each rectangle in turn.
        let check = |t: &[i32]| {
            let r = |i: usize| (t[4 * i], t[4 * i + 1], t[4 * i + 2], t[4 * i + 3]);
            (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    let ((xi, yi, wi, hi), (xj, yj, wj, hj)) = (r(i), r(j));
                    xi + wi <= xj
                        || xj + wj <= xi
                        || yi + hi <= yj
                        || yj + hj <= yi
                        || (!strict && [wi, hi, wj, hj].contains(&0))
                })
            })
        };
        let (origin, size) = if n == 2 {
            ((0, 3), (0, 2))
        } else {
            ((0, 2), (1, 2))
        };
        let mut cfg = config(4 * n, 0, 3, 360 + k as u64);
        cfg.first_ranges = (0..n).flat_map(|_| [origin, origin, size, size]).collect();
        cfg.max_size = 3;
        cfg.trials = if n == 2 { 2000 } else { 600 };
        let stats = check_explanations("diffn", &cfg, &check, &|v| {
            let pick = |o: usize| (0..n).map(|i| v[4 * i + o]).collect::<Vec<_>>();
            let p = Diffn::new(&pick(0), &pick(1), &pick(2), &pick(3), strict);
            if hole_rule {
                Box::new(p)
            } else {
                Box::new(p.without_hole_rule())
            }
        });
        assert_eq!(
            stats.precise, stats.explained,
            "diffn of {n} {strict} {hole_rule}"
        );
        total(&mut all, stats);
    }
    assert_precise("diffn", all, true);
}

/// A small model of `n` variables over `0..=hi`: one of the globals explained above, and a
/// few not-equal and sum constraints beside it so that searches fail and learn.
fn model_with_a_global(seed: u64) -> engine::Model {
    use engine::propagators::count::GlobalCardinality;
    use engine::propagators::graph::subcircuit::Subcircuit;
    use engine::propagators::inverse::Inverse;
    use engine::propagators::lex::Lex;
    use engine::propagators::packing::diffn::Diffn;
    use engine::propagators::scheduling::cumulative_var::CumulativeVar;
    use engine::propagators::scheduling::disjunctive::Disjunctive;
    let mut rng = Rng::new(seed);
    let mut m = engine::Model::new();
    let kind = seed % 7;
    let n = if kind == 6 { 8 } else { 6 };
    let xs = m.new_vars(n, 0, 3);
    let global: Box<dyn Propagator> = match kind {
        0 => Box::new(GlobalCardinality::new(&xs, &[(0, 2), (1, 1), (3, 2)])),
        1 => Box::new(Disjunctive::new(&xs[..3], &[1, 2, 1], seed % 2 == 0)),
        2 => Box::new(CumulativeVar::new(&xs[..2], &xs[2..4], &xs[4..6], xs[0])),
        3 => Box::new(Inverse::new(&xs[..3], 0, &xs[3..], 1)),
        // Half the time a rotation, every variable on both sides (symmetry breaking).
        4 if seed % 2 == 0 => Box::new(Lex::new(&xs[..3], &xs[3..], true)),
        4 => Box::new(Lex::new(&xs[..4], &[xs[2], xs[0], xs[3], xs[1]], false)),
        5 => Box::new(Subcircuit::new(&xs[..4])),
        _ => Box::new(Diffn::new(&xs[..2], &xs[2..4], &xs[4..6], &xs[6..], true)),
    };
    m.post(global);
    for _ in 0..3 {
        let (a, b) = (
            xs[rng.below(n as u64) as usize],
            xs[rng.below(n as u64) as usize],
        );
        if a != b {
            m.not_equal_offset(a, b, rng.below(3) as i32 - 1);
        }
    }
    let terms: Vec<(i64, VarId)> = (0..3)
        .map(|_| (rng.below(3) as i64 + 1, xs[rng.below(n as u64) as usize]))
        .collect();
    m.linear(&terms, Relation::Le, rng.below(8) as i64 + 3);
    m
}

/// The explanations inside real conflict analysis: counts with learning, in the checking
/// mode (every reason and nogood verified by brute force), equal counts without.
#[test]
fn models_with_these_globals_count_the_same_with_learning() {
    use engine::search::VarSelect;
    use engine::{count, SearchConfig};
    let mut nogoods = 0;
    for seed in 0..140 {
        let plain = count(&mut model_with_a_global(seed), &SearchConfig::default());
        let config = SearchConfig {
            learn: true,
            check_learning: true,
            var_select: VarSelect::SmallestDomain,
            ..SearchConfig::default()
        };
        let learning = count(&mut model_with_a_global(seed), &config);
        assert!(plain.complete && learning.complete, "seed {seed}");
        assert_eq!(plain.solutions, learning.solutions, "seed {seed}");
        nogoods += learning.stats.nogoods;
    }
    assert!(nogoods > 100, "only {nogoods} nogoods learned");
}

#[test]
fn regular_transitions_explain_by_dead_edges() {
    use engine::propagators::regular::Dfa;
    use engine::propagators::regular_states::Transition;
    let mut rng = Rng::new(41);
    let mut all = ExplanationStats::default();
    for round in 0..30u64 {
        // A random automaton over 0..=1; the universe -1..=5 holds the dead state 0, states
        // beyond the automaton's, and symbols outside its alphabet.
        let states = 1 + rng.below(4) as usize;
        let next: Vec<Vec<usize>> = (0..states)
            .map(|_| {
                (0..2)
                    .map(|_| rng.below(states as u64 + 1) as usize)
                    .collect()
            })
            .collect();
        let dfa = Dfa {
            states,
            first_value: 0,
            symbols: 2,
            next,
            start: 1,
            accepting: vec![1],
        };
        let step = dfa.clone();
        let stats = check_explanations(
            "regular transition",
            &config(3, -1, 5, 400 + round),
            &|t| {
                let (q, v, to) = (t[0], t[1], t[2]);
                q >= 1 && (q as usize) <= step.states && {
                    let target = step.step(q as usize, v);
                    target != 0 && target as i32 == to
                }
            },
            &|xs| Box::new(Transition::new(xs[0], xs[1], xs[2], &dfa)),
        );
        assert_eq!(
            stats.precise, stats.explained,
            "regular transition, round {round}"
        );
        total(&mut all, stats);
    }
    assert_precise("regular transition", all, true);
}
