//! # Régin's all-different in one machine word per variable
//!
//! `value_graph.rs` runs Régin's algorithm on an explicit graph: arrays of edges, Tarjan's
//! algorithm with its stacks and indices. That works for any domains, but on a Sudoku unit
//! (9 variables, values 1..9) most of its time goes into bookkeeping for a graph that has
//! at most 81 edges. This file runs *the same algorithm* when every shown value fits in one
//! 64-bit word (span ≤ 64) and there are at most 64 variables, with every set of vertices a
//! `u64` bitmask, so each step of the algorithm is a handful of `AND`/`OR`s:
//!
//! * `dom[i]` — the shown values of variable `i`, bit `k` standing for value `base + k`;
//! * **fixed variables first** (naked singles: forward checking on the masks): a fixed variable's
//!   value leaves every other domain, which may fix more, until nothing changes. What is
//!   left is the set `open` of unfixed variables, and the steps below look at those only —
//!   late in a search, that is most of the work saved;
//! * **matching**: `value_of[i]` and `var_of[k]`, kept between runs as a hint, repaired by
//!   augmenting paths found by breadth-first search where "the values not yet visited that
//!   `i` can take" is `dom[i] & !visited`;
//! * **the graph between variables**: with every variable matched, an alternating path
//!   `j —matched— value_of[j] —unmatched— i` is one step `j → i`, taken when `dom[i]`
//!   holds `value_of[j]`. So `succ[j]` = the variables whose domain holds `j`'s value;
//! * **free values** (no variable matched to them) start the "even alternating paths" of
//!   Régin's paper: every variable reachable from a variable that can take a free value may
//!   give its value away, so its value stays allowed everywhere;
//! * **strongly connected components** of the rest, by the bitset method: the component of
//!   `p` is the set of variables that `p` reaches *and* that reach `p` (two breadth-first
//!   searches on bitmasks, `forward ∩ backward`), removed, repeat.
//!
//! Variable `i` keeps exactly: the free values, the values of the variables reachable from
//! a free value, and the values of its own component (which include its own matched
//! value). That is domain consistency, the same pruning as `value_graph.rs` — the tests run
//! both against brute force and against each other.
//!
//! **Cost** on a 9-cell unit: a few hundred simple instructions and no memory but the
//! struct's own small arrays, a small part of what the general graph costs.

use crate::propagator::{Conflict, Context, PropResult};
use crate::view::View;

/// No variable / no value.
const NONE: u8 = u8::MAX;

/// The state of the word-sized Régin algorithm (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct WordMatching {
    /// The value `base + k` is bit `k`. The matching hint below is reset when it changes.
    base: i64,
    /// For each variable, the value of its own (unshifted) domain that bit 0 stands for:
    /// `base - offset`.
    from: Vec<i32>,
    /// The number of variables (at most 64 for a run to take place).
    n: usize,
    /// Matched value (bit index) of each variable, or `NONE`. A hint from the runs
    /// before: [`WordMatching::repair_matching`] keeps a pair while the value is still in
    /// the domain and no variable before it in the run claimed the same value (the hint of
    /// a variable that was fixed for a while, and so left out of the runs, may be stale).
    value_of: [u8; 64],
    /// Matched variable of each value: meaningful for the values the current run matched.
    /// The last slot (64) takes the writes of the repair's first loop that match nothing.
    var_of: [u8; 65],
    /// Scratch, reused from run to run: the domains as read, as narrowed, and the
    /// alternating graph between the open variables.
    ///
    /// These per-variable arrays have 64 entries whatever `n` is: the loops index them by
    /// bit positions of a `u64` (see [`ones`]), which the compiler then knows are in
    /// range, so the hot loops carry no bounds checks (the figures: `docs/performance/views.md`, "Why the fast lanes look as they do").
    read: [u64; 64],
    dom: [u64; 64],
    succ: [u64; 64],
    pred: [u64; 64],
    /// The domain of the variable matched to value `k`, filled by the repair for the values
    /// it matches, for `one_tight_component`; the last slot as in `var_of`.
    dom_of_value: [u64; 65],
    /// Scratch for the breadth-first search of an augmenting path.
    queue: Vec<u8>,
    came_from: [u8; 64],
}

/// What a run found (the caller falls back to the general graph on `TooWide`).
pub(crate) enum WordRun {
    Done(PropResult),
    TooWide,
}

impl WordMatching {
    pub(crate) fn new(n: usize) -> WordMatching {
        WordMatching {
            base: i64::MIN,
            from: vec![0; n],
            n,
            value_of: [NONE; 64],
            var_of: [NONE; 65],
            read: [0; 64],
            dom: [0; 64],
            succ: [0; 64],
            pred: [0; 64],
            dom_of_value: [0; 65],
            queue: Vec::with_capacity(n.min(64)),
            came_from: [NONE; 64],
        }
    }

    /// Run Régin's algorithm on the shifted views `xᵢ + cᵢ` (scale 1, see
    /// [`View::is_shift`]) if the values they show fit in a word.
    pub(crate) fn run(&mut self, ctx: &mut Context<'_>, views: &[View]) -> WordRun {
        debug_assert!(views.iter().all(|x| x.is_shift()));
        if !self.load(ctx, views) {
            return WordRun::TooWide;
        }
        let result = self.filter();
        // Write back what changed, even after a conflict (the search undoes it anyway).
        for (i, x) in views.iter().enumerate() {
            if self.dom[i] != self.read[i] {
                if let Err(conflict) = ctx.intersect_mask(x.var(), self.from[i], self.dom[i]) {
                    return WordRun::Done(Err(conflict));
                }
            }
        }
        WordRun::Done(result)
    }

    /// The unit's domains, for a caller that reads and writes them itself (`family.rs`):
    /// bitmasks from a common base, one per variable, as many as `new` was given. Fill them,
    /// call [`WordMatching::prune`], read them back.
    pub(crate) fn masks_mut(&mut self) -> &mut [u64] {
        &mut self.dom[..self.n]
    }

    /// Prune the masks of [`WordMatching::masks_mut`] to domain consistency (the matching is
    /// kept as a hint for the next call), when the caller has already removed every fixed
    /// variable's value from the others (naked singles): `open` is the set of variables
    /// with two or more values, the only ones the rest of the algorithm looks at.
    ///
    /// `Ok(false)` when the masks are known to be unchanged (most runs in a search: the
    /// unit is one strongly connected component), so the caller need not read them back.
    pub(crate) fn prune_open(&mut self, open: u64) -> Result<bool, Conflict> {
        debug_assert!(ones(open).all(|i| self.dom[i].count_ones() > 1));
        if open == 0 {
            return Ok(false);
        }
        let (used, union) = self.repair_matching(open)?;
        Ok(self.keep_supported_values(open, used, union))
    }

    /// Read the domains into `read` (and `dom`), as masks from `base`. `false` if they do
    /// not fit in one word.
    fn load(&mut self, ctx: &Context<'_>, views: &[View]) -> bool {
        if views.len() > 64 {
            return false;
        }
        if views.is_empty() {
            return true;
        }
        // Usually the base of the last run still holds (domains only shrink): read every
        // domain from it, and check that no value was left outside the word.
        if self.base != i64::MIN && self.read_from_base(ctx, views) {
            return true;
        }
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for &x in views {
            lo = lo.min(x.min(ctx));
            hi = hi.max(x.max(ctx));
        }
        if hi - lo >= 64 {
            return false;
        }
        self.set_base(lo, views) && self.read_from_base(ctx, views)
    }

    /// Read every domain as a mask from `base`; `false` if one does not fit.
    fn read_from_base(&mut self, ctx: &Context<'_>, views: &[View]) -> bool {
        let domains = ctx.domains();
        let n = views.len();
        let (read, dom, from) = (&mut self.read[..n], &mut self.dom[..n], &self.from[..n]);
        for i in 0..n {
            let d = &domains[views[i].var().index()];
            let mask = d.mask_from(from[i]);
            if mask.count_ones() != d.size() {
                return false;
            }
            read[i] = mask;
            dom[i] = mask;
        }
        true
    }

    /// Make `base` the value of bit 0, and forget the matching (its values were bit
    /// indices from the old base). `false` if some variable's window does not fit an i32.
    fn set_base(&mut self, base: i64, views: &[View]) -> bool {
        self.base = base;
        self.value_of.fill(NONE);
        self.var_of = [NONE; 65];
        for (from, x) in self.from.iter_mut().zip(views) {
            match i32::try_from(base - x.offset() as i64) {
                Ok(f) => *from = f,
                Err(_) => {
                    self.base = i64::MIN;
                    return false;
                }
            }
        }
        true
    }

    /// Prune `dom` to domain consistency.
    fn filter(&mut self) -> PropResult {
        let open = self.remove_fixed_values()?;
        if open == 0 {
            return Ok(());
        }
        let (used, union) = self.repair_matching(open)?;
        self.keep_supported_values(open, used, union);
        Ok(())
    }

    /// Naked singles (forward checking on the masks): the value
    /// of each fixed variable leaves the others. Returns the variables left unfixed.
    fn remove_fixed_values(&mut self) -> Result<u64, Conflict> {
        // The variables read fixed, whose values must differ, hand theirs over first.
        let mut open = 0u64;
        let mut taken = 0u64;
        for i in 0..self.n {
            let d = self.dom[i];
            if d.count_ones() == 1 {
                if taken & d != 0 {
                    return Err(Conflict::new());
                }
                taken |= d;
            } else {
                open |= 1 << i;
            }
        }
        // Forward checking, the rule of `../reference.rs`, on the masks. The variables fixed
        // and waiting hand their values over together, as one set: one scan of the others
        // for all of them, where one at a time would take one scan each (the variables read
        // fixed are most of a unit late in a search). Two of them with one value are a
        // conflict, found when the second is fixed. `unhandled`: the variables that have not
        // handed a value over (the unfixed ones, and those `waiting`).
        let mut unhandled = open;
        let mut waiting = 0u64;
        let mut waiting_values = taken;
        while waiting_values != 0 {
            unhandled &= !std::mem::take(&mut waiting);
            let values = std::mem::take(&mut waiting_values);
            let holders = ones(unhandled).fold(0, |holders, j| {
                holders | (((self.dom[j] & values != 0) as u64) << j)
            });
            for j in ones(holders) {
                let d = self.dom[j % 64] & !values;
                self.dom[j % 64] = d;
                if d == 0 {
                    return Err(Conflict::new());
                }
                if d & (d - 1) == 0 {
                    if d & waiting_values != 0 {
                        return Err(Conflict::new()); // the value of another fixed variable
                    }
                    waiting |= 1 << j;
                    waiting_values |= d;
                }
            }
        }
        let open = unhandled;
        // Enough values for the open variables at all? (The matching would find out too,
        // only later.)
        let values: u64 = ones(open).fold(0, |acc, i| acc | self.dom[i]);
        if values.count_ones() < open.count_ones() {
            return Err(Conflict::new());
        }
        Ok(open)
    }

    /// A matching covering every open variable, repaired from the last run's. Returns the
    /// matched values and the union of the open variables' domains, and leaves
    /// `dom_of_value` filled for the matched values.
    fn repair_matching(&mut self, open: u64) -> Result<(u64, u64), Conflict> {
        // Keep the pairs that are still edges, each value for the first variable that
        // claims it. Whether a pair is kept is data (a removal or a backtrack since the
        // last run may have broken it): computed, not branched on. This loop also gathers
        // what the component check needs, so that it has no loop of its own over `open`
        // (the figures: `docs/performance/views.md`, "Why the fast lanes look as they do").
        let mut used = 0u64;
        let mut union = 0u64;
        let mut unmatched = 0u64;
        for i in ones(open) {
            let d = self.dom[i];
            union |= d;
            let k = self.value_of[i];
            let bit = (1u64 << (k & 63)) & ((k < 64) as u64).wrapping_neg();
            let kept = bit & d & !used;
            used |= kept;
            unmatched |= ((kept == 0) as u64) << i;
            // Written whatever `kept` is, to the last slot when it is nothing (64 trailing
            // zeros): cheaper than a branch the processor cannot guess.
            let k = kept.trailing_zeros() as usize;
            self.var_of[k] = i as u8;
            self.dom_of_value[k] = d;
        }
        for i in ones(unmatched) {
            // The cheap case first: a value nobody holds.
            let free = self.dom[i] & !used;
            let k = if free != 0 {
                used |= free & free.wrapping_neg();
                free.trailing_zeros() as u8
            } else {
                self.augment(i, &mut used).ok_or_else(Conflict::new)?
            };
            self.value_of[i] = k;
            self.var_of[k as usize] = i as u8;
            self.dom_of_value[k as usize] = self.dom[i];
        }
        Ok((used, union))
    }

    /// Find an augmenting path from the unmatched variable `start` to a free value by
    /// breadth-first search; shift the matching along it, leaving `start`'s new value to
    /// the caller. The free value at the end of the path joins `used`. `None` if no path
    /// exists (the variables cannot all be matched).
    fn augment(&mut self, start: usize, used: &mut u64) -> Option<u8> {
        self.queue.clear();
        self.queue.push(start as u8);
        self.came_from.fill(NONE);
        let mut visited = 0u64;
        let mut head = 0;
        while head < self.queue.len() {
            let u = self.queue[head] as usize;
            head += 1;
            let reachable = self.dom[u] & !visited;
            let free = reachable & !*used;
            if free != 0 {
                // Walk back: u takes the free value, the variable u came from takes u's old
                // value, ... up to `start`.
                let mut k = free.trailing_zeros() as u8;
                *used |= 1 << k;
                let mut v = u;
                while v != start {
                    let previous = self.value_of[v];
                    self.value_of[v] = k;
                    self.var_of[k as usize] = v as u8;
                    self.dom_of_value[k as usize] = self.dom[v];
                    k = previous;
                    v = self.came_from[v] as usize;
                }
                return Some(k);
            }
            visited |= reachable;
            for k in ones(reachable) {
                let w = self.var_matched_to(k);
                if self.came_from[w] == NONE && w != start {
                    self.came_from[w] = u as u8;
                    self.queue.push(w as u8);
                }
            }
        }
        None
    }

    /// Remove from each open variable the values outside its component (and outside the
    /// reach of the free values). `false` when nothing was removed, as seen without looking
    /// (one component); `true` when something may have been. `used` and `union` as
    /// [`WordMatching::repair_matching`] returned them.
    fn keep_supported_values(&mut self, open: u64, used: u64, union: u64) -> bool {
        if self.one_tight_component(open, used, union) {
            return false; // every value has a support: nothing to remove
        }
        // The alternating graph between open variables: j → i when dom[i] holds j's value.
        for j in ones(open) {
            self.succ[j] = 0;
        }
        let mut can_take_free = 0u64;
        for i in ones(open) {
            let d = self.dom[i];
            if d & !used != 0 {
                can_take_free |= 1 << i;
            }
            let mut pred = 0u64;
            for k in ones(d & used) {
                let j = self.var_matched_to(k);
                pred |= 1 << j;
                self.succ[j] |= 1 << i;
            }
            self.pred[i] = pred;
        }
        let free_values = union & !used;
        // Reached from a variable that can take a free value: their values may all move.
        let reach_free = reach(&self.succ, can_take_free, open);
        let movable = free_values | self.values_of(reach_free);
        for i in ones(reach_free) {
            self.dom[i] &= movable;
        }
        // The components of the others: forward ∩ backward reach of a pivot.
        let mut rest = open & !reach_free;
        while rest != 0 {
            let pivot = 1 << rest.trailing_zeros();
            let component = reach(&self.succ, pivot, rest) & reach(&self.pred, pivot, rest);
            rest &= !component;
            let values = movable | self.values_of(component);
            for i in ones(component) {
                self.dom[i] &= values;
            }
        }
        true
    }

    /// The common case, cheaply: the open variables take exactly their matched values
    /// between them (no free value) and form **one** strongly connected component, so that
    /// `keep_supported_values` would remove nothing. In a Sudoku search most Régin runs end
    /// this way (fewer than one in ten removes anything).
    ///
    /// Both walks stay in the matched values, without building the graph's edge lists:
    /// the variables a pivot reaches are those matched to a value some reached variable
    /// can take (`var_of[k]` for `k` in the union of their domains); the variables that
    /// reach the pivot are swept in until none can take a value of the set already
    /// reaching it. One component when each walk covers every open variable.
    ///
    /// `used` (the matched values), `union` (the values of the open variables) and
    /// `dom_of_value` come from [`WordMatching::repair_matching`].
    fn one_tight_component(&self, open: u64, used: u64, union: u64) -> bool {
        let pivot = (open.trailing_zeros() & 63) as usize; // `open` is not empty
        if union != used {
            return false; // a free value: the general walk handles it
        }
        // Forward: the values of the variables reached, grown from the pivot's domain, a
        // layer at a time. Within a layer the reads do not wait on each other (value `k`'s
        // variable's domain is read directly, not through `var_of`), so the processor
        // overlaps them. (Taken one value at a time, each step waited on two reads in a
        // row: the figures in `docs/performance/views.md`, "Why the fast lanes look as they do".)
        let mut reached = self.dom[pivot] | 1 << self.value_of[pivot];
        let mut frontier = reached & !(1 << self.value_of[pivot]);
        while frontier != 0 {
            let mut next = 0u64;
            for k in ones(frontier) {
                next |= self.dom_of_value[k];
            }
            frontier = next & !reached;
            reached |= next;
        }
        if reached != used {
            return false;
        }
        // Backward: the variables that reach the pivot, and the values matched to them.
        let mut reaching = 1u64 << pivot;
        let mut reaching_values = 1u64 << self.value_of[pivot];
        loop {
            let before = reaching;
            for i in ones(open & !reaching) {
                // Whether `i` joins is data, as random as the puzzle: computed, not branched
                // on (a mispredicted branch costs more than these few instructions).
                let joins = (self.dom[i] & reaching_values != 0) as u64;
                reaching |= joins << i;
                reaching_values |= joins << (self.value_of[i] & 63);
            }
            if reaching == before {
                return reaching == open;
            }
        }
    }

    /// The variable matched to value `k`, which must have one. (The mask keeps the index
    /// visibly below 64, so that the arrays are read without a bounds check.)
    #[inline(always)]
    fn var_matched_to(&self, k: usize) -> usize {
        debug_assert!(self.var_of[k] != NONE);
        (self.var_of[k] & 63) as usize
    }

    /// The matched values of the variables in `vars`.
    fn values_of(&self, vars: u64) -> u64 {
        ones(vars).fold(0, |acc, i| acc | 1 << self.value_of[i])
    }
}

/// The variables reached from `from` by following `edges` (bitmask adjacency), staying
/// within `within`. `from` is included.
fn reach(edges: &[u64; 64], from: u64, within: u64) -> u64 {
    let mut reached = from & within;
    let mut frontier = reached;
    while frontier != 0 {
        let u = (frontier.trailing_zeros() & 63) as usize;
        frontier &= frontier - 1;
        let new = edges[u] & within & !reached;
        reached |= new;
        frontier |= new;
    }
    reached
}

/// The indices of the set bits of `mask`, lowest first.
#[inline(always)]
fn ones(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        // Below 64 (`mask` is not zero); the `& 63` lets the compiler see it.
        let i = (mask.trailing_zeros() & 63) as usize;
        mask &= mask - 1;
        Some(i)
    })
}
