//! A fuzz corpus: bad and extreme inputs for every puzzle and for FlatZinc, each held to the
//! contract. Either exit 2 with exactly one `error:` line on standard error, or exit 0 with a
//! verdict (every answer a puzzle prints has passed the puzzle's checker first, else it exits
//! 1; a FlatZinc answer must have the specification's shape). Never a panic, never exit 1.
//!
//! The inputs: the files of `cli/tests/corpus/` (`PUZZLE-what.txt` or `.non`, read from
//! standard input; `fzn-what.fzn`, run as a FlatZinc file), and mutations generated here of
//! each puzzle's built-in example and of the FlatZinc files `tests/minizinc/queens.fzn` and
//! `cli/tests/corpus/fzn-minimize.fzn` (cut short, a byte replaced, lines doubled or dropped,
//! a huge token, huge numbers). Runs go through [`cli::run`] with `-t 200`.

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
    judge(status, &err, || Ok(()))
}

/// The rule shared by puzzles and FlatZinc: exit 0 (then `answer_ok` looks at the output) or
/// exit 2 with one short `error:` line.
fn judge(
    status: i32,
    err: &[u8],
    answer_ok: impl FnOnce() -> Result<(), String>,
) -> Result<bool, String> {
    let err = String::from_utf8_lossy(err);
    match status {
        0 => answer_ok().map(|()| true),
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

/// Run one FlatZinc file: a clean error, or output in the specification's shape (solutions
/// of `name = value;` lines each closed by `----------`, then at most one final line).
fn flatzinc_verdict(path: &Path) -> Result<bool, String> {
    let args = [path.to_str().unwrap(), "-t", "200"];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = cli::run(&args, &mut std::io::empty(), &mut out, &mut err);
    judge(status, &err, || {
        let text = String::from_utf8(out).map_err(|e| e.to_string())?;
        let finals = ["==========", "=====UNSATISFIABLE=====", "=====UNKNOWN====="];
        let lines: Vec<&str> = text.lines().collect();
        let mut in_solution = false;
        for (i, line) in lines.iter().enumerate() {
            if finals.contains(line) {
                if i + 1 != lines.len() {
                    return Err(format!("{line:?} is not the last line:\n{text}"));
                }
            } else if *line == "----------" {
                in_solution = false;
            } else if line.contains(" = ") && line.ends_with(';') {
                in_solution = true;
            } else {
                return Err(format!("unexpected line {line:?}:\n{text}"));
            }
        }
        if in_solution || lines.is_empty() {
            return Err(format!("no verdict, or a solution not closed:\n{text}"));
        }
        Ok(())
    })
}

#[test]
fn every_bad_input_gets_one_error_line_or_a_checked_verdict() {
    let (mut tried, mut clean, mut accepted) = (0, 0, 0);
    let mut broken = Vec::new();
    let mut count = |what: String, result: Result<bool, String>| {
        tried += 1;
        match result {
            Ok(true) => accepted += 1,
            Ok(false) => clean += 1,
            Err(why) => broken.push(format!("{what}: {why}")),
        }
    };
    for kind in puzzles::all() {
        if kind.input != puzzles::Input::File {
            continue;
        }
        for (i, text) in mutations(kind.seed).iter().enumerate() {
            let what = format!("{} mutation {i}", kind.name);
            count(what, verdict(kind.name, text.as_bytes()));
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("cli/tests/corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    files.sort();
    let (mut fzn_tried, mut fzn_clean) = (0, 0);
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".fzn") {
            let result = flatzinc_verdict(file);
            fzn_tried += 1;
            fzn_clean += usize::from(result == Ok(false));
            count(name, result);
            continue;
        }
        let puzzle = name.split('-').next().unwrap();
        assert!(
            puzzles::find(puzzle).is_some(),
            "{name}: no puzzle '{puzzle}'"
        );
        count(name.clone(), verdict(puzzle, &std::fs::read(file).unwrap()));
    }
    // FlatZinc mutations, written to files (a FlatZinc model is read from its path).
    let scratch = std::env::temp_dir().join(format!("cpsolve-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for seed in [
        root.join("../tests/minizinc/queens.fzn"),
        corpus.join("fzn-minimize.fzn"),
    ] {
        let text = std::fs::read_to_string(&seed).unwrap();
        for (i, mutated) in mutations(&text).iter().enumerate() {
            let path = scratch.join(format!("mutation-{i}.fzn"));
            std::fs::write(&path, mutated).unwrap();
            let result = flatzinc_verdict(&path);
            fzn_tried += 1;
            fzn_clean += usize::from(result == Ok(false));
            count(format!("{} mutation {i}", seed.display()), result);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("corpus: {tried} tried, {clean} clean errors, {accepted} verdicts accepted");
    println!(
        "of which FlatZinc: {fzn_tried} tried, {fzn_clean} clean errors, {} verdicts accepted",
        fzn_tried - fzn_clean
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(clean > 0 && accepted > 0);
}
