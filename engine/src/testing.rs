//! # The exhaustive propagator test harness
//!
//! How do we know a propagator is right? On small domains we can simply *enumerate every
//! assignment* and compare with what the propagator did. For a constraint given as a plain
//! predicate `check(&[i32]) -> bool`, [`check_propagator`] draws many random small domains
//! (sizes 1 to 5, arity as asked) and asserts:
//!
//! 1. **soundness** — no solution is ever removed: every tuple of the initial domains that
//!    satisfies `check` is still inside the pruned domains (and propagation does not fail
//!    when a solution exists);
//! 2. **checking** — once every variable is fixed, propagation fails exactly on the tuples
//!    that violate `check`;
//! 3. **strength** — the consistency the propagator claims is reached: for
//!    [`Consistency::Domain`] every value left has a support (a solution using it within the
//!    current domains); for [`Consistency::Bounds`] each variable's min and max have a support
//!    within the intervals `min..=max` of the others (bounds(Z) consistency);
//! 4. **incremental = reference** — after random further prunings (as the search makes), the
//!    incremental path (`notify` + `propagate`) reaches the same domains as the engine's
//!    first run on a fresh copy, and as the stateless `propagate_from_scratch` alone, run
//!    to its fixpoint; and they remain sound;
//! 5. **backtracking** — after the prunings are undone, the domains are restored exactly;
//! 6. **fixpoint** — already at the root, the engine's first run leaves what the stateless
//!    reference leaves (4 asks it after each pruning): propagating twice changes nothing.
//!
//! This follows Gecode's and MiniCP's practice of testing every propagator against brute
//! force; it is `pub` so that every propagator's tests, in this crate or another, use it.
//!
//! [`check_explanations`] does the same for learning: every reason a propagator gives
//! (`Propagator::explain`, `explain_failure`) must hold before the run and imply its atom
//! with the constraint, over a whole universe box (`docs/propagators/explanations.md`).

use crate::atom::Atom;
use crate::domain::Domain;
use crate::model::Model;
use crate::propagator::{Propagator, RootDomains};
use crate::rng::Rng;
use crate::search::Outcome;
use crate::store::VarId;

/// The consistency a propagator claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consistency {
    /// Sound and checking only (e.g. forward checking).
    Checking,
    /// Bounds(Z): min and max of each variable have a support in the others' intervals.
    Bounds,
    /// Domain (generalised arc) consistency: every value has a support.
    Domain,
}

/// How to draw the random cases.
#[derive(Clone, Debug)]
pub struct HarnessConfig {
    /// Number of variables.
    pub arity: usize,
    /// Values are drawn from `lo..=hi`.
    pub lo: i32,
    pub hi: i32,
    /// Largest initial domain size (at most 5 keeps enumeration fast).
    pub max_size: usize,
    /// Random cases to run.
    pub trials: usize,
    /// Random prunings applied after the first fixpoint, per case.
    pub steps: usize,
    pub seed: u64,
    pub consistency: Consistency,
    /// Give every variable an interval domain (the representation of spans over
    /// `BITSET_MAX_SPAN`, see `domain/interval.rs`) holding the drawn values, instead of a
    /// bitset: for propagators that must work on the wide domains of MiniZinc models.
    pub interval_domains: bool,
    /// The ranges the first variables' values are drawn from instead of `lo..=hi`, one per
    /// variable (an element's index among values of another scale). Empty: all from `lo..=hi`.
    pub first_ranges: Vec<(i32, i32)>,
}

impl HarnessConfig {
    pub fn new(arity: usize, lo: i32, hi: i32, consistency: Consistency) -> HarnessConfig {
        HarnessConfig {
            arity,
            lo,
            hi,
            max_size: 5,
            trials: 300,
            steps: 4,
            seed: 1,
            consistency,
            interval_domains: false,
            first_ranges: Vec::new(),
        }
    }
}

/// Every tuple of `domains` for which `check` holds: the brute force every propagator
/// test compares with (also used by the tests that count solutions of small models).
pub fn solutions(domains: &[Vec<i32>], check: &dyn Fn(&[i32]) -> bool) -> Vec<Vec<i32>> {
    let mut out = Vec::new();
    let mut tuple = vec![0; domains.len()];
    fn rec(
        i: usize,
        domains: &[Vec<i32>],
        tuple: &mut Vec<i32>,
        check: &dyn Fn(&[i32]) -> bool,
        out: &mut Vec<Vec<i32>>,
    ) {
        if i == domains.len() {
            if check(tuple) {
                out.push(tuple.clone());
            }
            return;
        }
        for &v in &domains[i] {
            tuple[i] = v;
            rec(i + 1, domains, tuple, check, out);
        }
    }
    rec(0, domains, &mut tuple, check, &mut out);
    out
}

fn domains_of(m: &Model, xs: &[VarId]) -> Vec<Vec<i32>> {
    xs.iter()
        .map(|&x| m.store.domain(x).iter().collect())
        .collect()
}

/// The domain holding `values`, as an interval domain if `interval` (a wide interval cut
/// down to them), else as a bitset.
fn domain_of(values: &[i32], interval: bool) -> Domain {
    if !interval {
        return Domain::from_values(values);
    }
    let (lo, hi) = (values[0], values[values.len() - 1]);
    let mut d = if lo as i64 + crate::domain::BITSET_MAX_SPAN <= crate::domain::MAX_VALUE as i64 {
        Domain::interval(lo, lo + crate::domain::BITSET_MAX_SPAN as i32)
    } else {
        Domain::interval(hi - crate::domain::BITSET_MAX_SPAN as i32, hi)
    };
    d.remove_below(lo).unwrap();
    d.remove_above(hi).unwrap();
    d.retain(|v| values.binary_search(&v).is_ok()).unwrap();
    debug_assert!(d.is_interval());
    d
}

fn build(
    domains: &[Vec<i32>],
    interval: bool,
    make: &dyn Fn(&[VarId]) -> Box<dyn Propagator>,
) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs: Vec<VarId> = domains
        .iter()
        .map(|d| m.store.new_var(domain_of(d, interval)))
        .collect();
    m.post(make(&xs));
    (m, xs)
}

/// Assert soundness of `after` (None = failed) with respect to the solutions in `before`.
fn assert_sound(
    name: &str,
    before: &[Vec<i32>],
    after: Option<&[Vec<i32>]>,
    check: &dyn Fn(&[i32]) -> bool,
) {
    let sols = solutions(before, check);
    match after {
        None => assert!(
            sols.is_empty(),
            "{name}: failed on {before:?} which has solution {:?}",
            sols[0]
        ),
        Some(after) => {
            for s in &sols {
                for (i, v) in s.iter().enumerate() {
                    assert!(after[i].contains(v), "{name}: removed {v} from x{i}, needed by solution {s:?}; before {before:?}, after {after:?}");
                }
            }
        }
    }
}

/// Assert the claimed consistency of `after` (already known sound and not failed).
fn assert_strength(
    name: &str,
    after: &[Vec<i32>],
    check: &dyn Fn(&[i32]) -> bool,
    consistency: Consistency,
) {
    match consistency {
        Consistency::Checking => {}
        Consistency::Domain => {
            let sols = solutions(after, check);
            for (i, d) in after.iter().enumerate() {
                for v in d {
                    assert!(
                        sols.iter().any(|s| s[i] == *v),
                        "{name}: value {v} of x{i} has no support in {after:?}"
                    );
                }
            }
        }
        Consistency::Bounds => {
            let hull: Vec<Vec<i32>> = after
                .iter()
                .map(|d| (*d.iter().min().unwrap()..=*d.iter().max().unwrap()).collect())
                .collect();
            let sols = solutions(&hull, check);
            for (i, d) in after.iter().enumerate() {
                for v in [d.iter().min().unwrap(), d.iter().max().unwrap()] {
                    assert!(
                        sols.iter().any(|s| s[i] == *v),
                        "{name}: bound {v} of x{i} has no support in the intervals of {after:?}"
                    );
                }
            }
        }
    }
}

/// 6. The root's propagation ends at a fixpoint: it leaves what the stateless
/// `propagate_from_scratch`, run again and again until nothing changes, leaves (a propagator
/// that stops short of its fixpoint must schedule itself again). Propagating twice
/// changes nothing.
fn assert_root_fixpoint(
    name: &str,
    initial: &[Vec<i32>],
    after: &[Vec<i32>],
    interval: bool,
    make: &dyn Fn(&[VarId]) -> Box<dyn Propagator>,
) {
    let (mut reference, rxs) = build(initial, interval, make);
    let oracle = reference
        .propagation
        .reference_fixpoint(&mut reference.store);
    let oracle_doms = oracle.is_ok().then(|| domains_of(&reference, &rxs));
    assert_eq!(
        Some(after),
        oracle_doms.as_deref(),
        "{name}: the root's propagation stopped short of the fixpoint, from {initial:?}"
    );
}

/// Every solution of `m` found by the default search, as the values of `xs`, sorted: what a
/// test compares with [`solutions`]' brute force or with another search's list.
pub fn search_solutions(m: &mut Model, xs: &[VarId]) -> Vec<Vec<i32>> {
    let mut found = Vec::new();
    crate::search(
        m,
        &crate::SearchConfig::default(),
        &mut crate::search::NoListener,
        &mut |s| {
            found.push(xs.iter().map(|&x| s.value(x)).collect());
            crate::Control::Continue
        },
    );
    found.sort();
    found
}

/// Run the whole harness (see the module documentation) on a propagator built by `make` for
/// the constraint `check`. Panics with a description of the first case that goes wrong.
pub fn check_propagator(
    name: &str,
    cfg: &HarnessConfig,
    check: &dyn Fn(&[i32]) -> bool,
    make: &dyn Fn(&[VarId]) -> Box<dyn Propagator>,
) {
    let mut rng = Rng::new(cfg.seed);
    for _ in 0..cfg.trials {
        // Random initial domains.
        let initial: Vec<Vec<i32>> = (0..cfg.arity)
            .map(|i| {
                let (lo, hi) = cfg.first_ranges.get(i).copied().unwrap_or((cfg.lo, cfg.hi));
                let span = (hi as i64 - lo as i64 + 1) as u64;
                let size = 1 + rng.below(cfg.max_size.min(span as usize) as u64) as usize;
                let mut d: Vec<i32> = Vec::new();
                while d.len() < size {
                    let v = (lo as i64 + rng.below(span) as i64) as i32;
                    if !d.contains(&v) {
                        d.push(v);
                    }
                }
                d.sort();
                d
            })
            .collect();

        // 2. Fixed tuples: rejected exactly when `check` is false.
        for t in solutions(&initial, &|_| true).into_iter().take(64) {
            let doms: Vec<Vec<i32>> = t.iter().map(|&v| vec![v]).collect();
            let (mut m, _) = build(&doms, cfg.interval_domains, make);
            let ok = m.propagate().is_ok();
            assert_eq!(
                ok,
                check(&t),
                "{name}: fixed tuple {t:?} {} but check says {}",
                if ok { "accepted" } else { "rejected" },
                check(&t)
            );
        }

        // 1 and 3 at the root.
        let (mut m, xs) = build(&initial, cfg.interval_domains, make);
        let result = m.propagate();
        let after = result.is_ok().then(|| domains_of(&m, &xs));
        assert_sound(name, &initial, after.as_deref(), check);
        let Some(after) = after else { continue };
        assert_strength(name, &after, check, cfg.consistency);
        assert_root_fixpoint(name, &initial, &after, cfg.interval_domains, make);

        // 4 and 5: random prunings, incremental vs from scratch, then undo.
        let mut saved = vec![after];
        for _ in 0..cfg.steps {
            let current = saved.last().unwrap().clone();
            let free: Vec<usize> = (0..xs.len()).filter(|&i| current[i].len() > 1).collect();
            if free.is_empty() {
                break;
            }
            let i = free[rng.below(free.len() as u64) as usize];
            let v = current[i][rng.below(current[i].len() as u64) as usize];
            let fix = rng.below(2) == 0;
            m.store.push_level();
            let _ = if fix {
                m.store.fix(xs[i], v)
            } else {
                m.store.remove(xs[i], v)
            };
            let pruned = domains_of(&m, &xs);
            let inc = m.propagate();
            let inc_doms = inc.is_ok().then(|| domains_of(&m, &xs));
            assert_sound(name, &pruned, inc_doms.as_deref(), check);

            let (mut fresh, fxs) = build(&pruned, cfg.interval_domains, make);
            let scratch = fresh.propagate();
            let scratch_doms = scratch.is_ok().then(|| domains_of(&fresh, &fxs));
            assert_eq!(
                inc_doms, scratch_doms,
                "{name}: incremental and from-scratch propagation differ after {} {v} on x{i}, from {current:?}",
                if fix { "fixing to" } else { "removing" }
            );
            let (mut reference, rxs) = build(&pruned, cfg.interval_domains, make);
            let oracle = reference
                .propagation
                .reference_fixpoint(&mut reference.store);
            let oracle_doms = oracle.is_ok().then(|| domains_of(&reference, &rxs));
            assert_eq!(
                inc_doms, oracle_doms,
                "{name}: the engine's runs and the stateless reference differ after {} {v} on x{i}, from {current:?}",
                if fix { "fixing to" } else { "removing" }
            );
            match inc_doms {
                Some(d) => {
                    assert_strength(name, &d, check, cfg.consistency);
                    saved.push(d);
                }
                None => {
                    // Undo the failed step and carry on from the same node with another
                    // pruning: the propagator must not keep anything from the failed run.
                    m.store.pop_level();
                    assert_eq!(
                        &domains_of(&m, &xs),
                        saved.last().unwrap(),
                        "{name}: backtracking did not restore the domains"
                    );
                }
            }
        }
        while m.store.level() > 0 {
            m.store.pop_level();
            saved.pop();
            assert_eq!(
                &domains_of(&m, &xs),
                saved.last().unwrap(),
                "{name}: backtracking did not restore the domains"
            );
        }
    }
}

/// For a rule or a heuristic that claims to save search: two complete counts of the same
/// problem, `fewer` with it and `more` without, agree on `solutions`, and `fewer` took
/// fewer nodes. `what` names the two in the message.
pub fn assert_same_count_fewer_nodes(fewer: &Outcome, more: &Outcome, solutions: u64, what: &str) {
    assert!(
        fewer.complete && more.complete,
        "{what}: a count was cut short"
    );
    assert_eq!(
        (fewer.solutions, more.solutions),
        (solutions, solutions),
        "{what}: the counts"
    );
    assert!(
        fewer.stats.nodes < more.stats.nodes,
        "{what}: {} nodes against {}",
        fewer.stats.nodes,
        more.stats.nodes
    );
}

// ----- the shared data folder, and tests that skip without it ------------------------------

/// The variable that names the data folder when it is not `../shared/data`.
pub const DATA_VARIABLE: &str = "CPSOLVE_DATA";

/// The folder of public benchmark sets, which the repository does not hold: the folder named
/// by `$CPSOLVE_DATA` when that variable is set, else `../shared/data` beside the repository.
/// `None` when that folder does not exist: the tests, examples and benchmarks that need it
/// then [`skip`]. This is the one place every crate asks where the data is.
pub fn data_dir() -> Option<std::path::PathBuf> {
    let dir = match std::env::var_os(DATA_VARIABLE) {
        Some(dir) => std::path::PathBuf::from(dir),
        None => repository_root().join("../shared/data"),
    };
    dir.is_dir().then_some(dir)
}

/// The file or folder `relative` of the data folder (`"sudoku/top1465.txt"`), or `None`
/// after recording with [`skip`] that it is absent.
pub fn data_path(relative: &str) -> Option<std::path::PathBuf> {
    let path = data_dir().map(|dir| dir.join(relative));
    match path {
        Some(path) if path.exists() => Some(path),
        _ => {
            let folder = match std::env::var_os(DATA_VARIABLE) {
                Some(dir) => format!("${DATA_VARIABLE} = {}", dir.to_string_lossy()),
                None => format!("../shared/data (or set {DATA_VARIABLE})"),
            };
            skip(&format!("{relative} is not in the data folder, {folder}"));
            None
        }
    }
}

/// The top of the repository (the folder above `engine/`).
pub fn repository_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("engine/ sits in the repository")
        .to_path_buf()
}

/// The variable that names the file of skipped tests, when not the one in `target/`.
pub const SKIPPED_TESTS_VARIABLE: &str = "CPSOLVE_SKIPPED_TESTS";

/// The file where skipped tests are listed: `$CPSOLVE_SKIPPED_TESTS` when set, else
/// `skipped-tests.txt` in cargo's target folder (the folder holding the running test
/// binary's `CACHEDIR.TAG`), else in `target/`. `.ci/run` empties it before the tests and
/// prints it after them.
pub fn skipped_tests_file() -> std::path::PathBuf {
    if let Some(file) = std::env::var_os(SKIPPED_TESTS_VARIABLE) {
        return file.into();
    }
    let exe = std::env::current_exe().unwrap_or_default();
    let target = exe
        .ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| repository_root().join("target"));
    target.join("skipped-tests.txt")
}

/// Records that the running test (or example, or benchmark) leaves out work, and why. A
/// captured `println!` would show as `ok`; this also appends `BINARY::TEST: reason` to
/// [`skipped_tests_file`], so that a whole run can end by naming every skip.
pub fn skip(reason: &str) {
    use std::io::Write;
    let exe = std::env::current_exe().unwrap_or_default();
    let stem = exe.file_stem().unwrap_or_default().to_string_lossy();
    // Test binaries are named `NAME-HASH`; the hash says nothing to a reader.
    let binary = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name,
        _ => &stem,
    };
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(name) if name != "main" => format!("::{name}"),
        _ => String::new(),
    };
    let line = format!("{binary}{test}: {reason}\n");
    println!("skipped: {reason}");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(skipped_tests_file());
    if let Ok(mut file) = file {
        // One write of the whole line: O_APPEND keeps concurrent lines whole.
        let _ = file.write_all(line.as_bytes());
    }
}

// ----- explanations (learning), checked against brute force --------------------------------

/// What [`check_explanations`] saw: how many atoms it asked to explain (failures included),
/// how many the propagator explained itself, and the reasons' total sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExplanationStats {
    /// Atoms (and failures) explained.
    pub explained: usize,
    /// Of those, how many the propagator explained itself (`explain` returned `true`).
    pub precise: usize,
    /// Total size of the reasons used: the propagator's where it gave one, else the generic.
    pub reason_atoms: usize,
    /// Total size of the generic reasons of the same atoms.
    pub generic_atoms: usize,
    /// Where the propagator explained an atom both ways: the total sizes of its reasons
    /// (`explain`) and of its lifted reasons (`explain_lifted`, the universe as the root
    /// domains), each without the atoms that hold in the whole universe (root facts)...
    pub unlifted_atoms: usize,
    pub lifted_atoms: usize,
    /// ...and how many lifted reasons were longer than the reason.
    pub lifted_longer: usize,
}

impl ExplanationStats {
    /// Average size of the reasons used.
    pub fn average_reason(&self) -> f64 {
        self.reason_atoms as f64 / self.explained.max(1) as f64
    }
    /// Average size of the generic reasons.
    pub fn average_generic(&self) -> f64 {
        self.generic_atoms as f64 / self.explained.max(1) as f64
    }
}

/// Check a propagator's explanations (`engine/src/learning/reason.rs`) by brute force. Each
/// of `cfg.trials` cases draws small random domains inside the *universe* `cfg.lo..=cfg.hi`
/// (or `cfg.first_ranges`), runs `propagate_from_scratch` once, and asks for the reason of
/// every atom the run made true (each new bound, each new fixed value, each removed value),
/// or of the failure. Each reason is checked
///
/// 1. to hold in the inputs (the domains before the run), and
/// 2. to imply the atom with the constraint alone: every assignment of the **universe**, not
///    only of the inputs, that satisfies `check` and every reason atom satisfies the atom
///    (for a failure: no assignment satisfies `check` and the reason).
///
/// The generic reason is checked the same way (it must always pass). Returns the sizes, so
/// that a test can say a propagator's precise reasons are smaller than the generic ones.
/// Panics with the first case that goes wrong.
pub fn check_explanations(
    name: &str,
    cfg: &HarnessConfig,
    check: &dyn Fn(&[i32]) -> bool,
    make: &dyn Fn(&[VarId]) -> Box<dyn Propagator>,
) -> ExplanationStats {
    let mut rng = Rng::new(cfg.seed);
    let universe: Vec<(i32, i32)> = (0..cfg.arity)
        .map(|i| cfg.first_ranges.get(i).copied().unwrap_or((cfg.lo, cfg.hi)))
        .collect();
    let mut stats = ExplanationStats::default();
    for _ in 0..cfg.trials {
        let initial: Vec<Vec<i32>> = universe
            .iter()
            .map(|&range| random_values(&mut rng, range, cfg.max_size))
            .collect();
        let (mut m, xs) = build_unposted(&initial, cfg.interval_domains);
        let prop = make(&xs);
        let vars: Vec<VarId> = prop.subscriptions().iter().map(|s| s.var).collect();
        let inputs: Vec<Domain> = vars.iter().map(|&x| m.store.domain(x).clone()).collect();
        let result =
            prop.propagate_from_scratch(&mut crate::propagator::Context::new(&mut m.store));
        // The universe is the root: every assignment the check enumerates lies in it.
        let root_domains: Vec<Domain> = (universe.iter())
            .map(|&(lo, hi)| Domain::interval(lo, hi))
            .collect();
        let of = |x: VarId| &root_domains[xs.iter().position(|&y| y == x).unwrap()];
        let case = ExplainedCase {
            name,
            check,
            universe: &universe,
            xs: &xs,
            vars: &vars,
            inputs: &inputs,
            initial: &initial,
        };
        if result.is_err() {
            if m.is_interrupted() {
                continue;
            }
            let mut reason = Vec::new();
            let precise = prop.explain_failure(&inputs, &mut reason);
            stats.add(&case, None, precise.then_some(&reason[..]));
            let mut lifted = Vec::new();
            let lifted_ok = prop.explain_failure_lifted(&inputs, case.roots(&of), &mut lifted);
            stats.add_lifted(
                &case,
                None,
                precise.then_some(&reason[..]),
                lifted_ok.then_some(&lifted[..]),
            );
            continue;
        }
        for atom in new_atoms(&xs, &initial, &m) {
            let mut reason = Vec::new();
            let precise = prop.explain(&inputs, atom, &mut reason);
            stats.add(&case, Some(atom), precise.then_some(&reason[..]));
            let mut lifted = Vec::new();
            let lifted_ok = prop.explain_lifted(&inputs, case.roots(&of), atom, &mut lifted);
            stats.add_lifted(
                &case,
                Some(atom),
                precise.then_some(&reason[..]),
                lifted_ok.then_some(&lifted[..]),
            );
        }
    }
    stats
}

/// A random non-empty set of at most `max_size` values of `lo..=hi`, sorted: half the time
/// an interval (so that bounds reasoning has something to do), else any values.
fn random_values(rng: &mut Rng, (lo, hi): (i32, i32), max_size: usize) -> Vec<i32> {
    let span = (hi as i64 - lo as i64 + 1) as u64;
    let size = 1 + rng.below(max_size.min(span as usize) as u64) as usize;
    if rng.below(2) == 0 {
        let first = lo as i64 + rng.below(span - size as u64 + 1) as i64;
        return (first..first + size as i64).map(|v| v as i32).collect();
    }
    let mut d: Vec<i32> = Vec::new();
    while d.len() < size {
        let v = (lo as i64 + rng.below(span) as i64) as i32;
        if !d.contains(&v) {
            d.push(v);
        }
    }
    d.sort();
    d
}

/// A model holding one variable per domain, and no propagator yet.
fn build_unposted(domains: &[Vec<i32>], interval: bool) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs = (domains.iter())
        .map(|d| m.store.new_var(domain_of(d, interval)))
        .collect();
    (m, xs)
}

/// Every atom a run made true: for each variable, a raised lower bound, a lowered upper
/// bound, a value fixed, and each value removed.
fn new_atoms(xs: &[VarId], before: &[Vec<i32>], m: &Model) -> Vec<Atom> {
    let mut atoms = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let after = m.store.domain(x);
        let (lo, hi) = (before[i][0], *before[i].last().unwrap());
        if after.min() > lo {
            atoms.push(Atom::AtLeast(x, after.min()));
        }
        if after.max() < hi {
            atoms.push(Atom::AtMost(x, after.max()));
        }
        if after.is_fixed() && lo < hi {
            atoms.push(Atom::Equal(x, after.value()));
        }
        for &v in &before[i] {
            if !after.contains(v) {
                atoms.push(Atom::NotEqual(x, v));
            }
        }
    }
    atoms
}

/// One case of [`check_explanations`]: the constraint, the universe and the run's inputs.
struct ExplainedCase<'a> {
    name: &'a str,
    check: &'a dyn Fn(&[i32]) -> bool,
    universe: &'a [(i32, i32)],
    xs: &'a [VarId],
    vars: &'a [VarId],
    inputs: &'a [Domain],
    initial: &'a [Vec<i32>],
}

impl<'a> ExplainedCase<'a> {
    /// The root domains of the propagator's variables (the universe), for `explain_lifted`.
    fn roots<'r>(&'r self, of: &'r dyn Fn(VarId) -> &'r Domain) -> RootDomains<'r> {
        RootDomains {
            vars: self.vars,
            of,
        }
    }

    /// The atoms of `reason` that do not hold in the whole universe.
    fn beyond_root(&self, reason: &[Atom]) -> usize {
        let universe_of = |x: VarId| {
            let (lo, hi) = self.universe[self.xs.iter().position(|&y| y == x).unwrap()];
            Domain::interval(lo, hi)
        };
        (reason.iter())
            .filter(|r| !r.holds_in(&universe_of(r.var())))
            .count()
    }

    /// Panic unless `reason` holds in the inputs and implies `atom` (or, for `None`, a
    /// failure) with the constraint, over the whole universe. `what` names the reason.
    fn assert_implies(&self, atom: Option<Atom>, reason: &[Atom], what: &str) {
        let name = self.name;
        let goal = atom.map_or("failure".to_string(), |a| a.to_string());
        let shown: Vec<String> = reason.iter().map(|a| a.to_string()).collect();
        let mut allowed: Vec<Vec<i32>> = (self.universe.iter())
            .map(|&(lo, hi)| (lo..=hi).collect())
            .collect();
        for &r in reason {
            let Some(i) = self.xs.iter().position(|&x| x == r.var()) else {
                panic!("{name}: the {what} reason of {goal} names {r}, outside the scope");
            };
            let input = &self.inputs[self.vars.iter().position(|&x| x == r.var()).unwrap()];
            assert!(
                r.holds_in(input),
                "{name}: the {what} reason atom {r} of {goal} does not hold in the inputs {:?}",
                self.initial
            );
            allowed[i].retain(|&v| r.holds_for(v));
        }
        let counterexample = first_solution(&allowed, &|t: &[i32]| {
            (self.check)(t)
                && match atom {
                    None => true,
                    Some(a) => !a.holds_for(t[self.xs.iter().position(|&x| x == a.var()).unwrap()]),
                }
        });
        if let Some(t) = counterexample {
            panic!(
                "{name}: the {what} reason [{}] does not imply {goal}: {t:?} satisfies the \
                 constraint and the reason; inputs {:?}",
                shown.join(", "),
                self.initial
            );
        }
    }
}

impl ExplanationStats {
    /// Check the lifted reason (if given) for `atom`, and compare its size with the
    /// propagator's reason (`precise`, if it gave one), root facts left out of both.
    fn add_lifted(
        &mut self,
        case: &ExplainedCase<'_>,
        atom: Option<Atom>,
        precise: Option<&[Atom]>,
        lifted: Option<&[Atom]>,
    ) {
        let Some(lifted) = lifted else {
            return;
        };
        case.assert_implies(atom, lifted, "lifted");
        if let Some(reason) = precise {
            let (before, after) = (case.beyond_root(reason), case.beyond_root(lifted));
            self.unlifted_atoms += before;
            self.lifted_atoms += after;
            self.lifted_longer += (after > before) as usize;
        }
    }

    /// Check the generic reason and the propagator's (`precise`, if it gave one) for `atom`
    /// (`None`: the failure), and count them.
    fn add(&mut self, case: &ExplainedCase<'_>, atom: Option<Atom>, precise: Option<&[Atom]>) {
        let mut generic = Vec::new();
        crate::learning::reason::generic_reason(case.vars, case.inputs, &mut generic);
        case.assert_implies(atom, &generic, "generic");
        self.explained += 1;
        self.generic_atoms += generic.len();
        match precise {
            Some(reason) => {
                case.assert_implies(atom, reason, "precise");
                self.precise += 1;
                self.reason_atoms += reason.len();
            }
            None => self.reason_atoms += generic.len(),
        }
    }
}

/// The first tuple of `domains` for which `check` holds, if any.
fn first_solution(domains: &[Vec<i32>], check: &dyn Fn(&[i32]) -> bool) -> Option<Vec<i32>> {
    fn rec(
        i: usize,
        domains: &[Vec<i32>],
        tuple: &mut Vec<i32>,
        check: &dyn Fn(&[i32]) -> bool,
    ) -> bool {
        if i == domains.len() {
            return check(tuple);
        }
        for &v in &domains[i] {
            tuple[i] = v;
            if rec(i + 1, domains, tuple, check) {
                return true;
            }
        }
        false
    }
    let mut tuple = vec![0; domains.len()];
    rec(0, domains, &mut tuple, check).then_some(tuple)
}
