//! A learner's program with given mistakes, as a model: it answers a script as such a
//! program would, so that its answers can be compared with a real program's.
//!
//! Lines are read with the tutor's own parser, so that everything but the mistakes is
//! done as the tutor does it; the hashes are the engine's own functions where the mistake
//! does not change them.

use std::collections::HashSet;

use super::Mistake;
use crate::engine::scheme::{self, FilterSpec, Scheme};
use crate::script::command::Command;

/// The answers a program with `mistakes` gives to `script` on a filter of shape `spec`:
/// the computing mistakes change what it answers; formatting mistakes are ignored here.
///
/// With no-mod (h2 not taken mod m) the program stops at the first position past the last
/// bit that it reads or sets, as Python's IndexError or Rust's panic stops it: the answers
/// are those it wrote before.
pub fn answers_with(spec: FilterSpec, script: &[u8], mistakes: &[Mistake]) -> Vec<u8> {
    let learner = Learner { spec, mistakes };
    let m = usize::try_from(spec.bits()).unwrap_or(usize::MAX);
    let mut bits = vec![false; m];
    // Negative positions, kept apart as a program indexing past the array's start would.
    let mut below = HashSet::new();
    let mut out = Vec::new();
    let mut positions = Vec::new();
    for line in learner.lines(script) {
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let Ok(Some(command)) = Command::parse(line) else {
            continue;
        };
        match command {
            // An unfilled starter: ADD computes nothing and sets nothing.
            Command::Add(_) if learner.has(Mistake::NoBitsSet) => {}
            Command::Add(key) => {
                learner.positions(learner.key(key), &mut positions);
                for &p in &positions {
                    match usize::try_from(p) {
                        Ok(i) if i < m => bits[i] = true,
                        // Past the last bit (no-mod): the program stops here, as Python's
                        // IndexError or Rust's panic stops it, with what it wrote so far.
                        Ok(_) => return out,
                        Err(_) => {
                            below.insert(p);
                        }
                    }
                }
            }
            Command::Check(key) => {
                learner.positions(learner.key(key), &mut positions);
                // Bit by bit, stopping at the first that decides, as `all` and `any` (and
                // the starters) do: a position past the last bit stops the program only
                // when it is read.
                let any = learner.has(Mistake::AnyBit);
                let mut maybe = !any;
                for p in &positions {
                    let set = match usize::try_from(*p) {
                        Ok(i) if i < m => bits[i],
                        Ok(_) => return out,
                        Err(_) => below.contains(p),
                    };
                    if set == any {
                        maybe = any;
                        break;
                    }
                }
                let maybe = maybe != learner.has(Mistake::AnswersSwapped);
                out.extend_from_slice(if maybe { b"MAYBE\n" } else { b"NO\n" });
            }
            Command::Bits => {
                let start = out.len();
                out.extend(bits.iter().map(|&b| if b { b'1' } else { b'0' }));
                if learner.has(Mistake::BitsReversed) {
                    out[start..].reverse();
                }
                out.push(b'\n');
            }
            Command::Clear => {
                bits.iter_mut().for_each(|b| *b = false);
                below.clear();
            }
            Command::Quit => break,
            // The exercise's programs know only ADD, CHECK and BITS.
            Command::Remove(_)
            | Command::Counts
            | Command::Explain(_)
            | Command::Stats
            | Command::Save(_)
            | Command::Load(_)
            | Command::Union(_)
            | Command::Intersect(_)
            | Command::Help(_) => {}
        }
    }
    out
}

/// A mistake that gives positions outside the bit array, where a program may stop (an
/// index error, or a crash).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutOfBounds {
    /// no-mod: a position past the last bit.
    PastTheEnd,
    /// truncating-mod: a negative position.
    BelowZero,
}

impl OutOfBounds {
    pub const ALL: [OutOfBounds; 2] = [OutOfBounds::PastTheEnd, OutOfBounds::BelowZero];

    /// The mistake behind such positions.
    pub fn mistake(self) -> Mistake {
        match self {
            OutOfBounds::PastTheEnd => Mistake::NoMod,
            OutOfBounds::BelowZero => Mistake::TruncatingMod,
        }
    }
}

/// Where a program with `mistakes` and `cause` may stop on `script`: for each command
/// whose key has a position out of bounds, the number of answers written before it. Such
/// a program stops at one of them, which one depending on the order it reaches its
/// positions in (and, below zero, on whether reading before the array's start stops it).
pub fn stops(
    spec: FilterSpec,
    script: &[u8],
    mistakes: &[Mistake],
    cause: OutOfBounds,
) -> Vec<usize> {
    let with: Vec<Mistake> = mistakes.iter().copied().chain([cause.mistake()]).collect();
    let learner = Learner {
        spec,
        mistakes: &with,
    };
    let mut stops = Vec::new();
    let mut answers = 0;
    let mut positions = Vec::new();
    for line in learner.lines(script) {
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let Ok(Some(command)) = Command::parse(line) else {
            continue;
        };
        match command {
            Command::Add(key) | Command::Check(key) => {
                let key = learner.key(key);
                let out_of_bounds = match cause {
                    OutOfBounds::PastTheEnd => learner.past_the_end_without_mod(key),
                    OutOfBounds::BelowZero => {
                        learner.positions(key, &mut positions);
                        positions.iter().any(|&p| p < 0)
                    }
                };
                if out_of_bounds {
                    stops.push(answers);
                }
                answers += usize::from(matches!(command, Command::Check(_)));
            }
            Command::Bits => answers += 1,
            Command::Quit => break,
            // The exercise's programs know only ADD, CHECK and BITS.
            Command::Clear
            | Command::Remove(_)
            | Command::Counts
            | Command::Explain(_)
            | Command::Stats
            | Command::Save(_)
            | Command::Load(_)
            | Command::Union(_)
            | Command::Intersect(_)
            | Command::Help(_) => {}
        }
    }
    stops
}

/// `line` as Python's `str.strip()` leaves it: whitespace removed from both ends (the
/// Unicode spaces, and the separators 0x1c to 0x1f, which Python counts as whitespace).
fn python_strip(line: &[u8]) -> Vec<u8> {
    match std::str::from_utf8(line) {
        Ok(s) => s.trim_matches(python_space).as_bytes().to_vec(),
        // Not UTF-8: a Python program would not get this far; strip the ASCII spaces.
        Err(_) => line.trim_ascii().to_vec(),
    }
}

/// Whether Python's `str.isspace` holds for `c`: Unicode white space, and the separators
/// 0x1c to 0x1f.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

struct Learner<'a> {
    spec: FilterSpec,
    mistakes: &'a [Mistake],
}

impl Learner<'_> {
    fn has(&self, m: Mistake) -> bool {
        self.mistakes.contains(&m)
    }

    /// With lines-split, the length lines are read in pieces of.
    fn split_at(&self) -> Option<usize> {
        self.mistakes.iter().find_map(|&m| {
            if let Mistake::LinesSplit(at) = m {
                Some(at)
            } else {
                None
            }
        })
    }

    /// The script's lines as the program reads them: with lines-split, in pieces of the
    /// buffer's length (its newline counted, as `fgets` counts it), each a line of its own;
    /// with whitespace-stripped, as Python's `line.strip()` leaves them.
    fn lines<'s>(&self, script: &'s [u8]) -> Vec<std::borrow::Cow<'s, [u8]>> {
        use std::borrow::Cow;
        let lines: Vec<&[u8]> = match self.split_at() {
            Some(at) => script
                .split_inclusive(|&b| b == b'\n')
                .flat_map(|line| line.chunks(at.max(1)))
                .map(|piece| piece.strip_suffix(b"\n").unwrap_or(piece))
                .collect(),
            None => script.split(|&b| b == b'\n').collect(),
        };
        if self.has(Mistake::WhitespaceStripped) {
            lines
                .into_iter()
                .map(|l| Cow::Owned(python_strip(l)))
                .collect()
        } else {
            lines.into_iter().map(Cow::Borrowed).collect()
        }
    }

    /// The key the program takes from what follows the command word: with
    /// split-every-space, the next word, as Python's `line.split()[1]` gives it.
    fn key<'k>(&self, key: &'k [u8]) -> &'k [u8] {
        let key = if self.has(Mistake::KeyStripped) {
            // Python's `str.strip()`, or on bytes that are not UTF-8, `bytes.strip()`.
            match std::str::from_utf8(key) {
                Ok(text) => text.trim_matches(python_space).as_bytes(),
                Err(_) => key.trim_ascii(),
            }
        } else {
            key
        };
        if !self.has(Mistake::SplitEverySpace) {
            return key;
        }
        match std::str::from_utf8(key) {
            Ok(text) => text
                .split(python_space)
                .find(|s| !s.is_empty())
                .unwrap_or("")
                .as_bytes(),
            Err(_) => key
                .split(|b| b.is_ascii_whitespace())
                .find(|s| !s.is_empty())
                .unwrap_or(b""),
        }
    }

    /// Whether one of the key's hashes, not taken mod m, is m or more. Only the byte-sum
    /// filter's no-mod is modelled: the other filters' hashes are far past any m.
    fn past_the_end_without_mod(&self, key: &[u8]) -> bool {
        match self.spec.scheme() {
            Scheme::ByteSum => {
                let units = self.units(key);
                let h1: u128 = units.iter().map(|&u| u128::from(u)).sum();
                let h2: u128 = units.iter().zip(1..).map(|(&u, w)| u128::from(u) * w).sum();
                h1.max(h2) >= u128::from(self.spec.bits())
            }
            Scheme::Djb2Fnv | Scheme::Murmur3 => false,
        }
    }

    /// The units the hashes take: bytes, or with chars-not-bytes the code points.
    fn units(&self, key: &[u8]) -> Vec<u32> {
        if self.has(Mistake::CharsNotBytes) {
            String::from_utf8_lossy(key)
                .chars()
                .map(u32::from)
                .collect()
        } else {
            key.iter().map(|&b| u32::from(b)).collect()
        }
    }

    /// The key's positions, which may be negative (truncating-mod), or m and more (no-mod).
    fn positions(&self, key: &[u8], out: &mut Vec<i64>) {
        out.clear();
        let m = self.spec.bits();
        let k = self.spec.hashes();
        match self.spec.scheme() {
            Scheme::ByteSum => {
                let units = self.units(key);
                let first = if self.has(Mistake::H2FromZero) { 0 } else { 1 };
                let h1: u128 = units.iter().map(|&u| u128::from(u)).sum();
                let h2: u128 = units
                    .iter()
                    .zip(first..)
                    .map(|(&u, w)| u128::from(u) * w)
                    .sum();
                let h2 = if self.has(Mistake::NoMod) {
                    // Past every bit when it is m or more: a position the array lacks.
                    h2.min(i64::MAX as u128)
                } else {
                    h2 % u128::from(m)
                };
                out.extend([(h1 % u128::from(m)) as i64, h2 as i64]);
            }
            Scheme::Djb2Fnv => {
                let units = self.units(key);
                let (a, step) = self.djb2_fnv(&units);
                let first = u64::from(self.has(Mistake::StepsFromOne));
                for j in first..first + u64::from(k) {
                    let sum = u128::from(a) + u128::from(j) * u128::from(step);
                    out.push((sum % u128::from(m)) as i64);
                }
            }
            Scheme::Murmur3 => {
                let first = u32::from(self.has(Mistake::SeedsFromOne));
                for seed in first..first + k {
                    let h = scheme::murmur3_32(key, seed);
                    let p = if self.has(Mistake::UnsignedHash) {
                        (u64::from(h as u32) % m) as i64
                    } else if self.has(Mistake::AbsHash) {
                        // Python's abs(): -2^31 becomes 2^31, no overflow.
                        (i64::from(h).unsigned_abs() % m) as i64
                    } else if self.has(Mistake::TruncatingMod) {
                        i64::from(h) % (m as i64)
                    } else {
                        scheme::floor_mod(h, m) as i64
                    };
                    out.push(p);
                }
            }
        }
    }

    /// djb2 and FNV with this learner's mistakes: (a mod m, step).
    ///
    /// Without the 32-bit wrap the numbers grow without bound, as Python integers do; only
    /// their remainders are needed, so they are kept modulo a multiple of m (and m - 1)
    /// and of 2^24: the XOR with a unit below 2^24 changes only bits that such a modulus
    /// keeps, so the remainders stay exact.
    fn djb2_fnv(&self, units: &[u32]) -> (u64, u64) {
        let m = u128::from(self.spec.bits());
        let step_mod = if self.has(Mistake::StepModM) {
            m
        } else {
            m - 1
        };
        let wrap = !self.has(Mistake::NoWrap32);
        let low = 1u128 << 24;
        let modulus_a: u128 = if wrap { 1 << 32 } else { lcm(m, low) };
        let modulus_b: u128 = if wrap { 1 << 32 } else { lcm(step_mod, low) };
        let mut a: u128 = if self.has(Mistake::Djb2FromZero) {
            0
        } else {
            5381
        };
        let mut b: u128 = 2_166_136_261 % modulus_b;
        let fnv1 = self.has(Mistake::Fnv1Order);
        for &u in units {
            let u = u128::from(u);
            a = if self.has(Mistake::Djb2Additive) {
                (a * 33 + u) % modulus_a
            } else {
                ((a * 33) % modulus_a) ^ u
            };
            b = if fnv1 {
                ((b * 16_777_619) % modulus_b) ^ u
            } else {
                ((b ^ u) * 16_777_619) % modulus_b
            };
            // A unit of 2^24 or more (a code point, with chars-not-bytes) has bits above
            // the XOR's reach of the modulus: keep the value in range all the same.
            a %= modulus_a;
            b %= modulus_b;
        }
        let plus_one = !self.has(Mistake::StepModM) && !self.has(Mistake::StepWithoutPlusOne);
        let step = (b % step_mod) as u64 + u64::from(plus_one);
        ((a % m) as u64, step)
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: Scheme, m: Option<u64>, k: Option<u32>) -> FilterSpec {
        FilterSpec::new(s, m, k).expect("a valid spec")
    }

    #[test]
    fn the_correct_model_agrees_with_the_engine_on_every_scheme() {
        let keys: [&[u8]; 6] = [
            b"fig",
            b"caf\xc3\xa9",
            b"a longer key with spaces",
            b"x",
            b"\xff",
            b"abcdefghijklmnopqrstuvwxyz0123456789",
        ];
        for spec in [
            FilterSpec::lesson(),
            spec(Scheme::Djb2Fnv, None, None),
            spec(Scheme::Djb2Fnv, Some(100), Some(7)),
            spec(Scheme::Murmur3, None, None),
            spec(Scheme::Murmur3, Some(37), Some(3)),
        ] {
            let learner = Learner {
                spec,
                mistakes: &[],
            };
            for key in keys {
                let mut want = Vec::new();
                spec.positions(key, &mut want);
                let mut got = Vec::new();
                learner.positions(key, &mut got);
                let want: Vec<i64> = want.iter().map(|&p| p as i64).collect();
                assert_eq!(got, want, "{spec}, key {key:?}");
            }
        }
    }

    #[test]
    fn no_wrap_matches_big_integer_arithmetic() {
        // Nine bytes take djb2 past 32 bits but not past 64: the exact value fits a u128.
        let key = b"elephants";
        let mut a = 5381u128;
        for &c in key {
            a = (a * 33) ^ u128::from(c);
        }
        assert!(a > 1 << 32, "the key overflows 32 bits");
        for m in [16u64, 100, 1000] {
            let s = spec(Scheme::Djb2Fnv, Some(m), Some(3));
            let learner = Learner {
                spec: s,
                mistakes: &[Mistake::NoWrap32],
            };
            let units: Vec<u32> = key.iter().map(|&c| u32::from(c)).collect();
            let (a_mod, _) = learner.djb2_fnv(&units);
            assert_eq!(u128::from(a_mod), a % u128::from(m), "a mod {m}");
        }
    }

    #[test]
    fn step_mod_m_can_be_zero_and_repeat_a_position() {
        let s = spec(Scheme::Djb2Fnv, None, None);
        let learner = Learner {
            spec: s,
            mistakes: &[Mistake::StepModM],
        };
        // Search for a key whose b is a multiple of 16.
        let key = (0..1000)
            .map(|i| format!("key{i}"))
            .find(|k| scheme::djb2_fnv(k.as_bytes()).1.is_multiple_of(16))
            .expect("one in 16 keys");
        let mut got = Vec::new();
        learner.positions(key.as_bytes(), &mut got);
        assert!(got.iter().all(|&p| p == got[0]), "{key}: {got:?}");
    }

    #[test]
    fn truncating_mod_gives_negative_positions_for_negative_hashes() {
        let s = spec(Scheme::Murmur3, None, Some(1));
        let learner = Learner {
            spec: s,
            mistakes: &[Mistake::TruncatingMod],
        };
        let mut got = Vec::new();
        learner.positions(b"foo", &mut got);
        assert_eq!(got, [-12], "mmh3.hash('foo') = -156908512");
    }

    #[test]
    fn whitespace_stripped_loses_a_keys_trailing_space() {
        let s = FilterSpec::lesson();
        let script = b"ADD fig \nCHECK fig\n";
        assert_eq!(answers_with(s, script, &[]), b"NO\n");
        assert_eq!(
            answers_with(s, script, &[Mistake::WhitespaceStripped]),
            b"MAYBE\n"
        );
    }
}
