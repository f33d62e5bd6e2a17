//! Runs a learner's program on one script, safely: a deadline that holds whatever the
//! program does, a cap on output, and everything it started stopped afterwards. The
//! program is run directly, never through a shell.
//!
//! How far "everything it started" reaches depends on the system:
//! - Linux: the program's process group is killed, and then every other descendant of the
//!   grader, found in `/proc`, also those that moved to a new session or process group
//!   (`setsid`) or whose parent exited (the grader is a child subreaper, so they become its
//!   children rather than init's). All are killed with SIGKILL and reaped before `run`
//!   returns.
//! - other Unix systems: the program's process group only. A descendant that moved to
//!   another group or session can outlive the run; it cannot hold the grader up, as the
//!   pipes are read without blocking against the deadline.
//! - elsewhere: the program itself only, with threads reading its pipes; a reader that a
//!   surviving descendant keeps waiting is abandoned at the deadline.

#[cfg(any(not(unix), test))]
mod portable;
#[cfg(unix)]
mod tree;
#[cfg(unix)]
mod unix;

#[cfg(not(unix))]
use portable as sys;
#[cfg(unix)]
use unix as sys;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::escape;
use crate::grade::interrupt::{self, Stop};

/// How much of stderr a run keeps: its last bytes.
pub const STDERR_TAIL: usize = 2048;

/// How long a program may run and how much it may write.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// From the start of the program to its stop.
    pub timeout: Duration,
    /// Bytes of stdout; more is a flood.
    pub output_cap: usize,
}

/// How the program's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// It ran past the timeout and was stopped.
    TimedOut,
    /// It wrote more than the cap and was stopped.
    Flooded,
    /// It (or a process it started) ran the tutor's own binary, and was stopped.
    UsedTutor,
}

/// A resource limit a program ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Address space, in bytes.
    Memory(u64),
    /// CPU time, in seconds.
    Cpu(u64),
    /// The size of a file it wrote, in bytes.
    FileSize(u64),
}

/// How the program is started, where that is not as the grader itself runs.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// The whole environment, when not the grader's.
    pub env: Option<Vec<(OsString, OsString)>>,
    /// The working folder, when not the grader's.
    pub dir: Option<std::path::PathBuf>,
    /// The program makes its own session (and so its own process group) as it starts,
    /// rather than being put in a new process group; see `sandbox::stage`.
    pub own_session: bool,
}

/// Looks at the running program (its pid) once a tick; `Some(what)` stops it for having
/// run the tutor, `what` saying how.
pub type Watch<'a> = &'a mut dyn FnMut(u32) -> Option<String>;

/// What the program did with one script.
#[derive(Debug, Clone)]
pub struct Run {
    /// Its stdout, at most [`Limits::output_cap`] bytes.
    pub stdout: Vec<u8>,
    /// The last [`STDERR_TAIL`] bytes of stderr.
    pub stderr_tail: Vec<u8>,
    pub end: End,
    /// A limit it ran into, when that is what ended it.
    pub limit: Option<Limit>,
    /// What the watch saw, when it stopped the run.
    pub note: Option<String>,
}

/// Why a program could not be run: the tutor could not do its job. (A program that runs
/// and fails is a [`Run`], not an error.)
#[derive(Debug)]
pub enum RunError {
    /// The program's name was empty.
    NoProgram,
    /// No such file, or no such program on `PATH`.
    NotFound(OsString),
    /// The program named is a directory.
    IsADirectory(OsString),
    /// The program may not be run (it is not executable, for one).
    PermissionDenied(OsString),
    /// It could not be started for another reason.
    CannotStart(OsString, io::Error),
    /// Watching the running program failed (the system refused to poll or wait).
    Io(io::Error),
    /// A signal to the grader asked it to stop; the program was stopped first.
    Interrupted(i32),
    /// The grader's worker process that ran the program failed, in words.
    Worker(String),
    /// No such program on PATH, but a file of that name is in the current folder.
    InThisFolder(OsString),
    /// `--isolate` was asked for, and this system cannot set it up; why, in words.
    NoIsolation(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = |f: &mut fmt::Formatter<'_>, program: &OsStr| {
            write!(
                f,
                "could not start `{}`",
                escape::escaped(program.as_encoded_bytes())
            )
        };
        match self {
            RunError::NoProgram => f.write_str("no program to run, expected a program's name"),
            RunError::NotFound(program) => {
                start(f, program)?;
                if has_separator(program) {
                    f.write_str(": no such file")
                } else {
                    f.write_str(": no such program on PATH")?;
                    // `grade -- "python3 bloom.py"` passes one word with a space.
                    if program.as_encoded_bytes().contains(&b' ') {
                        f.write_str(" (the program and its arguments go after `--` as separate words, as in `-- python3 bloom.py`)")?;
                    }
                    Ok(())
                }
            }
            RunError::IsADirectory(program) => {
                start(f, program)?;
                f.write_str(": it is a directory, expected a program")
            }
            RunError::PermissionDenied(program) => {
                start(f, program)?;
                f.write_str(": permission denied (a script needs `chmod +x`, or name its interpreter first, as in `-- python3 bloom.py`)")
            }
            RunError::CannotStart(program, err) => {
                start(f, program)?;
                write!(f, ": {err}")
            }
            RunError::Io(err) => write!(f, "could not watch the running program: {err}"),
            RunError::Worker(what) => write!(f, "the grader could not run the program: {what}"),
            RunError::InThisFolder(program) => {
                start(f, program)?;
                let name = escape::escaped(program.as_encoded_bytes());
                write!(
                    f,
                    ": no such program on PATH; to run the file `{name}` in this folder, write `./{name}`"
                )
            }
            RunError::NoIsolation(why) => write!(
                f,
                "--isolate cannot be set up on this system: {why}. Grade without --isolate, or where a user may make namespaces and mount a new /proc (a container often may not)"
            ),
            RunError::Interrupted(signal) => match interrupt::signal_name(*signal) {
                Some(name) => write!(f, "interrupted by {name}"),
                None => write!(f, "interrupted by signal {signal}"),
            },
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::CannotStart(_, err) | RunError::Io(err) => Some(err),
            _ => None,
        }
    }
}

/// Runs `program` (a path and its arguments) with `input` on stdin, within `limits`, and
/// stops it and what it started (as the module documentation says) before returning.
/// A stop requested through `stop` stops the program and returns
/// [`RunError::Interrupted`].
///
/// Runs one program at a time in the process: on Linux the sweep after a run takes every
/// descendant of the process as the program's, so the grader must start nothing else.
#[cfg(any(test, not(unix)))]
pub fn run(
    program: &[OsString],
    input: &[u8],
    limits: Limits,
    stop: &Stop,
) -> Result<Run, RunError> {
    run_watched(program, input, limits, stop, &Setup::default(), &mut |_| {
        None
    })
}

/// [`run`], started as `setup` says, with `watch` looking at the program every tick.
pub fn run_watched(
    program: &[OsString],
    input: &[u8],
    limits: Limits,
    stop: &Stop,
    setup: &Setup,
    watch: Watch<'_>,
) -> Result<Run, RunError> {
    run_with(
        program,
        input,
        limits,
        stop,
        setup,
        watch,
        sys::prepare,
        sys::supervise,
    )
}

/// Runs one of the grader's own worker processes (`program`, which runs a learner's program
/// and stops everything that started), with `input` on stdin, within `limits`. Unlike
/// [`run`], any number may run at once: each worker stops its own program's processes, so
/// this one only asks the worker to stop (SIGTERM) when a stop is requested or it overruns,
/// and kills it if it does not end within a few seconds.
#[cfg(unix)]
pub fn run_worker(
    program: &[OsString],
    input: &[u8],
    limits: Limits,
    stop: &Stop,
) -> Result<Run, RunError> {
    let (path, args) = program.split_first().ok_or(RunError::NoProgram)?;
    if let Some(signal) = stop.signal() {
        return Err(RunError::Interrupted(signal));
    }
    let mut command = piped(path, args);
    unix::prepare(&mut command, false);
    let child = command.spawn().map_err(|err| start_error(path, err))?;
    unix::supervise_worker(child, input, limits, stop)
}

/// Kills and reaps every process descended from this one (on Linux; elsewhere does
/// nothing): for the end of a grading run, when no program should be left, in case a worker
/// was killed before it could stop its own.
pub fn stop_leftovers() {
    #[cfg(unix)]
    tree::sweep_descendants();
}

type Supervise = fn(std::process::Child, &[u8], Limits, &Stop, Watch<'_>) -> Result<Run, RunError>;

/// `path` with `args`, its three standard streams piped to the grader.
fn piped(path: &OsString, args: &[OsString]) -> Command {
    let mut command = Command::new(path);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

#[allow(clippy::too_many_arguments)]
fn run_with(
    program: &[OsString],
    input: &[u8],
    limits: Limits,
    stop: &Stop,
    setup: &Setup,
    watch: Watch<'_>,
    prepare: fn(&mut Command, bool),
    supervise: Supervise,
) -> Result<Run, RunError> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _running = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let (path, args) = program.split_first().ok_or(RunError::NoProgram)?;
    if path.is_empty() {
        return Err(RunError::NoProgram);
    }
    if let Some(signal) = stop.signal() {
        return Err(RunError::Interrupted(signal));
    }
    let mut command = piped(path, args);
    if let Some(env) = &setup.env {
        command.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
    }
    if let Some(dir) = &setup.dir {
        command.current_dir(dir);
    }
    prepare(&mut command, setup.own_session);
    let child = command.spawn().map_err(|err| start_error(path, err))?;
    supervise(child, input, limits, stop, watch)
}

/// The program's words ready to run anywhere: the program as the absolute path that
/// running it here would start (looked up on PATH when it has no `/`), and every other
/// word that names an existing file or folder here as an absolute path, since programs run
/// in an empty folder of their own. Refused as starting it would be, before anything runs.
pub fn resolve(program: &[OsString]) -> Result<Vec<OsString>, RunError> {
    let (first, rest) = program.split_first().ok_or(RunError::NoProgram)?;
    if first.is_empty() {
        return Err(RunError::NoProgram);
    }
    let path = if has_separator(first) {
        let path = std::path::absolute(first).map_err(RunError::Io)?;
        check_runnable(first, &path)?;
        path
    } else {
        let found = std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .map(|dir| dir.join(first))
            .find(|candidate| is_runnable(candidate));
        match found {
            Some(path) => std::path::absolute(path).map_err(RunError::Io)?,
            None if Path::new(first).is_file() => {
                return Err(RunError::InThisFolder(first.clone()));
            }
            None => return Err(RunError::NotFound(first.clone())),
        }
    };
    let mut words = vec![path.into_os_string()];
    for word in rest {
        let as_path = Path::new(word);
        let names_a_file = !word.as_encoded_bytes().starts_with(b"-")
            && as_path.is_relative()
            && !word.is_empty()
            && as_path.exists();
        words.push(match names_a_file {
            true => std::path::absolute(as_path)
                .map(|p| p.into_os_string())
                .unwrap_or_else(|_| word.clone()),
            false => word.clone(),
        });
    }
    Ok(words)
}

/// Whether `path` is a file that may be run.
fn is_runnable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// `Ok` when `path` (named `name` on the command line) can be started.
fn check_runnable(name: &OsStr, path: &Path) -> Result<(), RunError> {
    match std::fs::metadata(path) {
        Err(_) => Err(RunError::NotFound(name.to_os_string())),
        Ok(m) if m.is_dir() => Err(RunError::IsADirectory(name.to_os_string())),
        Ok(_) if !is_runnable(path) => Err(RunError::PermissionDenied(name.to_os_string())),
        Ok(_) => Ok(()),
    }
}

/// The error for a program that could not start, named by what is wrong with it.
fn start_error(program: &OsStr, err: io::Error) -> RunError {
    let program_owned = program.to_os_string();
    // Unix refuses to run a directory with "permission denied": look before saying so.
    if is_directory(program) {
        return RunError::IsADirectory(program_owned);
    }
    match err.kind() {
        io::ErrorKind::NotFound => RunError::NotFound(program_owned),
        io::ErrorKind::PermissionDenied => RunError::PermissionDenied(program_owned),
        io::ErrorKind::IsADirectory => RunError::IsADirectory(program_owned),
        _ => RunError::CannotStart(program_owned, err),
    }
}

/// Whether the name has a path separator, so that it is not looked up on `PATH`.
fn has_separator(program: &OsStr) -> bool {
    Path::new(program).components().count() > 1 || program.as_encoded_bytes().contains(&b'/')
}

/// Whether `program` names a directory: itself when it has a separator, otherwise the
/// first match on `PATH`, which is what starting it found.
fn is_directory(program: &OsStr) -> bool {
    if has_separator(program) {
        return Path::new(program).is_dir();
    }
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.exists())
        .is_some_and(|candidate| candidate.is_dir())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn words(program: &[&str]) -> Vec<OsString> {
        program.iter().map(OsString::from).collect()
    }

    fn limits(seconds: u64) -> Limits {
        Limits {
            timeout: Duration::from_secs(seconds),
            output_cap: 1 << 20,
        }
    }

    #[track_caller]
    fn sh(script: &str, input: &[u8], timeout: u64) -> Run {
        run(
            &words(&["sh", "-c", script]),
            input,
            limits(timeout),
            &Stop::new(),
        )
        .unwrap_or_else(|e| panic!("`{script}` could not run: {e}"))
    }

    #[test]
    fn output_and_exit_status_are_collected() {
        let got = sh("cat; echo oops >&2; exit 3", b"ADD fig\n", 20);
        assert_eq!(got.stdout, b"ADD fig\n", "stdout is what cat echoed");
        assert_eq!(got.stderr_tail, b"oops\n", "stderr is kept");
        assert_eq!(got.end, End::Exited(3), "the exit status is the program's");
    }

    #[test]
    fn a_large_input_reaches_a_program_that_reads_it_slowly() {
        let input = vec![b'x'; 1 << 20];
        let got = sh("sleep 0.2; wc -c", &input, 20);
        assert_eq!(got.stdout, b"1048576\n", "every byte arrived");
    }

    #[test]
    fn a_signal_ending_the_program_is_reported() {
        let got = sh("kill -9 $$", b"", 20);
        assert_eq!(got.end, End::Signalled(9));
    }

    /// An argument no other process has: `sleep` takes it as its duration (ten minutes and
    /// a unique fraction, so a failing test leaves nothing for long), and the process table
    /// is searched for it.
    fn marker(test: u32) -> String {
        format!("600.98766{test:02}{}", std::process::id())
    }

    /// Whether a process has `arg` as an argument.
    #[cfg(target_os = "linux")]
    fn running_with(arg: &str) -> bool {
        std::fs::read_dir("/proc")
            .expect("/proc can be read")
            .filter_map(Result::ok)
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .any(|cmdline| cmdline.split(|&b| b == 0).any(|a| a == arg.as_bytes()))
    }

    #[test]
    fn the_timeout_holds_against_a_child_in_a_new_session_holding_stdout() {
        // `setsid` starts `sleep` in a new session; it keeps stdout open.
        let marker = marker(1);
        let got = sh(&format!("setsid sleep {marker} & sleep 600"), b"", 1);
        assert_eq!(
            got.end,
            End::TimedOut,
            "the program is stopped at the timeout"
        );
        #[cfg(target_os = "linux")]
        assert!(!running_with(&marker), "`sleep {marker}` outlived the run");
    }

    #[test]
    fn an_exit_does_not_wait_for_a_child_in_a_new_session_holding_stdout() {
        let marker = marker(2);
        let got = sh(&format!("echo MAYBE; setsid sleep {marker} &"), b"", 20);
        assert_eq!(got.end, End::Exited(0), "the program's own status");
        assert_eq!(got.stdout, b"MAYBE\n", "what it wrote before it exited");
        #[cfg(target_os = "linux")]
        assert!(!running_with(&marker), "`sleep {marker}` outlived the run");
    }

    #[test]
    fn stdout_past_the_cap_is_a_flood() {
        let small = Limits {
            timeout: Duration::from_secs(20),
            output_cap: 1000,
        };
        let got = run(&words(&["yes"]), b"", small, &Stop::new()).expect("yes runs");
        assert_eq!(got.end, End::Flooded);
        assert_eq!(got.stdout.len(), 1000, "stdout is cut at the cap");
    }

    #[test]
    fn a_stop_requested_before_the_run_starts_nothing() {
        let stop = Stop::new();
        stop.request(15);
        let err = run(&words(&["sleep", "600"]), b"", limits(20), &stop)
            .expect_err("a stop was requested");
        assert!(matches!(err, RunError::Interrupted(15)), "{err:?}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_stop_requested_during_the_run_stops_the_program_and_its_children() {
        let marker = marker(3);
        let stop = Stop::new();
        let script = format!("setsid sleep {marker} & sleep 600");
        let err = std::thread::scope(|s| {
            s.spawn(|| {
                // Once the child in a new session runs, as a signal to the grader would.
                let started = std::time::Instant::now();
                while !running_with(&marker) && started.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_millis(10));
                }
                stop.request(2);
            });
            run(&words(&["sh", "-c", &script]), b"", limits(60), &stop)
        })
        .expect_err("a stop was requested");
        assert!(matches!(err, RunError::Interrupted(2)), "{err:?}");
        assert!(!running_with(&marker), "`sleep {marker}` outlived the stop");
    }

    #[test]
    fn start_errors_are_told_apart() {
        let dir = std::env::temp_dir();
        let file = dir.join(format!("bloom-tutor-not-executable-{}", std::process::id()));
        std::fs::write(&file, "print('hi')\n").expect("a file can be written");
        for (program, want) in [
            (dir.as_os_str(), "IsADirectory"),
            (OsStr::new("/no/such/program"), "NotFound"),
            (OsStr::new("no-such-program-for-bloom-tutor"), "NotFound"),
            (file.as_os_str(), "PermissionDenied"),
            (OsStr::new(""), "NoProgram"),
        ] {
            let err = run(&[program.to_os_string()], b"", limits(5), &Stop::new())
                .expect_err("it cannot start");
            let kind = match err {
                RunError::NoProgram => "NoProgram",
                RunError::NotFound(_) => "NotFound",
                RunError::IsADirectory(_) => "IsADirectory",
                RunError::PermissionDenied(_) => "PermissionDenied",
                RunError::CannotStart(..) => "CannotStart",
                RunError::Io(_) => "Io",
                RunError::Interrupted(_) => "Interrupted",
                RunError::Worker(_) => "Worker",
                RunError::InThisFolder(_) => "InThisFolder",
                RunError::NoIsolation(_) => "NoIsolation",
            };
            assert_eq!(kind, want, "{program:?}: {err}");
        }
        let _ = std::fs::remove_file(&file);
    }

    #[test]
    fn start_errors_say_what_is_wrong() {
        let shown = RunError::IsADirectory("/tmp".into()).to_string();
        assert_eq!(
            shown,
            "could not start `/tmp`: it is a directory, expected a program"
        );
        let shown = RunError::NotFound("python3 bloom.py".into()).to_string();
        assert!(shown.contains("as separate words"), "{shown}");
        let shown = RunError::NotFound("a\x1b[2Jb".into()).to_string();
        assert!(!shown.contains('\x1b'), "the name is escaped: {shown:?}");
    }

    #[test]
    fn the_portable_runner_collects_output_and_stops_at_the_timeout() {
        let go = |script: &str, timeout: u64| {
            let program = words(&["sh", "-c", script]);
            run_with(
                &program,
                b"ADD fig\n",
                limits(timeout),
                &Stop::new(),
                &Setup::default(),
                &mut |_| None,
                portable::prepare,
                portable::supervise,
            )
            .unwrap_or_else(|e| panic!("`{script}` could not run: {e}"))
        };
        let got = go("cat; echo oops >&2; exit 3", 20);
        assert_eq!(got.stdout, b"ADD fig\n");
        assert_eq!(got.stderr_tail, b"oops\n");
        assert_eq!(got.end, End::Exited(3));
        assert_eq!(go("exec sleep 600", 1).end, End::TimedOut);
    }
}
