//! Noticing a graded program that runs the tutor, which would be its own answer key.
//!
//! Two ways, for two kinds of run:
//! - while a program runs, its worker looks at every descendant once a tick and compares
//!   the executable each runs (`/proc/PID/exe`) with its own: the same file (device and
//!   inode), or a file that holds the tutor's fingerprint (a copy, or another build). The
//!   decoy `bloom-tutor` first on a graded program's PATH is noticed the same way.
//! - a run too short for a tick is caught by the tutor itself: before it does anything, it
//!   looks for a grading worker among its ancestors, and if one is there it tells that
//!   worker (SIGUSR1) and refuses to answer.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Bytes that every build of the tutor holds (this constant), and other programs do not.
pub const FINGERPRINT: &[u8] =
    b"bloom-tutor grader fingerprint 5d1c7a2e: this binary answers the exercise";

/// The largest executable read to look for the fingerprint.
const LARGEST_READ: u64 = 512 << 20;

/// The word after `grade` that marks the grader's own helper processes.
const WORKER: &str = "--worker";
const STAGE: &str = "--stage";

/// Watches one run's processes for the tutor.
#[derive(Debug)]
pub struct TutorWatch {
    /// This binary's device and inode.
    me: Option<(u64, u64)>,
    /// Executables already looked at: whether each is the tutor.
    seen: HashMap<(u64, u64), bool>,
    /// The decoy on the program's PATH.
    decoy: Option<PathBuf>,
    /// Set by SIGUSR1: a tutor (or the decoy) said it was run.
    told: Arc<AtomicBool>,
}

impl TutorWatch {
    /// A watch that SIGUSR1 also triggers.
    pub fn new(decoy: Option<PathBuf>) -> std::io::Result<TutorWatch> {
        let told = Arc::new(AtomicBool::new(false));
        #[cfg(unix)]
        signal_hook::flag::register(signal_hook::consts::SIGUSR1, Arc::clone(&told))?;
        Ok(TutorWatch {
            me: identity("/proc/self/exe").map(|(dev, ino, _)| (dev, ino)),
            seen: HashMap::new(),
            decoy,
            told,
        })
    }

    /// Looks at `root` and its descendants; `Some(what)` when one runs the tutor.
    pub fn look(&mut self, root: u32) -> Option<String> {
        if self.told.load(Ordering::SeqCst) {
            return Some("a process it started ran the tutor (the tutor said so)".to_string());
        }
        for pid in family(root) {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
            if let Some(decoy) = &self.decoy
                && args
                    .iter()
                    .any(|a| *a == decoy.as_os_str().as_encoded_bytes())
            {
                return Some(format!(
                    "process {pid} ran `bloom-tutor` from its PATH ({})",
                    shown(&args)
                ));
            }
            // The grader's own helpers (the stage sets limits and becomes the program; a
            // worker only runs one), the stage just started and not yet the stage (it shows
            // no words then), and processes that have ended.
            if is_helper(&args, STAGE)
                || is_helper(&args, WORKER)
                || (pid == root && cmdline.is_empty())
                || ended(pid)
            {
                continue;
            }
            let Some((dev, ino, len)) = identity(&format!("/proc/{pid}/exe")) else {
                continue;
            };
            let tutor = match self.seen.get(&(dev, ino)) {
                Some(&known) => known,
                None => {
                    let known = Some((dev, ino)) == self.me || holds_fingerprint(pid, len);
                    self.seen.insert((dev, ino), known);
                    known
                }
            };
            if tutor {
                let how = if Some((dev, ino)) == self.me {
                    "the tutor's own binary"
                } else {
                    "a copy of the tutor's binary"
                };
                return Some(format!("process {pid} ran {how} ({})", shown(&args)));
            }
        }
        None
    }
}

/// Whether process `pid` has ended and waits to be reaped (or is gone).
fn ended(pid: u32) -> bool {
    let Ok(stat) = std::fs::read(format!("/proc/{pid}/stat")) else {
        return true;
    };
    let close = stat.iter().rposition(|&b| b == b')').unwrap_or(0);
    stat.get(close + 2) == Some(&b'Z')
}

/// The device, inode and length of the file at `path` (symbolic links followed).
fn identity(path: &str) -> Option<(u64, u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino(), meta.len()))
}

/// Whether the executable process `pid` runs holds [`FINGERPRINT`].
fn holds_fingerprint(pid: u32, len: u64) -> bool {
    if len > LARGEST_READ {
        return false;
    }
    std::fs::read(format!("/proc/{pid}/exe"))
        .is_ok_and(|bytes| memchr::memmem::find(&bytes, FINGERPRINT).is_some())
}

/// `root` and every process descended from it, from `/proc/PID/task/TID/children`.
fn family(root: u32) -> Vec<u32> {
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() && found.len() < 4096 {
        let pid = found[i];
        i += 1;
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Ok(children) = std::fs::read_to_string(task.path().join("children")) else {
                continue;
            };
            for child in children.split_ascii_whitespace() {
                if let Ok(child) = child.parse::<u32>()
                    && !found.contains(&child)
                {
                    found.push(child);
                }
            }
        }
    }
    found
}

/// Whether a command line is the grader's own helper: `EXE grade HELPER ...`.
fn is_helper(args: &[&[u8]], helper: &str) -> bool {
    args.get(1) == Some(&&b"grade"[..]) && args.get(2) == Some(&helper.as_bytes())
}

fn shown(args: &[&[u8]]) -> String {
    let words: Vec<String> = args
        .iter()
        .filter(|a| !a.is_empty())
        .take(6)
        .map(|a| crate::escape::escape_prefix(a))
        .collect();
    format!("`{}`", words.join(" "))
}

/// Before the tutor does anything: when one of its ancestors is a grading worker, it is
/// being run by a graded program. Tells that worker (SIGUSR1) and returns why it refuses.
pub fn refuse_under_grader() -> Option<String> {
    let mut pid = std::os::unix::process::parent_id();
    let mut told = false;
    for _ in 0..64 {
        if pid <= 1 {
            break;
        }
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        if is_helper(&args, WORKER)
            && let Ok(raw) = i32::try_from(pid)
        {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(raw),
                nix::sys::signal::Signal::SIGUSR1,
            );
            told = true;
        }
        let Some(parent) = std::fs::read(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| parent_in_stat(&stat))
        else {
            break;
        };
        pid = parent;
    }
    told.then(|| {
        "bloom-tutor does not run inside a program it is grading: the tutor is the answer key"
            .to_string()
    })
}

/// The inode of the first process view (PID namespace) Linux makes, `PROC_PID_INIT_INO`.
const INITIAL_PID_NAMESPACE: &str = "pid:[4026531836]";

/// How long the tutor lingers before it starts when it runs in a process view of its own,
/// where it cannot see its ancestors: long enough for a grading worker outside, which
/// looks once every 10 ms, to see it.
pub const LINGER: std::time::Duration = std::time::Duration::from_millis(100);

/// Whether this process is in the system's first process view, where every ancestor is
/// visible; false when that cannot be read (no /proc, for one).
pub fn in_first_process_view() -> bool {
    std::fs::read_link("/proc/self/ns/pid").is_ok_and(|ns| ns.as_os_str() == INITIAL_PID_NAMESPACE)
}

/// The parent pid in a `/proc/PID/stat` line, counted from the command name's last `)`.
fn parent_in_stat(stat: &[u8]) -> Option<u32> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
    rest.split_ascii_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_binary_holds_the_fingerprint() {
        let me = std::process::id();
        let (_, _, len) = identity("/proc/self/exe").expect("this binary");
        assert!(
            holds_fingerprint(me, len),
            "the test binary is a build of the tutor"
        );
    }

    /// Not a test: a process running this test binary for a while, for the one below.
    #[test]
    #[ignore = "run by a_process_running_this_binary_is_seen"]
    fn sleeper() {
        std::thread::sleep(std::time::Duration::from_secs(10));
    }

    #[test]
    fn a_process_running_this_binary_is_seen() {
        // A child running this very test binary, which is a build of the tutor.
        let mut child = std::process::Command::new("/proc/self/exe")
            .args([
                "--exact",
                "grade::sandbox::detect::tests::sleeper",
                "--ignored",
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("the test binary runs");
        let mut watch = TutorWatch::new(None).expect("a watch");
        // Once it runs (a child just started shows no words yet, and is skipped).
        let started = std::time::Instant::now();
        let mut seen = None;
        while seen.is_none() && started.elapsed() < std::time::Duration::from_secs(5) {
            seen = watch.look(child.id());
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            seen.as_deref()
                .is_some_and(|w| w.contains("the tutor's own binary")),
            "{seen:?}"
        );
    }

    #[test]
    fn other_programs_are_not_the_tutor() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep runs");
        let mut watch = TutorWatch::new(None).expect("a watch");
        let pid = child.id();
        // Once it runs `sleep`, so that it is looked at rather than skipped.
        let started = std::time::Instant::now();
        while !std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep"))
            && started.elapsed() < std::time::Duration::from_secs(5)
        {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let seen = watch.look(pid);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen, None);
    }

    #[test]
    fn helpers_are_told_by_their_words() {
        let args: Vec<&[u8]> = vec![b"/x/bloom-tutor", b"grade", b"--worker"];
        assert!(is_helper(&args, WORKER));
        assert!(!is_helper(&args, STAGE));
        let args: Vec<&[u8]> = vec![b"/x/bloom-tutor", b"grade", b"--", b"--worker"];
        assert!(!is_helper(&args, WORKER));
    }
}
