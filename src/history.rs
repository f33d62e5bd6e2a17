//! The REPL's history file. It is read once at the start; each command is appended the
//! moment it is typed, so nothing is lost when the terminal closes or the tutor is killed,
//! and two sessions on one file keep each other's lines. The file is trimmed to its last
//! [`MAX_ENTRIES`] lines by writing a new file and renaming it over the old one.

use std::collections::VecDeque;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::atomic::{self, StateFileError};
use crate::script::reader::{self, Event, Flow, MAX_LINE};

/// How many commands the history keeps.
pub(crate) const MAX_ENTRIES: usize = 1000;
/// How many bytes of entries (each with its line end) the history keeps, newest first: a
/// few entries as long as a line may be, or [`MAX_ENTRIES`] of any usual length.
const MAX_BYTES: usize = 4 * MAX_LINE;

/// A history file in use.
#[derive(Debug)]
pub(crate) struct HistoryFile {
    path: PathBuf,
    /// Lines in the file as of its last trim (or opening), plus those appended since.
    lines: usize,
    /// Bytes in the file, counted the same way.
    bytes: u64,
    /// How many lines of the file were passed over when it was opened: too long, not UTF-8,
    /// or holding a control or format character.
    pub(crate) skipped: usize,
}

/// Whether `entry` may go into the history: not blank, at most [`MAX_LINE`] bytes, and
/// nothing in it that [`crate::escape`] would hide (a terminal would act on a raw escape
/// sequence or bidi control when the entry is recalled).
pub(crate) fn keeps(entry: &str) -> bool {
    !entry.trim().is_empty() && entry.len() <= MAX_LINE && !crate::escape::has_hidden(entry)
}

impl HistoryFile {
    /// Opens the history at `path`, making its folder; returns it with its newest entries
    /// (at most [`MAX_ENTRIES`], and [`MAX_BYTES`] in all), oldest first. A missing file is
    /// an empty history. Lines [`keeps`] refuses are passed over and counted in `skipped`.
    pub(crate) fn open(path: &Path) -> Result<(HistoryFile, Vec<String>), StateFileError> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        // Refuses a FIFO or a device before opening it.
        atomic::check_replaceable(path)?;
        let tail = match File::open(path) {
            Ok(file) => read_tail(file)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Tail::default(),
            Err(e) => return Err(e.into()),
        };
        let mut history = HistoryFile {
            path: path.to_path_buf(),
            lines: tail.lines,
            bytes: tail.file_bytes,
            skipped: tail.skipped,
        };
        // A file that grew past twice what is kept (other sessions, an older tutor) is
        // trimmed now, so it never grows without bound.
        if history.too_big() {
            history.trim()?;
        }
        Ok((history, tail.entries.into()))
    }

    /// Appends one entry (one line) with a single write at the end of the file, so two
    /// sessions appending at once do not mix their lines. An entry [`keeps`] refuses is not
    /// written.
    pub(crate) fn append(&mut self, entry: &str) -> io::Result<()> {
        if !keeps(entry) {
            return Ok(());
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&self.path)?;
        // A write cut short before (a full disk) left a line without its end: start a new
        // line, so this entry stays whole.
        let mut line = String::new();
        let len = file.metadata()?.len();
        if len > 0 {
            let mut last = [0u8];
            file.seek(SeekFrom::Start(len - 1))?;
            file.read_exact(&mut last)?;
            if last[0] != b'\n' {
                line.push('\n');
            }
        }
        line.push_str(entry);
        line.push('\n');
        file.write_all(line.as_bytes())?;
        self.lines += 1;
        self.bytes += line.len() as u64;
        if self.too_big() {
            self.trim()?;
        }
        Ok(())
    }

    /// Whether the file holds more than twice what is kept, in lines or in bytes.
    fn too_big(&self) -> bool {
        self.lines > 2 * MAX_ENTRIES || self.bytes > 2 * MAX_BYTES as u64
    }

    /// Rewrites the file with the entries [`open`](HistoryFile::open) would return,
    /// atomically.
    fn trim(&mut self) -> io::Result<()> {
        let tail = read_tail(File::open(&self.path)?).map_err(io::Error::other)?;
        let mut text = String::with_capacity(tail.bytes);
        for entry in &tail.entries {
            text.push_str(entry);
            text.push('\n');
        }
        atomic::write_atomically(&self.path, text.as_bytes())?;
        self.lines = tail.entries.len();
        self.bytes = text.len() as u64;
        Ok(())
    }
}

/// What [`read_tail`] found in a history file.
#[derive(Debug, Default)]
struct Tail {
    /// The newest entries [`keeps`] accepts, oldest first.
    entries: VecDeque<String>,
    /// Bytes in `entries`, one line end each.
    bytes: usize,
    /// Lines in the file.
    lines: usize,
    /// Bytes in the file.
    file_bytes: u64,
    /// Lines passed over: too long, not UTF-8, or with a hidden character.
    skipped: usize,
}

/// Reads a whole history file, line by line with a bounded buffer (a line longer than
/// [`MAX_LINE`] is read through, not kept), keeping its newest entries. Blank lines and the
/// `#V2` header older versions wrote are passed over without counting as skipped.
fn read_tail(file: File) -> Result<Tail, StateFileError> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(StateFileError::NotRegular { kind: "not a file" });
    }
    let mut tail = Tail {
        file_bytes: meta.len(),
        ..Tail::default()
    };
    reader::for_each_line(file, |event| {
        let line = match event {
            Event::Waiting => return Ok::<_, io::Error>(Flow::Continue),
            Event::TooLong { .. } => {
                tail.lines += 1;
                tail.skipped += 1;
                return Ok(Flow::Continue);
            }
            Event::Line(_, line) => line,
        };
        tail.lines += 1;
        if line.trim_ascii().is_empty() || line == b"#V2" {
            return Ok(Flow::Continue);
        }
        match std::str::from_utf8(line) {
            Ok(entry) if keeps(entry) => {
                tail.bytes += entry.len() + 1;
                tail.entries.push_back(entry.to_string());
                while tail.entries.len() > MAX_ENTRIES || tail.bytes > MAX_BYTES {
                    let Some(old) = tail.entries.pop_front() else {
                        break;
                    };
                    tail.bytes -= old.len() + 1;
                }
            }
            _ => tail.skipped += 1,
        }
        Ok(Flow::Continue)
    })?;
    Ok(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_without_a_clean_exit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("history.txt");
        let (mut h, old) = HistoryFile::open(&path).unwrap();
        assert!(old.is_empty());
        h.append("ADD fig").unwrap();
        h.append("CHECK fig").unwrap();
        // No save step: what was appended is on disk already.
        let (_, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got, ["ADD fig", "CHECK fig"]);
    }

    #[test]
    fn two_sessions_keep_each_others_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let (mut a, _) = HistoryFile::open(&path).unwrap();
        let (mut b, _) = HistoryFile::open(&path).unwrap();
        a.append("ADD a").unwrap();
        b.append("ADD b").unwrap();
        a.append("CHECK a").unwrap();
        let (_, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got, ["ADD a", "ADD b", "CHECK a"]);
    }

    #[test]
    fn the_file_is_trimmed_to_the_last_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let (mut h, _) = HistoryFile::open(&path).unwrap();
        for i in 0..2 * MAX_ENTRIES + 5 {
            h.append(&format!("ADD k{i}")).unwrap();
        }
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.lines().count() <= MAX_ENTRIES + 5,
            "{} lines",
            text.lines().count()
        );
        let (_, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got.len(), MAX_ENTRIES);
        assert_eq!(got.last().map(String::as_str), Some("ADD k2004"));
    }

    #[test]
    fn a_long_file_is_trimmed_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let text: String = (0..5000).map(|i| format!("ADD k{i}\n")).collect();
        fs::write(&path, text).unwrap();
        let (_, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got.len(), MAX_ENTRIES);
        let lines = fs::read_to_string(&path).unwrap().lines().count();
        assert_eq!(lines, MAX_ENTRIES, "the file itself was trimmed");
    }

    #[test]
    fn an_entry_after_a_cut_short_line_stays_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        fs::write(&path, "ADD fig\nADD zzz").unwrap();
        let (mut h, _) = HistoryFile::open(&path).unwrap();
        h.append("CHECK fig").unwrap();
        let (_, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got, ["ADD fig", "ADD zzz", "CHECK fig"]);
    }

    #[test]
    fn old_headers_and_bad_lines_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        fs::write(&path, b"#V2\nADD fig\n\xff\xfe\nBITS\n").unwrap();
        let (_, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got, ["ADD fig", "BITS"]);
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        assert!(matches!(
            HistoryFile::open(&path),
            Err(StateFileError::NotRegular { .. })
        ));
    }

    /// `n` short entries, one a line.
    fn entries(n: usize) -> String {
        (0..n).map(|i| format!("ADD k{i}\n")).collect()
    }

    #[test]
    fn a_too_long_line_is_skipped_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let mut text = entries(MAX_ENTRIES).into_bytes();
        text.extend_from_slice(b"ADD ");
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + MAX_LINE / 2));
        text.push(b'\n');
        fs::write(&path, &text).unwrap();
        let (mut h, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(
            got.len(),
            MAX_ENTRIES,
            "the entries before the long line are kept"
        );
        assert_eq!(got.last().map(String::as_str), Some("ADD k999"));
        assert_eq!(h.skipped, 1, "the long line is counted as skipped");
        assert_eq!(fs::read(&path).unwrap(), text, "opening rewrote the file");
        h.append("CHECK fig").unwrap();
        let (h, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got.len(), MAX_ENTRIES);
        assert_eq!(got.first().map(String::as_str), Some("ADD k1"));
        assert_eq!(got.last().map(String::as_str), Some("CHECK fig"));
        assert_eq!(h.skipped, 1);
    }

    #[test]
    fn a_line_as_long_as_a_line_may_be_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let long = format!("ADD {}", "y".repeat(MAX_LINE - 4));
        fs::write(&path, format!("{}{long}\n", entries(MAX_ENTRIES - 1))).unwrap();
        let (h, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got.len(), MAX_ENTRIES);
        assert_eq!(got.last(), Some(&long));
        assert_eq!(h.skipped, 0);
    }

    #[test]
    fn a_huge_line_is_trimmed_away_and_every_entry_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let mut text = entries(MAX_ENTRIES / 2).into_bytes();
        text.extend(std::iter::repeat_n(b'x', 2 * MAX_BYTES + 1));
        text.extend_from_slice(b"\nCHECK last\n");
        fs::write(&path, &text).unwrap();
        let (h, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(h.skipped, 1);
        assert_eq!(got.len(), MAX_ENTRIES / 2 + 1);
        let kept = fs::read_to_string(&path).unwrap();
        assert_eq!(
            kept,
            format!("{}CHECK last\n", entries(MAX_ENTRIES / 2)),
            "the trimmed file holds every entry, without the huge line"
        );
    }

    #[test]
    fn entries_are_kept_within_a_byte_budget() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let (mut h, _) = HistoryFile::open(&path).unwrap();
        for i in 0..10 {
            h.append(&format!("ADD {i}{}", "z".repeat(MAX_LINE - 10)))
                .unwrap();
        }
        let (_, got) = HistoryFile::open(&path).unwrap();
        let bytes: usize = got.iter().map(|e| e.len() + 1).sum();
        assert!(bytes <= MAX_BYTES, "{bytes} bytes loaded");
        assert!(got.last().is_some_and(|e| e.starts_with("ADD 9")));
        assert!(fs::metadata(&path).unwrap().len() <= 2 * MAX_BYTES as u64);
    }

    #[test]
    fn entries_a_terminal_would_act_on_are_not_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let text = "ADD safe\nADD \x1b]0;PWNED\x07\x1b[31mred\u{202e}\nADD a\tb\n\
                    ADD \u{202e}gnp.exe\nADD zero\u{200b}width\nADD back\\slash\n";
        fs::write(&path, text).unwrap();
        let (h, got) = HistoryFile::open(&path).unwrap();
        assert_eq!(got, ["ADD safe", "ADD back\\slash"]);
        assert_eq!(h.skipped, 4);
    }

    #[test]
    fn entries_too_long_or_with_controls_are_not_appended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.txt");
        let (mut h, _) = HistoryFile::open(&path).unwrap();
        h.append("ADD fig").unwrap();
        h.append(&format!("ADD {}", "x".repeat(MAX_LINE))).unwrap();
        h.append("ADD \x1b[31mred").unwrap();
        h.append("ADD two\nlines").unwrap();
        h.append("ADD \u{202e}fig").unwrap();
        h.append("   ").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "ADD fig\n");
    }

    #[test]
    fn what_the_history_keeps() {
        #[track_caller]
        fn case(entry: &str, kept: bool) {
            assert_eq!(keeps(entry), kept, "keeps({entry:?})");
        }
        case("ADD fig", true);
        case("CHECK café", true);
        case("ADD a\\b", true);
        case("", false);
        case("  ", false);
        case("ADD \x07", false);
        case("ADD \u{9b}31m", false);
        case("ADD \u{2066}x", false);
        case(&"x".repeat(MAX_LINE), true);
        case(&"x".repeat(MAX_LINE + 1), false);
    }
}
