//! Exercism's test-runner interface: `results.json`, version 2. The top-level `status` is
//! `pass`, `fail` or `error` (with a `message` when nothing could run); each test has its
//! `name`, `status`, `message` and `output` (cut to 500 characters, as the interface asks),
//! and for a visible case its script as `test_code`, keys in quotes and escaped as every
//! report shows them, after a `#` line that says so.

use std::io::{self, Write};

use serde::Serialize;

use super::human::{describe_bits, visible};
use super::{KEYS_NOTE, Report, shown_script};
use crate::engine::scheme::FilterSpec;
use crate::escape;
use crate::grade::verdict::{Status, Verdict, bit_differences, first_difference};

/// The most characters of `output` Exercism shows.
const OUTPUT_CHARS: usize = 500;

#[derive(Serialize)]
struct Results {
    version: u32,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    tests: Vec<Test>,
    /// Not in the interface (its readers ignore what they do not know): the points.
    score: u64,
    max_score: u64,
}

#[derive(Serialize)]
struct Test {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    test_code: Option<String>,
    status: &'static str,
    message: Option<String>,
    output: Option<String>,
}

pub fn write(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let tests = report
        .verdicts
        .iter()
        .map(|v| test(v, report.spec))
        .collect();
    let results = Results {
        version: 2,
        status: report.status(),
        message: report.error.clone(),
        tests,
        score: report.score(),
        max_score: report.max_score(),
    };
    serde_json::to_writer_pretty(&mut *out, &results)?;
    writeln!(out)
}

fn test(v: &Verdict, spec: FilterSpec) -> Test {
    let status = match v.status {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Timeout
        | Status::Crash
        | Status::Flood
        | Status::MemoryLimit
        | Status::CpuLimit
        | Status::FileLimit
        | Status::UsedTutor
        | Status::Error => "error",
    };
    let output = (!v.hidden && !v.got.is_empty()).then(|| {
        let text = script_text(&v.got);
        match text.char_indices().nth(OUTPUT_CHARS) {
            Some((end, _)) => text[..end].to_string(),
            None => text,
        }
    });
    Test {
        name: v.name.clone(),
        test_code: (!v.hidden).then(|| format!("# {KEYS_NOTE}\n{}", shown_script(&v.script))),
        status,
        message: (!v.passed()).then(|| message(v, spec)),
        output,
    }
}

/// Why a case failed, in a few lines: the reason, the first wrong answer (not for a
/// hidden case), and the mistakes named with their hints.
pub fn message(v: &Verdict, spec: FilterSpec) -> String {
    let mut lines = Vec::new();
    if let Some(reason) = &v.reason {
        lines.push(escape::escape(reason.as_bytes()));
    }
    if !v.hidden
        && let Some(d) = first_difference(&v.expected, &v.got)
    {
        lines.push(format!(
            "first wrong answer: output line {}: expected {}, got {}",
            d.line + 1,
            visible(d.expected),
            visible(d.got)
        ));
        if let (Some(want), Some(have)) = (d.expected, d.got)
            && let Some(bits) = bit_differences(want, have)
        {
            lines.push(describe_bits(&bits));
        }
    }
    if v.hidden && v.status == Status::Fail {
        lines.push("a wrong answer (this case is hidden)".to_string());
    }
    for m in v.mistakes() {
        lines.push(format!("likely mistake [{}]: {}", m.id(), m.hint(spec)));
    }
    lines.join("\n")
}

/// A script (or a program's output) as text: each line escaped on its own, so that no
/// byte in it can break or fake a line.
pub fn script_text(script: &[u8]) -> String {
    let script = script.strip_suffix(b"\n").unwrap_or(script);
    script
        .split(|&b| b == b'\n')
        .map(escape::escape)
        .collect::<Vec<_>>()
        .join("\n")
}
