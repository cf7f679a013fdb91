//! Every puzzle's parser and model against bad input, through the registry: a new puzzle gets
//! these tests by being listed in `puzzles::all()`.
//!
//! For random bytes and for the puzzle's own seed instance with a few characters inserted,
//! deleted or replaced: parsing never panics; an error names a line of the text (at most the
//! number of lines plus one, "at the end"; 0 is the file as a whole, shown as line 1) and is
//! one line; whatever parses is
//! built under several model options and searched briefly, and any solution found passes
//! the puzzle's checker (`puzzles::common::parse_and_poke`).

use engine::AllDiffLevel;
use proptest::prelude::*;
use puzzles::common::{mutate, parse_and_poke};
use puzzles::{Input, ModelOptions, Purpose, PuzzleKind, SumLevel};

/// The model options tried on whatever parses: the default, the weaker levels, and the
/// model for counting (some puzzles build another one for it).
fn options() -> Vec<ModelOptions> {
    vec![
        ModelOptions::default(),
        ModelOptions {
            alldiff: AllDiffLevel::Value,
            sum: SumLevel::Bounds,
            ..Default::default()
        },
        ModelOptions {
            purpose: Purpose::Count,
            ..Default::default()
        },
    ]
}

/// The puzzles read from a file (n-queens takes a number, the pigeonhole shelf is built in).
fn file_puzzles() -> Vec<&'static PuzzleKind> {
    puzzles::all()
        .iter()
        .filter(|k| k.input == Input::File)
        .collect()
}

fn poke(kind: &PuzzleKind, text: &str) {
    if let Err(e) = (kind.parse)(text) {
        let lines = text.lines().count().max(1);
        assert!(
            e.line <= lines + 1,
            "{}: error on line {} of a {lines}-line text: {}",
            kind.name,
            e.line,
            e.message
        );
        assert!(
            !e.message.contains('\n'),
            "{}: a multi-line error: {}",
            kind.name,
            e.message
        );
    }
    parse_and_poke(kind.parse, text, &options(), 2);
}

#[test]
fn the_registry_has_the_file_puzzles() {
    let names: Vec<&str> = file_puzzles().iter().map(|k| k.name).collect();
    for expected in [
        "sudoku",
        "kakuro",
        "colouring",
        "v3ck",
        "monodot",
        "match22",
        "loop",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        for kind in file_puzzles() {
            poke(kind, &text);
        }
    }

    #[test]
    fn mutated_seeds_never_panic(
        edits in proptest::collection::vec((any::<usize>(), any::<char>(), 0u8..3), 1..6),
    ) {
        for kind in file_puzzles() {
            poke(kind, &mutate(kind.seed, &edits));
        }
    }
}
