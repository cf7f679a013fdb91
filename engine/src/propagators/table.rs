//! # Table: the variables take one of the listed tuples
//!
//! **Enforces:** `(x₁, …, xᵣ)` is one of the rows of a given table (a *positive* table
//! constraint, or "extensional" constraint). Any small constraint can be written this way —
//! the shape of a Nurikabe island, the allowed neighbours of a pipe tile — which makes it the
//! Swiss army knife of puzzle modelling.
//!
//! **Algorithm: Simple Tabular Reduction (STR)** (J. R. Ullmann, "Partition search for
//! non-binary constraint satisfaction", Information Sciences 2007; C. Lecoutre, "STR2",
//! Constraints 2011). Keep the rows that are still *valid* (every entry still in its
//! variable's domain) at the front of an array, in a list whose length is a reversible
//! integer. Each run:
//!
//! 1. walk the valid rows; a row with an entry no longer in its domain is swapped to just
//!    past the end of the list and the list shrinks by one;
//! 2. every entry of a row that stays valid is *supported*: mark it;
//! 3. remove from each variable the values that no valid row marked.
//!
//! Backtracking only has to restore the length: the rows removed at a deeper level were
//! swapped *past* the length of the level above, so the first `length` rows are exactly the
//! rows that were valid there (the order changes, the set does not).
//!
//! Worked example: rows `(1,1) (1,2) (2,3)`, `x ∈ {1,2}`, `y ∈ {2,3}`. Row `(1,1)` is
//! invalid (1 ∉ D(y)) and is dropped; the others mark `x ∈ {1,2}`, `y ∈ {2,3}`: nothing to
//! remove. Fix `y = 3`: row `(1,2)` goes, only `(2,3)` marks, so `x = 2`.
//!
//! **Consistency: domain** (generalised arc consistency): a value is kept exactly when a
//! valid row uses it. Removing unmarked values invalidates no valid row, so one run is the
//! fixpoint (idempotent).
//!
//! **Wakes on:** any domain change. **Cost:** O(rows·r) per run over the rows still valid
//! (which shrink as the search goes down), plus the domains. Compact-Table (Demeusy et al.,
//! CP 2016) does the same with bitsets of rows and is faster on big tables; STR is kept here
//! because it is short and its idea — a reversible list length — is worth learning.

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::{
    Condition, Context, PostContext, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::reasons::{no_partner, split_atom};
use crate::store::{RevId, VarId};

#[derive(Clone, Debug)]
pub struct Table {
    xs: Vec<VarId>,
    /// The rows, flattened: row `t` is `cells[t * r .. (t + 1) * r]`.
    cells: Vec<i32>,
    /// For each cell, the index of its value among the distinct values of its column.
    cell_rank: Vec<u32>,
    /// For each column, its distinct values, sorted.
    column_values: Vec<Vec<i32>>,
    /// The rows, valid ones first.
    order: Vec<u32>,
    /// How many rows of `order` are valid (reversible, allocated when posted).
    valid: Option<RevId>,
    /// Scratch: `supported[k][rank]`.
    supported: Vec<Vec<bool>>,
}

impl Table {
    /// Panics if a row does not have one entry per variable (a bug in the model).
    pub fn new(xs: &[VarId], rows: &[Vec<i32>]) -> Table {
        let r = xs.len();
        let mut column_values: Vec<Vec<i32>> = vec![Vec::new(); r];
        let mut cells = Vec::with_capacity(rows.len() * r);
        for row in rows {
            assert_eq!(row.len(), r, "table row of the wrong length");
            cells.extend_from_slice(row);
            for (k, &v) in row.iter().enumerate() {
                column_values[k].push(v);
            }
        }
        for col in &mut column_values {
            col.sort_unstable();
            col.dedup();
        }
        let cell_rank = cells
            .iter()
            .enumerate()
            .map(|(c, v)| column_values[c % r.max(1)].binary_search(v).expect("value") as u32)
            .collect();
        Table {
            xs: xs.to_vec(),
            cells,
            cell_rank,
            supported: column_values.iter().map(|c| vec![false; c.len()]).collect(),
            column_values,
            order: (0..rows.len() as u32).collect(),
            valid: None,
        }
    }

    /// Push why row `t` is not a tuple of the inputs: a cell gone from its column's input,
    /// preferring one the reason already names (nothing, if the row asks two values of one
    /// variable).
    fn row_gone(&self, inputs: &[Domain], t: usize, reason: &mut Vec<Atom>) -> bool {
        let r = self.xs.len();
        let cells = &self.cells[t * r..(t + 1) * r];
        let same_var_differs =
            (0..r).any(|k| (0..k).any(|j| self.xs[j] == self.xs[k] && cells[j] != cells[k]));
        if same_var_differs {
            return true; // a variable twice with two values: no assignment is this row
        }
        let gone: Vec<usize> = (0..r).filter(|&k| !inputs[k].contains(cells[k])).collect();
        let mut candidates = Vec::new();
        for &k in &gone {
            candidates.clear();
            no_partner(self.xs[k], &inputs[k], cells[k] as i64, &mut candidates);
            if reason.contains(&candidates[0]) {
                return true;
            }
        }
        match gone.first() {
            Some(&k) => no_partner(self.xs[k], &inputs[k], cells[k] as i64, reason),
            None => false,
        }
    }

    fn row_is_valid(&self, ctx: &Context<'_>, t: usize) -> bool {
        let r = self.xs.len();
        self.xs
            .iter()
            .zip(&self.cells[t * r..(t + 1) * r])
            .all(|(&x, &v)| ctx.contains(x, v))
    }
}

impl Propagator for Table {
    fn name(&self) -> &'static str {
        "table"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Domain)
    }
    fn priority(&self) -> Priority {
        Priority::Low
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn register(&mut self, post: &mut PostContext<'_>) {
        self.valid = Some(post.new_rev(self.order.len() as i64));
    }
    /// The reference: scan every row, keep the values some valid row supports.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let r = self.xs.len();
        let rows = self.order.len();
        let mut supported: Vec<Vec<bool>> = self
            .supported
            .iter()
            .map(|s| vec![false; s.len()])
            .collect();
        let mut valid_rows = 0;
        for t in 0..rows {
            if self.row_is_valid(ctx, t) {
                valid_rows += 1;
                for (k, column) in supported.iter_mut().enumerate() {
                    column[self.cell_rank[t * r + k] as usize] = true;
                }
            }
        }
        if valid_rows == 0 {
            return Err(crate::Conflict::new());
        }
        for (k, sup) in supported.iter().enumerate() {
            let col = &self.column_values[k];
            ctx.retain(self.xs[k], |v| col.binary_search(&v).is_ok_and(|i| sup[i]))?;
        }
        if valid_rows == 1 {
            ctx.set_entailed();
        }
        Ok(())
    }
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.propagate(ctx)
    }
    /// `[x ≠ v]` because every row with `v` in `x`'s column has another cell gone from its
    /// column's input: one such cell per row (`[y ≠ w]`, or `y`'s bound), shared where it can.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let Some(column) = self.xs.iter().position(|&x| x == atom.var()) else {
            return false;
        };
        let Some(needed) = split_atom(atom, &inputs[column], reason) else {
            return false;
        };
        let r = self.xs.len();
        needed.iter().all(|&v| {
            // A column of the variable where every row holding `v` is gone.
            (0..r).filter(|&k| self.xs[k] == atom.var()).any(|k| {
                let mark = reason.len();
                let unsupported = (0..self.order.len())
                    .filter(|&t| self.cells[t * r + k] == v)
                    .all(|t| self.row_gone(inputs, t, reason));
                if !unsupported {
                    reason.truncate(mark);
                }
                unsupported
            })
        })
    }
    /// Every row has a cell gone from its column's input.
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        (0..self.order.len()).all(|t| self.row_gone(inputs, t, reason))
    }
    /// The reversible list of valid rows is exact at every node: the run starts from the
    /// rows valid at the parent node, which is what a from-scratch scan of all rows would
    /// keep too.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let r = self.xs.len();
        let valid = self.valid.expect("allocated when posted");
        // 1. Drop the rows that lost an entry.
        let mut len = ctx.rev(valid) as usize;
        let mut p = 0;
        while p < len {
            if self.row_is_valid(ctx, self.order[p] as usize) {
                p += 1;
            } else {
                len -= 1;
                self.order.swap(p, len);
            }
        }
        ctx.set_rev(valid, len as i64);
        if len == 0 {
            return Err(crate::Conflict::new());
        }
        // 2. Mark the entries of the valid rows.
        for s in &mut self.supported {
            s.iter_mut().for_each(|b| *b = false);
        }
        for &t in &self.order[..len] {
            let t = t as usize;
            for k in 0..r {
                self.supported[k][self.cell_rank[t * r + k] as usize] = true;
            }
        }
        // 3. Remove the unmarked values.
        for k in 0..r {
            let (col, sup) = (&self.column_values[k], &self.supported[k]);
            let x = self.xs[k];
            if ctx.size(x) as usize != sup.iter().filter(|&&b| b).count() {
                ctx.retain(x, |v| col.binary_search(&v).is_ok_and(|i| sup[i]))?;
            }
        }
        if len == 1 {
            ctx.set_entailed();
        }
        Ok(())
    }
}
