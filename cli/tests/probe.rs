//! `--probe` (engine/src/search/probing.rs before the search) and `--probe-at nodes` (at
//! every node) change the work, never the answer: on random nonograms, some of them without a
//! solution, the status and the number of solutions are those of the run without probing
//! (`--probe-at off`), and on a counting run of each puzzle kind too.

mod common;

use common::{cpsolve, random_nonogram, verdict};
use engine::rng::Rng;

#[test]
fn probing_keeps_the_status_and_the_count_of_random_nonograms() {
    let mut rng = Rng::new(11);
    let mut unsatisfiable = 0;
    for case in 0..40 {
        let text = random_nonogram(&mut rng, 8, case % 2 == 1);
        let plain = verdict(&["nonogram", "-", "--count", "--json", "-p", "1"], &text);
        for flags in [
            &["--probe"][..],
            &["--probe-at", "nodes"],
            &["--probe-at", "off"],
        ] {
            let mut args = vec!["nonogram", "-", "--count", "--json", "-p", "1"];
            args.extend_from_slice(flags);
            assert_eq!(
                plain,
                verdict(&args, &text),
                "case {case}, {flags:?}:\n{text}"
            );
        }
        unsatisfiable += usize::from(plain.0 == "UNSATISFIABLE");
        // The first solution too (a different path through the code: no counting).
        let first = verdict(&["nonogram", "-", "--json", "--probe"], &text);
        let expected = if plain.0 == "UNSATISFIABLE" {
            "UNSATISFIABLE"
        } else {
            "SATISFIED"
        };
        assert_eq!(first.0, expected, "case {case}");
    }
    assert!(unsatisfiable > 0, "some broken clues leave no solution");
}

#[test]
fn probing_keeps_the_counts_of_the_other_puzzles() {
    for args in [
        vec!["queens", "6", "--count", "--json"],
        vec!["binairo", "--count", "--json"],
        vec!["starbattle", "--count", "--json"],
        vec!["sudoku", "--count", "--json"],
    ] {
        let plain = verdict(&args, "");
        for flags in [
            &["--probe"][..],
            &["--probe-at", "nodes"],
            &["--probe-at", "off"],
        ] {
            let mut probing = args.clone();
            probing.extend(flags);
            assert_eq!(plain, verdict(&probing, ""), "{args:?} {flags:?}");
        }
    }
}

#[test]
fn a_misspelt_place_to_probe_is_one_error_line() {
    let ran = cpsolve(&["nonogram", "--probe-at", "leaves"], b"");
    assert_eq!(ran.status, 2);
    assert_eq!(
        ran.stderr.trim(),
        "error: --probe-at: expected off, root or nodes, found 'leaves'"
    );
}

/// `--learn` with `--probe-at nodes` (refuted tries learned from): the same counts and
/// statuses as without either, on random nonograms (some without a solution) and on the
/// other puzzles' seeds.
#[test]
fn learning_with_probing_at_nodes_keeps_counts_and_statuses() {
    let mut rng = Rng::new(13);
    for case in 0..20 {
        let text = random_nonogram(&mut rng, 8, case % 2 == 1);
        let base = ["nonogram", "-", "--count", "--json", "-p", "1"];
        let plain = verdict(&[&base[..], &["--probe-at", "off"]].concat(), &text);
        for flags in [&["--learn", "--probe-at", "nodes"][..], &["--learn"]] {
            let learning = verdict(&[&base[..], flags].concat(), &text);
            assert_eq!(plain, learning, "case {case} {flags:?}:\n{text}");
        }
        let first = verdict(
            &["nonogram", "-", "--json", "--learn", "--probe-at", "nodes"],
            &text,
        );
        let expected = match plain.0.as_str() {
            "UNSATISFIABLE" => "UNSATISFIABLE",
            _ => "SATISFIED",
        };
        assert_eq!(first.0, expected, "case {case}");
    }
    for args in [
        vec!["queens", "8", "--count", "--json", "-p", "1"],
        vec!["binairo", "--count", "--json", "-p", "1"],
        vec!["starbattle", "--count", "--json", "-p", "1"],
        vec!["sudoku", "--count", "--json", "-p", "1"],
    ] {
        let plain = verdict(&args, "");
        let learning = verdict(
            &[&args[..], &["--learn", "--probe-at", "nodes"]].concat(),
            "",
        );
        assert_eq!(plain, learning, "{args:?}");
    }
}

/// A Sudoku that probing refutes leaves nothing behind in the model its file's Sudokus share
/// (it once left an empty clause there, one propagator more for every later instance): the
/// next instance's answer and its propagators are those of the same puzzle alone.
#[test]
fn a_refuted_instance_leaves_the_shared_model_as_it_was() {
    // Row 1 needs a 9 in its last cell, which row 2 already has in that column.
    let refuted =
        "12345678.........9...............................................................";
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let args = ["sudoku", "-", "--probe", "--json", "--profile", "-p", "1"];
    let alone = cpsolve(&args, format!("{good}\n").as_bytes());
    let after = cpsolve(&args, format!("{refuted}\n{good}\n").as_bytes());
    assert_eq!(after.status, 0, "{}", after.stderr);
    let lines = after.json_lines();
    assert_eq!(lines[0]["status"], "UNSATISFIABLE");
    assert_eq!(lines[1]["status"], "SATISFIED");
    let alone = alone.json();
    assert_eq!(lines[1]["solution"], alone["solution"]);
    let names = |line: &serde_json::Value| -> Vec<String> {
        let profile = line["stats"]["propagators"].as_array().expect("a profile");
        profile.iter().map(|p| p["name"].to_string()).collect()
    };
    assert_eq!(
        names(&lines[1]),
        names(&alone),
        "the second instance's propagators"
    );
}

/// The search's node count of `cpsolve ARGS --json -p 1`.
fn nodes(args: &[&str], stdin: &str) -> u64 {
    let mut args = args.to_vec();
    args.extend(["--json", "-p", "1"]);
    let ran = cpsolve(&args, stdin.as_bytes());
    assert_eq!(ran.status, 0, "{args:?}: {}", ran.stderr);
    ran.json()["stats"]["nodes"].as_u64().expect("a node count")
}

/// Each puzzle probes where its `KIND` says (docs/cli.md, "Which puzzle probes where"):
/// nonograms, star battles and Numberlink at every node, n-queens and Sudoku nowhere, so their
/// searches are those of `--probe-at off`, node for node.
#[test]
fn each_puzzle_probes_where_its_kind_says() {
    // A nonogram: the propagations tell every node's probing from the root's, even where
    // the nodes are the same.
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../puzzles/instances/beyond/generated5x6.non"
    );
    let propagations = |place: Option<&str>| -> u64 {
        let mut args = vec!["nonogram", file, "--count", "--json", "-p", "1"];
        if let Some(place) = place {
            args.extend(["--probe-at", place]);
        }
        let ran = cpsolve(&args, b"");
        assert_eq!(ran.status, 0, "{args:?}: {}", ran.stderr);
        ran.json()["stats"]["propagations"]
            .as_u64()
            .expect("a count")
    };
    assert_eq!(propagations(None), propagations(Some("nodes")));
    assert_ne!(propagations(None), propagations(Some("root")));
    for args in [vec!["queens", "8", "--count"], vec!["sudoku", "--count"]] {
        let mut off = args.clone();
        off.extend(["--probe-at", "off"]);
        assert_eq!(nodes(&args, ""), nodes(&off, ""), "{args:?}");
    }
    // Star battles probe at every node.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../puzzles/instances/beyond/");
    let board = format!("{dir}starbattle8-1-3.txt");
    let default = nodes(&["starbattle", &board, "--count"], "");
    let at_nodes = nodes(
        &["starbattle", &board, "--count", "--probe-at", "nodes"],
        "",
    );
    let at_root = nodes(&["starbattle", &board, "--count", "--probe-at", "root"], "");
    assert_eq!(default, at_nodes);
    assert_ne!(default, at_root, "the board does not tell nodes from root");
    // Numberlink too, as Flow Free.
    let board = format!("{dir}numberlink5x5-2.txt");
    let default = nodes(&["numberlink", &board, "--count"], "");
    let at_nodes = nodes(
        &["numberlink", &board, "--count", "--probe-at", "nodes"],
        "",
    );
    let off = nodes(&["numberlink", &board, "--count", "--probe-at", "off"], "");
    assert_eq!(default, at_nodes);
    assert_ne!(default, off, "the board does not tell nodes from off");
}
