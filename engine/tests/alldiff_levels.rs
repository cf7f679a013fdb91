//! What each all-different level buys: on Sudokus and Latin squares, the three levels find
//! the same solutions, and the stronger the level the smaller the search tree
//! (`nodes(domain) <= nodes(bounds) <= nodes(value)`, with a static variable order so that
//! the trees are comparable). A Sudoku that naked and hidden singles solve needs no search
//! at all with the domain level.

use engine::search::VarSelect;
use engine::{AllDiffLevel, Model, SearchConfig, Solution, VarId};

const LEVELS: [AllDiffLevel; 3] = [
    AllDiffLevel::Value,
    AllDiffLevel::Bounds,
    AllDiffLevel::Domain,
];

/// The 27 units of a 9×9 Sudoku, as cell indices.
fn units() -> Vec<Vec<usize>> {
    let mut units = Vec::new();
    for i in 0..9 {
        units.push((0..9).map(|j| i * 9 + j).collect());
        units.push((0..9).map(|j| j * 9 + i).collect());
        let (r, c) = (3 * (i / 3), 3 * (i % 3));
        units.push((0..9).map(|k| (r + k / 3) * 9 + c + k % 3).collect());
    }
    units
}

/// `givens`: 81 characters, digits or `.`/`0`.
fn sudoku(givens: &str, level: AllDiffLevel) -> Option<(Model, Vec<VarId>)> {
    let mut m = Model::new();
    let cells = m.new_vars(81, 1, 9);
    for unit in units() {
        let xs: Vec<VarId> = unit.iter().map(|&i| cells[i]).collect();
        m.all_different(&xs, level);
    }
    for (i, ch) in givens.chars().enumerate() {
        if let Some(d) = ch.to_digit(10).filter(|&d| d > 0) {
            m.fix(cells[i], d as i32).ok()?;
        }
    }
    Some((m, cells))
}

fn check_sudoku(givens: &str, cells: &[VarId], s: &Solution) {
    let grid: Vec<i32> = cells.iter().map(|&x| s.value(x)).collect();
    for unit in units() {
        let mut seen = [false; 10];
        for &i in &unit {
            assert!(!seen[grid[i] as usize], "repeated digit in a unit");
            seen[grid[i] as usize] = true;
        }
    }
    for (i, ch) in givens.chars().enumerate() {
        if let Some(d) = ch.to_digit(10).filter(|&d| d > 0) {
            assert_eq!(grid[i], d as i32, "given changed");
        }
    }
}

/// Does repeating naked and hidden singles alone fill the grid? (An independent, human
/// style solver, used to pick the puzzles that must need no search.)
fn singles_solve(givens: &str) -> bool {
    let mut cand = [0x3FEu16; 81]; // bits 1..=9
    let units = units();
    let mut grid = [0u8; 81];
    for (i, ch) in givens.chars().enumerate() {
        if let Some(d) = ch.to_digit(10).filter(|&d| d > 0) {
            grid[i] = d as u8;
        }
    }
    loop {
        // Eliminate placed digits from their units.
        for unit in &units {
            for &i in unit {
                if grid[i] != 0 {
                    for &j in unit {
                        if j != i {
                            cand[j] &= !(1 << grid[i]);
                        }
                    }
                    cand[i] = 1 << grid[i];
                }
            }
        }
        let mut progress = false;
        for i in 0..81 {
            if cand[i] == 0 {
                return false;
            }
            if grid[i] == 0 && cand[i].count_ones() == 1 {
                grid[i] = cand[i].trailing_zeros() as u8; // naked single
                progress = true;
            }
        }
        for unit in &units {
            for d in 1..=9u8 {
                let places: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&i| cand[i] & (1 << d) != 0)
                    .collect();
                if places.len() == 1 && grid[places[0]] == 0 {
                    grid[places[0]] = d; // hidden single
                    progress = true;
                }
            }
        }
        if !progress {
            return grid.iter().all(|&d| d != 0);
        }
    }
}

/// The seed Sudoku (in the repository), a classic easy one, and when the shared data set
/// is present a few of Norvig's top 95 and of the 17-clue list (chosen so that the value
/// level, which searches hundreds of thousands of nodes on some, stays within a second).
fn puzzles() -> Vec<String> {
    let seed: String = include_str!("../../puzzles/instances/seed/sudoku.txt")
        .lines()
        .filter(|l| !l.starts_with('%'))
        .flat_map(|l| l.split_whitespace())
        .collect();
    assert_eq!(seed.len(), 81);
    let mut out = vec![
        seed,
        // The example grid of Wikipedia's "Sudoku" article.
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .to_string(),
    ];
    for (file, lines) in [
        ("norvig_top95.txt", &[1usize, 2][..]),
        ("puzzles2_17_clue.txt", &[1usize][..]),
    ] {
        if let Some(path) = engine::testing::data_path(&format!("sudoku/{file}")) {
            let text = std::fs::read_to_string(path).expect("readable");
            let all: Vec<&str> = text.lines().collect();
            out.extend(lines.iter().map(|&i| all[i].to_string()));
        }
    }
    out
}

fn static_order() -> SearchConfig {
    SearchConfig {
        var_select: VarSelect::InputOrder,
        ..Default::default()
    }
}

#[test]
fn sudoku_levels_agree_and_stronger_searches_less() {
    for givens in puzzles() {
        let mut nodes = Vec::new();
        for level in LEVELS {
            let (mut m, cells) = sudoku(&givens, level).expect("givens consistent");
            let mut found = Vec::new();
            let out = engine::search(
                &mut m,
                &static_order(),
                &mut engine::search::NoListener,
                &mut |s| {
                    found.push(s.clone());
                    engine::Control::Continue
                },
            );
            assert!(out.complete);
            assert_eq!(found.len(), 1, "{givens}: one solution at level {level}");
            check_sudoku(&givens, &cells, &found[0]);
            nodes.push(out.stats.nodes);
        }
        eprintln!("{givens}: nodes value/bounds/domain = {nodes:?}");
        assert!(
            nodes[2] <= nodes[1] && nodes[1] <= nodes[0],
            "{givens}: nodes value/bounds/domain = {nodes:?}"
        );
        if singles_solve(&givens) {
            assert_eq!(
                nodes[2], 0,
                "{givens}: singles solve it, domain level must not search"
            );
        }
    }
}

#[test]
fn the_singles_solver_used_above_is_not_trivially_true() {
    // An empty grid is not solved by singles, a full one is.
    assert!(!singles_solve(&".".repeat(81)));
    let full = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    assert!(singles_solve(full));
    assert!(singles_solve(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    ));
}

/// Latin square of order `n` with some givens `(row, col, value)`.
fn latin(n: usize, givens: &[(usize, usize, i32)], level: AllDiffLevel) -> Model {
    let mut m = Model::new();
    let x = m.new_vars(n * n, 1, n as i32);
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| x[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| x[j * n + i]).collect();
        m.all_different(&row, level);
        m.all_different(&col, level);
    }
    for &(r, c, v) in givens {
        let _ = m.fix(x[r * n + c], v);
    }
    m
}

#[test]
fn latin_square_counts_agree_across_levels() {
    // Order 4 has 576 Latin squares; order 5 with its first row fixed has 56·24 = 1344.
    let first_row: Vec<(usize, usize, i32)> = (0..5).map(|j| (0, j, j as i32 + 1)).collect();
    for (n, givens, want) in [(4, vec![], 576u64), (5, first_row, 1344)] {
        let mut nodes = Vec::new();
        for level in LEVELS {
            let mut m = latin(n, &givens, level);
            let out = engine::count(&mut m, &static_order());
            assert_eq!(out.solutions, want, "order {n}, level {level}");
            nodes.push(out.stats.nodes);
        }
        assert!(
            nodes[2] <= nodes[1] && nodes[1] <= nodes[0],
            "nodes {nodes:?}"
        );
    }
}
