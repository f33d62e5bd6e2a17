//! What a lesson question expects, and how a learner's typed answer is read and checked.

use std::collections::BTreeSet;

/// The shape of a right answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// One of these words, in any case (`NO`, `no`).
    Word(Vec<String>),
    /// A number, within a tolerance.
    Number { value: f64, tolerance: f64 },
    /// Bit positions in any order, separated by spaces or commas; a 64-character BITS line
    /// is read as the positions of its 1s.
    Positions(BTreeSet<u64>),
}

impl Expect {
    pub fn word(words: &[&str]) -> Expect {
        Expect::Word(words.iter().map(|w| w.to_ascii_lowercase()).collect())
    }

    pub fn number(value: f64) -> Expect {
        Expect::Number {
            value,
            tolerance: 0.0,
        }
    }

    pub fn about(value: f64, tolerance: f64) -> Expect {
        Expect::Number { value, tolerance }
    }

    pub fn positions(ps: impl IntoIterator<Item = u64>) -> Expect {
        Expect::Positions(ps.into_iter().collect())
    }

    /// Whether `typed` is this answer.
    pub fn accepts(&self, typed: &str) -> bool {
        let typed = typed.trim();
        match self {
            Expect::Word(words) => words.iter().any(|w| w.eq_ignore_ascii_case(typed)),
            Expect::Number { value, tolerance } => {
                parse_number(typed).is_some_and(|x| (x - value).abs() <= *tolerance + 1e-9)
            }
            Expect::Positions(want) => parse_positions(typed).is_some_and(|got| got == *want),
        }
    }

    /// The right answer, written out.
    pub fn show(&self) -> String {
        match self {
            Expect::Word(words) => words
                .first()
                .map(|w| w.to_ascii_uppercase())
                .unwrap_or_default(),
            Expect::Number { value, .. } => format_number(*value),
            Expect::Positions(ps) => ps.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
        }
    }
}

fn split(typed: &str) -> impl Iterator<Item = &str> {
    typed
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
}

fn parse_number(typed: &str) -> Option<f64> {
    let t = typed.trim().trim_end_matches('%');
    t.replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

fn parse_positions(typed: &str) -> Option<BTreeSet<u64>> {
    let t = typed.trim();
    if t.len() == 64 && t.bytes().all(|b| b == b'0' || b == b'1') {
        return Some(
            t.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'1')
                .map(|(i, _)| i as u64)
                .collect(),
        );
    }
    split(t).map(|s| s.parse::<u64>().ok()).collect()
}

/// A number without a trailing `.0`.
pub fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_case_insensitive() {
        assert!(Expect::word(&["NO"]).accepts(" no "));
        assert!(!Expect::word(&["NO"]).accepts("maybe"));
    }

    #[test]
    fn positions_in_any_order_or_as_a_bits_line() {
        let e = Expect::positions([45, 54]);
        assert!(e.accepts("54 45"));
        assert!(e.accepts("45, 54"));
        assert!(!e.accepts("45"));
        assert!(!e.accepts("45 54 1"));
        let line = "0000000000000000000000000000000000000000000001000000001000000000";
        assert!(e.accepts(line));
        assert!(!e.accepts("forty-five"));
    }

    #[test]
    fn numbers_allow_a_tolerance() {
        assert!(Expect::number(54.0).accepts("54"));
        assert!(!Expect::number(54.0).accepts("54.5"));
        assert!(Expect::about(9.59, 0.05).accepts("9.6"));
        assert!(Expect::number(9586.0).accepts("9,586"));
        assert_eq!(Expect::number(7.0).show(), "7");
    }
}
