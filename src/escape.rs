//! The one way the tutor shows a user's bytes to a person: printable UTF-8 as it is,
//! everything else as an escape, so a key, a file or a learner's program can never put raw
//! control sequences on the terminal or make two different byte strings look the same.

use std::fmt::{self, Write as _};

/// How many bytes of a long input a message shows before it says how long the rest is.
pub const PREFIX_BYTES: usize = 60;

/// `bytes` shown for a person, written through `Display` without allocating.
///
/// - printable UTF-8 characters stay as they are (`café` is `café`);
/// - `\t`, `\n`, `\r` and `\\` are written as those two-character escapes;
/// - other control characters, and invisible characters that reorder or hide text (bidi
///   controls, zero-width spaces, the byte-order mark), as `\u{1b}`;
/// - bytes that are not UTF-8 as `\xff`, one escape per byte.
///
/// Different byte strings always show differently.
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a> {
    bytes: &'a [u8],
    ascii_only: bool,
}

/// Shows `bytes` as [`Escaped`] describes.
pub fn escaped(bytes: &[u8]) -> Escaped<'_> {
    Escaped {
        bytes,
        ascii_only: false,
    }
}

/// Like [`escaped`], but every character outside ASCII is escaped too (`\u{391}` for the
/// Greek capital alpha), for command words, where a look-alike letter must be visible.
pub fn escaped_ascii(bytes: &[u8]) -> Escaped<'_> {
    Escaped {
        bytes,
        ascii_only: true,
    }
}

/// Whether [`escaped`] would change `text`.
pub fn needs_escape(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\t' | '\n' | '\r' | '\\') || hidden(c))
}

/// `bytes` escaped as a `String`.
pub fn escape(bytes: &[u8]) -> String {
    escaped(bytes).to_string()
}

/// At most [`PREFIX_BYTES`] of `bytes`, escaped, then `... (N bytes in all)` when there was
/// more: a bounded picture of an input of any length.
pub fn escape_prefix(bytes: &[u8]) -> String {
    escape_prefix_of(bytes, PREFIX_BYTES)
}

/// [`escape_prefix`] with another limit, in bytes of the input.
pub fn escape_prefix_of(bytes: &[u8], limit: usize) -> String {
    if bytes.len() <= limit {
        return escape(bytes);
    }
    // Back up to a character boundary when the cut falls inside a UTF-8 sequence (at most
    // three bytes), so the prefix does not end in a spurious `\xc3`.
    let mut cut = limit;
    while cut > limit - 3.min(limit) && is_continuation(bytes[cut]) {
        cut -= 1;
    }
    format!(
        "{}... ({} bytes in all)",
        escaped(&bytes[..cut]),
        bytes.len()
    )
}

fn is_continuation(b: u8) -> bool {
    b & 0xc0 == 0x80
}

/// Whether a character is shown as an escape: controls, and format characters that change
/// how the text around them looks without showing themselves.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}'   // zero-width spaces and joiners, LRM, RLM
            | '\u{2028}'..='\u{202e}' // line and paragraph separators, bidi embeddings
            | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{feff}'              // byte-order mark
            | '\u{fff9}'..='\u{fffb}' // interlinear annotation
        )
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                match c {
                    '\t' => f.write_str("\\t")?,
                    '\n' => f.write_str("\\n")?,
                    '\r' => f.write_str("\\r")?,
                    '\\' => f.write_str("\\\\")?,
                    c if hidden(c) || (self.ascii_only && !c.is_ascii()) => {
                        write!(f, "\\u{{{:x}}}", u32::from(c))?;
                    }
                    c => f.write_char(c)?,
                }
            }
            for &b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(input: &[u8], expected: &str) {
        assert_eq!(escape(input), expected, "escaping {input:?}");
    }

    #[test]
    fn printable_text_is_kept() {
        case(b"fig", "fig");
        case(b"hello world", "hello world");
        case("café".as_bytes(), "café");
        case("日本".as_bytes(), "日本");
    }

    #[test]
    fn controls_are_escaped() {
        case(b"a\tb", "a\\tb");
        case(b"\r\n", "\\r\\n");
        case(b"\x1b[2J", "\\u{1b}[2J");
        case(b"\x07\x00\x7f", "\\u{7}\\u{0}\\u{7f}");
        case("\u{202e}abc".as_bytes(), "\\u{202e}abc");
        case("\u{feff}ADD".as_bytes(), "\\u{feff}ADD");
        case("\u{9b}".as_bytes(), "\\u{9b}");
    }

    #[test]
    fn invalid_bytes_are_shown_one_by_one() {
        case(b"\xff", "\\xff");
        case(b"\xfe", "\\xfe");
        case(b"a\xc3", "a\\xc3");
        case(b"\xc3\xa9\xff", "é\\xff");
    }

    #[test]
    fn different_bytes_never_look_the_same() {
        assert_ne!(escape(b"\xff"), escape(b"\xfe"));
        assert_ne!(escape(b"\\xff"), escape(b"\xff"));
        assert_ne!(escape(b"\\t"), escape(b"\t"));
    }

    #[test]
    fn ascii_only_shows_look_alike_letters() {
        assert_eq!(escaped_ascii("ΑDD".as_bytes()).to_string(), "\\u{391}DD");
        assert_eq!(escaped_ascii(b"ADD").to_string(), "ADD");
    }

    #[test]
    fn long_input_is_shown_as_a_bounded_prefix() {
        let long = vec![b'x'; 1_000_000];
        let shown = escape_prefix(&long);
        assert!(shown.len() < 100, "{shown}");
        assert!(shown.ends_with("... (1000000 bytes in all)"), "{shown}");
        assert_eq!(escape_prefix(b"short"), "short");
    }

    #[test]
    fn prefix_does_not_split_a_character() {
        let mut s = "x".repeat(59).into_bytes();
        s.extend_from_slice("é".as_bytes());
        s.extend_from_slice(b"tail");
        let shown = escape_prefix(&s);
        assert!(!shown.contains("\\x"), "{shown}");
        assert!(shown.starts_with(&"x".repeat(59)), "{shown}");
    }
}
