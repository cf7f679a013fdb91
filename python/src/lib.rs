//! # `cpsolve._native`: the engine, the puzzles and the command line, seen from Python
//!
//! The native half of the Python package (docs/python.md). It teaches one idea of its own:
//! how a long computation in a native library lives inside an interpreter — the GIL released
//! while the engine searches, Ctrl-C turned into the engine's stop flag, solutions streamed
//! through a bounded channel to a Python generator.
//!
//! The Python half (`python/cpsolve/`) holds everything a Python user reads: expressions and
//! their operators, the checks of the arguments with their messages, the result objects, the
//! pictures. This half is deliberately small and plain:
//!
//! | what | file |
//! |---|---|
//! | variables and constraints posted on an [`engine::Model`] | `model.rs` |
//! | solve, count, stream the solutions | `search.rs` |
//! | a search on another thread, stopped by Ctrl-C | `interrupt.rs` |
//! | the command line in the process (puzzles, FlatZinc, the pictures) | `command.rs` |

use pyo3::prelude::*;

mod command;
mod interrupt;
mod model;
mod search;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<model::NativeModel>()?;
    m.add_class::<search::SolutionStream>()?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::count, m)?)?;
    m.add_function(wrap_pyfunction!(search::solutions, m)?)?;
    m.add_function(wrap_pyfunction!(command::run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(command::main, m)?)?;
    m.add_function(wrap_pyfunction!(command::puzzle_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(command::mznlib_files, m)?)?;
    Ok(())
}
