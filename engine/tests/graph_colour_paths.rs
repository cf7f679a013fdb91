//! `colour_paths` against brute force with the harness of `engine::testing` (sound,
//! checking, incremental = from scratch, backtracking) on a 2×3 grid with two colours and
//! an unconstrained third value and on random small boards (grids with random terminals,
//! and grids with a pocket), and its rules on hand-made boards.

use engine::propagator::Propagator;
use engine::propagators::graph::colour_paths::ColourPaths;
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};
use engine::Model;
use engine::VarId;

/// The orthogonal neighbours of each cell of a `rows` × `cols` grid.
fn grid(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    (0..rows * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            let mut out = Vec::new();
            if r > 0 {
                out.push(i - cols);
            }
            if r + 1 < rows {
                out.push(i + cols);
            }
            if c > 0 {
                out.push(i - 1);
            }
            if c + 1 < cols {
                out.push(i + 1);
            }
            out
        })
        .collect()
}

/// Does every colour's set of cells S hold its terminals, and does every cell of S lie on a
/// simple path between them inside S (which makes S connected)? By enumerating the simple
/// paths from the first terminal.
fn colours_on_routes(col: &[i32], neighbours: &[Vec<usize>], terminals: &[(usize, usize)]) -> bool {
    terminals.iter().enumerate().all(|(l, &(s, e))| {
        let l = l as i32;
        if col[s] != l || col[e] != l {
            return false;
        }
        let mut on_a_route = vec![false; col.len()];
        let mut path = vec![s];
        routes(col, neighbours, l, e, &mut path, &mut on_a_route);
        (0..col.len()).all(|i| col[i] != l || on_a_route[i])
    })
}

/// Every simple path of colour `l` cells that extends `path` to `end`: its cells are marked.
fn routes(
    col: &[i32],
    neighbours: &[Vec<usize>],
    l: i32,
    end: usize,
    path: &mut Vec<usize>,
    on_a_route: &mut [bool],
) {
    let last = *path.last().expect("a path starts at a terminal");
    if last == end {
        for &v in path.iter() {
            on_a_route[v] = true;
        }
        return;
    }
    for &w in &neighbours[last] {
        if col[w] == l && !path.contains(&w) {
            path.push(w);
            routes(col, neighbours, l, end, path, on_a_route);
            let _ = path.pop();
        }
    }
}

/// Runs the harness on one board: `values` from -1 (left alone) to the colours and one more.
fn harness(
    neighbours: Vec<Vec<usize>>,
    terminals: Vec<(usize, usize)>,
    max_size: usize,
    trials: usize,
    seed: u64,
) {
    let k = terminals.len() as i32;
    let mut cfg = HarnessConfig::new(neighbours.len(), -1, k, Consistency::Checking);
    cfg.trials = trials;
    cfg.max_size = max_size;
    cfg.seed = seed;
    let check = {
        let (neighbours, terminals) = (neighbours.clone(), terminals.clone());
        move |col: &[i32]| colours_on_routes(col, &neighbours, &terminals)
    };
    let make = |xs: &[VarId]| -> Box<dyn Propagator> {
        Box::new(ColourPaths::new(xs, neighbours.clone(), terminals.clone()))
    };
    check_propagator("colour_paths", &cfg, &check, &make);
    if neighbours.len() <= 6 {
        // Its cuts must hold before the run and imply every pruning and failure (brute
        // force over the boards of the universe box).
        let stats = check_explanations("colour_paths", &cfg, &check, &make);
        assert!(
            stats.explained == 0 || stats.precise > 0,
            "colour_paths gave no reason of its own: {stats:?}"
        );
    }
}

#[test]
fn colour_paths_explains_by_cuts_smaller_than_the_inputs() {
    // 2×3 boards, every pair of terminals for one colour and a second colour beside it:
    // every reason is checked by brute force, and most are colour_paths' own.
    let mut total = engine::testing::ExplanationStats::default();
    for terminals in [
        vec![(0, 5), (2, 3)],
        vec![(0, 2)],
        vec![(0, 3), (2, 5)],
        vec![(1, 4)],
    ] {
        let k = terminals.len() as i32;
        let neighbours = grid(2, 3);
        let mut cfg = HarnessConfig::new(6, -1, k, Consistency::Checking);
        cfg.trials = 300;
        cfg.max_size = 4;
        let check = {
            let (neighbours, terminals) = (neighbours.clone(), terminals.clone());
            move |col: &[i32]| colours_on_routes(col, &neighbours, &terminals)
        };
        let make = |xs: &[VarId]| -> Box<dyn Propagator> {
            Box::new(ColourPaths::new(xs, neighbours.clone(), terminals.clone()))
        };
        let stats = check_explanations("colour_paths", &cfg, &check, &make);
        total.explained += stats.explained;
        total.precise += stats.precise;
        total.reason_atoms += stats.reason_atoms;
        total.generic_atoms += stats.generic_atoms;
    }
    assert!(total.explained > 100, "{total:?}");
    assert!(total.precise * 10 >= total.explained * 9, "{total:?}");
    assert!(
        total.average_reason() < total.average_generic(),
        "{total:?}"
    );
}

#[test]
fn colour_paths_is_sound_and_checking() {
    // 2×3 cells, colour 0 joins the corners 0 and 5, colour 1 joins 2 and 3; the value 2 is
    // "empty", and values outside 0..=2 are left alone too.
    for terminals in [vec![(0, 5), (2, 3)], vec![(0, 2)], vec![(0, 3), (2, 5)]] {
        harness(grid(2, 3), terminals, 5, 400, 1);
    }
}

#[test]
fn colour_paths_is_sound_and_checking_on_random_boards() {
    // 3×3 and 2×4 grids, one or two colours with terminals drawn at random.
    let mut rng = engine::rng::Rng::new(33);
    for trial in 0..24 {
        let (rows, cols) = if trial % 2 == 0 { (3, 3) } else { (2, 4) };
        let n = rows * cols;
        let mut cells: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut cells);
        let colours = 1 + trial % 2;
        let terminals = (0..colours)
            .map(|l| (cells[2 * l], cells[2 * l + 1]))
            .collect();
        harness(grid(rows, cols), terminals, 3, 60, trial as u64);
    }
}

#[test]
fn colour_paths_is_sound_and_checking_beside_a_pocket() {
    // A 2×3 grid with a pocket of two cells (6, 7) hanging off cell 5 alone: a route of
    // colour 0 (0 to 2) can never enter it.
    let mut neighbours = grid(2, 3);
    neighbours.push(vec![5, 7]);
    neighbours.push(vec![6]);
    neighbours[5].push(6);
    harness(neighbours.clone(), vec![(0, 2)], 4, 200, 7);
    harness(neighbours, vec![(0, 7), (3, 4)], 3, 200, 8);
}

#[test]
fn a_cell_no_path_can_reach_loses_the_colour() {
    // 1×4: colour 0 joins cells 0 and 1; cell 2 is not colour 0, so cell 3 cannot be.
    let mut model = Model::new();
    let col = model.new_vars(4, 0, 1);
    model.colour_paths(&col, grid(1, 4), vec![(0, 1)]);
    model.remove(col[2], 0).unwrap();
    model.propagate().unwrap();
    assert!(!model.contains(col[3], 0));
    assert!(model.contains(col[3], 1));
}

#[test]
fn a_bottleneck_takes_the_colour() {
    // 3×3, colour 0 joins the corners 0 and 8; the middle column's top and bottom cells
    // cannot be colour 0, so every path passes the centre 4, and cells 3 and 5 beside it.
    let mut model = Model::new();
    let col = model.new_vars(9, 0, 1);
    model.colour_paths(&col, grid(3, 3), vec![(0, 8)]);
    model.remove(col[1], 0).unwrap();
    model.remove(col[7], 0).unwrap();
    model.propagate().unwrap();
    for cell in [3, 4, 5] {
        assert!(
            model.is_fixed(col[cell]) && model.value(col[cell]) == 0,
            "cell {cell}"
        );
    }
    // Cells 2 and 6 hang off the way (beside 5 and 3 alone): on no route, not colour 0.
    for cell in [2, 6] {
        assert!(!model.contains(col[cell], 0), "cell {cell}");
    }
}

#[test]
fn unreachable_terminals_fail() {
    let mut model = Model::new();
    let col = model.new_vars(3, 0, 1);
    model.colour_paths(&col, grid(1, 3), vec![(0, 2)]);
    model.remove(col[1], 0).unwrap();
    assert!(model.propagate().is_err());
}

#[test]
fn a_pocket_off_the_way_loses_the_colour() {
    // 2×4: colour 0 joins cells 0 and 3 along the top row; cells 1 and 2 of the bottom row
    // cannot be colour 0, so cell 4 (below 0) and cell 7 (below 3) hang off the way through
    // one cell each: no route of colour 0 passes them.
    let mut model = Model::new();
    let col = model.new_vars(8, 0, 1);
    model.colour_paths(&col, grid(2, 4), vec![(0, 3)]);
    model.remove(col[5], 0).unwrap();
    model.remove(col[6], 0).unwrap();
    model.propagate().unwrap();
    for cell in [4, 7] {
        assert!(!model.contains(col[cell], 0), "cell {cell}");
    }
    for cell in [1, 2] {
        assert!(
            model.is_fixed(col[cell]) && model.value(col[cell]) == 0,
            "cell {cell}"
        );
    }
}
