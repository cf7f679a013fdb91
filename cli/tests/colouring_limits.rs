//! Graph colouring at the limits of its input, through the real `cpsolve` binary: what the
//! heuristics of the `prepare` step find is an answer even when the tree search has no time
//! to rebuild it, and a large graph is read and modelled in time linear in its size. The
//! graphs are generated here, not stored; the tests check verdicts, never times.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// Run `cpsolve colouring - ARGS --json` on `graph`; the exit status and the JSON line.
fn colour(graph: &str, args: &[&str]) -> (Option<i32>, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(["colouring", "-"])
        .args(args)
        .arg("--json")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cpsolve runs");
    let _ = child.stdin.take().unwrap().write_all(graph.as_bytes());
    let out = child.wait_with_output().unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("one JSON line ({e}): {out:?}"));
    (out.status.code(), json)
}

/// `n` vertices and the given 1-based edges, in DIMACS `.col`.
fn dimacs(n: usize, edges: &[(usize, usize)]) -> String {
    let mut text = format!("p edge {n} {}\n", edges.len());
    for (u, v) in edges {
        text.push_str(&format!("e {u} {v}\n"));
    }
    text
}

/// The colours of a JSON solution, checked proper on `edges`; returns how many are used.
fn proper_colours(solution: &Value, n: usize, edges: &[(usize, usize)]) -> i64 {
    let colours: Vec<i64> = solution
        .as_array()
        .expect("a list of colours")
        .iter()
        .map(|c| c.as_i64().expect("a whole number"))
        .collect();
    assert_eq!(colours.len(), n);
    for &(u, v) in edges {
        assert_ne!(colours[u - 1], colours[v - 1], "edge {u}-{v}");
    }
    colours.iter().copied().max().unwrap()
}

#[test]
fn a_colouring_found_while_preparing_is_the_answer() {
    // 20,000 vertices, two edges: the clique {1, 2} and the greedy 2-colouring meet, so the
    // optimum is proved before the search, which has no time to colour 20,000 vertices.
    let n = 20_000;
    let edges = [(1, 2), (3, 4)];
    let graph = dimacs(n, &edges);
    let (code, out) = colour(&graph, &["-t", "1000"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out["status"], "OPTIMAL", "{out}");
    assert_eq!(proper_colours(&out["solution"], n, &edges), 2);
    assert_eq!(out["objective"], 2, "{out}");
    // At most three colours: a satisfaction question, answered by the greedy colouring.
    let (code, out) = colour(&graph, &["--colours", "3", "-t", "200"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out["status"], "SATISFIED", "{out}");
    assert!(proper_colours(&out["solution"], n, &edges) <= 3);
}

#[test]
fn a_million_edges_at_no_time_give_a_verdict() {
    // 20,000 vertices and 10^6 pseudo-random edges (a linear congruential generator): with
    // `-t 0` nothing is prepared and the search stops at once, after reading and building.
    let n = 20_000;
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n + 1
    };
    let edges: Vec<(usize, usize)> = (0..1_000_000)
        .map(|_| loop {
            let (u, v) = (next(), next());
            if u != v {
                break (u, v);
            }
        })
        .collect();
    let (code, out) = colour(&dimacs(n, &edges), &["-t", "0"]);
    assert_eq!(code, Some(0), "{out}");
    let status = out["status"].as_str().expect("a status");
    assert!(
        ["UNKNOWN", "SATISFIED", "OPTIMAL"].contains(&status),
        "{out}"
    );
    if status != "UNKNOWN" {
        proper_colours(&out["solution"], n, &edges);
    }
}
