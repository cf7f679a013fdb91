//! Every path the docs and the code comments name exists.
//!
//! A reader who follows a pointer to a file that moved is lost at once, and nothing else
//! notices: the compiler does not read comments, and `docs_commands.rs` runs commands, not
//! links. This test reads every Markdown file of the repository and every comment of its
//! Rust files, takes what names a file of the repository, and checks that the file exists:
//!
//! - in Markdown, a link target `[text](target)` (not a web address or an anchor), resolved
//!   from the page's folder, and a `` `span` `` that starts with a top-level folder of the
//!   repository (`engine/src/search/dfs.rs`) or with `../` or `./` (resolved from the page);
//! - in a comment (`//`, `///`, `//!`), a word that starts with a top-level folder;
//! - a file name alone, without a folder: a `` `NAME.rs` `` or `` `NAME.md` `` span of a page,
//!   or a `NAME.md` word of a comment, must be the name of some file of the repository (not
//!   a page that was renamed, or one that never was here, as the shared folder's contract).
//!
//! Not paths: anything under `../shared` (the data and seeds beside the repository, absent
//! from a fresh clone), build outputs under `target/`, and patterns with a placeholder
//! (`docs/puzzles/NAME.md`, `alldiff/*.rs`, `{a,b}`, `...`). A path may end in `:LINE`,
//! `::test_name` or `#anchor`; those are dropped.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Words that stand for a name in a pattern (`docs/puzzles/NAME.md`), not for a file.
const PLACEHOLDERS: &[&str] = &[
    "NAME", "FILE", "DIR", "PUZZLE", "MODEL", "DATA", "LEVEL", "SET", "N", "K", "F", "PATH", "RUN",
    "DATE", "ID",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The repository's top-level folders and files: a name that starts with one of them (and a
/// `/`) is a path from the top.
fn top_level(repo: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(repo)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n != "target" && n != ".git")
        .collect();
    names.sort();
    names
}

/// Every file under `dir` whose name ends in `ext` (`target/` and hidden folders skipped).
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "target" || name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            files(&path, ext, out);
        } else if name.ends_with(ext) {
            out.push(path);
        }
    }
}

/// The path part of a candidate: without an anchor, a `:LINE` suffix or closing punctuation;
/// `None` when it is a pattern or a placeholder rather than one file.
fn clean(candidate: &str) -> Option<String> {
    let path = candidate.split('#').next().unwrap();
    let path = path.trim_end_matches(|c: char| ".,;:)'\"".contains(c));
    let path = path.split("::").next().unwrap();
    let path = match path.split_once(':') {
        Some((p, line)) if line.chars().all(|c| c.is_ascii_digit() || c == '-') => p,
        _ => path,
    };
    let placeholder = path.contains(['*', '{', '<', '$', '…', '|', ' '])
        || path.contains("...")
        || path
            .split('/')
            .any(|part| PLACEHOLDERS.contains(&part.split('.').next().unwrap_or("")));
    let outside = path.contains("shared/")
        || path.ends_with("../shared")
        || path.starts_with("target/")
        || path.is_empty();
    (!placeholder && !outside).then(|| path.to_string())
}

/// Does `word` start with a top-level folder of the repository followed by `/`?
fn from_the_top(word: &str, top: &[String]) -> bool {
    top.iter().any(|t| {
        word.strip_prefix(t.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// The names of every file of the repository (`target/` and hidden folders left out).
fn file_names(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "target" || name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            file_names(&path, out);
        } else {
            out.insert(name);
        }
    }
}

/// A file name alone (`lib.rs`, `cli.md`) with one of the extensions `exts`.
fn bare_name(word: &str, exts: &[&str]) -> Option<String> {
    let name = clean(word)?;
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    (plain && exts.contains(&ext) && !name.starts_with('.')).then_some(name)
}

/// The paths a Markdown page names, with their line numbers, resolved to absolute paths. A
/// file name alone resolves to a path that exists when some file of the repository has it.
fn markdown_paths(
    page: &Path,
    repo: &Path,
    top: &[String],
    names: &BTreeSet<String>,
) -> Vec<(usize, String, PathBuf)> {
    let text = fs::read_to_string(page).unwrap();
    let folder = page.parent().unwrap();
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Links: [text](target).
        for piece in line.split("](").skip(1) {
            let target = piece.split(')').next().unwrap_or("");
            let target = target.split_whitespace().next().unwrap_or("");
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with('#') {
                continue;
            }
            if let Some(path) = clean(target) {
                out.push((i + 1, path.clone(), folder.join(&path)));
            }
        }
        // Code spans: `engine/src/lib.rs`, `../cli/src/args.rs`.
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 0 || span.contains(char::is_whitespace) {
                continue;
            }
            let Some(path) = clean(span) else { continue };
            if from_the_top(&path, top) {
                out.push((i + 1, path.clone(), repo.join(&path)));
            } else if path.starts_with("../") || path.starts_with("./") {
                out.push((i + 1, path.clone(), folder.join(&path)));
            } else if let Some(name) = bare_name(&path, &["rs", "md"]) {
                out.push((i + 1, name.clone(), by_name(&name, repo, names)));
            }
        }
    }
    out
}

/// Where a file name alone points: the repository's top when some file has that name (the
/// top exists), else a path that does not exist.
fn by_name(name: &str, repo: &Path, names: &BTreeSet<String>) -> PathBuf {
    if names.contains(name) {
        repo.to_path_buf()
    } else {
        repo.join(name)
    }
}

/// The paths the comments of a Rust file name, with their line numbers.
fn comment_paths(
    file: &Path,
    repo: &Path,
    top: &[String],
    names: &BTreeSet<String>,
) -> Vec<(usize, String, PathBuf)> {
    let text = fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // A comment, and not a `//` inside a string: the line's code part holds no quote.
        let Some(at) = line.find("//") else { continue };
        if line[..at].contains('"') {
            continue;
        }
        for word in line[at..].split(|c: char| c.is_whitespace() || "`([".contains(c)) {
            if !from_the_top(word, top) {
                if let Some(name) = bare_name(word, &["md"]) {
                    out.push((i + 1, name.clone(), by_name(&name, repo, names)));
                }
                continue;
            }
            if let Some(path) = clean(word) {
                out.push((i + 1, path.clone(), repo.join(&path)));
            }
        }
    }
    out
}

#[test]
fn every_path_named_in_the_docs_and_comments_exists() {
    let repo = repo();
    let top = top_level(&repo);
    let mut names = BTreeSet::new();
    file_names(&repo, &mut names);
    let (mut pages, mut sources) = (Vec::new(), Vec::new());
    files(&repo, ".md", &mut pages);
    files(&repo, ".rs", &mut sources);
    assert!(pages.len() > 20 && sources.len() > 100);
    let mut named = Vec::new();
    for page in &pages {
        named.extend(
            markdown_paths(page, &repo, &top, &names)
                .into_iter()
                .map(|n| (page.clone(), n)),
        );
    }
    for source in &sources {
        named.extend(
            comment_paths(source, &repo, &top, &names)
                .into_iter()
                .map(|n| (source.clone(), n)),
        );
    }
    let missing: Vec<String> = named
        .iter()
        .filter(|(_, (_, _, resolved))| !resolved.exists())
        .map(|(file, (line, path, _))| {
            let file = file.strip_prefix(&repo).unwrap().display();
            format!("{file}:{line}: {path}")
        })
        .collect();
    println!("{} paths checked", named.len());
    assert!(named.len() > 300, "only {} paths found", named.len());
    assert!(
        missing.is_empty(),
        "{} paths name no file of the repository:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_path_finder_sees_links_spans_and_comments() {
    let top = vec!["engine".to_string(), "docs".to_string()];
    let names = BTreeSet::from(["store.rs".to_string()]);
    assert_eq!(
        clean("engine/src/lib.rs:12"),
        Some("engine/src/lib.rs".into())
    );
    assert_eq!(
        clean("cli.md#errors-and-exit-status"),
        Some("cli.md".into())
    );
    assert_eq!(clean("docs/puzzles/NAME.md"), None);
    assert_eq!(clean("../shared/data/sudoku"), None);
    assert!(from_the_top("engine/src/model.rs", &top));
    assert!(!from_the_top("engines/x.rs", &top));
    let dir = std::env::temp_dir().join(format!("cpsolve-paths-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.md");
    fs::write(
        &page,
        "See [the model](../engine/src/model.rs), `engine/src/gone.rs` and `store.rs`.\n```\nengine/x\n```\n`FORMATS.md`\n",
    )
    .unwrap();
    let found = markdown_paths(&page, &dir, &top, &names);
    let paths: Vec<&str> = found.iter().map(|(_, p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "../engine/src/model.rs",
            "engine/src/gone.rs",
            "store.rs",
            "FORMATS.md"
        ]
    );
    assert!(found[2].2.exists() && !found[3].2.exists());
    let source = dir.join("a.rs");
    fs::write(
        &source,
        "let s = \"//engine/x\";\n// see engine/src/store.rs, not FORMATS.md.\n",
    )
    .unwrap();
    let found: Vec<String> = comment_paths(&source, &dir, &top, &names)
        .into_iter()
        .map(|(_, p, _)| p)
        .collect();
    assert_eq!(found, ["engine/src/store.rs", "FORMATS.md"]);
    fs::remove_dir_all(&dir).unwrap();
}
