//! Search on large domains: a domain of more than `SPLIT_ABOVE` values is split in halves,
//! never enumerated value by value; smaller domains keep the value choice unchanged.

use engine::search::brancher::{Brancher, DecisionOp, SPLIT_ABOVE};
use engine::{Model, ValSelect, VarSelect};

#[test]
fn large_domains_are_split_and_small_ones_enumerated() {
    let wide = SPLIT_ABOVE as i32 * 4;
    for (val, op) in [
        (ValSelect::Min, DecisionOp::Le),
        (ValSelect::Max, DecisionOp::Gt),
        (ValSelect::Split, DecisionOp::Le),
    ] {
        let mut m = Model::new();
        let x = m.new_var(-wide, wide);
        let mut b = Brancher::new(&m, None, VarSelect::InputOrder, val, 1);
        let (d, _) = b.next(&m).unwrap();
        assert_eq!((d.var, d.op, d.value), (x, op, 0), "{val:?}");
    }
    let mut m = Model::new();
    let x = m.new_var(3, 3 + SPLIT_ABOVE as i32 - 1);
    let mut b = Brancher::new(&m, None, VarSelect::InputOrder, ValSelect::Min, 1);
    let (d, _) = b.next(&m).unwrap();
    assert_eq!((d.var, d.op, d.value), (x, DecisionOp::Eq, 3));
}
