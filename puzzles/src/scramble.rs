//! # Circuit Scramble: flip the fewest switches to light every lamp
//!
//! A circuit of logic gates (AND, OR, XOR, NAND, NOR, XNOR, NOT) over switches, each switch
//! with an initial state. Set the switches so that every lamp is on, flipping as few as
//! possible.
//!
//! **Model (seed 000, Hartmann 2019).** One 0/1 variable per switch and per gate. Each gate is
//! its truth table written as constraints on the 0/1 variables: AND and OR as clauses (Tseitin's
//! encoding: `g → aᵢ` for each input and `a₁ ∧ … ∧ aₖ → g` for AND, dually for OR), NOT as
//! `g + a = 1`, XOR as a chain of three-variable tables `t = a ⊕ b`, and a negated gate as the
//! negation of a fresh positive one. Lamps are fixed to 1. The number of flips is a linear sum
//! over the switches (`s` when it starts at 0, `1 − s` when it starts at 1), minimised by
//! branch and bound. It teaches reification in its simplest form: a Boolean gate is a
//! constraint whose truth is itself a variable, and unit propagation runs the circuit both
//! forwards (inputs decide outputs) and backwards (a lamp that must be on forces its inputs).
//!
//! Run it: `cpsolve scramble`, `cpsolve scramble puzzles/instances/beyond/scramble10-two-lamps.txt`.

use crate::common::{check_text, content_lines};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError, Purpose};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, Objective, Relation, SearchConfig, Solution, VarId};
use serde_json::Value;
use std::collections::HashMap;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "scramble",
    aliases: &[],
    summary: "Circuit Scramble: flip the fewest switches to light every lamp",
    optimisation: true,
    input: Input::File,
    seed: include_str!("../instances/beyond/scramble-example.txt"),
    seed_file: Some("instances/beyond/scramble-example.txt"),
    parse,
    page: Some("docs/puzzles/scramble.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    And,
    Or,
    Xor,
    Nand,
    Nor,
    Xnor,
    Not,
}

impl Gate {
    fn from_name(name: &str) -> Option<Gate> {
        Some(match name.to_ascii_uppercase().as_str() {
            "AND" => Gate::And,
            "OR" => Gate::Or,
            "XOR" => Gate::Xor,
            "NAND" => Gate::Nand,
            "NOR" => Gate::Nor,
            "XNOR" => Gate::Xnor,
            "NOT" => Gate::Not,
            _ => return None,
        })
    }

    /// The gate's output for its input values.
    pub fn eval(self, inputs: &[bool]) -> bool {
        match self {
            Gate::And => inputs.iter().all(|&b| b),
            Gate::Or => inputs.iter().any(|&b| b),
            Gate::Xor => inputs.iter().filter(|&&b| b).count() % 2 == 1,
            Gate::Nand => !Gate::And.eval(inputs),
            Gate::Nor => !Gate::Or.eval(inputs),
            Gate::Xnor => !Gate::Xor.eval(inputs),
            Gate::Not => !inputs[0],
        }
    }
}

/// A node of the circuit: a switch (with its initial state) or a gate over earlier nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Switch { initial: bool },
    Gate { gate: Gate, inputs: Vec<usize> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    pub names: Vec<String>,
    /// In definition order: every input refers to an earlier node.
    pub nodes: Vec<Node>,
    pub lamps: Vec<usize>,
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parse `switch NAME 0|1`, `NAME = GATE IN ...` and `lamp NAME ...` lines.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let mut names: Vec<String> = Vec::new();
    // Name to node, beside `names`: a circuit of 100,000 gates is read in linear time.
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut lamps = Vec::new();
    let lookup = |index: &HashMap<String, usize>, line: usize, name: &str| {
        index.get(name).copied().ok_or_else(|| {
            ParseError::new(
                line,
                format!("'{name}' is not a switch or gate defined on an earlier line"),
            )
        })
    };
    let define =
        |names: &mut Vec<String>, index: &mut HashMap<String, usize>, line: usize, name: &str| {
            if !valid_name(name) {
                return Err(ParseError::new(
                    line,
                    format!(
                    "malformed name '{name}': letters, digits and '_', not starting with a digit"
                ),
                ));
            }
            if index.insert(name.to_string(), names.len()).is_some() {
                return Err(ParseError::new(line, format!("'{name}' is defined twice")));
            }
            names.push(name.to_string());
            Ok(())
        };
    let mut last_line = 0;
    for (line, text) in content_lines(text) {
        last_line = line;
        let words: Vec<&str> = text.split_whitespace().collect();
        if words[0] == "switch" {
            if words.len() != 3 {
                return Err(ParseError::new(line, "expected 'switch NAME 0|1'"));
            }
            let initial = match words[2] {
                "0" => false,
                "1" => true,
                s => {
                    return Err(ParseError::new(
                        line,
                        format!("a switch's state is 0 or 1, found '{s}'"),
                    ))
                }
            };
            define(&mut names, &mut index, line, words[1])?;
            nodes.push(Node::Switch { initial });
        } else if words[0] == "lamp" {
            if words.len() < 2 {
                return Err(ParseError::new(line, "expected 'lamp NAME ...'"));
            }
            for name in &words[1..] {
                lamps.push(lookup(&index, line, name)?);
            }
        } else if words.len() >= 2 && words[1] == "=" {
            let Some(gate_name) = words.get(2) else {
                return Err(ParseError::new(
                    line,
                    "expected 'NAME = GATE IN ...' (no gate)",
                ));
            };
            let gate = Gate::from_name(gate_name).ok_or_else(|| {
                ParseError::new(
                    line,
                    format!("unknown gate '{gate_name}' (AND, OR, XOR, NAND, NOR, XNOR, NOT)"),
                )
            })?;
            let inputs: Vec<usize> = words[3..]
                .iter()
                .map(|n| lookup(&index, line, n))
                .collect::<Result<_, _>>()?;
            if inputs.is_empty() {
                return Err(ParseError::new(
                    line,
                    format!("gate {gate_name} has no input"),
                ));
            }
            if gate == Gate::Not && inputs.len() != 1 {
                return Err(ParseError::new(
                    line,
                    format!("NOT takes exactly one input, found {}", inputs.len()),
                ));
            }
            define(&mut names, &mut index, line, words[0])?;
            nodes.push(Node::Gate { gate, inputs });
        } else {
            return Err(ParseError::new(
                line,
                format!("unexpected '{text}': expected 'switch NAME 0|1', 'NAME = GATE IN ...' or 'lamp NAME ...'"),
            ));
        }
    }
    if !nodes.iter().any(|n| matches!(n, Node::Switch { .. })) {
        return Err(ParseError::new(
            last_line,
            "no switch: expected a line 'switch NAME 0|1'",
        ));
    }
    if lamps.is_empty() {
        return Err(ParseError::new(
            last_line,
            "no lamp: expected a line 'lamp NAME ...'",
        ));
    }
    Ok(vec![Box::new(Scramble {
        names,
        nodes,
        lamps,
    })])
}

/// Post `out = gate(inputs)` for a gate that is not negated (AND, OR, XOR, NOT).
fn post_gate(model: &mut Model, gate: Gate, inputs: &[VarId], out: VarId) {
    match gate {
        Gate::And => {
            for &a in inputs {
                model.clause(&[a], &[out]);
            }
            model.clause(&[out], inputs);
        }
        Gate::Or => {
            for &a in inputs {
                model.clause(&[out], &[a]);
            }
            model.clause(inputs, &[out]);
        }
        Gate::Xor => {
            // A chain of t = a ⊕ b, domain consistent tables of four tuples.
            let xor = vec![vec![0, 0, 0], vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 0]];
            let mut acc = inputs[0];
            for (i, &b) in inputs.iter().enumerate().skip(1) {
                let t = if i + 1 == inputs.len() {
                    out
                } else {
                    model.new_bool()
                };
                model.table(&[acc, b, t], xor.clone());
                acc = t;
            }
            if inputs.len() == 1 {
                model.equal_offset(out, inputs[0], 0);
            }
        }
        Gate::Not => {
            model.linear(&[(1, out), (1, inputs[0])], Relation::Eq, 1);
        }
        Gate::Nand | Gate::Nor | Gate::Xnor => {
            unreachable!("negated gates go through their positive")
        }
    }
}

impl Scramble {
    /// The switches' node indices, in input order.
    pub fn switches(&self) -> Vec<usize> {
        (0..self.nodes.len())
            .filter(|&i| matches!(self.nodes[i], Node::Switch { .. }))
            .collect()
    }

    pub fn model(&self, purpose: Purpose) -> Built {
        let mut model = Model::new();
        let vars: Vec<VarId> = (0..self.nodes.len()).map(|_| model.new_bool()).collect();
        for (i, node) in self.nodes.iter().enumerate() {
            let Node::Gate { gate, inputs } = node else {
                continue;
            };
            let ins: Vec<VarId> = inputs.iter().map(|&j| vars[j]).collect();
            let positive = match gate {
                Gate::Nand => Some(Gate::And),
                Gate::Nor => Some(Gate::Or),
                Gate::Xnor => Some(Gate::Xor),
                _ => None,
            };
            match positive {
                Some(p) => {
                    let inner = model.new_bool();
                    post_gate(&mut model, p, &ins, inner);
                    model.linear(&[(1, vars[i]), (1, inner)], Relation::Eq, 1);
                }
                None => post_gate(&mut model, *gate, &ins, vars[i]),
            }
        }
        for &lamp in &self.lamps {
            if model.fix(vars[lamp], 1).is_err() {
                crate::common::post_failure(&mut model);
            }
        }
        let switches: Vec<VarId> = self.switches().iter().map(|&i| vars[i]).collect();
        let mut search = SearchConfig {
            branch_vars: Some(switches.clone()),
            ..Default::default()
        };
        if purpose == Purpose::Solve {
            // flips = Σ_{initially 0} s + Σ_{initially 1} (1 − s).
            let flips = model.new_var(0, switches.len() as i32);
            let mut terms = vec![(1i64, flips)];
            let mut ones = 0;
            for &i in &self.switches() {
                if let Node::Switch { initial } = self.nodes[i] {
                    terms.push((if initial { 1 } else { -1 }, vars[i]));
                    ones += initial as i64;
                }
            }
            model.linear(&terms, Relation::Eq, ones);
            search.objective = Some(Objective::minimize(flips));
        }
        Built {
            model,
            search,
            vars: switches,
        }
    }

    /// The flips from the initial states to `states` (switches in input order).
    pub fn flips(&self, states: &[i64]) -> i64 {
        self.switches()
            .iter()
            .zip(states)
            .filter(|&(&i, &s)| matches!(self.nodes[i], Node::Switch { initial } if initial != (s == 1)))
            .count() as i64
    }

    /// Rules only: run the circuit on `states` and require every lamp on.
    pub fn check_states(&self, states: &[i64]) -> Result<(), String> {
        let mut value = vec![false; self.nodes.len()];
        let mut next_switch = 0;
        for (i, node) in self.nodes.iter().enumerate() {
            value[i] = match node {
                Node::Switch { .. } => {
                    next_switch += 1;
                    states[next_switch - 1] == 1
                }
                Node::Gate { gate, inputs } => {
                    let ins: Vec<bool> = inputs.iter().map(|&j| value[j]).collect();
                    gate.eval(&ins)
                }
            };
        }
        match self.lamps.iter().find(|&&l| !value[l]) {
            Some(&l) => Err(format!("lamp '{}' is off", self.names[l])),
            None => Ok(()),
        }
    }
}

impl Instance for Scramble {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options.purpose))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let states = crate::common::values_of(&built.vars, solution);
        let flips = self.flips(&states);
        let mut text = String::new();
        for (&i, &s) in self.switches().iter().zip(&states) {
            let Node::Switch { initial } = self.nodes[i] else {
                continue;
            };
            let mark = if initial != (s == 1) {
                "  (flipped)"
            } else {
                ""
            };
            text.push_str(&format!("{} = {s}{mark}\n", self.names[i]));
        }
        text.push_str(&format!("flips: {flips}\n"));
        Answer {
            json: Value::from(states).into(),
            text,
            objective: Some(flips),
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let n = self.switches().len();
        let json = answer.json.to_value();
        let list = json
            .as_array()
            .ok_or("solution is not a list of switch states")?;
        if list.len() != n {
            return Err(format!("expected {n} switch states, found {}", list.len()));
        }
        let mut states = Vec::with_capacity(n);
        for (k, v) in list.iter().enumerate() {
            match v.as_i64() {
                Some(s @ (0 | 1)) => states.push(s),
                _ => return Err(format!("switch {} is not 0 or 1", k + 1)),
            }
        }
        self.check_states(&states)?;
        if let Some(objective) = answer.objective {
            if objective != self.flips(&states) {
                return Err(format!(
                    "objective {objective} is not the {} flips of the solution",
                    self.flips(&states)
                ));
            }
        }
        Ok(())
    }

    /// The switches by their names, one under the other, `off` or `on`.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let names = self.switches().into_iter().map(|i| self.names[i].clone());
        let mut naming = crate::naming::list(&built.vars, names);
        naming.value_words = crate::naming::words(&["off", "on"]);
        naming.layout.value_colours = crate::naming::words(&["#ddd", "#ffe680"]);
        naming
    }
}
