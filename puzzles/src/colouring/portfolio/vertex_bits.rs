//! # A set of vertices as bits: one word per 64 vertices
//!
//! The clique searches of this folder (the maximum clique of `portfolio.rs`, the clique
//! cover of `clique_cover.rs`) intersect neighbourhoods again and again: "the candidates that
//! are also neighbours of `v`". Kept as bits, an intersection is one AND per 64 vertices and
//! a count one `count_ones` per word, which is what makes MCQ-style clique search fast
//! (Tomita & Seki 2003 use the same representation). The local searches need something else
//! (insert, remove and pick at random in constant time): the sparse set of `vertex_set.rs`.

/// A subset of the vertices `0..n`, bit `v % 64` of word `v / 64` set for each member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VertexBits(Vec<u64>);

impl VertexBits {
    /// No vertex of `0..n`.
    #[inline]
    pub(crate) fn new(n: usize) -> VertexBits {
        VertexBits(vec![0; n.div_ceil(64)])
    }

    /// The words it takes (one per 64 vertices): the cost of one pass over the set, which
    /// the clique search counts against its work budget.
    #[inline]
    pub(crate) fn words(&self) -> usize {
        self.0.len()
    }

    #[inline]
    pub(crate) fn contains(&self, v: usize) -> bool {
        self.0[v / 64] >> (v % 64) & 1 == 1
    }

    #[inline]
    pub(crate) fn insert(&mut self, v: usize) {
        self.0[v / 64] |= 1 << (v % 64);
    }

    #[inline]
    pub(crate) fn remove(&mut self, v: usize) {
        self.0[v / 64] &= !(1 << (v % 64));
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The smallest member.
    #[inline]
    pub(crate) fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The members of both sets, as a new set.
    #[inline]
    pub(crate) fn and(&self, other: &VertexBits) -> VertexBits {
        VertexBits(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    /// Keep only the members of `other` too.
    #[inline]
    pub(crate) fn intersect(&mut self, other: &VertexBits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }

    /// Remove the members of `other`.
    #[inline]
    pub(crate) fn remove_all(&mut self, other: &VertexBits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
    }

    /// How many vertices both sets hold.
    #[inline]
    pub(crate) fn count_common(&self, other: &VertexBits) -> u32 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & b).count_ones())
            .sum()
    }

    /// Is every member also a member of `other`?
    #[inline]
    pub(crate) fn is_subset_of(&self, other: &VertexBits) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// The members, smallest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::VertexBits;
    use engine::rng::Rng;
    use std::collections::BTreeSet;

    fn random_pair(rng: &mut Rng, n: usize) -> [(VertexBits, BTreeSet<usize>); 2] {
        std::array::from_fn(|_| {
            let mut bits = VertexBits::new(n);
            let mut set = BTreeSet::new();
            for v in 0..n {
                if rng.below(3) == 0 {
                    bits.insert(v);
                    set.insert(v);
                }
            }
            (bits, set)
        })
    }

    /// Every operation agrees with the same operation on an ordered set, across word
    /// boundaries (sizes up to 200 vertices).
    #[test]
    fn the_bits_agree_with_an_ordered_set() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let n = 1 + rng.below(200) as usize;
            let [(a, sa), (b, sb)] = random_pair(&mut rng, n);
            assert_eq!(
                a.iter().collect::<Vec<_>>(),
                sa.iter().copied().collect::<Vec<_>>()
            );
            assert_eq!(a.first(), sa.first().copied());
            assert_eq!(a.is_empty(), sa.is_empty());
            assert!((0..n).all(|v| a.contains(v) == sa.contains(&v)));
            let both: BTreeSet<usize> = sa.intersection(&sb).copied().collect();
            assert_eq!(a.and(&b).iter().collect::<BTreeSet<_>>(), both);
            assert_eq!(a.count_common(&b) as usize, both.len());
            let mut c = a.clone();
            c.intersect(&b);
            assert_eq!(c, a.and(&b));
            let mut d = a.clone();
            d.remove_all(&b);
            let only_a: BTreeSet<usize> = sa.difference(&sb).copied().collect();
            assert_eq!(d.iter().collect::<BTreeSet<_>>(), only_a);
            assert_eq!(a.is_subset_of(&b), sa.is_subset(&sb));
            assert!(a.and(&b).is_subset_of(&a));
            let v = rng.below(n as u64) as usize;
            let mut e = a.clone();
            e.insert(v);
            assert!(e.contains(v));
            e.remove(v);
            assert!(!e.contains(v));
        }
    }
}
