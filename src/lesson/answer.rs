//! What a lesson question expects, and how a learner's typed answer is read and checked.

use std::collections::BTreeSet;

use crate::engine::bloom::{Answer, Bloom};
use crate::engine::scheme::FilterSpec;
use crate::render::words::listed;
use crate::units::and_list;

/// The shape of a right answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// One of these words, in any case (`NO`, `no`).
    Word(Vec<String>),
    /// A number, within a tolerance.
    Number { value: f64, tolerance: f64 },
    /// A whole number rounded up: `value` from exact arithmetic, or as low as `lowest`
    /// from the rounded constants a lesson gives; never a number below what is needed.
    RoundedUp { value: f64, lowest: f64 },
    /// Bit positions in any order, separated by spaces or commas; a BITS line (eight or
    /// more 0s and 1s) is read as the positions of its 1s.
    Positions(BTreeSet<u64>),
    /// A key of the learner's own that is a false positive on a filter.
    FalsePositive(Box<FalsePositive>),
}

/// A filter with some keys added, on which the learner finds a key never added that CHECK
/// answers MAYBE.
#[derive(Debug, Clone, PartialEq)]
pub struct FalsePositive {
    pub spec: FilterSpec,
    /// The keys in the filter.
    pub added: Vec<String>,
    /// False positives the learner has already been shown: they do not count.
    pub seen: Vec<String>,
    /// One the tutor found itself, shown when the learner gives up.
    pub example: String,
}

impl FalsePositive {
    fn bloom(&self) -> Bloom {
        let mut bloom = Bloom::new(self.spec);
        for key in &self.added {
            bloom.add(key.as_bytes());
        }
        bloom
    }

    fn accepts(&self, key: &str) -> bool {
        !key.is_empty()
            && !self.added.iter().any(|k| k == key)
            && !self.seen.iter().any(|k| k == key)
            && self.bloom().check(key.as_bytes()) == Answer::Maybe
    }

    /// Why `key` is not a new false positive, from the filter itself.
    fn why_not(&self, key: &str) -> String {
        if self.added.iter().any(|k| k == key) {
            return format!(
                "{key} was added, so its MAYBE is right: a false positive is a key never added."
            );
        }
        if self.seen.iter().any(|k| k == key) {
            return format!("{key} is the one you have seen already; find one of your own.");
        }
        let mut positions = Vec::new();
        self.spec.positions(key.as_bytes(), &mut positions);
        let bloom = self.bloom();
        let zeros: Vec<u64> = positions
            .iter()
            .copied()
            .filter(|&p| bloom.bit(p) == Some(false))
            .collect();
        let zero_text = match zeros.as_slice() {
            [one] => format!("bit {one} is 0"),
            many => format!("bits {} are 0", and_list(many)),
        };
        format!(
            "{key} hashes to positions {}, and {zero_text}, so CHECK {key} answers NO. Try \
             another key.",
            and_list(&positions)
        )
    }
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

    /// `exact` rounded up, where the lesson's rounded constants give `rounded` (also
    /// rounded up here): any whole number from the lower to the higher of the two.
    pub fn rounded_up(exact: f64, rounded: f64) -> Expect {
        let (a, b) = (exact.ceil(), rounded.ceil());
        Expect::RoundedUp {
            value: a.max(b),
            lowest: a.min(b),
        }
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
            Expect::RoundedUp { value, lowest } => parse_number(typed)
                .is_some_and(|x| x.fract() == 0.0 && (*lowest..=*value).contains(&x)),
            Expect::Positions(want) => parse_positions(typed).is_some_and(|got| got == *want),
            Expect::FalsePositive(fp) => fp.accepts(typed),
        }
    }

    /// What to say about a wrong answer that the shape of the answer explains: which
    /// positions are missing or extra, a number that is close, why a key is no false
    /// positive. `None` when there is nothing better than a general hint.
    pub fn feedback(&self, typed: &str) -> Option<String> {
        let typed = typed.trim();
        match self {
            Expect::Word(_) => None,
            Expect::Number { value, tolerance } => {
                let x = parse_number(typed)?;
                let near = (value.abs() * 0.1).max(*tolerance * 4.0).max(0.5);
                ((x - value).abs() <= near).then(|| {
                    if *tolerance == 0.0 && value.fract() == 0.0 {
                        // A whole number with nothing to round: a slip in the arithmetic.
                        "Close, but not quite: check each step of the arithmetic, or type hint."
                            .to_string()
                    } else {
                        "Close, but not quite. Work with the numbers as given and round only \
                         at the end."
                            .to_string()
                    }
                })
            }
            Expect::RoundedUp { value, lowest } => {
                let x = parse_number(typed)?;
                if (x - value).abs() > (value.abs() * 0.1).max(1.0) {
                    None
                } else if x.fract() != 0.0 {
                    Some("Not quite: round up to a whole number.".to_string())
                } else if x < *lowest {
                    Some(
                        "Not quite: that is rounded down, and a filter that size misses the \
                         rate. Round up: the next whole number above the result."
                            .to_string(),
                    )
                } else {
                    Some(
                        "Close, but not quite. Work with the numbers as given and round up \
                         only at the end."
                            .to_string(),
                    )
                }
            }
            Expect::Positions(want) => {
                // The learner's own numbers are named; the ones still to find are only
                // counted, so the feedback points at the method, not at the answer.
                let got = parse_positions(typed)?;
                let right: Vec<u64> = got.intersection(want).copied().collect();
                let extra: Vec<u64> = got.difference(want).copied().collect();
                let missing = want.len() - right.len();
                let mut parts = Vec::new();
                if !right.is_empty() {
                    parts.push(format!("{} right", listed(&right)));
                }
                if !extra.is_empty() {
                    parts.push(format!("{} not one of them", listed(&extra)));
                }
                match missing {
                    0 => {}
                    1 => parts.push("1 position is still to find".to_string()),
                    n => parts.push(format!("{n} positions are still to find")),
                }
                Some(format!("Not quite: {}.", and_list(&parts)))
            }
            Expect::FalsePositive(fp) => Some(format!("Not quite. {}", fp.why_not(typed))),
        }
    }

    /// A note when `typed` was accepted but is not exactly the answer (a rounded number).
    pub fn exact_note(&self, typed: &str) -> Option<String> {
        match self {
            Expect::Number { value, .. } => {
                let x = parse_number(typed.trim())?;
                (x != *value).then(|| format!("The exact value is {}.", format_number(*value)))
            }
            Expect::RoundedUp { value, .. } => {
                let x = parse_number(typed.trim())?;
                (x != *value).then(|| {
                    format!(
                        "With ln(p) and ln(2)^2 to more decimals it is {}.",
                        format_number(*value)
                    )
                })
            }
            Expect::Word(_) | Expect::Positions(_) | Expect::FalsePositive(_) => None,
        }
    }

    /// The right answer, written out.
    pub fn show(&self) -> String {
        match self {
            Expect::Word(words) => words
                .first()
                .map(|w| w.to_ascii_uppercase())
                .unwrap_or_default(),
            Expect::Number { value, .. } | Expect::RoundedUp { value, .. } => format_number(*value),
            Expect::Positions(ps) => ps.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            Expect::FalsePositive(fp) => fp.example.clone(),
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
    // A BITS line: eight or more 0s and 1s (no position list is written that way).
    if t.len() >= 8 && t.bytes().all(|b| b == b'0' || b == b'1') {
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

/// A number as a person writes it: whole numbers without `.0`, others with at most two
/// decimals (`85.04`, `19.7`).
pub fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let shown = format!("{x:.2}");
        shown
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_up_takes_whole_numbers_from_the_rounded_to_the_exact_value_only() {
        // 6 keys at 1%: 57.50 with the lesson's constants, 57.51 exactly: both round up to 58.
        let six = Expect::rounded_up(57.51, 57.502);
        assert!(six.accepts("58"));
        for wrong in ["57", "57.5", "59"] {
            assert!(!six.accepts(wrong), "{wrong}");
        }
        assert!(six.feedback("57").unwrap().contains("rounded down"));
        assert!(six.feedback("57.5").unwrap().contains("whole number"));
        assert_eq!(six.show(), "58");
        let thousand = Expect::rounded_up(9585.06, 9583.77);
        assert!(thousand.accepts("9584") && thousand.accepts("9585") && thousand.accepts("9586"));
        assert!(thousand.exact_note("9584").unwrap().contains("9586"));
        assert_eq!(thousand.exact_note("9586"), None);
    }

    #[test]
    fn a_near_miss_on_a_whole_number_is_about_arithmetic_not_rounding() {
        let h2 = Expect::number(45.0);
        let said = h2.feedback("44").unwrap();
        assert!(
            said.contains("check each step") && !said.contains("round"),
            "{said}"
        );
        let rate = Expect::about(7.8, 0.11);
        assert!(
            rate.feedback("7.4")
                .unwrap()
                .contains("round only at the end")
        );
    }

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
    fn positions_say_what_is_missing_and_extra() {
        let e = Expect::positions([22, 25, 30]);
        assert_eq!(
            e.feedback("22 25").as_deref(),
            Some("Not quite: 22 and 25 are right and 1 position is still to find.")
        );
        assert_eq!(
            e.feedback("22 25 31 40").as_deref(),
            Some(
                "Not quite: 22 and 25 are right, 31 and 40 are not one of them and 1 \
                 position is still to find."
            )
        );
        assert_eq!(
            e.feedback("7").as_deref(),
            Some("Not quite: 7 is not one of them and 3 positions are still to find.")
        );
        assert_eq!(e.feedback("many"), None);
    }

    #[test]
    fn a_close_number_is_called_close_and_a_rounded_one_gets_the_exact() {
        let e = Expect::about(30.8, 0.25);
        assert!(e.feedback("30").is_some_and(|f| f.starts_with("Close")));
        assert_eq!(e.feedback("3"), None);
        let e = Expect::about(9586.0, 2.0);
        assert_eq!(
            e.exact_note("9584").as_deref(),
            Some("The exact value is 9586.")
        );
        assert_eq!(e.exact_note("9586"), None);
    }

    #[test]
    fn a_false_positive_is_checked_on_the_filter() {
        let e = Expect::FalsePositive(Box::new(FalsePositive {
            spec: FilterSpec::lesson(),
            added: vec!["fig".into(), "lime".into(), "date".into()],
            seen: vec!["sun".into()],
            example: "miel".into(),
        }));
        assert!(e.accepts("miel"), "miel: positions 39 and 30, both set");
        assert!(!e.accepts("sun"), "sun was shown already");
        assert!(!e.accepts("fig"), "fig was added");
        assert!(!e.accepts("plum"));
        assert_eq!(
            e.feedback("plum").as_deref(),
            Some(
                "Not quite. plum hashes to positions 62 and 27, and bits 62 and 27 are 0, so \
                 CHECK plum answers NO. Try another key."
            )
        );
        assert!(
            e.feedback("fig")
                .is_some_and(|f| f.contains("fig was added"))
        );
    }

    #[test]
    fn numbers_allow_a_tolerance() {
        assert!(Expect::number(54.0).accepts("54"));
        assert!(!Expect::number(54.0).accepts("54.5"));
        assert!(Expect::about(9.59, 0.05).accepts("9.6"));
        assert!(Expect::number(9586.0).accepts("9,586"));
        assert_eq!(Expect::number(7.0).show(), "7");
        assert_eq!(Expect::about(85.043138, 1.5).show(), "85.04");
        assert_eq!(Expect::about(19.7, 0.1).show(), "19.7");
    }
}
