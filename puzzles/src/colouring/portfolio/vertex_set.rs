//! # A changing set of vertices: insert, remove, count and pick at random in constant time
//!
//! Both local searches of this folder keep such a set and touch it at every move: TabuCol
//! (`tabucol.rs`) the vertices in conflict, the set cover (`set_cover.rs`) the vertices no
//! chosen set covers. They walk it, count it and pick a member at random. A `Vec<bool>` of
//! members makes the walk and the pick cost `n`; a hash set makes every step slower.
//!
//! The *sparse set* (Briggs and Torczon, "An efficient representation for sparse sets",
//! 1993) does all of it in O(1): the members in a dense list, and each vertex's index in
//! that list (or [`ABSENT`]). A removal moves the last member into the hole, so the list
//! stays dense and the order of the other members is kept. CP solvers use the same structure
//! for domains and for the set of unfixed variables (MiniCP's `StateSparseSet`).
//!
//! (The clique searches need intersections instead: the bitset of `vertex_bits.rs`.)

/// No index: the vertex is not a member.
const ABSENT: usize = usize::MAX;

/// A subset of the vertices `0..n` (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct VertexSet {
    /// The members, in no particular order.
    members: Vec<usize>,
    /// `index[v]`: the position of `v` in `members`, or [`ABSENT`].
    index: Vec<usize>,
}

impl VertexSet {
    /// No vertex of `0..n`.
    pub(crate) fn empty(n: usize) -> VertexSet {
        VertexSet {
            members: Vec::with_capacity(n),
            index: vec![ABSENT; n],
        }
    }

    /// Every vertex of `0..n`, in increasing order.
    pub(crate) fn full(n: usize) -> VertexSet {
        VertexSet {
            members: (0..n).collect(),
            index: (0..n).collect(),
        }
    }

    /// Make `v` a member (`member`) or not; nothing changes if it already is (is not).
    pub(crate) fn set(&mut self, v: usize, member: bool) {
        let present = self.index[v] != ABSENT;
        if member && !present {
            self.index[v] = self.members.len();
            self.members.push(v);
        } else if !member && present {
            let i = self.index[v];
            let last = *self.members.last().expect("v is a member");
            self.members.swap_remove(i);
            if last != v {
                self.index[last] = i;
            }
            self.index[v] = ABSENT;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    /// The members, in the list's order (which a random pick by index uses).
    pub(crate) fn as_slice(&self) -> &[usize] {
        &self.members
    }
}

#[cfg(test)]
mod tests {
    use super::{VertexSet, ABSENT};
    use engine::rng::Rng;

    /// The set and its index agree, and hold exactly the vertices `expected` marks.
    fn assert_consistent(set: &VertexSet, expected: &[bool]) {
        let mut seen = vec![false; expected.len()];
        for (i, &v) in set.as_slice().iter().enumerate() {
            assert_eq!(set.index[v], i, "the index of member {v}");
            assert!(!seen[v], "{v} listed twice");
            seen[v] = true;
        }
        assert_eq!(seen, expected);
        for (v, &member) in expected.iter().enumerate() {
            assert_eq!(set.index[v] == ABSENT, !member, "the index of {v}");
        }
        assert_eq!(set.len(), expected.iter().filter(|&&m| m).count());
    }

    #[test]
    fn random_inserts_and_removals_keep_list_and_index_in_step() {
        let mut rng = Rng::new(3);
        for round in 0..200 {
            let n = 1 + rng.below(40) as usize;
            let (mut set, mut expected) = if round % 2 == 0 {
                (VertexSet::empty(n), vec![false; n])
            } else {
                (VertexSet::full(n), vec![true; n])
            };
            assert_consistent(&set, &expected);
            for _ in 0..100 {
                let v = rng.below(n as u64) as usize;
                let member = rng.below(2) == 0;
                set.set(v, member);
                expected[v] = member;
                assert_consistent(&set, &expected);
            }
        }
    }

    #[test]
    fn a_removal_moves_only_the_last_member() {
        let mut set = VertexSet::full(5);
        set.set(1, false);
        assert_eq!(set.as_slice(), &[0, 4, 2, 3]);
        set.set(3, false); // the last one: nothing moves
        assert_eq!(set.as_slice(), &[0, 4, 2]);
        set.set(3, true);
        set.set(3, true); // already a member: no change
        assert_eq!(set.as_slice(), &[0, 4, 2, 3]);
    }
}
