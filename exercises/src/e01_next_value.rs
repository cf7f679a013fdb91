//! # Exercise 1 — the next value of a bitset domain (chapter 1, `docs/01-domain.md`)
//!
//! A small domain is a 64-bit word: bit `k` set means the value `base + k` is in the domain
//! (`engine/src/domain.rs`). Iterating over a domain asks, again and again, "which is the
//! smallest value greater than `after`?".
//!
//! Write `next_value` without a loop over the 64 bits: mask away the bits of the values
//! `<= after`, then ask the processor where the lowest set bit is (`u64::trailing_zeros`).
//! Mind the edges: `after` may be far below `base` or far above `base + 63`, and a shift by
//! 64 or more is an overflow in Rust.

/// The smallest value `> after` of the domain `{base + k : bit k of word is set}`, or `None`.
pub fn next_value(word: u64, base: i32, after: i32) -> Option<i32> {
    let _ = (word, base, after);
    todo!("mask the bits of values <= after, then trailing_zeros")
}
