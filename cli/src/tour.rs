//! # `cpsolve tour`: every puzzle's built-in example, solved and shown
//!
//! The registry's order (`puzzles::all()`), each example under a `% === name: summary`
//! header, with the run's flags. A failing example does not stop the tour: the others are
//! still shown, and the first failure is the run's.

use crate::args::Options;
use crate::input::{self, Source};
use crate::progress::Progress;
use crate::{batch, Environment, Failure};
use std::io::{self, Write};
use std::time::Duration;

/// The tour must be quick: no example may hold it up for longer than this, unless `-t` says
/// otherwise.
const EXAMPLE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// `cpsolve tour`.
pub(crate) fn tour(
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
    environment: Environment,
) -> Result<(), Failure> {
    if let Some(extra) = options.operands.first() {
        return Err(Failure::Usage(format!(
            "tour takes no file, found {}",
            puzzles::parse::quoted(extra)
        )));
    }
    // One file per flag, and a search per puzzle: each puzzle would write over the last.
    if let Some(flag) = [
        ("--trace", options.trace.is_some()),
        ("--tree", options.tree.is_some()),
        ("--animate", options.animate.is_some()),
    ]
    .iter()
    .find_map(|(flag, given)| given.then_some(flag))
    {
        return Err(Failure::Usage(format!(
            "{flag} records one search, and tour runs one per puzzle: name the puzzle (cpsolve queens {flag} FILE)"
        )));
    }
    let mut options = options.clone();
    if options.time_limit.is_none() {
        options.time_limit = Some(EXAMPLE_TIME_LIMIT);
    }
    let mut progress = options
        .verbose
        .then(|| Progress::new(environment.stderr_is_terminal, err, puzzles::all().len()));
    let mut first_failure = None;
    for kind in puzzles::all() {
        if !options.json {
            writeln!(out, "% === {}: {}", kind.name, kind.summary)?;
        }
        let result = input::load(kind, &Source::Seed, &mut io::empty())
            .map_err(Failure::Input)
            .and_then(|instances| {
                // Each example counts its own -t.
                batch::solve_all(kind, &instances, &options, out, progress.as_mut(), None)
            });
        if !options.json {
            writeln!(out)?;
        }
        match result {
            Ok(()) => {}
            Err(Failure::Io(e)) => return Err(Failure::Io(e)),
            Err(f) => {
                // Go on with the other puzzles; report the first failure at the end.
                first_failure.get_or_insert(f);
            }
        }
    }
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    match first_failure {
        None => Ok(()),
        Some(f) => Err(f),
    }
}
