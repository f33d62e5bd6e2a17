//! A ready-to-use Bloom filter for programs: a spec and its bits, with ADD and CHECK.

use crate::filter::Filter;
use crate::scheme::FilterSpec;

/// The two answers a Bloom filter gives. Only NO is certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The key was never added.
    No,
    /// The key was probably added; it may be a false positive.
    Maybe,
}

/// A Bloom filter with one of the lessons' hash schemes, for use from Rust code.
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

    /// Sets the key's k bits.
    pub fn add(&mut self, key: &[u8]) {
        let filter = &mut self.filter;
        self.spec.all_positions(key, |pos| {
            filter.set(pos);
            true
        });
    }

    /// NO if any of the key's bits is 0, else MAYBE.
    pub fn check(&self, key: &[u8]) -> Answer {
        if self.spec.all_positions(key, |pos| self.filter.test(pos)) {
            Answer::Maybe
        } else {
            Answer::No
        }
    }

    /// The bits underneath.
    pub fn filter(&self) -> &Filter {
        &self.filter
    }
}
