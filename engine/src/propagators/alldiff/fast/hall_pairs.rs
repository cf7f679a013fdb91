//! # Régin spared: inner Hall sets among at most five open variables, by pairs
//!
//! Before `units.rs` runs Régin's matching on a tight unit whose singles are at their
//! fixpoint, [`has_inner_hall_set`] asks whether Régin could remove anything at all: with
//! four or five open variables, only a naked or a hidden *pair* could make it, and looking
//! at each pair is a few word operations.

/// The most open variables for which [`has_inner_hall_set`] decides without Régin. With
/// four or five, every set it has to rule out is a pair: of variables, or of values.
pub(super) const HALL_CHECK_MAX_OPEN: u32 = 5;

/// Whether some set `S` of the open variables (`open`: positions in `masks`) with
/// `2 ≤ |S| ≤ m − 2` (`m` = number of open variables, at most five) can take only `|S|`
/// values between them: a *Hall set* inside the open variables. **Only** for a tight unit
/// whose naked and hidden singles are at their fixpoint (as when Régin's turn comes): the
/// `m` open variables share exactly `m` values, each held by two of them or more.
///
/// **Why none means Régin would remove nothing.** The open variables share exactly `m`
/// values, and a matching pairs them. Régin removes a value `M(y)` from a variable `x ≠ y`
/// exactly when no path of the alternating graph leads from `y` back to `x` (so the edge
/// `x → y` joins two components). Let `R` be the variables that `y` reaches: every value
/// one of them can take is matched to a variable it reaches, inside `R`, so `R` is a Hall
/// set, and it misses `x`. `R` has two variables or more (`y` is open, two values), and at
/// most `m − 2`: with `m − 1` the value matched to `x` would be in no other open variable's
/// domain — a hidden single, already fixed. So a removal needs an inner Hall set; without
/// one the unit is domain consistent already. (With one, Régin runs and decides: the set
/// may also split the unit cleanly.)
///
/// **Why pairs are enough.** A Hall set `S` leaves the other `m − |S|` values to the
/// other `m − |S|` variables: those values have no holder outside them, a *hidden* set of
/// that size (and the other way round). With `m ≤ 5`, `|S|` is 2 or 3, so either `S` is
/// a pair — two variables with the same two values (*naked pair*) — or the values left
/// are a pair — two values, each held by exactly two variables, the same two (*hidden
/// pair*; no value has a single holder, that would be a hidden single). Both tests look at
/// each pair of open variables once, without a branch on the data: at most ten pairs,
/// where the subsets of five variables are 32 (the walk this replaced; the figures:
/// `docs/performance/views.md`, "Why the fast lanes look as they do").
///
/// Not inlined: inside the run's loop its registers crowded the singles' hot loops (more
/// instructions there than the skip saves; `docs/performance/views.md`, "Why the fast lanes look as they do").
#[inline(never)]
pub(super) fn has_inner_hall_set(masks: &[u64], open: u64) -> bool {
    debug_assert!(
        open.count_ones() <= HALL_CHECK_MAX_OPEN,
        "Régin decides beyond five"
    );
    let mut domains = [0u64; HALL_CHECK_MAX_OPEN as usize];
    let mut m = 0;
    let mut rest = open;
    while rest != 0 && m < domains.len() {
        domains[m] = masks[rest.trailing_zeros() as usize];
        rest &= rest - 1;
        m += 1;
    }
    let naked_pair = |(i, j): (usize, usize)| (domains[i] | domains[j]).count_ones() == 2;
    match m {
        // With four, a hidden pair is the other two variables' naked pair.
        4 => PAIRS_OF_FOUR
            .into_iter()
            .fold(false, |found, p| found | naked_pair(p)),
        5 => {
            // The values held by exactly two open variables, counted bit by bit.
            let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
            for d in domains {
                thrice |= twice & d;
                twice |= once & d;
                once |= d;
            }
            let held_twice = twice & !thrice;
            let hidden_pair =
                |(i, j): (usize, usize)| (domains[i] & domains[j] & held_twice).count_ones() >= 2;
            PAIRS_OF_FOUR
                .into_iter()
                .chain(PAIRS_WITH_THE_FIFTH)
                .fold(false, |found, p| found | naked_pair(p) | hidden_pair(p))
        }
        _ => false, // fewer than four: no size between 2 and m − 2
    }
}

/// The pairs among four positions, and those with a fifth: each pair of five once.
pub(super) const PAIRS_OF_FOUR: [(usize, usize); 6] =
    [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)];
pub(super) const PAIRS_WITH_THE_FIFTH: [(usize, usize); 4] = [(0, 4), (1, 4), (2, 4), (3, 4)];
