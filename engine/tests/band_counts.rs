//! `band_counts` against brute force with the harness of `engine::testing` (sound, checking,
//! incremental = from scratch, backtracking) on small random Star Battle boards: lines are
//! rows or columns, parts are random connected regions, some cells in no part; and its two
//! rules on a hand-made board.

use engine::propagator::Propagator;
use engine::propagators::band_counts::{BandCounts, NO_PART};
use engine::rng::Rng;
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};
use engine::Model;
use engine::VarId;

/// `n` regions grown at random from `n` seeds on an n×n grid; with `holes`, a few cells are
/// taken out of every region.
fn random_regions(n: usize, holes: bool, rng: &mut Rng) -> Vec<usize> {
    let mut part = vec![NO_PART; n * n];
    let mut cells: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut cells);
    for (p, &seed) in cells[..n].iter().enumerate() {
        part[seed] = p;
    }
    while part.contains(&NO_PART) {
        let i = rng.below((n * n) as u64) as usize;
        if part[i] != NO_PART {
            continue;
        }
        let (r, c) = (i / n, i % n);
        let around = [
            (r > 0, i.wrapping_sub(n)),
            (r + 1 < n, i + n),
            (c > 0, i.wrapping_sub(1)),
            (c + 1 < n, i + 1),
        ];
        let grown: Vec<usize> = around
            .iter()
            .filter(|(ok, j)| *ok && part[*j] != NO_PART)
            .map(|(_, j)| part[*j])
            .collect();
        if let Some(&p) = grown.first() {
            part[i] = p;
        }
    }
    if holes {
        for _ in 0..n / 2 {
            let i = rng.below((n * n) as u64) as usize;
            part[i] = NO_PART;
        }
    }
    part
}

/// Does every line and every part hold exactly k ones, and every cell in no part a 0?
fn counts_hold(x: &[i32], line_of: &[usize], part_of: &[usize], n: usize, k: i32) -> bool {
    let mut line = vec![0; n];
    let mut part = vec![0; n];
    for i in 0..x.len() {
        if part_of[i] == NO_PART {
            if x[i] != 0 {
                return false;
            }
            continue;
        }
        line[line_of[i]] += x[i];
        part[part_of[i]] += x[i];
    }
    line.iter().chain(&part).all(|&c| c == k)
}

#[test]
fn band_counts_is_sound_and_checking_on_random_boards() {
    let mut rng = Rng::new(28);
    for trial in 0..30 {
        let (n, k) = if trial % 3 == 2 {
            (4, 2)
        } else {
            (3 + trial % 2, 1)
        };
        let part_of = random_regions(n, trial % 4 == 3, &mut rng);
        let by_columns = trial % 2 == 1;
        let line_of: Vec<usize> = (0..n * n)
            .map(|i| if by_columns { i % n } else { i / n })
            .collect();
        let mut cfg = HarnessConfig::new(n * n, 0, 1, Consistency::Checking);
        cfg.trials = if n == 4 { 12 } else { 60 };
        cfg.seed = trial as u64;
        let check = {
            let (line_of, part_of) = (line_of.clone(), part_of.clone());
            move |x: &[i32]| counts_hold(x, &line_of, &part_of, n, k)
        };
        let make = |xs: &[VarId]| -> Box<dyn Propagator> {
            Box::new(BandCounts::new(
                xs,
                line_of.clone(),
                part_of.clone(),
                k as i64,
            ))
        };
        check_propagator("band_counts", &cfg, &check, &make);
        if n == 3 {
            // No reason of its own: the generic one must hold before the run and imply
            // every pruning (brute force over the 2⁹ boards).
            let stats = check_explanations("band_counts", &cfg, &check, &make);
            assert_eq!(
                stats.precise, 0,
                "band_counts explains itself now: test it so"
            );
        }
    }
}

#[test]
fn parts_inside_a_band_fill_it_and_parts_touching_it_stay_in_it() {
    // 4×4, one one per row and per region. Regions 0 and 1 lie in rows 0 and 1, so the
    // other regions' cells there (column 3) are 0.
    //   0 0 1 2
    //   0 1 1 2
    //   2 2 3 3
    //   2 3 3 3
    let part_of = vec![0, 0, 1, 2, 0, 1, 1, 2, 2, 2, 3, 3, 2, 3, 3, 3];
    let line_of: Vec<usize> = (0..16).map(|i| i / 4).collect();
    let mut model = Model::new();
    let x = model.new_vars(16, 0, 1);
    model.band_counts(&x, line_of, part_of, 1, 4);
    model.propagate().unwrap();
    assert_eq!(model.max(x[3]), 0);
    assert_eq!(model.max(x[7]), 0);
    assert_eq!(
        model.max(x[8]),
        1,
        "region 2 may still hold its one in row 2"
    );
    // Take region 2's cells of row 2 away: its one lies in row 3 alone (the band of one
    // line it fills), so row 3's other cells are 0.
    model.remove(x[8], 1).unwrap();
    model.remove(x[9], 1).unwrap();
    model.propagate().unwrap();
    for cell in [13, 14, 15] {
        assert_eq!(model.max(x[cell]), 0, "cell {cell}");
    }
    assert_eq!(model.max(x[12]), 1);
}
