//! # Unchecked indexing: the engine's only `unsafe` code, each use with its invariant
//!
//! Rust checks every index against the length of what it indexes. In most of the engine
//! that costs nothing worth counting; in the three hottest loops of a Sudoku or n-queens
//! search it does: each check is a compare and a branch, and the panic path it keeps alive
//! crowds the loop's registers (the measurements are in `docs/PERFORMANCE.md`, "Sudoku,
//! sixth pass"). Those loops index with numbers that are known to be in range for a reason
//! the compiler cannot see. This module is where that reason is written down and kept: the
//! crate denies `unsafe` everywhere else (`#![deny(unsafe_code)]` in `lib.rs`), and each
//! wrapper below is safe to call, because the type that hands out the index or the slice
//! keeps the invariant itself. A debug build (the tests run in one) checks every access
//! again.
//!
//! | wrapper | used by | invariant | kept by |
//! |---|---|---|---|
//! | [`SameLength::both_mut`] | the store: a variable's domain and its record, on every change | the two vectors have one length | [`SameLength::push`], the only code that changes a length, pushes onto both |
//! | [`IndicesBelow::lookup`] | the Sudoku brancher: the domains of a cell's neighbours | every index is below `bound`, and the slice looked up is at least that long | [`IndicesBelow::new`] checks every index once; `lookup` asserts the slice's length once per call |
//! | [`PerVariable::get`], [`PerVariable::set`] | the all-different units propagator (`alldiff/fast/units.rs`): its domains as bitmasks, in its run's loops | a [`Pos`] is below the length of the arrays it indexes | [`Pos::new`] checks `i < n`; [`Pos::from_known`] takes a position read back from a bitmask of such positions; a propagator makes its positions and its arrays with one `n` (see [`PerVariable`]) |

#![allow(unsafe_code)]

/// Two vectors that always have the same length: entry `i` of each belongs to one thing.
#[derive(Clone, Debug)]
pub(crate) struct SameLength<A, B> {
    firsts: Vec<A>,
    seconds: Vec<B>,
}

impl<A, B> Default for SameLength<A, B> {
    fn default() -> Self {
        SameLength {
            firsts: Vec::new(),
            seconds: Vec::new(),
        }
    }
}

impl<A, B> SameLength<A, B> {
    /// Add an entry to each.
    pub(crate) fn push(&mut self, a: A, b: B) {
        self.firsts.push(a);
        self.seconds.push(b);
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.firsts.len()
    }

    /// The first vector, as a slice (which cannot change its length).
    #[inline]
    pub(crate) fn firsts(&self) -> &[A] {
        &self.firsts
    }

    #[inline]
    pub(crate) fn firsts_mut(&mut self) -> &mut [A] {
        &mut self.firsts
    }

    #[inline]
    pub(crate) fn seconds(&self) -> &[B] {
        &self.seconds
    }

    #[inline]
    pub(crate) fn seconds_mut(&mut self) -> &mut [B] {
        &mut self.seconds
    }

    /// Entry `i` of both, with one bounds check for the two. Panics unless `i < len`.
    #[inline(always)]
    pub(crate) fn both_mut(&mut self, i: usize) -> (&mut A, &mut B) {
        debug_assert_eq!(self.firsts.len(), self.seconds.len());
        let a = &mut self.firsts[i];
        // SAFETY: `i < firsts.len()` (the index above did not panic), and
        // `seconds.len() == firsts.len()`: only `push` changes a length, and it pushes onto
        // both; the slices handed out cannot change one.
        let b = unsafe { self.seconds.get_unchecked_mut(i) };
        (a, b)
    }
}

/// A list of indices, each below `bound`, checked once when the list is made.
#[derive(Clone, Debug)]
pub(crate) struct IndicesBelow {
    list: Box<[u32]>,
    bound: usize,
}

impl IndicesBelow {
    /// The list `list`, whose every entry must be below `bound`. Panics otherwise.
    pub(crate) fn new(list: Vec<u32>, bound: usize) -> IndicesBelow {
        assert!(
            list.iter().all(|&i| (i as usize) < bound),
            "an index at or above {bound}"
        );
        IndicesBelow {
            list: list.into_boxed_slice(),
            bound,
        }
    }

    /// The indices, as a slice.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.list
    }

    /// `slice[i]` for each index `i` of `self[range]`, in order, with no bounds check on each:
    /// one assertion that `slice` has at least `bound` entries stands for all of them.
    /// Panics if it has fewer, or if `range` is outside the list.
    #[inline(always)]
    pub(crate) fn lookup<'a, T>(
        &'a self,
        range: std::ops::Range<usize>,
        slice: &'a [T],
    ) -> impl Iterator<Item = &'a T> + 'a {
        assert!(slice.len() >= self.bound, "a slice shorter than the bound");
        self.list[range].iter().map(move |&i| {
            debug_assert!((i as usize) < slice.len());
            // SAFETY: `i < bound` (checked by `new`, and the list never changes) and
            // `bound <= slice.len()` (asserted above).
            unsafe { slice.get_unchecked(i as usize) }
        })
    }
}

/// A position among a propagator's `n` variables: the index of its entry in each of that
/// propagator's [`PerVariable`] arrays. Made only by [`Pos::new`], which checks `i < n`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pos(u32);

impl Pos {
    /// Position `i` among `n` variables. Panics unless `i < n`.
    #[inline]
    pub(crate) fn new(i: usize, n: usize) -> Pos {
        assert!(i < n, "position {i} among {n} variables");
        Pos(i as u32)
    }

    /// Position `i` when `i < n` is already known from the caller's data structure, checked
    /// in a debug build only: part of [`PerVariable`]'s contract. Used where a set of
    /// positions is a bitmask whose bits were all set from positions made by [`Pos::new`]
    /// (`units.rs`'s peer sets), so that the position of a set bit is below `n`.
    #[inline(always)]
    pub(crate) fn from_known(i: usize, n: usize) -> Pos {
        debug_assert!(i < n, "position {i} among {n} variables");
        Pos(i as u32)
    }

    #[inline(always)]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// One entry per variable of a propagator, read and written at a [`Pos`] without a bounds
/// check.
///
/// **The contract.** A `PerVariable` has the `n` entries it was made with for its whole
/// life (it is never resized), and the propagator that owns it makes every `Pos` it uses
/// with that same `n` (by [`Pos::new`], or by [`Pos::from_known`] from the bits of a set of
/// such positions). This is the one invariant here that the module cannot see by itself:
/// `alldiff/fast/units.rs`, the only user, makes its arrays and positions from its own
/// `vars.len()`, and keeps both private to it. Every access is checked in a debug build.
#[derive(Clone, Debug)]
pub(crate) struct PerVariable<T>(Box<[T]>);

impl<T: Copy> PerVariable<T> {
    pub(crate) fn new(entries: Vec<T>) -> PerVariable<T> {
        PerVariable(entries.into_boxed_slice())
    }

    /// The entries, in position order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        &self.0
    }

    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.0
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: Pos) -> T {
        debug_assert!(i.index() < self.0.len());
        // SAFETY: `i < n` (`Pos::new`) and this array has `n` entries (see the type).
        unsafe { *self.0.get_unchecked(i.index()) }
    }

    #[inline(always)]
    pub(crate) fn set(&mut self, i: Pos, value: T) {
        debug_assert!(i.index() < self.0.len());
        // SAFETY: as in `get`.
        unsafe { *self.0.get_unchecked_mut(i.index()) = value }
    }
}
