//! Output files (issue 30): `--animate`, `--tree` and `--trace` never write over the input
//! (`cpsolve thermometer p.txt --animate p.txt` once exited 0 with the puzzle replaced by
//! HTML), every output path is opened before the search (`cpsolve queens 12 -a --animate
//! /nonexistent/x.html` once searched and printed everything, then failed), and a write that
//! fails once the run has started exits 1, as `--help` says.

mod common;

use common::{cpsolve, scratch, Ran};

const THERMOMETER: &str =
    "4 4\n2 3 2 1\n3 3 1 1\n3.2 4.1 4.2 4.3\n3.1 6.2 6.3 4.4\n7.1 6.1 2.1 5.1\n1.1 1.2 2.2 2.3\n";

fn refused(ran: &Ran, says: &str) {
    assert_eq!(ran.status, 2, "{}", ran.stdout);
    assert!(ran.stdout.is_empty(), "nothing searched: {}", ran.stdout);
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    assert!(ran.stderr.contains(says), "{says}: {}", ran.stderr);
}

#[test]
fn no_output_flag_writes_over_the_input() {
    let puzzle = scratch("thermo-input.txt");
    std::fs::write(&puzzle, THERMOMETER).unwrap();
    let link = scratch("thermo-link.txt");
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(&puzzle, &link).unwrap();
    let p = puzzle.to_str().unwrap();
    let dotted = format!(
        "{}/./{}",
        puzzle.parent().unwrap().display(),
        puzzle.file_name().unwrap().to_str().unwrap()
    );
    for flag in ["--animate", "--tree", "--trace"] {
        for output in [p, dotted.as_str(), link.to_str().unwrap()] {
            let ran = cpsolve(&["thermometer", p, flag, output], b"");
            refused(&ran, "is the input file");
            assert_eq!(std::fs::read_to_string(&puzzle).unwrap(), THERMOMETER);
        }
    }
}

#[test]
fn an_output_that_cannot_be_created_stops_the_run_before_the_search() {
    for flag in ["--animate", "--tree", "--trace"] {
        let ran = cpsolve(&["queens", "12", "-a", flag, "/nonexistent/x.html"], b"");
        refused(&ran, "cannot create '/nonexistent/x.html'");
    }
}

#[test]
fn two_outputs_on_one_file_are_refused() {
    let file = scratch("both.jsonl");
    let f = file.to_str().unwrap();
    refused(
        &cpsolve(&["queens", "6", "--trace", f, "--tree", f], b""),
        "both name",
    );
    refused(
        &cpsolve(&["queens", "6", "--tree", f, "--animate", f], b""),
        "both name",
    );
    // `cpsolve tree TRACE -o TRACE` would replace the trace by its drawing.
    let ok = cpsolve(&["queens", "6", "--trace", f], b"");
    assert_eq!(ok.status, 0, "{}", ok.stderr);
    let trace = std::fs::read_to_string(&file).unwrap();
    let ran = cpsolve(&["tree", f, "-o", f], b"");
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("the trace itself"), "{}", ran.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), trace);
}

#[test]
fn a_write_that_fails_after_the_start_exits_1() {
    if !std::path::Path::new("/dev/full").exists() {
        println!("skipped: no /dev/full on this system");
        return;
    }
    for flag in ["--animate", "--tree"] {
        let ran = cpsolve(&["queens", "6", flag, "/dev/full"], b"");
        assert_eq!(ran.status, 1, "{flag}: {}", ran.stderr);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(
            ran.stderr.starts_with("error: cannot write the output: "),
            "{}",
            ran.stderr
        );
    }
    // As --help says.
    let help = cpsolve(&["--help"], b"").stdout;
    assert!(
        help.contains("1 internal error, or a write that failed"),
        "{help}"
    );
}

#[test]
fn tour_refuses_an_output_file_each_puzzle_would_write_over() {
    let file = scratch("tour.out");
    let f = file.to_str().unwrap();
    for flag in ["--trace", "--tree", "--animate"] {
        refused(
            &cpsolve(&["tour", flag, f], b""),
            "tour runs one per puzzle",
        );
    }
}
