//! Every puzzle's parser and model against bad input, through the registry: a new puzzle gets
//! these tests by being listed in `puzzles::all()`.
//!
//! For random bytes, for the puzzle's own seed instance with a few characters inserted,
//! deleted or replaced, and for two grammar-aware generators (the seed's tokens mutated:
//! numbers swapped for extreme ones, tokens and lines doubled, dropped or swapped; and new
//! grids written in the seed's own alphabet and near its shape): parsing never panics; an error names a line of the text (at most the
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

/// Numbers a careless or hostile file would hold in place of a valid one.
const HOSTILE_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "99",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "99999999999999999999",
];

/// `text` as tokens: runs of digits (with a leading `-`), runs of other non-blank
/// characters, and the blanks between them, so that the pieces join back into `text`.
fn tokens(text: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_ascii_digit() || c == '-' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    let mut out: Vec<String> = Vec::new();
    let mut last = None;
    for c in text.chars() {
        let k = class(c);
        match out.last_mut() {
            Some(piece) if last == Some(k) && k != 1 => piece.push(c),
            _ => out.push(c.to_string()),
        }
        last = Some(k);
    }
    out
}

/// One edit of the token list: (position, what, which hostile number). `what`: 0 replaces a
/// number by a hostile one, 1 doubles a token, 2 drops one, 3 swaps two neighbours, 4
/// doubles a line, 5 drops a line, 6 swaps two lines.
type TokenEdit = (usize, u8, usize);

fn mutate_tokens(seed: &str, edits: &[TokenEdit]) -> String {
    let mut pieces = tokens(seed);
    for &(at, what, which) in edits {
        if pieces.is_empty() {
            break;
        }
        let i = at % pieces.len();
        match what {
            0 => {
                // The first number at or after `i` (wrapping), if there is one.
                let n = pieces.len();
                if let Some(j) = (0..n)
                    .map(|k| (i + k) % n)
                    .find(|&j| pieces[j].chars().any(|c| c.is_ascii_digit()))
                {
                    pieces[j] = HOSTILE_NUMBERS[which % HOSTILE_NUMBERS.len()].to_string();
                }
            }
            1 => pieces.insert(i, pieces[i].clone()),
            2 => {
                pieces.remove(i);
            }
            3 if i + 1 < pieces.len() => pieces.swap(i, i + 1),
            _ => {
                let joined = pieces.concat();
                let mut lines: Vec<&str> = joined.lines().collect();
                if lines.is_empty() {
                    continue;
                }
                let l = at % lines.len();
                match what {
                    4 => lines.insert(l, lines[l]),
                    5 => {
                        lines.remove(l);
                    }
                    _ => {
                        let m = which % lines.len();
                        lines.swap(l, m);
                    }
                }
                pieces = tokens(&lines.join("\n"));
            }
        }
    }
    pieces.concat()
}

/// A new text in the seed's own alphabet and near its shape: as many lines as the seed,
/// give or take two, each as long as a line of the seed, give or take two, its characters
/// drawn from the seed's. `choices` drives every draw.
fn grid_like(seed: &str, choices: &[u16]) -> String {
    let mut alphabet: Vec<char> = seed.chars().filter(|c| *c != '\n').collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    let lengths: Vec<usize> = seed.lines().map(|l| l.chars().count()).collect();
    if alphabet.is_empty() || lengths.is_empty() {
        return String::new();
    }
    let mut next = choices.iter().cycle().map(|&c| c as usize);
    let mut draw = |n: usize| next.next().unwrap_or(0) % n.max(1);
    let rows = (lengths.len() + draw(5)).saturating_sub(2).max(1);
    let mut text = String::new();
    for r in 0..rows {
        let len = (lengths[r % lengths.len()] + draw(5)).saturating_sub(2);
        for _ in 0..len {
            text.push(alphabet[draw(alphabet.len())]);
        }
        text.push('\n');
    }
    text
}

proptest! {
    // A small fixed budget (a few seconds for all the puzzles) in CI.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn token_mutations_of_the_seeds_never_panic(
        edits in proptest::collection::vec((any::<usize>(), 0u8..7, any::<usize>()), 1..5),
    ) {
        for kind in file_puzzles() {
            poke(kind, &mutate_tokens(kind.seed, &edits));
        }
    }

    #[test]
    fn grids_in_the_seeds_alphabet_never_panic(
        choices in proptest::collection::vec(any::<u16>(), 1..64),
    ) {
        for kind in file_puzzles() {
            poke(kind, &grid_like(kind.seed, &choices));
        }
    }
}

#[test]
fn the_token_mutations_reach_numbers_and_lines() {
    let seed = "size 3\n1 2 3\nrow: -4\n";
    assert_eq!(tokens(seed).concat(), seed);
    let hostile = mutate_tokens(seed, &[(0, 0, 6)]);
    assert_eq!(hostile, "size 2147483647\n1 2 3\nrow: -4\n");
    assert_eq!(mutate_tokens(seed, &[(0, 5, 0)]), "1 2 3\nrow: -4");
    let grid = grid_like("ab\ncd\n", &[2, 2, 0, 1, 2, 3, 2, 4]);
    assert!(grid.lines().count() == 2 && grid.chars().all(|c| "abcd\n".contains(c)));
}
