//! # A model under construction, posted constraint by constraint
//!
//! [`NativeModel`] is an [`engine::Model`] plus the objective and one flag: a constraint that
//! is already false when it is posted (a fixed value outside a domain, an empty table) makes
//! the model unsatisfiable, which the search then reports, as the command line does for a
//! puzzle whose givens clash.
//!
//! Variables cross the border as their index in the engine's store. The Python layer checks
//! the types and shapes of the arguments and says what is wrong in Python's words; the checks
//! here are the last line, so that no argument reaches an engine `assert!`: each one becomes a
//! `ValueError`, never a panic.

use engine::propagators::arithmetic::ArithOp;
use engine::propagators::regular::Dfa;
use engine::propagators::reified::LinRel;
use engine::{AllDiffLevel, Model, Objective, Relation, VarId};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::BTreeMap;

/// The widest alphabet a `regular` automaton may span (its table has one column per value).
const MAX_ALPHABET: i64 = 1 << 16;

/// An engine model being built from Python.
#[pyclass(module = "cpsolve._native")]
#[derive(Clone, Debug, Default)]
pub struct NativeModel {
    pub(crate) model: Model,
    pub(crate) objective: Option<Objective>,
    /// A constraint was false when posted: no solution exists.
    pub(crate) unsatisfiable: bool,
}

fn error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A value the engine's domains can hold.
fn value(v: i64, what: &str) -> PyResult<i32> {
    if v < i32::MIN as i64 || v > engine::domain::MAX_VALUE as i64 {
        return Err(error(format!(
            "{what} {v} is out of range: values lie in {}..={}",
            i32::MIN,
            engine::domain::MAX_VALUE
        )));
    }
    Ok(v as i32)
}

fn values(vs: &[i64], what: &str) -> PyResult<Vec<i32>> {
    vs.iter().map(|&v| value(v, what)).collect()
}

/// Do the same variable appear twice in `xs`?
fn has_repeats(xs: &[VarId]) -> bool {
    let mut sorted = xs.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}

fn relation(rel: &str) -> PyResult<(Relation, LinRel)> {
    match rel {
        "le" => Ok((Relation::Le, LinRel::Le)),
        "eq" => Ok((Relation::Eq, LinRel::Eq)),
        "ne" => Ok((Relation::Ne, LinRel::Ne)),
        _ => Err(error(format!("unknown relation '{rel}' (le, eq or ne)"))),
    }
}

/// Does `0 rel rhs` hold (a linear constraint whose terms all vanished)?
fn holds(rel: Relation, rhs: i64) -> bool {
    match rel {
        Relation::Le => 0 <= rhs,
        Relation::Ge => 0 >= rhs,
        Relation::Eq => rhs == 0,
        Relation::Ne => rhs != 0,
    }
}

impl NativeModel {
    fn var(&self, x: u32) -> PyResult<VarId> {
        if (x as usize) < self.model.num_vars() {
            Ok(VarId(x))
        } else {
            Err(error(format!(
                "variable #{x} does not belong to this model"
            )))
        }
    }

    fn vars(&self, xs: &[u32]) -> PyResult<Vec<VarId>> {
        xs.iter().map(|&x| self.var(x)).collect()
    }

    fn terms(&self, terms: &[(i64, u32)]) -> PyResult<Vec<(i64, VarId)>> {
        terms
            .iter()
            .filter(|(a, _)| *a != 0)
            .map(|&(a, x)| Ok((a, self.var(x)?)))
            .collect()
    }

    /// A unary restriction that may empty a domain: then the model has no solution.
    fn restrict(&mut self, result: Result<(), engine::Conflict>) {
        if result.is_err() {
            self.unsatisfiable = true;
        }
    }

    /// `b` is a 0/1 variable.
    fn boolean(&mut self, b: u32) -> PyResult<VarId> {
        let b = self.var(b)?;
        let r = self.model.restrict_to(b, &[0, 1]);
        self.restrict(r);
        Ok(b)
    }
}

#[pymethods]
impl NativeModel {
    #[new]
    fn new() -> NativeModel {
        NativeModel::default()
    }

    /// A copy (the search runs on a copy, so a model can be solved again).
    fn copy(&self) -> NativeModel {
        self.clone()
    }

    fn num_vars(&self) -> usize {
        self.model.num_vars()
    }

    fn num_propagators(&self) -> usize {
        self.model.num_propagators()
    }

    /// A variable with domain `lo..=hi`.
    fn int_var(&mut self, lo: i64, hi: i64) -> PyResult<u32> {
        let (lo, hi) = (value(lo, "the bound")?, value(hi, "the bound")?);
        if lo > hi {
            return Err(error(format!("empty domain {lo}..{hi}: lo must be <= hi")));
        }
        Ok(self.model.new_var(lo, hi).0)
    }

    /// A variable whose domain is exactly `values` (duplicates allowed).
    fn var_from_values(&mut self, vs: Vec<i64>) -> PyResult<u32> {
        if vs.is_empty() {
            return Err(error("a domain needs at least one value"));
        }
        let mut vs = values(&vs, "the value")?;
        vs.sort_unstable();
        vs.dedup();
        let mut ranges: Vec<(i32, i32)> = Vec::new();
        for v in vs {
            match ranges.last_mut() {
                Some(r) if r.1 as i64 + 1 == v as i64 => r.1 = v,
                _ => ranges.push((v, v)),
            }
        }
        Ok(self.model.new_var_from_ranges(&ranges).0)
    }

    /// The current bounds of `x` (its declared ones, before any search).
    fn bounds(&self, x: u32) -> PyResult<(i32, i32)> {
        let x = self.var(x)?;
        Ok((self.model.min(x), self.model.max(x)))
    }

    /// The values left to `x`.
    fn domain_values(&self, x: u32) -> PyResult<Vec<i32>> {
        let x = self.var(x)?;
        let (lo, hi) = (self.model.min(x), self.model.max(x));
        if hi as i64 - lo as i64 > 1_000_000 {
            return Err(error("the domain is too wide to list"));
        }
        Ok((lo..=hi).filter(|&v| self.model.contains(x, v)).collect())
    }

    /// `x = v`.
    fn fix(&mut self, x: u32, v: i64) -> PyResult<()> {
        let x = self.var(x)?;
        match i32::try_from(v) {
            Ok(v) => {
                let r = self.model.fix(x, v);
                self.restrict(r)
            }
            Err(_) => self.unsatisfiable = true,
        }
        Ok(())
    }

    /// `x ∈ values`.
    fn restrict_to(&mut self, x: u32, vs: Vec<i64>) -> PyResult<()> {
        let x = self.var(x)?;
        let vs: Vec<i32> = vs
            .into_iter()
            .filter_map(|v| i32::try_from(v).ok())
            .collect();
        let r = self.model.restrict_to(x, &vs);
        self.restrict(r);
        Ok(())
    }

    /// `Σ a·x rel rhs`, `rel` one of `le`, `eq`, `ne`.
    fn linear(&mut self, terms: Vec<(i64, u32)>, rel: &str, rhs: i64) -> PyResult<()> {
        let (rel, _) = relation(rel)?;
        let terms = self.terms(&terms)?;
        if terms.is_empty() {
            if !holds(rel, rhs) {
                self.unsatisfiable = true;
            }
            return Ok(());
        }
        self.model.linear(&terms, rel, rhs);
        Ok(())
    }

    /// `b ⇔ Σ a·x rel rhs`, or `b ⇒ Σ a·x rel rhs` when `half`.
    fn reified_linear(
        &mut self,
        b: u32,
        terms: Vec<(i64, u32)>,
        rel: &str,
        rhs: i64,
        half: bool,
    ) -> PyResult<()> {
        let (relation, linrel) = relation(rel)?;
        let b = self.boolean(b)?;
        let terms = self.terms(&terms)?;
        if terms.is_empty() {
            let truth = holds(relation, rhs);
            if !truth {
                let r = self.model.fix(b, 0);
                self.restrict(r);
            } else if !half {
                let r = self.model.fix(b, 1);
                self.restrict(r);
            }
            return Ok(());
        }
        self.model.reified_linear(b, &terms, linrel, rhs, half);
        Ok(())
    }

    /// All of `xs` different, at `level` (`value`, `bounds` or `domain`).
    fn all_different(&mut self, xs: Vec<u32>, level: &str) -> PyResult<()> {
        let level = match level {
            "value" => AllDiffLevel::Value,
            "bounds" => AllDiffLevel::Bounds,
            "domain" => AllDiffLevel::Domain,
            _ => {
                return Err(error(format!(
                    "unknown all-different level '{level}' (value, bounds or domain)"
                )))
            }
        };
        let xs = self.vars(&xs)?;
        if has_repeats(&xs) {
            self.unsatisfiable = true;
        } else if xs.len() > 1 {
            self.model.all_different(&xs, level);
        }
        Ok(())
    }

    /// `target = array[index]`, `index` counted from 0, the entries constants.
    fn element(&mut self, index: u32, array: Vec<i64>, target: u32) -> PyResult<()> {
        let (index, target) = (self.var(index)?, self.var(target)?);
        let array = values(&array, "the array entry")?;
        if array.is_empty() {
            self.unsatisfiable = true;
        } else if index == target {
            // `x = array[x]`: the fixed points of the array.
            let fixed: Vec<i32> = (0..array.len() as i32)
                .filter(|&i| array[i as usize] == i)
                .collect();
            let r = self.model.restrict_to(index, &fixed);
            self.restrict(r);
        } else {
            self.model.element(index, &array, target);
        }
        Ok(())
    }

    /// `target = array[index]`, `index` counted from 0, the entries variables.
    fn element_var(&mut self, index: u32, array: Vec<u32>, target: u32) -> PyResult<()> {
        let (index, target) = (self.var(index)?, self.var(target)?);
        let array = self.vars(&array)?;
        if array.is_empty() {
            self.unsatisfiable = true;
        } else {
            self.model.element_var(index, 0, &array, target);
        }
        Ok(())
    }

    /// `(xs[0], …)` is one of `tuples`.
    fn table(&mut self, xs: Vec<u32>, tuples: Vec<Vec<i64>>) -> PyResult<()> {
        let xs = self.vars(&xs)?;
        let mut rows = Vec::with_capacity(tuples.len());
        for (i, t) in tuples.iter().enumerate() {
            if t.len() != xs.len() {
                return Err(error(format!(
                    "tuple {i} has {} values, and there are {} variables",
                    t.len(),
                    xs.len()
                )));
            }
            rows.push(values(t, "the tuple value")?);
        }
        if rows.is_empty() {
            self.unsatisfiable = true;
        } else if !xs.is_empty() {
            self.model.table(&xs, rows);
        }
        Ok(())
    }

    /// `succ` (nodes counted from 0) is one cycle through every node.
    fn circuit(&mut self, succ: Vec<u32>) -> PyResult<()> {
        let succ = self.vars(&succ)?;
        if succ.is_empty() {
            return Err(error("a circuit needs at least one node"));
        }
        if has_repeats(&succ) && succ.len() > 1 {
            self.unsatisfiable = true;
            return Ok(());
        }
        let n = succ.len() as i32;
        for &x in &succ {
            let r = self.model.restrict_to_ranges(x, &[(0, n - 1)]);
            self.restrict(r);
        }
        if self.unsatisfiable {
            return Ok(());
        }
        if n == 1 {
            let r = self.model.fix(succ[0], 0);
            self.restrict(r);
        } else {
            self.model.circuit(&succ);
        }
        Ok(())
    }

    /// `xs` spells a word of the automaton given by `(state, value, next state)` triples.
    fn regular(
        &mut self,
        xs: Vec<u32>,
        transitions: Vec<(i64, i64, i64)>,
        start: i64,
        accepting: Vec<i64>,
    ) -> PyResult<()> {
        let xs = self.vars(&xs)?;
        let dfa = automaton(&transitions, start, &accepting)?;
        match dfa {
            Some(dfa) if !xs.is_empty() => {
                self.model.regular(&xs, dfa);
            }
            Some(dfa) => {
                // The empty word: accepted when the start state accepts.
                if !dfa.accepting.contains(&dfa.start) {
                    self.unsatisfiable = true;
                }
            }
            None => {
                // No transition at all: only the empty word can be accepted.
                if !xs.is_empty() || !accepting.contains(&start) {
                    self.unsatisfiable = true;
                }
            }
        }
        Ok(())
    }

    /// Tasks `(starts[i], durations[i], demands[i])` never use more than `capacity` at once
    /// (constant durations, demands and capacity).
    fn cumulative(
        &mut self,
        starts: Vec<u32>,
        durations: Vec<i64>,
        demands: Vec<i64>,
        capacity: i64,
    ) -> PyResult<()> {
        let starts = self.vars(&starts)?;
        let durations = values(&durations, "the duration")?;
        let demands = values(&demands, "the demand")?;
        let capacity = value(capacity, "the capacity")?;
        if durations.iter().chain(&demands).any(|&v| v < 0) || capacity < 0 {
            return Err(error("durations, demands and the capacity must be >= 0"));
        }
        if !starts.is_empty() {
            self.model
                .cumulative(&starts, &durations, &demands, capacity);
        }
        Ok(())
    }

    /// [`NativeModel::cumulative`] with variables for the durations, demands and capacity.
    fn cumulative_var(
        &mut self,
        starts: Vec<u32>,
        durations: Vec<u32>,
        demands: Vec<u32>,
        capacity: u32,
    ) -> PyResult<()> {
        let starts = self.vars(&starts)?;
        let durations = self.vars(&durations)?;
        let demands = self.vars(&demands)?;
        let capacity = self.var(capacity)?;
        if !starts.is_empty() {
            self.model
                .cumulative_var(&starts, &durations, &demands, capacity);
        }
        Ok(())
    }

    /// `p₁ ∨ … ∨ ¬n₁ ∨ …` over 0/1 variables.
    fn bool_or(&mut self, pos: Vec<u32>, neg: Vec<u32>) -> PyResult<()> {
        let mut pos = self.vars(&pos)?;
        let mut neg = self.vars(&neg)?;
        for &b in pos.iter().chain(&neg) {
            self.boolean(b.0)?;
        }
        pos.sort_unstable();
        pos.dedup();
        neg.sort_unstable();
        neg.dedup();
        if pos.iter().any(|p| neg.contains(p)) {
            return Ok(()); // `b ∨ ¬b`: always true.
        }
        if pos.is_empty() && neg.is_empty() {
            self.unsatisfiable = true;
        } else {
            self.model.clause(&pos, &neg);
        }
        Ok(())
    }

    /// `z = op(x, y)`, `op` one of `times`, `div`, `mod`, `min`, `max`, `abs` (y unused).
    fn arith(&mut self, op: &str, x: u32, y: u32, z: u32) -> PyResult<()> {
        let op = match op {
            "times" => ArithOp::Times,
            "div" => ArithOp::Div,
            "mod" => ArithOp::Mod,
            "min" => ArithOp::Min,
            "max" => ArithOp::Max,
            "abs" => ArithOp::Abs,
            _ => return Err(error(format!("unknown operation '{op}'"))),
        };
        let (x, y, z) = (self.var(x)?, self.var(y)?, self.var(z)?);
        self.model.arith(op, x, y, z);
        Ok(())
    }

    /// Minimise (or maximise) `x`; `None` removes the objective.
    #[pyo3(signature = (x, minimize))]
    fn set_objective(&mut self, x: Option<u32>, minimize: bool) -> PyResult<()> {
        self.objective = match x {
            Some(x) => Some(Objective {
                var: self.var(x)?,
                minimize,
            }),
            None => None,
        };
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "NativeModel({} variables, {} propagators)",
            self.model.num_vars(),
            self.model.num_propagators()
        )
    }
}

/// The engine's [`Dfa`] for an automaton given as `(state, value, next)` triples, its states
/// any integers (renumbered `1..=Q`), or `None` when it has no transition.
fn automaton(
    transitions: &[(i64, i64, i64)],
    start: i64,
    accepting: &[i64],
) -> PyResult<Option<Dfa>> {
    if transitions.is_empty() {
        return Ok(None);
    }
    let mut number: BTreeMap<i64, usize> = BTreeMap::new();
    for &q in transitions
        .iter()
        .flat_map(|(q, _, r)| [q, r])
        .chain([&start])
        .chain(accepting)
    {
        let next = number.len() + 1;
        number.entry(q).or_insert(next);
    }
    let lo = transitions.iter().map(|t| t.1).min().unwrap();
    let hi = transitions.iter().map(|t| t.1).max().unwrap();
    value(lo, "the transition value")?;
    value(hi, "the transition value")?;
    if hi - lo + 1 > MAX_ALPHABET {
        return Err(error(format!(
            "the transitions' values span {lo}..{hi}: at most {MAX_ALPHABET} values"
        )));
    }
    let symbols = (hi - lo + 1) as usize;
    let mut next = vec![vec![0usize; symbols]; number.len()];
    for &(q, v, r) in transitions {
        let cell = &mut next[number[&q] - 1][(v - lo) as usize];
        if *cell != 0 && *cell != number[&r] {
            return Err(error(format!(
                "two transitions from state {q} on value {v}: the automaton must be deterministic"
            )));
        }
        *cell = number[&r];
    }
    Ok(Some(Dfa {
        states: number.len(),
        first_value: lo as i32,
        symbols,
        next,
        start: number[&start],
        accepting: accepting.iter().map(|q| number[q]).collect(),
    }))
}
