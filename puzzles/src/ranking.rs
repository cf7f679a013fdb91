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
//! **One order needs no search.** Any order that puts every winner before their victims is a
//! solution: a *topological order* of the "beat" graph, which Kahn's algorithm finds in time
//! linear in the results (or proves that there is none: a cycle, "A beat B, B beat A"). The
//! model built to find one solution is therefore that order, one fixed position per runner,
//! with the inequalities posted so that the engine confirms it: linear in memory and time for
//! 100,000 runners, where the position model needs N² bits of domains (1.25 GB). The position
//! model above is built to count or list the orders, for at most [`MAX_COUNTED_RUNNERS`]
//! runners; more is refused with one line.
//!
//! Run it: `cpsolve ranking`, `cpsolve ranking results.txt --count`.

use crate::common::{check_text, content_lines};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError, Purpose};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, SearchConfig, Solution};
use serde_json::Value;
use std::collections::HashMap;

/// The most runners whose orders are counted or listed: the position model's domains take
/// N² bits, and its root propagation grows faster still (about a second at this size).
pub const MAX_COUNTED_RUNNERS: usize = 1_000;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "ranking",
    aliases: &[],
    summary: "Ranking: recover a finishing order from lines 'Winner > Loser, Loser, ...'",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/ranking.txt"),
    seed_file: Some("instances/seed/ranking.txt"),
    parse,
    page: Some("docs/puzzles/ranking.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
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
    // Names to indices in a hash map: linear in the input, whatever the number of runners.
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    fn index<'a>(
        names: &mut Vec<String>,
        index_of: &mut HashMap<&'a str, usize>,
        name: &'a str,
    ) -> usize {
        *index_of.entry(name).or_insert_with(|| {
            names.push(name.to_string());
            names.len() - 1
        })
    }
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
                format!(
                    "{}: one winner per line, before the '>'",
                    crate::parse::quoted(winner)
                ),
            ));
        }
        let w = index(&mut names, &mut index_of, winner);
        for loser in losers.split(',') {
            let loser = runner(loser, line, "loser")?;
            if loser == winner {
                return Err(ParseError::new(
                    line,
                    format!("{} cannot beat themselves", crate::parse::quoted(winner)),
                ));
            }
            let l = index(&mut names, &mut index_of, loser);
            results.push((w, l));
        }
    }
    Ok(vec![Box::new(Ranking { names, results })])
}

impl Ranking {
    /// A finishing order consistent with every result (runner indices, first first), by
    /// Kahn's algorithm: repeatedly take a runner nobody left has beaten. `None`: the results
    /// contain a cycle, so no order exists.
    pub fn topological_order(&self) -> Option<Vec<usize>> {
        let n = self.names.len();
        let mut beaten_by = vec![0usize; n];
        let mut victims: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(w, l) in &self.results {
            beaten_by[l] += 1;
            victims[w].push(l);
        }
        let mut order: Vec<usize> = (0..n).filter(|&r| beaten_by[r] == 0).collect();
        let mut next = 0;
        while next < order.len() {
            let r = order[next];
            next += 1;
            for &l in &victims[r] {
                beaten_by[l] -= 1;
                if beaten_by[l] == 0 {
                    order.push(l);
                }
            }
        }
        (order.len() == n).then_some(order)
    }

    /// The model of one solution: each runner's position fixed to a topological order (or,
    /// for a cycle, one position that must be smaller than itself: no solution).
    pub fn order_model(&self) -> Built {
        let mut model = Model::new();
        let Some(order) = self.topological_order() else {
            let x = model.new_var(0, 0);
            let _ = model.less_than(x, x);
            return Built {
                model,
                search: SearchConfig::default(),
                vars: vec![x; self.names.len()],
            };
        };
        let mut place = vec![0; self.names.len()];
        for (p, &r) in order.iter().enumerate() {
            place[r] = p as i32;
        }
        let pos: Vec<_> = place.iter().map(|&p| model.new_var(p, p)).collect();
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

    /// The position model of the seed (to count or list the orders).
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
        let index_of: HashMap<&str, usize> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut place = vec![None; self.names.len()];
        for (p, name) in order.iter().enumerate() {
            let Some(&r) = index_of.get(name) else {
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
        match options.purpose {
            Purpose::Solve => Ok(self.order_model()),
            Purpose::Count if self.names.len() > MAX_COUNTED_RUNNERS => Err(format!(
                "ranking: {} runners are more than the {MAX_COUNTED_RUNNERS} whose orders \
                 cpsolve counts or lists (the model takes N² bits); without -a, -n or --count \
                 one order is found for any number",
                self.names.len()
            )),
            Purpose::Count => Ok(self.model(options)),
        }
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

    /// The runners by name, one under the other, each with its place (from 1).
    fn naming(&self, built: &Built) -> engine::search::Naming {
        engine::search::Naming {
            value_offset: 1,
            ..crate::naming::list(&built.vars, self.names.iter().cloned())
        }
    }
}
