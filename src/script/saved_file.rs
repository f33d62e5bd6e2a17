//! Saved filters on disk: which paths a command may name, and writing and reading files in
//! the format of `engine/saved.rs`, atomically, and never through a device or a FIFO.
//!
//! A script's path is resolved before it is used: its folders, and a symbolic link at its
//! end, are followed with `canonicalize`, and a path that leads outside the current folder is
//! refused. The resolved path is then opened without following a link at its end
//! (`O_NOFOLLOW`, and a `rename` that replaces a link rather than writing through it), so a
//! link put there after the check is refused too. What is left is a race on the folders: one
//! of them replaced by a link, between the check and the open, by someone who can write in
//! the current folder. Closing it needs each folder opened in turn (`openat`), which std
//! does not offer.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use crate::atomic::{self, FinalLink, StateFileError};
use crate::engine::bloom::{Bloom, ShapeMismatch};
use crate::engine::filter::OutOfMemory;
use crate::engine::saved::{
    self, Corruption, Decoder, Encoded, FormatError, HEADER_LEN, Header, MAGIC, MAX_FILE_LEN,
    TRAILER_LEN,
};
use crate::engine::scheme::FilterSpec;

/// Why a path cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PathProblem {
    Absolute,
    Parent,
    Nul,
    /// Ends with `/` or `/.`: it names a folder, whatever is there.
    Folder,
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
    /// A symbolic link, on the way or at the end, leads outside the current folder.
    Outside,
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
    /// The memory for the filter the file holds could not be had: `bits` bits, or counters
    /// when `counting`.
    Memory {
        bits: u64,
        counting: bool,
    },
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
            FileError::Path(PathProblem::Folder) => {
                f.write_str("a path ending in `/` names a folder: name a file")
            }
            FileError::Path(PathProblem::NotUtf8) => {
                f.write_str("a path must be UTF-8 text on this system")
            }
            FileError::Missing => f.write_str("there is no such file"),
            FileError::NotRegular { kind } => write!(
                f,
                "it is not a regular file ({kind}), and the tutor never reads or writes through one"
            ),
            FileError::DanglingLink => f.write_str("it is a symbolic link to nothing"),
            FileError::Outside => f.write_str(
                "a symbolic link leads it outside the current folder, and a path must stay inside it",
            ),
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
            FileError::Memory {
                bits,
                counting: false,
            } => write!(f, "not enough memory for a filter of {bits} bits"),
            FileError::Memory {
                bits,
                counting: true,
            } => write!(
                f,
                "not enough memory for a counting filter of {bits} counters"
            ),
        }
    }
}

/// A path a script named, resolved inside the current folder by [`path_of`]: no symbolic
/// link is left on it but, at most, one put there after the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Confined(PathBuf);

/// Where a saved filter is read from: a script's [`Confined`] path, opened without following
/// a link at its end, or a [`Path`] the command line named (`--load FILE`), any at all.
pub(crate) trait Place {
    fn path(&self) -> &Path;
    fn final_link(&self) -> FinalLink;
}

impl Place for Path {
    fn path(&self) -> &Path {
        self
    }
    fn final_link(&self) -> FinalLink {
        FinalLink::Follow
    }
}

impl Place for Confined {
    fn path(&self) -> &Path {
        &self.0
    }
    fn final_link(&self) -> FinalLink {
        FinalLink::Refuse
    }
}

/// The file a command's bytes name. Scripts are run by graders and by other people, so a
/// command names a file inside the current folder: no leading `/`, no `..`, and no symbolic
/// link leading outside. (`--load FILE`, typed by the person running the tutor, takes any
/// path.)
pub(crate) fn path_of(bytes: &[u8]) -> Result<Confined, FileError> {
    confine(Path::new("."), &relative_path(bytes)?)
}

/// `rel`, inside the folder `root`, with its folders and a symbolic link at its end resolved;
/// refused when that leads outside `root`. A link to a folder, a device or a FIFO is refused
/// as what it leads to, and a link to nothing as such.
fn confine(root: &Path, rel: &Path) -> Result<Confined, FileError> {
    let root = fs::canonicalize(root)?;
    let full = root.join(rel);
    let names_a_file = rel.components().any(|c| matches!(c, Component::Normal(_)));
    let (Some(dir), Some(name), true) = (full.parent(), full.file_name(), names_a_file) else {
        // `.` names the folder itself, which SAVE and LOAD refuse as a folder.
        return Ok(Confined(root));
    };
    let dir = match fs::canonicalize(dir) {
        Ok(dir) => dir,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(FileError::NoFolder),
        Err(e) => return Err(e.into()),
    };
    if !dir.starts_with(&root) {
        return Err(FileError::Outside);
    }
    let at = dir.join(name);
    if !fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
        return Ok(Confined(at));
    }
    let target = match fs::canonicalize(&at) {
        Ok(target) => target,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(FileError::DanglingLink),
        Err(e) => return Err(e.into()),
    };
    let meta = fs::metadata(&target)?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            kind: atomic::kind_of(meta.file_type()),
        });
    }
    if !target.starts_with(&root) {
        return Err(FileError::Outside);
    }
    Ok(Confined(target))
}

/// The path a command's bytes name, checked as text: relative, without `..` or a NUL byte.
fn relative_path(bytes: &[u8]) -> Result<PathBuf, FileError> {
    if bytes.contains(&0) {
        return Err(FileError::Path(PathProblem::Nul));
    }
    // `plain.bf/` and `plain.bf/.` name a folder: the system reads past them to the file.
    if bytes.ends_with(b"/") || bytes.ends_with(b"/.") {
        return Err(FileError::Path(PathProblem::Folder));
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
pub(crate) fn save(path: &Confined, bloom: &Bloom, keys: u64) -> Result<Encoded, FileError> {
    let path = path.path();
    check_replaceable(path)?;
    let mut encoded = None;
    atomic::write_atomically_at(path, FinalLink::Refuse, |out| {
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

/// Whether SAVE may put a file at the resolved `path`: nothing there, or a saved filter
/// (never a device, a FIFO or a folder, nor a symbolic link put there since it was resolved).
fn check_replaceable(path: &Path) -> Result<(), FileError> {
    let Some((file, _)) = atomic::open_regular_at(path, u64::MAX, FinalLink::Refuse)? else {
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

/// Reads the saved filter at `place`: only a regular file, read piece by piece, and checked
/// whole before anything is returned. The memory for the filter is had, or refused, before
/// the payload is read.
pub(crate) fn load<P: Place + ?Sized>(place: &P) -> Result<Loaded, FileError> {
    load_checked(place, |_| Ok(()))
}

/// [`load`] of a filter that must have the shape `ours` (UNION and INTERSECT): a file of
/// another shape is refused from its header, before its payload is read or memory is had.
pub(crate) fn load_shaped<P: Place + ?Sized>(
    place: &P,
    ours: FilterSpec,
) -> Result<Loaded, FileError> {
    load_checked(place, |theirs| {
        if theirs == ours {
            Ok(())
        } else {
            Err(FileError::Shape(ShapeMismatch { ours, theirs }))
        }
    })
}

fn load_checked<P: Place + ?Sized>(
    place: &P,
    check: impl FnOnce(FilterSpec) -> Result<(), FileError>,
) -> Result<Loaded, FileError> {
    let opened = atomic::open_regular_at(place.path(), MAX_FILE_LEN, place.final_link())?;
    let Some((file, len)) = opened else {
        return Err(FileError::Missing);
    };
    let mut file = io::BufReader::with_capacity(64 * 1024, file);
    let mut head = [0u8; HEADER_LEN];
    let got = read_up_to(&mut file, &mut head)?;
    let header = Header::parse(&head[..got]).map_err(FileError::Format)?;
    check(header.spec)?;
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
    let mut decoder = Decoder::new(header, &head).map_err(|_: OutOfMemory| FileError::Memory {
        bits: header.spec.bits(),
        counting: header.spec.counting().is_some(),
    })?;
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
            relative_path(path.as_bytes()),
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
        case("plain.bf/", Err(FileError::Path(PathProblem::Folder)));
        case("plain.bf/.", Err(FileError::Path(PathProblem::Folder)));
        case("sub/", Err(FileError::Path(PathProblem::Folder)));
    }

    /// `rel` as a script names it, with `dir` as the current folder.
    fn inside(dir: &Path, rel: &str) -> Result<Confined, FileError> {
        confine(dir, Path::new(rel))
    }

    #[test]
    fn a_merge_refuses_another_shape_from_the_header_before_reading_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = inside(dir.path(), "big.bloom").unwrap();
        let big =
            FilterSpec::new(crate::engine::scheme::Scheme::Djb2Fnv, Some(1 << 20), None).unwrap();
        save(&path, &Bloom::new(big), 0).unwrap();
        // Cut the payload short: only a reader that stops at the header can still say why.
        let file = fs::OpenOptions::new()
            .write(true)
            .open(path.path())
            .unwrap();
        file.set_len(HEADER_LEN as u64 + 10).unwrap();
        let ours = FilterSpec::lesson();
        match load_shaped(&path, ours) {
            Err(FileError::Shape(m)) => assert_eq!((m.ours, m.theirs), (ours, big)),
            other => panic!("expected the shapes to be refused: {other:?}"),
        }
        assert!(matches!(load(&path), Err(FileError::Format(_))));
    }

    #[test]
    fn saves_and_loads_a_filter() {
        let dir = tempfile::tempdir().unwrap();
        let path = inside(dir.path(), "f.bloom").unwrap();
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
        let path = inside(dir.path(), "notes.txt").unwrap();
        assert_eq!(save(&path, &bloom, 0), Err(FileError::NotASavedFilter));
        assert_eq!(fs::read(&notes).unwrap(), b"my notes");
        for folder in [".", "./"] {
            assert!(
                matches!(
                    save(&inside(dir.path(), folder).unwrap(), &bloom, 0),
                    Err(FileError::NotRegular { kind: "a folder" })
                ),
                "{folder:?} was not refused as a folder"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn never_goes_through_a_device_or_a_dangling_link() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/dev/full", dir.path().join("full")).unwrap();
        assert_eq!(
            inside(dir.path(), "full"),
            Err(FileError::NotRegular {
                kind: "a character device"
            })
        );
        assert!(matches!(
            load(Path::new("/dev/zero")),
            Err(FileError::NotRegular { .. })
        ));
        std::os::unix::fs::symlink(dir.path().join("nowhere"), dir.path().join("dangling"))
            .unwrap();
        assert_eq!(inside(dir.path(), "dangling"), Err(FileError::DanglingLink));
        assert!(!dir.path().join("nowhere").exists());
    }

    #[test]
    fn a_missing_file_or_folder_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let missing = inside(dir.path(), "nope.bloom").unwrap();
        assert!(matches!(load(&missing), Err(FileError::Missing)));
        assert_eq!(inside(dir.path(), "no/f.bloom"), Err(FileError::NoFolder));
    }

    /// A current folder `root` with a saved filter beside it, in `elsewhere/x.bf`.
    #[cfg(unix)]
    fn root_and_elsewhere() -> (tempfile::TempDir, PathBuf, PathBuf, Vec<u8>) {
        let top = tempfile::tempdir().unwrap();
        let root = top.path().join("root");
        let elsewhere = top.path().join("elsewhere");
        fs::create_dir(&root).unwrap();
        fs::create_dir(&elsewhere).unwrap();
        let outside = inside(&elsewhere, "x.bf").unwrap();
        save(&outside, &Bloom::new(FilterSpec::lesson()), 0).unwrap();
        let bytes = fs::read(elsewhere.join("x.bf")).unwrap();
        (top, root, elsewhere, bytes)
    }

    #[cfg(unix)]
    #[test]
    fn links_that_lead_outside_the_folder_are_refused() {
        use std::os::unix::fs::symlink;
        let (_top, root, elsewhere, before) = root_and_elsewhere();
        symlink(&elsewhere, root.join("extlink")).unwrap();
        symlink(elsewhere.join("x.bf"), root.join("extfile")).unwrap();
        symlink("../elsewhere/x.bf", root.join("relfile")).unwrap();
        // A link inside that goes on through a link outside.
        symlink("extlink/x.bf", root.join("chain")).unwrap();
        fs::create_dir(root.join("sub")).unwrap();
        symlink("../../elsewhere", root.join("sub/up")).unwrap();
        for rel in [
            "extlink/x.bf",
            "extlink/new.bf",
            "./extlink/x.bf",
            "extfile",
            "relfile",
            "chain",
            "sub/up/x.bf",
        ] {
            assert_eq!(inside(&root, rel), Err(FileError::Outside), "{rel}");
        }
        // A missing folder behind a link outside is no way out either.
        assert_eq!(inside(&root, "extlink/no/x.bf"), Err(FileError::NoFolder));
        let outside: Vec<_> = fs::read_dir(&elsewhere)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(outside, ["x.bf"], "a file was made outside the folder");
        assert_eq!(fs::read(elsewhere.join("x.bf")).unwrap(), before);
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_folder_are_followed() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join("real")).unwrap();
        symlink("real", root.join("sub")).unwrap();
        symlink("real/f.bf", root.join("link.bf")).unwrap();
        let mut bloom = Bloom::new(FilterSpec::lesson());
        bloom.add(b"fig");
        save(&inside(root, "sub/f.bf").unwrap(), &bloom, 1).unwrap();
        let back = load(&inside(root, "link.bf").unwrap()).unwrap();
        assert_eq!(back.bloom.filter(), bloom.filter());
        bloom.add(b"lime");
        save(&inside(root, "link.bf").unwrap(), &bloom, 2).unwrap();
        assert!(
            fs::symlink_metadata(root.join("link.bf"))
                .unwrap()
                .file_type()
                .is_symlink(),
            "SAVE replaced the link instead of its target"
        );
        let back = load(&inside(root, "./sub/f.bf").unwrap()).unwrap();
        assert_eq!(back.keys, 2, "the save did not reach the link's target");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_put_in_place_after_the_check_is_not_followed() {
        let (_top, root, elsewhere, before) = root_and_elsewhere();
        let late = inside(&root, "late.bf").unwrap();
        std::os::unix::fs::symlink(elsewhere.join("x.bf"), root.join("late.bf")).unwrap();
        let bloom = Bloom::new(FilterSpec::lesson().with_counters(Some(4)).unwrap());
        let link = FileError::NotRegular {
            kind: "a symbolic link",
        };
        assert_eq!(save(&late, &bloom, 0), Err(link));
        assert!(matches!(load(&late), Err(e) if e == link));
        assert_eq!(fs::read(elsewhere.join("x.bf")).unwrap(), before);
    }
}
