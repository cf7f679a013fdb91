//! # Nonogram (Paint by Numbers): each line's clue is a constraint of its own
//!
//! Paint cells black so that every row and column shows, in order, blocks of black cells of
//! the lengths its clue gives, separated by at least one white cell.
//!
//! **Model (seed 004).** One 0/1 variable per cell; each row and each column is one
//! `nonogram_line` constraint (`engine/src/propagators/nonogram_line.rs`): the "line solver"
//! of dedicated nonogram programs, a left-to-right and right-to-left dynamic program over the
//! blocks that makes each line domain consistent, one 64-bit word per row of its table. The
//! same lines can be read as a regular language, `0* 1^c₁ 0⁺ 1^c₂ 0⁺ … 1^cₖ 0*`
//! ([`clue_automaton`]): a learning search (`--learn`) posts them so, with the automaton's
//! states as variables, because a nogood can then name where a block stands.
//!
//! **Search.** Every cell is probed at every node (`--probe-at nodes`: each cell tried black
//! and white, what a try refutes removed, what both tries agree on kept; Wu et al.'s "fully
//! probing"). Then the cell to branch on is chosen by one of four rules, a rule per run of
//! the search, in turns, with geometric restarts ([`scored_turns`], [`RESTARTS`]): dom/wdeg,
//! or the cell whose two tries both settled most (the champions' rule,
//! `engine/src/search/probe_scores.rs`) by the product of their counts or by the smaller
//! count, with one value order or the other. Each rule alone leaves boards open that
//! another solves at once; in turns, a board costs at most a few times what the best rule
//! needs. The line solver is cheap enough that all this pays: docs/performance/nonograms.md
//! measures it on the TAAI 2011 boards against learning and against each rule alone.
//!
//! Run it: `cpsolve nonogram`, `cpsolve nonogram puzzles/instances/beyond/generated5x6.non --count`.

use crate::common::check_text;
use crate::common::{Answer, AnswerJson, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use crate::thermometer::picture;
use engine::propagators::regular::Dfa;
use engine::search::probe_scores::{ScoreBranching, ScoreRule, ScoredValue};
use engine::search::probing::NodeProbing;
use engine::{Model, RestartPolicy, SearchConfig, Solution, VarSelect};

pub const KIND: PuzzleKind = PuzzleKind {
    name: "nonogram",
    aliases: &[],
    summary: "Nonogram (paint by numbers, .non files): each line a regular language",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/beyond/webpbn-1.non"),
    seed_file: Some("instances/beyond/webpbn-1.non"),
    parse,
    page: Some("docs/puzzles/nonogram.md"),
    defaults: Defaults {
        // Two lines can each allow a cell both ways but not together: trying each cell both
        // ways at every node, with the bit-parallel line solver as the propagator, solves
        // more TAAI boards in less CPU than root probing or learning
        // (docs/performance/nonograms.md). `--learn` still posts the learning model.
        probe: engine::search::probing::ProbeAt::Nodes,
        learn: false,
        ..Defaults::STANDARD
    },
    flags: &[],
};

/// How `cpsolve nonogram` picks the cell to branch on, after probing every cell at the node
/// (`engine/src/search/probe_scores.rs`): run `k` of the search by turn `k` modulo 4, dom/wdeg
/// (`None`: the brancher's choice), then the cell whose two tries both changed most by the
/// product of their counts, then by the smaller count, each with the value whose try changed
/// fewer cells first, then by the product with the value that changed more first
/// (docs/performance/nonograms.md measures the turns against each rule alone).
pub fn scored_turns() -> Vec<Option<ScoreBranching>> {
    let by = |rule, value| Some(ScoreBranching { rule, value });
    let (product, min) = (ScoreRule::Product, ScoreRule::Min);
    let (fewer, more) = (ScoredValue::FewerChanged, ScoredValue::MoreChanged);
    vec![None, by(product, fewer), by(min, fewer), by(product, more)]
}

/// The restarts between the turns of [`scored_turns`], in failures: geometric from 2,000, so
/// that dom/wdeg alone settles the boards it settles soon, and each later turn is half as
/// long again as the one before. The command turns them off when it counts or lists
/// solutions, and then dom/wdeg chooses throughout.
pub const RESTARTS: RestartPolicy = RestartPolicy::Geometric {
    base: 2000,
    factor: 1.5,
};

/// The largest side accepted.
pub const MAX_SIDE: usize = 500;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nonogram {
    pub width: usize,
    pub height: usize,
    /// The clue of each row, top to bottom (empty: an all-white row).
    pub rows: Vec<Vec<usize>>,
    /// The clue of each column, left to right.
    pub columns: Vec<Vec<usize>>,
}

/// The keys of the `.non` format, which end a block that runs short.
const KEYS: &[&str] = &[
    "width",
    "height",
    "rows",
    "columns",
    "goal",
    "title",
    "by",
    "copyright",
    "license",
    "catalogue",
    "color",
];

/// A clue line: positive numbers separated by commas; empty or `0` for an empty line.
fn parse_clue(line: usize, text: &str, length: usize) -> Result<Vec<usize>, ParseError> {
    let text = text.trim();
    if text.is_empty() || text == "0" {
        return Ok(Vec::new());
    }
    let mut clue = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        match part.parse::<usize>() {
            Ok(n) if n >= 1 && part.bytes().all(|b| b.is_ascii_digit()) && n <= length => {
                clue.push(n)
            }
            Ok(n) if n > length => {
                return Err(ParseError::new(
                    line,
                    format!("a block of {n} is longer than the line of {length} cells"),
                ))
            }
            _ => {
                return Err(ParseError::new(
                    line,
                    format!("unexpected clue '{text}': positive numbers separated by commas (colour clues are not read)"),
                ))
            }
        }
    }
    let needed = clue.iter().sum::<usize>() + clue.len() - 1;
    if needed > length {
        return Err(ParseError::new(
            line,
            format!("the clue '{text}' needs {needed} cells, the line has {length}"),
        ));
    }
    Ok(clue)
}

/// Parse a `.non` file (one puzzle, black and white).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    Ok(vec![Box::new(read(text)?)])
}

/// Read a `.non` file into its board (what [`parse`] boxes).
pub fn read(text: &str) -> Result<Nonogram, ParseError> {
    check_text(text)?;
    // Every line with its number; `%` comments dropped, blank lines kept (they count in blocks).
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.starts_with('%'))
        .collect();
    let (mut width, mut height) = (None, None);
    let (mut rows, mut columns) = (None, None);
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    let mut last_line = 0;
    while i < lines.len() {
        let (line, text) = lines[i];
        last_line = line;
        i += 1;
        let mut words = text.split_whitespace();
        let Some(key) = words.next() else {
            continue;
        };
        if !KEYS.contains(&key) {
            continue; // unknown lines are ignored
        }
        if key == "color" {
            return Err(ParseError::new(
                line,
                "a 'color' line: colour nonograms are not read",
            ));
        }
        if seen.contains(&key) {
            return Err(ParseError::new(line, format!("'{key}' is given twice")));
        }
        seen.push(key);
        match key {
            "width" | "height" => {
                let value = crate::common::parse_number(
                    line,
                    words.next().unwrap_or(""),
                    &format!("the {key}"),
                    1,
                    MAX_SIDE,
                )?;
                if key == "width" {
                    width = Some(value);
                } else {
                    height = Some(value);
                }
            }
            "rows" | "columns" => {
                let (Some(w), Some(h)) = (width, height) else {
                    return Err(ParseError::new(
                        line,
                        format!("'{key}' before 'width' and 'height': the sizes come first"),
                    ));
                };
                let (count, length) = if key == "rows" { (h, w) } else { (w, h) };
                let mut clues = Vec::with_capacity(count);
                while clues.len() < count {
                    let Some(&(l, t)) = lines.get(i) else {
                        return Err(ParseError::new(
                            last_line,
                            format!("'{key}' has {} lines, expected {count}", clues.len()),
                        ));
                    };
                    let first = t.split_whitespace().next().unwrap_or("");
                    if KEYS.contains(&first) {
                        return Err(ParseError::new(
                            l,
                            format!(
                                "'{key}' has {} lines, expected {count}: it runs into '{first}'",
                                clues.len()
                            ),
                        ));
                    }
                    clues.push(parse_clue(l, t, length)?);
                    last_line = l;
                    i += 1;
                }
                if key == "rows" {
                    rows = Some(clues);
                } else {
                    columns = Some(clues);
                }
            }
            _ => {}
        }
    }
    let missing = |what: &str| ParseError::new(last_line, format!("no '{what}' in the file"));
    let width = width.ok_or_else(|| missing("width"))?;
    let height = height.ok_or_else(|| missing("height"))?;
    let rows = rows.ok_or_else(|| missing("rows"))?;
    let columns = columns.ok_or_else(|| missing("columns"))?;
    Ok(Nonogram {
        width,
        height,
        rows,
        columns,
    })
}

/// The automaton of a clue over {0, 1}: `0* 1^c₁ 0⁺ … 1^cₖ 0*`. States: 1 = before the first
/// block; then for each block b its ones `1..=c_b` followed by one "gap after block b" state.
pub fn clue_automaton(clue: &[usize]) -> Dfa {
    let states = 1 + clue.iter().map(|c| c + 1).sum::<usize>();
    let mut next = vec![vec![0usize; 2]; states];
    // `gap`: the state that reads 0s before the next block (1 = start).
    let mut gap = 1;
    let mut q = 2;
    for &c in clue {
        next[gap - 1][0] = gap;
        next[gap - 1][1] = q; // the first 1 of the block
        for j in 0..c {
            let state = q + j;
            if j + 1 < c {
                next[state - 1][1] = state + 1;
            } else {
                next[state - 1][0] = state + 1; // the block ends: a 0 leads to the gap
            }
        }
        gap = q + c;
        q = gap + 1;
    }
    next[gap - 1][0] = gap;
    let mut accepting = vec![gap];
    if !clue.is_empty() {
        accepting.push(gap - 1); // the line may end on the last block's last cell
    }
    Dfa {
        states,
        first_value: 0,
        symbols: 2,
        next,
        start: 1,
        accepting,
    }
}

/// The blocks of black cells of a line.
pub fn blocks(line: &[i64]) -> Vec<usize> {
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

/// One line of the board: its cells in order and its clue's automaton.
struct Line {
    cells: Vec<engine::VarId>,
    automaton: Dfa,
}

impl Nonogram {
    pub fn model(&self) -> Built {
        let (w, h) = (self.width, self.height);
        let mut model = Model::new();
        let cells = model.new_vars(w * h, 0, 1);
        for (line, clue) in self.lines(&cells).iter().zip(self.clues()) {
            model.nonogram_line(&line.cells, clue);
        }
        // The restarts give the branching rules their turns. The probing declared here tries
        // every cell at every node; the command builds its own, which also skips the cells
        // around which nothing changed (`NodeProbing::new`: each cell's neighbours, costly
        // to list on a large board), and takes the branching from this one unless a flag
        // chooses the order.
        let probing = NodeProbing {
            vars: cells.clone(),
            max_size: 2,
            scored: scored_turns(),
            ..NodeProbing::default()
        };
        let mut built = self.with_search(model, cells.clone(), cells, RESTARTS);
        built.search.node_probing = Some(probing);
        built
    }

    /// The model a learning search gets (`--learn`): each line's automaton with its states
    /// made variables (`Model::regular_with_states`), so that a nogood can say where a block
    /// stands, and the search branches on the states too (`branch_on_states`; the cells
    /// first, in the order dom/wdeg or activity then choose from). The cells are decided by
    /// the states and the states by the cells: a solution is the same either way.
    pub fn model_with_states(&self, branch_on_states: bool) -> Built {
        let (w, h) = (self.width, self.height);
        let mut model = Model::new();
        let cells = model.new_vars(w * h, 0, 1);
        let mut branched = cells.clone();
        for line in self.lines(&cells) {
            let states = model.regular_with_states(&line.cells, line.automaton);
            if branch_on_states {
                branched.extend(states);
            }
        }
        self.with_search(model, branched, cells, RestartPolicy::Luby { scale: 100 })
    }

    /// Every row's clue, then every column's (the order of [`Nonogram::lines`]).
    fn clues(&self) -> impl Iterator<Item = &[usize]> {
        self.rows.iter().chain(&self.columns).map(|c| &c[..])
    }

    /// Every row, then every column, with its cells and its clue's automaton.
    fn lines(&self, cells: &[engine::VarId]) -> Vec<Line> {
        let (w, h) = (self.width, self.height);
        let rows = (self.rows.iter().enumerate()).map(|(r, clue)| Line {
            cells: cells[r * w..(r + 1) * w].to_vec(),
            automaton: clue_automaton(clue),
        });
        let columns = (self.columns.iter().enumerate()).map(|(c, clue)| Line {
            cells: (0..h).map(|r| cells[r * w + c]).collect(),
            automaton: clue_automaton(clue),
        });
        rows.chain(columns).collect()
    }

    /// The puzzle's search over `branched`, around `model`, with `restarts`; the answer is
    /// read from `cells`.
    fn with_search(
        &self,
        model: Model,
        branched: Vec<engine::VarId>,
        cells: Vec<engine::VarId>,
        restarts: RestartPolicy,
    ) -> Built {
        let search = SearchConfig {
            // Every cell has two values, so first-fail is input order; dom/wdeg branches on
            // the lines that have failed. A learning search restarts (Luby), which cuts the
            // heavy tail of the random TAAI 2011 boards (docs/performance/learning.md). The
            // command turns restarts off when it counts or lists solutions.
            var_select: VarSelect::DomWDeg,
            restarts,
            branch_vars: Some(branched),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: cells,
        }
    }

    /// Rules only: every line's blocks are its clue.
    pub fn check_grid(&self, grid: &[i64]) -> Result<(), String> {
        let (w, h) = (self.width, self.height);
        for (r, clue) in self.rows.iter().enumerate() {
            if blocks(&grid[r * w..(r + 1) * w]) != *clue {
                return Err(format!("row {} does not match its clue {clue:?}", r + 1));
            }
        }
        for (c, clue) in self.columns.iter().enumerate() {
            let column: Vec<i64> = (0..h).map(|r| grid[r * w + c]).collect();
            if blocks(&column) != *clue {
                return Err(format!("column {} does not match its clue {clue:?}", c + 1));
            }
        }
        Ok(())
    }
}

impl Instance for Nonogram {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(if options.learn {
            self.model_with_states(true)
        } else {
            self.model()
        })
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let values = crate::common::values_of(&built.vars, solution);
        Answer {
            text: picture(&values, self.width, '#'),
            json: AnswerJson::Rows {
                values,
                width: self.width,
            },
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let grid = answer.json.grid_numbers(self.height, self.width, 0, 1)?;
        self.check_grid(&grid)
    }

    /// Cells "r1c1"..: painted `■` or blank `·`; each row's blocks at its right, each
    /// column's below it.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let (w, h) = (self.width, self.height);
        let mut naming = crate::naming::grid(&built.vars, w);
        let blocks = |clue: &[usize], sep: &str| {
            clue.iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(sep)
        };
        for (r, clue) in self.rows.iter().enumerate() {
            naming.layout.labels.push((r, w, blocks(clue, " ")));
        }
        for (c, clue) in self.columns.iter().enumerate() {
            naming.layout.labels.push((h, c, blocks(clue, "\n")));
        }
        naming.value_words = crate::naming::words(&["·", "■"]);
        naming.layout.value_colours = crate::naming::words(&["#fff", "#8fa8c0"]);
        naming
    }
}

/// A TAAI clue line (tab-separated numbers) as a `.non` clue.
fn taai_clue(text: &str) -> String {
    let numbers: Vec<&str> = text
        .split('\t')
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "-" && *t != "0")
        .collect();
    if numbers.is_empty() {
        "0".into()
    } else {
        numbers.join(",")
    }
}

/// The boards of the TAAI 2011 tournament file (`nonogram/taai/taai2011_question.txt` in the
/// data folder: a `$` line, then 25 column clues and 25 row clues per board) as `.non`
/// texts, for the examples that measure the search on them.
pub fn taai_boards(text: &str) -> Vec<String> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in text.lines() {
        if line.starts_with('$') {
            blocks.push(Vec::new());
        } else if let Some(block) = blocks.last_mut() {
            block.push(line);
        }
    }
    blocks
        .iter()
        .map(|block| {
            let (columns, rows) = block.split_at(25);
            let lines = |clues: &[&str]| {
                clues
                    .iter()
                    .map(|c| taai_clue(c))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            format!(
                "width 25\nheight 25\n\nrows\n{}\n\ncolumns\n{}\n",
                lines(rows),
                lines(columns)
            )
        })
        .collect()
}
