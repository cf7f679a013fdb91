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
    // A new row of BUILTINS needs a case above (the globals mapped at merge included).
    let missing: Vec<&str> = flatzinc::builtins::BUILTINS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !CASES.iter().any(|(c, _)| c.split('(').next() == Some(name)))
        .collect();
    assert!(
        missing.is_empty(),
        "builtins with no brute-force case: {missing:?}"
    );
}
