//! # Forward checking (naked singles), the fast way, written once
//!
//! The rule is the textbook's (`../reference.rs`, `forward_check`): when a variable is
//! fixed, the value it shows leaves every other variable of the constraint, and a variable
//! this fixes is handled in turn. [`forward_check`] is that rule, once, for every lane of the
//! fast folder; each lane says only how it reads and prunes its domains ([`ForwardChecking`]):
//!
//! | lane | its domains | the holders of an attacked value, a word of positions at a time |
//! |---|---|---|
//! | `value.rs`, `offset_family.rs` | the store's ([`StoreLane`]) | a branch-free scan of the open positions |
//! | `units.rs` | its own bitmasks, many units | the value's set in its transposed view, `AND` the fixed variable's peers |
//! | `word_matching.rs` | its own bitmasks, one unit | a scan of the masks not yet handed over |
//!
//! What makes it fast, in all of them: the holders are found without a branch per position,
//! and only they are visited. Most of the time the value being removed is already gone from
//! most of the other variables, and which ones still hold it is unpredictable, so a loop
//! `if contains { remove }` mispredicts a branch on most of them. Finding the holders first
//! (one test per position, `OR`ed into a word, or one `AND` of sets) and then visiting that
//! set pays the expensive part (trail, events) only where something is removed.
//!
//! The store-level lanes add **the open positions as a reversible sparse set**
//! ([`OpenPositions`]). Once a fixed variable's value has left the others it never needs
//! looking at again below this node: the positions still *open* are kept at the front of an
//! array, `slots[..count]`, where `count` is a reversible integer. Closing a position swaps it
//! just past the end and decrements `count`. Backtracking restores `count` only: the swaps
//! made below a node all happen inside that node's `slots[..count]`, so those entries are
//! still exactly its open positions (in another order) — the same idea as the valid rows of
//! `table.rs`. Deep in the tree most variables are fixed, so the scans shrink with the depth.
//! What a fixed variable *attacks* there is the lane's: one value (`value.rs`), or one per
//! family of shifted views (`offset_family.rs`), as bits of a domain word ([`AttackedBits`], at most
//! [`BLOCK`] positions) or as values of domains of any width ([`AttackedValues`]).

use crate::domain::Event;
use crate::propagator::{Conflict, Context, PostContext, PropResult};
use crate::store::{RevId, VarId};

/// A block of positions: at most this many, one bit each in a word of the scan.
pub(crate) const BLOCK: usize = 64;

/// A position of the constraint as its open list keeps it: the variable, and its index in the
/// constraint's list (the local index `notify` is given).
pub(crate) trait OpenSlot: Copy {
    fn var(&self) -> VarId;
    fn position(&self) -> u32;
}

/// The positions of a store-level lane's constraint, the open ones first (see the module
/// documentation), and those fixed whose value is still to leave the others.
#[derive(Clone, Debug)]
pub(crate) struct OpenPositions<S> {
    /// The positions, the open ones first: `slots[..count]`. Then padding up to a multiple of
    /// [`BLOCK`] slots (never open, never read), so that the first [`BLOCK`] slots can be
    /// taken whole ([`OpenPositions::first_block`]) and indexed by a bit number with no bounds
    /// check.
    slots: Vec<S>,
    /// `place[i]`: where position `i` is in `slots`.
    place: Vec<u32>,
    /// Positions fixed whose value has not yet left the others: the local indices `notify`
    /// was given since the last run, and those fixed since.
    pub(crate) pending: Vec<u32>,
    /// Scratch of the one-word scan: the bits each open position loses (see [`Words`]).
    attacked: [u64; BLOCK],
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
            pending: Vec::new(),
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

    /// Every position open again (a trailed change, undone on backtrack).
    pub(crate) fn reopen_all(&self, ctx: &mut Context<'_>) {
        ctx.set_rev(self.count_id(), self.len() as i64);
    }

    /// The slot at place `at` of the current order.
    #[inline(always)]
    pub(crate) fn slot(&self, at: usize) -> S {
        self.slots[at]
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

    /// The first [`BLOCK`] slots (padding included): all of them, in a lane of at most
    /// [`BLOCK`] positions.
    #[inline(always)]
    pub(crate) fn first_block(&self) -> &[S; BLOCK] {
        self.slots
            .first_chunk::<BLOCK>()
            .expect("slots padded to whole blocks")
    }

    /// Close the next position of `pending` that is still open among `slots[..count]`: swap
    /// it with the last open one, just past the open ones, and return its slot. Positions
    /// already closed (at this node or above) are dropped. `None` when nothing is pending.
    #[inline(always)]
    fn close_next(&mut self, count: &mut usize) -> Option<S> {
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
            self.place[last.position() as usize] = at as u32;
            self.place[i as usize] = *count as u32;
            return Some(closed);
        }
        None
    }
}

/// A fast lane's domains as forward checking sees them. The positions of the constraint come
/// in words of 64 (bit `b` of word `w` is position `64 w + b`, in the lane's own numbering),
/// and the lane says how it finds, a word at a time, the positions that hold a value a fixed
/// position attacks, and how one of them loses it. [`forward_check`] applies the rule.
pub(crate) trait ForwardChecking {
    /// What a fixed position attacks, in the form the lane finds the holders with.
    type Attack: Copy;

    /// The next fixed position whose value has not yet left the others, as what it attacks;
    /// `None` when every fixed position has been handled. (A lane may hand several over
    /// together, as the set of their values: `word_matching.rs`.)
    fn next_fixed(&mut self) -> Option<Self::Attack>;

    /// How many words of positions may hold a value `attack` attacks.
    fn words(&self, attack: Self::Attack) -> usize;

    /// Word `w` of the positions (other than the fixed one) that hold a value `attack`
    /// attacks.
    fn holders(&mut self, attack: Self::Attack, w: usize) -> u64;

    /// Position `b` of word `w`, one of the holders, loses what `attack` attacks: a conflict
    /// if no value is left; if one is, the position is fixed, and `next_fixed` must hand it
    /// over later.
    fn lose(&mut self, attack: Self::Attack, w: usize, b: usize) -> PropResult;

    /// The positions `lost` of word `w` have lost what `attack` attacks: all its holders, or
    /// on a conflict those before the one left empty. For a lane that keeps the holders of
    /// each value as sets of positions (`units.rs`); the others need do nothing.
    fn lost(&mut self, _attack: Self::Attack, _w: usize, _lost: u64) {}
}

/// Forward checking, the rule of `../reference.rs` written once for every fast lane: each
/// fixed position's value leaves the positions that hold it, and a position this fixes is
/// handled in turn. A position left with no value is a conflict.
///
/// The holders come a word of positions at a time and only they are visited, so the lane's
/// cost is paid where something is removed (see the module documentation).
#[inline(always)]
pub(crate) fn forward_check<L: ForwardChecking>(lane: &mut L) -> PropResult {
    while let Some(attack) = lane.next_fixed() {
        for w in 0..lane.words(attack) {
            let holding = lane.holders(attack, w);
            let mut rest = holding;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                if let Err(conflict) = lane.lose(attack, w, b) {
                    lane.lost(attack, w, holding & !rest);
                    return Err(conflict);
                }
                rest &= rest - 1;
            }
            lane.lost(attack, w, holding);
        }
    }
    Ok(())
}

/// What a fixed variable attacks, for a store-level lane whose domains are one word each (the
/// store's `as_word` layout): the first phase of the scan.
pub(crate) trait AttackedBits<S> {
    /// For each open position `open[b]` of a block, the bits of its domain word that the
    /// fixed variable of `closed` attacks, in `attacked[b]`; returns the set of the positions
    /// whose word holds one of them (bit `b` for `open[b]`). With no branch per position.
    ///
    /// The lane writes the whole loop rather than the bits of one position: the compiler then
    /// keeps what the fixed variable shows in registers, and takes several families at once in
    /// vector operations (`offset_family.rs`), which it did not through a method per position.
    fn scan(&self, ctx: &Context<'_>, closed: &S, open: &[S], attacked: &mut [u64; BLOCK]) -> u64;
}

/// What a fixed variable attacks, for a store-level lane whose domains may be of any width.
pub(crate) trait AttackedValues<S> {
    /// What the fixed variable shows, computed once for the scan of the others.
    type Shown: Copy;
    /// What the variable of `closed`, fixed, shows.
    fn shown(&self, ctx: &Context<'_>, closed: &S) -> Self::Shown;
    /// The values of `slot`'s variable that `shown` attacks (a value outside the `i32` range
    /// is in no domain).
    fn values(&self, shown: &Self::Shown, slot: &S) -> impl Iterator<Item = i64>;
}

/// The one-word layout of a store-level lane, for at most [`BLOCK`] positions (one block, one
/// bit each in the word of holders), with its rule.
pub(crate) struct Words<R>(pub(crate) R);

/// The layout for domains of any width: the rule alone.
pub(crate) struct Wide<R>(pub(crate) R);

/// Forward checking on the store's domains (`value.rs`, `offset_family.rs`): the fixed
/// positions come from `open.pending`, the open ones are `open`'s first `count`, and a
/// position leaves the open ones when its value is handed over. The layout (`Words` or
/// `Wide`) says how the holders are found. Run by [`OpenPositions::forward_check`].
pub(crate) struct StoreLane<'a, 'c, S, Layout> {
    ctx: &'a mut Context<'c>,
    open: &'a mut OpenPositions<S>,
    /// The number of open positions.
    count: usize,
    layout: Layout,
}

impl<S: OpenSlot> OpenPositions<S> {
    /// Forward checking on the store's domains ([`forward_check`], the holders found as
    /// `layout` says) from the first `count` positions open; returns how many are open after
    /// it, for [`OpenPositions::save_count`].
    ///
    /// On a conflict the caller need not save the count: the swaps made stayed inside this
    /// node's open positions, so the count on the trail is still right.
    #[inline(always)]
    pub(crate) fn forward_check<Layout>(
        &mut self,
        ctx: &mut Context<'_>,
        count: usize,
        layout: Layout,
    ) -> Result<usize, Conflict>
    where
        for<'a, 'c> StoreLane<'a, 'c, S, Layout>: ForwardChecking,
    {
        let mut lane = StoreLane {
            ctx,
            open: self,
            count,
            layout,
        };
        forward_check(&mut lane)?;
        Ok(lane.count)
    }
}

impl<S: OpenSlot, Layout> StoreLane<'_, '_, S, Layout> {
    /// The next pending position still open, closed.
    #[inline(always)]
    fn close_next(&mut self) -> Option<S> {
        self.open.close_next(&mut self.count)
    }
}

/// The one-word layout finds the holders in two phases, as the module documentation says:
/// `holders` computes, with no branch, which open positions hold an attacked bit (and what
/// each loses), and `lose` removes the bits of one with a single word operation.
impl<S: OpenSlot, R: AttackedBits<S>> ForwardChecking for StoreLane<'_, '_, S, Words<R>> {
    /// The fixed position's slot.
    type Attack = S;

    #[inline(always)]
    fn next_fixed(&mut self) -> Option<S> {
        self.close_next()
    }

    /// One: this layout takes at most [`BLOCK`] positions (see [`Words`]).
    #[inline(always)]
    fn words(&self, _closed: S) -> usize {
        1
    }

    #[inline(always)]
    fn holders(&mut self, closed: S, _w: usize) -> u64 {
        let OpenPositions {
            slots, attacked, ..
        } = &mut *self.open;
        let open = &slots[..self.count.min(BLOCK)];
        self.layout.0.scan(self.ctx, &closed, open, attacked)
    }

    #[inline(always)]
    fn lose(&mut self, _closed: S, _w: usize, b: usize) -> PropResult {
        // `b` is a bit number: below 64, so neither the block nor `attacked` needs a bounds
        // check.
        let b = b % BLOCK;
        let block = self.open.first_block();
        if self
            .ctx
            .remove_present_bits(block[b].var(), self.open.attacked[b])?
            == Event::Fixed
        {
            self.open.pending.push(block[b].position());
        }
        Ok(())
    }
}

/// Domains of any width: the holders are found value by value, and lose them one by one.
impl<S: OpenSlot, R: AttackedValues<S>> ForwardChecking for StoreLane<'_, '_, S, Wide<R>> {
    type Attack = R::Shown;

    fn next_fixed(&mut self) -> Option<R::Shown> {
        let closed = self.close_next()?;
        Some(self.layout.0.shown(self.ctx, &closed))
    }

    fn words(&self, _shown: R::Shown) -> usize {
        self.count.div_ceil(BLOCK)
    }

    fn holders(&mut self, shown: R::Shown, w: usize) -> u64 {
        let from = w * BLOCK;
        let open_in_block = &self.open.slots[from..self.count.min(from + BLOCK)];
        let mut holders = 0u64;
        for (b, slot) in open_in_block.iter().enumerate() {
            let domain = self.ctx.domain(slot.var());
            let holds = self
                .layout
                .0
                .values(&shown, slot)
                .any(|v| domain.contains_wide(v));
            holders |= (holds as u64) << b;
        }
        holders
    }

    fn lose(&mut self, shown: R::Shown, w: usize, b: usize) -> PropResult {
        let slot = self.open.slot(w * BLOCK + b);
        for value in self.layout.0.values(&shown, &slot) {
            // `remove` does nothing to a value the domain does not hold.
            if let Ok(value) = i32::try_from(value) {
                self.ctx.remove(slot.var(), value)?;
            }
        }
        if self.ctx.is_fixed(slot.var()) {
            self.open.pending.push(slot.position());
        }
        Ok(())
    }
}
