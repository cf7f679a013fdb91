//! `colour_paths` against brute force with the harness of `engine::testing` (sound,
//! checking, incremental = from scratch, backtracking) on a 2×3 grid with two colours and
//! an unconstrained third value, and its two rules on hand-made boards.

use engine::propagators::graph::colour_paths::ColourPaths;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::Model;

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

/// Does every colour's set of cells hold its terminals and form one connected piece?
fn colours_connected(col: &[i32], neighbours: &[Vec<usize>], terminals: &[(usize, usize)]) -> bool {
    terminals.iter().enumerate().all(|(l, &(s, e))| {
        let l = l as i32;
        if col[s] != l || col[e] != l {
            return false;
        }
        let mut seen = vec![false; col.len()];
        let mut stack = vec![s];
        seen[s] = true;
        while let Some(v) = stack.pop() {
            for &w in &neighbours[v] {
                if col[w] == l && !std::mem::replace(&mut seen[w], true) {
                    stack.push(w);
                }
            }
        }
        (0..col.len()).all(|i| col[i] != l || seen[i])
    })
}

#[test]
fn colour_paths_is_sound_and_checking() {
    // 2×3 cells, colour 0 joins the corners 0 and 5, colour 1 joins 2 and 3; the value 2 is
    // "empty", and values outside 0..=2 are left alone too.
    for terminals in [vec![(0, 5), (2, 3)], vec![(0, 2)], vec![(0, 3), (2, 5)]] {
        let neighbours = grid(2, 3);
        let mut cfg = HarnessConfig::new(6, -1, 2, Consistency::Checking);
        cfg.trials = 400;
        let check = {
            let (neighbours, terminals) = (neighbours.clone(), terminals.clone());
            move |col: &[i32]| colours_connected(col, &neighbours, &terminals)
        };
        check_propagator("colour_paths", &cfg, &check, &|xs| {
            Box::new(ColourPaths::new(xs, neighbours.clone(), terminals.clone()))
        });
    }
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
    // Cells 2 and 6 are not on every path: they keep both values.
    assert_eq!(model.size(col[2]), 2);
    assert_eq!(model.size(col[6]), 2);
}

#[test]
fn unreachable_terminals_fail() {
    let mut model = Model::new();
    let col = model.new_vars(3, 0, 1);
    model.colour_paths(&col, grid(1, 3), vec![(0, 2)]);
    model.remove(col[1], 0).unwrap();
    assert!(model.propagate().is_err());
}
