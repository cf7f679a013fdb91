//! The FlatZinc reader: a valid file in every shape the specification allows, the error
//! line of each kind of bad input, and a fuzz test (random bytes, truncated and mutated
//! valid files) that must never panic.

use engine::rng::Rng;
use flatzinc::ast::{Expr, Goal};

const VALID: &str = r#"% a comment
predicate my_pred(array [int] of var int: x, int: y);
int: n = 3;
bool: t = true;
set of int: s = {1, 3, 5};
set of int: r = 2..4;
array [1..3] of int: coefs = [1, -2, 0x3];
array [1..2] of set of int: sets = [{}, 1..2];
var 1..3: x :: output_var;
var {1, 3, 5}: y :: output_var;
var bool: b :: output_var :: var_is_introduced;
var 0..10: z :: is_defined_var;
var 1..3: w = x;
array [1..2] of var int: xs :: output_array([1..1, 1..2]) = [x, y];
array [1..3] of var int: ys = [x, 3, z];
constraint int_lin_eq(coefs, ys, -1) :: defines_var(z);
constraint int_le(x, xs[2]);
constraint bool2int(b, z) :: domain;
constraint set_in(x, r);
solve :: seq_search([int_search(xs, first_fail, indomain_min, complete), bool_search([b], input_order, indomain_max, complete)]) maximize z;
"#;

#[test]
fn a_valid_file_parses_into_its_items() {
    let m = flatzinc::parse(VALID).unwrap();
    assert_eq!(m.decls.len(), 13);
    assert_eq!(m.constraints.len(), 4);
    assert_eq!(m.constraints[1].args[1], Expr::Access("xs".into(), 2));
    assert_eq!(m.solve.goal, Goal::Maximize(Expr::Ident("z".into())));
    assert_eq!(m.decls[7].ty.domain, Some(vec![(1, 1), (3, 3), (5, 5)]));
    assert_eq!(m.constraints[0].line, 16);
}

#[test]
fn a_valid_file_builds_and_solves() {
    let built = flatzinc::load(VALID).unwrap();
    let mut out = Vec::new();
    flatzinc::solve::run(built, &flatzinc::solve::Options::default(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    // x - 6 + 3z = -1 with x in 2..3 and z = b: z = 1, x = 2.
    assert!(out.ends_with("----------\n==========\n"), "{out}");
    assert!(out.contains("xs = array2d(1..1, 1..2, ["), "{out}");
    assert!(out.contains("x = 2;\ny = 3;\nb = true;"), "{out}");
}

fn error_of(text: &str) -> (usize, String) {
    match flatzinc::load(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => (e.line, e.message),
    }
}

#[test]
fn bad_input_gets_its_line_and_a_reason() {
    let (line, msg) = error_of("var 1..3: x;\nconstraint fzn_circuit([x]);\nsolve satisfy;\n");
    assert_eq!(line, 2);
    assert!(
        msg.contains("fzn_circuit") && msg.contains("mznlib"),
        "{msg}"
    );
    let (line, msg) = error_of("var 1..3: x;\n\nvar float: f;\nsolve satisfy;\n");
    assert_eq!(line, 3);
    assert!(msg.contains("var float is not supported"), "{msg}");
    // Set variables are read (flatzinc/tests/sets.rs); one without a finite universe, or
    // with one of more values than it has booleans for, is refused at its line.
    let (line, msg) = error_of("var 1..3: x;\nvar set of int: s;\nsolve satisfy;\n");
    assert_eq!(line, 2);
    assert!(msg.contains("needs a finite universe"), "{msg}");
    let (_, msg) = error_of("var set of 1..100000: s;\nsolve satisfy;\n");
    assert!(msg.contains("too large"), "{msg}");
    // Many wide sets, each within the bound: refused at the line where they pass the total
    // (64 sets of 65,536 booleans), before gigabytes of booleans are made.
    let many: String = (0..100)
        .map(|i| format!("var set of 1..65536: s{i};\n"))
        .collect();
    let (line, msg) = error_of(&format!("{many}solve satisfy;\n"));
    assert_eq!(line, 65, "{msg}");
    assert!(msg.contains("booleans in all"), "{msg}");
    // The same for constraints: each aligns a small set with a constant one of 65,536
    // values (a constraint per value), refused where they pass the total of cells.
    let many: String = (0..100)
        .map(|_| "constraint set_subset(s, 1..65536);\n".to_string())
        .collect();
    let (line, msg) = error_of(&format!("var set of 1..3: s;\n{many}solve satisfy;\n"));
    assert_eq!(line, 18, "{msg}"); // the 17th constraint: 16 × 2 × 65,536 is the total
    assert!(msg.contains("values of their sets in all"), "{msg}");
    let (_, msg) = error_of("var int: x;\nsolve satisfy;\n");
    assert!(msg.contains("has no bounds"), "{msg}");
    let (_, msg) = error_of("var -2147483649..0: x;\nsolve satisfy;\n");
    assert!(
        msg.contains("beyond the values this version supports"),
        "{msg}"
    );
    let (_, msg) = error_of("var 0..2147483648: x;\nsolve satisfy;\n");
    assert!(
        msg.contains("beyond the values this version supports"),
        "{msg}"
    );
    let (line, msg) = error_of("var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;\n");
    assert_eq!((line, msg.contains("unknown name 'y'")), (2, true), "{msg}");
    let (line, _) = error_of("var 1..3: x\nsolve satisfy;\n");
    assert_eq!(line, 2);
    let (_, msg) = error_of("var 1..3: x;\n");
    assert!(msg.contains("no solve item"), "{msg}");
    let (_, msg) =
        error_of("var 1..3: x;\nconstraint float_lin_le([1.0], [x], 2.0);\nsolve satisfy;\n");
    assert!(msg.contains("float"), "{msg}");
    let (line, msg) = error_of("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;\n");
    assert_eq!(line, 2);
    assert!(msg.contains("takes 2 arguments"), "{msg}");
}

/// Parse and build must return, never panic; on success, solving a little must not either.
fn must_not_panic(text: &str) {
    let result = std::panic::catch_unwind(|| {
        if let Ok(built) = flatzinc::load(text) {
            let options = flatzinc::solve::Options {
                deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(20)),
                ..Default::default()
            };
            let _ = flatzinc::solve::run(built, &options, &mut Vec::new());
        }
    });
    assert!(result.is_ok(), "panicked on {text:?}");
}

#[test]
fn fuzz_random_truncated_and_mutated_files_never_panic() {
    let mut rng = Rng::new(21);
    let alphabet = b"0123456789abcxyz_-+.:;,()[]{}=% \n\"varintboolconstraintsolve";
    for _ in 0..300 {
        let len = rng.below(80) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        must_not_panic(&String::from_utf8_lossy(&bytes));
    }
    for cut in 0..VALID.len() {
        if VALID.is_char_boundary(cut) {
            must_not_panic(&VALID[..cut]);
        }
    }
    let tokens = [
        "",
        ";",
        "1",
        "-1",
        "99999999999999999999",
        "..",
        "[",
        "]",
        "x",
        "xs[9]",
        "true",
        "{",
        "}",
        "var",
        "int",
        "0",
        "-2147483649",
        "2147483647",
        "::",
        "=",
        "(",
        ")",
    ];
    let valid: Vec<&str> = VALID
        .split_inclusive(|c: char| " ,;()[]\n".contains(c))
        .collect();
    for _ in 0..600 {
        let mut pieces = valid.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(pieces.len() as u64) as usize;
            pieces[at] = tokens[rng.below(tokens.len() as u64) as usize];
        }
        must_not_panic(&pieces.concat());
    }
}

#[test]
fn a_var_int_without_a_domain_gets_the_range_its_definition_implies() {
    let text = "var 1..3: x;\nvar -2..4: y;\nvar int: s :: output_var;\nvar int: t :: output_var;\nvar int: u;\nconstraint int_lin_eq([1, 1, -1], [x, y, s], 0);\nconstraint int_times(s, y, t);\nconstraint int_abs(t, u);\nsolve maximize u;\n";
    let built = flatzinc::load(text).unwrap();
    let names = &built.names;
    let var = |n: &str| match names[n] {
        flatzinc::build::Value::Var(v, _) => v,
        _ => panic!(),
    };
    let m = &built.model;
    assert_eq!((m.min(var("s")), m.max(var("s"))), (-1, 7));
    assert_eq!((m.min(var("t")), m.max(var("t"))), (-14, 28));
    assert_eq!((m.min(var("u")), m.max(var("u"))), (0, 28));
    let mut out = Vec::new();
    flatzinc::solve::run(built, &Default::default(), &mut out).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .ends_with("s = 7;\nt = 28;\n----------\n==========\n"));
}

#[test]
fn a_var_int_without_a_domain_gets_the_range_its_inequalities_imply() {
    // a, b >= 0 and a + b = 1: both in 0..1; a < c and 3c - 2a <= 4: c in 1..2;
    // -2e <= -3 and 2e <= 7: e in 2..3 (both roundings, toward the inside); d >= 4 only.
    let text = "var int: a;\nvar int: b;\nvar int: c;\nvar int: d;\nvar int: e;\n\
        constraint int_le(0, a);\nconstraint int_le(0, b);\n\
        constraint int_lin_eq([1, 1], [a, b], 1);\nconstraint int_lt(a, c);\n\
        constraint int_lin_le([3, -2], [c, a], 4);\n\
        constraint int_lin_le([-1, -3], [d, b], -7);\n\
        constraint int_lin_le([-2], [e], -3);\nconstraint int_lin_le([2], [e], 7);\n\
        solve satisfy;\n";
    let inferred = flatzinc::bounds::infer(&flatzinc::parse(text).unwrap());
    let get = |n: &str| inferred.get(n).copied();
    assert_eq!(get("a"), Some((0, 1)));
    assert_eq!(get("b"), Some((0, 1)));
    assert_eq!(get("c"), Some((1, 2)));
    assert_eq!(get("e"), Some((2, 3)));
    assert_eq!(get("d"), None, "d has no upper bound");
    // d alone still gets the error; given a domain, the model builds and solves.
    let (_, msg) = error_of(text);
    assert!(msg.contains("'d' has no bounds"), "{msg}");
    let built = flatzinc::load(&text.replace("var int: d;", "var 0..9: d;")).unwrap();
    let mut out = Vec::new();
    flatzinc::solve::run(built, &Default::default(), &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().ends_with("----------\n"));
}

#[test]
fn seq_search_branches_phase_by_phase_with_each_phase_rule() {
    // Phase 2 is first_fail over [y, z] with y + z >= 4: z (two values) goes before y, and
    // each phase keeps its own value choice: x = 5 (indomain_max), then z = 1, then y = 3
    // (indomain_min). Branching on y first would give y = 2, z = 2; phase 1's value choice
    // for all, z = 2, y = 5.
    let text = "var 1..5: x :: output_var;\nvar 1..5: y :: output_var;\nvar 1..2: z :: output_var;\nconstraint int_lin_le([-1, -1], [y, z], -4);\nsolve :: seq_search([int_search([x], input_order, indomain_max, complete), int_search([y, z], first_fail, indomain_min, complete)]) satisfy;\n";
    let mut out = Vec::new();
    flatzinc::solve::run(flatzinc::load(text).unwrap(), &Default::default(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "x = 5;\ny = 3;\nz = 1;\n----------\n"
    );
}
