//! The terminal's view of an outcome, for the REPL and the lessons: the answer, then a short
//! note in words, with colour when it is on and a highlight of the bits the last ADD touched.

use std::io::{self, Write};

use crate::render::commentary::Role;
use crate::render::{answers, commentary};
use crate::script::session::Outcome;

/// How the terminal view looks: colour, and a ruler over BITS.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    /// ANSI colour and highlights (a terminal, and `NO_COLOR` unset).
    pub(crate) on: bool,
    /// Rulers over BITS, so bit 22 is found without counting (a terminal, `width` columns
    /// wide); `None` keeps BITS one plain line, as a script has it.
    pub(crate) ruler: Option<usize>,
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
    /// This style with rulers for a window `width` columns wide.
    pub(crate) fn at_width(self, width: usize) -> Style {
        Style {
            ruler: Some(width),
            ..self
        }
    }
}

/// A terminal shows the first SHOWN_BITS bits; a script gets every bit.
const SHOWN_BITS: u64 = 4096;
/// A terminal shows the first SHOWN_COUNTS counters; a script gets every counter.
const SHOWN_COUNTS: u64 = 1024;

/// The two ruler lines over bits `from..to`: each multiple of ten's number where it starts,
/// then the last digit of every position.
fn ruler(from: usize, to: usize) -> [String; 2] {
    let mut tens = String::new();
    for i in from..to {
        if tens.len() > i - from {
            continue;
        }
        if i % 10 == 0 {
            tens.push_str(&i.to_string());
        } else {
            tens.push(' ');
        }
    }
    let units: String = (from..to)
        .map(|i| char::from(b'0' + (i % 10) as u8))
        .collect();
    [tens.trim_end().to_string(), units]
}

/// The counters in rows of whole tens that fit a window `width` columns wide, each under a
/// ruler as BITS has, so counter 22 is found without counting: every counter takes the
/// same width, right-aligned, as does its position's last digit above it, and each
/// multiple of ten's number starts over that digit.
fn counts_under_rulers(
    counters: &crate::engine::counters::Counters,
    width: usize,
    style: Style,
    out: &mut impl Write,
) -> io::Result<()> {
    let n = counters.len().min(SHOWN_COUNTS) as usize;
    let shown = &counters.counts()[..n];
    let digits = shown.iter().max().map_or(1, |&c| c.to_string().len());
    let cell = digits + 1;
    let row = (width / (cell * 10) * 10).max(10);
    for from in (0..n).step_by(row) {
        let to = (from + row).min(n);
        let mut tens = String::new();
        for i in (from..to).filter(|i| i % 10 == 0) {
            // Starting over its position's last digit, as in BITS, whatever the width: ten
            // cells of at least two columns leave room for the four digits of 1020.
            let at = (i - from) * cell + digits - 1;
            tens.push_str(&" ".repeat(at.saturating_sub(tens.len())));
            tens.push_str(&i.to_string());
        }
        let units: String = (from..to)
            .map(|i| format!("{:>digits$} ", i % 10))
            .collect();
        let values: String = shown[from..to]
            .iter()
            .map(|c| format!("{c:>digits$} "))
            .collect();
        writeln!(out, "{}", style.note(&tens))?;
        writeln!(out, "{}", style.note(units.trim_end()))?;
        writeln!(out, "{}", values.trim_end())?;
    }
    Ok(())
}

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
            // The highlight is what the note calls newly set: bits that were 0 before.
            let fresh: Vec<u64> = last_add
                .positions
                .iter()
                .zip(last_add.before)
                .filter(|&(_, &before)| before == 0)
                .map(|(&p, _)| p)
                .collect();
            let shown = |i: usize, b: u8| {
                let c = char::from(b).to_string();
                if style.on && fresh.contains(&(i as u64)) {
                    style.fresh(&c)
                } else {
                    c
                }
            };
            match style.ruler {
                Some(width) => {
                    // Rows of whole tens that fit the window, each under its own ruler.
                    let row = (width / 10 * 10).max(10);
                    for from in (0..bits.len()).step_by(row) {
                        let to = (from + row).min(bits.len());
                        for line in ruler(from, to) {
                            writeln!(out, "{}", style.note(&line))?;
                        }
                        let line: String = (from..to).map(|i| shown(i, bits[i])).collect();
                        writeln!(out, "{line}")?;
                    }
                }
                None => {
                    let line: String = bits.iter().enumerate().map(|(i, &b)| shown(i, b)).collect();
                    writeln!(out, "{line}")?;
                }
            }
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
                if !last_add.positions.is_empty() {
                    let fresh: Vec<String> = fresh.iter().map(u64::to_string).collect();
                    note += &if fresh.is_empty() {
                        " (the last ADD newly set no bit)".to_string()
                    } else {
                        format!(" (newly set by the last ADD: {})", fresh.join(", "))
                    };
                }
                writeln!(out, "{}", style.note(&note))?;
            }
        }
        Outcome::Counts { counters, last_add } => {
            match style.ruler {
                Some(width) => counts_under_rulers(counters, width, style, out)?,
                None => {
                    let mut line = Vec::new();
                    answers::write_first_counts(counters, SHOWN_COUNTS, &mut line)?;
                    out.write_all(&line)?;
                    writeln!(out)?;
                }
            }
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
        // Every other outcome is laid out by its role, which `commentary::role` gives for
        // each one by name.
        _ => match commentary::role(outcome) {
            Role::Note => {
                answers::write(outcome, out)?;
                for line in commentary::lines(outcome) {
                    writeln!(out, "{}", style.note(&line))?;
                }
            }
            Role::Text => {
                for line in commentary::lines(outcome) {
                    writeln!(out, "{line}")?;
                }
            }
            Role::None => {}
        },
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
        show(outcome, Style { on, ruler: None }, &mut out).unwrap();
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
                before: &[0, 0, 1],
            },
            counters: None,
        };
        assert_eq!(
            shown(&bits, false),
            "0100000001000000\nbits set: 1, 9 (newly set by the last ADD: 9, 1)\n"
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
                before: &[0, 0],
            },
            recall: crate::script::session::Recall::of(&memory),
            counting: None,
        };
        assert_eq!(
            shown(&check, false),
            "NO\nCHECK plum: positions 62, 27; bits 62 and 27 are 0, so plum was never added and NO is certain\n"
        );
    }

    #[test]
    fn counters_stand_under_a_ruler_in_rows_that_fit() {
        use crate::engine::counters::{CounterBits, Counters};
        let mut counters = Counters::new(25, CounterBits::new(4).unwrap());
        for _ in 0..12 {
            counters.increment(22);
        }
        counters.increment(3);
        let counts = Outcome::Counts {
            counters: &counters,
            last_add: Probe::default(),
        };
        let mut out = Vec::new();
        let style = Style {
            on: false,
            ruler: Some(40),
        };
        show(&counts, style, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Two columns a counter: rows of 10 fit in 40 columns, 20 would not.
        assert_eq!(lines[0], " 0");
        assert_eq!(lines[1], " 0  1  2  3  4  5  6  7  8  9");
        assert_eq!(lines[2], " 0  0  0  1  0  0  0  0  0  0");
        assert_eq!(lines[6], " 20");
        assert_eq!(lines[8], " 0  0 12  0  0");
        assert!(text.lines().all(|l| l.len() <= 40), "{text}");
        // One column a digit: each row starts with its number, even a wider one.
        let small = Counters::new(25, CounterBits::new(4).unwrap());
        let counts = Outcome::Counts {
            counters: &small,
            last_add: Probe::default(),
        };
        let mut out = Vec::new();
        show(&counts, style, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "0                   10");
        assert_eq!(lines[3], "20");
    }

    /// Each number on a COUNTS ruler starts over the last digit of the position it names,
    /// as in BITS, in every row, at every width, with counters of 1 to 3 digits.
    #[test]
    fn every_counts_label_starts_at_its_position() {
        use crate::engine::counters::{CounterBits, Counters};
        for (top, bits) in [(1, 1), (12, 4), (200, 8)] {
            let mut counters = Counters::new(1024, CounterBits::new(bits).unwrap());
            for _ in 0..top {
                counters.increment(7);
            }
            let digits = top.to_string().len();
            for width in 1..=160 {
                let mut out = Vec::new();
                let style = Style {
                    on: false,
                    ruler: Some(width),
                };
                counts_under_rulers(&counters, width, style, &mut out).unwrap();
                let text = String::from_utf8(out).unwrap();
                let lines: Vec<&str> = text.lines().collect();
                let mut from = 0;
                for row in lines.chunks(3) {
                    let (tens, units) = (row[0].as_bytes(), row[1].as_bytes());
                    // The column of each position's last digit in this row.
                    let columns: Vec<usize> =
                        (0..units.len()).filter(|&c| units[c] != b' ').collect();
                    let mut c = 0;
                    let mut labels = Vec::new();
                    while c < tens.len() {
                        if tens[c] == b' ' {
                            c += 1;
                            continue;
                        }
                        let end = (c..tens.len())
                            .find(|&e| tens[e] == b' ')
                            .unwrap_or(tens.len());
                        let label: usize = row[0][c..end].parse().unwrap();
                        let at = columns.iter().position(|&col| col == c);
                        assert_eq!(
                            at.map(|k| from + k),
                            Some(label),
                            "width {width}, {digits}-digit counters: `{label}` starts at column \
                             {c}, not over its position\n{}\n{}",
                            row[0],
                            row[1]
                        );
                        labels.push(label);
                        c = end;
                    }
                    let tens_here: Vec<usize> = (from..from + columns.len())
                        .filter(|i| i % 10 == 0)
                        .collect();
                    assert_eq!(
                        labels, tens_here,
                        "width {width}: a multiple of ten lost its number"
                    );
                    if width >= 10 * (digits + 1) {
                        assert!(
                            row.iter().all(|l| l.len() <= width),
                            "width {width}: a line is wider\n{}",
                            row.join("\n")
                        );
                    }
                    from += columns.len();
                }
                assert_eq!(from, 1024, "width {width}: every counter is shown");
            }
        }
    }

    #[test]
    fn rulers_number_every_tenth_bit() {
        let [tens, units] = ruler(0, 25);
        assert_eq!(tens, "0         10        20");
        assert_eq!(units, "0123456789012345678901234");
        let [tens, units] = ruler(90, 112);
        assert_eq!(tens, "90        100       110");
        assert_eq!(units.len(), 22);
    }
}
