//! A few runs of the real `cpsolve` binary: the process's exit status, its streams, and no
//! panic message or backtrace whatever the input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cpsolve(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cpsolve runs");
    // A run that does not read its input may close the pipe first: that is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn the_seed_and_the_tour_run() {
    let out = cpsolve(&["queens", "--json"], b"");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "SATISFIED");
    let out = cpsolve(&["tour"], b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("----------"));
    let out = cpsolve(&[], b"");
    assert_eq!(out.status.code(), Some(0));
    for kind in puzzles::all() {
        assert!(String::from_utf8_lossy(&out.stdout).contains(kind.name));
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2_with_no_backtrace() {
    for (args, input) in [
        (&["queens", "-"][..], &b"\xff\xfe\x00binary"[..]),
        (&["queens", "-"][..], &b""[..]),
        (&["queens", "--what"][..], &b""[..]),
        (&["nosuchpuzzle"][..], &b""[..]),
    ] {
        let out = cpsolve(args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    if puzzles::find("sudoku").is_some() {
        let out = cpsolve(&["sudoku", "-"], b"% one bad line\n12345\n");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: <stdin>:2: "), "{err}");
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    // `cpsolve queens 8 -a | head -1`: the reader goes away; no panic, no error line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(["queens", "9", "-a"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.status.code().is_some_and(|c| c == 0 || c == 1),
        "{:?}",
        out.status
    );
}
