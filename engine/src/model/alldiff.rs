//! # All-different: one entry point, the propagator chosen by the shape of the views
//!
//! [`Model::all_different`] takes the views of one constraint (`view.rs`: `x`, `x + c`,
//! `−x`, `k·x`) and a level. Which propagator runs is the model's business, decided by the
//! shape of the views, as Gecode's `distinct` picks its view types:
//!
//! | what was posted | runs as |
//! |---|---|
//! | any views, any level | `alldiff::new_all_different`: the level's propagator, its fast lane for views of scale 1 |
//! | consecutive **domain**-level all-differents on plain variables whose values fit one 64-bit word (a Sudoku's 27 units) | one `fast/units.rs` propagator for all of them |
//! | consecutive **value**-level all-differents on `xᵢ + cᵢ` over the same variables (n-queens' rows and diagonals) | one `fast/offset_family.rs` propagator for all of them |
//!
//! Gathering is done as the constraints arrive: the all-differents posted last form a
//! group, the last propagator posted; one more that fits replaces it by a propagator over
//! the whole group (`Propagation::replace_last`, same id). Anything else posted in between
//! ends the group. The pruning is the same as one propagator per constraint (units: the same
//! fixpoint; families: forward checking per family, plus a pigeonhole check), for less
//! traffic through the engine.

use crate::model::Model;
use crate::propagation::PropId;
use crate::propagators::alldiff::fast::offset_family::AllDifferentOffsetFamily;
use crate::propagators::alldiff::fast::units::AllDifferentUnits;
use crate::propagators::alldiff::{self, AllDiffLevel};
use crate::store::VarId;
use crate::view::View;

/// The all-differents posted last, running as the last propagator posted.
#[derive(Clone, Debug)]
pub(crate) struct AllDiffGroup {
    prop: PropId,
    /// The store's level when the group began: a checkpoint in between ends it.
    store_level: usize,
    kind: GroupKind,
}

#[derive(Clone, Debug)]
enum GroupKind {
    /// Domain-level units of plain variables (`fast/units.rs` once there are two).
    Units(Vec<Vec<VarId>>),
    /// Value-level families of `xᵢ + cᵢ` over the same variables (`fast/offset_family.rs`
    /// once there are two).
    Families(Vec<Vec<View>>),
}

impl Model {
    /// All of `views` take different values, at `level`. The views may be variables
    /// (`&[VarId]`) or any views (`&[View]`: `q[i].plus(i as i32)` for an n-queens
    /// diagonal). Returns the propagator that runs it (shared with the all-differents it
    /// was gathered with, see the module documentation).
    pub fn all_different<V: Into<View> + Copy>(
        &mut self,
        views: &[V],
        level: AllDiffLevel,
    ) -> PropId {
        let views: Vec<View> = views.iter().map(|&v| v.into()).collect();
        if let Some(group) = self.alldiff_group.take() {
            let last = self.propagation.len().checked_sub(1);
            if last == Some(group.prop.0 as usize) && group.store_level == self.store.level() {
                if let Some(id) = self.join(group, &views, level) {
                    return id;
                }
            }
        }
        if level == AllDiffLevel::Bounds {
            // Hall intervals look only at bounds: a value fixed in the middle of another
            // domain is not removed by them. Forward checking runs first (it is cheaper and
            // has a higher priority), so the bounds level is never weaker than the value
            // level — Gecode's bounds propagator does the same internally.
            self.post(alldiff::new_all_different(&views, AllDiffLevel::Value));
        }
        let prop = self.post(alldiff::new_all_different(&views, level));
        let kind = match level {
            AllDiffLevel::Domain if views.iter().all(|x| is_plain(*x)) => {
                Some(GroupKind::Units(vec![views
                    .iter()
                    .map(|x| x.var())
                    .collect()]))
            }
            AllDiffLevel::Value if views.iter().all(|x| x.is_shift()) => {
                Some(GroupKind::Families(vec![views]))
            }
            _ => None,
        };
        self.alldiff_group = kind.map(|kind| AllDiffGroup {
            prop,
            store_level: self.store.level(),
            kind,
        });
        prop
    }

    /// Add `views` to `group` if it fits, running the whole group as one propagator in
    /// place of the last; `None` (and no group) if it does not.
    fn join(
        &mut self,
        mut group: AllDiffGroup,
        views: &[View],
        level: AllDiffLevel,
    ) -> Option<PropId> {
        let replacement: Box<dyn crate::Propagator> = match (&mut group.kind, level) {
            (GroupKind::Units(units), AllDiffLevel::Domain) => {
                if !views.iter().all(|x| is_plain(*x)) {
                    return None;
                }
                units.push(views.iter().map(|x| x.var()).collect());
                Box::new(self.units_in_one_word(units)?)
            }
            (GroupKind::Families(families), AllDiffLevel::Value) => {
                let same_vars = views.len() == families[0].len()
                    && views
                        .iter()
                        .zip(&families[0])
                        .all(|(a, b)| a.var() == b.var());
                if !same_vars || !views.iter().all(|x| x.is_shift()) {
                    return None;
                }
                families.push(views.to_vec());
                Box::new(AllDifferentOffsetFamily::new(families))
            }
            _ => return None,
        };
        let id = self.propagation.replace_last(&mut self.store, replacement);
        self.alldiff_group = Some(group);
        Some(id)
    }

    /// The units as one propagator, if every value of their variables fits in one 64-bit
    /// word (and `AllDifferentUnits` takes them).
    fn units_in_one_word(&self, units: &[Vec<VarId>]) -> Option<AllDifferentUnits> {
        let vars = units.iter().flatten();
        let lo = vars.clone().map(|&x| self.store.min(x)).min()?;
        let hi = vars.map(|&x| self.store.max(x)).max()?;
        if hi as i64 - lo as i64 >= 64 {
            return None;
        }
        AllDifferentUnits::new(units, lo)
    }
}

/// The variable itself (`1·x + 0`).
fn is_plain(x: View) -> bool {
    x.is_shift() && x.offset() == 0
}
