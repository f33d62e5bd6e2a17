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

/// Writes an outcome as the REPL shows it.
pub(crate) fn show(outcome: &Outcome<'_>, style: Style, out: &mut impl Write) -> io::Result<()> {
    match outcome {
        Outcome::Bits { filter, last_add } => {
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
            if !set.is_empty() && set.len() <= 64 {
                let mut note = format!("bits set: {}", set.join(", "));
                if !last.is_empty() {
                    let last: Vec<String> = last.iter().map(u64::to_string).collect();
                    note += &format!(" (the last ADD set {})", last.join(", "));
                }
                writeln!(out, "{}", style.note(&note))?;
            }
        }
        Outcome::Added { .. } | Outcome::Checked { .. } | Outcome::Cleared { .. } => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bloom::Probe;
    use crate::engine::filter::Filter;

    fn shown(outcome: &Outcome<'_>, on: bool) -> String {
        let mut out = Vec::new();
        show(outcome, Style { on }, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bits_from_a_fixed_outcome() {
        let mut filter = Filter::new(16);
        for p in [1, 9] {
            filter.set(p);
        }
        let bits = Outcome::Bits {
            filter: &filter,
            last_add: Probe {
                positions: &[9, 1, 9],
                was_set: &[false, false, true],
            },
        };
        assert_eq!(
            shown(&bits, false),
            "0100000001000000\nbits set: 1, 9 (the last ADD set 9, 1, 9)\n"
        );
        let coloured = shown(&bits, true);
        assert!(coloured.contains("\x1b[1;32m1\x1b[0m"), "{coloured:?}");
    }

    #[test]
    fn a_check_shows_its_answer_then_a_note() {
        let memory = crate::engine::memory::Memory::default();
        let check = Outcome::Checked {
            key: b"plum",
            answer: crate::engine::bloom::Answer::No,
            probe: Probe {
                positions: &[62, 27],
                was_set: &[false, false],
            },
            recall: crate::script::session::Recall::of(&memory),
        };
        assert_eq!(
            shown(&check, false),
            "NO\nCHECK plum: positions 62, 27; bits 62, 27 are 0, so plum was never added and NO is certain\n"
        );
    }
}
