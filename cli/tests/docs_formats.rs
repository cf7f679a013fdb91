//! `docs/formats.md`, the contract of the command, covers every puzzle, and its examples are
//! real: each example block is the file of `docs/formats/` it names, and `cpsolve` reads that
//! file and answers (`docs_commands.rs` checks the transcripts beside them).
//!
//! An example file's name starts with its puzzle (`sudoku-grid.txt` is a `sudoku`); a `.fzn`
//! or `.mzn` file is a model, read without a puzzle name.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn cpsolve(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The puzzle names `cpsolve` lists when run without arguments (the lines under `puzzles:`).
fn listed_puzzles() -> Vec<String> {
    let (status, out, err) = cpsolve(&[]);
    let listing = format!("{out}{err}");
    assert_eq!(status, Some(0), "{listing}");
    let names: Vec<String> = listing
        .lines()
        .skip_while(|l| l.trim() != "puzzles:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(names.len() >= 22, "the listing shows {names:?}");
    names
}

/// The example files: every file of `docs/formats/`, sorted.
fn example_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(repo().join("docs/formats"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// The blocks of the page shown as files: a line "[`docs/formats/F`](formats/F):", then a
/// fenced block, whose lines are F's.
fn shown_files(page: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("[`docs/formats/") else {
            continue;
        };
        let name = rest.split('`').next().unwrap().to_string();
        let body: Vec<&str> = lines[i + 1..]
            .iter()
            .skip_while(|l| !l.starts_with("```"))
            .skip(1)
            .take_while(|l| !l.starts_with("```"))
            .copied()
            .collect();
        out.push((name, body.join("\n")));
    }
    out
}

#[test]
fn every_puzzle_has_its_section_and_an_example() {
    let page = fs::read_to_string(repo().join("docs/formats.md")).unwrap();
    let headings: Vec<&str> = page.lines().filter(|l| l.starts_with("### ")).collect();
    let files = example_files();
    for name in listed_puzzles() {
        let quoted = format!("`{name}`");
        assert!(
            headings.iter().any(|h| h.contains(&quoted)),
            "docs/formats.md has no section for {name}"
        );
        let has_file = files.iter().any(|f| {
            let stem = f.file_stem().unwrap().to_string_lossy();
            stem.split('-').next() == Some(name.as_str())
        });
        let has_run = page.contains(&format!("$ cpsolve {name}"));
        assert!(
            has_file || has_run,
            "docs/formats.md shows no example of {name}"
        );
    }
}

#[test]
fn every_example_block_is_its_file() {
    let repo = repo();
    let page = fs::read_to_string(repo.join("docs/formats.md")).unwrap();
    let shown = shown_files(&page);
    for file in example_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(&file).unwrap();
        let block = shown
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("docs/formats/{name} is not shown in docs/formats.md"));
        assert_eq!(
            block.1,
            text.trim_end_matches('\n'),
            "docs/formats.md shows another text than docs/formats/{name}"
        );
    }
    assert!(
        shown.len() >= 22,
        "only {} example files shown",
        shown.len()
    );
    for (name, _) in &shown {
        assert!(
            repo.join("docs/formats").join(name).is_file(),
            "docs/formats.md shows docs/formats/{name}, which does not exist"
        );
    }
}

#[test]
fn every_example_file_is_read_and_answered() {
    let puzzles = listed_puzzles();
    for file in example_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let path = format!("docs/formats/{name}");
        if name.ends_with(".fzn") || name.ends_with(".mzn") {
            if name.ends_with(".mzn") && Command::new("minizinc").arg("--version").output().is_err()
            {
                engine::testing::skip(&format!("{path}: minizinc is not installed"));
                continue;
            }
            let (status, out, err) = cpsolve(&[&path]);
            assert_eq!(status, Some(0), "{path}: {err}");
            assert!(out.contains("----------"), "{path}: no solution in {out}");
            continue;
        }
        let puzzle = name.split(['-', '.']).next().unwrap();
        assert!(
            puzzles.iter().any(|p| p == puzzle),
            "{path}: {puzzle} is no puzzle"
        );
        let (status, out, err) = cpsolve(&[puzzle, &path, "--json"]);
        assert_eq!(status, Some(0), "{path}: {err}");
        for line in out.lines() {
            let json: Value = serde_json::from_str(line).unwrap();
            assert_eq!(json["puzzle"], puzzle, "{path}");
            assert!(
                json.get("solution").is_some(),
                "{path}: an example has an answer, not {line}"
            );
        }
        assert!(!out.is_empty(), "{path}: no JSON line");
    }
}
