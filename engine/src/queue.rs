//! # The propagation queue
//!
//! When a domain changes, every propagator watching that variable may be able to prune more.
//! Rather than calling them at once (and recursing without end), the engine puts them in a
//! queue and runs them one at a time until the queue is empty: the **fixpoint**, where no
//! propagator can remove anything more.
//!
//! The queue here has one FIFO per [`Priority`]: cheap propagators (binary relations) are
//! always taken before costly ones (matching-based all-different), so the costly ones run on
//! domains that the cheap ones have already narrowed. A propagator is in the queue at most
//! once (a flag per propagator), however many of its variables changed.

use crate::propagator::{Priority, PRIORITIES};
use std::collections::VecDeque;

/// Propagators waiting to run, by priority, each at most once.
#[derive(Clone, Debug, Default)]
pub struct PropagationQueue {
    fifos: [VecDeque<u32>; PRIORITIES],
    queued: Vec<bool>,
    len: usize,
}

impl PropagationQueue {
    /// Make room for propagator ids `0..n`.
    pub fn resize(&mut self, n: usize) {
        self.queued.resize(n, false);
    }

    /// Add propagator `p` unless it is already waiting.
    #[inline]
    pub fn push(&mut self, p: u32, priority: Priority) {
        let q = &mut self.queued[p as usize];
        if !*q {
            *q = true;
            self.fifos[priority as usize].push_back(p);
            self.len += 1;
        }
    }

    /// The next propagator to run: the oldest of the most urgent priority.
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        for fifo in self.fifos.iter_mut() {
            if let Some(p) = fifo.pop_front() {
                self.queued[p as usize] = false;
                self.len -= 1;
                return Some(p);
            }
        }
        None
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empty the queue, calling `dropped` on each propagator removed.
    pub fn clear(&mut self, mut dropped: impl FnMut(u32)) {
        if self.len == 0 {
            return; // the common case: a search abandons nodes whose queue is already empty
        }
        for fifo in self.fifos.iter_mut() {
            for p in fifo.drain(..) {
                self.queued[p as usize] = false;
                dropped(p);
            }
        }
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_by_priority_then_fifo_and_deduplicates() {
        let mut q = PropagationQueue::default();
        q.resize(4);
        q.push(0, Priority::Low);
        q.push(1, Priority::Medium);
        q.push(2, Priority::High);
        q.push(3, Priority::Medium);
        q.push(1, Priority::Medium);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![2, 1, 3, 0]);
        assert!(q.is_empty());
    }
}
