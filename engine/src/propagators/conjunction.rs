//! # Reified conjunction: `r ⇔ ℓ₁ ∧ … ∧ ℓₖ` (and, by De Morgan, disjunction)
//!
//! **Enforces:** `r ⇔ (ℓ₁ ∧ … ∧ ℓₖ)` over literals of 0/1 variables (`x = 1` or `x = 0`),
//! `r` a literal too. A disjunction is the same constraint on the negated literals:
//! `r ⇔ (x₁ ∨ … ∨ xₖ)` is `¬r ⇔ (¬x₁ ∧ … ∧ ¬xₖ)`. MiniZinc writes every `exists`, `forall`,
//! `/\` and `\/` that is not at the top of a model as one of these (`array_bool_and`,
//! `array_bool_or`, `bool_and`, `bool_or`).
//!
//! **Rules.**
//!
//! 1. `r` true: every literal is true.
//! 2. a literal false: `r` is false.
//! 3. every literal true: `r` is true.
//! 4. `r` false and every literal but one true: that one is false.
//!
//! The same constraint is `k + 1` clauses (`¬r ∨ ℓᵢ` for each i, and `r ∨ ¬ℓ₁ ∨ … ∨ ¬ℓₖ`),
//! and unit propagation on them applies exactly these rules; `clause.rs` can run it so. One
//! propagator instead of `k + 1` wakes once where the clauses wake `k` times (when `r` is
//! fixed, every binary clause runs to fix its one literal).
//!
//! **Consistency: domain.** While `r` is free and no literal is false, `r = 1` has the
//! support "all true" and `r = 0` the support "one open literal false"; with `r` false and
//! two literals open, each open literal can be true while the other is false.
//!
//! **Algorithm (incremental).** Rule 2 needs to see every literal that becomes false: `notify`
//! records which literals were fixed, and the run looks at those only. Rules 3 and 4 need to
//! know when at most one literal is not yet true: two *watches* sit on literals that are not
//! true (as `clause.rs` watches literals that are not false), and move when theirs becomes
//! true; backtracking never invalidates them. **Wakes on:** fixing of `r` or of a literal.
//! **Cost:** O(1) per fixed literal, plus the watches' moves.

use crate::atom::Atom;
use crate::domain::{Domain, Event};
use crate::propagator::{
    Condition, Context, EnqueueDecision, Priority, PropResult, Propagator, Subscription,
};
use crate::propagators::clause::{is_false, is_true, move_watch, Literal};
use crate::propagators::reasons::explain_failure_by_clauses;
use crate::store::VarId;

/// `r ⇔ ℓ₁ ∧ … ∧ ℓₖ`. The variables of the literals and of `r` must be distinct
/// (`Model::conjunction` decomposes into clauses otherwise).
#[derive(Clone, Debug)]
pub struct Conjunction {
    lits: Vec<Literal>,
    r: Literal,
    /// Positions in `lits` of two literals not known true (equal when there is one literal).
    watch: [usize; 2],
    /// Positions of the literals fixed since the last run (from `notify`).
    fixed: Vec<u32>,
}

impl Conjunction {
    pub fn new(lits: &[Literal], r: Literal) -> Conjunction {
        let second = if lits.len() > 1 { 1 } else { 0 };
        Conjunction {
            lits: lits.to_vec(),
            r,
            watch: [0, second],
            fixed: Vec::new(),
        }
    }

    /// The constraint as clauses (`¬r ∨ ℓᵢ` for each i, and `r ∨ ¬ℓ₁ ∨ … ∨ ¬ℓₖ`), for
    /// explaining.
    fn clauses(&self) -> Vec<Vec<Literal>> {
        let not = |(x, sign): Literal| (x, !sign);
        let mut clauses: Vec<Vec<Literal>> = (self.lits.iter())
            .map(|&lit| vec![not(self.r), lit])
            .collect();
        clauses.push(
            std::iter::once(self.r)
                .chain(self.lits.iter().map(|&l| not(l)))
                .collect(),
        );
        clauses
    }

    /// The reason of `atom` that unit propagation on [`Conjunction::clauses`] gives
    /// (`reasons::explain_by_clauses`, the reference), atom for atom, found from the four
    /// rules in O(k) and without building the clauses: for each of 0 and 1 the atom
    /// excludes, the input lacks it already, or a rule removed it:
    ///
    /// * a literal made true (rule 1): `r` was true;
    /// * a literal made false (rule 4): `r` was false and every other literal true;
    /// * `r` made false (rule 2): the first literal that was false;
    /// * `r` made true (rule 3): every literal was true.
    fn explain_by_rules(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let k = self.lits.len();
        let y = atom.var();
        let Some(i) = (self.lits.iter().chain(std::iter::once(&self.r))).position(|l| l.0 == y)
        else {
            return false;
        };
        let input = |j: usize| &inputs[j];
        // `[x ≠ v]` saying the literal was false (`v` its value gone) or true (the other).
        let was_false = |(x, sign): Literal, d: &Domain| {
            (!d.contains(sign as i32)).then_some(Atom::NotEqual(x, sign as i32))
        };
        let was_true = |(x, sign): Literal, d: &Domain| {
            (!d.contains(!sign as i32)).then_some(Atom::NotEqual(x, !sign as i32))
        };
        for w in (0..=1).filter(|&w| !atom.holds_for(w)) {
            if !input(i).contains(w) {
                reason.push(Atom::NotEqual(y, w));
                continue;
            }
            let mark = reason.len();
            let (_, sign) = if i < k { self.lits[i] } else { self.r };
            let forced = match (i < k, w == sign as i32) {
                // The literal's value removed: it was made false, by rule 4.
                (true, true) => {
                    let others = (0..k).filter(|&j| j != i);
                    let all = std::iter::once(was_false(self.r, input(k)))
                        .chain(others.map(|j| was_true(self.lits[j], input(j))));
                    all.map(|a| a.map(|a| reason.push(a))).all(|a| a.is_some())
                }
                // The literal made true, by rule 1.
                (true, false) => was_true(self.r, input(k)).map(|a| reason.push(a)).is_some(),
                // `r` made false, by rule 2.
                (false, true) => (0..k)
                    .find_map(|j| was_false(self.lits[j], input(j)))
                    .map(|a| reason.push(a))
                    .is_some(),
                // `r` made true, by rule 3.
                (false, false) => (0..k)
                    .map(|j| was_true(self.lits[j], input(j)).map(|a| reason.push(a)))
                    .all(|a| a.is_some()),
            };
            if !forced {
                reason.truncate(mark);
                return false;
            }
        }
        true
    }

    /// Make the literal true (`truth`) or false.
    fn make(ctx: &mut Context<'_>, (x, sign): Literal, truth: bool) -> PropResult {
        ctx.fix(x, (sign == truth) as i32)?;
        Ok(())
    }

    /// Every variable of the constraint is 0/1.
    fn restrict_to_booleans(&self, ctx: &mut Context<'_>) -> PropResult {
        for &(x, _) in self.lits.iter().chain(std::iter::once(&self.r)) {
            ctx.set_min(x, 0)?;
            ctx.set_max(x, 1)?;
        }
        Ok(())
    }

    /// Rule 1: `r` is true, so is every literal.
    fn all_true(&self, ctx: &mut Context<'_>) -> PropResult {
        for &lit in &self.lits {
            Self::make(ctx, lit, true)?;
        }
        ctx.set_entailed();
        Ok(())
    }

    /// Rules 3 and 4, given the literals not known true: none, or just `last`.
    fn at_most_one_open(&self, ctx: &mut Context<'_>, last: Option<Literal>) -> PropResult {
        match last {
            None => {
                Self::make(ctx, self.r, true)?;
                ctx.set_entailed();
            }
            Some(lit) if is_false(ctx, self.r) => {
                Self::make(ctx, lit, false)?;
                ctx.set_entailed();
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// Make watch `w` point at a literal not known true, other than the other watch's, if
    /// there is one.
    fn rewatch(&mut self, ctx: &Context<'_>, w: usize) -> bool {
        move_watch(&self.lits, &mut self.watch, w, |lit| !is_true(ctx, lit))
    }

    /// The incremental rules 3 and 4 through the watches.
    fn settle(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if self.lits.is_empty() {
            return self.at_most_one_open(ctx, None);
        }
        let found = [self.rewatch(ctx, 0), self.rewatch(ctx, 1)];
        let open = if self.lits.len() == 1 {
            found[0] as usize
        } else {
            found[0] as usize + found[1] as usize
        };
        if open <= 1 {
            let last = (0..2).find(|&w| found[w]).map(|w| self.lits[self.watch[w]]);
            return self.at_most_one_open(ctx, last);
        }
        Ok(())
    }
}

impl Propagator for Conjunction {
    fn name(&self) -> &'static str {
        "conjunction"
    }

    /// The literals first (local index = position in `lits`), then `r`.
    fn subscriptions(&self) -> Vec<Subscription> {
        self.lits
            .iter()
            .chain(std::iter::once(&self.r))
            .map(|&(x, _)| Subscription::new(x, Condition::Fixed))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// The reference: the four rules read off the current domains.
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        self.restrict_to_booleans(ctx)?;
        if is_true(ctx, self.r) {
            return self.all_true(ctx);
        }
        if self.lits.iter().any(|&lit| is_false(ctx, lit)) {
            Self::make(ctx, self.r, false)?;
            ctx.set_entailed();
            return Ok(());
        }
        let mut open = self.lits.iter().filter(|&&lit| !is_true(ctx, lit));
        match (open.next(), open.next()) {
            (None, _) => self.at_most_one_open(ctx, None),
            (Some(&last), None) => self.at_most_one_open(ctx, Some(last)),
            _ => Ok(()),
        }
    }

    /// The engine's first run: the rules from scratch, then the watches on the first two
    /// literals not known true.
    fn reset_and_propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        self.fixed.clear();
        self.propagate_from_scratch(ctx)?;
        self.watch = [0, if self.lits.len() > 1 { 1 } else { 0 }];
        if !ctx.is_entailed() && !self.lits.is_empty() {
            self.rewatch(ctx, 0);
            self.rewatch(ctx, 1);
        }
        Ok(())
    }

    fn notify(&mut self, local: usize, _event: Event) -> EnqueueDecision {
        if local < self.lits.len() {
            self.fixed.push(local as u32);
        }
        EnqueueDecision::Enqueue
    }

    fn clear_pending(&mut self) {
        self.fixed.clear();
    }

    /// By the clauses `¬r ∨ ℓᵢ` and `r ∨ ¬ℓ₁ ∨ … ∨ ¬ℓₖ`, as unit propagation would, read
    /// off the rules without writing the clauses out (`explain_by_rules`).
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        self.explain_by_rules(inputs, atom, reason)
    }
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        let vars: Vec<VarId> = self.subscriptions().iter().map(|s| s.var).collect();
        explain_failure_by_clauses(&self.clauses(), &vars, inputs, reason)
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let some_false = self
            .fixed
            .iter()
            .any(|&p| is_false(ctx, self.lits[p as usize]));
        self.fixed.clear();
        if is_true(ctx, self.r) {
            return self.all_true(ctx);
        }
        if some_false {
            Self::make(ctx, self.r, false)?;
            ctx.set_entailed();
            return Ok(());
        }
        self.settle(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagators::reasons::explain_by_clauses;
    use crate::rng::Rng;

    /// The rules' reasons are exactly unit propagation's on the clauses (the reference),
    /// for every atom of every variable, on random 0/1 inputs and signs.
    #[test]
    fn the_rules_explain_as_unit_propagation_on_the_clauses() {
        let mut rng = Rng::new(11);
        let universe = [vec![0, 1], vec![0], vec![1]];
        for _ in 0..2_000 {
            let k = rng.below(4) as usize + 1;
            let lits: Vec<Literal> = (0..k)
                .map(|j| (VarId(j as u32), rng.below(2) == 1))
                .collect();
            let r = (VarId(k as u32), rng.below(2) == 1);
            let c = Conjunction::new(&lits, r);
            let inputs: Vec<Domain> = (0..=k)
                .map(|_| Domain::from_values(&universe[rng.below(3) as usize]))
                .collect();
            let vars: Vec<VarId> = c.subscriptions().iter().map(|s| s.var).collect();
            for x in 0..=k {
                for atom in crate::atom::every_atom(VarId(x as u32), -1..3) {
                    let (mut fast, mut reference) = (Vec::new(), Vec::new());
                    let got = c.explain_by_rules(&inputs, atom, &mut fast);
                    let want =
                        explain_by_clauses(&c.clauses(), &vars, &inputs, atom, &mut reference);
                    assert_eq!(got, want, "{atom:?} of {lits:?} <=> {r:?} on {inputs:?}");
                    if want {
                        assert_eq!(
                            fast, reference,
                            "{atom:?} of {lits:?} <=> {r:?} on {inputs:?}"
                        );
                    }
                }
            }
        }
    }
}
