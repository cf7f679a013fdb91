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

use crate::atom::Atom;
use crate::domain::Domain;
use crate::store::VarId;

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
