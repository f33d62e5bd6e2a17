//! `bloom-tutor grade`: runs a learner's solution on the built-in cases, shows where it goes
//! wrong, and names the lesson's mistake that explains it.

pub mod cases;
pub mod mistakes;
pub mod runner;

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use serde::Serialize;

use crate::cli::GradeArgs;
use crate::engine::scheme::FilterSpec;
use crate::piped::ScriptRunner;
use crate::script::command::Command;
use crate::script::reader::Source;
use cases::Case;
use mistakes::Mistake;
use runner::End;

/// Output beyond this is a flood: the program is stopped and the report stays small.
pub(crate) const OUTPUT_CAP: usize = 1 << 20;

/// The tutor's own answers to a case's script.
pub fn expected_answers(script: &str) -> String {
    let mut runner = ScriptRunner::new(FilterSpec::lesson(), false, true);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    // Writing to a Vec cannot fail, and the built-in scripts are valid.
    let _ = runner.run(script.as_bytes(), Source::Stdin, &mut out, &mut err);
    String::from_utf8_lossy(&out).into_owned()
}

/// How a case ended, as the JSON report spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every answer right.
    Pass,
    /// It ran to the end, with a wrong answer.
    Fail,
    /// Stopped at the timeout.
    Timeout,
    /// A non-zero exit status or a signal.
    Crash,
    /// Stopped for writing too much.
    Flood,
}

impl Status {
    /// The label in the human report.
    fn label(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Timeout => "TIME",
            Status::Crash => "CRASH",
            Status::Flood => "FLOOD",
        }
    }
}

/// How one case went.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub name: &'static str,
    pub status: Status,
    pub expected: String,
    pub got: String,
    /// The mistake behind the wrong answers (the first, when two explain them together).
    pub mistake: Option<Mistake>,
    /// Every mistake that together explains the wrong answers.
    pub mistakes: Vec<Mistake>,
    /// Why a case that is not `pass` failed, in words.
    pub reason: Option<String>,
    #[serde(skip)]
    pub stderr_tail: String,
    #[serde(skip)]
    pub script: String,
}

impl Verdict {
    fn passed(&self) -> bool {
        self.status == Status::Pass
    }
}

/// Runs the grader as `args` asks, writing the report to `out`.
pub fn run(args: &GradeArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    if args.list {
        for case in cases::all() {
            writeln!(out, "{:<24} {}", case.name, case.checks)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(name) = &args.show {
        let case = find(name)?;
        writeln!(out, "case {}: {}\n", case.name, case.checks)?;
        writeln!(
            out,
            "script (save it as {}.txt and run your program on it):",
            case.name
        )?;
        for line in case.script.lines() {
            writeln!(out, "  {line}")?;
        }
        writeln!(out, "\nexpected output:")?;
        for line in expected_answers(&case.script).lines() {
            writeln!(out, "  {line}")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.program.is_empty() {
        let tutor = crate::invoked::tutor();
        anyhow::bail!(
            "no program to grade, expected `{tutor} grade -- PROGRAM [ARGS...]` (for example `{tutor} grade -- python3 bloom.py`)"
        );
    }
    let chosen = match &args.case {
        Some(name) => vec![find(name)?],
        None => cases::all(),
    };
    let timeout = Duration::from_secs_f64(args.timeout);
    let program = args
        .program
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>();
    let mut verdicts = Vec::new();
    for case in &chosen {
        let run = runner::run(&args.program, case.script.as_bytes(), timeout, OUTPUT_CAP)?;
        let verdict = judge(case, run, args.timeout);
        if !args.json {
            // After the first run, so a program that cannot start gets only its error.
            if verdicts.is_empty() {
                let (program, cases) = (program.join(" "), chosen.len());
                writeln!(out, "grading `{program}` on {cases} case(s)\n")?;
            }
            // Each case as it finishes: a slow program still shows progress.
            write_verdict(out, &verdict)?;
            out.flush()?;
        }
        verdicts.push(verdict);
    }
    if args.json {
        write_json(out, &program, &verdicts)?;
    } else {
        write_summary(out, &verdicts)?;
    }
    let all_passed = verdicts.iter().all(Verdict::passed);
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn find(name: &str) -> anyhow::Result<Case> {
    cases::find(name).ok_or_else(|| {
        let tutor = crate::invoked::tutor();
        anyhow::anyhow!("no case called `{name}`; `{tutor} grade --list` lists them")
    })
}

fn judge(case: &Case, run: runner::Run, timeout: f64) -> Verdict {
    let expected = expected_answers(&case.script);
    let got = String::from_utf8_lossy(&run.stdout).into_owned();
    let (status, reason) = match run.end {
        End::TimedOut => (
            Status::Timeout,
            Some(format!(
                "no end within {timeout} s; the program was stopped"
            )),
        ),
        End::Flooded => (
            Status::Flood,
            Some(format!(
                "wrote more than {} KiB; the program was stopped",
                OUTPUT_CAP / 1024
            )),
        ),
        End::Signalled(sig) => (Status::Crash, Some(format!("ended by signal {sig}"))),
        End::Exited(code) if code != 0 => {
            (Status::Crash, Some(format!("exited with status {code}")))
        }
        End::Exited(_) if got == expected => (Status::Pass, None),
        End::Exited(_) => (Status::Fail, None),
    };
    let mistakes = if status == Status::Pass {
        Vec::new()
    } else {
        mistakes::diagnose(&case.script, &expected, &got)
    };
    Verdict {
        name: case.name,
        status,
        expected,
        got: cut(got),
        mistake: mistakes.first().copied(),
        mistakes,
        reason,
        stderr_tail: String::from_utf8_lossy(&run.stderr_tail).into_owned(),
        script: case.script.clone(),
    }
}

/// A line of output with invisible characters made visible: quoted, with escapes.
fn visible(line: Option<&str>) -> String {
    match line {
        Some(l) => format!("{l:?}"),
        None => "nothing (the output ended here)".to_string(),
    }
}

/// Output kept in a report: the first few KiB, so a flood cannot make the report large.
fn cut(mut got: String) -> String {
    const KEEP: usize = 4096;
    if got.len() > KEEP {
        let total = got.len();
        let mut end = KEEP;
        while !got.is_char_boundary(end) {
            end -= 1;
        }
        got.truncate(end);
        got += &format!("[... cut: {total} bytes in all]");
    }
    got
}

/// A script line cut to a readable length.
fn shorten(line: &str) -> String {
    const MAX: usize = 60;
    if line.chars().count() <= MAX {
        return line.to_string();
    }
    let head: String = line.chars().take(MAX).collect();
    format!("{head}... ({} bytes in all)", line.len())
}

/// For output line `index` (0-based), the 0-based script line of the command that printed it.
fn command_for_output_line(script: &str, index: usize) -> Option<usize> {
    script
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            matches!(
                Command::parse(l.as_bytes()),
                Ok(Some(Command::Check(_) | Command::Bits))
            )
        })
        .nth(index)
        .map(|(i, _)| i)
}

/// One case of the human report: its status and, for a failure, what went wrong and where.
fn write_verdict(out: &mut impl Write, v: &Verdict) -> std::io::Result<()> {
    let label = v.status.label();
    writeln!(out, "{label:<5}  {}", v.name)?;
    if v.passed() {
        return Ok(());
    }
    if let Some(reason) = &v.reason {
        writeln!(out, "       {reason}")?;
    }
    let want: Vec<&str> = v.expected.split_inclusive('\n').collect();
    let have: Vec<&str> = v.got.split_inclusive('\n').collect();
    if let Some(i) = (0..want.len().max(have.len())).find(|&i| want.get(i) != have.get(i)) {
        let script: Vec<&str> = v.script.lines().collect();
        let cmd = command_for_output_line(&v.script, i);
        match cmd {
            Some(c) => writeln!(
                out,
                "       first wrong answer: output line {}, the answer to `{}` (script line {})",
                i + 1,
                script[c],
                c + 1
            )?,
            None => writeln!(
                out,
                "       first wrong answer: output line {}, after the last command",
                i + 1
            )?,
        }
        writeln!(out, "         expected: {}", visible(want.get(i).copied()))?;
        writeln!(out, "         got:      {}", visible(have.get(i).copied()))?;
        if let Some(c) = cmd {
            let from = c.saturating_sub(2);
            for (n, line) in script.iter().enumerate().take(c + 2).skip(from) {
                let mark = if n == c { ">" } else { " " };
                writeln!(out, "       {mark} {:>3} | {}", n + 1, shorten(line))?;
            }
        }
    }
    for m in &v.mistakes {
        writeln!(out, "       likely mistake [{}]: {}", m.id(), m.hint())?;
    }
    let tail: Vec<&str> = v.stderr_tail.lines().collect();
    if !tail.is_empty() {
        writeln!(out, "       end of stderr:")?;
        for line in &tail[tail.len().saturating_sub(5)..] {
            writeln!(out, "         {line}")?;
        }
    }
    let tutor = crate::invoked::tutor();
    writeln!(out, "       reproduce: {tutor} grade --show {}", v.name)?;
    Ok(())
}

/// The closing lines of the human report: the count and the most likely mistake.
fn write_summary(out: &mut impl Write, verdicts: &[Verdict]) -> std::io::Result<()> {
    let passed = verdicts.iter().filter(|v| v.passed()).count();
    writeln!(
        out,
        "\n{passed} of {} case(s) passed, {} failed",
        verdicts.len(),
        verdicts.len() - passed
    )?;
    let failed = verdicts.len() - passed;
    for (i, (m, n)) in mistake_counts(verdicts).into_iter().enumerate() {
        let lead = if i == 0 {
            "most likely mistake:"
        } else {
            "and also:"
        };
        writeln!(
            out,
            "{lead} [{}], which explains {n} of the {failed} failing case(s)",
            m.id()
        )?;
    }
    Ok(())
}

/// Each mistake named in any case, with how many cases it explains, most first.
fn mistake_counts(verdicts: &[Verdict]) -> Vec<(Mistake, usize)> {
    let mut counts: Vec<(Mistake, usize)> = Vec::new();
    for &m in verdicts.iter().flat_map(|v| &v.mistakes) {
        match counts.iter_mut().find(|(k, _)| *k == m) {
            Some((_, n)) => *n += 1,
            None => counts.push((m, 1)),
        }
    }
    // Stable: among equal counts, the order the cases first named them.
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    counts
}

#[derive(Serialize)]
struct JsonReport<'a> {
    program: &'a [String],
    cases: &'a [Verdict],
    passed: usize,
    failed: usize,
    total: usize,
    mistake: Option<Mistake>,
}

fn write_json(
    out: &mut impl Write,
    program: &[String],
    verdicts: &[Verdict],
) -> std::io::Result<()> {
    let passed = verdicts.iter().filter(|v| v.passed()).count();
    let report = JsonReport {
        program,
        cases: verdicts,
        passed,
        failed: verdicts.len() - passed,
        total: verdicts.len(),
        mistake: mistake_counts(verdicts).first().map(|&(m, _)| m),
    };
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}
