//! # Your first model: variables, constraints, propagation, search
//!
//! A model is variables (each with a domain) plus constraints. Posting a constraint checks
//! nothing yet; `propagate` runs every propagator until nothing changes, and the domains then
//! show what the constraints alone could deduce. `engine::solve` searches for a solution.
//!
//! `cargo run --release -p engine --example first_model` (docs/first-model.md)

use engine::{AllDiffLevel, Model, Relation, SearchConfig};

fn main() {
    // 1. x + y = 10 over 1..9: propagation alone narrows nothing (every value has a partner).
    let mut m = Model::new();
    let x = m.new_var(1, 9);
    let y = m.new_var(1, 9);
    m.linear(&[(1, x), (1, y)], Relation::Eq, 10);
    m.propagate().expect("x + y = 10 has solutions");
    println!(
        "x + y = 10:          x = {:?}  y = {:?}",
        m.domain(x),
        m.domain(y)
    );

    // 2. Add y >= 7: the sum's propagator now moves x's upper bound to 10 - 7 = 3.
    m.linear(&[(1, y)], Relation::Ge, 7);
    m.propagate().expect("still solutions");
    println!(
        "and y >= 7:          x = {:?}  y = {:?}",
        m.domain(x),
        m.domain(y)
    );

    // 3. Add x != 2 and x != 3: x is fixed, and y with it.
    m.linear(&[(1, x)], Relation::Ne, 2);
    m.linear(&[(1, x)], Relation::Ne, 3);
    m.propagate().expect("x = 1, y = 9");
    println!(
        "and x != 2, x != 3:  x = {:?}  y = {:?}",
        m.domain(x),
        m.domain(y)
    );

    // 4. SEND + MORE = MONEY: all different digits, one linear equation, leading digits not 0.
    let mut m = Model::new();
    let v = m.new_vars(8, 0, 9);
    let (s, e, n, d, mm, o, r, yy) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    m.all_different(&v, AllDiffLevel::Value);
    m.linear(
        &[
            (1000, s),
            (100, e),
            (10, n),
            (1, d),
            (1000, mm),
            (100, o),
            (10, r),
            (1, e),
            (-10000, mm),
            (-1000, o),
            (-100, n),
            (-10, e),
            (-1, yy),
        ],
        Relation::Eq,
        0,
    );
    m.linear(&[(1, s)], Relation::Ge, 1);
    m.linear(&[(1, mm)], Relation::Ge, 1);
    m.propagate().expect("SEND + MORE has a solution");
    println!(
        "SEND+MORE, after propagation: M = {:?}  S = {:?}  O = {:?}",
        m.domain(mm),
        m.domain(s),
        m.domain(o)
    );
    let outcome = engine::solve(&mut m, &SearchConfig::default());
    let sol = outcome.best.expect("a solution");
    let word = |xs: &[engine::VarId]| {
        xs.iter()
            .map(|&x| sol.value(x).to_string())
            .collect::<String>()
    };
    println!(
        "SEND+MORE, solved: {} + {} = {} ({} nodes)",
        word(&[s, e, n, d]),
        word(&[mm, o, r, e]),
        word(&[mm, o, n, e, yy]),
        outcome.stats.nodes
    );
}
