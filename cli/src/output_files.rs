//! # Output files (`--trace`, `--tree`, `--animate`): checked before the search starts
//!
//! A run that writes files must not find out after minutes of search that it cannot, and
//! must never write over its own input. So before the search, [`prepare`] checks every
//! output path against the input file and against the other outputs (the same file under
//! two names included: a link, `./x` and `x`), and opens each one for writing, creating it
//! and emptying it as a shell's `>` would. A path that cannot be opened is bad usage (exit
//! 2, nothing searched); a write that fails later, once the run has started (a full disk),
//! is a failed write (exit 1), as for standard output.

use crate::args::Options;
use crate::Failure;
use std::path::Path;

/// Do `a` and `b` name the same existing file?
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The output files a run asks for, each with its flag.
fn outputs(options: &Options) -> Vec<(&'static str, &Path)> {
    [
        ("--trace", options.trace.as_deref()),
        ("--tree", options.tree.as_deref()),
        ("--animate", options.animate.as_deref()),
    ]
    .into_iter()
    .filter_map(|(flag, path)| path.map(|p| (flag, p)))
    .collect()
}

/// Before the search: refuse an output that is `input` or another output, then create (or
/// empty) every output file, so that a path that cannot be written stops the run now.
pub fn prepare(options: &Options, input: Option<&Path>) -> Result<(), Failure> {
    let outputs = outputs(options);
    for (k, &(flag, path)) in outputs.iter().enumerate() {
        if input.is_some_and(|i| same_file(path, i)) {
            return Err(Failure::Usage(format!(
                "{flag} '{}' is the input file: it would be overwritten; choose another file",
                path.display()
            )));
        }
        let same = outputs[..k]
            .iter()
            .find(|(_, other)| other == &path || same_file(other, path));
        if let Some((other, _)) = same {
            return Err(Failure::Usage(format!(
                "{other} and {flag} both name '{}'; give each its own file",
                path.display()
            )));
        }
    }
    for (flag, path) in outputs {
        std::fs::File::create(path).map_err(|e| {
            Failure::Usage(format!("{flag}: cannot create '{}' ({e})", path.display()))
        })?;
    }
    Ok(())
}

/// A write to an output file that failed once the run had started: exit 1, as a failed
/// write to standard output.
pub fn write_failed(flag: &str, path: &Path, e: std::io::Error) -> Failure {
    Failure::Io(std::io::Error::new(
        e.kind(),
        format!("{flag} '{}': {e}", path.display()),
    ))
}
