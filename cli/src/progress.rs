//! # `-v`: how far the search has got, on standard error
//!
//! The progress report is one more listener of the search's events (like the statistics and
//! the trace): it counts nodes, solutions and the best objective, and every so often redraws
//! one line. On a terminal that line is an `indicatif` spinner redrawn in place; when standard
//! error is a file or a pipe, a plain line is written every second instead, so logs get it too.
//! Never on standard output, which belongs to the answers.
//!
//! Looking at the clock costs more than a search node, so the listener looks only every 1024
//! events.

use engine::search::{SearchEvent, SearchListener};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::time::{Duration, Instant};

/// The progress line and what it counts.
pub struct Progress<'a> {
    bar: Option<ProgressBar>,
    /// Plain lines go here when standard error is not a terminal.
    plain: &'a mut dyn Write,
    every: Duration,
    started: Instant,
    last_draw: Instant,
    events: u32,
    /// Counters of the current instance's search.
    nodes: u64,
    solutions: u64,
    best: Option<i64>,
    /// Instances finished, and how many there are.
    pub done: usize,
    pub total: usize,
    /// Solutions found in the instances finished.
    solutions_done: u64,
    nodes_done: u64,
    /// Extra words, e.g. "counting on 2 threads".
    pub note: String,
}

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("nodes", &self.nodes)
            .field("done", &self.done)
            .finish()
    }
}

impl<'a> Progress<'a> {
    pub fn new(terminal: bool, plain: &'a mut dyn Write, total: usize) -> Progress<'a> {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let now = Instant::now();
        Progress {
            every: if terminal {
                Duration::from_millis(150)
            } else {
                Duration::from_secs(1)
            },
            bar,
            plain,
            started: now,
            last_draw: now,
            events: 0,
            nodes: 0,
            solutions: 0,
            best: None,
            done: 0,
            total,
            solutions_done: 0,
            nodes_done: 0,
            note: String::new(),
        }
    }

    /// An instance's search is over.
    pub fn finish_instance(&mut self) {
        self.done += 1;
        self.nodes_done += self.nodes;
        self.solutions_done += self.solutions;
        self.nodes = 0;
        self.solutions = 0;
        self.best = None;
        self.tick();
    }

    /// Record instances solved elsewhere (in parallel), with their nodes and solutions.
    pub fn add_finished(&mut self, instances: usize, nodes: u64, solutions: u64) {
        self.done += instances;
        self.nodes_done += nodes;
        self.solutions_done += solutions;
        self.tick();
    }

    /// Redraw if it is time.
    pub fn tick(&mut self) {
        if self.last_draw.elapsed() >= self.every {
            self.draw();
        }
    }

    fn line(&self) -> String {
        let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
        let nodes = self.nodes_done + self.nodes;
        let mut line = format!(
            "{:.1}s  {} nodes ({:.0}/s)  {} solutions",
            seconds,
            nodes,
            nodes as f64 / seconds,
            self.solutions_done + self.solutions
        );
        if let Some(best) = self.best {
            line.push_str(&format!("  best {best}"));
        }
        if self.total > 1 {
            line.push_str(&format!("  instances {}/{}", self.done, self.total));
        }
        if !self.note.is_empty() {
            line.push_str("  ");
            line.push_str(&self.note);
        }
        line
    }

    pub fn draw(&mut self) {
        self.last_draw = Instant::now();
        let line = self.line();
        match &self.bar {
            Some(bar) => {
                bar.set_message(line);
                bar.tick();
            }
            None => {
                let _ = writeln!(self.plain, "% progress: {line}");
            }
        }
    }

    /// Clear the spinner and leave a last plain line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        let line = self.line();
        let _ = writeln!(self.plain, "% done: {line}");
    }
}

impl SearchListener for Progress<'_> {
    fn on_event(&mut self, event: &SearchEvent<'_>) {
        match event {
            SearchEvent::Branch { .. } => self.nodes += 1,
            SearchEvent::Solution { objective, .. } => {
                self.solutions += 1;
                if objective.is_some() {
                    self.best = *objective;
                }
            }
            _ => {}
        }
        self.events += 1;
        if self.events >= 1024 {
            self.events = 0;
            self.tick();
        }
    }

    /// Parallel counting: the threads' shared counters, polled by the main thread.
    fn on_progress(&mut self, progress: &engine::search::Progress) {
        use std::sync::atomic::Ordering::Relaxed;
        self.nodes = progress.nodes.load(Relaxed);
        self.solutions = progress.solutions.load(Relaxed);
        self.best = progress.best();
        let total = progress.subproblems_total.load(Relaxed);
        if total > 0 {
            let done = progress.subproblems_done.load(Relaxed);
            self.note = format!("subproblems {done}/{total}");
        }
        self.tick();
    }
}
