//! The stage: `bloom-tutor grade --stage [LIMITS] [--isolate] -- PROGRAM...`, started by a
//! worker in the program's place. It sets the limits on itself and becomes the program
//! (exec), so the program starts with them and cannot raise them. With `--isolate` it first
//! enters new user, network, process, mount, IPC and host-name namespaces and starts an
//! inner stage as the first process of the new process view, which mounts a /proc of its
//! own, hides the tutor's binary and starts the program.

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitCode};

use anyhow::Context;
use nix::sys::resource::{Resource, setrlimit};

use super::Sandbox;

/// The stage's arguments for `sandbox`, to go before `-- PROGRAM...`.
pub fn args(sandbox: &Sandbox, inner: bool) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["grade".into(), "--stage".into()];
    for (flag, value) in [
        ("--stage-memory", sandbox.memory),
        ("--stage-cpu", sandbox.cpu),
        ("--stage-file-size", sandbox.file_size),
    ] {
        if let Some(value) = value {
            args.push(flag.into());
            args.push(value.to_string().into());
        }
    }
    if sandbox.isolate && !inner {
        args.push("--isolate".into());
    }
    if inner {
        args.push("--stage-inner".into());
    }
    args
}

/// Whether `--isolate` can be set up on this system: a stage started in it, running a
/// program that does nothing. `Err` holds why not, in words, for the grader to say
/// before any case runs: a container may allow user namespaces but refuse a new /proc.
pub fn probe(sandbox: &Sandbox) -> Result<(), String> {
    let out = Command::new(super::self_exe())
        .args(args(sandbox, false))
        .args(["--", "true"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| format!("could not start the stage ({e})"))?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let reason = said
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().trim_start_matches("error: ").to_string())
        .unwrap_or_else(|| format!("the stage ended with {}", out.status));
    Err(crate::escape::escape(reason.as_bytes()))
}

/// Runs the stage: returns only when the program could not be started, or (isolated)
/// with the program's status.
///
/// Under `--isolate` the program's own exit statuses from 129 to 191 read as signals.
pub fn run(sandbox: Sandbox, inner: bool, program: &[OsString]) -> anyhow::Result<ExitCode> {
    let (path, rest) = program
        .split_first()
        .context("the stage was given no program")?;
    // A session of its own: no controlling terminal, so a program cannot write to the
    // grader's terminal past its report (`/dev/tty`), and its own process group to stop.
    let _ = nix::unistd::setsid();
    // Nothing it runs gains privileges (set-user-id programs run as their caller).
    let _ = nix::sys::prctl::set_no_new_privs();
    if sandbox.isolate && !inner {
        return isolate(&sandbox, program);
    }
    if inner {
        private_view().context("could not set up the private process view")?;
    }
    set_limits(&sandbox).context("could not set the limits")?;
    close_inherited_descriptors();
    let err = if inner {
        // The first process of a process view ignores signals it has no handler for, so
        // the program runs as a child of a shell there, which waits for it and exits with
        // its status (128 + n for signal n). The shell is no tutor: nothing in the view
        // leads back to the tutor's binary.
        Command::new("/bin/sh")
            .args(["-c", "\"$@\"; exit $?", "sh"])
            .arg(path)
            .args(rest)
            .exec()
    } else {
        Command::new(path).args(rest).exec()
    };
    Err(err).with_context(|| format!("could not start `{}`", path.display_lossy()))
}

/// Closes every descriptor above 2: what the grader's own caller left open (a teacher's
/// script's files) is no business of the program. The tutor opens its own files
/// close-on-exec, so only inherited ones are closed here. Without `/proc`, nothing is.
fn close_inherited_descriptors() {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<std::os::fd::RawFd> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd > 2)
        .collect();
    // The listing's own descriptor was among them and is closed already: that close fails,
    // harmlessly.
    for fd in fds {
        let _ = nix::unistd::close(fd);
    }
}

trait DisplayLossy {
    fn display_lossy(&self) -> String;
}

impl DisplayLossy for OsString {
    fn display_lossy(&self) -> String {
        crate::escape::escape(self.as_encoded_bytes())
    }
}

fn set_limits(sandbox: &Sandbox) -> nix::Result<()> {
    // No core files: a crashing program must not fill its folder.
    setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
    if let Some(bytes) = sandbox.memory {
        setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
    }
    if let Some(seconds) = sandbox.cpu {
        // SIGXCPU at the limit, SIGKILL a second later for a program that ignores it.
        setrlimit(Resource::RLIMIT_CPU, seconds, seconds + 1)?;
    }
    if let Some(bytes) = sandbox.file_size {
        setrlimit(Resource::RLIMIT_FSIZE, bytes, bytes)?;
    }
    Ok(())
}

/// The program's status as this process's: its exit code, or its signal re-raised (a
/// shell's 128 + n too), or 128 + n where the signal does not end this process.
fn mirror(status: std::process::ExitStatus) -> ExitCode {
    let signal = match status.code() {
        Some(code @ 129..=191) => Some(code - 128),
        Some(code) => return ExitCode::from(u8::try_from(code & 0xff).unwrap_or(1)),
        None => status.signal(),
    };
    if let Some(signal) = signal {
        if let Ok(sig) = nix::sys::signal::Signal::try_from(signal) {
            let _ = nix::sys::signal::raise(sig);
        }
        return ExitCode::from(u8::try_from(128 + (signal & 0x7f)).unwrap_or(1));
    }
    ExitCode::FAILURE
}

/// New namespaces for this process (user, network, IPC, host name, mount) and for its
/// next child (process view), then the inner stage as that child.
fn isolate(sandbox: &Sandbox, program: &[OsString]) -> anyhow::Result<ExitCode> {
    use nix::sched::{CloneFlags, unshare};
    let (uid, gid) = (nix::unistd::getuid(), nix::unistd::getgid());
    unshare(
        CloneFlags::CLONE_NEWUSER
            | CloneFlags::CLONE_NEWNET
            | CloneFlags::CLONE_NEWPID
            | CloneFlags::CLONE_NEWNS
            | CloneFlags::CLONE_NEWIPC
            | CloneFlags::CLONE_NEWUTS,
    )
    .context("--isolate needs user namespaces, which this system does not allow")?;
    // The same user inside as outside, so files keep their owners.
    std::fs::write("/proc/self/setgroups", "deny").context("could not deny setgroups")?;
    std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")).context("uid_map")?;
    std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")).context("gid_map")?;
    let status = Command::new("/proc/self/exe")
        .args(args(sandbox, true))
        .arg("--")
        .args(program)
        .status()
        .context("could not start the inner stage")?;
    Ok(mirror(status))
}

/// In the new mount namespace: a /proc showing only the new process view, and the tutor's
/// binary hidden behind an empty file.
fn private_view() -> anyhow::Result<()> {
    use nix::mount::{MsFlags, mount};
    let tutor = std::fs::read_link("/proc/self/exe").ok();
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .context("could not make the mounts private")?;
    mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None::<&str>,
    )
    .context("could not mount /proc")?;
    if let Some(tutor) = tutor.filter(|t| t.exists()) {
        // Best effort: a binary on a file system that refuses it stays visible.
        let _ = mount(
            Some("/dev/null"),
            &tutor,
            None::<&str>,
            MsFlags::MS_BIND,
            None::<&str>,
        );
    }
    Ok(())
}
