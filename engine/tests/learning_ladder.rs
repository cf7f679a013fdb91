//! The learning ladder of `engine/examples/learning_ladder.rs` (docs/10-learning.md): the
//! three rungs agree with brute force on whether a map can be coloured, every colouring they
//! give is proper, every nogood recorded holds in no colouring of the map, and each rung
//! looks at no more nodes than the one below it.

#[path = "../examples/learning_ladder.rs"]
mod ladder;

use ladder::{colour, Map, Rung};

/// Can `map` be coloured with three colours? Every assignment, tried.
fn colourings(map: &Map) -> Vec<Vec<u8>> {
    let n = map.borders.len();
    let mut all = Vec::new();
    for code in 0..3u64.pow(n as u32) {
        let colours: Vec<u8> = (0..n)
            .map(|r| (code / 3u64.pow(r as u32) % 3) as u8)
            .collect();
        if proper(map, &colours) {
            all.push(colours);
        }
    }
    all
}

fn proper(map: &Map, colours: &[u8]) -> bool {
    (0..colours.len()).all(|a| {
        (0..colours.len()).all(|b| map.borders[a] & (1 << b) == 0 || colours[a] != colours[b])
    })
}

#[test]
fn every_rung_answers_as_brute_force_and_every_nogood_is_implied() {
    let mut learned = 0;
    for seed in 0..40 {
        let regions = 9 + (seed % 3) as usize;
        let map = Map::random(regions, 2 * regions + (seed % 5) as usize, seed);
        let truth = colourings(&map);
        for learn in [false, true] {
            let (colourable, _, _) = ladder::engine_colour(&map, learn);
            assert_eq!(
                colourable,
                !truth.is_empty(),
                "seed {seed}, engine, learn {learn}"
            );
        }
        for rung in [Rung::Chronological, Rung::Backjumping, Rung::Nogoods] {
            let report = colour(&map, rung);
            assert_eq!(
                report.colouring.is_some(),
                !truth.is_empty(),
                "seed {seed}, {rung:?}"
            );
            if let Some(colours) = &report.colouring {
                assert!(proper(&map, colours), "seed {seed}, {rung:?}: {colours:?}");
            }
            for nogood in &report.nogoods {
                learned += 1;
                let violated = truth
                    .iter()
                    .find(|c| nogood.iter().all(|&(r, colour)| c[r] == colour));
                assert!(
                    violated.is_none(),
                    "seed {seed}: nogood {nogood:?} excludes {violated:?}"
                );
            }
        }
    }
    assert!(
        learned > 20,
        "the maps are too easy to record nogoods: {learned}"
    );
}

#[test]
fn each_rung_looks_at_no_more_nodes_than_the_one_below() {
    for seed in 1..6 {
        let map = Map::random(40, 94, seed);
        let nodes: Vec<u64> = [Rung::Chronological, Rung::Backjumping, Rung::Nogoods]
            .iter()
            .map(|&rung| colour(&map, rung).nodes)
            .collect();
        assert!(
            nodes[1] < nodes[0] && nodes[2] < nodes[1],
            "seed {seed}: {nodes:?}"
        );
    }
}
