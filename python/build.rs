//! Builds the repository's `mznlib/` into the module: `OUT_DIR/mznlib.rs` is one array of
//! `(file name, include_str!(path))`, read by `command::mznlib_files`.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mznlib");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the repository's mznlib/ folder beside python/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mzn"))
        .collect();
    names.sort();
    let mut code = String::from("[\n");
    for name in names {
        let path = dir.join(&name).canonicalize().unwrap();
        code.push_str(&format!("    ({name:?}, include_str!({:?})),\n", path));
    }
    code.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("mznlib.rs");
    std::fs::write(out, code).unwrap();
}
