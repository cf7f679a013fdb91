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
    for _pass in 0..8 {
        let before = learnt.len();
        for c in &fzn.constraints {
            if let Some((name, interval)) = rule(&known, &c.name, &c.args) {
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
    learnt
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
