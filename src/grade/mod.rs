//! `bloom-tutor grade`: runs a learner's solution on the built-in cases, shows where it goes
//! wrong, and names the lesson's mistake that explains it.

pub mod cases;
pub mod interrupt;
pub mod mistakes;
pub mod runner;

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use serde::Serialize;

use crate::cli::GradeArgs;
use crate::engine::scheme::FilterSpec;
use crate::escape;
use crate::piped::ScriptRunner;
use crate::script::command::Command;
use crate::script::reader::Source;
use cases::Case;
use mistakes::Mistake;
use runner::{End, Limits, RunError};

/// Output beyond this is a flood: the program is stopped and the report stays small.
pub(crate) const OUTPUT_CAP: usize = 1 << 20;

/// How many bytes of one line of the program's output the human report shows.
const LINE_SHOWN: usize = 200;

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
    pub script: String,
}

impl Verdict {
    fn passed(&self) -> bool {
        self.status == Status::Pass
    }
}

/// Runs the grader as `args` asks, writing the report to `out`. A SIGINT, SIGTERM or
/// SIGHUP while grading stops the learner's program and everything it started, and ends
/// the grading with status 128 + the signal's number.
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
    let limits = Limits {
        timeout: Duration::from_secs_f64(args.timeout),
        output_cap: OUTPUT_CAP,
    };
    let program = args
        .program
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>();
    // From here on a signal stops the program being graded before the grader goes.
    let stop = interrupt::on_signals().context("could not catch Ctrl-C and SIGTERM")?;
    let mut verdicts = Vec::new();
    for case in &chosen {
        let run = match runner::run(&args.program, case.script.as_bytes(), limits, stop) {
            Ok(run) => run,
            Err(RunError::Interrupted(signal)) => {
                return Ok(interrupted(out, args.json, signal, verdicts.len()));
            }
            Err(err) => return Err(err.into()),
        };
        let verdict = judge(case, &run, args.timeout);
        if !args.json {
            // After the first run, so a program that cannot start gets only its error.
            if verdicts.is_empty() {
                let shown: Vec<String> = args
                    .program
                    .iter()
                    .map(|a| escape::escape(a.as_encoded_bytes()))
                    .collect();
                let (program, cases) = (shown.join(" "), chosen.len());
                writeln!(out, "grading `{program}` on {cases} case(s)\n")?;
            }
            // Each case as it finishes: a slow program still shows progress.
            write_verdict(out, &verdict, &run)?;
            out.flush()?;
        }
        verdicts.push(verdict);
    }
    if let Some(signal) = stop.signal() {
        return Ok(interrupted(out, args.json, signal, verdicts.len()));
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

/// Ends grading after a signal: the human report says so (unless the terminal hung up, when
/// there is no one to tell), and the status is the signal's.
fn interrupted(out: &mut impl Write, json: bool, signal: i32, done: usize) -> ExitCode {
    let hung_up = interrupt::signal_name(signal) == Some("SIGHUP");
    if !json && !hung_up {
        let reason = RunError::Interrupted(signal);
        // The status matters more than the note: a failed write changes nothing.
        let _ = writeln!(
            out,
            "\n{reason} after {done} case(s); the program and everything it started were stopped"
        );
        let _ = out.flush();
    }
    ExitCode::from(interrupt::exit_status(signal))
}

fn find(name: &str) -> anyhow::Result<Case> {
    cases::find(name).ok_or_else(|| {
        let tutor = crate::invoked::tutor();
        anyhow::anyhow!("no case called `{name}`; `{tutor} grade --list` lists them")
    })
}

fn judge(case: &Case, run: &runner::Run, timeout: f64) -> Verdict {
    let expected = expected_answers(&case.script);
    let got = String::from_utf8_lossy(&run.stdout).into_owned();
    let same = run.stdout == expected.as_bytes();
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
        End::Exited(_) if same => (Status::Pass, None),
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
        script: case.script.clone(),
    }
}

/// A line of output, quoted, with every invisible or control byte escaped, and cut to
/// [`LINE_SHOWN`] bytes.
fn visible(line: Option<&[u8]>) -> String {
    match line {
        Some(l) => format!("\"{}\"", escape::escape_prefix_of(l, LINE_SHOWN)),
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

/// The first output line where the program's answers differ from the tutor's.
struct Difference<'a> {
    /// 0-based.
    line: usize,
    /// Each one's version of the line, with its newline; `None` past the end.
    expected: Option<&'a [u8]>,
    got: Option<&'a [u8]>,
}

/// Where `got` first differs from `expected`, line by line; `None` when they are the same.
fn first_difference<'a>(expected: &'a [u8], got: &'a [u8]) -> Option<Difference<'a>> {
    let mut want = expected.split_inclusive(|&b| b == b'\n');
    let mut have = got.split_inclusive(|&b| b == b'\n');
    let mut line = 0;
    loop {
        match (want.next(), have.next()) {
            (None, None) => return None,
            (w, h) if w == h => line += 1,
            (expected, got) => {
                return Some(Difference {
                    line,
                    expected,
                    got,
                });
            }
        }
    }
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

/// One case of the human report: its status and, for a failure, what went wrong and where,
/// with what the program printed (`run`) shown escaped.
fn write_verdict(out: &mut impl Write, v: &Verdict, run: &runner::Run) -> std::io::Result<()> {
    let label = v.status.label();
    writeln!(out, "{label:<5}  {}", v.name)?;
    if v.passed() {
        return Ok(());
    }
    if let Some(reason) = &v.reason {
        writeln!(out, "       {reason}")?;
    }
    if let Some(Difference {
        line: i,
        expected: want,
        got: have,
    }) = first_difference(v.expected.as_bytes(), &run.stdout)
    {
        let script: Vec<&str> = v.script.lines().collect();
        let cmd = command_for_output_line(&v.script, i);
        match cmd {
            Some(c) => writeln!(
                out,
                "       first wrong answer: output line {}, the answer to `{}` (script line {})",
                i + 1,
                escape::escaped(script[c].as_bytes()),
                c + 1
            )?,
            None => writeln!(
                out,
                "       first wrong answer: output line {}, after the last command",
                i + 1
            )?,
        }
        writeln!(out, "         expected: {}", visible(want))?;
        writeln!(out, "         got:      {}", visible(have))?;
        if let Some(c) = cmd {
            let from = c.saturating_sub(2);
            for (n, line) in script.iter().enumerate().take(c + 2).skip(from) {
                let mark = if n == c { ">" } else { " " };
                let line = escape::escape_prefix(line.as_bytes());
                writeln!(out, "       {mark} {:>3} | {line}", n + 1)?;
            }
        }
    }
    for m in &v.mistakes {
        writeln!(out, "       likely mistake [{}]: {}", m.id(), m.hint())?;
    }
    // Escaped, so that it cannot move the cursor, set the title or forge a line.
    let tail = run
        .stderr_tail
        .strip_suffix(b"\n")
        .unwrap_or(&run.stderr_tail);
    if !tail.is_empty() {
        writeln!(out, "       end of stderr:")?;
        let lines: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
        for line in &lines[lines.len().saturating_sub(5)..] {
            // Marked, so that no line of it reads as the report's own.
            let line = escape::escape_prefix_of(line, LINE_SHOWN);
            writeln!(out, "         | {line}")?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A difference as (line, expected, got), for comparing.
    type Found<'a> = Option<(usize, Option<&'a [u8]>, Option<&'a [u8]>)>;

    #[track_caller]
    fn difference(expected: &[u8], got: &[u8], want: Found<'_>) {
        let found = first_difference(expected, got).map(|d| (d.line, d.expected, d.got));
        assert_eq!(found, want, "{expected:?} against {got:?}");
    }

    #[test]
    fn first_difference_is_found_line_by_line() {
        difference(b"NO\nMAYBE\n", b"NO\nMAYBE\n", None);
        difference(
            b"NO\nMAYBE\n",
            b"NO\nNO\n",
            Some((1, Some(b"MAYBE\n"), Some(b"NO\n"))),
        );
        difference(b"NO\n", b"NO\nNO\n", Some((1, None, Some(b"NO\n"))));
        difference(b"NO\nNO\n", b"NO\n", Some((1, Some(b"NO\n"), None)));
        difference(b"NO\n", b"NO", Some((0, Some(b"NO\n"), Some(b"NO"))));
    }

    #[test]
    fn a_line_is_shown_quoted_escaped_and_bounded() {
        assert_eq!(visible(Some(b"MAYBE\n")), r#""MAYBE\n""#);
        assert_eq!(visible(Some(b"\x1b[2J\rNO\xff")), r#""\u{1b}[2J\rNO\xff""#);
        assert_eq!(visible(None), "nothing (the output ended here)");
        let long = visible(Some(&[b'x'; 5000]));
        assert!(long.len() < LINE_SHOWN + 40, "{long}");
        assert!(long.contains("5000 bytes in all"), "{long}");
    }

    #[test]
    fn the_report_shows_the_programs_bytes_escaped() {
        let case = cases::find("lesson-trace").expect("a built-in case");
        let run = runner::Run {
            stdout: b"\x1b[2J\rMAYBE\n".to_vec(),
            stderr_tail: b"\x1b]0;owned\x07\n\r15 of 15 case(s) passed\n".to_vec(),
            end: End::Exited(0),
        };
        let verdict = judge(&case, &run, 5.0);
        let mut out = Vec::new();
        write_verdict(&mut out, &verdict, &run).expect("writing to a Vec");
        let text = String::from_utf8(out).expect("the report is UTF-8");
        assert!(
            !text.contains(['\x1b', '\r', '\x07']),
            "a raw control character: {text:?}"
        );
        assert!(text.contains(r#"got:      "\u{1b}[2J\rMAYBE\n""#), "{text}");
        assert!(text.contains(r"| \u{1b}]0;owned\u{7}"), "{text}");
        assert!(text.contains(r"| \r15 of 15 case(s) passed"), "{text}");
    }
}
