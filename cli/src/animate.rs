//! # `--animate FILE.html`: the search replayed on the puzzle's picture
//!
//! A search listener records a *frame* at every step: the decision taken (or the failure,
//! or the solution) and the domains of the puzzle's variables after propagation reached its
//! fixpoint there. The frames go into one self-contained page (inline script and style, no
//! network) that replays them: fixed cells show their value large, open cells their
//! candidates small, cells about which nothing is known yet are dark. Watching it, one sees
//! propagation fill the grid after each guess, and the failures undo it.
//!
//! The picture is the puzzle's own: its [`engine::search::Layout`] (from
//! `Instance::naming`) places each variable on a grid and adds what a person sees around it —
//! clue cells (Kakuro, Nonogram), thick borders between regions (Sudoku boxes, Strimko
//! streams, Star Battle regions), a colour per value (the seed's forks, knives and spoons), or
//! a graph's edges (colouring, vertices on a circle). Without a layout, names `rRcC` give the
//! grid and other variables stand in one row. Long searches keep the first and the last
//! frames (`MAX_FRAMES` in all) and the page says how many it skipped in between.
//!
//! With learning (`--learn`), a failure is followed by a frame naming the nogood learned from
//! it (its cells outlined in purple), and, when the search backjumps, by a frame that names
//! the decisions undone without trying their alternatives (their cells outlined) and shows
//! the grid as it is at the level the search goes back to, after the nogood's propagation.

use engine::search::{Decision, DecisionOp, Naming, SearchEvent, SearchListener};
use engine::{Atom, Model};
use std::fmt::Write as _;

/// At most this many frames in a page.
pub const MAX_FRAMES: usize = 3000;

/// One step of the search.
#[derive(Clone, Debug)]
struct Frame {
    /// "root", "branch", "failure", "solution", "restart", "nogood" or "backjump".
    kind: &'static str,
    /// What happened, in words ("c3 = 1", "failure: alldiff_value_family").
    text: String,
    /// The domains of the named variables, in the naming's order.
    domains: Vec<Vec<i32>>,
    /// The cell of the decision this frame shows (its index in the naming), if any.
    cell: Option<usize>,
    /// Cells outlined in purple: a nogood's cells, or those of the decisions a backjump undid.
    marks: Vec<usize>,
}

/// Records the frames of one search.
#[derive(Debug, Default)]
pub struct Recorder {
    naming: Naming,
    /// The first frames, up to half the cap.
    head: Vec<Frame>,
    /// The last frames (a ring once full), up to half the cap.
    tail: std::collections::VecDeque<Frame>,
    /// Frames dropped between `head` and `tail`.
    skipped: u64,
    /// The domains of the last fixpoint (a failure shows them with its mark).
    current: Vec<Vec<i32>>,
    /// The domains at the root's fixpoint; every value that appears in them is a value a
    /// cell may show, and a cell that may still show all of them is "nothing known".
    initial: Vec<Vec<i32>>,
    /// The frame waiting for its fixpoint's domains.
    pending: Option<Frame>,
    /// The last decision: its cell (index in the naming, if named) and the decision itself.
    /// A decision whose propagation fails reaches no fixpoint, so the failure's frames apply
    /// it to the last fixpoint's domains themselves.
    decided: Option<(Option<usize>, Decision)>,
    /// The depth of the current node, and along the path to it, each depth's decision (in
    /// words, with its cell) and the domains of its last fixpoint: a backjump goes back to
    /// one of them.
    depth: usize,
    path: Vec<(String, Option<usize>)>,
    fixpoints: Vec<Vec<Vec<i32>>>,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    fn push(&mut self, frame: Frame) {
        if self.head.len() < MAX_FRAMES / 2 {
            self.head.push(frame);
            return;
        }
        if self.tail.len() == MAX_FRAMES / 2 {
            self.tail.pop_front();
            self.skipped += 1;
        }
        self.tail.push_back(frame);
    }

    /// Close the pending frame with the domains it has now.
    /// A failure reaches no fixpoint. Its frame shows the last fixpoint's domains with the
    /// failed decision applied (the decided cell shows its value, not its old candidates), and
    /// says which decision failed and which constraint found the contradiction.
    fn push_failure(&mut self, propagator: Option<&'static str>) {
        let after = self
            .pending
            .as_ref()
            .filter(|f| f.kind == "branch")
            .map(|f| f.text.clone());
        let mut domains = self.current.clone();
        let mut cell = None;
        if after.is_some() {
            if let Some((Some(c), decision)) = self.decided {
                if let Some(d) = domains.get_mut(c) {
                    *d = apply_decision(d, decision.op, decision.value);
                    cell = Some(c);
                }
            }
        }
        if let Some(mut branch) = self.pending.take() {
            branch.domains = domains.clone();
            self.push(branch);
        }
        let cause = match propagator {
            Some("learned_nogood") => "a nogood learned before holds entirely".to_string(),
            Some(p) => format!("the constraint {p} found no way to go on"),
            None => "cut by the bound: no better solution below".to_string(),
        };
        let text = match after {
            Some(decision) => format!("failure after {decision}: {cause}"),
            None => format!("failure: {cause}"),
        };
        self.push(Frame {
            kind: "failure",
            text,
            domains,
            cell,
            marks: Vec::new(),
        });
    }

    /// The domains of the last frame recorded.
    fn last_domains(&self) -> Vec<Vec<i32>> {
        self.tail
            .back()
            .or(self.head.last())
            .map_or_else(|| self.current.clone(), |f| f.domains.clone())
    }

    /// A learned nogood: its frame shows the failure's grid with the nogood's cells marked.
    fn push_nogood(&mut self, atoms: &[Atom], lbd: u32, backjump: Option<usize>) {
        let naming = &self.naming;
        let words: Vec<String> = atoms
            .iter()
            .map(|&a| naming.show_atom(a, naming.name_of(a.var())))
            .collect();
        let mut marks: Vec<usize> = atoms
            .iter()
            .filter_map(|a| naming.names.iter().position(|(x, _)| *x == a.var()))
            .collect();
        marks.sort_unstable();
        marks.dedup();
        let then = match backjump {
            Some(d) => format!("the search jumps back to depth {d}"),
            None => "the search backtracks one level".to_string(),
        };
        let never = if atoms.len() == 1 {
            "never"
        } else {
            "never together"
        };
        let text = format!(
            "learned nogood: {never} {} ({} atom{}, LBD {lbd}); {then}",
            words.join(", "),
            atoms.len(),
            if atoms.len() == 1 { "" } else { "s" }
        );
        self.push(Frame {
            kind: "nogood",
            text,
            domains: self.last_domains(),
            cell: None,
            marks,
        });
    }

    /// A backjump: the decisions of depths `to + 1 ..= from` are undone, their alternatives
    /// not tried; the frame waits for the propagation at depth `to`.
    fn backjump_frame(&mut self, from: usize, to: usize) -> Frame {
        let undone: Vec<&(String, Option<usize>)> =
            self.path.iter().take(from + 1).skip(to + 1).collect();
        let words: Vec<&str> = undone.iter().map(|(d, _)| d.as_str()).collect();
        let marks = undone.iter().filter_map(|(_, c)| *c).collect();
        let text = format!(
            "backjump from depth {from} to depth {to}: {} undone without trying {}; \
             the nogood propagates at depth {to}",
            words.join(", "),
            if words.len() == 1 {
                "its alternative"
            } else {
                "their alternatives"
            }
        );
        self.depth = to;
        self.path.truncate(to + 1);
        self.fixpoints.truncate(to + 1);
        if let Some(domains) = self.fixpoints.last() {
            self.current = domains.clone();
        }
        Frame {
            kind: "backjump",
            text,
            domains: Vec::new(),
            cell: None,
            marks,
        }
    }

    fn flush(&mut self) {
        if let Some(mut frame) = self.pending.take() {
            frame.domains = self.current.clone();
            self.push(frame);
        }
    }

    /// Frames kept.
    pub fn frames(&self) -> usize {
        self.head.len() + self.tail.len() + usize::from(self.pending.is_some())
    }

    /// The page.
    pub fn html(mut self, title: &str) -> String {
        self.flush();
        let frames: Vec<&Frame> = self.head.iter().chain(self.tail.iter()).collect();
        let names: Vec<&str> = self.naming.names.iter().map(|(_, n)| n.as_str()).collect();
        let layout = &self.naming.layout;
        let places = if layout.places.len() == names.len() {
            layout.places.clone()
        } else {
            places_from_names(&names)
        };
        // Every value that appears, with its label.
        let mut values: Vec<i32> = self.initial.iter().flatten().copied().collect();
        values.sort_unstable();
        values.dedup();
        let mut data = String::from("{\"names\":[");
        for (i, n) in names.iter().enumerate() {
            let _ = write!(data, "{}\"{}\"", if i > 0 { "," } else { "" }, js_text(n));
        }
        data.push_str("],\"places\":[");
        for (i, (r, c)) in places.iter().enumerate() {
            let _ = write!(data, "{}[{r},{c}]", if i > 0 { "," } else { "" });
        }
        data.push_str("],\"labels\":{");
        for (i, v) in values.iter().enumerate() {
            let _ = write!(
                data,
                "{}\"{v}\":\"{}\"",
                if i > 0 { "," } else { "" },
                js_text(&self.naming.show_value(*v))
            );
        }
        data.push_str("},\"regions\":[");
        if layout.regions.len() == names.len() {
            for (i, g) in layout.regions.iter().enumerate() {
                let _ = write!(data, "{}{g}", if i > 0 { "," } else { "" });
            }
        }
        data.push_str("],\"clues\":[");
        for (i, (r, c, text)) in layout.labels.iter().enumerate() {
            let _ = write!(
                data,
                "{}[{r},{c},\"{}\"]",
                if i > 0 { "," } else { "" },
                js_text(text)
            );
        }
        data.push_str("],\"cellWords\":[");
        if layout.cell_words.len() == names.len() {
            for (i, words) in layout.cell_words.iter().enumerate() {
                data.push_str(if i > 0 { ",[" } else { "[" });
                for (k, w) in words.iter().enumerate() {
                    let _ = write!(data, "{}\"{}\"", if k > 0 { "," } else { "" }, js_text(w));
                }
                data.push(']');
            }
        }
        data.push_str("],\"colours\":{");
        let mut first = true;
        for v in &values {
            if let Some(colour) = usize::try_from(*v)
                .ok()
                .and_then(|v| layout.value_colours.get(v))
            {
                let _ = write!(
                    data,
                    "{}\"{v}\":\"{}\"",
                    if first { "" } else { "," },
                    js_text(colour)
                );
                first = false;
            }
        }
        data.push_str("},\"edges\":[");
        for (i, (a, b)) in layout.edges.iter().enumerate() {
            let _ = write!(data, "{}[{a},{b}]", if i > 0 { "," } else { "" });
        }
        data.push_str("],\"initial\":");
        push_domains(&mut data, &self.initial);
        let _ = write!(
            data,
            ",\"skipped\":{},\"skipAfter\":{},\"frames\":[",
            self.skipped,
            self.head.len()
        );
        for (i, f) in frames.iter().enumerate() {
            let _ = write!(
                data,
                "{}{{\"kind\":\"{}\",\"text\":\"{}\",\"cell\":{},\"domains\":",
                if i > 0 { ",\n" } else { "" },
                f.kind,
                js_text(&f.text),
                f.cell.map_or(-1, |c| c as i64)
            );
            push_domains(&mut data, &f.domains);
            if !f.marks.is_empty() {
                let marks: Vec<String> = f.marks.iter().map(usize::to_string).collect();
                let _ = write!(data, ",\"marks\":[{}]", marks.join(","));
            }
            data.push('}');
        }
        data.push_str("]}");
        PAGE.replace("__TITLE__", &html_text(title))
            .replace("__DATA__", &data)
    }
}

/// Where each cell goes when the puzzle gives no places: `rRcC` names a grid, anything else
/// one row in the naming's order.
fn places_from_names(names: &[&str]) -> Vec<(usize, usize)> {
    let mut places = Vec::with_capacity(names.len());
    for name in names {
        let place = name
            .strip_prefix('r')
            .and_then(|rest| rest.split_once('c'))
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
        match place {
            Some((r, c)) if r >= 1 && c >= 1 => places.push((r - 1, c - 1)),
            _ => return (0..names.len()).map(|k| (0, k)).collect(),
        }
    }
    places
}

fn push_domains(out: &mut String, domains: &[Vec<i32>]) {
    out.push('[');
    for (i, d) in domains.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        for (k, v) in d.iter().enumerate() {
            let _ = write!(out, "{}{v}", if k > 0 { "," } else { "" });
        }
        out.push(']');
    }
    out.push(']');
}

/// Text inside a JSON string inside a `<script>`: no quote, backslash or `<` unescaped.
fn js_text(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// `domain` after the decision `op value` (what the grid shows when the decision fails before
/// propagation reaches a fixpoint).
fn apply_decision(domain: &[i32], op: DecisionOp, value: i32) -> Vec<i32> {
    domain
        .iter()
        .copied()
        .filter(|&v| match op {
            DecisionOp::Eq => v == value,
            DecisionOp::Ne => v != value,
            DecisionOp::Le => v <= value,
            DecisionOp::Gt => v > value,
        })
        .collect()
}

fn html_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl SearchListener for Recorder {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        if let SearchEvent::Failure { propagator, .. } = event {
            // Before `flush`: the failed decision's frame takes the failure's domains.
            self.push_failure(*propagator);
            return;
        }
        self.flush();
        let frame = match event {
            SearchEvent::Branch {
                decision, depth, ..
            } => {
                let cell = self
                    .naming
                    .names
                    .iter()
                    .position(|(x, _)| *x == decision.var);
                let name = cell.map_or_else(
                    || format!("x{}", decision.var.0),
                    |c| self.naming.names[c].1.clone(),
                );
                self.decided = Some((cell, **decision));
                let text = format!(
                    "{name} {} {}",
                    decision.op.symbol(),
                    self.naming.show_value(decision.value)
                );
                self.depth = *depth;
                self.path.truncate(*depth);
                self.path.push((text.clone(), cell));
                Frame {
                    kind: "branch",
                    text,
                    domains: Vec::new(),
                    cell,
                    marks: Vec::new(),
                }
            }
            SearchEvent::Nogood {
                atoms,
                lbd,
                backjump,
            } => {
                self.push_nogood(atoms, *lbd, *backjump);
                return;
            }
            SearchEvent::Backjump { from, to } => self.backjump_frame(*from, *to),
            SearchEvent::Failure { .. } => return, // handled above
            SearchEvent::Solution { number, .. } => {
                self.push(Frame {
                    kind: "solution",
                    text: format!("solution {number}"),
                    domains: self.current.clone(),
                    cell: None,
                    marks: Vec::new(),
                });
                return;
            }
            SearchEvent::Restart { number, .. } => {
                self.depth = 0;
                self.path.truncate(1);
                self.fixpoints.truncate(1);
                Frame {
                    kind: "restart",
                    text: format!("restart {number}"),
                    domains: Vec::new(),
                    cell: None,
                    marks: Vec::new(),
                }
            }
        };
        self.pending = Some(frame);
    }

    fn on_fixpoint(&mut self, model: &Model) {
        self.current = self
            .naming
            .names
            .iter()
            .map(|(x, _)| model.domain(*x).iter().collect())
            .collect();
        // The path's fixpoints, for a backjump (the root's too: a restart keeps it).
        self.fixpoints.truncate(self.depth);
        self.fixpoints.push(self.current.clone());
        if self.path.is_empty() {
            self.path.push((String::new(), None));
        }
        if self.pending.is_none() && self.head.is_empty() && self.tail.is_empty() {
            // The root's fixpoint: the first frame, and the reference for "nothing known".
            self.initial = self.current.clone();
            self.pending = Some(Frame {
                kind: "root",
                text: "propagation at the root".to_string(),
                domains: Vec::new(),
                cell: None,
                marks: Vec::new(),
            });
        }
        // What the step's propagation removed, by propagator (when the recorder is on).
        if let (Some(frame), Some(summary)) = (
            self.pending.as_mut(),
            crate::explain::removal_summary(model),
        ) {
            frame.text = format!("{} — {summary}", frame.text);
        }
        self.flush();
    }

    fn name_variables(&mut self, naming: &Naming) {
        self.naming = naming.clone();
    }
}

/// The page: the frames as data, a small player, no external resource.
const PAGE: &str = r##"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{font-family:sans-serif;background:#f4f4f4;margin:16px;color:#222}
#main{display:flex;gap:24px;align-items:flex-start}
#grid{display:grid;gap:1px;background:#444;padding:2px}
#grid.graph{display:block;position:relative;background:none;padding:0}
#grid.graph svg{position:absolute;left:0;top:0}
.cell{width:var(--s);height:var(--s);box-sizing:border-box;background:#fff;display:flex;align-items:center;
 justify-content:center;flex-wrap:wrap;font-size:11px;color:#555;text-align:center;overflow:hidden}
#grid.graph .cell{position:absolute;border-radius:50%;border:2px solid #444}
.cell.fixed{font-size:calc(var(--s) * 0.42);color:#000;font-weight:bold}
.cell.unknown{background:#222}
.cell.clue{background:#bbb;color:#000;font-size:11px;font-weight:bold;white-space:pre-line;line-height:1.1}
.cell.changed{outline:2px dashed #e67e22;outline-offset:-5px}
.cell.decided{outline:3px solid #2a6fd6;outline-offset:-3px}
.failure .cell.decided{outline-color:#c22}
.cell.marked{outline:3px solid #8e44ad;outline-offset:-3px}
#legend{font-size:13px;color:#333;margin-top:12px;border-top:1px solid #ccc;padding-top:6px}
#legend div{display:flex;align-items:center;gap:6px;margin:3px 0}
#legend .cell{--s:22px;flex:none;border:1px solid #444;width:auto;min-width:22px;padding:0 3px}
#side{min-width:280px}
#step{font-size:18px;margin:8px 0}
.failure #step{color:#c22}.solution #step{color:#282}.nogood #step,.backjump #step{color:#8e44ad}
button{font-size:16px;margin:2px}
#note{color:#666;font-size:13px}
</style></head><body>
<h2>__TITLE__</h2>
<div id="main"><div id="grid"></div>
<div id="side"><div id="step"></div>
<div><button id="back">&#9664;</button><button id="play">play</button><button id="fwd">&#9654;</button>
speed <input id="speed" type="range" min="1" max="60" value="8"></div>
<div><input id="slider" type="range" min="0" value="0" style="width:260px"> <span id="where"></span></div>
<p id="note"></p><div id="legend"><b>Legend</b></div></div></div>
<script>
const DATA=__DATA__;
const grid=document.getElementById('grid');
const rows=1+Math.max(0,...DATA.places.map(p=>p[0]),...DATA.clues.map(p=>p[0]));
const cols=1+Math.max(0,...DATA.places.map(p=>p[1]),...DATA.clues.map(p=>p[1]));
// Cells shrink for large grids, down to 22 pixels.
const S=DATA.edges.length?40:Math.max(22,Math.min(52,Math.floor(640/Math.max(rows,cols))));
grid.style.setProperty('--s',S+'px');
let cellOf=[];
if(DATA.edges.length){
 // A graph: the variables on a circle, the edges as lines beneath them.
 const n=DATA.names.length,R=Math.max(120,n*9),W=2*R+S+8;
 grid.className='graph';grid.style.width=W+'px';grid.style.height=W+'px';
 const at=i=>[W/2+R*Math.cos(2*Math.PI*i/n-Math.PI/2),W/2+R*Math.sin(2*Math.PI*i/n-Math.PI/2)];
 // Parsed as HTML, <svg> is an SVG element without naming its namespace.
 grid.innerHTML='<svg width="'+W+'" height="'+W+'">'+DATA.edges.map(([a,b])=>{const p=at(a),q=at(b);
  return '<line x1="'+p[0]+'" y1="'+p[1]+'" x2="'+q[0]+'" y2="'+q[1]+'" stroke="#888"></line>';}).join('')+'</svg>';
 for(let i=0;i<n;i++){const d=document.createElement('div'),p=at(i);d.className='cell unknown';
  d.style.left=(p[0]-S/2)+'px';d.style.top=(p[1]-S/2)+'px';grid.appendChild(d);cellOf.push(d);}
}else{
 grid.style.gridTemplateColumns='repeat('+cols+','+S+'px)';
 const cells=[];
 for(let r=0;r<rows;r++)for(let c=0;c<cols;c++){const d=document.createElement('div');d.className='cell unknown';d.style.visibility='hidden';grid.appendChild(d);cells.push(d);}
 cellOf=DATA.places.map(p=>cells[p[0]*cols+p[1]]);
 DATA.clues.forEach(([r,c,t])=>{const d=cells[r*cols+c];d.className='cell clue';d.style.visibility='visible';d.textContent=t;});
 // Thick borders between regions, in a colour that shows on dark (unknown) cells too.
 const BORDER='#5b8fd6';
 if(DATA.regions.length){const region=new Map();DATA.places.forEach((p,i)=>region.set(p[0]*cols+p[1],DATA.regions[i]));
  DATA.places.forEach((p,i)=>{const d=cellOf[i],g=DATA.regions[i],k=p[0]*cols+p[1];
   if(p[1]+1<cols&&region.has(k+1)&&region.get(k+1)!==g)d.style.borderRight='3px solid '+BORDER;
   if(region.has(k+cols)&&region.get(k+cols)!==g)d.style.borderBottom='3px solid '+BORDER;
   if(p[1]>0&&region.has(k-1)&&region.get(k-1)!==g)d.style.borderLeft='3px solid '+BORDER;
   if(region.has(k-cols)&&region.get(k-cols)!==g)d.style.borderTop='3px solid '+BORDER;});}
}
cellOf.forEach((d,i)=>{d.style.visibility='visible';d.title=DATA.names[i];});
const ALL=Object.keys(DATA.labels).length;
const label=v=>DATA.labels[v]!==undefined?DATA.labels[v]:String(v);
// Cell i's word for value v: its own when the puzzle gives one (a tile's shape), else the value's.
const word=(i,v)=>DATA.cellWords.length&&DATA.cellWords[i][v]!==undefined?DATA.cellWords[i][v]:label(v);
const slider=document.getElementById('slider');slider.max=DATA.frames.length-1;
let at=0,timer=null;
function same(a,b){return a&&b&&a.length===b.length&&a.every((v,i)=>v===b[i]);}
function show(k){
 at=Math.max(0,Math.min(DATA.frames.length-1,k));const f=DATA.frames[at];const prev=at>0?DATA.frames[at-1]:null;
 f.domains.forEach((d,i)=>{const e=cellOf[i];let cls='cell';
  e.style.fontSize='';
  e.style.background='';
  e.style.fontFamily='';
  if(d.length===1){cls+=' fixed v-'+label(d[0]);const w=word(i,d[0]);e.textContent=w;if(w.length>2)e.style.fontSize='13px';
   // A box-drawing tile fills its cell, so that neighbouring pipes join.
   if(/^[\u2500-\u257f]$/.test(w)){e.style.fontSize=(1.2*S)+'px';e.style.fontFamily='monospace';}
   if(DATA.colours[d[0]]!==undefined)e.style.background=DATA.colours[d[0]];}
  else if(d.length===ALL){cls+=' unknown';e.textContent='';}
  else{e.textContent=d.map(v=>word(i,v)).join(' ');}
  if(prev&&prev.domains.length&&!same(d,prev.domains[i]))cls+=' changed';
  if(i===f.cell)cls+=' decided';
  if((f.marks||[]).includes(i))cls+=' marked';
  e.className=cls;e.dataset.values=d.map(v=>word(i,v)).join(' ');});
 document.body.className=f.kind;
 document.getElementById('step').textContent=f.text;
 document.getElementById('where').textContent='step '+(at+1)+' of '+DATA.frames.length;
 slider.value=at;
 document.body.dataset.frame=at;document.body.dataset.kind=f.kind;}
function play(){if(timer){clearInterval(timer);timer=null;document.getElementById('play').textContent='play';return;}
 document.getElementById('play').textContent='pause';
 timer=setInterval(()=>{if(at>=DATA.frames.length-1){play();return;}show(at+1);},1000/document.getElementById('speed').value);}
document.getElementById('back').onclick=()=>show(at-1);
document.getElementById('fwd').onclick=()=>show(at+1);
document.getElementById('play').onclick=play;
document.getElementById('speed').onchange=()=>{if(timer){play();play();}};
slider.oninput=()=>show(+slider.value);
document.getElementById('note').textContent=DATA.skipped>0?
 ('A long search: '+DATA.skipped+' steps after step '+DATA.skipAfter+' are skipped; the first and the last steps are shown.'):'Every step of the search is shown.';
// The legend: what each look of a cell means, for this puzzle's picture.
(function legend(){const box=document.getElementById('legend');
 const item=(cls,text,inner,style)=>{const row=document.createElement('div'),c=document.createElement('span');
  c.className='cell '+cls;c.textContent=inner||'';if(style)c.setAttribute('style',style);
  const t=document.createElement('span');t.textContent=text;row.append(c,t);box.appendChild(row);};
 const vs=Object.keys(DATA.labels),v0=vs.length?label(vs[0]):'1',v1=vs.length>1?label(vs[1]):'2';
 item('fixed','large: the one value left (fixed)',v0,'font-size:13px');
 item('',"small: the values still possible",v0+' '+v1,'font-size:9px');
 item('unknown','dark: nothing known yet (every value possible)');
 item('changed','dashed orange: changed at this step');
 item('decided','blue outline: the cell of this step\'s decision',null,'outline-color:#2a6fd6');
 item('decided','red outline: a decision that failed',null,'outline-color:#c22');
 if(DATA.frames.some(f=>f.marks))item('marked','purple outline: a cell of the nogood learned, or of a decision a backjump undid');
 if(DATA.clues.length)item('clue','grey: a clue of the puzzle');
 if(DATA.regions.length)item('','thick blue border: between two regions',null,'border-right:3px solid #5b8fd6');
 if(DATA.edges.length)item('','a line: an edge of the graph',null,'border-radius:50%');
 Object.entries(DATA.colours).forEach(([v,c])=>item('fixed','colour of '+label(v),label(v),'font-size:11px;background:'+c));
})();
const h=location.hash.slice(1);
// #last: the last frame; #N: frame N; #play: play from the start at full speed.
show(h==='last'?DATA.frames.length-1:(h&&h!=='play'?+h:0));
if(h==='play'){document.getElementById('speed').value=60;play();}
</script></body></html>
"##;
