//! The counters of a counting filter: one small counter per position instead of one bit, so a
//! key can be taken out again. A full counter stays full.

use std::fmt;
use std::num::NonZeroU8;

use crate::engine::filter::OutOfMemory;
use crate::engine::scheme::SpecError;

/// How many bits each counter of a counting filter has: 1 to 8. A counter holds 0 to
/// 2^B − 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CounterBits(NonZeroU8);

impl CounterBits {
    /// The width most counting filters use, and `--counting`'s default: 4 bits, 0 to 15.
    pub const DEFAULT: CounterBits = CounterBits(NonZeroU8::new(4).unwrap());
    /// The widest counter the tutor keeps.
    pub const MAX: u8 = 8;

    /// `bits` as a counter width, if it is 1 to 8.
    pub fn new(bits: u64) -> Result<CounterBits, SpecError> {
        u8::try_from(bits)
            .ok()
            .filter(|&b| b <= Self::MAX)
            .and_then(NonZeroU8::new)
            .map(CounterBits)
            .ok_or(SpecError::CounterBits(bits))
    }

    /// The number of bits, 1 to 8.
    pub fn get(self) -> u8 {
        self.0.get()
    }

    /// The largest count a counter holds: 2^B − 1. A counter there is saturated.
    pub fn max(self) -> u8 {
        ((1u16 << self.get()) - 1) as u8
    }
}

impl fmt::Display for CounterBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-bit", self.get())
    }
}

/// m counters of one width, all 0 at the start. Each is kept in a byte; a packed counting
/// filter needs only B bits for each (see `STATS`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counters {
    width: CounterBits,
    counts: Vec<u8>,
}

impl Counters {
    /// m counters of `width` bits, all 0. `m` is in `1..=MAX_BITS` (checked by the spec).
    pub fn new(m: u64, width: CounterBits) -> Counters {
        Counters {
            width,
            counts: vec![0; m as usize],
        }
    }

    /// [`Counters::new`], or an error when the memory for them cannot be had.
    pub fn try_new(m: u64, width: CounterBits) -> Result<Counters, OutOfMemory> {
        let mut counts = Vec::new();
        counts
            .try_reserve_exact(m as usize)
            .map_err(|_| OutOfMemory { bytes: m, bits: m })?;
        counts.resize(m as usize, 0);
        Ok(Counters { width, counts })
    }

    /// Counters from their values, if each fits in `width` bits.
    pub(crate) fn from_counts(width: CounterBits, counts: Vec<u8>) -> Option<Counters> {
        counts
            .iter()
            .all(|&c| c <= width.max())
            .then_some(Counters { width, counts })
    }

    pub fn width(&self) -> CounterBits {
        self.width
    }

    /// The number of counters, m.
    pub fn len(&self) -> u64 {
        self.counts.len() as u64
    }

    /// Counter `pos` (< m).
    #[inline(always)]
    pub fn get(&self, pos: u64) -> u8 {
        self.counts[pos as usize]
    }

    /// Adds 1 to counter `pos` (< m) unless it is full, and returns its value before.
    #[inline(always)]
    pub fn increment(&mut self, pos: u64) -> u8 {
        let max = self.width.max();
        let c = &mut self.counts[pos as usize];
        let before = *c;
        if before < max {
            *c = before + 1;
        }
        before
    }

    /// Subtracts 1 from counter `pos` (< m) unless it is full (a saturated counter no longer
    /// knows how many keys it counts) or 0, and returns its value before.
    pub fn decrement(&mut self, pos: u64) -> u8 {
        let max = self.width.max();
        let c = &mut self.counts[pos as usize];
        let before = *c;
        if before != max && before > 0 {
            *c = before - 1;
        }
        before
    }

    /// Every counter, position 0 first.
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// Every counter, for merging another filter's into them.
    pub(crate) fn counts_mut(&mut self) -> &mut [u8] {
        &mut self.counts
    }

    /// How many counters are full.
    pub fn saturated(&self) -> u64 {
        let max = self.width.max();
        self.counts.iter().filter(|&&c| c == max).count() as u64
    }

    /// Sets every counter back to 0.
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_one_to_eight_bits() {
        assert_eq!(CounterBits::new(0), Err(SpecError::CounterBits(0)));
        assert_eq!(CounterBits::new(9), Err(SpecError::CounterBits(9)));
        assert_eq!(CounterBits::new(300), Err(SpecError::CounterBits(300)));
        assert_eq!(CounterBits::new(1).map(CounterBits::max), Ok(1));
        assert_eq!(CounterBits::new(4).map(CounterBits::max), Ok(15));
        assert_eq!(CounterBits::new(8).map(CounterBits::max), Ok(255));
        assert_eq!(CounterBits::DEFAULT.get(), 4);
    }

    #[test]
    fn a_full_counter_stays_full() {
        let mut c = Counters::new(4, CounterBits::new(2).unwrap());
        let befores: Vec<u8> = (0..5).map(|_| c.increment(1)).collect();
        assert_eq!(befores, [0, 1, 2, 3, 3], "the counter stops at 3");
        assert_eq!(c.saturated(), 1);
        assert_eq!(c.decrement(1), 3);
        assert_eq!(c.get(1), 3, "a saturated counter never comes down");
        assert_eq!(c.decrement(0), 0);
        assert_eq!(c.get(0), 0, "a counter at 0 stays 0");
    }

    #[test]
    fn counts_must_fit_their_width() {
        let w = CounterBits::new(3).unwrap();
        assert!(Counters::from_counts(w, vec![0, 7, 1]).is_some());
        assert!(Counters::from_counts(w, vec![8]).is_none());
    }
}
