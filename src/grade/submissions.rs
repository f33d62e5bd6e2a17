//! `grade --submissions DIR --csv FILE -- PROGRAM {}/...`: a class in one command. Every
//! folder directly in DIR is a student; `{}` in the program's words becomes that folder.
//! Students are graded in parallel on the same cases, each row of the CSV is one student,
//! each JSON report goes to `--reports DIR`, and the class is written in the format asked
//! for (`class`). With `--build`, each student's program is built first, in their place.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;

use super::class::{self, Student};
use super::interrupt;
use super::report::Report;
use super::report::json::JsonReport;
use super::runner::{self, Limits, RunError};
use super::verdict::Verdict;
use super::{OUTPUT_CAP, Plan, Stopped, run_cases};
use crate::cli::GradeArgs;
use crate::escape;

/// One student's outcome.
struct Graded {
    name: String,
    report: Report,
}

/// Grades every student in `dir` on `plan` and writes the CSV, the reports, and the class
/// in the format asked for.
pub fn run(
    args: &GradeArgs,
    dir: &Path,
    plan: &Plan,
    jobs: usize,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let shown = escape::escape(dir.as_os_str().as_encoded_bytes());
    if let Some(csv) = &args.csv {
        class::check_csv(csv)?;
    }
    if let Some(reports) = &args.reports {
        std::fs::create_dir_all(reports).with_context(|| {
            format!(
                "could not create `{}`",
                escape::escape(reports.as_os_str().as_encoded_bytes())
            )
        })?;
    }
    if !args.program.iter().any(has_folder) {
        anyhow::bail!(
            "no `{{}}` in the program's words, expected it where each student's folder goes, as in `-- python3 {{}}/bloom.py`"
        );
    }
    let build = match &args.build {
        Some(command) => Some(build_words(command)?),
        None => None,
    };
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
    // Before any student: a system that refuses isolation is the grader's trouble.
    super::check_isolation(&plan.sandbox)?;
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
                    match student(args, build.as_deref(), folder, plan, stop) {
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
    let mut students = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for g in graded {
        let file = match &args.reports {
            Some(reports) => {
                let path = reports.join(format!("{}.json", unique(file_safe(&g.name), &mut taken)));
                let mut json = JsonReport::from_report(&g.report);
                json.student = Some(g.name.clone());
                let mut bytes = serde_json::to_vec_pretty(&json)?;
                bytes.push(b'\n');
                crate::atomic::write_atomically(&path, &bytes)
                    .with_context(|| format!("could not write `{}`", escape::path(&path)))?;
                Some(path)
            }
            None => None,
        };
        students.push(Student {
            name: g.name,
            report: g.report,
            file,
        });
    }
    if let Some(csv) = &args.csv {
        class::write_csv(csv, &students)?;
    }
    class::write(out, args.format(), &students, &[])?;
    let all_passed = students
        .iter()
        .all(|s| s.report.error.is_none() && s.report.failed() == 0);
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Whether a word has `{}`, the student's folder, in it.
fn has_folder(word: &OsString) -> bool {
    word.as_encoded_bytes().windows(2).any(|p| p == b"{}")
}

/// `--build`'s words: split at spaces (no shell). The compiler, when it is not in the
/// student's folder, is looked up now, so that a name wrong for everyone stops the class
/// before any student is failed for it.
fn build_words(command: &OsString) -> anyhow::Result<Vec<OsString>> {
    let words: Vec<OsString> = command
        .as_encoded_bytes()
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| crate::grade::os_from_bytes(w.to_vec()))
        .collect();
    let Some(first) = words.first() else {
        anyhow::bail!(
            "--build is empty, expected a command such as `--build 'cc -O2 -o {{}}/bloom {{}}/bloom.c'`"
        );
    };
    if !has_folder(first) {
        runner::resolve(std::slice::from_ref(first)).context("--build cannot run")?;
    }
    Ok(words)
}

/// `words` with each `{}` replaced by `folder`.
fn in_folder(words: &[OsString], folder: &Path) -> Vec<OsString> {
    words
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
        .collect()
}

/// Words as a person reads them, escaped and joined by spaces.
fn shown_words(words: &[OsString]) -> String {
    words
        .iter()
        .map(|w| escape::escape(w.as_encoded_bytes()))
        .collect::<Vec<_>>()
        .join(" ")
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

/// One student's report: `--build` first when given, then the program with `{}` as their
/// folder, on every case, one at a time (the class runs in parallel). A program that
/// cannot start, or a build that fails, is a report with status `error` that says why;
/// only a signal or the tutor's own failure stops the class.
fn student(
    args: &GradeArgs,
    build: Option<&[OsString]>,
    folder: &Path,
    plan: &Plan,
    stop: &interrupt::Stop,
) -> Result<Report, Stopped> {
    // The program runs in a folder of its own: it gets the student's folder as a full
    // path. Messages name it as the teacher gave it.
    let absolute = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    let words = in_folder(&args.program, &absolute);
    if let Some(build) = build
        && let Some(why) = build_one(
            &in_folder(build, &absolute),
            &in_folder(build, folder),
            plan,
            stop,
        )?
    {
        return Ok(not_run(plan, &words, why));
    }
    // A word made from the folder that names nothing: the submission is missing a file.
    let given = in_folder(&args.program, folder);
    for ((word, shown), template) in words.iter().zip(&given).zip(&args.program) {
        if has_folder(template) && !Path::new(word).exists() {
            let why = format!(
                "the submission has no `{}`",
                escape::escape(shown.as_encoded_bytes())
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

/// How many lines of a failed build's output its report keeps.
const BUILD_LINES: usize = 5;

/// Runs a student's build (`words`; `shown` is the same with their folder as the teacher
/// gave it) once, with the programs' limits and timeout and no input. `None` when it
/// ended well; else why not, with the first lines it printed.
fn build_one(
    words: &[OsString],
    shown: &[OsString],
    plan: &Plan,
    stop: &interrupt::Stop,
) -> Result<Option<String>, Stopped> {
    let what = format!("the build `{}`", shown_words(shown));
    let program = match runner::resolve(words) {
        Ok(program) => program,
        Err(err) => return Ok(Some(format!("{what} did not run: {err}"))),
    };
    let limits = Limits {
        timeout: Duration::from_secs_f64(plan.timeout),
        output_cap: OUTPUT_CAP,
    };
    let run = match super::run_one(&program, b"", limits, plan.sandbox, stop) {
        Ok(run) => run,
        Err(err @ RunError::Interrupted(_)) => return Err(Stopped::Run(err)),
        Err(err) => return Ok(Some(format!("{what} did not run: {err}"))),
    };
    let Some((_, why)) = super::verdict::stopped(&run, plan.timeout, OUTPUT_CAP) else {
        return Ok(None);
    };
    // Compilers tell of errors on stderr; some build tools on stdout.
    let (said, cut) = if run.stderr_tail.trim_ascii().is_empty() {
        (&run.stdout, false)
    } else {
        (
            &run.stderr_tail,
            run.stderr_tail.len() >= runner::STDERR_TAIL,
        )
    };
    let lines: Vec<&[u8]> = said
        .split(|&b| b == b'\n')
        .filter(|l| !l.trim_ascii().is_empty())
        .collect();
    let mut text = format!("{what} failed: {why}");
    if !lines.is_empty() {
        // Only the end of a long stderr is kept: its first lines are not the compiler's.
        let (which, shown): (&str, &[&[u8]]) = match cut {
            false => ("its first lines", &lines[..lines.len().min(BUILD_LINES)]),
            true => (
                "the last lines it printed",
                &lines[lines.len().saturating_sub(BUILD_LINES)..],
            ),
        };
        text += &format!("; {which}:");
        for line in shown {
            text += &format!("\n| {}", escape::escape_prefix_of(line, 200));
        }
    }
    Ok(Some(text))
}

/// The report of a student whose program could not run: status `error`, every case an
/// error (with the first line of why), so that the score is out of the class's maximum.
fn not_run(plan: &Plan, words: &[OsString], why: String) -> Report {
    let mut report = plan.report(words);
    let first = why.lines().next().unwrap_or_default().to_string();
    report.verdicts = plan
        .cases
        .iter()
        .zip(&plan.expected)
        .map(|(case, expected)| Verdict::error(case, expected.clone(), first.clone()))
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

#[cfg(test)]
mod tests {
    use super::*;

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
