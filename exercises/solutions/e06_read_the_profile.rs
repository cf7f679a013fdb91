//! Model answer of exercise 6 (see `exercises/src/e06_read_the_profile.rs`).

use engine::PropagatorProfile;

/// The kind of propagator with the most values removed per call, or `None` if none ran.
pub fn most_removals_per_call(profile: &PropagatorProfile) -> Option<&'static str> {
    let mut best: Option<(&'static str, u64, u64)> = None;
    for (&name, counters) in &profile.by_kind {
        if counters.calls == 0 {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, removed, calls)) => {
                counters.removed as u128 * calls as u128 > removed as u128 * counters.calls as u128
            }
        };
        if better {
            best = Some((name, counters.removed, counters.calls));
        }
    }
    best.map(|(name, _, _)| name)
}
