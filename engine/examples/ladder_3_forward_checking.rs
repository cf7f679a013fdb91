//! # Rung 3 of the ladder: forward checking
//!
//! Give every column a *domain*, the rows its queen may still take. When a queen is placed,
//! remove from every later column the rows it attacks. A column whose domain becomes empty
//! can never take a queen, so the placement fails now instead of several columns later.
//! Looking ahead one step like this is forward checking (Haralick & Elliott, 1980), the
//! first form of *propagation*: constraints act on the domains, not only on full
//! assignments.
//!
//! `cargo run --release -p engine --example ladder_3_forward_checking -- 8`

/// Solutions and nodes (queens placed) of n-queens.
pub(crate) fn count(n: usize) -> (u64, u64) {
    /// `domains[c][r]`: may the queen of column `c` still stand in row `r`?
    fn place(c: usize, domains: &[Vec<bool>], solutions: &mut u64, nodes: &mut u64) {
        let n = domains.len();
        if c == n {
            *solutions += 1;
            return;
        }
        for row in (0..n).filter(|&r| domains[c][r]) {
            *nodes += 1;
            // A copy of the domains, then the rows this queen attacks removed from each
            // later column: same row, and both diagonals.
            let mut next = domains.to_vec();
            let mut wiped_out = false;
            for (d, later) in next.iter_mut().enumerate().skip(c + 1) {
                let gap = d - c;
                later[row] = false;
                if row + gap < n {
                    later[row + gap] = false;
                }
                if row >= gap {
                    later[row - gap] = false;
                }
                wiped_out |= !later.contains(&true);
            }
            if !wiped_out {
                place(c + 1, &next, solutions, nodes);
            }
        }
    }
    let (mut solutions, mut nodes) = (0, 0);
    place(0, &vec![vec![true; n]; n], &mut solutions, &mut nodes);
    (solutions, nodes)
}

#[allow(dead_code)]
fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let (solutions, nodes) = count(n);
    println!("{n}-queens, forward checking: {solutions} solutions, {nodes} nodes");
}
