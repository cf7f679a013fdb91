//! The nonogram line propagator (`propagators/nonogram_line.rs`) against brute force: with
//! the harness of `engine::testing` on random clues (sound, checking, domain consistent,
//! incremental = from scratch, restored on backtracking), and its two lanes against each
//! other and against every word of the line on random partial lines.

use engine::propagator::Propagator;
use engine::propagators::nonogram_line::{bit_parallel_supports, LineTables, NonogramLine};
use engine::rng::Rng;
use engine::testing::{check_explanations, check_propagator, Consistency, HarnessConfig};
use engine::VarId;

/// The blocks of 1s of a line.
fn blocks(line: &[i32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for &v in line.iter().chain(std::iter::once(&0)) {
        if v == 1 {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

/// A random clue that fits in `n` cells (possibly empty).
fn random_clue(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut clue = Vec::new();
    let mut used = 0;
    loop {
        let room = n.saturating_sub(used + usize::from(!clue.is_empty()));
        if room == 0 || rng.below(4) == 0 {
            return clue;
        }
        let c = 1 + rng.below(room.min(6) as u64) as usize;
        used += c + usize::from(!clue.is_empty());
        clue.push(c);
    }
}

#[test]
fn the_line_is_domain_consistent_on_random_clues() {
    let mut rng = Rng::new(11);
    for round in 0..60 {
        let arity = 1 + round % 6;
        let clue = random_clue(&mut rng, arity);
        // Domains from -1..=2: values outside 0/1 must go.
        let mut cfg = HarnessConfig::new(arity, -1, 2, Consistency::Domain);
        cfg.trials = 40;
        cfg.seed = round as u64 + 1;
        let expected = clue.clone();
        let check = move |t: &[i32]| t.iter().all(|&v| v == 0 || v == 1) && blocks(t) == expected;
        let make = |xs: &[VarId]| -> Box<dyn Propagator> { Box::new(NonogramLine::new(xs, &clue)) };
        check_propagator("nonogram_line", &cfg, &check, &make);
        // No reason of its own (under learning the lines are `regular` with states): the
        // generic one must hold before the run and imply every pruning.
        let stats = check_explanations("nonogram_line", &cfg, &check, &make);
        assert_eq!(
            stats.precise, 0,
            "nonogram_line explains itself now: test it so"
        );
    }
}

/// Random partial lines of `n` cells: each cell 0, 1 or either, with a few more of either.
fn random_line(rng: &mut Rng, n: usize) -> (Vec<bool>, Vec<bool>) {
    (0..n)
        .map(|_| match rng.below(5) {
            0 => (true, false),
            1 => (false, true),
            _ => (true, true),
        })
        .unzip()
}

fn bits(flags: &[bool]) -> u64 {
    (flags.iter().enumerate()).fold(0, |m, (i, &f)| m | (f as u64) << i)
}

#[test]
fn the_reference_tables_keep_exactly_the_values_of_some_word() {
    let mut rng = Rng::new(5);
    for _ in 0..3000 {
        let n = 1 + rng.below(10) as usize;
        let clue = random_clue(&mut rng, n);
        let (can_0, can_1) = random_line(&mut rng, n);
        // Brute force: every word the cells allow, kept if its blocks are the clue.
        let (mut keep_0, mut keep_1) = (vec![false; n], vec![false; n]);
        let mut any = false;
        for word in 0..1u32 << n {
            let line: Vec<i32> = (0..n).map(|i| (word >> i & 1) as i32).collect();
            let allowed = (0..n).all(|i| if line[i] == 1 { can_1[i] } else { can_0[i] });
            if allowed && blocks(&line) == clue {
                any = true;
                for i in 0..n {
                    keep_0[i] |= line[i] == 0;
                    keep_1[i] |= line[i] == 1;
                }
            }
        }
        let expected = any.then_some((keep_0, keep_1));
        let tables = LineTables::new(&can_0, &can_1, &clue);
        assert_eq!(
            tables.supports(),
            expected,
            "clue {clue:?}, 0s {can_0:?}, 1s {can_1:?}"
        );
    }
}

#[test]
fn the_bit_parallel_lane_agrees_with_the_reference_up_to_63_cells() {
    let mut rng = Rng::new(9);
    for round in 0..20000 {
        let n = match round % 3 {
            0 => 1 + rng.below(63) as usize,
            1 => 60 + rng.below(4) as usize,
            _ => 1 + rng.below(30) as usize,
        };
        let clue = random_clue(&mut rng, n);
        let (can_0, can_1) = random_line(&mut rng, n);
        let tables = LineTables::new(&can_0, &can_1, &clue);
        let reference = tables.supports().map(|(z, o)| (bits(&z), bits(&o)));
        let fast = bit_parallel_supports(bits(&can_0), bits(&can_1), &clue, n);
        assert_eq!(
            fast, reference,
            "n {n}, clue {clue:?}, 0s {can_0:?}, 1s {can_1:?}"
        );
    }
}
