//! Every command in the README and in docs/ runs as written and prints what the text says.
//!
//! The test reads the fenced blocks of `README.md` and `docs/**/*.md` (unmarked, or marked
//! `sh`, `bash` or `console`; a plain block's lines count when they start with a command such
//! as `cpsolve` or `cargo`) and runs their commands with `bash` from a copy of the repository's top level (symbolic links, so that
//! files a command writes land in a temporary folder), `cpsolve` on the `PATH`:
//!
//! - a transcript (`$ command` lines, each followed by its output) is checked line by line:
//!   every line shown must appear in the real output, in order; a line `...` stands for any
//!   number of lines, and `...` inside a line for any text;
//! - a command quoted in the prose (a `` `cpsolve ...` `` or `` `cargo ...` `` span) must run
//!   with exit status 0;
//! - a block of plain commands (no `$`) must run with exit status 0, or with the status a
//!   `# exit N` comment at the end of the line states; when it holds one command and a
//!   ```text block follows it, that block is its output, checked as above.
//!
//! `cargo run --release -p P --example E -- ARGS` runs the example this test build compiled
//! (`target/<profile>/examples/E`), `cargo run --release -p cli -- ARGS` runs `cpsolve ARGS`;
//! other `cargo` commands (builds, tests, benchmarks) are not run here. A command that reads
//! `../shared` is skipped, saying so, and so is a command whose line says
//! `<!-- not checked: REASON -->` (prose) or ends in `# not checked: REASON` (a block), when that folder is absent. A file whose first line
//! is `<!-- commands not checked: REASON -->` (the performance records, whose commands take
//! minutes each) is left out, and the test prints which files it left out and why.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command found in the docs, with where it stands and what it must print.
#[derive(Debug)]
struct DocCommand {
    file: String,
    line: usize,
    command: String,
    expected: Option<Vec<String>>,
    status: i32,
    /// Why the docs say it is not run here (`<!-- not checked: ... -->` on its line, or a
    /// `# not checked: ...` comment after it in a block).
    not_checked: Option<String>,
}

/// The reason a line of markdown gives for not checking its commands.
fn not_checked(line: &str) -> Option<String> {
    let at = line.find("not checked: ")?;
    let reason = &line[at + "not checked: ".len()..];
    Some(reason.trim_end_matches("-->").trim().to_string())
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The commands of one markdown file (its path relative to the repository in messages).
fn commands_of(name: &str, text: &str) -> Vec<DocCommand> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim();
        if !fence.starts_with("```") {
            // Commands quoted in the prose: `cpsolve ...` and `cargo ...` spans.
            for (k, span) in lines[i].split('`').enumerate() {
                if k % 2 == 1
                    && is_command(span)
                    && (span.starts_with("cpsolve ") || span.starts_with("cargo "))
                {
                    let (command, status) = split_status(span);
                    out.push(DocCommand {
                        file: name.to_string(),
                        line: i + 1,
                        command,
                        expected: None,
                        status,
                        not_checked: not_checked(lines[i]),
                    });
                }
            }
        }
        let lang = fence.strip_prefix("```").unwrap_or("-");
        if !matches!(lang, "" | "sh" | "bash" | "console") {
            i += 1;
            if fence.starts_with("```") {
                // Skip the whole block of another language (text, json, ...).
                while i < lines.len() && lines[i].trim() != "```" {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && lines[end].trim() != "```" {
            end += 1;
        }
        let block = &lines[start..end];
        if block.iter().any(|l| l.starts_with("$ ")) {
            // A transcript.
            let mut k = 0;
            while k < block.len() {
                if let Some(cmd) = block[k].strip_prefix("$ ") {
                    let mut expected = Vec::new();
                    let mut j = k + 1;
                    while j < block.len() && !block[j].starts_with("$ ") {
                        expected.push(block[j].to_string());
                        j += 1;
                    }
                    let (command, status) = split_status(cmd);
                    out.push(DocCommand {
                        file: name.to_string(),
                        line: start + k + 1,
                        command,
                        expected: Some(expected),
                        status,
                        not_checked: not_checked(block[k]),
                    });
                    k = j;
                } else {
                    k += 1;
                }
            }
        } else {
            let commands: Vec<(usize, &str)> = block
                .iter()
                .enumerate()
                .filter(|(_, l)| is_command(l))
                .map(|(k, l)| (start + k + 1, *l))
                .collect();
            // A ```text block right after a one-command block is that command's output.
            let mut after = end + 1;
            while after < lines.len() && lines[after].trim().is_empty() {
                after += 1;
            }
            let following =
                (commands.len() == 1 && after < lines.len() && lines[after].trim() == "```text")
                    .then(|| {
                        lines[after + 1..]
                            .iter()
                            .take_while(|l| l.trim() != "```")
                            .map(|l| l.to_string())
                            .collect::<Vec<String>>()
                    });
            for (line, cmd) in commands {
                let (command, status) = split_status(cmd);
                out.push(DocCommand {
                    file: name.to_string(),
                    line,
                    command,
                    expected: following.clone(),
                    status,
                    not_checked: not_checked(cmd),
                });
            }
        }
        i = end + 1;
    }
    out
}

/// Does a line of a plain block start with a command (rather than being a comment, a
/// synopsis or a picture)?
fn is_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "cpsolve" | "cargo" | "printf" | "minizinc" | "bash" | "echo" | "cat" | "ls"
    ) || first.starts_with("target/")
        || first.starts_with("./")
}

/// A command and the exit status its `# exit N` comment states (0 without one); any other
/// trailing `# comment` is dropped.
fn split_status(line: &str) -> (String, i32) {
    match line.split_once("  #") {
        Some((cmd, comment)) => {
            let status = comment
                .trim()
                .strip_prefix("exit ")
                .and_then(|n| n.trim().parse().ok());
            (cmd.trim().to_string(), status.unwrap_or(0))
        }
        None => (line.trim().to_string(), 0),
    }
}

/// Does `line` match the pattern `expected`, where `...` stands for any text?
fn line_matches(expected: &str, line: &str) -> bool {
    let parts: Vec<&str> = expected.trim_end().split("...").collect();
    let line = line.trim_end();
    if parts.len() == 1 {
        return line == parts[0];
    }
    let Some(mut rest) = line.strip_prefix(parts[0]) else {
        return false;
    };
    for (k, part) in parts.iter().enumerate().skip(1) {
        if k == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Do the expected lines appear in `output`, in order (`...` alone: any lines between)?
/// Without a `...` line, the output must be exactly the expected lines.
fn output_matches(expected: &[String], output: &str) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    let gaps = expected.iter().any(|e| e.trim() == "...");
    let mut at = 0;
    let mut free = false;
    for e in expected {
        if e.trim() == "..." {
            free = true;
            continue;
        }
        loop {
            if at >= lines.len() {
                return Err(format!("expected the line {e:?}, not found in order"));
            }
            let hit = line_matches(e, lines[at]);
            at += 1;
            if hit {
                break;
            }
            if !free && !gaps {
                return Err(format!("expected {e:?}, got {:?}", lines[at - 1]));
            }
            if !free && gaps {
                return Err(format!("expected {e:?} next, got {:?}", lines[at - 1]));
            }
        }
        free = false;
    }
    if !gaps && at < lines.len() {
        return Err(format!("more output than shown, from {:?}", lines[at]));
    }
    Ok(())
}

/// The shell command to run for a documented command, or why it is not run.
fn runnable(command: &str, examples: &Path) -> Result<String, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    if words.first() != Some(&"cargo") {
        return Ok(command.to_string());
    }
    if words.get(1) == Some(&"run") {
        let rest = command.split_once(" -- ").map_or("", |(_, r)| r);
        if let Some(k) = words.iter().position(|w| *w == "--example") {
            let name = words[k + 1];
            let exe = examples.join(name);
            if !exe.exists() {
                return Err(format!("the example {name} was not built by this test run"));
            }
            return Ok(format!("{} {rest}", exe.display()));
        }
        if words.windows(2).any(|w| w == ["-p", "cli"]) {
            return Ok(format!("cpsolve {rest}"));
        }
    }
    // Not run here, but the test, bench or example it names must exist.
    for (flag, folder) in [
        ("--test", "tests"),
        ("--bench", "benches"),
        ("--example", "examples"),
    ] {
        if let Some(k) = words.iter().position(|w| *w == flag) {
            let package = words
                .windows(2)
                .find(|w| w[0] == "-p")
                .map_or("engine", |w| w[1]);
            let target = repo()
                .join(package)
                .join(folder)
                .join(format!("{}.rs", words[k + 1]));
            if !target.exists() {
                return Err(format!("MISSING: {} does not exist", target.display()));
            }
        }
    }
    Err("a cargo build, test or benchmark (its target exists)".to_string())
}

/// Run `command` with bash in `dir`, `cpsolve` on the PATH; its status and its output
/// (standard output and standard error, interleaved as a terminal shows them).
fn run(command: &str, dir: &Path, bin: &Path) -> (Option<i32>, String) {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("{{ {command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("bash runs");
    // Read the output while the command runs (a full pipe would stop it).
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).unwrap();
        String::from_utf8_lossy(&out).into_owned()
    });
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), reader.join().unwrap());
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            return (None, "(killed after 60 s)".to_string());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn every_command_in_the_docs_runs_as_written() {
    let repo = repo().canonicalize().unwrap();
    let cpsolve = PathBuf::from(env!("CARGO_BIN_EXE_cpsolve"));
    let examples = cpsolve.parent().unwrap().join("examples");
    let shared = repo.join("../shared");
    let has_shared = shared.is_dir();

    // A scratch copy of the top level: links to the repository's entries, and to ../shared.
    let scratch = std::env::temp_dir().join(format!("cpsolve-docs-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    let top = scratch.join("repo");
    fs::create_dir_all(&top).unwrap();
    for entry in fs::read_dir(&repo).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if name != "target" {
            std::os::unix::fs::symlink(&path, top.join(name)).unwrap();
        }
    }
    if has_shared {
        std::os::unix::fs::symlink(&shared, scratch.join("shared")).unwrap();
    }
    let bin = scratch.join("bin");
    fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(&cpsolve, bin.join("cpsolve")).unwrap();

    let mut files = vec![repo.join("README.md")];
    markdown_files(&repo.join("docs"), &mut files);
    let mut failures = Vec::new();
    let (mut checked, mut skipped) = (0, Vec::new());
    for file in files {
        let name = file.strip_prefix(&repo).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap();
        if let Some(reason) = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("<!-- commands not checked: "))
        {
            skipped.push(format!("{name}: {}", reason.trim_end_matches("-->").trim()));
            continue;
        }
        for doc in commands_of(&name, &text) {
            let place = format!("{}:{}: `{}`", doc.file, doc.line, doc.command);
            if let Some(why) = &doc.not_checked {
                skipped.push(format!("{place}: not checked: {why}"));
                continue;
            }
            if doc.command.contains("../shared") && !has_shared {
                engine::testing::skip(&format!("{place}: ../shared is absent"));
                skipped.push(format!("{place}: ../shared is absent"));
                continue;
            }
            let shell = match runnable(&doc.command, &examples) {
                Ok(s) => s,
                Err(why) if why.starts_with("MISSING") => {
                    failures.push(format!("{place}: {why}"));
                    continue;
                }
                Err(why) => {
                    skipped.push(format!("{place}: {why}"));
                    continue;
                }
            };
            let (status, output) = run(&shell, &top, &bin);
            checked += 1;
            if status != Some(doc.status) {
                let head: String = output.lines().take(3).collect::<Vec<_>>().join(" / ");
                failures.push(format!(
                    "{place}: exit {status:?}, expected {}: {head}",
                    doc.status
                ));
                continue;
            }
            if let Some(expected) = &doc.expected {
                if let Err(why) = output_matches(expected, &output) {
                    failures.push(format!("{place}: {why}"));
                }
            }
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    println!("{checked} commands checked; not run:");
    for s in &skipped {
        println!("  {s}");
    }
    assert!(checked > 20, "only {checked} commands found in the docs");
    assert!(
        failures.is_empty(),
        "{} commands in the docs fail as written:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_matcher_matches_what_it_should() {
    assert!(line_matches("a ... c", "a b c"));
    assert!(line_matches("{\"x\":{...}}", "{\"x\":{\"y\":1}}"));
    assert!(!line_matches("a ... c", "a b d"));
    assert!(output_matches(&["1".into(), "...".into(), "3".into()], "1\n2\n3\n").is_ok());
    assert!(output_matches(&["1".into(), "3".into()], "1\n2\n3\n").is_err());
    assert!(output_matches(&["1".into(), "2".into()], "1\n2\n3\n").is_err());
    let cmds = commands_of(
        "x.md",
        "```sh\n$ echo 1\n1\n$ false  # exit 1\n```\n```sh\nls\n```\n\n```text\nout\n```\n",
    );
    assert_eq!(cmds.len(), 3);
    assert_eq!(cmds[1].status, 1);
    assert_eq!(cmds[2].expected.as_deref(), Some(&["out".to_string()][..]));
}
