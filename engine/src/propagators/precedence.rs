//! # Value precedence for interchangeable values: a new value is always the next unused one
//!
//! In graph colouring the colours are *interchangeable*: swap colours 2 and 5 everywhere in a
//! proper colouring and it is still proper. A search that tries "this vertex gets colour 5"
//! after "this vertex gets colour 4" failed, while neither colour is used yet, explores the
//! same subtree twice (up to renaming), and with k colours there are k! copies of everything.
//! **Value precedence** (Law & Lee, "Global constraints for integer and set value precedence",
//! CP 2004) breaks this symmetry: value j+1 may appear only after value j has appeared.
//!
//! The static constraint fixes an order of the variables in advance, which fights a dynamic
//! variable order such as DSATUR. This propagator is its *dynamic* form, the rule of the
//! exact DSATUR algorithm (Brélaz 1979; Sewell 1996): the used values are always `lo..=m`,
//! and a variable whose domain holds none of them takes the next unused value `m + 1`
//! (the smallest value left in its domain) — all unused values being equivalent, there is
//! nothing else to try.
//!
//! **This is a symmetry-breaking rule, not a constraint.** It removes solutions (the
//! renamed copies), so it is right for satisfaction and for minimising the number of values,
//! and wrong for counting. It is sound (keeps at least one solution of each class, and one
//! with the fewest values) when:
//!
//! * every variable starts with the same domain `lo..=hi`, and the other constraints are
//!   unchanged by renaming the values (not-equal, all-different), or only prefer smaller ones
//!   (an upper bound `x <= k` shared by all variables: renaming unused values to the smallest
//!   unused ones never raises the largest value used);
//! * the values fixed before search are `lo..=m` (e.g. a clique coloured `1..=q`), and the
//!   branching only removes used values or cuts every domain from above (the default smallest
//!   value first does: its left branch `x = min` always picks a used value, since this rule
//!   has already fixed every variable whose minimum is unused).
//!
//! Then all unfixed variables share the same unused part `m+1..=K` of their domains, so in any
//! solution the value of such a variable can be swapped with `m + 1` everywhere.
//!
//! | wakes on | consistency | cost |
//! |---|---|---|
//! | any domain change of the variables | none (a search rule) | O(n) per run |

use crate::propagator::{Condition, Context, Priority, PropResult, Propagator, Subscription};
use crate::store::VarId;

/// Give a variable with no used value left the next unused one (see the module docs).
#[derive(Clone, Debug)]
pub struct DynamicValuePrecedence {
    xs: Vec<VarId>,
    /// The smallest value (the first one to use).
    lo: i32,
}

impl DynamicValuePrecedence {
    /// `xs` share the domain `lo..=hi`; values are used from `lo` upwards.
    pub fn new(xs: &[VarId], lo: i32) -> DynamicValuePrecedence {
        DynamicValuePrecedence {
            xs: xs.to_vec(),
            lo,
        }
    }
}

impl Propagator for DynamicValuePrecedence {
    fn name(&self) -> &'static str {
        "value_precedence"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        Subscription::all(&self.xs, Condition::Domain)
    }
    fn is_search_rule(&self) -> bool {
        true
    }
    fn priority(&self) -> Priority {
        // After the not-equal constraints have removed the neighbours' colours.
        Priority::Low
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        // The largest used value; the used values are lo..=m.
        let mut m = self.lo - 1;
        for &x in &self.xs {
            if ctx.is_fixed(x) {
                m = m.max(ctx.value(x));
            }
        }
        let mut all_fixed = true;
        for &y in &self.xs {
            if ctx.is_fixed(y) {
                continue;
            }
            let smallest = ctx.min(y);
            if smallest > m {
                // No used value left: the next unused one, and it is now used.
                ctx.fix(y, smallest)?;
                m = m.max(smallest);
            } else {
                all_fixed = false;
            }
        }
        if all_fixed {
            ctx.set_entailed();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, SearchConfig};

    /// The 5-cycle needs 3 colours: with the rule, the search still proves that 2 do not
    /// suffice and finds a 3-colouring using exactly 1, 2, 3.
    #[test]
    fn odd_cycle_still_needs_three_values() {
        for k in [2, 3] {
            let mut m = Model::new();
            let xs = m.new_vars(5, 1, k);
            for i in 0..5 {
                m.not_equal_offset(xs[i], xs[(i + 1) % 5], 0);
            }
            m.value_precedence(&xs, 1);
            let out = crate::solve(&mut m, &SearchConfig::default());
            assert!(out.complete || out.best.is_some());
            match out.best {
                None => assert_eq!(k, 2, "no 2-colouring of C5"),
                Some(s) => {
                    assert_eq!(k, 3);
                    let mut used: Vec<i32> = xs.iter().map(|&x| s.value(x)).collect();
                    used.sort();
                    used.dedup();
                    assert_eq!(used, vec![1, 2, 3]);
                }
            }
        }
    }

    /// The rule leaves one colouring per class of renamings, i.e. one per partition of the
    /// variables into at most 3 colour classes: without edges, S(4,1) + S(4,2) + S(4,3) =
    /// 1 + 7 + 6 = 14 (Stirling numbers of the second kind), where plain search finds 3^4.
    #[test]
    fn interchangeable_values_collapse_to_one_solution() {
        let mut m = Model::new();
        let xs = m.new_vars(4, 1, 3);
        m.value_precedence(&xs, 1);
        assert_eq!(crate::count(&mut m, &SearchConfig::default()).solutions, 14);
        // A triangle plus a pendant vertex on its third corner: the triangle takes 1, 2, 3,
        // the pendant one of the two colours not beside it.
        let mut m = Model::new();
        let xs = m.new_vars(4, 1, 3);
        for (a, b) in [(0, 1), (1, 2), (0, 2), (2, 3)] {
            m.not_equal_offset(xs[a], xs[b], 0);
        }
        m.value_precedence(&xs, 1);
        let config = SearchConfig {
            var_select: crate::VarSelect::InputOrder,
            ..Default::default()
        };
        // 3! * 2 = 12 colourings, 6 renamings of each class: 2 classes.
        assert_eq!(crate::count(&mut m, &config).solutions, 2);
    }
}
