//! JUnit XML, which CI systems display: one `testsuite` for the run, one `testcase` per
//! case, a `failure` (wrong answers) or `error` (a run that could not finish) with the
//! message and, for a visible case, the difference; an `error` in the suite when nothing
//! could run. Every text is escaped for a person first (no control characters, which XML
//! 1.0 cannot hold even as references), then for XML.

use std::io::{self, Write};

use super::Report;
use super::exercism::{message, script_text};
use super::human::visible;
use crate::grade::verdict::{Status, first_difference};

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

pub fn write(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let failures = report
        .verdicts
        .iter()
        .filter(|v| v.status == Status::Fail)
        .count();
    let errors =
        report.verdicts.len() - report.passed() - failures + usize::from(report.error.is_some());
    let time: f64 = report.verdicts.iter().map(|v| v.seconds).sum();
    let name = format!("bloom-tutor grade: {}", report.spec);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{}" tests="{}" failures="{failures}" errors="{errors}" time="{time:.3}">"#,
        xml(&name),
        report.verdicts.len()
    )?;
    writeln!(
        out,
        r#"  <testsuite name="{}" tests="{}" failures="{failures}" errors="{errors}" skipped="0" time="{time:.3}">"#,
        xml(&name),
        report.verdicts.len()
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
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
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
    text += &format!("\n\nscript:\n{}", script_text(&v.script));
    text
}
