//! # Counting on every core
//!
//! Counting all solutions means visiting the whole tree, and disjoint subtrees can be visited
//! independently. So: expand the top of the tree breadth-first, with the same binary
//! decisions the sequential search uses, until there are many more open nodes than threads
//! (each open node is the list of decisions that leads to it); then let `rayon`'s
//! work-stealing pool search them, each on its own clone of the model. The two branches of
//! every decision, `x = v` and `x != v`, are disjoint and together cover the parent, so the
//! subtrees partition the tree: no solution is counted twice, none is missed.
//!
//! Many small subproblems (64 per thread here) keep both cores busy even when the subtrees
//! are of very different sizes.

use super::brancher::{Brancher, Decision};
use super::events::NoListener;
use super::progress::{Progress, ProgressListener};
use super::{search, Control, Outcome, SearchConfig};
use crate::model::Model;
use crate::stats::SearchStats;
use rayon::prelude::*;
use std::time::Instant;

/// Subproblems per thread.
const SUBPROBLEMS_PER_THREAD: usize = 64;

/// Count the solutions of `model` with `threads` threads. The counts are those of
/// [`search`] with the same config (projection included); limits apply to each subproblem.
pub fn count_parallel(model: &Model, config: &SearchConfig, threads: usize) -> Outcome {
    count_parallel_with_progress(model, config, threads, None)
}

/// [`count_parallel`], publishing its progress (nodes, solutions, subproblems done) to
/// `progress` for a progress bar running on another thread.
pub fn count_parallel_with_progress(
    model: &Model,
    config: &SearchConfig,
    threads: usize,
    progress: Option<&Progress>,
) -> Outcome {
    let started = Instant::now();
    let count_config = SearchConfig {
        objective: None,
        solution_limit: None,
        ..config.clone()
    };
    if threads <= 1 {
        return count_one(&mut model.clone(), &count_config, progress);
    }

    let mut root = model.clone();
    let mut expansion = SearchStats::default();
    if root.propagate().is_err() {
        return Outcome {
            complete: true,
            stats: SearchStats {
                failures: 1,
                time: started.elapsed(),
                ..Default::default()
            },
            ..Default::default()
        };
    }

    // Breadth-first expansion of the top of the tree. Only primary decisions are expanded,
    // so projected counting stays exact: a subproblem never splits a primary assignment.
    let mut frontier: Vec<Vec<Decision>> = vec![Vec::new()];
    let target = threads * SUBPROBLEMS_PER_THREAD;
    let mut brancher = Brancher::new(
        &root,
        count_config.branch_vars.as_deref(),
        count_config.var_select.clone(),
        count_config.val_select,
        count_config.seed,
    );
    let mut leaves: Vec<Vec<Decision>> = Vec::new();
    while !frontier.is_empty() && frontier.len() + leaves.len() < target {
        let mut next = Vec::with_capacity(frontier.len() * 2);
        for path in frontier {
            let mut m = root.clone();
            if !apply_path(&mut m, &path) {
                expansion.failures += 1;
                continue;
            }
            match brancher.next(&m) {
                Some((d, true)) => {
                    expansion.nodes += 2;
                    let mut left = path.clone();
                    left.push(d);
                    let mut right = path;
                    right.push(d.negation());
                    next.push(left);
                    next.push(right);
                }
                // All primary variables fixed: search this node as it is.
                _ => leaves.push(path),
            }
        }
        frontier = next;
    }
    leaves.extend(frontier);
    if let Some(p) = progress {
        p.subproblems_total
            .store(leaves.len() as u64, std::sync::atomic::Ordering::Relaxed);
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let results: Vec<Outcome> = pool.install(|| {
        leaves
            .par_iter()
            .map(|path| {
                let mut m = root.clone();
                m.propagation.reset_counters();
                let outcome = if apply_path(&mut m, path) {
                    count_one(&mut m, &count_config, progress)
                } else {
                    let profile = m.propagation.profile();
                    Outcome {
                        complete: true,
                        profile,
                        ..Default::default()
                    }
                };
                if let Some(p) = progress {
                    p.subproblems_done
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                outcome
            })
            .collect()
    });

    let mut outcome = Outcome {
        complete: true,
        stats: expansion,
        profile: root.propagation.profile(),
        ..Default::default()
    };
    for r in results {
        outcome.complete &= r.complete;
        outcome.solutions += r.solutions;
        outcome.stats.add(&r.stats);
        outcome.profile.add(&r.profile);
        if outcome.best.is_none() {
            outcome.best = r.best;
        }
    }
    outcome.stats.solutions = outcome.solutions;
    outcome.stats.time = started.elapsed();
    root.propagation.abandon(&mut root.store);
    outcome
}

/// Count the solutions of one (sub)problem sequentially.
fn count_one(m: &mut Model, config: &SearchConfig, progress: Option<&Progress>) -> Outcome {
    match progress {
        Some(p) => search(m, config, &mut ProgressListener::new(p), &mut |_| {
            Control::Continue
        }),
        None => search(m, config, &mut NoListener, &mut |_| Control::Continue),
    }
}

/// Apply a list of decisions at the root of `m` and propagate. False on conflict.
fn apply_path(m: &mut Model, path: &[Decision]) -> bool {
    for d in path {
        if d.apply(m).is_err() || m.propagate().is_err() {
            return false;
        }
    }
    true
}
