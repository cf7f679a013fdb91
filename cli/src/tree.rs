//! # Drawing the search tree
//!
//! `cpsolve tree TRACE.jsonl -o FILE.svg` (and `--tree FILE.svg` during a run) draws the
//! tree a search explored, in the manner of Gecode's Gist and CP-Profiler: every node a shape,
//! every edge labelled with its decision. Seeing the tree is how one learns what a better
//! propagator or heuristic buys: fewer, shorter red branches.
//!
//! * blue circle: a node that branched; red square: a failure; green diamond: a solution;
//!   orange square: a node cut by the bound of branch and bound (it failed with no
//!   propagator to blame: the objective could not beat the best solution so far); white
//!   circle: a node left open when the search stopped;
//! * a triangle stands for a whole subtree, collapsed so that a large tree opens readable at
//!   the size of a window (at most `MAX_COLUMNS` leaves across): red when the subtree failed
//!   everywhere, green when it holds solutions; its label says how many nodes (and
//!   solutions) it hides. A subtree with a node left open is never collapsed;
//! * a legend at the top says what each shape means;
//! * each restart starts a tree of its own, drawn to the right of the previous one;
//! * with learning (`--learn`), a backjump is a dashed purple arrow from the failed node up
//!   to the node the search went back to, labelled with the nogood learned there; the
//!   decisions it undid without trying their alternatives wear a purple ring, and what then
//!   happened at the node it went back to (a failure, a solution) a red or green ring.
//!
//! The layout is the simple tidy layout: leaves (and collapsed subtrees) take consecutive
//! columns from left to right in the order the search met them, and a parent sits above the
//! middle of its children. Since the trace numbers nodes in the order the depth-first search
//! creates them, a parent always comes before its children: one pass backwards computes the
//! subtree sizes, one pass forwards places the leaves.
//!
//! Counting: the root of each tree is drawn but, like the search statistics, not counted as
//! a node (a node is a branch taken). Every shape carries `data-count` (1, or the number of
//! nodes a triangle hides, 0 for a root), and their sum is the `nodes` of `-s`.

use serde_json::Value;
use std::fmt::Write as _;

/// What became of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Root,
    Branched,
    Failed,
    CutByBound,
    Solution,
    Open,
}

#[derive(Clone, Debug)]
struct Node {
    parent: Option<usize>,
    /// The decision of the edge into this node ("r2c3 = 5").
    label: String,
    kind: Kind,
    depth: usize,
    /// Which tree of the file (instances and restarts each start one).
    tree: usize,
    /// The nogoods learned at this node's failure, in words (`c3 = 1 ∧ c4 = 3`).
    nogoods: Vec<String>,
    /// A backjump undid this node's decision without trying its alternative.
    jumped: bool,
    /// A backjump brought the search back to this node; and what happened here then (a
    /// failure or a solution at a node that had branched already), if anything did.
    landed: bool,
    after_jump: Option<Kind>,
}

/// A backjump: from the failed node `from` back to `to`, because of `nogood`.
#[derive(Clone, Debug)]
struct Jump {
    from: usize,
    to: usize,
    nogood: String,
}

/// The search trees of a trace file.
#[derive(Debug, Default)]
pub struct Forest {
    nodes: Vec<Node>,
    trees: usize,
    jumps: Vec<Jump>,
}

impl Forest {
    /// Nodes counted as the statistics count them (every node but the roots).
    pub fn node_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.kind != Kind::Root).count()
    }
}

impl Node {
    fn new(parent: Option<usize>, label: String, kind: Kind, depth: usize, tree: usize) -> Node {
        Node {
            parent,
            label,
            kind,
            depth,
            tree,
            nogoods: Vec::new(),
            jumped: false,
            landed: false,
            after_jump: None,
        }
    }
}

/// A nogood line's atoms in words, joined by `∧`.
fn nogood_words(value: &Value) -> String {
    let atoms: Vec<&str> = value["atoms"]
        .as_array()
        .map(|atoms| atoms.iter().filter_map(|a| a["text"].as_str()).collect())
        .unwrap_or_default();
    atoms.join(" ∧ ")
}

/// Read a trace (docs/cli.md, "The trace"). `Err` is `(line number, what is wrong)`.
pub fn parse_trace(text: &str) -> Result<Forest, (usize, String)> {
    let mut forest = Forest::default();
    // Node ids of the current tree → index in `forest.nodes`. Ids restart at each instance.
    let mut index_of: std::collections::HashMap<u64, usize> = Default::default();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(line).map_err(|e| (number, format!("not JSON: {e}")))?;
        let event = value["event"]
            .as_str()
            .ok_or((number, "no \"event\" field".to_string()))?;
        let field = |name: &str| -> Result<u64, (usize, String)> {
            value[name].as_u64().ok_or((
                number,
                format!("a {event} event needs a whole number \"{name}\""),
            ))
        };
        match event {
            "instance" => index_of.clear(),
            "root" => {
                let id = field("node")?;
                if id == 0 {
                    index_of.clear();
                }
                index_of.insert(id, forest.nodes.len());
                forest
                    .nodes
                    .push(Node::new(None, String::new(), Kind::Root, 0, forest.trees));
                forest.trees += 1;
            }
            "branch" => {
                let (id, parent) = (field("node")?, field("parent")?);
                let &p = index_of
                    .get(&parent)
                    .ok_or((number, format!("parent {parent} is not a node seen before")))?;
                let label = value["decision"].as_str().unwrap_or("").to_string();
                let tree = forest.nodes[p].tree;
                if forest.nodes[p].kind == Kind::Open {
                    forest.nodes[p].kind = Kind::Branched;
                }
                index_of.insert(id, forest.nodes.len());
                let depth = forest.nodes[p].depth + 1;
                forest
                    .nodes
                    .push(Node::new(Some(p), label, Kind::Open, depth, tree));
            }
            "failure" | "solution" => {
                let id = field("node")?;
                let &n = index_of
                    .get(&id)
                    .ok_or((number, format!("node {id} is not a node seen before")))?;
                let node = &mut forest.nodes[n];
                let kind = if event == "solution" {
                    Kind::Solution
                } else if value["propagator"].is_null() {
                    Kind::CutByBound
                } else {
                    Kind::Failed
                };
                match node.kind {
                    // Back at a node after a backjump.
                    Kind::Root | Kind::Branched if node.landed => node.after_jump = Some(kind),
                    Kind::Root => {}
                    _ => node.kind = kind,
                }
            }
            "nogood" => {
                let id = field("node")?;
                let &n = index_of
                    .get(&id)
                    .ok_or((number, format!("node {id} is not a node seen before")))?;
                forest.nodes[n].nogoods.push(nogood_words(&value));
            }
            "backjump" => {
                let (from, to) = (field("node")?, field("target")?);
                add_jump(&mut forest, &index_of, &value, (from, to))
                    .map_err(|message| (number, message))?;
            }
            "restart" => {}
            other => {
                return Err((
                    number,
                    format!("unknown event {}", puzzles::parse::quoted(other)),
                ))
            }
        }
    }
    Ok(forest)
}

/// A backjump line: from node `from` back to node `to` (trace ids), its `closed` nodes
/// marked, its nogood the last one learned at `from`.
fn add_jump(
    forest: &mut Forest,
    index_of: &std::collections::HashMap<u64, usize>,
    value: &Value,
    (from, to): (u64, u64),
) -> Result<(), String> {
    let known = |id: u64| {
        index_of
            .get(&id)
            .copied()
            .ok_or(format!("node {id} is not a node seen before"))
    };
    let (from, to) = (known(from)?, known(to)?);
    forest.nodes[to].landed = true;
    for closed in value["closed"].as_array().into_iter().flatten() {
        let c = closed
            .as_u64()
            .ok_or("a backjump's \"closed\" holds node numbers".to_string())?;
        forest.nodes[known(c)?].jumped = true;
    }
    let nogood = forest.nodes[from].nogoods.last().cloned();
    forest.jumps.push(Jump {
        from,
        to,
        nogood: nogood.unwrap_or_default(),
    });
    Ok(())
}

/// Where each node is drawn, after collapsing.
struct Layout {
    /// Column (in slots) and row of each visible node; `None` when hidden in a triangle.
    place: Vec<Option<(f64, usize)>>,
    /// For a collapsed node: how many nodes and how many solutions its triangle stands for.
    collapsed: Vec<Option<(usize, usize)>>,
    columns: f64,
    rows: usize,
}

/// The most leaves (columns) a drawing holds: subtrees are opened, the largest first, while
/// it fits, so that a big tree opens readable at the width of a window.
const MAX_COLUMNS: usize = 120;

fn layout(forest: &Forest) -> Layout {
    let n = forest.nodes.len();
    // Bottom-up: subtree sizes (counted nodes), solutions, and whether a subtree holds a
    // node left open (such a subtree is never collapsed: it is where the search stopped).
    let mut size = vec![0usize; n];
    let mut solutions = vec![0usize; n];
    let mut open = vec![false; n];
    for i in (0..n).rev() {
        let node = &forest.nodes[i];
        if node.kind != Kind::Root {
            size[i] += 1;
        }
        solutions[i] += usize::from(node.kind == Kind::Solution)
            + usize::from(node.after_jump == Some(Kind::Solution));
        open[i] |= node.kind == Kind::Open;
        if let Some(p) = node.parent {
            size[p] += size[i];
            solutions[p] += solutions[i];
            open[p] |= open[i];
        }
    }
    let (visible, expanded, kids) = open_largest_first(forest, &size, &open);
    // Hide what is under a collapsed node; leaves take the next column.
    let mut place: Vec<Option<(f64, usize)>> = vec![None; n];
    let mut collapsed = vec![None; n];
    let hidden: Vec<bool> = visible.iter().map(|v| !v).collect();
    let mut visible_children = vec![0usize; n];
    for i in 0..n {
        if let Some(p) = forest.nodes[i].parent {
            if visible[i] {
                visible_children[p] += 1;
            }
        }
        if visible[i] && !kids[i].is_empty() && !expanded[i] {
            collapsed[i] = Some((size[i], solutions[i]));
        }
    }
    let mut next_column = 0.0;
    let mut tree = usize::MAX;
    let mut rows = 0;
    for i in 0..n {
        if hidden[i] {
            continue;
        }
        let node = &forest.nodes[i];
        if node.tree != tree {
            if tree != usize::MAX {
                next_column += 2.0; // a gap between trees
            }
            tree = node.tree;
        }
        rows = rows.max(node.depth + 1);
        if visible_children[i] == 0 {
            place[i] = Some((next_column, node.depth));
            next_column += 1.0;
        }
    }
    // Bottom-up: a parent above the middle of its first and last child.
    let mut span: Vec<Option<(f64, f64)>> = vec![None; n];
    for i in (0..n).rev() {
        if hidden[i] {
            continue;
        }
        if visible_children[i] > 0 {
            let (lo, hi) = span[i].expect("a visible child was placed");
            place[i] = Some(((lo + hi) / 2.0, forest.nodes[i].depth));
        }
        let x = place[i].expect("placed").0;
        if let Some(p) = forest.nodes[i].parent {
            span[p] = Some(match span[p] {
                None => (x, x),
                Some((lo, hi)) => (lo.min(x), hi.max(x)),
            });
        }
    }
    Layout {
        place,
        collapsed,
        columns: next_column.max(1.0),
        rows: rows.max(1),
    }
}

/// Top-down, largest subtree first: open a collapsed subtree while the leaves still fit in
/// `MAX_COLUMNS`. Roots and subtrees holding an open node are always opened. Returns which
/// nodes are drawn, which of them show their children, and each node's children.
fn open_largest_first(
    forest: &Forest,
    size: &[usize],
    open: &[bool],
) -> (Vec<bool>, Vec<bool>, Vec<Vec<usize>>) {
    let n = forest.nodes.len();
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, node) in forest.nodes.iter().enumerate() {
        if let Some(p) = node.parent {
            kids[p].push(i);
        }
    }
    let must_open = |i: usize| open[i] || forest.nodes[i].kind == Kind::Root;
    let mut visible = vec![false; n];
    let mut expanded = vec![false; n];
    let mut waiting = std::collections::BinaryHeap::new();
    let mut leaves = 0usize;
    for (i, node) in forest.nodes.iter().enumerate() {
        if node.parent.is_none() {
            visible[i] = true;
            leaves += 1;
            waiting.push((must_open(i), size[i], std::cmp::Reverse(i)));
        }
    }
    while let Some((forced, _, std::cmp::Reverse(i))) = waiting.pop() {
        if kids[i].is_empty() || (!forced && leaves + kids[i].len() - 1 > MAX_COLUMNS) {
            continue; // a true leaf, or a subtree that stays collapsed
        }
        expanded[i] = true;
        leaves += kids[i].len() - 1;
        for &k in &kids[i] {
            visible[k] = true;
            waiting.push((must_open(k), size[k], std::cmp::Reverse(k)));
        }
    }
    (visible, expanded, kids)
}

/// Text for an XML attribute or element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The forest as an SVG document.
pub fn svg(forest: &Forest) -> String {
    let drawing = Drawing::new(layout(forest), forest.jumps.len());
    let (width, height) = drawing.size();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" data-nodes=\"{}\" data-trees=\"{}\" \
         font-family=\"sans-serif\" font-size=\"10\">",
        forest.node_count(),
        forest.trees
    );
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out.push_str(&legend(!forest.jumps.is_empty()));
    // Edges first, so that the shapes cover their ends.
    for (i, node) in forest.nodes.iter().enumerate() {
        drawing.edge(&mut out, i, node);
    }
    for (i, node) in forest.nodes.iter().enumerate() {
        drawing.node(&mut out, i, node);
        drawing.rings(&mut out, i, node);
    }
    for (k, jump) in forest.jumps.iter().enumerate() {
        drawing.jump(&mut out, forest, k + 1, jump);
    }
    drawing.nogood_list(&mut out, forest);
    out.push_str("</svg>\n");
    out
}

/// A layout put on the page: where each slot is in pixels, and whether edges are labelled.
struct Drawing {
    layout: Layout,
    /// Edge labels only while the drawing is narrow enough to read them at the size of a
    /// window; past that, they are tooltips.
    labelled: bool,
    column: f64,
    row: f64,
    margin: f64,
    /// Where the tree starts: the legend takes the first rows.
    top: f64,
    /// The radius of a node's shape.
    r: f64,
    /// Lines of the nogood list under the tree.
    nogood_rows: usize,
}

impl Drawing {
    /// `jumps`: how many backjumps the trace has (the legend has a second row for them,
    /// and their nogoods are listed under the tree).
    fn new(layout: Layout, jumps: usize) -> Drawing {
        let labelled = layout.columns <= 40.0;
        let margin = 40.0;
        Drawing {
            layout,
            labelled,
            column: if labelled { 90.0 } else { 14.0 },
            row: if labelled { 56.0 } else { 28.0 },
            margin,
            top: margin + LEGEND_HEIGHT + if jumps > 0 { LEGEND_ROW } else { 0.0 },
            r: if labelled { 7.0 } else { 4.5 },
            nogood_rows: if labelled {
                jumps.min(LISTED_NOGOODS)
            } else {
                0
            },
        }
    }

    fn size(&self) -> (f64, f64) {
        let width = (self.layout.columns * self.column + 2.0 * self.margin).max(LEGEND_WIDTH);
        let height = self.layout.rows as f64 * self.row
            + self.margin
            + self.top
            + self.nogood_rows as f64 * NOGOOD_ROW;
        (width, height)
    }

    /// The pixel position of a slot (column, row).
    fn at(&self, (x, y): (f64, usize)) -> (f64, f64) {
        (
            self.margin + x * self.column + self.column / 2.0,
            self.top + y as f64 * self.row,
        )
    }

    /// The edge into node `i`, with its decision as a tooltip (and a label beside it).
    fn edge(&self, out: &mut String, i: usize, node: &Node) {
        let (Some(p), Some(here)) = (node.parent, self.layout.place[i]) else {
            return;
        };
        let Some(there) = self.layout.place[p] else {
            return;
        };
        let ((x1, y1), (x2, y2)) = (self.at(there), self.at(here));
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#888\"><title>{}</title></line>",
            escape(&node.label)
        );
        if self.labelled {
            // Beside the edge, on its outer side: a left edge's label to the left.
            let (dx, anchor) = if x2 < x1 {
                (-4.0, "end")
            } else {
                (4.0, "start")
            };
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\" fill=\"#333\">{}</text>",
                (x1 + x2) / 2.0 + dx,
                (y1 + y2) / 2.0 + 3.0,
                escape(&node.label)
            );
        }
    }

    /// Node `i`'s shape: a triangle for a closed subtree, else the shape of its kind.
    fn node(&self, out: &mut String, i: usize, node: &Node) {
        let Some(here) = self.layout.place[i] else {
            return;
        };
        let (x, y) = self.at(here);
        let r = self.r;
        let title = escape(&node.label);
        if let Some((hidden, found)) = self.layout.collapsed[i] {
            let (fill, what) = if found == 0 {
                ("#d33", format!("a failed subtree of {hidden} nodes"))
            } else {
                (
                    "#2a2",
                    format!("a subtree of {hidden} nodes with {found} solutions"),
                )
            };
            let _ = writeln!(
                out,
                "<polygon class=\"collapsed\" data-count=\"{hidden}\" data-solutions=\"{found}\" points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{fill}\"><title>{title}: {what}</title></polygon>",
                x, y - r, x - r * 1.3, y + r * 2.0, x + r * 1.3, y + r * 2.0
            );
            if self.labelled {
                let _ = writeln!(
                    out,
                    "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{hidden}</text>",
                    y + r * 2.0 + 11.0
                );
            }
            return;
        }
        let count = if node.kind == Kind::Root { 0 } else { 1 };
        let (element, class, shape) = match node.kind {
            Kind::Root => ("circle", "root", circle(x, y, r, "#36c")),
            Kind::Branched => ("circle", "branch", circle(x, y, r, "#36c")),
            Kind::Open => ("circle", "open", circle(x, y, r, "white")),
            Kind::Failed => ("rect", "failure", square(x, y, r, "#d33")),
            Kind::CutByBound => ("rect", "bound", square(x, y, r, "#f90")),
            Kind::Solution => ("polygon", "solution", diamond(x, y, r)),
        };
        let _ = writeln!(
            out,
            "<{element} class=\"{class}\" data-count=\"{count}\" {shape}><title>{title}</title></{element}>"
        );
    }
}

impl Drawing {
    /// The rings of a node a backjump concerns: purple when it undid the node's decision,
    /// red or green for what happened at the node after a backjump came back to it.
    fn rings(&self, out: &mut String, i: usize, node: &Node) {
        let (Some(here), None) = (self.layout.place[i], self.layout.collapsed[i]) else {
            return;
        };
        let (x, y) = self.at(here);
        if node.jumped {
            let _ = writeln!(
                out,
                "<circle class=\"jumped\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"#8e44ad\" stroke-width=\"2\"><title>{}: undone by a backjump, its alternative never tried</title></circle>",
                self.r + 3.0,
                escape(&node.label)
            );
        }
        if let Some(kind) = node.after_jump {
            let (colour, what) = match kind {
                Kind::Solution => ("#2a2", "a solution here after a backjump"),
                Kind::CutByBound => ("#f90", "cut by the bound here after a backjump"),
                _ => (
                    "#d33",
                    "failed here after a backjump: the nogood's propagation",
                ),
            };
            let _ = writeln!(
                out,
                "<circle class=\"after-backjump\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\"><title>{what}</title></circle>",
                self.r + 6.0
            );
        }
    }

    /// A backjump: a dashed purple arrow from the failed node up to the node the search went
    /// back to, curving out to the right, with its nogood as a tooltip (and as a label while
    /// the drawing is labelled). A node inside a collapsed triangle is drawn by its triangle.
    fn jump(&self, out: &mut String, forest: &Forest, number: usize, jump: &Jump) {
        let (Some(from), Some(to)) = (
            self.visible_ancestor(forest, jump.from),
            self.visible_ancestor(forest, jump.to),
        ) else {
            return;
        };
        if from == to {
            return; // both inside one triangle
        }
        let ((x1, y1), (x2, y2)) = (self.at(from), self.at(to));
        let bend = self.column * 0.6 + (y1 - y2).abs() * 0.15;
        let (cx, cy) = (x1.max(x2) + bend, (y1 + y2) / 2.0);
        let words = format!("nogood: {}", jump.nogood);
        let _ = writeln!(
            out,
            "<path class=\"backjump\" d=\"M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {x2:.1},{y2:.1}\" fill=\"none\" stroke=\"#8e44ad\" stroke-width=\"1.5\" stroke-dasharray=\"4,3\"><title>backjump; {}</title></path>",
            escape(&words)
        );
        // The arrow's head, at the target, pointing up along the curve's last tangent.
        let (dx, dy) = (x2 - cx, y2 - cy);
        let length = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / length, dy / length);
        let (bx, by) = (x2 - ux * (self.r + 7.0), y2 - uy * (self.r + 7.0));
        let (tx, ty) = (x2 - ux * self.r, y2 - uy * self.r);
        let _ = writeln!(
            out,
            "<polygon class=\"backjump-head\" points=\"{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"#8e44ad\"/>",
            bx - uy * 4.0,
            by + ux * 4.0,
            bx + uy * 4.0,
            by - ux * 4.0
        );
        if self.labelled {
            // A short tag on the arrow; the nogood itself in the list under the tree.
            let _ = writeln!(
                out,
                "<text class=\"nogood\" x=\"{:.1}\" y=\"{cy:.1}\" fill=\"#8e44ad\">nogood {}<title>{}</title></text>",
                cx - bend * 0.45 + 3.0,
                number,
                escape(&words)
            );
        }
    }

    /// Under the tree, the first [`LISTED_NOGOODS`] backjumps' nogoods in full, numbered as
    /// their arrows' tags.
    fn nogood_list(&self, out: &mut String, forest: &Forest) {
        if !self.labelled {
            return;
        }
        let (_, height) = self.size();
        let mut y = height - self.margin / 2.0 - (self.nogood_rows as f64 - 1.0) * NOGOOD_ROW;
        for (k, jump) in forest.jumps.iter().take(LISTED_NOGOODS).enumerate() {
            let never = if jump.nogood.contains(" ∧ ") {
                "never together"
            } else {
                "never"
            };
            let words = format!("nogood {}: {never} {}", k + 1, jump.nogood);
            // A long nogood is cut to the drawing's width; its tooltip has it all.
            let shown: String = if words.chars().count() > 160 {
                words.chars().take(159).chain(['…']).collect()
            } else {
                words.clone()
            };
            let _ = writeln!(
                out,
                "<text class=\"nogood-listed\" x=\"{:.1}\" y=\"{y:.1}\" fill=\"#8e44ad\">{}<title>{}</title></text>",
                self.margin / 2.0,
                escape(&shown),
                escape(&words)
            );
            y += NOGOOD_ROW;
        }
    }

    /// Where node `i` is drawn: its own place, or its collapsed ancestor's triangle.
    fn visible_ancestor(&self, forest: &Forest, mut i: usize) -> Option<(f64, usize)> {
        loop {
            if let Some(place) = self.layout.place[i] {
                return Some(place);
            }
            i = forest.nodes[i].parent?;
        }
    }
}

/// The legend's size: one row of shapes and words above the tree.
const LEGEND_HEIGHT: f64 = 24.0;
/// The legend's second row (backjumps), when the trace has any.
const LEGEND_ROW: f64 = 18.0;
/// The nogoods listed in full under a labelled tree, at most, and the height of each line.
const LISTED_NOGOODS: usize = 12;
const NOGOOD_ROW: f64 = 16.0;
const LEGEND_WIDTH: f64 = 1010.0;

/// What each shape means, in a row at the top (no `data-count`: the legend counts no node);
/// with `jumps`, a second row says what a backjump looks like.
fn legend(jumps: bool) -> String {
    let r = 5.0;
    let y = 20.0;
    let mut out = String::from("<g class=\"legend\" font-size=\"11\">\n");
    let items: [(&str, &str); 7] = [
        ("circle", "branched"),
        ("failure", "failed"),
        ("solution", "solution"),
        ("bound", "cut by the bound"),
        ("open", "left open (search stopped)"),
        ("failed-subtree", "subtree that failed (its nodes)"),
        ("solved-subtree", "subtree with solutions"),
    ];
    let mut x = 14.0;
    for (shape, words) in items {
        let drawn = match shape {
            "circle" => format!("<circle {}/>", circle(x, y, r, "#36c")),
            "open" => format!("<circle {}/>", circle(x, y, r, "white")),
            "failure" => format!("<rect {}/>", square(x, y, r, "#d33")),
            "bound" => format!("<rect {}/>", square(x, y, r, "#f90")),
            "solution" => format!("<polygon {}/>", diamond(x, y, r)),
            _ => format!(
                "<polygon points=\"{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{}\"/>",
                y - r,
                x - r * 1.3,
                y + r,
                x + r * 1.3,
                y + r,
                if shape == "failed-subtree" {
                    "#d33"
                } else {
                    "#2a2"
                }
            ),
        };
        let _ = writeln!(
            out,
            "{drawn}<text x=\"{:.1}\" y=\"{:.1}\">{words}</text>",
            x + 10.0,
            y + 4.0
        );
        x += 26.0 + 6.4 * words.len() as f64;
    }
    if jumps {
        let y = y + LEGEND_ROW;
        let mut x = 14.0;
        let items: [(&str, &str); 3] = [
            (
                "<path d=\"M{x0},{y} l16,0\" stroke=\"#8e44ad\" stroke-width=\"1.5\" stroke-dasharray=\"4,3\"/>",
                "backjump, tagged with its nogood",
            ),
            (
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"none\" stroke=\"#8e44ad\" stroke-width=\"2\"/>",
                "decision undone by a backjump, its alternative never tried",
            ),
            (
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"none\" stroke=\"#d33\" stroke-width=\"2.5\"/>",
                "failed (green: solved) after a backjump came back",
            ),
        ];
        for (shape, words) in items {
            let drawn = shape
                .replace("{x0}", &format!("{:.1}", x - r))
                .replace("{x}", &format!("{x:.1}"))
                .replace("{y}", &format!("{y:.1}"))
                .replace("{r}", &format!("{r:.1}"));
            let _ = writeln!(
                out,
                "{drawn}<text x=\"{:.1}\" y=\"{:.1}\">{words}</text>",
                x + 14.0,
                y + 4.0
            );
            x += 30.0 + 6.4 * words.len() as f64;
        }
    }
    out.push_str("</g>\n");
    out
}

fn diamond(x: f64, y: f64, r: f64) -> String {
    format!(
        "points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" fill=\"#2a2\" stroke=\"#222\"",
        y - r * 1.4,
        x + r * 1.4,
        y + r * 1.4,
        x - r * 1.4
    )
}

fn circle(x: f64, y: f64, r: f64, fill: &str) -> String {
    format!("cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"{fill}\" stroke=\"#222\"")
}

fn square(x: f64, y: f64, r: f64, fill: &str) -> String {
    format!(
        "x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" stroke=\"#222\"",
        x - r,
        y - r,
        2.0 * r,
        2.0 * r
    )
}

/// The SVG in a page that pans (drag) and zooms (wheel), with no network and no library.
pub fn html(forest: &Forest) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cpsolve search tree</title>\n\
         <style>body{{margin:0;overflow:hidden}}#view{{width:100vw;height:100vh;cursor:grab}}</style>\n\
         </head><body><div id=\"view\">\n{}</div>\n<script>\n\
         const svg=document.querySelector('svg');const vb=svg.viewBox.baseVal;\n\
         svg.setAttribute('width','100%');svg.setAttribute('height','100%');\n\
         let drag=null;\n\
         svg.addEventListener('wheel',e=>{{e.preventDefault();const k=e.deltaY>0?1.2:1/1.2;\n\
         const r=svg.getBoundingClientRect();const px=vb.x+(e.clientX-r.left)/r.width*vb.width;\n\
         const py=vb.y+(e.clientY-r.top)/r.height*vb.height;vb.x=px-(px-vb.x)*k;vb.y=py-(py-vb.y)*k;\n\
         vb.width*=k;vb.height*=k;}});\n\
         svg.addEventListener('mousedown',e=>{{drag=[e.clientX,e.clientY];}});\n\
         window.addEventListener('mouseup',()=>{{drag=null;}});\n\
         window.addEventListener('mousemove',e=>{{if(!drag)return;const r=svg.getBoundingClientRect();\n\
         vb.x-=(e.clientX-drag[0])/r.width*vb.width;vb.y-=(e.clientY-drag[1])/r.height*vb.height;\n\
         drag=[e.clientX,e.clientY];}});\n\
         </script></body></html>\n",
        svg(forest)
    )
}

/// `cpsolve tree TRACE.jsonl -o FILE.svg|FILE.html`. `Err` is a usage message; input
/// errors come back as `(file, line, message)`.
pub fn write_tree(trace: &std::path::Path, output: &std::path::Path) -> Result<(), TreeError> {
    let text = std::fs::read_to_string(trace)
        .map_err(|e| TreeError::Usage(format!("tree: cannot read '{}' ({e})", trace.display())))?;
    let forest = parse_trace(&text)
        .map_err(|(line, message)| TreeError::Input(trace.display().to_string(), line, message))?;
    write_forest(&forest, output)
}

/// Write the drawing of `forest` to `output` (`.html`: the pan/zoom page; otherwise SVG).
pub fn write_forest(forest: &Forest, output: &std::path::Path) -> Result<(), TreeError> {
    let page = if output.extension().is_some_and(|e| e == "html") {
        html(forest)
    } else {
        svg(forest)
    };
    std::fs::write(output, page).map_err(|e| {
        TreeError::Write(std::io::Error::new(
            e.kind(),
            format!("tree '{}': {e}", output.display()),
        ))
    })
}

/// `cpsolve tree TRACE.jsonl -o FILE`: the words after `tree`.
pub fn command(words: &[String]) -> Result<(), TreeError> {
    let usage = || TreeError::Usage("usage: cpsolve tree TRACE.jsonl -o FILE.svg|FILE.html".into());
    let (mut trace, mut output) = (None, None);
    let mut words = words.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-o" | "--output" => output = Some(words.next().ok_or_else(usage)?.clone()),
            w if w.starts_with('-') && w != "-" => {
                return Err(TreeError::Usage(format!(
                    "tree: unknown flag {} (usage: cpsolve tree TRACE.jsonl -o FILE.svg)",
                    puzzles::parse::quoted(w)
                )))
            }
            _ if trace.is_none() => trace = Some(word.clone()),
            _ => return Err(usage()),
        }
    }
    let (Some(trace), Some(output)) = (trace, output) else {
        return Err(usage());
    };
    if crate::output_files::same_file(trace.as_ref(), output.as_ref()) {
        return Err(TreeError::Usage(format!(
            "tree: -o '{output}' is the trace itself: it would be overwritten; choose another file"
        )));
    }
    let trace = std::path::Path::new(&trace);
    let text = std::fs::read_to_string(trace)
        .map_err(|e| TreeError::Usage(format!("tree: cannot read '{}' ({e})", trace.display())))?;
    let forest = parse_trace(&text)
        .map_err(|(line, message)| TreeError::Input(trace.display().to_string(), line, message))?;
    // A path that cannot be created is bad usage (exit 2); a write that fails after, exit 1.
    std::fs::File::create(&output)
        .map_err(|e| TreeError::Usage(format!("tree: cannot create '{output}' ({e})")))?;
    write_forest(&forest, std::path::Path::new(&output))
}

/// What can go wrong drawing a tree.
#[derive(Debug)]
pub enum TreeError {
    Usage(String),
    /// Writing the drawing failed (a full disk): exit 1, as a failed write.
    Write(std::io::Error),
    /// File, line, message.
    Input(String, usize, String),
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"event":"root","node":0,"tree":0}
{"event":"branch","node":1,"parent":0,"depth":1,"var":0,"name":"a","op":"=","value":1,"decision":"a = 1","left":true}
{"event":"failure","node":1,"depth":1,"propagator":"p"}
{"event":"branch","node":2,"parent":0,"depth":1,"var":0,"name":"a","op":"!=","value":1,"decision":"a != 1","left":false}
{"event":"solution","node":2,"depth":1,"number":1,"assignment":{"a":"2"}}
"#;

    #[test]
    fn a_failure_and_a_solution_get_their_shapes() {
        let forest = parse_trace(SMALL).unwrap();
        assert_eq!(forest.node_count(), 2);
        let svg = svg(&forest);
        assert!(svg.contains("class=\"failure\""));
        assert!(svg.contains("class=\"solution\""));
        assert!(svg.contains("a != 1"));
    }

    #[test]
    fn big_failed_subtrees_collapse_and_keep_their_count() {
        // A chain of failed binary subtrees: a complete tree of depth 13 with one solution.
        let mut text = String::from("{\"event\":\"root\",\"node\":0,\"tree\":0}\n");
        let mut next = 1;
        fn grow(text: &mut String, next: &mut u64, parent: u64, depth: usize) {
            for left in [true, false] {
                let id = *next;
                *next += 1;
                text.push_str(&format!(
                    "{{\"event\":\"branch\",\"node\":{id},\"parent\":{parent},\"depth\":{depth},\"decision\":\"d\",\"left\":{left}}}\n"
                ));
                if depth == 13 {
                    text.push_str(&format!(
                        "{{\"event\":\"failure\",\"node\":{id},\"depth\":{depth},\"propagator\":\"p\"}}\n"
                    ));
                } else {
                    grow(text, next, id, depth + 1);
                }
            }
        }
        grow(&mut text, &mut next, 0, 1);
        let forest = parse_trace(&text).unwrap();
        assert_eq!(forest.node_count(), (1 << 14) - 2);
        let svg = svg(&forest);
        // A binary tree with at most MAX_COLUMNS leaves has fewer than twice as many nodes.
        let shapes = layout(&forest).place.iter().filter(|p| p.is_some()).count();
        assert!(shapes < 2 * MAX_COLUMNS, "{shapes} shapes");
        assert!(svg.contains("class=\"legend\""));
        let counted: usize = svg
            .split("data-count=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].parse::<usize>().unwrap())
            .sum();
        assert_eq!(counted, forest.node_count());
    }

    #[test]
    fn a_branch_from_an_unknown_node_is_an_error_with_its_line() {
        let text = "{\"event\":\"root\",\"node\":0,\"tree\":0}\n{\"event\":\"branch\",\"node\":1,\"parent\":7}\n";
        assert_eq!(parse_trace(text).unwrap_err().0, 2);
    }
}
