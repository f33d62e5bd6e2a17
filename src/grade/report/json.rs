//! The JSON report, for course tooling and `grade --class`: per case its name, status,
//! points, the answers (not for hidden cases) and the mistakes named; then the totals.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::Report;
use crate::grade::mistakes::Mistake;

/// How much of a program's output a report keeps.
pub const GOT_KEPT: usize = 4096;

/// One case in the JSON report. Also read back by `grade --class`, which needs only some of
/// the fields.
#[derive(Debug, Serialize, Deserialize)]
pub struct JsonCase {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub status: String,
    #[serde(default = "one")]
    pub weight: u32,
    #[serde(default)]
    pub hidden: bool,
    /// The tutor's answers; `null` for a hidden case.
    #[serde(default)]
    pub expected: Option<String>,
    /// What the program printed (the first few KiB); `null` for a hidden case.
    #[serde(default)]
    pub got: Option<String>,
    /// The mistake behind the first wrong answer.
    #[serde(default)]
    pub mistake: Option<String>,
    /// Every mistake named, that one first.
    #[serde(default)]
    pub mistakes: Vec<String>,
    /// Whether the mistakes reproduce every answer.
    #[serde(default)]
    pub explained: bool,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub seconds: f64,
}

fn one() -> u32 {
    1
}

/// The whole JSON report.
#[derive(Debug, Serialize, Deserialize)]
pub struct JsonReport {
    pub program: Vec<String>,
    #[serde(default)]
    pub scheme: String,
    #[serde(default)]
    pub bits: u64,
    #[serde(default)]
    pub hashes: u32,
    #[serde(default)]
    pub seed: Option<u64>,
    /// `pass`, `fail`, or `error` when nothing could be graded.
    pub status: String,
    /// Why nothing could be graded.
    #[serde(default)]
    pub message: Option<String>,
    pub cases: Vec<JsonCase>,
    pub passed: usize,
    pub failed: usize,
    pub total: usize,
    #[serde(default)]
    pub score: u64,
    #[serde(default)]
    pub max_score: u64,
    /// The most common mistake.
    #[serde(default)]
    pub mistake: Option<String>,
}

/// Text of a program's output for a report: lossy UTF-8, cut to `keep` bytes.
pub fn cut(bytes: &[u8], keep: usize) -> String {
    if bytes.len() <= keep {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut end = keep;
    while end > 0 && bytes[end] & 0xc0 == 0x80 {
        end -= 1;
    }
    format!(
        "{}[... cut: {} bytes in all]",
        String::from_utf8_lossy(&bytes[..end]),
        bytes.len()
    )
}

impl JsonReport {
    pub fn from_report(report: &Report) -> JsonReport {
        let id = |m: &Mistake| m.id().to_string();
        let cases = report
            .verdicts
            .iter()
            .map(|v| JsonCase {
                name: v.name.clone(),
                description: v.checks.clone(),
                status: v.status.name().to_string(),
                weight: v.weight,
                hidden: v.hidden,
                expected: (!v.hidden).then(|| String::from_utf8_lossy(&v.expected).into_owned()),
                got: (!v.hidden).then(|| cut(&v.got, GOT_KEPT)),
                mistake: v.mistakes().first().map(id),
                mistakes: v.mistakes().iter().map(id).collect(),
                explained: v.diagnosis.complete,
                reason: v.reason.clone(),
                seconds: (v.seconds * 1000.0).round() / 1000.0,
            })
            .collect();
        JsonReport {
            program: report.program.clone(),
            scheme: report.spec.scheme().name().to_string(),
            bits: report.spec.bits(),
            hashes: report.spec.hashes(),
            seed: report.seed,
            status: report.status().to_string(),
            message: report.error.clone(),
            cases,
            passed: report.passed(),
            failed: report.failed(),
            total: report.verdicts.len(),
            score: report.score(),
            max_score: report.max_score(),
            mistake: report.tallies().first().map(|t| id(&t.mistake)),
        }
    }
}

pub fn write(out: &mut impl Write, report: &Report) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &JsonReport::from_report(report))?;
    writeln!(out)
}
