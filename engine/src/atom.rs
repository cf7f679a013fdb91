//! # Atoms: the facts that reasons and nogoods are made of
//!
//! An integer variable's domain is described, for learning, by *atomic constraints* on one
//! variable: a lower bound `[x ≥ v]`, an upper bound `[x ≤ v]`, an assignment `[x = v]`, a
//! removed value `[x ≠ v]`. Any domain is the conjunction of its two bounds and the values
//! missing between them ([`Atom::describe`]). The negation of an atom is again an atom
//! (`¬[x ≥ v]` is `[x ≤ v − 1]`, `¬[x = v]` is `[x ≠ v]`), so a nogood "these atoms never
//! hold together" is the clause "one of their negations holds".

use crate::domain::Domain;
use crate::store::VarId;
use std::fmt;

/// An atomic constraint on one variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// `[x ≥ v]`
    AtLeast(VarId, i32),
    /// `[x ≤ v]`
    AtMost(VarId, i32),
    /// `[x = v]`
    Equal(VarId, i32),
    /// `[x ≠ v]`
    NotEqual(VarId, i32),
}

impl Atom {
    /// The variable the atom constrains.
    pub fn var(self) -> VarId {
        match self {
            Atom::AtLeast(x, _) | Atom::AtMost(x, _) | Atom::Equal(x, _) | Atom::NotEqual(x, _) => {
                x
            }
        }
    }

    /// The atom that holds exactly when this one does not. A bound at the edge of `i32`
    /// saturates: `¬[x ≥ i32::MIN]` is `[x ≤ i32::MIN − 1]`, which no domain satisfies, and
    /// is written `[x ≤ i32::MIN]` with [`Atom::never`] telling the two apart.
    pub fn negated(self) -> Atom {
        match self {
            Atom::AtLeast(x, v) => Atom::AtMost(x, v.saturating_sub(1)),
            Atom::AtMost(x, v) => Atom::AtLeast(x, v.saturating_add(1)),
            Atom::Equal(x, v) => Atom::NotEqual(x, v),
            Atom::NotEqual(x, v) => Atom::Equal(x, v),
        }
    }

    /// Is the atom true of every value left in `domain` (its variable's domain)?
    pub fn holds_in(self, domain: &Domain) -> bool {
        match self {
            Atom::AtLeast(_, v) => domain.min() >= v,
            Atom::AtMost(_, v) => domain.max() <= v,
            Atom::Equal(_, v) => domain.is_fixed() && domain.value() == v,
            Atom::NotEqual(_, v) => !domain.contains(v),
        }
    }

    /// Is the atom false of every value left in `domain`?
    pub fn fails_in(self, domain: &Domain) -> bool {
        match self {
            Atom::AtLeast(_, v) => domain.max() < v,
            Atom::AtMost(_, v) => domain.min() > v,
            Atom::Equal(_, v) => !domain.contains(v),
            Atom::NotEqual(_, v) => domain.is_fixed() && domain.value() == v,
        }
    }

    /// Is the atom true of the single value `value` of its variable?
    pub fn holds_for(self, value: i32) -> bool {
        match self {
            Atom::AtLeast(_, v) => value >= v,
            Atom::AtMost(_, v) => value <= v,
            Atom::Equal(_, v) => value == v,
            Atom::NotEqual(_, v) => value != v,
        }
    }

    /// The atoms whose conjunction is exactly `domain` (of `x`, not empty): its bounds, and
    /// a `[x ≠ v]` for each value missing between them. A fixed domain is one `[x = v]`.
    pub fn describe(x: VarId, domain: &Domain, out: &mut Vec<Atom>) {
        if domain.is_fixed() {
            out.push(Atom::Equal(x, domain.value()));
            return;
        }
        out.push(Atom::AtLeast(x, domain.min()));
        out.push(Atom::AtMost(x, domain.max()));
        let ranges = domain.ranges();
        for pair in ranges.windows(2) {
            for v in pair[0].1 + 1..pair[1].0 {
                out.push(Atom::NotEqual(x, v));
            }
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Atom::AtLeast(x, v) => write!(f, "[x{} ≥ {v}]", x.0),
            Atom::AtMost(x, v) => write!(f, "[x{} ≤ {v}]", x.0),
            Atom::Equal(x, v) => write!(f, "[x{} = {v}]", x.0),
            Atom::NotEqual(x, v) => write!(f, "[x{} ≠ {v}]", x.0),
        }
    }
}

/// For tests: the four atoms of `x` at each of `values`.
#[cfg(test)]
pub(crate) fn every_atom(x: VarId, values: std::ops::Range<i32>) -> Vec<Atom> {
    values
        .flat_map(|v| {
            [
                Atom::AtLeast(x, v),
                Atom::AtMost(x, v),
                Atom::Equal(x, v),
                Atom::NotEqual(x, v),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atom_and_its_negation_split_every_value() {
        let x = VarId(0);
        for atom in [
            Atom::AtLeast(x, 3),
            Atom::AtMost(x, 3),
            Atom::Equal(x, 3),
            Atom::NotEqual(x, 3),
        ] {
            for value in 0..7 {
                assert_ne!(
                    atom.holds_for(value),
                    atom.negated().holds_for(value),
                    "{atom} at {value}"
                );
            }
            assert_eq!(atom.negated().negated(), atom);
        }
    }

    #[test]
    fn a_description_holds_exactly_for_the_domain() {
        let x = VarId(4);
        let domain = Domain::from_values(&[1, 2, 5, 7, 8]);
        let mut atoms = Vec::new();
        Atom::describe(x, &domain, &mut atoms);
        for value in -2..12 {
            let all = atoms.iter().all(|a| a.holds_for(value));
            assert_eq!(all, domain.contains(value), "value {value}");
        }
        for atom in &atoms {
            assert!(atom.holds_in(&domain) && !atom.fails_in(&domain), "{atom}");
        }
    }
}
