//! The files the tutor keeps between runs (lesson progress, saved filters): written
//! whole or not at all, and read back only when they are regular files of a bounded size.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Replaces the file at `path` with `bytes`, all or nothing.
///
/// The bytes go to a new temporary file in the same folder (a unique name, created with
/// `create_new`, so two writers never share one), which is flushed to disk and then renamed
/// over `path`; the folder is then flushed too, as far as the system allows. Readers see the
/// old file or the new one, never a part of either, and when several processes write at once
/// the last rename wins.
///
/// On any failure (disk full, a file size limit, a read-only folder) the temporary file is
/// removed and `path` is left as it was. A process killed mid-write leaves the old file too,
/// and a stray `.NAME.PID.*.tmp` beside it (NAME cut to 200 bytes), which the next write
/// removes once that process is gone and the file is a minute old.
///
/// A symbolic link at `path` is followed, so the link stays and its target is replaced. An
/// existing `path` that is not a regular file (a folder, a FIFO, `/dev/null`) is refused
/// rather than replaced. A new file gets the default permissions; a replaced one keeps its own.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |out| out.write_all(bytes))
}

/// [`write_atomically`] for a file written piece by piece: `write` gets the temporary file
/// (buffered) and writes the whole new content to it, so a large file never needs a second
/// copy in memory. Everything `write_atomically` promises holds here too.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_atomically_at(path, FinalLink::Follow, write)
}

/// Whether a symbolic link as the last part of a path is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalLink {
    /// The link is followed: its target is read, or replaced.
    Follow,
    /// The path names the file itself, resolved by the caller: a link there is refused
    /// (as "a symbolic link"), and one that appears after the check is replaced, never followed.
    Refuse,
}

/// [`write_atomically_with`], with a choice about a symbolic link at `path`.
pub fn write_atomically_at(
    path: &Path,
    links: FinalLink,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let (target, meta) = match links {
        FinalLink::Follow => {
            let target = resolve_target(path)?;
            let meta = fs::metadata(&target);
            (target, meta)
        }
        // `rename` replaces the last part of the path as it is, so a link put there after
        // this check is replaced rather than written through.
        FinalLink::Refuse => (path.to_path_buf(), fs::symlink_metadata(path)),
    };
    let old_permissions = match meta {
        Ok(meta) if meta.is_file() => Some(meta.permissions()),
        Ok(meta) => return Err(not_regular(meta.file_type())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let (temp_path, mut temp) = create_temp(&dir, &name.to_string_lossy())?;
    let written = (|| {
        if let Some(permissions) = old_permissions {
            temp.set_permissions(permissions)?;
        }
        let mut buffered = io::BufWriter::with_capacity(64 * 1024, &mut temp);
        write(&mut buffered)?;
        buffered.flush()?;
        drop(buffered);
        temp.sync_all()?;
        drop(temp);
        fs::rename(&temp_path, &target)
    })();
    if let Err(e) = written {
        // The file may already be closed or half written; either way it must not stay.
        let _ = fs::remove_file(&temp_path);
        return Err(e);
    }
    // Best effort: the rename is only durable once the folder is on disk, but not every
    // system lets a folder be opened and synced, and the new file is in place either way.
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    sweep_strays(&dir, &name.to_string_lossy());
    Ok(())
}

/// How old a stray temporary file must be before it is removed: a writer that is alive
/// renames its file within moments, so one this old was left by a process that was killed.
const STRAY_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes the `.STEM.PID.NANOS.N.tmp` files (see [`create_temp`]) that killed writers left
/// beside `NAME` in `dir`: those of a process that no longer runs (where the system can tell)
/// and older than [`STRAY_AGE`], so that a writer running now never loses its file. Best
/// effort.
fn sweep_strays(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{}.", temp_stem(name));
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|f| f.strip_suffix(".tmp"))
        else {
            continue;
        };
        // Exactly PID.NANOS.N: the temporary file of a name that goes on after NAME and a
        // dot (`f.bloom.1` after `f.bloom`) has more parts, and its first is not a process id.
        let parts: Vec<&str> = rest.split('.').collect();
        let [pid, nanos, n] = parts[..] else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if nanos.parse::<u32>().is_err() || n.parse::<u32>().is_err() {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STRAY_AGE);
        if old && pid != std::process::id() && !process_runs(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id runs now (on systems that cannot tell: assume it does
/// not, and let the age alone decide).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return false;
        };
        // Signal 0 checks without sending; EPERM means it runs as another user.
        match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
            Ok(()) => true,
            Err(e) => e != nix::errno::Errno::ESRCH,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        false
    }
}

/// Why [`read_regular_capped`] read nothing.
#[derive(Debug)]
pub enum StateFileError {
    /// The path names something other than a regular file; `kind` says what (`a FIFO`).
    NotRegular { kind: &'static str },
    /// The file holds more than `max` bytes (`size` is how many it held when looked at).
    TooLarge { size: u64, max: u64 },
    /// Reading failed.
    Io(io::Error),
}

impl fmt::Display for StateFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateFileError::NotRegular { kind } => write!(f, "not a regular file ({kind})"),
            StateFileError::TooLarge { size, max } => {
                write!(f, "too large: {size} bytes, expected at most {max}")
            }
            StateFileError::Io(e) => write!(f, "{e}"),
        }
    }
}

// No `source`: `Display` already shows the I/O error, and a chain would show it twice.
impl std::error::Error for StateFileError {}

impl From<io::Error> for StateFileError {
    fn from(e: io::Error) -> Self {
        StateFileError::Io(e)
    }
}

/// The bytes of the regular file at `path`, at most `max_bytes` of them; `Ok(None)` when
/// nothing is there.
///
/// A FIFO, a device (`/dev/null`, `/dev/zero`), a socket or a folder is refused before it is
/// opened, so reading never blocks on a FIFO nor runs on forever; symbolic links are followed.
/// The opened file is checked again, and read with the cap, so a file swapped or grown
/// meanwhile is refused too. (Only a FIFO put in place between the check and the open could
/// still block the open: std has no portable non-blocking open.)
pub fn read_regular_capped(path: &Path, max_bytes: u64) -> Result<Option<Vec<u8>>, StateFileError> {
    let Some((file, _)) = open_regular_capped(path, max_bytes)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    let size = bytes.len() as u64;
    if size > max_bytes {
        return Err(StateFileError::TooLarge {
            size,
            max: max_bytes,
        });
    }
    Ok(Some(bytes))
}

/// The regular file at `path`, opened for reading, with its length then; `Ok(None)` when
/// nothing is there. Refuses what [`read_regular_capped`] refuses, before reading a byte, so
/// the caller can read a large file piece by piece (reading no more than the length given).
pub fn open_regular_capped(
    path: &Path,
    max_bytes: u64,
) -> Result<Option<(File, u64)>, StateFileError> {
    open_regular_at(path, max_bytes, FinalLink::Follow)
}

/// [`open_regular_capped`], with a choice about a symbolic link at `path`: with
/// [`FinalLink::Refuse`] the file is opened with `O_NOFOLLOW` where the system has it, so a
/// link put there after the check is refused too.
pub fn open_regular_at(
    path: &Path,
    max_bytes: u64,
    links: FinalLink,
) -> Result<Option<(File, u64)>, StateFileError> {
    let meta = match links {
        FinalLink::Follow => fs::metadata(path),
        FinalLink::Refuse => fs::symlink_metadata(path),
    };
    match meta {
        Ok(meta) => check_regular(&meta, max_bytes)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    if links == FinalLink::Refuse {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits());
    }
    let file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let meta = file.metadata()?;
    check_regular(&meta, max_bytes)?;
    Ok(Some((file, meta.len())))
}

/// `Ok` when `path` is a regular file or nothing at all, so [`write_atomically`] can put a
/// file there; symbolic links are followed. Checks before a long task whose result would be
/// written there.
pub fn check_replaceable(path: &Path) -> Result<(), StateFileError> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => Err(StateFileError::NotRegular {
            kind: kind_of(meta.file_type()),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
    }
}

fn check_regular(meta: &fs::Metadata, max_bytes: u64) -> Result<(), StateFileError> {
    if !meta.is_file() {
        return Err(StateFileError::NotRegular {
            kind: kind_of(meta.file_type()),
        });
    }
    if meta.len() > max_bytes {
        return Err(StateFileError::TooLarge {
            size: meta.len(),
            max: max_bytes,
        });
    }
    Ok(())
}

/// What a file that is not a regular file is, for a message.
pub fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

fn not_regular(file_type: fs::FileType) -> io::Error {
    io::Error::other(StateFileError::NotRegular {
        kind: kind_of(file_type),
    })
}

/// `path`, or the file its chain of symbolic links ends at.
fn resolve_target(path: &Path) -> io::Result<PathBuf> {
    let mut target = path.to_path_buf();
    // A bound, because links can loop; the system's own limit is 40.
    for _ in 0..40 {
        match fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&target)?;
                target = match target.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            Ok(_) => return Ok(target),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(target),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The most bytes of a file's name that its temporary file's name repeats. The rest of that
/// name (`.`, and `.PID.NANOS.N.tmp`) takes at most 37 bytes, so every temporary name stays
/// within the 255 bytes most file systems allow in a name, even for a name of 255 bytes.
const TEMP_NAME_MAX: usize = 200;

/// `name`, cut to at most [`TEMP_NAME_MAX`] bytes (at a character boundary): the part of a
/// temporary file's name that says whose it is. The process id, the time and the counter
/// after it keep the name unique; two long names that start alike share a prefix, which is
/// harmless, as [`sweep_strays`] only removes files of writers that are gone.
fn temp_stem(name: &str) -> &str {
    let mut end = name.len().min(TEMP_NAME_MAX);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// A new, empty file in `dir` whose name no other writer uses: `.STEM.PID.NANOS.N.tmp`,
/// STEM being `name` cut by [`temp_stem`].
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let name = temp_stem(name);
    let pid = std::process::id();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{name}.{pid}.{nanos}.{n}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            // A stray file from a killed process whose id came round again: try another name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("could not name a temporary file")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    #[cfg(unix)]
    fn strays_of_killed_writers_are_swept_and_a_live_writers_file_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("basics.json");
        // A process that has ended: its id is free (until reused, which the age check covers).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let old = SystemTime::now() - STRAY_AGE - std::time::Duration::from_secs(5);
        let stray = |pid: u32, tag: &str, modified: SystemTime| {
            let p = dir.path().join(format!(".basics.json.{pid}.{tag}.0.tmp"));
            File::create(&p).unwrap().set_modified(modified).unwrap();
            p
        };
        let killed = stray(dead, "1", old);
        let fresh = stray(dead, "2", SystemTime::now());
        let running = stray(std::process::id(), "3", old);
        let other = dir.path().join(".notes.json.1.1.0.tmp");
        File::create(&other).unwrap().set_modified(old).unwrap();
        write_atomically(&path, b"{}").unwrap();
        assert!(!killed.exists(), "an old stray of a gone process stays");
        assert!(
            fresh.exists(),
            "a new temporary file may be a writer's at work"
        );
        assert!(running.exists(), "a running process's file was removed");
        assert!(other.exists(), "another file's temporary file was removed");
    }

    #[test]
    fn a_name_of_255_bytes_can_be_written_and_its_strays_swept() {
        let dir = tempfile::tempdir().unwrap();
        // 'é' is two bytes: the cut falls inside one at 200 bytes and must not split it.
        for name in ["n".repeat(255), format!("n{}", "é".repeat(127))] {
            assert_eq!(name.len(), 255);
            let path = dir.path().join(&name);
            write_atomically(&path, b"first").unwrap();
            write_atomically(&path, b"second").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"second");
            assert_eq!(
                files_in(dir.path()),
                [name.as_str()],
                "a temporary file was left"
            );
            fs::remove_file(&path).unwrap();
        }
        #[cfg(unix)]
        {
            let name = "n".repeat(255);
            let mut child = std::process::Command::new("true").spawn().unwrap();
            let dead = child.id();
            child.wait().unwrap();
            let stray = dir
                .path()
                .join(format!(".{}.{dead}.1.0.tmp", temp_stem(&name)));
            let old = SystemTime::now() - STRAY_AGE - std::time::Duration::from_secs(5);
            File::create(&stray).unwrap().set_modified(old).unwrap();
            write_atomically(&dir.path().join(&name), b"x").unwrap();
            assert!(!stray.exists(), "the stray of a long name stays");
        }
    }

    #[test]
    #[cfg(unix)]
    fn a_longer_names_live_temporary_file_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let old = SystemTime::now() - STRAY_AGE - std::time::Duration::from_secs(5);
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        // The temporary file of `f.bloom.DEAD`, written by this running process: a sweep
        // for `f.bloom` once read DEAD as the id of its writer, gone, and removed it.
        let longer = dir
            .path()
            .join(format!(".f.bloom.{dead}.{}.5.0.tmp", std::process::id()));
        File::create(&longer).unwrap().set_modified(old).unwrap();
        write_atomically(&dir.path().join("f.bloom"), b"x").unwrap();
        assert!(
            longer.exists(),
            "another file's live temporary file was removed"
        );
    }

    #[test]
    fn writes_a_new_file_and_replaces_an_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        write_atomically(&path, b"first").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        write_atomically(&path, b"second, longer").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second, longer");
        assert_eq!(
            files_in(dir.path()),
            ["state.json"],
            "no temporary file left"
        );
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        fs::write(&path, b"old").unwrap();
        // Renaming a file over a non-empty folder fails after the temporary file was written.
        let blocker = dir.path().join("blocker");
        fs::create_dir(&blocker).unwrap();
        fs::write(blocker.join("inside"), b"").unwrap();
        let err = write_atomically(&blocker, b"new").expect_err("a folder is not replaced");
        assert!(err.to_string().contains("a folder"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(files_in(dir.path()), ["blocker", "state.json"]);
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no").join("such").join("state.json");
        let err = write_atomically(&path, b"x").expect_err("the folder is missing");
        assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn follows_a_symbolic_link_and_keeps_it() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        fs::write(&real, b"old").unwrap();
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_old_files_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        fs::write(&path, b"old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "permissions were {mode:o}");
    }

    #[test]
    fn reads_a_regular_file_and_nothing_for_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        assert!(read_regular_capped(&path, 10).unwrap().is_none());
        fs::write(&path, b"0123456789").unwrap();
        assert_eq!(
            read_regular_capped(&path, 10).unwrap().unwrap(),
            b"0123456789"
        );
    }

    #[test]
    fn refuses_a_file_past_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        fs::write(&path, b"0123456789!").unwrap();
        match read_regular_capped(&path, 10) {
            Err(StateFileError::TooLarge { size: 11, max: 10 }) => {}
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }

    #[test]
    fn refuses_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        match read_regular_capped(dir.path(), 10) {
            Err(StateFileError::NotRegular { kind: "a folder" }) => {}
            other => panic!("expected NotRegular, got {other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_devices_without_reading_them() {
        for dev in ["/dev/null", "/dev/zero", "/dev/full"] {
            match read_regular_capped(Path::new(dev), 1 << 20) {
                Err(StateFileError::NotRegular {
                    kind: "a character device",
                }) => {}
                other => panic!("expected {dev} refused, got {other:?}"),
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_fifo_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        // Opening a FIFO with no writer would block this test forever.
        match read_regular_capped(&fifo, 10) {
            Err(StateFileError::NotRegular { kind: "a FIFO" }) => {}
            other => panic!("expected NotRegular, got {other:?}"),
        }
        let err = write_atomically(&fifo, b"x").expect_err("a FIFO is not replaced");
        assert!(err.to_string().contains("FIFO"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_to_replace_a_device() {
        let err = write_atomically(Path::new("/dev/null"), b"x").expect_err("not replaced");
        assert!(err.to_string().contains("character device"), "{err}");
    }
}
