//! The smaller findings of issue 30, on the command line's side: a word quoted in an error
//! line is cut to 40 characters with its length, as docs/cli.md promises (error lines of
//! about 540 characters once quoted whole words); a thermometer may be named `山`; `cpsolve
//! -` reads a FlatZinc model from standard input.

mod common;

use common::cpsolve;

#[test]
fn a_long_word_is_quoted_cut_to_40_characters_in_every_error_line() {
    let long = "x".repeat(1000);
    let digits = "9".repeat(1000);
    let cases: Vec<Vec<&str>> = vec![
        vec![&long],
        vec!["queens", "8", "-t", &digits],
        vec!["queens", "8", "--alldiff", &long],
        vec!["queens", "8", "--restarts", &long],
        vec!["queens", "8", "--var", &long],
        vec!["queens", "8", "--val", &long],
        vec!["pigeonhole", "--viewpoint", &long],
        vec!["queens", "8", "--explain", &long],
        vec!["knights", &digits],
        vec!["merge", &long],
        vec!["solve-part", &long],
        vec!["split", "queens", "8", "--parts", &long],
        vec!["tree", &long, "-o", "x.svg"],
        vec!["tour", &long],
    ];
    for args in cases {
        let ran = cpsolve(&args, b"");
        assert_eq!(ran.status, 2, "{}", ran.stdout);
        let line = ran.stderr.trim_end();
        assert_eq!(ran.stderr.lines().count(), 1, "{line}");
        assert!(line.contains("…' (1000 bytes)"), "{}: {line}", args[0]);
        assert!(
            line.chars().count() < 400,
            "{} characters: {line}",
            line.len()
        );
        assert!(
            !line.contains(&"x".repeat(41)) && !line.contains(&"9".repeat(41)),
            "{line}"
        );
    }
}

#[test]
fn a_long_path_keeps_its_end() {
    let path = format!("/nonexistent/{}/parts.jsonl", "d".repeat(300));
    let ran = cpsolve(&["merge", &path, "results"], b"");
    assert_eq!(ran.status, 2);
    assert!(
        ran.stderr.contains("ddd/parts.jsonl' (325 bytes)"),
        "{}",
        ran.stderr
    );
}

#[test]
fn an_apostrophe_inside_a_word_opens_no_quote() {
    // binairo's message holds "janko's" between two quoted words: nothing of it is cut.
    let ran = cpsolve(&["binairo", "-"], b"x1\n10\n");
    assert_eq!(ran.status, 2);
    assert!(
        ran.stderr.contains("(janko's 2 is written 0, '-' is '.')"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_thermometer_may_be_named_with_any_letters() {
    let ascii = "2 2\n1 1\n1 1\na.1 b.1\nb.2 a.2\n";
    let named = "2 2\n1 1\n1 1\n山.1 川.1\n川.2 山.2\n";
    let run = |text: &str| {
        let ran = cpsolve(&["thermometer", "-", "--count", "--json"], text.as_bytes());
        assert_eq!(ran.status, 0, "{}", ran.stderr);
        ran.json()["count"].clone()
    };
    assert_eq!(run(named), run(ascii));
    assert_eq!(run(named), 2);
    // A name is still letters and digits: punctuation is refused.
    let ran = cpsolve(
        &["thermometer", "-"],
        "2 2\n1 1\n1 1\n山-.1 .\n. .\n".as_bytes(),
    );
    assert_eq!(ran.status, 2, "{}", ran.stdout);
}

#[test]
fn a_flatzinc_model_on_standard_input() {
    let model = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/minizinc/queens.fzn"
    ))
    .unwrap();
    let ran = cpsolve(&["-", "-a"], &model);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert_eq!(ran.stdout.matches("----------\n").count(), 92);
    assert!(ran.stdout.ends_with("==========\n"), "{}", ran.stdout);
    // Not FlatZinc: one error line naming standard input.
    let ran = cpsolve(&["-"], b"8\n");
    assert_eq!(ran.status, 2, "{}", ran.stdout);
    assert!(ran.stderr.starts_with("error: <stdin>:"), "{}", ran.stderr);
    assert_eq!(ran.stderr.lines().count(), 1);
}
