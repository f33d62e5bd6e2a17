//! `grade --submissions DIR --csv FILE -- PROGRAM {}/...`: a class in one command. Every
//! folder directly in DIR is a student; `{}` in the program's words becomes that folder.
//! Students are graded in parallel on the same cases, each row of the CSV is one student,
//! each JSON report goes to `--reports DIR`, and the class summary ends the run.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;

use super::class::{self, Student};
use super::interrupt;
use super::report::Report;
use super::report::json::JsonReport;
use super::runner::{self, RunError};
use super::verdict::Verdict;
use super::{Plan, Stopped, run_cases};
use crate::cli::GradeArgs;
use crate::escape;

/// One student's outcome.
struct Graded {
    name: String,
    report: Report,
}

/// Grades every student in `dir` on `plan` and writes the CSV, the reports and the summary.
pub fn run(
    args: &GradeArgs,
    dir: &Path,
    plan: &Plan,
    jobs: usize,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let shown = escape::escape(dir.as_os_str().as_encoded_bytes());
    if let Some(csv) = &args.csv {
        crate::atomic::check_replaceable(csv).with_context(|| {
            format!(
                "cannot write the CSV to `{}`",
                escape::escape(csv.as_os_str().as_encoded_bytes())
            )
        })?;
    }
    if let Some(reports) = &args.reports {
        std::fs::create_dir_all(reports).with_context(|| {
            format!(
                "could not create `{}`",
                escape::escape(reports.as_os_str().as_encoded_bytes())
            )
        })?;
    }
    if !args
        .program
        .iter()
        .any(|w| w.as_encoded_bytes().windows(2).any(|p| p == b"{}"))
    {
        anyhow::bail!(
            "no `{{}}` in the program's words, expected it where each student's folder goes, as in `-- python3 {{}}/bloom.py`"
        );
    }
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("could not read the submissions in `{shown}`"))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    folders.sort();
    if folders.is_empty() {
        anyhow::bail!("no student folders in `{shown}`, expected one folder per student");
    }
    super::hide_answers();
    let stop = interrupt::on_signals().context("could not catch Ctrl-C and SIGTERM")?;
    let bar = progress(folders.len());
    let next = AtomicUsize::new(0);
    let graded: Mutex<Vec<Option<Graded>>> = Mutex::new((0..folders.len()).map(|_| None).collect());
    let failure: Mutex<Option<Stopped>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, folders.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= folders.len() || stop.signal().is_some() {
                        return;
                    }
                    let folder = &folders[i];
                    let name = folder
                        .file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    bar.set_message(name.clone());
                    match student(args, folder, plan, stop) {
                        Ok(report) => {
                            let mut slots = graded.lock().unwrap_or_else(|e| e.into_inner());
                            slots[i] = Some(Graded { name, report });
                        }
                        Err(stopped) => {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(stopped);
                            return;
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    runner::stop_leftovers();
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(Stopped::Run(RunError::Interrupted(signal))) => {
            return Ok(ExitCode::from(interrupt::exit_status(signal)));
        }
        Some(Stopped::Run(err)) => return Err(err.into()),
        Some(Stopped::Write(err)) => return Err(err.into()),
        None => {}
    }
    if let Some(signal) = stop.signal() {
        return Ok(ExitCode::from(interrupt::exit_status(signal)));
    }
    let graded: Vec<Graded> = graded
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    if let Some(reports) = &args.reports {
        let mut taken = std::collections::HashSet::new();
        for g in &graded {
            let path = reports.join(format!("{}.json", unique(file_safe(&g.name), &mut taken)));
            let mut bytes = Vec::new();
            super::report::json::write(&mut bytes, &g.report)?;
            crate::atomic::write_atomically(&path, &bytes).with_context(|| {
                format!(
                    "could not write `{}`",
                    escape::escape(path.as_os_str().as_encoded_bytes())
                )
            })?;
        }
    }
    if let Some(csv) = &args.csv {
        crate::atomic::write_atomically(csv, csv_text(&graded).as_bytes()).with_context(|| {
            format!(
                "could not write `{}`",
                escape::escape(csv.as_os_str().as_encoded_bytes())
            )
        })?;
    }
    let students: Vec<Student> = graded
        .iter()
        .map(|g| Student {
            name: escape::escape(g.name.as_bytes()),
            report: JsonReport::from_report(&g.report),
        })
        .collect();
    if let Some((seed, n)) = plan.seed {
        writeln!(
            out,
            "every student had the same {n} generated cases, from seed {seed} (--random {n} --seed {seed})"
        )?;
    }
    class::write_summary(out, &students)?;
    let all_passed = graded
        .iter()
        .all(|g| g.report.error.is_none() && g.report.failed() == 0);
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A progress bar over the students on a terminal; nothing when stderr is not one.
fn progress(students: usize) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(students as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} students  {msg}")
    {
        bar.set_style(style);
    }
    bar
}

/// One student's report: the program with `{}` as their folder, on every case, one at a
/// time (the class runs in parallel). A program that cannot start is a report with status
/// `error`; only a signal or the tutor's own failure stops the class.
fn student(
    args: &GradeArgs,
    folder: &Path,
    plan: &Plan,
    stop: &interrupt::Stop,
) -> Result<Report, Stopped> {
    let folder = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    let words: Vec<OsString> = args
        .program
        .iter()
        .map(|w| {
            let mut bytes = Vec::new();
            let word = w.as_encoded_bytes();
            let mut i = 0;
            while i < word.len() {
                if word[i..].starts_with(b"{}") {
                    bytes.extend_from_slice(folder.as_os_str().as_encoded_bytes());
                    i += 2;
                } else {
                    bytes.push(word[i]);
                    i += 1;
                }
            }
            // Bytes that came from OsStrs joined at their boundaries.
            crate::grade::os_from_bytes(bytes)
        })
        .collect();
    // A word made from the folder that names nothing: the submission is missing a file.
    for (word, given) in words.iter().zip(&args.program) {
        let from_folder = given.as_encoded_bytes().windows(2).any(|p| p == b"{}");
        if from_folder && !Path::new(word).exists() {
            let why = format!(
                "the submission has no `{}`",
                escape::escape(word.as_encoded_bytes())
            );
            return Ok(not_run(plan, &words, why));
        }
    }
    let program = match runner::resolve(&words) {
        Ok(program) => program,
        Err(err) => return Ok(not_run(plan, &words, err.to_string())),
    };
    match run_cases(plan, &program, 1, stop, &mut |_, _| Ok(())) {
        Ok(report) => Ok(report),
        Err(Stopped::Run(err @ RunError::Interrupted(_))) => Err(Stopped::Run(err)),
        Err(Stopped::Run(err)) => Ok(not_run(plan, &words, err.to_string())),
        Err(other) => Err(other),
    }
}

/// The report of a student whose program could not run: status `error`, every case an
/// error, so that the score is out of the class's maximum.
fn not_run(plan: &Plan, words: &[OsString], why: String) -> Report {
    let mut report = plan.report(words);
    report.verdicts = plan
        .cases
        .iter()
        .zip(&plan.expected)
        .map(|(case, expected)| Verdict::error(case, expected.clone(), why.clone()))
        .collect();
    report.error = Some(why);
    report
}

/// A student's name as a file name: anything but letters, digits, `-`, `_` and `.` as `_`.
/// `name`, or `name-2`, `name-3`... when an earlier student's name made the same file name
/// (`a b` and `a_b` both make `a_b`): no report is written over another.
fn unique(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 1;
    while !taken.insert(candidate.to_ascii_lowercase()) {
        n += 1;
        candidate = format!("{name}-{n}");
    }
    candidate
}

fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
            _ => '_',
        })
        .collect();
    match safe.trim_start_matches('.') {
        "" => "student".to_string(),
        s => s.to_string(),
    }
}

/// The CSV: a header, then one row per student.
fn csv_text(graded: &[Graded]) -> String {
    let mut text =
        String::from("student,score,max_score,cases_passed,cases_total,status,mistakes\n");
    for g in graded {
        let r = &g.report;
        let mistakes: Vec<&str> = r.tallies().iter().map(|t| t.mistake.id()).collect();
        let row = [
            csv_field(&escape::escape(g.name.as_bytes())),
            r.score().to_string(),
            r.max_score().to_string(),
            r.passed().to_string(),
            r.verdicts.len().to_string(),
            r.status().to_string(),
            csv_field(&mistakes.join(" ")),
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

    #[test]
    fn csv_fields_are_quoted_and_defused() {
        assert_eq!(csv_field("ada"), "ada");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
    }

    #[test]
    fn names_become_safe_file_names() {
        assert_eq!(file_safe("ada"), "ada");
        assert_eq!(file_safe("../x y"), "_x_y");
        assert_eq!(file_safe(".."), "student");
        let mut taken = std::collections::HashSet::new();
        let names: Vec<String> = ["a,b", "a_b", "a b", "A_B"]
            .iter()
            .map(|n| unique(file_safe(n), &mut taken))
            .collect();
        assert_eq!(names, ["a_b", "a_b-2", "a_b-3", "A_B-4"]);
    }
}
