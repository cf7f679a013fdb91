//! # Pigeonhole: one problem seen two ways, linked by channelling constraints
//!
//! A 6×6 shelf holds a fork, knife or spoon in each hole, exactly two of each in every row and
//! every column, and eight clues (seed 004, from *Official's Logic Problems*). Rows are A–F,
//! columns 1–6.
//!
//! **The lesson: viewpoints and channelling.** The seed's author finds that numbering the
//! items "by rows" (the left and right fork of row A, ...) makes the row clues easy and the
//! column clues hard, and "by columns" the other way round; his best solution runs *both*
//! problems side by side and passes information between them. In CP terms these are
//! **viewpoints** — different sets of variables for one problem — and the code that passes
//! information is a set of **channelling constraints**. This model has three viewpoints:
//!
//! * **cells**: `item[r][c] ∈ {F, K, S}`;
//! * **by rows**: `in_row[r][t] = (a, b)`, the columns `a < b` of the two items of type `t` in
//!   row `r`. "Two of each per row" is *built into* this viewpoint: a pair is two columns;
//! * **by columns**: `in_col[c][t] = (a, b)`, the rows `a < b` of the two items of type `t`
//!   in column `c`; "two of each per column" is built in likewise.
//!
//! **Channelling:** for each row `r`, type `t` and column `c`, one table over
//! `(in_row[r][t].a, in_row[r][t].b, item[r][c])` states `item[r][c] = t ⇔ c ∈ {a, b}`, and the
//! same for columns. These tables are domain consistent: once the row viewpoint knows column 3
//! holds none of row A's forks, `item[A][3]` loses `F`, and the column viewpoint hears of it
//! through its own tables; the other way round too. The six positions of a row are moreover a
//! permutation of the six columns (an all-different, redundant but strong).
//!
//! **Each clue where it is easy:**
//!
//! | clue | viewpoint | constraint |
//! |---|---|---|
//! | 1. row A: each fork is next only to knives | cells | table on each adjacent pair |
//! | 2. row B: forks two or three holes apart | rows | table of gaps on `in_row[B][F]` |
//! | 3. row C: edge holes are a fork and a spoon | cells | table on `item[C][1], item[C][6]` |
//! | 4. rows D, F: spoons at least three apart | rows | gaps on `in_row[D][S]`, `in_row[F][S]` |
//! | 5. column 1: centre holes a fork and a knife | cells | table on `item[C][1], item[D][1]` |
//! | 6. columns 2, 6: knives two apart | columns | gaps on `in_col[2][K]`, `in_col[6][K]` |
//! | 7. column 4: knives adjacent, forks ≥ 3 apart | columns | gaps on `in_col[4][K]`, `[F]` |
//! | 8. column 5: knives adjacent or four apart | columns | gaps on `in_col[5][K]` |
//!
//! The shelf is unique: `cpsolve pigeonhole` prints it, `--count` proves it is the only one.
//!
//! **The seed's comparison.** `--viewpoint rows` (or `columns`; [`ModelOptions::viewpoint`])
//! leaves one pair viewpoint out, as the seed's first solution does: that viewpoint's "two of
//! each per line" becomes a global cardinality on the cells, and its gap clues tables on
//! pairs of cells (`cells_with_gaps`), which see two holes where a pair sees the whole line.
//! The default is both; docs/puzzles/pigeonhole.md compares the three searches.

use crate::common::{content_lines, Answer, Built, Instance, ModelOptions, ParseError, Viewpoint};
use crate::instance::{Defaults, Input, PuzzleFlag, PuzzleKind};
use engine::{Model, Solution, VarId};
use serde_json::json;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "pigeonhole",
    aliases: &[],
    summary: "Pigeonhole: the seed's 6×6 fork, knife and spoon shelf (built in)",
    optimisation: false,
    input: Input::BuiltIn,
    seed: "",
    seed_file: None,
    parse,
    page: Some("docs/puzzles/pigeonhole.md"),
    defaults: Defaults::STANDARD,
    flags: &[PuzzleFlag::Viewpoint],
};

pub const SIDE: usize = 6;
/// Item types, as values of the cell variables.
pub const FORK: i32 = 0;
pub const KNIFE: i32 = 1;
pub const SPOON: i32 = 2;
const LETTERS: [char; 3] = ['F', 'K', 'S'];
const TYPES: [i32; 3] = [FORK, KNIFE, SPOON];
/// Rows A..F.
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const F: usize = 5;

/// The shelf of seed 004; it has no data, the clues are the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pigeonhole;

/// The puzzle is built in: accept only an empty text (blank lines and comments).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    if let Some(&(line, _)) = content_lines(text).first() {
        return Err(ParseError::new(
            line,
            "pigeonhole is built in and reads no file: run `cpsolve pigeonhole`",
        ));
    }
    Ok(vec![Box::new(Pigeonhole)])
}

/// The two positions `(first, second)` of one kind of item along a row or column.
type Pair = (VarId, VarId);

/// The variables of the viewpoints the model states (`in_row` or `in_col` empty when that
/// viewpoint is left out).
#[derive(Debug)]
struct Viewpoints {
    item: Vec<Vec<VarId>>,
    /// `in_row[r][t]`: columns of row r's two items of type t.
    in_row: Vec<Vec<Pair>>,
    /// `in_col[c][t]`: rows of column c's two items of type t.
    in_col: Vec<Vec<Pair>>,
}

/// `(first, second)` two positions 0..5 along a line with `second - first` in `gaps`.
fn pair_with_gaps(model: &mut Model, pair: Pair, gaps: &[usize]) {
    let rows: Vec<Vec<i32>> = (0..SIDE)
        .flat_map(|a| (a + 1..SIDE).map(move |b| (a, b)))
        .filter(|&(a, b)| gaps.contains(&(b - a)))
        .map(|(a, b)| vec![a as i32, b as i32])
        .collect();
    model.table(&[pair.0, pair.1], rows);
}

/// The same clue without the pair: along the six cells of a line, two items of type `t` stand
/// only at a distance in `gaps` (a table forbidding `(t, t)` on every other pair of cells).
/// With "two of each per line" stated on the cells, this is the clue exactly, but each table
/// sees two cells only: weaker than the table on the pair.
fn cells_with_gaps(model: &mut Model, line: &[VarId], t: i32, gaps: &[usize]) {
    let not_both: Vec<Vec<i32>> = TYPES
        .iter()
        .flat_map(|&x| TYPES.iter().map(move |&y| vec![x, y]))
        .filter(|p| p[0] != t || p[1] != t)
        .collect();
    for a in 0..SIDE {
        for b in a + 1..SIDE {
            if !gaps.contains(&(b - a)) {
                model.table(&[line[a], line[b]], not_both.clone());
            }
        }
    }
}

/// Channelling: `item = t  ⇔  position ∈ {pair.0, pair.1}`, as one table.
fn channel(model: &mut Model, pair: Pair, position: usize, item: VarId, t: i32) {
    let mut rows = Vec::new();
    for a in 0..SIDE {
        for b in a + 1..SIDE {
            let here = a == position || b == position;
            for &v in &TYPES {
                if (v == t) == here {
                    rows.push(vec![a as i32, b as i32, v]);
                }
            }
        }
    }
    model.table(&[pair.0, pair.1, item], rows);
}

/// Two cells that hold, in some order, the two types given.
fn one_of_each(model: &mut Model, x: VarId, y: VarId, t: i32, u: i32) {
    model.table(&[x, y], vec![vec![t, u], vec![u, t]]);
}

/// The position pairs of one viewpoint (six lines, three types), each pair ordered, the
/// six positions of a line all different, and each pair channelled to the cells:
/// `cell(line, across)` is the cell at position `across` of line `line`.
fn pairs_viewpoint(
    model: &mut Model,
    options: &ModelOptions,
    cell: impl Fn(usize, usize) -> VarId,
) -> Vec<Vec<Pair>> {
    let pairs: Vec<Vec<Pair>> = (0..SIDE)
        .map(|_| {
            TYPES
                .iter()
                .map(|_| {
                    let (a, b) = (model.new_var(0, 4), model.new_var(1, 5));
                    model.less_than(a, b);
                    (a, b)
                })
                .collect()
        })
        .collect();
    for (line, by_type) in pairs.iter().enumerate() {
        for (&pair, &ty) in by_type.iter().zip(&TYPES) {
            for across in 0..SIDE {
                channel(model, pair, across, cell(line, across), ty);
            }
        }
        // The six positions of a line are the six places, each once.
        let positions: Vec<VarId> = by_type.iter().flat_map(|&(a, b)| [a, b]).collect();
        model.all_different(&positions, options.alldiff);
    }
    pairs
}

impl Pigeonhole {
    /// The cells, and the viewpoints `options.viewpoint` asks for, channelled to them. A line
    /// whose viewpoint is left out gets "two of each" on its cells.
    fn viewpoints(model: &mut Model, options: &ModelOptions) -> Viewpoints {
        let item: Vec<Vec<VarId>> = (0..SIDE)
            .map(|_| model.new_vars(SIDE, FORK, SPOON))
            .collect();
        let two_of_each: Vec<(i32, u32)> = TYPES.iter().map(|&t| (t, 2)).collect();
        let (rows, columns) = match options.viewpoint {
            Viewpoint::Both => (true, true),
            Viewpoint::Rows => (true, false),
            Viewpoint::Columns => (false, true),
        };
        let in_row = if rows {
            pairs_viewpoint(model, options, |r, c| item[r][c])
        } else {
            for row in &item {
                model.global_cardinality(row, &two_of_each);
            }
            Vec::new()
        };
        let in_col = if columns {
            pairs_viewpoint(model, options, |c, r| item[r][c])
        } else {
            for c in 0..SIDE {
                let column: Vec<VarId> = item.iter().map(|row| row[c]).collect();
                model.global_cardinality(&column, &two_of_each);
            }
            Vec::new()
        };
        Viewpoints {
            item,
            in_row,
            in_col,
        }
    }

    /// The model of the module documentation, in the viewpoint of `options.viewpoint`;
    /// `vars` are the cells, row by row.
    pub fn model(&self, options: &ModelOptions) -> Built {
        let mut model = Model::new();
        let v = Self::viewpoints(&mut model, options);
        let (fork, knife, spoon) = (FORK as usize, KNIFE as usize, SPOON as usize);
        let column = |c: usize| -> Vec<VarId> { v.item.iter().map(|row| row[c]).collect() };
        // A clue on the gap between the two items of type `t` along a line: on the pair of
        // positions when the model has the line's viewpoint, else on the cells.
        let gaps = |model: &mut Model,
                    pairs: &[Vec<Pair>],
                    cells: Vec<VarId>,
                    line: usize,
                    t: usize,
                    allowed: &[usize]| {
            if pairs.is_empty() {
                cells_with_gaps(model, &cells, TYPES[t], allowed);
            } else {
                pair_with_gaps(model, pairs[line][t], allowed);
            }
        };
        // 1. Row A: a fork's horizontal neighbours are knives (cells viewpoint).
        let next_to_fork_is_knife: Vec<Vec<i32>> = TYPES
            .iter()
            .flat_map(|&x| TYPES.iter().map(move |&y| vec![x, y]))
            .filter(|p| (p[0] != FORK || p[1] == KNIFE) && (p[1] != FORK || p[0] == KNIFE))
            .collect();
        for c in 0..SIDE - 1 {
            model.table(
                &[v.item[A][c], v.item[A][c + 1]],
                next_to_fork_is_knife.clone(),
            );
        }
        // 2. Row B: the forks two or three holes apart (rows viewpoint).
        gaps(&mut model, &v.in_row, v.item[B].clone(), B, fork, &[2, 3]);
        // 3. Row C: the edge holes hold a fork and a spoon (cells viewpoint).
        one_of_each(&mut model, v.item[C][0], v.item[C][SIDE - 1], FORK, SPOON);
        // 4. Rows D and F: the spoons at least three holes apart (rows viewpoint).
        gaps(
            &mut model,
            &v.in_row,
            v.item[D].clone(),
            D,
            spoon,
            &[3, 4, 5],
        );
        gaps(
            &mut model,
            &v.in_row,
            v.item[F].clone(),
            F,
            spoon,
            &[3, 4, 5],
        );
        // 5. Column 1: the centre holes hold a fork and a knife (cells viewpoint).
        one_of_each(&mut model, v.item[C][0], v.item[D][0], FORK, KNIFE);
        // 6. Columns 2 and 6: the knives two holes apart (columns viewpoint).
        gaps(&mut model, &v.in_col, column(1), 1, knife, &[2]);
        gaps(&mut model, &v.in_col, column(5), 5, knife, &[2]);
        // 7. Column 4: knives adjacent, forks at least three apart (columns viewpoint).
        gaps(&mut model, &v.in_col, column(3), 3, knife, &[1]);
        gaps(&mut model, &v.in_col, column(3), 3, fork, &[3, 4, 5]);
        // 8. Column 5: knives adjacent or four apart (columns viewpoint).
        gaps(&mut model, &v.in_col, column(4), 4, knife, &[1, 4]);

        let cells: Vec<VarId> = v.item.into_iter().flatten().collect();
        Built::branching_on(model, cells)
    }

    /// Rules only, on the shelf as six strings of F, K, S.
    pub fn check_shelf(&self, shelf: &[Vec<char>]) -> Result<(), String> {
        if shelf.len() != SIDE || shelf.iter().any(|r| r.len() != SIDE) {
            return Err("expected six rows of six holes".into());
        }
        if let Some(ch) = shelf.iter().flatten().find(|c| !LETTERS.contains(c)) {
            return Err(format!("'{ch}' is not F, K or S"));
        }
        let at = |r: usize, c: usize| shelf[r][c];
        let row_name = |r: usize| (b'A' + r as u8) as char;
        // Positions (0-based) of `ch` along row r or column c.
        let in_row =
            |r: usize, ch: char| -> Vec<usize> { (0..SIDE).filter(|&c| at(r, c) == ch).collect() };
        let in_col =
            |c: usize, ch: char| -> Vec<usize> { (0..SIDE).filter(|&r| at(r, c) == ch).collect() };
        for i in 0..SIDE {
            for ch in LETTERS {
                if in_row(i, ch).len() != 2 {
                    return Err(format!("row {} does not hold two {ch}", row_name(i)));
                }
                if in_col(i, ch).len() != 2 {
                    return Err(format!("column {} does not hold two {ch}", i + 1));
                }
            }
        }
        let gap = |p: Vec<usize>| p[1] - p[0];
        for c in in_row(A, 'F') {
            let neighbours = [c.checked_sub(1), Some(c + 1).filter(|&n| n < SIDE)];
            if neighbours.iter().flatten().any(|&n| at(A, n) != 'K') {
                return Err(
                    "clue 1: a fork in row A is next to something else than a knife".into(),
                );
            }
        }
        if ![2, 3].contains(&gap(in_row(B, 'F'))) {
            return Err("clue 2: the forks of row B are not two or three holes apart".into());
        }
        let mut edges = [at(C, 0), at(C, SIDE - 1)];
        edges.sort_unstable();
        if edges != ['F', 'S'] {
            return Err("clue 3: the edge holes of row C are not a fork and a spoon".into());
        }
        if gap(in_row(D, 'S')) < 3 || gap(in_row(F, 'S')) < 3 {
            return Err("clue 4: spoons of row D or F closer than three holes".into());
        }
        let mut centre = [at(C, 0), at(D, 0)];
        centre.sort_unstable();
        if centre != ['F', 'K'] {
            return Err("clue 5: the centre holes of column 1 are not a fork and a knife".into());
        }
        if gap(in_col(1, 'K')) != 2 || gap(in_col(5, 'K')) != 2 {
            return Err("clue 6: knives of column 2 or 6 not two holes apart".into());
        }
        if gap(in_col(3, 'K')) != 1 || gap(in_col(3, 'F')) < 3 {
            return Err("clue 7: column 4's knives not adjacent or forks too close".into());
        }
        if ![1, 4].contains(&gap(in_col(4, 'K'))) {
            return Err("clue 8: column 5's knives neither adjacent nor four apart".into());
        }
        Ok(())
    }
}

impl Instance for Pigeonhole {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let rows: Vec<String> = built
            .vars
            .chunks(SIDE)
            .map(|row| {
                row.iter()
                    .map(|&x| LETTERS[solution.value(x) as usize])
                    .collect()
            })
            .collect();
        let text = rows
            .iter()
            .enumerate()
            .map(|(r, s)| format!("{} {}\n", (b'A' + r as u8) as char, s))
            .collect::<String>();
        Answer {
            json: json!(rows).into(),
            text: format!("  123456\n{text}"),
            objective: None,
        }
    }

    /// Cells "r1c1".., values "fork", "knife", "spoon".
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let mut words = vec![String::new(); 3];
        words[FORK as usize] = "fork".into();
        words[KNIFE as usize] = "knife".into();
        words[SPOON as usize] = "spoon".into();
        let mut naming = crate::naming::grid(&built.vars, SIDE);
        naming.value_words = words;
        // The seed's colours: pink forks, turquoise knives, yellow spoons.
        let mut colours = vec![String::new(); 3];
        colours[FORK as usize] = "#f8a8c8".into();
        colours[KNIFE as usize] = "#40d0c8".into();
        colours[SPOON as usize] = "#f6e05e".into();
        naming.layout.value_colours = colours;
        naming
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let shelf: Vec<Vec<char>> = json
            .as_array()
            .ok_or("solution is not a list of rows")?
            .iter()
            .map(|r| r.as_str().map(|s| s.chars().collect()))
            .collect::<Option<_>>()
            .ok_or("a row is not a string")?;
        self.check_shelf(&shelf)
    }
}
