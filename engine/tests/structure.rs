//! The engine's modules form floors: no module depends, directly or through others, on a
//! module that depends on it. So do the files of every other crate of the workspace
//! (`puzzles`, `cli`, `flatzinc`, ...): the last test reads each member the workspace's
//! `Cargo.toml` lists. A reader can then learn `engine/src` bottom up — domain, then
//! store, then propagator, ... — without meeting a file that needs a later one first.
//!
//! The test reads every file under `engine/src`, takes the modules it names (`crate::a::b`,
//! `super::c`), and fails on a cycle, printing it. A folder's `mod.rs` re-exporting its own
//! children is its table of contents, not a dependency, and is left out; so are `lib.rs` and
//! each module's unit tests. The floors are drawn in `docs/README.md`, and a test keeps that
//! drawing true.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module path (`search::dfs`) → its source text, for every file under `dir`.
fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if prefix.is_empty() && name == "bin" {
                continue; // `src/bin/*.rs`: each one a crate of its own
            }
            let inner = format!("{prefix}{name}::");
            modules(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let module = match name.as_str() {
                // The roots of a crate: they declare its modules, like a folder's `mod.rs`.
                "lib" | "main" => continue,
                "mod" => prefix.trim_end_matches("::").to_string(),
                _ => format!("{prefix}{name}"),
            };
            out.insert(module, fs::read_to_string(&path).unwrap());
        }
    }
}

/// The longest known module that `path` (a `::`-separated path) starts with.
fn resolve(path: &str, known: &BTreeMap<String, String>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|k| parts[..k].join("::"))
        .find(|candidate| known.contains_key(candidate))
}

/// The modules `module` names in its code (comments and doc comments left out).
fn dependencies(module: &str, text: &str, known: &BTreeMap<String, String>) -> BTreeSet<String> {
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    let mut deps = BTreeSet::new();
    // A module's unit tests (from `#[cfg(test)]` on, by convention at its end) may use any
    // floor: they are not part of the module.
    for line in text
        .lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
    {
        let code = line.split("//").next().unwrap();
        let is_reexport = code.trim_start().starts_with("pub use ");
        for (marker, base) in [
            ("crate::", String::new()),
            ("super::", format!("{parent}::")),
        ] {
            let mut rest = code;
            while let Some(at) = rest.find(marker) {
                rest = &rest[at + marker.len()..];
                let path: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let full = format!("{base}{path}");
                let full = full.trim_start_matches("::");
                if let Some(target) = resolve(full, known) {
                    let own_child = target.starts_with(&format!("{module}::"));
                    if target != module && !(is_reexport && own_child) {
                        deps.insert(target);
                    }
                }
            }
        }
    }
    deps
}

/// A cycle of the graph, if there is one (depth-first search with three colours).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        u: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(u.to_string(), 1);
        path.push(u.to_string());
        for w in &graph[u] {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                0 => {
                    if let Some(c) = visit(w, graph, state, path) {
                        return Some(c);
                    }
                }
                1 => {
                    let from = path.iter().position(|p| p == w).unwrap();
                    let mut cycle = path[from..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(u.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for u in graph.keys() {
        if state.get(u.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(u, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_engine_modules_have_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut known = BTreeMap::new();
    modules(&src, "", &mut known);
    assert!(known.contains_key("search::dfs") && known.contains_key("store"));
    let graph: BTreeMap<String, BTreeSet<String>> = known
        .iter()
        .map(|(m, text)| (m.clone(), dependencies(m, text, &known)))
        .collect();
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle among engine modules: {}", cycle.join(" → "));
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut known = BTreeMap::new();
    known.insert("a".to_string(), "use crate::b::Thing;".to_string());
    known.insert(
        "b".to_string(),
        "fn f() -> crate::a::Other { todo!() }".to_string(),
    );
    known.insert(
        "c".to_string(),
        "use crate::a; // crate::c in a comment".to_string(),
    );
    let graph: BTreeMap<String, BTreeSet<String>> = known
        .iter()
        .map(|(m, text)| (m.clone(), dependencies(m, text, &known)))
        .collect();
    assert_eq!(graph["c"], BTreeSet::from(["a".to_string()]));
    let cycle = find_cycle(&graph).expect("a → b → a");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 3);
}

/// The floors of the engine, folders collapsed (`propagators`, `search`): each module on the
/// floor above the highest module it uses. One line per floor, lowest first.
fn floors(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let top = |m: &str| m.split("::").next().unwrap().to_string();
    let mut collapsed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in graph {
        let entry = collapsed.entry(top(m)).or_default();
        entry.extend(deps.iter().map(|d| top(d)).filter(|d| *d != top(m)));
    }
    let mut floor_of: BTreeMap<String, usize> = BTreeMap::new();
    while floor_of.len() < collapsed.len() {
        let placed = floor_of.len();
        for (m, deps) in &collapsed {
            if floor_of.contains_key(m) || !deps.iter().all(|d| floor_of.contains_key(d)) {
                continue;
            }
            let floor = deps.iter().map(|d| floor_of[d] + 1).max().unwrap_or(0);
            floor_of.insert(m.clone(), floor);
        }
        assert!(
            floor_of.len() > placed,
            "a cycle among folders: {collapsed:?}"
        );
    }
    let mut out = vec![Vec::new(); floor_of.values().max().map_or(0, |f| f + 1)];
    for (m, f) in floor_of {
        out[f].push(m);
    }
    out
}

#[test]
fn the_floors_drawn_in_the_docs_are_the_engines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut known = BTreeMap::new();
    modules(&src, "", &mut known);
    let graph: BTreeMap<String, BTreeSet<String>> = known
        .iter()
        .map(|(m, text)| (m.clone(), dependencies(m, text, &known)))
        .collect();
    let drawing: String = floors(&graph)
        .iter()
        .enumerate()
        .rev()
        .map(|(f, mods)| format!("floor {f}: {}\n", mods.join(", ")))
        .collect();
    let readme = src.join("../../docs/README.md");
    let docs = fs::read_to_string(&readme).unwrap();
    assert!(
        docs.contains(&drawing),
        "docs/README.md should hold the engine's floors as they are now:\n{drawing}"
    );
}

/// The folders the workspace's `Cargo.toml` lists as `members`.
fn workspace_members(manifest: &str) -> Vec<String> {
    let start = manifest
        .find("members")
        .expect("a [workspace] with members");
    let list = &manifest[start..];
    let list = &list[list.find('[').unwrap() + 1..list.find(']').unwrap()];
    list.split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn no_crate_of_the_workspace_has_an_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace_members(&manifest);
    assert!(
        ["engine", "puzzles", "cli", "flatzinc"]
            .iter()
            .all(|m| members.iter().any(|n| n == m)),
        "{members:?}"
    );
    let mut cycles = Vec::new();
    for member in &members {
        let mut known = BTreeMap::new();
        modules(&root.join(member).join("src"), "", &mut known);
        let graph: BTreeMap<String, BTreeSet<String>> = known
            .iter()
            .map(|(m, text)| (m.clone(), dependencies(m, text, &known)))
            .collect();
        if let Some(cycle) = find_cycle(&graph) {
            cycles.push(format!("{member}: {}", cycle.join(" → ")));
        }
    }
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}
