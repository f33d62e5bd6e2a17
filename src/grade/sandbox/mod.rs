//! What a graded program runs in: limits on memory, CPU time and file size, a fresh empty
//! working folder, an environment with nothing of the grader's but a minimal PATH (without
//! the tutor), optionally namespaces (`--isolate`), and a watch for the tutor's own binary.
//!
//! The limits are set by a stage (`bloom-tutor grade --stage`), a short-lived process that
//! sets them on itself and then becomes the program (exec): limits are inherited, and the
//! worker that watches the program stays outside them.

#[cfg(unix)]
pub mod detect;
#[cfg(unix)]
pub mod stage;

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Limits and isolation for a graded program. `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sandbox {
    /// Address space, in bytes.
    pub memory: Option<u64>,
    /// CPU time, in seconds.
    pub cpu: Option<u64>,
    /// The largest file it may write, in bytes.
    pub file_size: Option<u64>,
    /// No network and a private process view (Linux user namespaces).
    pub isolate: bool,
}

/// This program's own binary, to start as a worker or a stage: `/proc/self/exe` on Linux,
/// which holds even when the file was replaced since.
#[cfg(unix)]
pub fn self_exe() -> OsString {
    if cfg!(target_os = "linux") {
        return OsString::from("/proc/self/exe");
    }
    std::env::current_exe()
        .map(OsString::from)
        .unwrap_or_else(|_| OsString::from("bloom-tutor"))
}

#[cfg(unix)]
/// A run's private folder: `work/`, the program's empty working folder (and its HOME and
/// TMPDIR), and `bin/`, the first folder on its PATH. Removed when dropped.
#[derive(Debug)]
pub struct Room {
    root: PathBuf,
}

#[cfg(unix)]
impl Room {
    /// A new room under the system's temporary folder, readable by this user only.
    pub fn new() -> io::Result<Room> {
        use std::os::unix::fs::DirBuilderExt;
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let root = std::env::temp_dir().join(format!(
            "bloom-tutor-run-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::DirBuilder::new().mode(0o700).create(&root)?;
        let room = Room { root };
        std::fs::DirBuilder::new().mode(0o700).create(room.work())?;
        std::fs::DirBuilder::new().mode(0o700).create(room.bin())?;
        Ok(room)
    }

    /// The program's working folder, empty at the start.
    pub fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    fn bin(&self) -> PathBuf {
        self.root.join("bin")
    }

    /// Puts a decoy named after the tutor first on the PATH: a program that runs it tells
    /// the worker (`worker_pid`) with SIGUSR1, and gets no answers.
    pub fn add_decoy(&self, name: &str, worker_pid: u32) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        if name.is_empty() || name.contains('/') {
            return Ok(());
        }
        let path = self.bin().join(name);
        let script = format!(
            "#!/bin/sh\n# A graded program may not run the tutor: this tells the grader.\n\
             kill -USR1 {worker_pid} 2>/dev/null\n\
             echo 'bloom-tutor is not available to a graded program' >&2\nexit 126\n"
        );
        std::fs::write(&path, script)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
    }

    /// The environment of a graded program: nothing of the grader's, a minimal PATH (the
    /// decoy's folder, then the system's program folders that do not hold the tutor), a
    /// HOME and TMPDIR in its working folder, and a UTF-8 locale.
    pub fn env(&self, tutor: &Path) -> Vec<(OsString, OsString)> {
        let mut path = vec![self.bin()];
        path.extend(
            ["/usr/local/bin", "/usr/bin", "/bin"]
                .iter()
                .map(PathBuf::from)
                .filter(|dir| dir.is_dir() && !holds_tutor(dir, tutor)),
        );
        let path = std::env::join_paths(path).unwrap_or_default();
        let work = self.work().into_os_string();
        vec![
            ("PATH".into(), path),
            ("HOME".into(), work.clone()),
            ("TMPDIR".into(), work),
            ("LANG".into(), "C.UTF-8".into()),
            ("LC_ALL".into(), "C.UTF-8".into()),
        ]
    }

    /// The largest regular file in the working folder (a few levels deep), in bytes.
    pub fn largest_file(&self) -> u64 {
        fn walk(dir: &Path, depth: u32, largest: &mut u64) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for entry in entries.flatten().take(10_000) {
                let Ok(meta) = entry.path().symlink_metadata() else {
                    continue;
                };
                if meta.is_file() {
                    *largest = (*largest).max(meta.len());
                } else if meta.is_dir() && depth > 0 {
                    walk(&entry.path(), depth - 1, largest);
                }
            }
        }
        let mut largest = 0;
        walk(&self.work(), 4, &mut largest);
        largest
    }
}

#[cfg(unix)]
impl Drop for Room {
    fn drop(&mut self) {
        // A program may have taken its own write permission away from folders it made.
        fn open_up(dir: &Path, depth: u32) {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
            if depth == 0 {
                return;
            }
            if let Ok(entries) = std::fs::read_dir(dir) {
                for entry in entries.flatten() {
                    if entry.file_type().is_ok_and(|t| t.is_dir()) {
                        open_up(&entry.path(), depth - 1);
                    }
                }
            }
        }
        if std::fs::remove_dir_all(&self.root).is_err() {
            open_up(&self.root, 16);
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

#[cfg(unix)]
/// Whether `dir` holds the tutor: a file named as its binary is, or the binary itself.
fn holds_tutor(dir: &Path, tutor: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let same =
        |a: &std::fs::Metadata, b: &std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
    let Ok(me) = std::fs::metadata(tutor) else {
        return false;
    };
    if let Some(name) = tutor.file_name()
        && dir.join(name).exists()
    {
        return true;
    }
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .filter_map(|e| std::fs::metadata(e.path()).ok())
            .any(|m| same(&m, &me))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_as_people_write_them() {
        use crate::units::parse_size;
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("2mb"), Ok(2 << 20));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("1X").is_err());
        assert!(parse_size("99999999999T").is_err());
        assert_eq!(crate::units::show_size(1 << 30), "1 GiB");
        assert_eq!(crate::units::show_size(300), "300 bytes");
    }

    #[cfg(unix)]
    #[test]
    fn a_room_is_empty_private_and_removed() {
        let room = Room::new().expect("a room");
        let work = room.work();
        assert_eq!(std::fs::read_dir(&work).expect("work").count(), 0, "empty");
        std::fs::write(work.join("big"), vec![0; 5000]).expect("a file");
        assert_eq!(room.largest_file(), 5000);
        let env = room.env(Path::new("/nonexistent/bloom-tutor"));
        let path = env.iter().find(|(k, _)| k == "PATH").expect("a PATH");
        assert!(path.1.to_string_lossy().contains("/usr/bin"), "{path:?}");
        assert_eq!(env.len(), 5, "nothing else: {env:?}");
        let root = room.root.clone();
        drop(room);
        assert!(!root.exists(), "removed");
    }
}
