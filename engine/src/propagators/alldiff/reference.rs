//! # All-different, the reference lane: the textbook rules, written plainly
//!
//! The stateless references (`propagate_from_scratch`) of the fast all-different
//! propagators are built from these few plain routines, with no bit tricks and no state kept
//! between runs. They are the oracle the tests compare the fast lane against.
//!
//! * [`forward_check`]: a fixed variable's shown value (`value + offset`) is removed from
//!   every other variable (value consistency, "naked singles");
//! * [`pigeonhole`]: `n` variables need `n` different shown values: fewer is a failure, and
//!   with exactly `n`, a value only one variable holds goes to it ("hidden singles");
//! * domain consistency per unit reuses Régin's propagator of `domain.rs`.

use crate::propagator::{Conflict, Context};
use crate::store::VarId;
use std::collections::BTreeMap;

/// One round of forward checking on `xs[i] + offsets[i]`: for every fixed variable, its
/// shown value is removed from every other. Returns whether a domain changed.
pub(crate) fn forward_check(
    ctx: &mut Context<'_>,
    xs: &[VarId],
    offsets: &[i32],
) -> Result<bool, Conflict> {
    let mut changed = false;
    for (i, &x) in xs.iter().enumerate() {
        if !ctx.is_fixed(x) {
            continue;
        }
        let shown = ctx.value(x) as i64 + offsets[i] as i64;
        for (j, &y) in xs.iter().enumerate() {
            if j == i {
                continue;
            }
            let v = shown - offsets[j] as i64;
            if v >= i32::MIN as i64 && v <= i32::MAX as i64 {
                changed |= ctx.remove(y, v as i32)?;
            }
        }
    }
    Ok(changed)
}

/// The pigeonhole rule on `xs[i] + offset`: the `n` variables must show `n` different
/// values, so fewer values in the union of their domains is a failure, and with exactly
/// `n`, a value held by one variable only goes to it. Returns whether a domain changed.
pub(crate) fn pigeonhole(
    ctx: &mut Context<'_>,
    xs: &[VarId],
    offset: i32,
) -> Result<bool, Conflict> {
    let mut holders: BTreeMap<i64, Vec<VarId>> = BTreeMap::new();
    for &x in xs {
        for v in ctx.domain(x).iter() {
            holders.entry(v as i64 + offset as i64).or_default().push(x);
        }
    }
    if holders.len() < xs.len() {
        return Err(Conflict::new());
    }
    let mut changed = false;
    if holders.len() == xs.len() {
        for (shown, held_by) in holders {
            if let [x] = held_by[..] {
                changed |= ctx.fix(x, (shown - offset as i64) as i32)?;
            }
        }
    }
    Ok(changed)
}
