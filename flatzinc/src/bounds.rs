//! # Bounds for `var int` declared without a domain
//!
//! MiniZinc often declares the variables it introduces (a sum, a product, the objective)
//! as plain `var int`, and leaves their range to be read off the constraint that defines
//! them. The engine needs a finite domain, so before building, this pass computes such a
//! range from the constraints: `z = x + y` with `x ∈ 0..5`, `y ∈ 1..3` gives `z ∈ 1..8`.
//!
//! This is sound, not a guess: each rule computes an interval that contains every value the
//! variable can take in a solution of that one constraint, so restricting the variable to it
//! loses no solution. (Never clamping a domain to fit is the rule; this only states what the
//! model already implies.) Rules for `int_lin_eq` (a coefficient ±1 on the unknown), `int_eq`,
//! `int_plus`, `int_times`, `int_abs`, `int_min`, `int_max`, `int_div`, `int_mod`,
//! `bool2int`, the element constraints and `fzn_count_eq` (a count lies in `0..n`); the passes repeat while something new is learnt.
//!
//! When no constraint defines the variable, its range can still follow from inequalities,
//! one side at a time: `0 <= x` gives a lower bound, then `x + y <= 5` with `y >= 0` an
//! upper one (MiniZinc writes `array[..] of var int: x` with `x[i] >= 0` and a sum that
//! caps it, e.g. the 0/1 assignment variables of a packing model). [`half_bounds`] reads
//! each linear constraint (`int_lin_le`, `int_lin_eq`, `int_le`, `int_lt`) the way bounds
//! propagation does, with a missing bound standing for infinity, and a variable whose two
//! sides are both known gets that interval.

use crate::ast::{BaseType, Expr, FznModel};
use std::collections::{HashMap, HashSet};

/// An interval of integers, `lo <= hi`.
type Interval = (i64, i64);

struct Known<'a> {
    bounds: HashMap<&'a str, Interval>,
    /// Integer parameters and arrays (of parameters or variable names).
    values: HashMap<&'a str, &'a Expr>,
}

impl<'a> Known<'a> {
    /// The interval of an expression, if known.
    fn of(&self, e: &Expr) -> Option<Interval> {
        match e {
            Expr::Int(v) => Some((*v, *v)),
            Expr::Bool(b) => Some((*b as i64, *b as i64)),
            Expr::Ident(n) => match self.bounds.get(n.as_str()) {
                Some(&b) => Some(b),
                None => match self.values.get(n.as_str()) {
                    Some(Expr::Int(v)) => Some((*v, *v)),
                    Some(Expr::Bool(b)) => Some((*b as i64, *b as i64)),
                    _ => None,
                },
            },
            Expr::Access(n, i) => match self.values.get(n.as_str()) {
                Some(Expr::Array(items)) if *i >= 1 => match items.get(*i as usize - 1)? {
                    // One step only: an element that is itself `b[j]` stays unknown (a chain
                    // of them, or one naming its own array, would recurse without end).
                    Expr::Access(..) => None,
                    item => self.of(item),
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The elements of an array argument.
    fn elements(&self, e: &'a Expr) -> Option<&'a [Expr]> {
        match e {
            Expr::Array(items) => Some(items),
            Expr::Ident(n) => match self.values.get(n.as_str()) {
                Some(Expr::Array(items)) => Some(items),
                _ => None,
            },
            _ => None,
        }
    }

    /// The name of an unknown variable the expression stands for.
    fn unknown(&self, e: &'a Expr) -> Option<&'a str> {
        match e {
            Expr::Ident(n) if self.of(e).is_none() && !self.values.contains_key(n.as_str()) => {
                Some(n)
            }
            _ => None,
        }
    }
}

fn hull(values: impl Iterator<Item = i64>) -> Option<Interval> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Computed intervals for the `var int` declared without a domain, by name.
pub fn infer(fzn: &FznModel) -> HashMap<String, Interval> {
    let mut known = Known {
        bounds: HashMap::new(),
        values: HashMap::new(),
    };
    // A set: the passes below ask it once per constraint.
    let mut unbounded = HashSet::new();
    for d in &fzn.decls {
        if d.ty.array_len.is_some() || !d.ty.var {
            if let Some(v) = &d.value {
                known.values.insert(&d.name, v);
            }
            continue;
        }
        match (d.ty.base, &d.ty.domain) {
            (BaseType::Bool, _) => {
                known.bounds.insert(&d.name, (0, 1));
            }
            (_, Some(r)) if !r.is_empty() => {
                known.bounds.insert(&d.name, (r[0].0, r[r.len() - 1].1));
            }
            (BaseType::Int, None) => {
                unbounded.insert(d.name.as_str());
            }
            _ => {}
        }
    }
    let mut learnt: HashMap<String, Interval> = HashMap::new();
    for _round in 0..4 {
        let before = learnt.len();
        defining_passes(fzn, &mut known, &unbounded, &mut learnt);
        half_bounds(fzn, &mut known, &unbounded, &mut learnt);
        if learnt.len() == before {
            break;
        }
    }
    learnt
}

/// The rules of [`rule`], repeated while they learn something.
fn defining_passes<'a>(
    fzn: &'a FznModel,
    known: &mut Known<'a>,
    unbounded: &HashSet<&'a str>,
    learnt: &mut HashMap<String, Interval>,
) {
    for _pass in 0..8 {
        let before = learnt.len();
        for c in &fzn.constraints {
            if let Some((name, interval)) = rule(known, &c.name, &c.args) {
                if unbounded.contains(name) && !learnt.contains_key(name) {
                    learnt.insert(name.to_string(), interval);
                    known.bounds.insert(name, interval);
                }
            }
        }
        if learnt.len() == before {
            break;
        }
    }
}

/// One side of a range: `None` is infinity.
type Half = (Option<i128>, Option<i128>);

/// A linear constraint `Σ a·x ≤ c` (or `= c`) over terms that are known or unbounded.
struct Linear<'a> {
    terms: Vec<(i128, &'a Expr)>,
    rhs: i128,
    equality: bool,
}

fn linear<'a>(k: &Known<'a>, name: &str, args: &'a [Expr]) -> Option<Linear<'a>> {
    let pair = |x: &'a Expr, y: &'a Expr, rhs: i128| Linear {
        terms: vec![(1, x), (-1, y)],
        rhs,
        equality: false,
    };
    match (name, args) {
        ("int_le", [x, y]) => Some(pair(x, y, 0)),
        ("int_lt", [x, y]) => Some(pair(x, y, -1)),
        ("int_lin_le" | "int_lin_eq", [coefs, vars, rhs]) => {
            let coefs = k.elements(coefs)?;
            let vars = k.elements(vars)?;
            let mut terms = Vec::with_capacity(vars.len());
            for (a, x) in coefs.iter().zip(vars) {
                terms.push((k.of(a)?.0 as i128, x));
            }
            Some(Linear {
                terms,
                rhs: k.of(rhs)?.0 as i128,
                equality: name == "int_lin_eq",
            })
        }
        _ => None,
    }
}

/// Lower and upper bounds read off inequalities, one side at a time (the header's second
/// paragraph); a variable whose two sides become known is learnt. Each side only ever
/// tightens, so the passes are bounded to stop a cycle of inequalities that keeps
/// tightening (an infeasible model) from running long.
fn half_bounds<'a>(
    fzn: &'a FznModel,
    known: &mut Known<'a>,
    unbounded: &HashSet<&'a str>,
    learnt: &mut HashMap<String, Interval>,
) {
    let lines: Vec<Linear<'a>> = (fzn.constraints.iter())
        .filter_map(|c| linear(known, &c.name, &c.args))
        .filter(|l| (l.terms.iter()).any(|(_, x)| open_name(x, unbounded, learnt).is_some()))
        .collect();
    let mut half: HashMap<&'a str, Half> = HashMap::new();
    for _pass in 0..16 {
        let mut changed = false;
        for l in &lines {
            changed |= tighten(known, unbounded, learnt, &mut half, l, 1);
            if l.equality {
                changed |= tighten(known, unbounded, learnt, &mut half, l, -1);
            }
        }
        if !changed {
            break;
        }
    }
    for (name, side) in half {
        if let (Some(lo), Some(hi)) = side {
            let fits = |v: i128| i64::try_from(v).ok();
            if let (Some(lo), Some(hi)) = (fits(lo), fits(hi)) {
                learnt.insert(name.to_string(), (lo, hi));
                known.bounds.insert(name, (lo, hi));
            }
        }
    }
}

/// The name of a variable still without an interval, if the expression is one.
fn open_name<'a>(
    e: &'a Expr,
    unbounded: &HashSet<&'a str>,
    learnt: &HashMap<String, Interval>,
) -> Option<&'a str> {
    match e {
        Expr::Ident(n) if unbounded.contains(n.as_str()) && !learnt.contains_key(n) => Some(n),
        _ => None,
    }
}

/// Bounds propagation of `sign·Σ a·x ≤ sign·c` on the open variables: for each term,
/// `a·x ≤ c − (the least the other terms can be)`. Returns whether a side tightened.
fn tighten<'a>(
    k: &Known<'a>,
    unbounded: &HashSet<&'a str>,
    learnt: &HashMap<String, Interval>,
    half: &mut HashMap<&'a str, Half>,
    l: &Linear<'a>,
    sign: i128,
) -> bool {
    // The least value of each term (none: unbounded below, or beyond i128).
    let least = |a: i128, x: &'a Expr| -> Option<i128> {
        let (lo, hi) = match open_name(x, unbounded, learnt) {
            Some(n) => half.get(n).copied().unwrap_or((None, None)),
            None => {
                let (lo, hi) = k.of(x)?;
                (Some(lo as i128), Some(hi as i128))
            }
        };
        a.checked_mul(if a >= 0 { lo? } else { hi? })
    };
    let leasts: Vec<Option<i128>> = (l.terms.iter()).map(|&(a, x)| least(sign * a, x)).collect();
    let mut sum = Some(0i128);
    let mut infinite = 0;
    for m in &leasts {
        match m {
            Some(v) => sum = sum.and_then(|s| s.checked_add(*v)),
            None => infinite += 1,
        }
    }
    let Some(sum) = sum else {
        return false;
    };
    let mut changed = false;
    for (&(a, x), m) in l.terms.iter().zip(&leasts) {
        let a = sign * a;
        let Some(name) = open_name(x, unbounded, learnt) else {
            continue;
        };
        // The least the other terms can be.
        let rest = match m {
            Some(v) if infinite == 0 => sum - v,
            None if infinite == 1 => sum,
            _ => continue,
        };
        // a·x ≤ room
        let Some(room) = (sign * l.rhs).checked_sub(rest) else {
            continue;
        };
        let side = half.entry(name).or_insert((None, None));
        if a > 0 {
            let hi = room.div_euclid(a); // ⌊room / a⌋
            if side.1.map_or(true, |h| hi < h) {
                side.1 = Some(hi);
                changed = true;
            }
        } else if a < 0 {
            let lo = -room.div_euclid(-a); // ⌈room / a⌉
            if side.0.map_or(true, |l0| lo > l0) {
                side.0 = Some(lo);
                changed = true;
            }
        }
    }
    changed
}

/// What one constraint says of one unknown variable, when everything else is known.
fn rule<'a>(k: &Known<'a>, name: &str, args: &'a [Expr]) -> Option<(&'a str, Interval)> {
    let mul = |a: i64, b: i64| a.saturating_mul(b);
    match (name, args) {
        ("int_lin_eq", [coefs, vars, rhs]) => {
            let coefs = k.elements(coefs)?;
            let vars = k.elements(vars)?;
            let rhs = k.of(rhs)?.0;
            let mut unknown = None;
            let (mut lo, mut hi) = (0i64, 0i64);
            for (a, x) in coefs.iter().zip(vars) {
                let a = k.of(a)?.0;
                match k.of(x) {
                    Some((l, h)) => {
                        let (p, q) = (mul(a, l), mul(a, h));
                        lo = lo.saturating_add(p.min(q));
                        hi = hi.saturating_add(p.max(q));
                    }
                    None if unknown.is_none() && (a == 1 || a == -1) => {
                        unknown = Some((k.unknown(x)?, a));
                    }
                    None => return None,
                }
            }
            let (x, a) = unknown?;
            // a·x = rhs - rest, rest ∈ lo..hi.
            let (l, h) = (rhs.saturating_sub(hi), rhs.saturating_sub(lo));
            Some((x, if a == 1 { (l, h) } else { (-h, -l) }))
        }
        ("int_eq" | "bool2int", [x, y]) => match (k.of(x), k.of(y)) {
            (Some(b), None) => Some((k.unknown(y)?, b)),
            (None, Some(b)) => Some((k.unknown(x)?, b)),
            _ => None,
        },
        ("int_plus", [x, y, z]) => {
            let (x, y) = (k.of(x)?, k.of(y)?);
            Some((
                k.unknown(z)?,
                (x.0.saturating_add(y.0), x.1.saturating_add(y.1)),
            ))
        }
        ("int_times", [x, y, z]) => {
            let (x, y) = (k.of(x)?, k.of(y)?);
            let corners = [mul(x.0, y.0), mul(x.0, y.1), mul(x.1, y.0), mul(x.1, y.1)];
            Some((k.unknown(z)?, hull(corners.into_iter())?))
        }
        ("int_abs", [x, z]) => {
            let x = k.of(x)?;
            let m = x.0.saturating_abs().max(x.1.saturating_abs());
            let lo = if x.0 <= 0 && x.1 >= 0 {
                0
            } else {
                x.0.abs().min(x.1.abs())
            };
            Some((k.unknown(z)?, (lo, m)))
        }
        ("int_min", [x, y, z]) => {
            let (x, y) = (k.of(x)?, k.of(y)?);
            Some((k.unknown(z)?, (x.0.min(y.0), x.1.min(y.1))))
        }
        ("int_max", [x, y, z]) => {
            let (x, y) = (k.of(x)?, k.of(y)?);
            Some((k.unknown(z)?, (x.0.max(y.0), x.1.max(y.1))))
        }
        ("int_div", [x, _, z]) => {
            let x = k.of(x)?;
            let m = x.0.saturating_abs().max(x.1.saturating_abs());
            Some((k.unknown(z)?, (-m, m)))
        }
        ("int_mod", [x, y, z]) => {
            let (x, y) = (k.of(x)?, k.of(y)?);
            let my =
                y.0.saturating_abs()
                    .max(y.1.saturating_abs())
                    .saturating_sub(1);
            let lo = if x.0 < 0 { -my } else { 0 };
            let hi = if x.1 > 0 { my } else { 0 };
            Some((k.unknown(z)?, (lo, hi)))
        }
        ("array_int_element" | "array_var_int_element", [_, array, z]) => {
            let items = k.elements(array)?;
            let mut acc: Option<Interval> = None;
            for item in items {
                let (l, h) = k.of(item)?;
                acc = Some(match acc {
                    None => (l, h),
                    Some((lo, hi)) => (lo.min(l), hi.max(h)),
                });
            }
            Some((k.unknown(z)?, acc?))
        }
        ("fzn_count_eq", [xs, _, c]) => {
            let n = k.elements(xs)?.len() as i64;
            Some((k.unknown(c)?, (0, n)))
        }
        _ => None,
    }
}
