//! bloom-tutor: a Bloom filter you can run, as a library, a script interpreter and a tutor.
//!
//! The public API is small: [`Bloom`] with its [`FilterSpec`], [`Scheme`] and [`Answer`]
//! for programs; [`ScriptRunner`] to run scripts of ADD, CHECK and BITS in-process, exactly
//! as the binary does; and [`run`] with [`Cli`] for the binary itself.
//!
//! Layers, each calling only down: `engine` (bits, hashes, memory, formulas: no I/O, no
//! text), `script` (parser, reader, session: lines in, outcomes out), `render` (outcomes to
//! text), then the front ends (`piped`, `repl`, `lesson`, `grade`, `calc`, `experiment`).

pub(crate) mod atomic;
pub mod cli;
pub(crate) mod engine;
pub(crate) mod escape;
pub(crate) mod render;
pub(crate) mod script;

pub(crate) mod calc;
pub(crate) mod experiment;
pub(crate) mod grade;
pub(crate) mod history;
pub(crate) mod lesson;
pub(crate) mod piped;
pub(crate) mod repl;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;

pub use crate::cli::Cli;
pub use crate::engine::bloom::{Answer, Bloom};
pub use crate::engine::scheme::{FilterSpec, Scheme, SpecError};
pub use crate::piped::{ScriptEnd, ScriptError, ScriptRunner};
pub use crate::script::reader::Source;

/// Runs the tutor as the command line asks. `Ok` carries the exit status: 0 when every
/// line was valid, 1 otherwise.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    // A program being graded must not get its answers from the tutor.
    if let Some(refusal) = grade::refusal(&cli) {
        anyhow::bail!(refusal);
    }
    if stdout_is_closed() {
        // Rust's standard output quietly drops writes to a closed descriptor.
        anyhow::bail!("standard output is closed, so the tutor's output would be lost");
    }
    if let Some(command) = &cli.command {
        let mut out = BufWriter::new(io::stdout().lock());
        let code = match command {
            cli::Sub::Grade(args) => grade::run(args, &mut out)?,
            cli::Sub::Calc(args) => {
                calc::run(args, &mut out)?;
                ExitCode::SUCCESS
            }
            cli::Sub::Lesson(args) => lesson::run(args, &mut out)?,
            cli::Sub::Experiment(args) => {
                experiment::run(args, &mut out)?;
                ExitCode::SUCCESS
            }
        };
        out.flush().context("could not write the output")?;
        return Ok(code);
    }
    let spec = cli.filter.spec()?;
    if cli.files.is_empty() && io::stdin().is_terminal() && io::stdout().is_terminal() {
        repl::run(spec, &repl::Options::from_cli(&cli))?;
        return Ok(ExitCode::SUCCESS);
    }
    run_files(&cli, spec)
}

/// Runs the command line's script files (or stdin) in order against one filter.
fn run_files(cli: &Cli, spec: FilterSpec) -> anyhow::Result<ExitCode> {
    let mut runner = ScriptRunner::new(spec, cli.explain, cli.filter.any_given());
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut err = io::stderr().lock();
    let mut bad_lines = 0;
    let stdin_only = [std::path::PathBuf::from("-")];
    let files = if cli.files.is_empty() {
        &stdin_only[..]
    } else {
        &cli.files[..]
    };
    for path in files {
        let name = path.display().to_string();
        let end = if path.as_os_str() == "-" {
            // Among named files, stdin is named too.
            let source = if cli.files.is_empty() {
                Source::Stdin
            } else {
                Source::File("stdin")
            };
            runner.run(io::stdin().lock(), source, &mut out, &mut err)
        } else {
            let file =
                File::open(path).with_context(|| format!("could not open script `{name}`"))?;
            runner.run(file, Source::File(&name), &mut out, &mut err)
        };
        let end = match end {
            Ok(end) => end,
            Err(e @ ScriptError::Read(_)) => {
                return Err(e).with_context(|| format!("could not run `{name}`"));
            }
            Err(e) => return Err(e.into()),
        };
        bad_lines += end.bad_lines;
        if end.quit {
            break;
        }
    }
    out.flush().context("could not write the answers")?;
    Ok(if bad_lines == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Whether standard output was closed when the tutor started (`bloom-tutor >&-`).
///
/// Rust's runtime opens `/dev/null` (read-write) on a standard descriptor that is closed at
/// start, so writes would vanish without an error. A shell's `> /dev/null` opens it write-only,
/// so `/dev/null` open for reading and writing on descriptor 1 is the runtime's stand-in.
#[cfg(unix)]
fn stdout_is_closed() -> bool {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    use nix::sys::stat::{fstat, stat};
    let stdout = io::stdout();
    let (Ok(fd), Ok(null)) = (fstat(&stdout), stat("/dev/null")) else {
        return false;
    };
    let read_write = fcntl(&stdout, FcntlArg::F_GETFL)
        .is_ok_and(|flags| OFlag::from_bits_truncate(flags) & OFlag::O_ACCMODE == OFlag::O_RDWR);
    fd.st_rdev == null.st_rdev && fd.st_ino == null.st_ino && read_write
}

#[cfg(not(unix))]
fn stdout_is_closed() -> bool {
    false
}

/// Whether `err` comes from writing to a reader that went away (`| head`): a quiet exit.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
