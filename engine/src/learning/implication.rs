//! # Implication between atoms of one variable
//!
//! `[x ≥ 5]` implies `[x ≥ 3]` and `[x ≠ 2]`; `[x = 4]` implies every atom true of 4. Which
//! atom implies which, on the whole integer line and whatever the domain, is what lets a
//! nogood drop an atom made redundant by a stronger one on the same variable, and a
//! decision `[x = 4]` stand for every atom it made true.

use crate::atom::Atom;

/// Does `a` imply `b` for every integer value of their variable?
pub fn implies(a: Atom, b: Atom) -> bool {
    if a.var() != b.var() {
        return false;
    }
    match (a, b) {
        (Atom::Equal(_, v), _) => b.holds_for(v),
        (Atom::AtLeast(_, v), Atom::AtLeast(_, w)) => v >= w,
        (Atom::AtLeast(_, v), Atom::NotEqual(_, w)) => w < v,
        (Atom::AtMost(_, v), Atom::AtMost(_, w)) => v <= w,
        (Atom::AtMost(_, v), Atom::NotEqual(_, w)) => w > v,
        (Atom::NotEqual(_, v), Atom::NotEqual(_, w)) => v == w,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::VarId;

    #[test]
    fn implication_agrees_with_the_values() {
        let x = VarId(0);
        let atoms = crate::atom::every_atom(x, -1..5);
        for &a in &atoms {
            for &b in &atoms {
                let by_values = (-20..20).all(|v| !a.holds_for(v) || b.holds_for(v));
                assert_eq!(implies(a, b), by_values, "{a} ⇒ {b}");
            }
        }
    }
}
