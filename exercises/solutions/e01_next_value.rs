//! Model answer of exercise 1 (see `exercises/src/e01_next_value.rs`).

/// The smallest value `> after` of the domain `{base + k : bit k of word is set}`, or `None`.
pub fn next_value(word: u64, base: i32, after: i32) -> Option<i32> {
    // The first bit that may answer: the one of `after + 1`, at least bit 0.
    let first = (after as i64 + 1 - base as i64).max(0);
    if first >= 64 {
        return None;
    }
    let rest = word & (u64::MAX << first);
    if rest == 0 {
        None
    } else {
        Some((base as i64 + rest.trailing_zeros() as i64) as i32)
    }
}
