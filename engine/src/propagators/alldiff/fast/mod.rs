//! # All-different, the fast lane
//!
//! The same pruning as the textbook algorithms of `../reference.rs`, reached with less work
//! per node: domains read once into machine words, many constraints run as one propagator,
//! only the positions that can still change looked at. Read `reference.rs` first: every
//! file here is tested against it (`engine/tests/alldiff_reference.rs`), never against code
//! that runs the same algorithm.
//!
//! | file | what | the idea it adds to the textbook |
//! |---|---|---|
//! | `value.rs` | `AllDifferentValue`, the `--alldiff value` propagator | forward checking on the open positions only |
//! | `offset_family.rs` | `AllDifferentOffsetFamily`: several offset all-differents over the same variables (n-queens' rows and diagonals) | one wake-up and one word operation per variable for all the families, plus a pigeonhole check |
//! | `word_matching.rs` | Régin's matching with every set of vertices a `u64` | the value graph as bitmasks (≤ 64 variables, span ≤ 64) |
//! | `units.rs` | `AllDifferentUnits`: many domain-consistent all-differents over shared variables (Sudoku's 27 units) | the units talk inside one propagator; cheap rules (naked and hidden singles) before Régin |
//! | `holders.rs`, `level_copies.rs`, `hall_pairs.rs` | the bookkeeping of `units.rs`: each value's holders, stacks without a branch, the state copied per level, Régin spared by pairs | one idea a file |
//! | `singles.rs` | `OpenPositions::forward_check`: forward checking (naked singles) on the store's domains, for `value.rs` and `offset_family.rs` (`units.rs` and `word_matching.rs` write the rule as a short loop on their bitmasks) | the holders of a value found a word of positions at a time, without a branch; the open positions as a reversible sparse set |

mod hall_pairs;
mod holders;
mod level_copies;
pub mod offset_family;
pub(crate) mod singles;
pub mod units;
pub mod value;
pub(crate) mod word_matching;
