//! `cpsolve help`, `cpsolve help PUZZLE`, "did you mean" on a misspelt puzzle, and the lists
//! of accepted flags that error lines give: each must agree with what the command does.

mod common;

use common::*;

/// The one `error:` line of a usage error, and nothing on standard output.
fn usage_error(ran: &Ran) -> &str {
    assert_eq!(ran.status, 2, "{ran:?}");
    assert_eq!(ran.stdout, "", "{ran:?}");
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{ran:?}");
    assert!(lines[0].starts_with("error: "), "{ran:?}");
    lines[0]
}

#[test]
fn help_is_a_command_that_exits_0() {
    let help = cpsolve(&["help"], b"");
    assert_eq!(help.status, 0, "{help:?}");
    assert_eq!(help.stderr, "");
    assert_eq!(help.stdout, cpsolve(&["--help"], b"").stdout);
}

#[test]
fn help_of_every_puzzle_names_its_input_example_and_flags() {
    for kind in puzzles::all() {
        let ran = cpsolve(&["help", kind.name], b"");
        assert_eq!(ran.status, 0, "{}: {ran:?}", kind.name);
        let text = &ran.stdout;
        assert!(
            text.starts_with(&format!("{}: {}", kind.name, kind.summary)),
            "{text}"
        );
        assert!(
            text.contains(&format!("usage: cpsolve {} ", kind.name)),
            "{text}"
        );
        if let Some(file) = kind.seed_file {
            assert!(text.contains(&format!("example: puzzles/{file}")), "{text}");
        }
        if let Some(page) = kind.page {
            assert!(text.contains(page), "{text}");
        }
        for flag in puzzles::PuzzleFlag::ALL {
            let own = text
                .lines()
                .any(|l| l.starts_with("its own flag:") && l.contains(flag.spelling()));
            assert_eq!(own, kind.takes(flag), "{}: {}", kind.name, flag.spelling());
        }
        for alias in kind.aliases {
            assert_eq!(cpsolve(&["help", alias], b"").stdout, ran.stdout, "{alias}");
        }
        // The defaults line names the levels, and the probing and learning the puzzle
        // turns on by itself (nonograms probe at every node, colouring learns).
        let defaults = text
            .lines()
            .find(|l| l.starts_with("defaults: "))
            .unwrap_or_else(|| panic!("{}: no defaults line: {text}", kind.name));
        assert!(
            defaults.contains(&format!("--alldiff {}", kind.defaults.alldiff)),
            "{defaults}"
        );
        assert_eq!(
            defaults.contains(" --learn"),
            kind.defaults.learn,
            "{}: {defaults}",
            kind.name
        );
        assert_eq!(
            defaults.contains(" --probe-at "),
            kind.defaults.probe != engine::search::probing::ProbeAt::Off,
            "{}: {defaults}",
            kind.name
        );
    }
}

#[test]
fn help_of_each_command_says_how_to_use_it() {
    for command in ["help", "tour", "tree", "split", "solve-part", "merge"] {
        let ran = cpsolve(&["help", command], b"");
        assert_eq!(ran.status, 0, "{command}: {ran:?}");
        assert!(
            ran.stdout.contains(&format!("usage: cpsolve {command} ")),
            "{command}: {}",
            ran.stdout
        );
    }
    let extra = cpsolve(&["help", "sudoku", "kakuro"], b"");
    assert!(usage_error(&extra).contains("'kakuro'"));
}

#[test]
fn help_lists_every_subcommand_and_file_kind() {
    let help = cpsolve(&["--help"], b"").stdout;
    for command in ["help", "tour", "tree", "split", "solve-part", "merge"] {
        assert!(
            help.contains(&format!("cpsolve {command} ")),
            "{command}: {help}"
        );
    }
    for kind in ["model.fzn", "model.mzn", ".fzn", ".mzn", ".dzn", ".jsonl"] {
        assert!(help.contains(kind), "{kind}: {help}");
    }
}

#[test]
fn a_misspelt_puzzle_gets_the_nearest_name() {
    for (typed, meant) in [
        ("sudokku", "sudoku"),
        ("queen", "queens"),
        ("kakkuro", "kakuro"),
        ("binary-sudoko", "binary-sudoku"),
        ("toor", "tour"),
    ] {
        let ran = cpsolve(&[typed], b"");
        let line = usage_error(&ran);
        assert!(
            line.contains(&format!("did you mean '{meant}'?")),
            "{typed}: {line}"
        );
        let ran = cpsolve(&["help", typed], b"");
        assert!(usage_error(&ran).contains(&format!("did you mean '{meant}'?")));
    }
    // Nothing near: no guess, but the list of what there is.
    let line = usage_error(&cpsolve(&["chess"], b"")).to_string();
    assert!(!line.contains("did you mean"), "{line}");
    assert!(line.contains("sudoku") && line.contains("tour") && line.contains(".fzn"));
}

#[test]
fn a_misspelt_flag_gets_the_nearest_spelling() {
    let line = usage_error(&cpsolve(&["queens", "--colour", "3"], b"")).to_string();
    assert!(line.contains("did you mean '--colours'?"), "{line}");
    let line = usage_error(&cpsolve(&["queens", "--jsno"], b"")).to_string();
    assert!(line.contains("did you mean '--json'?"), "{line}");
}

/// The flags an error line lists as accepted, after "takes".
fn listed_as_accepted(line: &str) -> Vec<String> {
    let after = line.split(" takes ").last().expect("a list");
    let list = after.split(" (see").next().unwrap();
    list.split_whitespace().map(String::from).collect()
}

/// A value a flag of the list accepts (those without a value take none).
fn with_value(flag: &str) -> Vec<&str> {
    match flag {
        "-n" | "-p" | "-t" | "--nodes" | "--failures" => vec![flag, "5"],
        "-r" => vec![flag, "1"],
        "--explain" => vec![flag, "X_INTRODUCED_0_"],
        _ => vec![flag],
    }
}

/// `cpsolve model.mzn --count` names the flags a MiniZinc model takes; each of them must then
/// be taken (never refused), and the flag refused must not be among them. The same for a
/// FlatZinc file, whose list has `--explain`, which a MiniZinc model refuses.
#[test]
fn the_flags_listed_as_accepted_are_accepted() {
    let fzn = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/minizinc/queens.fzn")
        .to_string_lossy()
        .into_owned();
    // A model that does not exist: a flag that is taken reaches minizinc (or its absence),
    // which fails for another reason than the flag.
    let mzn = scratch("no-such-model.mzn").to_string_lossy().into_owned();
    for (model, explain_taken) in [(&fzn, true), (&mzn, false)] {
        let refused = cpsolve(&[model.as_str(), "--count"], b"");
        let line = usage_error(&refused).to_string();
        assert!(line.contains("--count is for the puzzles"), "{line}");
        let accepted = listed_as_accepted(&line);
        assert!(accepted.contains(&"-a".to_string()), "{line}");
        assert!(!accepted.contains(&"--count".to_string()), "{line}");
        assert_eq!(
            accepted.contains(&"--explain".to_string()),
            explain_taken,
            "{line}"
        );
        for flag in &accepted {
            let mut args = vec![model.as_str()];
            args.extend(with_value(flag));
            args.extend(["-t", "2000"]);
            let ran = cpsolve(&args, b"");
            assert!(
                !ran.stderr.contains("is for the puzzles")
                    && !ran.stderr.contains("takes a FlatZinc file"),
                "{model}: {flag} is listed as accepted, then refused: {}",
                ran.stderr
            );
        }
        let explain = cpsolve(&[model.as_str(), "--explain", "X_INTRODUCED_0_"], b"");
        assert_eq!(
            explain.stderr.contains("--explain takes a FlatZinc file"),
            !explain_taken,
            "{}",
            explain.stderr
        );
    }
}
