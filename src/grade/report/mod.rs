//! A grading run's report, and its formats: `human` (case by case as they finish), `json`
//! (for course tooling and `grade --class`), `exercism` (the test runner's results.json)
//! and `junit` (JUnit XML for CI). Everything a program printed goes through
//! `crate::escape` before it reaches any of them, and a hidden case's script and answers
//! reach none.

pub mod exercism;
pub mod human;
pub mod json;
pub mod junit;

use super::mistakes::Mistake;
use super::verdict::Verdict;
use crate::engine::scheme::FilterSpec;

/// Everything a report says about one grading run.
#[derive(Debug, Clone)]
pub struct Report {
    /// The program's words, as a person would read them.
    pub program: Vec<String>,
    pub spec: FilterSpec,
    /// The seed of the generated cases, if any.
    pub seed: Option<u64>,
    /// One per case, in the order the cases were given.
    pub verdicts: Vec<Verdict>,
    /// Why nothing could be graded, when nothing could.
    pub error: Option<String>,
}

/// How often one mistake was named across a run's failing cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub mistake: Mistake,
    /// Cases it explains on its own.
    pub alone: usize,
    /// Cases it explains together with another mistake.
    pub together: usize,
    /// The other mistakes it was named with.
    pub partners: Vec<Mistake>,
    /// Cases where it explains only part of what went wrong.
    pub partly: usize,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.verdicts.iter().filter(|v| v.passed()).count()
    }

    pub fn failed(&self) -> usize {
        self.verdicts.len() - self.passed()
    }

    /// Points for the cases passed.
    pub fn score(&self) -> u64 {
        self.verdicts
            .iter()
            .filter(|v| v.passed())
            .map(|v| u64::from(v.weight))
            .sum()
    }

    /// Points for passing every case.
    pub fn max_score(&self) -> u64 {
        self.verdicts.iter().map(|v| u64::from(v.weight)).sum()
    }

    /// Whether the program never gave a single answer: nothing could run, or every case
    /// ended (or was stopped) before its first output line, and none passed.
    pub fn never_ran(&self) -> bool {
        self.error.is_some()
            || (!self.verdicts.is_empty()
                && self
                    .verdicts
                    .iter()
                    .all(|v| !v.passed() && v.got.is_empty()))
    }

    /// `pass`, `fail`, or `error` when nothing could be graded.
    pub fn status(&self) -> &'static str {
        if self.error.is_some() {
            "error"
        } else if self.failed() == 0 {
            "pass"
        } else {
            "fail"
        }
    }

    /// Each mistake named in any case, most cases first (among equals, the order the cases
    /// first named them).
    pub fn tallies(&self) -> Vec<Tally> {
        let mut tallies: Vec<Tally> = Vec::new();
        for v in &self.verdicts {
            let named = v.mistakes();
            for &m in named {
                let at = match tallies.iter().position(|t| t.mistake == m) {
                    Some(at) => at,
                    None => {
                        tallies.push(Tally {
                            mistake: m,
                            alone: 0,
                            together: 0,
                            partners: Vec::new(),
                            partly: 0,
                        });
                        tallies.len() - 1
                    }
                };
                let t = &mut tallies[at];
                if !v.diagnosis.complete {
                    t.partly += 1;
                } else if named.len() == 1 {
                    t.alone += 1;
                } else {
                    t.together += 1;
                    for &other in named.iter().filter(|&&o| o != m) {
                        if !t.partners.contains(&other) {
                            t.partners.push(other);
                        }
                    }
                }
            }
        }
        // Stable: among equal counts, the order the cases first named them.
        tallies.sort_by_key(|t| std::cmp::Reverse(t.alone + t.together + t.partly));
        tallies
    }
}

/// A key, quoted so that spaces at its ends show, and escaped. A long key shows its start
/// and its end, so that both its ends stay visible.
pub fn quoted(key: &[u8]) -> String {
    // So that a script line with a long key fits in 80 columns in the report.
    const HEAD: usize = 28;
    const TAIL: usize = 12;
    let show = |b: &[u8]| crate::escape::escape(b).replace('"', "\\\"");
    if key.len() <= HEAD + TAIL + 8 {
        return format!("\"{}\"", show(key));
    }
    let continuation = |b: u8| b & 0xc0 == 0x80;
    let mut head = HEAD;
    while head > 0 && continuation(key[head]) {
        head -= 1;
    }
    let mut tail = key.len() - TAIL;
    while tail < key.len() && continuation(key[tail]) {
        tail += 1;
    }
    format!(
        "\"{}...{}\" ({} bytes)",
        show(&key[..head]),
        show(&key[tail..]),
        key.len()
    )
}

/// What every format that shows a script with [`shown_line`] says about it once.
pub const KEYS_NOTE: &str = "keys are shown in quotes and escaped (\\t is a tab, \\\\ a backslash, \\\" a quote); \
     the script itself has no quotes around them";

/// A script as reports show it: each line as [`shown_line`] shows it, one a line.
pub fn shown_script(script: &[u8]) -> String {
    let script = script.strip_suffix(b"\n").unwrap_or(script);
    if script.is_empty() {
        return String::new();
    }
    script
        .split(|&b| b == b'\n')
        .map(shown_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A script line as reports show it: the command word, then the key quoted.
pub fn shown_line(line: &[u8]) -> String {
    use crate::script::command::Command;
    let word = |l: &[u8]| {
        let end = l.iter().position(|&b| b == b' ').unwrap_or(l.len());
        crate::escape::escape(&l[..end])
    };
    match Command::parse(line) {
        Ok(Some(Command::Add(key) | Command::Check(key))) => {
            format!("{} {}", word(line), quoted(key))
        }
        _ => crate::escape::escape_prefix(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_quoted_so_spaces_show() {
        assert_eq!(quoted(b"fig "), "\"fig \"");
        assert_eq!(quoted(b"a\tb"), "\"a\\tb\"");
        assert_eq!(quoted(b"say \"hi\""), "\"say \\\"hi\\\"\"");
        let long = quoted(&[b'a'; 300]);
        assert!(long.ends_with("...aaaaaaaaaaaa\" (300 bytes)"), "{long}");
        let spaced = quoted(format!("{} ", "x".repeat(100)).as_bytes());
        assert!(
            spaced.ends_with("x \" (101 bytes)"),
            "the end shows: {spaced}"
        );
        assert_eq!(shown_line(b"CHECK pots "), "CHECK \"pots \"");
        assert_eq!(shown_line(b"BITS"), "BITS");
        assert_eq!(shown_line(b"ADD \x1b[2J"), "ADD \"\\u{1b}[2J\"");
    }
}
