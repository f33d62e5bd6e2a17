//! Worker processes: each runs one learner's program for the grader and stops everything it
//! started, so that several programs can run at once.
//!
//! Stopping "everything it started" on Linux means every descendant of the process that
//! ran it (see `runner`); in one process running several programs, one run's sweep would
//! kill the others'. So the grader starts `bloom-tutor grade --worker` (its own binary) per
//! run, which makes itself a subreaper, runs the program with the in-process runner and
//! sends back what happened. The grader only ever asks a worker to stop (SIGTERM), and a
//! worker whose grader dies is stopped by the kernel (the parent-death signal).
//!
//! The exchange is one JSON line and raw bytes each way: the request, then the script; the
//! response, then the program's stdout and the end of its stderr.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::interrupt::Stop;
use super::runner::{self, End, Limit, Limits, Run, RunError};
use super::sandbox::Sandbox;

/// The longest request or response line: a program's words, a few numbers.
const HEADER_CAP: u64 = 1 << 20;

/// The most script a worker takes: the longest teacher case the grader reads, and more.
const INPUT_CAP: u64 = 256 << 20;

/// Time a worker may take beyond its program's timeout: starting, stopping the program's
/// processes, reading what is left in the pipes.
const WORKER_MARGIN: Duration = Duration::from_secs(30);

#[derive(Debug, Serialize, Deserialize)]
struct Request {
    /// The program and its arguments, as bytes.
    program: Vec<Vec<u8>>,
    timeout_secs: f64,
    output_cap: usize,
    input_len: u64,
    /// The grader's pid: a worker whose parent is already another has lost its grader.
    parent: u32,
    sandbox: Sandbox,
}

#[derive(Debug, Serialize, Deserialize)]
enum WireEnd {
    Exited(i32),
    Signalled(i32),
    TimedOut,
    Flooded,
    UsedTutor,
}

#[derive(Debug, Serialize, Deserialize)]
enum WireLimit {
    Memory(u64),
    Cpu(u64),
    FileSize(u64),
}

#[derive(Debug, Serialize, Deserialize)]
struct Response {
    end: Option<WireEnd>,
    /// Why the program could not run, in words.
    error: Option<String>,
    /// The signal that stopped the worker while it ran the program.
    interrupted: Option<i32>,
    stdout_len: u64,
    stderr_len: u64,
    limit: Option<WireLimit>,
    note: Option<String>,
}

/// Runs `program` on `input` within `limits` in a worker process, as [`runner::run`] would
/// in this one. Any number may run at once.
#[cfg(unix)]
pub fn run(
    program: &[OsString],
    input: &[u8],
    limits: Limits,
    sandbox: Sandbox,
    stop: &Stop,
) -> Result<Run, RunError> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let request = Request {
        program: program.iter().map(|w| w.as_bytes().to_vec()).collect(),
        timeout_secs: limits.timeout.as_secs_f64(),
        output_cap: limits.output_cap,
        input_len: input.len() as u64,
        parent: std::process::id(),
        sandbox,
    };
    let mut bytes = serde_json::to_vec(&request).map_err(|e| RunError::Io(e.into()))?;
    bytes.push(b'\n');
    bytes.extend_from_slice(input);
    let worker = [
        super::sandbox::self_exe(),
        OsString::from("grade"),
        OsString::from("--worker"),
    ];
    let outer = Limits {
        timeout: limits.timeout + WORKER_MARGIN,
        output_cap: limits.output_cap + runner::STDERR_TAIL + HEADER_CAP as usize,
    };
    let got = runner::run_worker(&worker, &bytes, outer, stop)?;
    let trouble = |what: String| {
        let tail = crate::escape::escape_prefix_of(&got.stderr_tail, 300);
        RunError::Worker(if tail.is_empty() {
            what
        } else {
            format!("{what}: {tail}")
        })
    };
    if got.end != End::Exited(0) {
        return Err(trouble(format!(
            "the worker running it ended: {:?}",
            got.end
        )));
    }
    let Some(newline) = got.stdout.iter().position(|&b| b == b'\n') else {
        return Err(trouble("the worker sent no answer".to_string()));
    };
    let response: Response = serde_json::from_slice(&got.stdout[..newline])
        .map_err(|e| trouble(format!("the worker's answer is garbled ({e})")))?;
    if let Some(signal) = response.interrupted {
        return Err(RunError::Interrupted(signal));
    }
    if let Some(error) = response.error {
        let program = OsString::from_vec(
            program
                .first()
                .map(|p| p.as_bytes().to_vec())
                .unwrap_or_default(),
        );
        return Err(RunError::CannotStart(program, io::Error::other(error)));
    }
    let rest = &got.stdout[newline + 1..];
    let (out_len, err_len) = (response.stdout_len as usize, response.stderr_len as usize);
    if rest.len() != out_len.saturating_add(err_len) {
        return Err(trouble("the worker's answer is cut short".to_string()));
    }
    let end = match response.end {
        Some(WireEnd::Exited(code)) => End::Exited(code),
        Some(WireEnd::Signalled(signal)) => End::Signalled(signal),
        Some(WireEnd::TimedOut) => End::TimedOut,
        Some(WireEnd::Flooded) => End::Flooded,
        Some(WireEnd::UsedTutor) => End::UsedTutor,
        None => return Err(trouble("the worker's answer has no end".to_string())),
    };
    Ok(Run {
        stdout: rest[..out_len].to_vec(),
        stderr_tail: rest[out_len..].to_vec(),
        end,
        limit: response.limit.map(|l| match l {
            WireLimit::Memory(n) => Limit::Memory(n),
            WireLimit::Cpu(n) => Limit::Cpu(n),
            WireLimit::FileSize(n) => Limit::FileSize(n),
        }),
        note: response.note,
    })
}

/// The worker's side (`bloom-tutor grade --worker`): reads a request and a script on
/// stdin, runs the program, and writes the response to `out`.
#[cfg(unix)]
pub fn serve(out: &mut impl Write) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::os::unix::ffi::OsStringExt;
    let mut stdin = io::stdin().lock();
    let header = read_line(&mut stdin, HEADER_CAP).context("could not read the request")?;
    let request: Request =
        serde_json::from_slice(&header).context("the request is not one the worker knows")?;
    // Stopped with the grader: the kernel sends SIGTERM when it dies. If it already has,
    // this process was handed to another parent and nobody waits for the answer.
    #[cfg(target_os = "linux")]
    {
        let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGTERM);
    }
    // Other programs of this user may not read this process's memory (the script) or
    // follow /proc/PID/exe to its binary.
    #[cfg(target_os = "linux")]
    {
        let _ = nix::sys::prctl::set_dumpable(false);
    }
    if std::os::unix::process::parent_id() != request.parent {
        anyhow::bail!("the grader that asked for this run is gone");
    }
    let mut input = Vec::new();
    stdin
        .take(request.input_len.min(INPUT_CAP))
        .read_to_end(&mut input)
        .context("could not read the script")?;
    let program: Vec<OsString> = request
        .program
        .into_iter()
        .map(OsString::from_vec)
        .collect();
    let limits = Limits {
        timeout: Duration::from_secs_f64(request.timeout_secs.clamp(0.001, 86_400.0)),
        output_cap: request.output_cap,
    };
    let stop = super::interrupt::on_signals().context("could not catch SIGTERM")?;
    let (response, run) = match contained(&program, &input, limits, request.sandbox, stop) {
        Ok(run) => {
            let end = match run.end {
                End::Exited(code) => WireEnd::Exited(code),
                End::Signalled(signal) => WireEnd::Signalled(signal),
                End::TimedOut => WireEnd::TimedOut,
                End::Flooded => WireEnd::Flooded,
                End::UsedTutor => WireEnd::UsedTutor,
            };
            let response = Response {
                end: Some(end),
                error: None,
                interrupted: None,
                stdout_len: run.stdout.len() as u64,
                stderr_len: run.stderr_tail.len() as u64,
                limit: run.limit.map(|l| match l {
                    Limit::Memory(n) => WireLimit::Memory(n),
                    Limit::Cpu(n) => WireLimit::Cpu(n),
                    Limit::FileSize(n) => WireLimit::FileSize(n),
                }),
                note: run.note.clone(),
            };
            (response, Some(run))
        }
        Err(err) => {
            let interrupted = match err {
                RunError::Interrupted(signal) => Some(signal),
                _ => None,
            };
            let response = Response {
                end: None,
                error: interrupted.is_none().then(|| err.to_string()),
                interrupted,
                stdout_len: 0,
                stderr_len: 0,
                limit: None,
                note: None,
            };
            (response, None)
        }
    };
    serde_json::to_writer(&mut *out, &response)?;
    out.write_all(b"\n")?;
    if let Some(run) = run {
        out.write_all(&run.stdout)?;
        out.write_all(&run.stderr_tail)?;
    }
    out.flush()?;
    Ok(())
}

/// Runs `program` as a graded program: through the stage (the limits), in a room of its
/// own (an empty working folder, a scrubbed environment, a decoy for the tutor on its
/// PATH), watched for the tutor; then says which limit, if any, ended it.
#[cfg(unix)]
fn contained(
    program: &[OsString],
    input: &[u8],
    limits: Limits,
    sandbox: Sandbox,
    stop: &Stop,
) -> Result<Run, RunError> {
    use super::sandbox::{Room, detect::TutorWatch, stage};
    let room = Room::new().map_err(RunError::Io)?;
    let tutor = std::env::current_exe().unwrap_or_default();
    room.add_decoy("bloom-tutor", std::process::id())
        .map_err(RunError::Io)?;
    let decoy = room.work().with_file_name("bin").join("bloom-tutor");
    let mut watch = TutorWatch::new(Some(decoy)).map_err(RunError::Io)?;
    let mut staged: Vec<OsString> = vec![super::sandbox::self_exe()];
    staged.extend(stage::args(&sandbox, false));
    staged.push("--".into());
    staged.extend(program.iter().cloned());
    let setup = runner::Setup {
        env: Some(room.env(&tutor)),
        dir: Some(room.work()),
        own_session: true,
    };
    let mut run = runner::run_watched(&staged, input, limits, stop, &setup, &mut |pid| {
        watch.look(pid)
    })?;
    run.limit = limit_reached(&run, sandbox, &room);
    Ok(run)
}

/// The limit that ended `run`, judged by how it ended, the CPU time its processes used,
/// the files it left and what it said on stderr.
#[cfg(unix)]
fn limit_reached(run: &Run, sandbox: Sandbox, room: &super::sandbox::Room) -> Option<Limit> {
    use nix::sys::resource::{UsageWho, getrusage};
    use nix::sys::signal::Signal;
    let abnormal = match run.end {
        End::Exited(code) => code != 0,
        End::Signalled(_) => true,
        End::TimedOut | End::Flooded | End::UsedTutor => return None,
    };
    if !abnormal {
        return None;
    }
    let signal = match run.end {
        End::Signalled(n) => Signal::try_from(n).ok(),
        _ => None,
    };
    if let Some(seconds) = sandbox.cpu {
        let used = getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0.0, |u| {
            let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
            t(u.user_time()) + t(u.system_time())
        });
        if signal == Some(Signal::SIGXCPU)
            || (signal == Some(Signal::SIGKILL) && used >= seconds as f64 - 0.05)
        {
            return Some(Limit::Cpu(seconds));
        }
    }
    if let Some(bytes) = sandbox.file_size
        && (signal == Some(Signal::SIGXFSZ) || room.largest_file() >= bytes)
    {
        return Some(Limit::FileSize(bytes));
    }
    if let Some(bytes) = sandbox.memory {
        let said = String::from_utf8_lossy(&run.stderr_tail).to_ascii_lowercase();
        let out_of_memory = [
            "memoryerror",
            "cannot allocate memory",
            "out of memory",
            "memory allocation of",
            "bad_alloc",
            "outofmemoryerror",
            "failed to allocate",
            // The dynamic loader, when the limit leaves no room for a library: the
            // program could not even start.
            "failed to map segment",
            // Java, when the limit leaves no room for its heap.
            "could not reserve enough space",
        ];
        if out_of_memory.iter().any(|m| said.contains(m)) {
            return Some(Limit::Memory(bytes));
        }
    }
    None
}

/// One line from `input`, without its newline, of at most `cap` bytes.
fn read_line<R: io::BufRead>(input: &mut R, cap: u64) -> io::Result<Vec<u8>> {
    let mut line = Vec::new();
    io::BufRead::read_until(&mut input.take(cap), b'\n', &mut line)?;
    if line.pop() != Some(b'\n') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the line has no end",
        ));
    }
    Ok(line)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_program_the_memory_limit_keeps_from_starting_is_stopped_by_it() {
        let room = super::super::sandbox::Room::new().expect("a room");
        let sandbox = Sandbox {
            memory: Some(16 << 20),
            cpu: None,
            file_size: None,
            isolate: false,
        };
        let run = |stderr: &str| Run {
            stdout: Vec::new(),
            stderr_tail: stderr.as_bytes().to_vec(),
            end: End::Exited(127),
            limit: None,
            note: None,
        };
        let loader = "/usr/bin/python3: error while loading shared libraries: libm.so.6: \
                      failed to map segment from shared object\n";
        assert_eq!(
            limit_reached(&run(loader), sandbox, &room),
            Some(Limit::Memory(16 << 20)),
            "the dynamic loader could not map a library"
        );
        assert_eq!(
            limit_reached(&run("bloom.py: line 3: syntax error\n"), sandbox, &room),
            None,
            "a program's own failure"
        );
    }
}
