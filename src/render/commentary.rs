//! The tutor's commentary: what a command did and why, in words, built only from the
//! numbers in its outcome.

use crate::engine::bloom::{Answer, Probe};
use crate::engine::memory::{Knowledge, Limit, REMEMBERED_BYTES, REMEMBERED_KEYS};
use crate::engine::scheme::{Derivation, FilterSpec};
use crate::escape;
use crate::script::session::{Explained, Outcome, Recall, Stats};
use crate::units::{percent, rate};

/// The commentary lines for an outcome: one line for ADD, CHECK and CLEAR; the whole text
/// of EXPLAIN, STATS and HELP; nothing for BITS and QUIT.
pub(crate) fn lines(outcome: &Outcome<'_>) -> Vec<String> {
    match outcome {
        Outcome::Added { key, probe } => vec![added(key, *probe)],
        Outcome::Checked {
            key, probe, recall, ..
        } => vec![checked(key, *probe, *recall)],
        Outcome::Cleared { spec } => vec![cleared(spec)],
        Outcome::Explained(e) => explained(e),
        Outcome::Stats(s) => stats(s),
        Outcome::Help(topic) => crate::render::help::text(*topic),
        Outcome::Bits { .. } | Outcome::Quit => Vec::new(),
    }
}

/// A key as a person should read it: plain when it is printable text without edge spaces,
/// otherwise quoted with escapes (`"\xff"`); keys of more than 40 characters are shortened.
pub(crate) fn show_key(key: &[u8]) -> String {
    const LONG: usize = 40;
    const HEAD: usize = 30;
    let plain = std::str::from_utf8(key).is_ok_and(|text| {
        !text.starts_with(' ')
            && !text.ends_with(' ')
            && !text.contains('"')
            && !escape::needs_escape(text)
    });
    let (head, tail) = match cut_after(key, LONG) {
        Some(_) => (
            &key[..cut_after(key, HEAD).unwrap_or(key.len())],
            format!("... ({} bytes)", key.len()),
        ),
        None => (key, String::new()),
    };
    if plain {
        format!("{}{tail}", String::from_utf8_lossy(head))
    } else {
        let shown = escape::escape(head).replace('"', "\\\"");
        format!("\"{shown}{tail}\"")
    }
}

/// The byte length of the first `n` characters of `key` (a byte that is not UTF-8 counts as
/// one), or `None` when it has no more than `n`. Reads only as far as it needs.
fn cut_after(key: &[u8], n: usize) -> Option<usize> {
    let (mut count, mut offset) = (0, 0);
    for chunk in key.utf8_chunks() {
        let lens = chunk.valid().chars().map(char::len_utf8);
        for len in lens.chain(chunk.invalid().iter().map(|_| 1)) {
            if count == n {
                return Some(offset);
            }
            count += 1;
            offset += len;
        }
    }
    None
}

fn join(items: impl IntoIterator<Item = u64>) -> String {
    items
        .into_iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn bits_word(n: usize) -> &'static str {
    plural(n as u64, "bit", "bits")
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// Positions in order, each once.
fn distinct(positions: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut seen = Vec::new();
    for p in positions {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

/// The positions whose bit was (or was not, with `set` false) 1, in order, each once.
fn where_bit(probe: Probe<'_>, set: bool) -> Vec<u64> {
    distinct(
        probe
            .positions
            .iter()
            .zip(probe.was_set)
            .filter(|&(_, &was)| was == set)
            .map(|(&p, _)| p),
    )
}

/// One line on an ADD: its positions and which bits it newly set.
pub(crate) fn added(key: &[u8], probe: Probe<'_>) -> String {
    let head = format!(
        "ADD {}: positions {}",
        show_key(key),
        join(probe.positions.iter().copied())
    );
    let new = where_bit(probe, false);
    let old: Vec<u64> = where_bit(probe, true)
        .into_iter()
        .filter(|p| !new.contains(p))
        .collect();
    match (new.len(), old.len()) {
        (0, _) => format!("{head}; every bit was already 1, so this ADD changed nothing"),
        (_, 0) => format!("{head}; newly set {} {}", bits_word(new.len()), join(new)),
        _ => format!(
            "{head}; newly set {} {}; {} {} already 1",
            bits_word(new.len()),
            join(new),
            bits_word(old.len()),
            join(old.iter().copied()) + if old.len() == 1 { " was" } else { " were" }
        ),
    }
}

/// What the tutor says when memory is full and it cannot tell a MAYBE's kind.
fn memory_full(full: Option<Limit>) -> String {
    match full {
        Some(Limit::Bytes) => format!(
            "the tutor remembers at most {} MiB of keys and some were too long to keep",
            REMEMBERED_BYTES >> 20
        ),
        Some(Limit::Keys) | None => {
            format!("the tutor remembers only the first {REMEMBERED_KEYS} keys")
        }
    }
}

/// One line on a CHECK: which bit makes NO certain, or what kind of MAYBE it is.
pub(crate) fn checked(key: &[u8], probe: Probe<'_>, recall: Recall<'_>) -> String {
    let shown = show_key(key);
    let head = format!(
        "CHECK {shown}: positions {}",
        join(probe.positions.iter().copied())
    );
    let zeros = where_bit(probe, false);
    if !zeros.is_empty() {
        let (noun, verb) = if zeros.len() == 1 {
            ("bit", "is")
        } else {
            ("bits", "are")
        };
        return format!(
            "{head}; {noun} {} {verb} 0, so {shown} was never added and NO is certain",
            join(zeros)
        );
    }
    match recall.knows(key) {
        Knowledge::Added => format!("{head}; all 1, and {shown} was added, so MAYBE is right"),
        Knowledge::NeverAdded => format!(
            "{head}; all 1, but {shown} was never added: a false positive ({})",
            blame(recall, probe.positions)
        ),
        Knowledge::Unknown => format!(
            "{head}; all 1, but {}, so it cannot tell whether this MAYBE is real or a false positive",
            memory_full(recall.full())
        ),
    }
}

/// "bit 22 was set by date, bit 39 by lime": the remembered key that first set each bit.
fn blame(recall: Recall<'_>, positions: &[u64]) -> String {
    distinct(positions.iter().copied())
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let by = match recall.setter_of(p) {
                Some(k) => show_key(k),
                None => "a key added after the tutor's memory filled".to_string(),
            };
            if i == 0 {
                format!("bit {p} was set by {by}")
            } else {
                format!("bit {p} by {by}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line on a CLEAR.
pub(crate) fn cleared(spec: &FilterSpec) -> String {
    format!(
        "CLEAR: all {} bits are 0 again and every key is forgotten",
        spec.bits()
    )
}

/// EXPLAIN: the arithmetic from bytes to positions, each bit's state, and CHECK's answer.
pub(crate) fn explained(e: &Explained<'_>) -> Vec<String> {
    let shown = show_key(e.key);
    let mut lines = vec![format!("EXPLAIN {shown} ({})", e.spec)];
    lines.extend(
        derivation(&e.spec, e.key, &e.facts.derivation)
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    let mut zeros = Vec::new();
    for &(p, set) in &e.facts.bits {
        if set {
            let by = match e.recall.setter_of(p) {
                Some(k) => format!(" (first set by {})", show_key(k)),
                None => String::new(),
            };
            lines.push(format!("  bit {p} is 1{by}"));
        } else {
            zeros.push(p);
            lines.push(format!("  bit {p} is 0"));
        }
    }
    lines.push(match (e.facts.answer, e.recall.knows(e.key)) {
        (Answer::No, _) => format!(
            "CHECK {shown} would answer NO: {} {} {} 0, so {shown} was never added",
            bits_word(zeros.len()),
            join(zeros.iter().copied()),
            if zeros.len() == 1 { "is" } else { "are" }
        ),
        (Answer::Maybe, Knowledge::Added) => {
            format!("CHECK {shown} would answer MAYBE: every bit is 1, and {shown} was added")
        }
        (Answer::Maybe, Knowledge::NeverAdded) => format!(
            "CHECK {shown} would answer MAYBE: every bit is 1, but {shown} was never added, \
             so that MAYBE would be a false positive"
        ),
        (Answer::Maybe, Knowledge::Unknown) => format!(
            "CHECK {shown} would answer MAYBE: every bit is 1 ({}, so it cannot tell whether \
             {shown} was added)",
            memory_full(e.recall.full())
        ),
    });
    lines
}

/// How many bytes of a key the arithmetic writes out before it shortens the rest.
const SHOWN_BYTES: usize = 12;

/// A key's bytes as decimal numbers, shortened in the middle when long.
fn show_bytes(key: &[u8]) -> String {
    show_terms(key, |_, b| b.to_string()).replace(" + ", " ")
}

/// `f(i, byte)` for each byte joined by ` + `; keys longer than SHOWN_BYTES show the first
/// eight terms and the last two around a count of those left out.
fn show_terms(key: &[u8], f: impl Fn(usize, u8) -> String) -> String {
    let terms =
        |range: std::ops::Range<usize>| range.map(|i| f(i, key[i])).collect::<Vec<_>>().join(" + ");
    if key.len() <= SHOWN_BYTES {
        terms(0..key.len())
    } else {
        let hidden = key.len() - 10;
        format!(
            "{} + ... ({hidden} more) ... + {}",
            terms(0..8),
            terms(key.len() - 2..key.len())
        )
    }
}

/// The arithmetic that takes a key to its positions, one line per step.
pub(crate) fn derivation(spec: &FilterSpec, key: &[u8], d: &Derivation) -> Vec<String> {
    let mut lines = vec![format!("bytes: {}", show_bytes(key))];
    let m = spec.bits();
    match d {
        Derivation::ByteSum { h1, h2, positions } => {
            let terms1 = show_terms(key, |_, b| b.to_string());
            let terms2 = show_terms(key, |i, b| format!("{b}*{}", i + 1));
            lines.push(format!(
                "h1 = {terms1} = {h1}; {h1} mod {m} = {}",
                positions[0]
            ));
            lines.push(format!(
                "h2 = {terms2} = {h2}; {h2} mod {m} = {}",
                positions[1]
            ));
        }
        Derivation::Djb2Fnv {
            a,
            b,
            step,
            positions,
        } => {
            lines.push(format!(
                "a = djb2-xor: start at 5381, then a = (a*33) xor byte for each byte, kept to 32 bits = {a}"
            ));
            lines.push(format!(
                "b = FNV-1a: start at 2166136261, then b = (b xor byte)*16777619 for each byte, kept to 32 bits = {b}"
            ));
            lines.push(format!(
                "step = b mod (m-1) + 1 = {b} mod {} + 1 = {step}",
                m - 1
            ));
            for (j, (sum, pos)) in positions.iter().enumerate() {
                lines.push(format!(
                    "position {j} = (a + {j}*step) mod {m} = {sum} mod {m} = {pos}"
                ));
            }
        }
        Derivation::Murmur3 { hashes } => {
            for (seed, (h, pos)) in hashes.iter().enumerate() {
                lines.push(format!(
                    "seed {seed}: murmur3 = {h}; {h} mod {m} = {pos} (floor modulo)"
                ));
            }
        }
    }
    lines
}

/// STATS: keys, fill, and the chance of a false positive by fill and by formula.
pub(crate) fn stats(s: &Stats) -> Vec<String> {
    let (m, k) = (s.spec.bits(), s.spec.hashes());
    let (set, adds) = (s.bits_set, s.adds);
    let keys_line = match s.distinct {
        Some(d) => format!(
            "keys added: {d} distinct ({adds} ADD {})",
            plural(adds, "command", "commands")
        ),
        None => format!(
            "keys added: {adds} ADD {}; {}, so the estimates below count every ADD as a new key",
            plural(adds, "command", "commands"),
            match s.full {
                Some(Limit::Bytes) => format!(
                    "the keys passed the {} MiB the tutor remembers",
                    REMEMBERED_BYTES >> 20
                ),
                Some(Limit::Keys) | None => format!("more than {REMEMBERED_KEYS} distinct keys"),
            }
        ),
    };
    vec![
        format!("STATS for {}", s.spec),
        keys_line,
        format!(
            "bits set: {set} of {m} ({})",
            percent(set as f64 / m as f64)
        ),
        format!(
            "chance of a false positive now, (bits set / m)^k = ({set}/{m})^{k} = {}",
            rate(s.fp_fill)
        ),
        format!(
            "textbook estimate, (1 - e^(-kn/m))^k with n = {} = {}",
            s.n,
            rate(s.fp_textbook)
        ),
        if s.keys_from_fill.is_finite() {
            // ln(1) is 0, and -(m/k)*0 is -0.0: an empty filter holds 0 keys, not -0.
            let keys = s.keys_from_fill + 0.0;
            format!(
                "keys estimated from the X = {set} {} set, -(m/k)*ln(1 - X/m) = {}",
                plural(set, "bit", "bits"),
                if keys == 0.0 {
                    "0".to_string()
                } else {
                    format!("{keys:.1}")
                }
            )
        } else {
            "distinct keys estimated from the fill: every bit is set, so the estimate is unbounded"
                .to_string()
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::Scheme;

    #[test]
    fn keys_are_shown_readably() {
        assert_eq!(show_key(b"fig"), "fig");
        assert_eq!(show_key(b"hello world"), "hello world");
        assert_eq!(show_key(b" fig"), "\" fig\"");
        assert_eq!(show_key(b"a\tb"), "\"a\\tb\"");
        assert_eq!(show_key("café".as_bytes()), "café");
        assert_eq!(show_key(b"\xff"), "\"\\xff\"");
        assert_ne!(show_key(b"\xff"), show_key(b"\xfe"));
        assert_eq!(show_key(b"\x1b[2J"), "\"\\u{1b}[2J\"");
        assert_eq!(show_key(b"say \"hi\""), "\"say \\\"hi\\\"\"");
        assert!(show_key(&[b'x'; 100]).ends_with("... (100 bytes)"));
        assert_eq!(show_key(&[b'x'; 100]).len(), 30 + "... (100 bytes)".len());
    }

    #[test]
    fn a_huge_key_is_shown_in_a_few_bytes() {
        let key = vec![0xffu8; 50 << 20];
        let shown = show_key(&key);
        assert!(shown.len() < 200, "{shown}");
        assert!(
            shown.ends_with(&format!("... ({} bytes)\"", 50 << 20)),
            "{shown}"
        );
    }

    #[test]
    fn stats_on_an_empty_filter_say_0_and_define_x() {
        let session = crate::script::session::PlainSession::new(FilterSpec::lesson());
        let mut session = session;
        let lines = match session.execute(&crate::script::command::Command::Stats) {
            Ok(Outcome::Stats(s)) => stats(s),
            other => panic!("STATS gave {other:?}"),
        };
        let text = lines.join("\n");
        assert!(!text.contains("-0"), "{text}");
        assert!(
            text.contains("keys estimated from the X = 0 bits set, -(m/k)*ln(1 - X/m) = 0"),
            "{text}"
        );
    }

    /// Commentary from a fixed outcome, with no session behind it.
    #[test]
    fn add_and_check_lines_from_fixed_outcomes() {
        let probe = Probe {
            positions: &[9, 1, 9],
            was_set: &[false, true, true],
        };
        assert_eq!(
            added(b"cat", probe),
            "ADD cat: positions 9, 1, 9; newly set bit 9; bit 1 was already 1"
        );
        let all_old = Probe {
            positions: &[22, 39],
            was_set: &[true, true],
        };
        assert_eq!(
            added(b"sun", all_old),
            "ADD sun: positions 22, 39; every bit was already 1, so this ADD changed nothing"
        );
    }

    #[test]
    fn stats_lines_from_fixed_numbers() {
        let s = Stats {
            spec: FilterSpec::lesson(),
            adds: 3,
            distinct: Some(3),
            full: None,
            bits_set: 6,
            fp_fill: 0.0087890625,
            n: 3.0,
            fp_textbook: 0.0077,
            keys_from_fill: 3.1,
        };
        let lines = stats(&s);
        assert_eq!(lines[1], "keys added: 3 distinct (3 ADD commands)");
        assert_eq!(lines[2], "bits set: 6 of 64 (9.38%)");
        assert!(
            lines[3].ends_with("= (6/64)^2 = 0.0088 (0.88%)"),
            "{}",
            lines[3]
        );
    }

    #[test]
    fn derivation_shows_the_lessons_arithmetic() {
        let spec = FilterSpec::lesson();
        let lines = derivation(&spec, b"fig", &spec.derivation(b"fig"));
        assert_eq!(lines[0], "bytes: 102 105 103");
        assert_eq!(lines[1], "h1 = 102 + 105 + 103 = 310; 310 mod 64 = 54");
        assert_eq!(
            lines[2],
            "h2 = 102*1 + 105*2 + 103*3 = 621; 621 mod 64 = 45"
        );
        let spec = FilterSpec::new(Scheme::Murmur3, None, Some(1)).unwrap();
        let lines = derivation(&spec, b"foo", &spec.derivation(b"foo"));
        assert_eq!(
            lines[1],
            "seed 0: murmur3 = -156908512; -156908512 mod 100 = 88 (floor modulo)"
        );
    }

    #[test]
    fn derivation_shortens_long_keys() {
        let spec = FilterSpec::lesson();
        let key = [b'a'; 40];
        let lines = derivation(&spec, &key, &spec.derivation(&key));
        assert!(lines[1].contains("... (30 more) ..."), "{}", lines[1]);
        assert!(lines[1].ends_with(&format!(
            "= {}; {} mod 64 = {}",
            97 * 40,
            97 * 40,
            97 * 40 % 64
        )));
    }
}
