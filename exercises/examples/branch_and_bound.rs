//! Branch and bound step by step (chapter 9, `docs/09-optimisation.md`): a small knapsack,
//! maximised by the engine (`Objective::maximize`). Each time the search finds a solution it
//! prints the objective and the nodes spent so far; from then on the search demands a better
//! one (`value ≥ best + 1`), which prunes every subtree whose bound cannot beat it. The last
//! line is the proof: the whole tree explored with no better solution left.
//!
//! `cargo run --release -p exercises --example branch_and_bound`

use engine::search::{SearchEvent, SearchListener};
use engine::{Control, Model, Objective, Relation, SearchConfig, ValSelect};

/// Counts nodes as the search announces them, and prints each improving solution.
#[derive(Debug, Default)]
struct Steps {
    nodes: u64,
}

impl SearchListener for Steps {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        match event {
            SearchEvent::Branch { .. } => self.nodes += 1,
            SearchEvent::Solution {
                number, objective, ..
            } => println!(
                "solution {number}: value {:>3} after {:>3} nodes; bound now: value >= {}",
                objective.unwrap_or_default(),
                self.nodes,
                objective.unwrap_or_default() + 1
            ),
            _ => {}
        }
    }
}

fn main() {
    // Items: (weight, value); take each 0 or 1 time; capacity 15.
    let items = [
        (5, 10),
        (4, 40),
        (6, 30),
        (3, 50),
        (7, 35),
        (2, 15),
        (8, 45),
    ];
    let mut m = Model::new();
    let take = m.new_vars(items.len(), 0, 1);
    let weight: Vec<(i64, _)> = items
        .iter()
        .zip(&take)
        .map(|(&(w, _), &x)| (w, x))
        .collect();
    m.linear(&weight, Relation::Le, 15);
    let total = m.new_var(0, items.iter().map(|&(_, v)| v).sum());
    let mut value: Vec<(i64, _)> = items
        .iter()
        .zip(&take)
        .map(|(&(_, v), &x)| (v as i64, x))
        .collect();
    value.push((-1, total));
    m.linear(&value, Relation::Eq, 0);

    let config = SearchConfig {
        objective: Some(Objective::maximize(total)),
        val_select: ValSelect::Max,
        ..SearchConfig::default()
    };
    let mut steps = Steps::default();
    let outcome = engine::search(&mut m, &config, &mut steps, &mut |_| Control::Continue);
    println!(
        "optimum {} proved: {} nodes, {} failures in all",
        outcome.objective.unwrap_or_default(),
        outcome.stats.nodes,
        outcome.stats.failures
    );
}
