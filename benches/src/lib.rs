//! # Shared helpers for the benchmarks and the peer comparison
//!
//! Everything a benchmark needs besides the timing: where the public data sets are, how to
//! read them, the models it times (built from the engine's API, the same models the
//! `puzzles` crate builds), and the checkers that make every benchmark verify its answers.
//! A benchmark that times a wrong answer measures nothing, so none of them skips the check.

use engine::{AllDiffLevel, Control, Model, RestartPolicy, SearchConfig, VarId, VarSelect};
use std::path::PathBuf;

// ----- data ------------------------------------------------------------------------------

/// The shared data folder (`$CPSOLVE_DATA`, else `../shared/data` beside the repository), if
/// present: the engine's one answer to that question, [`engine::testing::data_dir`]. The sets
/// in it are never copied into the repository; benchmarks that need one skip when it is absent.
pub fn data_dir() -> Option<PathBuf> {
    engine::testing::data_dir()
}

/// The file `rel` of the shared data folder, or `None` after recording why it is skipped.
pub fn data_file(rel: &str) -> Option<PathBuf> {
    engine::testing::data_path(rel)
}

/// Up to `limit` Sudoku lines (81 characters, `1`-`9` or `.`/`0`) from a data file.
pub fn sudoku_lines(rel: &str, limit: usize) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(data_file(rel)?).ok()?;
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| l.len() == 81)
            .take(limit)
            .map(str::to_string)
            .collect(),
    )
}

/// The givens of a Sudoku line, 0 for a blank.
pub fn sudoku_givens(line: &str) -> [u8; 81] {
    let mut g = [0u8; 81];
    for (cell, b) in g.iter_mut().zip(line.bytes()) {
        *cell = if b.is_ascii_digit() { b - b'0' } else { 0 };
    }
    g
}

/// A filled grid breaks no rule and keeps the givens.
pub fn sudoku_is_solution(givens: &[u8; 81], grid: &[u8; 81]) -> bool {
    let keeps = givens
        .iter()
        .zip(grid)
        .all(|(&g, &v)| (1..=9).contains(&v) && (g == 0 || g == v));
    keeps
        && sudoku_units().iter().all(|unit| {
            let mut seen = 0u16;
            unit.iter().all(|&i| {
                let bit = 1u16 << grid[i];
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        })
}

/// The 27 units (rows, columns, boxes) of a 9×9 grid, as cell indices.
pub fn sudoku_units() -> Vec<[usize; 9]> {
    let mut units = Vec::with_capacity(27);
    for r in 0..9 {
        units.push(std::array::from_fn(|c| r * 9 + c));
    }
    for c in 0..9 {
        units.push(std::array::from_fn(|r| r * 9 + c));
    }
    for b in 0..9 {
        let (top, left) = ((b / 3) * 3, (b % 3) * 3);
        units.push(std::array::from_fn(|k| (top + k / 3) * 9 + left + k % 3));
    }
    units
}

// ----- Sudoku with the engine: one model, reused for every puzzle --------------------------

/// A 9×9 Sudoku model built once: 81 cells and 27 all-different constraints (as `cpsolve`
/// posts them: one propagator for all 27 at the domain level). Each puzzle
/// is solved by opening a level, fixing its givens, searching, and closing the level, so
/// solving a puzzle allocates nothing and costs no model building: this is how a program
/// that solves many puzzles of one shape should use the engine.
#[derive(Debug)]
pub struct SudokuSolver {
    model: Model,
    cells: Vec<VarId>,
    config: SearchConfig,
}

impl SudokuSolver {
    pub fn new(level: AllDiffLevel) -> SudokuSolver {
        let mut model = Model::new();
        let cells = model.new_vars(81, 1, 9);
        let units: Vec<Vec<VarId>> = sudoku_units()
            .iter()
            .map(|unit| unit.iter().map(|&i| cells[i]).collect())
            .collect();
        // At the domain level, the model runs the 27 units as one propagator
        // (`alldiff/fast/units.rs`).
        for unit in &units {
            model.all_different(unit, level);
        }
        model
            .propagate()
            .expect("the empty grid propagates without conflict");
        SudokuSolver {
            model,
            cells,
            config: SearchConfig::default(),
        }
    }

    /// Use another search configuration (e.g. restarts).
    pub fn with_config(mut self, config: SearchConfig) -> SudokuSolver {
        self.config = config;
        self
    }

    /// Search up to `limit` solutions; returns how many were found (0, 1 or 2 for a
    /// uniqueness check) and the first one. Every solution found is checked.
    pub fn solve(&mut self, givens: &[u8; 81], limit: u64) -> (u64, Option<[u8; 81]>) {
        let (found, first, _) = self.solve_with_stats(givens, limit);
        (found, first)
    }

    /// [`SudokuSolver::solve`], also returning the search statistics.
    pub fn solve_with_stats(
        &mut self,
        givens: &[u8; 81],
        limit: u64,
    ) -> (u64, Option<[u8; 81]>, engine::SearchStats) {
        let mut stats = engine::SearchStats::default();
        let checkpoint = self.model.checkpoint();
        let mut first: Option<[u8; 81]> = None;
        let mut found = 0;
        let consistent = givens
            .iter()
            .zip(&self.cells)
            .all(|(&g, &x)| g == 0 || self.model.fix(x, g as i32).is_ok());
        if consistent {
            let config = SearchConfig {
                solution_limit: Some(limit),
                ..self.config.clone()
            };
            let cells = &self.cells;
            stats = engine::search(
                &mut self.model,
                &config,
                &mut engine::search::NoListener,
                &mut |sol| {
                    let grid: [u8; 81] = std::array::from_fn(|i| sol.value(cells[i]) as u8);
                    assert!(sudoku_is_solution(givens, &grid), "wrong Sudoku solution");
                    found += 1;
                    first.get_or_insert(grid);
                    Control::Continue
                },
            )
            .stats;
        }
        self.model.rollback(checkpoint);
        (found, first, stats)
    }
}

// ----- n-queens ---------------------------------------------------------------------------

/// n-queens as `cpsolve queens` builds it (`puzzles::queens`): `q[i]` is the row of the
/// queen in column i; rows and both diagonals all different, posted as one family
/// (`alldiff/fast/offset_family.rs`); the search takes the smallest domain, ties to the column
/// nearest the middle. Returns the model and its search.
pub fn queens_model(n: usize) -> (Model, SearchConfig) {
    let built = puzzles::queens::Queens { n }.model(&Default::default());
    (built.model, built.search)
}

/// The known number of solutions of n-queens, n = 0..=15 (OEIS A000170): the benchmarks'
/// check.
pub const QUEENS_SOLUTIONS: [u64; 16] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
];

// ----- Kakuro (janko.at's collection, in puzzlekit's JSON) -------------------------------

/// One Kakuro of the puzzlekit collection: its name, its grid in the text form of docs/formats.md
/// (for `puzzles::kakuro`), its runs (for the peers' models), and the published solution.
#[derive(Clone, Debug)]
pub struct KakuroEntry {
    pub name: String,
    pub text: String,
    pub rows: usize,
    pub cols: usize,
    /// Each run: its total and its white cells (row-major indices).
    pub runs: Vec<(u32, Vec<usize>)>,
    /// White cells (row-major indices), in reading order.
    pub whites: Vec<usize>,
    /// The published digit of each white cell, in `whites` order.
    pub solution: Vec<u8>,
}

/// Solve one Kakuro with cpsolve (through the `puzzles` crate, at the given levels), proving
/// uniqueness (a search for up to 2 solutions). Panics unless there is exactly one solution,
/// it passes the puzzle's checker, and it equals the published one.
pub fn kakuro_solve_checked(e: &KakuroEntry, options: &puzzles::ModelOptions) {
    let (found, published) = kakuro_solutions(e, options);
    assert_eq!(found, 1, "{}: not unique", e.name);
    assert!(published, "{}: not the published solution", e.name);
}

/// Up to two solutions of one Kakuro, each through the puzzle's checker: how many, and
/// whether the published solution is one of them. (A few of janko.at's grids, as converted
/// by puzzlekit, have two solutions: `257_24x28` is one.)
pub fn kakuro_solutions(e: &KakuroEntry, options: &puzzles::ModelOptions) -> (u64, bool) {
    let puzzle = puzzles::kakuro::parse(&e.text)
        .expect("converted grids parse")
        .remove(0);
    let built = puzzle.build(options).expect("a model");
    let mut model = built.model.clone();
    let config = SearchConfig {
        solution_limit: Some(2),
        ..built.search.clone()
    };
    let mut found = 0;
    let mut published = false;
    engine::search(
        &mut model,
        &config,
        &mut engine::search::NoListener,
        &mut |sol| {
            let answer = puzzle.answer(&built, sol);
            puzzle.check(&answer).expect("checker accepts");
            let json = answer.json.to_value();
            let digits: Vec<u8> = e
                .whites
                .iter()
                .map(|&i| json[i / e.cols][i % e.cols].as_i64().unwrap_or(0) as u8)
                .collect();
            published |= digits == e.solution;
            found += 1;
            Control::Continue
        },
    );
    (found, published)
}

/// Up to `limit` Kakuro puzzles from `../shared/data/kakuro/janko_kakuro_puzzlekit.json`.
pub fn kakuro_entries(limit: usize) -> Option<Vec<KakuroEntry>> {
    let path = data_file("kakuro/janko_kakuro_puzzlekit.json")?;
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let entries = data["data"].as_object()?;
    Some(
        entries
            .iter()
            .take(limit)
            .filter_map(|(name, e)| {
                kakuro_entry(name, e["problem"].as_str()?, e["solution"].as_str()?)
            })
            .collect(),
    )
}

fn kakuro_entry(name: &str, problem: &str, solution: &str) -> Option<KakuroEntry> {
    let grid: Vec<Vec<&str>> = problem
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let (rows, cols) = (grid.len(), grid.first()?.len());
    let at = |r: usize, c: usize| grid[r][c];
    let mut text = String::new();
    let mut runs = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        let line: Vec<String> = row
            .iter()
            .map(|&t| match t {
                "-" => "#".to_string(),
                "0" => ".".to_string(),
                clue => clue.replace(',', "\\"),
            })
            .collect();
        text.push_str(&line.join(" "));
        text.push('\n');
        for c in 0..cols {
            let Some((down, across)) = at(r, c).split_once(',') else {
                continue;
            };
            if let Ok(total) = across.parse::<u32>() {
                let cells = (c + 1..cols)
                    .take_while(|&k| at(r, k) == "0")
                    .map(|k| r * cols + k);
                runs.push((total, cells.collect()));
            }
            if let Ok(total) = down.parse::<u32>() {
                let cells = (r + 1..rows)
                    .take_while(|&k| at(k, c) == "0")
                    .map(|k| k * cols + c);
                runs.push((total, cells.collect()));
            }
        }
    }
    let whites: Vec<usize> = (0..rows * cols)
        .filter(|&i| at(i / cols, i % cols) == "0")
        .collect();
    let digits: Vec<Vec<&str>> = solution
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let solution = whites
        .iter()
        .map(|&i| digits[i / cols][i % cols].parse::<u8>().ok())
        .collect::<Option<Vec<u8>>>()?;
    Some(KakuroEntry {
        name: name.to_string(),
        text,
        rows,
        cols,
        runs,
        whites,
        solution,
    })
}

/// The restart cases compared on the hard Sudoku sets (issue 5), each with dom/wdeg: none,
/// Luby ×100 and Luby ×10 (at ×100 restarts hardly ever fire on these short searches).
pub fn sudoku_restart_cases() -> [(&'static str, SearchConfig); 3] {
    [
        ("none", RestartPolicy::Never),
        ("luby", RestartPolicy::Luby { scale: 100 }),
        ("luby10", RestartPolicy::Luby { scale: 10 }),
    ]
    .map(|(name, restarts)| {
        let config = SearchConfig {
            var_select: VarSelect::DomWDeg,
            restarts,
            ..Default::default()
        };
        (name, config)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reused_sudoku_model_solves_and_counts() {
        // Norvig's first "hardest" puzzle is copied nowhere: use a classic easy one and its
        // variant with a given removed (which has several solutions).
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let givens = sudoku_givens(line);
        let mut solver = SudokuSolver::new(AllDiffLevel::Value);
        for _ in 0..2 {
            let (found, grid) = solver.solve(&givens, 2);
            assert_eq!(found, 1);
            assert!(sudoku_is_solution(&givens, &grid.unwrap()));
        }
        let mut fewer = givens;
        fewer[0] = 0;
        fewer[1] = 0;
        fewer[4] = 0;
        fewer[9] = 0;
        fewer[12] = 0;
        assert!(solver.solve(&fewer, 2).0 >= 1);
        // Contradictory givens: no solution, and the model is still usable afterwards.
        let mut clash = givens;
        clash[2] = 5;
        assert_eq!(solver.solve(&clash, 2).0, 0);
        assert_eq!(solver.solve(&givens, 2).0, 1);
    }

    #[test]
    fn the_checker_rejects_broken_grids() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let givens = sudoku_givens(line);
        let (_, grid) = SudokuSolver::new(AllDiffLevel::Value).solve(&givens, 1);
        let mut grid = grid.unwrap();
        assert!(sudoku_is_solution(&givens, &grid));
        grid.swap(2, 3);
        assert!(!sudoku_is_solution(&givens, &grid));
    }

    #[test]
    fn queens_counts_match_the_table() {
        for (n, &known) in (1..=8).zip(&QUEENS_SOLUTIONS[1..]) {
            let (mut m, search) = queens_model(n);
            assert_eq!(engine::count(&mut m, &search).solutions, known);
        }
    }
}
