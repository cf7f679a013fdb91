//! # A portfolio: several searches racing for one answer
//!
//! Counting splits one tree between threads (`parallel.rs`). Finding *one* solution, or an
//! optimum, does not split so well: most subtrees hold nothing and the answer may be in the
//! last one. The alternative is a **portfolio** (Gomes & Selman 2001): run differently
//! configured searches of the whole problem at the same time — other random seeds, other
//! heuristics, restarts — and take the answer of the first one that finishes. Their running
//! times on hard instances vary wildly, so the fastest of N is often much faster than the
//! average one. The others are stopped through the shared stop flag of their [`Limits`].
//!
//! [`Limits`]: super::Limits

use super::events::NoListener;
use super::{search, Control, Outcome, SearchConfig};
use crate::model::Model;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Run one search per config, in parallel, and return the outcome of the first that
/// completes (proves its answer, or reaches its solution limit). If none completes (all hit
/// their limits), return the best: for optimisation the best objective, else any solution.
pub fn race(model: &Model, configs: &[SearchConfig]) -> Outcome {
    assert!(
        !configs.is_empty(),
        "a portfolio needs at least one configuration"
    );
    if configs.len() == 1 {
        let mut m = model.clone();
        return search(&mut m, &configs[0], &mut NoListener, &mut |_| {
            Control::Continue
        });
    }
    let stop = Arc::new(AtomicBool::new(false));
    let winner: Mutex<Option<Outcome>> = Mutex::new(None);
    let others: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        if let Some(outer) = configs[0].limits.stop.clone() {
            // An outer stop flag (a signal) still stops every search: a watcher passes it on
            // to ours until the race is over.
            let (stop, done) = (&stop, &done);
            scope.spawn(move || {
                while done.load(Ordering::SeqCst) < configs.len() && !stop.load(Ordering::SeqCst) {
                    if outer.load(Ordering::Relaxed) {
                        stop.store(true, Ordering::SeqCst);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            });
        }
        for config in configs {
            let mut config = config.clone();
            config.limits.stop = Some(stop.clone());
            let (stop, winner, others, done) = (&stop, &winner, &others, &done);
            let mut m = model.clone();
            scope.spawn(move || {
                let outcome = search(&mut m, &config, &mut NoListener, &mut |_| Control::Continue);
                let finished = outcome.complete
                    || config
                        .solution_limit
                        .is_some_and(|n| outcome.solutions >= n);
                if finished && !stop.swap(true, Ordering::SeqCst) {
                    *winner.lock().unwrap() = Some(outcome);
                } else {
                    others.lock().unwrap().push(outcome);
                }
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
    });
    if let Some(w) = winner.into_inner().unwrap() {
        return w;
    }
    let mut all = others.into_inner().unwrap();
    let minimize = configs[0].objective.map(|o| o.minimize);
    // A search that completed after the others were told to stop still has the proof.
    all.sort_by_key(|o| {
        let rank = match (o.objective, minimize) {
            (Some(v), Some(true)) => (0, v),
            (Some(v), Some(false)) => (0, -v),
            (None, _) if o.best.is_some() => (1, 0),
            _ => (2, 0),
        };
        (!o.complete, rank)
    });
    all.into_iter().next().unwrap()
}

/// `n` configs derived from `base`: the first is `base` itself, the others use dom/wdeg,
/// random values and Luby restarts with different seeds.
pub fn diversify(base: &SearchConfig, n: usize) -> Vec<SearchConfig> {
    use super::{RestartPolicy, ValSelect, VarSelect};
    (0..n)
        .map(|i| {
            if i == 0 {
                base.clone()
            } else {
                SearchConfig {
                    var_select: if i % 2 == 1 {
                        VarSelect::DomWDeg
                    } else {
                        base.var_select.clone()
                    },
                    val_select: ValSelect::Random,
                    val_select_of: Vec::new(),
                    restarts: RestartPolicy::Luby { scale: 50 },
                    seed: base.seed.wrapping_add(i as u64 * 7919),
                    ..base.clone()
                }
            }
        })
        .collect()
}
