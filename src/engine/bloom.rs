//! The filter as a whole: a spec and its bits (and, in a counting filter, its counters), with
//! the one implementation of ADD, CHECK and REMOVE that the scripts, the REPL, the lessons,
//! the experiment and library users all run.

use std::fmt;

use crate::engine::counters::Counters;
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

/// What ADD, CHECK and REMOVE report about each position they visit. A tracer that keeps
/// nothing ([`NoTrace`]) costs nothing: with it CHECK also stops at the first 0 bit.
pub(crate) trait Tracer: Default {
    /// Whether CHECK must visit every position (to report them all) rather than stop at the
    /// first 0.
    const FULL: bool;
    /// Called before a command visits its first position.
    fn start(&mut self);
    /// One position, in hash order, and its value before the command: the bit (0 or 1) in a
    /// plain filter, the counter in a counting filter.
    fn record(&mut self, pos: u64, before: u8);
    /// What was recorded since the last `start`; empty for a tracer that keeps nothing.
    fn probe(&self) -> Probe<'_>;
}

/// The positions a command visited, in hash order (they may repeat), and the value at each
/// position before the command: its bit (0 or 1), or its counter in a counting filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Probe<'a> {
    pub positions: &'a [u64],
    pub before: &'a [u8],
}

/// A tracer that keeps nothing, for plain scripts.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    const FULL: bool = false;
    #[inline(always)]
    fn start(&mut self) {}
    #[inline(always)]
    fn record(&mut self, _pos: u64, _before: u8) {}
    fn probe(&self) -> Probe<'_> {
        Probe::default()
    }
}

/// A tracer that keeps every position and its value, for commentary and the REPL's notes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trace {
    positions: Vec<u64>,
    before: Vec<u8>,
}

impl Tracer for Trace {
    const FULL: bool = true;
    fn start(&mut self) {
        self.positions.clear();
        self.before.clear();
    }
    fn record(&mut self, pos: u64, before: u8) {
        self.positions.push(pos);
        self.before.push(before);
    }
    fn probe(&self) -> Probe<'_> {
        Probe {
            positions: &self.positions,
            before: &self.before,
        }
    }
}

/// Why REMOVE changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RemoveError {
    /// A plain filter keeps bits, which other keys may share: it cannot remove.
    NotCounting,
    /// Counter `position` is `count`, below the `uses` times the key counts there, so the key
    /// cannot have been added (or it was removed already).
    NotInFilter { position: u64, count: u8, uses: u32 },
}

/// How UNION and INTERSECT combine two filters of the same shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Merge {
    /// OR the bits; add the counters (a full counter stays full).
    Union,
    /// AND the bits; keep the smaller of two counters.
    Intersect,
}

/// Two filters whose shapes differ, so they cannot be combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShapeMismatch {
    pub ours: FilterSpec,
    pub theirs: FilterSpec,
}

impl fmt::Display for ShapeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = (self.ours, self.theirs);
        let counting = |s: FilterSpec| match s.counter_bits() {
            Some(w) => format!("{w}-bit counters"),
            None => "plain bits".to_string(),
        };
        let mut diffs = Vec::new();
        if a.scheme() != b.scheme() {
            diffs.push(format!(
                "scheme ({} here, {} in the file)",
                a.scheme(),
                b.scheme()
            ));
        }
        if a.bits() != b.bits() {
            diffs.push(format!(
                "size (m = {} here, {} in the file)",
                a.bits(),
                b.bits()
            ));
        }
        if a.hashes() != b.hashes() {
            diffs.push(format!(
                "k ({} here, {} in the file)",
                a.hashes(),
                b.hashes()
            ));
        }
        if a.counting() != b.counting() {
            diffs.push(format!(
                "counting ({} here, {} in the file)",
                counting(a),
                counting(b)
            ));
        }
        let list = match diffs.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => "nothing".to_string(),
        };
        write!(f, "the two filters differ in {list}")
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
    /// In a counting filter, bit i is 1 exactly when counter i is above 0, so CHECK and BITS
    /// read the bits alike in both kinds of filter.
    filter: Filter,
    /// `Some` exactly when the spec is counting.
    counters: Option<Counters>,
}

impl Bloom {
    /// An empty filter of the given shape: bits, or counters when the spec is counting.
    pub fn new(spec: FilterSpec) -> Bloom {
        Bloom {
            spec,
            filter: Filter::new(spec.bits()),
            counters: spec.counting().map(|w| Counters::new(spec.bits(), w)),
        }
    }

    /// An empty filter of the given shape, or an error when its bits (and counters) do not
    /// fit in memory.
    pub fn try_new(spec: FilterSpec) -> Result<Bloom, OutOfMemory> {
        let counters = match spec.counting() {
            Some(w) => Some(Counters::try_new(spec.bits(), w)?),
            None => None,
        };
        Ok(Bloom {
            spec,
            filter: Filter::try_new(spec.bits())?,
            counters,
        })
    }

    /// A filter from its parts, if they fit the spec: a plain filter from its bits, a
    /// counting filter from its counters (its bits follow from them).
    pub(crate) fn from_parts(
        spec: FilterSpec,
        filter: Filter,
        counters: Option<Counters>,
    ) -> Option<Bloom> {
        let fits = filter.len() == spec.bits()
            && match (&counters, spec.counting()) {
                (None, None) => true,
                (Some(c), Some(w)) => {
                    c.width() == w
                        && c.len() == spec.bits()
                        && (0..spec.bits()).all(|p| (c.get(p) > 0) == filter.test(p))
                }
                _ => false,
            };
        fits.then_some(Bloom {
            spec,
            filter,
            counters,
        })
    }

    /// The filter's shape.
    pub fn spec(&self) -> FilterSpec {
        self.spec
    }

    /// Sets the key's k bits to 1 (and in a counting filter adds 1 to each of its counters).
    pub fn add(&mut self, key: &[u8]) {
        self.add_each(key, |_, _| {});
    }

    /// ADD, telling `visit` each position in hash order and its value before: the bit, or
    /// the counter in a counting filter. This is the one ADD.
    #[inline(always)]
    pub(crate) fn add_each(&mut self, key: &[u8], mut visit: impl FnMut(u64, u8)) {
        match &mut self.counters {
            None => {
                let filter = &mut self.filter;
                self.spec.all_positions(key, |pos| {
                    visit(pos, u8::from(!filter.set(pos)));
                    true
                });
            }
            Some(counters) => add_counting(&self.spec, &mut self.filter, counters, key, visit),
        }
    }

    /// NO if any of the key's bits is 0, else MAYBE.
    pub fn check(&self, key: &[u8]) -> Answer {
        self.check_traced(key, &mut NoTrace)
    }

    /// CHECK, recording each position it visits in `tracer`. This is the one CHECK: in a
    /// counting filter too it reads the bits, which say whether each counter is above 0.
    #[inline(always)]
    pub(crate) fn check_traced<T: Tracer>(&self, key: &[u8], tracer: &mut T) -> Answer {
        tracer.start();
        let filter = &self.filter;
        let mut all = true;
        self.spec.all_positions(key, |pos| {
            let set = filter.test(pos);
            if T::FULL {
                tracer.record(pos, self.value(pos));
            }
            all &= set;
            all || T::FULL
        });
        if all { Answer::Maybe } else { Answer::No }
    }

    /// REMOVE: subtracts 1 from each of the key's counters (a full counter stays full),
    /// telling `visit` each position in hash order and its counter before. Refused, with
    /// nothing changed, in a plain filter, or when a counter is too low for the key to have
    /// been added. This is the one REMOVE.
    pub(crate) fn remove_each(
        &mut self,
        key: &[u8],
        mut visit: impl FnMut(u64, u8),
    ) -> Result<(), RemoveError> {
        let Some(counters) = &mut self.counters else {
            return Err(RemoveError::NotCounting);
        };
        let mut positions = Vec::new();
        self.spec.positions(key, &mut positions);
        let mut sorted = positions.clone();
        sorted.sort_unstable();
        let max = counters.width().max();
        for &pos in &positions {
            // A key whose positions repeat counted that many times at that position.
            let uses = sorted.partition_point(|&p| p <= pos) - sorted.partition_point(|&p| p < pos);
            let count = counters.get(pos);
            if count != max && usize::from(count) < uses {
                return Err(RemoveError::NotInFilter {
                    position: pos,
                    count,
                    uses: uses as u32,
                });
            }
        }
        for pos in positions {
            let before = counters.decrement(pos);
            if counters.get(pos) == 0 {
                self.filter.unset(pos);
            }
            visit(pos, before);
        }
        Ok(())
    }

    /// UNION or INTERSECT `other` into this filter, which must have the same shape.
    pub(crate) fn merge(&mut self, other: &Bloom, how: Merge) -> Result<(), ShapeMismatch> {
        if self.spec != other.spec {
            return Err(ShapeMismatch {
                ours: self.spec,
                theirs: other.spec,
            });
        }
        match how {
            Merge::Union => self.filter.or_with(&other.filter),
            Merge::Intersect => self.filter.and_with(&other.filter),
        }
        if let (Some(ours), Some(theirs)) = (&mut self.counters, &other.counters) {
            let max = ours.width().max();
            for (a, &b) in ours.counts_mut().iter_mut().zip(theirs.counts()) {
                *a = match how {
                    // Adding both sets of keys one at a time gives the same sum, capped.
                    Merge::Union => a.saturating_add(b).min(max),
                    Merge::Intersect => (*a).min(b),
                };
            }
        }
        Ok(())
    }

    /// The value at `pos` (< m): its counter in a counting filter, else its bit as 0 or 1.
    pub(crate) fn value(&self, pos: u64) -> u8 {
        match &self.counters {
            Some(c) => c.get(pos),
            None => u8::from(self.filter.test(pos)),
        }
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

    /// The counters, in a counting filter.
    pub(crate) fn counters(&self) -> Option<&Counters> {
        self.counters.as_ref()
    }

    /// Sets every bit (and counter) back to 0.
    pub fn clear(&mut self) {
        self.filter.clear();
        if let Some(c) = &mut self.counters {
            c.clear();
        }
    }
}

/// ADD in a counting filter: each of the key's counters goes up by 1 unless full, and its bit
/// is 1. Kept out of line so the plain filter's ADD stays as small as it was.
#[inline(never)]
fn add_counting(
    spec: &FilterSpec,
    filter: &mut Filter,
    counters: &mut Counters,
    key: &[u8],
    mut visit: impl FnMut(u64, u8),
) {
    spec.all_positions(key, |pos| {
        filter.set(pos);
        visit(pos, counters.increment(pos));
        true
    });
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

    fn counting(spec: FilterSpec, bits: u8) -> FilterSpec {
        spec.with_counters(Some(bits)).unwrap()
    }

    #[test]
    fn a_counting_filter_answers_as_a_plain_one() {
        for spec in [
            FilterSpec::lesson(),
            FilterSpec::new(Scheme::Djb2Fnv, None, None).unwrap(),
            FilterSpec::new(Scheme::Murmur3, Some(37), Some(4)).unwrap(),
        ] {
            for bits in 1..=8 {
                let (mut plain, mut counted) = (Bloom::new(spec), Bloom::new(counting(spec, bits)));
                for i in 0..40 {
                    let key = format!("k{}", i % 23);
                    plain.add(key.as_bytes());
                    counted.add(key.as_bytes());
                }
                assert_eq!(plain.filter(), counted.filter(), "{spec}, {bits}-bit");
                for i in 0..60 {
                    let key = format!("q{i}");
                    assert_eq!(plain.check(key.as_bytes()), counted.check(key.as_bytes()));
                }
            }
        }
    }

    #[test]
    fn remove_takes_an_added_key_out_and_keeps_the_others() {
        let mut b = Bloom::new(counting(FilterSpec::lesson(), 4));
        for key in ["date", "sun"] {
            b.add(key.as_bytes());
        }
        // date (30, 22) and sun (22, 39) share counter 22.
        assert_eq!(b.value(22), 2);
        let mut seen = Vec::new();
        b.remove_each(b"date", |p, before| seen.push((p, before)))
            .unwrap();
        assert_eq!(seen, [(30, 1), (22, 2)]);
        assert_eq!(b.check(b"date"), Answer::No);
        assert_eq!(b.check(b"sun"), Answer::Maybe, "sun keeps its count at 22");
        assert_eq!(b.bit(30), Some(false), "a counter at 0 clears its bit");
    }

    #[test]
    fn remove_is_refused_when_a_counter_is_too_low_and_changes_nothing() {
        let mut b = Bloom::new(counting(FilterSpec::lesson(), 4));
        b.add(b"fig");
        let before = b.clone();
        assert_eq!(
            b.remove_each(b"plum", |_, _| {}),
            Err(RemoveError::NotInFilter {
                position: 62,
                count: 0,
                uses: 1
            })
        );
        assert_eq!(b.filter(), before.filter());
        assert_eq!(b.counters(), before.counters());
        // "\xff" hashes to 63 twice: one ADD of a key at 63 is not enough to remove it.
        let spec = FilterSpec::lesson();
        let mut twice = Vec::new();
        spec.positions(b"\xff", &mut twice);
        assert_eq!(twice, [63, 63]);
        let mut b = Bloom::new(counting(spec, 4));
        b.add(b"\xff");
        assert_eq!(
            b.value(63),
            2,
            "a key that repeats a position counts twice there"
        );
        b.remove_each(b"\xff", |_, _| {}).unwrap();
        assert_eq!(b.value(63), 0);
        // ">\x01" is 62 and 1: h1 = 63, h2 = 64, so it counts once at 63. One count there
        // cannot be the two that an ADD of "\xff" leaves.
        let mut once = Vec::new();
        spec.positions(b">\x01", &mut once);
        assert_eq!(once, [63, 0]);
        b.add(b">\x01");
        assert_eq!(
            b.remove_each(b"\xff", |_, _| {}),
            Err(RemoveError::NotInFilter {
                position: 63,
                count: 1,
                uses: 2
            })
        );
    }

    #[test]
    fn a_plain_filter_cannot_remove() {
        let mut b = Bloom::new(FilterSpec::lesson());
        b.add(b"fig");
        assert_eq!(
            b.remove_each(b"fig", |_, _| {}),
            Err(RemoveError::NotCounting)
        );
        assert_eq!(b.check(b"fig"), Answer::Maybe);
    }

    #[test]
    fn a_saturated_counter_never_comes_down() {
        let mut b = Bloom::new(counting(FilterSpec::lesson(), 2));
        for _ in 0..5 {
            b.add(b"fig");
        }
        assert_eq!((b.value(54), b.value(45)), (3, 3));
        for _ in 0..5 {
            b.remove_each(b"fig", |_, _| {}).unwrap();
        }
        assert_eq!((b.value(54), b.value(45)), (3, 3));
        assert_eq!(b.check(b"fig"), Answer::Maybe);
    }

    #[test]
    fn union_equals_adding_both_sets_and_intersect_keeps_the_smaller() {
        for spec in [FilterSpec::lesson(), counting(FilterSpec::lesson(), 2)] {
            let (mut a, mut b, mut both) = (Bloom::new(spec), Bloom::new(spec), Bloom::new(spec));
            for key in ["fig", "lime", "fig", "date"] {
                a.add(key.as_bytes());
                both.add(key.as_bytes());
            }
            for key in ["sun", "fig", "plum"] {
                b.add(key.as_bytes());
                both.add(key.as_bytes());
            }
            let mut i = a.clone();
            a.merge(&b, Merge::Union).unwrap();
            assert_eq!(a.filter(), both.filter(), "{spec}");
            assert_eq!(a.counters(), both.counters(), "{spec}");
            i.merge(&b, Merge::Intersect).unwrap();
            for p in 0..64 {
                assert_eq!(i.bit(p), Some(i.value(p) > 0));
            }
            assert_eq!(i.check(b"fig"), Answer::Maybe, "a key in both stays");
        }
    }

    #[test]
    fn merging_filters_of_another_shape_says_what_differs() {
        let mut a = Bloom::new(FilterSpec::lesson());
        let b = Bloom::new(counting(
            FilterSpec::new(Scheme::ByteSum, Some(128), None).unwrap(),
            4,
        ));
        let err = a.merge(&b, Merge::Union).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the two filters differ in size (m = 64 here, 128 in the file) and counting \
             (plain bits here, 4-bit counters in the file)"
        );
    }

    #[test]
    fn add_reports_which_bits_were_already_set() {
        let mut bloom = Bloom::new(FilterSpec::lesson());
        let mut seen = Vec::new();
        bloom.add_each(b"fig", |p, was| seen.push((p, was)));
        assert_eq!(seen, [(54, 0), (45, 0)]);
        seen.clear();
        bloom.add_each(b"fig", |p, was| seen.push((p, was)));
        assert_eq!(seen, [(54, 1), (45, 1)]);
        assert_eq!(bloom.bits_set(), 2);
        assert_eq!(bloom.bit(54), Some(true));
        assert_eq!(bloom.bit(64), None);
    }
}
