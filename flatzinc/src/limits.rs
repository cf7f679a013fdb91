//! # The clock while reading: a limit holds before the search starts too
//!
//! A time limit (`-t`) or a stop signal (SIGINT, SIGTERM) must end a run promptly wherever
//! it is, and a FlatZinc file of millions of lines can take seconds to read and build. The
//! reader and the builder share the search's [`Limits`] (only the deadline and the stop flag
//! mean anything before the search) and look at them every so many lines and items.

use engine::Limits;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Has the deadline passed, or has someone set the stop flag?
pub fn limit_passed(limits: &Limits) -> bool {
    let stopped = limits
        .stop
        .as_ref()
        .is_some_and(|flag| flag.load(Ordering::Relaxed));
    let late = limits.deadline.is_some_and(|d| Instant::now() >= d);
    stopped || late
}
