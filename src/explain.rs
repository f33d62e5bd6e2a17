//! The tutor's commentary: what a command did and why, built from the values the session used.

use crate::scheme::FilterSpec;
use crate::session::{Knowledge, REMEMBERED_KEYS, Session};
use crate::theory;

/// A key as a person should read it: plain when it is printable text without edge spaces,
/// otherwise quoted with escapes; long keys are shortened.
pub fn show_key(key: &[u8]) -> String {
    const LONG: usize = 40;
    let text = String::from_utf8_lossy(key);
    let plain = std::str::from_utf8(key).is_ok()
        && !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.chars().any(char::is_control);
    let chars: Vec<char> = text.chars().collect();
    let shown: String = if chars.len() > LONG {
        let head: String = chars[..30].iter().collect();
        format!("{head}... ({} bytes)", key.len())
    } else {
        text.into_owned()
    };
    if plain {
        shown
    } else {
        let escaped: String = shown.escape_debug().collect();
        format!("\"{escaped}\"")
    }
}

fn join(items: impl IntoIterator<Item = u64>) -> String {
    items
        .into_iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn bits_word(n: usize) -> &'static str {
    if n == 1 { "bit" } else { "bits" }
}

/// Positions in order, each once.
fn distinct(positions: &[u64]) -> Vec<u64> {
    let mut seen = Vec::with_capacity(positions.len());
    for &p in positions {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

/// One line on the ADD just run: its positions and which bits it newly set.
pub fn after_add(s: &Session, key: &[u8]) -> String {
    let t = s.trace();
    let head = format!(
        "ADD {}: positions {}",
        show_key(key),
        join(t.positions.iter().copied())
    );
    let new: Vec<u64> = t
        .positions
        .iter()
        .zip(&t.was_set)
        .filter(|(_, was)| !**was)
        .map(|(&p, _)| p)
        .collect();
    let old: Vec<u64> = distinct(&t.positions)
        .into_iter()
        .filter(|p| !new.contains(p))
        .collect();
    match (new.len(), old.len()) {
        (0, _) => format!("{head}; every bit was already 1, so this ADD changed nothing"),
        (_, 0) => format!("{head}; newly set {} {}", bits_word(new.len()), join(new)),
        _ => format!(
            "{head}; newly set {} {}, {} {} already 1",
            bits_word(new.len()),
            join(new),
            bits_word(old.len()),
            join(old.iter().copied()) + if old.len() == 1 { " was" } else { " were" }
        ),
    }
}

/// One line on the CHECK just run: which bit makes NO certain, or what kind of MAYBE it is.
pub fn after_check(s: &Session, key: &[u8]) -> String {
    let t = s.trace();
    let shown = show_key(key);
    let head = format!(
        "CHECK {shown}: positions {}",
        join(t.positions.iter().copied())
    );
    let zeros = distinct(
        &t.positions
            .iter()
            .zip(&t.was_set)
            .filter(|(_, set)| !**set)
            .map(|(&p, _)| p)
            .collect::<Vec<_>>(),
    );
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
    match s.knows(key) {
        Knowledge::Added => format!("{head}; all 1, and {shown} was added, so MAYBE is right"),
        Knowledge::NeverAdded => format!(
            "{head}; all 1, but {shown} was never added: a false positive ({})",
            blame(s, &t.positions)
        ),
        Knowledge::Unknown => format!(
            "{head}; all 1, but the tutor remembers only the first {REMEMBERED_KEYS} keys, so it \
             cannot tell whether this MAYBE is real or a false positive"
        ),
    }
}

/// "bit 22 was set by date, bit 39 by lime": the remembered key that first set each bit.
fn blame(s: &Session, positions: &[u64]) -> String {
    distinct(positions)
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let by = match s.setter_of(p) {
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

/// The line written after CLEAR in commentary.
pub fn after_clear(spec: &FilterSpec) -> String {
    format!(
        "CLEAR: all {} bits are 0 again and every key is forgotten",
        spec.bits()
    )
}

/// EXPLAIN: the arithmetic from bytes to positions, each bit's state, and CHECK's answer.
pub fn key(s: &Session, key: &[u8]) -> Vec<String> {
    let spec = s.spec();
    let shown = show_key(key);
    let mut lines = vec![format!("EXPLAIN {shown} ({spec})")];
    lines.extend(spec.derivation(key).into_iter().map(|l| format!("  {l}")));
    let mut positions = Vec::new();
    spec.positions(key, &mut positions);
    let mut zeros = Vec::new();
    for p in distinct(&positions) {
        if s.filter().test(p) {
            let by = match s.setter_of(p) {
                Some(k) => format!(" (first set by {})", show_key(k)),
                None => String::new(),
            };
            lines.push(format!("  bit {p} is 1{by}"));
        } else {
            zeros.push(p);
            lines.push(format!("  bit {p} is 0"));
        }
    }
    lines.push(match (zeros.is_empty(), s.knows(key)) {
        (false, _) => format!(
            "CHECK {shown} would answer NO: {} {} {} 0, so {shown} was never added",
            bits_word(zeros.len()),
            join(zeros.iter().copied()),
            if zeros.len() == 1 { "is" } else { "are" }
        ),
        (true, Knowledge::Added) => {
            format!("CHECK {shown} would answer MAYBE: every bit is 1, and {shown} was added")
        }
        (true, Knowledge::NeverAdded) => format!(
            "CHECK {shown} would answer MAYBE: every bit is 1, but {shown} was never added, \
             so that MAYBE would be a false positive"
        ),
        (true, Knowledge::Unknown) => format!(
            "CHECK {shown} would answer MAYBE: every bit is 1 (the tutor's memory is full, so \
             it cannot tell whether {shown} was added)"
        ),
    });
    lines
}

/// STATS: keys, fill, and the chance of a false positive by fill and by formula.
pub fn stats(s: &Session) -> Vec<String> {
    let spec = s.spec();
    let (m, k) = (spec.bits(), spec.hashes());
    let set = s.filter().count_ones();
    let adds = s.adds();
    let (n, keys_line) = match s.distinct_keys() {
        Some(d) => (
            d as f64,
            format!("keys added: {d} distinct ({adds} ADD commands)"),
        ),
        None => (
            adds as f64,
            format!(
                "keys added: {adds} ADD commands; more than {REMEMBERED_KEYS} distinct keys, \
                 so the estimates below count every ADD as a new key"
            ),
        ),
    };
    let fill = set as f64 / m as f64;
    let est = theory::keys_from_fill(set, m, k);
    vec![
        format!("STATS for {spec}"),
        keys_line,
        format!("bits set: {set} of {m} ({})", percent(fill)),
        format!(
            "chance of a false positive now, (bits set / m)^k = ({set}/{m})^{k} = {}",
            rate(theory::fp_from_fill(set, m, k))
        ),
        format!(
            "textbook estimate, (1 - e^(-kn/m))^k with n = {n} = {}",
            rate(theory::fp_textbook(n, m, k))
        ),
        if est.is_finite() {
            format!("distinct keys estimated from the fill, -(m/k)*ln(1 - X/m) = {est:.1}")
        } else {
            "distinct keys estimated from the fill: every bit is set, so the estimate is unbounded"
                .to_string()
        },
    ]
}

/// A probability as a number and a percentage: `0.0088 (0.88%)`.
pub fn rate(p: f64) -> String {
    format!("{p:.4} ({})", percent(p))
}

/// A fraction as a percentage with two significant decimals.
pub fn percent(x: f64) -> String {
    let pct = x * 100.0;
    if pct == 0.0 || pct >= 0.1 {
        format!("{pct:.2}%")
    } else {
        format!("{pct:.2e}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_shown_readably() {
        assert_eq!(show_key(b"fig"), "fig");
        assert_eq!(show_key(b"hello world"), "hello world");
        assert_eq!(show_key(b" fig"), "\" fig\"");
        assert_eq!(show_key(b"a\tb"), "\"a\\tb\"");
        assert_eq!(show_key("café".as_bytes()), "café");
        assert_eq!(show_key(b"\xff"), "\"\u{fffd}\"");
        assert!(show_key(&[b'x'; 100]).ends_with("... (100 bytes)"));
    }

    #[test]
    fn percentages_stay_readable() {
        assert_eq!(percent(0.0088), "0.88%");
        assert_eq!(percent(0.000012), "1.20e-3%");
        assert_eq!(percent(0.25), "25.00%");
        assert_eq!(percent(0.0), "0.00%");
    }
}
