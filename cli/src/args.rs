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
//! of `docs/formats.md`: one `error:` line, exit status 2).

use engine::{AllDiffLevel, RestartPolicy};
use puzzles::{PuzzleFlag, SumLevel};
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
    /// `--learn` (`Some(true)`), `--no-learn` (`Some(false)`): learn a nogood from each
    /// failure (`engine/src/learning/`); `None`: the puzzle's default (FlatZinc: no).
    pub learn: Option<bool>,
    /// `--probe` (= `--probe-at root`), `--probe-at off|root|nodes`: where to probe the
    /// cells with few values (`engine/src/search/probing.rs`); `None`: the puzzle's default.
    pub probe: Option<engine::search::probing::ProbeAt>,
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
    /// Every flag given, once each, in the order first given: what [`Options::refused_by`]
    /// checks against [`FLAGS`].
    pub given: Vec<FlagId>,
}

impl Options {
    /// Does the run list several solutions (`-a` or `-n`)?
    pub fn enumerates(&self) -> bool {
        self.all || self.num_solutions.is_some()
    }
}

/// Which commands take a flag: a puzzle, a FlatZinc file, a MiniZinc model. The same
/// table decides what is refused and what the refusal says is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Takes {
    pub puzzle: bool,
    pub flatzinc: bool,
    pub minizinc: bool,
}

/// The puzzles only.
const PUZZLES: Takes = Takes {
    puzzle: true,
    flatzinc: false,
    minizinc: false,
};
/// The puzzles and FlatZinc files.
const FLATZINC_TOO: Takes = Takes {
    puzzle: true,
    flatzinc: true,
    minizinc: false,
};
/// Every command.
const EVERY: Takes = Takes {
    puzzle: true,
    flatzinc: true,
    minizinc: true,
};

/// What a run is: a puzzle, or a model file (`cpsolve model.fzn`, `cpsolve model.mzn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Puzzle,
    FlatZinc,
    MiniZinc,
}

impl Target {
    /// Does a flag that `takes` these commands apply to this target?
    fn accepts(self, takes: Takes) -> bool {
        match self {
            Target::Puzzle => takes.puzzle,
            Target::FlatZinc => takes.flatzinc,
            Target::MiniZinc => takes.minizinc,
        }
    }
}

/// Which flag: what [`parse`] sets for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagId {
    All,
    NumSolutions,
    Stats,
    Parallel,
    Seed,
    TimeLimit,
    Free,
    NoLns,
    Intermediate,
    Verbose,
    Json,
    Count,
    AllDiff,
    Sum,
    Colours,
    Viewpoint,
    Profile,
    Trace,
    Tree,
    Animate,
    ShowDomains,
    Probe,
    Learn,
    NoLearn,
    ProbeAt,
    Explain,
    Var,
    Val,
    Restarts,
    Nodes,
    Failures,
    Help,
    Version,
}

/// One flag: how it is spelt, its value, what it means, and who takes it.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    pub id: FlagId,
    /// Every spelling; `--help` shows the first (and the second, when the first is short).
    pub spellings: &'static [&'static str],
    /// The value's name in `--help` (`N`, `FILE`), empty for a flag without a value.
    pub value: &'static str,
    /// What the value must be, for the error line of a flag given without one.
    pub expects: &'static str,
    pub meaning: &'static str,
    pub takes: Takes,
    /// Set when only some puzzles read it: they declare it in their `KIND`.
    pub puzzle_only: Option<PuzzleFlag>,
}

impl Flag {
    /// The name used in messages: the first spelling.
    pub fn name(&self) -> &'static str {
        self.spellings[0]
    }

    /// The spellings `--help` shows (`-a, --all-solutions`).
    pub fn shown(&self) -> String {
        match self.spellings {
            [short, long, ..] if short.len() == 2 => format!("{short}, {long}"),
            [first, ..] => first.to_string(),
            [] => String::new(),
        }
    }
}

/// A row of [`FLAGS`].
const fn flag(
    id: FlagId,
    spellings: &'static [&'static str],
    value: &'static str,
    expects: &'static str,
    meaning: &'static str,
    takes: Takes,
) -> Flag {
    Flag {
        id,
        spellings,
        value,
        expects,
        meaning,
        takes,
        puzzle_only: None,
    }
}

/// A row of [`FLAGS`] for a flag only some puzzles read.
const fn puzzle_flag(
    id: FlagId,
    spellings: &'static [&'static str],
    value: &'static str,
    expects: &'static str,
    meaning: &'static str,
    which: PuzzleFlag,
) -> Flag {
    Flag {
        puzzle_only: Some(which),
        ..flag(id, spellings, value, expects, meaning, PUZZLES)
    }
}

/// Every flag, in the order of `--help` and docs/cli.md. Parsing, `--help` and the refusal
/// of a flag a command does not take all read this table.
pub const FLAGS: &[Flag] = &[
    flag(
        FlagId::All,
        &["-a", "--all-solutions", "--all"],
        "",
        "",
        "every solution (optimisation puzzles: each improving one)",
        EVERY,
    ),
    flag(
        FlagId::NumSolutions,
        &["-n", "--num-solutions"],
        "N",
        "a number of solutions, N >= 1",
        "up to N solutions",
        EVERY,
    ),
    flag(
        FlagId::Stats,
        &["-s", "--statistics", "--stats"],
        "",
        "",
        "statistics: %%%mzn-stat lines and a table per propagator",
        EVERY,
    ),
    flag(
        FlagId::Parallel,
        &["-p", "--parallel"],
        "N",
        "a number of threads, N >= 1",
        "threads (default: all cores)",
        EVERY,
    ),
    flag(
        FlagId::Seed,
        &["-r", "--random-seed", "--seed"],
        "N",
        "a seed, a whole number",
        "random seed",
        EVERY,
    ),
    flag(
        FlagId::TimeLimit,
        &["-t", "--time-limit"],
        "MS",
        "a time in milliseconds",
        "time limit per instance, in milliseconds",
        EVERY,
    ),
    flag(
        FlagId::Free,
        &["-f", "--free-search"],
        "",
        "",
        "let the engine choose the heuristics (dom/wdeg, restarts)",
        EVERY,
    ),
    flag(
        FlagId::NoLns,
        &["--no-lns"],
        "",
        "",
        "FlatZinc optimisation under -f: branch and bound only, no large neighbourhood search",
        EVERY,
    ),
    flag(
        FlagId::Intermediate,
        &["-i", "--intermediate", "--intermediate-solutions"],
        "",
        "",
        "FlatZinc models: print each improving solution",
        EVERY,
    ),
    flag(
        FlagId::Verbose,
        &["-v", "--verbose"],
        "",
        "",
        "progress on standard error",
        PUZZLES,
    ),
    flag(
        FlagId::Json,
        &["--json"],
        "",
        "",
        "one JSON object per instance per line",
        PUZZLES,
    ),
    flag(
        FlagId::Count,
        &["--count"],
        "",
        "",
        "count the solutions instead of printing them",
        PUZZLES,
    ),
    flag(
        FlagId::AllDiff,
        &["--alldiff"],
        "LEVEL",
        "value, bounds or domain",
        "all-different strength: value, bounds or domain",
        PUZZLES,
    ),
    puzzle_flag(
        FlagId::Sum,
        &["--sum"],
        "LEVEL",
        "bounds or domain",
        "sum strength: bounds or domain",
        PuzzleFlag::Sum,
    ),
    puzzle_flag(
        FlagId::Colours,
        &["--colours", "--colors"],
        "K",
        "a number of colours, K >= 1",
        "graph colouring: at most K colours (satisfaction)",
        PuzzleFlag::Colours,
    ),
    puzzle_flag(
        FlagId::Viewpoint,
        &["--viewpoint"],
        "V",
        "rows, columns or both",
        "pigeonhole: the model by rows, columns or both (channelled)",
        PuzzleFlag::Viewpoint,
    ),
    flag(
        FlagId::Profile,
        &["--profile"],
        "",
        "",
        "measure the time spent in each propagator",
        EVERY,
    ),
    flag(
        FlagId::Trace,
        &["--trace"],
        "FILE",
        "a file name",
        "write the search events to FILE as JSON lines",
        PUZZLES,
    ),
    flag(
        FlagId::Tree,
        &["--tree"],
        "FILE",
        "a file name",
        "draw the search tree to FILE (.svg, or .html to pan and zoom)",
        PUZZLES,
    ),
    flag(
        FlagId::Animate,
        &["--animate"],
        "FILE",
        "a file name",
        "replay the search on the puzzle's picture in the page FILE.html",
        PUZZLES,
    ),
    flag(
        FlagId::ShowDomains,
        &["--show-domains"],
        "",
        "",
        "print the candidates left after root propagation (pencil marks)",
        PUZZLES,
    ),
    flag(
        FlagId::Probe,
        &["--probe"],
        "",
        "",
        "before the search, try each value of the cells with at most 3 and keep what no try refutes",
        PUZZLES,
    ),
    flag(
        FlagId::Learn,
        &["--learn"],
        "",
        "",
        "learn a nogood from each failure and propagate it (lazy clause generation; one thread)",
        EVERY,
    ),
    flag(
        FlagId::NoLearn,
        &["--no-learn"],
        "",
        "",
        "do not learn, where the puzzle learns by default (none does now)",
        PUZZLES,
    ),
    flag(
        FlagId::ProbeAt,
        &["--probe-at"],
        "WHERE",
        "off, root or nodes",
        "where to probe: off, root (= --probe) or nodes (every node); default: the puzzle's",
        PUZZLES,
    ),
    flag(
        FlagId::Explain,
        &["--explain"],
        "CELL",
        "a cell name (r2c3) or a variable number",
        "why each value left CELL (r2c3, or a variable number): propagator and reason",
        FLATZINC_TOO,
    ),
    flag(
        FlagId::Var,
        &["--var"],
        "ORDER",
        "a variable order",
        "branch on variables in this order: input, first-fail or dom-wdeg",
        PUZZLES,
    ),
    flag(
        FlagId::Val,
        &["--val"],
        "ORDER",
        "a value order",
        "try values in this order: min, max, split or random",
        PUZZLES,
    ),
    flag(
        FlagId::Restarts,
        &["--restarts"],
        "POLICY",
        "none, luby or geometric",
        "none, luby or geometric",
        PUZZLES,
    ),
    flag(
        FlagId::Nodes,
        &["--nodes"],
        "N",
        "a number of nodes",
        "stop after N search nodes",
        EVERY,
    ),
    flag(
        FlagId::Failures,
        &["--failures"],
        "N",
        "a number of failures",
        "stop after N failures",
        EVERY,
    ),
    flag(FlagId::Help, &["-h", "--help"], "", "", "this help", EVERY),
    flag(
        FlagId::Version,
        &["-V", "--version"],
        "",
        "",
        "the version",
        EVERY,
    ),
];

/// The row of a flag.
pub fn flag_of(id: FlagId) -> &'static Flag {
    FLAGS
        .iter()
        .find(|f| f.id == id)
        .expect("every flag has a row in FLAGS")
}

/// The flag spelt `spelling`, if there is one.
fn find_flag(spelling: &str) -> Option<&'static Flag> {
    FLAGS.iter().find(|f| f.spellings.contains(&spelling))
}

/// The flags `target` takes, as one line for messages: `-a -n ... --profile`.
pub fn accepted_by(target: Target) -> String {
    FLAGS
        .iter()
        .filter(|f| target.accepts(f.takes) && !matches!(f.id, FlagId::Help | FlagId::Version))
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Options {
    /// The first flag given (in the table's order) that `target` does not take.
    pub fn refused_by(&self, target: Target) -> Option<&'static Flag> {
        FLAGS
            .iter()
            .find(|f| self.given.contains(&f.id) && !target.accepts(f.takes))
    }

    /// The flags given that only some puzzles read, in the table's order, once each.
    pub fn puzzle_only_flags(&self) -> impl Iterator<Item = (&'static Flag, PuzzleFlag)> + '_ {
        FLAGS.iter().filter_map(|f| match f.puzzle_only {
            Some(which) if self.given.contains(&f.id) => Some((f, which)),
            _ => None,
        })
    }
}

/// One word of the command line, as text (invalid UTF-8 replaced) and as given.
type Word = (String, OsString);

/// Parse the words after the program name. `Err` is the one-line message of a usage error.
pub fn parse<S: AsRef<OsStr>>(args: &[S]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut words = args.iter().map(|a| {
        (
            a.as_ref().to_string_lossy().into_owned(),
            a.as_ref().to_os_string(),
        )
    });
    let mut flags_ended = false;
    while let Some((word, word_os)) = words.next() {
        if !flags_ended && word == "--" {
            flags_ended = true;
            continue;
        }
        if flags_ended || word == "-" || !word.starts_with('-') || is_negative_number(&word) {
            if o.command.is_none() {
                o.command = Some(word);
            } else {
                o.operands.push(word);
                o.operands_os.push(word_os);
            }
            continue;
        }
        let (spelling, glued) = split_flag(&word);
        let flag = find_flag(spelling).ok_or_else(|| unknown_flag(&word, spelling))?;
        let value = match (flag.value.is_empty(), glued) {
            (true, None) => None,
            (true, Some(_)) => {
                return Err(format!(
                    "{spelling} takes no value, found {}",
                    puzzles::parse::quoted(&word)
                ))
            }
            (false, Some(v)) => Some((v.to_string(), OsString::from(v))),
            (false, None) => Some(
                words
                    .next()
                    .ok_or_else(|| format!("{spelling} needs a value: {}", flag.expects))?,
            ),
        };
        set(&mut o, flag.id, spelling, value)?;
        if !o.given.contains(&flag.id) {
            o.given.push(flag.id);
        }
    }
    check_combinations(&o)?;
    Ok(o)
}

/// `--flag=value` as (`--flag`, `value`), `-nVALUE` as (`-n`, `VALUE`), else the word alone.
fn split_flag(word: &str) -> (&str, Option<&str>) {
    if let Some(long) = word.strip_prefix("--") {
        match long.split_once('=') {
            Some((name, value)) => (&word[..name.len() + 2], Some(value)),
            None => (word, None),
        }
    } else if word.len() > 2 && word.is_char_boundary(2) {
        (&word[..2], Some(&word[2..]))
    } else {
        (word, None)
    }
}

/// The error line of a word that is no flag, with the nearest spelling when one is close.
fn unknown_flag(word: &str, spelling: &str) -> String {
    let spellings = FLAGS.iter().flat_map(|f| f.spellings.iter().copied());
    let hint = match crate::spelling::closest(spelling, spellings) {
        Some(near) => format!("did you mean '{near}'? "),
        None => String::new(),
    };
    let names: Vec<&str> = FLAGS.iter().map(|f| f.name()).collect();
    format!(
        "unknown flag {} ({hint}expected one of {}; see cpsolve --help)",
        puzzles::parse::quoted(word),
        names.join(" ")
    )
}

/// Record flag `id` (spelt `spelling`, with `value` when it takes one) in `o`.
fn set(o: &mut Options, id: FlagId, spelling: &str, value: Option<Word>) -> Result<(), String> {
    let (text, as_given) = value.unwrap_or_default();
    let parsed = |what: &str, e: String| format!("{what}: {e}");
    match id {
        FlagId::Help => o.help = true,
        FlagId::Version => o.version = true,
        FlagId::All => o.all = true,
        FlagId::Stats => o.stats = true,
        FlagId::Free => o.free = true,
        FlagId::NoLns => o.no_lns = true,
        FlagId::Intermediate => o.intermediate = true,
        FlagId::Verbose => o.verbose = true,
        FlagId::Json => o.json = true,
        FlagId::Count => o.count = true,
        FlagId::Profile => o.profile = true,
        FlagId::ShowDomains => o.show_domains = true,
        FlagId::Learn => o.learn = Some(true),
        FlagId::NoLearn => o.learn = Some(false),
        FlagId::Probe => o.probe = Some(engine::search::probing::ProbeAt::Root),
        FlagId::ProbeAt => o.probe = Some(text.parse().map_err(|e| parsed("--probe-at", e))?),
        FlagId::NumSolutions => o.num_solutions = Some(positive(spelling, &text)?),
        FlagId::Parallel => o.threads = Some(positive(spelling, &text)?.min(1024) as usize),
        FlagId::Seed => o.seed = Some(whole(spelling, &text)?),
        FlagId::TimeLimit => o.time_limit = Some(Duration::from_millis(whole(spelling, &text)?)),
        FlagId::Nodes => o.nodes = Some(whole(spelling, &text)?),
        FlagId::Failures => o.failures = Some(whole(spelling, &text)?),
        FlagId::Colours => {
            let k = positive(spelling, &text)?;
            let too_many = |_| format!("{spelling}: {k} is too many colours");
            o.colours = Some(u32::try_from(k).map_err(too_many)?);
        }
        FlagId::Viewpoint => {
            o.viewpoint = Some(text.parse().map_err(|e| parsed("--viewpoint", e))?)
        }
        FlagId::AllDiff => o.alldiff = Some(text.parse().map_err(|e| parsed("--alldiff", e))?),
        FlagId::Sum => o.sum = Some(text.parse().map_err(|e| parsed("--sum", e))?),
        FlagId::Restarts => o.restarts = Some(text.parse().map_err(|e| parsed("--restarts", e))?),
        FlagId::Var => o.var = Some(crate::heuristics::parse_var(&text)?),
        FlagId::Val => o.val = Some(crate::heuristics::parse_val(&text)?),
        FlagId::Trace => {
            non_empty(spelling, &text, "a file name")?;
            o.trace = Some(PathBuf::from(as_given));
        }
        FlagId::Tree => o.tree = Some(PathBuf::from(non_empty(spelling, &text, "a file name")?)),
        FlagId::Animate => {
            o.animate = Some(PathBuf::from(non_empty(spelling, &text, "a file name")?))
        }
        FlagId::Explain => {
            let what = "a cell name (r2c3) or a variable number";
            o.explain = Some(non_empty(spelling, &text, what)?.to_string());
        }
    }
    Ok(())
}

/// A value that must not be empty (a file name, a cell): the value, or the error line.
fn non_empty<'t>(flag: &str, text: &'t str, what: &str) -> Result<&'t str, String> {
    if text.is_empty() {
        return Err(format!("{flag} needs {what}, found ''"));
    }
    Ok(text)
}

/// Flags that cannot go together.
fn check_combinations(o: &Options) -> Result<(), String> {
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
    Ok(())
}

/// `-5` is a value (a negative number), not a flag; only used to report it as a bad value.
fn is_negative_number(word: &str) -> bool {
    word.len() > 1 && word[1..].bytes().all(|b| b.is_ascii_digit())
}

fn whole(flag: &str, text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "{flag} expects a whole number >= 0, found {}",
            puzzles::parse::quoted(text)
        )
    })
}

fn positive(flag: &str, text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{flag} expects a whole number >= 1, found {}",
            puzzles::parse::quoted(text)
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

    /// One row per flag, no spelling in two rows, and every spelling parses to its row.
    #[test]
    fn the_flag_table_is_consistent() {
        let mut spellings = std::collections::BTreeSet::new();
        for (i, flag) in FLAGS.iter().enumerate() {
            assert!(
                FLAGS[..i].iter().all(|f| f.id != flag.id),
                "{:?} twice",
                flag.id
            );
            assert_eq!(flag_of(flag.id).name(), flag.name());
            assert_eq!(
                flag.value.is_empty(),
                flag.expects.is_empty(),
                "{}",
                flag.name()
            );
            for spelling in flag.spellings {
                assert!(spellings.insert(*spelling), "{spelling} in two rows");
                let mut line = vec!["queens".to_string(), spelling.to_string()];
                if !flag.value.is_empty() {
                    line.push(
                        match flag.id {
                            FlagId::AllDiff => "domain",
                            FlagId::Sum => "bounds",
                            FlagId::Viewpoint => "rows",
                            FlagId::Restarts => "luby",
                            FlagId::Var => "input",
                            FlagId::Val => "min",
                            FlagId::ProbeAt => "nodes",
                            FlagId::Explain => "c1",
                            FlagId::Trace | FlagId::Tree | FlagId::Animate => "f.svg",
                            _ => "3",
                        }
                        .to_string(),
                    );
                }
                let o = parse(&line).unwrap_or_else(|e| panic!("{spelling}: {e}"));
                assert_eq!(o.given, vec![flag.id], "{spelling}");
            }
        }
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
