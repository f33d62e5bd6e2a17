//! bloom-tutor: the main lesson's Bloom filter as a library, an interpreter and a tutor.

pub mod bloom;
pub mod calc;
pub mod cli;
pub mod command;
pub mod escape;
pub mod experiment;
pub mod explain;
pub mod filter;
pub mod grade;
pub mod help;
pub mod input;
pub mod lesson;
pub mod repl;
pub mod scheme;
pub mod session;
pub mod theory;
pub mod units;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::cli::Cli;
use crate::input::{Source, run_script};
use crate::session::Session;

pub use crate::bloom::{Answer, Bloom};
pub use crate::filter::Filter;
pub use crate::scheme::{FilterSpec, Scheme};

/// Runs the tutor as the command line asks. `Ok` carries the exit status: 0 when every
/// line was valid, 1 otherwise.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
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
        out.flush()?;
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
    let stdin = io::stdin();
    let mut session = Session::new(spec, cli.explain, "# ").without_trace();
    let spec_fixed = cli.filter.any_given();
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
        let end = if path.as_os_str() == "-" {
            // Among named files, stdin is named too.
            let source = if cli.files.is_empty() {
                Source::Stdin
            } else {
                Source::File("stdin")
            };
            run_script(
                stdin.lock(),
                source,
                &mut session,
                spec_fixed,
                &mut out,
                &mut err,
            )
        } else {
            let name = path.display().to_string();
            let file =
                File::open(path).with_context(|| format!("could not open script `{name}`"))?;
            run_script(
                file,
                Source::File(&name),
                &mut session,
                spec_fixed,
                &mut out,
                &mut err,
            )
        }
        .with_context(|| format!("could not run `{}`", path.display()))?;
        bad_lines += end.bad_lines;
        if end.quit {
            break;
        }
    }
    out.flush()?;
    Ok(if bad_lines == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Whether `err` comes from writing to a reader that went away (`| head`): a quiet exit.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
