//! A fuzz corpus: bad and extreme inputs for every puzzle, each held to the contract. Either
//! exit 2 with exactly one `error:` line on standard error, or exit 0 with a verdict (every
//! answer `cpsolve` prints has passed the puzzle's checker first, else it exits 1). Never a
//! panic, never exit 1.
//!
//! The inputs: the files of `cli/tests/corpus/` (`PUZZLE-what.txt`), and mutations of each
//! puzzle's built-in example generated here (cut short, a byte replaced, lines doubled or
//! dropped, a huge token, huge numbers). Runs go through [`cli::run`] with `-t 200`.

use std::path::Path;

/// The mutations of one text: deterministic, a few dozen per puzzle.
fn mutations(seed: &str) -> Vec<String> {
    let mut out = vec![
        String::new(),
        "% only a comment\n".to_string(),
        seed.replace('\n', "\r\n"),
        format!("\u{feff}{seed}"),
        format!("{seed}\n{seed}"),
        seed.replace(' ', "\t"),
        format!("{}\n{seed}", "x".repeat(100_000)),
        seed.lines().rev().collect::<Vec<_>>().join("\n"),
    ];
    for cut in [1, 3, 7, 10, 20, 40] {
        let at = seed.len() * cut / 41;
        if seed.is_char_boundary(at) {
            out.push(seed[..at].to_string());
        }
    }
    let lines: Vec<&str> = seed.lines().collect();
    for skip in 0..lines.len().min(6) {
        let kept: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != skip)
            .map(|(_, l)| *l)
            .collect();
        out.push(kept.join("\n"));
    }
    let bytes: Vec<char> = seed.chars().collect();
    for (k, replacement) in [
        "#",
        "0",
        "-1",
        "99999999999999999999",
        "é",
        ":",
        ">",
        ",",
        "\\",
    ]
    .iter()
    .enumerate()
    {
        if bytes.is_empty() {
            break;
        }
        let at = (k * 7919 + 13) % bytes.len();
        let mut text: String = bytes[..at].iter().collect();
        text.push_str(replacement);
        text.extend(&bytes[at + 1..]);
        out.push(text);
    }
    out
}

/// Run one input; `Ok(true)`: a verdict, `Ok(false)`: a clean error, `Err`: a broken rule.
fn verdict(puzzle: &str, input: &[u8]) -> Result<bool, String> {
    let args = [puzzle, "-", "-t", "200"];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = cli::run(&args, &mut &input[..], &mut out, &mut err);
    let err = String::from_utf8_lossy(&err);
    match status {
        0 => Ok(true),
        2 if err.lines().count() == 1 && err.starts_with("error: ") && err.len() < 1000 => {
            Ok(false)
        }
        _ => Err(format!(
            "exit {status}, stderr {:?} ({} bytes)",
            err.chars().take(300).collect::<String>(),
            err.len()
        )),
    }
}

#[test]
fn every_bad_input_gets_one_error_line_or_a_checked_verdict() {
    let (mut tried, mut clean, mut accepted) = (0, 0, 0);
    let mut broken = Vec::new();
    let mut check = |puzzle: &str, what: &str, input: &[u8]| {
        tried += 1;
        match verdict(puzzle, input) {
            Ok(true) => accepted += 1,
            Ok(false) => clean += 1,
            Err(why) => broken.push(format!("{puzzle} {what}: {why}")),
        }
    };
    for kind in puzzles::all() {
        if kind.input != puzzles::Input::File {
            continue;
        }
        for (i, text) in mutations(kind.seed).iter().enumerate() {
            check(kind.name, &format!("mutation {i}"), text.as_bytes());
        }
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("cli/tests/corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let puzzle = name.split('-').next().unwrap();
        assert!(
            puzzles::find(puzzle).is_some(),
            "{name}: no puzzle '{puzzle}'"
        );
        check(puzzle, &name, &std::fs::read(file).unwrap());
    }
    println!("corpus: {tried} tried, {clean} clean errors, {accepted} verdicts accepted");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(clean > 0 && accepted > 0);
}
