//! # The command line, word by word
//!
//! `cpsolve <puzzle> [FILE | N] [flags]`. Flags may come anywhere, before or after the puzzle
//! name; a value follows its flag as the next word (`-n 5`), glued to a long flag with `=`
//! (`--time-limit=500`) or to a short one (`-n5`). The word `-` alone is standard input.
//!
//! The flags are those of MiniZinc/FlatZinc solvers (`-a -n -s -p -r -t -f -v`, with their
//! MiniZinc long names too) plus cpsolve's own. Parsing is written out by hand rather than with
//! a parser generator so that every mistake gets exactly one line of explanation (the contract
//! of `FORMATS.md`: one `error:` line, exit status 2).

use engine::{AllDiffLevel, RestartPolicy};
use puzzles::SumLevel;
use std::path::PathBuf;
use std::time::Duration;

/// Everything the user asked for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The first word that is not a flag: a puzzle name, or `tour`.
    pub command: Option<String>,
    /// The words after it that are not flags (FILE, or N for n-queens).
    pub operands: Vec<String>,
    pub help: bool,
    pub version: bool,
    /// `-a`: every solution (optimisation: every improving one).
    pub all: bool,
    /// `-n N`: up to N solutions.
    pub num_solutions: Option<u64>,
    /// `-s`: statistics.
    pub stats: bool,
    /// `-p N`: threads (`None`: all cores).
    pub threads: Option<usize>,
    /// `-r N`: random seed.
    pub seed: Option<u64>,
    /// `-t MS`: time limit per instance.
    pub time_limit: Option<Duration>,
    /// `-f`: free search.
    pub free: bool,
    /// `-i`: intermediate solutions of an optimisation (FlatZinc models).
    pub intermediate: bool,
    /// `-v`: progress on standard error.
    pub verbose: bool,
    pub json: bool,
    pub count: bool,
    pub alldiff: Option<AllDiffLevel>,
    pub sum: Option<SumLevel>,
    pub colours: Option<u32>,
    pub profile: bool,
    pub trace: Option<PathBuf>,
    pub restarts: Option<RestartPolicy>,
    pub nodes: Option<u64>,
    pub failures: Option<u64>,
}

impl Options {
    /// Does the run list several solutions (`-a` or `-n`)?
    pub fn enumerates(&self) -> bool {
        self.all || self.num_solutions.is_some()
    }
}

/// The flags, for `--help` and docs/cli.md: (spellings, value, meaning).
pub const FLAGS: &[(&str, &str, &str)] = &[
    (
        "-a, --all-solutions",
        "",
        "every solution (optimisation puzzles: each improving one)",
    ),
    ("-n, --num-solutions", "N", "up to N solutions"),
    (
        "-s, --statistics",
        "",
        "statistics: %%%mzn-stat lines and a table per propagator",
    ),
    ("-p, --parallel", "N", "threads (default: all cores)"),
    ("-r, --random-seed", "N", "random seed"),
    (
        "-t, --time-limit",
        "MS",
        "time limit per instance, in milliseconds",
    ),
    (
        "-f, --free-search",
        "",
        "let the engine choose the heuristics (dom/wdeg, restarts)",
    ),
    (
        "-i, --intermediate",
        "",
        "FlatZinc models: print each improving solution",
    ),
    ("-v, --verbose", "", "progress on standard error"),
    ("--json", "", "one JSON object per instance per line"),
    (
        "--count",
        "",
        "count the solutions instead of printing them",
    ),
    (
        "--alldiff",
        "LEVEL",
        "all-different strength: value, bounds or domain",
    ),
    ("--sum", "LEVEL", "sum strength: bounds or domain"),
    (
        "--colours",
        "K",
        "graph colouring: at most K colours (satisfaction)",
    ),
    ("--profile", "", "measure the time spent in each propagator"),
    (
        "--trace",
        "FILE",
        "write the search events to FILE as JSON lines",
    ),
    ("--restarts", "POLICY", "none, luby or geometric"),
    ("--nodes", "N", "stop after N search nodes"),
    ("--failures", "N", "stop after N failures"),
    ("-h, --help", "", "this help"),
    ("-V, --version", "", "the version"),
];

/// Parse the words after the program name. `Err` is the one-line message of a usage error.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "-" || !word.starts_with('-') || is_negative_number(word) {
            if o.command.is_none() {
                o.command = Some(word.clone());
            } else {
                o.operands.push(word.clone());
            }
            continue;
        }
        // Split `--flag=value` and `-nVALUE`.
        let (flag, glued): (&str, Option<&str>) = if let Some(long) = word.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, value)) => (&word[..name.len() + 2], Some(value)),
                None => (word.as_str(), None),
            }
        } else if word.len() > 2 && word.is_char_boundary(2) {
            (&word[..2], Some(&word[2..]))
        } else {
            (word.as_str(), None)
        };
        let mut value = |what: &str| -> Result<String, String> {
            match glued {
                Some(v) => Ok(v.to_string()),
                None => words
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value: {what}")),
            }
        };
        let takes_no_value = |o: &mut Options, set: fn(&mut Options)| -> Result<(), String> {
            if glued.is_some() {
                return Err(format!("{flag} takes no value, found '{word}'"));
            }
            set(o);
            Ok(())
        };
        match flag {
            "-h" | "--help" => takes_no_value(&mut o, |o| o.help = true)?,
            "-V" | "--version" => takes_no_value(&mut o, |o| o.version = true)?,
            "-a" | "--all-solutions" | "--all" => takes_no_value(&mut o, |o| o.all = true)?,
            "-s" | "--statistics" | "--stats" => takes_no_value(&mut o, |o| o.stats = true)?,
            "-f" | "--free-search" => takes_no_value(&mut o, |o| o.free = true)?,
            "-i" | "--intermediate" | "--intermediate-solutions" => {
                takes_no_value(&mut o, |o| o.intermediate = true)?
            }
            "-v" | "--verbose" => takes_no_value(&mut o, |o| o.verbose = true)?,
            "--json" => takes_no_value(&mut o, |o| o.json = true)?,
            "--count" => takes_no_value(&mut o, |o| o.count = true)?,
            "--profile" => takes_no_value(&mut o, |o| o.profile = true)?,
            "-n" | "--num-solutions" => {
                o.num_solutions = Some(positive(flag, &value("a number of solutions, N >= 1")?)?)
            }
            "-p" | "--parallel" => {
                let n = positive(flag, &value("a number of threads, N >= 1")?)?;
                o.threads = Some(n.min(1024) as usize);
            }
            "-r" | "--random-seed" | "--seed" => {
                o.seed = Some(whole(flag, &value("a seed, a whole number")?)?)
            }
            "-t" | "--time-limit" => {
                let ms = whole(flag, &value("a time in milliseconds")?)?;
                o.time_limit = Some(Duration::from_millis(ms));
            }
            "--nodes" => o.nodes = Some(whole(flag, &value("a number of nodes")?)?),
            "--failures" => o.failures = Some(whole(flag, &value("a number of failures")?)?),
            "--colours" | "--colors" => {
                let k = positive(flag, &value("a number of colours, K >= 1")?)?;
                o.colours = Some(u32::try_from(k).map_err(|_| format!("{flag}: {k} is too many colours"))?);
            }
            "--alldiff" => {
                o.alldiff = Some(
                    value("value, bounds or domain")?
                        .parse()
                        .map_err(|e| format!("--alldiff: {e}"))?,
                )
            }
            "--sum" => {
                o.sum = Some(
                    value("bounds or domain")?
                        .parse()
                        .map_err(|e| format!("--sum: {e}"))?,
                )
            }
            "--restarts" => {
                o.restarts = Some(
                    value("none, luby or geometric")?
                        .parse()
                        .map_err(|e| format!("--restarts: {e}"))?,
                )
            }
            "--trace" => {
                let file = value("a file name")?;
                if file.is_empty() {
                    return Err("--trace needs a file name, found ''".to_string());
                }
                o.trace = Some(PathBuf::from(file));
            }
            _ => {
                return Err(format!(
                    "unknown flag '{word}' (expected one of -a -n -s -p -r -t -f -v --json --count \
                     --alldiff --sum --colours --profile --trace --restarts --nodes --failures; see cpsolve --help)"
                ))
            }
        }
    }
    if o.count && o.enumerates() {
        return Err(
            "--count cannot be combined with -a or -n: it counts instead of listing".into(),
        );
    }
    if o.count && !matches!(o.restarts, None | Some(RestartPolicy::Never)) {
        return Err(
            "--restarts cannot be combined with --count: a restarted search would count solutions twice"
                .into(),
        );
    }
    Ok(o)
}

/// `-5` is a value (a negative number), not a flag; only used to report it as a bad value.
fn is_negative_number(word: &str) -> bool {
    word.len() > 1 && word[1..].bytes().all(|b| b.is_ascii_digit())
}

fn whole(flag: &str, text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("{flag} expects a whole number >= 0, found '{text}'"))
}

fn positive(flag: &str, text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{flag} expects a whole number >= 1, found '{text}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_anywhere_and_glued_values() {
        let o = parse(&words("-s sudoku x.txt -n3 --time-limit=250 -p 2 --json")).unwrap();
        assert_eq!(o.command.as_deref(), Some("sudoku"));
        assert_eq!(o.operands, vec!["x.txt"]);
        assert!(o.stats && o.json);
        assert_eq!(o.num_solutions, Some(3));
        assert_eq!(o.time_limit, Some(Duration::from_millis(250)));
        assert_eq!(o.threads, Some(2));
    }

    #[test]
    fn bad_values_and_unknown_flags_are_one_line_errors() {
        for bad in [
            "queens -n 0",
            "queens -n x",
            "queens -p",
            "queens -t -5",
            "queens --what",
            "queens --alldiff strong",
            "queens --count -a",
            "queens --json=yes",
            "queens --restarts luby --count",
        ] {
            let e = parse(&words(bad)).unwrap_err();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
    }
}
