//! Stopping a learner's program and everything it started, on Unix.
//!
//! The program runs in its own process group, which is killed first. That misses whatever
//! moved to another group or session (`setsid`, `Popen(..., start_new_session=True)`), so
//! on Linux the grader also makes itself a child subreaper: a process whose parent exits is
//! then re-parented to the grader instead of to init, and stays findable as one of the
//! grader's descendants. After each run, every descendant is found in `/proc`, killed and
//! reaped. Other Unix systems get the process-group kill only; see the runner's module
//! documentation for what that leaves.

use std::process::Child;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// Makes descendants whose parent exits the grader's own children (Linux), so the sweep
/// after each run finds them. The setting is process-wide and kept; a second call does
/// nothing new. Elsewhere, does nothing.
pub(super) fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        // Only fails on kernels older than 3.4; the group kill still works then.
        let _ = nix::sys::prctl::set_child_subreaper(true);
    }
}

/// Kills the program's process group and the program, reaps the program, then (on Linux)
/// kills and reaps every other descendant of the grader.
pub(super) fn stop(child: &mut Child) {
    // The program leads its own group, so the group's id is the program's pid. The id
    // stays reserved while any member lives, even after the leader was reaped.
    if let Ok(group) = i32::try_from(child.id()) {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    // Errors here mean it was already reaped, when `try_wait` saw it exit.
    let _ = child.kill();
    let _ = child.wait();
    #[cfg(target_os = "linux")]
    sweep();
}

/// Kills and reaps every descendant of this process (Linux; elsewhere nothing).
pub(super) fn sweep_descendants() {
    #[cfg(target_os = "linux")]
    sweep();
}

/// Kills and reaps every descendant of this process until none is left, or until
/// [`SWEEP_LIMIT`] has passed (a process stuck in the kernel cannot be killed at once).
///
/// Every descendant counts, not only those of the program just run: the runner runs one
/// program at a time, and the grader starts no other processes. A descendant may fork
/// between the listing and the kill, hence the rounds: a killed process forks no more, and
/// its children come back to this process to be found in the next round.
#[cfg(target_os = "linux")]
fn sweep() {
    use nix::sys::signal::kill;
    use nix::sys::wait::{WaitPidFlag, waitpid};
    use std::time::{Duration, Instant};

    const SWEEP_LIMIT: Duration = Duration::from_secs(2);
    let me = std::process::id();
    let started = Instant::now();
    loop {
        let Ok(table) = proc_table() else { return };
        let family = descendants(&table, me);
        if family.is_empty() || started.elapsed() > SWEEP_LIMIT {
            return;
        }
        for &(pid, parent) in &family {
            let Ok(raw) = i32::try_from(pid) else {
                continue;
            };
            let pid = Pid::from_raw(raw);
            let _ = kill(pid, Signal::SIGKILL);
            // Only our own children can be reaped; the others come back to us when their
            // parent dies. A child owned by a `std::process::Child` elsewhere would be
            // reaped from under it, which is why the runner runs one program at a time.
            if parent == me {
                let _ = waitpid(pid, Some(WaitPidFlag::WNOHANG));
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Every process as `(pid, parent pid)`, from `/proc/<pid>/stat`.
#[cfg(target_os = "linux")]
fn proc_table() -> std::io::Result<Vec<(u32, u32)>> {
    let mut table = Vec::new();
    for entry in std::fs::read_dir("/proc")? {
        let Ok(entry) = entry else { continue };
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        // A process may end between the listing and the read: it is simply not there.
        if let Ok(stat) = std::fs::read(entry.path().join("stat"))
            && let Some(parent) = parent_in_stat(&stat)
        {
            table.push((pid, parent));
        }
    }
    Ok(table)
}

/// The parent pid in a `/proc/<pid>/stat` line: `pid (comm) state ppid ...`. The command
/// name may hold spaces and parentheses, so the fields are counted from its last `)`.
#[cfg(target_os = "linux")]
fn parent_in_stat(stat: &[u8]) -> Option<u32> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
    rest.split_ascii_whitespace().nth(1)?.parse().ok()
}

/// The processes of `table` that descend from `root` (not `root` itself), each with its
/// parent, parents before their children.
#[cfg(target_os = "linux")]
fn descendants(table: &[(u32, u32)], root: u32) -> Vec<(u32, u32)> {
    let mut found: Vec<(u32, u32)> = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for &(pid, ppid) in table {
            // `pid != root` guards against a table read mid-change showing a loop.
            if ppid == parent && pid != root && !found.iter().any(|&(p, _)| p == pid) {
                found.push((pid, ppid));
                frontier.push(pid);
            }
        }
    }
    found
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn parent_is_read_past_a_command_name_with_spaces_and_parentheses() {
        assert_eq!(parent_in_stat(b"42 (sleep) S 7 42 42 0 -1"), Some(7));
        assert_eq!(parent_in_stat(b"42 (a) b) (c) R 9 1 1"), Some(9));
        assert_eq!(parent_in_stat(b"42 (x"), None, "no closing parenthesis");
    }

    #[test]
    fn descendants_include_grandchildren_but_not_strangers() {
        let table = [(1, 0), (10, 1), (11, 10), (12, 11), (20, 1), (21, 10)];
        let mut got: Vec<u32> = descendants(&table, 10).iter().map(|&(p, _)| p).collect();
        got.sort_unstable();
        assert_eq!(got, [11, 12, 21], "the descendants of 10");
        assert!(descendants(&table, 12).is_empty(), "12 has no children");
    }

    #[test]
    fn this_process_is_in_the_table_with_its_parent() {
        let table = proc_table().expect("/proc can be read");
        let me = std::process::id();
        let parent = std::os::unix::process::parent_id();
        assert!(
            table.contains(&(me, parent)),
            "({me}, {parent}) is missing from the table"
        );
    }
}
