//! The arithmetic builtins on wide domains, against brute force (issue 32).
//!
//! `builtins.rs` proves every builtin's consistency on domains of at most 7 values. Many
//! propagators change lanes as a domain grows (a word of 64 values, then an interval with
//! holes; a support budget past which `int_times` reasons on bounds), and their arithmetic
//! meets overflow only near the `i32` limits. Here the same proof runs on domains of up to
//! a few hundred values, intervals with holes, placed near 0 and near both limits, with
//! negative coefficients, repeated variables and reified forms: after propagation at the
//! root, every value that has a support must still be there (soundness, for every case),
//! and the domains must equal the closure the case's stated level promises.
//!
//! Four variables: `a`, `b`, `c` (integers) and `p` (a boolean). Brute force enumerates
//! every assignment, so the product of the domain sizes is kept to about a million: two
//! wide domains and a narrow one.

use engine::rng::Rng;

type Check = fn(i64, i64, i64, i64) -> bool;

/// A consistency level: every supported value kept; and more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Sound,
    Bounds,
    Domain,
}

fn iff(p: i64, holds: bool) -> bool {
    (p == 1) == holds
}

/// MiniZinc's `div` and `mod` truncate toward zero; a zero divisor has no solution.
fn div(a: i64, b: i64) -> Option<i64> {
    a.checked_div(b)
}

/// The element arrays below.
const TABLE: [i64; 5] = [7, -300, 2_147_483_000, -2_147_483_000, 7];

fn element(i: i64) -> Option<i64> {
    (1..=5).contains(&i).then(|| TABLE[i as usize - 1])
}

/// (constraint, meaning, the level it is stated to reach on these domains).
const CASES: &[(&str, Check, Level)] = &[
    (
        "int_lin_eq([3, -2, 1], [a, b, c], 5)",
        |a, b, c, _| 3 * a - 2 * b + c == 5,
        Level::Sound,
    ),
    (
        "int_lin_eq([-1, -1, 1], [a, b, c], 0)",
        |a, b, c, _| -a - b + c == 0,
        Level::Sound,
    ),
    // A variable repeated: 3a - a = 2a.
    (
        "int_lin_eq([3, -1, -1], [a, a, c], 0)",
        |a, _, c, _| 2 * a == c,
        Level::Sound,
    ),
    (
        "int_lin_le([4, -3, 2], [a, b, c], -7)",
        |a, b, c, _| 4 * a - 3 * b + 2 * c <= -7,
        Level::Bounds,
    ),
    (
        "int_lin_le([1, -1], [a, a], 0)",
        |_, _, _, _| true,
        Level::Domain,
    ),
    (
        "int_lin_ne([2, -1], [a, b], 1)",
        |a, b, _, _| 2 * a - b != 1,
        Level::Domain,
    ),
    (
        "int_lin_eq_reif([1, -1], [a, b], 3, p)",
        |a, b, _, p| iff(p, a - b == 3),
        Level::Bounds,
    ),
    (
        "int_lin_le_reif([2, 1], [a, b], 10, p)",
        |a, b, _, p| iff(p, 2 * a + b <= 10),
        Level::Domain,
    ),
    (
        "int_lin_ne_reif([1, 1], [a, b], 0, p)",
        |a, b, _, p| iff(p, a + b != 0),
        Level::Bounds,
    ),
    (
        "int_eq_reif(a, b, p)",
        |a, b, _, p| iff(p, a == b),
        Level::Bounds,
    ),
    (
        "int_le_reif(a, b, p)",
        |a, b, _, p| iff(p, a <= b),
        Level::Domain,
    ),
    ("int_plus(a, b, c)", |a, b, c, _| a + b == c, Level::Sound),
    ("int_times(a, b, c)", |a, b, c, _| a * b == c, Level::Sound),
    ("int_times(a, a, c)", |a, _, c, _| a * a == c, Level::Bounds),
    (
        "int_times(a, -3, c)",
        |a, _, c, _| -3 * a == c,
        Level::Domain,
    ),
    (
        "int_div(a, b, c)",
        |a, b, c, _| div(a, b) == Some(c),
        Level::Sound,
    ),
    (
        "int_div(a, -7, c)",
        |a, _, c, _| div(a, -7) == Some(c),
        Level::Domain,
    ),
    (
        "int_mod(a, b, c)",
        |a, b, c, _| a.checked_rem(b) == Some(c),
        Level::Sound,
    ),
    ("int_mod(a, 13, c)", |a, _, c, _| a % 13 == c, Level::Domain),
    // Domain while `a` has at most 64 values, then bounds (as Gecode): the wide cases are
    // bounds; the same for `int_min` and `int_max` of two different variables.
    ("int_abs(a, c)", |a, _, c, _| a.abs() == c, Level::Bounds),
    (
        "int_min(a, b, c)",
        |a, b, c, _| a.min(b) == c,
        Level::Bounds,
    ),
    (
        "int_max(a, b, c)",
        |a, b, c, _| a.max(b) == c,
        Level::Bounds,
    ),
    ("int_max(a, a, c)", |a, _, c, _| a == c, Level::Domain),
    (
        "array_int_element(a, [7, -300, 2147483000, -2147483000, 7], c)",
        |a, _, c, _| element(a) == Some(c),
        Level::Domain,
    ),
    (
        "array_var_int_element(a, [b, c, -5, b, 9], c)",
        |a, b, c, _| (1..=5).contains(&a) && [b, c, -5, b, 9][a as usize - 1] == c,
        Level::Domain,
    ),
    // A constant argument leaves `a` alone past 64 values too: bounds, as Gecode.
    (
        "int_max(a, -40, c)",
        |a, _, c, _| a.max(-40) == c,
        Level::Bounds,
    ),
    (
        "int_min(b, a, c)",
        |a, b, c, _| a.min(b) == c,
        Level::Bounds,
    ),
];

/// Where a domain lies: near 0, near each `i32` limit (the largest value a domain may hold
/// is `i32::MAX - 1`), or at a random place.
fn base(rng: &mut Rng, span: i64) -> i64 {
    match rng.below(5) {
        0 => -span / 2,
        1 => i32::MAX as i64 - 1 - span,
        2 => i32::MIN as i64,
        3 => -(rng.below(2000) as i64),
        _ => rng.below(2000) as i64,
    }
}

/// A domain of about `span` values from `lo`: the whole interval, or with holes (single
/// values or runs), or a few values spread over it.
fn domain(rng: &mut Rng, lo: i64, span: i64) -> Vec<i64> {
    let hi = (lo + span - 1).min(i32::MAX as i64 - 1);
    let values: Vec<i64> = (lo..=hi).collect();
    let kept: Vec<i64> = match rng.below(4) {
        0 => values,
        1 => {
            let keep = 5 + rng.below(5);
            values
                .into_iter()
                .filter(|_| rng.below(10) < keep)
                .collect()
        }
        2 => {
            // Runs: keep or drop stretches of up to 20 values.
            let mut out = Vec::new();
            let mut keeping = true;
            let mut left = 0;
            for v in values {
                if left == 0 {
                    keeping = !keeping || rng.below(3) == 0;
                    left = 1 + rng.below(20);
                }
                left -= 1;
                if keeping {
                    out.push(v);
                }
            }
            out
        }
        _ => values.into_iter().filter(|_| rng.below(20) == 0).collect(),
    };
    if kept.is_empty() {
        vec![lo]
    } else {
        kept
    }
}

/// Random domains for `a`, `b`, `c`, `p`: one of the integers narrow (at most 12 values),
/// the other two wide (up to 300), so brute force stays within about a million tuples. The
/// narrow one is placed near a value the constraint could give it, so that it has supports.
fn random_domains(rng: &mut Rng, check: &Check) -> [Vec<i64>; 4] {
    let narrow = rng.below(3) as usize;
    let mut doms: [Vec<i64>; 4] = Default::default();
    for (slot, dom) in doms.iter_mut().enumerate().take(3) {
        if slot != narrow {
            let span = 20 + rng.below(280) as i64;
            let lo = base(rng, span);
            *dom = domain(rng, lo, span);
        }
    }
    // The narrow one: around a value that completes a random pick of the other two, if
    // one does within the `i32` range (scanned near the wide ones' values and near 0).
    let pick =
        |rng: &mut Rng, d: &Vec<i64>| d.get(rng.below(d.len().max(1) as u64) as usize).copied();
    let others: Vec<Option<i64>> = (0..3).map(|s| pick(rng, &doms[s])).collect();
    let mut centre = 0;
    'found: for _ in 0..20 {
        let others: Vec<Option<i64>> = (0..3)
            .map(|s| others[s].and_then(|_| pick(rng, &doms[s])))
            .collect();
        for p in 0..=1 {
            for cand in candidates(&others) {
                let mut t = [0i64; 3];
                for s in 0..3 {
                    t[s] = others[s].unwrap_or(cand);
                }
                if (i32::MIN as i64..i32::MAX as i64).contains(&cand) && check(t[0], t[1], t[2], p)
                {
                    centre = cand;
                    break 'found;
                }
            }
        }
    }
    let span = 1 + rng.below(12) as i64;
    let lo =
        (centre - rng.below(span as u64) as i64).clamp(i32::MIN as i64, i32::MAX as i64 - 1 - span);
    doms[narrow] = domain(rng, lo, span);
    doms[3] = match rng.below(4) {
        0 => vec![0],
        1 => vec![1],
        _ => vec![0, 1],
    };
    doms
}

/// Values worth trying for the narrow variable: near the others' values, their sums,
/// products and quotients, and near 0.
fn candidates(others: &[Option<i64>]) -> Vec<i64> {
    let known: Vec<i64> = others.iter().flatten().copied().collect();
    let mut out = vec![0, 1, -1, 5, -5, 7, -300];
    for &x in &known {
        for &y in &known {
            out.extend([x, x + y, x - y, x * y, 2 * x, -3 * x, x.abs()]);
            if y != 0 {
                out.extend([x / y, x % y]);
            }
            out.extend([
                (5 - 3 * x + 2 * y),
                (-7 - 4 * x + 3 * y) / 2,
                x / -7,
                x % 13,
            ]);
        }
    }
    out
}

/// The FlatZinc model of `constraint` over these domains.
fn model_text(constraint: &str, doms: &[Vec<i64>; 4]) -> String {
    let mut text = String::new();
    for (slot, name) in ["a", "b", "c"].iter().enumerate() {
        let values: Vec<String> = doms[slot].iter().map(|v| v.to_string()).collect();
        text.push_str(&format!("var {{{}}}: {name};\n", values.join(", ")));
    }
    match doms[3].as_slice() {
        [v] => text.push_str(&format!("var bool: p = {};\n", *v == 1)),
        _ => text.push_str("var bool: p;\n"),
    }
    text.push_str(&format!("constraint {constraint};\nsolve satisfy;\n"));
    text
}

/// For each variable, the values that have a support over these domains.
fn supported(check: &Check, doms: &[Vec<i64>; 4]) -> [Vec<i64>; 4] {
    let mut out: [Vec<i64>; 4] = Default::default();
    for &a in &doms[0] {
        for &b in &doms[1] {
            for &c in &doms[2] {
                for &p in &doms[3] {
                    if check(a, b, c, p) {
                        for (s, v) in [a, b, c, p].into_iter().enumerate() {
                            out[s].push(v);
                        }
                    }
                }
            }
        }
    }
    for v in &mut out {
        v.sort_unstable();
        v.dedup();
    }
    out
}

/// The level the root propagation of `constraint` reached; `Err` says how it is unsound.
fn level_reached(constraint: &str, check: &Check, doms: &[Vec<i64>; 4]) -> Result<Level, String> {
    let text = model_text(constraint, doms);
    let mut built = flatzinc::load(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let support = supported(check, doms);
    let has_solution = !support[0].is_empty();
    if built.model.propagate().is_err() {
        return match has_solution {
            false => Ok(Level::Domain),
            true => Err("failed, with a solution".into()),
        };
    }
    let after: Vec<Vec<i64>> = ["a", "b", "c", "p"]
        .iter()
        .enumerate()
        .map(|(s, name)| match built.names.get(*name) {
            Some(flatzinc::build::Value::Var(x, _)) => {
                built.model.domain(*x).iter().map(|v| v as i64).collect()
            }
            _ => doms[s].clone(),
        })
        .collect();
    for s in 0..4 {
        if let Some(v) = support[s].iter().find(|v| !after[s].contains(v)) {
            return Err(format!(
                "{} lost its supported value {v}",
                ["a", "b", "c", "p"][s]
            ));
        }
    }
    if after.iter().zip(&support).all(|(d, s)| d == s) {
        return Ok(Level::Domain);
    }
    // Bounds(Z): each bound of each final domain supported by a solution over the final
    // domains' intervals (as small as the domains' spans, which stay below 300 here).
    let hulls: [Vec<i64>; 4] =
        std::array::from_fn(|s| (after[s][0]..=*after[s].last().unwrap()).collect());
    let hull_support = supported(check, &hulls);
    let bounds = (0..4).all(|s| {
        hull_support[s].first() == after[s].first() && hull_support[s].last() == after[s].last()
    });
    Ok(if bounds { Level::Bounds } else { Level::Sound })
}

#[test]
fn arithmetic_on_wide_domains_keeps_every_supported_value_and_its_stated_level() {
    let mut rng = Rng::new(3232);
    let trials: usize = std::env::var("WIDE_TRIALS").map_or(40, |t| t.parse().unwrap());
    let mut failures = Vec::new();
    for (constraint, check, stated) in CASES {
        let mut weakest = Level::Domain;
        for _ in 0..trials {
            let doms = random_domains(&mut rng, check);
            match level_reached(constraint, check, &doms) {
                Ok(level) => weakest = weakest.min(level),
                Err(why) => {
                    failures.push(format!(
                        "{constraint}: UNSOUND ({why}) on\n{}",
                        model_text(constraint, &doms)
                    ));
                    break;
                }
            }
            if weakest < *stated {
                failures.push(format!(
                    "{constraint}: {weakest:?} < stated {stated:?} on\n{}",
                    model_text(constraint, &doms)
                ));
                break;
            }
        }
        if std::env::var("CONSISTENCY_REPORT").is_ok() {
            eprintln!("{constraint} | stated {stated:?} | weakest seen {weakest:?}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn circuits_whose_shifted_successors_pass_the_largest_value_build_and_solve() {
    // Nodes numbered from -2147483000: no successor's domain holds a node, so the model
    // has no solution; shifted to 0-based nodes, the domains would pass the largest value
    // a domain may hold (2147483646). The model builds and is found unsatisfiable.
    // (Both globals shift through the same function; the one the fuzz test met is run.)
    for global in ["cpsolve_subcircuit"] {
        let text = format!(
            "predicate {global}(array[int] of var int: x, int: offset);\n\
var -2147482998..700: x1 :: output_var;\nvar -2147482998..700: x2 :: output_var;\n\
constraint {global}([x1, x2], -2147483000);\nsolve satisfy;\n"
        );
        let built = flatzinc::load(&text).unwrap_or_else(|e| panic!("{global}: {e:?}"));
        let mut out = Vec::new();
        flatzinc::solve::run(built, &flatzinc::solve::Options::default(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("=====UNSATISFIABLE====="), "{global}: {out}");
    }
}
