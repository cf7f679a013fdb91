//! # Search events and listeners
//!
//! The search announces what it does — a branch taken, a failure (and which propagator found
//! it), a solution, a restart, and with learning the nogood learned from a failure and the
//! backjump it causes — as [`SearchEvent`]s to [`SearchListener`]s. Statistics are one
//! listener (`stats.rs`); [`TraceWriter`] is another, writing one JSON object per line so that
//! a search tree or an animation can be drawn from the file afterwards. A listener that is not
//! there costs nothing.
//!
//! A listener may also ask for the removal recorder (`explain.rs`) to be on during the
//! search: the trace then says, at each node, which propagators removed how many values.

use super::brancher::Decision;
use crate::atom::Atom;
use crate::store::VarId;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// Something the search did.
#[derive(Clone, Copy, Debug)]
pub enum SearchEvent<'a> {
    /// A decision was applied at `depth` (1 = first decision below the root).
    Branch {
        depth: usize,
        decision: &'a Decision,
        left: bool,
    },
    /// Propagation failed at `depth`; `propagator` names who found the conflict.
    Failure {
        depth: usize,
        propagator: Option<&'static str>,
    },
    /// Solution number `number` (1-based), with its objective value if optimising, and the
    /// value of every variable (indexed by `VarId`).
    Solution {
        number: u64,
        objective: Option<i64>,
        values: &'a [i32],
    },
    /// Restart number `number`, after `failures` failures in the last run.
    Restart { number: u64, failures: u64 },
    /// Learning (`SearchConfig::learn`): from the failure just announced, conflict analysis
    /// learned that `atoms` never hold together in a solution (read as a clause: one of them
    /// is false). `lbd`: how many decision levels its atoms come from. `backjump`: the depth
    /// the search goes back to because of it, where all its atoms but one hold and it forces
    /// the last one false, unless a restart comes first (`None`: the search backtracks one
    /// level, as when counting).
    Nogood {
        atoms: &'a [Atom],
        lbd: u32,
        backjump: Option<usize>,
    },
    /// Learning: after a failure with `from` decisions open, the search closed the levels of
    /// the decisions `to + 1 ..= from` without trying their right branches, and propagates
    /// at depth `to` (where the last nogood now forces something).
    Backjump { from: usize, to: usize },
}

/// Receives search events.
pub trait SearchListener {
    fn on_event(&mut self, event: &SearchEvent<'_>);

    /// A search running on other threads (parallel counting) reports its shared counters,
    /// a few times a second. Most listeners ignore it.
    fn on_progress(&mut self, _progress: &Progress) {}

    /// Does this listener want the events at all? The search asks once, and when the answer
    /// is no it neither builds the events for it nor calls it (work on every node, which a
    /// search without a listener should not pay).
    fn listens(&self) -> bool {
        true
    }

    /// Propagation reached a fixpoint at the node just announced (the root included): the
    /// domains are readable in `model` (its reading methods only). Called only when the
    /// listener `listens()`; most ignore it. An animation of the search records them.
    fn on_fixpoint(&mut self, _model: &crate::model::Model) {}

    /// Propagation failed at the node just announced (or its bound did): the domains are
    /// those of the conflict. Called only when the listener `listens()`, before the
    /// failure event.
    fn on_conflict(&mut self, _model: &crate::model::Model) {}

    /// Should the search switch the removal recorder on (if it is not on already), so that
    /// `on_fixpoint` and `on_conflict` can read what each propagator removed at the node
    /// ([`crate::explain::RemovalRecorder::latest_fixpoint`])? Asked once, when listening.
    fn wants_removal_counts(&self) -> bool {
        false
    }

    /// The model about to be searched names its variables and values this way (a trace
    /// writes decisions as the user reads them). Most listeners ignore it.
    fn name_variables(&mut self, _naming: &Naming) {}
}

/// A listener that ignores everything.
#[derive(Debug, Default)]
pub struct NoListener;

impl SearchListener for NoListener {
    fn on_event(&mut self, _event: &SearchEvent<'_>) {}

    fn listens(&self) -> bool {
        false
    }
}

/// How a person reads the variables of a model: the puzzle's names for them ("r2c3") and its
/// way of showing a value (queens' rows and Sudoku digits from 1, "fork" for 0). Variables
/// without a name are shown as `x12` (their index), values as the model holds them.
#[derive(Clone, Debug, Default)]
pub struct Naming {
    /// `(variable, name)` for the variables the puzzle names, in the puzzle's order.
    pub names: Vec<(VarId, String)>,
    /// Added to a value before it is shown (1 when the model counts from 0 and people from 1).
    pub value_offset: i32,
    /// When not empty, value `v` is shown as `value_words[v]` (if there is one).
    pub value_words: Vec<String>,
    /// How the puzzle is drawn (`--animate`); the trace does not use it.
    pub layout: Layout,
}

/// The puzzle's picture, as plain data: where each named variable is drawn, and what is drawn
/// around it (clues, region borders, colours). The page of `--animate` draws the variables'
/// current domains into it. Every list is optional: an empty layout draws the variables named
/// `rRcC` on their grid, and any others in one row.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// `(row, column)`, from 0, of each named variable, in the order of [`Naming::names`].
    pub places: Vec<(usize, usize)>,
    /// The region of each named variable (same order): cells of different regions are
    /// separated by a thick border (Sudoku boxes, Strimko streams, Star Battle regions).
    pub regions: Vec<usize>,
    /// Text drawn in cells that hold no variable: `(row, column, text)` (a Kakuro clue, a
    /// Nonogram line's blocks, a Thermometer count).
    pub labels: Vec<(usize, usize, String)>,
    /// When not empty, named variable `i` shows value `v` as `cell_words[i][v]` in the picture
    /// (a value that means something else in each cell: an Infinity Loop tile's shape after
    /// `v` quarter turns); the trace keeps [`Naming::show_value`].
    pub cell_words: Vec<Vec<String>>,
    /// When not empty, a cell fixed to value `v` is painted `value_colours[v]` (a CSS colour).
    pub value_colours: Vec<String>,
    /// When not empty, the variables are drawn as the vertices of a graph (on a circle), and
    /// these pairs of indices into [`Naming::names`] as its edges (graph colouring).
    pub edges: Vec<(usize, usize)>,
}

impl Layout {
    /// Cells at the given places and nothing else.
    pub fn at(places: Vec<(usize, usize)>) -> Layout {
        Layout {
            places,
            ..Layout::default()
        }
    }
}

impl Naming {
    /// The variables `vars` named `prefix1`, `prefix2`, ... with values as they are.
    pub fn numbered(vars: &[VarId], prefix: &str) -> Naming {
        Naming {
            names: vars
                .iter()
                .enumerate()
                .map(|(i, &x)| (x, format!("{prefix}{}", i + 1)))
                .collect(),
            ..Naming::default()
        }
    }

    /// The puzzle's name of `x`, if it names it.
    pub fn name_of(&self, x: VarId) -> Option<&str> {
        self.names
            .iter()
            .find(|(y, _)| *y == x)
            .map(|(_, name)| name.as_str())
    }

    /// An atom as the user reads it: `r1c5 = knife`, `c3 != 2`, `x40 >= 7` (a variable the
    /// puzzle does not name keeps the model's value). `name` is the variable's name, if any.
    pub fn show_atom(&self, atom: Atom, name: Option<&str>) -> String {
        let (op, value) = atom_parts(atom);
        match name {
            Some(name) => format!("{name} {op} {}", self.show_value(value)),
            None => format!("x{} {op} {value}", atom.var().0),
        }
    }

    /// A value as the user reads it.
    pub fn show_value(&self, value: i32) -> String {
        match usize::try_from(value)
            .ok()
            .and_then(|v| self.value_words.get(v))
        {
            Some(word) => word.clone(),
            None => (i64::from(value) + i64::from(self.value_offset)).to_string(),
        }
    }
}

/// An atom's operator as the trace writes it (`>=`, `<=`, `=`, `!=`) and its value.
pub fn atom_parts(atom: Atom) -> (&'static str, i32) {
    match atom {
        Atom::AtLeast(_, v) => (">=", v),
        Atom::AtMost(_, v) => ("<=", v),
        Atom::Equal(_, v) => ("=", v),
        Atom::NotEqual(_, v) => ("!=", v),
    }
}

/// A string as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes every event as a JSON line, giving each node of the search tree an id so that the
/// tree can be drawn from the file afterwards (docs/cli.md, "The trace", has the schema):
///
/// ```text
/// {"event":"root","node":0,"tree":0,"removed":{"alldiff_value_family":20}}
/// {"event":"branch","node":1,"parent":0,"depth":1,"var":3,"name":"c4","op":"=","value":0,"decision":"c4 = 1","left":true,"removed":{"alldiff_value_family":9}}
/// {"event":"failure","node":1,"depth":1,"propagator":"alldiff_value_family"}
/// ```
///
/// With learning, a failure is followed by the nogood learned from it and, for a first
/// solution or an optimum, the backjump it causes: the nodes of the closed levels
/// (`closed`), and the node the search goes on from (`target`), whose propagation with the
/// new nogood the backjump line carries as `removed`:
///
/// ```text
/// {"event":"nogood","node":6,"depth":6,"size":2,"lbd":2,"backjump":2,"atoms":[{"var":4,"name":"r1c5","op":"=","value":1,"text":"r1c5 = knife"},...]}
/// {"event":"backjump","node":6,"depth":6,"from":6,"to":2,"target":2,"closed":[3,4,5,6],"removed":{"table":12}}
/// ```
///
/// The search reports a left branch as opening a choice point and a right branch as closing
/// one; the writer keeps, for every open choice point, the node its right branch hangs from,
/// so a right branch gets the parent and the depth of its left sibling.
///
/// A node's line waits until its propagation is over (its fixpoint or its conflict), to
/// carry `removed`: how many values each propagator (by name) removed at that node.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    out: W,
    /// The first write error, if any (tracing never stops the search).
    pub error: Option<std::io::Error>,
    naming: Naming,
    /// Name of each variable by index (`None`: not named by the puzzle).
    names: Vec<Option<String>>,
    /// The id the next node gets.
    next_node: u64,
    /// The node the search is at, and its depth (decisions from the root).
    current: u64,
    current_depth: usize,
    /// One entry per open choice point: `(parent, depth)` of its two branches.
    open: Vec<(u64, usize)>,
    /// The nodes from the root to the current node (`path[d]` at depth `d`): a backjump
    /// goes back to one of them.
    path: Vec<u64>,
    /// Has the root of the current tree been written?
    rooted: bool,
    /// Which tree (0, then one more after each restart).
    tree: u64,
    /// The line of the current node (root or branch), without its closing brace, until its
    /// propagation is over.
    pending: Option<String>,
    /// The last fixpoint of the removal recorder whose counts were written.
    counted_fixpoint: u64,
}

impl<W: Write> TraceWriter<W> {
    pub fn new(out: W) -> TraceWriter<W> {
        TraceWriter {
            out,
            error: None,
            naming: Naming::default(),
            names: Vec::new(),
            next_node: 0,
            current: 0,
            current_depth: 0,
            open: Vec::new(),
            path: Vec::new(),
            rooted: false,
            tree: 0,
            pending: None,
            counted_fixpoint: 0,
        }
    }

    pub fn into_inner(mut self) -> W {
        self.flush_pending();
        self.out
    }

    /// Write the current node's line, if it waits, as it is.
    fn flush_pending(&mut self) {
        if let Some(mut line) = self.pending.take() {
            line.push('}');
            self.write(&line);
        }
    }

    /// The node's propagation is over: write its line with what each propagator removed
    /// (when the recorder is on).
    fn end_of_propagation(&mut self, model: &crate::model::Model) {
        if !self.rooted {
            self.root();
        }
        let Some(mut line) = self.pending.take() else {
            return;
        };
        if let Some(recorder) = model.recorder() {
            // Per propagator name, in name order (the JSON object's keys are then stable).
            let mut by_name: std::collections::BTreeMap<&str, u64> = Default::default();
            if recorder.fixpoints != self.counted_fixpoint {
                self.counted_fixpoint = recorder.fixpoints;
                for &(p, removed) in recorder.latest_fixpoint() {
                    *by_name.entry(model.propagator_name(p)).or_default() += removed;
                }
            }
            let counts: Vec<String> = by_name
                .iter()
                .map(|(name, n)| format!("{}:{n}", json_string(name)))
                .collect();
            line.push_str(&format!(",\"removed\":{{{}}}", counts.join(",")));
        }
        line.push('}');
        self.write(&line);
    }

    fn name(&self, var: VarId) -> String {
        match self.names.get(var.0 as usize) {
            Some(Some(name)) => name.clone(),
            _ => format!("x{}", var.0),
        }
    }

    fn write(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = writeln!(self.out, "{line}") {
            self.error = Some(e);
        }
    }

    /// Start a tree: its root is a node of its own, at depth 0.
    fn root(&mut self) {
        self.current = self.next_node;
        self.next_node += 1;
        self.current_depth = 0;
        self.open.clear();
        self.path.clear();
        self.path.push(self.current);
        self.rooted = true;
        self.flush_pending();
        self.pending = Some(format!(
            "{{\"event\":\"root\",\"node\":{},\"tree\":{}",
            self.current, self.tree
        ));
    }

    fn branch(&mut self, depth: usize, decision: &Decision, left: bool) -> String {
        // `depth` numbers the choice point, counting from 1: a left branch opens it, a
        // right branch closes it (choice points deeper than it were closed before).
        let (parent, tree_depth) = if left {
            self.open.truncate(depth.saturating_sub(1));
            let place = (self.current, self.current_depth + 1);
            self.open.push(place);
            place
        } else {
            // The right branch hangs where its left sibling did.
            self.open.truncate(depth);
            self.open
                .pop()
                .unwrap_or((self.current, self.current_depth + 1))
        };
        let node = self.next_node;
        self.next_node += 1;
        self.current = node;
        self.current_depth = tree_depth;
        self.path.truncate(tree_depth);
        self.path.push(node);
        let name = self.name(decision.var);
        let shown = format!(
            "{name} {} {}",
            decision.op.symbol(),
            self.naming.show_value(decision.value)
        );
        format!(
            "{{\"event\":\"branch\",\"node\":{node},\"parent\":{parent},\"depth\":{tree_depth},\"var\":{},\"name\":{},\"op\":\"{}\",\"value\":{},\"decision\":{},\"left\":{left}",
            decision.var.0,
            json_string(&name),
            decision.op.symbol(),
            decision.value,
            json_string(&shown),
        )
    }

    /// A learned nogood's line: its atoms as the puzzle reads them, and where it sends the
    /// search.
    fn nogood(&self, atoms: &[Atom], lbd: u32, backjump: Option<usize>) -> String {
        let shown: Vec<String> = atoms
            .iter()
            .map(|&atom| {
                let x = atom.var();
                let name = self.names.get(x.index()).and_then(|n| n.as_deref());
                let (op, value) = atom_parts(atom);
                format!(
                    "{{\"var\":{},\"name\":{},\"op\":\"{op}\",\"value\":{value},\"text\":{}}}",
                    x.0,
                    json_string(&self.name(x)),
                    json_string(&self.naming.show_atom(atom, name)),
                )
            })
            .collect();
        let backjump = backjump.map_or("null".to_string(), |d| d.to_string());
        format!(
            "{{\"event\":\"nogood\",\"node\":{},\"depth\":{},\"size\":{},\"lbd\":{lbd},\"backjump\":{backjump},\"atoms\":[{}]}}",
            self.current,
            self.current_depth,
            atoms.len(),
            shown.join(",")
        )
    }

    /// A backjump's line (written when the propagation at its target is over): the failed
    /// node, the nodes of the levels closed, and the node the search goes on from, which
    /// becomes the current node.
    fn backjump(&mut self, from: usize, to: usize) -> String {
        let closed: Vec<String> = self
            .path
            .iter()
            .take(from + 1)
            .skip(to + 1)
            .map(u64::to_string)
            .collect();
        let target = self.path.get(to).copied().unwrap_or(0);
        let line = format!(
            "{{\"event\":\"backjump\",\"node\":{},\"depth\":{},\"from\":{from},\"to\":{to},\"target\":{target},\"closed\":[{}]",
            self.current,
            self.current_depth,
            closed.join(",")
        );
        self.current = target;
        self.current_depth = to;
        self.open.truncate(to);
        self.path.truncate(to + 1);
        line
    }

    fn solution(&self, number: u64, objective: Option<i64>, values: &[i32]) -> String {
        let mut assignment = String::from("{");
        let mut first = true;
        let mut add = |name: &str, value: i32| {
            if !first {
                assignment.push(',');
            }
            first = false;
            assignment.push_str(&json_string(name));
            assignment.push(':');
            assignment.push_str(&json_string(&self.naming.show_value(value)));
        };
        if self.naming.names.is_empty() {
            for (i, &v) in values.iter().enumerate() {
                add(&format!("x{i}"), v);
            }
        } else {
            for (x, name) in &self.naming.names {
                if let Some(&v) = values.get(x.0 as usize) {
                    add(name, v);
                }
            }
        }
        assignment.push('}');
        let objective = match objective {
            Some(o) => format!(",\"objective\":{o}"),
            None => String::new(),
        };
        format!(
            "{{\"event\":\"solution\",\"node\":{},\"depth\":{},\"number\":{number}{objective},\"assignment\":{assignment}}}",
            self.current, self.current_depth
        )
    }
}

impl<W: Write> SearchListener for TraceWriter<W> {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        if self.error.is_some() {
            return;
        }
        if !self.rooted {
            self.root();
        }
        self.flush_pending();
        let line = match event {
            SearchEvent::Branch {
                depth,
                decision,
                left,
            } => {
                // Written when its propagation is over.
                self.pending = Some(self.branch(*depth, decision, *left));
                return;
            }
            SearchEvent::Failure { propagator, .. } => {
                let propagator = match propagator {
                    Some(p) => json_string(p),
                    None => "null".to_string(),
                };
                format!(
                    "{{\"event\":\"failure\",\"node\":{},\"depth\":{},\"propagator\":{propagator}}}",
                    self.current, self.current_depth
                )
            }
            SearchEvent::Solution {
                number,
                objective,
                values,
            } => self.solution(*number, *objective, values),
            SearchEvent::Restart { number, failures } => {
                let line = format!(
                    "{{\"event\":\"restart\",\"number\":{number},\"failures\":{failures}}}"
                );
                self.write(&line);
                self.tree += 1;
                self.root();
                return;
            }
            SearchEvent::Nogood {
                atoms,
                lbd,
                backjump,
            } => self.nogood(atoms, *lbd, *backjump),
            SearchEvent::Backjump { from, to } => {
                // Written when the propagation at the target is over.
                self.pending = Some(self.backjump(*from, *to));
                return;
            }
        };
        self.write(&line);
    }

    fn on_fixpoint(&mut self, model: &crate::model::Model) {
        self.end_of_propagation(model);
    }

    fn on_conflict(&mut self, model: &crate::model::Model) {
        self.end_of_propagation(model);
    }

    fn wants_removal_counts(&self) -> bool {
        true
    }

    fn name_variables(&mut self, naming: &Naming) {
        self.flush_pending();
        self.naming = naming.clone();
        self.names.clear();
        for (x, name) in &naming.names {
            let i = x.0 as usize;
            if self.names.len() <= i {
                self.names.resize(i + 1, None);
            }
            self.names[i] = Some(name.clone());
        }
        // A new model: its search starts a new tree, numbered from 0.
        self.rooted = false;
        self.next_node = 0;
        self.tree = 0;
    }
}

/// Counters readable from any thread.
#[derive(Debug)]
pub struct Progress {
    pub nodes: AtomicU64,
    pub failures: AtomicU64,
    pub solutions: AtomicU64,
    pub restarts: AtomicU64,
    /// Parallel counting: subproblems finished and in total (0 = not split).
    pub subproblems_done: AtomicU64,
    pub subproblems_total: AtomicU64,
    /// Best objective value so far (valid when `has_objective`).
    pub best_objective: AtomicI64,
    pub has_objective: AtomicBool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            nodes: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            solutions: AtomicU64::new(0),
            restarts: AtomicU64::new(0),
            subproblems_done: AtomicU64::new(0),
            subproblems_total: AtomicU64::new(0),
            best_objective: AtomicI64::new(0),
            has_objective: AtomicBool::new(false),
        }
    }
}

impl Progress {
    /// The best objective so far, if any.
    pub fn best(&self) -> Option<i64> {
        self.has_objective
            .load(Ordering::Relaxed)
            .then(|| self.best_objective.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::DecisionOp;

    fn decide(var: u32, value: i32) -> Decision {
        Decision {
            var: VarId(var),
            op: DecisionOp::Eq,
            value,
        }
    }

    #[test]
    fn after_a_backjump_the_trace_goes_on_from_the_node_it_went_back_to() {
        let mut trace = TraceWriter::new(Vec::new());
        trace.name_variables(&Naming::numbered(&[VarId(0), VarId(1), VarId(2)], "q"));
        for depth in 1..=3 {
            let decision = decide(depth as u32 - 1, 0);
            trace.on_event(&SearchEvent::Branch {
                depth,
                decision: &decision,
                left: true,
            });
        }
        trace.on_event(&SearchEvent::Failure {
            depth: 3,
            propagator: Some("p"),
        });
        let atoms = [Atom::Equal(VarId(0), 0), Atom::NotEqual(VarId(7), 4)];
        trace.on_event(&SearchEvent::Nogood {
            atoms: &atoms,
            lbd: 2,
            backjump: Some(1),
        });
        trace.on_event(&SearchEvent::Backjump { from: 3, to: 1 });
        let decision = decide(2, 1);
        trace.on_event(&SearchEvent::Branch {
            depth: 2,
            decision: &decision,
            left: true,
        });
        let text = String::from_utf8(trace.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[5],
            r#"{"event":"nogood","node":3,"depth":3,"size":2,"lbd":2,"backjump":1,"atoms":[{"var":0,"name":"q1","op":"=","value":0,"text":"q1 = 0"},{"var":7,"name":"x7","op":"!=","value":4,"text":"x7 != 4"}]}"#
        );
        assert_eq!(
            lines[6],
            r#"{"event":"backjump","node":3,"depth":3,"from":3,"to":1,"target":1,"closed":[2,3]}"#
        );
        // The next decision hangs from node 1, at depth 2.
        assert!(
            lines[7].starts_with(r#"{"event":"branch","node":4,"parent":1,"depth":2,"#),
            "{}",
            lines[7]
        );
    }
}
