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

/// Whether `text` holds a character [`escaped`] hides behind an escape: a control or format
/// character, which a terminal may act on (an escape sequence, a bidi override) rather
/// than show. Unlike [`needs_escape`], a backslash is not one.
pub fn has_hidden(text: &str) -> bool {
    text.chars().any(hidden)
}

/// `bytes` escaped as a `String`.
pub fn escape(bytes: &[u8]) -> String {
    escaped(bytes).to_string()
}

/// A path for a message, escaped like any other bytes: a file name can hold an escape
/// sequence or a newline as easily as a key can.
pub fn path(p: &std::path::Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        escape(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        escape(p.to_string_lossy().as_bytes())
    }
}

/// Text from elsewhere (a library's message that may echo the user's input) with every
/// control and format character escaped, but its line breaks and backslashes kept (it may
/// already hold escapes of ours).
pub fn text_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// At most [`PREFIX_BYTES`] of `bytes`, escaped, then `... (N bytes in all)` when there was
/// more: a bounded picture of an input of any length.
pub fn escape_prefix(bytes: &[u8]) -> String {
    escape_prefix_of(bytes, PREFIX_BYTES)
}

/// [`escaped_ascii`] of at most [`PREFIX_BYTES`] of `bytes`, then how long it was.
pub fn escape_ascii_prefix(bytes: &[u8]) -> String {
    if bytes.len() <= PREFIX_BYTES {
        return escaped_ascii(bytes).to_string();
    }
    format!(
        "{}... ({} bytes in all)",
        escaped_ascii(&bytes[..PREFIX_BYTES]),
        bytes.len()
    )
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

/// Whether a character is shown as an escape: controls, line and paragraph separators, and
/// every format character (Unicode's category Cf: bidi controls, zero-width characters, the
/// soft hyphen, tag characters...), which change how the text around them looks, or hide
/// text, without showing themselves.
pub(crate) fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{ad}'                       // soft hyphen
            | '\u{600}'..='\u{605}'        // Arabic number signs
            | '\u{61c}'                     // Arabic letter mark (a bidi control)
            | '\u{6dd}' | '\u{70f}' | '\u{890}'..='\u{891}' | '\u{8e2}'
            | '\u{180e}'                    // Mongolian vowel separator
            | '\u{200b}'..='\u{200f}'      // zero-width spaces and joiners, LRM, RLM
            | '\u{2028}'..='\u{202e}'      // line and paragraph separators, bidi embeddings
            | '\u{2060}'..='\u{2064}'      // word joiner, invisible operators
            | '\u{2066}'..='\u{206f}'      // bidi isolates, deprecated format characters
            | '\u{feff}'                    // byte-order mark
            | '\u{fff9}'..='\u{fffb}'      // interlinear annotation
            | '\u{110bd}' | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'    // Egyptian hieroglyph format controls
            | '\u{1bca0}'..='\u{1bca3}'    // shorthand format controls
            | '\u{1d173}'..='\u{1d17a}'    // musical symbol format controls
            | '\u{e0001}' | '\u{e0020}'..='\u{e007f}' // language tag and tag characters
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
    fn format_characters_are_escaped() {
        case("a\u{61c}b".as_bytes(), "a\\u{61c}b");
        case("\u{ad}".as_bytes(), "\\u{ad}");
        case("x\u{e0041}".as_bytes(), "x\\u{e0041}");
        case("\u{2028}".as_bytes(), "\\u{2028}");
    }

    #[test]
    fn paths_and_foreign_text_are_escaped() {
        assert_eq!(
            path(std::path::Path::new("e\x1b[31mvil\nx")),
            "e\\u{1b}[31mvil\\nx"
        );
        assert_eq!(
            text_lines("bad '\x1b]0;t\x07'\nnext"),
            "bad '\\u{1b}]0;t\\u{7}'\nnext"
        );
        assert_eq!(
            text_lines("got `\\u{1}`"),
            "got `\\u{1}`",
            "escapes of ours are kept"
        );
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
