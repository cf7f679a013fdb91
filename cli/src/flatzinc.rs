//! # `cpsolve model.fzn` and `cpsolve model.mzn [data.dzn]`
//!
//! A first operand ending in `.fzn` is a FlatZinc file: read, built and solved by the
//! `flatzinc` crate, with the standard flags (`-a -n -i -s -t -r -f`; `-p` is accepted and
//! the search runs on one thread). A first operand ending in `.mzn` is a MiniZinc model:
//! `minizinc` compiles it with this repository's `mznlib/` and runs this very executable on
//! the result (through a solver configuration written to a temporary folder), so the model's
//! own output is printed. Without `minizinc` on the PATH that is an error line, exit 2.

use crate::args::{self, Options, Target};
use crate::input::InputError;
use crate::Failure;
use std::io::{Read, Write};

/// A model read from standard input (`cpsolve -`) is named so in error lines.
const STDIN_NAME: &str = "<stdin>";
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Is this first operand a FlatZinc or MiniZinc file? `-` alone is a FlatZinc model on
/// standard input: no puzzle is named `-` (a puzzle on standard input is `cpsolve PUZZLE -`),
/// so the word cannot mean anything else.
pub fn is_model_file(command: &str) -> bool {
    command == "-" || command.ends_with(".fzn") || command.ends_with(".mzn")
}

/// Run a `.fzn` or `.mzn` command.
pub fn run(
    file: &str,
    options: &Options,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    refuse_puzzle_flags(file, options)?;
    if file.ends_with(".mzn") {
        return run_minizinc(file, options, out, err);
    }
    if let Some(extra) = options.operands.first() {
        return Err(Failure::Usage(format!(
            "a FlatZinc file takes no other file, found {}",
            puzzles::parse::quoted(extra)
        )));
    }
    let started = Instant::now();
    // Read as a puzzle file is: at most `MAX_INPUT_BYTES`, a NUL byte refused at once.
    let cannot_read = |e: std::io::Error| {
        Failure::Input(InputError {
            file: file.to_string(),
            line: 1,
            message: format!("cannot read the file: {e}"),
        })
    };
    let text = if file == "-" {
        crate::input::read_capped(stdin, STDIN_NAME)
    } else {
        let mut opened = std::fs::File::open(file).map_err(cannot_read)?;
        crate::input::read_capped(&mut opened, file)
    }
    .map_err(|e| e.map_or_else(cannot_read, Failure::Input))?;
    let file = if file == "-" { STDIN_NAME } else { file };
    let text = String::from_utf8_lossy(&text);
    // Read and built under the time limit and the stop flag too: a limit that passes first
    // ends the run as a limit does, with no solution known.
    let reading_limits = engine::Limits {
        deadline: options.time_limit.map(|t| started + t),
        stop: crate::signals::stop_flag(),
        ..Default::default()
    };
    let built = match ::flatzinc::load_within(&text, &reading_limits) {
        Ok(built) => built,
        Err(e) if e.limit_reached => {
            out.write_all(b"=====UNKNOWN=====\n")?;
            return Ok(());
        }
        Err(e) => {
            return Err(Failure::Input(InputError {
                file: file.to_string(),
                line: e.line,
                message: e.message,
            }))
        }
    };
    let fzn_options = ::flatzinc::solve::Options {
        all: options.all,
        solutions: options.num_solutions,
        intermediate: options.intermediate,
        statistics: options.stats,
        deadline: options.time_limit.map(|t| started + t),
        stop: crate::signals::stop_flag(),
        free: options.free,
        no_lns: options.no_lns,
        seed: options.seed.unwrap_or(0),
        nodes: options.nodes,
        failures: options.failures,
        profile: options.profile,
        learn: options.learn == Some(true),
        // At most one search per core: more would only take turns (and each is a copy of
        // the model).
        threads: options
            .threads
            .unwrap_or(1)
            .min(std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    // What the search annotations ask and this version does not follow: said once each.
    if !options.free {
        for what in ::flatzinc::search::plan(&built).unsupported {
            writeln!(
                err,
                "warning: {file}: search {what} is not supported; ignored"
            )?;
        }
    }
    let one_by_one = options.all || options.intermediate || options.num_solutions.is_some();
    if options.threads.is_some_and(|p| p > 1) && one_by_one {
        writeln!(
            err,
            "warning: -p: -a, -n and -i print each solution as one search finds it: one thread"
        )?;
    }
    if let Some(cell) = &options.explain {
        // Its own build: the explanation's search runs on a model of its own.
        let again = ::flatzinc::load(&text).map_err(|e| Failure::Internal(e.message))?;
        let explanation = crate::explain::explain_flatzinc(again, &fzn_options, cell)?;
        crate::explain::print(&explanation, out)?;
    }
    ::flatzinc::solve::run(built, &fzn_options, out)?;
    Ok(())
}

/// Refuse the flags this kind of model does not take, rather than drop them silently: a
/// FlatZinc model has no picture to animate or grid to show, and its search order is its
/// annotations (or `-f`); `--explain` needs the FlatZinc file itself. What is refused, and
/// the list of what is accepted, both come from `args::FLAGS`.
fn refuse_puzzle_flags(file: &str, options: &Options) -> Result<(), Failure> {
    let (target, model) = if file.ends_with(".mzn") {
        (Target::MiniZinc, "a MiniZinc model")
    } else {
        (Target::FlatZinc, "a FlatZinc model")
    };
    let Some(flag) = options.refused_by(target) else {
        return Ok(());
    };
    let why = if flag.takes.flatzinc {
        format!(
            "takes a FlatZinc file: compile the model first (minizinc --solver cpsolve.msc -c {file} --fzn model.fzn, docs/minizinc.md)"
        )
    } else {
        "is for the puzzles".to_string()
    };
    Err(Failure::Usage(format!(
        "{file}: {} {why}; {model} takes {} (see docs/cli.md)",
        flag.name(),
        args::accepted_by(target)
    )))
}

/// The repository's `mznlib/`, as this executable was built from it.
fn mznlib_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mznlib")
}

/// Compile and solve a MiniZinc model through `minizinc`, with this executable as solver.
fn run_minizinc(
    file: &str,
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Internal(format!("cannot find this executable: {e}")))?;
    let mznlib = mznlib_dir()
        .canonicalize()
        .map_err(|e| Failure::Usage(format!("cannot find cpsolve's mznlib folder: {e}")))?;
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let msc = dir.join("cpsolve.msc");
    std::fs::write(&msc, solver_configuration(&exe, &mznlib))?;
    let mut cmd = Command::new("minizinc");
    cmd.arg("--solver")
        .arg(&msc)
        .arg(file)
        .args(&options.operands);
    if options.all {
        cmd.arg("-a");
    }
    if let Some(n) = options.num_solutions {
        cmd.arg("-n").arg(n.to_string());
    }
    if options.intermediate {
        cmd.arg("-i");
    }
    if options.stats {
        cmd.arg("-s");
    }
    if options.free {
        cmd.arg("-f");
    }
    if let Some(t) = options.time_limit {
        cmd.arg("-t").arg(t.as_millis().to_string());
    }
    if let Some(r) = options.seed {
        cmd.arg("-r").arg(r.to_string());
    }
    if let Some(p) = options.threads {
        cmd.arg("-p").arg(p.to_string());
    }
    // cpsolve's own flags, which MiniZinc passes on as the configuration's `extraFlags`.
    if let Some(n) = options.nodes {
        cmd.arg("--nodes").arg(n.to_string());
    }
    if let Some(n) = options.failures {
        cmd.arg("--failures").arg(n.to_string());
    }
    if options.learn == Some(true) {
        cmd.arg("--learn");
    }
    if options.profile {
        cmd.arg("--profile");
    }
    if options.no_lns {
        cmd.arg("--no-lns");
    }
    let result = cmd.output();
    let _ = std::fs::remove_dir_all(&dir);
    let output = match result {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Failure::Usage(format!(
                "{file}: a MiniZinc model needs the 'minizinc' command, which is not installed (or compile it to FlatZinc elsewhere and run cpsolve on the .fzn)"
            )))
        }
        Err(e) => return Err(Failure::Usage(format!("cannot run minizinc: {e}"))),
    };
    out.write_all(&output.stdout)?;
    if !output.status.success() {
        let text = String::from_utf8_lossy(&output.stderr);
        let (line, message) = minizinc_error(file, &text);
        return Err(Failure::Input(InputError {
            file: file.to_string(),
            line,
            message,
        }));
    }
    err.write_all(&output.stderr)?;
    Ok(())
}

/// Compile a MiniZinc model (and its data files) to `fzn`, with the output description
/// beside it (`fzn` with the extension `.ozn`), as cpsolve's solver configuration asks:
/// this repository's `mznlib/`, so that the globals cpsolve propagates stay whole. Used by
/// `split model.mzn --compile-to model.fzn` (cli/src/cluster.rs).
pub(crate) fn compile(model: &str, data: &[String], fzn: &Path) -> Result<(), Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Internal(format!("cannot find this executable: {e}")))?;
    let mznlib = mznlib_dir()
        .canonicalize()
        .map_err(|e| Failure::Usage(format!("cannot find cpsolve's mznlib folder: {e}")))?;
    // One folder per call: tests call this from several threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("cpsolve-compile-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let msc = dir.join("cpsolve.msc");
    std::fs::write(&msc, solver_configuration(&exe, &mznlib))?;
    let result = Command::new("minizinc")
        .arg("--solver")
        .arg(&msc)
        .arg("-c")
        .arg(model)
        .args(data)
        .arg("--fzn")
        .arg(fzn)
        .arg("--ozn")
        .arg(fzn.with_extension("ozn"))
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let output = match result {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Failure::Usage(format!(
                "{model}: compiling a MiniZinc model needs the 'minizinc' command, which is not installed"
            )))
        }
        Err(e) => return Err(Failure::Usage(format!("cannot run minizinc: {e}"))),
    };
    if !output.status.success() {
        let (line, message) = minizinc_error(model, &String::from_utf8_lossy(&output.stderr));
        return Err(Failure::Input(InputError {
            file: model.to_string(),
            line,
            message,
        }));
    }
    Ok(())
}

/// The line and the message of a MiniZinc error report (`FILE:LINE.COL...` then `Error: ...`).
fn minizinc_error(file: &str, text: &str) -> (usize, String) {
    let name = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut line = 1;
    for l in text.lines() {
        if let Some(pos) = l.find(&format!("{name}:")) {
            let rest = &l[pos + name.len() + 1..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if let Ok(n) = digits.parse() {
                line = n;
                break;
            }
        }
    }
    let message = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("minizinc failed")
        .trim()
        .to_string();
    (line, format!("minizinc: {message}"))
}

/// A solution in MiniZinc's dzn output (`x = 3;`, one item per output variable) as a
/// MiniZinc file of `constraint x = 3;` items: added to the model, another solver can check
/// that the solution is consistent.
///
/// Constraints, not data: given as data the variables become parameters, and a model whose
/// declarations read `lb(x)` or `ub(x)` then sees other bounds than the ones it was solved
/// with (routing-flexible declares its legs over `lb_array(nodes)..ub_array(nodes)`, which
/// with the nodes given as data shrinks to their own values and refuses a correct
/// solution). No value of a dzn solution holds a `;`, so the items split there.
pub fn solution_as_constraints(dzn: &str) -> String {
    dzn.split(';')
        .map(str::trim)
        .filter(|item| item.contains('='))
        .map(|item| format!("constraint {item};\n"))
        .collect()
}

/// A solver configuration naming this executable and the mznlib folder by absolute paths.
pub fn solver_configuration(exe: &Path, mznlib: &Path) -> String {
    format!(
        r#"{{
  "id": "org.cpsolve.cpsolve",
  "name": "cpsolve",
  "version": "{}",
  "executable": {:?},
  "mznlib": {:?},
  "tags": ["cp", "int"],
  "stdFlags": ["-a", "-n", "-s", "-t", "-p", "-r", "-f", "-i"],
  "extraFlags": [["--nodes", "stop after N search nodes", "int", "0"], ["--failures", "stop after N failures", "int", "0"], ["--profile", "time each kind of propagator", "bool", "false"], ["--no-lns", "under -f: no large neighbourhood search", "bool", "false"], ["--learn", "learn a nogood from each failure", "bool", "false"]],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "isGUIApplication": false
}}
"#,
        env!("CARGO_PKG_VERSION"),
        exe.to_string_lossy(),
        mznlib.to_string_lossy()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solution_is_posted_as_one_constraint_per_variable() {
        let dzn = "x = 3;\nys = \n[| 1, 2\n | 3, 4\n |];\nobjective = -7;\n";
        assert_eq!(
            solution_as_constraints(dzn),
            "constraint x = 3;\nconstraint ys = \n[| 1, 2\n | 3, 4\n |];\nconstraint objective = -7;\n"
        );
    }
}
