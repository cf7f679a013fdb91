//! The branching order of the boolean grid puzzles, through the command.
//!
//! Every cell of a nonogram, thermometer, star battle or binairo has two values, so first-fail
//! degenerates into input order (row by row). These puzzles branch with dom/wdeg instead,
//! which goes to the lines whose constraints have failed; on the public sets it needs 4× to
//! 11× fewer nodes (docs/PERFORMANCE.md, "The puzzles beyond the seeds on the public sets",
//! `benches/src/bin/puzzle_sets.rs`). Those sets cannot ship in the repository, so this test
//! draws random boards the way the TAAI 2011 tournament set was drawn (each cell black with
//! probability ½, the clues read off) and checks, through `cli::run`, that every one is
//! solved and checked, and that the default order needs fewer nodes in all than input order.
//! Node counts with one thread are deterministic: no timing is asserted.

use serde_json::Value;

/// A small deterministic generator (xorshift64*), so the boards are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The clue of a line: the lengths of its runs of black cells.
fn clue(line: impl Iterator<Item = bool>) -> String {
    let mut runs = Vec::new();
    let mut current = 0;
    for black in line {
        if black {
            current += 1;
        } else if current > 0 {
            runs.push(current.to_string());
            current = 0;
        }
    }
    if current > 0 {
        runs.push(current.to_string());
    }
    if runs.is_empty() {
        "0".to_string()
    } else {
        runs.join(",")
    }
}

/// A random n×n board as a `.non` file.
fn random_nonogram(n: usize, rng: &mut Rng) -> String {
    let board: Vec<Vec<bool>> = (0..n)
        .map(|_| (0..n).map(|_| rng.next() & 1 == 0).collect())
        .collect();
    let mut text = format!("width {n}\nheight {n}\n\nrows\n");
    for row in &board {
        text += &(clue(row.iter().copied()) + "\n");
    }
    text += "\ncolumns\n";
    for c in 0..n {
        text += &(clue(board.iter().map(|row| row[c])) + "\n");
    }
    text
}

/// Solve through the command with one thread and a node limit; the search's node count.
/// Without probing (the nonogram probes at every node by default), which leaves the orders
/// little to do.
fn nodes(text: &str, extra: &[&str]) -> u64 {
    run_nodes(
        &["nonogram", "-", "--probe-at", "off"],
        text,
        extra,
        "SATISFIED",
    )
}

/// `cpsolve ARGS --json -p 1 --nodes 100000 EXTRA` on `text` as standard input: the status must
/// be `status`; the search's node count.
fn run_nodes(command: &[&str], text: &str, extra: &[&str], status_wanted: &str) -> u64 {
    let mut args = command.to_vec();
    args.extend_from_slice(&["--json", "-p", "1", "--nodes", "100000"]);
    args.extend_from_slice(extra);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = cli::run(&args, &mut text.as_bytes(), &mut out, &mut err);
    assert_eq!(status, 0, "{}", String::from_utf8_lossy(&err));
    let json: Value = serde_json::from_slice(&out).expect("one JSON line");
    // SATISFIED means the command's checker accepted the answer.
    assert_eq!(json["status"], status_wanted, "{command:?} {text}");
    json["stats"]["nodes"].as_u64().expect("a node count")
}

#[test]
fn nonograms_branch_with_dom_wdeg_and_need_fewer_nodes_than_input_order() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut default_total, mut input_total) = (0, 0);
    for _ in 0..12 {
        let text = random_nonogram(20, &mut rng);
        default_total += nodes(&text, &[]);
        input_total += nodes(&text, &["--var", "input"]);
    }
    // The flag names the default's order, so asking for it changes nothing.
    let text = random_nonogram(20, &mut rng);
    assert_eq!(nodes(&text, &[]), nodes(&text, &["--var", "dom-wdeg"]));
    assert!(
        default_total < input_total,
        "dom/wdeg {default_total} nodes, input order {input_total}"
    );
}

#[test]
fn thermometer_binairo_and_starbattle_branch_with_dom_wdeg_by_default() {
    // Counting explores the whole tree in the order chosen (restarts are off when counting),
    // so the node count tells the order: the default's is dom/wdeg's, not input order's.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../puzzles/instances/beyond/");
    for (puzzle, file) in [
        ("thermometer", "thermometer6x6-3.txt"),
        ("binairo", "binairo8-3.txt"),
        ("starbattle", "starbattle8-1-3.txt"),
    ] {
        let path = format!("{dir}{file}");
        // Without probing (the star battle probes at every node by default), which leaves the
        // orders less to do.
        let command = [puzzle, &path, "--count", "--probe-at", "off"];
        let count = |extra: &[&str]| run_nodes(&command, "", extra, "ALL_SOLUTIONS");
        let default = count(&[]);
        assert_eq!(default, count(&["--var", "dom-wdeg"]), "{puzzle}");
        assert_ne!(default, count(&["--var", "input"]), "{puzzle}");
    }
}
