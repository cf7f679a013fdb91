//! # A small deterministic random number generator (SplitMix64)
//!
//! Random value selection and restarts need randomness that is the same for the same seed
//! (`-r N`) on every machine and every version of every crate, so the engine carries its own
//! ten-line generator instead of depending on one.

/// SplitMix64 (Steele, Lea, Flood 2014): fast, tiny, good enough for search randomisation.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Put `items` in a random order, every order equally likely (Fisher–Yates: from the
    /// last slot down, swap each with a slot at or before it).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn shuffle_reaches_every_order_about_equally_often() {
        // Six orders of three items, 60,000 shuffles: about 10,000 each. A shuffle that
        // never leaves an item where it was (swapping with a slot strictly before it) reaches
        // only two of the six; one biased towards the start skews the counts.
        let mut rng = Rng::new(3);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..60_000 {
            let mut items = [0, 1, 2];
            rng.shuffle(&mut items);
            *counts.entry(items).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 6, "{counts:?}");
        assert!(
            counts.values().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }
}
