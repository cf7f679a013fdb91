//! # The engine's floors: no import cycle among its modules
//!
//! The engine is meant to be read bottom-up: `conflict` and `domain` first, then `store`,
//! `propagator`, `propagation`, `model`, `search`. That order exists only if no module
//! imports, directly or through others, a module that imports it back. This test reads the
//! `use crate::...` lines of every file under `engine/src` (a top-level module is one node,
//! `propagators/` is one node, each file of `search/` is its own node) and fails on any
//! cycle, naming it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The node a file belongs to: `store` for `store.rs`, `search::dfs` for `search/dfs.rs`,
/// `search` for `search/mod.rs`, `propagators` for anything under `propagators/`.
fn node_of(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [single] => single.clone(),
        [dir, file] if dir == "search" => {
            if file == "mod" {
                "search".to_string()
            } else {
                format!("search::{file}")
            }
        }
        [dir, ..] => dir.clone(),
        [] => unreachable!("a file has a name"),
    }
}

/// The node a path after `crate::` names: `search::dfs::Dfs` → `search::dfs`; an item
/// re-exported by `search/mod.rs` or `lib.rs` (`search::SearchListener`, `Conflict`) → the
/// node that defines it (`definitions`).
fn node_of_path(
    path: &str,
    search_files: &BTreeSet<String>,
    definitions: &BTreeMap<String, String>,
) -> String {
    let segments: Vec<&str> = path.split("::").map(str::trim).collect();
    let first = segments[0].to_string();
    match segments.as_slice() {
        [only] => definitions.get(*only).cloned().unwrap_or(first),
        ["search", second, ..] if search_files.contains(*second) => format!("search::{second}"),
        ["search", item] => definitions
            .get(*item)
            .filter(|node| node.starts_with("search"))
            .cloned()
            .unwrap_or(first),
        _ => first,
    }
}

/// The paths a `use crate::...;` statement imports, with its `{...}` groups expanded
/// (`crate::{a, b::c}` → `a`, `b::c`; `crate::a::{B, C}` → `a::B`, `a::C`).
fn imported_paths(statement: &str) -> Vec<String> {
    let rest = statement.trim_start_matches("crate::");
    let Some(open) = rest.find('{') else {
        return vec![rest.to_string()];
    };
    let prefix = &rest[..open];
    let inner = rest[open + 1..].trim_end_matches('}');
    // Split at the commas of this level only.
    let (mut depth, mut start, mut paths) = (0, 0, Vec::new());
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                paths.push(inner[start..k].trim().to_string());
                start = k + 1;
            }
            _ => {}
        }
    }
    paths.push(inner[start..].trim().to_string());
    paths
        .into_iter()
        .filter(|p| !p.is_empty() && p != "self")
        .flat_map(|p| imported_paths(&format!("crate::{prefix}{p}")))
        .collect()
}

/// Which node defines each public item (`pub struct X`, `pub trait X`, ...).
fn definitions_in(node: &str, text: &str, into: &mut BTreeMap<String, String>) {
    for line in text.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("pub ") else {
            continue;
        };
        for keyword in ["struct ", "enum ", "trait ", "fn ", "type ", "const "] {
            if let Some(name) = rest.strip_prefix(keyword) {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                into.entry(name).or_insert_with(|| node.to_string());
            }
        }
    }
}

fn rust_files(dir: &Path, into: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("engine/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// Every `use crate::...;` statement of `text`, joined onto one line, outside `mod tests`.
/// In a file of `search/`, `use super::x` is `use crate::search::x`.
fn use_statements(text: &str, in_search: bool) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut statements = Vec::new();
    let mut current: Option<String> = None;
    for line in code.lines() {
        let line = line.trim();
        if current.is_none() {
            let start = line
                .strip_prefix("pub use ")
                .or_else(|| line.strip_prefix("pub(crate) use "))
                .or_else(|| line.strip_prefix("use "));
            match start {
                Some(s) if s.starts_with("crate::") => current = Some(s.to_string()),
                Some(s) if in_search && s.starts_with("super::") => {
                    current = Some(format!("crate::search::{}", &s["super::".len()..]))
                }
                _ => continue,
            }
        } else if let Some(c) = current.as_mut() {
            c.push_str(line);
        }
        if let Some(c) = current.as_ref() {
            if c.ends_with(';') {
                statements.push(c.trim_end_matches(';').to_string());
                current = None;
            }
        }
    }
    statements
}

#[test]
fn no_import_cycle_among_engine_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let search_files: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.strip_prefix(src.join("search")).ok())
        .map(|f| f.with_extension("").to_string_lossy().into_owned())
        .filter(|f| f != "mod")
        .collect();
    let mut definitions = BTreeMap::new();
    for file in &files {
        let node = node_of(file.strip_prefix(&src).unwrap());
        definitions_in(&node, &fs::read_to_string(file).unwrap(), &mut definitions);
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = node_of(file.strip_prefix(&src).unwrap());
        let text = fs::read_to_string(file).unwrap();
        let in_search = from.starts_with("search::");
        for statement in use_statements(&text, in_search) {
            for path in imported_paths(&statement) {
                let to = node_of_path(&path, &search_files, &definitions);
                // A file of `search/` may use its parent's items; the parent declares it.
                let parent_of_child = from.starts_with("search::") && to == "search";
                if to != from && !parent_of_child {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    // Depth-first search for a back edge, keeping the path to name the cycle.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if let Some(cycle) = visit(node, &edges, &mut Vec::new(), &mut done) {
            panic!("import cycle among engine modules: {}", cycle.join(" -> "));
        }
    }
    assert!(
        edges.contains_key("store"),
        "the test read the engine's sources"
    );
}
