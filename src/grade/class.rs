//! `grade --class REPORT.json...`: a class summary from students' JSON reports: how many
//! passed each case, and how many students made each mistake, most common first.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use super::report::json::JsonReport;
use crate::escape;
use crate::render::words::count;

/// The largest report read: far more than any grading run writes.
const REPORT_CAP: u64 = 64 << 20;

/// One student's report, named after its file.
#[derive(Debug)]
pub struct Student {
    pub name: String,
    pub report: JsonReport,
}

/// Reads the reports at `paths` and writes the class summary to `out`.
///
/// A report that cannot be read is named at the end with why, and the summary is of the
/// others (status 1); when none can be read, that is the error.
pub fn run(paths: &[PathBuf], out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let (mut students, mut unread) = (Vec::new(), Vec::new());
    for path in paths {
        match read(path) {
            Ok(student) => students.push(student),
            Err(e) => unread.push(e),
        }
    }
    if students.is_empty() && !unread.is_empty() {
        return Err(unread.swap_remove(0));
    }
    write_summary(out, &students)?;
    if unread.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "\nnot in this summary, {} that could not be read:",
        count(unread.len(), "report", "reports")
    )?;
    for e in &unread {
        writeln!(out, "  {}", escape::text_lines(&format!("{e:#}")))?;
    }
    Ok(ExitCode::FAILURE)
}

fn read(path: &Path) -> anyhow::Result<Student> {
    let shown = escape::escape(path.as_os_str().as_encoded_bytes());
    let bytes = crate::atomic::read_regular_capped(path, REPORT_CAP)
        .with_context(|| format!("could not read report `{shown}`"))?
        .ok_or_else(|| anyhow::anyhow!("no report at `{shown}`"))?;
    let report: JsonReport = serde_json::from_slice(&bytes).with_context(|| {
        format!("`{shown}` is not a report written by `bloom-tutor grade --format json`")
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| shown.clone(), |s| escape::escape(s.as_encoded_bytes()));
    Ok(Student { name, report })
}

/// The summary: the class's scores, each case's pass rate, the mistakes by how many
/// students made them.
pub fn write_summary(out: &mut impl Write, students: &[Student]) -> std::io::Result<()> {
    let n = students.len();
    let graded: Vec<&Student> = students
        .iter()
        .filter(|s| s.report.status != "error")
        .collect();
    let all_passed = graded.iter().filter(|s| s.report.failed == 0).count();
    writeln!(
        out,
        "class of {}: {all_passed} passed every case, {} did not, {} could not be graded",
        count(n, "student", "students"),
        graded.len() - all_passed,
        n - graded.len()
    )?;
    if !graded.is_empty() {
        let mean: f64 = graded
            .iter()
            .map(|s| s.report.score as f64 / s.report.max_score.max(1) as f64)
            .sum::<f64>()
            / graded.len() as f64;
        writeln!(out, "mean score: {:.0}% of the points", mean * 100.0)?;
    }
    // Cases in the order they first appear.
    let mut names: Vec<&str> = Vec::new();
    for s in &graded {
        for c in &s.report.cases {
            if !names.contains(&c.name.as_str()) {
                names.push(&c.name);
            }
        }
    }
    if !names.is_empty() {
        writeln!(out, "\npass rate per case:")?;
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        for name in &names {
            let ran: Vec<_> = graded
                .iter()
                .filter_map(|s| s.report.cases.iter().find(|c| c.name == *name))
                .collect();
            let passed = ran.iter().filter(|c| c.status == "pass").count();
            writeln!(
                out,
                "  {:<width$}  {passed:>4} of {:<4} {:>4.0}%",
                escape::escape(name.as_bytes()),
                ran.len(),
                100.0 * passed as f64 / ran.len().max(1) as f64
            )?;
        }
    }
    let mut mistakes: Vec<(String, Vec<&str>)> = Vec::new();
    for s in &graded {
        let mut theirs: Vec<&str> = Vec::new();
        for id in s.report.cases.iter().flat_map(|c| &c.mistakes) {
            if !theirs.contains(&id.as_str()) {
                theirs.push(id);
            }
        }
        for id in theirs {
            match mistakes.iter_mut().find(|(m, _)| m == id) {
                Some((_, who)) => who.push(&s.name),
                None => mistakes.push((id.to_string(), vec![&s.name])),
            }
        }
    }
    // Most students first; among equals, the order they were first seen.
    mistakes.sort_by_key(|(_, who)| std::cmp::Reverse(who.len()));
    writeln!(out, "\nmistakes, by how many students made them:")?;
    if mistakes.is_empty() {
        writeln!(out, "  none named")?;
    }
    for (id, who) in &mistakes {
        writeln!(
            out,
            "  [{}]  {} of {}: {}",
            escape::escape(id.as_bytes()),
            who.len(),
            count(graded.len(), "student", "students"),
            who.join(", ")
        )?;
    }
    let failed: Vec<&str> = students
        .iter()
        .filter(|s| s.report.status == "error")
        .map(|s| s.name.as_str())
        .collect();
    if !failed.is_empty() {
        writeln!(out, "\nnot graded: {}", failed.join(", "))?;
    }
    Ok(())
}
