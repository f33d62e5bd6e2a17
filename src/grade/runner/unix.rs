//! One run on Unix: the program's pipes written and read without blocking, so nothing the
//! program or its descendants do can make the grader wait past the deadline, and the whole
//! process tree stopped at the end.

use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::{End, Limits, Run, RunError, STDERR_TAIL, Watch, tree};
use crate::grade::interrupt::Stop;

/// How often the loop looks at the program's status and the stop request when its pipes
/// are quiet.
const TICK: Duration = Duration::from_millis(10);

/// How long to read what is left in the pipes once every process is stopped. All the
/// writers are dead by then on Linux, so the pipes end at once; this bounds the wait where
/// one escaped.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// The most read from one pipe at each step, so that a program writing as fast as the
/// grader reads still lets it look at the clock.
const READS_PER_STEP: usize = 16;

/// Sets up `command` to run in its own process group, so that it and what it starts can be
/// stopped together (and a terminal's Ctrl-C reaches only the grader, which then stops it).
///
/// With `own_session` the program is left in this process's group, because it makes a
/// session of its own as it starts (which a process group leader may not); until it has,
/// stopping it kills it alone, and the sweep finds anything it started.
pub(super) fn prepare(command: &mut Command, own_session: bool) {
    if !own_session {
        command.process_group(0);
    }
    tree::adopt_orphans();
}

/// Feeds `input` to the started `child`, collects its output until it exits, floods, runs
/// out of time or a stop is requested, then stops it and everything it started.
pub(super) fn supervise(
    mut child: Child,
    input: &[u8],
    limits: Limits,
    stop: &Stop,
    watch_program: Watch<'_>,
) -> Result<Run, RunError> {
    let deadline = Instant::now() + limits.timeout;
    let mut pipes = match Pipes::new(&mut child, input, limits.output_cap) {
        Ok(pipes) => pipes,
        Err(err) => {
            tree::stop(&mut child);
            return Err(RunError::Io(err));
        }
    };
    let mut note = None;
    let ended = watch(&mut child, &mut pipes, deadline, stop, &mut |pid| {
        note = watch_program(pid);
        note.is_some()
    });
    // Whatever happened, nothing the program started goes on.
    tree::stop(&mut child);
    let end = match ended {
        Ok(Watched::Ended(end)) => end,
        Ok(Watched::Stopped(signal)) => return Err(RunError::Interrupted(signal)),
        Err(err) => return Err(RunError::Io(err)),
    };
    pipes.drain(Instant::now() + DRAIN_GRACE);
    let end = match end {
        // It may have died of the closed pipe, or exited after the cap was reached.
        End::Exited(_) | End::Signalled(_) if pipes.flooded => End::Flooded,
        end => end,
    };
    let mut run = pipes.into_run(end);
    run.note = note;
    Ok(run)
}

/// How long a worker process has to stop its program and end once asked to.
const WORKER_GRACE: Duration = Duration::from_secs(5);

/// As [`supervise`], for one of the grader's worker processes, which stops its own
/// program's processes: it is asked to stop with SIGTERM when a stop is requested or it
/// overruns its time, and killed only if it has not ended [`WORKER_GRACE`] later.
pub(super) fn supervise_worker(
    mut child: Child,
    input: &[u8],
    limits: Limits,
    stop: &Stop,
) -> Result<Run, RunError> {
    let deadline = Instant::now() + limits.timeout;
    let mut pipes = match Pipes::new(&mut child, input, limits.output_cap) {
        Ok(pipes) => pipes,
        Err(err) => {
            end_worker(&mut child);
            return Err(RunError::Io(err));
        }
    };
    let ended = watch(&mut child, &mut pipes, deadline, stop, &mut |_| false);
    if !matches!(
        ended,
        Ok(Watched::Ended(End::Exited(_) | End::Signalled(_)))
    ) {
        end_worker(&mut child);
    }
    let end = match ended {
        Ok(Watched::Ended(end)) => end,
        Ok(Watched::Stopped(signal)) => return Err(RunError::Interrupted(signal)),
        Err(err) => return Err(RunError::Io(err)),
    };
    pipes.drain(Instant::now() + DRAIN_GRACE);
    Ok(pipes.into_run(end))
}

/// Asks a worker to stop, gives it [`WORKER_GRACE`] to stop its program and end, then
/// kills it; reaps it either way.
fn end_worker(child: &mut Child) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGTERM);
    }
    let until = Instant::now() + WORKER_GRACE;
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(TICK);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// How watching a run ended.
enum Watched {
    Ended(End),
    /// A stop was requested by this signal.
    Stopped(i32),
}

/// Feeds and reads the pipes until the program ends, floods, overruns, a stop is asked
/// for, or `used_tutor` (asked once a tick with the program's pid) says it ran the tutor.
fn watch(
    child: &mut Child,
    pipes: &mut Pipes<'_>,
    deadline: Instant,
    stop: &Stop,
    used_tutor: &mut dyn FnMut(u32) -> bool,
) -> io::Result<Watched> {
    loop {
        if used_tutor(child.id()) {
            return Ok(Watched::Ended(End::UsedTutor));
        }
        if let Some(signal) = stop.signal() {
            return Ok(Watched::Stopped(signal));
        }
        if let Some(status) = child.try_wait()? {
            return Ok(Watched::Ended(end_of(status)));
        }
        if pipes.flooded {
            return Ok(Watched::Ended(End::Flooded));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(Watched::Ended(End::TimedOut));
        }
        pipes.wait(TICK.min(deadline - now));
        pipes.step();
    }
}

fn end_of(status: ExitStatus) -> End {
    match (status.code(), status.signal()) {
        (Some(code), _) => End::Exited(code),
        (None, Some(signal)) => End::Signalled(signal),
        (None, None) => End::Exited(-1),
    }
}

/// The grader's ends of the program's three pipes, all non-blocking.
struct Pipes<'a> {
    stdin: Option<ChildStdin>,
    /// What is left to write to stdin.
    input: &'a [u8],
    stdout: Option<ChildStdout>,
    out: Vec<u8>,
    cap: usize,
    /// More than `cap` bytes came: `out` holds the first `cap`, and no more is read.
    flooded: bool,
    stderr: Option<ChildStderr>,
    /// The end of stderr: at most twice [`STDERR_TAIL`] bytes, cut when it is taken.
    tail: Vec<u8>,
    buf: Vec<u8>,
}

impl<'a> Pipes<'a> {
    fn new(child: &mut Child, input: &'a [u8], cap: usize) -> io::Result<Pipes<'a>> {
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        if let Some(p) = &stdin {
            non_blocking(p)?;
        }
        if let Some(p) = &stdout {
            non_blocking(p)?;
        }
        if let Some(p) = &stderr {
            non_blocking(p)?;
        }
        let mut pipes = Pipes {
            // Nothing to write: the program sees the end of its input at once.
            stdin: stdin.filter(|_| !input.is_empty()),
            input,
            stdout,
            out: Vec::new(),
            cap,
            flooded: false,
            stderr,
            tail: Vec::new(),
            buf: vec![0; 64 * 1024],
        };
        pipes.step();
        Ok(pipes)
    }

    /// Waits up to `timeout` for a pipe to be ready. Errors (such as a signal arriving)
    /// only end the wait early.
    fn wait(&self, timeout: Duration) {
        let mut fds = Vec::with_capacity(3);
        if let Some(p) = &self.stdin {
            fds.push(PollFd::new(p.as_fd(), PollFlags::POLLOUT));
        }
        if let Some(p) = self.stdout.as_ref().filter(|_| !self.flooded) {
            fds.push(PollFd::new(p.as_fd(), PollFlags::POLLIN));
        }
        if let Some(p) = &self.stderr {
            fds.push(PollFd::new(p.as_fd(), PollFlags::POLLIN));
        }
        let ms = u16::try_from(timeout.as_millis())
            .unwrap_or(u16::MAX)
            .max(1);
        let _ = poll(&mut fds, PollTimeout::from(ms));
    }

    /// Writes and reads what the pipes take and hold right now, without waiting.
    fn step(&mut self) {
        self.write_input();
        if !self.flooded {
            self.read_stdout();
        }
        self.read_stderr();
    }

    fn write_input(&mut self) {
        let Some(stdin) = &mut self.stdin else { return };
        while !self.input.is_empty() {
            match stdin.write(self.input) {
                Ok(n) => self.input = &self.input[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                // A program that stops reading, or closes stdin early: that is fine.
                Err(_) => break,
            }
        }
        // Closing stdin is how the program learns that the script has ended.
        self.stdin = None;
    }

    fn read_stdout(&mut self) {
        let Some(stdout) = &mut self.stdout else {
            return;
        };
        for _ in 0..READS_PER_STEP {
            match read_some(stdout, &mut self.buf) {
                Some(0) => {
                    self.stdout = None;
                    return;
                }
                Some(n) => {
                    self.out.extend_from_slice(&self.buf[..n]);
                    if self.out.len() > self.cap {
                        self.out.truncate(self.cap);
                        self.flooded = true;
                        return;
                    }
                }
                None => return,
            }
        }
    }

    fn read_stderr(&mut self) {
        let Some(stderr) = &mut self.stderr else {
            return;
        };
        for _ in 0..READS_PER_STEP {
            match read_some(stderr, &mut self.buf) {
                Some(0) => {
                    self.stderr = None;
                    return;
                }
                Some(n) => {
                    self.tail.extend_from_slice(&self.buf[..n]);
                    if self.tail.len() > 2 * STDERR_TAIL {
                        self.tail.drain(..self.tail.len() - STDERR_TAIL);
                    }
                }
                None => return,
            }
        }
    }

    /// Reads what is left in the output pipes until they end or `until` passes.
    fn drain(&mut self, until: Instant) {
        self.stdin = None;
        loop {
            self.step();
            let open = (self.stdout.is_some() && !self.flooded) || self.stderr.is_some();
            let now = Instant::now();
            if !open || now >= until {
                return;
            }
            self.wait(until - now);
        }
    }

    fn into_run(mut self, end: End) -> Run {
        if self.tail.len() > STDERR_TAIL {
            self.tail.drain(..self.tail.len() - STDERR_TAIL);
        }
        Run {
            stdout: self.out,
            stderr_tail: self.tail,
            end,
            limit: None,
            note: None,
        }
    }
}

/// One non-blocking read: `Some(0)` at the end of the pipe (or on an error, which ends it
/// too), `None` when nothing is there yet.
fn read_some(pipe: &mut impl Read, buf: &mut [u8]) -> Option<usize> {
    loop {
        match pipe.read(buf) {
            Ok(n) => return Some(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return None,
            Err(_) => return Some(0),
        }
    }
}

/// Makes the grader's end of a pipe non-blocking (the program's end is a separate open
/// file and keeps its own mode).
fn non_blocking(fd: impl AsFd) -> io::Result<()> {
    let flags = OFlag::from_bits_retain(fcntl(fd.as_fd(), FcntlArg::F_GETFL)?);
    fcntl(fd.as_fd(), FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}
