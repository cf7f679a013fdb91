//! Learning from failure (engine/src/learning/) on many small random models: a mix of
//! linear constraints, all-different, element, table, clause and reified constraints.
//!
//! Every search runs in the checking mode (`SearchConfig::check_learning`), which verifies
//! each reason the analysis uses and each learned nogood by brute force (no solution of the
//! model has all its atoms) and panics otherwise. On top of that, the tests compare the
//! searches with and without learning: (a) the same solution count, (b) the same
//! first-solution status, (c) the same optimum.

use engine::search::{Objective, VarSelect};
use engine::{count, rng::Rng, solve, AllDiffLevel, Model, Relation, SearchConfig, VarId};

/// A small random model over `n` variables with domains within 0..=3 or 0..=4, and its
/// variables.
fn random_model(seed: u64) -> (Model, Vec<VarId>) {
    let mut rng = Rng::new(seed);
    let mut m = Model::new();
    let n = 4 + rng.below(3) as usize;
    let hi = 3 + rng.below(2) as i32;
    let xs = m.new_vars(n, 0, hi);
    let pick = |rng: &mut Rng| xs[rng.below(n as u64) as usize];
    let constraints = 3 + rng.below(4);
    for _ in 0..constraints {
        match rng.below(7) {
            0 => {
                let terms: Vec<(i64, VarId)> = (0..3)
                    .map(|_| (rng.below(5) as i64 - 2, pick(&mut rng)))
                    .collect();
                let rel =
                    [Relation::Le, Relation::Ge, Relation::Eq, Relation::Ne][rng.below(4) as usize];
                m.linear(&terms, rel, rng.below(7) as i64 - 1);
            }
            1 => {
                let mut vars = xs.clone();
                rng.shuffle(&mut vars);
                vars.truncate(3);
                let level = [
                    AllDiffLevel::Value,
                    AllDiffLevel::Bounds,
                    AllDiffLevel::Domain,
                ][rng.below(3) as usize];
                m.all_different(&vars, level);
            }
            2 => {
                let array: Vec<i32> = (0..=hi).map(|_| rng.below(hi as u64 + 1) as i32).collect();
                let (i, r) = (pick(&mut rng), pick(&mut rng));
                if i != r {
                    m.element(i, &array, r);
                }
            }
            3 => {
                let vars = [pick(&mut rng), pick(&mut rng)];
                let tuples: Vec<Vec<i32>> = (0..6)
                    .map(|_| (0..2).map(|_| rng.below(hi as u64 + 1) as i32).collect())
                    .collect();
                if vars[0] != vars[1] {
                    m.table(&vars, tuples);
                }
            }
            4 => {
                let b = m.new_bool();
                let c = m.new_bool();
                let x = pick(&mut rng);
                m.reify_eq(b, x, rng.below(hi as u64 + 1) as i32);
                m.reify_le(c, pick(&mut rng), rng.below(hi as u64 + 1) as i32);
                m.clause(&[b], &[c]);
            }
            5 => {
                let (x, y) = (pick(&mut rng), pick(&mut rng));
                if x != y {
                    m.not_equal_offset(x, y, rng.below(3) as i32 - 1);
                }
            }
            _ => {
                let (x, y) = (pick(&mut rng), pick(&mut rng));
                if x != y {
                    m.less_equal_offset(x, y, rng.below(3) as i32);
                }
            }
        }
    }
    (m, xs)
}

/// Learning on or off; the comparisons run without the checking mode, so that they would
/// catch a wrong nogood on their own.
fn config(learn: bool, var_select: VarSelect) -> SearchConfig {
    SearchConfig {
        var_select,
        learn,
        ..SearchConfig::default()
    }
}

#[test]
fn the_checking_mode_verifies_every_reason_and_nogood_of_random_models() {
    for seed in 0..MODELS {
        let config = SearchConfig {
            check_learning: true,
            ..config(true, VarSelect::SmallestDomain)
        };
        let learning = count(&mut random_model(seed).0, &config);
        let plain = count(&mut random_model(seed).0, &SearchConfig::default());
        assert_eq!(plain.solutions, learning.solutions, "seed {seed}");
    }
}

const MODELS: u64 = 300;

#[test]
fn counts_with_learning_equal_counts_without() {
    let mut learned = 0;
    for seed in 0..MODELS {
        let plain = count(
            &mut random_model(seed).0,
            &config(false, VarSelect::InputOrder),
        );
        for select in [VarSelect::InputOrder, VarSelect::SmallestDomain] {
            for activity in [false, true] {
                let learning = SearchConfig {
                    activity,
                    ..config(true, select.clone())
                };
                let learning = count(&mut random_model(seed).0, &learning);
                assert!(plain.complete && learning.complete);
                assert_eq!(plain.solutions, learning.solutions, "seed {seed}");
                learned += learning.stats.nogoods;
            }
        }
    }
    // The models must fail often enough for learning to be exercised at all.
    assert!(learned > 200, "only {learned} nogoods learned");
}

#[test]
fn first_solutions_agree_with_and_without_learning() {
    let mut backjumps = 0;
    for seed in 0..MODELS {
        let plain = solve(
            &mut random_model(seed + 10_000).0,
            &config(false, VarSelect::InputOrder),
        );
        // Plain learning; then with activity-based branching and frequent restarts.
        for activity in [false, true] {
            let with = SearchConfig {
                activity,
                restarts: if activity {
                    engine::RestartPolicy::Luby { scale: 2 }
                } else {
                    engine::RestartPolicy::Never
                },
                ..config(true, VarSelect::InputOrder)
            };
            let learning = solve(&mut random_model(seed + 10_000).0, &with);
            assert_eq!(plain.solutions, learning.solutions, "seed {seed}");
            assert_eq!(plain.complete, learning.complete, "seed {seed}");
            backjumps += learning.stats.backjumps;
        }
    }
    // A first solution is searched with backjumps: they must have been taken.
    assert!(backjumps > 50, "only {backjumps} backjumps");
}

#[test]
fn optima_agree_with_and_without_learning() {
    // A fresh model for every search: a model whose root propagation failed is not searched
    // again (the propagators are no longer queued).
    let model = |seed: u64| {
        let (mut m, xs) = random_model(seed + 20_000);
        let mut terms: Vec<(i64, VarId)> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| ((i % 3) as i64 + 1, x))
            .collect();
        let total = m.new_var(0, 100);
        terms.push((-1, total));
        m.linear(&terms, Relation::Eq, 0);
        (m, total)
    };
    for seed in 0..MODELS {
        for minimize in [true, false] {
            let total = model(seed).1;
            let objective = Some(if minimize {
                Objective::minimize(total)
            } else {
                Objective::maximize(total)
            });
            // Every other model with activity-based branching and frequent restarts.
            let activity = seed % 2 == 1;
            let with = |learn| SearchConfig {
                objective,
                activity: learn && activity,
                restarts: if learn && activity {
                    engine::RestartPolicy::Luby { scale: 2 }
                } else {
                    engine::RestartPolicy::Never
                },
                ..config(learn, VarSelect::InputOrder)
            };
            let plain = solve(&mut model(seed).0, &with(false));
            let learning = solve(&mut model(seed).0, &with(true));
            assert!(plain.complete && learning.complete, "seed {seed}");
            assert_eq!(plain.objective, learning.objective, "seed {seed}");
            if seed % 4 != 0 {
                continue;
            }
            let checked = solve(
                &mut model(seed).0,
                &SearchConfig {
                    check_learning: true,
                    ..with(true)
                },
            );
            assert_eq!(plain.objective, checked.objective, "seed {seed}");
        }
    }
}

/// `x ≠ y` for the tests of reasons: `careless`, its explanation is faulty ("no reason at
/// all"); otherwise it gives none of its own, and the learner uses the generic reason
/// (every input domain, atom by atom).
#[derive(Clone, Debug)]
struct TestNotEqual {
    x: VarId,
    y: VarId,
    careless: bool,
}

impl engine::Propagator for TestNotEqual {
    fn name(&self) -> &'static str {
        if self.careless {
            "careless_not_equal"
        } else {
            "unexplained_not_equal"
        }
    }
    fn subscriptions(&self) -> Vec<engine::Subscription> {
        engine::Subscription::all(&[self.x, self.y], engine::Condition::Fixed)
    }
    fn propagate_from_scratch(&self, ctx: &mut engine::Context<'_>) -> engine::PropResult {
        for (a, b) in [(self.x, self.y), (self.y, self.x)] {
            if ctx.is_fixed(a) {
                let v = ctx.value(a);
                ctx.remove(b, v)?;
            }
        }
        Ok(())
    }
    fn explain(&self, _: &[engine::Domain], _: engine::Atom, _: &mut Vec<engine::Atom>) -> bool {
        self.careless
    }
}

#[test]
fn the_checking_mode_catches_a_faulty_explanation() {
    let faulty = std::panic::catch_unwind(|| {
        let mut m = Model::new();
        let xs = m.new_vars(4, 0, 2);
        for i in 0..4 {
            for j in i + 1..4 {
                m.post(Box::new(TestNotEqual {
                    x: xs[i],
                    y: xs[j],
                    careless: true,
                }));
            }
        }
        let config = SearchConfig {
            check_learning: true,
            ..config(true, VarSelect::InputOrder)
        };
        count(&mut m, &config)
    });
    let message = *faulty
        .expect_err("the empty reason went unnoticed")
        .downcast::<String>()
        .unwrap();
    assert!(message.contains("careless_not_equal explains"), "{message}");
}

/// A random graph on `n` vertices: colours `1..=n`, `x_u ≠ x_v` on each edge, `k ≥ x_u`,
/// and the value-precedence rule (a search rule that removes renamed colourings).
fn colouring(seed: u64, n: usize) -> (Model, VarId, Vec<(usize, usize)>) {
    let mut rng = Rng::new(seed);
    let mut m = Model::new();
    let xs = m.new_vars(n, 1, n as i32);
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(100) < 45 {
                m.not_equal_offset(xs[u], xs[v], 0);
                edges.push((u, v));
            }
        }
    }
    let k = m.new_var(1, n as i32);
    for &x in &xs {
        m.less_equal_offset(x, k, 0);
    }
    m.value_precedence(&xs, 1);
    (m, k, edges)
}

/// The chromatic number by plain backtracking: the fewest colours of a proper colouring.
fn chromatic_number(n: usize, edges: &[(usize, usize)]) -> i64 {
    fn extend(colour: &mut Vec<usize>, k: usize, n: usize, edges: &[(usize, usize)]) -> bool {
        let u = colour.len();
        if u == n {
            return true;
        }
        for c in 0..k {
            if edges.iter().all(|&(a, b)| !(b == u && colour[a] == c)) {
                colour.push(c);
                if extend(colour, k, n, edges) {
                    return true;
                }
                colour.pop();
            }
        }
        false
    }
    (1..=n)
        .find(|&k| extend(&mut Vec::new(), k, n, edges))
        .unwrap() as i64
}

#[test]
fn a_search_rule_that_breaks_symmetry_teaches_learning_nothing_false() {
    // Value precedence is a rule of the search, not a constraint: what it fixes holds only
    // because of the order the search went. Activity-based branching and restarts break
    // that order; a nogood resting on the rule would then cut the best colourings.
    let mut nogoods = 0;
    for seed in 0..600 {
        let n = 12 + (seed % 9) as usize;
        let (mut m, k, edges) = colouring(seed + 40_000, n);
        let config = SearchConfig {
            objective: Some(Objective::minimize(k)),
            activity: seed % 2 == 0,
            restarts: engine::RestartPolicy::Luby { scale: 2 },
            ..config(true, VarSelect::SmallestDomain)
        };
        let learning = solve(&mut m, &config);
        assert!(learning.complete, "seed {seed}");
        assert_eq!(
            learning.objective,
            Some(chromatic_number(n, &edges)),
            "seed {seed}"
        );
        nogoods += learning.stats.nogoods;
    }
    assert!(nogoods > 100, "only {nogoods} nogoods learned");
}

/// Keeps every nogood the search announces.
#[derive(Default)]
struct Nogoods(Vec<Vec<engine::Atom>>);

impl engine::search::SearchListener for Nogoods {
    fn on_event(&mut self, event: &engine::search::SearchEvent<'_>) {
        if let engine::search::SearchEvent::Nogood { atoms, .. } = event {
            self.0.push(atoms.to_vec());
        }
    }
}

#[test]
fn no_nogood_rests_on_the_symmetry_breaking_rule() {
    // Graphs of 10 vertices, colours 1..=3, a first colouring sought: every proper colouring
    // within the root's domains (the rule's first colour is a fact of this search) must
    // survive every nogood learned with the rule in the model; below the root the rule is
    // no constraint.
    let (n, colours) = (10usize, 3i32);
    let mut checked = 0;
    for seed in 0..300 {
        let mut rng = Rng::new(seed + 50_000);
        let mut m = Model::new();
        let xs = m.new_vars(n, 1, colours);
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(100) < 40 {
                    m.not_equal_offset(xs[u], xs[v], 0);
                    edges.push((u, v));
                }
            }
        }
        m.value_precedence(&xs, 1);
        if m.propagate().is_err() {
            continue;
        }
        let root: Vec<engine::Domain> = xs.iter().map(|&x| m.domain(x).clone()).collect();
        let config = SearchConfig {
            solution_limit: Some(1),
            activity: seed % 2 == 0,
            restarts: engine::RestartPolicy::Luby { scale: 2 },
            ..config(true, VarSelect::SmallestDomain)
        };
        let mut nogoods = Nogoods::default();
        engine::search(&mut m, &config, &mut nogoods, &mut |_| {
            engine::Control::Continue
        });
        for code in 0..(colours as usize).pow(n as u32) {
            let values: Vec<i32> = (0..n)
                .map(|i| (code / (colours as usize).pow(i as u32) % colours as usize) as i32 + 1)
                .collect();
            if edges.iter().any(|&(u, v)| values[u] == values[v])
                || (0..n).any(|i| !root[i].contains(values[i]))
            {
                continue;
            }
            for nogood in &nogoods.0 {
                let violated = nogood.iter().all(|atom| {
                    let at = xs.iter().position(|&x| x == atom.var()).unwrap();
                    atom.holds_in(&engine::Domain::interval(values[at], values[at]))
                });
                assert!(!violated, "seed {seed}: {values:?} breaks {nogood:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} checks");
}

/// The automaton of the nonogram clue `clue` (blocks of ones, in order, separated by zeros).
fn clue_dfa(clue: &[usize]) -> engine::propagators::regular::Dfa {
    let states = 1 + clue.iter().map(|c| c + 1).sum::<usize>();
    let mut next = vec![vec![0usize; 2]; states];
    let (mut gap, mut q) = (1, 2);
    for &c in clue {
        next[gap - 1] = vec![gap, q];
        for j in 0..c {
            next[q + j - 1][if j + 1 < c { 1 } else { 0 }] = q + j + 1;
        }
        gap = q + c;
        q = gap + 1;
    }
    next[gap - 1][0] = gap;
    let mut accepting = vec![gap];
    if !clue.is_empty() {
        accepting.push(gap - 1);
    }
    engine::propagators::regular::Dfa {
        states,
        first_value: 0,
        symbols: 2,
        next,
        start: 1,
        accepting,
    }
}

/// A random small nonogram (the clues of a random picture), each line posted with its
/// automaton's states as variables (`regular_with_states`, the encoding nonograms get under
/// learning); its cells, and its cells and states.
fn random_regular_grid(seed: u64) -> (Model, Vec<VarId>, Vec<VarId>) {
    let mut rng = Rng::new(seed);
    let mut m = Model::new();
    let (w, h) = (6 + rng.below(3) as usize, 6 + rng.below(3) as usize);
    let picture: Vec<usize> = (0..w * h).map(|_| rng.below(2) as usize).collect();
    let cells = m.new_vars(w * h, 0, 1);
    let mut all = cells.clone();
    let mut lines: Vec<Vec<usize>> = (0..h).map(|r| (r * w..(r + 1) * w).collect()).collect();
    lines.extend((0..w).map(|c| (0..h).map(|r| r * w + c).collect::<Vec<_>>()));
    for line in lines {
        let mut clue = Vec::new();
        let mut run = 0;
        for &i in line.iter().chain(std::iter::once(&usize::MAX)) {
            if i != usize::MAX && picture[i] == 1 {
                run += 1;
            } else if run > 0 {
                clue.push(run);
                run = 0;
            }
        }
        let vars: Vec<VarId> = line.iter().map(|&i| cells[i]).collect();
        all.extend(m.regular_with_states(&vars, clue_dfa(&clue)));
    }
    (m, cells, all)
}

#[test]
fn regular_with_states_learns_soundly_and_counts_exactly() {
    let mut learned = 0;
    for seed in 0..80 {
        let plain = count(&mut random_regular_grid(seed).0, &SearchConfig::default());
        for (on_states, activity) in [(false, false), (true, false), (true, true)] {
            let (mut m, cells, all) = random_regular_grid(seed);
            let learning = SearchConfig {
                // The checking mode verifies each reason (its enumeration of the whole
                // model's solutions gives up: the states make too many assignments).
                check_learning: seed < 10,
                activity,
                branch_vars: Some(if on_states { all } else { cells }),
                ..config(true, VarSelect::DomWDeg)
            };
            let learning = count(&mut m, &learning);
            assert!(plain.complete && learning.complete);
            assert_eq!(plain.solutions, learning.solutions, "seed {seed}");
            learned += learning.stats.nogoods;
            // The first solution, with backjumping: found exactly when one exists.
            let (mut m, _, all) = random_regular_grid(seed);
            let first = solve(
                &mut m,
                &SearchConfig {
                    branch_vars: Some(all),
                    ..config(true, VarSelect::DomWDeg)
                },
            );
            assert!(first.complete || first.solutions == 1);
            assert_eq!(first.solutions > 0, plain.solutions > 0, "seed {seed}");
        }
    }
    assert!(learned > 50, "only {learned} nogoods learned");
}

#[test]
fn domains_with_wide_holes_are_explained_soundly_against_the_root() {
    // Values 100,000 apart: the generic reason names a missing value only if the root
    // domain has it (reason.rs), not each of the 299,997 values between. The checking mode
    // verifies every reason and nogood by brute force over the root domains.
    for n in [3, 4, 5] {
        let model = || {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..n)
                .map(|_| m.new_var_from_values(&[0, 100_000, 200_000, 300_000]))
                .collect();
            for i in 0..n {
                for j in i + 1..n {
                    m.post(Box::new(TestNotEqual {
                        x: xs[i],
                        y: xs[j],
                        careless: false,
                    }));
                }
            }
            m
        };
        let checked = |var_select| SearchConfig {
            check_learning: true,
            ..config(true, var_select)
        };
        for var_select in [VarSelect::InputOrder, VarSelect::DomWDeg] {
            let plain = count(&mut model(), &config(false, var_select.clone()));
            let learning = count(&mut model(), &checked(var_select.clone()));
            assert_eq!(plain.solutions, learning.solutions, "{n} variables");
            assert_eq!(learning.solutions, [24, 24, 0][n - 3]);
            let first = solve(&mut model(), &checked(var_select));
            assert_eq!(first.solutions, u64::from(n < 5), "{n} variables");
            if n == 5 {
                // The pigeonhole fails: the generic reasons were used and checked.
                assert!(learning.stats.nogoods > 0, "nothing learned");
            }
        }
    }
}

/// Turns as short as they come (learning/slices.rs): one failure of learning, two of the
/// plain search, then two and four, and so on; every turn starts again from the root.
fn short_turns() -> Option<engine::learning::slices::Slices> {
    Some(engine::learning::slices::Slices {
        first_learning: 1,
        plain_per_learning: 2,
    })
}

#[test]
fn learning_in_turns_with_the_plain_search_finds_the_same_optima_and_first_solutions() {
    let model = |seed: u64| {
        let (mut m, xs) = random_model(seed + 30_000);
        let total = m.new_var(0, 100);
        let terms: Vec<(i64, VarId)> = (xs.iter().enumerate())
            .map(|(i, &x)| ((i % 3) as i64 + 1, x))
            .chain(std::iter::once((-1, total)))
            .collect();
        m.linear(&terms, Relation::Eq, 0);
        (m, total)
    };
    let mut turns = 0;
    for seed in 0..MODELS {
        let total = model(seed).1;
        let objective = Some(if seed % 2 == 0 {
            Objective::minimize(total)
        } else {
            Objective::maximize(total)
        });
        let with = |learn: bool, slices| SearchConfig {
            objective,
            learning_slices: slices,
            // Every fourth model checks every reason and nogood by brute force.
            check_learning: learn && seed % 4 == 0,
            ..config(learn, VarSelect::InputOrder)
        };
        let plain = solve(&mut model(seed).0, &with(false, None));
        let sliced = solve(&mut model(seed).0, &with(true, short_turns()));
        assert!(plain.complete && sliced.complete, "seed {seed}");
        assert_eq!(plain.objective, sliced.objective, "seed {seed}");
        turns += sliced.stats.restarts;
        // A first solution: found, or proved absent, alike.
        let first = |learn, slices| SearchConfig {
            objective: None,
            solution_limit: Some(1),
            ..with(learn, slices)
        };
        let plain = solve(&mut random_model(seed + 30_000).0, &first(false, None));
        let sliced = solve(
            &mut random_model(seed + 30_000).0,
            &first(true, short_turns()),
        );
        assert_eq!(plain.solutions, sliced.solutions, "seed {seed}");
        assert_eq!(plain.complete, sliced.complete, "seed {seed}");
        turns += sliced.stats.restarts;
    }
    // The turns must have come round often for the comparison to mean anything.
    assert!(turns > 200, "only {turns} turns");
}

/// Counting never takes turns: a plain turn would count the same solutions again.
#[test]
fn counts_are_exact_with_learning_in_turns_asked_for() {
    for seed in 0..MODELS {
        let plain = count(
            &mut random_model(seed).0,
            &config(false, VarSelect::InputOrder),
        );
        let asked = SearchConfig {
            learning_slices: short_turns(),
            ..config(true, VarSelect::InputOrder)
        };
        let learning = count(&mut random_model(seed).0, &asked);
        assert!(plain.complete && learning.complete, "seed {seed}");
        assert_eq!(plain.solutions, learning.solutions, "seed {seed}");
        assert_eq!(learning.stats.restarts, 0, "seed {seed}");
    }
}

/// Colourings of 12 to 20 vertices (a few hundred failures each): the plain turns stop deep
/// in their tree and take their path up again, and the learning turns resume their
/// nogoods, many times over; the fewest colours found must be the chromatic number, and a
/// colouring with one colour fewer must be found absent.
#[test]
fn learning_in_turns_proves_chromatic_numbers() {
    let mut turns = 0;
    for seed in 0..120 {
        let n = 12 + (seed % 9) as usize;
        let chi = chromatic_number(n, &colouring(seed + 50_000, n).2);
        // Plain turns as long as the learning turns, or four times as long: many turns.
        let turns_of = |seed: u64| {
            short_turns().map(|s| engine::learning::slices::Slices {
                plain_per_learning: if seed % 2 == 0 { 1 } else { 4 },
                ..s
            })
        };
        let (mut m, k, _) = colouring(seed + 50_000, n);
        let optimum = SearchConfig {
            objective: Some(Objective::minimize(k)),
            learning_slices: turns_of(seed),
            // Also checks that each plain turn takes its path up again within the domains
            // where the last one stopped (search/resume.rs).
            check_learning: true,
            ..config(true, VarSelect::SmallestDomain)
        };
        let found = solve(&mut m, &optimum);
        assert!(found.complete, "seed {seed}");
        assert_eq!(found.objective, Some(chi), "seed {seed}");
        turns += found.stats.restarts;
        for (colours, solutions) in [(chi - 1, 0), (chi, 1)] {
            let (mut m, k, _) = colouring(seed + 50_000, n);
            if m.set_max(k, colours as i32).is_err() {
                continue; // no colouring with no colour: nothing to search
            }
            let first = SearchConfig {
                solution_limit: Some(1),
                learning_slices: turns_of(seed),
                ..config(true, VarSelect::SmallestDomain)
            };
            let found = solve(&mut m, &first);
            // Proved absent, or found (and the search stopped there).
            assert_eq!(found.complete, solutions == 0, "seed {seed}");
            assert_eq!(found.solutions, solutions, "seed {seed}, {colours} colours");
            turns += found.stats.restarts;
        }
    }
    assert!(turns > 150, "only {turns} turns");
}
