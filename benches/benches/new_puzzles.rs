//! The puzzles beyond the seeds: one representative instance each, through the command
//! (`cli::run` in this process: parse, model, search, the puzzle's checker, the JSON line).
//!
//! The instances ship in `puzzles/instances/beyond/` (so this runs on a fresh clone), plus the
//! empty 8×8 knight's board. Each iteration checks the status and, for counts, the number
//! the puzzle's tests know, so a wrong answer fails the bench instead of being timed. The
//! public sets are measured by `src/bin/puzzle_sets.rs` (docs/PERFORMANCE.md).
//!
//! ```text
//! cargo bench -p benches --bench new_puzzles
//! ```

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::Value;
use std::time::Duration;

/// (name, the command's arguments, the expected `status`, the expected `count` if counting).
const CASES: &[(&str, &[&str], &str, Option<u64>)] = &[
    (
        "nonogram_webpbn6",
        &["nonogram", "webpbn-6.non"],
        "SATISFIED",
        None,
    ),
    (
        "nonogram_generated5x6_count",
        &["nonogram", "generated5x6.non", "--count"],
        "ALL_SOLUTIONS",
        Some(4),
    ),
    (
        "flow_zucker7x7",
        &["flow", "zucker-regular_7x7_01.txt"],
        "SATISFIED",
        None,
    ),
    (
        "numberlink5x5_count",
        &["numberlink", "numberlink5x5-2.txt", "--count"],
        "ALL_SOLUTIONS",
        Some(24),
    ),
    (
        "starbattle8_count",
        &["starbattle", "starbattle8-1-3.txt", "--count"],
        "ALL_SOLUTIONS",
        Some(301),
    ),
    (
        "binairo8_count",
        &["binairo", "binairo8-3.txt", "--count"],
        "ALL_SOLUTIONS",
        Some(106),
    ),
    (
        "takuzu8_count",
        &["takuzu", "takuzu8-3.txt", "--count"],
        "ALL_SOLUTIONS",
        Some(135),
    ),
    (
        "thermometer6x6_count",
        &["thermometer", "thermometer6x6-3.txt", "--count"],
        "ALL_SOLUTIONS",
        Some(12),
    ),
    (
        "knights6x6_closed",
        &["knights", "knights6x6-closed.txt"],
        "SATISFIED",
        None,
    ),
    ("knights8_open", &["knights", "8"], "SATISFIED", None),
    (
        "scramble10_optimum",
        &["scramble", "scramble10-two-lamps.txt"],
        "OPTIMAL",
        None,
    ),
];

/// Run one case and check its answer.
fn run_checked(args: &[String], status: &str, count: Option<u64>) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::run(args, &mut std::io::empty(), &mut out, &mut err);
    assert_eq!(code, 0, "{args:?}: {}", String::from_utf8_lossy(&err));
    let json: Value = serde_json::from_slice(&out).expect("one JSON line");
    assert_eq!(json["status"], status, "{args:?}");
    if let Some(n) = count {
        assert_eq!(json["count"], n, "{args:?}");
    }
}

fn new_puzzles(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../puzzles/instances/beyond/");
    let mut group = c.benchmark_group("new_puzzles");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    for &(name, words, status, count) in CASES {
        // The file argument (the second word, when it names a file) is relative to the folder.
        let args: Vec<String> = words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i == 1 && w.contains('.') {
                    format!("{dir}{w}")
                } else {
                    w.to_string()
                }
            })
            .chain(["--json", "-p", "1"].map(String::from))
            .collect();
        group.bench_function(name, |b| b.iter(|| run_checked(&args, status, count)));
    }
    group.finish();
}

criterion_group!(benches, new_puzzles);
criterion_main!(benches);
