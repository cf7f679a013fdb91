//! Model answer of exercise 2 (see `exercises/src/e02_trail.rs`).

/// `n` reversible integers with levels.
#[derive(Debug)]
pub struct Trail {
    values: Vec<i64>,
    /// `(integer, old value)`, oldest first.
    records: Vec<(usize, i64)>,
    /// Where each open level's records start in `records`.
    level_starts: Vec<usize>,
    /// The level at which each integer was last recorded (`usize::MAX`: never), so that an
    /// integer is recorded once per level.
    recorded_at: Vec<usize>,
}

impl Trail {
    pub fn new(n: usize) -> Trail {
        Trail {
            values: vec![0; n],
            records: Vec::new(),
            level_starts: Vec::new(),
            recorded_at: vec![usize::MAX; n],
        }
    }
    pub fn get(&self, i: usize) -> i64 {
        self.values[i]
    }
    pub fn set(&mut self, i: usize, value: i64) {
        let level = self.level();
        if level > 0 && self.recorded_at[i] != level {
            self.records.push((i, self.values[i]));
            self.recorded_at[i] = level;
        }
        self.values[i] = value;
    }
    pub fn push_level(&mut self) {
        self.level_starts.push(self.records.len());
    }
    pub fn pop_level(&mut self) {
        let start = self
            .level_starts
            .pop()
            .expect("pop_level with no level open");
        while self.records.len() > start {
            let (i, old) = self.records.pop().unwrap();
            self.values[i] = old;
            // Recorded again if changed at the level below (or later at this depth).
            self.recorded_at[i] = usize::MAX;
        }
    }
    pub fn level(&self) -> usize {
        self.level_starts.len()
    }
}
