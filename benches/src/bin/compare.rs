//! # cpsolve against its peers, on the same puzzle files
//!
//! `cargo run --release -p benches --bin compare -- [--limit N] [--kakuro N] [--queens MAX] [--skip-slow] [--repeat N]`
//!
//! Solves the public benchmark sets of `../shared/data` with cpsolve's engine and with two
//! Rust crates, and prints puzzles per second and the ratios:
//!
//! * `sudoku` (0.8): a dedicated Sudoku solver (bit-parallel, with hidden singles and
//!   locked candidates): the speed a general engine can only approach;
//! * `puzzle-solver` (0.4): a general constraint solver for logic puzzles, the closest
//!   peer in purpose.
//!
//! Every solution from every solver is verified (Sudoku: the rules and the givens; Kakuro:
//! equal to the published solution; n-queens: the known counts), and a uniqueness run must
//! find exactly one solution. cpsolve is timed in two ways: the engine with one model reused
//! for every puzzle (`SudokuSolver`), and the `cpsolve` command itself on the whole file
//! (`cli::run`: reading, parsing, solving, checking and printing every answer as JSON).
//!
//! Times are wall-clock on one thread (each Sudoku row also prints the command as a user
//! types it, without `-p 1`, sharing the puzzles among all cores: a figure beside the
//! one-thread comparison, not one of its ratios); on a shared machine run it when it is
//! quiet, or compare ratios. Each Sudoku row times the solvers in turn, `--repeat` times (3 by
//! default), and keeps each one's best rate, so that a drift of the machine's speed during
//! the row does not decide a ratio. Under each row, the command's ratio to puzzle-solver
//! round by round and its median: the solvers of a round are timed seconds apart, and the
//! spread shows how far the machine moved.

use benches::*;
use engine::AllDiffLevel;
use puzzle_solver::{Constraint, LinExpr, PsResult, Puzzle, PuzzleSearch, Val, VarToken};
use puzzles::common::ModelOptions;
use std::rc::Rc;
use std::time::Instant;

/// Puzzles timed at the (slow) value level of all-different, per set.
const VALUE_LEVEL_SAMPLE: usize = 300;

struct Options {
    /// Puzzles per set at most (default: the sizes of the reference table).
    limit: Option<usize>,
    /// Kakuro grids at most (default: `limit`; puzzle-solver needs over 15 minutes for all
    /// 998, so a full Sudoku comparison usually runs with a smaller Kakuro sample).
    kakuro_limit: Option<usize>,
    /// Largest n for n-queens.
    queens_max: usize,
    /// Leave out puzzle-solver (the slowest by far).
    skip_slow: bool,
    /// Times each Sudoku row is measured, the solvers taking turns; the best rate of each
    /// is kept, and the command's ratio to puzzle-solver is also shown round by round. The
    /// machine's speed drifts by a third from minute to minute even when it is idle
    /// (2026-11-23), and one pass per solver let that drift into the ratios.
    repeat: usize,
}

fn main() {
    let mut opts = Options {
        limit: None,
        kakuro_limit: None,
        queens_max: 12,
        skip_slow: false,
        repeat: 3,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--limit" => opts.limit = args.next().and_then(|v| v.parse().ok()),
            "--kakuro" => opts.kakuro_limit = args.next().and_then(|v| v.parse().ok()),
            "--queens" => opts.queens_max = args.next().and_then(|v| v.parse().ok()).unwrap_or(12),
            "--skip-slow" => opts.skip_slow = true,
            "--repeat" => {
                opts.repeat = args.next().and_then(|v| v.parse().ok()).unwrap_or(3).max(1)
            }
            _ => {
                eprintln!(
                    "usage: compare [--limit N] [--kakuro N] [--queens MAX] [--skip-slow] [--repeat N]"
                );
                std::process::exit(2);
            }
        }
    }
    println!(
        "{:<58} {:>6} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9} {:>9} {:>9}",
        "set",
        "n",
        "cpsolve/s",
        "cpsolve-cli/s",
        "sudoku/s",
        "p-solver/s",
        "÷sudoku",
        "×p-solver",
        "cli÷sud.",
        "cli×p-s."
    );
    let sets = [
        ("puzzles2_17_clue_first10000.txt", 10_000),
        ("puzzles3_magictour_top1465.txt", 1_465),
        ("puzzles5_forum_hardest_1905_11plus_first1000.txt", 1_000),
    ];
    for (file, default_n) in sets {
        let n = opts.limit.unwrap_or(default_n).min(default_n);
        let Some(lines) = sudoku_lines(&format!("sudoku/{file}"), n) else {
            continue;
        };
        for unique in [false, true] {
            sudoku_row(file, &lines, unique, &opts);
        }
    }
    kakuro_row(&opts);
    for n in 8..=opts.queens_max {
        queens_row(n, &opts);
    }
}

/// Rate in items per second.
fn rate(items: usize, seconds: f64) -> f64 {
    items as f64 / seconds.max(1e-9)
}

fn print_row(
    name: &str,
    n: usize,
    cp: f64,
    cli: Option<f64>,
    sudoku: Option<f64>,
    ps: Option<f64>,
) {
    let show = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.1}"));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.1}", a / b),
        _ => "-".to_string(),
    };
    println!(
        "{:<58} {:>6} {:>12.1} {:>12} {:>12} {:>12} {:>8} {:>9} {:>9} {:>9}",
        name,
        n,
        cp,
        show(cli),
        show(sudoku),
        show(ps),
        ratio(sudoku, Some(cp)),
        ratio(Some(cp), ps),
        ratio(sudoku, cli),
        ratio(cli, ps),
    );
}

/// The median of `values` (the mean of the middle two for an even count); `None` if empty.
fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

// ----- Sudoku ------------------------------------------------------------------------------

fn sudoku_row(file: &str, lines: &[String], unique: bool, opts: &Options) {
    let givens: Vec<[u8; 81]> = lines.iter().map(|l| sudoku_givens(l)).collect();
    let limit = if unique { 2 } else { 1 };
    let expect = |found: u64| {
        if unique {
            assert_eq!(found, 1, "{file}: a puzzle without a unique solution");
        } else {
            assert!(found >= 1, "{file}: a puzzle without solution");
        }
    };

    // cpsolve, one model reused, at the value (forward checking) and domain (Régin)
    // levels of all-different; the ratios use the faster.
    // (The value level needs thousands of nodes per 17-clue puzzle: it is timed once, on
    // the first `VALUE_LEVEL_SAMPLE` puzzles only.)
    let engine = |level: AllDiffLevel| {
        let sample = match level {
            AllDiffLevel::Value => &givens[..givens.len().min(VALUE_LEVEL_SAMPLE)],
            _ => &givens[..],
        };
        let mut solver = SudokuSolver::new(level);
        let t = Instant::now();
        for g in sample {
            expect(solver.solve(g, limit).0);
        }
        rate(sample.len(), t.elapsed().as_secs_f64())
    };

    // The `cpsolve` command itself (through `cli::run`, the library behind the binary): the
    // whole file read, parsed, solved on one thread, every answer checked by the puzzle's
    // checker and printed as JSON lines (to memory). Uniqueness is `-n 2`.
    let path = std::env::temp_dir().join(format!("cpsolve-compare-{}", std::process::id()));
    std::fs::write(&path, lines.join("\n")).expect("a temporary file");
    // As a user types it (no `-p`: the puzzles are shared among all cores), and on one
    // thread (`-p 1`), the figure the ratios use: the peers run on one thread.
    let mut all_cores_args: Vec<String> = ["sudoku", path.to_str().unwrap(), "--json"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if unique {
        all_cores_args.extend(["-n".to_string(), "2".to_string()]);
    }
    let mut args = all_cores_args.clone();
    args.extend(["-p".to_string(), "1".to_string()]);
    let command = |args: &[String]| {
        let mut out = Vec::with_capacity(givens.len() * 400);
        let t = Instant::now();
        let status = cli::run(args, &mut std::io::empty(), &mut out, &mut std::io::sink());
        let cli = rate(givens.len(), t.elapsed().as_secs_f64());
        assert_eq!(status, 0, "cpsolve failed on {file}");
        let answers: Vec<serde_json::Value> = String::from_utf8(out)
            .expect("UTF-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert_eq!(answers.len(), givens.len());
        for a in &answers {
            let found = match a.get("solutions") {
                Some(list) => list.as_array().map_or(0, Vec::len) as u64,
                None => u64::from(a.get("solution").is_some()),
            };
            expect(found);
        }
        cli
    };

    // The sudoku crate.
    let dedicated = || {
        let t = Instant::now();
        for (line, g) in lines.iter().zip(&givens) {
            let s = sudoku::Sudoku::from_str_line(line).expect("a valid line");
            let solved = if unique {
                s.solution()
            } else {
                s.some_solution()
            };
            let grid: [u8; 81] = solved.expect("solved").to_bytes();
            assert!(sudoku_is_solution(g, &grid), "sudoku crate: wrong solution");
        }
        rate(givens.len(), t.elapsed().as_secs_f64())
    };

    // puzzle-solver.
    let peer = || {
        let t = Instant::now();
        for g in &givens {
            let (mut puzzle, vars) = puzzle_solver_sudoku(g);
            let solution = if unique {
                puzzle.solve_unique()
            } else {
                puzzle.solve_any()
            };
            let solution = solution.expect("puzzle-solver solves it");
            let grid: [u8; 81] = std::array::from_fn(|i| solution[vars[i]] as u8);
            assert!(
                sudoku_is_solution(g, &grid),
                "puzzle-solver: wrong solution"
            );
        }
        rate(givens.len(), t.elapsed().as_secs_f64())
    };

    // Each in turn, `repeat` times: the best rate of each, and each round's ratio of the
    // command to puzzle-solver.
    let value_level = engine(AllDiffLevel::Value);
    let (mut domain_level, mut cli, mut sk, mut ps) = (0f64, 0f64, 0f64, None::<f64>);
    let mut cli_all_cores = 0f64;
    let mut round_ratios: Vec<f64> = Vec::new();
    for _ in 0..opts.repeat {
        domain_level = domain_level.max(engine(AllDiffLevel::Domain));
        let round_cli = command(&args);
        cli = cli.max(round_cli);
        cli_all_cores = cli_all_cores.max(command(&all_cores_args));
        sk = sk.max(dedicated());
        if !opts.skip_slow {
            let round_ps = peer();
            ps = Some(ps.unwrap_or(0.0).max(round_ps));
            round_ratios.push(round_cli / round_ps);
        }
    }
    let _ = std::fs::remove_file(&path);
    let per_level = [
        (AllDiffLevel::Value, value_level),
        (AllDiffLevel::Domain, domain_level),
    ];
    let (best_level, cp) = per_level
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("two levels");
    let name = format!(
        "{}{} [{}: value {:.0}/s]",
        file.trim_end_matches(".txt")
            .trim_start_matches("puzzles")
            .trim_end_matches("_first10000")
            .trim_end_matches("_first1000"),
        if unique { " unique" } else { "" },
        best_level,
        per_level[0].1
    );
    print_row(&name, givens.len(), cp, Some(cli), Some(sk), ps);
    // The same ratio round by round, with the median: the solvers of a round are timed
    // seconds apart, the best rates of a row may come minutes apart. (The command's run is
    // short, puzzle-solver's long: a best rate picks the command's luckiest moment, while
    // puzzle-solver's runs average the machine's drift; the rounds show how much that
    // matters.)
    if let Some(middle) = median(round_ratios.clone()) {
        let shown: Vec<String> = round_ratios.iter().map(|r| format!("{r:.1}")).collect();
        println!(
            "    the command against puzzle-solver, round by round: {} (median {middle:.1})",
            shown.join(", ")
        );
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match ps {
        Some(ps) => println!(
            "    the command on all {cores} cores (no -p): {cli_all_cores:.0}/s, {:.1}x puzzle-solver (one thread)",
            cli_all_cores / ps
        ),
        None => println!("    the command on all {cores} cores (no -p): {cli_all_cores:.0}/s"),
    }
}

fn puzzle_solver_sudoku(givens: &[u8; 81]) -> (Puzzle, Vec<VarToken>) {
    let mut p = Puzzle::new();
    let vars = p.new_vars_with_candidates_1d(81, &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for unit in sudoku_units() {
        p.all_different(unit.iter().map(|&i| &vars[i]));
    }
    for (i, &g) in givens.iter().enumerate() {
        if g != 0 {
            p.set_value(vars[i], g as Val);
        }
    }
    (p, vars)
}

// ----- Kakuro ------------------------------------------------------------------------------

fn kakuro_row(opts: &Options) {
    let limit = opts.kakuro_limit.or(opts.limit).unwrap_or(usize::MAX);
    let Some(mut entries) = kakuro_entries(limit) else {
        return;
    };
    // cpsolve through the puzzles crate, uniqueness (up to 2 solutions), compared with the
    // published solution.
    // The levels the command line uses for Kakuro when none is given.
    let options = ModelOptions {
        alldiff: puzzles::kakuro::KIND.default_alldiff(),
        sum: puzzles::kakuro::KIND.default_sum(),
        ..Default::default()
    };
    // The few grids with two solutions (untimed) leave the set: a uniqueness run cannot
    // agree with the published solution on them.
    let two: Vec<String> = entries
        .iter()
        .filter(|e| kakuro_solutions(e, &options).0 != 1)
        .map(|e| e.name.clone())
        .collect();
    if !two.is_empty() {
        println!(
            "kakuro: left out, more than one solution: {}",
            two.join(", ")
        );
        entries.retain(|e| !two.contains(&e.name));
    }
    let t = Instant::now();
    for e in &entries {
        kakuro_solve_checked(e, &options);
    }
    let cp = rate(entries.len(), t.elapsed().as_secs_f64());

    let ps = (!opts.skip_slow).then(|| {
        let t = Instant::now();
        for e in &entries {
            let mut p = Puzzle::new();
            let vars: Vec<VarToken> = e
                .whites
                .iter()
                .map(|_| p.new_var_with_candidates(&[1, 2, 3, 4, 5, 6, 7, 8, 9]))
                .collect();
            let var_of = |cell: usize| vars[e.whites.binary_search(&cell).expect("white")];
            for (total, cells) in &e.runs {
                let xs: Vec<VarToken> = cells.iter().map(|&c| var_of(c)).collect();
                p.all_different(&xs);
                let sum = xs.iter().fold(LinExpr::from(0), |s, &x| s + x);
                p.equals(*total as Val, sum);
            }
            let solution = p.solve_unique().expect("puzzle-solver: unique solution");
            let digits: Vec<u8> = vars.iter().map(|&x| solution[x] as u8).collect();
            assert_eq!(digits, e.solution, "puzzle-solver: {}", e.name);
        }
        rate(entries.len(), t.elapsed().as_secs_f64())
    });
    print_row("kakuro janko (unique)", entries.len(), cp, None, None, ps);
}

// ----- n-queens -----------------------------------------------------------------------------

/// n-queens diagonals for puzzle-solver, which has no all-different with offsets: when a
/// queen is placed, remove the two diagonal squares from every other column.
#[derive(Debug)]
struct QueensDiagonals {
    vars: Vec<VarToken>,
}

impl Constraint for QueensDiagonals {
    fn vars<'a>(&'a self) -> Box<dyn Iterator<Item = &'a VarToken> + 'a> {
        Box::new(self.vars.iter())
    }

    fn on_assigned(&self, search: &mut PuzzleSearch<'_>, var: VarToken, val: Val) -> PsResult<()> {
        let column = self.vars.iter().position(|&v| v == var).expect("own var");
        for (other, &x) in self.vars.iter().enumerate() {
            if other != column && !search.is_assigned(x) {
                let distance = other as Val - column as Val;
                search.remove_candidate(x, val + distance)?;
                search.remove_candidate(x, val - distance)?;
            }
        }
        Ok(())
    }

    fn substitute(&self, _from: VarToken, _to: VarToken) -> PsResult<Rc<dyn Constraint>> {
        Err(())
    }
}

fn queens_row(n: usize, opts: &Options) {
    let (model, search) = queens_model(n);
    let t = Instant::now();
    let count = engine::count_parallel(&model, &search, 1).solutions;
    let cp_time = t.elapsed().as_secs_f64();
    assert_eq!(count, QUEENS_SOLUTIONS[n], "{n}-queens");

    let ps = (!opts.skip_slow).then(|| {
        let mut p = Puzzle::new();
        let rows: Vec<Val> = (0..n as Val).collect();
        let vars = p.new_vars_with_candidates_1d(n, &rows);
        p.all_different(&vars);
        p.add_constraint(QueensDiagonals { vars: vars.clone() });
        let t = Instant::now();
        let solutions = p.solve_all();
        let time = t.elapsed().as_secs_f64();
        assert_eq!(
            solutions.len() as u64,
            QUEENS_SOLUTIONS[n],
            "puzzle-solver {n}-queens"
        );
        1.0 / time
    });
    print_row(
        &format!("{n}-queens count"),
        1,
        1.0 / cp_time,
        None,
        None,
        ps,
    );
}
