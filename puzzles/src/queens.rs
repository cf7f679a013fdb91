//! # n-queens: the "hello world" of constraint programming
//!
//! Place N queens on an N×N board so that no two attack each other.
//!
//! **Model.** One variable per column, `q[c] ∈ 0..N`, the row of the queen in column `c` (so
//! two queens never share a column, by construction). Rows differ: `alldifferent(q)`. The
//! diagonals differ: `alldifferent(q[c] + c)` and `alldifferent(q[c] - c)`, the all-different
//! on views `q[c] + c` (`engine/src/view.rs`), so no auxiliary variables are needed.
//!
//! The three all-differents are posted one after the other over the same variables, and the
//! model runs them as one *family* (`engine/src/model/alldiff.rs`): at the default (value)
//! level a single propagator handles all three, so placing a queen
//! wakes it once and each other column loses its (up to three) attacked rows in one word
//! operation — the same forward checking as three separate all-differents, for less than
//! their cost, plus a pigeonhole check on the rows (below; the measurements are in
//! docs/performance/history/queens.md).
//!
//! **Propagation.** When a queen is placed, forward checking removes its row and both
//! diagonals from every other column; and the rows, one per queen, must all be used: fewer
//! rows left among the open columns than columns fails, and a row only one column can take
//! goes to it (the family's pigeonhole check). **Search:** smallest domain first, ties to
//! the column nearest the middle (`middle_out`).
//!
//! Run it: `cpsolve queens 8`, `cpsolve queens 12 --count -p 2`.

use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, SearchConfig, Solution, View};
use serde_json::json;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "queens",
    aliases: &[],
    summary: "n-queens: N queens on an N×N board, none attacking another (argument N)",
    optimisation: false,
    input: Input::Number,
    seed: "8",
    seed_file: None,
    parse,
    page: Some("docs/00-what-is-a-csp.md"),
    defaults: Defaults {
        // Nothing stronger than forward checking pays on n-queens: domain consistency saves
        // few nodes and costs much more per node.
        alldiff: engine::AllDiffLevel::Value,
        ..Defaults::STANDARD
    },
    flags: &[],
};

/// The largest board accepted (the domains are bitsets of N values; search is the limit).
pub const MAX_N: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queens {
    pub n: usize,
}

/// `"8"` → an 8-queens instance.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    let t = text.trim();
    let n: usize = t.parse().map_err(|_| {
        ParseError::new(
            1,
            format!(
                "expected the board size N, a whole number, found {}",
                crate::parse::quoted(t)
            ),
        )
    })?;
    if n == 0 || n > MAX_N {
        return Err(ParseError::new(
            1,
            format!("board size must be between 1 and {MAX_N}, found {n}"),
        ));
    }
    Ok(vec![Box::new(Queens { n })])
}

/// The columns from the middle outwards (for 8: 3, 4, 2, 5, 1, 6, 0, 7): the order the search
/// breaks ties between columns with equally few rows left. A queen near the middle attacks
/// more squares than one near the edge, so placing the middle columns first fails sooner
/// (the node counts, with and without it: docs/performance/history/queens.md).
fn middle_out(n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    // Twice the distance from the middle, `n − 1` halves: whole numbers, no rounding.
    order.sort_by_key(|&c| (2 * c).abs_diff(n - 1));
    order
}

impl Queens {
    /// The model: returns it with the column variables.
    pub fn model(&self, options: &ModelOptions) -> Built {
        let n = self.n;
        let mut model = Model::new();
        let q = model.new_vars(n, 0, n as i32 - 1);
        let up: Vec<View> = (0..n).map(|c| q[c].plus(c as i32)).collect();
        let down: Vec<View> = (0..n).map(|c| q[c].plus(-(c as i32))).collect();
        model.all_different(&q, options.alldiff);
        model.all_different(&up, options.alldiff);
        model.all_different(&down, options.alldiff);
        let search = SearchConfig {
            branch_vars: Some(middle_out(n).into_iter().map(|c| q[c]).collect()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: q,
        }
    }

    /// Rules only: one queen per column (by the shape of the answer), rows and diagonals
    /// distinct.
    pub fn check_rows(&self, rows: &[usize]) -> Result<(), String> {
        if rows.len() != self.n || rows.iter().any(|&r| r >= self.n) {
            return Err(format!("expected {} rows in 0..{}", self.n, self.n));
        }
        for a in 0..self.n {
            for b in a + 1..self.n {
                let (ra, rb) = (rows[a] as i64, rows[b] as i64);
                if ra == rb {
                    return Err(format!(
                        "columns {} and {} share row {}",
                        a + 1,
                        b + 1,
                        ra + 1
                    ));
                }
                if (ra - rb).abs() == (b - a) as i64 {
                    return Err(format!("columns {} and {} share a diagonal", a + 1, b + 1));
                }
            }
        }
        Ok(())
    }
}

impl Instance for Queens {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let rows: Vec<usize> = built
            .vars
            .iter()
            .map(|&q| solution.value(q) as usize)
            .collect();
        let mut text = String::new();
        for r in 0..self.n {
            let line: Vec<&str> = (0..self.n)
                .map(|c| if rows[c] == r { "Q" } else { "·" })
                .collect();
            text.push_str(&line.join(" "));
            text.push('\n');
        }
        // JSON: the row (1-based) of the queen in each column.
        Answer {
            json: json!(rows.iter().map(|r| r + 1).collect::<Vec<_>>()).into(),
            text,
            objective: None,
        }
    }

    /// Column `c` is "c1".., its value the row counted from 1.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        engine::search::Naming {
            value_offset: 1,
            ..engine::search::Naming::numbered(&built.vars, "c")
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let rows: Vec<usize> = json
            .as_array()
            .ok_or("solution is not a list")?
            .iter()
            .map(|v| {
                v.as_u64()
                    .map(|r| r as usize)
                    .filter(|&r| r >= 1)
                    .map(|r| r - 1)
            })
            .collect::<Option<_>>()
            .ok_or("a row is not a number from 1")?;
        self.check_rows(&rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::AllDiffLevel;

    #[test]
    fn counts_for_n_up_to_10_and_every_solution_checks() {
        let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        for (i, &want) in expected.iter().enumerate() {
            let q = Queens { n: i + 1 };
            let built = q.model(&ModelOptions::default());
            let config = built.search.clone();
            let mut found = 0;
            let mut model = built.model.clone();
            let out = engine::search(
                &mut model,
                &config,
                &mut engine::search::NoListener,
                &mut |s| {
                    let a = q.answer(&built, s);
                    q.check(&a).expect("every solution passes the checker");
                    found += 1;
                    engine::Control::Continue
                },
            );
            assert_eq!((out.solutions, found), (want, want), "{}-queens", i + 1);
        }
    }

    /// 12-queens, the size of issue 6's speed target: 14,200 solutions (OEIS A000170) on one
    /// and two threads.
    #[test]
    fn twelve_queens_has_14200_solutions_on_one_and_two_threads() {
        let built = Queens { n: 12 }.model(&ModelOptions::default());
        for threads in [1, 2] {
            let out = engine::count_parallel(&built.model, &built.search, threads);
            assert_eq!(
                (out.solutions, out.complete),
                (14_200, true),
                "-p {threads}"
            );
        }
    }

    /// The bounds and domain levels post one propagator per family instead of the value
    /// level's single one: every level counts the same.
    #[test]
    fn every_alldiff_level_counts_the_same() {
        let expected = [1, 0, 0, 2, 10, 4, 40, 92];
        for level in [
            AllDiffLevel::Value,
            AllDiffLevel::Bounds,
            AllDiffLevel::Domain,
        ] {
            for (i, &want) in expected.iter().enumerate() {
                let options = ModelOptions {
                    alldiff: level,
                    ..Default::default()
                };
                let mut built = Queens { n: i + 1 }.model(&options);
                let out = engine::count(&mut built.model, &built.search);
                assert_eq!(out.solutions, want, "{}-queens at level {level}", i + 1);
            }
        }
    }

    /// The columns from the middle out, and what that order buys: fewer nodes on 10-queens
    /// than left to right (the same count).
    #[test]
    fn middle_columns_are_tried_first() {
        assert_eq!(middle_out(8), [3, 4, 2, 5, 1, 6, 0, 7]);
        assert_eq!(middle_out(5), [2, 1, 3, 0, 4]);
        assert_eq!(middle_out(1), [0]);
        let mut built = Queens { n: 10 }.model(&ModelOptions::default());
        let middle = engine::count(&mut built.model.clone(), &built.search);
        built.search.branch_vars = Some(built.vars.clone());
        let left_to_right = engine::count(&mut built.model, &built.search);
        engine::testing::assert_same_count_fewer_nodes(
            &middle,
            &left_to_right,
            724,
            "middle out, left to right",
        );
    }

    #[test]
    fn checker_rejects_attacks() {
        let q = Queens { n: 4 };
        assert!(q.check_rows(&[1, 3, 0, 2]).is_ok());
        assert!(q
            .check_rows(&[0, 1, 2, 3])
            .unwrap_err()
            .contains("diagonal"));
        assert!(q.check_rows(&[1, 1, 0, 2]).unwrap_err().contains("row"));
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert!(parse("x").is_err());
        assert!(parse("0").is_err());
        assert!(parse("").is_err());
        assert_eq!(parse("5").unwrap().len(), 1);
    }
}
