//! Numbers as people write them: rates, counts and sizes parsed from text, and shown grouped,
//! as percentages or to a few significant digits.

use std::fmt;

use crate::escape::escape_prefix;

/// The smallest false-positive rate the tutor takes. Far below any real target, and far
/// enough above the smallest `f64` that the formulas stay exact to the digits shown.
pub const MIN_RATE: f64 = 1e-300;

/// The largest false-positive rate the tutor takes (99.9999%). Closer to 1, p^(1/k) rounds to
/// 1 for large k and 1 − p^(1/k), which the sizing formulas divide by, loses its digits.
pub const MAX_RATE: f64 = 0.999_999;

/// What a piece of text was meant to be, so an error can say what was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A probability between 0 and 1: `0.01`, `1%`, `1/100`.
    Rate,
    /// A whole number: `1000`, `1e6`, `10k`, `40M`.
    Count,
    /// A size in bits (`9586`, `10M`) or in bytes with a unit (`8KiB`, `1.5MB`).
    Bits,
}

impl Quantity {
    fn expected(self) -> &'static str {
        match self {
            Quantity::Rate => "a rate such as 0.01, 1% or 1/100",
            Quantity::Count => "a whole number such as 1000, 1e6, 10k or 40M",
            Quantity::Bits => {
                "bits such as 9586, 1e6 or 10M, or bytes with a unit such as 8KiB or 1.5MB"
            }
        }
    }

    fn units(self) -> &'static str {
        match self {
            Quantity::Rate => "% or a fraction such as 1/100",
            Quantity::Count => "k, M, G or T (thousand, million, billion, trillion)",
            Quantity::Bits => {
                "k, M, G or T for bits, or B, KB, MB, GB, TB, KiB, MiB, GiB or TiB for bytes"
            }
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Quantity::Rate => "rate",
            Quantity::Count => "number",
            Quantity::Bits => "number of bits",
        }
    }
}

/// Why a piece of text is not the number it should be. `input` and `unit` hold the text as
/// shown to a person: escaped, and at most 60 bytes of it.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitError {
    /// Nothing but spaces.
    Empty(Quantity),
    /// A minus sign: every quantity here is positive (or, for a seed, at least 0).
    Negative {
        input: String,
        quantity: Quantity,
        zero_allowed: bool,
    },
    /// Not a number in any form this quantity takes.
    NotANumber { input: String, quantity: Quantity },
    /// An option (`--json`, `-p`) where the number should have been.
    LooksLikeOption { input: String, quantity: Quantity },
    /// A number followed by a unit this quantity does not take.
    UnknownUnit {
        input: String,
        unit: String,
        quantity: Quantity,
    },
    /// A count or a size that comes to a fraction (`1.5`, `0.1KiB`).
    NotWhole { input: String, quantity: Quantity },
    /// More significant digits than a count needs (more than 24).
    TooManyDigits { input: String },
    /// A whole number outside what the option takes.
    OutOfRange {
        input: String,
        quantity: Quantity,
        min: u64,
        max: u64,
    },
    /// A rate outside [`MIN_RATE`]..=[`MAX_RATE`]: 0, 1, 150%.
    RateOutOfRange { input: String },
    /// A fraction with 0 below the line: `1/0`.
    DividedByZero { input: String },
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Empty(q) => write!(f, "expected {}, got nothing", q.expected()),
            UnitError::Negative {
                input,
                quantity: Quantity::Rate,
                ..
            } => write!(
                f,
                "`{input}` is negative, expected a rate above 0 and below 1 (100%), such as 0.01, \
                 1% or 1/100"
            ),
            UnitError::Negative {
                input,
                quantity,
                zero_allowed,
            } => write!(
                f,
                "`{input}` is negative: numbers here must be {}, expected {}",
                if *zero_allowed {
                    "0 or more"
                } else {
                    "positive"
                },
                quantity.expected()
            ),
            UnitError::NotANumber { input, quantity } => {
                write!(f, "expected {}, got `{input}`", quantity.expected())
            }
            UnitError::LooksLikeOption { input, quantity } => write!(
                f,
                "`{input}` looks like an option, expected {} before it",
                quantity.expected()
            ),
            UnitError::UnknownUnit {
                input,
                unit,
                quantity,
            } => write!(
                f,
                "unknown unit `{unit}` in `{input}`, expected {}",
                quantity.units()
            ),
            UnitError::NotWhole { input, quantity } => write!(
                f,
                "`{input}` is not a whole {}, expected {}",
                match quantity {
                    Quantity::Bits => "number of bits",
                    Quantity::Count | Quantity::Rate => "number",
                },
                quantity.expected()
            ),
            UnitError::TooManyDigits { input } => write!(
                f,
                "`{input}` has more than 24 significant digits, expected a number no longer than that"
            ),
            UnitError::OutOfRange {
                input,
                quantity,
                min,
                max,
            } => {
                write!(
                    f,
                    "`{input}` is out of range, expected a {} from {} to {}",
                    quantity.noun(),
                    group(*min),
                    group(*max)
                )?;
                if *quantity == Quantity::Bits && *max >= 8 * 1024 {
                    write!(f, " ({})", bytes_short(max.div_ceil(8)))?;
                }
                Ok(())
            }
            UnitError::RateOutOfRange { input } => write!(
                f,
                "`{input}` is out of range, expected a rate from {MIN_RATE:e} to {MAX_RATE} (99.9999%)"
            ),
            UnitError::DividedByZero { input } => write!(
                f,
                "`{input}` divides by zero, expected {}",
                Quantity::Rate.expected()
            ),
        }
    }
}

impl std::error::Error for UnitError {}

/// `text` escaped and cut short as every message shows a user's input, so a control
/// character or a megabyte of digits cannot reach the terminal through an error.
fn shown(text: &str) -> String {
    escape_prefix(text.as_bytes())
}

/// A decimal number exactly as written: `digits × 10^exp`, trailing zeros folded into `exp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    digits: u128,
    exp: i32,
}

/// The most significant digits a whole number may have: more than any count needs
/// (u64::MAX has 20), few enough that `digits × unit` stays inside u128.
const MAX_DIGITS: usize = 24;

/// Splits `text` into a number and what follows it (the unit), without judging either.
fn split_unit(text: &str) -> (&str, &str) {
    let b = text.as_bytes();
    let mut i = 0;
    if i < b.len() && b[i] == b'+' {
        i += 1;
    }
    while i < b.len() && matches!(b[i], b'0'..=b'9' | b'_' | b',' | b'.') {
        i += 1;
    }
    // An exponent only when a digit follows, so that `1e` is a number and a unit.
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        let mut j = i + 1;
        if j < b.len() && matches!(b[j], b'+' | b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    (text[..i].trim_end(), text[i..].trim())
}

/// Reads a plain decimal: digits with an optional point and exponent, `_` between digits, and
/// `,` only as a thousands separator (`1,000`; never `1,5`, which some write for 1.5).
/// `None` when it is not one.
fn decimal(num: &str) -> Option<Result<Decimal, ()>> {
    let num = num.strip_prefix('+').unwrap_or(num);
    let (mantissa, exponent) = match num.find(['e', 'E']) {
        Some(i) => (&num[..i], Some(&num[i + 1..])),
        None => (num, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((a, b)) => (a, b),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let int_digits = digits_of(int_part, true)?;
    let frac_digits = digits_of(frac_part, false)?;
    let exp: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (sign, e) = match e.as_bytes().first() {
                Some(b'-') => (-1, &e[1..]),
                Some(b'+') => (1, &e[1..]),
                _ => (1, e),
            };
            if e.is_empty() || !e.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            // Past ±9999 nothing changes but the verdict, so stop counting there.
            let e = e
                .bytes()
                .fold(0i64, |acc, c| (acc * 10 + i64::from(c - b'0')).min(9_999));
            sign * e
        }
    };
    let all = format!("{int_digits}{frac_digits}");
    let all = all.trim_start_matches('0');
    let trimmed = all.trim_end_matches('0');
    let exp = exp - frac_digits.len() as i64 + (all.len() - trimmed.len()) as i64;
    if trimmed.is_empty() {
        return Some(Ok(Decimal { digits: 0, exp: 0 }));
    }
    if trimmed.len() > MAX_DIGITS {
        // A whole number this long is past every range here: say so, as for 1e9999.
        return Some(if exp >= 0 {
            Ok(Decimal {
                digits: 1,
                exp: 9_999,
            })
        } else {
            Err(())
        });
    }
    let digits = trimmed
        .bytes()
        .fold(0u128, |acc, c| acc * 10 + u128::from(c - b'0'));
    Some(Ok(Decimal {
        digits,
        exp: exp.clamp(-20_000, 20_000) as i32,
    }))
}

/// The digits of an integer or fraction part, separators removed; `None` if anything else is
/// there or a separator is misplaced.
fn digits_of(part: &str, commas: bool) -> Option<String> {
    if part.starts_with(['_', ',']) || part.ends_with(['_', ',']) || part.contains("__") {
        return None;
    }
    if part.contains(',') {
        // Thousands only: 1 to 3 digits, then groups of exactly 3.
        let groups: Vec<&str> = part.split(',').collect();
        let clean = |g: &str| g.replace('_', "");
        if !commas
            || part.contains('_')
            || !(1..=3).contains(&clean(groups[0]).len())
            || groups[1..].iter().any(|g| clean(g).len() != 3)
        {
            return None;
        }
    }
    let out: String = part.chars().filter(|c| !matches!(c, '_' | ',')).collect();
    out.bytes().all(|c| c.is_ascii_digit()).then_some(out)
}

/// `value` as a whole number in `min..=max`: `value = d.digits × 10^d.exp × unit`.
fn whole(
    input: &str,
    d: Decimal,
    unit: u128,
    quantity: Quantity,
    min: u64,
    max: u64,
) -> Result<u64, UnitError> {
    let out_of_range = || UnitError::OutOfRange {
        input: shown(input),
        quantity,
        min,
        max,
    };
    let product = d.digits.checked_mul(unit).ok_or_else(out_of_range)?;
    let value = if product == 0 {
        0
    } else if d.exp >= 0 {
        10u128
            .checked_pow(d.exp as u32)
            .and_then(|p| product.checked_mul(p))
            .ok_or_else(out_of_range)?
    } else {
        let divisor = 10u128
            .checked_pow(d.exp.unsigned_abs())
            .filter(|p| product % p == 0)
            .ok_or_else(|| UnitError::NotWhole {
                input: shown(input),
                quantity,
            })?;
        product / divisor
    };
    u64::try_from(value)
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(out_of_range)
}

/// Parses `text` as a whole `quantity` in `min..=max`, with the units `unit_of` knows.
fn parse_whole(
    text: &str,
    quantity: Quantity,
    min: u64,
    max: u64,
    unit_of: fn(&str) -> Option<u128>,
) -> Result<u64, UnitError> {
    let input = text.trim();
    if input.is_empty() {
        return Err(UnitError::Empty(quantity));
    }
    if input.starts_with('-')
        && split_unit(&input[1..])
            .0
            .chars()
            .any(|c| c.is_ascii_digit())
    {
        return Err(UnitError::Negative {
            input: shown(input),
            quantity,
            zero_allowed: min == 0,
        });
    }
    let not_a_number = || UnitError::NotANumber {
        input: shown(input),
        quantity,
    };
    if looks_like_option(input) {
        return Err(UnitError::LooksLikeOption {
            input: shown(input),
            quantity,
        });
    }
    let (num, unit) = split_unit(input);
    let d = decimal(num)
        .ok_or_else(not_a_number)?
        .map_err(|()| UnitError::TooManyDigits {
            input: shown(input),
        })?;
    let unit = unit_of(unit).ok_or_else(|| UnitError::UnknownUnit {
        input: shown(input),
        unit: shown(unit),
        quantity,
    })?;
    whole(input, d, unit, quantity, min, max)
}

/// `--json`, `-p`: what a forgotten value leaves in its place (the options take values that
/// start with `-`, so that `-1` reaches the parser and is refused as negative).
fn looks_like_option(input: &str) -> bool {
    let rest = input.strip_prefix("--").or_else(|| input.strip_prefix('-'));
    rest.is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
}

fn count_unit(unit: &str) -> Option<u128> {
    Some(match unit {
        "" => 1,
        "k" | "K" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        _ => return None,
    })
}

fn bits_unit(unit: &str) -> Option<u128> {
    const KIB: u128 = 1024;
    Some(match unit {
        "" | "bit" | "bits" => 1,
        "k" | "K" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        "B" => 8,
        "KB" | "kB" => 8 * 1_000,
        "MB" => 8 * 1_000_000,
        "GB" => 8 * 1_000_000_000,
        "TB" => 8 * 1_000_000_000_000,
        "KiB" => 8 * KIB,
        "MiB" => 8 * KIB * KIB,
        "GiB" => 8 * KIB * KIB * KIB,
        "TiB" => 8 * KIB * KIB * KIB * KIB,
        _ => return None,
    })
}

/// A count of at least 1: `1000`, `1e6`, `10k`, `40M`, `1,000,000`.
pub fn parse_count(text: &str) -> Result<u64, UnitError> {
    parse_whole(text, Quantity::Count, 1, u64::MAX, count_unit)
}

/// A size of at least 1 bit: bits (`9586`, `1e6`, `10M`) or bytes with a unit (`8KiB`,
/// `1.5MB`, `17MiB`, `512B`). Returns bits.
pub fn parse_bits(text: &str) -> Result<u64, UnitError> {
    parse_whole(text, Quantity::Bits, 1, u64::MAX, bits_unit)
}

/// A parser for counts in `min..=max`, for clap's `value_parser`.
pub fn count_in<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, UnitError> + Clone + Send + Sync
where
    T: Copy + Into<u64> + TryFrom<u64> + Send + Sync + 'static,
{
    move |text: &str| {
        let (lo, hi) = (min.into(), max.into());
        let v = parse_whole(text, Quantity::Count, lo, hi, count_unit)?;
        // In range, so it fits: the range came from T.
        T::try_from(v).map_err(|_| UnitError::OutOfRange {
            input: shown(text.trim()),
            quantity: Quantity::Count,
            min: lo,
            max: hi,
        })
    }
}

/// A parser for sizes in `min..=max` bits, for clap's `value_parser`.
pub fn bits_in(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<u64, UnitError> + Clone + Send + Sync {
    move |text: &str| parse_whole(text, Quantity::Bits, min, max, bits_unit)
}

/// A false-positive rate: `0.01`, `1%`, `1/100`, `1e-6`, from [`MIN_RATE`] to [`MAX_RATE`].
pub fn parse_rate(text: &str) -> Result<f64, UnitError> {
    let input = text.trim();
    if input.is_empty() {
        return Err(UnitError::Empty(Quantity::Rate));
    }
    let not_a_number = || UnitError::NotANumber {
        input: shown(input),
        quantity: Quantity::Rate,
    };
    if looks_like_option(input) {
        return Err(UnitError::LooksLikeOption {
            input: shown(input),
            quantity: Quantity::Rate,
        });
    }
    let number = |num: &str| -> Result<f64, UnitError> {
        let num = num.trim();
        if num.starts_with('-') {
            return Err(UnitError::Negative {
                input: shown(input),
                quantity: Quantity::Rate,
                zero_allowed: false,
            });
        }
        let (num, unit) = split_unit(num);
        // Checked by the exact reader first, so `inf`, `nan` and `1,5` never reach f64.
        if decimal(num).is_none() {
            return Err(not_a_number());
        }
        if !unit.is_empty() {
            return Err(UnitError::UnknownUnit {
                input: shown(input),
                unit: shown(unit),
                quantity: Quantity::Rate,
            });
        }
        let clean: String = num.chars().filter(|c| !matches!(c, '_' | ',')).collect();
        clean.parse::<f64>().map_err(|_| not_a_number())
    };
    let value = if let Some(pct) = input.strip_suffix('%') {
        number(pct)? / 100.0
    } else if let Some((a, b)) = input.split_once('/') {
        let (a, b) = (number(a)?, number(b)?);
        if b == 0.0 {
            return Err(UnitError::DividedByZero {
                input: shown(input),
            });
        }
        a / b
    } else {
        number(input)?
    };
    if (MIN_RATE..=MAX_RATE).contains(&value) {
        Ok(value)
    } else {
        Err(UnitError::RateOutOfRange {
            input: shown(input),
        })
    }
}

/// Items as a sentence lists them: `54`, `54 and 45` or `3, 15 and 11`.
pub fn and_list<T: fmt::Display>(items: &[T]) -> String {
    match items.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => {
            let rest: Vec<String> = rest.iter().map(T::to_string).collect();
            format!("{} and {last}", rest.join(", "))
        }
        None => String::new(),
    }
}

/// A whole number with thousands separators: `1,150,207,006`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes grouped, and in the largest binary unit that keeps the number at least 1:
/// `1,199 bytes (1.2 KiB)`, `1 byte`.
pub fn bytes(b: u64) -> String {
    if b == 1 {
        "1 byte".to_string()
    } else if b < 1024 {
        format!("{} bytes", group(b))
    } else {
        format!("{} bytes ({})", group(b), bytes_short(b))
    }
}

/// Bytes in the largest binary unit that keeps the number at least 1: `1.2 KiB`.
fn bytes_short(b: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < UNITS.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} bytes")
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}

/// A fraction as a percentage: two decimals from 0.1% up, three significant digits below:
/// `0.88%`, `0.00120%`, `1.20e-5%` when smaller still. Exactly 0 is `0.00%`.
pub fn percent(x: f64) -> String {
    let pct = x * 100.0;
    if pct == 0.0 || pct >= 0.1 {
        format!("{pct:.2}%")
    } else {
        // Three significant digits, as a plain decimal while it stays short: 0.0977%.
        format!("{}%", significant(pct))
    }
}

/// A probability as a number and a percentage: `0.0088 (0.88%)`.
pub fn rate(p: f64) -> String {
    if p == 0.0 || p >= 0.001 {
        format!("{p:.4} ({})", percent(p))
    } else {
        format!("{} ({})", significant(p), percent(p))
    }
}

/// A rate to three significant digits, in at most 8 characters: `0.0453`, `0.000250`,
/// `1.23e-5`. Only exactly 0 prints as `0`.
pub fn significant(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if magnitude < -4 {
        format!("{x:.2e}")
    } else {
        let decimals = (2 - magnitude).max(0) as usize;
        format!("{x:.decimals$}")
    }
}

/// A duration, roughly, as a person says it: `40 s`, `12 min`, `3.5 h`, `2 days`.
pub fn duration(seconds: f64) -> String {
    let (value, unit) = if seconds < 90.0 {
        (seconds, "s")
    } else if seconds < 90.0 * 60.0 {
        (seconds / 60.0, "min")
    } else if seconds < 48.0 * 3600.0 {
        (seconds / 3600.0, "h")
    } else if seconds < 730.0 * 86_400.0 {
        (seconds / 86_400.0, "days")
    } else {
        (seconds / (365.25 * 86_400.0), "years")
    };
    if value < 10.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{} {unit}", group(value.round() as u64))
    }
}

/// A size for a person: `1 GiB`, `16 MiB`, `300 bytes`.
pub fn show_size(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// A limit in bytes (memory, file size) as a person writes it: `1048576`, `512K`, `64M`, `1G`, `1GiB`, `2MB`
/// (K, M, G are powers of 1024 whether or not an `i` or a `B` follows, as `ulimit` and
/// most tools that set limits read them).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = t.split_at(digits);
    let unit = unit.trim().to_ascii_uppercase();
    let shift = match unit.trim_end_matches('B').trim_end_matches('I') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "expected a size such as 512M or 1G, got `{}`",
                crate::escape::escape(s.as_bytes())
            ));
        }
    };
    let shown = crate::escape::escape_prefix(s.as_bytes());
    let n: u64 = number
        .parse()
        .map_err(|_| format!("expected a size such as 512M or 1G, got `{shown}`"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{shown}` is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn count(input: &str, expected: Result<u64, &str>) {
        let got = parse_count(input);
        match (&got, expected) {
            (Ok(v), Ok(e)) => assert_eq!(*v, e, "parse_count({input:?})"),
            (Err(err), Err(kind)) => {
                assert_eq!(kind_of(err), kind, "parse_count({input:?}): {err}")
            }
            _ => panic!("parse_count({input:?}) gave {got:?}, expected {expected:?}"),
        }
    }

    #[track_caller]
    fn bits(input: &str, expected: Result<u64, &str>) {
        let got = parse_bits(input);
        match (&got, expected) {
            (Ok(v), Ok(e)) => assert_eq!(*v, e, "parse_bits({input:?})"),
            (Err(err), Err(kind)) => assert_eq!(kind_of(err), kind, "parse_bits({input:?}): {err}"),
            _ => panic!("parse_bits({input:?}) gave {got:?}, expected {expected:?}"),
        }
    }

    #[track_caller]
    fn rate_case(input: &str, expected: Result<f64, &str>) {
        let got = parse_rate(input);
        match (&got, expected) {
            (Ok(v), Ok(e)) => assert!(
                (v - e).abs() <= e * 1e-12,
                "parse_rate({input:?}) gave {v}, expected {e}"
            ),
            (Err(err), Err(kind)) => assert_eq!(kind_of(err), kind, "parse_rate({input:?}): {err}"),
            _ => panic!("parse_rate({input:?}) gave {got:?}, expected {expected:?}"),
        }
    }

    fn kind_of(err: &UnitError) -> &'static str {
        match err {
            UnitError::Empty(_) => "empty",
            UnitError::Negative { .. } => "negative",
            UnitError::NotANumber { .. } => "not a number",
            UnitError::LooksLikeOption { .. } => "option",
            UnitError::UnknownUnit { .. } => "unknown unit",
            UnitError::NotWhole { .. } => "not whole",
            UnitError::TooManyDigits { .. } => "too many digits",
            UnitError::OutOfRange { .. } => "out of range",
            UnitError::RateOutOfRange { .. } => "rate out of range",
            UnitError::DividedByZero { .. } => "divided by zero",
        }
    }

    #[test]
    fn counts() {
        count("1000", Ok(1000));
        count(" 1000 ", Ok(1000));
        count("1e6", Ok(1_000_000));
        count("1E6", Ok(1_000_000));
        count("1e+6", Ok(1_000_000));
        count("10k", Ok(10_000));
        count("10K", Ok(10_000));
        count("40M", Ok(40_000_000));
        count("40 M", Ok(40_000_000));
        count("1.5k", Ok(1_500));
        count("2.5G", Ok(2_500_000_000));
        count("1T", Ok(1_000_000_000_000));
        count("1,000,000", Ok(1_000_000));
        count("1_000_000", Ok(1_000_000));
        count("+7", Ok(7));
        count("0.001e3", Ok(1));
        count("1.005k", Ok(1_005));
        count("18446744073709551615", Ok(u64::MAX));
        count("18,446,744,073,709,551,615", Ok(u64::MAX));
        count("18446744073709551616", Err("out of range"));
        count("1e20", Err("out of range"));
        count("1e9999999999", Err("out of range"));
        count("99999999999T", Err("out of range"));
        count("0", Err("out of range"));
        count("0k", Err("out of range"));
        count("-1", Err("negative"));
        count("-1e6", Err("negative"));
        count("-10M", Err("negative"));
        count("-0", Err("negative"));
        count("1.5", Err("not whole"));
        count("1e-3", Err("not whole"));
        count("1e-99999", Err("not whole"));
        count("1,5", Err("not a number"));
        count("1,0000", Err("not a number"));
        count(",100", Err("not a number"));
        count("1__0", Err("not a number"));
        count("1.2.3", Err("not a number"));
        count("lots", Err("not a number"));
        count("inf", Err("not a number"));
        count("NaN", Err("not a number"));
        count("0x10", Err("unknown unit"));
        count("--fp", Err("option"));
        count("-k", Err("option"));
        count("-", Err("not a number"));
        count("", Err("empty"));
        count("   ", Err("empty"));
        count("10m", Err("unknown unit"));
        count("1B", Err("unknown unit"));
        count("8KiB", Err("unknown unit"));
        count("1e", Err("unknown unit"));
        count("1.0000000000000000000000001", Err("too many digits"));
        count("1000000000000000000000000000000000001", Err("out of range"));
    }

    #[test]
    fn sizes_in_bits_and_bytes() {
        bits("9586", Ok(9586));
        bits("1e6", Ok(1_000_000));
        bits("10M", Ok(10_000_000));
        bits("100 bits", Ok(100));
        bits("8KiB", Ok(65_536));
        bits("17MiB", Ok(17 * 8 * 1024 * 1024));
        bits("1.5MB", Ok(12_000_000));
        bits("1kB", Ok(8_000));
        bits("512B", Ok(4_096));
        bits("0.125B", Ok(1));
        bits("2TiB", Ok(2 * 8 * (1u64 << 40)));
        bits("0.1KiB", Err("not whole"));
        bits("0.3", Err("not whole"));
        bits("0", Err("out of range"));
        bits("0B", Err("out of range"));
        bits("1e25", Err("out of range"));
        bits("3000000TiB", Err("out of range"));
        bits("-8KiB", Err("negative"));
        bits("lots", Err("not a number"));
        bits("5 parsecs", Err("unknown unit"));
        bits("8kib", Err("unknown unit"));
        let in_range = bits_in(1, 1 << 32);
        assert_eq!(in_range("512MiB"), Ok(1 << 32));
        assert!(matches!(
            in_range("512.0001MiB"),
            Err(UnitError::NotWhole { .. })
        ));
        assert!(matches!(
            in_range("1GiB"),
            Err(UnitError::OutOfRange { .. })
        ));
    }

    #[test]
    fn lists_read_as_a_sentence() {
        assert_eq!(and_list::<u64>(&[]), "");
        assert_eq!(and_list(&[54]), "54");
        assert_eq!(and_list(&[54, 45]), "54 and 45");
        assert_eq!(
            and_list(&["sheep", "shark", "fish"]),
            "sheep, shark and fish"
        );
    }

    #[test]
    fn rates() {
        rate_case("0.01", Ok(0.01));
        rate_case("1%", Ok(0.01));
        rate_case("1 %", Ok(0.01));
        rate_case("0.1%", Ok(0.001));
        rate_case("1/100", Ok(0.01));
        rate_case("1 / 1,000", Ok(0.001));
        rate_case("1e-6", Ok(1e-6));
        rate_case("1e-300", Ok(1e-300));
        rate_case("99.9%", Ok(0.999));
        rate_case("99.9999%", Ok(0.999_999));
        rate_case("99.99991%", Err("rate out of range"));
        rate_case("0.9999999999999999", Err("rate out of range"));
        rate_case("0", Err("rate out of range"));
        rate_case("1", Err("rate out of range"));
        rate_case("100%", Err("rate out of range"));
        rate_case("150%", Err("rate out of range"));
        rate_case("1e-301", Err("rate out of range"));
        rate_case("1e-400", Err("rate out of range"));
        rate_case("2/1", Err("rate out of range"));
        rate_case("1/0", Err("divided by zero"));
        rate_case("-1%", Err("negative"));
        rate_case("-0.01", Err("negative"));
        rate_case("1/-100", Err("negative"));
        rate_case("one percent", Err("not a number"));
        rate_case("nan", Err("not a number"));
        rate_case("inf%", Err("not a number"));
        rate_case("0,5", Err("not a number"));
        rate_case("1ppm", Err("unknown unit"));
        rate_case("", Err("empty"));
        rate_case("--json", Err("option"));
    }

    #[test]
    fn ranged_counts_keep_their_type() {
        let hashes = count_in(1u32, 1000);
        assert_eq!(hashes("7"), Ok(7u32));
        assert_eq!(hashes("1k"), Ok(1000u32));
        assert!(matches!(hashes("1001"), Err(UnitError::OutOfRange { .. })));
        assert!(matches!(
            hashes("3000000000"),
            Err(UnitError::OutOfRange { .. })
        ));
        let seed = count_in(0u64, u64::MAX);
        assert_eq!(seed("0"), Ok(0));
        assert!(matches!(
            seed("-1"),
            Err(UnitError::Negative {
                zero_allowed: true,
                ..
            })
        ));
    }

    #[test]
    fn messages_name_the_input_and_what_was_expected() {
        let msg = |r: Result<u64, UnitError>| r.unwrap_err().to_string();
        assert_eq!(
            msg(parse_count("-1")),
            "`-1` is negative: numbers here must be positive, expected a whole number such as 1000, 1e6, 10k or 40M"
        );
        assert_eq!(
            msg(count_in(1u64, 1000)("0")),
            "`0` is out of range, expected a number from 1 to 1,000"
        );
        assert_eq!(
            msg(bits_in(1, 1 << 32)("1GiB")),
            "`1GiB` is out of range, expected a number of bits from 1 to 4,294,967,296 (512.0 MiB)"
        );
        assert_eq!(
            msg(parse_bits("5 parsecs")),
            "unknown unit `parsecs` in `5 parsecs`, expected k, M, G or T for bits, or B, KB, MB, GB, TB, KiB, MiB, GiB or TiB for bytes"
        );
        assert_eq!(
            parse_rate("150%").unwrap_err().to_string(),
            "`150%` is out of range, expected a rate from 1e-300 to 0.999999 (99.9999%)"
        );
        for err in [
            parse_count("x").unwrap_err(),
            parse_count("1.5").unwrap_err(),
            parse_rate("1/0").unwrap_err(),
        ] {
            let text = err.to_string();
            assert!(
                text.starts_with(|c: char| c.is_lowercase() || c == '`'),
                "starts in lowercase: {text}"
            );
            assert!(!text.ends_with('.'), "no final period: {text}");
        }
        assert_eq!(
            msg(parse_count("\u{1b}[2J")),
            "expected a whole number such as 1000, 1e6, 10k or 40M, got `\\u{1b}[2J`"
        );
        let long = "9".repeat(100_000);
        assert_eq!(
            msg(parse_count(&long)),
            format!(
                "`{}... (100000 bytes in all)` is out of range, expected a number from 1 to \
                 18,446,744,073,709,551,615",
                "9".repeat(60)
            )
        );
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(1_150_207_006), "1,150,207,006");
        assert_eq!(group(9586), "9,586");
        assert_eq!(group(999), "999");
        assert_eq!(group(0), "0");
        assert_eq!(group(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn bytes_in_binary_units() {
        assert_eq!(bytes(1199), "1,199 bytes (1.2 KiB)");
        assert_eq!(bytes(2), "2 bytes");
        assert_eq!(bytes(1), "1 byte");
        assert_eq!(bytes(143_775_876), "143,775,876 bytes (137.1 MiB)");
        assert_eq!(
            bytes(u64::MAX / 8 + 1),
            "2,305,843,009,213,693,952 bytes (2.0 EiB)"
        );
    }

    #[test]
    fn percentages_stay_readable() {
        assert_eq!(percent(0.0088), "0.88%");
        assert_eq!(percent(0.000012), "0.00120%");
        assert_eq!(percent(0.25), "25.00%");
        assert_eq!(percent(0.0), "0.00%");
        assert_eq!(rate(0.0088), "0.0088 (0.88%)");
    }

    #[test]
    fn significant_digits_never_round_to_zero() {
        assert_eq!(significant(0.0), "0");
        assert_eq!(significant(0.0453), "0.0453");
        assert_eq!(significant(0.00025), "0.000250");
        assert_eq!(significant(0.001), "0.00100");
        assert_eq!(significant(0.0000123), "1.23e-5");
        assert_eq!(significant(1e-300), "1.00e-300");
        assert_eq!(significant(0.5), "0.500");
        assert_eq!(significant(1.0), "1.00");
        for x in [1e-9, 3e-7, 4.9e-5, 0.00009996, 0.0004, 0.99999] {
            let s = significant(x);
            assert!(s.len() <= 8, "{x} printed as {s}, wider than 8");
            let back: f64 = s.parse().unwrap();
            assert!(back > 0.0, "{x} printed as {s}, which reads as 0");
        }
    }

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration(6.04), "6.0 s");
        assert_eq!(duration(42.0), "42 s");
        assert_eq!(duration(600.0), "10 min");
        assert_eq!(duration(3.0 * 3600.0), "3.0 h");
        assert_eq!(duration(5.0 * 86_400.0), "5.0 days");
        assert_eq!(duration(40.0 * 365.25 * 86_400.0), "40 years");
    }
}
