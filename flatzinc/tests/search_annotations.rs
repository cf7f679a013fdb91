//! Every search annotation MiniZinc documents, one small model each, whose first decision
//! tells the choice apart: the variable each rule picks (and how it breaks ties), the
//! value and branch each value choice tries first (at Gecode's split point and median), the
//! restart policy each restart annotation gives, warm starts, relax_and_reconstruct, and
//! what is not supported being named once.

use engine::search::brancher::Brancher;
use engine::search::{Decision, DecisionOp};
use engine::{RestartPolicy, VarId};
use flatzinc::solve::{config, Options};

/// Six variables, none fixed by the root propagation (only disequalities over overlapping
/// domains). Their properties, by rule:
///
/// | var | domain | size | min | max | regret | degree | size/degree |
/// |---|---|---:|---:|---:|---:|---:|---:|
/// | a | -2..6 | 9 | **-2** | 6 | 1 | 2 | 4.5 |
/// | b | {3,7,12} | 3 | 3 | **12** | 4 | 1 | 3 |
/// | c | 2..3 | **2** | 2 | 3 | 1 | 0 | 2 |
/// | d | 0..9 | **10** | 0 | 9 | 1 | **3** | 3.3 |
/// | e | {1,7,8,9} | 4 | 1 | 9 | **6** | 2 | 2 |
/// | f | 5..6 | **2** | 5 | 6 | 1 | **2** | **1** |
const VARS: &str = "var -2..6: a;\nvar {3,7,12}: b;\nvar 2..3: c;\nvar 0..9: d;\nvar {1,7,8,9}: e;\nvar 5..6: f;\n\
constraint int_ne(d, a);\nconstraint int_ne(d, e);\nconstraint int_ne(d, b);\n\
constraint int_ne(f, a);\nconstraint int_ne(f, e);\n";

const NAMES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

/// The first decision of the search `solve` asks for on `vars` (a model text).
fn first_decision(vars: &str, solve: &str) -> Decision {
    let text = format!("{vars}{solve}\n");
    let mut built = flatzinc::load(&text).unwrap_or_else(|e| panic!("{solve}: {e:?}"));
    let config = config(&built, &Options::default());
    built.model.propagate().expect("the root propagates");
    let mut brancher = Brancher::from_config(&built.model, &config);
    let (decision, _) = brancher.next(&built.model).expect("a decision");
    decision
}

/// The name of the variable the first decision of `int_search(order, rule, ...)` is on.
fn chosen(order: &str, rule: &str) -> &'static str {
    let solve = format!("solve :: int_search([{order}], {rule}, indomain_min, complete) satisfy;");
    let d = first_decision(VARS, &solve);
    NAMES[d.var.index()]
}

#[test]
fn each_variable_choice_picks_its_variable() {
    let order = "a, b, c, d, e, f";
    let expected = [
        ("input_order", "a"),
        ("first_fail", "c"),
        ("anti_first_fail", "d"),
        ("smallest", "a"),
        ("largest", "b"),
        ("max_regret", "e"),
        ("occurrence", "d"),
        ("most_constrained", "f"),
        ("dom_w_deg", "f"),
    ];
    for (rule, var) in expected {
        assert_eq!(chosen(order, rule), var, "{rule}");
    }
}

#[test]
fn ties_go_to_the_first_in_the_annotations_order() {
    // c and f both have two values: first_fail takes whichever comes first.
    assert_eq!(chosen("a, b, c, d, e, f", "first_fail"), "c");
    assert_eq!(chosen("f, e, d, c, b, a", "first_fail"), "f");
    // The sizes tie and the degrees decide (f has two propagators, c none), in any order.
    assert_eq!(chosen("c, f", "most_constrained"), "f");
    // All of 0..9 and -2..6 have regret 1: the first.
    assert_eq!(chosen("d, a", "max_regret"), "d");
    assert_eq!(chosen("a, d", "max_regret"), "a");
    // input_order over a permuted list follows the list.
    assert_eq!(chosen("e, a", "input_order"), "e");
}

#[test]
fn bool_search_reads_the_same_rules() {
    // q is in three clauses, p in two.
    let vars = "var bool: p;\nvar bool: q;\nvar bool: r;\nconstraint bool_clause([p, q], []);\nconstraint bool_clause([q], [p]);\nconstraint bool_clause([q, r], []);\n";
    let d = first_decision(
        vars,
        "solve :: bool_search([p, q], occurrence, indomain_max, complete) satisfy;",
    );
    assert_eq!((d.var, d.op, d.value), (VarId(1), DecisionOp::Eq, 1));
}

/// The first decision of `int_search([x], input_order, choice)` over `x in domain`.
fn value_decision(domain: &str, choice: &str) -> (DecisionOp, i32) {
    let vars = format!("var {domain}: x;\n");
    let solve = format!("solve :: int_search([x], input_order, {choice}, complete) satisfy;");
    let d = first_decision(&vars, &solve);
    (d.op, d.value)
}

#[test]
fn each_value_choice_tries_its_value() {
    use DecisionOp::*;
    // Six values with holes: min -8, max 5. Gecode's split point rounds (-8 + 5) / 2
    // toward zero: -1 (floor would give -2); its median is the 3rd value of 6, -2.
    let holes = "{-8,-3,-2,0,4,5}";
    let expected = [
        ("indomain_min", (Eq, -8)),
        ("indomain", (Eq, -8)),
        ("indomain_max", (Eq, 5)),
        ("indomain_split", (Le, -1)),
        ("indomain_reverse_split", (Gt, -1)),
        ("indomain_median", (Eq, -2)),
        // The middle of the bounds, -1.5, rounds down to -2, which is there.
        ("indomain_middle", (Eq, -2)),
        // The first interval is {-8}.
        ("indomain_interval", (Le, -8)),
    ];
    for (choice, want) in expected {
        assert_eq!(value_decision(holes, choice), want, "{choice} on {holes}");
    }
    // Median and middle apart: the 3rd of {0,1,2,3,10} is 2; the middle of 0..10 is 5, and
    // the closest value to it 3.
    assert_eq!(value_decision("{0,1,2,3,10}", "indomain_median"), (Eq, 2));
    assert_eq!(value_decision("{0,1,2,3,10}", "indomain_middle"), (Eq, 3));
    assert_eq!(value_decision("{0,1,2,3,10}", "indomain_interval"), (Le, 3));
    // Two consecutive values: Gecode splits at the smaller; an interval splits as split.
    assert_eq!(value_decision("-4..-3", "indomain_split"), (Le, -4));
    assert_eq!(value_decision("1..10", "indomain_interval"), (Le, 5));
    // Random: a value of the domain, with `=`.
    let (op, v) = value_decision(holes, "indomain_random");
    assert!(op == Eq && [-8, -3, -2, 0, 4, 5].contains(&v));
}

#[test]
fn seq_search_phases_keep_their_own_choices() {
    // The first phase holds only fixed-by-nothing `a`; once it is fixed the second phase's
    // rule (largest) and value choice (max) apply.
    let text = format!(
        "{VARS}solve :: seq_search([int_search([a], input_order, indomain_min, complete), int_search([c, b, e], largest, indomain_max, complete)]) satisfy;\n"
    );
    let mut built = flatzinc::load(&text).unwrap();
    let config = config(&built, &Options::default());
    built.model.propagate().unwrap();
    let mut brancher = Brancher::from_config(&built.model, &config);
    let (d, _) = brancher.next(&built.model).unwrap();
    assert_eq!(
        (NAMES[d.var.index()], d.op, d.value),
        ("a", DecisionOp::Eq, -2)
    );
    built.model.fix(VarId(0), -2).unwrap();
    built.model.propagate().unwrap();
    let (d, _) = brancher.next(&built.model).unwrap();
    assert_eq!(
        (NAMES[d.var.index()], d.op, d.value),
        ("b", DecisionOp::Eq, 12)
    );
}

#[test]
fn warm_start_tries_the_hint_first() {
    let solve = "solve :: seq_search([int_search([a, d], input_order, indomain_min, complete), warm_start([a, d], [4, 7])]) satisfy;";
    let d = first_decision(VARS, solve);
    assert_eq!(
        (NAMES[d.var.index()], d.op, d.value),
        ("a", DecisionOp::Eq, 4)
    );
    // Without a search annotation the hints still lead (over the default search).
    // (dom/wdeg picks f first, 5..6, and tries the hint 6 instead of 5.)
    let d = first_decision(VARS, "solve :: warm_start([f], [6]) satisfy;");
    assert_eq!(
        (NAMES[d.var.index()], d.op, d.value),
        ("f", DecisionOp::Eq, 6)
    );
    // A hint outside the domain falls back to the smallest value.
    let d = first_decision(
        VARS,
        "solve :: warm_start_array([warm_start([f], [40]), warm_start([a], [3])]) satisfy;",
    );
    assert_eq!(
        (NAMES[d.var.index()], d.op, d.value),
        ("f", DecisionOp::Eq, 5)
    );
}

/// The restart policy of `solve :: ANN satisfy` over the variables.
fn restarts_of(ann: &str) -> RestartPolicy {
    let text = format!("{VARS}solve :: {ann} satisfy;\n");
    let built = flatzinc::load(&text).unwrap();
    config(&built, &Options::default()).restarts
}

#[test]
fn restart_annotations_set_the_policy() {
    let search = "int_search([a, b], input_order, indomain_min, complete)";
    let with = |r: &str| restarts_of(&format!("seq_search([{search}, {r}])"));
    assert_eq!(with("restart_none"), RestartPolicy::Never);
    assert_eq!(
        with("restart_constant(50)"),
        RestartPolicy::Constant { scale: 50 }
    );
    assert_eq!(
        with("restart_linear(20)"),
        RestartPolicy::Linear { scale: 20 }
    );
    assert_eq!(with("restart_luby(64)"), RestartPolicy::Luby { scale: 64 });
    assert_eq!(
        with("restart_geometric(2.0, 10)"),
        RestartPolicy::Geometric {
            base: 10,
            factor: 2.0
        }
    );
    // Annotated search without a restart annotation: none (the model's search, as given).
    assert_eq!(restarts_of(search), RestartPolicy::Never);
    // Two annotations at the solve item's top level are read as one sequence too.
    let text = format!("{VARS}solve :: {search} :: restart_luby(8) satisfy;\n");
    let built = flatzinc::load(&text).unwrap();
    assert_eq!(
        config(&built, &Options::default()).restarts,
        RestartPolicy::Luby { scale: 8 }
    );
}

#[test]
fn relax_and_reconstruct_is_read() {
    // z is declared before VARS' constraints: FlatZinc lists declarations first.
    let text = format!(
        "var 0..30: z;\n{VARS}constraint int_lin_eq([1,1,-1],[a,d,z],0);\nsolve :: relax_and_reconstruct([a, d], 70) :: restart_constant(100) minimize z;\n"
    );
    let built = flatzinc::load(&text).unwrap();
    let plan = flatzinc::search::plan(&built);
    let relax = plan.relax.expect("read");
    assert_eq!(relax.vars, vec![VarId(1), VarId(4)]);
    assert_eq!(relax.percentage, 70);
    assert!(plan.unsupported.is_empty(), "{:?}", plan.unsupported);
}

#[test]
fn what_is_not_supported_is_named_once() {
    let text = format!(
        "{VARS}solve :: seq_search([int_search([a], random_order, indomain_min, complete), int_search([b], input_order, outdomain_max, complete), float_search([], 0.1, input_order, indomain_split, complete), float_search([], 0.1, input_order, indomain_split, complete), int_search([c], input_order, indomain_min, complete)]) satisfy;\n"
    );
    let built = flatzinc::load(&text).unwrap();
    let plan = flatzinc::search::plan(&built);
    assert_eq!(
        plan.unsupported,
        vec![
            "int_search: variable choice 'random_order' (input_order used)".to_string(),
            "int_search: value choice 'outdomain_max' (indomain_min used)".to_string(),
            "annotation 'float_search'".to_string(),
        ]
    );
    // Everything documented is read without a word.
    for ann in [
        "int_search([a], anti_first_fail, indomain_reverse_split, complete)",
        "bool_search([], dom_w_deg, indomain_random, complete)",
        "warm_start([a], [1])",
        "restart_geometric(1.5, 100)",
    ] {
        let text = format!("{VARS}solve :: {ann} satisfy;\n");
        let plan = flatzinc::search::plan(&flatzinc::load(&text).unwrap());
        assert!(plan.unsupported.is_empty(), "{ann}: {:?}", plan.unsupported);
    }
}

/// Solve `text` with these options; the printed output.
fn solve_text(text: &str, options: &Options) -> String {
    let built = flatzinc::load(text).unwrap();
    let mut out = Vec::new();
    flatzinc::solve::run(built, options, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn free_search_and_relax_and_reconstruct_find_and_prove_the_optimum() {
    // Six variables all different in 1..8, minimise their weighted sum: optimum
    // 1*6 + 2*5 + 3*4 + 4*3 + 5*2 + 6*1 = 56 (the heaviest weight on the smallest value).
    let model = |ann: &str| {
        format!(
            "var 1..8: x1;\nvar 1..8: x2;\nvar 1..8: x3;\nvar 1..8: x4;\nvar 1..8: x5;\nvar 1..8: x6;\n\
array [1..6] of var int: x :: output_array([1..6]) = [x1,x2,x3,x4,x5,x6];\nvar 0..300: z :: output_var;\n\
constraint fzn_all_different_int(x);\nconstraint int_lin_eq([1,2,3,4,5,6,-1], [x1,x2,x3,x4,x5,x6,z], 0);\n\
solve {ann} minimize z;\n"
        )
    };
    let free = Options {
        free: true,
        ..Options::default()
    };
    let out = solve_text(&model(""), &free);
    assert!(out.contains("z = 56;\n----------\n==========\n"), "{out}");
    let no_lns = Options {
        no_lns: true,
        ..free.clone()
    };
    let out = solve_text(&model(""), &no_lns);
    assert!(out.contains("z = 56;\n----------\n==========\n"), "{out}");
    // relax_and_reconstruct with growing restarts: LNS between complete runs, which prove.
    let ann = ":: int_search(x, input_order, indomain_max, complete) :: relax_and_reconstruct(x, 50) :: restart_luby(10)";
    let out = solve_text(&model(ann), &Options::default());
    assert!(out.contains("z = 56;\n----------\n==========\n"), "{out}");
    // -a prints every improving solution, each better than the last.
    let all = Options {
        all: true,
        ..Options::default()
    };
    let out = solve_text(&model(ann), &all);
    let objectives: Vec<i64> = (out.lines())
        .filter_map(|l| l.strip_prefix("z = "))
        .map(|v| v.trim_end_matches(';').parse().unwrap())
        .collect();
    assert!(objectives.windows(2).all(|w| w[1] < w[0]), "{objectives:?}");
    assert_eq!(objectives.last(), Some(&56));
}

/// The `nodes=` statistic of solving `text` for every solution.
fn nodes_for_every_solution(text: &str) -> u64 {
    let options = Options {
        all: true,
        statistics: true,
        ..Options::default()
    };
    let out = solve_text(text, &options);
    let line = (out.lines())
        .find_map(|l| l.strip_prefix("%%%mzn-stat: nodes="))
        .unwrap_or_else(|| panic!("no node count in {out}"));
    line.parse().unwrap()
}

#[test]
fn indomain_branches_on_each_value_in_turn_as_gecode_does() {
    // x in 1..4 and y in 1..3 with x != y, every solution, x first. Gecode reads `indomain`
    // as INT_VALUES_MIN: one child per value of x (4), then one per value left to y (2
    // under x = 1, 2, 3; 3 under x = 4): 13 nodes below its root (`fzn-gecode -a -s` on
    // this model prints 14, the root included). indomain_min is binary: x = v, then
    // x != v: 6 nodes for x; y = u, y != u under each value of x: 2, 2, 2 and 4: 16
    // (Gecode: 17).
    let model = |choice: &str| {
        format!(
            "var 1..4: x :: output_var;\nvar 1..3: y :: output_var;\nconstraint int_ne(x, y);\n\
solve :: int_search([x, y], input_order, {choice}, complete) satisfy;\n"
        )
    };
    assert_eq!(nodes_for_every_solution(&model("indomain")), 13);
    assert_eq!(nodes_for_every_solution(&model("indomain_min")), 16);
    // The same solutions either way: 4 * 3 - 3 (x = y excluded).
    let options = Options {
        all: true,
        ..Options::default()
    };
    for choice in ["indomain", "indomain_min"] {
        let out = solve_text(&model(choice), &options);
        assert_eq!(out.matches("----------").count(), 9, "{choice}: {out}");
    }
}

#[test]
fn indomain_tries_the_next_value_after_a_failed_one() {
    // x, y, z all different in 1..3 summing to 7: no solution, and the root propagation
    // does not see it. With `indomain` each value of x is a child that fails: 3 nodes, 3
    // failures; indomain_min needs x != 1 and x != 2 as nodes of their own: 4. The same
    // counts as Gecode's on this model, less its root (`fzn-gecode -a -s`: 4 and 5).
    let model = |choice: &str| {
        format!(
            "var 1..3: x;\nvar 1..3: y;\nvar 1..3: z;\n\
constraint int_lin_eq([1, 1, 1], [x, y, z], 7);\nconstraint int_ne(x, y);\n\
constraint int_ne(x, z);\nconstraint int_ne(y, z);\n\
solve :: int_search([x, y, z], input_order, {choice}, complete) satisfy;\n"
        )
    };
    assert_eq!(nodes_for_every_solution(&model("indomain")), 3);
    assert_eq!(nodes_for_every_solution(&model("indomain_min")), 4);
}

#[test]
fn warm_start_falls_back_to_its_variables_own_value_choice() {
    // a in -2..6 is in a phase with indomain_max. A hint outside the domain does not apply:
    // the phase's own choice (max, 6), not the global smallest value.
    let solve = "solve :: seq_search([int_search([d], input_order, indomain_min, complete), int_search([a], input_order, indomain_max, complete), warm_start([a], [40])]) satisfy;";
    let text = format!("{VARS}{solve}\n");
    let mut built = flatzinc::load(&text).unwrap();
    let search = config(&built, &Options::default());
    built.model.propagate().unwrap();
    let mut brancher = Brancher::from_config(&built.model, &search);
    built.model.fix(VarId(3), 0).unwrap(); // d
    built.model.propagate().unwrap();
    let (d, _) = brancher.next(&built.model).unwrap();
    assert_eq!(
        (NAMES[d.var.index()], d.op, d.value),
        ("a", DecisionOp::Eq, 6)
    );
    // A hint that applies leads; once it has left the domain (its right branch), the
    // phase's own choice again.
    let solve = "solve :: seq_search([int_search([a], input_order, indomain_max, complete), warm_start([a], [3])]) satisfy;";
    let text = format!("{VARS}{solve}\n");
    let mut built = flatzinc::load(&text).unwrap();
    let search = config(&built, &Options::default());
    built.model.propagate().unwrap();
    let mut brancher = Brancher::from_config(&built.model, &search);
    let (d, _) = brancher.next(&built.model).unwrap();
    assert_eq!((d.op, d.value), (DecisionOp::Eq, 3));
    built.model.remove(VarId(0), 3).unwrap();
    built.model.propagate().unwrap();
    let (d, _) = brancher.next(&built.model).unwrap();
    assert_eq!((d.op, d.value), (DecisionOp::Eq, 6));
}

#[test]
fn dom_w_deg_is_the_accumulated_failure_count_over_the_size() {
    // Before any failure every propagator counts 1: the merit is the degree over the size,
    // the greatest first (Gecode's INT_VAR_AFC_SIZE_MAX): f, 2 / 2.
    assert_eq!(chosen("a, b, c, d, e, f", "dom_w_deg"), "f");
    // A propagator that failed counts (1 + 1) / 0.99: the variables it watches lead.
    let text = "var 1..3: x;\nvar 1..3: y;\nvar 1..3: z;\nvar 0..1: w;\n\
constraint int_le(x, y);\nconstraint int_le(y, z);\nconstraint int_le(z, w);\n\
solve :: int_search([x, y, z, w], dom_w_deg, indomain_min, complete) satisfy;\n";
    let mut built = flatzinc::load(text).unwrap();
    // z <= w with w in 0..1 and z in 1..3: fails once z's minimum stays 1 and w is set to 0.
    built.model.fix(VarId(3), 0).unwrap();
    assert!(built.model.propagate().is_err());
    let z = VarId(2);
    let expected = 1.0 + 2.0 / 0.99;
    assert!(
        (built.model.afc(z) - expected).abs() < 1e-9,
        "{}",
        built.model.afc(z)
    );
}

#[test]
fn free_search_lets_the_models_own_search_take_turns_with_dom_w_deg() {
    // Under -f an optimisation's LNS gets the annotation as its alternate way to branch
    // (engine/src/search/lns.rs), and the runs still prove the optimum.
    let text = |ann: &str| {
        format!(
            "var 1..8: x1;\nvar 1..8: x2;\nvar 1..8: x3;\n\
array [1..3] of var int: x :: output_array([1..3]) = [x1,x2,x3];\nvar 0..100: z :: output_var;\n\
constraint fzn_all_different_int(x);\nconstraint int_lin_eq([1,2,3,-1], [x1,x2,x3,z], 0);\n\
solve {ann} minimize z;\n"
        )
    };
    let free = Options {
        free: true,
        ..Options::default()
    };
    let ann = ":: int_search([x3, x1, x2], input_order, indomain_max, complete)";
    let built = flatzinc::load(&text(ann)).unwrap();
    let lns = flatzinc::solve::lns(&built, &free, &config(&built, &free)).unwrap();
    let alternate = lns.alternate.expect("the annotation as the alternate");
    assert_eq!(alternate.val_select, engine::search::ValSelect::Max);
    let order: Vec<usize> = (alternate.branch_vars.unwrap().iter())
        .map(|x| x.index())
        .collect();
    assert_eq!(order, [2, 0, 1], "the annotation's order, x3 first");
    // Without an annotation there is nothing to take turns with.
    let plain = flatzinc::load(&text("")).unwrap();
    let lns = flatzinc::solve::lns(&plain, &free, &config(&plain, &free)).unwrap();
    assert!(lns.alternate.is_none());
    // 1*3 + 2*2 + 3*1 = 10, found and proved.
    let out = solve_text(&text(ann), &free);
    assert!(out.contains("z = 10;\n----------\n==========\n"), "{out}");
}

#[test]
fn free_search_neither_fixes_nor_scans_what_a_constraint_defines() {
    // Under -f, a neighbourhood fixes what it does not free. Fixing the objective to its
    // incumbent value contradicts the bound it must beat, and fixing a partial sum
    // (`:: is_defined_var`) freezes the terms it sums: so LNS frees and fixes only the
    // decisions, and dom/wdeg scans only them (the defined ones complete the leaf).
    let text = "var 1..8: x1;\nvar 1..8: x2;\nvar 1..8: x3;\n\
var 2..16: s :: is_defined_var;\nvar 3..24: z :: is_defined_var :: output_var;\n\
array [1..3] of var int: x :: output_array([1..3]) = [x1,x2,x3];\n\
constraint fzn_all_different_int(x);\n\
constraint int_lin_eq([1,1,-1], [x1,x2,s], 0) :: defines_var(s);\n\
constraint int_lin_eq([1,1,-1], [s,x3,z], 0) :: defines_var(z);\n\
solve :: int_search([x1,x2,x3,z], input_order, indomain_max, complete) minimize z;\n";
    let free = Options {
        free: true,
        ..Options::default()
    };
    let built = flatzinc::load(text).unwrap();
    let names = |vars: &[VarId]| -> Vec<usize> { vars.iter().map(|x| x.index()).collect() };
    let decisions = names(&built.decision_vars[..3]);
    let config = config(&built, &free);
    assert_eq!(names(config.branch_vars.as_ref().unwrap()), decisions);
    let lns = flatzinc::solve::lns(&built, &free, &config).unwrap();
    assert_eq!(names(&lns.vars), decisions, "neither s nor the objective z");
    for group in &lns.groups {
        assert!(names(group).iter().all(|x| decisions.contains(x)));
    }
    // The model's own search (no -f) still branches on what it names, z included.
    let own = config_of(&built);
    assert_eq!(own.branch_vars.unwrap().len(), 4);
    // 1 + 2 + 3 = 6, found and proved.
    let out = solve_text(text, &free);
    assert!(out.contains("----------\n==========\n"), "{out}");
}

fn config_of(built: &flatzinc::Built) -> engine::SearchConfig {
    config(built, &Options::default())
}

/// `set_search` as Gecode reads it: the set by its number of undecided values (input
/// order, fewest, most), then its least (greatest) undecided value, included first
/// (`indomain_min`/`max`) or excluded first (`outdomain_*`, and `indomain` as `nosets.mzn`
/// read it). A has 1..3 undecided, B holds 4 and may hold 5, C has 6..9 undecided.
#[test]
fn set_search_picks_the_set_and_the_value_gecode_picks() {
    let sets = "var set of 1..3: A;\nvar set of 4..5: B;\nvar set of 6..9: C;\n\
        constraint set_in(4, B);\n";
    let boolean_of = |text: &str, d: Decision| -> (i32, i32) {
        let built = flatzinc::load(text).unwrap();
        for name in ["A", "B", "C"] {
            let Some(flatzinc::build::Value::SetVar(s)) = built.names.get(name) else {
                panic!("{name}")
            };
            if let Some(&(v, _)) = s.elements.iter().find(|e| e.1 == d.var) {
                assert_eq!(d.op, DecisionOp::Eq);
                return (v, d.value);
            }
        }
        panic!("the decision is on no set's boolean: {d:?}")
    };
    for (var_choice, val_choice, expected) in [
        ("input_order", "indomain_min", (1, 1)),
        ("first_fail", "indomain_min", (5, 1)),
        ("anti_first_fail", "indomain_min", (6, 1)),
        ("input_order", "indomain_max", (3, 1)),
        ("input_order", "outdomain_min", (1, 0)),
        ("anti_first_fail", "outdomain_max", (9, 0)),
        ("input_order", "indomain", (1, 0)),
    ] {
        let solve = format!(
            "solve :: set_search([A, B, C], {var_choice}, {val_choice}, complete) satisfy;"
        );
        let d = first_decision(sets, &solve);
        let text = format!("{sets}{solve}\n");
        assert_eq!(boolean_of(&text, d), expected, "{var_choice}, {val_choice}");
    }
    let text = format!(
        "{sets}solve :: set_search([A, B, C], smallest, indomain_split, complete) satisfy;\n"
    );
    let plan = flatzinc::search::plan(&flatzinc::load(&text).unwrap());
    assert_eq!(
        plan.unsupported,
        vec![
            "set_search: value choice 'indomain_split' (indomain_min used)".to_string(),
            "set_search: variable choice 'smallest' (input_order used)".to_string(),
        ]
    );
}
