//! The registry (`puzzles::all()`): one `KIND` per puzzle says everything the command line
//! needs, so these checks hold for a puzzle registered tomorrow without a change here.

use puzzles::{Input, PuzzleFlag, PuzzleKind};
use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn names_and_aliases_are_unique_and_found() {
    let mut seen = BTreeSet::new();
    for kind in puzzles::all() {
        for name in std::iter::once(kind.name).chain(kind.aliases.iter().copied()) {
            assert!(seen.insert(name), "{name} names two puzzles");
            let found = puzzles::find(name).expect("every name and alias is found");
            assert_eq!(found.name, kind.name, "{name}");
        }
    }
    assert!(puzzles::find("sudokku").is_none());
    assert_eq!(puzzles::find("binary-sudoku").unwrap().name, "takuzu");
}

/// Where a seed comes from is declared next to it, and the file holds exactly that text.
#[test]
fn every_seed_file_exists_and_holds_the_seed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for kind in puzzles::all() {
        match (kind.seed_file, kind.input) {
            (Some(file), _) => {
                let text = std::fs::read_to_string(root.join(file))
                    .unwrap_or_else(|e| panic!("{}: {file}: {e}", kind.name));
                assert_eq!(text, kind.seed, "{}: {file} is not the seed", kind.name);
            }
            (None, Input::File) => panic!("{}: a file puzzle names its seed file", kind.name),
            (None, _) => {}
        }
    }
}

/// The page `cpsolve help NAME` names exists.
#[test]
fn every_page_exists() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for kind in puzzles::all() {
        if let Some(page) = kind.page {
            assert!(repository.join(page).is_file(), "{}: {page}", kind.name);
        }
    }
}

/// Every seed parses, and builds under the puzzle's own defaults.
#[test]
fn every_seed_builds_with_its_defaults() {
    for kind in puzzles::all() {
        let instances = (kind.parse)(kind.seed).unwrap_or_else(|e| panic!("{}: {e}", kind.name));
        assert!(!instances.is_empty(), "{}", kind.name);
        let options = puzzles::ModelOptions {
            alldiff: kind.defaults.alldiff,
            sum: kind.defaults.sum,
            ..Default::default()
        };
        instances[0]
            .build(&options)
            .unwrap_or_else(|e| panic!("{}: {e}", kind.name));
    }
}

/// The puzzle-only flags are declared by the puzzles that read them (the command line warns
/// for the others): each is read by some puzzle, and the known owners declare theirs.
#[test]
fn puzzle_only_flags_are_declared_by_their_readers() {
    let takes = |flag: PuzzleFlag| -> Vec<&str> {
        puzzles::all()
            .iter()
            .filter(|k| k.takes(flag))
            .map(|k: &PuzzleKind| k.name)
            .collect()
    };
    assert_eq!(takes(PuzzleFlag::Colours), ["colouring"]);
    assert_eq!(takes(PuzzleFlag::Viewpoint), ["pigeonhole"]);
    assert_eq!(takes(PuzzleFlag::Sum), ["kakuro"]);
    for flag in PuzzleFlag::ALL {
        assert!(flag.spelling().starts_with("--"));
    }
}
