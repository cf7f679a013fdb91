//! `-t MS` holds inside model building, root propagation and long propagator calls, and so
//! does SIGINT (docs/cli.md, "Limits"): each input that once ran far past its limit is
//! generated here (no large file ships), run on the real binary with a small limit, and must
//! end within the limit plus a margin with a verdict that is true: the best known answer
//! (which the binary checks against the puzzle's rules before printing it) or `UNKNOWN`,
//! never `UNSATISFIABLE` for a search that was cut short.
//!
//! The margin is generous (the machine may be shared and the build has debug assertions):
//! these tests catch a limit that does not hold (before the stop check of
//! `engine/src/interrupt.rs` these inputs ran for tens of seconds to minutes past it), they
//! do not measure a speed.

#![cfg(unix)]

use std::process::Output;
use std::time::{Duration, Instant};

/// What a run may take beyond its `-t`, here: the documented margin is 10 % or 0.5 s, the
/// rest is for a loaded machine.
const SLACK: Duration = Duration::from_secs(5);

mod common;

use common::{capped_command as command, wait_within};

/// Run `cpsolve ARGS -t MS`: it must end within MS + [`SLACK`], exit 0.
fn run_limited(args: &[&str], ms: u64) -> Output {
    let limit = ms.to_string();
    let mut all = args.to_vec();
    all.extend_from_slice(&["-t", &limit]);
    let started = Instant::now();
    let child = command(&all).spawn().expect("cpsolve runs");
    let within = Duration::from_millis(ms) + SLACK;
    let out = wait_within(child, within, &format!("{all:?}"));
    assert!(
        started.elapsed() < within,
        "{all:?}: {:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(0), "{all:?}: {out:?}");
    out
}

/// A file written for one test and removed when the test drops it.
struct TempFile(std::path::PathBuf);

impl std::ops::Deref for TempFile {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_file(name: &str, content: &str) -> TempFile {
    let path =
        std::env::temp_dir().join(format!("cpsolve-time-limits-{}-{name}", std::process::id()));
    std::fs::write(&path, content).unwrap();
    TempFile(path)
}

/// A small deterministic generator (xorshift), so that every run tries the same inputs.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The last verdict line of a FlatZinc run: a solution (`----------`) or `UNKNOWN`, never
/// `UNSATISFIABLE` (every model here has a solution, or was cut short).
fn assert_flatzinc_verdict(out: &Output, what: &str) {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with("----------\n") || text.ends_with("=====UNKNOWN=====\n"),
        "{what}: ...{}",
        &text[text.len().saturating_sub(200)..]
    );
}

/// `x[i] + 1 <= x[i+1]` over `n` variables of `0..top`: its root fixpoint moves one bound
/// one step per propagator run, some n²/2 runs (with `top < n - 1` it ends in a failure).
fn linear_chain(n: usize, top: usize) -> String {
    let mut model = String::new();
    for i in 0..n {
        model.push_str(&format!("var 0..{top}: x{i} :: output_var;\n"));
    }
    for i in 0..n - 1 {
        model.push_str(&format!(
            "constraint int_lin_le([1,-1],[x{i},x{}],-1);\n",
            i + 1
        ));
    }
    model.push_str("solve satisfy;\n");
    model
}

/// A chain of 30,000 ran its root fixpoint for minutes and grew to gigabytes (the queue kept
/// every push); now the fixpoint polls the clock and the queue stays small.
#[test]
fn a_long_root_fixpoint_gives_way_to_the_clock() {
    let n = 30_000;
    let file = temp_file("chain.fzn", &linear_chain(n, n));
    let out = run_limited(&[file.to_str().unwrap()], 1000);
    assert_flatzinc_verdict(&out, "chain");
}

/// A fixpoint cut short proves nothing. The chain has solutions, so `UNSATISFIABLE` (an
/// interruption read as a failure) would be wrong, and so would `==========` (a listing cut
/// short read as complete). A short chain in too few values does prove `UNSATISFIABLE`: the
/// verdict is reachable, just not from an interruption.
#[test]
fn an_interrupted_fixpoint_is_not_a_failure() {
    let n = 30_000;
    let file = temp_file("chain-all.fzn", &linear_chain(n, n));
    let out = run_limited(&[file.to_str().unwrap(), "-a"], 1000);
    assert_flatzinc_verdict(&out, "chain -a");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("=========="),
        "a listing cut short is not complete"
    );

    let short = temp_file("chain-unsat-short.fzn", &linear_chain(50, 48));
    let out = run_limited(&[short.to_str().unwrap()], 60_000);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "=====UNSATISFIABLE=====\n"
    );
}

/// SIGINT in the middle of a long root fixpoint: the run ends at once, exit 0, `UNKNOWN`
/// (it ended 36 s after the signal).
#[test]
fn sigint_stops_a_long_root_fixpoint() {
    let n = 30_000;
    let file = temp_file("chain-sigint.fzn", &linear_chain(n, n));
    let child = command(&[file.to_str().unwrap()])
        .spawn()
        .expect("cpsolve runs");
    std::thread::sleep(Duration::from_millis(1500));
    let signalled = Instant::now();
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = wait_within(child, SLACK, "chain after SIGINT");
    assert!(signalled.elapsed() < SLACK);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_flatzinc_verdict(&out, "chain after SIGINT");
}

/// One `int_lin_eq` over 200,000 0/1 variables: building it merged the terms in quadratic
/// time (still running at 40 s with `-t 2000` on 300,000).
#[test]
fn a_linear_over_200000_terms_is_built_within_the_limit() {
    let n = 200_000;
    let mut model = String::new();
    for i in 0..n {
        model.push_str(&format!("var 0..1: x{i} :: output_var;\n"));
    }
    let ones = vec!["1"; n].join(",");
    let names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
    model.push_str(&format!(
        "constraint int_lin_eq([{ones}],[{}],{});\nsolve satisfy;\n",
        names.join(","),
        n / 2
    ));
    let file = temp_file("long-sum.fzn", &model);
    let out = run_limited(&[file.to_str().unwrap()], 1000);
    assert_flatzinc_verdict(&out, "long sum");
}

/// A random 250×250 nonogram: `regular` over lines of 250 cells, each call long enough that
/// the clock read between nodes came seconds late. The answer, if any, is checked by the
/// binary itself.
#[test]
fn a_large_nonogram_ends_within_the_limit() {
    let size = 250;
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let picture: Vec<Vec<bool>> = (0..size)
        .map(|_| (0..size).map(|_| random.below(10) < 3).collect())
        .collect();
    let clue = |line: &mut dyn Iterator<Item = bool>| {
        let (mut blocks, mut run) = (Vec::new(), 0);
        for black in line.chain(std::iter::once(false)) {
            if black {
                run += 1;
            } else if run > 0 {
                blocks.push(run.to_string());
                run = 0;
            }
        }
        if blocks.is_empty() {
            "0".to_string()
        } else {
            blocks.join(",")
        }
    };
    let mut text = format!("width {size}\nheight {size}\n\nrows\n");
    for row in &picture {
        text.push_str(&clue(&mut row.iter().copied()));
        text.push('\n');
    }
    text.push_str("\ncolumns\n");
    for c in 0..size {
        text.push_str(&clue(&mut picture.iter().map(|row| row[c])));
        text.push('\n');
    }
    let file = temp_file("big.non", &text);
    let out = run_limited(&["nonogram", file.to_str().unwrap(), "--json"], 1000);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert!(
        ["SATISFIED", "UNKNOWN"].contains(&v["status"].as_str().unwrap()),
        "{}",
        v["status"]
    );
}

/// Colouring 20,000 vertices and 10^6 edges with `-t 1000`: the portfolio's steps (a clique
/// cover, a second model, DSATUR) and the building of a model of 10^6 `≠` ran seconds past
/// the limit. Now no step starts once the time is out, DSATUR ends first-fit, and no model
/// is built after the deadline: the greedy colouring is the answer.
#[test]
fn colouring_a_million_edges_ends_within_the_limit() {
    let (n, m) = (20_000u64, 1_000_000);
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let mut text = format!("p edge {n} {m}\n");
    for _ in 0..m {
        let u = random.below(n) + 1;
        let v = (u + random.below(n - 1)) % n + 1;
        text.push_str(&format!("e {u} {v}\n"));
    }
    let file = temp_file("big.col", &text);
    let out = run_limited(&["colouring", file.to_str().unwrap(), "--json"], 1000);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert!(
        ["SATISFIED", "OPTIMAL", "UNKNOWN"].contains(&v["status"].as_str().unwrap()),
        "{}",
        v["status"]
    );
}

/// Monodot on a 100×100 grid with 1,000 degrees: king-degree over 10,000 cells and a
/// global cardinality whose calls are long. Any answer printed is checked by the binary.
#[test]
fn a_large_monodot_ends_within_the_limit() {
    let mut random = Random(0xda94_2042_e4dd_58b5);
    let degrees: Vec<String> = (0..1000)
        .map(|_| (random.below(8) + 1).to_string())
        .collect();
    let file = temp_file(
        "big-monodot.txt",
        &format!("grid 100\ndegrees {}\n", degrees.join(" ")),
    );
    let out = run_limited(&["monodot", file.to_str().unwrap(), "--json"], 2000);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert!(
        ["SATISFIED", "UNKNOWN"].contains(&v["status"].as_str().unwrap()),
        "{}",
        v["status"]
    );
}
