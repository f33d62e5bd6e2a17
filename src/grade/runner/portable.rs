//! One run with the standard library alone, for systems without Unix process groups and
//! `poll`: threads feed stdin and read the output, only the program itself is killed at the
//! end, and a reader that a surviving descendant keeps waiting is abandoned, not joined.
//! Built on Unix too when testing, so that it is tested.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use super::{End, Limits, Run, RunError, STDERR_TAIL, Watch};
use crate::grade::interrupt::Stop;

/// How often the loop looks at the program's status and the stop request.
const TICK: Duration = Duration::from_millis(10);

/// How long to collect what the readers still hold once the program is stopped.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Nothing to set up: there is no process group to make.
pub(super) fn prepare(_command: &mut Command, _own_session: bool) {}

/// Which pipe a chunk came from.
enum Chunk {
    Out(Vec<u8>),
    Err(Vec<u8>),
}

/// As the Unix runner's `supervise`, with threads, and with the program alone stopped.
pub(super) fn supervise(
    mut child: Child,
    input: &[u8],
    limits: Limits,
    stop: &Stop,
    _watch: Watch<'_>,
) -> Result<Run, RunError> {
    let deadline = Instant::now() + limits.timeout;
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        // A program that never reads, or closes stdin early, makes this fail: that is fine.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    // Bounded, so a flood waits in the readers rather than in memory.
    let (tx, rx) = mpsc::sync_channel(16);
    if let Some(stdout) = child.stdout.take() {
        spawn_reader(stdout, tx.clone(), Chunk::Out);
    }
    if let Some(stderr) = child.stderr.take() {
        spawn_reader(stderr, tx, Chunk::Err);
    }
    let mut got = Got {
        out: Vec::new(),
        tail: Vec::new(),
        cap: limits.output_cap,
        flooded: false,
    };
    let end = loop {
        if let Some(signal) = stop.signal() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(RunError::Interrupted(signal));
        }
        if let Some(status) = child.try_wait().map_err(RunError::Io)? {
            break end_of(status);
        }
        if got.flooded {
            break End::Flooded;
        }
        let now = Instant::now();
        if now >= deadline {
            break End::TimedOut;
        }
        match rx.recv_timeout(TICK.min(deadline - now)) {
            Ok(chunk) => got.absorb(chunk),
            Err(RecvTimeoutError::Timeout) => {}
            // Both pipes ended: only the program's exit is left to wait for.
            Err(RecvTimeoutError::Disconnected) => thread::sleep(TICK),
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let until = Instant::now() + DRAIN_GRACE;
    while !got.flooded {
        let now = Instant::now();
        if now >= until {
            break;
        }
        match rx.recv_timeout(until - now) {
            Ok(chunk) => got.absorb(chunk),
            // Ended, or held open by a descendant: its reader is abandoned.
            Err(_) => break,
        }
    }
    let end = match end {
        End::Exited(_) | End::Signalled(_) if got.flooded => End::Flooded,
        end => end,
    };
    if got.tail.len() > STDERR_TAIL {
        got.tail.drain(..got.tail.len() - STDERR_TAIL);
    }
    Ok(Run {
        stdout: got.out,
        stderr_tail: got.tail,
        end,
        limit: None,
        note: None,
    })
}

fn spawn_reader(
    mut pipe: impl Read + Send + 'static,
    tx: SyncSender<Chunk>,
    wrap: fn(Vec<u8>) -> Chunk,
) {
    thread::spawn(move || {
        let mut buf = vec![0; 64 * 1024];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    // The receiver is gone once the run is over: stop reading.
                    if tx.send(wrap(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    });
}

/// What has come from the program so far.
struct Got {
    out: Vec<u8>,
    tail: Vec<u8>,
    cap: usize,
    flooded: bool,
}

impl Got {
    fn absorb(&mut self, chunk: Chunk) {
        match chunk {
            Chunk::Out(bytes) if !self.flooded => {
                self.out.extend_from_slice(&bytes);
                if self.out.len() > self.cap {
                    self.out.truncate(self.cap);
                    self.flooded = true;
                }
            }
            Chunk::Out(_) => {}
            Chunk::Err(bytes) => {
                self.tail.extend_from_slice(&bytes);
                if self.tail.len() > 2 * STDERR_TAIL {
                    self.tail.drain(..self.tail.len() - STDERR_TAIL);
                }
            }
        }
    }
}

/// Without Unix signals, a status has only an exit code; `-1` when it has none.
fn end_of(status: ExitStatus) -> End {
    End::Exited(status.code().unwrap_or(-1))
}
