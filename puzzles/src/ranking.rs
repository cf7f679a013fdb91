//! # Ranking: a finishing order from who beat whom
//!
//! A heap of results, "Matthew beat Tom, Jimmy and Kevin", ...; recover the finishing order.
//!
//! **Model (seed 002).** As the seed says it: "give each runner a position, all distinct, and
//! read every result as one inequality: a winner's position is smaller than his victim's."
//! One variable `pos[r] ∈ 0..N-1` per runner, `alldifferent(pos)` (at the `--alldiff` level),
//! and `pos[winner] < pos[loser]` for every result (`Model::less_than`).
//!
//! **Propagation.** The inequalities alone push bounds along the chains of results (a runner
//! beaten by k others along a chain cannot be among the first k); the all-different then
//! separates runners squeezed into the same positions. For the seed's marathon, propagation and
//! a few guesses settle the unique order. `--count` counts the orders consistent with every line
//! (the linear extensions of the "beat" relation).
//!
//! Run it: `cpsolve ranking`, `cpsolve ranking results.txt --count`.

use crate::common::{check_text, content_lines};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::{Input, PuzzleKind};
use engine::{Model, SearchConfig, Solution};
use serde_json::Value;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "ranking",
    summary: "Ranking: recover a finishing order from lines 'Winner > Loser, Loser, ...'",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/ranking.txt"),
    parse,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    /// The runners, in order of first mention.
    pub names: Vec<String>,
    /// `(winner, loser)` as indices into `names`, in input order.
    pub results: Vec<(usize, usize)>,
}

/// A runner's name: trimmed, not empty, and free of the separators `>` and `,`.
fn runner<'a>(text: &'a str, line: usize, role: &str) -> Result<&'a str, ParseError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(ParseError::new(
            line,
            format!("a {role} name is missing: expected 'Winner > Loser, Loser, ...'"),
        ));
    }
    Ok(name)
}

/// Parse lines `Winner > Loser, Loser, ...`.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(
            0,
            "empty file: expected lines 'Winner > Loser, Loser, ...'",
        ));
    }
    let mut names: Vec<String> = Vec::new();
    let mut index = |name: &str| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let mut results = Vec::new();
    for &(line, text) in &lines {
        let Some((winner, losers)) = text.split_once('>') else {
            return Err(ParseError::new(
                line,
                "expected 'Winner > Loser, Loser, ...' (no '>' on this line)",
            ));
        };
        if losers.contains('>') {
            return Err(ParseError::new(
                line,
                "more than one '>': write one line per winner, 'Winner > Loser, Loser, ...'",
            ));
        }
        let winner = runner(winner, line, "winner")?;
        if winner.contains(',') {
            return Err(ParseError::new(
                line,
                format!("'{winner}': one winner per line, before the '>'"),
            ));
        }
        let w = index(winner);
        for loser in losers.split(',') {
            let loser = runner(loser, line, "loser")?;
            if loser == winner {
                return Err(ParseError::new(
                    line,
                    format!("'{winner}' cannot beat themselves"),
                ));
            }
            let l = index(loser);
            results.push((w, l));
        }
    }
    Ok(vec![Box::new(Ranking { names, results })])
}

impl Ranking {
    pub fn model(&self, options: &ModelOptions) -> Built {
        let n = self.names.len() as i32;
        let mut model = Model::new();
        let pos = model.new_vars(self.names.len(), 0, n - 1);
        let _ = model.all_different(&pos, options.alldiff);
        for &(w, l) in &self.results {
            let _ = model.less_than(pos[w], pos[l]);
        }
        let search = SearchConfig {
            branch_vars: Some(pos.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: pos,
        }
    }

    /// Rules only: every runner exactly once, and every winner before every runner they beat.
    pub fn check_order(&self, order: &[&str]) -> Result<(), String> {
        let mut place = vec![None; self.names.len()];
        for (p, name) in order.iter().enumerate() {
            let Some(r) = self.names.iter().position(|n| n == name) else {
                return Err(format!("'{name}' is not one of the runners"));
            };
            if place[r].is_some() {
                return Err(format!("'{name}' finishes twice"));
            }
            place[r] = Some(p);
        }
        if let Some(r) = place.iter().position(|p| p.is_none()) {
            return Err(format!("'{}' is missing from the order", self.names[r]));
        }
        for &(w, l) in &self.results {
            if place[w] > place[l] {
                return Err(format!(
                    "'{}' beat '{}' but finishes after them",
                    self.names[w], self.names[l]
                ));
            }
        }
        Ok(())
    }
}

impl Instance for Ranking {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by_key(|&r| solution.value(built.vars[r]));
        let names: Vec<&str> = order.iter().map(|&r| self.names[r].as_str()).collect();
        let text: String = names
            .iter()
            .enumerate()
            .map(|(p, n)| format!("{:>2}. {n}\n", p + 1))
            .collect();
        Answer {
            json: Value::from(names).into(),
            text,
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let list = json.as_array().ok_or("solution is not a list of names")?;
        let order: Vec<&str> = list
            .iter()
            .map(|v| v.as_str())
            .collect::<Option<_>>()
            .ok_or("a runner is not a name")?;
        self.check_order(&order)
    }
}
