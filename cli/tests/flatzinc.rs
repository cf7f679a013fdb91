//! `cpsolve model.fzn`: the command-line contract for FlatZinc files (output per the
//! specification, flags, one error line and exit status 2 for bad input).

use std::path::Path;

fn run(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = cli::run(&args, &mut std::io::empty(), &mut out, &mut err);
    (
        status,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn queens() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/minizinc/queens.fzn")
        .to_string_lossy()
        .into_owned()
}

fn wide() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/minizinc/wide.fzn")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_flatzinc_file_is_solved_with_the_standard_flags() {
    let (status, out, _) = run(&[&queens()]);
    assert_eq!(status, 0);
    assert!(out.starts_with("q = array1d(1..8, ["), "{out}");
    assert!(out.ends_with("]);\n----------\n"), "{out}");
    let (status, out, _) = run(&["-a", &queens(), "-s"]);
    assert_eq!(status, 0);
    assert_eq!(out.matches("----------\n").count(), 92);
    assert!(out.contains("==========\n%%%mzn-stat: "), "{out}");
    assert!(out.contains("%%%mzn-stat: nodes="));
    assert!(out.contains("%%%mzn-stat-end\n"));
    let (_, out, _) = run(&["-n", "3", &queens(), "-f", "-r", "7"]);
    assert_eq!(out.matches("----------\n").count(), 3);
    assert!(!out.contains("=========="));
}

#[test]
fn bad_flatzinc_gets_one_error_line_and_status_2() {
    let dir = std::env::temp_dir().join(format!("cpsolve-fzn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.fzn");
    std::fs::write(&file, "var 1..3: x;\nvar float: y;\nsolve satisfy;\n").unwrap();
    let name = file.to_string_lossy().into_owned();
    let (status, out, err) = run(&[&name]);
    assert_eq!(status, 2);
    assert_eq!(out, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("error: {name}:2: ")), "{err}");
    let (status, _, err) = run(&["missing-file.fzn"]);
    assert_eq!(status, 2);
    assert!(
        err.starts_with("error: missing-file.fzn:1: cannot read"),
        "{err}"
    );
}

/// `tests/minizinc/wide.fzn`: variables over up to 4 * 10^9 values (interval domains), a
/// linear equation with coefficients near 10^5, maximised. The optimum is Gecode's.
#[test]
fn a_model_with_wide_domains_is_solved_to_its_optimum() {
    let wide = wide();
    let (status, out, err) = run(&[&wide]);
    assert_eq!(status, 0, "{err}");
    assert!(
        out.ends_with("x = 408345;\ny = 408296;\nz = 816641;\n----------\n==========\n"),
        "{out}"
    );
    // `-p` (which MiniZinc passes): a portfolio, the same answer, nothing said.
    let (status, with_p, err) = run(&["-p", "2", &wide]);
    assert_eq!((status, &with_p), (0, &out));
    assert_eq!(err, "");
    // Beyond the 32-bit values a domain may hold: one error line, status 2.
    let dir = std::env::temp_dir().join(format!("cpsolve-fzn-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("too-wide.fzn");
    std::fs::write(&file, "var 0..3000000000: x;\nsolve satisfy;\n").unwrap();
    let (status, _, err) = run(&[&file.to_string_lossy()]);
    assert_eq!(status, 2);
    assert!(
        err.contains(":1: the domain 0..3000000000 reaches beyond"),
        "{err}"
    );
}

/// cpsolve's own limits reach a FlatZinc search: all 92 queens need hundreds of nodes, so
/// a budget of 10 stops it with what it found, and never with `==========`.
#[test]
fn node_and_failure_limits_stop_a_flatzinc_search() {
    let (_, whole, _) = run(&["-a", &queens(), "-s"]);
    let nodes = |out: &str| -> u64 {
        let line = out.lines().find(|l| l.starts_with("%%%mzn-stat: nodes="));
        line.unwrap()[19..].parse().unwrap()
    };
    assert!(nodes(&whole) > 100, "{whole}");
    for limit in [["--nodes", "10"], ["--failures", "3"]] {
        let (status, out, _) = run(&["-a", &queens(), "-s", limit[0], limit[1]]);
        assert_eq!(status, 0);
        assert!(!out.contains("=========="), "{limit:?}: {out}");
        assert!(out.matches("----------\n").count() < 92, "{limit:?}");
        assert!(nodes(&out) < 30, "{limit:?}: {out}");
    }
    let (_, out, _) = run(&["-a", &queens(), "-s", "--profile"]);
    let timed = out
        .lines()
        .filter(|l| l.starts_with("% ") && !l.ends_with(" 0.000"));
    assert!(timed.count() > 1, "--profile times the propagators: {out}");
}

/// A flag that only a puzzle understands is refused, never dropped silently.
#[test]
fn puzzle_flags_are_refused_on_a_flatzinc_file() {
    for flag in [
        &["--json"][..],
        &["--count"],
        &["-v"],
        &["--trace", "t.jsonl"],
        &["--tree", "t.svg"],
        &["--animate", "a.html"],
        &["--show-domains"],
        &["--var", "input"],
        &["--alldiff", "domain"],
    ] {
        let mut args = vec![queens()];
        args.extend(flag.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let (status, out, err) = run(&args);
        assert_eq!(status, 2, "{flag:?}");
        assert_eq!(out, "");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("{} is for the puzzles", flag[0])),
            "{err}"
        );
    }
}

/// `-p 2`: a portfolio of two searches races for the first solution or the optimum; with
/// `-a` (each solution as found) one search runs, and a warning says so.
#[test]
fn parallel_flag_races_a_portfolio_for_one_answer() {
    let wide = wide();
    let (status, one, _) = run(&[&wide]);
    let (status2, two, err) = run(&[&wide, "-p", "2"]);
    assert_eq!((status, status2), (0, 0));
    assert_eq!(err, "");
    let optimum = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("z = "))
            .map(String::from)
    };
    assert_eq!(optimum(&one), optimum(&two), "the same optimum: {two}");
    assert!(two.ends_with("----------\n==========\n"), "{two}");
    let (_, out, _) = run(&[&queens(), "-p", "2"]);
    assert_eq!(out.matches("----------\n").count(), 1, "{out}");
    let (status, out, err) = run(&["-a", &queens(), "-p", "2"]);
    assert_eq!(status, 0);
    assert_eq!(out.matches("----------\n").count(), 92);
    assert!(err.starts_with("warning: -p: "), "{err}");
}

#[test]
fn an_unsupported_search_annotation_is_named_once_on_stderr() {
    let dir = std::env::temp_dir().join(format!("cpsolve-fzn-ann-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ann.fzn");
    std::fs::write(
        &file,
        "var 1..3: x :: output_var;\nsolve :: seq_search([float_search([], 0.1, input_order, indomain_split, complete), float_search([], 0.1, input_order, indomain_split, complete), int_search([x], input_order, indomain_max, complete)]) satisfy;\n",
    )
    .unwrap();
    let file = file.to_string_lossy().into_owned();
    let (status, out, err) = run(&[&file]);
    assert_eq!(status, 0);
    // The supported part is followed (indomain_max), the other named once.
    assert_eq!(out, "x = 3;\n----------\n");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    assert!(
        err.contains("search annotation 'float_search' is not supported"),
        "{err}"
    );
    // Under -f (free search) the annotations are not read: nothing to warn about.
    let (_, _, err) = run(&[&file, "-f"]);
    assert!(err.is_empty(), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
