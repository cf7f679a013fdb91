//! Every FlatZinc builtin against brute force: a tiny model with the one constraint over
//! small domains, all its solutions enumerated by cpsolve (`-a`), compared with the tuples a
//! plain Rust predicate accepts. A wrong propagator loses solutions (fewer) or accepts
//! wrong ones (more), and each printed solution is checked too.

use flatzinc::solve::{run, Options};

/// Variables `a`, `b`, `c` (ints in -2..3) and `p`, `q`, `r` (bools), all printed.
const HEADER: &str = "var -2..3: a :: output_var;\nvar -2..3: b :: output_var;\nvar -2..3: c :: output_var;\nvar bool: p :: output_var;\nvar bool: q :: output_var;\nvar bool: r :: output_var;\n";

/// The assignments (a, b, c, p, q, r) the solver prints for `constraint`.
fn solutions_of(constraint: &str) -> Vec<[i64; 6]> {
    let text = format!("{HEADER}constraint {constraint};\nsolve satisfy;\n");
    let built = flatzinc::load(&text).unwrap_or_else(|e| panic!("{constraint}: {e:?}"));
    let options = Options {
        all: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    run(built, &options, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let mut sols = Vec::new();
    let mut current = [0i64; 6];
    for line in out.lines() {
        if line == "----------" {
            sols.push(current);
            continue;
        }
        let Some((name, value)) = line.trim_end_matches(';').split_once(" = ") else {
            continue;
        };
        let v = match value {
            "true" => 1,
            "false" => 0,
            n => n.parse().unwrap(),
        };
        let slot = ["a", "b", "c", "p", "q", "r"]
            .iter()
            .position(|&n| n == name)
            .unwrap();
        current[slot] = v;
    }
    sols.sort();
    sols
}

/// Every assignment the predicate accepts.
fn brute_force(check: &dyn Fn(i64, i64, i64, i64, i64, i64) -> bool) -> Vec<[i64; 6]> {
    let mut sols = Vec::new();
    for a in -2..=3 {
        for b in -2..=3 {
            for c in -2..=3 {
                for p in 0..=1 {
                    for q in 0..=1 {
                        for r in 0..=1 {
                            if check(a, b, c, p, q, r) {
                                sols.push([a, b, c, p, q, r]);
                            }
                        }
                    }
                }
            }
        }
    }
    sols.sort();
    sols
}

type Check = fn(i64, i64, i64, i64, i64, i64) -> bool;

fn imp(p: i64, holds: bool) -> bool {
    p == 0 || holds
}

fn iff(p: i64, holds: bool) -> bool {
    (p == 1) == holds
}

fn trunc_div(a: i64, b: i64) -> Option<i64> {
    a.checked_div(b)
}

/// (constraint, what it means).
const CASES: &[(&str, Check)] = &[
    ("int_eq(a, b)", |a, b, _, _, _, _| a == b),
    ("int_ne(a, b)", |a, b, _, _, _, _| a != b),
    ("int_le(a, b)", |a, b, _, _, _, _| a <= b),
    ("int_lt(a, b)", |a, b, _, _, _, _| a < b),
    ("int_eq_reif(a, b, p)", |a, b, _, p, _, _| iff(p, a == b)),
    ("int_ne_reif(a, b, p)", |a, b, _, p, _, _| iff(p, a != b)),
    ("int_le_reif(a, b, p)", |a, b, _, p, _, _| iff(p, a <= b)),
    ("int_lt_reif(a, b, p)", |a, b, _, p, _, _| iff(p, a < b)),
    ("int_eq_imp(a, b, p)", |a, b, _, p, _, _| imp(p, a == b)),
    // A constant on one side, as flattening writes `b ⇔ x = 2`.
    ("int_eq_reif(a, 1, p)", |a, _, _, p, _, _| iff(p, a == 1)),
    ("int_ne_reif(a, 1, p)", |a, _, _, p, _, _| iff(p, a != 1)),
    ("int_lin_eq_reif([1], [a], 1, p)", |a, _, _, p, _, _| {
        iff(p, a == 1)
    }),
    ("int_lin_eq_imp([2], [a], 2, p)", |a, _, _, p, _, _| {
        imp(p, a == 1)
    }),
    ("int_ne_imp(a, b, p)", |a, b, _, p, _, _| imp(p, a != b)),
    ("int_le_imp(a, b, p)", |a, b, _, p, _, _| imp(p, a <= b)),
    ("int_lt_imp(a, b, p)", |a, b, _, p, _, _| imp(p, a < b)),
    (
        "int_lin_eq([2, -1, 1], [a, b, c], 1)",
        |a, b, c, _, _, _| 2 * a - b + c == 1,
    ),
    ("int_lin_ne([2, -1], [a, b], 1)", |a, b, _, _, _, _| {
        2 * a - b != 1
    }),
    ("int_lin_le([2, 3], [a, b], 2)", |a, b, _, _, _, _| {
        2 * a + 3 * b <= 2
    }),
    (
        "int_lin_eq_reif([1, 1], [a, b], 1, p)",
        |a, b, _, p, _, _| iff(p, a + b == 1),
    ),
    (
        "int_lin_ne_reif([1, 1], [a, b], 1, p)",
        |a, b, _, p, _, _| iff(p, a + b != 1),
    ),
    (
        "int_lin_le_reif([1, -2], [a, b], 0, p)",
        |a, b, _, p, _, _| iff(p, a - 2 * b <= 0),
    ),
    (
        "int_lin_eq_imp([1, 1], [a, b], 1, p)",
        |a, b, _, p, _, _| imp(p, a + b == 1),
    ),
    (
        "int_lin_ne_imp([1, 1], [a, b], 1, p)",
        |a, b, _, p, _, _| imp(p, a + b != 1),
    ),
    (
        "int_lin_le_imp([1, -2], [a, b], 0, p)",
        |a, b, _, p, _, _| imp(p, a - 2 * b <= 0),
    ),
    ("int_plus(a, b, c)", |a, b, c, _, _, _| a + b == c),
    ("int_times(a, b, c)", |a, b, c, _, _, _| a * b == c),
    ("int_div(a, b, c)", |a, b, c, _, _, _| {
        trunc_div(a, b) == Some(c)
    }),
    ("int_mod(a, b, c)", |a, b, c, _, _, _| {
        a.checked_rem(b) == Some(c)
    }),
    ("int_pow(a, b, c)", |a, b, c, _, _, _| {
        if b < 0 {
            match a {
                0 => false,
                1 => c == 1,
                -1 => c == if b % 2 == 0 { 1 } else { -1 },
                _ => c == 0,
            }
        } else {
            a.pow(b as u32) == c
        }
    }),
    ("int_min(a, b, c)", |a, b, c, _, _, _| a.min(b) == c),
    ("int_max(a, b, c)", |a, b, c, _, _, _| a.max(b) == c),
    ("array_int_maximum(c, [a, b, 1])", |a, b, c, _, _, _| {
        a.max(b).max(1) == c
    }),
    ("array_int_minimum(a, [b, c])", |a, b, c, _, _, _| {
        b.min(c) == a
    }),
    ("int_abs(a, b)", |a, b, _, _, _, _| a.abs() == b),
    ("array_int_element(a, [3, -1, 2], b)", |a, b, _, _, _, _| {
        (1..=3).contains(&a) && [3, -1, 2][a as usize - 1] == b
    }),
    (
        "array_var_int_element(a, [b, c, 2], b)",
        |a, b, c, _, _, _| (1..=3).contains(&a) && [b, c, 2][a as usize - 1] == b,
    ),
    (
        "array_bool_element(a, [true, false, true], p)",
        |a, _, _, p, _, _| (1..=3).contains(&a) && [1, 0, 1][a as usize - 1] == p,
    ),
    (
        "array_var_bool_element(a, [p, q, true], r)",
        |a, _, _, p, q, r| (1..=3).contains(&a) && [p, q, 1][a as usize - 1] == r,
    ),
    ("bool_eq(p, q)", |_, _, _, p, q, _| p == q),
    ("bool_ne(p, q)", |_, _, _, p, q, _| p != q),
    ("bool_le(p, q)", |_, _, _, p, q, _| p <= q),
    ("bool_lt(p, q)", |_, _, _, p, q, _| p < q),
    ("bool_not(p, q)", |_, _, _, p, q, _| p != q),
    ("bool2int(p, a)", |a, _, _, p, _, _| p == a),
    ("bool_eq_reif(p, q, r)", |_, _, _, p, q, r| iff(r, p == q)),
    ("bool_ne_reif(p, q, r)", |_, _, _, p, q, r| iff(r, p != q)),
    ("bool_le_reif(p, q, r)", |_, _, _, p, q, r| iff(r, p <= q)),
    ("bool_lt_reif(p, q, r)", |_, _, _, p, q, r| iff(r, p < q)),
    ("bool_eq_imp(p, q, r)", |_, _, _, p, q, r| imp(r, p == q)),
    ("bool_ne_imp(p, q, r)", |_, _, _, p, q, r| imp(r, p != q)),
    ("bool_le_imp(p, q, r)", |_, _, _, p, q, r| imp(r, p <= q)),
    ("bool_lt_imp(p, q, r)", |_, _, _, p, q, r| imp(r, p < q)),
    ("bool_and(p, q, r)", |_, _, _, p, q, r| {
        iff(r, p == 1 && q == 1)
    }),
    ("bool_or(p, q, r)", |_, _, _, p, q, r| {
        iff(r, p == 1 || q == 1)
    }),
    ("bool_and_imp(p, q, r)", |_, _, _, p, q, r| {
        imp(r, p == 1 && q == 1)
    }),
    ("bool_or_imp(p, q, r)", |_, _, _, p, q, r| {
        imp(r, p == 1 || q == 1)
    }),
    ("bool_xor(p, q, r)", |_, _, _, p, q, r| iff(r, p != q)),
    ("bool_xor(p, q)", |_, _, _, p, q, _| p != q),
    ("bool_xor_imp(p, q, r)", |_, _, _, p, q, r| imp(r, p != q)),
    ("bool_clause([p, q], [r])", |_, _, _, p, q, r| {
        p == 1 || q == 1 || r == 0
    }),
    ("array_bool_and([p, q], r)", |_, _, _, p, q, r| {
        iff(r, p == 1 && q == 1)
    }),
    ("array_bool_or([p, q], r)", |_, _, _, p, q, r| {
        iff(r, p == 1 || q == 1)
    }),
    ("array_bool_and_imp([p, q], r)", |_, _, _, p, q, r| {
        imp(r, p == 1 && q == 1)
    }),
    ("array_bool_or_imp([p, q], r)", |_, _, _, p, q, r| {
        imp(r, p == 1 || q == 1)
    }),
    ("array_bool_xor([p, q, r])", |_, _, _, p, q, r| {
        (p + q + r) % 2 == 1
    }),
    (
        "bool_lin_eq([1, 2, 1], [p, q, r], a)",
        |a, _, _, p, q, r| p + 2 * q + r == a,
    ),
    (
        "bool_lin_le([1, 2, 1], [p, q, r], 2)",
        |_, _, _, p, q, r| p + 2 * q + r <= 2,
    ),
    ("set_in(a, {-1, 1, 2})", |a, _, _, _, _, _| {
        [-1, 1, 2].contains(&a)
    }),
    ("set_in_reif(a, 0..2, p)", |a, _, _, p, _, _| {
        iff(p, (0..=2).contains(&a))
    }),
    ("set_in_imp(a, {-2, 3}, p)", |a, _, _, p, _, _| {
        imp(p, a == -2 || a == 3)
    }),
    (
        "cpsolve_inverse([a, b], 1, [c, a], 1)",
        |a, b, c, _, _, _| {
            let f = [a, b];
            let g = [c, a];
            (1..=2).all(|i| (1..=2).all(|j| (f[i - 1] == j as i64) == (g[j - 1] == i as i64)))
                && f.iter().chain(&g).all(|v| (1..=2).contains(v))
        },
    ),
    (
        "cpsolve_cumulative([a, b, c], [2, 1, 3], [1, 1, 1], 1)",
        |a, b, c, _, _, _| {
            let t = [(a, 2), (b, 1), (c, 3)];
            (0..3)
                .all(|i| (i + 1..3).all(|j| t[i].0 + t[i].1 <= t[j].0 || t[j].0 + t[j].1 <= t[i].0))
        },
    ),
    (
        // Task [a, a + b) using c beside the task [1, 3) using 2, capacity 3: the two may
        // overlap only if c ≤ 1; durations and uses are non-negative.
        "cpsolve_cumulative_var([a, 1], [b, 2], [c, 2], 3)",
        |a, b, c, _, _, _| b >= 0 && c >= 0 && (b == 0 || a >= 3 || a + b <= 1 || c <= 1),
    ),
    ("cpsolve_disjunctive([a, b], [2, 1])", |a, b, _, _, _, _| {
        a + 2 <= b || b + 1 <= a
    }),
    (
        "cpsolve_disjunctive_strict([a, b], [2, 0])",
        |a, b, _, _, _, _| a + 2 <= b || b <= a,
    ),
    // One row (y = 0, heights 1): a of width c (any sign: the formula read literally), b of
    // width 1.
    (
        "cpsolve_diffn([a, b], [0, 0], [c, 1], [1, 1])",
        |a, b, c, _, _, _| a + c <= b || b + 1 <= a,
    ),
    (
        "cpsolve_diffn_nonstrict([a, b], [0, 0], [c, 1], [1, 1])",
        |a, b, c, _, _, _| c == 0 || a + c <= b || b + 1 <= a,
    ),
    ("cpsolve_circuit([a, b, c], 1)", |a, b, c, _, _, _| {
        [(a, b, c)] == [(2, 3, 1)] || [(a, b, c)] == [(3, 1, 2)]
    }),
    ("cpsolve_subcircuit([a, b, c], 1)", |a, b, c, _, _, _| {
        let s = [a, b, c];
        if s.iter().any(|v| !(1..=3).contains(v)) {
            return false;
        }
        let moved: Vec<usize> = (0..3).filter(|&i| s[i] != i as i64 + 1).collect();
        if moved.is_empty() {
            return true;
        }
        // One cycle through exactly the moved nodes.
        let mut at = moved[0];
        let mut seen = 0;
        loop {
            at = (s[at] - 1) as usize;
            seen += 1;
            if at == moved[0] || seen > 3 {
                break;
            }
        }
        at == moved[0]
            && seen == moved.len()
            && moved
                .iter()
                .all(|&i| moved.contains(&((s[i] - 1) as usize)))
    }),
    ("cpsolve_lex_less([a, b], [c, a])", |a, b, c, _, _, _| {
        (a, b) < (c, a)
    }),
    ("cpsolve_lex_lesseq([a, b], [c, a])", |a, b, c, _, _, _| {
        (a, b) <= (c, a)
    }),
    // Words over {1, 2} with no two 2s in a row: state 1 after a 1, state 2 after a 2.
    (
        "cpsolve_regular([a, b, c], 2, 2, [1, 2, 1, 0], 1, {1, 2})",
        |a, b, c, _, _, _| {
            let w = [a, b, c];
            w.iter().all(|v| (1..=2).contains(v)) && !w.windows(2).any(|p| p == [2, 2])
        },
    ),
    ("fzn_all_different_int([a, b, c])", |a, b, c, _, _, _| {
        a != b && b != c && a != c
    }),
    ("fzn_count_eq([a, b, c], 1, 2)", |a, b, c, _, _, _| {
        [a, b, c].iter().filter(|&&v| v == 1).count() == 2
    }),
    ("fzn_count_eq_par([a, b, c], 0, 1)", |a, b, c, _, _, _| {
        [a, b, c].iter().filter(|&&v| v == 0).count() == 1
    }),
    ("fzn_count_eq([a, b], c, 1)", |a, b, c, _, _, _| {
        [a, b].iter().filter(|&&v| v == c).count() == 1
    }),
    ("fzn_count_eq([a, b, 1], 1, c)", |a, b, c, _, _, _| {
        [a, b, 1].iter().filter(|&&v| v == 1).count() as i64 == c
    }),
    (
        "fzn_table_int([a, b], [1, 2, 2, 2, -2, 3])",
        |a, b, _, _, _, _| [(1, 2), (2, 2), (-2, 3)].contains(&(a, b)),
    ),
    (
        "fzn_table_bool([p, q], [true, false, false, false])",
        |_, _, _, p, q, _| (p, q) == (1, 0) || (p, q) == (0, 0),
    ),
    (
        "cpsolve_global_cardinality([a, b, c], [1, 2], [2, 1])",
        |a, b, c, _, _, _| {
            let xs = [a, b, c];
            xs.iter().filter(|&&v| v == 1).count() == 2
                && xs.iter().filter(|&&v| v == 2).count() == 1
        },
    ),
    (
        "cpsolve_global_cardinality([a, b], [1, 2], [c, 1])",
        |a, b, c, _, _, _| {
            let xs = [a, b];
            xs.iter().filter(|&&v| v == 1).count() as i64 == c
                && xs.iter().filter(|&&v| v == 2).count() == 1
        },
    ),
    (
        "cpsolve_global_cardinality_closed([a, b], [0, 3], [1, 1])",
        |a, b, _, _, _, _| (a, b) == (0, 3) || (a, b) == (3, 0),
    ),
    (
        "cpsolve_global_cardinality_low_up([a, b, c], [0, 1], [1, 0], [2, 1])",
        |a, b, c, _, _, _| {
            let xs = [a, b, c];
            let zeros = xs.iter().filter(|&&v| v == 0).count();
            (1..=2).contains(&zeros) && xs.iter().filter(|&&v| v == 1).count() <= 1
        },
    ),
    (
        "cpsolve_global_cardinality_low_up_closed([a, b], [0, 1], [1, 0], [2, 1])",
        |a, b, _, _, _, _| {
            let xs = [a, b];
            xs.iter().all(|v| [0, 1].contains(v)) && xs.contains(&0)
        },
    ),
];

#[test]
fn every_builtin_finds_exactly_the_brute_force_solutions() {
    for (constraint, check) in CASES {
        let expected = brute_force(check);
        let found = solutions_of(constraint);
        assert_eq!(
            found.len(),
            expected.len(),
            "{constraint}: {} solutions found, {} expected",
            found.len(),
            expected.len()
        );
        assert_eq!(found, expected, "{constraint}: different solutions");
    }
}

#[test]
fn every_row_of_the_table_is_exercised() {
    // A new row of BUILTINS needs a case above (the globals mapped at merge included); the
    // builtins over set variables have theirs in flatzinc/tests/sets.rs, which checks its
    // own rows.
    let missing: Vec<&str> = flatzinc::builtins::BUILTINS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !flatzinc::set_builtins::takes_a_set_variable(name))
        .filter(|name| !CASES.iter().any(|(c, _)| c.split('(').next() == Some(name)))
        .collect();
    assert!(
        missing.is_empty(),
        "builtins with no brute-force case: {missing:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Consistency, stated and proved (issue 32). Each case above, over many random small
// domains (holes, fixed variables, values near the `i32` limits for the cases whose meaning
// does not depend on the values), propagated to the fixpoint at the root: the domains must
// equal the closure its stated level promises, computed by brute force. `Domain`: exactly
// the values with a support (a solution of the constraint over the domains given).
// `Bounds`: every supported value kept, and the bounds of each variable supported by a
// solution over the *intervals* of the final domains (bounds(Z)). `Sound`: every supported
// value kept (what a propagator that only checks, or one with real-valued bounds reasoning,
// promises: its stated level is argued in docs/minizinc.md, not proved here).

/// A consistency level a propagator claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Sound,
    Bounds,
    Domain,
}

/// The level each case is stated to reach (docs/minizinc.md, "Consistency"), by the
/// constraint's text; a case not listed claims `Domain`.
const STATED: &[(&str, Level)] = &[
    // Reified and half-reified linear equalities: bounds on the variables (`reified.rs`
    // reasons on bounds), domain on the boolean. Those of two variables (`int_eq_reif(a, b,
    // p)`, ...) reason on the domains (`reified_equal.rs`), and claim `Domain`.
    ("int_lin_eq_reif([1, 1], [a, b], 1, p)", Level::Bounds),
    ("int_lin_ne_reif([1, 1], [a, b], 1, p)", Level::Bounds),
    ("int_lin_eq_imp([1, 1], [a, b], 1, p)", Level::Bounds),
    // Linear equalities: bounds(R) with integer rounding, which is not bounds(Z) in
    // general (2x + 2y = 3 has real supports only); the harness proves soundness.
    ("int_lin_eq([2, -1, 1], [a, b, c], 1)", Level::Sound),
    ("int_plus(a, b, c)", Level::Sound),
    ("bool_lin_eq([1, 2, 1], [p, q, r], a)", Level::Sound),
    ("int_lin_le([2, 3], [a, b], 2)", Level::Bounds),
    // The maximum and minimum of an array: bounds(Z), as Gecode's (`extremum.rs`).
    ("array_int_maximum(c, [a, b, 1])", Level::Bounds),
    ("array_int_minimum(a, [b, c])", Level::Bounds),
    // Scheduling: time-table reasoning on the start bounds, holes not made.
    (
        "cpsolve_cumulative([a, b, c], [2, 1, 3], [1, 1, 1], 1)",
        Level::Sound,
    ),
    (
        "cpsolve_cumulative_var([a, 1], [b, 2], [c, 2], 3)",
        Level::Sound,
    ),
    ("cpsolve_disjunctive([a, b], [2, 1])", Level::Bounds),
    // A task of duration 0 in a strict disjunctive: not pushed past the other's end
    // (a ∈ {..., 2}, b = 3, durations 2 and 0 keeps a = 2 although a ≤ 1).
    ("cpsolve_disjunctive_strict([a, b], [2, 0])", Level::Sound),
    // A variable width of sign unknown: only checked once the width is fixed.
    (
        "cpsolve_diffn_nonstrict([a, b], [0, 0], [c, 1], [1, 1])",
        Level::Sound,
    ),
    // The same variable twice (a in both arrays): the propagators reason as if the
    // occurrences were distinct variables, which loses consistency (Gecode's too).
    ("cpsolve_inverse([a, b], 1, [c, a], 1)", Level::Sound),
    ("cpsolve_lex_less([a, b], [c, a])", Level::Sound),
    ("cpsolve_lex_lesseq([a, b], [c, a])", Level::Sound),
    // A variable value to count (a = -1, b = 2, exactly one equal to c leaves c in -3..3,
    // not {-1, 2}), and variable counts: checked, not propagated to their closure.
    ("fzn_count_eq([a, b], c, 1)", Level::Sound),
    (
        "cpsolve_global_cardinality([a, b], [1, 2], [c, 1])",
        Level::Sound,
    ),
];

/// Cases whose meaning is the same wherever the values are: also run near the `i32` limits.
const SHIFTABLE: &[&str] = &[
    "int_eq(a, b)",
    "int_ne(a, b)",
    "int_le(a, b)",
    "int_lt(a, b)",
    "int_eq_reif(a, b, p)",
    "int_le_reif(a, b, p)",
    "int_min(a, b, c)",
    "int_max(a, b, c)",
    "array_int_minimum(a, [b, c])",
    "fzn_all_different_int([a, b, c])",
];

/// Six random domains (`a`, `b`, `c` within `base..base + 6`, `p`, `q`, `r` within 0..1),
/// each non-empty; some fixed.
fn random_domains(rng: &mut engine::rng::Rng, base: i64) -> [Vec<i64>; 6] {
    std::array::from_fn(|slot| {
        let values: Vec<i64> = if slot < 3 {
            (base..=base + 6).collect()
        } else {
            vec![0, 1]
        };
        let keep = 1 + rng.below(10);
        let mut kept: Vec<i64> = values
            .iter()
            .copied()
            .filter(|_| rng.below(10) < keep)
            .collect();
        if kept.is_empty() {
            kept.push(values[rng.below(values.len() as u64) as usize]);
        }
        kept
    })
}

/// The FlatZinc text of `constraint` over these domains.
fn model_text(constraint: &str, domains: &[Vec<i64>; 6]) -> String {
    let mut text = String::new();
    for (slot, name) in ["a", "b", "c", "p", "q", "r"].iter().enumerate() {
        let values: Vec<String> = domains[slot].iter().map(|v| v.to_string()).collect();
        if slot < 3 {
            text.push_str(&format!("var {{{}}}: {name};\n", values.join(", ")));
        } else if domains[slot].len() == 1 {
            text.push_str(&format!("var bool: {name} = {};\n", domains[slot][0] == 1));
        } else {
            text.push_str(&format!("var bool: {name};\n"));
        }
    }
    text.push_str(&format!("constraint {constraint};\nsolve satisfy;\n"));
    text
}

/// Every assignment of `domains` the predicate accepts.
fn supports(check: &Check, domains: &[Vec<i64>; 6]) -> Vec<[i64; 6]> {
    let mut out = Vec::new();
    let mut at = [0usize; 6];
    loop {
        let t: [i64; 6] = std::array::from_fn(|s| domains[s][at[s]]);
        if check(t[0], t[1], t[2], t[3], t[4], t[5]) {
            out.push(t);
        }
        let mut s = 0;
        while s < 6 {
            at[s] += 1;
            if at[s] < domains[s].len() {
                break;
            }
            at[s] = 0;
            s += 1;
        }
        if s == 6 {
            return out;
        }
    }
}

/// The strongest level the propagation of `constraint` reached on these domains: `None`
/// when it is not even sound (a supported value removed, or a failure with a solution).
fn level_reached(constraint: &str, check: &Check, domains: &[Vec<i64>; 6]) -> Option<Level> {
    let text = model_text(constraint, domains);
    let mut built = flatzinc::load(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let solutions = supports(check, domains);
    let var = |name: &str| match built.names.get(name) {
        Some(flatzinc::build::Value::Var(x, _)) => Some(*x),
        _ => None,
    };
    let vars: Vec<Option<engine::VarId>> = ["a", "b", "c", "p", "q", "r"].map(var).to_vec();
    if built.model.propagate().is_err() {
        return solutions.is_empty().then_some(Level::Domain);
    }
    let after: Vec<Vec<i64>> = (0..6)
        .map(|s| match vars[s] {
            Some(x) => built.model.domain(x).iter().map(|v| v as i64).collect(),
            None => domains[s].clone(),
        })
        .collect();
    let supported: Vec<Vec<i64>> = (0..6)
        .map(|s| {
            let mut v: Vec<i64> = solutions.iter().map(|t| t[s]).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    if (0..6).any(|s| supported[s].iter().any(|v| !after[s].contains(v))) {
        return None;
    }
    if after == supported {
        return Some(Level::Domain);
    }
    // Bounds(Z): each bound supported over the intervals of the final domains.
    let hull: [Vec<i64>; 6] =
        std::array::from_fn(|s| (after[s][0]..=*after[s].last().unwrap()).collect());
    let hull_solutions = supports(check, &hull);
    let bounds_supported = (0..6).all(|s| {
        let (lo, hi) = (after[s][0], *after[s].last().unwrap());
        hull_solutions.iter().any(|t| t[s] == lo) && hull_solutions.iter().any(|t| t[s] == hi)
    });
    Some(if bounds_supported {
        Level::Bounds
    } else {
        Level::Sound
    })
}

#[test]
fn every_builtin_reaches_its_stated_consistency_on_random_domains() {
    let mut rng = engine::rng::Rng::new(32);
    let mut failures = Vec::new();
    for (constraint, check) in CASES {
        let stated = (STATED.iter())
            .find(|(c, _)| c == constraint)
            .map_or(Level::Domain, |&(_, l)| l);
        let mut bases = vec![-3i64];
        if SHIFTABLE.contains(constraint) {
            bases.extend([2_147_483_640, -2_147_483_646]);
        }
        let mut weakest = Level::Domain;
        for &base in &bases {
            for _ in 0..150 {
                let domains = random_domains(&mut rng, base);
                match level_reached(constraint, check, &domains) {
                    Some(level) => weakest = weakest.min(level),
                    None => failures.push(format!("{constraint}: UNSOUND on {domains:?}")),
                }
                if weakest < stated {
                    failures.push(format!(
                        "{constraint}: {weakest:?} < stated {stated:?} on {domains:?}"
                    ));
                    break;
                }
            }
        }
        if std::env::var("CONSISTENCY_REPORT").is_ok() {
            eprintln!("{constraint} | stated {stated:?} | weakest seen {weakest:?}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Several `int_le_reif`/`int_lt_reif` of one variable with constants, the constant on either
/// side, are gathered into one propagator (`flatzinc/src/thresholds.rs`), and find exactly
/// the brute-force solutions; a variable compared once keeps its own `linear_reif`.
#[test]
fn reified_comparisons_of_one_variable_are_gathered_and_exact() {
    let constraints = "int_le_reif(1, a, p);\nconstraint int_lt_reif(a, 2, q);\n\
        constraint int_le_reif(a, -1, r);\nconstraint int_le_reif(0, b, r)";
    let expected = brute_force(&|a, b, _c, p, q, r| {
        iff(p, 1 <= a) && iff(q, a < 2) && iff(r, a <= -1) && iff(r, 0 <= b)
    });
    assert_eq!(solutions_of(constraints), expected);
    let text = format!("{HEADER}constraint {constraints};\nsolve satisfy;\n");
    let built = flatzinc::load(&text).unwrap();
    let kinds = built.model.profile().by_kind;
    let instances = |name: &str| kinds.get(name).map_or(0, |c| c.instances);
    assert_eq!(instances("reified_thresholds"), 1, "{kinds:?}");
    assert_eq!(instances("linear_reif"), 1, "{kinds:?}");
}

/// Several `int_eq_reif`/`int_ne_reif` of one variable with constants, the constant on
/// either side and one outside its domain, are gathered into one propagator
/// (`flatzinc/src/indicators.rs`), and find exactly the brute-force solutions; a variable
/// compared once keeps its own `member_reif`.
#[test]
fn reified_equalities_of_one_variable_are_gathered_and_exact() {
    let constraints = "int_eq_reif(a, 1, p);\nconstraint int_ne_reif(-1, a, q);\n\
        constraint int_eq_reif(a, 7, r);\nconstraint int_eq_reif(2, a, r);\n\
        constraint int_ne_reif(b, 0, p)";
    let expected = brute_force(&|a, b, _c, p, q, r| {
        iff(p, a == 1) && iff(q, a != -1) && iff(r, a == 7) && iff(r, a == 2) && iff(p, b != 0)
    });
    assert!(!expected.is_empty());
    assert_eq!(solutions_of(constraints), expected);
    let text = format!("{HEADER}constraint {constraints};\nsolve satisfy;\n");
    let built = flatzinc::load(&text).unwrap();
    let kinds = built.model.profile().by_kind;
    let instances = |name: &str| kinds.get(name).map_or(0, |c| c.instances);
    assert_eq!(instances("value_indicators"), 1, "{kinds:?}");
    assert_eq!(instances("member_reif"), 1, "{kinds:?}");
}
