//! `cpsolve`: hands the process's arguments and streams to [`cli::run_with`] and exits with
//! its status. Everything else is in the library, where the tests can reach it.

use std::io::IsTerminal;

fn main() {
    // `cli::run` turns a panic into one error line; the default hook would also print a
    // backtrace notice, which the contract forbids.
    std::panic::set_hook(Box::new(|_| {}));
    // The words as the system gave them: a file name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // SIGINT and SIGTERM stop the search and print what it found (see `cli::signals`).
    cli::signals::install();
    let environment = cli::Environment {
        stderr_is_terminal: std::io::stderr().is_terminal(),
    };
    let status = cli::run_with(
        &args,
        &mut std::io::stdin().lock(),
        // Whole lines: a second signal never cuts one (see `cli::signals`).
        &mut cli::signals::WholeLines::new(std::io::stdout().lock()),
        &mut std::io::stderr().lock(),
        environment,
    );
    std::process::exit(status);
}
