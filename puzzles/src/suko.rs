//! # Suko: one all-different and seven sums over irregular sets
//!
//! The nine cells of a 3×3 grid hold the digits 1..9, each once. Four inner totals give the
//! sums of the four overlapping 2×2 blocks; colour groups of unequal size give more totals.
//!
//! **Model (seed 002).** Chlond's set model, as in the seed's listing: a variable
//! `v[i][j] ∈ 1..9` per cell, `AddAllDifferent` over all nine, one sum per 2×2 block and one per
//! colour group. The code says the same with `Model::all_different` (at the `--alldiff` level)
//! and `Model::sum_equals`. The lesson is the seed's: the data is a family of sets of cells, and
//! every constraint is a sum or an all-different over one of them.
//!
//! **Propagation.** Bounds on each sum, all-different at its level; search smallest domain
//! first.
//!
//! Run it: `cpsolve suko`, `cpsolve suko board.txt --count`.

use crate::common::{check_distinct, check_text, content_lines, json_number_grid, sections};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Solution, VarId};

pub const KIND: PuzzleKind = PuzzleKind {
    name: "suko",
    aliases: &[],
    summary: "Suko: 1..9 in a 3×3 grid meeting four block sums and colour-group sums",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/suko.txt"),
    seed_file: Some("instances/seed/suko.txt"),
    parse,
    page: Some("docs/puzzles/suko.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The cells (row-major indices) of the 2×2 blocks: top-left, top-right, bottom-left,
/// bottom-right.
pub const BLOCKS: [[usize; 4]; 4] = [[0, 1, 3, 4], [1, 2, 4, 5], [3, 4, 6, 7], [4, 5, 7, 8]];

/// The largest total accepted (far above any sum of distinct digits, 45).
const MAX_TOTAL: u32 = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suko {
    /// The group of each cell (an index into `groups`), row by row.
    pub group_of: [usize; 9],
    /// Each group's name and total, in order of first appearance in the grid.
    pub groups: Vec<(String, u32)>,
    /// The sums of the four 2×2 blocks, in the order of [`BLOCKS`].
    pub inner: [u32; 4],
}

fn parse_total(token: &str, line: usize) -> Result<u32, ParseError> {
    token
        .parse::<u32>()
        .ok()
        .filter(|&t| t <= MAX_TOTAL && token.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            ParseError::new(
                line,
                format!("'{token}' is not a total: expected a whole number 0..{MAX_TOTAL}"),
            )
        })
}

/// Parse the `groups`, `inner` and `totals` sections (in any order).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(
            0,
            "empty file: expected 'groups' (3 rows), 'inner' (4 sums) and 'totals' (NAME=SUM ...)",
        ));
    }
    let all = sections(&lines, &["groups", "inner", "totals"])?;
    let find = |name: &str| {
        all.iter().find(|s| s.name == name).ok_or_else(|| {
            ParseError::new(
                lines.last().map_or(0, |&(l, _)| l),
                format!("no '{name}' section: a Suko needs 'groups', 'inner' and 'totals'"),
            )
        })
    };
    let (groups_section, inner_section, totals_section) =
        (find("groups")?, find("inner")?, find("totals")?);
    for s in [inner_section, totals_section] {
        if let Some(&(line, _)) = s.body.first() {
            return Err(ParseError::new(
                line,
                format!("'{}' is one line; this line belongs to no section", s.name),
            ));
        }
    }

    // groups: 3 rows of 3 names.
    if !groups_section.args.is_empty() {
        return Err(ParseError::new(
            groups_section.line,
            format!("unexpected '{}' after 'groups'", groups_section.args),
        ));
    }
    if groups_section.body.len() != 3 {
        let line = groups_section
            .body
            .last()
            .map_or(groups_section.line, |&(l, _)| l);
        return Err(ParseError::new(
            line,
            format!(
                "'groups' has {} rows, expected 3",
                groups_section.body.len()
            ),
        ));
    }
    let mut names: Vec<String> = Vec::new();
    let mut group_of = [0; 9];
    for (r, &(line, text)) in groups_section.body.iter().enumerate() {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() != 3 {
            return Err(ParseError::new(
                line,
                format!("a row of 'groups' has {} names, expected 3", tokens.len()),
            ));
        }
        for (c, name) in tokens.into_iter().enumerate() {
            let g = match names.iter().position(|n| n == name) {
                Some(g) => g,
                None => {
                    names.push(name.to_string());
                    names.len() - 1
                }
            };
            group_of[r * 3 + c] = g;
        }
    }

    // inner: four totals.
    let inner_tokens: Vec<&str> = inner_section.args.split_whitespace().collect();
    if inner_tokens.len() != 4 {
        return Err(ParseError::new(
            inner_section.line,
            format!(
                "'inner' has {} totals, expected 4 (top-left, top-right, bottom-left, bottom-right)",
                inner_tokens.len()
            ),
        ));
    }
    let mut inner = [0; 4];
    for (k, t) in inner_tokens.iter().enumerate() {
        inner[k] = parse_total(t, inner_section.line)?;
    }

    // totals: NAME=SUM for every group, each once.
    let line = totals_section.line;
    let mut totals: Vec<Option<u32>> = vec![None; names.len()];
    for item in totals_section.args.split_whitespace() {
        let Some((name, total)) = item.split_once('=') else {
            return Err(ParseError::new(
                line,
                format!("'{item}': expected NAME=SUM, e.g. A=22"),
            ));
        };
        let Some(g) = names.iter().position(|n| n == name) else {
            return Err(ParseError::new(
                line,
                format!("'{name}' is not a group of the grid ({})", names.join(", ")),
            ));
        };
        if totals[g].is_some() {
            return Err(ParseError::new(
                line,
                format!("group '{name}' has two totals"),
            ));
        }
        totals[g] = Some(parse_total(total, line)?);
    }
    let mut groups = Vec::with_capacity(names.len());
    for (name, total) in names.into_iter().zip(totals) {
        let Some(total) = total else {
            return Err(ParseError::new(
                line,
                format!("group '{name}' has no total: expected {name}=SUM"),
            ));
        };
        groups.push((name, total));
    }
    Ok(vec![Box::new(Suko {
        group_of,
        groups,
        inner,
    })])
}

impl Suko {
    /// The cells of group `g`.
    fn group_cells(&self, g: usize) -> Vec<usize> {
        (0..9).filter(|&i| self.group_of[i] == g).collect()
    }

    pub fn model(&self, options: &ModelOptions) -> Built {
        let mut model = Model::new();
        let cells = model.new_vars(9, 1, 9);
        let _ = model.all_different(&cells, options.alldiff);
        let pick = |idx: &[usize]| -> Vec<VarId> { idx.iter().map(|&i| cells[i]).collect() };
        for (block, &total) in BLOCKS.iter().zip(&self.inner) {
            let _ = model.sum_equals(&pick(block), total as i64);
        }
        for (g, &(_, total)) in self.groups.iter().enumerate() {
            let _ = model.sum_equals(&pick(&self.group_cells(g)), total as i64);
        }
        Built::branching_on(model, cells)
    }

    /// Rules only: the nine digits once each, the four block sums, the group sums.
    pub fn check_digits(&self, digits: &[i64]) -> Result<(), String> {
        check_distinct(digits, "the grid")?;
        let names = ["top-left", "top-right", "bottom-left", "bottom-right"];
        for ((block, &total), name) in BLOCKS.iter().zip(&self.inner).zip(names) {
            let sum: i64 = block.iter().map(|&i| digits[i]).sum();
            if sum != total as i64 {
                return Err(format!("the {name} block adds up to {sum}, not {total}"));
            }
        }
        for (g, (name, total)) in self.groups.iter().enumerate() {
            let sum: i64 = self.group_cells(g).iter().map(|&i| digits[i]).sum();
            if sum != *total as i64 {
                return Err(format!("group '{name}' adds up to {sum}, not {total}"));
            }
        }
        Ok(())
    }
}

impl Instance for Suko {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let digits = crate::common::values_of(&built.vars, solution);
        let json = crate::common::json_rows(&digits, 3);
        // The digits with their group names: `6A 7A 2B`.
        let mut text = String::new();
        for r in 0..3 {
            let row: Vec<String> = (0..3)
                .map(|c| {
                    let i = r * 3 + c;
                    format!("{}{}", digits[i], self.groups[self.group_of[i]].0)
                })
                .collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        Answer {
            json: json.into(),
            text,
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = json_number_grid(&answer.json.to_value(), 3, 3, 1, 9)?;
        let digits: Vec<i64> = grid.into_iter().flatten().collect();
        self.check_digits(&digits)
    }

    /// Cells "r1c1".., the colour groups bordered; beside the grid the four block sums (in
    /// the order top left, top right, bottom left, bottom right), below it each group's total.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut naming = crate::naming::grid(&built.vars, 3);
        naming.layout.regions = self.group_of.to_vec();
        for (k, total) in self.inner.iter().enumerate() {
            naming
                .layout
                .labels
                .push((k / 2, 3 + k % 2, format!("block {}\n= {total}", k + 1)));
        }
        for (g, (name, total)) in self.groups.iter().enumerate() {
            naming
                .layout
                .labels
                .push((3 + g / 3, g % 3, format!("{name}\n= {total}")));
        }
        naming
    }
}
