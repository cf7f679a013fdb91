//! # Forward checking (naked singles) on the store's domains, the fast way
//!
//! The rule is the textbook's (`../reference.rs`, `forward_check`): when a variable is
//! fixed, the value it shows leaves every other variable of the constraint, and a variable
//! this fixes is handled in turn. [`OpenPositions::forward_check`] is that rule for the two
//! store-level lanes, `value.rs` (one all-different over views `xᵢ + cᵢ`) and
//! `offset_family.rs` (`K` all-differents over the same variables, views `xᵢ + cₖᵢ`: the
//! first is the second with one family). The lanes with domains of their own (`units.rs`,
//! `word_matching.rs`) write the same rule as a short loop over their bitmasks.
//!
//! What makes it fast: the holders of an attacked value are found without a branch per
//! position, and only they are visited. Most of the time the value being removed is already
//! gone from most of the other variables, and which ones still hold it is unpredictable, so a
//! loop `if contains { remove }` mispredicts a branch on most of them. Finding the holders
//! first (one test per position, `OR`ed into a word) and then visiting that set pays the
//! expensive part (trail, events) only where something is removed.
//!
//! **The open positions as a reversible sparse set.** Once a fixed variable's value has left
//! the others it never needs looking at again below this node: the positions still *open*
//! are kept at the front of an array, `slots[..count]`, where `count` is a reversible
//! integer. Closing a position swaps it just past the end and decrements `count`.
//! Backtracking restores `count` only: the swaps made below a node all happen inside that
//! node's `slots[..count]`, so those entries are still exactly its open positions (in
//! another order) — the same idea as the valid rows of `table.rs`. Deep in the tree most
//! variables are fixed, so the scans shrink with the depth.
//!
//! **Two layouts.** When every domain is one machine word and there are at most [`BLOCK`]
//! positions, the value family `k` attacks at position `j` is a bit of `xⱼ`'s word, found
//! by a subtraction, a comparison and a shift from `bit0[k]`, the shown value that bit 0
//! stands for, computed once per from-scratch run (a domain's layout never changes); the
//! families are a fixed-length array, so the compiler unrolls them into vector operations.
//! Otherwise each attacked value is tested with `Domain::contains_wide`.

use crate::domain::Event;
use crate::propagator::{Conflict, Context, PostContext};
use crate::store::{RevId, VarId};

/// A block of positions: at most this many, one bit each in a word of the scan.
pub(crate) const BLOCK: usize = 64;

/// One position of the constraint, as the open list keeps it, for a lane whose word layout
/// takes `K` families.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot<const K: usize> {
    pub(crate) var: VarId,
    /// Its index in the constraint's list (the local index `notify` is given).
    pub(crate) position: u32,
    /// `bit0[k]`: the value `xⱼ + cₖⱼ` shows when `xⱼ` takes the value of bit 0 of its domain
    /// word. Past the last family, a copy of family 0: it attacks the same value again,
    /// which changes nothing, and the loop over the families keeps its fixed length. Valid
    /// when the word layout is taken ([`OpenPositions::reset`]).
    pub(crate) bit0: [i64; K],
}

/// The positions of a store-level lane's constraint, the open ones first (see the module
/// documentation), the fixed ones whose value is still to leave the others, and the
/// constants of the views.
#[derive(Clone, Debug)]
pub(crate) struct OpenPositions<const K: usize> {
    /// The positions, the open ones first: `slots[..count]`. Then padding up to a multiple of
    /// [`BLOCK`] slots (never open, never read), so that the first [`BLOCK`] slots can be
    /// taken whole and indexed by a bit number with no bounds check.
    slots: Vec<Slot<K>>,
    /// `place[i]`: where position `i` is in `slots`.
    place: Vec<u32>,
    /// Positions fixed whose value has not yet left the others: the local indices `notify`
    /// was given since the last run, and those fixed since.
    pub(crate) pending: Vec<u32>,
    /// The number of families.
    families: usize,
    /// `shifts[i * families + k]`: the constant `cₖᵢ` of position `i` in family `k`.
    shifts: Vec<i32>,
    /// Scratch of the word layout: the bits each open position loses.
    attacked: [u64; BLOCK],
    /// How many positions are open (reversible; allocated when posted).
    count: Option<RevId>,
}

impl<const K: usize> OpenPositions<K> {
    /// The positions of `xs`, all open, family `k` showing `xs[i] + shifts[i * families + k]`.
    pub(crate) fn new(xs: &[VarId], families: usize, shifts: Vec<i32>) -> OpenPositions<K> {
        let n = xs.len();
        assert_eq!(shifts.len(), n * families);
        let padding = Slot {
            var: VarId(u32::MAX),
            position: u32::MAX,
            bit0: [0; K],
        };
        let slots = xs.iter().enumerate().map(|(i, &var)| Slot {
            var,
            position: i as u32,
            bit0: [0; K],
        });
        OpenPositions {
            slots: slots
                .chain(std::iter::repeat(padding))
                .take(n.next_multiple_of(BLOCK))
                .collect(),
            place: (0..n as u32).collect(),
            pending: Vec::new(),
            families,
            shifts,
            attacked: [0; BLOCK],
            count: None,
        }
    }

    /// The number of positions.
    pub(crate) fn len(&self) -> usize {
        self.place.len()
    }

    /// Allocate the reversible count (from `Propagator::register`).
    pub(crate) fn register(&mut self, post: &mut PostContext<'_>) {
        self.count = Some(post.new_rev(self.len() as i64));
    }

    fn count_id(&self) -> RevId {
        self.count.expect("allocated when posted")
    }

    /// How many positions are open at this node. Never above the number of slots (the count
    /// only goes down from `n`); saying so lets the compiler see that the swaps of
    /// [`OpenPositions::close_next`] stay inside `slots`, with no bounds check.
    #[inline]
    pub(crate) fn open_count(&self, ctx: &Context<'_>) -> usize {
        (ctx.rev(self.count_id()) as usize).min(self.slots.len())
    }

    /// Record `count` as the number of open positions at this node (trailed).
    #[inline]
    pub(crate) fn save_count(&self, ctx: &mut Context<'_>, count: usize) {
        ctx.set_rev(self.count_id(), count as i64);
    }

    /// The slots of the `n` positions (not the padding), in their current order.
    pub(crate) fn slots(&self) -> &[Slot<K>] {
        &self.slots[..self.len()]
    }

    /// Every position open again (a trailed change, undone on backtrack), every fixed one
    /// pending, and the layout read from the domains: whether the word layout can be taken
    /// (at most [`BLOCK`] positions, at most `K` families, every domain one word), with
    /// the slots' `bit0` filled when it can. For `Propagator::reset_and_propagate`.
    pub(crate) fn reset(&mut self, ctx: &mut Context<'_>) -> bool {
        ctx.set_rev(self.count_id(), self.len() as i64);
        let families = self.families;
        let mut one_word = (1..=K).contains(&families) && self.len() <= BLOCK;
        let n = self.len();
        for slot in &mut self.slots[..n] {
            let i = slot.position as usize;
            match ctx.domain(slot.var).as_word() {
                Some((first, _)) if one_word => {
                    for (k, bit0) in slot.bit0.iter_mut().enumerate() {
                        // Past the last family, family 0 again (see `Slot::bit0`).
                        let family = if k < families { k } else { 0 };
                        *bit0 = first as i64 + self.shifts[i * families + family] as i64;
                    }
                }
                _ => one_word = false,
            }
        }
        self.pending.clear();
        for i in 0..n as u32 {
            if ctx.is_fixed(self.slots[self.place[i as usize] as usize].var) {
                self.pending.push(i);
            }
        }
        one_word
    }

    /// Close the next position of `pending` that is still open among `slots[..count]`: swap
    /// it with the last open one, just past the open ones, and return its slot. Positions
    /// already closed (at this node or above) are dropped. `None` when nothing is pending.
    #[inline(always)]
    fn close_next(&mut self, count: &mut usize) -> Option<Slot<K>> {
        while let Some(i) = self.pending.pop() {
            let at = self.place[i as usize] as usize;
            if at >= *count {
                continue; // already handled at this node or above
            }
            *count -= 1;
            let closed = self.slots[at];
            let last = self.slots[*count];
            self.slots[at] = last;
            self.slots[*count] = closed;
            self.place[last.position as usize] = at as u32;
            self.place[i as usize] = *count as u32;
            return Some(closed);
        }
        None
    }

    /// **Forward checking**, the rule of `../reference.rs`: each pending position's value
    /// leaves, in every family, the open positions that hold it, and a position this fixes
    /// is handled in turn. Starts from the first `count` positions open; returns how many are
    /// open after it, for [`OpenPositions::save_count`]. `one_word` is what
    /// [`OpenPositions::reset`] returned.
    ///
    /// On a conflict the caller need not save the count: the swaps made stayed inside this
    /// node's open positions, so the count on the trail is still right.
    #[inline(always)]
    pub(crate) fn forward_check(
        &mut self,
        ctx: &mut Context<'_>,
        mut count: usize,
        one_word: bool,
    ) -> Result<usize, Conflict> {
        // Two loops rather than a test of `one_word` per fixed variable.
        if one_word {
            while let Some(closed) = self.close_next(&mut count) {
                let open = &self.slots[..count.min(BLOCK)];
                let holders = attacked_bits(ctx, &closed, open, &mut self.attacked);
                self.remove_attacked_bits(ctx, holders)?;
            }
        } else {
            while let Some(closed) = self.close_next(&mut count) {
                self.remove_attacked_values(ctx, &closed, count)?;
            }
        }
        Ok(count)
    }

    /// The word layout's second phase: each of the `holders` loses its attacked bits, with
    /// one word operation; a position this fixes is pending.
    #[inline(always)]
    fn remove_attacked_bits(
        &mut self,
        ctx: &mut Context<'_>,
        mut holders: u64,
    ) -> Result<(), Conflict> {
        let block = self
            .slots
            .first_chunk::<BLOCK>()
            .expect("slots padded to whole blocks");
        while holders != 0 {
            // A bit number: below 64, so neither the block nor `attacked` needs a bounds check.
            let b = holders.trailing_zeros() as usize % BLOCK;
            holders &= holders - 1;
            if ctx.remove_present_bits(block[b].var, self.attacked[b])? == Event::Fixed {
                self.pending.push(block[b].position);
            }
        }
        Ok(())
    }

    /// Domains of any width: the open positions (a block at a time: first the holders, then
    /// the removals) lose the values `v + cₖᵢ − cₖⱼ` that `closed` (position `i`, fixed to
    /// `v`) attacks at position `j`; a value outside the `i32` range is in no domain.
    fn remove_attacked_values(
        &mut self,
        ctx: &mut Context<'_>,
        closed: &Slot<K>,
        count: usize,
    ) -> Result<(), Conflict> {
        let (families, shifts) = (self.families, &self.shifts);
        let v = ctx.value(closed.var) as i64;
        let i = closed.position as usize;
        let attacked = |j: usize| {
            (0..families)
                .map(move |k| v + shifts[i * families + k] as i64 - shifts[j * families + k] as i64)
        };
        for from in (0..count).step_by(BLOCK) {
            let open_in_block = &self.slots[from..count.min(from + BLOCK)];
            let mut holders = 0u64;
            for (b, slot) in open_in_block.iter().enumerate() {
                let domain = ctx.domain(slot.var);
                let holds = attacked(slot.position as usize).any(|w| domain.contains_wide(w));
                holders |= (holds as u64) << b;
            }
            while holders != 0 {
                let slot = self.slots[from + holders.trailing_zeros() as usize];
                holders &= holders - 1;
                for w in attacked(slot.position as usize) {
                    // `remove` does nothing to a value the domain does not hold.
                    if let Ok(w) = i32::try_from(w) {
                        ctx.remove(slot.var, w)?;
                    }
                }
                if ctx.is_fixed(slot.var) {
                    self.pending.push(slot.position);
                }
            }
        }
        Ok(())
    }
}

/// The word layout's first phase, with no branch per position: for each open position
/// `open[b]` (at most [`BLOCK`] of them), the bits of its word that the fixed `closed` attacks, in
/// `attacked[b]`; returns the set of the positions whose word holds one of them. (Apart from
/// `OpenPositions`, so that the compiler knows the slots read and the bits written do not
/// overlap, and takes the families in vector operations.)
#[inline(always)]
fn attacked_bits<const K: usize>(
    ctx: &Context<'_>,
    closed: &Slot<K>,
    open: &[Slot<K>],
    attacked: &mut [u64; BLOCK],
) -> u64 {
    // The value each family shows at the fixed variable: its `bit0` moved up to the bit
    // of its value (past the last family, family 0's again).
    let t = ctx.domain(closed.var).first_word().trailing_zeros() as i64;
    let shown = closed.bit0.map(|b| b + t);
    let domains = ctx.domains();
    let mut holders = 0u64;
    for (b, (slot, attacked_of)) in open.iter().zip(attacked.iter_mut()).enumerate() {
        let mut attacked_bits = 0u64;
        for (shown_k, bit0_k) in shown.iter().zip(&slot.bit0) {
            // A bit number outside 0..64 (negative ones too, as `u64`) is a value the
            // word cannot hold. (Written as a test of the shift itself, so that the
            // compiler can use a vector shift that gives 0 for such amounts.)
            let bit = (shown_k - bit0_k) as u64;
            attacked_bits |= if bit < 64 { 1 << bit } else { 0 };
        }
        // The word read before the bits are stored: in the other order the compiler
        // no longer took the families in vector shifts.
        let word = domains[slot.var.index()].first_word();
        *attacked_of = attacked_bits;
        holders |= ((word & attacked_bits != 0) as u64) << b;
    }
    holders
}
