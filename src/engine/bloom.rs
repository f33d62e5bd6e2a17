//! The filter as a whole: a spec and its bits, with the one implementation of ADD and CHECK
//! that the scripts, the REPL, the lessons, the experiment and library users all run.

use crate::engine::filter::{Filter, OutOfMemory};
use crate::engine::scheme::FilterSpec;

/// The two answers a Bloom filter gives. Only NO is certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The key was never added.
    No,
    /// The key was probably added; it may be a false positive.
    Maybe,
}

/// What ADD and CHECK report about each position they visit. A tracer that keeps nothing
/// ([`NoTrace`]) costs nothing: with it CHECK also stops at the first 0 bit.
pub(crate) trait Tracer: Default {
    /// Whether CHECK must visit every position (to report them all) rather than stop at the
    /// first 0.
    const FULL: bool;
    /// Called before a command visits its first position.
    fn start(&mut self);
    /// One position, in hash order, and whether its bit was 1 before the command.
    fn record(&mut self, pos: u64, was_set: bool);
    /// What was recorded since the last `start`; empty for a tracer that keeps nothing.
    fn probe(&self) -> Probe<'_>;
}

/// The positions a command visited, in hash order (they may repeat), and the state of each
/// position's bit before the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Probe<'a> {
    pub positions: &'a [u64],
    pub was_set: &'a [bool],
}

/// A tracer that keeps nothing, for plain scripts.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    const FULL: bool = false;
    #[inline(always)]
    fn start(&mut self) {}
    #[inline(always)]
    fn record(&mut self, _pos: u64, _was_set: bool) {}
    fn probe(&self) -> Probe<'_> {
        Probe::default()
    }
}

/// A tracer that keeps every position and its bit, for commentary and the REPL's notes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trace {
    positions: Vec<u64>,
    was_set: Vec<bool>,
}

impl Tracer for Trace {
    const FULL: bool = true;
    fn start(&mut self) {
        self.positions.clear();
        self.was_set.clear();
    }
    fn record(&mut self, pos: u64, was_set: bool) {
        self.positions.push(pos);
        self.was_set.push(was_set);
    }
    fn probe(&self) -> Probe<'_> {
        Probe {
            positions: &self.positions,
            was_set: &self.was_set,
        }
    }
}

/// A Bloom filter with one of the tutor's hash schemes, for use from Rust code.
///
/// ```
/// use bloom_tutor::{Answer, Bloom, FilterSpec};
/// let mut bloom = Bloom::new(FilterSpec::lesson());
/// bloom.add(b"fig");
/// assert_eq!(bloom.check(b"fig"), Answer::Maybe);
/// assert_eq!(bloom.check(b"plum"), Answer::No);
/// ```
#[derive(Debug, Clone)]
pub struct Bloom {
    spec: FilterSpec,
    filter: Filter,
}

impl Bloom {
    /// An empty filter of the given shape.
    pub fn new(spec: FilterSpec) -> Bloom {
        Bloom {
            spec,
            filter: Filter::new(spec.bits()),
        }
    }

    /// An empty filter of the given shape, or an error when its bits do not fit in memory.
    pub fn try_new(spec: FilterSpec) -> Result<Bloom, OutOfMemory> {
        Ok(Bloom {
            spec,
            filter: Filter::try_new(spec.bits())?,
        })
    }

    /// The filter's shape.
    pub fn spec(&self) -> FilterSpec {
        self.spec
    }

    /// Sets the key's k bits to 1.
    pub fn add(&mut self, key: &[u8]) {
        self.add_each(key, |_, _| {});
    }

    /// Sets the key's bits, telling `visit` each position in hash order and whether its
    /// bit was 1 before. This is the one ADD.
    #[inline(always)]
    pub(crate) fn add_each(&mut self, key: &[u8], mut visit: impl FnMut(u64, bool)) {
        let filter = &mut self.filter;
        self.spec.all_positions(key, |pos| {
            visit(pos, !filter.set(pos));
            true
        });
    }

    /// NO if any of the key's bits is 0, else MAYBE.
    pub fn check(&self, key: &[u8]) -> Answer {
        self.check_traced(key, &mut NoTrace)
    }

    /// CHECK, recording each position it visits in `tracer`. This is the one CHECK.
    #[inline(always)]
    pub(crate) fn check_traced<T: Tracer>(&self, key: &[u8], tracer: &mut T) -> Answer {
        tracer.start();
        let filter = &self.filter;
        let mut all = true;
        self.spec.all_positions(key, |pos| {
            let set = filter.test(pos);
            tracer.record(pos, set);
            all &= set;
            all || T::FULL
        });
        if all { Answer::Maybe } else { Answer::No }
    }

    /// How many of the m bits are 1.
    pub fn bits_set(&self) -> u64 {
        self.filter.count_ones()
    }

    /// Whether bit `pos` is 1; `None` past the last bit.
    pub fn bit(&self, pos: u64) -> Option<bool> {
        (pos < self.spec.bits()).then(|| self.filter.test(pos))
    }

    /// The bits underneath.
    pub(crate) fn filter(&self) -> &Filter {
        &self.filter
    }

    /// Sets every bit back to 0.
    pub fn clear(&mut self) {
        self.filter.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::Scheme;

    #[test]
    fn traced_and_plain_check_agree() {
        for spec in [
            FilterSpec::lesson(),
            FilterSpec::new(Scheme::Djb2Fnv, None, None).unwrap(),
            FilterSpec::new(Scheme::Murmur3, None, None).unwrap(),
        ] {
            let mut bloom = Bloom::new(spec);
            for key in ["fig", "lime", "date", "cat", "dog"] {
                bloom.add(key.as_bytes());
            }
            for key in ["fig", "sun", "plum", "sheep", "x", ""] {
                let mut trace = Trace::default();
                let traced = bloom.check_traced(key.as_bytes(), &mut trace);
                assert_eq!(traced, bloom.check(key.as_bytes()), "{spec} {key}");
                let mut want = Vec::new();
                spec.positions(key.as_bytes(), &mut want);
                assert_eq!(
                    trace.probe().positions,
                    want,
                    "a full trace visits every position"
                );
            }
        }
    }

    #[test]
    fn add_reports_which_bits_were_already_set() {
        let mut bloom = Bloom::new(FilterSpec::lesson());
        let mut seen = Vec::new();
        bloom.add_each(b"fig", |p, was| seen.push((p, was)));
        assert_eq!(seen, [(54, false), (45, false)]);
        seen.clear();
        bloom.add_each(b"fig", |p, was| seen.push((p, was)));
        assert_eq!(seen, [(54, true), (45, true)]);
        assert_eq!(bloom.bits_set(), 2);
        assert_eq!(bloom.bit(54), Some(true));
        assert_eq!(bloom.bit(64), None);
    }
}
