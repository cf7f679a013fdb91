//! # Activity-based branching (VSIDS) with phase saving
//!
//! A learning solver knows which variables its recent failures were about: they are the
//! variables of the nogoods it learns. Chaff's VSIDS ("variable state independent decaying
//! sum", Moskewicz et al. 2001), used in CP by Chuffed and Pumpkin, branches on them:
//!
//! * each variable has an **activity**; every variable of a learned nogood is **bumped**
//!   (its activity grows by an increment);
//! * after each nogood the increment grows by `1 / decay` (here 1/0.95), which is the same as
//!   decaying every activity a little: recent failures weigh more than old ones. When the
//!   numbers grow too large, all are scaled down together;
//! * the search branches on the unfixed variable of highest activity.
//!
//! **Phase saving** (Pipatsrisawat & Darwiche 2007) picks the value: the value the variable
//! last had when the search backtracked past it ([`crate::learning::trail::Trail::phase`]),
//! if it is still in the domain, else the smallest. After a backjump or a restart, the search
//! then rebuilds most of the assignment it had, and only changes what the nogood forbids.

use crate::store::{Store, VarId};

/// Activities of the variables, and the bump increment.
#[derive(Clone, Debug)]
pub struct Activity {
    score: Vec<f64>,
    increment: f64,
}

/// Each bump's increment grows by `1 / DECAY` after every nogood.
const DECAY: f64 = 0.95;

/// Above this, every activity and the increment are scaled down together.
const RESCALE_ABOVE: f64 = 1e100;

impl Activity {
    pub fn new(num_vars: usize) -> Activity {
        Activity {
            score: vec![0.0; num_vars],
            increment: 1.0,
        }
    }

    /// Bump variable `x` (once per nogood it appears in).
    pub fn bump(&mut self, x: VarId) {
        let s = &mut self.score[x.index()];
        *s += self.increment;
        if *s > RESCALE_ABOVE {
            for s in &mut self.score {
                *s /= RESCALE_ABOVE;
            }
            self.increment /= RESCALE_ABOVE;
        }
    }

    /// After a nogood's bumps: the older bumps weigh a little less from now on.
    pub fn decay(&mut self) {
        self.increment /= DECAY;
    }

    /// The unfixed variable of `candidates` with the highest activity (the first in order
    /// among equals), or `None` if all are fixed.
    pub fn most_active(&self, candidates: &[VarId], store: &Store) -> Option<VarId> {
        let mut best: Option<(VarId, f64)> = None;
        for &x in candidates {
            if store.is_fixed(x) {
                continue;
            }
            let s = self.score[x.index()];
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((x, s));
            }
        }
        best.map(|(x, _)| x)
    }
}
