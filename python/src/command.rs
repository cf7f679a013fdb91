//! # The command line, in the Python process
//!
//! `cpsolve.puzzles.solve`, `cpsolve.solve_flatzinc`, `cpsolve.animate` and `cpsolve.tree`
//! are the command line itself: [`run_cli`] hands [`cli::run`] the words a user would type
//! and the puzzle text as standard input, and gives back what it printed. So a puzzle solved
//! from Python gives exactly the command's `--json` line, and a picture exactly its file.
//!
//! Ctrl-C: the command line's own stop flag (cli/src/signals.rs) is created without its
//! signal handler — Python keeps its own — and set when Python reports the signal
//! (interrupt.rs).
//!
//! [`main`] is the package's `cpsolve` command (pyproject.toml): the Rust binary's `main`,
//! with its own signal handler, for a shell or for MiniZinc to run.

use crate::interrupt::run_interruptible;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::io::IsTerminal;
use std::sync::atomic::Ordering;

/// Run the command line with `args` (without the program name), `stdin` as its standard
/// input. Returns the exit status, what it wrote to standard output and to standard error,
/// and the exception a Ctrl-C raised, if one did (the run then ended as after SIGINT: with
/// what it found).
#[pyfunction]
#[pyo3(signature = (args, stdin=None))]
pub(crate) fn run_cli<'py>(
    py: Python<'py>,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
) -> PyResult<(i32, Bound<'py, PyBytes>, String, Option<PyErr>)> {
    let stop = cli::signals::stop_flag_without_handler();
    stop.store(false, Ordering::SeqCst);
    let ((status, out, err), interrupt) = run_interruptible(py, &stop, move || {
        let input = stdin.unwrap_or_default();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = cli::run(&args, &mut input.as_slice(), &mut out, &mut err);
        (status, out, err)
    })?;
    let err = String::from_utf8_lossy(&err).into_owned();
    Ok((status, PyBytes::new_bound(py, &out), err, interrupt))
}

/// The `cpsolve` command: the process's arguments and streams, as the Rust binary has them.
/// Returns the exit status.
#[pyfunction]
pub(crate) fn main(py: Python<'_>, args: Vec<String>) -> i32 {
    py.allow_threads(move || {
        cli::signals::install();
        let environment = cli::Environment {
            stderr_is_terminal: std::io::stderr().is_terminal(),
        };
        cli::run_with(
            &args,
            &mut std::io::stdin().lock(),
            &mut cli::signals::WholeLines::new(std::io::stdout().lock()),
            &mut std::io::stderr().lock(),
            environment,
        )
    })
}

/// Every puzzle: `(name, summary, optimisation, input, seed)`, `input` one of `file`,
/// `number`, `builtin`, `file_or_number`.
#[pyfunction]
pub(crate) fn puzzle_kinds() -> Vec<(&'static str, &'static str, bool, &'static str, &'static str)>
{
    puzzles::all()
        .iter()
        .map(|k| {
            let input = match k.input {
                puzzles::Input::File => "file",
                puzzles::Input::Number => "number",
                puzzles::Input::BuiltIn => "builtin",
                puzzles::Input::FileOrNumber => "file_or_number",
            };
            (k.name, k.summary, k.optimisation, input, k.seed)
        })
        .collect()
}

/// The repository's `mznlib/` (the MiniZinc library cpsolve's solver configuration names),
/// as `(file name, text)`: built into the module (build.rs), since an installed package has
/// no repository beside it.
#[pyfunction]
pub(crate) fn mznlib_files() -> Vec<(&'static str, &'static str)> {
    include!(concat!(env!("OUT_DIR"), "/mznlib.rs")).to_vec()
}
