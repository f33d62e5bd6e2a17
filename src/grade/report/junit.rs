//! JUnit XML, which CI systems display: one `testsuite` for the run (for a class, one per
//! student), one `testcase` per case, a `failure` (wrong answers) or `error` (a run that could not finish) with the
//! message and, for a visible case, the difference; an `error` in the suite when nothing
//! could run. Every text is escaped for a person first (no control characters, which XML
//! 1.0 cannot hold even as references), then for XML.

use std::io::{self, Write};

use super::exercism::message;
use super::human::visible;
use super::{KEYS_NOTE, Report, shown_script};
use crate::grade::verdict::{Status, first_difference};
use crate::render::words::count;

/// `text` made safe for an XML attribute or element.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Not allowed in XML 1.0 at all; the escaper lets them through as printable.
            '\u{fffe}' | '\u{ffff}' => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c if c.is_control() && !matches!(c, '\n' | '\t') => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// How a run's cases ended, in JUnit's terms.
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    time: f64,
}

impl Counts {
    fn of(report: &Report) -> Counts {
        let failures = report
            .verdicts
            .iter()
            .filter(|v| v.status == Status::Fail)
            .count();
        Counts {
            tests: report.verdicts.len(),
            failures,
            errors: report.verdicts.len() - report.passed() - failures
                + usize::from(report.error.is_some()),
            time: report.verdicts.iter().map(|v| v.seconds).sum(),
        }
    }

    /// The attributes `tests`, `failures`, `errors` (and with `skipped`, `skipped="0"`)
    /// and `time`.
    fn attributes(&self, skipped: bool) -> String {
        let skipped = if skipped { r#" skipped="0""# } else { "" };
        format!(
            r#"tests="{}" failures="{}" errors="{}"{skipped} time="{:.3}""#,
            self.tests, self.failures, self.errors, self.time
        )
    }
}

/// One grading run's report: a `testsuites` holding its one `testsuite`.
pub fn write(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let name = format!("bloom-tutor grade: {}", report.spec);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{}" {}>"#,
        xml(&name),
        Counts::of(report).attributes(false)
    )?;
    write_suite(out, &name, report)?;
    writeln!(out, "</testsuites>")
}

/// A class: one `testsuites`, with a `testsuite` named after each student holding their
/// cases, as [`write`] writes one run's.
pub fn write_class(out: &mut impl Write, students: &[(&str, &Report)]) -> io::Result<()> {
    let mut all = Counts {
        tests: 0,
        failures: 0,
        errors: 0,
        time: 0.0,
    };
    for (_, report) in students {
        let one = Counts::of(report);
        all.tests += one.tests;
        all.failures += one.failures;
        all.errors += one.errors;
        all.time += one.time;
    }
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="bloom-tutor grade: a class of {}" {}>"#,
        count(students.len(), "student", "students"),
        all.attributes(false)
    )?;
    for (name, report) in students {
        write_suite(out, &crate::escape::escape(name.as_bytes()), report)?;
    }
    writeln!(out, "</testsuites>")
}

/// One `testsuite` called `name`: the run's properties, an `error` when nothing could
/// run, and a `testcase` per case.
fn write_suite(out: &mut impl Write, name: &str, report: &Report) -> io::Result<()> {
    writeln!(
        out,
        r#"  <testsuite name="{}" {}>"#,
        xml(name),
        Counts::of(report).attributes(true)
    )?;
    writeln!(out, "    <properties>")?;
    let score = format!("{} of {}", report.score(), report.max_score());
    for (key, value) in [
        ("program", report.program.join(" ")),
        ("score", score),
        (
            "seed",
            report.seed.map(|s| s.to_string()).unwrap_or_default(),
        ),
    ] {
        writeln!(
            out,
            r#"      <property name="{key}" value="{}"/>"#,
            xml(&crate::escape::escape(value.as_bytes()))
        )?;
    }
    writeln!(out, "    </properties>")?;
    if let Some(error) = &report.error {
        writeln!(
            out,
            r#"    <error message="{}" type="not-run"/>"#,
            xml(&crate::escape::escape(error.as_bytes()))
        )?;
    }
    let classname = format!("bloom-tutor.{}", report.spec.scheme());
    for v in &report.verdicts {
        write!(
            out,
            r#"    <testcase name="{}" classname="{}" time="{:.3}""#,
            xml(&v.name),
            xml(&classname),
            v.seconds
        )?;
        if v.passed() {
            writeln!(out, "/>")?;
            continue;
        }
        writeln!(out, ">")?;
        let element = if v.status == Status::Fail {
            "failure"
        } else {
            "error"
        };
        let kind = v.mistakes().first().map_or(v.status.name(), |m| m.id());
        let msg = message(v, report.spec);
        let first = msg.lines().next().unwrap_or("");
        writeln!(
            out,
            r#"      <{element} message="{}" type="{}">{}</{element}>"#,
            xml(first),
            xml(kind),
            xml(&body(v, &msg))
        )?;
        writeln!(out, "    </testcase>")?;
    }
    writeln!(out, "  </testsuite>")
}

/// The failure's text: the message, and for a visible case the script and both answers.
fn body(v: &crate::grade::verdict::Verdict, msg: &str) -> String {
    let mut text = msg.to_string();
    if v.hidden {
        return text;
    }
    if let Some(d) = first_difference(&v.expected, &v.got) {
        text += &format!(
            "\n\nline {}:\n- expected {}\n+ got      {}",
            d.line + 1,
            visible(d.expected),
            visible(d.got)
        );
    }
    let script = shown_script(&v.script);
    if !script.is_empty() {
        text += &format!("\n\nscript ({KEYS_NOTE}):\n{script}");
    }
    text
}
