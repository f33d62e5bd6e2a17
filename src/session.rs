//! A filter plus what the tutor remembers about it; runs commands into a writer.

use std::io::{self, Write};

use foldhash::fast::RandomState;
use indexmap::{IndexMap, IndexSet};

use crate::command::Command;
use crate::explain;
use crate::filter::Filter;
use crate::help;
use crate::scheme::FilterSpec;

/// The most distinct keys the tutor remembers for its explanations.
pub const REMEMBERED_KEYS: usize = 10_000;
/// The most key bytes the tutor remembers, so long keys cannot make memory grow.
const REMEMBERED_BYTES: usize = 1 << 20;

/// What happens after a command: go on, or end the session (QUIT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// What the last ADD or CHECK did, kept so notes and commentary can describe it.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// The key's positions, in hash order.
    pub positions: Vec<u64>,
    /// For each position, whether its bit was 1 before the command touched it.
    pub was_set: Vec<bool>,
}

/// What the tutor knows about whether a key was added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knowledge {
    Added,
    NeverAdded,
    /// The key is not remembered, but memory is full: it may have been added after that.
    Unknown,
}

/// The first keys added, in order, and which of them first set each bit.
///
/// Bounded by [`REMEMBERED_KEYS`] keys and [`REMEMBERED_BYTES`] bytes; entries in
/// `first_setter` exist only for bits a remembered key newly set, so there are at most
/// k per key and none per untouched bit.
#[derive(Debug, Clone, Default)]
struct Memory {
    keys: IndexSet<Box<[u8]>, RandomState>,
    bytes: usize,
    /// A key was not remembered because memory was full.
    overflowed: bool,
    first_setter: IndexMap<u64, u32, RandomState>,
}

impl Memory {
    /// Remembers `key` unless it is known or memory is full; returns its index if remembered.
    #[inline]
    fn remember(&mut self, key: &[u8]) -> Option<u32> {
        // Once a key was turned away, no answer depends on finding a known key's index:
        // its bits were set when it was first added. This check runs on every ADD of a long
        // script, so it stays inline and the lookup below does not.
        if self.overflowed {
            return None;
        }
        self.remember_slow(key)
    }

    #[inline(never)]
    fn remember_slow(&mut self, key: &[u8]) -> Option<u32> {
        if let Some(i) = self.keys.get_index_of(key) {
            return Some(i as u32);
        }
        if self.keys.len() >= REMEMBERED_KEYS || self.bytes + key.len() > REMEMBERED_BYTES {
            self.overflowed = true;
            return None;
        }
        self.bytes += key.len();
        let (i, _) = self.keys.insert_full(key.into());
        Some(i as u32)
    }

    fn knows(&self, key: &[u8]) -> Knowledge {
        if self.keys.contains(key) {
            Knowledge::Added
        } else if self.overflowed {
            Knowledge::Unknown
        } else {
            Knowledge::NeverAdded
        }
    }
}

/// One filter and its history, driven one command at a time.
#[derive(Debug, Clone)]
pub struct Session {
    spec: FilterSpec,
    filter: Filter,
    memory: Memory,
    adds: u64,
    /// What the last ADD did (empty after CLEAR), for notes and highlighting.
    add_trace: Trace,
    /// What the last CHECK did.
    check_trace: Trace,
    /// Whether the last ADD or CHECK was a CHECK.
    checked_last: bool,
    /// Write commentary for every ADD and CHECK (`--explain`).
    commentary: bool,
    /// What starts each line of commentary: `# ` for scripts, so `grep -v '^#'` removes it.
    prefix: &'static str,
    /// Whether any command has run since the filter was made.
    touched: bool,
    /// Record traces for notes and commentary; plain piped scripts need none.
    tracing: bool,
}

impl Session {
    /// A session with an empty filter of the given shape. With `commentary`, ADD and CHECK
    /// explain themselves in lines that start with `prefix`.
    pub fn new(spec: FilterSpec, commentary: bool, prefix: &'static str) -> Session {
        Session {
            spec,
            filter: Filter::new(spec.bits()),
            memory: Memory::default(),
            adds: 0,
            add_trace: Trace::default(),
            check_trace: Trace::default(),
            checked_last: false,
            commentary,
            prefix,
            touched: false,
            tracing: true,
        }
    }

    /// The same session without traces, for plain scripts: ADD and CHECK then touch no
    /// buffers, and CHECK stops at the first 0 bit. [`Session::trace`] stays empty.
    pub fn without_trace(mut self) -> Session {
        self.tracing = self.commentary;
        self
    }

    pub fn spec(&self) -> &FilterSpec {
        &self.spec
    }

    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// What the last ADD or CHECK did.
    pub fn trace(&self) -> &Trace {
        if self.checked_last {
            &self.check_trace
        } else {
            &self.add_trace
        }
    }

    /// The positions the last ADD set (empty after CLEAR).
    pub fn last_add(&self) -> &[u64] {
        &self.add_trace.positions
    }

    /// How many ADD commands have run since the filter was made or cleared.
    pub fn adds(&self) -> u64 {
        self.adds
    }

    /// The number of distinct keys added, if the tutor still knows it exactly.
    pub fn distinct_keys(&self) -> Option<usize> {
        (!self.memory.overflowed).then_some(self.memory.keys.len())
    }

    /// Whether no command has run on this filter yet.
    pub fn is_untouched(&self) -> bool {
        !self.touched
    }

    /// Replaces the filter with an empty one of another shape, forgetting everything.
    pub fn reshape(&mut self, spec: FilterSpec) {
        let tracing = self.tracing;
        *self = Session::new(spec, self.commentary, self.prefix);
        self.tracing = tracing;
    }

    /// Whether `key` was added, as far as the tutor remembers.
    pub fn knows(&self, key: &[u8]) -> Knowledge {
        self.memory.knows(key)
    }

    /// The remembered key that first set bit `pos`, if any.
    pub fn setter_of(&self, pos: u64) -> Option<&[u8]> {
        let &i = self.memory.first_setter.get(&pos)?;
        self.memory.keys.get_index(i as usize).map(|k| &**k)
    }

    /// Runs one command, writing its answer (and any commentary) to `out`.
    pub fn execute(&mut self, cmd: &Command<'_>, out: &mut impl Write) -> io::Result<Flow> {
        self.touched = true;
        match *cmd {
            Command::Add(key) => {
                self.add(key);
                if self.commentary {
                    self.comment(out, &[explain::after_add(self, key)])?;
                }
            }
            Command::Check(key) => {
                let maybe = self.check(key);
                if self.commentary {
                    self.comment(out, &[explain::after_check(self, key)])?;
                }
                // Two calls with fixed lengths copy without a call to memcpy.
                if maybe {
                    out.write_all(b"MAYBE\n")?;
                } else {
                    out.write_all(b"NO\n")?;
                }
            }
            Command::Bits => {
                write_bits(&self.filter, out)?;
                out.write_all(b"\n")?;
            }
            Command::Explain(key) => {
                let lines = explain::key(self, key);
                self.comment(out, &lines)?;
            }
            Command::Stats => {
                let lines = explain::stats(self);
                self.comment(out, &lines)?;
            }
            Command::Clear => {
                self.reshape(self.spec);
                self.touched = true;
                if self.commentary {
                    self.comment(out, &[explain::after_clear(&self.spec)])?;
                }
            }
            Command::Help(topic) => self.comment(out, &help::text(topic))?,
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// Sets the key's bits, recording which were new.
    fn add(&mut self, key: &[u8]) {
        self.adds += 1;
        self.checked_last = false;
        // Plain scripts take this separate path: folding the trace into one loop with a
        // `tracing` flag measured about 11% slower on the 2M-line benchmark.
        if !self.tracing {
            let remembered = self.memory.remember(key);
            let (filter, memory) = (&mut self.filter, &mut self.memory);
            self.spec.all_positions(key, |pos| {
                if let (true, Some(i)) = (filter.set(pos), remembered) {
                    memory.first_setter.insert(pos, i);
                }
                true
            });
            return;
        }
        let t = &mut self.add_trace;
        self.spec.positions(key, &mut t.positions);
        t.was_set.clear();
        let remembered = self.memory.remember(key);
        for &pos in &t.positions {
            let new = self.filter.set(pos);
            t.was_set.push(!new);
            if let (true, Some(i)) = (new, remembered) {
                self.memory.first_setter.insert(pos, i);
            }
        }
    }

    /// Tests the key's bits; true means MAYBE.
    fn check(&mut self, key: &[u8]) -> bool {
        self.checked_last = true;
        if !self.tracing {
            let filter = &self.filter;
            return self.spec.all_positions(key, |pos| filter.test(pos));
        }
        let t = &mut self.check_trace;
        self.spec.positions(key, &mut t.positions);
        t.was_set.clear();
        let mut all = true;
        for &pos in &t.positions {
            let set = self.filter.test(pos);
            t.was_set.push(set);
            all &= set;
        }
        all
    }

    fn comment(&self, out: &mut impl Write, lines: &[String]) -> io::Result<()> {
        for line in lines {
            if line.is_empty() {
                writeln!(out, "{}", self.prefix.trim_end())?;
            } else {
                writeln!(out, "{}{line}", self.prefix)?;
            }
        }
        Ok(())
    }
}

/// `0`/`1` for each bit, bit 0 first, without a line ending.
pub fn write_bits(filter: &Filter, out: &mut impl Write) -> io::Result<()> {
    write_first_bits(filter, filter.len(), out)
}

/// The first `limit` bits (all of them if the filter is shorter), as [`write_bits`] does.
pub fn write_first_bits(filter: &Filter, limit: u64, out: &mut impl Write) -> io::Result<()> {
    // Eight characters for each byte value, least significant bit first.
    static DIGITS: [[u8; 8]; 256] = {
        let mut t = [[b'0'; 8]; 256];
        let mut v = 0;
        while v < 256 {
            let mut i = 0;
            while i < 8 {
                if v >> i & 1 == 1 {
                    t[v][i] = b'1';
                }
                i += 1;
            }
            v += 1;
        }
        t
    };
    let m = filter.len().min(limit) as usize;
    let mut chunk = [0u8; 512];
    let mut written = 0;
    for words in filter.words()[..m.div_ceil(64)].chunks(chunk.len() / 64) {
        let mut n = 0;
        for word in words {
            for byte in word.to_le_bytes() {
                chunk[n..n + 8].copy_from_slice(&DIGITS[byte as usize]);
                n += 8;
            }
        }
        let n = n.min(m - written);
        out.write_all(&chunk[..n])?;
        written += n;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheme::Scheme;

    /// The main lesson's worked trace.
    const LESSON_TRACE: [&str; 6] = [
        "ADD fig",
        "ADD lime",
        "ADD date",
        "BITS",
        "CHECK plum",
        "CHECK sun",
    ];

    fn run(session: &mut Session, lines: &[&str]) -> String {
        let mut out = Vec::new();
        for line in lines {
            let cmd = Command::parse(line.as_bytes()).unwrap().unwrap();
            session.execute(&cmd, &mut out).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn reproduces_the_lesson_trace() {
        let mut s = Session::new(FilterSpec::lesson(), false, "# ");
        let out = run(&mut s, &LESSON_TRACE);
        assert_eq!(
            out,
            "0000000000000000000000100100001000000001000001000000001000000000\nNO\nMAYBE\n"
        );
    }

    #[test]
    fn check_after_add_is_maybe() {
        let mut s = Session::new(FilterSpec::lesson(), false, "# ");
        assert_eq!(run(&mut s, &["ADD fig", "CHECK fig"]), "MAYBE\n");
    }

    #[test]
    fn bits_prints_m_characters() {
        for m in [1, 16, 63, 64, 65, 100, 4097, 70_000] {
            let spec = FilterSpec::new(Scheme::Murmur3, Some(m), Some(3)).unwrap();
            let mut s = Session::new(spec, false, "# ");
            let out = run(&mut s, &["ADD a", "BITS"]);
            assert_eq!(out.len() as u64, m + 1, "m = {m}");
            let ones: Vec<usize> = out.match_indices('1').map(|(i, _)| i).collect();
            let mut want = Vec::new();
            spec.positions(b"a", &mut want);
            want.sort();
            want.dedup();
            assert_eq!(
                ones,
                want.iter().map(|&p| p as usize).collect::<Vec<_>>(),
                "m = {m}"
            );
        }
    }

    #[test]
    fn writes_only_the_first_bits_asked_for() {
        let mut f = Filter::new(1000);
        f.set(3);
        f.set(700);
        let mut out = Vec::new();
        write_first_bits(&f, 5, &mut out).unwrap();
        assert_eq!(out, b"00010");
        out.clear();
        write_first_bits(&f, 5000, &mut out).unwrap();
        assert_eq!(out.len(), 1000);
        assert_eq!(out[700], b'1');
    }

    #[test]
    fn remembers_who_set_each_bit() {
        let mut s = Session::new(FilterSpec::lesson(), false, "# ");
        run(&mut s, &["ADD fig", "ADD lime", "ADD date", "ADD fig"]);
        assert_eq!(s.setter_of(22), Some(&b"date"[..]));
        assert_eq!(s.setter_of(39), Some(&b"lime"[..]));
        assert_eq!(s.setter_of(0), None);
        assert_eq!(s.knows(b"sun"), Knowledge::NeverAdded);
        assert_eq!(s.knows(b"fig"), Knowledge::Added);
        assert_eq!(s.distinct_keys(), Some(3));
        assert_eq!(s.adds(), 4);
    }

    #[test]
    fn memory_is_bounded_and_says_so() {
        let mut s = Session::new(FilterSpec::lesson(), false, "# ");
        for i in 0..REMEMBERED_KEYS + 5 {
            s.add(format!("key{i}").as_bytes());
        }
        assert_eq!(s.memory.keys.len(), REMEMBERED_KEYS);
        assert_eq!(s.knows(b"key0"), Knowledge::Added);
        assert_eq!(s.knows(b"never"), Knowledge::Unknown);
        assert_eq!(s.distinct_keys(), None);
    }

    #[test]
    fn untraced_sessions_answer_and_blame_the_same() {
        let script: Vec<&str> = LESSON_TRACE
            .iter()
            .copied()
            .chain(["EXPLAIN sun"])
            .collect();
        let mut traced = Session::new(FilterSpec::lesson(), false, "# ");
        let mut plain = Session::new(FilterSpec::lesson(), false, "# ").without_trace();
        assert_eq!(run(&mut traced, &script), run(&mut plain, &script));
        assert_eq!(plain.setter_of(22), Some(&b"date"[..]));
        assert!(plain.trace().positions.is_empty());
    }

    #[test]
    fn clear_forgets_everything() {
        let mut s = Session::new(FilterSpec::lesson(), false, "# ");
        run(&mut s, &["ADD fig", "CLEAR"]);
        assert_eq!(s.filter().count_ones(), 0);
        assert_eq!(s.knows(b"fig"), Knowledge::NeverAdded);
        assert_eq!(run(&mut s, &["CHECK fig"]), "NO\n");
    }
}
