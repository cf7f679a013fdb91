//! # Match 22: turn coloured disks until touching segments agree, in the fewest turns
//!
//! A board of disks, each cut into four coloured quarter-segments (top, left, bottom, right).
//! The player turns disks a quarter counter-clockwise at a time until the touching segments of
//! every pair of neighbours agree, spending as few turns as possible (seed 001, after
//! Hartmann). An empty place touches nothing.
//!
//! **Model:** the rotation model shared with Infinity Loop, in [`crate::rotation`]: per disk a
//! `turns` variable, four `shown` colour variables, one table of the disk's orientations
//! linking them, equalities between touching segments, and `total = Σ turns` minimised.
//! Colours are the segment characters' code points.
//!
//! **Counting** (`--count`) counts distinct final pictures, not turn choices: the model built
//! for [`Purpose::Count`](crate::Purpose::Count) branches on the shown colours with projection.
//!
//! Run it: `cpsolve match22` (the seed's stand-in 4×5 board: 27 turns), `cpsolve match22
//! --count`.

use crate::common::{
    check_text, content_lines, parse_number, Answer, Built, Instance, ModelOptions, ParseError,
};
use crate::instance::{Defaults, Input, PuzzleKind};
use crate::rotation::{turned, RotationBoard};
use engine::Solution;
use serde_json::json;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "match22",
    aliases: &[],
    summary: "Match 22: turn disks until touching colours agree, in the fewest quarter turns",
    optimisation: true,
    input: Input::File,
    seed: include_str!("../instances/seed/match22.txt"),
    seed_file: Some("instances/seed/match22.txt"),
    parse,
    page: Some("docs/puzzles/match22.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 100;

/// A board of disks; each disk lists its segment colours top, left, bottom, right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match22 {
    pub board: RotationBoard,
    /// The disks as written (for rendering), `None` for an empty place.
    pub disks: Vec<Option<[char; 4]>>,
}

/// Parse `size R C` and R rows of C disks (`RGBY`, or `....` for an empty place).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_board(text)?)])
}

/// Parse one board into its typed form.
pub fn parse_board(text: &str) -> Result<Match22, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    let Some(&(size_line, header)) = lines.first() else {
        return Err(ParseError::new(0, "empty file: expected 'size ROWS COLS'"));
    };
    let tokens: Vec<&str> = header.split_whitespace().collect();
    if tokens.len() != 3 || tokens[0] != "size" {
        return Err(ParseError::new(
            size_line,
            format!(
                "expected 'size ROWS COLS', found {}",
                crate::parse::quoted(header)
            ),
        ));
    }
    let rows = parse_number(size_line, tokens[1], "the number of rows", 1, MAX_SIDE)?;
    let cols = parse_number(size_line, tokens[2], "the number of columns", 1, MAX_SIDE)?;
    let body = &lines[1..];
    if body.len() != rows {
        let line = body
            .get(rows)
            .map_or(lines.last().map_or(0, |l| l.0), |l| l.0);
        return Err(ParseError::new(
            line,
            format!("expected {rows} rows of disks, found {}", body.len()),
        ));
    }
    let mut disks = Vec::with_capacity(rows * cols);
    for &(line, l) in body {
        let row: Vec<&str> = l.split_whitespace().collect();
        if row.len() != cols {
            return Err(ParseError::new(
                line,
                format!("expected {cols} disks in this row, found {}", row.len()),
            ));
        }
        for token in row {
            let chars: Vec<char> = token.chars().collect();
            if chars.len() != 4 {
                return Err(ParseError::new(
                    line,
                    format!(
                        "disk {} should be four colours (top, left, bottom, right) or '....'",
                        crate::parse::quoted(token)
                    ),
                ));
            }
            disks.push((token != "....").then(|| [chars[0], chars[1], chars[2], chars[3]]));
        }
    }
    let pieces = disks
        .iter()
        .map(|d| d.map(|d| d.map(|ch| ch as i32)))
        .collect();
    Ok(Match22 {
        board: RotationBoard {
            rows,
            cols,
            pieces,
            closed_border: false,
        },
        disks,
    })
}

impl Match22 {
    /// The board after the given turns, as text: each disk as its four colours, top, left,
    /// bottom, right, and the turns it took.
    fn render(&self, turns: &[usize]) -> String {
        let mut turn_of = turns.iter();
        let mut text = String::new();
        for r in 0..self.board.rows {
            let cells: Vec<String> = (0..self.board.cols)
                .map(|c| match self.disks[r * self.board.cols + c] {
                    None => "....  ".to_string(),
                    Some(d) => {
                        let j = *turn_of.next().unwrap_or(&0);
                        format!("{}+{j}", turned(&d, j).iter().collect::<String>())
                    }
                })
                .collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        let total: usize = turns.iter().sum();
        text.push_str(&format!("{total} turns\n"));
        text
    }
}

impl Instance for Match22 {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.board.model(options.purpose))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let turns = self.board.turns_of(built, solution);
        Answer {
            json: json!(turns).into(),
            text: self.render(&turns),
            objective: Some(turns.iter().sum::<usize>() as i64),
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let turns: Vec<usize> = json
            .as_array()
            .ok_or("solution is not a list of turn counts")?
            .iter()
            .map(|v| v.as_u64().map(|j| j as usize))
            .collect::<Option<_>>()
            .ok_or("a turn count is not a whole number")?;
        self.board.check_turns(&turns)?;
        let total = turns.iter().sum::<usize>() as i64;
        if answer.objective != Some(total) {
            return Err(format!(
                "objective {:?} is not the {total} turns of the solution",
                answer.objective
            ));
        }
        Ok(())
    }

    /// Each disk "r1c1".. at its place; the trace says how far it is turned clockwise, the
    /// picture shows its colours so turned (top, right, bottom, left: `RGBY`).
    fn naming(&self, built: &Built) -> engine::search::Naming {
        crate::naming::rotations(&self.board, built, |place, turns| {
            self.disks[place].map_or(String::new(), |disk| turned(&disk, turns).iter().collect())
        })
    }
}
