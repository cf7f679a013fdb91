//! # Test helpers: every solution, at every all-different level, and damaged inputs
//!
//! For the puzzles' tests only (compiled with `cfg(test)` or the `testing` feature, which the
//! crate's own dev-dependency turns on): enumerate and check every solution, compare the
//! all-different levels (a stronger propagator may prune more, never change the answers),
//! and damage a valid text to see that nothing panics.

use crate::instance::{Answer, Instance, ModelOptions, Parse};
use engine::{AllDiffLevel, SearchConfig};

/// Every solution of `instance` under `options` (up to `limit`, if given), each decoded and
/// run through the puzzle's checker; the flag says whether the search was complete. The
/// puzzles' tests use it to compare answers across all-different levels.
pub fn all_solutions(
    instance: &dyn Instance,
    options: &ModelOptions,
    limit: Option<u64>,
) -> Result<(Vec<Answer>, bool), String> {
    let built = instance.build(options)?;
    let mut model = built.model.clone();
    let config = SearchConfig {
        solution_limit: limit,
        ..built.search.clone()
    };
    let mut answers = Vec::new();
    let mut failed = None;
    let outcome = engine::search(
        &mut model,
        &config,
        &mut engine::search::NoListener,
        &mut |solution| {
            let answer = instance.answer(&built, solution);
            if let Err(e) = instance.check(&answer) {
                failed = Some(format!(
                    "the checker rejects a solution: {e}\n{}",
                    answer.text
                ));
                return engine::Control::Stop;
            }
            answers.push(answer);
            engine::Control::Continue
        },
    );
    match failed {
        Some(e) => Err(e),
        None => Ok((answers, outcome.complete)),
    }
}

/// [`all_solutions`] at each all-different level (value, bounds, domain), which must agree:
/// a stronger propagator may only prune more, never change the answers. Returns the answers
/// of the first level.
pub fn all_solutions_every_level(
    instance: &dyn Instance,
    options: &ModelOptions,
    limit: Option<u64>,
) -> Result<(Vec<Answer>, bool), String> {
    let levels = [
        AllDiffLevel::Value,
        AllDiffLevel::Bounds,
        AllDiffLevel::Domain,
    ];
    all_solutions_at_levels(instance, options, limit, &levels)
}

/// [`all_solutions_every_level`] for the given levels only (the first one is the reference).
pub fn all_solutions_at_levels(
    instance: &dyn Instance,
    options: &ModelOptions,
    limit: Option<u64>,
    levels: &[AllDiffLevel],
) -> Result<(Vec<Answer>, bool), String> {
    let mut first: Option<(Vec<Answer>, bool)> = None;
    for &level in levels {
        let options = ModelOptions {
            alldiff: level,
            ..options.clone()
        };
        let found = all_solutions(instance, &options, limit)?;
        // The order of the solutions may differ between levels; the set must not.
        let sorted = |answers: &[Answer]| {
            let mut v: Vec<String> = answers.iter().map(|a| a.json.to_string()).collect();
            v.sort();
            v
        };
        match &first {
            None => first = Some(found),
            Some(f) => {
                let same = if limit.is_none() {
                    f.1 == found.1 && sorted(&f.0) == sorted(&found.0)
                } else {
                    f.0.len() == found.0.len()
                };
                if !same {
                    return Err(format!(
                        "--alldiff {level} finds {} solutions (complete: {}), --alldiff {} {} (complete: {}), or others",
                        found.0.len(),
                        found.1,
                        levels[0],
                        f.0.len(),
                        f.1
                    ));
                }
            }
        }
    }
    first.ok_or_else(|| "no all-different level given".to_string())
}

/// `text` with `edits` applied, each `(position, character, operation)`: operation 0 inserts
/// the character, 1 deletes, 2 replaces (positions taken modulo the length). The property tests
/// feed it random edits of valid files.
pub fn mutate(text: &str, edits: &[(usize, char, u8)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, c, op) in edits {
        let i = at % (chars.len() + 1);
        match op {
            0 => chars.insert(i, c),
            1 if i < chars.len() => {
                let _ = chars.remove(i);
            }
            _ if i < chars.len() => chars[i] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Parse `text`; for whatever parses, build each instance (at most `max_instances`) under each
/// of `options` and search briefly (200 nodes): any solution found must pass the checker. The
/// property tests call it on random input, where the only thing asserted is "no panic, no
/// wrong answer".
pub fn parse_and_poke(parse: Parse, text: &str, options: &[ModelOptions], max_instances: usize) {
    let Ok(instances) = parse(text) else {
        return;
    };
    for instance in instances.iter().take(max_instances) {
        for o in options {
            let Ok(built) = instance.build(o) else {
                continue;
            };
            let mut model = built.model.clone();
            let config = SearchConfig {
                solution_limit: Some(1),
                limits: engine::Limits {
                    nodes: Some(200),
                    ..Default::default()
                },
                ..built.search.clone()
            };
            if let Some(solution) = engine::solve(&mut model, &config).best {
                let answer = instance.answer(&built, &solution);
                if let Err(e) = instance.check(&answer) {
                    panic!("the checker rejects a solution: {e}\n{}", answer.text);
                }
            }
        }
    }
}
