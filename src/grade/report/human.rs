//! The report for a person: each case as it finishes, in the cases' order; a failure in
//! full the first time it happens and in one line when later cases fail the same way; then
//! the count, the mistakes behind the failures and the score.

use std::collections::HashMap;
use std::io::{self, Write};

use super::{Report, Tally, shown_line};
use crate::engine::scheme::FilterSpec;
use crate::escape;
use crate::grade::mistakes::Ending;
use crate::grade::verdict::{Status, Verdict, bit_differences, first_difference};
use crate::render::words::count;
use crate::render::wrap::{self, Width};

/// How many bytes of one line of the program's output the report shows.
const LINE_SHOWN: usize = 200;

/// The first lines: what is graded, on what.
pub fn write_header(
    out: &mut impl Write,
    program: &str,
    spec: FilterSpec,
    cases: usize,
    seed: Option<(u64, u32)>,
) -> io::Result<()> {
    prose(
        out,
        0,
        &format!(
            "grading `{program}` on {} of the {spec} exercise",
            count(cases, "case", "cases")
        ),
    )?;
    if let Some((seed, n)) = seed {
        prose(
            out,
            0,
            &format!(
                "generated cases from seed {seed} (the same again: `--random {n} --seed {seed}`)"
            ),
        )?;
    }
    writeln!(out)
}

/// Writes cases as they finish, remembering which failures it has shown in full.
#[derive(Debug, Default)]
pub struct CaseWriter {
    /// For each way of failing, the first case that failed that way.
    shown: HashMap<String, String>,
    /// What `reproduce: bloom-tutor grade` needs to find the case (`--cases DIR`).
    flags: String,
}

impl CaseWriter {
    /// A writer whose `reproduce` lines add `flags` (such as `--cases DIR`).
    pub fn with_flags(flags: String) -> CaseWriter {
        CaseWriter {
            shown: HashMap::new(),
            flags,
        }
    }

    /// One case: in full, or in one line when an earlier case failed the same way.
    pub fn write(&mut self, out: &mut impl Write, spec: FilterSpec, v: &Verdict) -> io::Result<()> {
        let label = v.status.label();
        let hidden = if v.hidden { " (hidden)" } else { "" };
        if v.passed() {
            return writeln!(out, "{label:<5}  {}{hidden}", v.name);
        }
        if let Some(key) = way_of_failing(v) {
            if let Some(first) = self.shown.get(&key) {
                let what = match v.mistakes() {
                    [] => v.reason.clone().unwrap_or_default(),
                    named => ids(named),
                };
                // Its later lines under the text, as a full case's are.
                return prose_at(
                    out,
                    0,
                    7,
                    &format!(
                        "{label:<5}  {}{hidden}: the same as {first} ({what})",
                        v.name
                    ),
                );
            }
            self.shown.insert(key, v.name.clone());
        }
        writeln!(out, "{label:<5}  {}{hidden}", v.name)?;
        if let Some(reason) = &v.reason {
            prose(out, 7, &escape::escape(reason.as_bytes()))?;
        }
        if !v.hidden {
            write_difference(out, spec, v)?;
        }
        for m in v.mistakes() {
            let hint = format!("likely mistake [{}]: {}", m.id(), m.hint(spec));
            prose(out, 7, &hint)?;
        }
        if !v.mistakes().is_empty() && !v.diagnosis.complete {
            prose(
                out,
                7,
                "(this does not explain every wrong answer: look for another mistake too)",
            )?;
        }
        if !v.hidden {
            // A program's stderr may echo its input, which a hidden case keeps to itself.
            write_stderr(out, &v.stderr_tail)?;
            let command = format!(
                "{} grade{}{} --show {}",
                crate::invoked::tutor(),
                spec_flags(spec),
                self.flags,
                v.name
            );
            // A command is never split: it goes on a line of its own when it does not fit.
            if "       reproduce: ".len() + command.len() > Width::for_stdout().columns() {
                writeln!(out, "       reproduce:\n         {command}")?;
            } else {
                writeln!(out, "       reproduce: {command}")?;
            }
        }
        Ok(())
    }
}

/// What makes two failures "the same": the status and the mistakes named, or for a run
/// stopped before its answers could be compared, the reason. `None` for a failure nothing
/// explains: each is shown in full.
fn way_of_failing(v: &Verdict) -> Option<String> {
    let named = ids(v.mistakes());
    let key = match v.status {
        Status::Pass => return None,
        Status::Fail if v.mistakes().is_empty() => return None,
        Status::Fail => named,
        Status::Timeout
        | Status::Flood
        | Status::Error
        | Status::MemoryLimit
        | Status::CpuLimit
        | Status::FileLimit
        | Status::UsedTutor => v.status.name().to_string(),
        Status::Crash => format!(
            "{}: {}",
            v.reason.clone().unwrap_or_default(),
            last_line(&v.stderr_tail)
        ),
    };
    Some(format!(
        "{}{}:{}:{key}",
        v.hidden,
        v.diagnosis.complete,
        v.status.name()
    ))
}

fn ids(named: &[crate::grade::mistakes::Mistake]) -> String {
    named
        .iter()
        .map(|m| format!("[{}]", m.id()))
        .collect::<Vec<_>>()
        .join(" and ")
}

fn last_line(bytes: &[u8]) -> String {
    let trimmed = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let line = trimmed.rsplit(|&b| b == b'\n').next().unwrap_or(b"");
    escape::escape_prefix(line)
}

/// The flags that choose a filter other than the lesson's, for commands the report prints.
pub fn spec_flags(spec: FilterSpec) -> String {
    let scheme = spec.scheme();
    let mut flags = String::new();
    if scheme != crate::engine::scheme::Scheme::ByteSum {
        flags += &format!(" --scheme {scheme}");
    }
    if spec.bits() != scheme.default_bits() {
        flags += &format!(" -m {}", spec.bits());
    }
    if spec.hashes() != scheme.default_hashes() {
        flags += &format!(" -k {}", spec.hashes());
    }
    flags
}

/// A line of output, quoted, with every invisible or control byte escaped, and cut to
/// [`LINE_SHOWN`] bytes.
pub fn visible(line: Option<&[u8]>) -> String {
    match line {
        Some(l) => format!("\"{}\"", escape::escape_prefix_of(l, LINE_SHOWN)),
        None => "nothing (the output ended here)".to_string(),
    }
}

/// For output line `index` (0-based), the 0-based script line of the command that printed it.
pub fn command_for_output_line(script: &[u8], index: usize) -> Option<usize> {
    use crate::script::command::Command;
    script
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            matches!(
                Command::parse(l),
                Ok(Some(Command::Check(_) | Command::Bits))
            )
        })
        .nth(index)
        .map(|(i, _)| i)
}

/// Where the answers first differ, and the script around the command that gave it.
fn write_difference(out: &mut impl Write, spec: FilterSpec, v: &Verdict) -> io::Result<()> {
    let Some(d) = first_difference(&v.expected, &v.got) else {
        return Ok(());
    };
    let script: Vec<&[u8]> = v.script.split(|&b| b == b'\n').collect();
    let cmd = command_for_output_line(&v.script, d.line);
    match cmd {
        Some(c) => prose(
            out,
            7,
            &format!(
                "first wrong answer: output line {}, the answer to {} (script line {})",
                d.line + 1,
                shown_line(script[c]),
                c + 1
            ),
        )?,
        None => prose(
            out,
            7,
            &format!(
                "first wrong answer: output line {}, after the last command",
                d.line + 1
            ),
        )?,
    }
    let (expected, got) = (visible(d.expected), visible(d.got));
    let widest = expected.chars().count().max(got.chars().count());
    if "         expected: ".len() + widest <= Width::for_stdout().columns() {
        writeln!(out, "         expected: {expected}")?;
        writeln!(out, "         got:      {got}")?;
    } else {
        // A long answer (a BITS line) on a line of its own, so that it fits when it can.
        writeln!(out, "         expected:\n           {expected}")?;
        writeln!(out, "         got:\n           {got}")?;
    }
    if let (Some(want), Some(have)) = (d.expected, d.got)
        && let Some(got) = bits_line_length(want, have)
    {
        prose(
            out,
            9,
            &bits_length_words(spec, got, "line has", "it needs"),
        )?;
    }
    if let (Some(want), Some(have)) = (d.expected, d.got)
        && let Some(bits) = bit_differences(want, have)
    {
        // Each half on a line of its own when both do not fit on one.
        let text = describe_bits(&bits);
        match text.split_once("; ") {
            Some((ones, zeros)) if 9 + text.len() > Width::for_stdout().columns() => {
                prose(out, 9, &format!("{ones};"))?;
                prose(out, 11, zeros)?;
            }
            _ => prose(out, 9, &text)?,
        }
    }
    if let Some(c) = cmd {
        // Two lines before the command, or from the first line when it is that near.
        let from = match c.saturating_sub(2) {
            near if near <= 2 => 0,
            from => from,
        };
        for (n, line) in script.iter().enumerate().take(c + 2).skip(from) {
            if n + 1 == script.len() && line.is_empty() {
                break;
            }
            let mark = if n == c { ">" } else { " " };
            writeln!(out, "       {mark} {:>3} | {}", n + 1, shown_line(line))?;
        }
    }
    Ok(())
}

/// How many characters the program's BITS line `got` has, when it is a line of 0s and 1s
/// whose length differs from the right one, `want`.
fn bits_line_length(want: &[u8], got: &[u8]) -> Option<usize> {
    let line = |l: &[u8]| l.strip_suffix(b"\n").unwrap_or(l).to_vec();
    let (want, got) = (line(want), line(got));
    let bits = |l: &[u8]| !l.is_empty() && l.iter().all(|&b| b == b'0' || b == b'1');
    (bits(&want) && bits(&got) && want.len() != got.len()).then_some(got.len())
}

/// A BITS line of the wrong length, in words: `your BITS line has 16 characters; this
/// filter has m = 100 bits, so it needs 100`.
fn bits_length_words(spec: FilterSpec, got: usize, has: &str, needs: &str) -> String {
    let m = spec.bits();
    format!(
        "your BITS {has} {}; this filter has m = {m} bits, so {needs} {m}",
        count(got, "character", "characters")
    )
}

/// Which bits differ, in words: `expected 1, got 0 at bits 12 and 40`.
pub fn describe_bits(bits: &[(usize, u8, u8)]) -> String {
    let list = |want: u8| -> Option<String> {
        let at: Vec<String> = bits
            .iter()
            .filter(|&&(_, w, _)| w == want)
            .map(|&(i, _, _)| i.to_string())
            .collect();
        let n = at.len();
        let shown = match n {
            0 => return None,
            1 => format!("bit {}", at[0]),
            2..=12 => format!("bits {} and {}", at[..n - 1].join(", "), at[n - 1]),
            _ => format!("{n} bits: {}, ...", at[..10].join(", ")),
        };
        let got = if want == b'1' { 0 } else { 1 };
        Some(format!(
            "expected {}, got {got} at {shown}",
            char::from(want)
        ))
    };
    let parts: Vec<String> = [b'1', b'0'].into_iter().filter_map(list).collect();
    format!("bits that differ: {}", parts.join("; "))
}

/// A line of prose, `indent` spaces in, wrapped to fit the window (80 columns when the
/// report is not shown on a terminal), its later lines two spaces further in.
fn prose(out: &mut impl Write, indent: usize, text: &str) -> io::Result<()> {
    prose_at(out, indent, indent + 2, text)
}

/// [`prose`] with its first line `indent` spaces in and the others `rest`.
fn prose_at(out: &mut impl Write, indent: usize, rest: usize, text: &str) -> io::Result<()> {
    let width = Width::for_stdout().columns();
    let (first, rest) = (" ".repeat(indent), " ".repeat(rest));
    for line in wrap::filled(text, &first, &rest, width) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn write_stderr(out: &mut impl Write, tail: &[u8]) -> io::Result<()> {
    if tail.strip_suffix(b"\n").unwrap_or(tail).is_empty() {
        return Ok(());
    }
    writeln!(out, "       end of stderr:")?;
    write_stderr_at(out, 9, tail)
}

/// The last lines of a program's stderr, `indent` spaces in, each marked with `| `.
fn write_stderr_at(out: &mut impl Write, indent: usize, tail: &[u8]) -> io::Result<()> {
    // Escaped, so that it cannot move the cursor, set the title or forge a line.
    let tail = tail.strip_suffix(b"\n").unwrap_or(tail);
    let lines: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
    for line in &lines[lines.len().saturating_sub(5)..] {
        // Marked, so that no line of it reads as the report's own.
        let line = escape::escape_prefix_of(line, LINE_SHOWN);
        writeln!(out, "{:indent$}| {line}", "")?;
    }
    Ok(())
}

/// The closing lines: the count, the mistakes behind the failures, the score.
pub fn write_summary(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let (passed, failed) = (report.passed(), report.failed());
    writeln!(
        out,
        "\n{passed} of {} passed, {failed} failed",
        count(report.verdicts.len(), "case", "cases")
    )?;
    // A program that stopped before its first answer may still have been told why (no-mod).
    let named = report.verdicts.iter().any(|v| !v.mistakes().is_empty());
    if failed > 0 && failed == report.verdicts.len() && !named && write_never_ran(out, report)? {
        return write_score(out, report);
    }
    let tallies = report.tallies();
    // A mistake named for a few cases out of many is a guess about those few, not the
    // program's mistake: say so rather than send the learner to fix code that is right.
    let explained = tallies.first().map_or(0, |t| t.alone + t.together);
    let weak = failed > 0 && explained * 2 < failed;
    let lengths: Vec<usize> = report
        .verdicts
        .iter()
        .filter_map(|v| {
            let d = first_difference(&v.expected, &v.got)?;
            bits_line_length(d.expected?, d.got?)
        })
        .collect();
    // One length everywhere: a program written for a filter of another size. (Lengths that
    // vary are shown case by case.)
    match lengths.as_slice() {
        [] => {}
        [got] => prose(
            out,
            0,
            &bits_length_words(report.spec, *got, "line has", "it needs"),
        )?,
        [got, rest @ ..] if rest.iter().all(|n| n == got) => prose(
            out,
            0,
            &bits_length_words(report.spec, *got, "lines have", "each needs"),
        )?,
        _ => {}
    }
    write_unexplained(out, report, weak)?;
    for (i, t) in tallies.iter().enumerate() {
        let lead = match (i, weak, failed) {
            (0, false, _) => "most likely mistake:",
            (0, true, 1) => "a mistake that explains only part of the failing case:",
            (0, true, _) => "a mistake that fits only some of the failing cases:",
            _ => "and also:",
        };
        prose(out, 0, &format!("{lead} {}", tally_words(t, failed)))?;
    }
    write_score(out, report)
}

/// Where to look for what no mistake explains, by how those cases went: a limit's cases
/// are told about the limit, crashes about the crash, and when most wrong answers are
/// unexplained, how to compare the program's positions with the tutor's for a key of the
/// first of them.
fn write_unexplained(out: &mut impl Write, report: &Report, weak: bool) -> io::Result<()> {
    let unexplained: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| !v.passed() && !v.diagnosis.complete)
        .collect();
    let of = |status: Status| unexplained.iter().filter(move |v| v.status == status);
    for status in [
        Status::Timeout,
        Status::CpuLimit,
        Status::Flood,
        Status::MemoryLimit,
        Status::FileLimit,
    ] {
        let n = of(status).count();
        if let Some((what, look)) = limit_advice(status).filter(|_| n > 0) {
            let cases = count(n, "case", "cases");
            prose(out, 0, &format!("your program {what} in {cases}: {look}"))?;
        }
    }
    let crashed: Vec<&&Verdict> = of(Status::Crash).collect();
    if !crashed.is_empty() {
        let cases = count(crashed.len(), "case", "cases");
        let out_of_bounds = |v: &&&Verdict| {
            matches!(
                v.ending,
                Ending::Signalled {
                    out_of_bounds: true
                } | Ending::Failed { index_error: true }
            )
        };
        let advice = if crashed.iter().all(out_of_bounds) {
            format!(
                "your program crashed in {cases} ({}); an index outside an array often \
                 does that: check that every position it reads or sets is from 0 to {}",
                crashed[0].reason.as_deref().unwrap_or("it crashed"),
                report.spec.bits() - 1
            )
        } else {
            let why = crashed[0].reason.as_deref().unwrap_or("it crashed");
            // A hidden case's stderr is not shown.
            let told = crashed
                .iter()
                .any(|v| !v.hidden && !v.stderr_tail.trim_ascii().is_empty());
            let look = if told {
                "the end of its stderr, shown above, tells where"
            } else {
                "run it by hand on a case's commands to see where"
            };
            format!("your program crashed in {cases} ({why}): {look}")
        };
        prose(out, 0, &advice)?;
    }
    let wrong: Vec<&&Verdict> = of(Status::Fail).collect();
    if !weak || wrong.is_empty() {
        return Ok(());
    }
    let failed = report.failed();
    let which = match (wrong.len(), failed) {
        (_, 1) => "the failing case".to_string(),
        (n, f) if n == f => format!("any of the {f} failing cases"),
        (n, f) => format!("{n} of the {f} failing cases"),
    };
    let tutor = format!(
        "{}{}",
        crate::invoked::tutor(),
        full_spec_flags(report.spec)
    );
    // A hidden case's keys are never shown.
    let example = wrong
        .iter()
        .find(|v| !v.hidden)
        .and_then(|v| Some((v, example_key(v)?)));
    let advice = match example {
        Some((v, key)) => {
            let line = crate::invoked::shell_quote_bytes(&[b"EXPLAIN ".as_slice(), &key].concat());
            format!(
                "no mistake the grader knows explains {which}: compare your program's \
                 positions for a key of case {} with the tutor's, which `echo {line} | \
                 {tutor}` shows",
                v.name
            )
        }
        None => format!(
            "no mistake the grader knows explains {which}: compare your program's positions \
             for a key of a failing case with the tutor's, which EXPLAIN and the key show \
             in `{tutor}`"
        ),
    };
    prose(out, 0, &advice)
}

/// For a status that a limit gives, what the program did and where to look.
fn limit_advice(status: Status) -> Option<(&'static str, &'static str)> {
    const NO_END: &str = "look for a loop that never ends, such as one that goes on \
        reading after the end of its input (EOF) instead of stopping there";
    match status {
        Status::Timeout => Some(("did not end in time", NO_END)),
        Status::CpuLimit => Some(("used up its CPU time", NO_END)),
        Status::Flood => Some((
            "wrote far more than its answers",
            "look for a loop that prints without end, such as one that goes on after the \
             end of its input (EOF)",
        )),
        Status::MemoryLimit => Some((
            "ran out of memory",
            "look for a list, a string or a buffer that grows without end",
        )),
        Status::FileLimit => Some((
            "wrote a file past the size limit",
            "write the answers to stdout; the exercise needs no file",
        )),
        Status::Pass | Status::Fail | Status::Crash | Status::UsedTutor | Status::Error => None,
    }
}

/// The flags that name the filter in full, so that a command shows its arithmetic
/// whatever the tutor's default.
fn full_spec_flags(spec: FilterSpec) -> String {
    format!(
        " --scheme {} -m {} -k {}",
        spec.scheme().name(),
        spec.bits(),
        spec.hashes()
    )
}

/// A key of a case whose answers are wrong, to show the tutor's positions for: the key of
/// the CHECK whose answer is the first wrong one, or else the first key added before it.
/// Keys a shell or the report could mangle (a backtick, a backslash, an empty key) are
/// passed over, and long ones or ones with bytes to escape are taken only when no other
/// will do. `None` when no key will do.
fn example_key(v: &Verdict) -> Option<Vec<u8>> {
    use crate::script::command::Command;
    let d = first_difference(&v.expected, &v.got)?;
    let lines: Vec<&[u8]> = v.script.split(|&b| b == b'\n').collect();
    let upto = command_for_output_line(&v.script, d.line).unwrap_or(lines.len() - 1);
    let mut keys: Vec<&[u8]> = Vec::new();
    for (i, line) in lines.iter().enumerate().take(upto + 1) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match Command::parse(line) {
            Ok(Some(Command::Check(key))) if i == upto => keys.insert(0, key),
            Ok(Some(Command::Add(key))) => keys.push(key),
            _ => {}
        }
    }
    keys.retain(|k| !k.is_empty() && !k.contains(&b'`') && !k.contains(&b'\\'));
    let plain = |k: &&[u8]| k.len() <= 40 && k.iter().all(|&b| (b' '..=b'~').contains(&b));
    keys.iter()
        .find(|k| plain(k))
        .or(keys.first())
        .map(|k| k.to_vec())
}

fn write_score(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let max = report.max_score();
    let points = crate::render::words::plural(max, "point", "points");
    writeln!(out, "score: {} of {max} {points}", report.score())
}

/// How much of the `failed` cases `explained` of them are: "the failing case", "2 of the
/// 5 failing cases".
fn of_failing(explained: usize, failed: usize) -> String {
    match failed {
        1 => "the failing case".to_string(),
        n => format!("{explained} of the {n} failing cases"),
    }
}

/// When every case crashed (or was stopped by a limit) before its first answer, says that
/// the program did not run and shows why in its stderr, or names the limit that stopped
/// it; false, writing nothing, when some case got further.
fn write_never_ran(out: &mut impl Write, report: &Report) -> io::Result<bool> {
    // Out of CPU time or past the file size limit before any answer is something the
    // program did (a loop, a huge file): the advice on limits below says so. Too little
    // memory to start at all is the grader's setting.
    let never_ran =
        |v: &Verdict| v.got.is_empty() && matches!(v.status, Status::Crash | Status::MemoryLimit);
    let Some(first) = report.verdicts.first() else {
        return Ok(false);
    };
    if !report.verdicts.iter().all(never_ran) {
        return Ok(false);
    }
    let why = first.reason.as_deref().unwrap_or("it crashed");
    let cases = match report.verdicts.len() {
        1 => "the case".to_string(),
        n => format!("each of the {n} cases"),
    };
    let all_memory = report
        .verdicts
        .iter()
        .all(|v| v.status == Status::MemoryLimit);
    if all_memory {
        // Out of memory before the first answer: the program's list that grows, or a
        // limit too low for it to start at all. Either may be it: say both.
        let n = report.verdicts.len();
        prose(
            out,
            0,
            &format!(
                "your program ran out of memory in {} before its first answer ({why}): look \
                 for a list, a string or a buffer that grows without end",
                count(n, "case", "cases")
            ),
        )?;
    } else {
        prose(
            out,
            0,
            &format!(
                "your program did not run: {cases} ended before its first answer ({why}), so \
                 no answer could be checked"
            ),
        )?;
    }
    // A limit set too low for the program to start is the grader's setting, not the
    // program's fault: say which, and the default.
    let limit = match first.status {
        _ if report.verdicts.iter().any(|v| v.status != first.status) => None,
        Status::MemoryLimit => Some(("--memory", crate::cli::DEFAULT_MEMORY)),
        Status::CpuLimit
        | Status::FileLimit
        | Status::Pass
        | Status::Fail
        | Status::Timeout
        | Status::Crash
        | Status::Flood
        | Status::UsedTutor
        | Status::Error => None,
    };
    if let Some((flag, default)) = limit {
        prose(
            out,
            0,
            &format!(
                "if the program needs more just to start, grade again with a higher {flag} \
                 (the default is {flag} {default})"
            ),
        )?;
    }
    // A hidden case's stderr may echo its input: show the first one that is not hidden.
    match report.verdicts.iter().find(|v| !v.hidden) {
        Some(v) if !v.stderr_tail.trim_ascii().is_empty() => {
            let lead = match limit {
                Some(_) => format!("the end of its stderr (case {}):", v.name),
                None => format!(
                    "its stderr says why (case {}); fix that first, then grade again:",
                    v.name
                ),
            };
            prose(out, 0, &lead)?;
            write_stderr_at(out, 2, &v.stderr_tail)?;
        }
        Some(_) if limit.is_some() => {}
        Some(_) => prose(
            out,
            0,
            "it wrote nothing on stderr: run it by hand on a case's commands to see why",
        )?,
        None => prose(out, 0, "run it by hand on a few commands to see why")?,
    }
    Ok(true)
}

/// One mistake's count in words; "explains X of Y" only of what it explains on its own.
fn tally_words(t: &Tally, failed: usize) -> String {
    let id = t.mistake.id();
    let partners = ids(&t.partners);
    let mut parts = Vec::new();
    if t.alone > 0 {
        parts.push(format!(
            "which alone explains {}",
            of_failing(t.alone, failed)
        ));
    }
    if t.together > 0 {
        let more = if t.alone > 0 { " more" } else { "" };
        parts.push(format!(
            "which explains {}{more} in combination with {partners}",
            t.together
        ));
    }
    if t.partly > 0 {
        parts.push(format!(
            "which explains part of what went wrong in {}{}",
            t.partly,
            match (t.alone + t.together, t.partly) {
                (0, 1) => " case",
                (0, _) => " cases",
                _ => " more",
            }
        ));
    }
    format!("[{id}], {}", parts.join(", and "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::mistakes::Mistake;

    #[test]
    fn the_report_shows_the_programs_bytes_escaped() {
        use crate::grade::runner::{End, Run};
        let spec = FilterSpec::lesson();
        let case = crate::grade::cases::find(spec, "exercise-example").expect("a built-in case");
        let run = Run {
            stdout: b"\x1b[2J\rMAYBE\n".to_vec(),
            stderr_tail: b"\x1b]0;owned\x07\n\r15 of 15 case(s) passed\n".to_vec(),
            end: End::Exited(0),
            limit: None,
            note: None,
        };
        let expected = crate::grade::expected_answers(spec, &case.script);
        let verdict = crate::grade::verdict::judge(spec, &case, expected, run, 5.0, 1 << 20, 0.1);
        let mut out = Vec::new();
        CaseWriter::default()
            .write(&mut out, spec, &verdict)
            .expect("writing to a Vec");
        let text = String::from_utf8(out).expect("the report is UTF-8");
        assert!(
            !text.contains(['\x1b', '\r', '\x07']),
            "a raw control character: {text:?}"
        );
        assert!(text.contains(r#""\u{1b}[2J\rMAYBE\n""#), "{text}");
        assert!(text.contains(r"| \u{1b}]0;owned\u{7}"), "{text}");
        assert!(text.contains(r"| \r15 of 15 case(s) passed"), "{text}");
    }

    #[test]
    fn a_case_failing_as_an_earlier_one_goes_on_under_the_status_column() {
        use crate::engine::scheme::Scheme;
        use crate::grade::runner::{End, Run};
        let spec = FilterSpec::new(Scheme::Murmur3, None, None).expect("valid");
        let mut writer = CaseWriter::default();
        let mut out = Vec::new();
        for name in ["lesson-example", "negative-hashes"] {
            let case = crate::grade::cases::find(spec, name).expect("a built-in case");
            let run = Run {
                stdout: Vec::new(),
                stderr_tail: Vec::new(),
                end: End::Signalled(6),
                limit: None,
                note: None,
            };
            let expected = crate::grade::expected_answers(spec, &case.script);
            let verdict =
                crate::grade::verdict::judge(spec, &case, expected, run, 5.0, 1 << 20, 0.1);
            out.clear();
            writer
                .write(&mut out, spec, &verdict)
                .expect("writing to a Vec");
        }
        let text = String::from_utf8(out).expect("the report is UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("CRASH  negative-hashes: the same as lesson-example"),
            "{text}"
        );
        let one_line = lines.concat().len();
        assert_eq!(
            lines.len() > 1,
            one_line > Width::for_stdout().columns(),
            "wrapped only when too long: {text}"
        );
        for line in &lines[1..] {
            assert!(
                line.starts_with("       ") && !line.starts_with("        "),
                "7 spaces in, as the case's text: {text}"
            );
        }
    }

    #[test]
    fn bits_are_named_by_position() {
        let bits = [(12, b'1', b'0'), (40, b'1', b'0'), (3, b'0', b'1')];
        assert_eq!(
            describe_bits(&bits),
            "bits that differ: expected 1, got 0 at bits 12 and 40; expected 0, got 1 at bit 3"
        );
    }

    #[test]
    fn explains_is_said_only_of_what_a_mistake_does_alone() {
        let t = Tally {
            mistake: Mistake::H2FromZero,
            alone: 0,
            together: 3,
            partners: vec![Mistake::BitsReversed],
            partly: 0,
        };
        let words = tally_words(&t, 3);
        assert!(!words.contains("alone"), "{words}");
        assert!(
            words.contains("in combination with [bits-reversed]"),
            "{words}"
        );
        let t = Tally { alone: 2, ..t };
        assert!(tally_words(&t, 5).contains("alone explains 2 of the 5"));
    }

    #[test]
    fn teacher_variants_are_in_the_commands_printed() {
        use crate::engine::scheme::Scheme;
        let spec = FilterSpec::new(Scheme::Murmur3, Some(64), None).expect("valid");
        assert_eq!(spec_flags(spec), " --scheme murmur3 -m 64");
        assert_eq!(spec_flags(FilterSpec::lesson()), "");
    }
}
