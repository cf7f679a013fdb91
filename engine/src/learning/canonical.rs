//! # One fact, one spelling: atoms normalised against the root domains
//!
//! On a 0/1 cell, `[x ≠ 0]`, `[x ≥ 1]` and `[x = 1]` are one fact written three ways: a
//! decision says `[x = 1]`, a propagator's reason `[x ≠ 0]`, a bound reason `[x ≥ 1]`.
//! Conflict analysis counts the atoms of the current level to find the unique implication
//! point (`analysis.rs`); counted three times, one fact hides the UIP, and the analysis
//! resolves past it, down to a nogood about decisions far back. A nogood may also carry the
//! same fact twice and watch two spellings of it.
//!
//! So every atom that enters an analysis is first rewritten to one **canonical** spelling,
//! decided by the variable's root domain `R` (which holds in every solution: it is what the
//! constraints alone left after the root propagation). Let `S` be the values of `R` the atom
//! allows:
//!
//! | `S` is | spelling |
//! |---|---|
//! | one value `v` | `[x = v]` |
//! | the values of `R` from `v` up (`v` in `R`) | `[x ≥ v]` |
//! | the values of `R` up to `v` (`v` in `R`) | `[x ≤ v]` |
//! | all of `R` but `v` | `[x ≠ v]` |
//!
//! An atom that holds in all of `R` (a root fact) or in none of it is left as it is.

use crate::atom::Atom;
use crate::domain::Domain;

/// The canonical spelling of `atom` given its variable's root domain `root`.
pub fn canonical(atom: Atom, root: &Domain) -> Atom {
    if root.is_empty() || atom.holds_in(root) || atom.fails_in(root) {
        return atom;
    }
    let x = atom.var();
    // The atom neither holds nor fails in `root`, so `root` has two values or more and the
    // lookups below find a value.
    let lowest_from = |v: i32| {
        let m = root.next_from(v).expect("a value of the root domain");
        if m == root.max() {
            Atom::Equal(x, m)
        } else {
            Atom::AtLeast(x, m)
        }
    };
    let highest_to = |v: i32| {
        let m = root.prev_from(v).expect("a value of the root domain");
        if m == root.min() {
            Atom::Equal(x, m)
        } else {
            Atom::AtMost(x, m)
        }
    };
    match atom {
        Atom::AtLeast(_, v) => lowest_from(v),
        Atom::AtMost(_, v) => highest_to(v),
        Atom::Equal(..) => atom,
        Atom::NotEqual(_, v) if v == root.min() => lowest_from(v + 1),
        Atom::NotEqual(_, v) if v == root.max() => highest_to(v - 1),
        Atom::NotEqual(..) => atom,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::VarId;

    /// The canonical atom allows exactly the values of the root the atom allows, and two
    /// atoms that allow the same values are spelt the same.
    #[test]
    fn canonical_atoms_allow_the_same_values_and_are_unique() {
        let x = VarId(0);
        for root in [
            Domain::interval(0, 1),
            Domain::from_values(&[1, 3, 4, 7]),
            Domain::interval(-2, 5),
        ] {
            let atoms = crate::atom::every_atom(x, -4..10);
            let allowed =
                |a: Atom| -> Vec<i32> { root.iter().filter(|&v| a.holds_for(v)).collect() };
            for &a in &atoms {
                let c = canonical(a, &root);
                assert_eq!(allowed(a), allowed(c), "{a} → {c} in {root:?}");
                for &b in &atoms {
                    let partial = |a: Atom| !a.holds_in(&root) && !a.fails_in(&root);
                    if partial(a) && allowed(a) == allowed(b) {
                        assert_eq!(c, canonical(b, &root), "{a} and {b} in {root:?}");
                    }
                }
            }
        }
    }
}
