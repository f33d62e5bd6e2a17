//! The JSON report, for course tooling and `grade --class`: per case its name, status,
//! points, the answers (not for hidden cases) and the mistakes named; then the totals.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::Report;
use crate::engine::scheme::{FilterSpec, Scheme};
use crate::grade::mistakes::{Diagnosis, Ending, Mistake};
use crate::grade::verdict::{Status, Verdict};

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
    /// The script the program was given (lossy UTF-8); `null` for a hidden case.
    #[serde(default)]
    pub script: Option<String>,
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
    /// The student's name (their folder's), in a report `--submissions` wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub student: Option<String>,
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
                script: (!v.hidden).then(|| String::from_utf8_lossy(&v.script).into_owned()),
                mistake: v.mistakes().first().map(id),
                mistakes: v.mistakes().iter().map(id).collect(),
                explained: v.diagnosis.complete,
                reason: v.reason.clone(),
                seconds: (v.seconds * 1000.0).round() / 1000.0,
            })
            .collect();
        JsonReport {
            student: None,
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

    /// The report this one was written from, as far as it holds it: what a program
    /// printed only as kept ([`GOT_KEPT`] bytes, as UTF-8), its stderr not at all, and a
    /// hidden case's script and answers not at all. `Err` says what does not fit.
    pub fn to_report(&self) -> Result<Report, String> {
        let spec = match Scheme::from_name(&self.scheme) {
            Some(scheme) => FilterSpec::new(scheme, Some(self.bits), Some(self.hashes))
                .map_err(|e| format!("its filter is not one the tutor has: {e}"))?,
            // A report from before reports named their filter: the exercise's own.
            None if self.scheme.is_empty() => FilterSpec::lesson(),
            None => return Err(format!("`{}` is not a scheme", escape(&self.scheme))),
        };
        let verdicts = self
            .cases
            .iter()
            .map(|c| {
                let status = Status::from_name(&c.status)
                    .ok_or_else(|| format!("case status `{}` is not one", escape(&c.status)))?;
                let mistakes = c
                    .mistakes
                    .iter()
                    .map(|id| {
                        Mistake::from_id(id)
                            .ok_or_else(|| format!("`{}` is not a mistake", escape(id)))
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                let bytes = |text: &Option<String>| text.clone().unwrap_or_default().into_bytes();
                Ok(Verdict {
                    name: c.name.clone(),
                    checks: c.description.clone(),
                    weight: c.weight,
                    hidden: c.hidden,
                    status,
                    expected: bytes(&c.expected),
                    got: bytes(&c.got),
                    stderr_tail: Vec::new(),
                    diagnosis: Diagnosis {
                        mistakes,
                        complete: c.explained,
                        alternatives: Vec::new(),
                    },
                    // A report does not say how a run ended beyond its status.
                    ending: match status {
                        Status::Pass | Status::Fail => Ending::Exited,
                        Status::Crash => Ending::Failed { index_error: false },
                        Status::Timeout
                        | Status::Flood
                        | Status::MemoryLimit
                        | Status::CpuLimit
                        | Status::FileLimit
                        | Status::UsedTutor
                        | Status::Error => Ending::Stopped,
                    },
                    reason: c.reason.clone(),
                    script: bytes(&c.script),
                    seconds: c.seconds,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let error = match (self.status.as_str(), &self.message) {
            ("error", message) => Some(message.clone().unwrap_or_default()),
            _ => None,
        };
        Ok(Report {
            program: self.program.clone(),
            spec,
            seed: self.seed,
            verdicts,
            error,
        })
    }
}

fn escape(text: &str) -> String {
    crate::escape::escape(text.as_bytes())
}

pub fn write(out: &mut impl Write, report: &Report) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &JsonReport::from_report(report))?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::runner::{End, Run};

    #[test]
    fn a_report_read_back_writes_the_same_json() {
        let spec = FilterSpec::new(Scheme::Djb2Fnv, Some(32), None).expect("a filter");
        let mut verdicts = Vec::new();
        for (name, stdout, end) in [
            ("empty-filter", None, End::Exited(0)),
            ("near-keys", Some(b"NO\n".to_vec()), End::Exited(0)),
            ("bits-order", Some(Vec::new()), End::TimedOut),
        ] {
            let case = crate::grade::cases::find(spec, name).expect("a built-in case");
            let expected = crate::grade::expected_answers(spec, &case.script);
            let run = Run {
                stdout: stdout.unwrap_or_else(|| expected.clone()),
                stderr_tail: Vec::new(),
                end,
                limit: None,
                note: None,
            };
            verdicts.push(crate::grade::verdict::judge(
                spec,
                &case,
                expected,
                run,
                5.0,
                1 << 20,
                0.25,
            ));
        }
        let report = Report {
            program: vec!["python3".to_string(), "bloom.py".to_string()],
            spec,
            seed: Some(7),
            verdicts,
            error: None,
        };
        let json = JsonReport::from_report(&report);
        let again = JsonReport::from_report(&json.to_report().expect("a report"));
        assert_eq!(
            serde_json::to_value(&json).expect("JSON"),
            serde_json::to_value(&again).expect("JSON")
        );
        assert_eq!(again.scheme, "djb2-fnv");
        let statuses: Vec<&str> = again.cases.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(statuses, ["pass", "fail", "timeout"]);
    }
}
