//! # Counting on every core
//!
//! Counting all solutions means visiting the whole tree, and disjoint subtrees can be visited
//! independently. So: cut the top of the tree into many subproblems, with the same binary
//! decisions the sequential search uses (each subproblem is the list of decisions that leads
//! to it); then let every thread take subproblems one after the other and search them. The
//! two branches of every decision, `x = v` and `x != v`, are disjoint and together cover the
//! parent, so the subproblems partition the tree: no solution is counted twice, none is
//! missed.
//!
//! **Balance is everything.** A binary decision splits very unevenly: `x = v` leaves a
//! small subtree, `x != v` nearly all of it. Cutting the tree breadth-first to a fixed depth
//! therefore leaves one subproblem (`x != v` again and again) holding about half of the
//! work, and two threads can never be more than ~1.3× faster than one. Instead we keep
//! splitting **the largest open subproblem**, estimated by the size of its search space
//! (the product of the domain sizes of the variables still to fix, kept as a sum of
//! logarithms), until there are many subproblems per thread. The threads then take them
//! **largest first** from a shared counter (the classic "longest processing time first"
//! rule), so the small ones fill the gaps at the end.
//!
//! Each thread copies the model once, and between two subproblems returns it to the root
//! with the trail (`push_level` / `pop_level`), so a subproblem costs no allocation. Plain
//! scoped threads are enough: no pool is built or kept.

use super::brancher::{Brancher, Decision};
use super::events::NoListener;
use super::progress::{Progress, ProgressListener};
use super::stats::SearchStats;
use super::{search, Control, Outcome, SearchConfig};
use crate::model::Model;
use crate::store::VarId;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Subproblems per thread.
const SUBPROBLEMS_PER_THREAD: usize = 64;

/// One subproblem: the decisions that lead to it from the root, and the base-2 logarithm of
/// the size of its search space (the estimate used to split and to order the work).
#[derive(Clone, Debug)]
struct Subproblem {
    path: Vec<Decision>,
    log_size: f64,
}

/// log2 of the product of the domain sizes of `vars` in `m`.
fn log_search_space(m: &Model, vars: &[VarId]) -> f64 {
    vars.iter().map(|&x| (m.store.size(x) as f64).log2()).sum()
}

/// Has the deadline passed, or has another thread asked to stop?
fn limit_passed(limits: &crate::search::Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

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
        // Learning is for the sequential search: the parts count without it.
        learn: config.learn && threads <= 1,
        ..config.clone()
    };
    if threads <= 1 {
        return count_one(&mut model.clone(), &count_config, progress);
    }

    let mut root = model.clone();
    let mut expansion = SearchStats::default();
    // The root's propagation and the splitting give way to the limits too (interrupt.rs);
    // an interrupted one leaves the count incomplete, never smaller.
    let limits = &count_config.limits;
    let _ = root.set_stop_check(crate::StopCheck::new(limits.deadline, limits.stop.clone()));
    let mut interrupted = false;
    if root.propagate().is_err() {
        return Outcome {
            complete: !root.is_interrupted(),
            stats: SearchStats {
                failures: 1,
                time: started.elapsed(),
                ..Default::default()
            },
            ..Default::default()
        };
    }

    // Split the largest open subproblem until there are enough. Only primary decisions are
    // expanded, so projected counting stays exact: a subproblem never splits a primary
    // assignment.
    let primary: Vec<VarId> = match &count_config.branch_vars {
        Some(vars) => vars.clone(),
        None => (0..root.num_vars() as u32).map(VarId).collect(),
    };
    let target = threads * SUBPROBLEMS_PER_THREAD;
    let mut brancher = Brancher::from_config(&root, &count_config);
    let mut open = vec![Subproblem {
        path: Vec::new(),
        log_size: log_search_space(&root, &primary),
    }];
    // Subproblems whose primary variables are all fixed: nothing left to split.
    let mut unsplittable: Vec<Subproblem> = Vec::new();
    while !open.is_empty() && open.len() + unsplittable.len() < target {
        // Splitting propagates at every step, which on a large model takes long: a time
        // limit or a stop request ends it too (each subproblem then stops at its first node).
        if limit_passed(&count_config.limits) {
            break;
        }
        let largest = (0..open.len())
            .max_by(|&a, &b| open[a].log_size.total_cmp(&open[b].log_size))
            .expect("open is not empty");
        let job = open.swap_remove(largest);
        let mut m = root.clone();
        if !apply_path(&mut m, &job.path) {
            if m.is_interrupted() {
                interrupted = true;
                break;
            }
            expansion.failures += 1;
            continue;
        }
        let Some((d, true)) = brancher.next(&m) else {
            unsplittable.push(job);
            continue;
        };
        for branch in [d, d.negation()] {
            expansion.nodes += 1;
            let mut child = m.clone();
            if branch.apply(&mut child).is_err() || child.propagate().is_err() {
                interrupted |= child.is_interrupted();
                expansion.failures += 1;
                continue;
            }
            let mut path = job.path.clone();
            path.push(branch);
            open.push(Subproblem {
                path,
                log_size: log_search_space(&child, &primary),
            });
        }
    }
    let mut jobs = open;
    jobs.extend(unsplittable);
    jobs.sort_by(|a, b| b.log_size.total_cmp(&a.log_size));
    if let Some(p) = progress {
        p.subproblems_total
            .store(jobs.len() as u64, Ordering::Relaxed);
    }

    // Each thread takes the next job (largest first) until none is left.
    let next_job = AtomicUsize::new(0);
    let mut results: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(jobs.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut m = root.clone();
                    let mut done = Vec::new();
                    loop {
                        let k = next_job.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(k) else {
                            return done;
                        };
                        m.propagation.reset_counters();
                        m.store.push_level();
                        let outcome = if apply_path(&mut m, &job.path) {
                            count_one(&mut m, &count_config, progress)
                        } else {
                            m.propagation.abandon(&mut m.store);
                            Outcome {
                                complete: !m.is_interrupted(),
                                profile: m.propagation.profile(),
                                ..Default::default()
                            }
                        };
                        m.store.pop_level();
                        if let Some(p) = progress {
                            p.subproblems_done.fetch_add(1, Ordering::Relaxed);
                        }
                        done.push((k, outcome));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a counting thread panicked"))
            .collect()
    });
    // Sum in job order, so that the result does not depend on which thread ran what.
    results.sort_by_key(|&(k, _)| k);
    let results = results.into_iter().map(|(_, r)| r);

    let mut outcome = Outcome {
        complete: !interrupted,
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
