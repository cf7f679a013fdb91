//! # `--show-domains`: what propagation alone knows
//!
//! Before any guess, the propagators run to their fixpoint at the root. What is left of each
//! domain is exactly what a human solver writes as pencil marks: for a Sudoku, the digits
//! still possible in each cell. Printing them shows how much of a puzzle is "logic" (no
//! search at all) and how much the search must guess. The lines are comments (`% `), so
//! the rest of the text output is unchanged.

use crate::solve::Plan;
use crate::Failure;
use puzzles::{Instance, Purpose};
use std::io::Write;

/// Build `instance`'s model as the search would, propagate at the root, and print each
/// named variable's remaining values as the puzzle shows them.
/// `index`: the instance's number in a file of several.
pub fn show(
    plan: &Plan<'_>,
    instance: &dyn Instance,
    index: Option<usize>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let of = index.map_or(String::new(), |i| format!(" (instance {i})"));
    let options = plan.model_options(Purpose::Solve);
    let mut built = instance.build(&options).map_err(Failure::Usage)?;
    let naming = instance.naming(&built);
    if built.model.propagate().is_err() {
        writeln!(
            out,
            "% candidates after root propagation{of}: none (a conflict at the root)"
        )?;
        return Ok(());
    }
    writeln!(out, "% candidates after root propagation{of}:")?;
    for (x, name) in &naming.names {
        let values: Vec<String> = built
            .model
            .domain(*x)
            .iter()
            .map(|v| naming.show_value(v))
            .collect();
        writeln!(out, "% {name}: {}", values.join(" "))?;
    }
    Ok(())
}
