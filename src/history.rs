//! The REPL's history file. It is read once at the start; each command is appended the
//! moment it is typed, so nothing is lost when the terminal closes or the tutor is killed,
//! and two sessions on one file keep each other's lines. The file is trimmed to its last
//! [`MAX_ENTRIES`] lines by writing a new file and renaming it over the old one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::atomic::{self, StateFileError};

/// How many commands the history keeps.
pub(crate) const MAX_ENTRIES: usize = 1000;
/// How much of the file is read at the start: its end, if it has grown past this.
const MAX_BYTES: u64 = 1 << 20;

/// A history file in use.
#[derive(Debug)]
pub(crate) struct HistoryFile {
    path: PathBuf,
    /// Lines appended since the file was last trimmed.
    appended: usize,
}

impl HistoryFile {
    /// Opens the history at `path`, making its folder; returns it with its last
    /// [`MAX_ENTRIES`] entries, oldest first. A missing file is an empty history.
    pub(crate) fn open(path: &Path) -> Result<(HistoryFile, Vec<String>), StateFileError> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        // Refuses a FIFO or a device before opening it.
        atomic::check_replaceable(path)?;
        let (entries, lines) = match File::open(path) {
            Ok(file) => read_tail(file)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => (Vec::new(), 0),
            Err(e) => return Err(e.into()),
        };
        let mut history = HistoryFile {
            path: path.to_path_buf(),
            appended: lines,
        };
        // A file that grew past twice what is kept (other sessions, an older tutor) is
        // trimmed now, so it never grows without bound.
        if lines > 2 * MAX_ENTRIES {
            history.trim()?;
        }
        Ok((history, entries))
    }

    /// Appends one entry (one line) with a single write at the end of the file, so two
    /// sessions appending at once do not mix their lines.
    pub(crate) fn append(&mut self, entry: &str) -> io::Result<()> {
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
        line.push_str(&entry.replace(['\n', '\r'], " "));
        line.push('\n');
        file.write_all(line.as_bytes())?;
        self.appended += 1;
        if self.appended > 2 * MAX_ENTRIES {
            self.trim()?;
        }
        Ok(())
    }

    /// Rewrites the file with its last [`MAX_ENTRIES`] entries, atomically.
    fn trim(&mut self) -> io::Result<()> {
        let (entries, _) = read_tail(File::open(&self.path)?).map_err(io::Error::other)?;
        let mut text = entries.join("\n");
        text.push('\n');
        atomic::write_atomically(&self.path, text.as_bytes())?;
        self.appended = entries.len();
        Ok(())
    }
}

/// The last [`MAX_ENTRIES`] entries of a history file, reading at most [`MAX_BYTES`] from its
/// end, and how many lines the file holds (more than any count when it is larger than that).
/// Lines that are not UTF-8 are skipped, and so is the `#V2` header older versions wrote.
fn read_tail(mut file: File) -> Result<(Vec<String>, usize), StateFileError> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(StateFileError::NotRegular { kind: "not a file" });
    }
    let start = meta.len().saturating_sub(MAX_BYTES);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES).read_to_end(&mut bytes)?;
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if start > 0 && !lines.is_empty() {
        // The read began inside a line.
        lines.remove(0);
    }
    let count = if start > 0 { usize::MAX } else { lines.len() };
    let entries: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.is_empty() && *l != b"#V2")
        .filter_map(|l| std::str::from_utf8(l).ok().map(str::to_string))
        .collect();
    let skip = entries.len().saturating_sub(MAX_ENTRIES);
    Ok((entries.into_iter().skip(skip).collect(), count))
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
}
