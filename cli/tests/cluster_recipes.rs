//! The cluster recipes of docs/cluster.md, run as far as this machine allows: the GNU
//! parallel script on two local job slots (and through `--sshlogin` to the local host), the
//! Slurm array script with the task index Slurm would set, a single-node Slurm started for
//! the test (skipped, saying why, where it cannot start), and the Kubernetes indexed Job's
//! command line with the index Kubernetes would set.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const CPSOLVE: &str = env!("CARGO_BIN_EXE_cpsolve");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh working folder for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cluster-recipes")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `cpsolve split queens 10 --count --parts N` into `dir/parts.jsonl`; the number of parts.
fn split_queens(dir: &Path, parts: usize) -> usize {
    let out = Command::new(CPSOLVE)
        .args([
            "split",
            "queens",
            "10",
            "--count",
            "--parts",
            &parts.to_string(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(dir.join("parts.jsonl"), &out.stdout).unwrap();
    String::from_utf8(out.stdout).unwrap().lines().count() - 1
}

fn merge(dir: &Path) -> Value {
    let out = Command::new(CPSOLVE)
        .current_dir(dir)
        .args(["merge", "parts.jsonl", "results"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The last line of `parallel.sh`'s output: merge's JSON line.
fn run_parallel_script(dir: &Path, options: &[&str]) -> Value {
    let out = Command::new(repo().join("docs/recipes/parallel.sh"))
        .current_dir(dir)
        .env("CPSOLVE", CPSOLVE)
        .args(["parts.jsonl", "results"])
        .args(options)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
}

/// GNU parallel is installed in CI (.ci/run): missing there, it is a failure; elsewhere
/// the test is skipped, saying so.
fn have_parallel() -> bool {
    if have("parallel") {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "GNU parallel is installed in CI"
    );
    engine::testing::skip("GNU parallel is not installed");
    false
}

#[test]
fn gnu_parallel_on_two_local_slots() {
    if !have_parallel() {
        return;
    }
    let dir = workdir("parallel");
    let parts = split_queens(&dir, 12);
    let merged = run_parallel_script(&dir, &["-j", "2"]);
    assert_eq!(merged["count"], 724);
    assert_eq!(merged["status"], "ALL_SOLUTIONS");
    assert_eq!(merged["parts_done"], parts);
    // Through --sshlogin (":" is GNU parallel's name for the local host, without ssh):
    // every part runs again, its result replacing the first run's, and merge still counts
    // each once.
    let merged = run_parallel_script(&dir, &["--sshlogin", "2/:"]);
    assert_eq!(merged["count"], 724);
    let files = std::fs::read_dir(dir.join("results")).unwrap().count();
    assert_eq!(files, parts, "one result for every part");
}

#[test]
fn gnu_parallel_solves_the_parts_of_a_flatzinc_model() {
    if !have_parallel() {
        return;
    }
    let dir = workdir("parallel-fzn");
    let model = repo().join("tests/minizinc/queens.fzn");
    let out = Command::new(CPSOLVE)
        .args(["split", model.to_str().unwrap(), "-a", "--parts", "10"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(dir.join("parts.jsonl"), &out.stdout).unwrap();
    let merged = run_parallel_script(&dir, &["-j", "2"]);
    assert_eq!(merged["count"], 92);
    assert_eq!(merged["solutions"].as_array().unwrap().len(), 92);
    assert_eq!(merged["status"], "ALL_SOLUTIONS");
}

#[test]
fn the_slurm_script_solves_the_part_of_its_array_task() {
    let dir = workdir("slurm-script");
    let parts = split_queens(&dir, 10);
    for task in 0..parts {
        let status = Command::new(repo().join("docs/recipes/slurm-array.sh"))
            .current_dir(&dir)
            .env("CPSOLVE", CPSOLVE)
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .args(["parts.jsonl", "results"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert_eq!(merge(&dir)["count"], 724);
}

#[test]
fn the_kubernetes_manifest_runs_with_its_completion_index() {
    let manifest = std::fs::read_to_string(repo().join("docs/recipes/k8s-indexed-job.yaml"))
        .expect("the manifest ships in the repo");
    if have("python3") {
        let parsed = Command::new("python3")
            .args([
                "-c",
                "import sys, yaml; d = yaml.safe_load(sys.stdin); \
                 assert d['kind'] == 'Job' and d['spec']['completionMode'] == 'Indexed'",
            ])
            .stdin(std::fs::File::open(repo().join("docs/recipes/k8s-indexed-job.yaml")).unwrap())
            .status();
        match parsed {
            Ok(s) => assert!(s.success(), "the manifest is an indexed Job in YAML"),
            Err(e) => println!("not parsed as YAML (python3: {e})"),
        }
    } else {
        engine::testing::skip("the YAML parse: no python3");
    }
    // The container's command is a YAML flow sequence of quoted strings: JSON.
    let command: Vec<String> = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("command:"))
        .map(|c| serde_json::from_str(c.trim()).unwrap())
        .expect("a command line");
    assert_eq!(command[0], "cpsolve");
    let dir = workdir("k8s");
    let parts = split_queens(&dir, 12);
    for index in 0..parts {
        let status = Command::new(CPSOLVE)
            .current_dir(&dir)
            .args(&command[1..])
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert_eq!(merge(&dir)["count"], 724);
}

/// Stops the test's own Slurm and munge daemons (by their pid files), however the test ends.
struct LocalSlurm {
    dir: PathBuf,
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        let _ = Command::new(repo().join("scripts/slurm-local.sh"))
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

#[test]
fn a_slurm_job_array_on_a_single_node_slurm() {
    let missing: Vec<&str> = [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "python3",
        "timeout",
    ]
    .into_iter()
    .filter(|p| !have(p))
    .collect();
    if !missing.is_empty() {
        engine::testing::skip(&format!("not installed: {}", missing.join(", ")));
        return;
    }
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    if !is_root {
        engine::testing::skip("a local slurmd must run as root");
        return;
    }
    let dir = workdir("slurm");
    let slurm = LocalSlurm {
        dir: dir.join("slurm"),
    };
    std::fs::create_dir_all(&slurm.dir).unwrap();
    let started = Command::new(repo().join("scripts/slurm-local.sh"))
        .arg("start")
        .arg(&slurm.dir)
        .output()
        .unwrap();
    if !started.status.success() {
        println!(
            "skipped: the local Slurm did not start: {}",
            String::from_utf8_lossy(&started.stderr)
        );
        return;
    }
    let conf = slurm.dir.join("slurm.conf");
    // Wait (at most 15 s) for the node to be idle, so that a Slurm that cannot work here is
    // skipped at once rather than holding sbatch until its timeout.
    let idle = (0..30).any(|_| {
        let state = Command::new("timeout")
            .env("SLURM_CONF", &conf)
            .args(["5", "sinfo", "-h", "-o", "%T"])
            .output();
        let ready = state.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("idle"));
        if !ready {
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
        ready
    });
    if !idle {
        engine::testing::skip("the local Slurm node did not become idle within 15 s");
        return;
    }
    let parts = split_queens(&dir, 8);
    // --wait: sbatch returns when every task has ended (with the array's exit status).
    let out = Command::new("timeout")
        .current_dir(&dir)
        .env("SLURM_CONF", &conf)
        .env("CPSOLVE", CPSOLVE)
        .args(["60", "sbatch", "--wait", "--export=ALL"])
        .arg(format!("--array=0-{}", parts - 1))
        .arg(repo().join("docs/recipes/slurm-array.sh"))
        .args(["parts.jsonl", "results"])
        .output()
        .unwrap();
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The controller may refuse work on a machine without the resources it expects.
        engine::testing::skip(&format!("sbatch failed ({stderr})"));
        return;
    }
    let merged = merge(&dir);
    assert_eq!(merged["count"], 724);
    assert_eq!(merged["parts_done"], parts);
}
