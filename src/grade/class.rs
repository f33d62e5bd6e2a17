//! A class: each student's report, just graded (`--submissions`) or read back from JSON
//! files (`--class`), and what the tutor writes about them: the class summary for a
//! person or as JSON, JUnit with a suite per student, and the CSV with a row per student.
//! Every student's standing (pass, fail, timeout, ...) and the note that says why come
//! from one place, [`standing`] and [`note`], whichever of them is written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;

use super::report::Report;
use super::report::json::JsonReport;
use super::verdict::Status;
use crate::cli::{GradeArgs, GradeFormat};
use crate::escape;
use crate::render::words::count;
use crate::render::wrap::{self, Width};

/// The largest report read: far more than any grading run writes.
const REPORT_CAP: u64 = 64 << 20;

/// One student and their report.
#[derive(Debug)]
pub struct Student {
    /// Their name as given: their folder's, or for a report read back, the name it holds
    /// (its file's when it holds none). Escaped when shown.
    pub name: String,
    pub report: Report,
    /// Their JSON report file, as the teacher named it, when there is one.
    pub file: Option<PathBuf>,
}

/// How a student's grading went, in a word: the CSV's `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// Every case passed.
    Pass,
    /// Every failing case ran to its end, with wrong answers.
    Fail,
    /// Most of the cases stopped before their end timed out (and so for the rest).
    Timeout,
    Crash,
    /// Stopped by `--memory`, `--cpu`, `--file-size` or the output cap.
    Limit,
    /// A case ran the tutor: whatever else happened, this is what a teacher must see.
    UsedTutor,
    /// The grader could not run a case.
    Error,
    /// Nothing could run: a missing file, a failed build, a program that cannot start.
    NotGraded,
}

impl Standing {
    pub fn name(self) -> &'static str {
        match self {
            Standing::Pass => "pass",
            Standing::Fail => "fail",
            Standing::Timeout => "timeout",
            Standing::Crash => "crash",
            Standing::Limit => "limit",
            Standing::UsedTutor => "used-tutor",
            Standing::Error => "error",
            Standing::NotGraded => "not-graded",
        }
    }

    /// The standing a case of this status gives, when it fails.
    fn of(status: Status) -> Option<Standing> {
        Some(match status {
            Status::Pass => return None,
            Status::Fail => Standing::Fail,
            Status::Timeout => Standing::Timeout,
            Status::Crash => Standing::Crash,
            Status::Flood | Status::MemoryLimit | Status::CpuLimit | Status::FileLimit => {
                Standing::Limit
            }
            Status::UsedTutor => Standing::UsedTutor,
            Status::Error => Standing::Error,
        })
    }
}

/// A student's standing: not graded when nothing ran; used-tutor when any case ran the
/// tutor; else the way most of the cases stopped before their end were stopped (on a
/// tie, timeout, crash, limit, error in that order); fail when every failing case gave
/// wrong answers; pass when none failed.
pub fn standing(report: &Report) -> Standing {
    if report.error.is_some() {
        return Standing::NotGraded;
    }
    let kinds: Vec<Standing> = report
        .verdicts
        .iter()
        .filter_map(|v| Standing::of(v.status))
        .collect();
    if kinds.is_empty() {
        return Standing::Pass;
    }
    if kinds.contains(&Standing::UsedTutor) {
        return Standing::UsedTutor;
    }
    let stopped = [
        Standing::Timeout,
        Standing::Crash,
        Standing::Limit,
        Standing::Error,
    ];
    let most = stopped
        .iter()
        .map(|&s| (s, kinds.iter().filter(|&&k| k == s).count()))
        .filter(|&(_, n)| n > 0)
        // The first of the largest: `max_by_key` would take the last.
        .fold(None, |best: Option<(Standing, usize)>, (s, n)| match best {
            Some((_, m)) if m >= n => best,
            _ => Some((s, n)),
        });
    most.map_or(Standing::Fail, |(s, _)| s)
}

/// What the cases of a status did, after their count: "3 cases timed out".
fn what_cases_did(status: Status) -> Option<&'static str> {
    Some(match status {
        Status::Pass => return None,
        Status::Fail => "gave wrong answers",
        Status::Timeout => "timed out",
        Status::Crash => "crashed",
        Status::Flood => "wrote too much output",
        Status::MemoryLimit => "hit the memory limit (--memory)",
        Status::CpuLimit => "hit the CPU time limit (--cpu)",
        Status::FileLimit => "hit the file size limit (--file-size)",
        Status::UsedTutor => "ran the tutor",
        Status::Error => "could not be run",
    })
}

/// The order a note names the ways cases failed: the gravest first, wrong answers last.
const NOTE_ORDER: [Status; 9] = [
    Status::UsedTutor,
    Status::Timeout,
    Status::Crash,
    Status::MemoryLimit,
    Status::CpuLimit,
    Status::FileLimit,
    Status::Flood,
    Status::Error,
    Status::Fail,
];

/// Why a student did not pass, in a line: why nothing could run, or how many cases failed
/// each way (`3 cases timed out, 2 gave wrong answers`). Empty for a pass.
pub fn note(report: &Report) -> String {
    if let Some(error) = &report.error {
        return one_line(error);
    }
    let mut parts = Vec::new();
    for status in NOTE_ORDER {
        let n = report
            .verdicts
            .iter()
            .filter(|v| v.status == status)
            .count();
        if let (Some(did), 1..) = (what_cases_did(status), n) {
            parts.push(match parts.is_empty() {
                true => format!("{} {did}", count(n, "case", "cases")),
                false => format!("{n} {did}"),
            });
        }
    }
    parts.join(", ")
}

/// A message of several lines as one, for a CSV cell or a list.
fn one_line(text: &str) -> String {
    escape::text_lines(text)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `--class REPORT...`: reads the reports and writes what `args` asks (the summary in its
/// format, the CSV). A report that cannot be read is named with why, and the rest are
/// summed up (status 1); when none can be read, that is the error.
pub fn run(args: &GradeArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let (mut students, mut unread) = (Vec::new(), Vec::new());
    for path in &args.class {
        match read(path) {
            Ok(student) => students.push(student),
            Err(e) => unread.push(e),
        }
    }
    if students.is_empty() && !unread.is_empty() {
        return Err(unread.swap_remove(0));
    }
    if let Some(csv) = &args.csv {
        write_csv(csv, &students)?;
    }
    let unread: Vec<String> = unread
        .iter()
        .map(|e| escape::text_lines(&format!("{e:#}")))
        .collect();
    write(out, args.format(), &students, &unread)?;
    Ok(if unread.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn read(path: &Path) -> anyhow::Result<Student> {
    let shown = escape::escape(path.as_os_str().as_encoded_bytes());
    let bytes = crate::atomic::read_regular_capped(path, REPORT_CAP)
        .with_context(|| format!("could not read report `{shown}`"))?
        .ok_or_else(|| anyhow::anyhow!("no report at `{shown}`"))?;
    let not_one =
        || format!("`{shown}` is not a report written by `bloom-tutor grade --format json`");
    let json: JsonReport = serde_json::from_slice(&bytes).with_context(not_one)?;
    let report = json
        .to_report()
        .map_err(|why| anyhow::anyhow!(why))
        .with_context(not_one)?;
    let name = json.student.clone().unwrap_or_else(|| {
        path.file_stem()
            .map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned())
    });
    Ok(Student {
        name,
        report,
        file: Some(path.to_path_buf()),
    })
}

/// The class in `format`: the summary for a person (with `unread`, the reports that could
/// not be read, at its end), one JSON document, or JUnit with a suite per student. (A
/// class has no Exercism results: `grade` refuses that before it starts.) Other formats
/// name the unread reports on stderr, so that the document stays whole.
pub fn write(
    out: &mut impl Write,
    format: GradeFormat,
    students: &[Student],
    unread: &[String],
) -> anyhow::Result<()> {
    let summary = Summary::of(students);
    match format {
        GradeFormat::Human => {
            write_summary(out, &summary)?;
            if !unread.is_empty() {
                writeln!(
                    out,
                    "\nnot in this summary, {} that could not be read:",
                    count(unread.len(), "report", "reports")
                )?;
                for e in unread {
                    writeln!(out, "  {e}")?;
                }
            }
            return Ok(());
        }
        GradeFormat::Json => write_json(out, students, &summary)?,
        GradeFormat::Junit => {
            let suites: Vec<(&str, &Report)> = students
                .iter()
                .map(|s| (s.name.as_str(), &s.report))
                .collect();
            super::report::junit::write_class(out, &suites)?;
        }
        GradeFormat::Exercism => anyhow::bail!(EXERCISM_CLASS),
    }
    for e in unread {
        let _ = writeln!(std::io::stderr(), "error: {e}");
    }
    Ok(())
}

/// Why `--format exercism` is refused for a class.
pub const EXERCISM_CLASS: &str = "--format exercism writes one learner's results.json and cannot hold a class; \
     for a class use --format json (every report and the summary) or --format junit \
     (a testsuite per student)";

/// A student's row of the class summary's lists: who, and how many of their cases.
#[derive(Debug, Serialize)]
pub struct Who {
    pub student: String,
    pub cases: usize,
}

/// The pass rate of one case.
#[derive(Debug, Serialize)]
pub struct CaseRate {
    pub name: String,
    pub passed: usize,
    /// How many graded students ran it.
    pub ran: usize,
}

/// One mistake, and the students whose cases named it.
#[derive(Debug, Serialize)]
pub struct MistakeRow {
    pub id: String,
    pub students: Vec<String>,
}

/// One way cases stopped before their end, and whose.
#[derive(Debug, Serialize)]
pub struct StoppedRow {
    /// The cases' status, as reports name it.
    pub status: &'static str,
    /// What those cases did, in words.
    pub what: &'static str,
    pub students: Vec<Who>,
}

/// A student who was not graded, and why.
#[derive(Debug, Serialize)]
pub struct NotGraded {
    pub student: String,
    pub reason: String,
}

/// A report whose file is not named after its student.
#[derive(Debug, Serialize)]
pub struct Renamed {
    pub student: String,
    pub report: String,
}

/// The generated cases every student had.
#[derive(Debug, Serialize)]
pub struct Generated {
    pub seed: u64,
    pub cases: usize,
}

/// What the class summary says, in numbers and names, for every format.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub students: usize,
    pub passed_every_case: usize,
    pub did_not_pass: usize,
    pub not_graded: usize,
    /// The mean of the graded students' scores, each out of its maximum, in percent to
    /// a tenth.
    pub mean_score_percent: Option<f64>,
    /// When something went wrong for every student alike: the command or the limits
    /// more likely than the students.
    pub warning: Option<String>,
    pub generated: Option<Generated>,
    /// Cases in the order they first appear.
    pub cases: Vec<CaseRate>,
    /// Most students first; among equals, the order they were first seen.
    pub mistakes: Vec<MistakeRow>,
    /// In the order of [`NOTE_ORDER`], wrong answers left out.
    pub stopped: Vec<StoppedRow>,
    pub not_graded_students: Vec<NotGraded>,
    pub renamed_reports: Vec<Renamed>,
}

impl Summary {
    pub fn of(students: &[Student]) -> Summary {
        let graded: Vec<&Student> = students
            .iter()
            .filter(|s| s.report.error.is_none())
            .collect();
        let passed_every_case = graded.iter().filter(|s| s.report.failed() == 0).count();
        let mean_score_percent = (!graded.is_empty()).then(|| {
            let sum: f64 = graded
                .iter()
                .map(|s| s.report.score() as f64 / s.report.max_score().max(1) as f64)
                .sum();
            (1000.0 * sum / graded.len() as f64).round() / 10.0
        });
        let mut cases: Vec<CaseRate> = Vec::new();
        for s in &graded {
            for v in &s.report.verdicts {
                let at = match cases.iter().position(|c| c.name == v.name) {
                    Some(at) => at,
                    None => {
                        cases.push(CaseRate {
                            name: v.name.clone(),
                            passed: 0,
                            ran: 0,
                        });
                        cases.len() - 1
                    }
                };
                cases[at].ran += 1;
                cases[at].passed += usize::from(v.passed());
            }
        }
        let mut mistakes: Vec<MistakeRow> = Vec::new();
        for s in &graded {
            let mut theirs = Vec::new();
            for m in s.report.verdicts.iter().flat_map(|v| v.mistakes()) {
                if !theirs.contains(m) {
                    theirs.push(*m);
                }
            }
            for m in theirs {
                match mistakes.iter_mut().find(|row| row.id == m.id()) {
                    Some(row) => row.students.push(s.name.clone()),
                    None => mistakes.push(MistakeRow {
                        id: m.id().to_string(),
                        students: vec![s.name.clone()],
                    }),
                }
            }
        }
        mistakes.sort_by_key(|row| std::cmp::Reverse(row.students.len()));
        let stopped = NOTE_ORDER
            .iter()
            .filter(|&&status| status != Status::Fail)
            .filter_map(|&status| {
                let students: Vec<Who> = graded
                    .iter()
                    .map(|s| Who {
                        student: s.name.clone(),
                        cases: s
                            .report
                            .verdicts
                            .iter()
                            .filter(|v| v.status == status)
                            .count(),
                    })
                    .filter(|w| w.cases > 0)
                    .collect();
                Some(StoppedRow {
                    status: status.name(),
                    what: what_cases_did(status)?,
                    students,
                })
            })
            .filter(|row| !row.students.is_empty())
            .collect();
        let not_graded_students = students
            .iter()
            .filter_map(|s| {
                Some(NotGraded {
                    student: s.name.clone(),
                    reason: s.report.error.clone()?,
                })
            })
            .collect();
        let renamed_reports = students
            .iter()
            .filter_map(|s| {
                let file = s.file.as_ref()?;
                let stem = file.file_stem()?.to_string_lossy();
                (stem != s.name.as_str()).then(|| Renamed {
                    student: s.name.clone(),
                    report: file.to_string_lossy().into_owned(),
                })
            })
            .collect();
        Summary {
            students: students.len(),
            passed_every_case,
            did_not_pass: graded.len() - passed_every_case,
            not_graded: students.len() - graded.len(),
            mean_score_percent,
            warning: warning(students),
            generated: generated(&graded),
            cases,
            mistakes,
            stopped,
            not_graded_students,
            renamed_reports,
        }
    }
}

/// What to say at the top when every student failed alike: no program ran at all, or
/// every one graded has the same standing other than pass or fail.
fn warning(students: &[Student]) -> Option<String> {
    let first = students.first()?;
    if students.iter().all(|s| s.report.never_ran()) {
        // The reason when all give the same one (a command that is wrong for everyone).
        let why = |s: &Student| {
            s.report
                .error
                .clone()
                .or_else(|| s.report.verdicts.iter().find_map(|v| v.reason.clone()))
        };
        let shared = why(first).filter(|w| students.iter().all(|s| why(s).as_ref() == Some(w)));
        let said = match shared {
            Some(why) => format!(
                " (for {}: {})",
                match students.len() {
                    1 => "the one student".to_string(),
                    2 => "both students".to_string(),
                    n => format!("all {n} students"),
                },
                one_line(&why)
            ),
            None => String::new(),
        };
        return Some(format!(
            "no student's program gave a single answer: check the command and the limits{said}"
        ));
    }
    // Among the students graded: one whose file is missing does not make the rest differ.
    let graded: Vec<&Student> = students
        .iter()
        .filter(|s| s.report.error.is_none())
        .collect();
    let all = standing(&graded.first()?.report);
    let alike = graded.len() > 1 && graded.iter().all(|s| standing(&s.report) == all);
    match all {
        Standing::Pass | Standing::Fail | Standing::NotGraded => None,
        Standing::Timeout
        | Standing::Crash
        | Standing::Limit
        | Standing::UsedTutor
        | Standing::Error => alike.then(|| {
            format!(
                "every student graded has the status {}: check the command and the limits",
                all.name()
            )
        }),
    }
}

/// The generated cases, when every graded student had the same seed and some were run.
fn generated(graded: &[&Student]) -> Option<Generated> {
    let seed = graded.first()?.report.seed?;
    if graded.iter().any(|s| s.report.seed != Some(seed)) {
        return None;
    }
    let prefix = format!("random-{seed}-");
    let cases = graded[0]
        .report
        .verdicts
        .iter()
        .filter(|v| v.name.starts_with(&prefix))
        .count();
    (cases > 0).then_some(Generated { seed, cases })
}

/// A line of the summary, `indent` spaces in, wrapped to fit, its later lines 2 further in.
fn prose(out: &mut impl Write, indent: usize, text: &str) -> std::io::Result<()> {
    let (first, rest) = (" ".repeat(indent), " ".repeat(indent + 2));
    for line in wrap::hanging(text, &first, &rest, Width::for_stdout().columns()) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn shown(name: &str) -> String {
    escape::escape(name.as_bytes())
}

/// The summary for a person: a warning when every student failed alike, the class's
/// scores, each case's pass rate, the mistakes by how many students made them, the
/// students whose cases stopped before their end (by how), the students not graded and
/// why, and the reports not named after their student.
pub fn write_summary(out: &mut impl Write, summary: &Summary) -> std::io::Result<()> {
    if let Some(warning) = &summary.warning {
        prose(out, 0, warning)?;
        writeln!(out)?;
    }
    prose(
        out,
        0,
        &format!(
            "class of {}: {} passed every case, {} did not, {} could not be graded",
            count(summary.students, "student", "students"),
            summary.passed_every_case,
            summary.did_not_pass,
            summary.not_graded
        ),
    )?;
    if let Some(Generated { seed, cases }) = summary.generated {
        prose(
            out,
            0,
            &format!(
                "every student had the same {}, from seed {seed} (--random {cases} --seed {seed})",
                count(cases, "generated case", "generated cases")
            ),
        )?;
    }
    if let Some(mean) = summary.mean_score_percent {
        writeln!(out, "mean score: {mean:.0}% of the points")?;
    }
    if !summary.cases.is_empty() {
        writeln!(out, "\npass rate per case:")?;
        let width = summary
            .cases
            .iter()
            .map(|c| shown(&c.name).chars().count())
            .max()
            .unwrap_or(0);
        for c in &summary.cases {
            writeln!(
                out,
                "  {:<width$}  {:>4} of {:<4} {:>4.0}%",
                shown(&c.name),
                c.passed,
                c.ran,
                100.0 * c.passed as f64 / c.ran.max(1) as f64
            )?;
        }
    }
    let graded = summary.students - summary.not_graded;
    writeln!(out, "\nmistakes, by how many students made them:")?;
    if summary.mistakes.is_empty() {
        writeln!(out, "  none named")?;
    }
    for row in &summary.mistakes {
        let who: Vec<String> = row.students.iter().map(|s| shown(s)).collect();
        prose(
            out,
            2,
            &format!(
                "[{}]  {} of {}: {}",
                shown(&row.id),
                row.students.len(),
                count(graded, "student", "students"),
                who.join(", ")
            ),
        )?;
    }
    if !summary.stopped.is_empty() {
        writeln!(out, "\ncases stopped before their end, and whose:")?;
        for row in &summary.stopped {
            let who: Vec<String> = row
                .students
                .iter()
                .map(|w| {
                    format!(
                        "{} ({})",
                        shown(&w.student),
                        count(w.cases, "case", "cases")
                    )
                })
                .collect();
            prose(out, 2, &format!("{}: {}", row.what, who.join(", ")))?;
        }
    }
    if !summary.not_graded_students.is_empty() {
        writeln!(
            out,
            "\nnot graded, {}:",
            count(summary.not_graded_students.len(), "student", "students")
        )?;
        for s in &summary.not_graded_students {
            let reason = escape::text_lines(&s.reason);
            let mut lines = reason.lines();
            let first = lines.next().unwrap_or("");
            prose(out, 2, &format!("{}: {first}", shown(&s.student)))?;
            for line in lines {
                writeln!(out, "    {line}")?;
            }
        }
    }
    if !summary.renamed_reports.is_empty() {
        writeln!(out, "\nreports not named after their student:")?;
        for r in &summary.renamed_reports {
            prose(
                out,
                2,
                &format!("{}: {}", shown(&r.student), shown(&r.report)),
            )?;
        }
    }
    Ok(())
}

/// One student in the class's JSON document.
#[derive(Serialize)]
struct JsonStudent<'a> {
    student: &'a str,
    status: Standing,
    note: String,
    report_file: Option<String>,
    report: JsonReport,
}

/// The class as one JSON document: each student's standing, note and report, then the
/// summary.
fn write_json(
    out: &mut impl Write,
    students: &[Student],
    summary: &Summary,
) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Class<'a> {
        students: Vec<JsonStudent<'a>>,
        summary: &'a Summary,
    }
    let students = students
        .iter()
        .map(|s| JsonStudent {
            student: &s.name,
            status: standing(&s.report),
            note: note(&s.report),
            report_file: s.file.as_ref().map(|f| f.to_string_lossy().into_owned()),
            report: JsonReport::from_report(&s.report),
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &Class { students, summary })?;
    writeln!(out)
}

/// The CSV's columns, in order; `grade --help` (on --csv) and the README describe them.
pub const CSV_COLUMNS: [&str; 9] = [
    "student",
    "score",
    "max_score",
    "cases_passed",
    "cases_total",
    "status",
    "mistakes",
    "note",
    "report",
];

/// Checks before any grading that the CSV can be written to `path`.
pub fn check_csv(path: &Path) -> anyhow::Result<()> {
    crate::atomic::check_replaceable(path)
        .with_context(|| format!("cannot write the CSV to `{}`", escape::path(path)))
}

/// Writes the CSV to `path`, whole or not at all.
pub fn write_csv(path: &Path, students: &[Student]) -> anyhow::Result<()> {
    crate::atomic::write_atomically(path, csv_text(students).as_bytes())
        .with_context(|| format!("could not write `{}`", escape::path(path)))
}

/// The CSV: a header of [`CSV_COLUMNS`], then one row per student.
fn csv_text(students: &[Student]) -> String {
    let mut text = CSV_COLUMNS.join(",");
    text.push('\n');
    for s in students {
        let r = &s.report;
        let mistakes: Vec<&str> = r.tallies().iter().map(|t| t.mistake.id()).collect();
        let file = s
            .file
            .as_ref()
            .map_or_else(String::new, |f| escape::path(f));
        let row = [
            csv_field(&shown(&s.name)),
            r.score().to_string(),
            r.max_score().to_string(),
            r.passed().to_string(),
            r.verdicts.len().to_string(),
            standing(r).name().to_string(),
            csv_field(&mistakes.join(" ")),
            csv_field(&note(r)),
            csv_field(&file),
        ];
        text += &row.join(",");
        text.push('\n');
    }
    text
}

/// A CSV field, quoted when it holds a comma, a quote or a line end (RFC 4180). A field
/// that a spreadsheet would take for a formula gets a leading apostrophe.
fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::FilterSpec;
    use crate::grade::cases::Case;
    use crate::grade::verdict::Verdict;

    #[test]
    fn csv_fields_are_quoted_and_defused() {
        assert_eq!(csv_field("ada"), "ada");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
    }

    /// A report whose cases ended with `statuses`, in order.
    fn report(statuses: &[Status]) -> Report {
        let case = Case {
            name: "c".to_string(),
            checks: String::new(),
            script: b"BITS\n".to_vec(),
            weight: 1,
            hidden: false,
        };
        let verdicts = statuses
            .iter()
            .map(|&status| Verdict {
                status,
                ..Verdict::error(&case, Vec::new(), String::new())
            })
            .collect();
        Report {
            program: Vec::new(),
            spec: FilterSpec::lesson(),
            seed: None,
            verdicts,
            error: None,
        }
    }

    #[track_caller]
    fn case(statuses: &[Status], want: Standing, want_note: &str) {
        let r = report(statuses);
        assert_eq!(standing(&r), want, "{statuses:?}");
        assert_eq!(note(&r), want_note, "{statuses:?}");
    }

    #[test]
    fn a_students_standing_names_how_their_cases_stopped() {
        use Status::*;
        case(&[Pass, Pass], Standing::Pass, "");
        case(
            &[Pass, Fail, Fail],
            Standing::Fail,
            "2 cases gave wrong answers",
        );
        case(
            &[Fail, Timeout, Fail],
            Standing::Timeout,
            "1 case timed out, 2 gave wrong answers",
        );
        case(
            &[Crash, Timeout, Crash],
            Standing::Crash,
            "1 case timed out, 2 crashed",
        );
        case(
            &[Crash, Timeout],
            Standing::Timeout,
            "1 case timed out, 1 crashed",
        );
        case(
            &[MemoryLimit, Flood],
            Standing::Limit,
            "1 case hit the memory limit (--memory), 1 wrote too much output",
        );
        case(
            &[Timeout, Timeout, UsedTutor],
            Standing::UsedTutor,
            "1 case ran the tutor, 2 timed out",
        );
        let mut r = report(&[Error]);
        r.error = Some("the submission has no `subs/dan/bloom.py`".to_string());
        assert_eq!(standing(&r), Standing::NotGraded);
        assert_eq!(note(&r), "the submission has no `subs/dan/bloom.py`");
    }

    #[test]
    fn every_status_gives_a_standing_and_words() {
        for status in Status::ALL {
            assert_eq!(
                Standing::of(status).is_none(),
                status == Status::Pass,
                "{status:?}"
            );
            assert_eq!(what_cases_did(status).is_none(), status == Status::Pass);
            assert!(
                status == Status::Pass || NOTE_ORDER.contains(&status),
                "{status:?} is in no note"
            );
        }
    }
}
