//! # Restart policies
//!
//! A depth-first search that guesses wrong near the root can spend hours in one hopeless
//! subtree. Restarting — giving up after some number of failures and starting again from the
//! root, with what was learnt kept (the dom/wdeg weights, a random seed that changes the
//! value order, the best bound so far) — spreads the effort over many parts of the tree.
//! The cutoffs grow, so the search stays complete: eventually one run is allowed to finish.
//!
//! * **Luby** (Luby, Sinclair, Zuckerman 1993): cutoffs `scale × 1,1,2,1,1,2,4,1,1,2,...`,
//!   within a log factor of the best fixed cutoff for any problem;
//! * **geometric** (Walsh 1999): `base × factor^k`;
//! * **constant**: `scale` every run; **linear**: `scale × (k + 1)` (MiniZinc's
//!   `restart_constant` and `restart_linear`; a constant cutoff gives up completeness, the
//!   others do not).

use std::str::FromStr;

/// When to restart.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum RestartPolicy {
    #[default]
    Never,
    Luby {
        scale: u64,
    },
    Geometric {
        base: u64,
        factor: f64,
    },
    Constant {
        scale: u64,
    },
    Linear {
        scale: u64,
    },
}

impl RestartPolicy {
    /// The failure limit of run number `k` (0-based), or `None` for no limit.
    pub fn cutoff(&self, k: u64) -> Option<u64> {
        match *self {
            RestartPolicy::Never => None,
            RestartPolicy::Luby { scale } => Some(scale.saturating_mul(luby(k + 1))),
            RestartPolicy::Constant { scale } => Some(scale),
            RestartPolicy::Linear { scale } => Some(scale.saturating_mul(k.saturating_add(1))),
            RestartPolicy::Geometric { base, factor } => {
                let c = base as f64 * factor.powi(k.min(i32::MAX as u64) as i32);
                Some(if c >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    c as u64
                })
            }
        }
    }
}

impl FromStr for RestartPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" | "never" => Ok(RestartPolicy::Never),
            "luby" => Ok(RestartPolicy::Luby { scale: 100 }),
            "geometric" => Ok(RestartPolicy::Geometric {
                base: 100,
                factor: 1.5,
            }),
            _ => Err(format!(
                "unknown restart policy '{s}' (expected none, luby or geometric)"
            )),
        }
    }
}

/// The i-th term (1-based) of the Luby sequence 1,1,2,1,1,2,4,1,1,2,1,1,2,4,8,...
pub fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // find k with 2^(k-1) <= i < 2^k
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn geometric_grows() {
        let p = RestartPolicy::Geometric {
            base: 10,
            factor: 2.0,
        };
        assert_eq!(
            (0..4).map(|k| p.cutoff(k).unwrap()).collect::<Vec<_>>(),
            vec![10, 20, 40, 80]
        );
        assert_eq!(RestartPolicy::Never.cutoff(3), None);
        let linear = RestartPolicy::Linear { scale: 5 };
        assert_eq!(
            (0..3)
                .map(|k| linear.cutoff(k).unwrap())
                .collect::<Vec<_>>(),
            vec![5, 10, 15]
        );
        assert_eq!(RestartPolicy::Constant { scale: 7 }.cutoff(9), Some(7));
    }
}
