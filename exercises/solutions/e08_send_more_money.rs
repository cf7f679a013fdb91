//! Model answer of exercise 8a (see `exercises/src/e08_send_more_money.rs`): one linear
//! equation over the place values.

use engine::{AllDiffLevel, Model, Relation, VarId};

/// The letters S, E, N, D, M, O, R, Y of SEND + MORE = MONEY, posted in `model`.
pub fn send_more_money(model: &mut Model) -> [VarId; 8] {
    let letters: Vec<VarId> = model.new_vars(8, 0, 9);
    let [s, e, n, d, m, o, r, y] = letters[..] else {
        unreachable!()
    };
    model.all_different(&letters, AllDiffLevel::Domain);
    model.set_min(s, 1).expect("S can be 1..9");
    model.set_min(m, 1).expect("M can be 1..9");
    // SEND + MORE - MONEY = 0.
    let terms = [
        (1000, s),
        (100, e),
        (10, n),
        (1, d),
        (1000, m),
        (100, o),
        (10, r),
        (1, e),
        (-10000, m),
        (-1000, o),
        (-100, n),
        (-10, e),
        (-1, y),
    ];
    model.linear(&terms, Relation::Eq, 0);
    [s, e, n, d, m, o, r, y]
}
