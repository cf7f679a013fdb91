//! Set variables and every set builtin against brute force.
//!
//! The sets `A`, `B`, `C` range over subsets of the universe `G = {-1, 0, 2}` (a gap, a
//! negative value), held as bit masks here; `x` is an integer in -2..3 and `r` a boolean.
//! For each builtin:
//!
//! * **solutions**: every solution cpsolve prints with `-a` (sets printed as FlatZinc
//!   prints them, read back here) is exactly the set of assignments the predicate accepts;
//! * **consistency**: on random set domains (a random upper bound, a random lower bound
//!   inside it) and random domains of `x` and `r`, one propagation keeps every supported
//!   value (sound), fails only when nothing is supported, and reaches the level
//!   `docs/minizinc.md` states: for `Domain`, each boolean of each set, `x` and `r` keep
//!   exactly their supported values (the set bounds are exact).

use flatzinc::build::Value;
use flatzinc::solve::{run, Options};

/// The universe of the sets in these tests.
const G: [i64; 3] = [-1, 0, 2];

/// The values of `G` in the set `mask`.
fn elements(mask: u8) -> Vec<i64> {
    (0..G.len())
        .filter(|&i| mask >> i & 1 == 1)
        .map(|i| G[i])
        .collect()
}

/// The set order MiniZinc defines: the sorted lists of elements, lexicographically.
fn set_le(a: u8, b: u8) -> bool {
    elements(a) <= elements(b)
}

fn has(mask: u8, v: i64) -> bool {
    G.iter()
        .position(|&g| g == v)
        .is_some_and(|i| mask >> i & 1 == 1)
}

fn iff(r: i64, holds: bool) -> bool {
    (r == 1) == holds
}

fn imp(r: i64, holds: bool) -> bool {
    r == 0 || holds
}

type Check = fn(u8, u8, u8, i64, i64) -> bool;

/// Each builtin over set variables, and its predicate on (A, B, C, x, r).
const CASES: &[(&str, Check)] = &[
    ("set_in(x, A)", |a, _, _, x, _| has(a, x)),
    ("set_in_reif(x, A, r)", |a, _, _, x, r| iff(r, has(a, x))),
    ("set_in_imp(x, A, r)", |a, _, _, x, r| imp(r, has(a, x))),
    ("set_in(2, A)", |a, _, _, _, _| has(a, 2)),
    // A constant in a set: `r` is then read as A's own boolean of 0 (sets::alias_of).
    ("set_in_reif(0, A, r)", |a, _, _, _, r| iff(r, has(a, 0))),
    ("set_in_imp(2, A, r)", |a, _, _, _, r| imp(r, has(a, 2))),
    ("set_card(A, x)", |a, _, _, x, _| a.count_ones() as i64 == x),
    ("set_union(A, B, C)", |a, b, c, _, _| c == a | b),
    ("set_intersect(A, B, C)", |a, b, c, _, _| c == a & b),
    ("set_diff(A, B, C)", |a, b, c, _, _| c == a & !b),
    ("set_symdiff(A, B, C)", |a, b, c, _, _| c == a ^ b),
    ("set_union(A, {0, 2}, C)", |a, _, c, _, _| c == a | 0b110),
    ("set_subset(A, B)", |a, b, _, _, _| a & !b == 0),
    ("set_subset_reif(A, B, r)", |a, b, _, _, r| {
        iff(r, a & !b == 0)
    }),
    ("set_subset_imp(A, B, r)", |a, b, _, _, r| {
        imp(r, a & !b == 0)
    }),
    ("set_superset(A, B)", |a, b, _, _, _| b & !a == 0),
    ("set_superset_reif(A, B, r)", |a, b, _, _, r| {
        iff(r, b & !a == 0)
    }),
    ("set_superset_imp(A, B, r)", |a, b, _, _, r| {
        imp(r, b & !a == 0)
    }),
    ("set_eq(A, B)", |a, b, _, _, _| a == b),
    ("set_eq_reif(A, B, r)", |a, b, _, _, r| iff(r, a == b)),
    ("set_eq_imp(A, B, r)", |a, b, _, _, r| imp(r, a == b)),
    ("set_eq(A, {-1, 2})", |a, _, _, _, _| a == 0b101),
    ("set_ne(A, B)", |a, b, _, _, _| a != b),
    ("set_ne_reif(A, B, r)", |a, b, _, _, r| iff(r, a != b)),
    ("set_ne_imp(A, B, r)", |a, b, _, _, r| imp(r, a != b)),
    ("set_le(A, B)", |a, b, _, _, _| set_le(a, b)),
    ("set_lt(A, B)", |a, b, _, _, _| set_le(a, b) && a != b),
    ("set_le_reif(A, B, r)", |a, b, _, _, r| iff(r, set_le(a, b))),
    ("set_lt_reif(A, B, r)", |a, b, _, _, r| {
        iff(r, set_le(a, b) && a != b)
    }),
    ("set_le_imp(A, B, r)", |a, b, _, _, r| imp(r, set_le(a, b))),
    ("set_lt_imp(A, B, r)", |a, b, _, _, r| {
        imp(r, set_le(a, b) && a != b)
    }),
    ("set_le({0}, A)", |a, _, _, _, _| set_le(0b010, a)),
    (
        "array_set_element(x, [{-1}, {}, {0, 2}], C)",
        |_, _, c, x, _| match x {
            1 => c == 0b001,
            2 => c == 0,
            3 => c == 0b110,
            _ => false,
        },
    ),
    (
        "array_var_set_element(x, [A, B, {2}], C)",
        |a, b, c, x, _| match x {
            1 => c == a,
            2 => c == b,
            3 => c == 0b100,
            _ => false,
        },
    ),
];

/// The consistency each case reaches (`Domain` unless listed), as docs/minizinc.md states.
/// Every set builtin reaches domain consistency on the booleans (exact set bounds), the
/// reified order included: with `r` open every value of a boolean has a support, since one
/// of `x ≤ y` and its negation holds.
const STATED: &[(&str, Level)] = &[];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Sound,
    Domain,
}

/// Domains for one case: for each set (lower bound, upper bound) masks; `x`'s values; `r`'s.
#[derive(Clone, Debug)]
struct Domains {
    sets: [(u8, u8); 3],
    x: Vec<i64>,
    r: Vec<i64>,
}

fn set_literal(mask: u8) -> String {
    let items: Vec<String> = elements(mask).iter().map(|v| v.to_string()).collect();
    format!("{{{}}}", items.join(", "))
}

/// The FlatZinc text of `constraint` over these domains (lower bounds are set after loading).
fn model_text(constraint: &str, d: &Domains) -> String {
    let mut text = String::new();
    for (name, (_, ub)) in ["A", "B", "C"].iter().zip(d.sets) {
        text.push_str(&format!(
            "var set of {}: {name} :: output_var;\n",
            set_literal(ub)
        ));
    }
    let xs: Vec<String> = d.x.iter().map(|v| v.to_string()).collect();
    text.push_str(&format!("var {{{}}}: x :: output_var;\n", xs.join(", ")));
    text.push_str("var bool: r :: output_var;\n");
    text.push_str(&format!("constraint {constraint};\nsolve satisfy;\n"));
    text
}

/// Every (A, B, C, x, r) of the domains the predicate accepts.
fn supports(check: Check, d: &Domains) -> Vec<(u8, u8, u8, i64, i64)> {
    let within = |(lb, ub): (u8, u8)| (0..8u8).filter(move |&m| m & lb == lb && m & !ub == 0);
    let mut out = Vec::new();
    for a in within(d.sets[0]) {
        for b in within(d.sets[1]) {
            for c in within(d.sets[2]) {
                for &x in &d.x {
                    for &r in &d.r {
                        if check(a, b, c, x, r) {
                            out.push((a, b, c, x, r));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Load `constraint` over `d`, the lower bounds and `r` restricted as drawn; `None` when
/// they contradict at once (`r` may be a set's own boolean: `set_in_reif(0, A, r)`).
fn load(constraint: &str, d: &Domains) -> Option<flatzinc::Built> {
    let text = model_text(constraint, d);
    let mut built = flatzinc::load(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    for (name, (lb, _)) in ["A", "B", "C"].iter().zip(d.sets) {
        let Some(Value::SetVar(s)) = built.names.get(*name).cloned() else {
            panic!("{name} is not a set variable");
        };
        for v in elements(lb) {
            let x = s.boolean(v as i32).unwrap();
            built.model.restrict_to(x, &[1]).ok()?;
        }
    }
    if let Some(Value::Var(r, _)) = built.names.get("r").cloned() {
        let values: Vec<i32> = d.r.iter().map(|&v| v as i32).collect();
        built.model.restrict_to(r, &values).ok()?;
    }
    Some(built)
}

/// The level one propagation of `constraint` reaches on `d`; `None` when unsound.
fn level_reached(constraint: &str, check: Check, d: &Domains) -> Option<Level> {
    let solutions = supports(check, d);
    let Some(mut built) = load(constraint, d) else {
        return solutions.is_empty().then_some(Level::Domain);
    };
    if built.model.propagate().is_err() {
        return solutions.is_empty().then_some(Level::Domain);
    }
    let mut exact = true;
    // Each value of each set: in (1) or out (0), left or removed, supported or not.
    for (k, name) in ["A", "B", "C"].iter().enumerate() {
        let Some(Value::SetVar(s)) = built.names.get(*name) else {
            unreachable!()
        };
        for (i, &v) in G.iter().enumerate() {
            let Some(x) = s.boolean(v as i32) else {
                continue;
            };
            for bit in [0u8, 1] {
                let kept = built.model.domain(x).contains(bit as i32);
                let supported = (solutions.iter()).any(|t| {
                    let m = [t.0, t.1, t.2][k];
                    m >> i & 1 == bit
                });
                if supported && !kept {
                    return None;
                }
                exact &= supported == kept;
            }
        }
    }
    for (name, slot) in [("x", 3), ("r", 4)] {
        let Some(Value::Var(x, _)) = built.names.get(name) else {
            continue;
        };
        let values = if slot == 3 { &d.x } else { &d.r };
        for &v in values {
            let kept = built.model.domain(*x).contains(v as i32);
            let supported = (solutions.iter()).any(|t| if slot == 3 { t.3 } else { t.4 } == v);
            if supported && !kept {
                return None;
            }
            exact &= supported == kept;
        }
    }
    if solutions.is_empty() {
        // No solution and no failure: sound, but not domain consistent.
        return Some(Level::Sound);
    }
    Some(if exact { Level::Domain } else { Level::Sound })
}

fn random_domains(rng: &mut engine::rng::Rng) -> Domains {
    let mut set = || {
        let ub = rng.below(8) as u8;
        let lb = ub & rng.below(8) as u8 & rng.below(8) as u8;
        (lb, ub)
    };
    let sets = [set(), set(), set()];
    let mut x: Vec<i64> = (-2..=3).filter(|_| rng.below(3) > 0).collect();
    if x.is_empty() {
        x.push(rng.below(6) as i64 - 2);
    }
    let r = match rng.below(3) {
        0 => vec![0],
        1 => vec![1],
        _ => vec![0, 1],
    };
    Domains { sets, x, r }
}

#[test]
fn every_set_builtin_reaches_its_stated_consistency_on_random_domains() {
    let mut rng = engine::rng::Rng::new(32);
    let mut failures = Vec::new();
    for &(constraint, check) in CASES {
        let stated = (STATED.iter())
            .find(|(c, _)| *c == constraint)
            .map_or(Level::Domain, |&(_, l)| l);
        let mut weakest = Level::Domain;
        for _ in 0..300 {
            let d = random_domains(&mut rng);
            match level_reached(constraint, check, &d) {
                None => failures.push(format!("{constraint}: UNSOUND on {d:?}")),
                Some(level) if level < stated => {
                    failures.push(format!("{constraint}: {level:?} < {stated:?} on {d:?}"));
                }
                Some(level) => weakest = weakest.min(level),
            }
        }
        if std::env::var("CONSISTENCY_REPORT").is_ok() {
            eprintln!("{constraint} | stated {stated:?} | weakest seen {weakest:?}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A set as FlatZinc prints it (`{}`, `{-1, 2}`, `-1..0`), as a mask over `G`.
fn parse_set(text: &str) -> u8 {
    let values: Vec<i64> = match text.split_once("..") {
        Some((lo, hi)) => (lo.parse().unwrap()..=hi.parse().unwrap()).collect(),
        None => (text.trim_matches(|c| c == '{' || c == '}').split(", "))
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect(),
    };
    values.iter().fold(0, |m, v| {
        m | 1 << G.iter().position(|g| g == v).expect("a value of G")
    })
}

/// The solutions cpsolve prints with `-a`, as (A, B, C, x, r).
fn solutions_of(constraint: &str, d: &Domains) -> Vec<(u8, u8, u8, i64, i64)> {
    let Some(built) = load(constraint, d) else {
        return Vec::new();
    };
    let options = Options {
        all: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    run(built, &options, &mut out).unwrap();
    let mut found = Vec::new();
    let mut t = (0, 0, 0, 0, 0);
    for line in String::from_utf8(out).unwrap().lines() {
        if line == "----------" {
            found.push(t);
        }
        let Some((name, value)) = line.trim_end_matches(';').split_once(" = ") else {
            continue;
        };
        match name {
            "A" => t.0 = parse_set(value),
            "B" => t.1 = parse_set(value),
            "C" => t.2 = parse_set(value),
            "x" => t.3 = value.parse().unwrap(),
            "r" => t.4 = (value == "true") as i64,
            _ => panic!("{line}"),
        }
    }
    found.sort();
    found
}

#[test]
fn every_set_builtin_finds_exactly_the_brute_force_solutions() {
    let whole = Domains {
        sets: [(0, 0b111); 3],
        x: (-2..=3).collect(),
        r: vec![0, 1],
    };
    let mut rng = engine::rng::Rng::new(7);
    for &(constraint, check) in CASES {
        for d in [whole.clone(), random_domains(&mut rng)] {
            let mut expected = supports(check, &d);
            expected.sort();
            let found = solutions_of(constraint, &d);
            assert_eq!(found, expected, "{constraint} on {d:?}");
        }
    }
}

#[test]
fn every_set_row_of_the_table_is_exercised() {
    let missing: Vec<&str> = (flatzinc::builtins::BUILTINS.iter())
        .map(|(name, _)| *name)
        .filter(|name| flatzinc::set_builtins::takes_a_set_variable(name))
        .filter(|name| !CASES.iter().any(|(c, _)| c.split('(').next() == Some(name)))
        .collect();
    assert!(missing.is_empty(), "set builtins with no case: {missing:?}");
}

#[test]
fn sets_print_as_gecode_prints_them() {
    use flatzinc::set_var::format_set;
    assert_eq!(format_set(&[]), "{}");
    assert_eq!(format_set(&[4]), "{4}");
    assert_eq!(format_set(&[1, 2, 3]), "1..3");
    assert_eq!(format_set(&[1, 4, 5]), "{1, 4, 5}");
}

/// `set_in_reif(0, A, r)` (MiniZinc's `bool2int(0 in A)`) declares no variable and posts
/// no propagator: `r` is A's own boolean of 0.
#[test]
fn a_constant_in_a_set_is_the_sets_own_boolean() {
    let text = "var set of {-1, 0, 2}: A;\nvar bool: r;\nvar bool: q;\n\
        constraint set_in_reif(0, A, r);\nconstraint set_in_reif(1, A, q);\nsolve satisfy;\n";
    let built = flatzinc::load(text).unwrap();
    let Some(Value::SetVar(a)) = built.names.get("A") else {
        panic!("A")
    };
    assert_eq!(
        built.names.get("r"),
        Some(&Value::Var(a.boolean(0).unwrap(), true))
    );
    // 1 is outside A's universe: q is a variable of its own, fixed to false.
    let Some(Value::Var(q, true)) = built.names.get("q").cloned() else {
        panic!("q")
    };
    let mut built = built;
    built.model.propagate().unwrap();
    assert_eq!(built.model.domain(q).iter().collect::<Vec<_>>(), vec![0]);
    assert_eq!(built.decision_vars.len(), 4, "A's three booleans and q");
}
