//! A redundant global constraint measured (chapter 8, `docs/08-modelling.md`): `n + 1`
//! pigeons into `n` holes, pairwise `≠` (a clique of binary constraints), and the same with
//! an all-different added over all the pigeons at each of its three levels. The all-different
//! removes no solution (the clique already forbids what it forbids) but sees all the pigeons
//! at once: at the bounds and domain levels it finds the Hall interval `0..n` that `n + 1`
//! pigeons cannot fit into before any decision.
//!
//! `cargo run --release -p exercises --example redundant [N]`

use engine::{AllDiffLevel, Model, SearchConfig};

fn main() {
    let holes: i32 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("N: a number of holes"))
        .unwrap_or(7);
    let pigeons = holes as usize + 1;
    println!("{pigeons} pigeons, {holes} holes         solutions    nodes  failures");
    let levels = [
        ("pairwise ≠ only", None),
        ("and all-different value", Some(AllDiffLevel::Value)),
        ("and all-different bounds", Some(AllDiffLevel::Bounds)),
        ("and all-different domain", Some(AllDiffLevel::Domain)),
    ];
    for (name, level) in levels {
        let mut m = Model::new();
        let xs = m.new_vars(pigeons, 0, holes - 1);
        for i in 0..pigeons {
            for j in i + 1..pigeons {
                m.not_equal_offset(xs[i], xs[j], 0);
            }
        }
        if let Some(level) = level {
            m.all_different(&xs, level);
        }
        let outcome = engine::count(&mut m, &SearchConfig::default());
        println!(
            "{name:<28} {:>9} {:>8} {:>9}",
            outcome.solutions, outcome.stats.nodes, outcome.stats.failures
        );
    }
}
