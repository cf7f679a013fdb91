//! # The new puzzles on the public sets
//!
//! Runs the `cpsolve` command (through `cli::run`, the library behind the binary, in this
//! process: reading, parsing, model building, search, the puzzle's own checker and the JSON
//! line) on every instance of the public collections beside the repository
//! (`../shared/data`, never copied into it), one thread and a time limit per instance, and
//! checks every answer a second time here against what the set publishes:
//!
//! * `taai`: the 1,000 TAAI 2011 25×25 nonograms. The boards were drawn at random, so the
//!   published picture is one solution among possibly several: the answer is checked against
//!   the clues (its runs are recomputed here), and counted as "same picture" or not;
//! * `nonogram-non` (the 39 `.non` files, `goal` compared) and `nonogram-janko` (1,100 janko.at
//!   puzzles up to 20×20, published solution compared);
//! * `flow`: the 29 Flow Free levels of Matt Zucker's set (no published solutions: the
//!   command's checker is the check; `unsolvable_cross` must be UNSATISFIABLE);
//! * `numberlink`: the 580 janko.at Arukone puzzles (paths compared cell by cell with the
//!   published connections); `numberlink-flow`: those whose published solution covers every
//!   cell, solved with the `flow` rules (a tighter model, the same answer);
//! * `starbattle`, `thermometer`, `binairo`: the janko.at sets, published solution compared;
//! * `knights`: open tours on the empty N×N board for N = 5..12 and closed tours for even N
//!   6..12 (the command's checker is the check).
//!
//! An instance ends in exactly one verdict: `ok` (solved, checked), `unsolved` (the time
//! limit's UNKNOWN), `unsat` (UNSATISFIABLE, right only where the set says so), `differs` (an
//! answer the command's checker accepted that is not the published solution: the bench then
//! asks for two solutions and says how many it found), `wrong` (an answer that fails a check
//! here, or UNSATISFIABLE where the set has a solution), `rejected` (the command refused the input, exit 2, with
//! its message), `error` (any other exit status). Every instance that is not `ok` or an
//! expected `unsat` is listed by name: none is hidden.
//!
//! ```text
//! cargo build --profile ci -p benches --bin puzzle_sets
//! target/ci/puzzle_sets --data ../shared/data --limit-ms 10000 [--sets taai,flow] [--max N]
//!     [--skip N] [--nodes N] [--unique] [--csv FILE] [--extra FLAGS]
//! ```
//!
//! `--unique` runs each solved instance again with `-n 2` and counts those with exactly one
//! solution (janko.at publishes puzzles with a unique solution; the TAAI boards are random).
//! `--nodes N` stops each search after N nodes as well (the command's `--nodes`): a limit that
//! does not depend on the machine's load, unlike the time limit. `--extra "-f"` adds flags to every run (to compare heuristics). `--csv FILE` writes one
//! line per instance (set, name, size, verdict, nodes, wall and CPU milliseconds).
//!
//! The table gives the wall clock of the whole set and the CPU time of each instance (this
//! process's, every thread: on a shared machine the wall clock of a run grows with the
//! others' load, its CPU time much less); state the load beside them. The time limit is the
//! command's own, on the wall clock, so a loaded machine can leave an instance unsolved that
//! a quiet one solves: the node counts are the load-independent figures.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One instance as the command receives it, and what the set says its answer must be.
struct Case {
    set: &'static str,
    name: String,
    /// `RxC`, for the per-size lines.
    size: String,
    /// The command's arguments before the common flags (`["nonogram", "-"]`).
    args: Vec<String>,
    /// What the command reads on standard input.
    text: String,
    expect: Expect,
}

/// What a correct answer looks like.
enum Expect {
    /// Exactly this grid (the set's solutions are unique).
    Grid(Vec<Vec<Value>>),
    /// A nonogram picture with these row and column clues; the published picture is one
    /// valid answer among possibly several.
    Clues {
        rows: Vec<Vec<u32>>,
        cols: Vec<Vec<u32>>,
        published: Vec<Vec<u8>>,
    },
    /// Numberlink: each cell's set of joined neighbours (`"nesw"` letters, `""` unused).
    Links(Vec<Vec<String>>),
    /// No solution.
    Unsatisfiable,
    /// Any answer the command's own checker accepted.
    Checked,
    /// Nothing published (janko's one star battle without a solution): an answer the
    /// command's checker accepted, or UNSATISFIABLE.
    Unpublished,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Ok,
    /// An answer the command's checker accepted but not the published one: the puzzle has
    /// another solution (the note says how many `-n 2` found), or the published one is wrong.
    Differs,
    Unsolved,
    Unsat,
    Wrong,
    Rejected,
    Error,
}

struct Outcome {
    verdict: Verdict,
    /// Why, for every verdict but `Ok`.
    note: String,
    nodes: u64,
    /// Wall clock of the command, milliseconds.
    ms: f64,
    /// CPU time of this process during the command (every thread), milliseconds.
    cpu_ms: f64,
    /// With `--unique`: the number of solutions found with `-n 2`.
    solutions: Option<usize>,
    /// For `Expect::Clues`: the answer equals the published picture.
    same_picture: bool,
}

struct Args {
    data: PathBuf,
    limit_ms: u64,
    sets: Vec<String>,
    max: usize,
    /// Instances skipped at the start of each set.
    skip: usize,
    /// A search-node limit per instance (the command's `--nodes`), besides the time limit.
    nodes: Option<u64>,
    unique: bool,
    csv: Option<PathBuf>,
    /// More flags for every run of the command (`--extra "-f"`).
    extra: Vec<String>,
}

const ALL_SETS: &[&str] = &[
    "taai",
    "nonogram-non",
    "nonogram-janko",
    "flow",
    "numberlink",
    "numberlink-flow",
    "starbattle",
    "thermometer",
    "binairo",
    "knights",
];

fn usage(why: &str) -> ! {
    eprintln!("error: {why}");
    eprintln!(
        "usage: puzzle_sets [--data DIR] [--limit-ms MS] [--sets {}] [--max N] [--skip N] [--nodes N] [--unique] [--csv FILE] [--extra FLAGS]",
        ALL_SETS.join(",")
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        data: engine::testing::data_dir().unwrap_or_else(|| PathBuf::from("../shared/data")),
        limit_ms: 10_000,
        sets: ALL_SETS.iter().map(|s| s.to_string()).collect(),
        max: usize::MAX,
        skip: 0,
        nodes: None,
        unique: false,
        csv: None,
        extra: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--data" => a.data = PathBuf::from(value()),
            "--limit-ms" => {
                a.limit_ms = value().parse().unwrap_or_else(|_| usage("bad --limit-ms"))
            }
            "--max" => a.max = value().parse().unwrap_or_else(|_| usage("bad --max")),
            "--skip" => a.skip = value().parse().unwrap_or_else(|_| usage("bad --skip")),
            "--nodes" => a.nodes = Some(value().parse().unwrap_or_else(|_| usage("bad --nodes"))),
            "--sets" => {
                a.sets = value().split(',').map(str::to_string).collect();
                if let Some(bad) = a.sets.iter().find(|s| !ALL_SETS.contains(&s.as_str())) {
                    usage(&format!("unknown set {bad}"));
                }
            }
            "--unique" => a.unique = true,
            "--csv" => a.csv = Some(PathBuf::from(value())),
            "--extra" => a.extra = value().split_whitespace().map(str::to_string).collect(),
            _ => usage(&format!("unknown flag {flag}")),
        }
    }
    a
}

// ---------------------------------------------------------------- reading the sets

/// The `data` map of a puzzlekit-dataset JSON file, as (key, problem, solution) in file order.
fn janko_entries(path: &Path) -> Option<Vec<(String, String, String)>> {
    let text = std::fs::read_to_string(path).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    let data = json.get("data")?.as_object()?;
    Some(
        data.iter()
            .map(|(key, entry)| {
                let field = |name: &str| {
                    entry
                        .get(name)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                (key.clone(), field("problem"), field("solution"))
            })
            .collect(),
    )
}

/// `"12_10x10"` → `"10x10"`.
fn size_of_key(key: &str) -> String {
    key.rsplit('_').next().unwrap_or("").to_string()
}

/// The lines of a janko grid after its header, split on whitespace.
fn janko_grid(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// A janko `x`/`-` grid as 0/1 JSON numbers.
fn janko_xs(solution: &str) -> Vec<Vec<Value>> {
    janko_grid(solution)
        .iter()
        .map(|row| {
            row.iter()
                .map(|t| Value::from(u8::from(t == "x")))
                .collect()
        })
        .collect()
}

fn parse_clue(text: &str, separator: char) -> Vec<u32> {
    text.split(separator)
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "-")
        .filter_map(|t| t.parse().ok())
        .filter(|&n| n > 0)
        .collect()
}

/// A nonogram in Steve Simpson's `.non` format, the one the command reads.
fn to_non(rows: &[Vec<u32>], cols: &[Vec<u32>]) -> String {
    let line = |clue: &Vec<u32>| {
        if clue.is_empty() {
            "0".to_string()
        } else {
            clue.iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    let mut out = format!("width {}\nheight {}\n\nrows\n", cols.len(), rows.len());
    for r in rows {
        out += &(line(r) + "\n");
    }
    out += "\ncolumns\n";
    for c in cols {
        out += &(line(c) + "\n");
    }
    out
}

fn taai_cases(data: &Path) -> Result<Vec<Case>, String> {
    let dir = data.join("nonogram/taai");
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .map_err(|e| format!("{}: {e}", dir.join(name).display()))
    };
    let questions = read("taai2011_question.txt")?;
    let solutions = read("taai2011_solution.txt")?;
    // Both files: `$k`, then the puzzle's lines.
    let blocks = |text: &str| -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for line in text.lines() {
            if let Some(k) = line.strip_prefix('$') {
                out.push((k.trim().to_string(), Vec::new()));
            } else if let Some(last) = out.last_mut() {
                last.1.push(line.to_string());
            }
        }
        out
    };
    let solutions = blocks(&solutions);
    let mut cases = Vec::new();
    for (i, (k, lines)) in blocks(&questions).into_iter().enumerate() {
        if lines.len() != 50 {
            return Err(format!(
                "taai puzzle ${k}: {} clue lines, expected 50",
                lines.len()
            ));
        }
        let clues: Vec<Vec<u32>> = lines.iter().map(|l| parse_clue(l, '\t')).collect();
        let (cols, rows) = clues.split_at(25);
        let published: Vec<Vec<u8>> = solutions
            .get(i)
            .map(|(_, l)| {
                l.iter()
                    .map(|r| r.split_whitespace().map(|t| u8::from(t == "1")).collect())
                    .collect()
            })
            .unwrap_or_default();
        cases.push(Case {
            set: "taai",
            name: format!("taai2011 ${k}"),
            size: "25x25".into(),
            args: vec!["nonogram".into(), "-".into()],
            text: to_non(rows, cols),
            expect: Expect::Clues {
                rows: rows.to_vec(),
                cols: cols.to_vec(),
                published,
            },
        });
    }
    Ok(cases)
}

fn non_cases(data: &Path) -> Result<Vec<Case>, String> {
    let root = data.join("nonogram/non");
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "non") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let key = |k: &str| {
            text.lines()
                .find_map(|l| {
                    l.strip_prefix(k)
                        .map(|v| v.trim().trim_matches('"').to_string())
                })
                .unwrap_or_default()
        };
        let (width, height, goal) = (key("width "), key("height "), key("goal "));
        let w: usize = width.parse().unwrap_or(0);
        let expect = if goal.len() == w * height.parse::<usize>().unwrap_or(0) && w > 0 {
            let cells: Vec<Value> = goal
                .bytes()
                .map(|b| Value::from(u8::from(b == b'1')))
                .collect();
            Expect::Grid(cells.chunks(w).map(<[Value]>::to_vec).collect())
        } else {
            Expect::Checked
        };
        cases.push(Case {
            set: "nonogram-non",
            name: path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string(),
            size: format!("{height}x{width}"),
            args: vec!["nonogram".into(), "-".into()],
            text,
            expect,
        });
    }
    Ok(cases)
}

fn janko_file(data: &Path, file: &str) -> Result<Vec<(String, String, String)>, String> {
    let path = data.join(file);
    janko_entries(&path)
        .ok_or_else(|| format!("{}: missing or not a puzzlekit JSON file", path.display()))
}

fn nonogram_janko_cases(data: &Path) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (key, problem, solution) in janko_file(data, "nonogram/janko_nonogram_puzzlekit_le20.json")?
    {
        let mut lines = problem.lines().filter(|l| !l.trim().is_empty());
        let header: Vec<usize> = lines
            .next()
            .unwrap_or("")
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        let (h, w) = (
            header.first().copied().unwrap_or(0),
            header.get(1).copied().unwrap_or(0),
        );
        let clues: Vec<Vec<u32>> = lines.map(|l| parse_clue(l, ' ')).collect();
        if clues.len() != h + w {
            return Err(format!(
                "janko nonogram {key}: {} clue lines, expected {}",
                clues.len(),
                h + w
            ));
        }
        let (cols, rows) = clues.split_at(w);
        cases.push(Case {
            set: "nonogram-janko",
            name: key.clone(),
            size: size_of_key(&key),
            args: vec!["nonogram".into(), "-".into()],
            text: to_non(rows, cols),
            expect: Expect::Grid(janko_xs(&solution)),
        });
    }
    Ok(cases)
}

fn flow_cases(data: &Path) -> Result<Vec<Case>, String> {
    let dir = data.join("numberlink/flowfree_mzucker");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let rows = text.lines().filter(|l| !l.trim().is_empty()).count();
        let cols = text.lines().next().map_or(0, |l| l.trim_end().len());
        cases.push(Case {
            set: "flow",
            expect: if name.starts_with("unsolvable") {
                Expect::Unsatisfiable
            } else {
                Expect::Checked
            },
            name,
            size: format!("{rows}x{cols}"),
            args: vec!["flow".into(), "-".into()],
            text,
        });
    }
    Ok(cases)
}

/// The janko.at Numberlink puzzles, with the `numberlink` rules (cells may stay empty) or,
/// `as_flow`, those whose published solution covers every cell with the `flow` rules: the
/// same answer, a tighter model (`circuit` instead of `subcircuit`).
fn numberlink_cases(data: &Path, as_flow: bool) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (key, problem, solution) in janko_file(data, "numberlink/janko_numberlink_puzzlekit.json")?
    {
        // The command's token form has no size line: drop janko's `H W`.
        let text: String = problem.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let links = janko_grid(&solution)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|t| {
                        let mut letters: Vec<char> =
                            t.chars().filter(|c| "nesw".contains(*c)).collect();
                        letters.sort_unstable();
                        letters.into_iter().collect()
                    })
                    .collect()
            })
            .collect();
        let covers_every_cell = !solution
            .lines()
            .skip(1)
            .any(|l| l.split_whitespace().any(|t| t == "-"));
        if as_flow && !covers_every_cell {
            continue;
        }
        let (set, puzzle) = if as_flow {
            ("numberlink-flow", "flow")
        } else {
            ("numberlink", "numberlink")
        };
        cases.push(Case {
            set,
            size: size_of_key(&key),
            name: key,
            args: vec![puzzle.into(), "-".into()],
            text,
            expect: Expect::Links(links),
        });
    }
    Ok(cases)
}

/// Star battle, thermometer: janko's problem text is the command's format; the solution is
/// an `x`/`-` grid.
fn janko_xs_cases(data: &Path, set: &'static str, file: &str) -> Result<Vec<Case>, String> {
    Ok(janko_file(data, file)?
        .into_iter()
        .map(|(key, problem, solution)| Case {
            set,
            size: size_of_key(&key),
            name: key,
            args: vec![set.into(), "-".into()],
            expect: if solution.trim().is_empty() {
                Expect::Unpublished
            } else {
                Expect::Grid(janko_xs(&solution))
            },
            text: problem,
        })
        .collect())
}

fn binairo_cases(data: &Path) -> Result<Vec<Case>, String> {
    // docs/formats.md: drop the `H W` line, write janko's 2 as 0 and `-` as `.` (1 stays 1).
    let recode = |t: &str| {
        match t {
            "2" => "0",
            "-" => ".",
            other => other,
        }
        .to_string()
    };
    let mut cases = Vec::new();
    for (key, problem, solution) in janko_file(data, "binairo/janko_binairo_puzzlekit.json")? {
        let text: String = janko_grid(&problem)
            .iter()
            .map(|row| row.iter().map(|t| recode(t)).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let grid = janko_grid(&solution)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|t| Value::from(u8::from(t == "1")))
                    .collect()
            })
            .collect();
        cases.push(Case {
            set: "binairo",
            size: size_of_key(&key),
            name: key,
            args: vec!["binairo".into(), "-".into()],
            text,
            expect: Expect::Grid(grid),
        });
    }
    Ok(cases)
}

fn knights_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for n in 5..=12 {
        cases.push(Case {
            set: "knights",
            name: format!("open {n}x{n}"),
            size: format!("{n}x{n}"),
            args: vec!["knights".into(), n.to_string()],
            text: String::new(),
            expect: Expect::Checked,
        });
    }
    for n in (6..=12).step_by(2) {
        let row = vec!["."; n].join(" ") + "\n";
        cases.push(Case {
            set: "knights",
            name: format!("closed {n}x{n}"),
            size: format!("{n}x{n}"),
            args: vec!["knights".into(), "-".into()],
            text: format!("closed\n{}", row.repeat(n)),
            expect: Expect::Checked,
        });
    }
    cases
}

// ---------------------------------------------------------------- running and checking

/// The lengths of the runs of 1s in a line.
fn runs(line: impl Iterator<Item = u8>) -> Vec<u32> {
    let mut out = Vec::new();
    let mut current = 0;
    for cell in line {
        if cell == 1 {
            current += 1;
        } else if current > 0 {
            out.push(current);
            current = 0;
        }
    }
    if current > 0 {
        out.push(current);
    }
    out
}

/// `check_answer`'s word for a grid that is not the published one.
const DIFFERS: &str = "differs from the published solution";

/// The answer against the set; `Err(why)` when it is wrong. `Ok(same)` tells, for nonograms
/// with clues only, whether the picture is the published one.
fn check_answer(expect: &Expect, solution: Option<&Value>) -> Result<bool, String> {
    let grid: Vec<Vec<Value>> = match solution {
        Some(Value::Array(rows)) => rows
            .iter()
            .map(|r| r.as_array().cloned().unwrap_or_default())
            .collect(),
        _ => return Err("no solution in the JSON".into()),
    };
    match expect {
        Expect::Unsatisfiable => Err("a solution for an instance without one".into()),
        Expect::Checked | Expect::Unpublished => Ok(true),
        Expect::Grid(want) => {
            if &grid == want {
                Ok(true)
            } else {
                Err(DIFFERS.into())
            }
        }
        Expect::Clues {
            rows,
            cols,
            published,
        } => {
            let bits: Vec<Vec<u8>> = grid
                .iter()
                .map(|r| r.iter().map(|v| v.as_u64().unwrap_or(9) as u8).collect())
                .collect();
            if bits.len() != rows.len() || bits.iter().any(|r| r.len() != cols.len()) {
                return Err("wrong size".into());
            }
            for (i, clue) in rows.iter().enumerate() {
                if &runs(bits[i].iter().copied()) != clue {
                    return Err(format!("row {} does not match its clue", i + 1));
                }
            }
            for (j, clue) in cols.iter().enumerate() {
                if &runs(bits.iter().map(|r| r[j])) != clue {
                    return Err(format!("column {} does not match its clue", j + 1));
                }
            }
            Ok(&bits == published)
        }
        Expect::Links(want) => {
            let h = grid.len();
            for (r, row) in grid.iter().enumerate() {
                for (c, label) in row.iter().enumerate() {
                    let same = |rr: isize, cc: isize| {
                        rr >= 0
                            && (rr as usize) < h
                            && !label.is_null()
                            && grid[rr as usize].get(cc as usize) == Some(label)
                    };
                    let (ri, ci) = (r as isize, c as isize);
                    let mut got = String::new();
                    for (letter, rr, cc) in [
                        ('e', ri, ci + 1),
                        ('n', ri - 1, ci),
                        ('s', ri + 1, ci),
                        ('w', ri, ci - 1),
                    ] {
                        if same(rr, cc) {
                            got.push(letter);
                        }
                    }
                    let expected = want
                        .get(r)
                        .and_then(|w| w.get(c))
                        .map_or("?", String::as_str);
                    if got != expected {
                        return Err(format!(
                            "cell [{}, {}] joins \"{got}\", the published solution \"{expected}\"",
                            r + 1,
                            c + 1
                        ));
                    }
                }
            }
            Ok(true)
        }
    }
}

/// `", N nodes"` when the flags hold `--nodes N`.
fn node_limit_text(extra: &[String]) -> String {
    extra
        .iter()
        .position(|f| f == "--nodes")
        .and_then(|i| extra.get(i + 1))
        .map_or(String::new(), |n| format!(", {n} nodes"))
}

/// The CPU time this process has used, in milliseconds (all its threads).
fn process_cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the call only writes it.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    if status != 0 {
        return 0.0;
    }
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// One run of the command; (exit status, standard output, standard error, wall
/// milliseconds, CPU milliseconds).
fn run_command(case: &Case, extra: &[String]) -> (i32, String, String, f64, f64) {
    let mut args = case.args.clone();
    args.extend(extra.iter().cloned());
    let mut stdin = case.text.as_bytes();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let (start, cpu_start) = (Instant::now(), process_cpu_ms());
    let status = cli::run(&args, &mut stdin, &mut out, &mut err);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let cpu_ms = process_cpu_ms() - cpu_start;
    (
        status,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
        ms,
        cpu_ms,
    )
}

fn solve(case: &Case, limit_ms: u64, unique: bool, extra: &[String]) -> Outcome {
    let mut common: Vec<String> = ["--json", "-p", "1", "-t", &limit_ms.to_string()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    common.extend(extra.iter().cloned());
    let (status, out, err, ms, cpu_ms) = run_command(case, &common);
    let mut outcome = Outcome {
        verdict: Verdict::Error,
        note: String::new(),
        nodes: 0,
        ms,
        cpu_ms,
        solutions: None,
        same_picture: false,
    };
    let first_line = |s: &str| s.lines().next().unwrap_or("").to_string();
    if status != 0 {
        outcome.verdict = if status == 2 {
            Verdict::Rejected
        } else {
            Verdict::Error
        };
        outcome.note = format!("exit {status}: {}", first_line(&err));
        return outcome;
    }
    let json: Value = match serde_json::from_str(out.trim()) {
        Ok(v) => v,
        Err(e) => {
            outcome.note = format!("output is not one JSON line ({e})");
            return outcome;
        }
    };
    outcome.nodes = json
        .pointer("/stats/nodes")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let status = json.get("status").and_then(Value::as_str).unwrap_or("");
    match status {
        "UNKNOWN" => {
            outcome.verdict = Verdict::Unsolved;
            outcome.note = format!(
                "no answer within the limits ({limit_ms} ms{})",
                node_limit_text(extra)
            );
            return outcome;
        }
        "UNSATISFIABLE" => {
            if matches!(case.expect, Expect::Unsatisfiable | Expect::Unpublished) {
                outcome.verdict = Verdict::Unsat;
                outcome.note = "UNSATISFIABLE, no published solution".into();
            } else {
                outcome.verdict = Verdict::Wrong;
                outcome.note = "UNSATISFIABLE, but the set has a solution".into();
            }
            return outcome;
        }
        "SATISFIED" | "OPTIMAL" => {}
        other => {
            outcome.note = format!("status {other:?}");
            return outcome;
        }
    }
    match check_answer(&case.expect, json.get("solution")) {
        Ok(same) => {
            outcome.verdict = Verdict::Ok;
            outcome.same_picture = same;
        }
        Err(why) if why == DIFFERS => {
            // The command's checker accepted it: look for a second solution.
            let mut flags = common.clone();
            flags.extend(["-n".to_string(), "2".to_string()]);
            let (_, out, _, _, _) = run_command(case, &flags);
            let json: Value = serde_json::from_str(out.trim()).unwrap_or(Value::Null);
            let found = json
                .get("solutions")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            outcome.verdict = Verdict::Differs;
            outcome.note = format!("{why}; `-n 2` finds {found} solutions");
            return outcome;
        }
        Err(why) => {
            outcome.verdict = Verdict::Wrong;
            outcome.note = why;
            return outcome;
        }
    }
    if unique {
        let mut flags = common.clone();
        flags.extend(["-n".to_string(), "2".to_string()]);
        let (status, out, _, _, _) = run_command(case, &flags);
        let json: Value = serde_json::from_str(out.trim()).unwrap_or(Value::Null);
        let complete = json.get("status").and_then(Value::as_str) != Some("UNKNOWN");
        let count = json
            .get("solutions")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        // Only a complete search proves there is no second solution.
        outcome.solutions = (status == 0 && (complete || count >= 2)).then_some(count);
    }
    outcome
}

// ---------------------------------------------------------------- the report

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// One summary line for a group of instances (a set, or one size of a set).
fn summary(label: &str, results: &[(&Case, Outcome)], unique: bool) {
    let count = |v: Verdict| results.iter().filter(|(_, o)| o.verdict == v).count();
    let wall_s: f64 = results.iter().map(|(_, o)| o.ms).sum::<f64>() / 1e3;
    let mut times: Vec<f64> = results.iter().map(|(_, o)| o.cpu_ms).collect();
    times.sort_by(f64::total_cmp);
    let total_s: f64 = times.iter().sum::<f64>() / 1e3;
    let nodes: Vec<u64> = results.iter().map(|(_, o)| o.nodes).collect();
    let zero = nodes.iter().filter(|&&n| n == 0).count();
    let unique_text = if unique {
        let proved = results
            .iter()
            .filter(|(_, o)| o.solutions == Some(1))
            .count();
        let several = results
            .iter()
            .filter(|(_, o)| o.solutions.is_some_and(|n| n >= 2))
            .count();
        format!(" | {proved} | {several}")
    } else {
        String::new()
    };
    println!(
        "| {label} | {} | {} | {} | {} | {} | {} | {} | {wall_s:.2} | {:.2} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {}{unique_text} |",
        results.len(),
        count(Verdict::Ok) + count(Verdict::Unsat) + count(Verdict::Differs),
        count(Verdict::Unsolved),
        count(Verdict::Differs),
        count(Verdict::Wrong),
        count(Verdict::Rejected),
        count(Verdict::Error),
        total_s,
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(0.0),
        zero,
        nodes.iter().sum::<u64>(),
        nodes.iter().max().copied().unwrap_or(0),
    );
}

fn main() {
    let mut args = parse_args();
    if let Some(n) = args.nodes {
        args.extra.extend(["--nodes".to_string(), n.to_string()]);
    }
    let mut csv = args.csv.as_ref().map(|path| {
        let mut file = std::fs::File::create(path)
            .unwrap_or_else(|e| usage(&format!("{}: {e}", path.display())));
        use std::io::Write;
        let _ = writeln!(
            file,
            "set,name,size,verdict,nodes,wall_ms,cpu_ms,solutions,note"
        );
        file
    });
    let header_unique = if args.unique { " unique | 2+ |" } else { "" };
    let mut lines_below = Vec::new();
    println!(
        "| set | instances | solved | unsolved | differs | wrong | rejected | errors | wall s | CPU s | median CPU ms | p90 | p99 | max | 0 nodes | nodes | max nodes |{header_unique}"
    );
    println!("|---|{}", "---:|".repeat(if args.unique { 18 } else { 16 }));
    for set in &args.sets {
        let cases = match set.as_str() {
            "taai" => taai_cases(&args.data),
            "nonogram-non" => non_cases(&args.data),
            "nonogram-janko" => nonogram_janko_cases(&args.data),
            "flow" => flow_cases(&args.data),
            "numberlink" => numberlink_cases(&args.data, false),
            "numberlink-flow" => numberlink_cases(&args.data, true),
            "starbattle" => janko_xs_cases(
                &args.data,
                "starbattle",
                "starbattle/janko_starbattle_puzzlekit.json",
            ),
            "thermometer" => janko_xs_cases(
                &args.data,
                "thermometer",
                "thermometer/janko_thermometer_puzzlekit.json",
            ),
            "binairo" => binairo_cases(&args.data),
            "knights" => Ok(knights_cases()),
            _ => unreachable!("checked in parse_args"),
        };
        let cases = match cases {
            Ok(c) => c,
            Err(why) => {
                println!("| {set} | skipped: {why} |");
                continue;
            }
        };
        let mut results = Vec::new();
        for case in cases.iter().skip(args.skip).take(args.max) {
            let outcome = solve(case, args.limit_ms, args.unique, &args.extra);
            if let Some(file) = csv.as_mut() {
                use std::io::Write;
                let _ = writeln!(
                    file,
                    "{},{},{},{:?},{},{:.3},{:.3},{},\"{}\"",
                    case.set,
                    case.name,
                    case.size,
                    outcome.verdict,
                    outcome.nodes,
                    outcome.ms,
                    outcome.cpu_ms,
                    outcome.solutions.map_or(String::new(), |n| n.to_string()),
                    outcome.note.replace('"', "'")
                );
            }
            if !matches!(outcome.verdict, Verdict::Ok) {
                lines_below.push(format!(
                    "{} {}: {:?}, {}",
                    case.set, case.name, outcome.verdict, outcome.note
                ));
            }
            // Random boards (TAAI) and empty knight's boards have many solutions.
            let unique_expected = !matches!(case.set, "taai" | "knights");
            if args.unique && unique_expected && outcome.solutions.is_some_and(|n| n >= 2) {
                lines_below.push(format!("{} {}: a second solution", case.set, case.name));
            }
            results.push((case, outcome));
        }
        summary(set, &results, args.unique);
        let mut sizes: Vec<&str> = results.iter().map(|(c, _)| c.size.as_str()).collect();
        sizes.sort_by_key(|s| {
            let mut parts = s.split('x').map(|n| n.parse::<usize>().unwrap_or(0));
            (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
        });
        sizes.dedup();
        if sizes.len() > 1 {
            for size in sizes {
                let group: Vec<(&Case, Outcome)> = results
                    .iter()
                    .filter(|(c, _)| c.size == size)
                    .map(|(c, o)| {
                        (
                            *c,
                            Outcome {
                                note: String::new(),
                                ..*o
                            },
                        )
                    })
                    .collect();
                summary(&format!("{set} {size}"), &group, args.unique);
            }
        }
        if set == "taai" {
            let same = results
                .iter()
                .filter(|(_, o)| o.verdict == Verdict::Ok && o.same_picture)
                .count();
            lines_below.push(format!(
                "taai: {same} of the solved pictures equal the published board"
            ));
        }
    }
    println!();
    for line in &lines_below {
        println!("- {line}");
    }
}
