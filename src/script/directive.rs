//! The `# filter:` line that names the filter a script was written for.

use std::fmt;

use crate::engine::counters::CounterBits;
use crate::engine::scheme::{FilterSpec, Scheme, SpecError};
use crate::escape::escape_prefix;

/// Why a `# filter:` line cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectiveError {
    /// A word that is not `name=value`.
    NotNameValue(Vec<u8>),
    /// A name other than scheme, bits (m), hashes (k) or counting.
    UnknownSetting(Vec<u8>),
    /// The same setting twice (`bits=16 m=32`).
    Repeated(&'static str),
    UnknownScheme(Vec<u8>),
    /// bits, hashes or counting that is not a whole number in range.
    BadNumber {
        setting: &'static str,
        value: Vec<u8>,
    },
    /// A valid setting that makes an impossible filter.
    Spec(SpecError),
    /// A second `# filter:` line before the first command.
    Second,
}

impl fmt::Display for DirectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectiveError::NotNameValue(word) => write!(
                f,
                "expected name=value in `# filter:`, got `{}` (for example `# filter: scheme=murmur3 bits=100 hashes=10`)",
                escape_prefix(word)
            ),
            DirectiveError::UnknownSetting(name) => write!(
                f,
                "unknown setting `{}` in `# filter:`, expected scheme, bits, hashes or counting",
                escape_prefix(name)
            ),
            DirectiveError::Repeated(setting) => {
                write!(f, "`{setting}` is given twice in `# filter:`")
            }
            DirectiveError::UnknownScheme(name) => write!(
                f,
                "unknown scheme `{}`, expected {}",
                escape_prefix(name),
                Scheme::names()
            ),
            DirectiveError::BadNumber { setting, value } => write!(
                f,
                "expected a whole number for `{setting}`, got `{}`",
                escape_prefix(value)
            ),
            DirectiveError::Spec(e) => e.fmt(f),
            DirectiveError::Second => write!(
                f,
                "a second `# filter:` line; a script names its filter once, before its first command"
            ),
        }
    }
}

impl std::error::Error for DirectiveError {}

/// Reads a `# filter: scheme=murmur3 bits=100 hashes=10` line. `None` for any other line;
/// bits and hashes default to the scheme's own. `counting=4` makes a counting filter with
/// 4-bit counters.
pub fn parse(line: &[u8]) -> Option<Result<FilterSpec, DirectiveError>> {
    let rest = line.strip_prefix(b"#")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"filter:")?;
    Some(parse_settings(rest))
}

fn parse_settings(rest: &[u8]) -> Result<FilterSpec, DirectiveError> {
    let (mut scheme, mut m, mut k, mut counting) = (None, None, None, None);
    let words = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    for word in words {
        let Some(eq) = word.iter().position(|&b| b == b'=') else {
            return Err(DirectiveError::NotNameValue(word.to_vec()));
        };
        let (name, value) = (&word[..eq], &word[eq + 1..]);
        let setting = match name {
            b"scheme" => "scheme",
            b"bits" | b"m" => "bits",
            b"hashes" | b"k" => "hashes",
            b"counting" => "counting",
            _ => return Err(DirectiveError::UnknownSetting(name.to_vec())),
        };
        let bad_number = || DirectiveError::BadNumber {
            setting,
            value: value.to_vec(),
        };
        let fresh = match setting {
            "scheme" => scheme
                .replace(
                    std::str::from_utf8(value)
                        .ok()
                        .and_then(Scheme::from_name)
                        .ok_or_else(|| DirectiveError::UnknownScheme(value.to_vec()))?,
                )
                .is_none(),
            "bits" => m.replace(number(value).ok_or_else(bad_number)?).is_none(),
            "counting" => counting
                .replace(
                    CounterBits::new(number(value).ok_or_else(bad_number)?)
                        .map_err(DirectiveError::Spec)?,
                )
                .is_none(),
            _ => k
                .replace(
                    number(value)
                        .and_then(|v| u32::try_from(v).ok())
                        .ok_or_else(bad_number)?,
                )
                .is_none(),
        };
        if !fresh {
            return Err(DirectiveError::Repeated(setting));
        }
    }
    FilterSpec::new(scheme.unwrap_or(Scheme::ByteSum), m, k)
        .and_then(|spec| spec.with_counters(counting.map(CounterBits::get)))
        .map_err(DirectiveError::Spec)
}

/// A whole number of plain digits.
fn number(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(line: &str, expected: Option<Result<FilterSpec, DirectiveError>>) {
        assert_eq!(parse(line.as_bytes()), expected, "reading {line:?}");
    }

    #[test]
    fn reads_filter_directives() {
        case(
            "# filter: scheme=murmur3 bits=100 hashes=10",
            Some(
                FilterSpec::new(Scheme::Murmur3, Some(100), Some(10)).map_err(DirectiveError::Spec),
            ),
        );
        case(
            "#filter: scheme=djb2-fnv",
            Some(FilterSpec::new(Scheme::Djb2Fnv, None, None).map_err(DirectiveError::Spec)),
        );
        case(
            "# filter: m=128",
            Some(FilterSpec::new(Scheme::ByteSum, Some(128), None).map_err(DirectiveError::Spec)),
        );
        case(
            "# filter: counting=4",
            Some(
                FilterSpec::lesson()
                    .with_counters(Some(4))
                    .map_err(DirectiveError::Spec),
            ),
        );
        case(
            "# filter: scheme=djb2-fnv counting=2",
            Some(
                FilterSpec::new(Scheme::Djb2Fnv, None, None)
                    .and_then(|s| s.with_counters(Some(2)))
                    .map_err(DirectiveError::Spec),
            ),
        );
        case("# just a comment", None);
        case("ADD x", None);
    }

    #[test]
    fn refuses_what_it_cannot_use() {
        use DirectiveError::*;
        case(
            "# filter: scheme=sha1",
            Some(Err(UnknownScheme(b"sha1".to_vec()))),
        );
        case(
            "# filter: scheme=bytesum hashes=3",
            Some(Err(Spec(SpecError::ByteSumNeedsTwo(3)))),
        );
        case("# filter: bits", Some(Err(NotNameValue(b"bits".to_vec()))));
        case(
            "# filter: size=3",
            Some(Err(UnknownSetting(b"size".to_vec()))),
        );
        case("# filter: bits=16 m=32", Some(Err(Repeated("bits"))));
        case(
            "# filter: counting=9",
            Some(Err(Spec(SpecError::CounterBits(9)))),
        );
        case(
            "# filter: counting=0",
            Some(Err(Spec(SpecError::CounterBits(0)))),
        );
        case(
            "# filter: counting=yes",
            Some(Err(BadNumber {
                setting: "counting",
                value: b"yes".to_vec(),
            })),
        );
        case(
            "# filter: counting=4 counting=4",
            Some(Err(Repeated("counting"))),
        );
        case(
            "# filter: scheme=murmur3 scheme=murmur3",
            Some(Err(Repeated("scheme"))),
        );
        case(
            "# filter: bits=-1",
            Some(Err(BadNumber {
                setting: "bits",
                value: b"-1".to_vec(),
            })),
        );
        case(
            "# filter: hashes=99999999999",
            Some(Err(BadNumber {
                setting: "hashes",
                value: b"99999999999".to_vec(),
            })),
        );
        case(
            "# filter: bits=+5",
            Some(Err(BadNumber {
                setting: "bits",
                value: b"+5".to_vec(),
            })),
        );
    }
}
