//! Every puzzle's picture for `cpsolve --animate` (its `naming` and layout) is well formed on
//! its seed instance: each named variable is a variable of the model, named once, drawn at a
//! place of its own; clue cells sit where no variable is; region, place and cell-word lists
//! cover the named variables exactly; a graph's edges join named vertices. A puzzle that
//! draws nothing of its own (the default: one row of cells) is named here, so that leaving
//! one out is a choice.

use puzzles::{Instance, ModelOptions};
use std::collections::HashSet;

#[test]
fn every_puzzle_draws_its_seed_on_a_picture_of_its_own() {
    for kind in puzzles::all() {
        let instances = (kind.parse)(kind.seed).unwrap_or_else(|e| panic!("{}: {e:?}", kind.name));
        let instance: &dyn Instance = instances[0].as_ref();
        let built = instance.build(&ModelOptions::default()).unwrap();
        let naming = instance.naming(&built);
        let layout = &naming.layout;
        let name = kind.name;
        assert!(!naming.names.is_empty(), "{name}: nothing named");
        let vars = built.model.num_vars() as u32;
        let mut seen = HashSet::new();
        for (x, n) in &naming.names {
            assert!(x.0 < vars, "{name}: {n} is not a variable of the model");
            assert!(seen.insert(n.clone()), "{name}: {n} named twice");
        }
        // Queens alone keeps the default row of cells (the row of each column's queen).
        let drawn = !layout.places.is_empty() || !layout.edges.is_empty();
        assert!(drawn || name == "queens", "{name}: no picture of its own");
        if !layout.places.is_empty() {
            assert_eq!(layout.places.len(), naming.names.len(), "{name}: places");
            let places: HashSet<_> = layout.places.iter().collect();
            assert_eq!(
                places.len(),
                layout.places.len(),
                "{name}: two cells at one place"
            );
            for (r, c, text) in &layout.labels {
                assert!(
                    !places.contains(&(*r, *c)),
                    "{name}: clue {text:?} on a cell"
                );
            }
        }
        if !layout.regions.is_empty() {
            assert_eq!(layout.regions.len(), naming.names.len(), "{name}: regions");
        }
        if !layout.cell_words.is_empty() {
            assert_eq!(
                layout.cell_words.len(),
                naming.names.len(),
                "{name}: cell words"
            );
        }
        for &(a, b) in &layout.edges {
            assert!(
                a < naming.names.len() && b < naming.names.len() && a != b,
                "{name}"
            );
        }
    }
}
