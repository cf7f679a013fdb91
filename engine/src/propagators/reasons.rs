//! # Reasons, shared: from "these values were removed" to any atom the learner asks for
//!
//! A propagator knows why it removed a value (`[x ≠ v]`), but the learner may ask about any
//! atom the run made true on `x`: a new bound `[x ≤ w]` or a fixed value `[x = v]`. Such an
//! atom follows from the removed values' reasons and from `x`'s own input domain (its bounds
//! and holes, which held before the run). [`split_atom`] does that split once for every
//! propagator: the own atoms go straight into the reason, the values it returns are the
//! ones whose removal the propagator must explain.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::view::View;

/// Most values one atom may need explained or described (beyond it, give up: the learner
/// then uses the generic reason).
const MOST_VALUES: i64 = 64;

/// Split `atom` (on the variable whose input domain is `d`) into atoms of `d` itself, pushed
/// onto `own`, and the values of `d` that must have been removed for it to hold, returned.
/// `None` if that is more than [`MOST_VALUES`] values.
pub(crate) fn split_atom(atom: Atom, d: &Domain, own: &mut Vec<Atom>) -> Option<Vec<i32>> {
    let x = atom.var();
    let mut needed = Vec::new();
    let mut range = |first: i64, last: i64, own: &mut Vec<Atom>| -> Option<()> {
        if last - first >= MOST_VALUES {
            return None;
        }
        for v in first..=last {
            let v = v as i32;
            if d.contains(v) {
                needed.push(v);
            } else {
                own.push(Atom::NotEqual(x, v));
            }
        }
        Some(())
    };
    match atom {
        Atom::NotEqual(_, v) => range(v as i64, v as i64, own)?,
        Atom::AtMost(_, w) => {
            own.push(Atom::AtMost(x, d.max()));
            range(w as i64 + 1, d.max() as i64, own)?;
        }
        Atom::AtLeast(_, w) => {
            own.push(Atom::AtLeast(x, d.min()));
            range(d.min() as i64, w as i64 - 1, own)?;
        }
        Atom::Equal(_, v) => {
            own.push(Atom::AtLeast(x, d.min()));
            own.push(Atom::AtMost(x, d.max()));
            range(d.min() as i64, v as i64 - 1, own)?;
            range(v as i64 + 1, d.max() as i64, own)?;
        }
    }
    Some(needed)
}

/// The atom "the view `view` shows at least `w`", on its variable (`None`: the bound
/// leaves `i32`).
pub(crate) fn view_at_least(view: View, w: i64) -> Option<Atom> {
    let (a, rest, x) = (view.scale() as i64, w - view.offset() as i64, view.var());
    Some(if a > 0 {
        Atom::AtLeast(x, i32::try_from(ceil_div(rest, a)).ok()?)
    } else {
        Atom::AtMost(x, i32::try_from(floor_div(rest, a)).ok()?)
    })
}

/// The atom "the view `view` shows at most `w`", on its variable.
pub(crate) fn view_at_most(view: View, w: i64) -> Option<Atom> {
    let (a, rest, x) = (view.scale() as i64, w - view.offset() as i64, view.var());
    Some(if a > 0 {
        Atom::AtMost(x, i32::try_from(rest.div_euclid(a)).ok()?)
    } else {
        Atom::AtLeast(x, i32::try_from(ceil_div(rest, a)).ok()?)
    })
}

/// `⌈n / d⌉` for any signs.
fn ceil_div(n: i64, d: i64) -> i64 {
    -floor_div(-n, d)
}

/// `⌊n / d⌋` for any signs.
fn floor_div(n: i64, d: i64) -> i64 {
    let q = n / d;
    if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

/// The variable's atom for "the view shows `w`" (`None` if no value shows it).
pub(crate) fn view_equal(view: View, w: i64) -> Option<Atom> {
    Some(Atom::Equal(view.var(), view.inverse(w)?))
}

/// Does `a` alone imply `b` (both on one variable)? `[x ≤ 3]` implies `[x ≤ 5]` and
/// `[x ≠ 4]`; `[x = 2]` implies every atom true of 2.
pub(crate) fn implies(a: Atom, b: Atom) -> bool {
    if a.var() != b.var() {
        return false;
    }
    match (a, b) {
        (Atom::Equal(_, v), b) => b.holds_for(v),
        (Atom::AtMost(_, u), Atom::AtMost(_, w)) => u <= w,
        (Atom::AtMost(_, u), Atom::NotEqual(_, w)) => w > u,
        (Atom::AtLeast(_, u), Atom::AtLeast(_, w)) => u >= w,
        (Atom::AtLeast(_, u), Atom::NotEqual(_, w)) => w < u,
        (Atom::NotEqual(_, u), Atom::NotEqual(_, w)) => u == w,
        _ => false,
    }
}

/// A literal of a 0/1 variable: `(x, true)` is `x = 1`, `(x, false)` is `x = 0`.
pub(crate) type Literal = (crate::store::VarId, bool);

/// The input domain of `x`, the first subscription on it.
pub(crate) fn input_of<'d>(
    vars: &[crate::store::VarId],
    inputs: &'d [Domain],
    x: crate::store::VarId,
) -> Option<&'d Domain> {
    vars.iter().position(|&y| y == x).map(|i| &inputs[i])
}

/// `[x ≠ value]` for the literal's value when it is false in `d` (its value gone).
fn literal_false((x, sign): Literal, d: &Domain) -> Option<Atom> {
    (!d.contains(sign as i32)).then_some(Atom::NotEqual(x, sign as i32))
}

/// Explain an atom of a Boolean constraint (every variable 0/1) by one clause of its
/// decomposition: an atom true of both 0 and 1 needs no reason (the constraint alone keeps
/// its variables 0/1); else a clause whose other literals are all false in the inputs forces
/// the atom's literal, and their falsity is the reason (unit propagation's reason).
pub(crate) fn explain_by_clauses(
    clauses: &[Vec<Literal>],
    vars: &[crate::store::VarId],
    inputs: &[Domain],
    atom: Atom,
    reason: &mut Vec<Atom>,
) -> bool {
    let Some(d) = input_of(vars, inputs, atom.var()) else {
        return false;
    };
    // Each of 0 and 1 the atom excludes is gone from the input, or forced out by a clause.
    (0..=1).filter(|&w| !atom.holds_for(w)).all(|w| {
        if !d.contains(w) {
            reason.push(Atom::NotEqual(atom.var(), w));
            return true;
        }
        clauses.iter().any(|clause| {
            let mark = reason.len();
            let forced = clause.iter().enumerate().any(|(k, &(x, sign))| {
                if x != atom.var() || sign as i32 == w {
                    return false;
                }
                let others_false =
                    (clause.iter().enumerate())
                        .filter(|&(j, _)| j != k)
                        .all(|(_, &lit)| {
                            let atom =
                                input_of(vars, inputs, lit.0).and_then(|d| literal_false(lit, d));
                            reason.extend(atom);
                            atom.is_some()
                        });
                if !others_false {
                    reason.truncate(mark);
                }
                others_false
            });
            forced
        })
    })
}

/// The reason of an atom on a 0/1 variable `b` (input domain `d`) when the rest of the
/// constraint forces `b = forced` for the reason `because`: each of 0 and 1 the atom
/// excludes is gone from `d`, or is not the forced value. `false` if neither.
pub(crate) fn explain_boolean_atom(
    atom: Atom,
    d: &Domain,
    forced: Option<(bool, &[Atom])>,
    reason: &mut Vec<Atom>,
) -> bool {
    let mut used = false;
    for w in (0..=1).filter(|&w| !atom.holds_for(w)) {
        if !d.contains(w) {
            reason.push(Atom::NotEqual(atom.var(), w));
        } else {
            match forced {
                Some((value, because)) if value as i32 != w => {
                    if !used {
                        reason.extend_from_slice(because);
                        used = true;
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

/// Explain the failure of a Boolean constraint: a variable with neither 0 nor 1 (its
/// domain is the reason), or a clause of the decomposition whose literals are all false.
pub(crate) fn explain_failure_by_clauses(
    clauses: &[Vec<Literal>],
    vars: &[crate::store::VarId],
    inputs: &[Domain],
    reason: &mut Vec<Atom>,
) -> bool {
    for (&x, d) in vars.iter().zip(inputs) {
        if !d.contains(0) && !d.contains(1) {
            Atom::describe(x, d, reason);
            return true;
        }
    }
    for clause in clauses {
        let falsity: Option<Vec<Atom>> = (clause.iter())
            .map(|&lit| input_of(vars, inputs, lit.0).and_then(|d| literal_false(lit, d)))
            .collect();
        if let Some(atoms) = falsity {
            reason.extend(atoms);
            return true;
        }
    }
    false
}

/// Push why `partner` is not a value of `var` (whose input domain is `d`): a bound it lies
/// beyond, or `[var ≠ partner]`. `false` if it is a value of `d`.
pub(crate) fn no_partner(
    var: crate::store::VarId,
    d: &Domain,
    partner: i64,
    reason: &mut Vec<Atom>,
) -> bool {
    if partner > d.max() as i64 {
        reason.push(Atom::AtMost(var, d.max()));
    } else if partner < d.min() as i64 {
        reason.push(Atom::AtLeast(var, d.min()));
    } else if !d.contains(partner as i32) {
        reason.push(Atom::NotEqual(var, partner as i32));
    } else {
        return false;
    }
    true
}

/// Most tuples [`unsupported_reason`] enumerates in one test.
const MOST_TUPLES: u64 = 4096;

/// For a propagator that keeps exactly the supported values of a constraint `holds` over
/// distinct variables `vars` (inputs `inputs`): push why position `i` cannot take `v`
/// (`None`: why no tuple at all, for a failure). The reason is the other positions' bounds
/// and the values missing between them, minimised greedily: each missing value is put back
/// in turn, and stays back if there is still no support. `false` when the boxes are too
/// large to enumerate, or a support exists.
pub(crate) fn unsupported_reason(
    vars: &[crate::store::VarId],
    inputs: &[Domain],
    holds: &dyn Fn(&[i32]) -> bool,
    at: Option<(usize, i32)>,
    reason: &mut Vec<Atom>,
) -> bool {
    let n = vars.len();
    let mut allowed: Vec<Vec<i32>> = inputs.iter().map(|d| d.values().to_vec()).collect();
    if let Some((i, v)) = at {
        allowed[i] = vec![v];
    }
    let boxed = |allowed: &[Vec<i32>]| {
        let count = allowed
            .iter()
            .try_fold(1u64, |p, a| p.checked_mul(a.len() as u64));
        count.is_some_and(|c| c <= MOST_TUPLES)
    };
    let hull: Vec<Vec<i32>> = (0..n)
        .map(|j| match at {
            Some((i, v)) if i == j => vec![v],
            _ => (inputs[j].min()..=inputs[j].max()).collect(),
        })
        .collect();
    if !boxed(&hull) || has_support(&allowed, holds) {
        return false;
    }
    let mut own = Vec::new();
    for j in (0..n).filter(|&j| at.is_none_or(|(i, _)| i != j)) {
        let d = &inputs[j];
        own.push(Atom::AtLeast(vars[j], d.min()));
        own.push(Atom::AtMost(vars[j], d.max()));
        for w in (d.min()..=d.max()).filter(|&w| !d.contains(w)) {
            let place = allowed[j].partition_point(|&u| u < w);
            allowed[j].insert(place, w);
            if has_support(&allowed, holds) {
                allowed[j].remove(place);
                own.push(Atom::NotEqual(vars[j], w));
            }
        }
    }
    reason.extend(own);
    true
}

/// Does some tuple of `allowed` satisfy `holds`?
fn has_support(allowed: &[Vec<i32>], holds: &dyn Fn(&[i32]) -> bool) -> bool {
    fn rec(
        k: usize,
        allowed: &[Vec<i32>],
        tuple: &mut Vec<i32>,
        holds: &dyn Fn(&[i32]) -> bool,
    ) -> bool {
        if k == allowed.len() {
            return holds(tuple);
        }
        for &v in &allowed[k] {
            tuple[k] = v;
            if rec(k + 1, allowed, tuple, holds) {
                return true;
            }
        }
        false
    }
    let mut tuple = vec![0; allowed.len()];
    rec(0, allowed, &mut tuple, holds)
}

/// [`unsupported_reason`] for every value an atom on `vars[i]` needs gone.
pub(crate) fn explain_by_supports(
    vars: &[crate::store::VarId],
    inputs: &[Domain],
    holds: &dyn Fn(&[i32]) -> bool,
    atom: Atom,
    reason: &mut Vec<Atom>,
) -> bool {
    if (0..vars.len()).any(|i| (0..i).any(|j| vars[j] == vars[i])) {
        return false;
    }
    let Some(i) = vars.iter().position(|&x| x == atom.var()) else {
        return false;
    };
    let Some(needed) = split_atom(atom, &inputs[i], reason) else {
        return false;
    };
    let explained =
        (needed.iter()).all(|&v| unsupported_reason(vars, inputs, holds, Some((i, v)), reason));
    crate::propagators::bound_replay::merge_into_equalities(reason);
    explained
}
