//! Runs a learner's program on one script, safely: a timeout, a cap on output, and the whole
//! process group stopped afterwards. The program is run directly, never through a shell.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// How much of stderr a report keeps: its end.
const STDERR_TAIL: usize = 2048;

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
}

/// What the program did with one script.
#[derive(Debug, Clone)]
pub struct Run {
    pub stdout: Vec<u8>,
    /// The last [`STDERR_TAIL`] bytes of stderr.
    pub stderr_tail: Vec<u8>,
    pub end: End,
}

/// Runs `program` (a path and its arguments) with `input` on stdin. `Err` only when the
/// program could not be started at all.
pub fn run(
    program: &[OsString],
    input: &[u8],
    timeout: Duration,
    cap: usize,
) -> anyhow::Result<Run> {
    let (path, args) = program.split_first().context("no program to run")?;
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so it and anything it starts can be stopped together.
        .process_group(0)
        .spawn()
        .with_context(|| {
            let shown = path.to_string_lossy();
            // `grade -- "python3 bloom.py"` passes one word with a space: say how to split it.
            let hint = if shown.contains(' ') {
                " (the program and its arguments go after `--` as separate words, as in `-- python3 bloom.py`)"
            } else {
                ""
            };
            format!("could not start `{shown}`{hint}")
        })?;

    let mut stdin = child.stdin.take().context("stdin is piped")?;
    let input = input.to_vec();
    // A program that never reads, or closes stdin early, makes this fail: that is fine.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let flooded = Arc::new(AtomicBool::new(false));
    let stdout = child.stdout.take().context("stdout is piped")?;
    let stdout_reader = {
        let flooded = Arc::clone(&flooded);
        thread::spawn(move || read_capped(stdout, cap, &flooded))
    };
    let stderr = child.stderr.take().context("stderr is piped")?;
    let stderr_reader = thread::spawn(move || read_tail(stderr));

    let end = wait(&mut child, timeout, &flooded)?;
    // Stop whatever is left of the group, such as children that hold the pipes open.
    let _ = killpg(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
    let _ = writer.join();
    let stdout = stdout_reader.join().unwrap_or_default();
    let stderr_tail = stderr_reader.join().unwrap_or_default();
    Ok(Run {
        stdout,
        stderr_tail,
        end,
    })
}

fn wait(child: &mut Child, timeout: Duration, flooded: &AtomicBool) -> io::Result<End> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait()? {
            if flooded.load(Ordering::Relaxed) {
                return Ok(End::Flooded);
            }
            return Ok(match (status.code(), status.signal()) {
                (Some(code), _) => End::Exited(code),
                (None, Some(sig)) => End::Signalled(sig),
                (None, None) => End::Exited(-1),
            });
        }
        let stop = if flooded.load(Ordering::Relaxed) {
            Some(End::Flooded)
        } else if Instant::now() >= deadline {
            Some(End::TimedOut)
        } else {
            None
        };
        if let Some(end) = stop {
            let _ = killpg(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
            child.wait()?;
            return Ok(end);
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Reads up to `cap` bytes; past that, sets `flooded` and stops reading.
fn read_capped(mut r: impl Read, cap: usize, flooded: &AtomicBool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                if out.len() > cap {
                    out.truncate(cap);
                    flooded.store(true, Ordering::Relaxed);
                    return out;
                }
            }
        }
    }
}

/// Reads everything, keeping the last [`STDERR_TAIL`] bytes.
fn read_tail(mut r: impl Read) -> Vec<u8> {
    let mut tail = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => return tail,
            Ok(n) => {
                tail.extend_from_slice(&buf[..n]);
                if tail.len() > 2 * STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
        }
    }
}
