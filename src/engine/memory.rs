//! What the tutor remembers about the keys added, so it can tell a real MAYBE from a false
//! positive and name the key that set a bit. Bounded whatever the input.

use std::collections::HashMap;

use foldhash::fast::RandomState;
use indexmap::IndexSet;

/// The most distinct keys the tutor remembers.
pub(crate) const REMEMBERED_KEYS: usize = 10_000;
/// The most key bytes it remembers in all, so long keys cannot make memory grow.
pub(crate) const REMEMBERED_BYTES: usize = 1 << 20;
/// The most "which key first set this bit" records: with k up to 1000 hashes, 10,000 keys
/// could otherwise leave ten million of them.
pub(crate) const REMEMBERED_SETTERS: usize = 1 << 19;

/// What the tutor knows about whether a key was added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Knowledge {
    Added,
    NeverAdded,
    /// Added, then removed (in a counting filter) as many times as it was added.
    Removed,
    /// Removed as often as it was added in this session, but counts came in with a saved
    /// filter, which holds no keys: they may hold this key too.
    RemovedHere,
    /// The key is not remembered, but some key was turned away: it may have been added.
    Unknown,
}

/// Why the tutor may not know every key in the filter: which of the memory's limits turned
/// a key away first, or a saved filter whose keys it never saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    /// [`REMEMBERED_KEYS`] distinct keys.
    Keys,
    /// [`REMEMBERED_BYTES`] bytes of keys.
    Bytes,
    /// Keys came from a saved filter (LOAD, UNION, INTERSECT): a saved file holds no keys.
    SavedFile,
}

/// The keys added, in order, and which of them first set each bit.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memory {
    keys: IndexSet<Box<[u8]>, RandomState>,
    /// For each remembered key, by index: its ADDs less its REMOVEs. Exact in a counting
    /// filter; in a plain one, later ADDs of a key are not counted once the keys are full.
    live: Vec<u32>,
    /// A counting filter's memory keeps `live` exact: every ADD looks its key up.
    counting: bool,
    /// No ADD needs to look its key up any more: the keys are full, in a plain filter.
    done: bool,
    bytes: usize,
    /// The limit that first turned a key away, if one did ([`Limit::Keys`] or
    /// [`Limit::Bytes`]; a saved filter is `from_file`, so it cannot hide behind either).
    full: Option<Limit>,
    /// Counts (or bits) came in from a saved filter, whose keys the tutor never saw.
    from_file: bool,
    /// For each bit a remembered key newly set, that key's index; at most
    /// [`REMEMBERED_SETTERS`] records.
    first_setter: HashMap<u64, u32, RandomState>,
    /// Some bit's setter was not recorded because the records were full.
    setters_full: bool,
}

impl Memory {
    /// The memory for a counting filter, which counts every ADD and REMOVE of a known key.
    pub(crate) fn counting() -> Memory {
        Memory {
            counting: true,
            ..Memory::default()
        }
    }

    /// Remembers `key` unless it is known or does not fit; returns its index if remembered.
    #[inline]
    pub(crate) fn remember(&mut self, key: &[u8]) -> Option<u32> {
        // Once the key limit is reached, no answer in a plain filter depends on finding a
        // known key's index: its bits were set when it was first added. This check runs on
        // every ADD of a long script, so it stays inline and the lookup below does not.
        if self.done {
            return None;
        }
        self.remember_slow(key)
    }

    #[inline(never)]
    fn remember_slow(&mut self, key: &[u8]) -> Option<u32> {
        if let Some(i) = self.keys.get_index_of(key) {
            self.live[i] = self.live[i].saturating_add(1);
            return Some(i as u32);
        }
        if self.keys.len() >= REMEMBERED_KEYS {
            self.full = Some(Limit::Keys);
            self.done = !self.counting;
            return None;
        }
        if self.bytes + key.len() > REMEMBERED_BYTES {
            // A key too long for what is left; shorter keys after it may still fit.
            self.full.get_or_insert(Limit::Bytes);
            return None;
        }
        self.bytes += key.len();
        let (i, _) = self.keys.insert_full(key.into());
        self.live.push(1);
        Some(i as u32)
    }

    /// Counts one REMOVE of `key`, if the tutor remembers it as added.
    pub(crate) fn forget_one(&mut self, key: &[u8]) {
        if let Some(i) = self.keys.get_index_of(key) {
            self.live[i] = self.live[i].saturating_sub(1);
        }
    }

    /// Forgets which key set bit `pos`, whose counter went back to 0.
    pub(crate) fn unset(&mut self, pos: u64) {
        self.first_setter.remove(&pos);
    }

    /// Notes that keys the tutor never saw are in the filter now (from a saved file).
    pub(crate) fn add_unknown_keys(&mut self) {
        self.from_file = true;
    }

    /// The remembered keys that are in the filter (added more often than removed), in the
    /// order they were first added.
    pub(crate) fn added_keys(&self) -> impl Iterator<Item = &[u8]> {
        self.keys
            .iter()
            .zip(&self.live)
            .filter(|&(_, &n)| n > 0)
            .map(|(k, _)| &**k)
    }

    /// Records that the remembered key `index` first set bit `pos`.
    #[inline]
    pub(crate) fn set_by(&mut self, pos: u64, index: u32) {
        if self.first_setter.len() < REMEMBERED_SETTERS {
            self.first_setter.insert(pos, index);
        } else {
            self.setters_full = true;
        }
    }

    /// Whether `key` was added, as far as the tutor remembers.
    pub(crate) fn knows(&self, key: &[u8]) -> Knowledge {
        if let Some(i) = self.keys.get_index_of(key) {
            if self.live[i] > 0 {
                Knowledge::Added
            } else if self.from_file {
                Knowledge::RemovedHere
            } else {
                Knowledge::Removed
            }
        } else if self.full().is_some() {
            Knowledge::Unknown
        } else {
            Knowledge::NeverAdded
        }
    }

    /// The remembered key that first set bit `pos`, if the tutor recorded it.
    pub(crate) fn setter_of(&self, pos: u64) -> Option<&[u8]> {
        let &i = self.first_setter.get(&pos)?;
        self.keys.get_index(i as usize).map(|k| &**k)
    }

    /// The number of distinct keys in the filter, if the tutor still knows it exactly.
    pub(crate) fn distinct_keys(&self) -> Option<usize> {
        self.full()
            .is_none()
            .then(|| self.live.iter().filter(|&&n| n > 0).count())
    }

    /// Why the tutor may not know a key: a saved filter's keys came in (whatever limit
    /// memory reached too), or the limit that first turned a key away.
    pub(crate) fn full(&self) -> Option<Limit> {
        if self.from_file {
            Some(Limit::SavedFile)
        } else {
            self.full
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_keys_and_who_set_each_bit() {
        let mut m = Memory::default();
        let fig = m.remember(b"fig").unwrap();
        m.set_by(54, fig);
        assert_eq!(m.remember(b"fig"), Some(fig));
        assert_eq!(m.setter_of(54), Some(&b"fig"[..]));
        assert_eq!(m.setter_of(1), None);
        assert_eq!(m.knows(b"fig"), Knowledge::Added);
        assert_eq!(m.knows(b"sun"), Knowledge::NeverAdded);
        assert_eq!(m.distinct_keys(), Some(1));
    }

    #[test]
    fn counts_adds_and_removes_of_each_key() {
        let mut m = Memory::counting();
        m.remember(b"fig");
        m.remember(b"fig");
        m.forget_one(b"fig");
        assert_eq!(
            m.knows(b"fig"),
            Knowledge::Added,
            "added twice, removed once"
        );
        m.forget_one(b"fig");
        assert_eq!(m.knows(b"fig"), Knowledge::Removed);
        assert_eq!(m.distinct_keys(), Some(0));
        m.forget_one(b"sun");
        assert_eq!(m.knows(b"sun"), Knowledge::NeverAdded);
        m.add_unknown_keys();
        assert_eq!(m.knows(b"sun"), Knowledge::Unknown);
        assert_eq!(m.full(), Some(Limit::SavedFile));
    }

    #[test]
    fn a_key_removed_after_a_file_came_in_may_still_be_in_the_file() {
        let mut m = Memory::counting();
        m.remember(b"fig");
        m.add_unknown_keys();
        m.forget_one(b"fig");
        assert_eq!(
            m.knows(b"fig"),
            Knowledge::RemovedHere,
            "the file's counts may include fig"
        );
        m.remember(b"fig");
        assert_eq!(m.knows(b"fig"), Knowledge::Added);
    }

    #[test]
    fn a_file_after_the_key_limit_is_still_noted() {
        let mut m = Memory::counting();
        for i in 0..REMEMBERED_KEYS + 1 {
            m.remember(format!("key{i}").as_bytes());
        }
        assert_eq!(m.full(), Some(Limit::Keys));
        m.add_unknown_keys();
        m.forget_one(b"key0");
        assert_eq!(m.full(), Some(Limit::SavedFile));
        assert_eq!(m.knows(b"key0"), Knowledge::RemovedHere);
    }

    #[test]
    fn a_counting_memory_counts_known_keys_past_the_limit() {
        let mut m = Memory::counting();
        for i in 0..REMEMBERED_KEYS + 1 {
            m.remember(format!("key{i}").as_bytes());
        }
        m.remember(b"key0");
        m.forget_one(b"key0");
        assert_eq!(
            m.knows(b"key0"),
            Knowledge::Added,
            "the second ADD was counted"
        );
    }

    #[test]
    fn the_key_limit_is_said_and_holds() {
        let mut m = Memory::default();
        for i in 0..REMEMBERED_KEYS + 5 {
            m.remember(format!("key{i}").as_bytes());
        }
        assert_eq!(m.keys.len(), REMEMBERED_KEYS);
        assert_eq!(m.full(), Some(Limit::Keys));
        assert_eq!(m.knows(b"key0"), Knowledge::Added);
        assert_eq!(m.knows(b"never"), Knowledge::Unknown);
        assert_eq!(m.distinct_keys(), None);
    }

    #[test]
    fn one_huge_key_does_not_spend_the_budget() {
        let mut m = Memory::default();
        assert_eq!(m.remember(&vec![b'x'; 2 << 20]), None);
        assert_eq!(m.full(), Some(Limit::Bytes));
        for i in 0..100 {
            assert!(
                m.remember(format!("small{i}").as_bytes()).is_some(),
                "a small key after a huge one is still remembered"
            );
        }
        assert_eq!(m.knows(b"small5"), Knowledge::Added);
    }

    #[test]
    fn setter_records_are_bounded() {
        let mut m = Memory::default();
        let i = m.remember(b"k").unwrap();
        for pos in 0..REMEMBERED_SETTERS as u64 + 10 {
            m.set_by(pos, i);
        }
        assert_eq!(m.first_setter.len(), REMEMBERED_SETTERS);
        assert!(m.setters_full);
    }
}
