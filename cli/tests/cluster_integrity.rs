//! `merge` cannot miscount (issue 30): a parts file cut at any line or byte, results cut,
//! missing, duplicated or mixed in from another run, counts that would wrap, a bound file
//! of another split, a worker killed in the middle of its part — each gives exit 2 with one
//! line naming what is wrong, or the true answer; never another verdict.
//!
//! The first three tests are the reproductions of the issue: `head -n 5` of an 8-part
//! queens split merged to a count of 52 (there are 92), the header alone to UNSATISFIABLE,
//! and eight results of 2^63 each added up to 0.

mod common;

use common::{cpsolve, scratch, Ran};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn ok(args: &[&str]) -> Ran {
    let ran = cpsolve(args, b"");
    assert_eq!(ran.status, 0, "{args:?}: {}", ran.stderr);
    ran
}

fn fresh_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Split, write the parts file, solve every part into a fresh folder: (parts file, folder,
/// number of parts).
fn split_and_solve(name: &str, args: &[&str], parts: usize) -> (PathBuf, PathBuf, usize) {
    let parts = parts.to_string();
    let mut all = vec!["split"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--parts", &parts]);
    let ran = ok(&all);
    let path = scratch(&format!("{name}.parts.jsonl"));
    std::fs::write(&path, &ran.stdout).unwrap();
    let total = ran.json_lines()[0]["parts"].as_u64().unwrap() as usize;
    let results = fresh_folder(&format!("{name}.results"));
    for i in 0..total {
        let index = i.to_string();
        ok(&[
            "solve-part",
            path.to_str().unwrap(),
            "--index",
            &index,
            "-o",
            results.to_str().unwrap(),
        ]);
    }
    (path, results, total)
}

fn merge(parts: &Path, results: &Path) -> Ran {
    cpsolve(
        &["merge", parts.to_str().unwrap(), results.to_str().unwrap()],
        b"",
    )
}

/// Exit 2, nothing on standard output, one `error:` line (containing `says`).
fn assert_refused(ran: &Ran, says: &str) {
    assert_eq!(ran.status, 2, "{}", ran.stdout);
    assert!(ran.stdout.is_empty(), "{}", ran.stdout);
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    assert!(ran.stderr.starts_with("error: "), "{}", ran.stderr);
    assert!(ran.stderr.contains(says), "{says}: {}", ran.stderr);
}

fn text_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_parts_file_cut_after_five_lines_is_refused_not_counted_52() {
    let (path, results, total) = split_and_solve("head5", &["queens", "8", "--count"], 8);
    assert_eq!(total, 8);
    let whole = merge(&path, &results);
    assert_eq!(whole.status, 0, "{}", whole.stderr);
    assert_eq!(whole.json()["count"], 92);
    let cut = scratch("head5.cut.jsonl");
    std::fs::write(&cut, text_lines(&path)[..5].join("\n") + "\n").unwrap();
    assert_refused(
        &merge(&cut, &results),
        "cut short: the header states 8 parts",
    );
}

#[test]
fn the_header_alone_is_refused_not_unsatisfiable() {
    let (path, results, _) = split_and_solve("header", &["queens", "8", "--count"], 8);
    let cut = scratch("header.cut.jsonl");
    std::fs::write(&cut, text_lines(&path)[0].clone() + "\n").unwrap();
    assert_refused(&merge(&cut, &results), "8 of them have no line");
    // Without results either (a folder never made).
    assert_refused(&merge(&cut, &scratch("header.nowhere")), "cut short");
}

/// Every result file of `results` rewritten by `change`.
fn rewrite_results(results: &Path, change: impl Fn(&mut Value)) {
    for entry in std::fs::read_dir(results).unwrap() {
        let file = entry.unwrap().path();
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        change(&mut v);
        std::fs::write(&file, format!("{v}\n")).unwrap();
    }
}

#[test]
fn eight_counts_of_two_to_the_63_are_refused_not_added_to_zero() {
    let (path, results, total) = split_and_solve("wrap", &["queens", "8", "--count"], 8);
    assert_eq!(total, 8);
    rewrite_results(&results, |v| {
        v["count"] = (1u64 << 63).into();
        v["solutions"] = (1u64 << 63).into();
    });
    // Each part's search space is far below 2^63: an impossible count.
    assert_refused(&merge(&path, &results), "an impossible result");
    // Without the stated search spaces (a parts file of another writer), the sum itself
    // is checked: 8 × 2^63 does not fit in 64 bits.
    let lines: Vec<String> = text_lines(&path)
        .iter()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.remove("log2_space");
            }
            v.to_string()
        })
        .collect();
    let unbounded = scratch("wrap.unbounded.jsonl");
    std::fs::write(&unbounded, lines.join("\n") + "\n").unwrap();
    assert_refused(&merge(&unbounded, &results), "add up past 2^64 - 1");
}

/// The merged answer of `path` with `results`, when the merge gives one.
fn verdict(path: &Path, results: &Path) -> Option<Value> {
    let ran = merge(path, results);
    match ran.status {
        0 => Some(ran.json()),
        2 => {
            assert!(ran.stdout.is_empty(), "{}", ran.stdout);
            assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
            None
        }
        other => panic!("exit {other}: {}", ran.stderr),
    }
}

/// The merged answer without its timings (which vary between runs).
fn answer(mut v: Value) -> Value {
    v["stats"] = Value::Null;
    v
}

#[test]
fn a_parts_file_cut_at_any_byte_never_gives_a_verdict() {
    let (path, results, _) = split_and_solve("bytes", &["queens", "6", "--count"], 6);
    let whole = std::fs::read(&path).unwrap();
    let expected = answer(verdict(&path, &results).expect("the whole file merges"));
    assert_eq!(expected["count"], 4);
    let cut = scratch("bytes.cut.jsonl");
    let mut verdicts = 0;
    for end in 0..whole.len() {
        std::fs::write(&cut, &whole[..end]).unwrap();
        if let Some(v) = verdict(&cut, &results) {
            // Only the whole text, without its final end of line, is still the whole file.
            assert_eq!(
                end,
                whole.len() - 1,
                "a verdict from {end} bytes of {}",
                whole.len()
            );
            assert_eq!(answer(v), expected);
            verdicts += 1;
        }
    }
    assert_eq!(verdicts, 1);
}

#[test]
fn a_result_cut_at_any_byte_or_removed_never_gives_a_verdict() {
    // A count, an optimisation and a satisfaction problem.
    let cases: [(&str, &[&str], usize); 3] = [
        ("rbytes-count", &["queens", "6", "--count"], 4),
        ("rbytes-optimum", &["slider"], 4),
        ("rbytes-satisfy", &["monodot"], 3),
    ];
    for (name, args, parts) in cases {
        let (path, results, total) = split_and_solve(name, args, parts);
        let expected = answer(verdict(&path, &results).expect("the whole results merge"));
        for index in 0..total {
            let file = results.join(format!("part-{index:06}.json"));
            let whole = std::fs::read(&file).unwrap();
            for end in 0..whole.len() {
                std::fs::write(&file, &whole[..end]).unwrap();
                if let Some(v) = verdict(&path, &results) {
                    assert_eq!(end, whole.len() - 1, "{name}: part {index} cut at {end}");
                    assert_eq!(answer(v), expected);
                }
            }
            // The folder cut at this file: the file gone.
            std::fs::remove_file(&file).unwrap();
            assert!(
                verdict(&path, &results).is_none(),
                "{name}: part {index} removed"
            );
            std::fs::write(&file, &whole).unwrap();
        }
        assert_eq!(answer(verdict(&path, &results).unwrap()), expected);
    }
}

#[test]
fn results_of_another_run_mixed_in_are_refused_by_name() {
    let (path, results, _) = split_and_solve("mixed", &["queens", "8", "--count"], 8);
    // Another cut of the same instance, another instance, another mode.
    let others = [
        split_and_solve("mixed-cut", &["queens", "8", "--count"], 5),
        split_and_solve("mixed-instance", &["queens", "7", "--count"], 8),
        split_and_solve(
            "mixed-alldiff",
            &["queens", "8", "--count", "--alldiff", "value"],
            8,
        ),
    ];
    for (_, foreign_results, _) in &others {
        let foreign = foreign_results.join("part-000001.json");
        let mine = results.join("part-000001.json");
        let kept = std::fs::read(&mine).unwrap();
        std::fs::copy(&foreign, &mine).unwrap();
        assert_refused(&merge(&path, &results), "a result of another split");
        // Beside this split's own result, under another name: still refused.
        std::fs::write(&mine, &kept).unwrap();
        std::fs::copy(&foreign, results.join("stray.json")).unwrap();
        assert_refused(
            &merge(&path, &results),
            "stray.json:1: a result of another split",
        );
        std::fs::remove_file(results.join("stray.json")).unwrap();
    }
    // A part line of another split pasted into the parts file.
    let mut lines = text_lines(&path);
    lines[3] = text_lines(&others[1].0)[3].clone();
    let mixed = scratch("mixed-pasted.parts.jsonl");
    std::fs::write(&mixed, lines.join("\n") + "\n").unwrap();
    assert_refused(&merge(&mixed, &results), ":4: a part of another split");
    // Two results of one part, in two folders.
    let again = fresh_folder("mixed.again");
    std::fs::copy(
        results.join("part-000002.json"),
        again.join("part-000002.json"),
    )
    .unwrap();
    let ran = cpsolve(
        &[
            "merge",
            path.to_str().unwrap(),
            results.to_str().unwrap(),
            again.to_str().unwrap(),
        ],
        b"",
    );
    assert_refused(&ran, "part 2 has two results");
    assert_eq!(verdict(&path, &results).unwrap()["count"], 92);
}

#[test]
fn a_bound_file_of_another_split_or_out_of_range_is_refused() {
    let (path, _, total) = split_and_solve("bounded", &["colouring"], 4);
    assert!(total > 0);
    let bound = scratch("bounded.best");
    let solve = |contents: &str| {
        std::fs::write(&bound, contents).unwrap();
        cpsolve(
            &[
                "solve-part",
                path.to_str().unwrap(),
                "--index",
                "0",
                "--bound-file",
                bound.to_str().unwrap(),
            ],
            b"",
        )
    };
    assert_refused(
        &solve("3 fnv1a64:0000000000000000\n"),
        "the bound of another split",
    );
    assert_refused(&solve("4294967296\n"), "not a bound");
    assert_refused(&solve("three\n"), "not a bound");
    // A bound a user states (a number alone), and this split's own: accepted.
    assert_eq!(solve("100\n").status, 0);
    let digest = ok(&["solve-part", path.to_str().unwrap(), "--index", "0"]).json()["digest"]
        .as_str()
        .unwrap()
        .to_string();
    let ran = solve(&format!("100 {digest}\n"));
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    // The part writes its better bound back, with the digest.
    let written = std::fs::read_to_string(&bound).unwrap();
    assert!(written.trim_end().ends_with(&digest), "{written}");
}

#[test]
fn a_flag_like_word_is_a_flag_or_an_error() {
    let (path, results, _) = split_and_solve("flags", &["queens", "6", "--count"], 2);
    let (p, r) = (path.to_str().unwrap(), results.to_str().unwrap());
    // `--json` is the default form of merge's answer.
    assert_eq!(ok(&["merge", p, r, "--json"]).json()["count"], 4);
    assert_eq!(ok(&["merge", p, "--json", r]).json()["count"], 4);
    for args in [
        &["merge", p, r, "--jsn"][..],
        &["merge", p, r, "-x"],
        &["merge", p, r, "--json", "--fzn"],
        &["solve-part", p, "--index", "0", "--quiet"],
    ] {
        let ran = cpsolve(args, b"");
        assert_refused(&ran, "");
    }
    // `--missing` lists the parts without a result, one a line.
    std::fs::remove_file(results.join("part-000001.json")).unwrap();
    assert_eq!(ok(&["merge", p, r, "--missing"]).stdout, "1\n");
}

/// The binary, for the tests that signal a worker.
fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cpsolve"))
}

/// Start part 0 of a long split, let it run, signal it, wait for it.
fn signalled_worker(name: &str, signal: &str) -> (PathBuf, PathBuf) {
    // One part: the whole count of 16 queens (14,772,512 solutions, seconds of search).
    let parts = ok(&["split", "queens", "16", "--count", "--parts", "1"]);
    let path = scratch(&format!("{name}.parts.jsonl"));
    std::fs::write(&path, &parts.stdout).unwrap();
    let results = fresh_folder(&format!("{name}.results"));
    let mut child = std::process::Command::new(binary())
        .args(["solve-part", path.to_str().unwrap(), "--index", "0", "-o"])
        .arg(&results)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let status = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let _ = child.wait().unwrap();
    (path, results)
}

#[test]
fn a_worker_killed_in_the_middle_of_its_part_never_gives_a_verdict() {
    // SIGKILL: nothing is written (the result is renamed into place whole, or not at all).
    let (path, results) = signalled_worker("killed", "-KILL");
    let visible: Vec<_> = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert!(visible.is_empty(), "{visible:?}");
    assert_refused(&merge(&path, &results), "have no result");
    // SIGTERM: the part stops like a time limit and says it is incomplete.
    let (path, results) = signalled_worker("terminated", "-TERM");
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("part-000000.json")).unwrap())
            .unwrap();
    assert_eq!(result["complete"], false, "{result}");
    assert_eq!(result["status"], "UNKNOWN");
    // The verdict is UNKNOWN, its count a lower bound, and the part is to be run again.
    let ran = merge(&path, &results);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let merged = ran.json();
    assert_eq!(merged["status"], "UNKNOWN");
    assert!(merged["count"].as_u64().unwrap() < 14_772_512);
    assert!(ran.stderr.contains("rerun them"), "{}", ran.stderr);
}
