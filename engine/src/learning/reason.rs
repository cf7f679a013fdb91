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

/// What the trail says about one atom's origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A decision taken by the search: it has no reason.
    Decision,
    /// Derived: the reason was pushed.
    Derived,
    /// Derived, but its reason is longer than [`MAX_REASON_ATOMS`]: nothing
    /// useful can be learned through it.
    TooLong,
}

/// The longest reason conflict analysis accepts (see the header).
pub const MAX_REASON_ATOMS: usize = 1024;

/// A variable's root domain as the learner sees it: the domain, and for a sparse one
/// (holes, at most [`SPARSE_ROOT`] values) its values listed (`trail.rs` lists them once).
#[derive(Clone, Copy, Debug)]
pub struct Root<'a> {
    pub domain: &'a Domain,
    pub values: Option<&'a [i32]>,
}

/// Does `domain` lack a value between its bounds?
pub fn has_holes(domain: &Domain) -> bool {
    (domain.max() as i64 - domain.min() as i64 + 1) > domain.size() as i64
}

/// The most values of a root domain with holes that the trail lists ([`Root`]).
pub const SPARSE_ROOT: u32 = 4096;

impl<'a> Root<'a> {
    /// The root domain `domain`, its values listed in `values` if given.
    pub fn new(domain: &'a Domain, values: Option<&'a [i32]>) -> Root<'a> {
        Root { domain, values }
    }

    /// Call `visit` on each value of the root that `domain` lacks between its bounds, in
    /// increasing order, until `visit` says false. A sparse root is walked value by value
    /// (a bitset spanning millions of values is not scanned); otherwise `domain`'s gaps.
    fn each_missing(&self, domain: &Domain, mut visit: impl FnMut(i32) -> bool) {
        let (lo, hi) = (domain.min(), domain.max());
        if let Some(values) = self.values {
            let first = values.partition_point(|&v| v < lo);
            for &v in values[first..].iter().take_while(|&&v| v <= hi) {
                if !domain.contains(v) && !visit(v) {
                    return;
                }
            }
            return;
        }
        for pair in domain.ranges().windows(2) {
            let (gap_start, gap_end) = (pair[0].1 + 1, pair[1].0 - 1);
            let mut v = gap_start;
            while let Some(missing) = self.domain.next_from(v).filter(|&m| m <= gap_end) {
                if !visit(missing) {
                    return;
                }
                v = missing + 1;
            }
        }
    }
}

/// [`Atom::describe`] for the learner: `domain` (of `x`, inside its root domain `root`)
/// by its bounds and the values it lacks **that the root domain has**. A value the root
/// lacks too is a root fact, which analysis drops anyway; without it, an `element` result
/// over `{0, 771667}` is two atoms, not 771,668.
pub fn describe_against_root(x: VarId, domain: &Domain, root: Root<'_>, out: &mut Vec<Atom>) {
    if domain.is_fixed() {
        out.push(Atom::Equal(x, domain.value()));
        return;
    }
    out.push(Atom::AtLeast(x, domain.min()));
    out.push(Atom::AtMost(x, domain.max()));
    if !has_holes(domain) {
        return;
    }
    root.each_missing(domain, |v| {
        out.push(Atom::NotEqual(x, v));
        true
    });
}

/// How many atoms [`describe_against_root`] writes, counted without writing them; the
/// count stops just past [`MAX_REASON_ATOMS`] (a larger answer means "too many").
pub fn description_size(domain: &Domain, root: Root<'_>) -> usize {
    if domain.is_fixed() {
        return 1;
    }
    let mut size = 2;
    if !has_holes(domain) {
        return size;
    }
    root.each_missing(domain, |_| {
        size += 1;
        size <= MAX_REASON_ATOMS
    });
    size
}

/// The generic reason, each domain described against its root domain (`root(x)`), if it
/// has at most [`MAX_REASON_ATOMS`] atoms; else nothing is written and the answer is false.
pub fn generic_reason_within_ceiling<'r>(
    vars: &[VarId],
    inputs: &[Domain],
    root: impl Fn(VarId) -> Root<'r>,
    out: &mut Vec<Atom>,
) -> bool {
    let mut size = 0;
    for (&x, d) in vars.iter().zip(inputs) {
        size += description_size(d, root(x));
        if size > MAX_REASON_ATOMS {
            return false;
        }
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
        let root_domain = Domain::interval(-10, 5_000);
        let root = Root::new(&root_domain, None);
        for d in domains() {
            let (mut plain, mut against) = (Vec::new(), Vec::new());
            Atom::describe(VarId(0), &d, &mut plain);
            describe_against_root(VarId(0), &d, root, &mut against);
            assert_eq!(plain, against, "{d:?}");
            let size = description_size(&d, root);
            if against.len() <= MAX_REASON_ATOMS {
                assert_eq!(size, against.len(), "{d:?}");
            } else {
                assert_eq!(size, MAX_REASON_ATOMS + 1, "{d:?}");
            }
        }
    }

    #[test]
    fn a_description_names_only_the_values_the_root_domain_has() {
        let values = [-4, 0, 2, 7, 8, 20, 3_000];
        let root_domain = Domain::from_values(&values);
        let d = Domain::from_values(&[-4, 7, 20]);
        let expected = [
            Atom::AtLeast(VarId(0), -4),
            Atom::AtMost(VarId(0), 20),
            Atom::NotEqual(VarId(0), 0),
            Atom::NotEqual(VarId(0), 2),
            Atom::NotEqual(VarId(0), 8),
        ];
        // The same whether the root's values are listed or not.
        for root in [
            Root::new(&root_domain, None),
            Root::new(&root_domain, Some(&values)),
        ] {
            let mut atoms = Vec::new();
            describe_against_root(VarId(0), &d, root, &mut atoms);
            assert_eq!(atoms, expected);
            assert_eq!(description_size(&d, root), expected.len());
        }
    }

    #[test]
    fn a_generic_reason_past_the_ceiling_is_not_written() {
        let vars = [VarId(0), VarId(1), VarId(2)];
        let root_domain = Domain::interval(-10, 5_000);
        let root = Root::new(&root_domain, None);
        let small = &domains()[..3];
        let (mut within, mut all) = (Vec::new(), Vec::new());
        assert!(generic_reason_within_ceiling(
            &vars,
            small,
            |_| root,
            &mut within
        ));
        generic_reason(&vars, small, &mut all);
        assert_eq!(within, all);
        let wide = [small[0].clone(), small[1].clone(), domains()[3].clone()];
        let mut none = Vec::new();
        assert!(!generic_reason_within_ceiling(
            &vars,
            &wide,
            |_| root,
            &mut none
        ));
        assert!(none.is_empty());
    }
}
