//! Helpers shared by the command line's tests: run `cpsolve` as a library call, read the
//! seed instances' `expected.json`, parse JSON lines.
#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;

/// What a run printed, and its exit status.
#[derive(Debug)]
pub(crate) struct Ran {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    /// Every stdout line as JSON (panics on a line that is not).
    pub(crate) fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect()
    }

    /// The single JSON object of a one-instance run.
    pub(crate) fn json(&self) -> Value {
        let mut lines = self.json_lines();
        assert_eq!(lines.len(), 1, "one JSON line expected: {}", self.stdout);
        lines.pop().unwrap()
    }
}

/// `cpsolve ARGS` with `stdin` as standard input, through the library.
pub(crate) fn cpsolve(args: &[&str], stdin: &[u8]) -> Ran {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut input = stdin;
    let mut out = Vec::new();
    let mut err = Vec::new();
    let status = cli::run(&args, &mut input, &mut out, &mut err);
    Ran {
        status,
        stdout: String::from_utf8(out).expect("stdout is UTF-8"),
        stderr: String::from_utf8(err).expect("stderr is UTF-8"),
    }
}

/// The seed instances' expected answers, by puzzle name.
pub(crate) fn expected() -> serde_json::Map<String, Value> {
    let path = seed_dir().join("expected.json");
    let text = std::fs::read_to_string(&path).expect("expected.json");
    match serde_json::from_str(&text).expect("expected.json is JSON") {
        Value::Object(map) => map,
        _ => panic!("expected.json is an object"),
    }
}

pub(crate) fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../puzzles/instances/seed")
}

/// The registered puzzles that have an entry in `expected.json`, with it.
pub(crate) fn registered_seeds() -> Vec<(&'static puzzles::PuzzleKind, Value)> {
    let expected = expected();
    puzzles::all()
        .iter()
        .filter_map(|k| expected.get(k.name).map(|e| (k, e.clone())))
        .collect()
}

/// A fresh scratch file path (in the target directory, unique per test).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{}", std::process::id(), name))
}

/// The checker of the puzzle, applied to a JSON solution of its (first) seed instance, or of
/// the instance in `text`.
pub(crate) fn check_solution(
    kind: &puzzles::PuzzleKind,
    text: &str,
    solution: &Value,
) -> Result<(), String> {
    check_answer(kind, text, solution, None)
}

/// [`check_solution`] for an optimisation puzzle's solution and its objective.
pub(crate) fn check_answer(
    kind: &puzzles::PuzzleKind,
    text: &str,
    solution: &Value,
    objective: Option<i64>,
) -> Result<(), String> {
    let instances = (kind.parse)(text).map_err(|e| e.to_string())?;
    let answer = puzzles::Answer {
        json: solution.clone().into(),
        text: String::new(),
        objective,
    };
    instances[0].check(&answer)
}

/// Assert the contract's error form: exit 2, one line `error: FILE:LINE: message` on stderr,
/// nothing on stdout. Returns the line number.
pub(crate) fn assert_input_error(ran: &Ran, file: &str) -> usize {
    assert_eq!(ran.status, 2, "exit status 2 expected: {ran:?}");
    assert_eq!(ran.stdout, "", "nothing on stdout: {ran:?}");
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one error line: {ran:?}");
    let rest = lines[0]
        .strip_prefix(&format!("error: {file}:"))
        .unwrap_or_else(|| panic!("'error: {file}:LINE: ...' expected: {}", lines[0]));
    let (line, message) = rest.split_once(": ").expect("LINE: message");
    assert!(!message.trim().is_empty(), "a message: {}", lines[0]);
    line.parse()
        .unwrap_or_else(|_| panic!("a line number: {}", lines[0]))
}

/// The 17-clue Sudokus kept in the repository (`puzzles/data/sudoku_17clue_sample.txt`), one
/// 81-character line each.
pub(crate) fn sudoku_sample() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../puzzles/data/sudoku_17clue_sample.txt");
    let text = std::fs::read_to_string(path).expect("the 17-clue sample in the repository");
    puzzles::common::content_lines(&text)
        .into_iter()
        .map(|(_, l)| l.to_string())
        .collect()
}

/// Address space allowed to each run of [`capped_command`]: far more than any run of the
/// limit tests needs when memory is proportional to the problem, far less than the quadratic
/// or unbounded growth they once had (a linear chain of 30,000 variables took 2.24 GB when
/// the propagation queue kept every push of its root fixpoint).
pub(crate) const MEMORY_CAP: u64 = 1 << 30;

/// The real `cpsolve` binary with `args`, its output piped, its address space capped at
/// [`MEMORY_CAP`].
pub(crate) fn capped_command(args: &[&str]) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let mut c = Command::new(env!("CARGO_BIN_EXE_cpsolve"));
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: `setrlimit` is async-signal-safe and touches nothing of the parent.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY_CAP,
                rlim_max: MEMORY_CAP,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c
}

/// Wait for `child`'s end while reading its output (a full pipe would block it); past
/// `within`, kill it and fail the test, saying `what` was running.
pub(crate) fn wait_within(
    child: std::process::Child,
    within: std::time::Duration,
    what: &str,
) -> std::process::Output {
    let pid = child.id() as libc::pid_t;
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(within) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: killing our own child, which has not been reaped yet.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            panic!("{what}: still running after {within:?}: the limit does not hold");
        }
    }
}

// ----- random nonograms, for the tests that a search option keeps every answer -----------

/// The clue of a line of cells: the lengths of its runs of 1s.
pub(crate) fn clue(cells: &[bool]) -> String {
    let runs: Vec<String> = cells
        .split(|c| !c)
        .filter(|run| !run.is_empty())
        .map(|run| run.len().to_string())
        .collect();
    if runs.is_empty() {
        "0".to_string()
    } else {
        runs.join(",")
    }
}

/// A random `size`×`size` nonogram; with `broken`, one row clue comes from another random
/// row, which often leaves no solution.
pub(crate) fn random_nonogram(rng: &mut engine::rng::Rng, size: usize, broken: bool) -> String {
    let picture: Vec<Vec<bool>> = (0..size)
        .map(|_| (0..size).map(|_| rng.below(100) < 55).collect())
        .collect();
    let mut rows: Vec<String> = picture.iter().map(|r| clue(r)).collect();
    if broken {
        let other: Vec<bool> = (0..size).map(|_| rng.below(2) == 1).collect();
        rows[rng.below(size as u64) as usize] = clue(&other);
    }
    let columns: Vec<String> = (0..size)
        .map(|c| clue(&picture.iter().map(|r| r[c]).collect::<Vec<bool>>()))
        .collect();
    format!(
        "width {size}\nheight {size}\n\nrows\n{}\n\ncolumns\n{}\n",
        rows.join("\n"),
        columns.join("\n")
    )
}

/// Status and count of `cpsolve ARGS --json` (count 0 when absent).
pub(crate) fn verdict(args: &[&str], stdin: &str) -> (String, u64) {
    let ran = cpsolve(args, stdin.as_bytes());
    assert_eq!(ran.status, 0, "{args:?}: {}", ran.stderr);
    let answer = ran.json();
    (
        answer["status"].as_str().unwrap().to_string(),
        answer["count"].as_u64().unwrap_or(0),
    )
}
