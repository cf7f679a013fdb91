//! Helpers shared by the puzzle test files (each includes this module with `mod support;`):
//! the seed answers, parsing one instance, the line of a parse error, an answer from JSON;
//! `support::colouring` has the colouring tests' graphs and brute force.

#![allow(dead_code)]

pub(crate) use puzzles::Parse;
use puzzles::{Answer, Instance};
use serde_json::Value;

/// `puzzles/instances/seed/expected.json`: the seed answers, counts and objectives.
pub(crate) fn expected() -> Value {
    serde_json::from_str(include_str!("../../instances/seed/expected.json")).unwrap()
}

/// Parse a text that must hold exactly one instance.
pub(crate) fn parse_one(parse: Parse, text: &str) -> Box<dyn Instance> {
    let mut all = parse(text).expect("parses");
    assert_eq!(all.len(), 1);
    all.remove(0)
}

/// The line of the error a malformed text must give (with a non-empty message).
pub(crate) fn error_line(parse: Parse, text: &str) -> usize {
    match parse(text) {
        Ok(_) => panic!("expected an error for {text:?}"),
        Err(e) => {
            assert!(!e.message.is_empty());
            e.line
        }
    }
}

/// An answer made of a JSON solution only (for checker tests).
pub(crate) fn answer(json: Value) -> Answer {
    Answer {
        json: json.into(),
        text: String::new(),
        objective: None,
    }
}
#[cfg(feature = "portfolio")]
pub(crate) mod colouring;
