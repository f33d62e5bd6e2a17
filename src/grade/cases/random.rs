//! Generated cases nobody can memorise: mixed ADD, CHECK and BITS on keys of every kind the
//! exercise's rules allow, each named `random-SEED-N` so that its name reproduces it.
//!
//! Keys are valid UTF-8 without control characters other than a tab: a key may hold any
//! byte but a newline, but a learner's program that reads text lines (as Python's
//! `for line in sys.stdin` does) would split a key with a CR in it, and that is not the
//! mistake being graded.

use super::Case;

/// How generated cases are named: `random-SEED-N`, N from 1.
pub fn name(seed: u64, index: u32) -> String {
    format!("random-{seed}-{index}")
}

/// The seed and index in a generated case's name.
pub fn parse_name(name: &str) -> Option<(u64, u32)> {
    let rest = name.strip_prefix("random-")?;
    let (seed, index) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(seed) || !digits(index) {
        return None;
    }
    Some((seed.parse().ok()?, index.parse().ok()?))
}

/// A seed for a run that was given none: different from run to run.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // Small enough to type, and to read back in a report.
    Rng::new(nanos ^ u64::from(std::process::id())).below(1_000_000)
}

/// The cases `random-SEED-1` to `random-SEED-N`.
pub fn cases(seed: u64, count: u32) -> Vec<Case> {
    (1..=count).map(|i| case(seed, i)).collect()
}

/// The generated case `random-SEED-INDEX`: the same bytes for the same seed and index.
pub fn case(seed: u64, index: u32) -> Case {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(index));
    let commands = 12 + rng.below(30) as usize;
    let mut added: Vec<String> = Vec::new();
    let mut script = Vec::new();
    let mut bits_lines = 0;
    for i in 0..commands {
        let roll = rng.below(100);
        // A BITS in the middle and one at the end, and CHECKs once something was added.
        let line = if roll < 12 || i + 1 == commands && bits_lines == 0 {
            bits_lines += 1;
            "BITS".to_string()
        } else if roll < 55 || added.is_empty() {
            let key = key(&mut rng, &added);
            added.push(key.clone());
            format!("ADD {key}")
        } else {
            let key = if rng.below(3) == 0 {
                // A key that was added: a true MAYBE.
                added[rng.below(added.len() as u64) as usize].clone()
            } else {
                key(&mut rng, &added)
            };
            format!("CHECK {key}")
        };
        script.extend_from_slice(line.as_bytes());
        script.push(b'\n');
    }
    Case::new(
        &name(seed, index),
        &format!("{commands} commands generated from seed {seed}, on keys of every kind"),
        script,
    )
}

const WORDS: [&str; 24] = [
    "fig", "lime", "date", "plum", "sun", "cat", "dog", "bird", "sheep", "fox", "kiwi", "stop",
    "pots", "tops", "hello", "world", "elephant", "giraffe", "a", "zz", "moon", "river", "x",
    "café",
];

const UNICODE: [&str; 12] = [
    "é", "ß", "ñ", "ü", "ø", "漢", "字", "🦀", "ж", "λ", "\u{00a0}", "e\u{301}",
];

/// One key of a kind chosen at random; `added` gives near-keys and anagrams something to
/// be near.
fn key(rng: &mut Rng, added: &[String]) -> String {
    let word = |rng: &mut Rng| WORDS[rng.below(WORDS.len() as u64) as usize].to_string();
    let key = match rng.below(11) {
        0 | 1 => word(rng),
        2 => format!("{}{}", word(rng), rng.below(1000)),
        // Two or three words: the key is everything after the first space.
        3 => format!("{} {}", word(rng), word(rng)),
        // Leading and trailing spaces and tabs belong to the key.
        4 => format!(" {}", word(rng)),
        5 => match rng.below(3) {
            0 => format!("{} ", word(rng)),
            1 => format!("{}\t", word(rng)),
            _ => format!("{}  ", word(rng)),
        },
        6 => {
            let mut s = word(rng);
            for _ in 0..1 + rng.below(3) {
                s.push_str(UNICODE[rng.below(UNICODE.len() as u64) as usize]);
            }
            s
        }
        7 => {
            // A long key: hundreds of bytes, sometimes ending in a space.
            let piece = word(rng) + " ";
            let mut s = piece.repeat(20 + rng.below(60) as usize);
            if rng.below(2) == 0 {
                s.pop();
            }
            s
        }
        8 => {
            let punct = ["#", "!", "-", "_", "~", "%", "'", "\"", "\\", "$"];
            format!(
                "{}{}{}",
                punct[rng.below(punct.len() as u64) as usize],
                word(rng),
                rng.below(100)
            )
        }
        // Near an added key: an anagram, or one letter more.
        9 | 10 if !added.is_empty() => {
            let base = &added[rng.below(added.len() as u64) as usize];
            let mut chars: Vec<char> = base.chars().collect();
            if rng.below(2) == 0 && chars.len() > 1 {
                let (i, j) = (
                    rng.below(chars.len() as u64) as usize,
                    rng.below(chars.len() as u64) as usize,
                );
                chars.swap(i, j);
            } else {
                chars.push(char::from(b'a' + rng.below(26) as u8));
            }
            chars.into_iter().collect()
        }
        _ => word(rng),
    };
    // A key must not be empty or only spaces, and its last byte must not be a CR.
    if key.trim().is_empty() {
        "empty".to_string()
    } else {
        key
    }
}

/// splitmix64: small, fast and the same everywhere, so a seed means the same cases on
/// every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::command::Command;

    #[test]
    fn a_case_is_reproduced_from_its_name() {
        let a = case(42, 3);
        let (seed, index) = parse_name(&a.name).expect("a generated name");
        assert_eq!((seed, index), (42, 3));
        assert_eq!(case(seed, index), a, "the same seed gives the same case");
        assert_ne!(case(43, 3).script, a.script, "another seed, another case");
        assert_ne!(case(42, 4).script, a.script, "another index, another case");
    }

    #[test]
    fn names_that_are_not_generated_are_refused() {
        for name in [
            "random-",
            "random-1",
            "random-x-1",
            "random-1-",
            "exercise-example",
        ] {
            assert_eq!(parse_name(name), None, "{name}");
        }
    }

    #[test]
    fn every_line_is_a_valid_command_with_a_text_key() {
        for seed in 0..50 {
            for c in cases(seed, 5) {
                let text = std::str::from_utf8(&c.script).expect("UTF-8");
                assert!(text.ends_with('\n'), "{}", c.name);
                for line in text.lines() {
                    assert!(!line.contains(['\r', '\0']), "{}: {line:?}", c.name);
                    let parsed = Command::parse(line.as_bytes());
                    assert!(
                        matches!(
                            parsed,
                            Ok(Some(Command::Add(_) | Command::Check(_) | Command::Bits))
                        ),
                        "{}: {line:?} is {parsed:?}",
                        c.name
                    );
                }
                assert!(text.contains("BITS\n"), "{}: no BITS", c.name);
            }
        }
    }
}
