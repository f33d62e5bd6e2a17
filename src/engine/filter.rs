//! The bit array of a Bloom filter: set and test positions, nothing else.

/// The largest number of bits a filter may have (2^32).
pub const MAX_BITS: u64 = 1 << 32;

/// The memory for a filter's bits could not be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The bytes asked for.
    pub bytes: u64,
    /// The filter's m.
    pub bits: u64,
}

impl std::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "could not get {} bytes of memory for a filter of {} bits",
            self.bytes, self.bits
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
        words.try_reserve_exact(len).map_err(|_| OutOfMemory {
            bytes: m.div_ceil(64) * 8,
            bits: m,
        })?;
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

    /// Sets bit `pos` (< m) to 0: only a counting filter does, when a counter reaches 0.
    #[inline]
    pub fn unset(&mut self, pos: u64) {
        self.words[(pos >> 6) as usize] &= !(1u64 << (pos & 63));
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

    /// A filter of `m` bits from its storage words, if there are exactly enough of them and
    /// every bit past `m` is 0.
    pub(crate) fn from_words(m: u64, words: Vec<u64>) -> Option<Filter> {
        let right_length = words.len() as u64 == m.div_ceil(64);
        let tail_clear = match (m % 64, words.last()) {
            (0, _) | (_, None) => true,
            (used, Some(&last)) => last >> used == 0,
        };
        (right_length && tail_clear && (1..=MAX_BITS).contains(&m)).then_some(Filter { m, words })
    }

    /// Sets each bit that is 1 in `other` (of the same m): the union of the two bit sets.
    pub(crate) fn or_with(&mut self, other: &Filter) {
        debug_assert_eq!(self.m, other.m);
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    /// Keeps only the bits that are 1 in `other` too (of the same m): the intersection.
    pub(crate) fn and_with(&mut self, other: &Filter) {
        debug_assert_eq!(self.m, other.m);
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w &= o;
        }
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
    fn unset_clears_one_bit() {
        let mut f = Filter::new(70);
        f.set(3);
        f.set(69);
        f.unset(69);
        assert!(f.test(3) && !f.test(69));
        assert_eq!(f.count_ones(), 1);
    }

    #[test]
    fn from_words_checks_length_and_tail() {
        assert!(Filter::from_words(70, vec![0, 0b11_1111]).is_some());
        assert!(
            Filter::from_words(70, vec![0, 1 << 6]).is_none(),
            "bit 70 is past m"
        );
        assert!(Filter::from_words(70, vec![0]).is_none(), "one word short");
        assert!(Filter::from_words(64, vec![u64::MAX]).is_some());
        assert!(Filter::from_words(0, vec![]).is_none());
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
