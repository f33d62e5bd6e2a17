//! The lesson's common mistakes, as programs that make them would answer, so a failing
//! program's answers can be matched to the mistake behind them.

use serde::Serialize;

/// A mistake a learner's program can make, with a stable id for course tooling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(into = "&'static str")]
pub enum Mistake {
    AnyBit,
    H2FromZero,
    CharsNotBytes,
    BitsReversed,
    SplitEverySpace,
    PromptPrinted,
    NoFinalNewline,
    AnswerCase,
    ExtraWhitespace,
}

impl From<Mistake> for &'static str {
    fn from(m: Mistake) -> &'static str {
        m.id()
    }
}

impl Mistake {
    /// Mistakes recognised by answering the case as such a program would.
    pub const MODELLED: [Mistake; 5] = [
        Mistake::AnyBit,
        Mistake::H2FromZero,
        Mistake::CharsNotBytes,
        Mistake::BitsReversed,
        Mistake::SplitEverySpace,
    ];

    /// The stable id.
    pub fn id(self) -> &'static str {
        match self {
            Mistake::AnyBit => "any-bit",
            Mistake::H2FromZero => "h2-from-zero",
            Mistake::CharsNotBytes => "chars-not-bytes",
            Mistake::BitsReversed => "bits-reversed",
            Mistake::SplitEverySpace => "split-every-space",
            Mistake::PromptPrinted => "prompt-printed",
            Mistake::NoFinalNewline => "no-final-newline",
            Mistake::AnswerCase => "answer-case",
            Mistake::ExtraWhitespace => "extra-whitespace",
        }
    }

    /// A hint in the tutor's words: what the program seems to do, and what to look at.
    pub fn hint(self) -> &'static str {
        match self {
            Mistake::AnyBit => {
                "your CHECK answers MAYBE when only some of the key's bits are set. \
                 MAYBE needs every one of them to be 1; a single 0 bit means NO"
            }
            Mistake::H2FromZero => {
                "your h2 seems to weight the first byte by 0. The weights start at 1: \
                 for fig, h2 = 102*1 + 105*2 + 103*3 = 621, and 621 mod 64 = 45"
            }
            Mistake::CharsNotBytes => {
                "your hashes seem to add up characters, not bytes. In UTF-8, é is the two \
                 bytes 195 169 and both count: café is 5 bytes"
            }
            Mistake::BitsReversed => {
                "your BITS line is the right bits in reverse order. Print bit 0 first, \
                 on the left"
            }
            Mistake::SplitEverySpace => {
                "your program seems to cut the key at the next space. The key is everything \
                 after the first space: `ADD hello world` adds `hello world`"
            }
            Mistake::PromptPrinted => {
                "your program prints a prompt or label before its answers. Print only \
                 NO, MAYBE or the bits, one answer per line"
            }
            Mistake::NoFinalNewline => {
                "your last answer has no line ending. End every answer with a newline"
            }
            Mistake::ExtraWhitespace => {
                "your answers carry extra spaces, tabs or carriage returns. Print each answer \
                 with nothing before or after it but the newline"
            }
            Mistake::AnswerCase => {
                "your answers are spelled differently. Print exactly NO and MAYBE, in capitals"
            }
        }
    }
}

/// The answers a program with `mistake` gives to `script` (uppercase commands, LF).
pub fn answers_with(script: &str, mistakes: &[Mistake]) -> String {
    let has = |m: Mistake| mistakes.contains(&m);
    let mut bits = [false; 64];
    let mut out = String::new();
    let positions = |key: &str| -> [usize; 2] {
        let values: Vec<u64> = if has(Mistake::CharsNotBytes) {
            key.chars().map(|c| c as u64).collect()
        } else {
            key.bytes().map(u64::from).collect()
        };
        let first_weight = if has(Mistake::H2FromZero) { 0 } else { 1 };
        let h1: u64 = values.iter().sum();
        let h2: u64 = values.iter().zip(first_weight..).map(|(v, w)| v * w).sum();
        [(h1 % 64) as usize, (h2 % 64) as usize]
    };
    for line in script.lines() {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let key = if has(Mistake::SplitEverySpace) {
            rest.split(' ').find(|s| !s.is_empty()).unwrap_or("")
        } else {
            rest
        };
        match word {
            "ADD" => positions(key).iter().for_each(|&p| bits[p] = true),
            "CHECK" => {
                let ps = positions(key);
                let maybe = if has(Mistake::AnyBit) {
                    ps.iter().any(|&p| bits[p])
                } else {
                    ps.iter().all(|&p| bits[p])
                };
                out += if maybe { "MAYBE\n" } else { "NO\n" };
            }
            "BITS" => {
                let mut line: String = bits.iter().map(|&b| if b { '1' } else { '0' }).collect();
                if has(Mistake::BitsReversed) {
                    line = line.chars().rev().collect();
                }
                out += &line;
                out.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// The mistakes that explain `got` where `expected` was right: one of the lesson's, or two
/// of them together (a learner can make both), or one formatting slip. Empty if none does.
pub fn diagnose(script: &str, expected: &str, got: &str) -> Vec<Mistake> {
    if got == expected {
        return Vec::new();
    }
    let singles = Mistake::MODELLED.iter().map(|&m| vec![m]);
    let pairs = Mistake::MODELLED
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| Mistake::MODELLED[i + 1..].iter().map(move |&b| vec![a, b]));
    for set in singles.chain(pairs) {
        let theirs = answers_with(script, &set);
        if theirs != expected && theirs == got {
            return set;
        }
    }
    formatting_slip(expected, got).into_iter().collect()
}

/// A slip in how the answers are written rather than computed.
fn formatting_slip(expected: &str, got: &str) -> Option<Mistake> {
    if !expected.is_empty() && expected.strip_suffix('\n') == Some(got) {
        return Some(Mistake::NoFinalNewline);
    }
    if got.to_ascii_uppercase() == expected {
        return Some(Mistake::AnswerCase);
    }
    let trimmed: Vec<&str> = got
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if trimmed == expected.lines().collect::<Vec<_>>() {
        return Some(Mistake::ExtraWhitespace);
    }
    // A prompt: every expected line appears at the end of a line of output, after the same
    // prefix, and stripping that prefix leaves the right answers.
    let want: Vec<&str> = expected.lines().collect();
    let have: Vec<&str> = got.lines().filter(|l| !l.trim().is_empty()).collect();
    if !want.is_empty() && want.len() <= have.len() {
        let tail = &have[have.len() - want.len()..];
        let mut prefixes = tail.iter().zip(&want).map(|(h, w)| h.strip_suffix(w));
        if let Some(Some(first)) = prefixes.next()
            && !first.is_empty()
            && prefixes.all(|p| p == Some(first))
        {
            return Some(Mistake::PromptPrinted);
        }
        // Prompts printed for every line, answers after some of them.
        let stripped: Vec<&str> = have
            .iter()
            .map(|l| l.trim_start_matches(['>', ' ', ':']))
            .filter(|l| !l.is_empty())
            .collect();
        if stripped == want && have.iter().any(|l| l.starts_with('>')) {
            return Some(Mistake::PromptPrinted);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::cases;

    #[test]
    fn each_modelled_mistake_is_caught_by_some_case() {
        for m in Mistake::MODELLED {
            let caught = cases::all().iter().any(|c| {
                let right = crate::grade::expected_answers(&c.script);
                answers_with(&c.script, &[m]) != right
            });
            assert!(caught, "no case tells {} from a correct program", m.id());
        }
    }

    #[test]
    fn diagnoses_formatting_slips() {
        assert_eq!(diagnose("", "NO\n", "NO"), [Mistake::NoFinalNewline]);
        let answers = "NO\nMAYBE\n";
        assert_eq!(diagnose("", answers, "no\nmaybe\n"), [Mistake::AnswerCase]);
        assert_eq!(
            diagnose("", answers, "> NO\n> MAYBE\n"),
            [Mistake::PromptPrinted]
        );
        assert_eq!(
            diagnose("", answers, "NO \r\nMAYBE\t\n"),
            [Mistake::ExtraWhitespace]
        );
        assert!(diagnose("", "NO\n", "NO\n").is_empty());
        assert!(diagnose("", "NO\n", "YES\n").is_empty());
    }

    #[test]
    fn diagnoses_two_mistakes_together() {
        let script = "ADD fig\nBITS\nCHECK gif\n";
        let expected = crate::grade::expected_answers(script);
        let both = [Mistake::H2FromZero, Mistake::BitsReversed];
        let got = answers_with(script, &both);
        assert_eq!(diagnose(script, &expected, &got), both);
    }
}
