//! # Star Battle: K stars in every row, column and region, no two touching
//!
//! A square grid is cut into as many regions as it has rows. Place stars so that every row,
//! every column and every region holds exactly K of them, and no two stars are neighbours,
//! diagonals included. Some janko.at boards also have *blocked* cells (`#` or `@`), outside
//! every region, that hold no star: the same rules on an irregular board.
//!
//! **Model (seed 000).** One 0/1 variable per cell. Each row, column and region is a sum
//! `Σ x = K`. "No two touching" is written per 2×2 block, `Σ block ≤ 1`: every pair of
//! king-adjacent cells lies in some 2×2 block, so (H−1)(W−1) constraints replace up to four
//! times as many binary ones, and each is stronger (three of four cells are emptied at once).
//! It teaches the value of choosing *which* constraints to write: the same rule as cliques of
//! the conflict graph rather than its edges. And of a redundant constraint that sees several
//! units at once: `band_counts` (rows × regions, columns × regions) applies Hall's rule to
//! bands of consecutive rows, as a human solver does ("these two regions lie in these two
//! rows, so the rows' other cells are empty"), on boards of two stars or more.
//!
//! Run it: `cpsolve starbattle`, `cpsolve starbattle puzzles/instances/beyond/starbattle8-1-3.txt --count`.

use crate::common::{check_text, content_lines, parse_number};
use crate::common::{Answer, AnswerJson, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use crate::thermometer::picture;
use engine::propagators::band_counts::NO_PART;
use engine::{Model, Relation, SearchConfig, Solution, VarSelect};
use std::collections::HashMap;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "starbattle",
    aliases: &[],
    summary: "Star Battle: K stars per row, column and region, none touching",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/starbattle5-1-1.txt"),
    seed_file: Some("instances/beyond/starbattle5-1-1.txt"),
    parse,
    page: Some("docs/puzzles/starbattle.md"),
    defaults: Defaults {
        // Trying each cell with and without a star at every node (skipping the cells
        // around which nothing changed) solves boards root probing leaves open; the
        // measurement is in docs/performance/probing.md.
        probe: engine::search::probing::ProbeAt::Nodes,
        ..Defaults::STANDARD
    },
    flags: &[],
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StarBattle {
    pub n: usize,
    pub k: usize,
    /// The region names in order of first appearance.
    pub region_names: Vec<String>,
    /// The region of each cell, row-major; [`BLOCKED`] for a blocked cell.
    pub region_of: Vec<usize>,
}

/// The `region_of` of a blocked cell: in no region, never a star.
pub const BLOCKED: usize = usize::MAX;

/// The labels that mark a blocked cell when a grid has more labels than rows.
pub const BLOCKED_LABELS: [&str; 2] = ["#", "@"];

/// Parse `N K` or `H W K`, then the rows of region labels.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    let Some(&(head_line, head)) = lines.first() else {
        return Err(ParseError::new(
            0,
            "empty file: expected a line 'N K' or 'H W K'",
        ));
    };
    let numbers: Vec<&str> = head.split_whitespace().collect();
    let (h, w, k) = match numbers.len() {
        2 | 3 => {
            let v: Vec<usize> = numbers
                .iter()
                .map(|t| parse_number(head_line, t, "a size or K", 1, MAX_SIDE))
                .collect::<Result<_, _>>()?;
            if v.len() == 2 {
                (v[0], v[0], v[1])
            } else {
                (v[0], v[1], v[2])
            }
        }
        _ => {
            return Err(ParseError::new(
                head_line,
                format!("expected 'N K' or 'H W K', 2 or 3 positive numbers, found '{head}'"),
            ))
        }
    };
    if h != w {
        return Err(ParseError::new(
            head_line,
            format!("the grid must be square (rows and columns both hold K stars), found {h}×{w}"),
        ));
    }
    let n = h;
    let rows = &lines[1..];
    if rows.len() != n {
        let at = rows.last().map_or(head_line, |&(l, _)| l);
        return Err(ParseError::new(
            at,
            format!("expected {n} rows of regions, found {}", rows.len()),
        ));
    }
    let tokens_form = rows.iter().any(|(_, r)| r.contains(char::is_whitespace));
    let mut region_names: Vec<String> = Vec::new();
    // Name to region, beside `region_names`: 40,000 names are read in linear time.
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut first_line: Vec<usize> = Vec::new();
    let mut region_of = Vec::with_capacity(n * n);
    for &(line, text) in rows {
        let cells: Vec<String> = if tokens_form {
            text.split_whitespace().map(str::to_string).collect()
        } else {
            text.chars().map(|c| c.to_string()).collect()
        };
        if cells.len() != n {
            return Err(ParseError::new(
                line,
                format!("a row has {} cells, expected {n}", cells.len()),
            ));
        }
        for name in cells {
            let r = *index.entry(name.clone()).or_insert_with(|| {
                region_names.push(name);
                first_line.push(line);
                region_names.len() - 1
            });
            region_of.push(r);
        }
    }
    if region_names.len() > n {
        block_cells(&mut region_names, &mut region_of, &mut first_line);
    }
    if region_names.len() != n {
        let blocked = if region_of.contains(&BLOCKED) {
            " besides the blocked cells '#' and '@'"
        } else {
            ""
        };
        return Err(ParseError::new(
            rows[n - 1].0,
            format!(
                "the grid has {} regions{blocked}, expected {n} (one per row)",
                region_names.len()
            ),
        ));
    }
    for (r, name) in region_names.iter().enumerate() {
        let size = region_of.iter().filter(|&&x| x == r).count();
        if size < k {
            return Err(ParseError::new(
                first_line[r],
                format!("region '{name}' has {size} cells, fewer than the {k} stars it must hold"),
            ));
        }
    }
    Ok(vec![Box::new(StarBattle {
        n,
        k,
        region_names,
        region_of,
    })])
}

/// janko.at's boards with blocked cells: the labels `#` and `@`, when present, are taken out
/// of the regions and their cells marked [`BLOCKED`]. Only called when the grid has more
/// labels than rows, so a board whose N regions include one named `#` reads as before.
fn block_cells(
    region_names: &mut Vec<String>,
    region_of: &mut [usize],
    first_line: &mut Vec<usize>,
) {
    let kept: Vec<usize> = (0..region_names.len())
        .filter(|&r| !BLOCKED_LABELS.contains(&region_names[r].as_str()))
        .collect();
    let mut renumber = vec![BLOCKED; region_names.len()];
    for (new, &old) in kept.iter().enumerate() {
        renumber[old] = new;
    }
    for r in region_of.iter_mut() {
        *r = renumber[*r];
    }
    *region_names = kept.iter().map(|&r| region_names[r].clone()).collect();
    *first_line = kept.iter().map(|&r| first_line[r]).collect();
}

impl StarBattle {
    /// The rows, columns and regions as lists of cells, with their names.
    pub fn units(&self) -> Vec<(String, Vec<usize>)> {
        crate::grid::rows_columns_groups(self.n, &self.region_of, &self.region_names, "region")
    }

    pub fn model(&self) -> Built {
        let n = self.n;
        let mut model = Model::new();
        let cells = model.new_vars(n * n, 0, 1);
        for (i, &region) in self.region_of.iter().enumerate() {
            if region == BLOCKED {
                let _ = model.fix(cells[i], 0);
            }
        }
        for (_, unit) in self.units() {
            let terms: Vec<(i64, _)> = unit.iter().map(|&i| (1, cells[i])).collect();
            model.linear(&terms, Relation::Eq, self.k as i64);
        }
        for r in 0..n.saturating_sub(1) {
            for c in 0..n - 1 {
                let block = [
                    r * n + c,
                    r * n + c + 1,
                    (r + 1) * n + c,
                    (r + 1) * n + c + 1,
                ];
                let terms: Vec<(i64, _)> = block.iter().map(|&i| (1, cells[i])).collect();
                model.linear(&terms, Relation::Le, 1);
            }
        }
        if self.k >= 2 {
            // Hall's rule on bands of rows and of columns against the regions. With one star
            // per unit, node probing already finds what it finds and the bands only make each
            // probe wider (docs/performance/paths.md).
            let part_of: Vec<usize> = self
                .region_of
                .iter()
                .map(|&r| if r == BLOCKED { NO_PART } else { r })
                .collect();
            let row_of = (0..n * n).map(|i| i / n).collect();
            let column_of = (0..n * n).map(|i| i % n).collect();
            let k = self.k as i64;
            model.band_counts(&cells, row_of, part_of.clone(), k, n);
            model.band_counts(&cells, column_of, part_of, k, n);
        }
        let search = SearchConfig {
            // Every cell has two values, so first-fail is input order; dom/wdeg branches where
            // the counts have failed (measured on the janko.at set: docs/PERFORMANCE.md, "The
            // puzzles beyond the seeds on the public sets").
            var_select: VarSelect::DomWDeg,
            branch_vars: Some(cells.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: cells,
        }
    }

    /// Rules only: K stars per unit, none on a blocked cell, no two stars king-adjacent.
    pub fn check_grid(&self, grid: &[i64]) -> Result<(), String> {
        let n = self.n;
        if let Some(i) = (0..n * n).find(|&i| self.region_of[i] == BLOCKED && grid[i] == 1) {
            return Err(format!(
                "a star on the blocked cell [{}, {}]",
                i / n + 1,
                i % n + 1
            ));
        }
        for (name, unit) in self.units() {
            let stars = unit.iter().filter(|&&i| grid[i] == 1).count();
            if stars != self.k {
                return Err(format!("{name} holds {stars} stars, expected {}", self.k));
            }
        }
        for i in 0..n * n {
            if grid[i] != 1 {
                continue;
            }
            for (r, c) in crate::common::king_neighbours(n, n, i / n, i % n) {
                if grid[r * n + c] == 1 {
                    return Err(format!(
                        "stars at [{}, {}] and [{}, {}] touch",
                        i / n + 1,
                        i % n + 1,
                        r + 1,
                        c + 1
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Instance for StarBattle {
    fn build(&self, _options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model())
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        Answer {
            text: picture(&values, self.n, '*'),
            json: AnswerJson::Rows {
                values,
                width: self.n,
            },
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = answer.json.grid_numbers(self.n, self.n, 0, 1)?;
        self.check_grid(&grid)
    }

    /// Cells "r1c1"..: a star `★` or none `·`; the regions bordered.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut naming = crate::naming::grid(&built.vars, self.n);
        // Blocked cells drawn as one more region.
        let blocked = self.region_names.len();
        naming.layout.regions = self
            .region_of
            .iter()
            .map(|&r| if r == BLOCKED { blocked } else { r })
            .collect();
        naming.value_words = crate::naming::words(&["·", "★"]);
        naming.layout.value_colours = crate::naming::words(&["#fff", "#ffe680"]);
        naming
    }
}
