//! `cpsolve`: hands the process's arguments and streams to [`cli::run_with`] and exits with
//! its status. Everything else is in the library, where the tests can reach it.

use std::io::IsTerminal;

fn main() {
    // `cli::run` turns a panic into one error line; the default hook would also print a
    // backtrace notice, which the contract forbids.
    std::panic::set_hook(Box::new(|_| {}));
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let environment = cli::Environment {
        stderr_is_terminal: std::io::stderr().is_terminal(),
    };
    let status = cli::run_with(
        &args,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
        environment,
    );
    std::process::exit(status);
}
