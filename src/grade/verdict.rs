//! How one case went: the program's run compared with the tutor's answers, and the
//! mistakes that explain the difference.

use serde::Serialize;

use super::cases::Case;
use super::mistakes::{self, Diagnosis, Ending, Mistake, OutOfBounds};
use super::runner::{End, Limit, Run};
use crate::engine::scheme::FilterSpec;
use crate::units::show_size;

/// How a case ended, as the reports spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
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
    /// Ended by the memory (address space) limit.
    MemoryLimit,
    /// Ended by the CPU time limit.
    CpuLimit,
    /// Ended by the file size limit.
    FileLimit,
    /// It (or a process it started) ran the tutor, the answer key.
    UsedTutor,
    /// The case could not be run at all.
    Error,
}

impl Status {
    /// The label in the human report.
    pub fn label(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Timeout => "TIME",
            Status::Crash => "CRASH",
            Status::Flood => "FLOOD",
            Status::MemoryLimit => "MEM",
            Status::CpuLimit => "CPU",
            Status::FileLimit => "FILE",
            Status::UsedTutor => "TUTOR",
            Status::Error => "ERROR",
        }
    }

    /// Every status, in the order reports list them.
    pub const ALL: [Status; 10] = [
        Status::Pass,
        Status::Fail,
        Status::Timeout,
        Status::Crash,
        Status::Flood,
        Status::MemoryLimit,
        Status::CpuLimit,
        Status::FileLimit,
        Status::UsedTutor,
        Status::Error,
    ];

    /// The status a JSON report calls `name`.
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The name in JSON reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Timeout => "timeout",
            Status::Crash => "crash",
            Status::Flood => "flood",
            Status::MemoryLimit => "memory-limit",
            Status::CpuLimit => "cpu-limit",
            Status::FileLimit => "file-limit",
            Status::UsedTutor => "used-tutor",
            Status::Error => "error",
        }
    }
}

/// How one case went.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub name: String,
    pub checks: String,
    /// Points for passing it.
    pub weight: u32,
    /// Its script and answers are never shown.
    pub hidden: bool,
    pub status: Status,
    /// The tutor's answers.
    pub expected: Vec<u8>,
    /// What the program wrote to stdout (at most the output cap).
    pub got: Vec<u8>,
    /// The end of what it wrote to stderr.
    pub stderr_tail: Vec<u8>,
    pub diagnosis: Diagnosis,
    /// How the run ended, as the diagnosis reads it.
    pub ending: Ending,
    /// Why a case that is not `pass` failed, in words, when it is not a wrong answer.
    pub reason: Option<String>,
    pub script: Vec<u8>,
    /// Wall-clock time of the run.
    pub seconds: f64,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.status == Status::Pass
    }

    /// The mistakes named, the one behind the first wrong answer first.
    pub fn mistakes(&self) -> &[Mistake] {
        &self.diagnosis.mistakes
    }

    /// Whether the program stopped with an index error before the first command where
    /// `cause` could put a position out of bounds: then `cause` did not stop it.
    pub fn stopped_before_any(&self, spec: FilterSpec, cause: OutOfBounds) -> bool {
        if self.ending != (Ending::Failed { index_error: true }) {
            return false;
        }
        let written = self.got.iter().filter(|&&b| b == b'\n').count();
        let stops = mistakes::stops(spec, &self.script, &[], cause);
        stops.first().is_none_or(|&first| written < first)
    }

    /// Whether it crashed before writing anything.
    fn never_answered(&self) -> bool {
        self.status == Status::Crash && self.got.is_empty()
    }

    /// A case that could not be run: `reason` says why.
    pub fn error(case: &Case, expected: Vec<u8>, reason: String) -> Verdict {
        Verdict {
            name: case.name.clone(),
            checks: case.checks.clone(),
            weight: case.weight,
            hidden: case.hidden,
            status: Status::Error,
            expected,
            got: Vec::new(),
            stderr_tail: Vec::new(),
            diagnosis: Diagnosis::default(),
            // It did not run: nothing to tell from how it ended.
            ending: Ending::Stopped,
            reason: Some(reason),
            script: case.script.clone(),
            seconds: 0.0,
        }
    }
}

/// The verdict on `run`, the program's run of `case`, whose right answers are `expected`.
pub fn judge(
    spec: FilterSpec,
    case: &Case,
    expected: Vec<u8>,
    run: Run,
    timeout: f64,
    output_cap: usize,
    seconds: f64,
) -> Verdict {
    let (status, reason) = match stopped(&run, timeout, output_cap) {
        Some((status, reason)) => (status, Some(reason)),
        None if run.stdout == expected => (Status::Pass, None),
        None => (Status::Fail, None),
    };
    let ending = match (status, run.end) {
        (Status::Pass | Status::Fail, _) => Ending::Exited,
        (Status::Crash, End::Signalled(signal)) => Ending::Signalled {
            out_of_bounds: bad_memory_access(signal) || index_error(&run.stderr_tail),
        },
        (Status::Crash, _) => Ending::Failed {
            index_error: index_error(&run.stderr_tail),
        },
        (
            Status::Timeout
            | Status::Flood
            | Status::MemoryLimit
            | Status::CpuLimit
            | Status::FileLimit
            | Status::UsedTutor
            | Status::Error,
            _,
        ) => Ending::Stopped,
    };
    let diagnosis = if matches!(status, Status::Pass | Status::UsedTutor) {
        Diagnosis::default()
    } else {
        mistakes::diagnose_run(spec, &case.script, &expected, &run.stdout, ending)
    };
    Verdict {
        name: case.name.clone(),
        checks: case.checks.clone(),
        weight: case.weight,
        hidden: case.hidden,
        status,
        expected,
        got: run.stdout,
        stderr_tail: run.stderr_tail,
        diagnosis,
        ending,
        reason,
        script: case.script.clone(),
        seconds,
    }
}

/// Takes back the mistakes that a case names but the run as a whole tells against:
/// - an out-of-bounds mistake, from every crash, when the program stopped with an index
///   error before any command where that mistake could put a position out of bounds (one
///   reading an argument it was not given, at its start): it stops for another reason;
/// - the same, from every crash by a signal, when no case got as far as its first answer:
///   such a crash loses what the program had not flushed, so nothing shows how far it got;
/// - no-output, when some case wrote something.
pub fn rule_out_across(spec: FilterSpec, verdicts: &mut [Verdict]) {
    let never_answered = verdicts.iter().all(Verdict::never_answered);
    for cause in OutOfBounds::ALL {
        let elsewhere = verdicts.iter().any(|v| v.stopped_before_any(spec, cause));
        for v in verdicts.iter_mut() {
            let lost = matches!(v.ending, Ending::Signalled { .. }) && never_answered;
            if v.status == Status::Crash && (elsewhere || lost) {
                v.diagnosis.rule_out(&[cause.mistake()]);
            }
        }
    }
    if verdicts.iter().any(|v| !v.got.is_empty()) {
        for v in verdicts.iter_mut() {
            v.diagnosis.rule_out(&[Mistake::NoOutput]);
        }
    }
}

/// Whether `signal` is the one a bad memory access ends a program with, as an index far
/// outside an array gives: SIGSEGV, or SIGBUS.
fn bad_memory_access(signal: i32) -> bool {
    matches!(
        super::interrupt::signal_name(signal),
        Some("SIGSEGV" | "SIGBUS")
    )
}

/// How `run` was stopped before it could end by itself with status 0, and why in words:
/// a limit, the timeout (`timeout` seconds), more output than `output_cap` bytes, a
/// crash, or the tutor run. `None` for a run that ended well, whatever it printed.
pub fn stopped(run: &Run, timeout: f64, output_cap: usize) -> Option<(Status, String)> {
    let stopped = match (run.limit, run.end) {
        (Some(Limit::Memory(bytes)), _) => (
            Status::MemoryLimit,
            format!(
                "stopped by the memory limit: it may use {} of address space (--memory)",
                show_size(bytes)
            ),
        ),
        (Some(Limit::Cpu(seconds)), _) => (
            Status::CpuLimit,
            format!("stopped by the CPU time limit: it may use {seconds} s of CPU (--cpu)"),
        ),
        (Some(Limit::FileSize(bytes)), _) => (
            Status::FileLimit,
            format!(
                "stopped by the file size limit: it may write files of up to {} (--file-size)",
                show_size(bytes)
            ),
        ),
        (None, End::TimedOut) => (
            Status::Timeout,
            format!("no end within {timeout} s; the program was stopped"),
        ),
        (None, End::Flooded) => (
            Status::Flood,
            format!(
                "wrote more than {} KiB; the program was stopped",
                output_cap / 1024
            ),
        ),
        (None, End::Signalled(sig)) => (Status::Crash, signal_reason(sig)),
        (None, End::Exited(code)) if code != 0 => {
            (Status::Crash, format!("exited with status {code}"))
        }
        (None, End::UsedTutor) => (
            Status::UsedTutor,
            format!(
                "it ran the tutor, which is the answer key, and was stopped: {}",
                run.note.as_deref().unwrap_or("a process it started ran it")
            ),
        ),
        (None, End::Exited(_)) => return None,
    };
    Some(stopped)
}

/// Output kept past the expected answers' length once a case ends (the grader cuts it there,
/// before the case waits for the ones before it): enough for the verdict, the diagnosis and
/// any report to see where the output went wrong, and no more, so that memory does not grow
/// with the output of every case (a flood is up to [`OUTPUT_CAP`]).
///
/// [`OUTPUT_CAP`]: super::OUTPUT_CAP
const KEPT_PAST_EXPECTED: usize = 4 * 1024;

/// `got` cut to what a report needs (see [`KEPT_PAST_EXPECTED`]), its spare memory freed.
pub(crate) fn kept(mut got: Vec<u8>, expected: usize) -> Vec<u8> {
    got.truncate(expected.saturating_add(KEPT_PAST_EXPECTED));
    got.shrink_to_fit();
    got
}

/// Whether a crashed program's stderr tells of an index past the end of an array, as
/// Python (`IndexError`), Rust (`index out of bounds`), Go (`index out of range`) and Java
/// (`ArrayIndexOutOfBoundsException`) put it.
fn index_error(stderr: &[u8]) -> bool {
    let text = String::from_utf8_lossy(stderr).to_lowercase();
    text.contains("index")
        && ["indexerror", "out of bounds", "out of range"]
            .iter()
            .any(|w| text.contains(w))
}

fn signal_reason(signal: i32) -> String {
    match super::interrupt::signal_name(signal) {
        Some(name) => format!("ended by signal {signal} ({name})"),
        None => format!("ended by signal {signal}"),
    }
}

/// The first output line where the program's answers differ from the tutor's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference<'a> {
    /// 0-based.
    pub line: usize,
    /// Each one's version of the line, with its newline; `None` past the end.
    pub expected: Option<&'a [u8]>,
    pub got: Option<&'a [u8]>,
}

/// Where `got` first differs from `expected`, line by line; `None` when they are the same.
pub fn first_difference<'a>(expected: &'a [u8], got: &'a [u8]) -> Option<Difference<'a>> {
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

/// The positions where two BITS lines differ, as (bit, expected, got), when both are bit
/// strings of the same length.
pub fn bit_differences(expected: &[u8], got: &[u8]) -> Option<Vec<(usize, u8, u8)>> {
    let bits = |l: &[u8]| l.iter().all(|&b| b == b'0' || b == b'1');
    let trim = |l: &'_ [u8]| -> Vec<u8> { l.strip_suffix(b"\n").unwrap_or(l).to_vec() };
    let (e, g) = (trim(expected), trim(got));
    if e.len() != g.len() || e.is_empty() || !bits(&e) || !bits(&g) {
        return None;
    }
    Some(
        e.iter()
            .zip(&g)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (&a, &b))| (i, a, b))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_past_what_a_report_needs_is_not_kept() {
        let flood = vec![b'x'; 1 << 20];
        let got = kept(flood, 100);
        assert_eq!(got.len(), 100 + KEPT_PAST_EXPECTED);
        assert_eq!(
            got.capacity(),
            got.len(),
            "the rest of the memory is given back"
        );
        assert_eq!(kept(b"NO\n".to_vec(), 3), b"NO\n");
        // Where it went wrong is still found in what is kept.
        let expected = b"NO\nMAYBE\n".repeat(10);
        let mut long = expected.clone();
        long.extend(std::iter::repeat_n(b'y', 1 << 20));
        let got = kept(long, expected.len());
        let d = first_difference(&expected, &got).unwrap();
        assert_eq!(d.expected, None);
    }

    /// A difference as (line, expected, got), for comparing.
    type Found<'a> = Option<(usize, Option<&'a [u8]>, Option<&'a [u8]>)>;

    #[track_caller]
    fn difference(expected: &[u8], got: &[u8], want: Found<'_>) {
        let found = first_difference(expected, got).map(|d| (d.line, d.expected, d.got));
        assert_eq!(found, want, "{expected:?} against {got:?}");
    }

    #[test]
    fn every_status_reads_back_from_its_name() {
        for status in Status::ALL {
            assert_eq!(Status::from_name(status.name()), Some(status));
        }
        assert_eq!(Status::from_name("passed"), None);
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
    fn index_errors_are_told_in_each_languages_words() {
        for stderr in [
            "IndexError: list assignment index out of range",
            "thread 'main' panicked at src/main.rs:9:5:\nindex out of bounds: the len is 64 \
             but the index is 621",
            "panic: runtime error: index out of range [621] with length 64",
            "java.lang.ArrayIndexOutOfBoundsException: Index 621 out of bounds for length 64",
        ] {
            assert!(index_error(stderr.as_bytes()), "{stderr}");
        }
        for stderr in ["TypeError: unsupported operand", "", "Segmentation fault"] {
            assert!(!index_error(stderr.as_bytes()), "{stderr}");
        }
    }

    #[test]
    fn bit_differences_name_the_positions() {
        assert_eq!(
            bit_differences(b"0110\n", b"0011\n"),
            Some(vec![(1, b'1', b'0'), (3, b'0', b'1')])
        );
        assert_eq!(bit_differences(b"0110\n", b"011\n"), None, "lengths differ");
        assert_eq!(bit_differences(b"MAYBE\n", b"NO\n"), None, "not bits");
    }
}
