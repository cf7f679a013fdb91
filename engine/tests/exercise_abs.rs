//! Exercise (docs/first-model.md): write the propagator of `y = |x|` and let the harness of
//! chapter 7 grade it. This file holds a model answer, which the harness accepts as domain
//! consistent, and the classic mistake — forgetting that `-v` supports `v` too — which the
//! harness rejects with the tuple that shows it. Replace `Abs` with your own and run
//! `cargo test --profile ci -p engine --test exercise_abs`.

use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{Condition, Context, PropResult, Propagator, Subscription, VarId};

/// `y = |x|`, domain consistent: `y` keeps the values `|v|` of `x`'s values `v`, and `x`
/// keeps the values whose absolute value `y` still has.
#[derive(Clone, Debug)]
struct Abs {
    x: VarId,
    y: VarId,
    /// The mistake to show the grader at work: `x` keeps only the values `v` with `v` itself
    /// in `y`'s domain, forgetting the negative ones.
    forget_negatives: bool,
}

impl Propagator for Abs {
    fn name(&self) -> &'static str {
        "abs"
    }
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![
            Subscription::new(self.x, Condition::Domain),
            Subscription::new(self.y, Condition::Domain),
        ]
    }
    fn propagate_from_scratch(&self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y) = (self.x, self.y);
        // y's values: the absolute values of x's.
        let of_x: Vec<i64> = ctx.domain(x).iter().map(|v| (v as i64).abs()).collect();
        ctx.retain(y, |w| of_x.contains(&(w as i64)))?;
        // x's values: those whose absolute value y still has.
        let ys: Vec<i32> = ctx.domain(y).iter().collect();
        let forget = self.forget_negatives;
        ctx.retain(x, |v| {
            let shown = if forget { v as i64 } else { (v as i64).abs() };
            ys.iter().any(|&w| w as i64 == shown)
        })?;
        Ok(())
    }
}

fn grade(forget_negatives: bool) {
    let cfg = HarnessConfig::new(2, -4, 4, Consistency::Domain);
    check_propagator(
        "abs",
        &cfg,
        &|t: &[i32]| t[1] == t[0].abs(),
        &move |xs: &[VarId]| {
            Box::new(Abs {
                x: xs[0],
                y: xs[1],
                forget_negatives,
            })
        },
    );
}

#[test]
fn the_model_answer_is_sound_and_domain_consistent() {
    grade(false);
}

#[test]
#[should_panic(expected = "abs:")]
fn forgetting_the_negative_values_is_caught() {
    grade(true);
}
