//! The bit array of a Bloom filter: set and test positions, nothing else.

/// The largest number of bits a filter may have (2^32).
pub const MAX_BITS: u64 = 1 << 32;

/// The memory for a filter's bits could not be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The filter's m.
    pub bits: u64,
}

impl std::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "could not get {} bytes of memory for a filter of {} bits",
            self.bits.div_ceil(64) * 8,
            self.bits
        )
    }
}

impl std::error::Error for OutOfMemory {}

/// A fixed-size array of `m` bits, all 0 at the start.
///
/// Bits are packed 64 to a word, bit `i` in word `i / 64` at shift `i % 64`, so the main
/// lesson's 64-bit filter is exactly one machine word. The filter knows nothing about keys
/// or hashes: callers hand it positions in `0..m`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    m: u64,
    words: Vec<u64>,
}

impl Filter {
    /// An empty filter of `m` bits. `m` must be in `1..=MAX_BITS` (checked by the caller,
    /// see [`crate::engine::scheme::FilterSpec`]). Like a `Vec`, it aborts when the memory
    /// cannot be had; [`Filter::try_new`] says so instead.
    pub fn new(m: u64) -> Filter {
        debug_assert!((1..=MAX_BITS).contains(&m));
        Filter {
            m,
            words: vec![0; m.div_ceil(64) as usize],
        }
    }

    /// An empty filter of `m` bits, or an error when the memory for them cannot be had
    /// (a filter of 2^32 bits needs 512 MiB).
    pub fn try_new(m: u64) -> Result<Filter, OutOfMemory> {
        debug_assert!((1..=MAX_BITS).contains(&m));
        let len = m.div_ceil(64) as usize;
        let mut words = Vec::new();
        words
            .try_reserve_exact(len)
            .map_err(|_| OutOfMemory { bits: m })?;
        words.resize(len, 0);
        Ok(Filter { m, words })
    }

    /// The number of bits, m.
    pub fn len(&self) -> u64 {
        self.m
    }

    /// Sets bit `pos` (< m) to 1 and returns whether it was 0 before.
    #[inline(always)]
    pub fn set(&mut self, pos: u64) -> bool {
        let word = &mut self.words[(pos >> 6) as usize];
        let mask = 1u64 << (pos & 63);
        let was_clear = *word & mask == 0;
        *word |= mask;
        was_clear
    }

    /// Whether bit `pos` (< m) is 1.
    #[inline(always)]
    pub fn test(&self, pos: u64) -> bool {
        self.words[(pos >> 6) as usize] & (1u64 << (pos & 63)) != 0
    }

    /// How many bits are 1.
    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Sets every bit back to 0.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// The storage words, bit 0 of the filter in bit 0 of the first word. Bits at and past
    /// `m` in the last word are always 0.
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_filter_is_all_zero() {
        let f = Filter::new(64);
        assert_eq!(f.count_ones(), 0);
        assert!((0..64).all(|p| !f.test(p)));
    }

    #[test]
    fn lesson_filter_is_one_word() {
        assert_eq!(Filter::new(64).words().len(), 1);
        assert_eq!(Filter::new(65).words().len(), 2);
        assert_eq!(Filter::new(1).words().len(), 1);
    }

    #[test]
    fn set_reports_whether_bit_was_new() {
        let mut f = Filter::new(100);
        assert!(f.set(99), "first set of bit 99 should be new");
        assert!(!f.set(99), "second set of bit 99 should not be new");
        assert!(f.test(99));
        assert!(!f.test(98));
        assert_eq!(f.count_ones(), 1);
    }

    #[test]
    fn clear_empties_the_filter() {
        let mut f = Filter::new(16);
        f.set(3);
        f.set(15);
        f.clear();
        assert_eq!(f.count_ones(), 0);
    }
}
