//! The limits that docs/cli.md states, each tried on the real binary: large generated inputs
//! under a memory cap (a verdict, and no hang), the input cap, SIGINT and SIGTERM (complete
//! JSON with what was found), one short error line for a huge token, and the small rules
//! (`--`, file names that are not UTF-8, `--trace` over the input, a full standard output).
//!
//! The inputs are built here, not stored. No test asserts a speed: the time bounds are
//! generous margins that only catch a hang (the machine may be shared).

#![cfg(unix)]

use std::io::Write;

use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{capped_command as command, wait_within};

/// Run to the end, failing the test if it takes longer than `within`.
fn run_within(args: &[&str], within: Duration) -> Output {
    let started = Instant::now();
    let child = command(args).spawn().expect("cpsolve runs");
    let out = wait_within(child, within, &format!("cpsolve {args:?}"));
    assert!(
        started.elapsed() < within,
        "{args:?} took {:?}",
        started.elapsed()
    );
    out
}

fn one_error_line(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// A file written for one test and removed when the test drops it: the inputs here reach
/// megabytes, and must not pile up in the temporary folder run after run.
struct TempFile(std::path::PathBuf);

impl std::ops::Deref for TempFile {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempFile {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_file(name: &str, content: &[u8]) -> TempFile {
    let path = std::env::temp_dir().join(format!("cpsolve-limits-{}-{name}", std::process::id()));
    std::fs::write(&path, content).unwrap();
    TempFile(path)
}

const MARGIN: Duration = Duration::from_secs(60);

#[test]
fn dev_zero_is_refused_at_once() {
    let out = run_within(&["sudoku", "/dev/zero"], MARGIN);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_error_line(&out).contains("NUL"));
    // A FlatZinc file is read the same way: `zero.fzn`, a link to /dev/zero.
    let link = std::env::temp_dir().join(format!("cpsolve-limits-zero-{}.fzn", std::process::id()));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let out = run_within(&[link.to_str().unwrap()], MARGIN);
    let _ = std::fs::remove_file(&link);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_error_line(&out).contains("NUL"));
}

#[test]
fn an_input_past_the_cap_is_refused_with_its_size() {
    let e = cli::input::read_capped(&mut std::io::repeat(b'1'), "f")
        .unwrap_err()
        .unwrap();
    assert!(e.message.contains("256 MiB"), "{}", e.message);
}

/// A path of 100,000 nodes, colours alternating: parsed and modelled in linear time.
#[test]
fn v3ck_path_of_100000_nodes_gets_a_verdict() {
    let n = 100_000;
    let mut text = String::from("colours 2\nedges\n");
    for i in 0..n - 1 {
        text.push_str(&format!("a{i} a{}\n", i + 1));
    }
    text.push_str("tallies\n");
    for i in 0..n {
        // Edge i takes colour 1 when i is even.
        let ones = usize::from(i > 0 && (i - 1) % 2 == 0) + usize::from(i < n - 1 && i % 2 == 0);
        let degree = if i == 0 || i == n - 1 { 1 } else { 2 };
        text.push_str(&format!("a{i}: {ones} {}\n", degree - ones));
    }
    let file = temp_file("path.v3ck", text.as_bytes());
    let out = run_within(
        &["v3ck", file.to_str().unwrap(), "-t", "1000", "--json"],
        MARGIN,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(["SATISFIED", "UNKNOWN"].contains(&v["status"].as_str().unwrap()));
}

/// One winner over 100,000 names: any order with the winner first; counting is refused.
#[test]
fn ranking_of_100000_names_is_linear_or_refused() {
    let names: Vec<String> = (0..100_000).map(|i| format!("n{i}")).collect();
    let file = temp_file(
        "one-winner.txt",
        format!("W > {}\n", names.join(", ")).as_bytes(),
    );
    let path = file.to_str().unwrap();
    let out = run_within(&["ranking", path, "-t", "1000", "--json"], MARGIN);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "SATISFIED");
    let order = v["solution"].as_array().unwrap();
    assert_eq!((order.len(), order[0].as_str()), (100_001, Some("W")));
    let out = run_within(&["ranking", path, "--count"], MARGIN);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_error_line(&out).contains("1000"));
}

/// `-a --json` streams: 14,772,512 solutions of 16 queens do not fit in 1 GiB as a list.
#[test]
fn listing_with_json_streams_under_a_memory_cap() {
    let out = run_within(&["queens", "16", "-a", "--json", "-t", "2000"], MARGIN);
    assert_eq!(out.status.code(), Some(0), "{:?}", out.stderr);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one complete line");
    let listed = v["solutions"].as_array().unwrap().len() as u64;
    assert_eq!(Some(listed), v["stats"]["solutions"].as_u64());
    assert!(listed > 0);
}

fn interrupted(args: &[&str], signal: libc::c_int) -> Output {
    let child = command(args).spawn().expect("cpsolve runs");
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    wait_within(child, MARGIN, &format!("cpsolve {args:?} after a signal"))
}

#[test]
fn sigint_and_sigterm_print_what_was_found() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // A long count: the count so far, UNKNOWN.
        let out = interrupted(&["queens", "30", "--count", "--json"], signal);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("complete JSON");
        assert_eq!(v["status"], "UNKNOWN");
        assert!(v["count"].as_u64().unwrap() > 0, "{v}");
        // A long listing: a complete line with the solutions found.
        let out = interrupted(&["queens", "30", "-a", "--json"], signal);
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("complete JSON");
        assert_eq!(v["status"], "SATISFIED");
        assert!(!v["solutions"].as_array().unwrap().is_empty());
        // Text with -s: the statistics are there.
        let out = interrupted(&["queens", "30", "--count", "-s", "-p", "1"], signal);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("=====UNKNOWN=====") && text.contains("%%%mzn-stat-end"));
    }
}

#[test]
fn a_huge_token_gives_a_short_error_line() {
    let token = "x".repeat(1 << 20);
    for puzzle in ["sudoku", "kakuro", "match22", "monodot"] {
        let file = temp_file(&format!("{puzzle}.txt"), format!("{token}\n").as_bytes());
        let out = run_within(&[puzzle, file.to_str().unwrap()], MARGIN);
        assert_eq!(out.status.code(), Some(2), "{puzzle}");
        let line = one_error_line(&out);
        assert!(line.len() < 400, "{puzzle}: {} bytes", line.len());
    }
}

#[test]
fn double_dash_ends_the_flags_and_names_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let file = temp_file("seed-\u{e9}.txt", puzzles::sudoku::KIND.seed.as_bytes());
    let mut bytes = file.as_os_str().as_bytes().to_vec();
    bytes.truncate(bytes.len() - "\u{e9}.txt".len());
    bytes.extend_from_slice(b"\xff.txt");
    let odd = TempFile(std::path::PathBuf::from(OsStr::from_bytes(&bytes)));
    std::fs::copy(&file, &odd).unwrap();
    let out = command(&["sudoku", "--json", "--"])
        .arg(odd.as_os_str())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // After `--`, `-s` is a file name, not the statistics flag.
    let out = command(&["sudoku", "--", "-s"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_error_line(&out).contains("-s"));
}

#[test]
fn trace_refuses_to_overwrite_the_input() {
    let file = temp_file("trace-me.txt", puzzles::sudoku::KIND.seed.as_bytes());
    let path = file.to_str().unwrap();
    let out = command(&["sudoku", path, "--trace", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_error_line(&out).contains("--trace"));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        puzzles::sudoku::KIND.seed.as_bytes()
    );
}

#[test]
fn a_full_standard_output_exits_1_with_one_line() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        engine::testing::skip("no /dev/full on this machine");
        return;
    };
    let out = command(&["queens", "8", "-a"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(one_error_line(&out).contains("cannot write"));
}

#[test]
fn a_flag_that_does_not_apply_is_a_warning() {
    let out = command(&["sudoku", "--colours", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("warning: --colours"), "{err}");
    let trace = temp_file("warned.jsonl", b"");
    let out = command(&["queens", "6", "--trace", trace.to_str().unwrap(), "-p", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("warning: --trace"), "{err}");
}

/// `--failures N` stops the search like the other limits: a count that is a lower bound.
#[test]
fn a_failure_limit_stops_the_count() {
    let out = run_within(
        &[
            "queens",
            "8",
            "--count",
            "--failures",
            "3",
            "-p",
            "1",
            "--json",
        ],
        MARGIN,
    );
    let v = json_of(&out);
    assert_eq!(v["status"], "UNKNOWN");
    assert!(v["count"].as_u64().unwrap() < 92);
    // The limit is looked at before each node: the failure met on the way to the next one
    // may be counted too (4 here), never many more.
    let failures = v["stats"]["failures"].as_u64().unwrap();
    assert!((3..=4).contains(&failures), "{v}");
}

/// In a file of many instances, a signal stops the one being searched (its line says what
/// was found) and skips the rest: whole lines, fewer than the instances.
#[test]
fn a_signal_skips_the_instances_not_yet_started() {
    let empty = ".".repeat(81);
    let file = temp_file(
        "fifty-empty.txt",
        format!("{empty}\n").repeat(50).as_bytes(),
    );
    let out = interrupted(
        &[
            "sudoku",
            file.to_str().unwrap(),
            "--count",
            "-p",
            "1",
            "--json",
        ],
        libc::SIGINT,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = whole_json_lines(&out.stdout);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["status"], "UNKNOWN");
    assert!(lines[0]["count"].as_u64().unwrap() > 0);
}

#[test]
fn more_threads_than_cores_are_not_slower_to_start() {
    // -p 1024 is taken as the number of cores: the count is the same, and quick.
    let out = run_within(&["queens", "8", "--count", "-p", "1024"], MARGIN);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("92 solutions"));
    let _ = std::io::stdout().flush();
}

/// A 200×200 thermometer grid of 40,000 one-cell thermometers (every row and column sum 1).
fn thermometer_grid(n: usize) -> String {
    let mut text = format!("{n} {n}\n");
    let ones = vec!["1"; n].join(" ");
    text.push_str(&format!("{ones}\n{ones}\n"));
    for r in 0..n {
        let row: Vec<String> = (0..n).map(|c| format!("t{}.1", r * n + c)).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

fn json_of(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("one complete JSON line")
}

/// `-t` counts from the start of the run: reading and checking 5 MB of comments before an
/// empty Sudoku takes more than a millisecond, so with `-t 1` the count has no time left and
/// explores no node (were the clock started after the reading, the search would look at it
/// again only after 64 nodes).
#[test]
fn the_clock_starts_with_the_run_not_with_the_search() {
    let mut text = format!("% {}\n", "c".repeat(98)).repeat(50_000);
    text.push_str(&".".repeat(81));
    let file = temp_file("commented.txt", text.as_bytes());
    let path = file.to_str().unwrap();
    let out = run_within(
        &["sudoku", path, "--count", "-t", "1", "-p", "1", "--json"],
        MARGIN,
    );
    let v = json_of(&out);
    assert_eq!((&v["status"], &v["count"]), (&"UNKNOWN".into(), &0.into()));
    assert_eq!(v["stats"]["nodes"], 0, "{v}");
}

/// Large inputs of the new formats, read in linear time (names in hash maps): each gets its
/// verdict well within the margin, under the memory cap. Quadratic lookups took minutes.
#[test]
fn large_inputs_of_the_new_formats_end_within_the_limit() {
    let n = 100_000;
    // A chain of NOT gates: scramble's names.
    let mut circuit = String::from("switch a 0\nn0 = NOT a\n");
    for i in 1..n {
        circuit.push_str(&format!("n{i} = NOT n{}\n", i - 1));
    }
    circuit.push_str(&format!("lamp n{}\n", n - 1));
    let file = temp_file("chain.txt", circuit.as_bytes());
    let out = run_within(
        &["scramble", file.to_str().unwrap(), "-t", "1000", "--json"],
        MARGIN,
    );
    assert!(
        ["OPTIMAL", "SATISFIED", "UNKNOWN"].contains(&json_of(&out)["status"].as_str().unwrap())
    );
    // 40,000 thermometers' names.
    let file = temp_file("thermometer-200b.txt", thermometer_grid(200).as_bytes());
    let out = run_within(
        &[
            "thermometer",
            file.to_str().unwrap(),
            "-t",
            "1000",
            "--json",
        ],
        MARGIN,
    );
    assert!(["SATISFIED", "UNKNOWN"].contains(&json_of(&out)["status"].as_str().unwrap()));
    // FlatZinc: a search annotation over 100,000 variables, and 100,000 variables declared
    // without a domain whose bounds the reader infers.
    let mut annotated = String::new();
    let mut unbounded = String::new();
    for i in 0..n {
        annotated.push_str(&format!("var 1..3: x{i};\n"));
        unbounded.push_str(&format!("var int: y{i} :: output_var;\n"));
    }
    let names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
    annotated.push_str(&format!(
        "array [1..{n}] of var int: xs :: output_array([1..{n}]) = [{}];\n\
         solve :: int_search(xs, input_order, indomain_min, complete) satisfy;\n",
        names.join(",")
    ));
    for i in 0..n {
        unbounded.push_str(&format!("constraint int_eq(y{i}, {});\n", i % 7));
    }
    unbounded.push_str("solve satisfy;\n");
    for (name, model) in [("annotated.fzn", annotated), ("unbounded.fzn", unbounded)] {
        let file = temp_file(name, model.as_bytes());
        let out = run_within(&[file.to_str().unwrap(), "-t", "1000"], MARGIN);
        assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.ends_with("----------\n") || text.ends_with("=====UNKNOWN=====\n"),
            "{name}: {}",
            &text[text.len().saturating_sub(200)..]
        );
    }
}

/// In a file of many instances, `-t` is a budget per instance (docs/cli.md, "Limits"): two
/// empty Sudokus counted for 200 ms each are both searched (the second is not left with the
/// first one's spent budget), on one thread and side by side.
#[test]
fn each_instance_of_a_batch_has_its_own_limit() {
    let empty = ".".repeat(81);
    let file = temp_file("two-empty.txt", format!("{empty}\n{empty}\n").as_bytes());
    for threads in ["1", "2"] {
        let out = run_within(
            &[
                "sudoku",
                file.to_str().unwrap(),
                "--count",
                "-t",
                "200",
                "-p",
                threads,
                "--json",
            ],
            MARGIN,
        );
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).expect("whole JSON lines"))
            .collect();
        assert_eq!(lines.len(), 2);
        for v in &lines {
            assert_eq!(v["status"], "UNKNOWN", "{v}");
            assert!(
                v["stats"]["nodes"].as_u64().unwrap() > 0,
                "-p {threads}: {v}"
            );
        }
    }
}

fn send(child: &Child, signal: libc::c_int) {
    // SAFETY: sending a signal to our own child, not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
}

/// The bytes waiting in the pipe of the child's standard output.
fn bytes_in_pipe(child: &Child) -> usize {
    use std::os::unix::io::AsRawFd;
    let fd = child.stdout.as_ref().unwrap().as_raw_fd();
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    unsafe {
        libc::ioctl(fd, libc::FIONREAD, &mut n);
    }
    n.max(0) as usize
}

/// Poll until `ready` holds, failing the test after a minute.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < MARGIN, "{what}: not within {MARGIN:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every line complete (ending with a newline) and a JSON object; returns them.
fn whole_json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    assert!(
        stdout.is_empty() || stdout.ends_with(b"\n"),
        "a cut line: ...{:?}",
        String::from_utf8_lossy(&stdout[stdout.len().saturating_sub(80)..])
    );
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect()
}

/// SIGTERM in the middle of `queens 13 -a --json` (one line that grows with each solution):
/// the line is closed with what was found and the summary fields, never left cut.
#[test]
fn sigterm_mid_listing_closes_the_line() {
    let out = interrupted(&["queens", "13", "-a", "--json", "-p", "1"], libc::SIGTERM);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = whole_json_lines(&out.stdout);
    assert_eq!(lines.len(), 1);
    let v = &lines[0];
    // Stopped (SATISFIED) or, on a fast machine, finished before the signal (ALL_SOLUTIONS).
    assert!(["SATISFIED", "ALL_SOLUTIONS"].contains(&v["status"].as_str().unwrap()));
    let listed = v["solutions"].as_array().unwrap().len() as u64;
    assert_eq!(Some(listed), v["stats"]["solutions"].as_u64());
    assert!(listed > 0);
}

/// A run that cannot notice the first signal (it is still reading its input: standard input
/// stays open) goes on; the second signal ends it at once, killed by that signal.
#[test]
fn a_second_signal_ends_a_run_at_once() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut child = command(&["sudoku", "-", "--json"])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        std::thread::sleep(Duration::from_millis(300));
        send(&child, signal);
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first signal does not kill"
        );
        send(&child, signal);
        let out = wait_within(child, MARGIN, "cpsolve after a second signal");
        drop(stdin);
        assert_eq!(out.status.signal(), Some(signal), "{out:?}");
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    }
}

/// A second signal while a line is half written (a JSON listing, its pipe full: the writer is
/// blocked in the middle of the line) waits for the end of that line: the first signal
/// stopped the search, the line is completed with its summary, then the process ends by the
/// signal. Whole lines only.
#[test]
fn a_second_signal_mid_line_lets_the_line_end() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = command(&["queens", "30", "-a", "--json", "-p", "1"])
        .spawn()
        .unwrap();
    // The pipe is full: the line is open and the writer is blocked inside it.
    wait_until("a full pipe", || bytes_in_pipe(&child) >= 65_536);
    // Apart: two signals of one kind sent before the first is delivered count as one.
    send(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(200));
    send(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "it waits for the line to end"
    );
    let out = wait_within(child, MARGIN, "cpsolve waiting for its line to end");
    assert_eq!(out.status.signal(), Some(libc::SIGINT), "{:?}", out.status);
    let lines = whole_json_lines(&out.stdout);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["status"], "SATISFIED");
}

/// A third signal ends the process at once even in the middle of a line (a reader that
/// stopped reading cannot hold it forever); that is the one case where a line is cut.
#[test]
fn a_third_signal_ends_the_process_even_mid_line() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = command(&["queens", "30", "-a", "--json", "-p", "1"])
        .spawn()
        .unwrap();
    wait_until("a full pipe", || bytes_in_pipe(&child) >= 65_536);
    for _ in 0..3 {
        send(&child, libc::SIGTERM);
        std::thread::sleep(Duration::from_millis(200));
    }
    // Without reading its output: it must end by itself.
    let mut status = None;
    wait_until("the end of the process", || {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    assert_eq!(status.unwrap().signal(), Some(libc::SIGTERM));
}

/// A FlatZinc search (10^20 solutions to list) stops on the first signal too: whole
/// solutions, no `==========` (the search is not complete), exit 0.
#[test]
fn a_signal_stops_a_flatzinc_search() {
    let vars: String = (0..20)
        .map(|i| format!("var 1..10: x{i} :: output_var;\n"))
        .collect();
    let file = temp_file("many.fzn", format!("{vars}solve satisfy;\n").as_bytes());
    let out = interrupted(&[file.to_str().unwrap(), "-a"], libc::SIGINT);
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("----------\n"),
        "...{}",
        &text[text.len().saturating_sub(100)..]
    );
    assert!(!text.contains("=========="));
}

/// An internal error (a panic, provoked through the test hook `CPSOLVE_TEST_PANIC` of builds
/// with debug assertions) gives exit status 1 and one line `error: internal error: ...`, on
/// the main thread and on the workers, and standard output keeps whole lines: a JSON listing
/// cut by the panic is closed into a whole object.
#[test]
fn an_internal_error_exits_1_with_one_line() {
    if !cfg!(debug_assertions) {
        engine::testing::skip("the panic hook exists only in builds with debug assertions");
        return;
    }
    let empty = ".".repeat(81);
    let batch = temp_file("batch-panic.txt", format!("{empty}\n{empty}\n").as_bytes());
    let batch = batch.to_str().unwrap();
    for (at, args) in [
        ("start", &["queens", "8"][..]),
        ("start", &["queens", "8", "--count", "-p", "2"][..]),
        ("start", &["sudoku", batch, "-p", "2", "--json"][..]),
        ("solution", &["queens", "8", "-a", "--json"][..]),
        ("solution", &["queens", "8", "-a"][..]),
    ] {
        let out = command(args)
            .env("CPSOLVE_TEST_PANIC", at)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{at} {args:?}: {out:?}");
        let line = one_error_line(&out);
        assert!(line.starts_with("error: internal error: panic: "), "{line}");
        assert!(out.stdout.is_empty() || out.stdout.ends_with(b"\n"));
        if args.contains(&"--json") {
            let lines = whole_json_lines(&out.stdout);
            assert!(lines.iter().all(|v| v.get("status").is_none()), "{lines:?}");
        }
    }
}

/// Flow and Numberlink model a Boolean per cell and label: a 200×200 grid of 20,000 labels
/// (800,000,000 pairs, tens of GB) is refused at once with the limit it passed, not built.
#[test]
fn numberlink_with_too_many_labels_is_refused() {
    let mut text = String::new();
    for r in 0..200 {
        let row: Vec<String> = (0..200).map(|c| (r * 100 + c / 2).to_string()).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    let file = temp_file("many-labels.txt", text.as_bytes());
    let out = run_within(
        &["numberlink", file.to_str().unwrap(), "-t", "1000"],
        MARGIN,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(one_error_line(&out).contains("more than 250000"));
}
