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
pub(crate) mod invoked;
pub(crate) mod render;
pub(crate) mod script;
pub(crate) mod units;
pub(crate) mod worked;

pub(crate) mod calc;
pub(crate) mod exercise;
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
    ignore_file_size_signal();
    // A program being graded must not get its answers from the tutor.
    if let Some(refusal) = grade::refusal(&cli) {
        anyhow::bail!(refusal);
    }
    if let Some(command) = &cli.command {
        let mut out = Watched {
            inner: BufWriter::new(io::stdout().lock()),
            failed: false,
        };
        let code = run_command(command, &mut out);
        let code = match code {
            // A write that failed says what it was writing, not only what went wrong.
            Err(e) if out.failed => return Err(e.context("could not write the output")),
            code => code?,
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

/// A writer that remembers whether a write to it failed.
struct Watched<W: Write> {
    inner: W,
    failed: bool,
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf);
        self.failed |= written.is_err();
        written
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.inner.flush();
        self.failed |= flushed.is_err();
        flushed
    }
}

/// Runs a subcommand, its output to `out`.
fn run_command(command: &cli::Sub, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    match command {
        cli::Sub::Grade(args) => grade::run(args, out),
        cli::Sub::Lesson(args) => lesson::run(args, out),
        cli::Sub::Calc(args) => calc::run(args, out).map(|()| ExitCode::SUCCESS),
        cli::Sub::Exercise(args) => exercise::run(args, out).map(|()| ExitCode::SUCCESS),
        cli::Sub::Experiment(args) => experiment::run(args, out).map(|()| ExitCode::SUCCESS),
    }
}

/// Runs the command line's script files (or stdin) in order against one filter.
fn run_files(cli: &Cli, spec: FilterSpec) -> anyhow::Result<ExitCode> {
    let mut runner = ScriptRunner::try_new(spec, cli.explain, cli.filter.any_given())?
        .with_counters(cli.filter.counters());
    let mut out = piped::AnswerBuffer::new(64 * 1024, io::stdout().lock());
    let mut err = io::stderr().lock();
    if let Some(path) = &cli.load {
        runner.load(path, &mut out)?;
    }
    let mut bad_lines = 0;
    let stdin_only = [std::path::PathBuf::from("-")];
    let files = if cli.files.is_empty() {
        &stdin_only[..]
    } else {
        &cli.files[..]
    };
    for path in files {
        let name = crate::escape::path(path);
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

/// Past a file-size limit (`ulimit -f`), a write raises SIGXFSZ, which would end the tutor
/// with no message and half a file. Caught, the write fails with an error the tutor reports,
/// and its atomic writes remove their temporary files.
#[cfg(unix)]
fn ignore_file_size_signal() {
    let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Registering can only fail for a signal that cannot be caught; SIGXFSZ can.
    let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, caught);
}

#[cfg(not(unix))]
fn ignore_file_size_signal() {}

/// An error that reached the top, as one message for a person: its causes joined, and
/// every control or format character escaped, whatever a lower layer let through (a file
/// name, a library's echo of an argument), so that it cannot act on the terminal.
pub fn error_message(err: &anyhow::Error) -> String {
    escape::text_lines(&format!("error: {err:#}"))
}

/// Whether `err` comes from writing to a reader that went away (`| head`): a quiet exit.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
