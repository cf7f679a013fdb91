//! # V3ck: colour the edges so that every node's tally comes true
//!
//! A graph and C colours; each node carries a tally "so many of my edges in colour 1, so many
//! in colour 2, ...". Colour every edge so that every tally is met. Touching edges may share a
//! colour; they simply have to share it the right number of times.
//!
//! **Model (seed 000).** Hartmann splits each edge {i, j} into two arcs and gives each arc and
//! colour a 0/1 variable `x[i][j][k]`: one colour per arc, the two arcs of an edge agree, and
//! at node i the arcs leaving it carry colour k exactly `a[i][k]` times. The code keeps one
//! variable per *edge*, `colour[e] ∈ 1..C` (so "one colour per arc" and "the arcs agree" hold
//! by construction), and for every node i and colour k states
//! `count(colour[e] = k for e at i) = a[i][k]`.
//!
//! That count is the engine's `count_eq` (exactly k of these variables take value v), domain
//! consistent: once a node has its `a[i][k]` edges of colour k, its other edges lose colour k;
//! once it needs every edge that can still take k, they all take it. (Written with 0/1
//! variables it is the seed's own sum, `Σ_{e at i} [colour[e] = k] = a[i][k]`, which is how the
//! first version of this file said it.)
//!
//! Run it: `cpsolve v3ck`, `cpsolve v3ck graph.txt --count`.

use crate::common::{check_text, content_lines, sections};
use crate::common::{Answer, Built, Instance, ModelOptions, ParseError};
use crate::instance::{Defaults, Input, PuzzleKind};
use engine::{Model, SearchConfig, Solution, VarId};
use serde_json::{json, Value};
use std::collections::HashMap;

pub const KIND: PuzzleKind = PuzzleKind {
    name: "v3ck",
    aliases: &[],
    summary: "V3ck: colour each edge so that every node's colour tally is met",
    optimisation: false,
    input: Input::File,
    seed: include_str!("../instances/seed/v3ck.txt"),
    seed_file: Some("instances/seed/v3ck.txt"),
    parse,
    page: Some("docs/puzzles/v3ck.md"),
    defaults: Defaults::STANDARD,
    flags: &[],
};

/// The most colours accepted.
pub const MAX_COLOURS: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct V3ck {
    pub colours: usize,
    /// Node names, as written, in order of first mention in `edges`.
    pub nodes: Vec<String>,
    /// Edges as indices into `nodes`, in input order.
    pub edges: Vec<(usize, usize)>,
    /// `tally[node][k]`: how many of the node's edges take colour k + 1.
    pub tally: Vec<Vec<u32>>,
}

/// A node name: a token without whitespace or `:`.
fn node_name(token: &str, line: usize) -> Result<&str, ParseError> {
    if token.is_empty() || token.contains(':') {
        return Err(ParseError::new(
            line,
            format!(
                "{} is not a node name (a name has no whitespace and no ':')",
                crate::parse::quoted(token)
            ),
        ));
    }
    Ok(token)
}

/// Parse the `colours`, `edges` and `tallies` sections (in any order; `colors` also works).
pub fn parse(text: &str) -> Result<Vec<Box<dyn Instance>>, ParseError> {
    check_text(text)?;
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(
            0,
            "empty file: expected 'colours C', 'edges' and 'tallies' sections",
        ));
    }
    let all = sections(&lines, &["colours", "colors", "edges", "tallies"])?;
    let last_line = lines.last().map_or(0, |&(l, _)| l);
    let find = |names: &[&str]| {
        all.iter().find(|s| names.contains(&s.name)).ok_or_else(|| {
            ParseError::new(
                last_line,
                format!(
                    "no '{}' section: a V3ck needs 'colours C', 'edges' and 'tallies'",
                    names[0]
                ),
            )
        })
    };
    let colours_section = find(&["colours", "colors"])?;
    if all.iter().filter(|s| s.name.starts_with("colo")).count() > 1 {
        let second = all.iter().filter(|s| s.name.starts_with("colo")).nth(1);
        return Err(ParseError::new(
            second.map_or(0, |s| s.line),
            "a second 'colours' line",
        ));
    }
    let (edges_section, tallies_section) = (find(&["edges"])?, find(&["tallies"])?);

    // colours C
    let line = colours_section.line;
    if let Some(&(extra, _)) = colours_section.body.first() {
        return Err(ParseError::new(
            extra,
            "this line belongs to no section ('colours C' is one line)",
        ));
    }
    let colours = colours_section
        .args
        .parse::<usize>()
        .ok()
        .filter(|&c| (1..=MAX_COLOURS).contains(&c))
        .ok_or_else(|| {
            ParseError::new(
                line,
                format!(
                    "expected 'colours C' with C a whole number 1..{MAX_COLOURS}, found '{}'",
                    colours_section.args
                ),
            )
        })?;

    // edges: `u v` per line.
    for s in [edges_section, tallies_section] {
        if !s.args.is_empty() {
            return Err(ParseError::new(
                s.line,
                format!("unexpected '{}' after '{}'", s.args, s.name),
            ));
        }
    }
    let mut nodes: Vec<String> = Vec::new();
    // Names to indices in a hash map: a path of 100,000 nodes must parse in linear time.
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    let mut first_edge_line: Vec<usize> = Vec::new();
    let mut edges = Vec::new();
    for &(line, text) in &edges_section.body {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() != 2 {
            return Err(ParseError::new(
                line,
                format!(
                    "an edge is two node names 'U V', found {} tokens",
                    tokens.len()
                ),
            ));
        }
        let mut ends = [0; 2];
        for (k, t) in tokens.iter().enumerate() {
            let name = node_name(t, line)?;
            ends[k] = *index_of.entry(name).or_insert_with(|| {
                nodes.push(name.to_string());
                first_edge_line.push(line);
                nodes.len() - 1
            });
        }
        if ends[0] == ends[1] {
            return Err(ParseError::new(
                line,
                format!("edge '{}' joins a node to itself", text),
            ));
        }
        edges.push((ends[0], ends[1]));
    }
    let mut degree = vec![0u32; nodes.len()];
    for &(u, v) in &edges {
        degree[u] += 1;
        degree[v] += 1;
    }

    // tallies: `name: a1 .. aC` per line, one per node.
    let mut tally: Vec<Option<Vec<u32>>> = vec![None; nodes.len()];
    for &(line, text) in &tallies_section.body {
        let Some((name, counts)) = text.split_once(':') else {
            return Err(ParseError::new(
                line,
                format!("expected 'NODE: n1 ... n{colours}' (no ':' on this line)"),
            ));
        };
        let name = name.trim();
        let Some(&node) = index_of.get(name) else {
            return Err(ParseError::new(
                line,
                format!("{} is not a node of any edge", crate::parse::quoted(name)),
            ));
        };
        if tally[node].is_some() {
            return Err(ParseError::new(
                line,
                format!("node '{name}' has a second tally"),
            ));
        }
        let counts: Vec<u32> = counts
            .split_whitespace()
            .map(|t| {
                t.parse::<u32>()
                    .ok()
                    .filter(|_| t.bytes().all(|b| b.is_ascii_digit()))
            })
            .collect::<Option<_>>()
            .ok_or_else(|| ParseError::new(line, "a tally lists whole numbers, one per colour"))?;
        if counts.len() != colours {
            return Err(ParseError::new(
                line,
                format!(
                    "node '{name}' has {} counts, expected {colours} (one per colour)",
                    counts.len()
                ),
            ));
        }
        let sum: u64 = counts.iter().map(|&c| c as u64).sum();
        if sum != degree[node] as u64 {
            return Err(ParseError::new(
                line,
                format!(
                    "the tally of '{name}' adds up to {sum} but the node has {} edges",
                    degree[node]
                ),
            ));
        }
        tally[node] = Some(counts);
    }
    let mut tallies = Vec::with_capacity(nodes.len());
    for (i, t) in tally.into_iter().enumerate() {
        match t {
            Some(t) => tallies.push(t),
            None => {
                return Err(ParseError::new(
                    first_edge_line[i],
                    format!("node '{}' has no tally line", nodes[i]),
                ))
            }
        }
    }
    Ok(vec![Box::new(V3ck {
        colours,
        nodes,
        edges,
        tally: tallies,
    })])
}

impl V3ck {
    pub fn model(&self, _options: &ModelOptions) -> Built {
        let mut model = Model::new();
        let colour = model.new_vars(self.edges.len(), 1, self.colours as i32);
        // Each node's edges, gathered in one pass over the edges (linear in the graph).
        let mut at_node: Vec<Vec<VarId>> = vec![Vec::new(); self.nodes.len()];
        for (&(u, v), &x) in self.edges.iter().zip(&colour) {
            at_node[u].push(x);
            at_node[v].push(x);
        }
        for (counts, at_node) in self.tally.iter().zip(&at_node) {
            for (k, &want) in counts.iter().enumerate() {
                let _ = model.count_eq(at_node, k as i32 + 1, want as i32);
            }
        }
        let search = SearchConfig {
            branch_vars: Some(colour.clone()),
            ..Default::default()
        };
        Built {
            model,
            search,
            vars: colour,
        }
    }

    /// Rules only: one colour 1..C per edge, every node's tally met.
    pub fn check_colours(&self, colours: &[usize]) -> Result<(), String> {
        let mut seen = vec![vec![0u32; self.colours]; self.nodes.len()];
        for (&(u, v), &c) in self.edges.iter().zip(colours) {
            if !(1..=self.colours).contains(&c) {
                return Err(format!("colour {c} is not one of 1..{}", self.colours));
            }
            seen[u][c - 1] += 1;
            seen[v][c - 1] += 1;
        }
        for (node, (got, want)) in seen.iter().zip(&self.tally).enumerate() {
            if got != want {
                return Err(format!(
                    "node '{}' has colour counts {got:?}, its tally is {want:?}",
                    self.nodes[node]
                ));
            }
        }
        Ok(())
    }
}

impl Instance for V3ck {
    fn build(&self, options: &ModelOptions) -> Result<Built, String> {
        Ok(self.model(options))
    }

    fn answer(&self, built: &Built, solution: &Solution) -> Answer {
        let colours: Vec<i32> = built.vars.iter().map(|&x| solution.value(x)).collect();
        let mut text = String::new();
        let mut list = Vec::with_capacity(self.edges.len());
        for (&(u, v), &c) in self.edges.iter().zip(&colours) {
            let (u, v) = (&self.nodes[u], &self.nodes[v]);
            text.push_str(&format!("{u} {v}: colour {c}\n"));
            list.push(json!([u, v, c]));
        }
        Answer {
            json: Value::Array(list).into(),
            text,
            objective: None,
        }
    }

    fn check(&self, answer: &Answer) -> Result<(), String> {
        let json = answer.json.to_value();
        let list = json.as_array().ok_or("solution is not a list of edges")?;
        if list.len() != self.edges.len() {
            return Err(format!(
                "expected {} edges, found {}",
                self.edges.len(),
                list.len()
            ));
        }
        let mut colours = Vec::with_capacity(list.len());
        for (e, item) in list.iter().enumerate() {
            let (u, v) = (&self.nodes[self.edges[e].0], &self.nodes[self.edges[e].1]);
            let ok = item.as_array().filter(|a| a.len() == 3).and_then(|a| {
                let same_edge = a[0].as_str() == Some(u) && a[1].as_str() == Some(v);
                a[2].as_u64().filter(|_| same_edge)
            });
            match ok {
                Some(c) => colours.push(c as usize),
                None => {
                    return Err(format!(
                        "edge {} must be written [\"{u}\", \"{v}\", colour]",
                        e + 1
                    ))
                }
            }
        }
        self.check_colours(&colours)
    }

    /// The edges "A-B", one under the other, painted by colour.
    fn naming(&self, built: &Built) -> engine::search::Naming {
        let names = self
            .edges
            .iter()
            .map(|&(u, v)| format!("{}-{}", self.nodes[u], self.nodes[v]));
        let mut naming = crate::naming::list(&built.vars, names);
        naming.layout.value_colours = crate::naming::palette(self.colours + 1);
        naming
    }
}
