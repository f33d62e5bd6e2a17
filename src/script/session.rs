//! The session: one filter, what the tutor remembers about it, and the commands run on it.
//! Running a command returns an [`Outcome`] in numbers; renderers turn it into text.

use std::fmt;

use crate::engine::bloom::{Answer, Bloom, NoTrace, Probe, Trace, Tracer};
use crate::engine::filter::{Filter, OutOfMemory};
use crate::engine::memory::{Knowledge, Limit, Memory};
use crate::engine::scheme::{Derivation, FilterSpec};
use crate::engine::theory;
use crate::script::command::Command;

/// What a command did, for the renderers. Borrows the command's key and the session, and
/// owns nothing, so it is cheap to move and to drop.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Outcome<'a> {
    /// ADD: the key's positions and which bits were 1 before (empty when untraced).
    Added {
        key: &'a [u8],
        probe: Probe<'a>,
    },
    /// CHECK: the answer, the key's positions and their bits (empty when untraced), and
    /// what the tutor remembers, to tell a real MAYBE from a false positive.
    Checked {
        key: &'a [u8],
        answer: Answer,
        probe: Probe<'a>,
        recall: Recall<'a>,
    },
    /// BITS: the filter, and what the last ADD did (for a highlight; empty when untraced
    /// and after CLEAR).
    Bits {
        filter: &'a Filter,
        last_add: Probe<'a>,
    },
    /// EXPLAIN: everything about one key, without changing anything.
    Explained(Explained<'a>),
    Stats(&'a Stats),
    /// CLEAR: every bit is 0 again.
    Cleared {
        spec: FilterSpec,
    },
    /// HELP, with its topic if any: help is the renderer's to write.
    Help(Option<&'a [u8]>),
    Quit,
}

/// The tutor's memory of the keys, as a command left it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Recall<'a> {
    memory: &'a Memory,
}

impl<'a> Recall<'a> {
    /// A view of `memory`, for renderer tests that build outcomes by hand.
    #[cfg(test)]
    pub(crate) fn of(memory: &'a Memory) -> Recall<'a> {
        Recall { memory }
    }

    /// Whether `key` was added, as far as the tutor remembers.
    pub(crate) fn knows(&self, key: &[u8]) -> Knowledge {
        self.memory.knows(key)
    }

    /// The remembered key that first set bit `pos`.
    pub(crate) fn setter_of(&self, pos: u64) -> Option<&'a [u8]> {
        self.memory.setter_of(pos)
    }

    /// The limit that made the tutor forget a key, if one did.
    pub(crate) fn full(&self) -> Option<Limit> {
        self.memory.full()
    }
}

/// EXPLAIN's facts: the key, the numbers, and what the tutor remembers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Explained<'a> {
    pub key: &'a [u8],
    pub spec: FilterSpec,
    pub facts: &'a Explanation,
    pub recall: Recall<'a>,
}

/// The numbers EXPLAIN shows: the arithmetic, each distinct position's bit, and CHECK's
/// answer. Kept in the session, so outcomes borrow it and stay small and free to drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Explanation {
    pub derivation: Derivation,
    /// Each distinct position, in hash order, with its bit.
    pub bits: Vec<(u64, bool)>,
    pub answer: Answer,
}

/// STATS' numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Stats {
    pub spec: FilterSpec,
    /// ADD commands since the filter was made or cleared.
    pub adds: u64,
    /// Distinct keys added, while the tutor still knows it exactly.
    pub distinct: Option<usize>,
    /// The memory limit that made the tutor lose count, if one did.
    pub full: Option<Limit>,
    pub bits_set: u64,
    /// (bits set / m)^k.
    pub fp_fill: f64,
    /// The n the textbook estimate uses: distinct keys, or every ADD once the count is lost.
    pub n: f64,
    /// (1 − e^(−kn/m))^k.
    pub fp_textbook: f64,
    /// −(m/k)·ln(1 − X/m); infinite when every bit is set.
    pub keys_from_fill: f64,
}

/// A command that could not run. The session is unchanged and goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommandError {
    /// REMOVE on a plain filter, whose bits may be shared by other keys.
    CannotRemove,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::CannotRemove => write!(
                f,
                "REMOVE is not possible in a plain Bloom filter: clearing a key's bits could clear \
                 bits other keys need, and they would then get a wrong NO (CLEAR empties the whole filter)"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// One filter and its history, driven one command at a time. `T` is what ADD and CHECK
/// record: [`Trace`] for commentary and notes, [`NoTrace`] for plain scripts.
#[derive(Debug, Clone)]
pub(crate) struct Session<T: Tracer> {
    bloom: Bloom,
    memory: Memory,
    adds: u64,
    /// What the last ADD did (empty after CLEAR).
    add_trace: T,
    check_trace: T,
    /// The last EXPLAIN's and STATS' numbers, which their outcomes borrow.
    explanation: Option<Explanation>,
    stats: Option<Stats>,
    /// Whether any command has run since the filter was made.
    touched: bool,
}

/// A session that records what ADD and CHECK did.
pub(crate) type TracedSession = Session<Trace>;
/// A session for plain scripts.
pub(crate) type PlainSession = Session<NoTrace>;

impl<T: Tracer> Session<T> {
    /// A session with an empty filter of the given shape.
    pub(crate) fn new(spec: FilterSpec) -> Session<T> {
        Session::with_bloom(Bloom::new(spec))
    }

    fn with_bloom(bloom: Bloom) -> Session<T> {
        Session {
            bloom,
            memory: Memory::default(),
            adds: 0,
            add_trace: T::default(),
            check_trace: T::default(),
            explanation: None,
            stats: None,
            touched: false,
        }
    }

    /// A session with an empty filter of the given shape, or an error when its bits do not
    /// fit in memory (for shapes a user chose).
    pub(crate) fn try_new(spec: FilterSpec) -> Result<Session<T>, OutOfMemory> {
        Ok(Session::with_bloom(Bloom::try_new(spec)?))
    }

    /// Replaces the filter with an empty one of a shape a user chose, forgetting everything;
    /// unchanged when its bits do not fit in memory.
    pub(crate) fn try_reshape(&mut self, spec: FilterSpec) -> Result<(), OutOfMemory> {
        *self = Session::try_new(spec)?;
        Ok(())
    }

    pub(crate) fn spec(&self) -> FilterSpec {
        self.bloom.spec()
    }

    /// Whether no command has run on this filter yet.
    pub(crate) fn is_untouched(&self) -> bool {
        !self.touched
    }

    /// Replaces the filter with an empty one of another shape, forgetting everything.
    pub(crate) fn reshape(&mut self, spec: FilterSpec) {
        *self = Session::new(spec);
    }

    /// Runs one command.
    #[inline(always)]
    pub(crate) fn execute<'a>(
        &'a mut self,
        cmd: &Command<'a>,
    ) -> Result<Outcome<'a>, CommandError> {
        self.touched = true;
        Ok(match *cmd {
            Command::Add(key) => {
                self.add(key);
                Outcome::Added {
                    key,
                    probe: self.add_trace.probe(),
                }
            }
            Command::Check(key) => {
                let answer = self.bloom.check_traced(key, &mut self.check_trace);
                Outcome::Checked {
                    key,
                    answer,
                    probe: self.check_trace.probe(),
                    recall: Recall {
                        memory: &self.memory,
                    },
                }
            }
            Command::Remove(_) => return Err(CommandError::CannotRemove),
            Command::Bits => Outcome::Bits {
                filter: self.bloom.filter(),
                last_add: self.add_trace.probe(),
            },
            Command::Explain(key) => {
                let facts = self.explanation.insert(self.explain(key));
                Outcome::Explained(Explained {
                    key,
                    spec: self.bloom.spec(),
                    facts,
                    recall: Recall {
                        memory: &self.memory,
                    },
                })
            }
            Command::Stats => Outcome::Stats(self.stats.insert(self.stats())),
            Command::Clear => {
                self.reshape(self.spec());
                self.touched = true;
                Outcome::Cleared { spec: self.spec() }
            }
            Command::Help(topic) => Outcome::Help(topic),
            Command::Quit => Outcome::Quit,
        })
    }

    /// Sets the key's bits, remembering the key and which bits it set first.
    #[inline(always)]
    fn add(&mut self, key: &[u8]) {
        self.adds += 1;
        let remembered = self.memory.remember(key);
        let (trace, memory) = (&mut self.add_trace, &mut self.memory);
        trace.start();
        self.bloom.add_each(key, |pos, was_set| {
            trace.record(pos, was_set);
            if let (false, Some(i)) = (was_set, remembered) {
                memory.set_by(pos, i);
            }
        });
    }

    fn explain(&self, key: &[u8]) -> Explanation {
        let spec = self.spec();
        let mut positions = Vec::new();
        spec.positions(key, &mut positions);
        let mut bits: Vec<(u64, bool)> = Vec::with_capacity(positions.len());
        for p in positions {
            if !bits.iter().any(|&(q, _)| q == p) {
                bits.push((p, self.bloom.filter().test(p)));
            }
        }
        Explanation {
            derivation: spec.derivation(key),
            answer: self.bloom.check(key),
            bits,
        }
    }

    fn stats(&self) -> Stats {
        let spec = self.spec();
        let (m, k) = (spec.bits(), spec.hashes());
        let bits_set = self.bloom.bits_set();
        let distinct = self.memory.distinct_keys();
        let n = distinct.map_or(self.adds as f64, |d| d as f64);
        Stats {
            spec,
            adds: self.adds,
            distinct,
            full: self.memory.full(),
            bits_set,
            fp_fill: theory::fp_from_fill(bits_set, m, k),
            n,
            fp_textbook: theory::fp_textbook(n, m, k),
            keys_from_fill: theory::keys_from_fill(bits_set, m, k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T: Tracer>(session: &mut Session<T>, lines: &[&str]) -> Vec<String> {
        let mut seen = Vec::new();
        for line in lines {
            let cmd = Command::parse(line.as_bytes()).unwrap().unwrap();
            seen.push(match session.execute(&cmd) {
                Ok(Outcome::Checked { answer, .. }) => format!("{answer:?}"),
                Ok(Outcome::Bits { filter, .. }) => format!("{} bits set", filter.count_ones()),
                Ok(_) => "-".to_string(),
                Err(e) => format!("error: {e:?}"),
            });
        }
        seen
    }

    const LESSON_TRACE: [&str; 6] = [
        "ADD fig",
        "ADD lime",
        "ADD date",
        "BITS",
        "CHECK plum",
        "CHECK sun",
    ];

    #[test]
    fn outcomes_stay_small() {
        // Every ADD and CHECK of a script moves one: a large outcome, or one that needs
        // dropping, measured 1.1 to 1.3 times slower on the 2M-line benchmark.
        assert!(
            std::mem::size_of::<Result<Outcome<'_>, CommandError>>() <= 72,
            "an outcome is {} bytes",
            std::mem::size_of::<Result<Outcome<'_>, CommandError>>()
        );
    }

    #[test]
    fn reproduces_the_lesson_trace() {
        let mut s = TracedSession::new(FilterSpec::lesson());
        assert_eq!(
            run(&mut s, &LESSON_TRACE),
            ["-", "-", "-", "6 bits set", "No", "Maybe"]
        );
    }

    #[test]
    fn traced_and_plain_sessions_agree() {
        let mut traced = TracedSession::new(FilterSpec::lesson());
        let mut plain = PlainSession::new(FilterSpec::lesson());
        assert_eq!(
            run(&mut traced, &LESSON_TRACE),
            run(&mut plain, &LESSON_TRACE)
        );
        assert_eq!(plain.memory.setter_of(22), Some(&b"date"[..]));
    }

    #[test]
    fn add_outcome_says_which_bits_were_new() {
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD fig", "ADD lime", "ADD date"]);
        match s.execute(&Command::Add(b"sun")).unwrap() {
            Outcome::Added { probe, .. } => {
                assert_eq!(probe.positions, [22, 39]);
                assert_eq!(probe.was_set, [true, true]);
            }
            other => panic!("ADD gave {other:?}"),
        }
        match s.execute(&Command::Bits).unwrap() {
            Outcome::Bits { last_add, .. } => assert_eq!(last_add.positions, [22, 39]),
            other => panic!("BITS gave {other:?}"),
        }
    }

    #[test]
    fn check_outcome_knows_a_false_positive() {
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD fig", "ADD lime", "ADD date"]);
        match s.execute(&Command::Check(b"sun")).unwrap() {
            Outcome::Checked {
                answer,
                recall,
                probe,
                ..
            } => {
                assert_eq!(answer, Answer::Maybe);
                assert_eq!(recall.knows(b"sun"), Knowledge::NeverAdded);
                assert_eq!(probe.positions, [22, 39]);
                assert_eq!(recall.setter_of(22), Some(&b"date"[..]));
                assert_eq!(recall.setter_of(39), Some(&b"lime"[..]));
            }
            other => panic!("CHECK gave {other:?}"),
        }
    }

    #[test]
    fn remove_fails_and_changes_nothing() {
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD fig"]);
        assert_eq!(
            s.execute(&Command::Remove(b"fig")).unwrap_err(),
            CommandError::CannotRemove
        );
        assert_eq!(run(&mut s, &["CHECK fig"]), ["Maybe"]);
    }

    #[test]
    fn stats_count_keys_and_bits() {
        let mut s = PlainSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD fig", "ADD lime", "ADD date", "ADD fig"]);
        match s.execute(&Command::Stats).unwrap() {
            Outcome::Stats(st) => {
                assert_eq!((st.adds, st.distinct, st.bits_set), (4, Some(3), 6));
                assert_eq!(st.fp_fill, (6.0f64 / 64.0).powi(2));
            }
            other => panic!("STATS gave {other:?}"),
        }
    }

    #[test]
    fn clear_forgets_everything() {
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD fig", "CLEAR"]);
        assert_eq!(s.bloom.bits_set(), 0);
        assert_eq!(s.memory.knows(b"fig"), Knowledge::NeverAdded);
        assert_eq!(run(&mut s, &["CHECK fig"]), ["No"]);
    }
}
