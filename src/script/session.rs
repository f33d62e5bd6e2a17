//! The session: one filter, what the tutor remembers about it, and the commands run on it.
//! Running a command returns an [`Outcome`] in numbers; renderers turn it into text.

use std::collections::VecDeque;
use std::fmt;
use std::path::Path;

use crate::engine::bloom::{Answer, Bloom, Merge, NoTrace, Probe, RemoveError, Trace, Tracer};
use crate::engine::counters::{CounterBits, Counters};
use crate::engine::filter::{Filter, OutOfMemory};
use crate::engine::memory::{Knowledge, Limit, Memory};
use crate::engine::saved::Encoded;
use crate::engine::scheme::{Derivation, FilterSpec};
use crate::engine::theory;
use crate::escape::escape_prefix;
use crate::script::command::{Command, Verb};
use crate::script::saved_file::{self, FileError};

/// What a command did, for the renderers. Borrows the command's key and the session, and
/// owns nothing, so it is cheap to move and to drop.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Outcome<'a> {
    /// ADD: the key's positions and their values before (empty when untraced); the counters'
    /// width in a counting filter (`None` when untraced: only commentary reads it).
    Added {
        key: &'a [u8],
        probe: Probe<'a>,
        counting: Option<CounterBits>,
    },
    /// CHECK: the answer, the key's positions and their values (empty when untraced), and
    /// what the tutor remembers, to tell a real MAYBE from a false positive; the counters'
    /// width as for ADD.
    Checked {
        key: &'a [u8],
        answer: Answer,
        probe: Probe<'a>,
        recall: Recall<'a>,
        counting: Option<CounterBits>,
    },
    /// REMOVE in a counting filter: the key's positions and their counters before.
    Removed(Removed<'a>),
    /// BITS: the filter, and what the last ADD did (for a highlight; empty when untraced
    /// and after CLEAR); the counters in a counting filter.
    Bits {
        filter: &'a Filter,
        last_add: Probe<'a>,
        counters: Option<&'a Counters>,
    },
    /// COUNTS: a counting filter's counters.
    Counts {
        counters: &'a Counters,
        last_add: Probe<'a>,
    },
    /// EXPLAIN: everything about one key, without changing anything.
    Explained(Explained<'a>),
    Stats(&'a Stats),
    /// CLEAR: every bit is 0 again.
    Cleared {
        spec: FilterSpec,
    },
    /// SAVE: the file written, as the command named it.
    Saved {
        path: &'a [u8],
        report: &'a FileReport,
    },
    /// LOAD: the filter now is the file's, and the tutor does not know its keys.
    Loaded {
        path: &'a [u8],
        report: &'a FileReport,
    },
    /// UNION or INTERSECT with a saved filter.
    Merged {
        path: &'a [u8],
        report: &'a MergeReport,
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
    /// What `memory` knows, for renderers' tests.
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

/// The numbers EXPLAIN shows: the arithmetic, each distinct position's value, and CHECK's
/// answer. Kept in the session, so outcomes borrow it and stay small and free to drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Explanation {
    pub derivation: Derivation,
    /// Each distinct position, in hash order, with its bit (0 or 1), or its counter in a
    /// counting filter.
    pub bits: Vec<(u64, u8)>,
    pub answer: Answer,
}

/// REMOVE's outcome: the key, its positions and their counters before, and the facts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Removed<'a> {
    pub key: &'a [u8],
    pub probe: Probe<'a>,
    pub facts: &'a Removal,
}

/// What the tutor knows about a REMOVE, and the harm a REMOVE of a key that was not in the
/// filter did. Kept in the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Removal {
    pub width: CounterBits,
    /// Whether the key was in the filter, as the tutor knew before the REMOVE, and after.
    pub knew: Knowledge,
    pub now: Knowledge,
    /// Why the tutor may not know every key.
    pub full: Option<Limit>,
    /// Remembered keys that lost a count, in the order they were added (at most
    /// [`Removal::SHOWN`]; traced sessions only, and only when the key was not in the filter).
    pub victims: Vec<Victim>,
    /// How many keys lost a count, and how many of them CHECK now answers NO for.
    pub lost: usize,
    pub false_negatives: usize,
}

impl Removal {
    /// The most victims a removal lists by name.
    pub const SHOWN: usize = 8;
}

/// A remembered key that lost counts to a REMOVE of another key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Victim {
    pub key: Box<[u8]>,
    /// The key's positions whose counters went down.
    pub positions: Vec<u64>,
    /// CHECK answers NO for it now: a false negative.
    pub now_no: bool,
}

/// A saved filter written or read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileReport {
    pub spec: FilterSpec,
    /// The ADDs that built the filter, less its REMOVEs.
    pub keys: u64,
    /// `keys` is only a bound: an INTERSECT came before this SAVE.
    pub at_most: bool,
    pub bits_set: u64,
    pub file: Encoded,
}

/// What UNION or INTERSECT did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MergeReport {
    pub how: Merge,
    pub spec: FilterSpec,
    /// Bits set in this filter before, in the file's, and in the result.
    pub ours: u64,
    pub theirs: u64,
    pub after: u64,
    /// Saturated counters in the result, in a counting filter.
    pub saturated: Option<u64>,
    /// INTERSECT only: a key in just one of the two sets that the result answers MAYBE for.
    pub example: Example,
}

/// A key that shows what an intersection cannot tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Example {
    /// Not looked for (UNION, or a session that explains nothing).
    NotAsked,
    /// The tutor does not know the file's keys: it was not saved in this session.
    FileKeysUnknown,
    /// None of the keys the tutor knows in just one set answers MAYBE.
    NoneFound { looked_at: usize },
    /// `key` was in only one set (this filter's when `ours`), yet the result says MAYBE.
    Found { key: Box<[u8]>, ours: bool },
}

/// What saved filters brought into this one: the ADDs less REMOVEs each file recorded,
/// which is all a file says about its keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FromFiles {
    /// No saved filter came in since the filter was made or cleared.
    None,
    /// LOAD, then UNION: `files` files, recording `keys` in all (a union's counts add up).
    Recorded { files: u32, keys: u64 },
    /// An INTERSECT keeps only keys in both filters, and no count says how many: at most
    /// the smaller of the two filters' counts, plus what the `files` files united since
    /// recorded; `keys` in all.
    AtMost { keys: u64, files: u32 },
}

impl FromFiles {
    /// The keys the files recorded (a bound after an INTERSECT).
    pub(crate) fn keys(self) -> u64 {
        match self {
            FromFiles::None => 0,
            FromFiles::Recorded { keys, .. } | FromFiles::AtMost { keys, .. } => keys,
        }
    }

    /// This, and then a UNION with a file that recorded `keys`.
    fn united(self, keys: u64) -> FromFiles {
        match self {
            FromFiles::None => FromFiles::Recorded { files: 1, keys },
            FromFiles::Recorded { files, keys: k } => FromFiles::Recorded {
                files: files.saturating_add(1),
                keys: k.saturating_add(keys),
            },
            FromFiles::AtMost { files, keys: k } => FromFiles::AtMost {
                files: files.saturating_add(1),
                keys: k.saturating_add(keys),
            },
        }
    }
}

/// STATS' numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Stats {
    pub spec: FilterSpec,
    /// ADD commands here: since the filter was made, cleared, loaded or intersected.
    pub adds: u64,
    /// REMOVE commands that removed a key, counted as `adds` is.
    pub removes: u64,
    /// What saved filters brought in before or between those commands.
    pub from_files: FromFiles,
    /// The files' keys, plus `adds`, less `removes` (not below 0): what SAVE would record.
    pub keys: u64,
    /// Distinct keys added, while the tutor still knows it exactly.
    pub distinct: Option<usize>,
    /// The memory limit that made the tutor lose count, if one did.
    pub full: Option<Limit>,
    pub bits_set: u64,
    /// (bits set / m)^k.
    pub fp_fill: f64,
    /// The n the textbook estimate uses: distinct keys, or `keys` once the tutor lost count
    /// of distinct keys; none after an INTERSECT, which leaves only a bound.
    pub n: Option<f64>,
    /// (1 − e^(−kn/m))^k, when n is known.
    pub fp_textbook: Option<f64>,
    /// −(m/k)·ln(1 − X/m); infinite when every bit is set.
    pub keys_from_fill: f64,
    /// Saturated counters, in a counting filter.
    pub saturated: Option<u64>,
}

/// A command that could not run. The session is unchanged and goes on. Small and `Copy`:
/// it borrows only the command's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommandError<'l> {
    /// REMOVE on a plain filter, whose bits may be shared by other keys.
    CannotRemove,
    /// REMOVE of a key one of whose counters is too low for it to have been added.
    NotInFilter { position: u64, count: u8, uses: u32 },
    /// COUNTS on a plain filter.
    NoCounters,
    /// SAVE, LOAD, UNION or INTERSECT could not use its file.
    File {
        verb: Verb,
        path: &'l [u8],
        error: FileError,
    },
}

impl fmt::Display for CommandError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::CannotRemove => write!(
                f,
                "REMOVE is not possible in a plain Bloom filter: clearing a key's bits could clear \
                 bits other keys need, and they would then get a wrong NO (CLEAR empties the whole filter)"
            ),
            CommandError::NotInFilter {
                position,
                count,
                uses: 1,
            } => write!(
                f,
                "REMOVE refused: counter {position} is {count}, so this key cannot have been added \
                 (or it was removed already); nothing was changed"
            ),
            CommandError::NotInFilter {
                position,
                count,
                uses,
            } => write!(
                f,
                "REMOVE refused: counter {position} is {count}, but this key counts there {uses} \
                 times, so it cannot have been added (or it was removed already); nothing was changed"
            ),
            CommandError::NoCounters => write!(
                f,
                "COUNTS needs a counting filter, and this one keeps bits (start the tutor with \
                 --counting, or make `# filter: counting=4` a script's first line; BITS prints \
                 the bits)"
            ),
            CommandError::File { verb, path, error } => write!(
                f,
                "could not {verb} `{}`: {error}; {}",
                escape_prefix(path),
                match verb {
                    Verb::Save => "nothing was saved",
                    _ => "the filter is unchanged",
                }
            ),
        }
    }
}

impl std::error::Error for CommandError<'_> {}

/// How many files saved in this session the tutor keeps the keys of.
const SHELF: usize = 4;

/// The keys of a filter this session saved, to find a telling key after an INTERSECT with
/// that file. The file itself holds no keys.
#[derive(Debug, Clone)]
struct Shelved {
    file: Encoded,
    keys: Vec<Box<[u8]>>,
}

/// One filter and its history, driven one command at a time. `T` is what ADD and CHECK
/// record: [`Trace`] for commentary and notes, [`NoTrace`] for plain scripts.
#[derive(Debug, Clone)]
pub(crate) struct Session<T: Tracer> {
    bloom: Bloom,
    memory: Memory,
    /// ADD and REMOVE commands here, since the filter was made, cleared, loaded or
    /// intersected; a UNION keeps them, as it keeps their keys.
    adds: u64,
    removes: u64,
    /// The keys saved filters brought in, as their files counted them.
    from_files: FromFiles,
    /// What the last ADD did (empty after CLEAR).
    add_trace: T,
    check_trace: T,
    remove_trace: T,
    /// The last EXPLAIN's, STATS', REMOVE's and file command's numbers, which their outcomes
    /// borrow.
    explanation: Option<Explanation>,
    stats: Option<Stats>,
    removal: Option<Removal>,
    file_report: Option<FileReport>,
    merge_report: Option<MergeReport>,
    /// The keys of the last few filters saved (traced sessions only); CLEAR keeps them.
    shelf: VecDeque<Shelved>,
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

    /// A session for `bloom`, knowing nothing of its keys.
    fn with_bloom(bloom: Bloom) -> Session<T> {
        Session {
            memory: memory_for(bloom.spec()),
            bloom,
            adds: 0,
            removes: 0,
            from_files: FromFiles::None,
            add_trace: T::default(),
            check_trace: T::default(),
            remove_trace: T::default(),
            explanation: None,
            stats: None,
            removal: None,
            file_report: None,
            merge_report: None,
            shelf: VecDeque::new(),
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

    /// Replaces the filter with an empty one of another shape, forgetting everything but the
    /// keys of the filters saved.
    pub(crate) fn reshape(&mut self, spec: FilterSpec) {
        let shelf = std::mem::take(&mut self.shelf);
        *self = Session::new(spec);
        self.shelf = shelf;
    }

    /// Runs one command.
    #[inline(always)]
    pub(crate) fn execute<'s, 'l: 's>(
        &'s mut self,
        cmd: &Command<'l>,
    ) -> Result<Outcome<'s>, CommandError<'l>> {
        self.touched = true;
        // Only commentary reads it, and only a session that traces has commentary.
        let counting = if T::FULL {
            self.bloom.spec().counting()
        } else {
            None
        };
        Ok(match *cmd {
            Command::Add(key) => {
                self.add(key);
                Outcome::Added {
                    key,
                    probe: self.add_trace.probe(),
                    counting,
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
                    counting,
                }
            }
            Command::Remove(key) => {
                let removal = self.remove(key)?;
                // The filter changed since the last ADD: its bits are no longer the news.
                self.add_trace.start();
                let facts = &*self.removal.insert(removal);
                Outcome::Removed(Removed {
                    key,
                    probe: self.remove_trace.probe(),
                    facts,
                })
            }
            Command::Bits => Outcome::Bits {
                filter: self.bloom.filter(),
                last_add: self.add_trace.probe(),
                counters: self.bloom.counters(),
            },
            Command::Counts => Outcome::Counts {
                counters: self.bloom.counters().ok_or(CommandError::NoCounters)?,
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
            Command::Save(path) => {
                let report = self.save(path)?;
                Outcome::Saved { path, report }
            }
            Command::Load(path) => {
                let file = saved_file::path_of(path)
                    .and_then(|p| saved_file::load(&p))
                    .map_err(file_error(Verb::Load, path))?;
                self.add_trace.start();
                Outcome::Loaded {
                    path,
                    report: self.replace_with(file, true),
                }
            }
            Command::Union(path) => Outcome::Merged {
                path,
                report: self.merge(Verb::Union, Merge::Union, path)?,
            },
            Command::Intersect(path) => Outcome::Merged {
                path,
                report: self.merge(Verb::Intersect, Merge::Intersect, path)?,
            },
            Command::Help(topic) => Outcome::Help(topic),
            Command::Quit => Outcome::Quit,
        })
    }

    /// Replaces the filter with the saved one at `path`, any path at all: `--load FILE`.
    pub(crate) fn load_path(&mut self, path: &Path) -> Result<&FileReport, FileError> {
        let file = saved_file::load(path)?;
        Ok(self.replace_with(file, false))
    }

    /// The ADDs that built the filter, less its REMOVEs: what a saved file records (the
    /// files' keys count as ADDs; a bound after an INTERSECT).
    fn keys(&self) -> u64 {
        self.from_files
            .keys()
            .saturating_add(self.adds)
            .saturating_sub(self.removes)
    }

    /// Sets the key's bits, remembering the key and which bits it set first.
    #[inline(always)]
    fn add(&mut self, key: &[u8]) {
        self.adds += 1;
        let remembered = self.memory.remember(key);
        let (trace, memory) = (&mut self.add_trace, &mut self.memory);
        trace.start();
        self.bloom.add_each(key, |pos, before| {
            trace.record(pos, before);
            if let (0, Some(i)) = (before, remembered) {
                memory.set_by(pos, i);
            }
        });
    }

    /// REMOVE: takes the key's counts out, and when the key was not in the filter, finds the
    /// remembered keys that paid for it (in a session that explains).
    fn remove(&mut self, key: &[u8]) -> Result<Removal, CommandError<'static>> {
        let knew = self.memory.knows(key);
        let trace = &mut self.remove_trace;
        trace.start();
        let mut visited = Vec::new();
        self.bloom
            .remove_each(key, |pos, before| {
                trace.record(pos, before);
                visited.push((pos, before));
            })
            .map_err(|e| match e {
                RemoveError::NotCounting => CommandError::CannotRemove,
                RemoveError::NotInFilter {
                    position,
                    count,
                    uses,
                } => CommandError::NotInFilter {
                    position,
                    count,
                    uses,
                },
            })?;
        self.removes += 1;
        self.memory.forget_one(key);
        let width = self.bloom.spec().counting().unwrap_or(CounterBits::DEFAULT);
        let lowered: Vec<u64> = visited
            .iter()
            .filter(|&&(_, before)| before != width.max())
            .map(|&(pos, _)| pos)
            .collect();
        for &pos in &lowered {
            if self.bloom.value(pos) == 0 {
                self.memory.unset(pos);
            }
        }
        let mut removal = Removal {
            width,
            knew,
            now: self.memory.knows(key),
            full: self.memory.full(),
            victims: Vec::new(),
            lost: 0,
            false_negatives: 0,
        };
        // Only a key the tutor knows was not in the filter took counts that were not its own.
        if T::FULL && matches!(knew, Knowledge::NeverAdded | Knowledge::Removed) {
            let spec = self.spec();
            let mut positions = Vec::new();
            for other in self.memory.added_keys() {
                spec.positions(other, &mut positions);
                let mut hit: Vec<u64> = positions
                    .iter()
                    .copied()
                    .filter(|p| lowered.contains(p))
                    .collect();
                if hit.is_empty() {
                    continue;
                }
                hit.dedup();
                let now_no = self.bloom.check(other) == Answer::No;
                removal.lost += 1;
                removal.false_negatives += usize::from(now_no);
                if removal.victims.len() < Removal::SHOWN {
                    removal.victims.push(Victim {
                        key: other.into(),
                        positions: hit,
                        now_no,
                    });
                }
            }
        }
        Ok(removal)
    }

    /// SAVE: writes the filter to a file inside the current folder.
    fn save<'l>(&mut self, path: &'l [u8]) -> Result<&FileReport, CommandError<'l>> {
        let keys = self.keys();
        let file = saved_file::path_of(path)
            .and_then(|p| saved_file::save(&p, &self.bloom, keys))
            .map_err(file_error(Verb::Save, path))?;
        // Only a session that explains uses the keys, and only when it knows them all.
        if T::FULL && self.memory.distinct_keys().is_some() {
            if self.shelf.len() == SHELF {
                self.shelf.pop_front();
            }
            self.shelf.push_back(Shelved {
                file,
                keys: self.memory.added_keys().map(Box::from).collect(),
            });
        }
        Ok(self.file_report.insert(FileReport {
            spec: self.spec(),
            keys,
            at_most: matches!(self.from_files, FromFiles::AtMost { .. }),
            bits_set: self.bloom.bits_set(),
            file,
        }))
    }

    /// Makes a loaded filter this session's: a saved filter holds no keys, so the tutor no
    /// longer knows which were added.
    fn replace_with(&mut self, loaded: saved_file::Loaded, touched: bool) -> &FileReport {
        let spec = loaded.bloom.spec();
        let shelf = std::mem::take(&mut self.shelf);
        // `--load` leaves the session untouched, so a script's `# filter:` line is noted and
        // ignored, as for any filter the command line chose.
        *self = Session::with_bloom(loaded.bloom);
        self.shelf = shelf;
        self.touched = touched;
        self.from_files = FromFiles::Recorded {
            files: 1,
            keys: loaded.keys,
        };
        self.memory.add_unknown_keys();
        self.file_report.insert(FileReport {
            spec,
            keys: loaded.keys,
            at_most: false,
            bits_set: self.bloom.bits_set(),
            file: loaded.file,
        })
    }

    /// UNION or INTERSECT with the saved filter at `path`, which must have the same shape.
    fn merge<'l>(
        &mut self,
        verb: Verb,
        how: Merge,
        path: &'l [u8],
    ) -> Result<&MergeReport, CommandError<'l>> {
        let to_error = file_error(verb, path);
        let file = saved_file::path_of(path)
            .and_then(|p| saved_file::load_shaped(&p, self.bloom.spec()))
            .map_err(&to_error)?;
        let ours = self.bloom.bits_set();
        self.bloom
            .merge(&file.bloom, how)
            .map_err(|m| to_error(FileError::Shape(m)))?;
        // The filter changed since the last ADD: its bits are no longer the news.
        self.add_trace.start();
        let example = match how {
            Merge::Intersect if T::FULL => self.telling_key(&file),
            Merge::Union | Merge::Intersect => Example::NotAsked,
        };
        match how {
            Merge::Union => {
                // This filter's keys are all still in, and the commands here still count
                // them; the file's are not known, only how many it recorded.
                self.from_files = self.from_files.united(file.keys);
                self.memory.add_unknown_keys();
            }
            Merge::Intersect => {
                // Keys of either filter may be gone: only the smaller count bounds what is
                // left, and the commands before are in that bound.
                self.from_files = FromFiles::AtMost {
                    keys: self.keys().min(file.keys),
                    files: 0,
                };
                self.adds = 0;
                self.removes = 0;
                self.memory = memory_for(self.spec());
                self.memory.add_unknown_keys();
            }
        }
        Ok(self.merge_report.insert(MergeReport {
            how,
            spec: self.spec(),
            ours,
            theirs: file.bloom.bits_set(),
            after: self.bloom.bits_set(),
            saturated: self.bloom.counters().map(Counters::saturated),
            example,
        }))
    }

    /// After an INTERSECT: a key in just one of the two sets, among the keys the tutor knows,
    /// that the intersection answers MAYBE for.
    fn telling_key(&self, file: &saved_file::Loaded) -> Example {
        let Some(theirs) = self.shelf.iter().rev().find(|s| s.file == file.file) else {
            return Example::FileKeysUnknown;
        };
        let ours_exact = self.memory.distinct_keys().is_some();
        let in_theirs = |k: &[u8]| theirs.keys.iter().any(|t| **t == *k);
        let mut looked_at = 0;
        // Keys only in this filter, then (when this filter's keys are all known) keys only in
        // the file's.
        for key in self.memory.added_keys() {
            if in_theirs(key) {
                continue;
            }
            looked_at += 1;
            if self.bloom.check(key) == Answer::Maybe {
                return Example::Found {
                    key: key.into(),
                    ours: true,
                };
            }
        }
        if ours_exact {
            for key in &theirs.keys {
                if self.memory.knows(key) == Knowledge::Added {
                    continue;
                }
                looked_at += 1;
                if self.bloom.check(key) == Answer::Maybe {
                    return Example::Found {
                        key: key.clone(),
                        ours: false,
                    };
                }
            }
        }
        Example::NoneFound { looked_at }
    }

    fn explain(&self, key: &[u8]) -> Explanation {
        let spec = self.spec();
        let mut positions = Vec::new();
        spec.positions(key, &mut positions);
        let mut bits: Vec<(u64, u8)> = Vec::with_capacity(positions.len());
        for p in positions {
            if !bits.iter().any(|&(q, _)| q == p) {
                bits.push((p, self.bloom.value(p)));
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
        let keys = self.keys();
        let n = match self.from_files {
            FromFiles::AtMost { .. } => None,
            FromFiles::None | FromFiles::Recorded { .. } => {
                Some(distinct.map_or(keys as f64, |d| d as f64))
            }
        };
        Stats {
            spec,
            adds: self.adds,
            removes: self.removes,
            from_files: self.from_files,
            keys,
            distinct,
            full: self.memory.full(),
            bits_set,
            fp_fill: theory::fp_from_fill(bits_set, m, k),
            n,
            fp_textbook: n.map(|n| theory::fp_textbook(n, m, k)),
            keys_from_fill: theory::keys_from_fill(bits_set, m, k),
            saturated: self.bloom.counters().map(Counters::saturated),
        }
    }
}

/// What the tutor remembers for a filter of shape `spec`: a counting filter counts every
/// ADD and REMOVE of each key it knows.
fn memory_for(spec: FilterSpec) -> Memory {
    match spec.counting() {
        Some(_) => Memory::counting(),
        None => Memory::default(),
    }
}

/// Turns a file's error into the command's.
fn file_error<'l>(verb: Verb, path: &'l [u8]) -> impl Fn(FileError) -> CommandError<'l> {
    move |error| CommandError::File { verb, path, error }
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
                assert_eq!(probe.before, [1, 1]);
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

    fn counting(bits: u8) -> FilterSpec {
        FilterSpec::lesson().with_counters(Some(bits)).unwrap()
    }

    #[test]
    fn removing_a_false_positive_names_the_keys_it_hurt() {
        let mut s = TracedSession::new(counting(4));
        run(&mut s, &["ADD fig", "ADD lime", "ADD date"]);
        let Ok(Outcome::Removed(r)) = s.execute(&Command::Remove(b"sun")) else {
            panic!("REMOVE sun in a counting filter runs");
        };
        assert_eq!(r.facts.knew, Knowledge::NeverAdded);
        let hurt: Vec<(&[u8], &[u64], bool)> = r
            .facts
            .victims
            .iter()
            .map(|v| (&*v.key, &v.positions[..], v.now_no))
            .collect();
        assert_eq!(
            hurt,
            [
                (&b"lime"[..], &[39][..], true),
                (&b"date"[..], &[22][..], true)
            ]
        );
        assert_eq!((r.facts.lost, r.facts.false_negatives), (2, 2));
        assert_eq!(run(&mut s, &["CHECK date", "CHECK fig"]), ["No", "Maybe"]);
    }

    #[test]
    fn removing_an_added_key_hurts_no_one() {
        let mut s = TracedSession::new(counting(4));
        run(&mut s, &["ADD date", "ADD sun", "ADD sun"]);
        let Ok(Outcome::Removed(r)) = s.execute(&Command::Remove(b"sun")) else {
            panic!("REMOVE sun runs");
        };
        assert_eq!(
            (r.facts.knew, r.facts.now),
            (Knowledge::Added, Knowledge::Added)
        );
        assert!(r.facts.victims.is_empty());
        run(&mut s, &["REMOVE sun"]);
        assert_eq!(s.memory.knows(b"sun"), Knowledge::Removed);
        assert_eq!(run(&mut s, &["CHECK date", "CHECK sun"]), ["Maybe", "No"]);
        assert_eq!(
            s.execute(&Command::Remove(b"sun")).unwrap_err(),
            CommandError::NotInFilter {
                position: 39,
                count: 0,
                uses: 1
            }
        );
    }

    #[test]
    fn counts_needs_a_counting_filter() {
        let mut s = PlainSession::new(FilterSpec::lesson());
        assert_eq!(
            s.execute(&Command::Counts).unwrap_err(),
            CommandError::NoCounters
        );
        let mut s = PlainSession::new(counting(3));
        run(&mut s, &["ADD fig", "ADD fig"]);
        match s.execute(&Command::Counts).unwrap() {
            Outcome::Counts { counters, .. } => {
                assert_eq!((counters.get(54), counters.get(45)), (2, 2));
            }
            other => panic!("COUNTS gave {other:?}"),
        }
    }

    /// A folder inside the current one, as scripts must name their files.
    fn local_dir() -> tempfile::TempDir {
        tempfile::tempdir_in(".").expect("a folder in the current folder")
    }

    fn local(dir: &tempfile::TempDir, name: &str) -> Vec<u8> {
        let name = dir
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
            + "/"
            + name;
        name.into_bytes()
    }

    #[test]
    fn save_then_load_gives_the_filter_back_and_forgets_the_keys() {
        let dir = local_dir();
        let file = local(&dir, "f.bloom");
        let mut s = TracedSession::new(counting(4));
        run(&mut s, &["ADD fig", "ADD lime", "ADD fig", "REMOVE lime"]);
        s.execute(&Command::Save(&file)).unwrap();
        let mut t = TracedSession::new(FilterSpec::lesson());
        match t.execute(&Command::Load(&file)).unwrap() {
            Outcome::Loaded { report, .. } => {
                assert_eq!(report.spec, counting(4));
                assert_eq!(report.keys, 2, "three ADDs less one REMOVE");
            }
            other => panic!("LOAD gave {other:?}"),
        }
        assert_eq!(t.bloom.counters(), s.bloom.counters());
        assert_eq!(t.memory.knows(b"fig"), Knowledge::Unknown);
        assert!(!t.is_untouched());
    }

    #[test]
    fn a_failed_load_changes_nothing() {
        let dir = local_dir();
        let file = local(&dir, "notes.txt");
        std::fs::write(std::str::from_utf8(&file).unwrap(), b"not a filter").unwrap();
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD fig"]);
        let err = s.execute(&Command::Load(&file)).unwrap_err();
        assert!(
            matches!(
                err,
                CommandError::File {
                    verb: Verb::Load,
                    error: FileError::Format(crate::engine::saved::FormatError::Foreign),
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(run(&mut s, &["CHECK fig"]), ["Maybe"]);
        assert_eq!(s.memory.knows(b"fig"), Knowledge::Added);
    }

    #[test]
    fn intersect_points_at_a_key_from_one_set_that_still_says_maybe() {
        let dir = local_dir();
        let file = local(&dir, "sun.bloom");
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD sun"]);
        s.execute(&Command::Save(&file)).unwrap();
        run(&mut s, &["CLEAR", "ADD date", "ADD lime"]);
        match s.execute(&Command::Intersect(&file)).unwrap() {
            Outcome::Merged { report, .. } => {
                assert_eq!((report.ours, report.theirs, report.after), (4, 2, 2));
                assert_eq!(
                    report.example,
                    Example::Found {
                        key: b"sun".to_vec().into_boxed_slice(),
                        ours: false
                    }
                );
            }
            other => panic!("INTERSECT gave {other:?}"),
        }
        assert_eq!(s.memory.knows(b"date"), Knowledge::Unknown);
        // The last ADD's bits are not news after the filter changed another way.
        match s.execute(&Command::Bits).unwrap() {
            Outcome::Bits { last_add, .. } => assert!(last_add.positions.is_empty()),
            other => panic!("BITS gave {other:?}"),
        }
    }

    #[test]
    fn a_remove_or_load_ends_what_the_last_add_set() {
        let dir = local_dir();
        let file = local(&dir, "f.bloom");
        let last_add = |s: &mut TracedSession| match s.execute(&Command::Bits).unwrap() {
            Outcome::Bits { last_add, .. } => last_add.positions.to_vec(),
            other => panic!("BITS gave {other:?}"),
        };
        let mut s = TracedSession::new(counting(4));
        run(&mut s, &["ADD fig", "ADD lime"]);
        s.execute(&Command::Save(&file)).unwrap();
        assert_eq!(last_add(&mut s), [39, 25], "SAVE changes nothing");
        run(&mut s, &["REMOVE lime"]);
        assert!(last_add(&mut s).is_empty());
        run(&mut s, &["ADD date"]);
        s.execute(&Command::Load(&file)).unwrap();
        assert!(last_add(&mut s).is_empty());
    }

    #[test]
    fn union_keeps_this_filters_keys_known() {
        let dir = local_dir();
        let file = local(&dir, "a.bloom");
        let mut s = TracedSession::new(FilterSpec::lesson());
        run(&mut s, &["ADD sun"]);
        s.execute(&Command::Save(&file)).unwrap();
        run(
            &mut s,
            &[
                "CLEAR",
                "ADD fig",
                &format!("UNION {}", String::from_utf8_lossy(&file)),
            ],
        );
        assert_eq!(s.memory.knows(b"fig"), Knowledge::Added);
        assert_eq!(s.memory.knows(b"sun"), Knowledge::Unknown);
        assert_eq!(
            (s.adds, s.from_files, s.keys()),
            (1, FromFiles::Recorded { files: 1, keys: 1 }, 2)
        );
        assert_eq!(run(&mut s, &["CHECK sun"]), ["Maybe"]);
    }

    fn stats_of<T: Tracer>(s: &mut Session<T>) -> Stats {
        match s.execute(&Command::Stats).unwrap() {
            Outcome::Stats(st) => *st,
            other => panic!("STATS gave {other:?}"),
        }
    }

    #[test]
    fn a_union_adds_the_files_count_and_an_intersection_leaves_a_bound() {
        let dir = local_dir();
        let file = local(&dir, "two.bloom");
        let file = String::from_utf8(file).unwrap();
        let mut s = PlainSession::new(counting(4));
        run(&mut s, &["ADD fig", "ADD sun"]);
        s.execute(&Command::Save(file.as_bytes())).unwrap();
        run(&mut s, &["CLEAR", "ADD date", &format!("UNION {file}")]);
        run(
            &mut s,
            &["ADD lime", "REMOVE date", &format!("UNION {file}")],
        );
        let st = stats_of(&mut s);
        assert_eq!(
            (st.adds, st.removes, st.from_files, st.keys, st.n),
            (
                2,
                1,
                FromFiles::Recorded { files: 2, keys: 4 },
                5,
                Some(5.0)
            ),
            "two files of 2 keys, then 2 ADDs less 1 REMOVE"
        );
        run(&mut s, &["CLEAR", "ADD fig", "ADD date", "ADD lime"]);
        run(&mut s, &[&format!("INTERSECT {file}"), "ADD plum"]);
        let st = stats_of(&mut s);
        assert_eq!(
            (st.adds, st.from_files, st.keys, st.n, st.fp_textbook),
            (1, FromFiles::AtMost { keys: 2, files: 0 }, 3, None, None),
            "the smaller of 3 and 2, then 1 ADD; no n for the textbook"
        );
    }

    #[test]
    fn a_key_removed_after_a_union_may_still_be_in_the_file() {
        let dir = local_dir();
        let file = local(&dir, "figs.bloom");
        let mut s = TracedSession::new(counting(4));
        run(&mut s, &["ADD fig", "ADD fig"]);
        s.execute(&Command::Save(&file)).unwrap();
        run(&mut s, &["CLEAR", "ADD fig"]);
        s.execute(&Command::Union(&file)).unwrap();
        run(&mut s, &["REMOVE fig"]);
        let Ok(Outcome::Removed(r)) = s.execute(&Command::Remove(b"fig")) else {
            panic!("a second REMOVE fig runs: the file added fig twice");
        };
        assert_eq!(
            (r.facts.knew, r.facts.now),
            (Knowledge::RemovedHere, Knowledge::RemovedHere)
        );
        assert!(r.facts.victims.is_empty(), "no key is blamed");
    }

    #[test]
    fn file_commands_refuse_paths_outside_the_current_folder() {
        let mut s = PlainSession::new(FilterSpec::lesson());
        for cmd in [
            Command::Save(b"/tmp/x.bloom"),
            Command::Load(b"../x.bloom"),
            Command::Union(b"/dev/zero"),
        ] {
            assert!(
                matches!(
                    s.execute(&cmd),
                    Err(CommandError::File {
                        error: FileError::Path(_),
                        ..
                    })
                ),
                "{cmd:?}"
            );
        }
    }
}
