//! # Store and trail: the state of the search, and how it goes back in time
//!
//! The store holds the domain of every variable plus a few *reversible integers* that
//! propagators may use for their own state. Search walks down a tree of guesses; when a guess
//! fails it must put the store back exactly as it was. There are two classic ways:
//!
//! * **copying** (Gecode): keep a copy of the whole store at each choice point;
//! * **trailing** (MiniCP, most CP and SAT solvers): before changing a piece of state, write
//!   its old value on a stack, the *trail*; to go back, pop the trail and restore.
//!
//! cpsolve **trails** on the sequential path: a node costs only the domains it touches, never
//! a copy of the whole store. The trail saves a variable's domain the first time it changes
//! at a level — "copy on first write" — so a variable that is narrowed ten times at one node
//! is saved once. To know whether a variable was already saved at the current level, each
//! variable remembers the *epoch* (a number given to each level when it is opened, never
//! reused) of its last save.
//!
//! **Cost, and how it is kept low.** The trail is made of flat stacks of plain data that are
//! never shrunk, so after the first few nodes the search allocates nothing:
//! a saved domain is its bounds, size and first word (`SmallState`, 24 bytes, everything a
//! domain of ≤ 64 values has); a wider domain also pushes its other words on a separate stack
//! of `u64`s; reversible integers have their own stack. Restoring is a copy back.
//!
//! The store is also `Clone`, and cheaply so (a vector of small domains): the parallel search
//! hands a clone to each thread, where it is trailed again. See `docs/02-store-and-trail.md`.

use crate::conflict::Conflict;
use crate::domain::{Change, Domain, EmptyDomain, Event, SmallState};
use crate::interrupt::Interrupt;

/// A variable: an index into the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub u32);

impl VarId {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// `watched_from` of a variable no propagator watches: above every event.
const UNWATCHED: u8 = Event::Fixed as u8 + 1;

/// `only_watcher` of a variable that no propagator watches, or that several watch.
const NO_WATCHER: u32 = u32::MAX;
const SEVERAL_WATCHERS: u32 = u32::MAX - 1;
/// `quiet_propagator` when no idempotent propagator is running (matches no `only_watcher`).
const NONE_RUNNING: u32 = u32::MAX - 2;

/// The store's bookkeeping for one variable.
#[derive(Clone, Copy, Debug)]
struct VarMeta {
    /// Epoch of the level at which the variable was last saved on the trail.
    saved_epoch: u64,
    /// Its strongest event since the propagation engine last looked, if any.
    pending_event: Option<Event>,
    /// The weakest event some propagator wakes on (see [`Store::watch`]); `UNWATCHED` when
    /// none does. Weaker events are not recorded at all.
    watched_from: u8,
    /// The propagator watching it, if exactly one does (see [`Store::set_quiet_propagator`]).
    only_watcher: u32,
}

use variables::Variables;

/// The variables' domains and records, in a module of their own so that nothing else
/// touches the pair but through its methods.
mod variables {
    use super::VarMeta;
    use crate::domain::Domain;
    use crate::unchecked::SameLength;

    /// Each variable's domain and its [`VarMeta`]: two vectors (propagators read the domains
    /// as one slice, [`super::Store::domains`]) that always have the same length.
    ///
    /// **Why.** A change to a domain also updates the variable's record (its trail epoch,
    /// its event), and each lookup costs a bounds check, two on every removal, the
    /// commonest operation of a search. [`Variables::both_mut`] checks once, through
    /// [`SameLength`] (`unchecked.rs`), which keeps the two lengths equal.
    #[derive(Clone, Debug, Default)]
    pub(super) struct Variables(SameLength<Domain, VarMeta>);

    impl Variables {
        pub(super) fn push(&mut self, domain: Domain, meta: VarMeta) {
            self.0.push(domain, meta);
        }

        #[inline]
        pub(super) fn len(&self) -> usize {
            self.0.len()
        }

        #[inline]
        pub(super) fn domains(&self) -> &[Domain] {
            self.0.firsts()
        }

        #[inline]
        pub(super) fn domains_mut(&mut self) -> &mut [Domain] {
            self.0.firsts_mut()
        }

        #[inline]
        pub(super) fn meta(&self) -> &[VarMeta] {
            self.0.seconds()
        }

        #[inline]
        pub(super) fn meta_mut(&mut self) -> &mut [VarMeta] {
            self.0.seconds_mut()
        }

        /// The domain and the record of variable `i`, with one bounds check for both.
        /// Panics unless `i` is a variable.
        #[inline(always)]
        pub(super) fn both_mut(&mut self, i: usize) -> (&mut Domain, &mut VarMeta) {
            self.0.both_mut(i)
        }
    }
}

/// A reversible integer: propagator state that is restored on backtrack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RevId(pub u32);

/// The undo record of one domain: its state before its first change at a level.
#[derive(Clone, Copy, Debug)]
struct SavedDomain {
    var: u32,
    /// The epoch at which `var` had last been saved before this.
    old_epoch: u64,
    state: SmallState,
}

/// Where each stack of the trail stood when a level was opened.
#[derive(Clone, Copy, Debug)]
struct LevelMark {
    domains: usize,
    words: usize,
    ints: usize,
    /// Epoch of the level below.
    parent_epoch: u64,
    /// Announcements lost at the level below (see [`Store::losses_at`]): it cannot lose
    /// more while this one is open.
    parent_losses: u64,
}

/// Domains, reversible integers, the trail, and the list of variables changed since the
/// propagation engine last looked.
#[derive(Clone, Debug)]
pub struct Store {
    /// Each variable's domain, and what the trail and the event list need to know about it
    /// (one small record per variable, so that a change reads one cache line of bookkeeping,
    /// not three).
    vars: Variables,
    revs: Vec<i64>,
    /// The trail: saved domains, the extra words of saved wide domains (in the order of
    /// `domain_trail`), and reversible integers with their old values.
    domain_trail: Vec<SavedDomain>,
    word_trail: Vec<u64>,
    int_trail: Vec<(u32, i64)>,
    /// For each open level, where the three stacks stood when it was opened.
    levels: Vec<LevelMark>,
    /// Epoch of the current level.
    epoch: u64,
    /// Next fresh epoch. 64 bits, so that epochs are never reused: with 32, a search of
    /// over 4 billion nodes would wrap round to the epoch of a level still open, and that
    /// level's first changes would no longer be saved (the wider counter costs a few
    /// instructions per level).
    next_epoch: u64,
    /// Variables changed since the last `take_modified`, each once (their strongest event is
    /// in `meta`).
    modified: Vec<VarId>,
    /// Values removed in total (for the propagator profile).
    removed: u64,
    /// How many times domains may have changed without the watchers hearing of it: a
    /// level popped (domains restored), or changes dropped after a conflict before they
    /// were announced. See [`Store::silent_changes`].
    silent_changes: u64,
    /// How many times announcements were lost at the current level (see
    /// [`Store::losses_at`]; the levels below keep theirs in their `LevelMark`).
    losses: u64,
    /// The idempotent propagator now running, whose changes to the variables that only it
    /// watches wake nobody (see [`Store::set_quiet_propagator`]); `NONE_RUNNING` otherwise.
    quiet_propagator: u32,
    /// The stop check of the search under way, and whether it fired (interrupt.rs).
    pub(crate) interrupt: Interrupt,
}

/// Where a propagator took a copy of its own state: the level's depth, its epoch (never
/// reused, so a closed and reopened level has a new one) and how many times announcements
/// had been lost at it by then. See [`Store::still_valid`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelStamp {
    pub(crate) depth: usize,
    pub(crate) epoch: u64,
    pub(crate) losses: u64,
}

impl LevelStamp {
    /// The depth of the level (0 is the root).
    pub fn depth(&self) -> usize {
        self.depth
    }
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    pub fn new() -> Store {
        Store {
            vars: Variables::default(),
            revs: Vec::new(),
            domain_trail: Vec::new(),
            word_trail: Vec::new(),
            int_trail: Vec::new(),
            levels: Vec::new(),
            epoch: 0,
            next_epoch: 1,
            modified: Vec::new(),
            removed: 0,
            silent_changes: 0,
            losses: 0,
            quiet_propagator: NONE_RUNNING,
            interrupt: Interrupt::default(),
        }
    }

    /// A new variable with the given domain.
    pub fn new_var(&mut self, domain: Domain) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(
            domain,
            VarMeta {
                saved_epoch: 0,
                pending_event: None,
                watched_from: UNWATCHED,
                only_watcher: NO_WATCHER,
            },
        );
        id
    }

    /// Some propagator wakes on `event` (or a stronger one) of `x`: from now on such events
    /// are recorded for the propagation engine. An event that no propagator listens to —
    /// on n-queens, most removals, whose propagators only wait for fixed variables — then
    /// costs neither an entry in the list of modified variables nor a look at its watchers.
    /// `propagator` is the watcher's number (see [`Store::set_quiet_propagator`]).
    pub(crate) fn watch(&mut self, x: VarId, event: Event, propagator: u32) {
        let meta = &mut self.vars.meta_mut()[x.index()];
        meta.watched_from = meta.watched_from.min(event as u8);
        meta.only_watcher = match meta.only_watcher {
            NO_WATCHER => propagator,
            only if only == propagator => only,
            _ => SEVERAL_WATCHERS,
        };
    }

    /// The propagation engine is about to run `propagator`, which reaches its own fixpoint
    /// in one run (idempotent), or `None` when it runs something else. While it runs, its
    /// changes to a variable that no other propagator watches are not recorded as events:
    /// the engine would only find that the one watcher to wake is the propagator that made
    /// the change, which it does not wake again. On n-queens the one family propagator
    /// watches every variable, and this spares the event of every queen it forces.
    #[inline]
    pub(crate) fn set_quiet_propagator(&mut self, propagator: Option<u32>) {
        self.quiet_propagator = propagator.unwrap_or(NONE_RUNNING);
    }

    /// A new reversible integer.
    pub fn new_rev(&mut self, value: i64) -> RevId {
        self.revs.push(value);
        RevId(self.revs.len() as u32 - 1)
    }

    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    // ----- reading -----------------------------------------------------------------------

    /// Every domain, by variable index: for a propagator's tight loops, which read many
    /// domains and are faster on a borrowed slice than through one call per variable.
    #[inline]
    pub fn domains(&self) -> &[Domain] {
        self.vars.domains()
    }
    #[inline]
    pub fn domain(&self, x: VarId) -> &Domain {
        &self.vars.domains()[x.index()]
    }
    #[inline]
    pub fn min(&self, x: VarId) -> i32 {
        self.vars.domains()[x.index()].min()
    }
    #[inline]
    pub fn max(&self, x: VarId) -> i32 {
        self.vars.domains()[x.index()].max()
    }
    #[inline]
    pub fn size(&self, x: VarId) -> u32 {
        self.vars.domains()[x.index()].size()
    }
    #[inline]
    pub fn is_fixed(&self, x: VarId) -> bool {
        self.vars.domains()[x.index()].is_fixed()
    }
    /// The value of a fixed variable (its min otherwise).
    #[inline]
    pub fn value(&self, x: VarId) -> i32 {
        self.vars.domains()[x.index()].value()
    }
    #[inline]
    pub fn contains(&self, x: VarId, v: i32) -> bool {
        self.vars.domains()[x.index()].contains(v)
    }
    #[inline]
    pub fn rev(&self, r: RevId) -> i64 {
        self.revs[r.0 as usize]
    }
    /// Total values removed so far (only ever grows; used by the profiler).
    #[inline]
    pub fn removed_count(&self) -> u64 {
        self.removed
    }

    // ----- changing: every change goes through `modify`, which trails and records events ---

    /// Save `x` on the trail if this is its first change at the current level.
    #[inline(always)]
    fn save(&mut self, x: usize) {
        // At the root (no level open) the epoch is 0 and so is every variable's `saved_epoch`
        // (only a save at an open level changes it, and closing the level restores it), so
        // nothing is saved there.
        let (d, meta) = self.vars.both_mut(x);
        let saved_epoch = meta.saved_epoch;
        debug_assert!(!self.levels.is_empty() || saved_epoch == self.epoch);
        if saved_epoch != self.epoch {
            self.domain_trail.push(SavedDomain {
                var: x as u32,
                old_epoch: saved_epoch,
                state: d.small_state(),
            });
            // Only domains wider than 64 values have more words (rare in puzzles).
            d.save_wide_words(&mut self.word_trail);
            meta.saved_epoch = self.epoch;
        }
    }

    /// Record that `x` changed with `event`, for the propagation engine, if anyone listens.
    #[inline]
    fn record_event(&mut self, x: VarId, event: Event) {
        Self::note_event(
            &mut self.vars.meta_mut()[x.index()],
            &mut self.modified,
            self.quiet_propagator,
            x,
            event,
        );
    }

    /// `record_event` for a caller that holds the variable's record already.
    #[inline(always)]
    fn note_event(
        meta: &mut VarMeta,
        modified: &mut Vec<VarId>,
        quiet_propagator: u32,
        x: VarId,
        event: Event,
    ) {
        if (event as u8) < meta.watched_from || meta.only_watcher == quiet_propagator {
            return;
        }
        let pending = &mut meta.pending_event;
        match *pending {
            None => {
                *pending = Some(event);
                modified.push(x);
            }
            Some(e) if e < event => *pending = Some(event),
            Some(_) => {}
        }
    }

    #[inline]
    fn modify(
        &mut self,
        x: VarId,
        op: impl FnOnce(&mut Domain) -> Change,
    ) -> Result<bool, Conflict> {
        self.modify_with_event(x, op).map(|event| event.is_some())
    }

    /// `modify`, returning the event (`None` when nothing changed).
    #[inline]
    fn modify_with_event(
        &mut self,
        x: VarId,
        op: impl FnOnce(&mut Domain) -> Change,
    ) -> Result<Option<Event>, Conflict> {
        let i = x.index();
        self.save(i);
        let before = self.vars.domains()[i].size();
        match op(&mut self.vars.domains_mut()[i]) {
            Ok(None) => Ok(None),
            Ok(Some(event)) => {
                self.removed += (before - self.vars.domains()[i].size()) as u64;
                self.record_event(x, event);
                Ok(Some(event))
            }
            Err(EmptyDomain) => Err(Conflict::new()),
        }
    }

    /// Remove `v` from the domain of `x`. `Ok(true)` if something was removed.
    #[inline]
    pub fn remove(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        // The most frequent operation of all, so it has its own path: test first, so that
        // the common case (the value is already gone) touches neither the trail nor the
        // event list; then exactly one value goes.
        let i = x.index();
        let d = &self.vars.domains()[i];
        if d.is_single_word() {
            let bit = d.word_bit(v) & d.first_word();
            if bit == 0 {
                return Ok(false);
            }
            return self.narrow_word(x, d.first_word() & !bit).map(|_| true);
        }
        if !d.contains(v) {
            return Ok(false);
        }
        self.save(i);
        match self.vars.domains_mut()[i].remove_present(v) {
            Ok(event) => {
                self.removed += 1;
                self.record_event(x, event);
                Ok(true)
            }
            Err(EmptyDomain) => Err(Conflict::new()),
        }
    }

    /// Remove every value below `lo`.
    #[inline]
    pub fn set_min(&mut self, x: VarId, lo: i32) -> Result<bool, Conflict> {
        if lo <= self.vars.domains()[x.index()].min() {
            return Ok(false);
        }
        self.modify(x, |d| d.remove_below(lo))
    }

    /// Remove every value above `hi`.
    #[inline]
    pub fn set_max(&mut self, x: VarId, hi: i32) -> Result<bool, Conflict> {
        if hi >= self.vars.domains()[x.index()].max() {
            return Ok(false);
        }
        self.modify(x, |d| d.remove_above(hi))
    }

    /// Remove every value of `first..=last` (an interval domain's without visiting them).
    #[inline]
    pub fn remove_range(&mut self, x: VarId, first: i32, last: i32) -> Result<bool, Conflict> {
        if first > last {
            return Ok(false);
        }
        self.modify(x, |d| d.remove_range(first, last))
    }

    /// Keep only `v`.
    #[inline]
    pub fn fix(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        let d = &self.vars.domains()[x.index()];
        if d.is_fixed() && d.value() == v {
            return Ok(false);
        }
        if d.is_single_word() {
            // The search's decision `x = v`: the new word is one bit.
            let bit = d.word_bit(v) & d.first_word();
            if bit != 0 {
                return self.narrow_word(x, bit).map(|_| true);
            }
        }
        // A wide domain, or `v` is not in it (a conflict, which empties the domain).
        self.modify(x, |d| d.fix(v))
    }

    /// Keep only the values for which `keep` holds.
    pub fn retain(&mut self, x: VarId, keep: impl FnMut(i32) -> bool) -> Result<bool, Conflict> {
        self.modify(x, |d| d.retain(keep))
    }

    /// Keep only the values also in `other`.
    pub fn intersect(&mut self, x: VarId, other: &Domain) -> Result<bool, Conflict> {
        self.modify(x, |d| d.intersect(other))
    }

    /// Keep only the values `base + i` for the bits `i` set in `mask` (see
    /// [`Domain::intersect_mask`]): the word-parallel way to prune a small domain.
    #[inline]
    pub fn intersect_mask(&mut self, x: VarId, base: i32, mask: u64) -> Result<bool, Conflict> {
        self.modify(x, |d| d.intersect_mask(base, mask))
    }

    /// Remove the values whose bits are set in `bits`, in the layout of the first word of
    /// `x`'s domain (see [`Domain::remove_first_word_bits`]): several values, one trail entry
    /// and at most one event. Returns the event (`None` if nothing was removed), so that a
    /// propagator sees whether `x` is now fixed without reading its domain again.
    #[inline]
    pub fn remove_bits(&mut self, x: VarId, bits: u64) -> Result<Option<Event>, Conflict> {
        let d = &self.vars.domains()[x.index()];
        let word = d.first_word();
        if word & bits == 0 {
            return Ok(None);
        }
        if !d.is_single_word() {
            return self.modify_with_event(x, |d| d.remove_first_word_bits(bits));
        }
        self.narrow_word(x, word & !bits).map(Some)
    }

    /// `remove_bits` for a propagator that has just read `x`'s domain and seen that it is a
    /// single word holding at least one of `bits` (the forward-checking family does both
    /// checks in its scan, once per variable, so it skips them here: a few instructions on
    /// each of n-queens' removals, which are most of its work). The same contract as
    /// `Domain::remove_present`.
    #[inline]
    pub(crate) fn remove_present_bits(&mut self, x: VarId, bits: u64) -> Result<Event, Conflict> {
        let d = &self.vars.domains()[x.index()];
        debug_assert!(d.is_single_word() && d.first_word() & bits != 0);
        let word = d.first_word() & !bits;
        self.narrow_word(x, word)
    }

    /// Narrow the single-word domain of `x` to `word`, a strict subset of its word: the fast
    /// path of `fix`, `remove` and `remove_bits` (n-queens makes a million of these).
    /// Written out as `modify` would do it, but with the domain and the variable's record
    /// each looked up once (`save` and `record_event` would look them up again).
    #[inline(always)]
    fn narrow_word(&mut self, x: VarId, word: u64) -> Result<Event, Conflict> {
        let i = x.index();
        let (d, meta) = self.vars.both_mut(i);
        if meta.saved_epoch != self.epoch {
            self.domain_trail.push(SavedDomain {
                var: x.0,
                old_epoch: meta.saved_epoch,
                state: d.small_state(),
            });
            meta.saved_epoch = self.epoch;
        }
        let before = d.size();
        let event = d.narrow_word(word).map_err(|EmptyDomain| Conflict::new())?;
        self.removed += (before - d.size()) as u64;
        Self::note_event(meta, &mut self.modified, self.quiet_propagator, x, event);
        Ok(event)
    }

    /// Set a reversible integer.
    #[inline]
    pub fn set_rev(&mut self, r: RevId, value: i64) {
        let i = r.0 as usize;
        if self.revs[i] == value {
            return;
        }
        if !self.levels.is_empty() {
            self.int_trail.push((r.0, self.revs[i]));
        }
        self.revs[i] = value;
    }

    // ----- levels --------------------------------------------------------------------------

    /// Number of open levels (the depth of the search).
    #[inline]
    pub fn level(&self) -> usize {
        self.levels.len()
    }

    /// Open a new level: everything changed from now on is undone by `pop_level`.
    pub fn push_level(&mut self) {
        self.levels.push(LevelMark {
            domains: self.domain_trail.len(),
            words: self.word_trail.len(),
            ints: self.int_trail.len(),
            parent_epoch: self.epoch,
            parent_losses: self.losses,
        });
        self.epoch = self.next_epoch;
        self.next_epoch += 1;
        self.losses = 0;
    }

    /// A count that moves whenever domains may have changed without an event reaching
    /// their watchers: a level popped (the trail grows domains back, silently), or
    /// [`Store::drop_modified`]. A propagator that keeps a copy of the domains from one run
    /// to the next learns every other change through `notify`, so while this count stays
    /// put it can reread only the variables announced to it.
    #[inline]
    pub(crate) fn silent_changes(&self) -> u64 {
        self.silent_changes
    }

    /// Undo every change made since the matching `push_level`.
    pub fn pop_level(&mut self) {
        let mark = self.levels.pop().expect("pop_level without push_level");
        self.silent_changes += 1;
        if self.word_trail.len() == mark.words {
            // No wide domain was saved at this level (the usual case): each saved domain is
            // its small state alone, restored in one pass over the slice, any order.
            for saved in &self.domain_trail[mark.domains..] {
                let (d, meta) = self.vars.both_mut(saved.var as usize);
                d.restore_small_state(saved.state);
                meta.saved_epoch = saved.old_epoch;
            }
            self.domain_trail.truncate(mark.domains);
        }
        // Newest first, so that a wide domain's extra words are at the top of `word_trail`.
        while self.domain_trail.len() > mark.domains {
            let saved = self.domain_trail.pop().unwrap();
            let (d, meta) = self.vars.both_mut(saved.var as usize);
            d.restore_wide_words(saved.state, &mut self.word_trail);
            d.restore_small_state(saved.state);
            meta.saved_epoch = saved.old_epoch;
        }
        debug_assert_eq!(self.word_trail.len(), mark.words);
        while self.int_trail.len() > mark.ints {
            let (rev, old) = self.int_trail.pop().unwrap();
            self.revs[rev as usize] = old;
        }
        self.epoch = mark.parent_epoch;
        self.losses = mark.parent_losses;
        self.clear_modified();
    }

    /// The variables changed since the last `push_level`, each once (those the level saved
    /// on the trail; none at the root, which saves nothing).
    pub(crate) fn changed_at_this_level(&self) -> impl Iterator<Item = VarId> + '_ {
        let from = self
            .levels
            .last()
            .map_or(self.domain_trail.len(), |m| m.domains);
        self.domain_trail[from..]
            .iter()
            .map(|saved| VarId(saved.var))
    }

    /// How many variables changed since the last `push_level` (see
    /// [`Store::changed_at_this_level`]).
    pub(crate) fn changed_count_at_this_level(&self) -> usize {
        self.levels
            .last()
            .map_or(0, |m| self.domain_trail.len() - m.domains)
    }

    /// Undo every open level.
    pub fn pop_to_root(&mut self) {
        while !self.levels.is_empty() {
            self.pop_level();
        }
    }

    // ----- events ----------------------------------------------------------------------------

    /// Hand over the variables changed since the last call (each once, strongest event).
    #[inline]
    pub fn take_modified(&mut self, into: &mut Vec<(VarId, Event)>) {
        into.clear();
        into.extend(self.modified_events());
        self.clear_modified();
    }

    /// Forget the changes not yet announced (after a conflict): they will never reach their
    /// watchers, which [`Store::silent_changes`] and [`Store::losses_at`] tell.
    pub fn drop_modified(&mut self) {
        if !self.modified.is_empty() {
            self.silent_changes += 1;
        }
        self.clear_modified();
        self.losses += 1;
    }

    /// How many times, at the level at `depth` (0 is the root), changes were dropped and
    /// announcements forgotten after a conflict ([`Store::drop_modified`], called by the
    /// propagation engine as it abandons its queue and the propagators their pending
    /// announcements); 0 for a level deeper than the current one.
    ///
    /// **What for.** With [`Store::epoch_at`]: a propagator's copy of its state taken at
    /// level `d` describes the store together with the announcements made since, unless
    /// some were lost at level `d` or at a level opened after it and still open.
    #[inline]
    pub(crate) fn losses_at(&self, depth: usize) -> u64 {
        match depth.cmp(&self.levels.len()) {
            std::cmp::Ordering::Less => self.levels[depth].parent_losses,
            std::cmp::Ordering::Equal => self.losses,
            std::cmp::Ordering::Greater => 0,
        }
    }

    /// The epoch of the level at `depth` (0 is the root, [`Store::level`] the current
    /// level), `None` deeper than the current level.
    ///
    /// **What for.** A propagator that keeps a copy of its own state for each level can tell
    /// whether a copy it took at `depth` still describes an open level: epochs are never
    /// reused, so the copy is good while `epoch_at(depth)` is the epoch it was taken at.
    /// After a backtrack it starts again from that copy instead of from scratch.
    #[inline]
    pub(crate) fn epoch_at(&self, depth: usize) -> Option<u64> {
        match depth.cmp(&self.levels.len()) {
            std::cmp::Ordering::Less => Some(self.levels[depth].parent_epoch),
            std::cmp::Ordering::Equal => Some(self.epoch),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// The current level as a [`LevelStamp`].
    #[inline]
    pub(crate) fn level_stamp(&self) -> LevelStamp {
        let depth = self.levels.len();
        LevelStamp {
            depth,
            epoch: self.epoch,
            losses: self.losses,
        }
    }

    /// Is the level `stamp` was taken at still open (not closed and reopened since)?
    #[inline]
    pub(crate) fn is_open(&self, stamp: &LevelStamp) -> bool {
        self.epoch_at(stamp.depth) == Some(stamp.epoch)
    }

    /// Is the level `stamp` was taken at still open, with no announcement lost since at it
    /// or at a level opened after it?
    #[inline]
    pub(crate) fn still_valid(&self, stamp: &LevelStamp) -> bool {
        self.is_open(stamp)
            && self.losses_at(stamp.depth) == stamp.losses
            && (stamp.depth + 1..=self.level()).all(|d| self.losses_at(d) == 0)
    }

    /// The variables changed since the last `clear_modified`, each once, with the strongest
    /// event. The propagation engine walks this and then calls `clear_modified`, with no copy.
    #[inline]
    pub fn modified_events(&self) -> impl Iterator<Item = (VarId, Event)> + '_ {
        self.modified.iter().map(|&x| {
            let event = self.vars.meta()[x.index()]
                .pending_event
                .expect("pending event");
            (x, event)
        })
    }

    /// Forget pending events (after a conflict).
    pub fn clear_modified(&mut self) {
        for &x in &self.modified {
            self.vars.meta_mut()[x.index()].pending_event = None;
        }
        self.modified.clear();
    }

    pub fn has_modified(&self) -> bool {
        !self.modified.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trail_restores_domains_and_revs_across_levels() {
        let mut s = Store::new();
        let x = s.new_var(Domain::interval(1, 9));
        let y = s.new_var(Domain::interval(-5, 5));
        let r = s.new_rev(7);
        s.push_level();
        s.remove(x, 3).unwrap();
        s.set_min(y, 0).unwrap();
        s.set_rev(r, 8);
        s.push_level();
        s.fix(x, 4).unwrap();
        s.set_rev(r, 9);
        assert!(s.set_max(y, -1).is_err());
        s.pop_level();
        assert_eq!(format!("{:?}", s.domain(x)), "{1..2, 4..9}");
        assert_eq!((s.min(y), s.max(y)), (0, 5));
        assert_eq!(s.rev(r), 8);
        // a fresh level after a pop saves again (epochs are never reused)
        s.push_level();
        s.remove(x, 9).unwrap();
        s.pop_level();
        assert_eq!(s.max(x), 9);
        s.pop_level();
        assert_eq!(s.size(x), 9);
        assert_eq!(s.size(y), 11);
        assert_eq!(s.rev(r), 7);
    }

    /// Wide bitsets are saved by their bounds while they have no holes, by their words
    /// otherwise: random bounds moves, removals and failures on levels up to 6 deep, each
    /// pop checked against the values the domains held when the level was opened.
    #[test]
    fn wide_bitsets_saved_by_bounds_or_by_words_come_back_exactly() {
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let mut s = Store::new();
            let vars: Vec<VarId> = [(0, 700), (-300, 10_005), (5, 69)]
                .iter()
                .map(|&(lo, hi)| s.new_var(Domain::interval(lo, hi)))
                .collect();
            let snapshot = |s: &Store| -> Vec<Vec<i32>> {
                vars.iter().map(|&x| s.domain(x).iter().collect()).collect()
            };
            let mut opened: Vec<Vec<Vec<i32>>> = Vec::new();
            for _ in 0..60 {
                let x = vars[rng.below(3) as usize];
                let (lo, hi) = (s.min(x), s.max(x));
                let v = lo + rng.below((hi - lo) as u64 + 1) as i32;
                let failed = match rng.below(6) {
                    0 if opened.len() < 6 => {
                        opened.push(snapshot(&s));
                        s.push_level();
                        false
                    }
                    1 if !opened.is_empty() => {
                        s.pop_level();
                        assert_eq!(snapshot(&s), opened.pop().unwrap());
                        false
                    }
                    2 => s.remove(x, v).is_err(),
                    3 => s.set_min(x, v.max(lo + 1)).is_err(),
                    4 => s.set_max(x, v.min(hi - 1)).is_err(),
                    _ => s.remove_range(x, v, v + rng.below(100) as i32).is_err(),
                };
                if failed {
                    // A failure: the search backtracks.
                    match opened.pop() {
                        Some(before) => {
                            s.pop_level();
                            assert_eq!(snapshot(&s), before);
                        }
                        None => break,
                    }
                }
            }
            while let Some(before) = opened.pop() {
                s.pop_level();
                assert_eq!(snapshot(&s), before);
            }
        }
    }

    #[test]
    fn events_keep_the_strongest_per_variable() {
        let mut s = Store::new();
        let x = s.new_var(Domain::interval(1, 9));
        s.watch(x, Event::Domain, 0);
        s.remove(x, 5).unwrap();
        s.set_min(x, 2).unwrap();
        let mut ev = Vec::new();
        s.take_modified(&mut ev);
        assert_eq!(ev, vec![(x, Event::Bounds)]);
        s.take_modified(&mut ev);
        assert!(ev.is_empty());
    }

    #[test]
    fn only_watched_events_are_recorded() {
        let mut s = Store::new();
        let x = s.new_var(Domain::interval(1, 9));
        let y = s.new_var(Domain::interval(1, 9));
        let z = s.new_var(Domain::interval(1, 9));
        s.watch(x, Event::Fixed, 0);
        s.watch(y, Event::Bounds, 1);
        // z: nobody listens.
        for v in [1, 5] {
            for w in [x, y, z] {
                s.remove(w, v).unwrap();
            }
        }
        let mut ev = Vec::new();
        s.take_modified(&mut ev);
        assert_eq!(ev, vec![(y, Event::Bounds)]);
        s.fix(x, 3).unwrap();
        s.fix(z, 3).unwrap();
        s.take_modified(&mut ev);
        assert_eq!(ev, vec![(x, Event::Fixed)]);
    }

    /// The one-word fast paths (`fix`, `remove`, `remove_bits` narrowing a single word)
    /// against the general path they skip: the same values in a wide domain (it spans more
    /// than 64 values at creation, so it keeps its extra words). Random operations at random
    /// levels must give the same answers, domains, events and restored states.
    #[test]
    fn one_word_fast_paths_agree_with_the_general_path() {
        let mut rng = crate::rng::Rng::new(5);
        for _trial in 0..300 {
            let mut s = Store::new();
            let small = s.new_var(Domain::interval(0, 20));
            let wide = s.new_var(Domain::interval(0, 100));
            s.set_max(wide, 20).unwrap();
            assert!(!s.domain(wide).is_single_word() && s.domain(small).is_single_word());
            s.watch(small, Event::Domain, 0);
            s.watch(wide, Event::Domain, 0);
            let mut ev = Vec::new();
            s.take_modified(&mut ev);
            let mut depth = 0;
            for _ in 0..12 {
                while depth > 0 && rng.below(3) == 0 {
                    s.pop_level();
                    depth -= 1;
                }
                s.push_level();
                depth += 1;
                let v = rng.below(23) as i32 - 1;
                let bits = rng.next_u64() & rng.next_u64() & ((1 << 21) - 1);
                let op = rng.below(3);
                let apply = |s: &mut Store, x: VarId| match op {
                    0 => s.fix(x, v).map(|b| b.then_some(())),
                    1 => s.remove(x, v).map(|b| b.then_some(())),
                    _ => s.remove_bits(x, bits).map(|e| e.map(|_| ())),
                };
                let a = apply(&mut s, small);
                let b = apply(&mut s, wide);
                assert_eq!(a, b, "op {op}, v {v}, bits {bits:b}");
                s.take_modified(&mut ev);
                let events: Vec<Event> = ev.iter().map(|&(_, e)| e).collect();
                if a.is_err() {
                    s.pop_level();
                    depth -= 1;
                } else if events.len() == 2 {
                    assert_eq!(events[0], events[1]);
                } else {
                    assert!(events.is_empty(), "{events:?}");
                }
                assert_eq!(
                    format!("{:?}", s.domain(small)),
                    format!("{:?}", s.domain(wide))
                );
                let (d, w) = (s.domain(small), s.domain(wide));
                assert_eq!((d.min(), d.max(), d.size()), (w.min(), w.max(), w.size()));
            }
        }
    }

    #[test]
    fn a_quiet_propagator_records_no_event_on_variables_only_it_watches() {
        let mut s = Store::new();
        let mine = s.new_var(Domain::interval(0, 9));
        let shared = s.new_var(Domain::interval(0, 9));
        s.watch(mine, Event::Fixed, 7);
        s.watch(mine, Event::Domain, 7); // a second subscription of the same propagator
        s.watch(shared, Event::Fixed, 7);
        s.watch(shared, Event::Fixed, 8);
        s.push_level();
        s.set_quiet_propagator(Some(7));
        assert_eq!(s.remove_bits(mine, 0b1110), Ok(Some(Event::Domain)));
        assert_eq!(s.remove_bits(mine, !1), Ok(Some(Event::Fixed)));
        assert_eq!(s.remove_bits(shared, !2), Ok(Some(Event::Fixed)));
        let mut ev = Vec::new();
        s.take_modified(&mut ev);
        assert_eq!(ev, vec![(shared, Event::Fixed)]);
        // Another propagator running, or none: every watched event is recorded again.
        s.set_quiet_propagator(Some(8));
        s.pop_level();
        s.push_level();
        assert_eq!(s.remove_bits(mine, 1), Ok(Some(Event::Bounds)));
        s.set_quiet_propagator(None);
        assert_eq!(s.remove_bits(shared, !(1 << 9)), Ok(Some(Event::Fixed)));
        s.take_modified(&mut ev);
        assert_eq!(ev, vec![(mine, Event::Bounds), (shared, Event::Fixed)]);
        s.pop_level();
        assert_eq!((s.size(mine), s.size(shared)), (10, 10));
    }

    /// `epoch_at` and `losses_at` against a model of the levels kept by hand, on random
    /// pushes, pops and dropped changes: what a propagator's per-level copies rely on.
    #[test]
    fn epochs_and_losses_per_level_follow_the_open_levels() {
        let mut rng = crate::rng::Rng::new(23);
        let mut s = Store::new();
        let x = s.new_var(Domain::interval(0, 63));
        // For each open level (the root first): its epoch, and its losses.
        let mut model: Vec<(u64, u64)> = vec![(s.epoch_at(0).unwrap(), 0)];
        let mut seen_epochs = vec![model[0].0];
        for _ in 0..3_000 {
            match rng.below(4) {
                0 => {
                    s.push_level();
                    let epoch = s.epoch_at(s.level()).unwrap();
                    assert!(!seen_epochs.contains(&epoch), "an epoch used again");
                    seen_epochs.push(epoch);
                    model.push((epoch, 0));
                }
                1 if s.level() > 0 => {
                    s.pop_level();
                    model.pop();
                }
                2 => {
                    // A change, then a conflict elsewhere: the queue and the announcements
                    // are dropped at the current level.
                    let _ = s.remove(x, rng.below(64) as i32);
                    s.drop_modified();
                    model.last_mut().unwrap().1 += 1;
                }
                _ => {}
            }
            assert_eq!(s.level() + 1, model.len());
            for (depth, &(epoch, losses)) in model.iter().enumerate() {
                assert_eq!(s.epoch_at(depth), Some(epoch), "depth {depth}");
                assert_eq!(s.losses_at(depth), losses, "depth {depth}");
            }
            assert_eq!(s.epoch_at(model.len()), None);
            assert_eq!(s.losses_at(model.len()), 0);
        }
        assert!(seen_epochs.len() > 100, "levels were opened");
    }
}
