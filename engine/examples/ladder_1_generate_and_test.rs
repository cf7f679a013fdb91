//! # Rung 1 of the ladder: generate and test
//!
//! The most naive solver there is: write down every complete assignment of the variables
//! and keep the ones that satisfy every constraint. For n-queens, variable `q[c]` is the row
//! of the queen in column `c`; the constraints are that no two queens share a row or a
//! diagonal. The search looks at all nⁿ assignments: it never notices that `q[0] = q[1]`
//! dooms every assignment that starts that way.
//!
//! `cargo run --release -p engine --example ladder_1_generate_and_test -- 8`
//! (the next rungs: `ladder_2_backtracking`, `ladder_3_forward_checking`,
//! `ladder_4_fixpoint`, `ladder_5_engine`; docs/00-what-is-a-csp.md).

/// Do the queens of `q` (one per column) attack each other?
pub(crate) fn attack(q: &[usize]) -> bool {
    (0..q.len()).any(|a| (a + 1..q.len()).any(|b| q[a] == q[b] || q[a].abs_diff(q[b]) == b - a))
}

/// Solutions and nodes (complete assignments looked at) of n-queens.
pub(crate) fn count(n: usize) -> (u64, u64) {
    let mut q = vec![0; n];
    let (mut solutions, mut nodes) = (0, 0);
    loop {
        nodes += 1;
        if !attack(&q) {
            solutions += 1;
        }
        // The next assignment, as an odometer counts: the last column turns fastest.
        let mut c = n;
        loop {
            if c == 0 {
                return (solutions, nodes);
            }
            c -= 1;
            q[c] += 1;
            if q[c] < n {
                break;
            }
            q[c] = 0;
        }
    }
}

#[allow(dead_code)]
fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let (solutions, nodes) = count(n);
    println!("{n}-queens, generate and test: {solutions} solutions, {nodes} nodes");
}
