//! # Lexicographic ordering: `x ≤lex y` and `x <lex y`
//!
//! `x` comes before `y` in dictionary order: at the first position where they differ, `x`'s
//! value is smaller; if one is a prefix of the other, the shorter comes first; equal vectors
//! satisfy `≤lex` but not `<lex`. The classic symmetry-breaking constraint between
//! interchangeable rows of a matrix model (not used by Takuzu, whose rows are not
//! interchangeable: see `vectors.rs`).
//!
//! **Consistency: domain** (Frisch, Hnich, Kiziltan, Miguel and Walsh, "Global constraints for
//! lexicographic orderings", CP 2002, reach it in linear time with two pointers α and β; this
//! file reaches the same fixpoint with the equivalent automaton view). Reading the pairs
//! `(xᵢ, yᵢ)` left to right, the comparison is in one of two states: *equal so far* (E) or
//! *already less* (L, after which anything goes). `E` is reachable before position i when every
//! earlier position can be equal (`dom xⱼ ∩ dom yⱼ ≠ ∅`); `L` when some earlier position in
//! reach of E can be strictly less (`min xⱼ < max yⱼ`). From E at position i the constraint can
//! still be satisfied (`accept[i]`) if `min xᵢ < max yᵢ`, or the pair can be equal and
//! `accept[i+1]`; at the end of the shorter vector, E accepts by the lengths. A value `a` of
//! `xᵢ` is supported when L is reachable at i, or E is and `a < max yᵢ` or (`a ∈ dom yᵢ` and
//! `accept[i+1]`); symmetrically for `yᵢ`. Every such support extends to a solution, so the
//! pruning is exactly domain consistency.
//!
//! **Events.** Any removal (membership in the other domain matters). **Cost** O(n · d) per run
//! for domains of size d at worst, from scratch; `accept` is read forward and lazily (the
//! `Acceptance` scan below), so a run stops near the first position where the vectors can
//! differ instead of reading both vectors whole.
//!
//! **Explanations** (learning), position by position: the walk prunes position `i` only
//! when every earlier position is forced to `xⱼ ≥ yⱼ` (`[xⱼ ≥ a]`, `[yⱼ ≤ a]` for one `a`),
//! so that the vectors must be equal up to `i`; then `xᵢ ≤ yᵢ` and the bound on `yᵢ` is the
//! reason of `xᵢ`'s new bound (`yᵢ`'s likewise). It is `xᵢ < yᵢ` when the rest cannot
//! accept from "equal so far": the later positions forced to `≥` up to one forced to `>`
//! (`[x ≥ b + 1]`, `[y ≤ b]`), or to the end when the lengths reject. A failure is such a
//! rejecting run from the first position.
//!
//! **A variable standing twice.** Symmetry breaking compares a matrix with its own rotation:
//! `y` is a permutation of `x`, every variable stands on both sides. The reasons above stay
//! sound, because they are read from the inputs, not from the walk: "every earlier position
//! forced to `≥`" implies, with the constraint, "equal up to `i`" whichever variables the
//! positions share. Only two things change. A position whose two sides are *one* variable
//! is equal by itself: it needs no atom, can never be the position forced to `>`, and
//! prunes nothing. And the atom asked for may stand at several positions (as `xᵢ` and as
//! `yₖ`): each is tried until one explains it. Where the walk pruned through its own
//! earlier prunings (the inputs do not force the prefix), the explanation says so and the
//! learner takes the generic reason. (Before, any repeated variable meant the generic
//! reason: every input, on a rotated 11×11 board ten times the prefix.)

use crate::atom::Atom;
use crate::domain::Domain;
use crate::propagator::Subscription;
use crate::propagator::{Condition, Conflict, Context, Priority, PropResult, Propagator};
use crate::propagators::reasons::split_atom;
use crate::store::VarId;

/// `xs ≤lex ys` (`strict`: `xs <lex ys`).
#[derive(Clone, Debug)]
pub struct Lex {
    xs: Vec<VarId>,
    ys: Vec<VarId>,
    strict: bool,
}

impl Lex {
    pub fn new(xs: &[VarId], ys: &[VarId], strict: bool) -> Lex {
        Lex {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            strict,
        }
    }
}

impl Propagator for Lex {
    fn name(&self) -> &'static str {
        if self.strict {
            "lex_less"
        } else {
            "lex_lesseq"
        }
    }

    fn subscriptions(&self) -> Vec<Subscription> {
        self.xs
            .iter()
            .chain(&self.ys)
            .map(|&v| Subscription::new(v, Condition::Domain))
            .collect()
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let m = self.xs.len().min(self.ys.len());
        let mut accept = Acceptance::new(self, m);
        if !accept.from(ctx, 0) {
            return Err(Conflict::new());
        }
        // Walk forward while "already less" is out of reach; once it is reachable, every
        // later value is supported.
        for i in 0..m {
            let (x, y) = (self.xs[i], self.ys[i]);
            let (ymax, xmin) = (ctx.max(y), ctx.min(x));
            // From E at i (E is reachable here, L is not: see the loop's exits). A value a of
            // x is supported when a < max y, or a is in dom y and accept[i+1]; the only value
            // of dom y not below max y is max y itself, so the rule is a bound: x ≤ max y
            // when accept[i+1], x < max y otherwise. Symmetrically y ≥ min x or y > min x.
            let next = accept.from(ctx, i + 1);
            if next {
                ctx.set_max(x, ymax)?;
                ctx.set_min(y, xmin)?;
            } else {
                ctx.set_max(x, ymax.checked_sub(1).ok_or_else(Conflict::new)?)?;
                ctx.set_min(y, xmin.checked_add(1).ok_or_else(Conflict::new)?)?;
            }
            if ctx.min(x) < ctx.max(y) {
                break; // L becomes reachable at i + 1: nothing later is pruned
            }
            // Here x and y can only be equal at i (or the constraint fails): E continues.
            if !self.can_equal(ctx, i) {
                return Err(Conflict::new());
            }
        }
        Ok(())
    }

    /// The forced-equal prefix and the bound of the other side (see the module docs), at
    /// the first position where `atom`'s variable stands that explains it.
    fn explain(&self, inputs: &[Domain], atom: Atom, reason: &mut Vec<Atom>) -> bool {
        let m = self.xs.len().min(self.ys.len());
        let start = reason.len();
        for i in 0..m {
            let (on_x, on_y) = (self.xs[i] == atom.var(), self.ys[i] == atom.var());
            if on_x == on_y {
                continue; // not here, or both sides: xᵢ ≤ yᵢ says nothing about one variable
            }
            if self.explain_at(inputs, i, on_x, atom, reason) {
                return true;
            }
            reason.truncate(start);
        }
        false
    }

    /// A run of positions from the first that cannot accept (see the module docs).
    fn explain_failure(&self, inputs: &[Domain], reason: &mut Vec<Atom>) -> bool {
        self.push_rejecting(inputs, 0, reason)
    }
}

impl Lex {
    /// `atom` on `xᵢ` (`on_x`) or `yᵢ`: the prefix before `i` forced to `≥`, the rest
    /// rejecting from `i + 1` if that is what made the pruning strict, and the other side's
    /// bound. `false` if the inputs do not show it.
    fn explain_at(
        &self,
        inputs: &[Domain],
        i: usize,
        on_x: bool,
        atom: Atom,
        reason: &mut Vec<Atom>,
    ) -> bool {
        let n = self.xs.len();
        let own = if on_x { &inputs[i] } else { &inputs[n + i] };
        let Some(needed) = split_atom(atom, own, reason) else {
            return false;
        };
        if needed.is_empty() {
            return true;
        }
        if !(0..i).all(|j| self.push_at_least(inputs, j, 0, reason)) {
            return false;
        }
        let mark = reason.len();
        let strict = self.push_rejecting(inputs, i + 1, reason);
        if !strict {
            reason.truncate(mark);
        }
        let gap = strict as i64; // xᵢ ≤ yᵢ − gap
        let (x_in, y_in) = (&inputs[i], &inputs[n + i]);
        let bound = if on_x {
            // Every needed value v of xᵢ is out: yᵢ ≤ v − 1 + gap, the least v deciding.
            let v = *needed.iter().min().unwrap() as i64 - 1 + gap;
            (v >= y_in.max() as i64).then(|| Atom::AtMost(self.ys[i], v as i32))
        } else {
            let v = *needed.iter().max().unwrap() as i64 + 1 - gap;
            (v <= x_in.min() as i64).then(|| Atom::AtLeast(self.xs[i], v as i32))
        };
        match bound {
            Some(b) => {
                reason.push(b);
                true
            }
            None => false,
        }
    }

    /// If position `j` is forced to `xⱼ ≥ yⱼ + gap` in the inputs, push `[xⱼ ≥ a + gap]`
    /// and `[yⱼ ≤ a]` with `a = max yⱼ`. A position whose two sides are one variable is
    /// forced to `=` by itself (no atom), and never to `>`.
    fn push_at_least(&self, inputs: &[Domain], j: usize, gap: i32, reason: &mut Vec<Atom>) -> bool {
        if self.xs[j] == self.ys[j] {
            return gap == 0;
        }
        let n = self.xs.len();
        let (xmin, ymax) = (inputs[j].min() as i64, inputs[n + j].max() as i64);
        if xmin < ymax + gap as i64 {
            return false;
        }
        reason.push(Atom::AtLeast(self.xs[j], (ymax + gap as i64) as i32));
        reason.push(Atom::AtMost(self.ys[j], ymax as i32));
        true
    }

    /// From "equal so far" before position `start`, the rest cannot accept: positions forced
    /// to `≥` up to one forced to `>`, or to the end with lengths that reject. Pushes them.
    fn push_rejecting(&self, inputs: &[Domain], start: usize, reason: &mut Vec<Atom>) -> bool {
        let m = self.xs.len().min(self.ys.len());
        for j in start..m {
            if self.push_at_least(inputs, j, 1, reason) {
                return true;
            }
            if !self.push_at_least(inputs, j, 0, reason) {
                return false;
            }
        }
        if self.strict {
            self.xs.len() >= self.ys.len()
        } else {
            self.xs.len() > self.ys.len()
        }
    }

    /// Position i can be strictly less: some x value below some y value.
    fn can_less(&self, ctx: &Context<'_>, i: usize) -> bool {
        ctx.min(self.xs[i]) < ctx.max(self.ys[i])
    }

    /// Position i can be equal: the two domains share a value.
    fn can_equal(&self, ctx: &Context<'_>, i: usize) -> bool {
        let (x, y) = (self.xs[i], self.ys[i]);
        if ctx.max(x) < ctx.min(y) || ctx.max(y) < ctx.min(x) {
            return false;
        }
        if ctx.is_fixed(x) {
            return ctx.contains(y, ctx.value(x));
        }
        ctx.domain(x).iter().any(|v| ctx.contains(y, v))
    }
}

/// `accept[i]`, read forward and lazily. From E before position i the constraint can be
/// satisfied when, scanning on from i, a position that can be less comes before one that
/// cannot be equal (or the end is reached and the lengths accept): the recurrence
/// `accept[i] = can_less(i) || (can_equal(i) && accept[i+1])` unrolled. The scan stops at
/// the position that decides it, and that answer holds for every start up to there, so one
/// call scans each position at most once however far the walk goes; the walk prunes only
/// positions before the ones the answer rests on. This is the β pointer of Frisch et al.
struct Acceptance<'a> {
    lex: &'a Lex,
    m: usize,
    /// The last scan stopped at `decided_at` with `answer`; valid for starts ≤ decided_at.
    decided_at: usize,
    answer: bool,
    scanned: bool,
}

impl<'a> Acceptance<'a> {
    fn new(lex: &'a Lex, m: usize) -> Self {
        Acceptance {
            lex,
            m,
            decided_at: 0,
            answer: false,
            scanned: false,
        }
    }

    fn from(&mut self, ctx: &Context<'_>, start: usize) -> bool {
        if self.scanned && start <= self.decided_at {
            return self.answer;
        }
        let lex = self.lex;
        let mut k = start;
        self.answer = loop {
            if k == self.m {
                break if lex.strict {
                    lex.xs.len() < lex.ys.len()
                } else {
                    lex.xs.len() <= lex.ys.len()
                };
            }
            if lex.can_less(ctx, k) {
                break true;
            }
            if !lex.can_equal(ctx, k) {
                break false;
            }
            k += 1;
        };
        self.decided_at = k;
        self.scanned = true;
        self.answer
    }
}
