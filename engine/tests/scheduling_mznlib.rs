//! The mznlib redefinitions of `inverse`, `cumulative`, `disjunctive` and `diffn` (repo
//! root, `mznlib/fzn_*.mzn`) compile with the installed MiniZinc and reach the native
//! `cpsolve_*` predicates (`cpsolve_cumulative` when durations, uses and capacity are
//! constants, `cpsolve_cumulative_var` otherwise; `diffn` with variable sizes too). Skips,
//! saying so, when `minizinc` is not installed.

use std::path::PathBuf;
use std::process::Command;

const MODEL: &str = r#"
include "globals.mzn";
array[3..5] of var 1..3: f;
array[1..3] of var 3..5: g;
constraint inverse(f, g);
array[1..3] of var 0..10: s;
constraint cumulative(s, [2, 3, 4], [1, 2, 1], 2);
constraint disjunctive(s, [2, 0, 4]);
constraint disjunctive_strict(s, [2, 3, 0]);
var 1..3: dv;
constraint cumulative(s, [2, dv, 4], [1, 2, 1], 3);
array[1..3] of var 0..4: row;
constraint diffn(s, row, [2, dv, 4], [1, 1, 1]);
constraint diffn_nonstrict(s, row, [2, dv, 0], [1, 1, 1]);
solve satisfy;
"#;

#[test]
fn mznlib_reaches_the_native_predicates() {
    if Command::new("minizinc").arg("--version").output().is_err() {
        engine::testing::skip("minizinc is not installed");
        return;
    }
    let mznlib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../mznlib");
    let dir = std::env::temp_dir().join(format!("cpsolve-mznlib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A solver configuration that only names the library (never run: `-c` compiles).
    let msc = format!(
        r#"{{ "id": "test.cpsolve.mznlib", "name": "mznlib check", "version": "0.1",
             "mznlib": "{}", "executable": "/bin/false",
             "supportsMzn": false, "supportsFzn": true }}"#,
        mznlib.canonicalize().unwrap().display()
    );
    std::fs::write(dir.join("check.msc"), msc).unwrap();
    std::fs::write(dir.join("model.mzn"), MODEL).unwrap();
    let out = Command::new("minizinc")
        .current_dir(&dir)
        .args([
            "-c",
            "--solver",
            "check.msc",
            "model.mzn",
            "-o",
            "model.fzn",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "minizinc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fzn = std::fs::read_to_string(dir.join("model.fzn")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let calls: Vec<&str> = fzn
        .lines()
        .filter(|l| l.starts_with("constraint cpsolve_"))
        .collect();
    for expected in [
        // f is indexed from 3, g from 1.
        "constraint cpsolve_inverse(f,3,g,1);",
        "constraint cpsolve_cumulative(s,[2,3,4],[1,2,1],2);",
        "constraint cpsolve_disjunctive(s,[2,0,4]);",
        "constraint cpsolve_disjunctive_strict(s,[2,3,0]);",
        // The variable duration goes to the variable form, nothing decomposed.
        "constraint cpsolve_cumulative_var(s,X_INTRODUCED_",
    ] {
        assert!(
            calls.iter().any(|c| c.starts_with(expected)),
            "{expected} not in {calls:?}"
        );
    }
    // diffn reaches its native predicates with a variable size (the size arrays are
    // introduced by MiniZinc, so only the start of the call is known).
    for expected in [
        "constraint cpsolve_diffn(s,row,",
        "constraint cpsolve_diffn_nonstrict(s,row,",
    ] {
        assert!(
            calls.iter().any(|c| c.starts_with(expected)),
            "{expected}... not in {calls:?}"
        );
    }
    assert_eq!(calls.len(), 7, "{calls:?}");
}
