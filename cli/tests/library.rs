//! The `cpsolve` command driven as a library call (`cli::run`): every registered puzzle's
//! seed against `expected.json`, the search modes and their statuses, the error lines of bad
//! input and bad flags, many instances per file, and random bytes that must never panic.
//!
//! Puzzles are found through `puzzles::all()`, so a puzzle registered tomorrow is tested here
//! without a change. Every answer printed is checked again here with the puzzle's checker.

mod common;

use common::*;
use proptest::prelude::*;
use puzzles::Input;
use serde_json::Value;

const STATUSES: &[&str] = &[
    "SATISFIED",
    "OPTIMAL",
    "ALL_SOLUTIONS",
    "UNSATISFIABLE",
    "UNKNOWN",
];

/// The fields a JSON line may have, in the contract's words.
fn assert_json_shape(v: &Value, puzzle: &str, instance: u64) {
    let o = v.as_object().expect("a JSON object");
    for key in o.keys() {
        assert!(
            [
                "puzzle",
                "instance",
                "status",
                "solution",
                "solutions",
                "count",
                "objective",
                "stats"
            ]
            .contains(&key.as_str()),
            "unexpected field {key}"
        );
    }
    assert_eq!(o["puzzle"], puzzle);
    assert_eq!(o["instance"], instance);
    assert!(STATUSES.contains(&o["status"].as_str().unwrap()), "{v}");
    let stats = o["stats"].as_object().expect("stats");
    for key in ["nodes", "failures", "propagations"] {
        assert!(stats[key].is_u64(), "stats.{key}: {v}");
    }
    assert!(stats["time_ms"].as_f64().is_some_and(|t| t >= 0.0));
    for p in stats["propagators"].as_array().expect("stats.propagators") {
        for key in ["instances", "calls", "prunings", "removed", "failures"] {
            assert!(p[key].is_u64(), "propagators[].{key}: {p}");
        }
        assert!(p["name"].is_string());
    }
    let has_solution = o.contains_key("solution");
    let status = o["status"].as_str().unwrap();
    assert_eq!(
        has_solution,
        !matches!(status, "UNSATISFIABLE" | "UNKNOWN") || o.get("count").is_some_and(|c| c != 0),
        "solution present exactly when one was found: {v}"
    );
}

/// The seed's text as a file would hold it (empty for built-in puzzles).
fn seed_text(kind: &puzzles::PuzzleKind) -> &'static str {
    kind.seed
}

#[test]
fn help_lists_every_puzzle_one_line_each() {
    for args in [&[][..], &["--help"][..], &["sudoku", "-h"][..]] {
        let ran = cpsolve(args, b"");
        assert_eq!(ran.status, 0, "{args:?}");
        for kind in puzzles::all() {
            let lines: Vec<&str> = ran
                .stdout
                .lines()
                .filter(|l| l.split_whitespace().next() == Some(kind.name))
                .collect();
            assert_eq!(lines.len(), 1, "{}: {}", kind.name, ran.stdout);
            assert!(lines[0].contains(kind.summary));
        }
    }
}

#[test]
fn every_seed_solves_as_expected_in_json() {
    let seeds = registered_seeds();
    assert!(!seeds.is_empty(), "at least one seed puzzle is registered");
    for (kind, want) in seeds {
        let ran = cpsolve(&[kind.name, "--json"], b"");
        assert_eq!(ran.status, 0, "{}: {ran:?}", kind.name);
        let got = ran.json();
        assert_json_shape(&got, kind.name, 1);
        assert_eq!(got["status"], want["status"], "{}", kind.name);
        let solution = got.get("solution").expect("a solution");
        if want.get("solution_unique") != Some(&Value::Bool(false)) {
            assert_eq!(solution, &want["solution"], "{}", kind.name);
        }
        check_answer(kind, seed_text(kind), solution, got["objective"].as_i64())
            .expect("the answer passes the checker");
        if let Some(objective) = want.get("objective") {
            assert_eq!(&got["objective"], objective, "{}", kind.name);
        } else {
            assert!(got.get("objective").is_none(), "{}", kind.name);
        }
    }
}

#[test]
fn every_seed_prints_minizinc_text() {
    for (kind, want) in registered_seeds() {
        let ran = cpsolve(&[kind.name, "-s"], b"");
        assert_eq!(ran.status, 0, "{}: {ran:?}", kind.name);
        let lines: Vec<&str> = ran.stdout.lines().collect();
        assert_eq!(lines.iter().filter(|l| **l == "----------").count(), 1);
        let end = lines
            .iter()
            .position(|l| l.starts_with("%%%mzn-stat"))
            .unwrap();
        // A proved optimum ends with ==========; a first solution does not.
        let closed = lines[end - 1] == "==========";
        assert_eq!(closed, want["status"] == "OPTIMAL", "{}", kind.name);
        for name in [
            "nodes",
            "failures",
            "restarts",
            "propagations",
            "peakDepth",
            "solveTime",
        ] {
            assert!(
                ran.stdout.contains(&format!("%%%mzn-stat: {name}=")),
                "{name}"
            );
        }
        let stat_end = lines.iter().position(|l| *l == "%%%mzn-stat-end").unwrap();
        assert!(lines[end..stat_end]
            .iter()
            .all(|l| l.starts_with("%%%mzn-stat: ") && l.contains('=')));
        assert!(lines[stat_end + 1..].iter().all(|l| l.starts_with('%')));
    }
}

#[test]
fn every_seed_counts_as_expected_with_one_and_two_threads() {
    for (kind, want) in registered_seeds() {
        let Some(count) = want.get("count") else {
            continue;
        };
        for threads in ["1", "2"] {
            let ran = cpsolve(&[kind.name, "--count", "--json", "-p", threads], b"");
            assert_eq!(ran.status, 0, "{}: {ran:?}", kind.name);
            let got = ran.json();
            assert_json_shape(&got, kind.name, 1);
            assert_eq!(got["status"], "ALL_SOLUTIONS", "{}", kind.name);
            assert_eq!(&got["count"], count, "{} -p {threads}", kind.name);
            if let Some(solution) = got.get("solution") {
                check_answer(kind, seed_text(kind), solution, got["objective"].as_i64()).unwrap();
            }
        }
    }
}

#[test]
fn listing_every_solution_agrees_with_the_count() {
    for (kind, want) in registered_seeds() {
        let (Some(count), false) = (want.get("count").and_then(Value::as_u64), kind.optimisation)
        else {
            continue;
        };
        let ran = cpsolve(&[kind.name, "-a", "--json"], b"");
        let got = ran.json();
        assert_json_shape(&got, kind.name, 1);
        assert_eq!(got["status"], "ALL_SOLUTIONS", "{}", kind.name);
        let list = got["solutions"].as_array().unwrap();
        assert_eq!(list.len() as u64, count, "{}", kind.name);
        for (i, s) in list.iter().enumerate() {
            check_solution(kind, seed_text(kind), s).unwrap();
            assert!(!list[..i].contains(s), "{}: no solution twice", kind.name);
        }
        assert_eq!(got["solution"], list[0]);
        // Text: one picture per solution, then ==========.
        let text = cpsolve(&[kind.name, "-a"], b"");
        let separators = text.stdout.lines().filter(|l| *l == "----------").count();
        assert_eq!(separators as u64, count);
        assert_eq!(text.stdout.lines().last(), Some("=========="));
    }
}

#[test]
fn optimisation_lists_improving_solutions_ending_with_the_optimum() {
    for (kind, want) in registered_seeds() {
        let Some(objective) = want.get("objective") else {
            continue;
        };
        let got = cpsolve(&[kind.name, "-a", "--json"], b"").json();
        assert_eq!(got["status"], "OPTIMAL", "{}", kind.name);
        assert_eq!(&got["objective"], objective);
        let list = got["solutions"].as_array().unwrap();
        assert_eq!(list.last(), got.get("solution"));
        // The JSON gives the objective of the last one only (the command checked them all).
        check_answer(kind, seed_text(kind), &got["solution"], objective.as_i64()).unwrap();
    }
}

#[test]
fn colouring_answers_the_seeds_colour_questions() {
    let Some(kind) = puzzles::find("colouring") else {
        eprintln!("skipped: colouring is not registered yet");
        return;
    };
    let want = &expected()["colouring"];
    let three = cpsolve(&["colouring", "--colours", "3", "--json"], b"").json();
    assert_eq!(three["status"], want["colours_3"]["status"]);
    assert!(three.get("solution").is_none());
    let four = cpsolve(&["colouring", "--colours", "4", "--count", "--json"], b"").json();
    assert_eq!(four["status"], "ALL_SOLUTIONS");
    assert_eq!(four["count"], want["colours_4_count"]);
    let text = cpsolve(&["colouring", "--colours", "3"], b"");
    assert_eq!(text.stdout, "=====UNSATISFIABLE=====\n");
    let _ = kind;
}

#[test]
fn tour_solves_every_built_in_instance() {
    let ran = cpsolve(&["tour", "--json"], b"");
    assert_eq!(ran.status, 0, "{ran:?}");
    let lines = ran.json_lines();
    let expected = expected();
    for kind in puzzles::all() {
        let mine: Vec<&Value> = lines.iter().filter(|l| l["puzzle"] == kind.name).collect();
        assert!(!mine.is_empty(), "{} is in the tour", kind.name);
        if let Some(want) = expected.get(kind.name) {
            assert_eq!(mine[0]["status"], want["status"], "{}", kind.name);
        }
    }
    let text = cpsolve(&["tour"], b"");
    assert_eq!(text.status, 0);
    assert!(text.stdout.contains("----------"));
}

// ----- n-queens: a number instead of a file -----------------------------------------------

/// Placements of n non-attacking queens, by brute force over permutations.
fn queens_brute_force(n: usize) -> u64 {
    fn place(rows: &mut Vec<usize>, n: usize) -> u64 {
        let c = rows.len();
        if c == n {
            return 1;
        }
        let mut total = 0;
        for r in 0..n {
            let free = rows
                .iter()
                .enumerate()
                .all(|(c2, &r2)| r2 != r && r2.abs_diff(r) != c - c2);
            if free {
                rows.push(r);
                total += place(rows, n);
                rows.pop();
            }
        }
        total
    }
    place(&mut Vec::new(), n)
}

#[test]
fn queens_modes_and_statuses() {
    for n in 1..=7usize {
        let want = queens_brute_force(n);
        let arg = n.to_string();
        let count = cpsolve(&["queens", &arg, "--count", "--json"], b"").json();
        assert_eq!(count["count"], want, "{n}");
        let expected_status = if want == 0 {
            "UNSATISFIABLE"
        } else {
            "ALL_SOLUTIONS"
        };
        assert_eq!(count["status"], expected_status);
        let all = cpsolve(&["queens", &arg, "-a", "--json"], b"").json();
        assert_eq!(all["status"], expected_status);
        assert_eq!(all["solutions"].as_array().unwrap().len() as u64, want);
        let first = cpsolve(&["queens", &arg, "--json"], b"").json();
        assert_eq!(
            first["status"],
            if want == 0 {
                "UNSATISFIABLE"
            } else {
                "SATISFIED"
            }
        );
    }
    // -n stops early (SATISFIED), or finds fewer and knows it has them all.
    let two = cpsolve(&["queens", "6", "-n", "2", "--json"], b"").json();
    assert_eq!(two["status"], "SATISFIED");
    assert_eq!(two["solutions"].as_array().unwrap().len(), 2);
    let ten = cpsolve(&["queens", "6", "-n", "10", "--json"], b"").json();
    assert_eq!(ten["status"], "ALL_SOLUTIONS");
    assert_eq!(ten["solutions"].as_array().unwrap().len(), 4);
    // Text: three pictures, no ==========.
    let text = cpsolve(&["queens", "6", "-n", "3"], b"");
    assert_eq!(text.stdout.matches("----------\n").count(), 3);
    assert!(!text.stdout.contains("=========="));
    // The number may come on standard input.
    let stdin = cpsolve(&["queens", "-", "--count", "--json"], b"6\n").json();
    assert_eq!(stdin["count"], 4);
}

#[test]
fn limits_give_a_correct_answer_or_unknown() {
    let kind = puzzles::find("queens").unwrap();
    // A node limit: deterministic, stops the count early.
    let ran = cpsolve(
        &[
            "queens", "8", "--count", "--nodes", "10", "-p", "1", "--json",
        ],
        b"",
    );
    let got = ran.json();
    assert_eq!(got["status"], "UNKNOWN");
    assert!(got["count"].as_u64().unwrap() < 92);
    let text = cpsolve(&["queens", "8", "--count", "--nodes", "10", "-p", "1"], b"");
    assert!(text.stdout.ends_with("=====UNKNOWN=====\n"), "{text:?}");
    // A time limit: whatever it stops at, what is shown is right.
    for args in [
        &["queens", "40", "-t", "1", "--json"][..],
        &["queens", "28", "-a", "-t", "20", "--json"][..],
        &["queens", "30", "--count", "-t", "20", "--json"][..],
        &["queens", "50", "-t", "5", "-f", "--json"][..],
    ] {
        let got = cpsolve(args, b"").json();
        let status = got["status"].as_str().unwrap();
        assert!(
            ["SATISFIED", "UNKNOWN", "ALL_SOLUTIONS"].contains(&status),
            "{got}"
        );
        for s in got.get("solution").into_iter().chain(
            got.get("solutions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        ) {
            check_solution(kind, args[1], s).expect("a solution under a limit is right");
        }
        if status == "UNKNOWN" && got.get("count").is_none() {
            assert!(got.get("solution").is_none());
        }
    }
    // With no time at all, nothing wrong is printed.
    let text = cpsolve(&["queens", "60", "-t", "0"], b"");
    assert_eq!(text.status, 0);
    assert!(text.stdout == "=====UNKNOWN=====\n" || text.stdout.ends_with("----------\n"));
}

#[test]
fn free_search_restarts_and_seeds_keep_answers_right() {
    let kind = puzzles::find("queens").unwrap();
    for args in [
        &["queens", "20", "-f", "--json"][..],
        &["queens", "20", "-f", "-r", "7", "--json"][..],
        &["queens", "20", "--restarts", "luby", "--json"][..],
        &[
            "queens",
            "20",
            "--restarts",
            "geometric",
            "--alldiff",
            "domain",
            "--json",
        ][..],
        &["queens", "20", "--alldiff", "bounds", "--json"][..],
    ] {
        let got = cpsolve(args, b"").json();
        assert_eq!(got["status"], "SATISFIED", "{args:?}");
        check_solution(kind, "20", &got["solution"]).unwrap();
    }
    // Free search never restarts while counting: the count stays exact.
    let got = cpsolve(&["queens", "7", "-f", "--count", "--json"], b"").json();
    assert_eq!(got["count"], queens_brute_force(7));
    let got = cpsolve(
        &["queens", "6", "-f", "--restarts", "luby", "-a", "--json"],
        b"",
    )
    .json();
    assert_eq!(got["solutions"].as_array().unwrap().len(), 4);
}

#[test]
fn profile_and_trace() {
    let got = cpsolve(&["queens", "8", "--profile", "--json"], b"").json();
    let props = got["stats"]["propagators"].as_array().unwrap();
    assert!(!props.is_empty());
    assert!(props.iter().all(|p| p["time_ms"].as_f64().is_some()));
    let plain = cpsolve(&["queens", "8", "--json"], b"").json();
    let props = plain["stats"]["propagators"].as_array().unwrap();
    // time_ms is always there, and 0 when the time was not measured
    assert!(props.iter().all(|p| p["time_ms"].as_f64() == Some(0.0)));

    let path = scratch("trace.jsonl");
    let ran = cpsolve(
        &[
            "queens",
            "6",
            "--count",
            "-p",
            "2",
            "--trace",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(ran.status, 0, "{ran:?}");
    let trace = std::fs::read_to_string(&path).unwrap();
    let events: Vec<Value> = trace
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        events.iter().filter(|e| e["event"] == "solution").count(),
        4,
        "the trace sees every solution"
    );
    assert!(events.iter().any(|e| e["event"] == "branch"));
    let _ = std::fs::remove_file(path);
}

#[test]
fn verbose_progress_goes_to_stderr_only() {
    let ran = cpsolve(&["queens", "8", "-v", "--json"], b"");
    assert_eq!(ran.status, 0);
    let _ = ran.json();
    assert!(ran.stderr.lines().all(|l| l.starts_with("% ")), "{ran:?}");
    assert!(!ran.stderr.is_empty());
}

// ----- many instances per file ----------------------------------------------------------------

#[test]
fn sudoku_files_with_many_instances_answer_each_in_order() {
    let Some(kind) = puzzles::find("sudoku") else {
        eprintln!("skipped: sudoku is not registered yet");
        return;
    };
    let solution = &expected()["sudoku"]["solution"];
    let full: String = solution
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|d| d.to_string()))
        .collect();
    // The seed's solution with more and more cells blanked, and a clash (two 5s in row 1).
    let mut lines = Vec::new();
    for blanks in [0usize, 20, 40, 50, 81] {
        let line: String = full
            .chars()
            .enumerate()
            .map(|(i, c)| if (i * 37) % 81 < blanks { '.' } else { c })
            .collect();
        lines.push(line);
    }
    let mut clash: Vec<char> = full.chars().collect();
    clash[1] = clash[0];
    for c in clash.iter_mut().skip(2) {
        *c = '.';
    }
    lines.insert(3, clash.into_iter().collect());
    let file = format!("% a few Sudokus\n{}\n", lines.join("\n\n"));
    let path = scratch("many.txt");
    std::fs::write(&path, &file).unwrap();
    let path = path.to_str().unwrap();

    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let ran = cpsolve(&["sudoku", path, "--json", "-p", threads], b"");
        assert_eq!(ran.status, 0, "{ran:?}");
        let got = ran.json_lines();
        assert_eq!(got.len(), lines.len());
        for (i, (g, line)) in got.iter().zip(&lines).enumerate() {
            assert_json_shape(g, "sudoku", i as u64 + 1);
            if i == 3 {
                assert_eq!(g["status"], "UNSATISFIABLE");
            } else {
                assert_eq!(g["status"], "SATISFIED");
                check_solution(kind, line, &g["solution"]).unwrap();
            }
        }
        outputs.push(
            got.iter()
                .map(|g| (g["status"].clone(), g.get("solution").cloned()))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(
        outputs[0], outputs[1],
        "the same answers with 1 and 2 threads"
    );
    // The first four on standard input, counted (the others have too many solutions).
    let ran = cpsolve(
        &["sudoku", "-", "--json", "--count"],
        lines[..4].join("\n").as_bytes(),
    );
    let got = ran.json_lines();
    assert_eq!(got.len(), 4);
    assert_eq!(got[0]["count"], 1);
    assert_eq!(got[3]["status"], "UNSATISFIABLE");
    // Text: one block per instance, each closed.
    let ran = cpsolve(&["sudoku", path, "-p", "2"], b"");
    assert_eq!(
        ran.stdout.matches("% sudoku instance ").count(),
        lines.len()
    );
    assert_eq!(ran.stdout.matches("=====UNSATISFIABLE=====").count(), 1);
    let _ = std::fs::remove_file(path);
}

/// With two threads a large file is solved in chunks of consecutive instances (two or more
/// each from 64 instances on); the output must be the one thread's, byte for byte but for
/// the measured times, in JSON and in text, with clashing puzzles among them.
#[test]
fn two_threads_print_what_one_thread_prints_on_a_large_file() {
    if puzzles::find("sudoku").is_none() {
        eprintln!("skipped: sudoku is not registered yet");
        return;
    }
    let puzzles = sudoku_sample();
    let clash = format!("11{}", ".".repeat(79));
    let mut lines = Vec::new();
    for round in 0..4 {
        lines.extend(puzzles.iter().cloned());
        if round == 1 {
            lines.insert(lines.len() - 7, clash.clone());
            lines.insert(lines.len() - 3, clash.clone());
        }
    }
    lines.push(clash);
    assert!(lines.len() >= 80, "enough instances for chunks of two");
    let path = scratch("large.txt");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let path = path.to_str().unwrap();
    let without_times = |text: &str| -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("\"time_ms\":") {
            out.push_str(&rest[..at]);
            rest = rest[at..].trim_start_matches("\"time_ms\":");
            rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        }
        out.push_str(rest);
        out
    };
    for flags in [&["--json"][..], &[][..]] {
        let run = |threads: &str| {
            let mut args = vec!["sudoku", path, "-p", threads];
            args.extend_from_slice(flags);
            let ran = cpsolve(&args, b"");
            assert_eq!(ran.status, 0, "{ran:?}");
            without_times(&ran.stdout)
        };
        let one = run("1");
        assert_eq!(one, run("2"), "flags {flags:?}");
        let unsat = one.matches("UNSATISFIABLE").count();
        assert_eq!(unsat, 3, "the three clashes, flags {flags:?}");
    }
    let ran = cpsolve(&["sudoku", path, "--json", "-p", "2"], b"");
    let got = ran.json_lines();
    assert_eq!(got.len(), lines.len());
    for (i, g) in got.iter().enumerate() {
        assert_eq!(g["instance"], i as u64 + 1, "in file order");
    }
    let _ = std::fs::remove_file(path);
}

/// A batch file solves every puzzle on one shared model, restricted to each puzzle's givens
/// on a trail level (`Instance::shared_model_key`). Each answer, and even each search's node
/// and failure counts, must be what the puzzle gets when it is solved alone on a model of its
/// own; a clash in the middle of the file must not leave anything behind.
#[test]
fn a_batch_on_a_shared_model_answers_as_each_puzzle_alone() {
    if puzzles::find("sudoku").is_none() {
        eprintln!("skipped: sudoku is not registered yet");
        return;
    }
    let mut lines: Vec<String> = sudoku_sample().into_iter().take(12).collect();
    // A clash (two equal givens in row 1) in the middle.
    lines.insert(5, format!("11{}", ".".repeat(79)));
    let batch = lines.join("\n");
    for flags in [
        &["--json", "-p", "1"][..],
        &["--json", "-p", "1", "--count"],
    ] {
        let args: Vec<&str> = ["sudoku", "-"].iter().chain(flags).copied().collect();
        let together = cpsolve(&args, batch.as_bytes()).json_lines();
        assert_eq!(together.len(), lines.len());
        for (i, line) in lines.iter().enumerate() {
            let alone = cpsolve(&args, line.as_bytes()).json();
            let got = &together[i];
            for field in ["status", "solution", "count"] {
                assert_eq!(got.get(field), alone.get(field), "puzzle {} {field}", i + 1);
            }
            for stat in ["nodes", "failures"] {
                assert_eq!(
                    got["stats"][stat],
                    alone["stats"][stat],
                    "puzzle {} stats.{stat} {flags:?}",
                    i + 1
                );
            }
        }
        assert_eq!(together[5]["status"], "UNSATISFIABLE");
    }
}

#[test]
fn shared_sudoku_collection_if_present() {
    if puzzles::find("sudoku").is_none() {
        eprintln!("skipped: sudoku is not registered yet");
        return;
    }
    let Some(path) = engine::testing::data_path("sudoku/norvig_top95.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let first: Vec<&str> = puzzles::common::content_lines(&text)
        .into_iter()
        .map(|(_, l)| l)
        .take(10)
        .collect();
    let ran = cpsolve(
        &["sudoku", "-", "--json", "--alldiff", "domain", "-t", "500"],
        first.join("\n").as_bytes(),
    );
    assert_eq!(ran.status, 0, "{ran:?}");
    let kind = puzzles::find("sudoku").unwrap();
    for (g, line) in ran.json_lines().iter().zip(&first) {
        if let Some(s) = g.get("solution") {
            check_solution(kind, line, s).unwrap();
        } else {
            assert_eq!(g["status"], "UNKNOWN");
        }
    }
}

// ----- bad input, bad usage --------------------------------------------------------------------

/// The puzzles that read text (a file, or N for n-queens).
fn text_kinds() -> Vec<&'static puzzles::PuzzleKind> {
    puzzles::all()
        .iter()
        .filter(|k| k.input != Input::BuiltIn)
        .collect()
}

fn file_kinds() -> Vec<&'static puzzles::PuzzleKind> {
    puzzles::all()
        .iter()
        .filter(|k| k.input == Input::File)
        .collect()
}

#[test]
fn empty_binary_and_broken_files_are_one_error_line() {
    for kind in file_kinds() {
        let cases: [(&str, &[u8], usize); 5] = [
            ("empty", b"", 1),
            ("blank", b"\n\n  \n", 1),
            ("binary", b"\x7fELF\x02\x01\x01\x00\x00\x00", 1),
            ("latin1", b"% ok\n\n\xe9t\xe9\n", 3),
            ("comments", b"% nothing\n% here\n", 1),
        ];
        for (name, bytes, line) in cases {
            let path = scratch(&format!("{}-{name}.txt", kind.name));
            std::fs::write(&path, bytes).unwrap();
            let p = path.to_str().unwrap();
            let ran = cpsolve(&[kind.name, p], b"");
            assert_eq!(
                assert_input_error(&ran, p),
                line,
                "{} {name}: {ran:?}",
                kind.name
            );
            let ran = cpsolve(&[kind.name, "-", "--json"], bytes);
            assert_eq!(
                assert_input_error(&ran, "<stdin>"),
                line,
                "{} {name}",
                kind.name
            );
            let _ = std::fs::remove_file(path);
        }
        let ran = cpsolve(&[kind.name, "/no/such/file.txt"], b"");
        assert_input_error(&ran, "/no/such/file.txt");
    }
}

#[test]
fn a_bad_sudoku_line_is_named() {
    if puzzles::find("sudoku").is_none() {
        eprintln!("skipped: sudoku is not registered yet");
        return;
    }
    let good = "1234341221434321";
    let text = format!("% two 4x4 puzzles\n{good}\n\n{}\n", &good[..15]);
    let ran = cpsolve(&["sudoku", "-"], text.as_bytes());
    assert_eq!(assert_input_error(&ran, "<stdin>"), 4, "{ran:?}");
}

#[test]
fn seed_with_a_line_broken_is_an_error_on_that_line_or_an_answer() {
    // Replace each content line of every seed by garbage: the run either names a line of
    // the file, or (when the line did not matter to the format) answers correctly.
    for kind in file_kinds() {
        let lines: Vec<&str> = kind.seed.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim().is_empty() || line.trim_start().starts_with('%') {
                continue;
            }
            let mut broken = lines.clone();
            broken[i] = "#?@ 7 x";
            let text = broken.join("\n");
            let ran = cpsolve(&[kind.name, "-", "--json", "-t", "2000"], text.as_bytes());
            match ran.status {
                2 => {
                    let at = assert_input_error(&ran, "<stdin>");
                    assert!(at >= 1 && at <= lines.len() + 1, "{}: line {at}", kind.name);
                }
                0 => {
                    for g in ran.json_lines() {
                        if let Some(s) = g.get("solution") {
                            let n = g["instance"].as_u64().unwrap() as usize;
                            let instances = (kind.parse)(&text).unwrap();
                            let answer = puzzles::Answer {
                                json: s.clone().into(),
                                text: String::new(),
                                objective: None,
                            };
                            instances[n - 1].check(&answer).unwrap();
                        }
                    }
                }
                other => panic!("{}: exit {other}: {ran:?}", kind.name),
            }
        }
    }
}

#[test]
fn bad_usage_is_one_error_line_and_exit_2() {
    for args in [
        &["nosuchpuzzle"][..],
        &["queens", "--frobnicate"],
        &["queens", "-n"],
        &["queens", "-n", "0"],
        &["queens", "-p", "zero"],
        &["queens", "-t", "soon"],
        &["queens", "--alldiff", "strong"],
        &["queens", "--sum", "tight"],
        &["queens", "--restarts", "often"],
        &["queens", "--count", "-a"],
        &["queens", "8", "9"],
        &["tour", "file.txt"],
        &["queens", "--trace", "/no/such/dir/trace.jsonl"],
    ] {
        let ran = cpsolve(args, b"");
        assert_eq!(ran.status, 2, "{args:?}: {ran:?}");
        assert_eq!(ran.stdout, "", "{args:?}");
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {ran:?}");
        assert!(ran.stderr.starts_with("error: "), "{args:?}");
    }
    let ran = cpsolve(&["queens", "abc"], b"");
    assert_input_error(&ran, "<command line>");
    if let Some(built_in) = puzzles::all().iter().find(|k| k.input == Input::BuiltIn) {
        let ran = cpsolve(&[built_in.name, "file.txt"], b"");
        assert_eq!(ran.status, 2);
    }
}

#[test]
fn an_answer_that_fails_its_checker_is_an_internal_error() {
    // A puzzle whose checker rejects everything: the command must refuse to print.
    #[derive(Debug)]
    struct Liar;
    impl puzzles::Instance for Liar {
        fn build(&self, o: &puzzles::ModelOptions) -> Result<puzzles::Built, String> {
            (puzzles::find("queens").unwrap().parse)("4").unwrap()[0].build(o)
        }
        fn answer(&self, _: &puzzles::Built, _: &engine::Solution) -> puzzles::Answer {
            puzzles::Answer {
                json: Value::Null.into(),
                text: "?".into(),
                objective: None,
            }
        }
        fn check(&self, _: &puzzles::Answer) -> Result<(), String> {
            Err("always wrong".into())
        }
    }
    let options = cli::args::parse(&["queens".to_string()]).unwrap();
    let plan = cli::solve::Plan {
        kind: puzzles::find("queens").unwrap(),
        options: &options,
        threads: 1,
    };
    let result = cli::solve::solve(
        &plan,
        &Liar,
        &mut Default::default(),
        &mut engine::search::NoListener,
        None,
    );
    match result {
        Err(cli::Failure::Internal(m)) => assert!(m.contains("always wrong")),
        other => panic!("an internal error expected, got {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the bytes, every puzzle answers (exit 0, JSON lines) or names the problem
    /// (exit 2, one line): never a panic.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..160), which in 0usize..64) {
        let kinds = text_kinds();
        let kind = kinds[which % kinds.len()];
        let ran = cpsolve(&[kind.name, "-", "--json", "-t", "200", "-p", "1"], &bytes);
        prop_assert!(ran.status == 0 || ran.status == 2, "{}: {ran:?}", kind.name);
        prop_assert!(!ran.stderr.contains("internal error"), "{}: {ran:?}", kind.name);
        if ran.status == 0 {
            for line in ran.stdout.lines() {
                prop_assert!(serde_json::from_str::<Value>(line).is_ok());
            }
        } else {
            prop_assert_eq!(ran.stderr.lines().count(), 1);
            prop_assert!(ran.stderr.starts_with("error: <stdin>:"));
        }
    }

    /// Text that looks like the seed, slightly changed: the same promise.
    #[test]
    fn mutated_seeds_never_panic(which in 0usize..64, edits in proptest::collection::vec((0usize..400, any::<u8>()), 1..6)) {
        let kinds = text_kinds();
        let kind = kinds[which % kinds.len()];
        let mut bytes = kind.seed.as_bytes().to_vec();
        for (at, b) in edits {
            if !bytes.is_empty() {
                let i = at % bytes.len();
                bytes[i] = b;
            }
        }
        let ran = cpsolve(&[kind.name, "-", "--json", "-t", "200", "-p", "1"], &bytes);
        prop_assert!(ran.status == 0 || ran.status == 2, "{}: {ran:?}", kind.name);
        prop_assert!(!ran.stderr.contains("internal error"), "{}: {ran:?}", kind.name);
    }
}
