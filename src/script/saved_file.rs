//! Saved filters on disk: which paths a command may name, and writing and reading files in
//! the format of `engine/saved.rs`, atomically, and never through a device or a FIFO.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use crate::atomic::{self, StateFileError};
use crate::engine::bloom::{Bloom, ShapeMismatch};
use crate::engine::saved::{
    self, Corruption, Decoder, Encoded, FormatError, HEADER_LEN, Header, MAGIC, MAX_FILE_LEN,
    TRAILER_LEN,
};

/// Why a path cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PathProblem {
    Absolute,
    Parent,
    Nul,
    /// Only on systems whose paths are text.
    #[cfg_attr(unix, allow(dead_code))]
    NotUtf8,
}

/// Why SAVE, LOAD, UNION or INTERSECT could not use a file. Small and `Copy`, like every
/// command error, so a script's hot loop never drops one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileError {
    Path(PathProblem),
    Missing,
    /// A folder, a device, a FIFO or a socket.
    NotRegular {
        kind: &'static str,
    },
    /// A symbolic link whose target does not exist: SAVE would create a file elsewhere.
    DanglingLink,
    /// SAVE over a file that is not a saved filter.
    NotASavedFilter,
    /// SAVE into a folder that does not exist.
    NoFolder,
    TooLarge {
        size: u64,
        max: u64,
    },
    Format(FormatError),
    /// The system refused (no space, no permission, ...): its error code when it gave one.
    Io {
        kind: io::ErrorKind,
        os: Option<i32>,
    },
    Shape(ShapeMismatch),
}

impl From<io::Error> for FileError {
    fn from(e: io::Error) -> FileError {
        if e.kind() == io::ErrorKind::NotFound {
            return FileError::Missing;
        }
        FileError::Io {
            kind: e.kind(),
            os: e.raw_os_error(),
        }
    }
}

impl From<StateFileError> for FileError {
    fn from(e: StateFileError) -> FileError {
        match e {
            StateFileError::NotRegular { kind } => FileError::NotRegular { kind },
            StateFileError::TooLarge { size, max } => FileError::TooLarge { size, max },
            StateFileError::Io(e) => e.into(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Path(PathProblem::Absolute) => {
                f.write_str("a path must be relative to the current folder, without a leading `/`")
            }
            FileError::Path(PathProblem::Parent) => {
                f.write_str("a path must stay inside the current folder, without `..`")
            }
            FileError::Path(PathProblem::Nul) => f.write_str("a path cannot hold a NUL byte"),
            FileError::Path(PathProblem::NotUtf8) => {
                f.write_str("a path must be UTF-8 text on this system")
            }
            FileError::Missing => f.write_str("there is no such file"),
            FileError::NotRegular { kind } => write!(
                f,
                "it is not a regular file ({kind}), and the tutor never reads or writes through one"
            ),
            FileError::DanglingLink => f.write_str("it is a symbolic link to nothing"),
            FileError::NotASavedFilter => {
                f.write_str("it exists and is not a saved filter, so SAVE will not replace it")
            }
            FileError::NoFolder => f.write_str("the folder it names does not exist"),
            FileError::TooLarge { size, max } => write!(
                f,
                "it is too large to be a saved filter: {size} bytes, at most {max}"
            ),
            FileError::Format(FormatError::Truncated { len: 0, .. }) => {
                f.write_str("the file is empty")
            }
            FileError::Format(FormatError::Truncated { len, expected }) => write!(
                f,
                "the file is truncated: {len} bytes, expected {}{expected}",
                if *expected == HEADER_LEN as u64 {
                    "at least "
                } else {
                    ""
                }
            ),
            FileError::Format(FormatError::Foreign) => write!(
                f,
                "it is not a saved filter (a foreign file: a saved filter starts with `{}`)",
                String::from_utf8_lossy(&MAGIC)
            ),
            FileError::Format(FormatError::Version(v)) => write!(
                f,
                "it is a saved filter in format version {v}, and this tutor reads version {}",
                saved::VERSION
            ),
            FileError::Format(FormatError::Corrupt(c)) => {
                f.write_str("the file is corrupt: ")?;
                match c {
                    Corruption::HeaderChecksum => {
                        f.write_str("its header's checksum does not match the header")
                    }
                    Corruption::Checksum => f.write_str("its checksum does not match its bytes"),
                    Corruption::Field(what) => write!(f, "its header has an impossible {what}"),
                    Corruption::TooLong { len, expected } => {
                        write!(f, "it has {len} bytes where its header says {expected}")
                    }
                    Corruption::PastTheEnd => {
                        f.write_str("bits past the last position of the filter are set")
                    }
                }
            }
            FileError::Io { kind, os } => match os {
                Some(code) => io::Error::from_raw_os_error(*code).fmt(f),
                None => io::Error::from(*kind).fmt(f),
            },
            FileError::Shape(s) => s.fmt(f),
        }
    }
}

/// The path a command's bytes name. Scripts are run by graders and by other people, so a
/// command names a file inside the current folder: no leading `/`, no `..`. (`--load FILE`,
/// typed by the person running the tutor, takes any path.)
pub(crate) fn path_of(bytes: &[u8]) -> Result<PathBuf, FileError> {
    if bytes.contains(&0) {
        return Err(FileError::Path(PathProblem::Nul));
    }
    let path = to_path(bytes)?;
    for part in path.components() {
        match part {
            Component::Prefix(_) | Component::RootDir => {
                return Err(FileError::Path(PathProblem::Absolute));
            }
            Component::ParentDir => return Err(FileError::Path(PathProblem::Parent)),
            Component::CurDir | Component::Normal(_) => {}
        }
    }
    Ok(path)
}

#[cfg(unix)]
fn to_path(bytes: &[u8]) -> Result<PathBuf, FileError> {
    use std::os::unix::ffi::OsStrExt;
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

#[cfg(not(unix))]
fn to_path(bytes: &[u8]) -> Result<PathBuf, FileError> {
    std::str::from_utf8(bytes)
        .map(PathBuf::from)
        .map_err(|_| FileError::Path(PathProblem::NotUtf8))
}

/// Writes `bloom` to `path` in the saved format, replacing the file there only if it is a
/// saved filter, through a temporary file and a rename, so a failed save leaves the old file.
pub(crate) fn save(path: &Path, bloom: &Bloom, keys: u64) -> Result<Encoded, FileError> {
    check_replaceable(path)?;
    let mut encoded = None;
    atomic::write_atomically_with(path, |out| {
        encoded = Some(saved::encode(bloom, keys, |chunk| out.write_all(chunk))?);
        Ok(())
    })
    .map_err(|e| match e.kind() {
        // The file itself need not exist; only a missing folder makes a write not found.
        io::ErrorKind::NotFound => FileError::NoFolder,
        _ => e.into(),
    })?;
    encoded.ok_or(FileError::Io {
        kind: io::ErrorKind::Other,
        os: None,
    })
}

/// Whether SAVE may put a file at `path`: nothing there, or a saved filter (through symbolic
/// links, but never to a device, a FIFO or a folder, nor through a link to nothing).
fn check_replaceable(path: &Path) -> Result<(), FileError> {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound && is_link => {
            return Err(FileError::DanglingLink);
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            kind: atomic::kind_of(meta.file_type()),
        });
    }
    let Some((file, _)) = atomic::open_regular_capped(path, u64::MAX)? else {
        return Ok(());
    };
    let mut head = Vec::with_capacity(MAGIC.len());
    file.take(MAGIC.len() as u64).read_to_end(&mut head)?;
    if head != MAGIC {
        return Err(FileError::NotASavedFilter);
    }
    Ok(())
}

/// A filter read from a file.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    pub bloom: Bloom,
    /// The ADDs that built it, less its REMOVEs.
    pub keys: u64,
    /// The file's length and checksum.
    pub file: Encoded,
}

/// Reads the saved filter at `path`: only a regular file, read piece by piece, and checked
/// whole before anything is returned.
pub(crate) fn load(path: &Path) -> Result<Loaded, FileError> {
    let Some((file, len)) = atomic::open_regular_capped(path, MAX_FILE_LEN)? else {
        return Err(FileError::Missing);
    };
    let mut file = io::BufReader::with_capacity(64 * 1024, file);
    let mut head = [0u8; HEADER_LEN];
    let got = read_up_to(&mut file, &mut head)?;
    let header = Header::parse(&head[..got]).map_err(FileError::Format)?;
    let expected = header.file_len();
    let truncated = |len| FileError::Format(FormatError::Truncated { len, expected });
    if len < expected {
        return Err(truncated(len));
    }
    if len > expected {
        return Err(FileError::Format(FormatError::Corrupt(
            Corruption::TooLong { len, expected },
        )));
    }
    let mut decoder = Decoder::new(header, &head);
    let mut left = header.payload_len();
    let mut chunk = vec![0u8; 64 * 1024];
    while left > 0 {
        let want = left.min(chunk.len() as u64) as usize;
        let n = read_up_to(&mut file, &mut chunk[..want])?;
        if n == 0 {
            // The file shrank after its length was read.
            return Err(truncated(expected - left - TRAILER_LEN as u64));
        }
        decoder.feed(&chunk[..n]);
        left -= n as u64;
    }
    let mut trailer = [0u8; TRAILER_LEN];
    if read_up_to(&mut file, &mut trailer)? < TRAILER_LEN {
        return Err(truncated(expected - TRAILER_LEN as u64));
    }
    let (bloom, keys) = decoder.finish(trailer).map_err(FileError::Format)?;
    Ok(Loaded {
        bloom,
        keys,
        file: Encoded {
            len,
            checksum: u32::from_le_bytes(trailer),
        },
    })
}

/// Reads until `buf` is full or the input ends; returns how many bytes were read.
fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::FilterSpec;

    #[track_caller]
    fn case(path: &str, expected: Result<&str, FileError>) {
        assert_eq!(
            path_of(path.as_bytes()),
            expected.map(PathBuf::from),
            "path {path:?}"
        );
    }

    #[test]
    fn commands_name_files_inside_the_current_folder() {
        case("f.bloom", Ok("f.bloom"));
        case("./sub/f.bloom", Ok("./sub/f.bloom"));
        case("with space.bloom", Ok("with space.bloom"));
        case("/dev/full", Err(FileError::Path(PathProblem::Absolute)));
        case("../f", Err(FileError::Path(PathProblem::Parent)));
        case("a/../../f", Err(FileError::Path(PathProblem::Parent)));
        case("a\0b", Err(FileError::Path(PathProblem::Nul)));
    }

    #[test]
    fn saves_and_loads_a_filter() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.bloom");
        let mut bloom = Bloom::new(FilterSpec::lesson().with_counters(Some(4)).unwrap());
        bloom.add(b"fig");
        bloom.add(b"fig");
        let written = save(&path, &bloom, 2).unwrap();
        let back = load(&path).unwrap();
        assert_eq!(back.keys, 2);
        assert_eq!(back.file, written);
        assert_eq!(back.bloom.counters(), bloom.counters());
        // A second save replaces a saved filter.
        save(&path, &back.bloom, 2).unwrap();
    }

    #[test]
    fn refuses_to_replace_what_is_not_a_saved_filter() {
        let dir = tempfile::tempdir().unwrap();
        let bloom = Bloom::new(FilterSpec::lesson());
        let notes = dir.path().join("notes.txt");
        fs::write(&notes, b"my notes").unwrap();
        assert_eq!(save(&notes, &bloom, 0), Err(FileError::NotASavedFilter));
        assert_eq!(fs::read(&notes).unwrap(), b"my notes");
        assert!(matches!(
            save(dir.path(), &bloom, 0),
            Err(FileError::NotRegular { kind: "a folder" })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn never_goes_through_a_device_or_a_dangling_link() {
        let dir = tempfile::tempdir().unwrap();
        let bloom = Bloom::new(FilterSpec::lesson());
        let full = dir.path().join("full");
        std::os::unix::fs::symlink("/dev/full", &full).unwrap();
        assert!(matches!(
            save(&full, &bloom, 0),
            Err(FileError::NotRegular {
                kind: "a character device"
            })
        ));
        assert!(matches!(
            load(Path::new("/dev/zero")),
            Err(FileError::NotRegular { .. })
        ));
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert_eq!(save(&dangling, &bloom, 0), Err(FileError::DanglingLink));
        assert!(!dir.path().join("nowhere").exists());
    }

    #[test]
    fn a_missing_file_says_so() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            load(&dir.path().join("nope.bloom")),
            Err(FileError::Missing)
        ));
    }
}
