//! # Infinity Loop: turn tiles until every line is closed — Match 22 with other data
//!
//! Each tile carries line ends on some of its four sides. Tiles are turned (a quarter turn
//! counter-clockwise at a time) until every line runs unbroken from tile to tile and no line
//! points off the board; fewest turns wins (seed 001).
//!
//! **Model:** seed 001 says it is "the same model wearing different data", and so it is here:
//! [`crate::rotation`] with each side's value `1` (a line ends there) or `0`, plus the border
//! rule that Match 22 does not need — an outward side shows `0`. Touching sides agree: both
//! present or both absent. An empty tile is a piece with no line, which has a single useful
//! orientation (no turns).
//!
//! The seed's 3×3 frame shows why the puzzle counts *pictures*: a straight half-turned, or the
//! blank centre spun, changes no line, so turn vectors are many while the picture is one.
//! Keeping only the fewest turns per distinct orientation (`useful_turns`) makes the two
//! coincide, and `--count` still counts on the picture variables with projection.
//!
//! Run it: `cpsolve loop` (the seed's frame: 1 picture, 10 turns), `cpsolve loop --count`.

use crate::common::{char_rows, Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use crate::rotation::{turns_between, RotationBoard, BOTTOM, LEFT, RIGHT, TOP};
use engine::Solution;
use serde_json::json;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "loop",
    aliases: &[],
    summary: "Infinity Loop: turn tiles until every line is closed, in the fewest quarter turns",
    optimisation: true,
    input: Input::File,
    seed: include_str!("../instances/seed/infinity_loop.txt"),
    seed_file: Some("instances/seed/infinity_loop.txt"),
    parse,
    page: Some("docs/puzzles/infinity_loop.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The largest board accepted.
pub const MAX_CELLS: usize = 10_000;

/// The box-drawing character of each mask (1 up, 2 right, 4 down, 8 left), `·` for none.
pub const BOX: [char; 16] = [
    '·', '╵', '╶', '└', '╷', '│', '┌', '├', '╴', '┘', '─', '┴', '┐', '┤', '┬', '┼',
];

/// The mask of a tile character: box drawing, a hexadecimal digit, or `.`/`0`/`·` for empty.
pub fn mask_of(ch: char) -> Option<u8> {
    if ch == '.' {
        return Some(0);
    }
    if let Some(d) = ch.to_digit(16) {
        return Some(d as u8);
    }
    BOX.iter().position(|&b| b == ch).map(|m| m as u8)
}

/// A mask as the shared model's sides: top, left, bottom, right, each 1 or 0.
pub fn sides_of(mask: u8) -> [i32; 4] {
    let bit = |b: u8| i32::from(mask & b != 0);
    let mut s = [0; 4];
    s[TOP] = bit(1);
    s[LEFT] = bit(8);
    s[BOTTOM] = bit(4);
    s[RIGHT] = bit(2);
    s
}

/// Sides back to a mask.
pub fn mask_from_sides(s: &[i32; 4]) -> u8 {
    let on = |h: usize, b: u8| if s[h] != 0 { b } else { 0 };
    on(TOP, 1) | on(RIGHT, 2) | on(BOTTOM, 4) | on(LEFT, 8)
}

/// A board of tiles, by mask, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfinityLoop {
    pub rows: usize,
    pub cols: usize,
    pub masks: Vec<u8>,
}

/// Parse a rectangle of tile characters.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(parse_board(text)?)])
}

/// Parse one board into its typed form.
pub fn parse_board(text: &str) -> Result<InfinityLoop, ParseError> {
    let grid = char_rows(text)?;
    let (rows, cols) = (grid.len(), grid[0].1.len());
    if rows * cols > MAX_CELLS {
        return Err(ParseError::new(
            grid[0].0,
            format!("board of {rows}×{cols} tiles is larger than the {MAX_CELLS} accepted"),
        ));
    }
    let mut masks = Vec::with_capacity(rows * cols);
    for (line, cells) in &grid {
        for &ch in cells {
            masks.push(mask_of(ch).ok_or_else(|| {
                ParseError::new(
                    *line,
                    format!(
                        "unexpected '{ch}': expected a box-drawing tile, a hexadecimal mask, or '.'"
                    ),
                )
            })?);
        }
    }
    Ok(InfinityLoop { rows, cols, masks })
}

impl InfinityLoop {
    /// The shared rotation board: every place holds a piece (an empty tile has no line).
    pub fn board(&self) -> RotationBoard {
        RotationBoard {
            rows: self.rows,
            cols: self.cols,
            pieces: self.masks.iter().map(|&m| Some(sides_of(m))).collect(),
            closed_border: true,
        }
    }

    /// Rules only, for a picture given as masks: each tile is a turned copy of the given one,
    /// lines meet, none leaves the board. Returns the fewest turns that reach the picture.
    pub fn check_masks(&self, picture: &[u8]) -> Result<usize, String> {
        if picture.len() != self.masks.len() {
            return Err(format!("expected {} tiles", self.masks.len()));
        }
        let mut turns = 0;
        for (i, (&from, &to)) in self.masks.iter().zip(picture).enumerate() {
            let j = turns_between(&sides_of(from), &sides_of(to)).ok_or_else(|| {
                format!(
                    "tile ({},{}) shows {} which is not a turn of {}",
                    i / self.cols + 1,
                    i % self.cols + 1,
                    BOX[to as usize & 15],
                    BOX[from as usize]
                )
            })?;
            turns += j;
        }
        let now: Vec<Option<[i32; 4]>> = picture.iter().map(|&m| Some(sides_of(m))).collect();
        self.board().check_picture(&now)?;
        Ok(turns)
    }
}

impl Instance for InfinityLoop {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.board().model(options.purpose))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let board = self.board();
        let turns = board.turns_of(built, solution);
        let picture: Vec<char> = self
            .masks
            .iter()
            .zip(&turns)
            .map(|(&m, &j)| {
                let now = crate::rotation::turned(&sides_of(m), j);
                BOX[mask_from_sides(&now) as usize]
            })
            .collect();
        let rows: Vec<String> = picture
            .chunks(self.cols)
            .map(|r| r.iter().collect())
            .collect();
        let total: usize = turns.iter().sum();
        Answer {
            text: rows.iter().map(|r| format!("{r}\n")).collect::<String>()
                + &format!("{total} turns\n"),
            json: json!(rows).into(),
            objective: Some(total as i64),
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let rows = json.as_array().ok_or("solution is not a list of rows")?;
        if rows.len() != self.rows {
            return Err(format!("expected {} rows", self.rows));
        }
        let mut picture = Vec::with_capacity(self.masks.len());
        for row in rows {
            let s = row.as_str().ok_or("a row is not a string")?;
            if s.chars().count() != self.cols {
                return Err(format!("expected rows of {} tiles", self.cols));
            }
            for ch in s.chars() {
                let m = BOX
                    .iter()
                    .position(|&b| b == ch)
                    .ok_or_else(|| format!("'{ch}' is not a box-drawing tile or '·'"))?;
                picture.push(m as u8);
            }
        }
        let turns = self.check_masks(&picture)? as i64;
        if answer.objective != Some(turns) {
            return Err(format!(
                "objective {:?} is not the {turns} fewest turns that reach this picture",
                answer.objective
            ));
        }
        Ok(())
    }

    /// Each tile "r1c1".. at its place; the trace says how far it is turned clockwise, the
    /// picture shows the tile so turned (`┌`).
    fn naming(&self, built: &Built) -> engine::search::Naming {
        crate::naming::rotations(&self.board(), built, |place, turns| {
            let now = crate::rotation::turned(&sides_of(self.masks[place]), turns);
            BOX[mask_from_sides(&now) as usize].to_string()
        })
    }
}
