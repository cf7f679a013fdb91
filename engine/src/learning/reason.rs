//! # Reasons: why a propagator made a change
//!
//! A propagator run starts from its **inputs**, the domains of the variables it subscribes
//! to just before the run (indexed by local index, as in `subscriptions`), and makes atoms
//! true: `[x ≥ 4]` by raising a bound, `[x ≠ 3]` by removing a value. A **reason** for such
//! an atom `a` is a set of atoms that
//!
//! 1. each hold in the inputs, and
//! 2. together with the propagator's constraint alone, imply `a`: every assignment that
//!    satisfies the constraint and the reason satisfies `a`.
//!
//! One reason always exists: the whole inputs, described atom by atom ([`generic_reason`]).
//! It is sound for every propagator, so learning works for all of them from the first day,
//! but it is large, and a large reason makes a weak nogood. A propagator that knows why it
//! pruned says so in [`crate::Propagator::explain`]: linear's `[x ≥ 4]` follows from the
//! other terms' upper bounds only; all-different's `[x ≠ 3]` from `[y = 3]` alone.
//!
//! A *failure* is explained the same way ([`crate::Propagator::explain_failure`]): a set of
//! atoms holding in the inputs that, with the constraint, no assignment satisfies.
//!
//! **Wide holes.** [`Atom::describe`] spells a domain with a hole by one `[x ≠ v]` per
//! missing value: for an `element` result over `{0, 771667, 2115984}`, two million atoms,
//! which analysis hashed one by one only to drop them as root facts (seconds per failure on
//! `liner-sf-repositioning`). The learner describes a domain against its root domain
//! instead ([`describe_against_root`]), and a reason still longer than
//! [`MAX_REASON_ATOMS`] is not written out: the learner gives up on that failure (learns
//! nothing, and the search backtracks as without learning), which is always sound.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::store::VarId;

/// The longest reason conflict analysis accepts (see the header).
pub const MAX_REASON_ATOMS: usize = 1024;

/// [`Atom::describe`] for the learner: `domain` (of `x`, inside its root domain `root`)
/// by its bounds and the values it lacks **that the root domain has**. A value the root
/// lacks too is a root fact, which analysis drops anyway; without it, an `element` result
/// over `{0, 771667}` is two atoms, not 771,668.
pub fn describe_against_root(x: VarId, domain: &Domain, root: &Domain, out: &mut Vec<Atom>) {
    if domain.is_fixed() {
        out.push(Atom::Equal(x, domain.value()));
        return;
    }
    out.push(Atom::AtLeast(x, domain.min()));
    out.push(Atom::AtMost(x, domain.max()));
    for pair in domain.ranges().windows(2) {
        let (gap_start, gap_end) = (pair[0].1 + 1, pair[1].0 - 1);
        let mut v = gap_start;
        while let Some(missing) = root.next_from(v).filter(|&m| m <= gap_end) {
            out.push(Atom::NotEqual(x, missing));
            v = missing + 1;
        }
    }
}

/// How many atoms [`describe_against_root`] writes, computed without writing them.
pub fn description_size(domain: &Domain, root: &Domain) -> usize {
    if domain.is_fixed() {
        return 1;
    }
    let (lo, hi) = (domain.min(), domain.max());
    let root_values: u64 = (root.ranges().iter())
        .map(|&(a, b)| (b.min(hi) as i64 - a.max(lo) as i64 + 1).max(0) as u64)
        .sum();
    2 + root_values.saturating_sub(domain.size() as u64) as usize
}

/// The generic reason, each domain described against its root domain (`root(x)`), if it
/// has at most [`MAX_REASON_ATOMS`] atoms; else nothing is written and the answer is false.
pub fn generic_reason_within_ceiling<'r>(
    vars: &[VarId],
    inputs: &[Domain],
    root: impl Fn(VarId) -> &'r Domain,
    out: &mut Vec<Atom>,
) -> bool {
    let size: usize = (vars.iter().zip(inputs))
        .map(|(&x, d)| description_size(d, root(x)))
        .sum();
    if size > MAX_REASON_ATOMS {
        return false;
    }
    for (local, &x) in vars.iter().enumerate() {
        if !vars[..local].contains(&x) {
            describe_against_root(x, &inputs[local], root(x), out);
        }
    }
    true
}

/// The reason every propagator has: all of its inputs, each domain described by atoms
/// ([`Atom::describe`]). `vars[i]` is the variable of `inputs[i]` (the subscriptions'
/// variables, in order); a variable subscribed twice is described once.
pub fn generic_reason(vars: &[VarId], inputs: &[Domain], out: &mut Vec<Atom>) {
    for (local, &x) in vars.iter().enumerate() {
        if vars[..local].contains(&x) {
            continue;
        }
        Atom::describe(x, &inputs[local], out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domains() -> Vec<Domain> {
        vec![
            Domain::from_values(&[3]),
            Domain::from_values(&[0, 1, 2]),
            Domain::from_values(&[-4, 0, 7, 8, 20]),
            Domain::from_values(&[0, 3_000]),
        ]
    }

    #[test]
    fn against_an_interval_root_a_description_is_the_whole_description() {
        let root = Domain::interval(-10, 5_000);
        for d in domains() {
            let (mut plain, mut against) = (Vec::new(), Vec::new());
            Atom::describe(VarId(0), &d, &mut plain);
            describe_against_root(VarId(0), &d, &root, &mut against);
            assert_eq!(plain, against, "{d:?}");
            assert_eq!(description_size(&d, &root), against.len(), "{d:?}");
        }
    }

    #[test]
    fn a_description_names_only_the_values_the_root_domain_has() {
        let root = Domain::from_values(&[-4, 0, 2, 7, 8, 20, 3_000]);
        let d = Domain::from_values(&[-4, 7, 20]);
        let mut atoms = Vec::new();
        describe_against_root(VarId(0), &d, &root, &mut atoms);
        let expected = [
            Atom::AtLeast(VarId(0), -4),
            Atom::AtMost(VarId(0), 20),
            Atom::NotEqual(VarId(0), 0),
            Atom::NotEqual(VarId(0), 2),
            Atom::NotEqual(VarId(0), 8),
        ];
        assert_eq!(atoms, expected);
        assert_eq!(description_size(&d, &root), expected.len());
    }

    #[test]
    fn a_generic_reason_past_the_ceiling_is_not_written() {
        let vars = [VarId(0), VarId(1), VarId(2)];
        let root = Domain::interval(-10, 5_000);
        let small = &domains()[..3];
        let (mut within, mut all) = (Vec::new(), Vec::new());
        assert!(generic_reason_within_ceiling(
            &vars,
            small,
            |_| &root,
            &mut within
        ));
        generic_reason(&vars, small, &mut all);
        assert_eq!(within, all);
        let wide = [small[0].clone(), small[1].clone(), domains()[3].clone()];
        let mut none = Vec::new();
        assert!(!generic_reason_within_ceiling(
            &vars,
            &wide,
            |_| &root,
            &mut none
        ));
        assert!(none.is_empty());
    }
}
