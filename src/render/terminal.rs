//! The terminal's view of an outcome, for the REPL and the lessons: the answer, then a short
//! note in words, with colour when it is on and a highlight of the bits the last ADD touched.

use std::io::{self, Write};

use crate::render::{answers, commentary};
use crate::script::session::Outcome;

/// ANSI styles, or nothing when colour is off.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    pub(crate) on: bool,
}

impl Style {
    fn paint(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    /// Dim, for notes and hints.
    pub(crate) fn note(self, text: &str) -> String {
        self.paint("2", text)
    }
    /// Bold green, for bits just set.
    pub(crate) fn fresh(self, text: &str) -> String {
        self.paint("1;32", text)
    }
    /// Bold red, for `error:`.
    pub(crate) fn error(self, text: &str) -> String {
        self.paint("1;31", text)
    }
}

/// A terminal shows the first SHOWN_BITS bits; a script gets every bit.
const SHOWN_BITS: u64 = 4096;
/// A terminal shows the first SHOWN_COUNTS counters; a script gets every counter.
const SHOWN_COUNTS: u64 = 1024;

/// Writes an outcome as the REPL shows it.
pub(crate) fn show(outcome: &Outcome<'_>, style: Style, out: &mut impl Write) -> io::Result<()> {
    match outcome {
        Outcome::Bits {
            filter,
            last_add,
            counters,
        } => {
            let mut bits = Vec::new();
            answers::write_first_bits(filter, SHOWN_BITS, &mut bits)?;
            let last = last_add.positions;
            let line: String = bits
                .iter()
                .enumerate()
                .map(|(i, &b)| {
                    let c = (b as char).to_string();
                    if style.on && last.contains(&(i as u64)) {
                        style.fresh(&c)
                    } else {
                        c
                    }
                })
                .collect();
            writeln!(out, "{line}")?;
            let m = filter.len();
            if m > SHOWN_BITS {
                let note = format!(
                    "(the first {SHOWN_BITS} of {m} bits; {} are set in all; run a script to print every bit)",
                    filter.count_ones()
                );
                writeln!(out, "{}", style.note(&note))?;
            }
            let set: Vec<String> = bits
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'1')
                .map(|(i, _)| i.to_string())
                .collect();
            if let (Some(c), false, true) = (counters, set.is_empty(), set.len() <= 64) {
                // In a counting filter the bits say only which counters are above 0.
                let counts: Vec<String> = (0..filter.len().min(SHOWN_BITS))
                    .filter(|&p| c.get(p) > 0)
                    .map(|p| format!("{p} ({})", c.get(p)))
                    .collect();
                writeln!(
                    out,
                    "{}",
                    style.note(&format!("counters above 0: {}", counts.join(", ")))
                )?;
            } else if !set.is_empty() && set.len() <= 64 {
                let mut note = format!("bits set: {}", set.join(", "));
                if !last.is_empty() {
                    let last: Vec<String> = last.iter().map(u64::to_string).collect();
                    note += &format!(" (the last ADD set {})", last.join(", "));
                }
                writeln!(out, "{}", style.note(&note))?;
            }
        }
        Outcome::Counts { counters, last_add } => {
            let mut line = Vec::new();
            answers::write_first_counts(counters, SHOWN_COUNTS, &mut line)?;
            out.write_all(&line)?;
            writeln!(out)?;
            let m = counters.len();
            let mut notes = Vec::new();
            if m > SHOWN_COUNTS {
                notes.push(format!(
                    "(the first {SHOWN_COUNTS} of {m} counters; run a script to print them all)"
                ));
            }
            let full = counters.saturated();
            if full > 0 {
                notes.push(format!(
                    "{full} saturated at {}: they can never come down again",
                    counters.width().max()
                ));
            }
            if !last_add.positions.is_empty() {
                let last: Vec<String> = last_add.positions.iter().map(u64::to_string).collect();
                notes.push(format!("the last ADD counted at {}", last.join(", ")));
            }
            for note in notes {
                writeln!(out, "{}", style.note(&note))?;
            }
        }
        Outcome::Added { .. }
        | Outcome::Checked { .. }
        | Outcome::Cleared { .. }
        | Outcome::Removed(_)
        | Outcome::Saved { .. }
        | Outcome::Loaded { .. }
        | Outcome::Merged { .. } => {
            answers::write(outcome, out)?;
            for line in commentary::lines(outcome) {
                writeln!(out, "{}", style.note(&line))?;
            }
        }
        Outcome::Explained(_) | Outcome::Stats(_) | Outcome::Help(_) => {
            for line in commentary::lines(outcome) {
                writeln!(out, "{line}")?;
            }
        }
        Outcome::Quit => {}
    }
    Ok(())
}
