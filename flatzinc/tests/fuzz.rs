//! Grammar-aware fuzzing of the FlatZinc reader (proptest, a fixed small budget per
//! property so that CI spends a few seconds here).
//!
//! Random bytes rarely get past the lexer, so two generators aim at the builder and the
//! builtins instead:
//!
//! * **structured models**: declarations with extreme domains (`i32` limits, holes, empty
//!   sets, values past 32 bits), calls of real builtins with arguments of every shape
//!   (variables, constants, `true` where an integer is expected, arrays, sets, names that
//!   are not declared), and solve items with nested search annotations;
//! * **near-valid files**: the checked-in models cut into tokens, then a few tokens replaced
//!   by hostile ones, doubled, dropped or swapped.
//!
//! The contract for every input: no panic, and either a model (searched briefly, its output
//! in the specification's shape) or one error with a line of the text and a one-line
//! message. The last tests replay the inputs that once crashed the reader (issue 30), at
//! full size.

use flatzinc::solve::Options;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// The checked-in models the mutations start from (each a few kilobytes).
const SEEDS: &[&str] = &[
    include_str!("../../tests/minizinc/queens.fzn"),
    include_str!("../../tests/minizinc/wide.fzn"),
    include_str!("../../tests/minizinc/split/arithmetic.fzn"),
    include_str!("../../tests/minizinc/split/golomb.fzn"),
    include_str!("../../tests/minizinc/split/pigeonhole.fzn"),
];

/// Either a model, searched briefly, or one error naming a line of `text`.
fn holds_to_the_contract(text: &str) {
    match flatzinc::load(text) {
        Ok(built) => {
            let options = Options {
                nodes: Some(200),
                deadline: Some(Instant::now() + Duration::from_millis(50)),
                ..Default::default()
            };
            let mut out = Vec::new();
            flatzinc::solve::run(built, &options, &mut out).expect("writes to a Vec");
            let out = String::from_utf8(out).expect("the output is UTF-8");
            for line in out.lines() {
                let shaped = line.ends_with(';')
                    || line == "----------"
                    || line.starts_with("=====")
                    || line.starts_with('%');
                assert!(shaped, "an output line out of shape: {line:?} in\n{out}");
            }
        }
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(
                e.line >= 1 && e.line <= lines + 1,
                "error on line {} of a {lines}-line text: {}",
                e.line,
                e.message
            );
            assert!(!e.message.is_empty() && !e.message.contains('\n'));
            assert!(!e.limit_reached, "no limit was set: {}", e.message);
        }
    }
}

// ----- structured models -------------------------------------------------------------------

/// Integers a careless or hostile file would use.
fn hostile_int() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -3i64..=3,
        1 => Just(i32::MAX as i64),
        1 => Just(i32::MAX as i64 - 1),
        1 => Just(i32::MIN as i64),
        1 => Just(1i64 << 31),
        1 => Just(1i64 << 30),
        1 => Just(-(1i64 << 40)),
        1 => Just(i64::MAX),
        1 => Just(100_000_000),
    ]
}

/// A small integer mostly, a hostile one sometimes.
fn int() -> impl Strategy<Value = i64> {
    prop_oneof![6 => -3i64..=4, 1 => hostile_int()]
}

/// A domain: mostly a small range, sometimes a set literal, an extreme range or none.
fn domain() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (-3i64..=2, 0i64..=4).prop_map(|(a, w)| format!("{a}..{}", a + w)),
        1 => (hostile_int(), hostile_int()).prop_map(|(a, b)| format!("{a}..{b}")),
        2 => proptest::collection::vec(int(), 0..4).prop_map(|v| {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            format!("{{{}}}", items.join(", "))
        }),
        1 => Just("int".to_string()),
    ]
}

/// Any argument at all (a name maybe undeclared, a constant, `true`, arrays, sets).
fn argument(names: usize) -> impl Strategy<Value = String> {
    let name = (0..names + 1).prop_map(|i| format!("v{i}"));
    let leaf = prop_oneof![
        4 => name,
        2 => hostile_int().prop_map(|v| v.to_string()),
        1 => Just("true".to_string()),
        1 => Just("b0".to_string()),
        1 => Just("xs".to_string()),
        1 => (1i64..4).prop_map(|i| format!("xs[{i}]")),
        1 => (hostile_int(), hostile_int()).prop_map(|(a, b)| format!("{a}..{b}")),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        proptest::collection::vec(inner, 0..4).prop_map(|v| format!("[{}]", v.join(", ")))
    })
}

/// An argument of one type, for `n` int variables `v0..` and two bool variables `b0, b1`:
/// `i` an int variable or constant, `b` a bool one, `c` an int constant, `a` an array of
/// them, `x` an array of int variables, `y` of bool variables, `z` of bool constants, `s` a
/// set. One argument in ten is anything at all instead.
fn typed(kind: char, n: usize) -> BoxedStrategy<String> {
    let int_var = prop_oneof![
        3 => (0..n).prop_map(|i| format!("v{i}")),
        1 => int().prop_map(|v| v.to_string()),
        1 => (1..n + 1).prop_map(|i| format!("xs[{i}]")),
    ];
    let bool_var = prop_oneof![
        3 => (0..2usize).prop_map(|i| format!("b{i}")),
        1 => any::<bool>().prop_map(|b| b.to_string()),
    ];
    let list = |s: BoxedStrategy<String>| {
        proptest::collection::vec(s, 0..5).prop_map(|v| format!("[{}]", v.join(", ")))
    };
    let wanted = match kind {
        'i' => int_var.boxed(),
        'b' => bool_var.boxed(),
        'c' => int().prop_map(|v| v.to_string()).boxed(),
        'a' => list(int().prop_map(|v| v.to_string()).boxed()).boxed(),
        'x' => prop_oneof![3 => list(int_var.boxed()), 1 => Just("xs".to_string())].boxed(),
        'y' => prop_oneof![3 => list(bool_var.boxed()), 1 => Just("bs".to_string())].boxed(),
        'z' => list(any::<bool>().prop_map(|b| b.to_string()).boxed()).boxed(),
        _ => domain().boxed(),
    };
    prop_oneof![9 => wanted, 1 => argument(n)].boxed()
}

/// Builtins of every family with their argument types (see [`typed`]), a few globals, and a
/// name cpsolve does not know.
const CONSTRAINTS: &[(&str, &str)] = &[
    ("int_eq", "ii"),
    ("int_le", "ii"),
    ("int_ne", "ii"),
    ("int_lt_reif", "iib"),
    ("int_eq_imp", "iib"),
    ("int_lin_eq", "axc"),
    ("int_lin_le", "axc"),
    ("int_lin_ne", "axc"),
    ("int_lin_le_reif", "axcb"),
    ("int_plus", "iii"),
    ("int_times", "iii"),
    ("int_div", "iii"),
    ("int_mod", "iii"),
    ("int_pow", "iii"),
    ("int_abs", "ii"),
    ("int_max", "iii"),
    ("array_int_element", "iai"),
    ("array_var_int_element", "ixi"),
    ("array_bool_element", "izb"),
    ("array_var_bool_element", "iyb"),
    ("bool2int", "bi"),
    ("bool_clause", "yy"),
    ("bool_and", "bbb"),
    ("bool_xor", "bbb"),
    ("bool_le_reif", "bbb"),
    ("array_bool_or", "yb"),
    ("array_bool_and_imp", "yb"),
    ("array_bool_xor", "y"),
    ("bool_lin_eq", "ayc"),
    ("set_in", "is"),
    ("set_in_reif", "isb"),
    ("fzn_all_different_int", "x"),
    ("cpsolve_global_cardinality", "xax"),
    ("cpsolve_global_cardinality_low_up_closed", "xaaa"),
    ("fzn_table_int", "xa"),
    ("fzn_table_bool", "yz"),
    ("fzn_count_eq", "xii"),
    ("cpsolve_circuit", "xc"),
    ("cpsolve_subcircuit", "xc"),
    ("cpsolve_inverse", "xcxc"),
    ("cpsolve_lex_less", "xx"),
    ("cpsolve_regular", "xccacs"),
    ("cpsolve_cumulative", "xaac"),
    ("cpsolve_cumulative_var", "xxxi"),
    ("cpsolve_disjunctive", "xa"),
    ("cpsolve_diffn", "xxxx"),
    ("no_such_constraint", "i"),
];

/// One constraint item over `n` int variables.
fn call(n: usize) -> impl Strategy<Value = String> {
    prop::sample::select(CONSTRAINTS).prop_flat_map(move |(name, signature)| {
        let args: Vec<BoxedStrategy<String>> = signature.chars().map(|k| typed(k, n)).collect();
        args.prop_map(move |args| format!("constraint {name}({});\n", args.join(", ")))
    })
}

/// A search annotation over the declared names (and one past them), nested `depth` times
/// in `seq_search`.
fn annotation(names: usize) -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((0..names + 1).prop_map(|i| format!("v{i}")), 0..3),
        prop::sample::select(vec!["input_order", "first_fail", "dom_w_deg", "smallest"]),
        prop::sample::select(vec!["indomain_min", "indomain_split", "indomain_random"]),
        0usize..4,
    )
        .prop_map(|(vars, var_choice, val_choice, depth)| {
            let mut ann = format!(
                "int_search([{}], {var_choice}, {val_choice}, complete)",
                vars.join(", ")
            );
            for _ in 0..depth {
                ann = format!("seq_search([{ann}])");
            }
            ann
        })
}

/// A whole structured model of `n` int variables and two bool ones.
fn model() -> impl Strategy<Value = String> {
    (1usize..5).prop_flat_map(|n| {
        (
            proptest::collection::vec(domain(), n),
            proptest::collection::vec(call(n), 0..4),
            proptest::option::of(annotation(n)),
            prop::sample::select(vec![
                "satisfy",
                "minimize v0",
                "maximize xs[1]",
                "minimize 3",
            ]),
        )
            .prop_map(move |(domains, constraints, ann, goal)| {
                let mut text = String::new();
                for (i, d) in domains.iter().enumerate() {
                    text.push_str(&format!("var {d}: v{i} :: output_var;\n"));
                }
                text.push_str("var bool: b0 :: output_var;\nvar bool: b1;\n");
                let all: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
                text.push_str(&format!(
                    "array [1..{n}] of var int: xs = [{}];\n",
                    all.join(", ")
                ));
                text.push_str("array [1..2] of var bool: bs = [b0, b1];\n");
                text.extend(constraints);
                let ann = ann.map_or(String::new(), |a| format!(":: {a} "));
                text.push_str(&format!("solve {ann}{goal};\n"));
                text
            })
    })
}

// ----- near-valid files ----------------------------------------------------------------------

/// Tokens put in place of a valid one.
const HOSTILE_TOKENS: &[&str] = &[
    "",
    ";",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "..",
    "::",
    ",",
    "=",
    "true",
    "false",
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "-2147483649",
    "99999999999999999999",
    "x",
    "q[9]",
    "var",
    "int",
    "bool",
    "set of",
    "solve",
    "constraint",
    "array [1..2] of",
    "1.5",
    "\"s\"",
];

/// `text` cut into tokens (punctuation and blanks kept as their own pieces).
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if " ,;:()[]{}\n".contains(c) {
            if start < i {
                out.push(&text[start..i]);
            }
            out.push(&text[i..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out
}

/// One edit of a token list: (position, what: 0 replace, 1 double, 2 drop, 3 swap with the
/// next, 4 insert, and which hostile token).
type Edit = (usize, u8, usize);

fn mutated(seed: &str, edits: &[Edit]) -> String {
    let mut pieces = tokens(seed);
    for &(at, what, which) in edits {
        if pieces.is_empty() {
            break;
        }
        let i = at % pieces.len();
        let hostile = HOSTILE_TOKENS[which % HOSTILE_TOKENS.len()];
        match what {
            0 => pieces[i] = hostile,
            1 => pieces.insert(i, pieces[i]),
            2 => {
                pieces.remove(i);
            }
            3 if i + 1 < pieces.len() => pieces.swap(i, i + 1),
            _ => pieces.insert(i, hostile),
        }
    }
    pieces.concat()
}

/// The cases per property: 150 (a few seconds in CI), or `FZN_FUZZ_CASES` for a longer
/// run by hand (`FZN_FUZZ_CASES=20000 cargo test -p flatzinc --test fuzz`).
fn cases() -> u32 {
    std::env::var("FZN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn structured_models_build_or_give_one_error_line(text in model()) {
        holds_to_the_contract(&text);
    }

    #[test]
    fn near_valid_files_build_or_give_one_error_line(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<usize>(), 0u8..5, any::<usize>()), 1..5),
    ) {
        holds_to_the_contract(&mutated(SEEDS[seed], &edits));
    }

    #[test]
    fn random_bytes_give_one_error_line(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        holds_to_the_contract(&String::from_utf8_lossy(&bytes));
    }
}

// ----- the inputs that once crashed the reader, at full size ---------------------------------

fn error_of(text: &str) -> String {
    match flatzinc::load(text) {
        Ok(_) => panic!("accepted: {}", &text[..text.len().min(200)]),
        Err(e) => e.message,
    }
}

/// All solutions, as printed.
fn solutions(text: &str) -> String {
    let built = flatzinc::load(text).expect("a valid model");
    let options = Options {
        all: true,
        ..Default::default()
    };
    let mut out = Vec::new();
    flatzinc::solve::run(built, &options, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn brackets_nested_thirty_thousand_deep_are_refused_not_a_stack_overflow() {
    let n = 30_000;
    let deep = format!(
        "var 1..3: x;\nconstraint int_le(x, {}x{});\nsolve satisfy;\n",
        "[".repeat(n),
        "]".repeat(n)
    );
    assert!(error_of(&deep).contains("nested more than"));
    let mut ann = "int_search([x], input_order, indomain_min, complete)".to_string();
    for _ in 0..n {
        ann = format!("seq_search([{ann}])");
    }
    let deep_search = format!("var 1..3: x;\nsolve :: {ann} satisfy;\n");
    assert!(error_of(&deep_search).contains("nested more than"));
    let sets = format!("{}int: x;\nsolve satisfy;\n", "set of ".repeat(n));
    error_of(&sets);
    // Within the limit, nesting is read (and the annotation reader follows it).
    let mut ann = "int_search([x], input_order, indomain_max, complete)".to_string();
    for _ in 0..40 {
        ann = format!("seq_search([{ann}])");
    }
    let text = format!("var 1..3: x :: output_var;\nsolve :: {ann} satisfy;\n");
    let built = flatzinc::load(&text).unwrap();
    let mut out = Vec::new();
    flatzinc::solve::run(built, &Options::default(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "x = 3;\n----------\n");
}

#[test]
fn a_parameter_array_naming_itself_is_an_error_not_an_endless_recursion() {
    let text = "array [1..1] of int: a = [a[1]];\nvar int: z;\nconstraint int_eq(a[1], z);\nsolve satisfy;\n";
    error_of(text);
}

#[test]
fn all_different_over_the_widest_domains_solves_without_per_value_memory() {
    // Two variables in 1..2147483646 asked for 8.6 GB (and 1..100000000 for 400 MB).
    for hi in [2_147_483_646i64, 100_000_000] {
        let text = format!(
            "var 1..{hi}: x :: output_var;\nvar 1..{hi}: y :: output_var;\nconstraint fzn_all_different_int([x, y]);\nconstraint int_le(x, 1);\nconstraint int_le(y, 2);\nsolve satisfy;\n"
        );
        assert_eq!(solutions(&text), "x = 1;\ny = 2;\n----------\n==========\n");
    }
}

#[test]
fn a_set_literal_reaching_the_top_of_i32_is_an_error_not_a_panic() {
    let msg = error_of("var {1,2147483647}: x;\nsolve satisfy;\n");
    assert!(msg.contains("beyond the values"), "{msg}");
    let text = "var {-2147483648, 7}: x :: output_var;\nsolve satisfy;\n";
    assert_eq!(
        solutions(text),
        "x = -2147483648;\n----------\nx = 7;\n----------\n==========\n"
    );
}

#[test]
fn linear_overflow_is_judged_on_the_domains() {
    let text = "var 0..2: x :: output_var;\nvar 0..2: y :: output_var;\nconstraint int_lin_le([1073741824, 1073741824], [x, y], 1073741824);\nsolve satisfy;\n";
    assert_eq!(
        solutions(text),
        "x = 0;\ny = 0;\n----------\nx = 0;\ny = 1;\n----------\nx = 1;\ny = 0;\n----------\n==========\n"
    );
    // The same coefficients over 32-bit domains could overflow: refused.
    let wide = "var -2147483648..2147483646: x;\nvar 0..2: y;\nconstraint int_lin_le([4294967296, 1073741824], [x, y], 1073741824);\nsolve satisfy;\n";
    assert!(error_of(wide).contains("too large for 64-bit sums"));
    // One variable twice, whose coefficients add up beyond i64: refused, not a panic in
    // the merging of the terms.
    let repeated = "var 0..1: x;\nconstraint int_lin_le([9223372036854775807, 9223372036854775807], [x, x], 5);\nsolve satisfy;\n";
    assert!(error_of(repeated).contains("too large for 64-bit sums"));
}

#[test]
fn items_out_of_order_are_refused() {
    let msg = error_of("solve satisfy;\nvar 1..3: x;\n");
    assert!(msg.contains("after the solve item"), "{msg}");
    let msg = error_of("var 1..3: x;\nconstraint int_le(x, 2);\nvar 1..3: y;\nsolve satisfy;\n");
    assert!(msg.contains("a declaration after a constraint"), "{msg}");
}

#[test]
fn a_value_of_the_wrong_type_is_refused() {
    for text in [
        "var 1..3: x;\nconstraint int_le(true, x);\nsolve satisfy;\n",
        "int: n = true;\nsolve satisfy;\n",
        "array [1..2] of int: a = [1, false];\nsolve satisfy;\n",
        "var 1..3: x;\nconstraint int_lin_le([1], [true], 3);\nsolve satisfy;\n",
        "var bool: b;\nconstraint bool_clause([b, 1], []);\nsolve satisfy;\n",
    ] {
        let msg = error_of(text);
        assert!(msg.starts_with("expected "), "{text}: {msg}");
    }
    // Booleans where booleans belong are fine.
    let ok = "var bool: b :: output_var;\nconstraint bool_clause([b, false], []);\nconstraint bool2int(true, 1);\nsolve satisfy;\n";
    assert_eq!(solutions(ok), "b = true;\n----------\n==========\n");
}

#[test]
fn a_search_annotation_on_an_undeclared_name_is_refused() {
    let msg = error_of(
        "var 1..3: x;\nsolve :: int_search([nope], input_order, indomain_min, complete) satisfy;\n",
    );
    assert!(msg.contains("'nope', which is not declared"), "{msg}");
    let msg = error_of(
        "array [1..1] of var 1..3: xs = [x];\nvar 1..3: x;\nsolve :: int_search([xs[2]], input_order, indomain_min, complete) satisfy;\n",
    );
    assert!(!msg.is_empty());
}

#[test]
fn the_clock_and_the_stop_flag_hold_while_reading_and_building() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!("var 0..1: x{i};\n"));
    }
    text.push_str("solve satisfy;\n");
    let past = engine::Limits {
        deadline: Some(Instant::now()),
        ..Default::default()
    };
    let e = flatzinc::load_within(&text, &past).unwrap_err();
    assert!(e.limit_reached, "{}", e.message);
    let stopped = engine::Limits {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..Default::default()
    };
    assert!(
        flatzinc::load_within(&text, &stopped)
            .unwrap_err()
            .limit_reached
    );
    // Parsed in full, then stopped while building.
    let parsed = flatzinc::parse(&text).unwrap();
    let e = flatzinc::build::build_within(&parsed, &stopped).unwrap_err();
    assert!(e.limit_reached);
    assert!(flatzinc::load_within(&text, &engine::Limits::default()).is_ok());
}
