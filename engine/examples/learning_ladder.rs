//! # The learning ladder: chronological backtracking, backjumping, nogoods
//!
//! Chapter 10 (`docs/10-learning.md`) climbs this ladder on one small puzzle: colour a map
//! with three colours, neighbours different. The map is drawn at random from a seed, so the
//! chapter can show a map where the search thrashes. All three rungs share the search below,
//! forward checking in a fixed order of the regions; they differ only in what they do when
//! every colour of a region has failed:
//!
//! 1. **Chronological backtracking** goes back one region and tries its next colour, even
//!    when that region had nothing to do with the failure. The same dead end is met again
//!    under every colour of every region in between: *thrashing*.
//! 2. **Conflict-directed backjumping** (Prosser, 1993) keeps, for each region, its
//!    *conflict set*: the earlier regions whose colours took its colours away. A failed
//!    subtree answers with the regions to blame, and the search jumps straight back to the
//!    latest of them, skipping every region that played no part.
//! 3. **Nogood recording** (Dechter, 1990; Schiex & Verfaillie, 1994) also writes the
//!    failure down: "these regions with these colours admit no colouring of the rest". The
//!    nogood prunes like a constraint from then on, in every other branch of the tree, so a
//!    failure is never found twice.
//!
//! The fourth rung is the engine's `--learn` (lazy clause generation): the same idea with
//! atoms `[x ≥ v]`, `[x ≠ v]` instead of whole assignments, and a reason for every pruning
//! instead of one conflict set per region.
//!
//! `cargo run --release -p engine --example learning_ladder -- 40 94 7`
//! (regions, borders, seed)

/// A map: `borders[r]` is the set of regions bordering region `r`, as bits.
pub(crate) struct Map {
    pub(crate) borders: Vec<u64>,
}

impl Map {
    /// `regions` (at most 64) with `count` distinct borders drawn from `seed`.
    pub(crate) fn random(regions: usize, count: usize, seed: u64) -> Map {
        assert!(regions <= 64 && count <= regions * (regions - 1) / 2);
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = |below: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % below as u64) as usize
        };
        let mut borders = vec![0u64; regions];
        let mut drawn = 0;
        while drawn < count {
            let (a, b) = (next(regions), next(regions));
            if a != b && borders[a] & (1 << b) == 0 {
                borders[a] |= 1 << b;
                borders[b] |= 1 << a;
                drawn += 1;
            }
        }
        Map { borders }
    }
}

/// What a rung does when every colour of a region has failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rung {
    Chronological,
    Backjumping,
    Nogoods,
}

/// What a search found, and how much it looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// Each region's colour (0, 1 or 2), if the map can be coloured.
    pub(crate) colouring: Option<Vec<u8>>,
    pub(crate) nodes: u64,
    /// Regions skipped over by jumps (0 for chronological backtracking).
    pub(crate) skipped: u64,
    /// The nogoods recorded: (region, colour) pairs that never hold all together.
    pub(crate) nogoods: Vec<Vec<(usize, u8)>>,
}

const COLOURS: u8 = 0b111;

/// The search's state: each region's colours left, its colour once decided, and the set of
/// earlier regions that took colours from it (`blame`, bits), all undone on the way back.
struct Search<'a> {
    map: &'a Map,
    rung: Rung,
    left: Vec<u8>,
    colour: Vec<Option<u8>>,
    blame: Vec<u64>,
    /// Changes to undo: (region, colours left before, blame before).
    undo: Vec<(usize, u8, u64)>,
    /// Recorded nogoods: pairs (region, colour) that never hold all together.
    nogoods: Vec<Vec<(usize, u8)>>,
    nodes: u64,
    skipped: u64,
    /// The colouring, once found.
    found: Vec<u8>,
}

/// The answer to "colour regions `r..`": done, or no colouring, with the earlier regions
/// whose colours are to blame.
enum Outcome {
    Coloured,
    Failed(u64),
}

impl Search<'_> {
    /// Take `colours` from the later region `r` because of the regions `why`; false if `r`
    /// is left with none.
    fn take(&mut self, r: usize, colours: u8, why: u64) -> bool {
        if self.left[r] & colours != 0 {
            self.undo.push((r, self.left[r], self.blame[r]));
            self.left[r] &= !colours;
            self.blame[r] |= why;
        }
        self.left[r] != 0
    }

    /// Forward checking after `r` takes colour `c`: its later neighbours lose `c`, and every
    /// nogood with one pair left undecided loses that pair. The wiped-out region, if any.
    fn forward_check(&mut self, r: usize, c: u8) -> Option<usize> {
        let later = self.map.borders[r] & !((2u64 << r) - 1);
        for n in (0..64).filter(|&n| later & (1 << n) != 0) {
            if !self.take(n, 1 << c, 1 << r) {
                return Some(n);
            }
        }
        for k in 0..self.nogoods.len() {
            let mut open = None;
            let mut holds = true;
            let mut why = 0u64;
            for &(region, colour) in &self.nogoods[k] {
                match self.colour[region] {
                    Some(x) if x == colour => why |= 1 << region,
                    Some(_) => holds = false,
                    None if open.is_none() => open = Some((region, colour)),
                    None => holds = false,
                }
            }
            if let (true, Some((region, colour))) = (holds, open) {
                if why & (1 << r) != 0 && !self.take(region, 1 << colour, why) {
                    return Some(region);
                }
            }
        }
        None
    }

    /// Colour the regions `r..` in order.
    fn colour_from(&mut self, r: usize) -> Outcome {
        if r == self.map.borders.len() {
            self.found = self
                .colour
                .iter()
                .map(|c| c.expect("all coloured"))
                .collect();
            return Outcome::Coloured;
        }
        let mut to_blame = self.blame[r];
        let options = self.left[r];
        for c in (0..3).filter(|&c| options & (1 << c) != 0) {
            self.nodes += 1;
            let mark = self.undo.len();
            self.colour[r] = Some(c);
            let answer = match self.forward_check(r, c) {
                Some(wiped) => Outcome::Failed(self.blame[wiped]),
                None => self.colour_from(r + 1),
            };
            self.colour[r] = None;
            self.undo_to(mark);
            match answer {
                Outcome::Coloured => return Outcome::Coloured,
                Outcome::Failed(why) if why & (1 << r) == 0 && self.rung != Rung::Chronological => {
                    // `r` is not to blame: no other colour of it can help. Jump over it.
                    self.skipped += 1;
                    return Outcome::Failed(why);
                }
                Outcome::Failed(why) => to_blame |= why & !(1 << r),
            }
        }
        self.fail(r, to_blame)
    }

    /// Every colour of `r` failed because of the regions `to_blame`: record the nogood, and
    /// pass the blame up.
    fn fail(&mut self, r: usize, to_blame: u64) -> Outcome {
        if self.rung == Rung::Nogoods && to_blame != 0 {
            let nogood = (0..r)
                .filter(|&q| to_blame & (1 << q) != 0)
                .map(|q| (q, self.colour[q].expect("blamed regions are coloured")))
                .collect();
            self.nogoods.push(nogood);
        }
        Outcome::Failed(to_blame)
    }

    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (r, left, blame) = self.undo.pop().expect("above the mark");
            self.left[r] = left;
            self.blame[r] = blame;
        }
    }
}

/// Colour `map` with three colours, as `rung` says.
pub(crate) fn colour(map: &Map, rung: Rung) -> Report {
    let regions = map.borders.len();
    let mut search = Search {
        map,
        rung,
        left: vec![COLOURS; regions],
        colour: vec![None; regions],
        blame: vec![0; regions],
        undo: Vec::new(),
        nogoods: Vec::new(),
        nodes: 0,
        skipped: 0,
        found: Vec::new(),
    };
    let colourable = matches!(search.colour_from(0), Outcome::Coloured);
    Report {
        colouring: colourable.then_some(search.found),
        nodes: search.nodes,
        skipped: search.skipped,
        nogoods: search.nogoods,
    }
}

/// Rung 4: the engine on the same map, regions in order, smallest colour first, with or
/// without lazy clause generation (`SearchConfig::learn`). Whether the map can be coloured,
/// and the engine's nodes and nogoods.
pub(crate) fn engine_colour(map: &Map, learn: bool) -> (bool, u64, u64) {
    use engine::{Model, SearchConfig, ValSelect, VarSelect};
    let n = map.borders.len();
    let mut model = Model::new();
    let regions = model.new_vars(n, 0, 2);
    for a in 0..n {
        for b in a + 1..n {
            if map.borders[a] & (1 << b) != 0 {
                model.not_equal(regions[a], regions[b]);
            }
        }
    }
    let config = SearchConfig {
        var_select: VarSelect::InputOrder,
        val_select: ValSelect::Min,
        learn,
        ..SearchConfig::default()
    };
    let outcome = engine::solve(&mut model, &config);
    (
        outcome.best.is_some(),
        outcome.stats.nodes,
        outcome.stats.nogoods,
    )
}

#[allow(dead_code)]
fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (regions, borders, seed) = (arg(1, 40) as usize, arg(2, 94) as usize, arg(3, 7));
    let map = Map::random(regions, borders, seed);
    println!("a map of {regions} regions and {borders} borders (seed {seed}), three colours:");
    for (rung, name) in [
        (Rung::Chronological, "chronological backtracking"),
        (Rung::Backjumping, "conflict-directed backjumping"),
        (Rung::Nogoods, "backjumping and nogoods"),
    ] {
        let r = colour(&map, rung);
        println!(
            "{name:>30}: {}, {} nodes, {} regions jumped over, {} nogoods",
            if r.colouring.is_some() {
                "coloured"
            } else {
                "no colouring"
            },
            r.nodes,
            r.skipped,
            r.nogoods.len()
        );
    }
    for (learn, name) in [(false, "the engine"), (true, "the engine, --learn")] {
        let (colourable, nodes, nogoods) = engine_colour(&map, learn);
        println!(
            "{name:>30}: {}, {nodes} nodes, {nogoods} nogoods",
            if colourable {
                "coloured"
            } else {
                "no colouring"
            },
        );
    }
}
