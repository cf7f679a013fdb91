//! Symmetry breaking measured (chapter 8, `docs/08-modelling.md`): n-queens counted with no
//! symmetry broken, with the mirror across the middle row broken (`q[0] < n/2`), and with
//! the mirror across the middle column broken too (`q[0] < q[n-1]`). Both constraints are the
//! first step of a lex-leader constraint for one variable order, so together they keep at
//! least one solution of each class.
//!
//! `cargo run --release -p exercises --example symmetry [N]`

use engine::{Model, SearchConfig, VarId};

/// n-queens: `q[i]` the row of the queen of column `i`, three `≠` per pair of columns.
fn queens(model: &mut Model, n: usize) -> Vec<VarId> {
    let q = model.new_vars(n, 0, n as i32 - 1);
    for i in 0..n {
        for j in i + 1..n {
            let gap = (j - i) as i32;
            model.not_equal_offset(q[i], q[j], 0);
            model.not_equal_offset(q[i], q[j], gap);
            model.not_equal_offset(q[i], q[j], -gap);
        }
    }
    q
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("N: a board size"))
        .unwrap_or(8);
    println!("{n}-queens               solutions    nodes  failures");
    for (name, rows, columns) in [
        ("no symmetry broken", false, false),
        ("q[0] < n/2", true, false),
        ("and q[0] < q[n-1]", true, true),
    ] {
        let mut m = Model::new();
        let q = queens(&mut m, n);
        if rows {
            m.set_max(q[0], n as i32 / 2 - 1)
                .expect("a board of size 2 or more");
        }
        if columns {
            m.less_than(q[0], q[n - 1]);
        }
        let outcome = engine::count(&mut m, &SearchConfig::default());
        println!(
            "{name:<22} {:>9} {:>8} {:>9}",
            outcome.solutions, outcome.stats.nodes, outcome.stats.failures
        );
    }
}
