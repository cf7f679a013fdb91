//! A global constraint against its decomposition (chapter 8, `docs/08-modelling.md`): the
//! rows of Binairo, `L` cells of 0/1 with as many 0s as 1s and never three equal in a row,
//! counted two ways.
//!
//! - decomposed: one table of the six allowed triples per window of three cells, and a count
//!   of the 1s (`count_eq`);
//! - one `regular` constraint: an automaton whose state is (0s so far, 1s so far, the last
//!   symbol, the length of its run), accepting when both counts are `L/2`.
//!
//! The regular propagator is domain consistent on the whole row, so every value left extends
//! to a solution: the search never fails. The decomposition reasons window by window and
//! fails where the windows and the count disagree only together.
//!
//! `cargo run --release -p exercises --example regular [L]`

use engine::propagators::regular::Dfa;
use engine::{Model, SearchConfig, VarId};

/// The row automaton for length `len` (even). States are numbered from 1.
fn row_automaton(len: usize) -> Dfa {
    let half = len / 2;
    // State (zeros, ones, last, run) with run in 1..=2; plus the start state.
    let index = |zeros: usize, ones: usize, last: usize, run: usize| {
        2 + ((zeros * (half + 1) + ones) * 2 + last) * 2 + (run - 1)
    };
    let states = 1 + (half + 1) * (half + 1) * 4;
    let mut next = vec![vec![0; 2]; states];
    let step = |zeros: usize, ones: usize, last: Option<(usize, usize)>, symbol: usize| {
        let (zeros, ones) = if symbol == 0 {
            (zeros + 1, ones)
        } else {
            (zeros, ones + 1)
        };
        let run = match last {
            Some((l, run)) if l == symbol => run + 1,
            _ => 1,
        };
        (zeros <= half && ones <= half && run <= 2).then(|| index(zeros, ones, symbol, run))
    };
    for symbol in 0..2 {
        next[0][symbol] = step(0, 0, None, symbol).unwrap_or(0);
    }
    for zeros in 0..=half {
        for ones in 0..=half {
            for last in 0..2 {
                for run in 1..=2 {
                    for symbol in 0..2 {
                        next[index(zeros, ones, last, run) - 1][symbol] =
                            step(zeros, ones, Some((last, run)), symbol).unwrap_or(0);
                    }
                }
            }
        }
    }
    let accepting = (0..2)
        .flat_map(|last| (1..=2).map(move |run| index(half, half, last, run)))
        .collect();
    Dfa {
        states,
        first_value: 0,
        symbols: 2,
        next,
        start: 1,
        accepting,
    }
}

fn decomposed(m: &mut Model, row: &[VarId]) {
    let allowed: Vec<Vec<i32>> = (0..8)
        .map(|bits| vec![bits & 1, bits >> 1 & 1, bits >> 2 & 1])
        .filter(|t| !(t[0] == t[1] && t[1] == t[2]))
        .collect();
    for window in row.windows(3) {
        m.table(window, allowed.clone());
    }
    m.count_eq(row, 1, row.len() as i32 / 2);
}

fn main() {
    let len: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("L: an even row length"))
        .unwrap_or(14);
    assert!(len % 2 == 0 && len >= 2, "L: an even row length");
    println!("rows of {len} cells          solutions    nodes  failures");
    for name in ["decomposed", "one regular"] {
        let mut m = Model::new();
        let row = m.new_vars(len, 0, 1);
        if name == "decomposed" {
            decomposed(&mut m, &row);
        } else {
            m.regular(&row, row_automaton(len));
        }
        let outcome = engine::count(&mut m, &SearchConfig::default());
        println!(
            "{name:<26} {:>9} {:>8} {:>9}",
            outcome.solutions, outcome.stats.nodes, outcome.stats.failures
        );
    }
}
