//! The ladder of `engine/examples/ladder_*.rs` (docs/00-what-is-a-csp.md): every rung finds
//! the same solutions, each rung looks at fewer nodes than the one below it, the one-file
//! solver of rung 4 searches exactly the engine's tree (same model, same decisions), and the
//! table of the chapter states what the programs print.

#[path = "../examples/ladder_1_generate_and_test.rs"]
mod rung1;
#[path = "../examples/ladder_2_backtracking.rs"]
mod rung2;
#[path = "../examples/ladder_3_forward_checking.rs"]
mod rung3;
#[path = "../examples/ladder_4_fixpoint.rs"]
mod rung4;
#[path = "../examples/ladder_5_engine.rs"]
mod rung5;

/// (solutions, nodes) of each rung on n-queens.
fn rungs(n: usize) -> Vec<(u64, u64)> {
    vec![
        rung1::count(n),
        rung2::count(n),
        rung3::count(n),
        rung4::count(n),
        rung5::count(n, false),
        rung5::count(n, true),
    ]
}

#[test]
fn every_rung_finds_the_same_solutions_with_fewer_nodes() {
    for (n, solutions) in [(4, 2), (5, 10), (6, 4), (7, 40)] {
        let r = rungs(n);
        assert!(r.iter().all(|&(s, _)| s == solutions), "{n}-queens: {r:?}");
        for k in 1..4 {
            assert!(
                r[k].1 < r[k - 1].1,
                "{n}-queens: rung {} is not below rung {k}: {r:?}",
                k + 1
            );
        }
        assert_eq!(
            r[3], r[4],
            "{n}-queens: the tiny solver and the engine search one tree"
        );
    }
}

#[test]
fn the_chapter_states_what_the_rungs_print() {
    // Rows of the chapter's table: `| k | name | `command` | solutions | nodes |`, 8-queens.
    let chapter = include_str!("../../docs/00-what-is-a-csp.md");
    let measured = rungs(8);
    let mut rows = 0;
    for line in chapter
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("ladder_"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let rung: usize = cells[1].parse().expect("a rung number");
        let number = |s: &str| s.replace(',', "").parse::<u64>().expect("a number");
        let stated = (number(cells[4]), number(cells[5]));
        let first_fail = cells[3].contains("first-fail");
        let index = if first_fail { 5 } else { rung - 1 };
        assert_eq!(stated, measured[index], "docs/00-what-is-a-csp.md: {line}");
        rows += 1;
    }
    assert_eq!(
        rows, 6,
        "the chapter's table has a row per rung, and one for first fail"
    );
}
