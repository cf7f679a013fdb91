//! # Forward checking (naked singles), the fast way, written once
//!
//! The rule is the textbook's (`../reference.rs`, `forward_check`): when a variable is
//! fixed, the value it shows leaves every other variable of the constraint. The fast lane's
//! store-level propagators (`value.rs`, `offset_family.rs`) apply it with two ideas, kept
//! here so that each is written once:
//!
//! * **the open positions as a reversible sparse set** ([`OpenPositions`]). Once a fixed
//!   variable's value has left the others it never needs looking at again below this node:
//!   the positions still *open* are kept at the front of an array, `slots[..count]`, where
//!   `count` is a reversible integer. Closing a position swaps it just past the end and
//!   decrements `count`. Backtracking restores `count` only: the swaps made below a node all
//!   happen inside that node's `slots[..count]`, so those entries are still exactly its open
//!   positions (in another order) — the same idea as the valid rows of `table.rs`. Deep in
//!   the tree most variables are fixed, so the scans shrink with the depth.
//! * **a scan in two phases** (the second is [`remove_attacked_bits`]). Most of the time the
//!   value being removed is already gone from most of the other variables, and which ones
//!   still hold it is unpredictable, so a loop `if contains { remove }` mispredicts a branch
//!   on most variables. The scan first computes, with no branch, the set of open positions
//!   whose domain word holds an attacked bit (one test per position, `OR`ed into a word),
//!   and only then visits that set to remove the bits: the expensive part (trail, events) is
//!   paid only where something is removed. Domains wider than a word take the plain loop,
//!   [`remove_attacked_values`].
//!
//! What a fixed variable *attacks* is the caller's: one value (`value.rs`), or one per family
//! of offsets (`offset_family.rs`). The domain-level fast lane applies the same rule on its
//! own bitmask copies of the domains instead of the store's: `word_matching.rs` to one unit
//! (every fixed value of the unit at once), `units.rs` to many units sharing variables (one
//! fixed variable at a time, through the transposed view of its `Holders`).

use crate::domain::Event;
use crate::propagator::{Context, PostContext, PropResult};
use crate::store::{RevId, VarId};

/// A block of positions: at most this many, one bit each in a word of the scan.
pub(crate) const BLOCK: usize = 64;

/// A position of the constraint as its open list keeps it: the variable, and its index in the
/// constraint's list (the local index `notify` is given).
pub(crate) trait OpenSlot: Copy {
    fn var(&self) -> VarId;
    fn position(&self) -> u32;
}

/// The positions of a constraint, the open ones first (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct OpenPositions<S> {
    /// The positions, the open ones first: `slots[..count]`. Then padding up to a multiple of
    /// [`BLOCK`] slots (never open, never read), so that a block of [`BLOCK`] slots can be
    /// taken whole ([`OpenPositions::block`]) and indexed by a bit number with no bounds check.
    slots: Vec<S>,
    /// `place[i]`: where position `i` is in `slots`.
    place: Vec<u32>,
    /// How many positions are open (reversible; allocated when posted).
    count: Option<RevId>,
}

impl<S: OpenSlot> OpenPositions<S> {
    /// The positions `slots` (slot `i` at position `i`), all open, padded with `padding`.
    pub(crate) fn new(slots: Vec<S>, padding: S) -> OpenPositions<S> {
        let n = slots.len();
        debug_assert!(slots
            .iter()
            .enumerate()
            .all(|(i, s)| s.position() == i as u32));
        OpenPositions {
            slots: slots
                .into_iter()
                .chain(std::iter::repeat(padding))
                .take(n.next_multiple_of(BLOCK))
                .collect(),
            place: (0..n as u32).collect(),
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

    /// Every position open again (a trailed change, undone on backtrack).
    pub(crate) fn reopen_all(&self, ctx: &mut Context<'_>) {
        ctx.set_rev(self.count_id(), self.len() as i64);
    }

    /// The slots of the `n` positions (not the padding), in their current order.
    pub(crate) fn slots(&self) -> &[S] {
        &self.slots[..self.len()]
    }

    /// The same, to fill in what the slots cache (their order does not matter to the caller).
    pub(crate) fn slots_mut(&mut self) -> &mut [S] {
        let n = self.len();
        &mut self.slots[..n]
    }

    /// The block of [`BLOCK`] slots from `from` (padding included), if the slots reach that far.
    #[inline(always)]
    pub(crate) fn block(&self, from: usize) -> Option<&[S; BLOCK]> {
        self.slots.get(from..)?.first_chunk::<BLOCK>()
    }

    /// Close the next position of `pending` that is still open among `slots[..count]`: swap
    /// it with the last open one, just past the open ones, and return its slot. Positions
    /// already closed (at this node or above) are dropped. `None` when nothing is pending.
    #[inline(always)]
    pub(crate) fn close_next(&mut self, pending: &mut Vec<u32>, count: &mut usize) -> Option<S> {
        while let Some(i) = pending.pop() {
            let at = self.place[i as usize] as usize;
            if at >= *count {
                continue; // already handled at this node or above
            }
            *count -= 1;
            let closed = self.slots[at];
            let last = self.slots[*count];
            self.slots[at] = last;
            self.slots[*count] = closed;
            self.place[last.position() as usize] = at as u32;
            self.place[i as usize] = *count as u32;
            return Some(closed);
        }
        None
    }
}

/// Forward checking's second phase on one block of open positions whose domains are one
/// word each (the store's `as_word` layout): each position `b` of `losers` (bit `b` for
/// `block[b]`) loses the bits `attacked[b]` of its domain word, of which it holds one or
/// more. The positions this fixes are pushed on `fixed`.
///
/// The first phase is the caller's, because what a fixed variable attacks is: it fills
/// `attacked` and sets bit `b` of `losers` when `block[b]`'s word holds an attacked bit,
/// with no branch (`value.rs` and `offset_family.rs` each write that loop in their own
/// terms, one value or one per family; passed in as a closure, the compiler no longer
/// turned `offset_family.rs`'s loop over the families into vector operations).
///
/// On a conflict the caller need not save its open count: the swaps it made stayed inside
/// this node's open positions, so the count on the trail is still right.
#[inline(always)]
pub(crate) fn remove_attacked_bits<S: OpenSlot>(
    ctx: &mut Context<'_>,
    block: &[S; BLOCK],
    mut losers: u64,
    attacked: &[u64; BLOCK],
    fixed: &mut Vec<u32>,
) -> PropResult {
    while losers != 0 {
        // A bit number below 64: the block's slot and `attacked` need no bounds check.
        let b = losers.trailing_zeros() as usize % BLOCK;
        losers &= losers - 1;
        let slot = &block[b];
        if ctx.remove_present_bits(slot.var(), attacked[b])? == Event::Fixed {
            fixed.push(slot.position());
        }
    }
    Ok(())
}

/// Forward checking for domains of any width: each position of `open` loses the values
/// `attacked(slot)` that it holds (a value outside the `i32` range is in no domain). The
/// positions left fixed are pushed on `fixed`.
pub(crate) fn remove_attacked_values<S: OpenSlot, Values: IntoIterator<Item = i64>>(
    ctx: &mut Context<'_>,
    open: &[S],
    attacked: impl Fn(&S) -> Values,
    fixed: &mut Vec<u32>,
) -> PropResult {
    for slot in open {
        for value in attacked(slot) {
            if ctx.domain(slot.var()).contains_wide(value) {
                ctx.remove(slot.var(), value as i32)?;
            }
        }
        if ctx.is_fixed(slot.var()) {
            fixed.push(slot.position());
        }
    }
    Ok(())
}
