//! # Rung 2 of the ladder: backtracking
//!
//! Place the queens one column at a time and test each *partial* assignment as soon as it
//! is made: a queen that attacks an earlier one is taken back at once, and none of the
//! assignments that start that way is ever generated. This is chronological backtracking,
//! the skeleton of every CP search: choose, check, go deeper or undo.
//!
//! `cargo run --release -p engine --example ladder_2_backtracking -- 8`

/// Solutions and nodes (queens placed) of n-queens.
pub(crate) fn count(n: usize) -> (u64, u64) {
    fn place(q: &mut Vec<usize>, n: usize, solutions: &mut u64, nodes: &mut u64) {
        let c = q.len();
        if c == n {
            *solutions += 1;
            return;
        }
        for row in 0..n {
            *nodes += 1;
            // Check the new queen against every queen already placed.
            let safe = (0..c).all(|d| q[d] != row && q[d].abs_diff(row) != c - d);
            if safe {
                q.push(row);
                place(q, n, solutions, nodes);
                q.pop();
            }
        }
    }
    let (mut solutions, mut nodes) = (0, 0);
    place(&mut Vec::new(), n, &mut solutions, &mut nodes);
    (solutions, nodes)
}

#[allow(dead_code)]
fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let (solutions, nodes) = count(n);
    println!("{n}-queens, backtracking: {solutions} solutions, {nodes} nodes");
}
