//! # The command line, word by word
//!
//! `cpsolve <puzzle> [FILE | N] [flags]`. Flags may come anywhere, before or after the puzzle
//! name; a value follows its flag as the next word (`-n 5`), glued to a long flag with `=`
//! (`--time-limit=500`) or to a short one (`-n5`). The word `-` alone is standard input; the
//! word `--` ends the flags (every word after it is a puzzle name, a file or a number, even
//! one that starts with `-`). File names are kept as the operating system gave them
//! ([`OsString`]), so a name that is not UTF-8 still opens.
//!
//! The flags are those of MiniZinc/FlatZinc solvers (`-a -n -s -p -r -t -f -v`, with their
//! MiniZinc long names too) plus cpsolve's own. Parsing is written out by hand rather than with
//! a parser generator so that every mistake gets exactly one line of explanation (the contract
//! of `FORMATS.md`: one `error:` line, exit status 2).

use engine::{AllDiffLevel, RestartPolicy};
use puzzles::SumLevel;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Duration;

/// Everything the user asked for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The first word that is not a flag: a puzzle name, or `tour`.
    pub command: Option<String>,
    /// The words after it that are not flags (FILE, or N for n-queens).
    pub operands: Vec<String>,
    /// The same words exactly as given (a file name need not be UTF-8; `operands` holds
    /// them with any invalid bytes replaced, for messages and numbers).
    pub operands_os: Vec<OsString>,
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
    /// `--no-lns`: FlatZinc optimisation under `-f` without large neighbourhood search.
    pub no_lns: bool,
    /// `-i`: intermediate solutions of an optimisation (FlatZinc models).
    pub intermediate: bool,
    /// `-v`: progress on standard error.
    pub verbose: bool,
    pub json: bool,
    pub count: bool,
    pub alldiff: Option<AllDiffLevel>,
    pub sum: Option<SumLevel>,
    pub colours: Option<u32>,
    /// `--viewpoint rows|columns|both`: the pigeonhole model's viewpoint.
    pub viewpoint: Option<puzzles::Viewpoint>,
    pub profile: bool,
    pub trace: Option<PathBuf>,
    /// `--tree FILE.svg|FILE.html`: draw the search tree (cli/src/tree.rs).
    pub tree: Option<PathBuf>,
    /// `--show-domains`: the candidates after root propagation (cli/src/domains.rs).
    pub show_domains: bool,
    /// `--explain CELL`: why each value left that cell (cli/src/explain.rs).
    pub explain: Option<String>,
    /// `--animate FILE.html`: the search replayed on the puzzle's picture (cli/src/animate.rs).
    pub animate: Option<PathBuf>,
    /// `--var`, `--val`: the search order, instead of the puzzle's (cli/src/heuristics.rs).
    pub var: Option<crate::heuristics::VarOrder>,
    pub val: Option<engine::ValSelect>,
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
        "--no-lns",
        "",
        "FlatZinc optimisation under -f: branch and bound only, no large neighbourhood search",
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
    (
        "--viewpoint",
        "V",
        "pigeonhole: the model by rows, columns or both (channelled)",
    ),
    ("--profile", "", "measure the time spent in each propagator"),
    (
        "--trace",
        "FILE",
        "write the search events to FILE as JSON lines",
    ),
    (
        "--tree",
        "FILE",
        "draw the search tree to FILE (.svg, or .html to pan and zoom)",
    ),
    (
        "--animate",
        "FILE",
        "replay the search on the puzzle's picture in the page FILE.html",
    ),
    (
        "--show-domains",
        "",
        "print the candidates left after root propagation (pencil marks)",
    ),
    (
        "--explain",
        "CELL",
        "why each value left CELL (r2c3, or a variable number): propagator and reason",
    ),
    (
        "--var",
        "ORDER",
        "branch on variables in this order: input, first-fail or dom-wdeg",
    ),
    (
        "--val",
        "ORDER",
        "try values in this order: min, max, split or random",
    ),
    ("--restarts", "POLICY", "none, luby or geometric"),
    ("--nodes", "N", "stop after N search nodes"),
    ("--failures", "N", "stop after N failures"),
    ("-h, --help", "", "this help"),
    ("-V, --version", "", "the version"),
];

/// Parse the words after the program name. `Err` is the one-line message of a usage error.
pub fn parse<S: AsRef<OsStr>>(args: &[S]) -> Result<Options, String> {
    let mut o = Options::default();
    // Each word as text (invalid UTF-8 replaced) and as given.
    let texts: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let mut words = texts.iter().zip(args.iter().map(|a| a.as_ref()));
    let mut flags_ended = false;
    while let Some((word, word_os)) = words.next() {
        if !flags_ended && word == "--" {
            flags_ended = true;
            continue;
        }
        if flags_ended || word == "-" || !word.starts_with('-') || is_negative_number(word) {
            if o.command.is_none() {
                o.command = Some(word.clone());
            } else {
                o.operands.push(word.clone());
                o.operands_os.push(word_os.to_os_string());
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
        // The value as text; `value_as_given` keeps the last one exactly as given (a file name).
        let value_as_given = std::cell::RefCell::new(OsString::new());
        let mut value = |what: &str| -> Result<String, String> {
            let (text, os) = match glued {
                Some(v) => (v.to_string(), OsString::from(v)),
                None => words
                    .next()
                    .map(|(text, os)| (text.clone(), os.to_os_string()))
                    .ok_or_else(|| format!("{flag} needs a value: {what}"))?,
            };
            *value_as_given.borrow_mut() = os;
            Ok(text)
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
            "--no-lns" => takes_no_value(&mut o, |o| o.no_lns = true)?,
            "-i" | "--intermediate" | "--intermediate-solutions" => {
                takes_no_value(&mut o, |o| o.intermediate = true)?
            }
            "-v" | "--verbose" => takes_no_value(&mut o, |o| o.verbose = true)?,
            "--json" => takes_no_value(&mut o, |o| o.json = true)?,
            "--count" => takes_no_value(&mut o, |o| o.count = true)?,
            "--profile" => takes_no_value(&mut o, |o| o.profile = true)?,
            "--show-domains" => takes_no_value(&mut o, |o| o.show_domains = true)?,
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
            "--viewpoint" => {
                o.viewpoint = Some(
                    value("rows, columns or both")?
                        .parse()
                        .map_err(|e| format!("--viewpoint: {e}"))?,
                )
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
                o.trace = Some(PathBuf::from(value_as_given.take()));
            }
            "--var" => o.var = Some(crate::heuristics::parse_var(&value("a variable order")?)?),
            "--val" => o.val = Some(crate::heuristics::parse_val(&value("a value order")?)?),
            "--explain" => {
                let cell = value("a cell name (r2c3) or a variable number")?;
                if cell.is_empty() {
                    return Err("--explain needs a cell name (r2c3) or a variable number, found ''".to_string());
                }
                o.explain = Some(cell);
            }
            "--animate" => {
                let file = value("a file name")?;
                if file.is_empty() {
                    return Err("--animate needs a file name, found ''".to_string());
                }
                o.animate = Some(PathBuf::from(file));
            }
            "--tree" => {
                let file = value("a file name")?;
                if file.is_empty() {
                    return Err("--tree needs a file name, found ''".to_string());
                }
                o.tree = Some(PathBuf::from(file));
            }
            _ => {
                return Err(format!(
                    "unknown flag '{word}' (expected one of -a -n -s -p -r -t -f -v --json --count \
                     --alldiff --sum --colours --viewpoint --profile --trace --tree --animate --show-domains --explain --var --val --restarts --nodes --failures --no-lns; see cpsolve --help)"
                ))
            }
        }
    }
    if o.count && o.enumerates() {
        return Err(
            "--count cannot be combined with -a or -n: it counts instead of listing".into(),
        );
    }
    if o.show_domains && o.json {
        return Err("--show-domains prints text: it cannot be combined with --json".into());
    }
    if o.explain.is_some() && o.json {
        return Err("--explain prints text: it cannot be combined with --json".into());
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
            "pigeonhole --viewpoint diagonal",
        ] {
            let e = parse(&words(bad)).unwrap_err();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
    }
}
