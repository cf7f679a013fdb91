//! Every puzzle of the registry ([`puzzles::all`]) against bad input: random bytes and its
//! own seed with a few characters inserted, deleted or replaced. Nothing may panic; every
//! error is one `LINE: message` (one line, a line number inside the text or 0 for the whole
//! file); whatever parses is prepared, built and searched briefly, and every solution found
//! passes the puzzle's checker. One loop over the registry, so a new puzzle is fuzzed as
//! soon as it is registered.

use engine::rng::Rng;
use engine::{Limits, SearchConfig};
use puzzles::common::mutate;
use puzzles::{ModelOptions, ParseError, Purpose, PuzzleKind};
use std::time::Duration;

/// Inputs tried per puzzle and kind of damage.
const CASES: usize = 200;

/// Instances of one file that are built (a file may hold thousands).
const MAX_INSTANCES: usize = 2;

/// The error of a parse is one line and names a line of the text (or 0: the whole text).
fn assert_one_line(kind: &PuzzleKind, text: &str, error: &ParseError) {
    let lines = text.split('\n').count();
    assert!(
        !error.message.contains('\n') && !error.message.is_empty(),
        "{}: an error of more or less than one line: {error:?} on {text:?}",
        kind.name
    );
    assert!(
        error.line <= lines,
        "{}: line {} of a text of {lines} lines: {error} on {text:?}",
        kind.name,
        error.line
    );
}

/// Parse `text`; build what parses (prepared within a few milliseconds) for one solution
/// and for counting, and search briefly: any solution found must pass the checker.
fn poke(kind: &PuzzleKind, text: &str) {
    let instances = match (kind.parse)(text) {
        Ok(instances) => instances,
        Err(error) => return assert_one_line(kind, text, &error),
    };
    let counting = ModelOptions {
        purpose: Purpose::Count,
        colours: Some(3),
        ..ModelOptions::default()
    };
    for instance in instances.iter().take(MAX_INSTANCES) {
        for options in [ModelOptions::default(), counting.clone()] {
            let limits = Limits::default().with_time(Duration::from_millis(5));
            let Ok(built) = instance.build_prepared(&options, &limits) else {
                continue; // a model error is a usage error, reported by the command line
            };
            let config = SearchConfig {
                solution_limit: Some(1),
                limits: Limits {
                    nodes: Some(200),
                    ..Limits::default()
                },
                ..built.search.clone()
            };
            if let Some(solution) = engine::solve(&mut built.model.clone(), &config).best {
                let answer = instance.answer(&built, &solution);
                if let Err(e) = instance.check(&answer) {
                    panic!(
                        "{}: the checker rejects a solution ({e}) of {text:?}",
                        kind.name
                    );
                }
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(0x5eed_b17e);
    for kind in puzzles::all() {
        for _ in 0..CASES {
            let len = rng.below(200) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            poke(kind, &String::from_utf8_lossy(&bytes));
        }
    }
}

#[test]
fn mutated_seeds_never_panic() {
    let mut rng = Rng::new(0x0dd5_eed5);
    for kind in puzzles::all() {
        // Mostly characters of the seed itself (digits, cell marks, keywords), so that many
        // mutants still parse and reach the model; some from anywhere.
        let own: Vec<char> = kind.seed.chars().chain(['\n', ' ', '9', '0']).collect();
        for _ in 0..CASES {
            let edits: Vec<(usize, char, u8)> = (0..1 + rng.below(5))
                .map(|_| {
                    let c = if rng.below(4) == 0 {
                        char::from_u32(rng.below(0x3000) as u32).unwrap_or('?')
                    } else {
                        own[rng.below(own.len() as u64) as usize]
                    };
                    (rng.below(1 << 16) as usize, c, rng.below(3) as u8)
                })
                .collect();
            poke(kind, &mutate(kind.seed, &edits));
        }
    }
}
