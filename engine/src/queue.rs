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
//!
//! A FIFO is a plain vector read from a moving head: pushing appends, taking moves the head,
//! and once the head reaches the end (the FIFO is empty, as it is at the end of every
//! fixpoint) both go back to the start. Cheaper than a ring buffer, which must wrap its
//! indices at every push and pop. The vector is reused from node to node; when it is full
//! with half of it already taken, the rest moves to the front ([`Fifo::make_room`]), so it
//! never holds more than about twice the propagators waiting.

use crate::propagator::{Priority, PRIORITIES};

/// One priority's waiting propagators: `items[head..]`, oldest first.
#[derive(Clone, Debug, Default)]
struct Fifo {
    items: Vec<u32>,
    head: usize,
}

impl Fifo {
    /// The vector is full: if at least half of it has been taken already, move the waiting
    /// items to the front instead of growing. Without it a FIFO that never empties (a long
    /// root fixpoint: a chain of 30,000 `x < y` runs ~10^9 propagators) would keep every push
    /// since the start, gigabytes; with it the vector stays within twice the number of
    /// propagators, and each item is moved at most once per doubling (amortised constant).
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) {
        if self.head > 0 && self.head >= self.items.len() / 2 {
            let _ = self.items.drain(..self.head);
            self.head = 0;
        }
    }
}

/// Propagators waiting to run, by priority, each at most once.
#[derive(Clone, Debug, Default)]
pub(crate) struct PropagationQueue {
    fifos: [Fifo; PRIORITIES],
    queued: Vec<bool>,
    len: usize,
}

impl PropagationQueue {
    /// Make room for propagator ids `0..n`.
    pub(crate) fn resize(&mut self, n: usize) {
        self.queued.resize(n, false);
    }

    /// Add propagator `p` unless it is already waiting.
    #[inline]
    pub(crate) fn push(&mut self, p: u32, priority: Priority) {
        let q = &mut self.queued[p as usize];
        if !*q {
            *q = true;
            let fifo = &mut self.fifos[priority as usize];
            if fifo.items.len() == fifo.items.capacity() {
                fifo.make_room();
            }
            fifo.items.push(p);
            self.len += 1;
        }
    }

    /// Take propagator `p` out of the queue if it is waiting (before it is replaced).
    pub(crate) fn forget(&mut self, p: u32) {
        if !self.queued[p as usize] {
            return;
        }
        self.queued[p as usize] = false;
        self.len -= 1;
        for fifo in self.fifos.iter_mut() {
            let head = fifo.head;
            if let Some(at) = fifo.items[head..].iter().position(|&q| q == p) {
                fifo.items.remove(head + at);
            }
            if fifo.head == fifo.items.len() {
                fifo.items.clear();
                fifo.head = 0;
            }
        }
    }

    /// The next propagator to run: the oldest of the most urgent priority.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        for fifo in self.fifos.iter_mut() {
            if let Some(&p) = fifo.items.get(fifo.head) {
                fifo.head += 1;
                if fifo.head == fifo.items.len() {
                    fifo.items.clear();
                    fifo.head = 0;
                }
                self.queued[p as usize] = false;
                self.len -= 1;
                return Some(p);
            }
        }
        None
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empty the queue, calling `dropped` on each propagator removed.
    #[inline]
    pub(crate) fn clear(&mut self, dropped: impl FnMut(u32)) {
        if self.len != 0 {
            // Not the common case: a search abandons nodes whose queue is already empty
            // (twice per failed node), so only this test is inlined.
            self.drain(dropped);
        }
    }

    fn drain(&mut self, mut dropped: impl FnMut(u32)) {
        for fifo in self.fifos.iter_mut() {
            for &p in &fifo.items[fifo.head..] {
                self.queued[p as usize] = false;
                dropped(p);
            }
            fifo.items.clear();
            fifo.head = 0;
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

    #[test]
    fn a_forgotten_propagator_leaves_the_queue_and_can_come_back_at_another_priority() {
        let mut q = PropagationQueue::default();
        q.resize(4);
        q.push(0, Priority::Medium);
        q.push(3, Priority::Low);
        q.push(1, Priority::Medium);
        q.forget(0);
        q.forget(2); // not waiting: nothing to do
        q.push(0, Priority::High);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![0, 1, 3]);
        assert!(q.is_empty());
    }

    /// A FIFO that never empties (a long fixpoint) stays within twice the propagators.
    #[test]
    fn a_fifo_that_never_empties_stays_small() {
        let mut q = PropagationQueue::default();
        q.resize(8);
        for p in 0..8 {
            q.push(p, Priority::Medium);
        }
        for _ in 0..100_000 {
            let p = q.pop().unwrap();
            q.push(p, Priority::Medium);
        }
        let fifo = &q.fifos[Priority::Medium as usize];
        assert!(fifo.items.capacity() <= 32, "{}", fifo.items.capacity());
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            (0..8).map(|k| (k + 100_000) % 8).collect::<Vec<u32>>()
        );
    }

    /// Against a model (one `VecDeque` per priority): random pushes, pops and clears.
    #[test]
    fn behaves_as_one_fifo_per_priority() {
        use std::collections::VecDeque;
        let priorities = [Priority::High, Priority::Medium, Priority::Low];
        let mut rng = crate::rng::Rng::new(9);
        let mut q = PropagationQueue::default();
        q.resize(6);
        let mut model: [VecDeque<u32>; PRIORITIES] = Default::default();
        for _ in 0..5000 {
            match rng.below(7) {
                0..=2 => {
                    let p = rng.below(6) as u32;
                    // A propagator always has the same priority.
                    let priority = priorities[p as usize % PRIORITIES];
                    q.push(p, priority);
                    if !model.iter().any(|f| f.contains(&p)) {
                        model[priority as usize].push_back(p);
                    }
                }
                3..=5 => {
                    let want = model.iter_mut().find_map(|f| f.pop_front());
                    assert_eq!(q.pop(), want);
                }
                _ => {
                    let mut dropped = Vec::new();
                    q.clear(|p| dropped.push(p));
                    let want: Vec<u32> = model.iter_mut().flat_map(|f| f.drain(..)).collect();
                    assert_eq!(dropped, want);
                }
            }
            assert_eq!(q.is_empty(), model.iter().all(|f| f.is_empty()));
        }
    }
}
