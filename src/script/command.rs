//! One input line → one command, or a typed error saying what was expected.

use std::fmt;

use crate::escape::{escape_ascii_prefix, escape_prefix};

/// A command word the tutor knows, with what it takes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    Add,
    Check,
    Remove,
    Bits,
    Counts,
    Explain,
    Stats,
    Clear,
    Save,
    Load,
    Union,
    Intersect,
    Help,
    Quit,
}

/// What follows a command word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// A key: every byte after the first space, not empty.
    Key,
    /// Nothing.
    Nothing,
    /// An optional topic (HELP ADD).
    Topic,
    /// A file name: every byte after the first space, not empty.
    File,
}

impl Verb {
    /// Every verb, in the order help lists them.
    pub const ALL: [Verb; 14] = [
        Verb::Add,
        Verb::Check,
        Verb::Bits,
        Verb::Remove,
        Verb::Counts,
        Verb::Explain,
        Verb::Stats,
        Verb::Clear,
        Verb::Save,
        Verb::Load,
        Verb::Union,
        Verb::Intersect,
        Verb::Help,
        Verb::Quit,
    ];

    /// The word as the user types it (in any case); EXIT is another word for QUIT.
    pub fn word(self) -> &'static str {
        match self {
            Verb::Add => "ADD",
            Verb::Check => "CHECK",
            Verb::Remove => "REMOVE",
            Verb::Bits => "BITS",
            Verb::Counts => "COUNTS",
            Verb::Explain => "EXPLAIN",
            Verb::Stats => "STATS",
            Verb::Clear => "CLEAR",
            Verb::Save => "SAVE",
            Verb::Load => "LOAD",
            Verb::Union => "UNION",
            Verb::Intersect => "INTERSECT",
            Verb::Help => "HELP",
            Verb::Quit => "QUIT",
        }
    }

    pub fn takes(self) -> Takes {
        match self {
            Verb::Add | Verb::Check | Verb::Remove | Verb::Explain => Takes::Key,
            Verb::Help => Takes::Topic,
            Verb::Save | Verb::Load | Verb::Union | Verb::Intersect => Takes::File,
            Verb::Bits | Verb::Counts | Verb::Stats | Verb::Clear | Verb::Quit => Takes::Nothing,
        }
    }

    /// The verb spelled `word`, in any case.
    pub fn from_word(word: &[u8]) -> Option<Verb> {
        // This runs once per line of a million-line script, so the word is packed into an
        // integer and compared whole. OR-ing 0x20 lowercases ASCII letters, and a byte
        // becomes a lowercase letter only if it was that letter in either case.
        // Every word but INTERSECT is 3 to 7 bytes, so eight bytes hold any of them.
        if word.len() == 9 {
            return word
                .eq_ignore_ascii_case(b"intersect")
                .then_some(Verb::Intersect);
        }
        if word.is_empty() || word.len() > 8 {
            return None;
        }
        let mut folded = 0u64;
        for (i, &b) in word.iter().enumerate() {
            folded |= u64::from(b | 0x20) << (8 * i);
        }
        const fn pack(w: &[u8]) -> u64 {
            let mut v = 0u64;
            let mut i = 0;
            while i < w.len() {
                v |= (w[i] as u64) << (8 * i);
                i += 1;
            }
            v
        }
        const ADD: u64 = pack(b"add");
        const CHECK: u64 = pack(b"check");
        const REMOVE: u64 = pack(b"remove");
        const BITS: u64 = pack(b"bits");
        const COUNTS: u64 = pack(b"counts");
        const EXPLAIN: u64 = pack(b"explain");
        const STATS: u64 = pack(b"stats");
        const CLEAR: u64 = pack(b"clear");
        const SAVE: u64 = pack(b"save");
        const LOAD: u64 = pack(b"load");
        const UNION: u64 = pack(b"union");
        const HELP: u64 = pack(b"help");
        const QUIT: u64 = pack(b"quit");
        const EXIT: u64 = pack(b"exit");
        Some(match folded {
            ADD => Verb::Add,
            CHECK => Verb::Check,
            REMOVE => Verb::Remove,
            BITS => Verb::Bits,
            COUNTS => Verb::Counts,
            EXPLAIN => Verb::Explain,
            STATS => Verb::Stats,
            CLEAR => Verb::Clear,
            SAVE => Verb::Save,
            LOAD => Verb::Load,
            UNION => Verb::Union,
            HELP => Verb::Help,
            QUIT | EXIT => Verb::Quit,
            _ => return None,
        })
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// One parsed line. Keys borrow the line's bytes, exactly as they were.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command<'a> {
    Add(&'a [u8]),
    Check(&'a [u8]),
    Remove(&'a [u8]),
    Bits,
    Counts,
    Explain(&'a [u8]),
    Stats,
    Clear,
    /// SAVE, LOAD, UNION and INTERSECT hold the file name's bytes, exactly as they were.
    Save(&'a [u8]),
    Load(&'a [u8]),
    Union(&'a [u8]),
    Intersect(&'a [u8]),
    /// HELP, or HELP with a topic such as `ADD`.
    Help(Option<&'a [u8]>),
    Quit,
}

/// A line that is not a command, and what was expected instead. It borrows the line, so a
/// parse result costs no allocation and nothing to drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineError<'a> {
    /// The first word is no command; holds the word.
    UnknownCommand(&'a [u8]),
    /// A key (or file) command with nothing after it (`ADD`).
    MissingKey(Verb),
    /// A key (or file) command followed by a space and nothing else (`ADD `).
    EmptyKey(Verb),
    /// A command that takes nothing was given something (`BITS 3`).
    UnexpectedArgument(Verb, &'a [u8]),
    /// A known command word glued to its key by something other than a space (`ADD\tfig`).
    NeedsSpace(Verb),
    /// DELETE, a word people try for REMOVE.
    Delete,
    /// The line starts with a space, so its first word is empty.
    LeadingSpace,
}

impl fmt::Display for LineError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::UnknownCommand(word) => {
                write!(f, "unknown command `{}`", escape_ascii_prefix(word))?;
                if !word.is_ascii() && std::str::from_utf8(word).is_ok() {
                    // ΑDD with a Greek capital alpha looks like ADD: say why it is not.
                    f.write_str(" (it has letters that are not plain ASCII)")?;
                }
                f.write_str(", expected ADD, CHECK or BITS (HELP lists every command)")
            }
            LineError::MissingKey(verb) if verb.takes() == Takes::File => {
                write!(f, "{verb} needs a file name, expected `{verb} file`")
            }
            LineError::MissingKey(verb) => write!(f, "{verb} needs a key, expected `{verb} key`"),
            LineError::EmptyKey(verb) if verb.takes() == Takes::File => write!(
                f,
                "the file name after `{verb} ` is empty, expected `{verb} file` (the name is everything after the first space)"
            ),
            LineError::EmptyKey(verb) => write!(
                f,
                "the key after `{verb} ` is empty, expected `{verb} key` (the key is everything after the first space)"
            ),
            LineError::UnexpectedArgument(verb, arg) => {
                write!(
                    f,
                    "{verb} takes nothing after it, got `{}`",
                    escape_prefix(arg)
                )
            }
            LineError::NeedsSpace(verb) => {
                let what = match verb.takes() {
                    Takes::Key => " key",
                    Takes::Topic => " command",
                    Takes::File => " file",
                    Takes::Nothing => "",
                };
                write!(
                    f,
                    "`{verb}` must be followed by a space, expected `{verb}{what}` (a tab does not separate words)"
                )
            }
            LineError::LeadingSpace => write!(
                f,
                "the line starts with a space, expected a command such as ADD, CHECK or BITS at its start"
            ),
            LineError::Delete => write!(
                f,
                "unknown command `DELETE`, expected REMOVE (HELP REMOVE says what it does)"
            ),
        }
    }
}

impl std::error::Error for LineError<'_> {}

impl<'a> Command<'a> {
    /// Parses one line, without its line ending. `Ok(None)` is a line to skip: blank
    /// (empty or only spaces and tabs) or a comment (first byte `#`).
    ///
    /// The command word is the bytes before the first space, in any case; the key is every
    /// byte after that space, kept exactly.
    pub fn parse(line: &'a [u8]) -> Result<Option<Command<'a>>, LineError<'a>> {
        // Nearly every line of a long script is an ADD or a CHECK, which is neither blank
        // nor a comment: try those first.
        if let Some(cmd) = fast_path(line) {
            return Ok(Some(cmd));
        }
        match line.first() {
            None | Some(b'#') => return Ok(None),
            Some(b' ' | b'\t') if line.iter().all(|&b| b == b' ' || b == b'\t') => {
                return Ok(None);
            }
            _ => {}
        }
        Command::parse_full(line).map(Some)
    }

    /// The command's word.
    pub fn verb(&self) -> Verb {
        match self {
            Command::Add(_) => Verb::Add,
            Command::Check(_) => Verb::Check,
            Command::Remove(_) => Verb::Remove,
            Command::Bits => Verb::Bits,
            Command::Counts => Verb::Counts,
            Command::Explain(_) => Verb::Explain,
            Command::Stats => Verb::Stats,
            Command::Clear => Verb::Clear,
            Command::Save(_) => Verb::Save,
            Command::Load(_) => Verb::Load,
            Command::Union(_) => Verb::Union,
            Command::Intersect(_) => Verb::Intersect,
            Command::Help(_) => Verb::Help,
            Command::Quit => Verb::Quit,
        }
    }

    /// The key of ADD, CHECK, REMOVE and EXPLAIN.
    pub fn key(&self) -> Option<&'a [u8]> {
        match *self {
            Command::Add(key)
            | Command::Check(key)
            | Command::Remove(key)
            | Command::Explain(key) => Some(key),
            Command::Bits
            | Command::Counts
            | Command::Stats
            | Command::Clear
            | Command::Save(_)
            | Command::Load(_)
            | Command::Union(_)
            | Command::Intersect(_)
            | Command::Help(_)
            | Command::Quit => None,
        }
    }

    /// The parser without the fast path, for any line that is not blank or a comment.
    fn parse_full(line: &'a [u8]) -> Result<Command<'a>, LineError<'a>> {
        let (word, rest) = match first_space(line) {
            Some(i) => (&line[..i], Some(&line[i + 1..])),
            None => (line, None),
        };
        let Some(verb) = Verb::from_word(word) else {
            return Err(unknown_word(word));
        };
        let key = || match rest {
            None => Err(LineError::MissingKey(verb)),
            Some([]) => Err(LineError::EmptyKey(verb)),
            Some(key) => Ok(key),
        };
        // `BITS ` with nothing after the space has no argument.
        let nothing = || match rest {
            Some(arg) if !arg.is_empty() => Err(LineError::UnexpectedArgument(verb, arg)),
            _ => Ok(()),
        };
        let cmd = match verb {
            Verb::Add => Command::Add(key()?),
            Verb::Check => Command::Check(key()?),
            Verb::Remove => Command::Remove(key()?),
            Verb::Explain => Command::Explain(key()?),
            Verb::Save => Command::Save(key()?),
            Verb::Load => Command::Load(key()?),
            Verb::Union => Command::Union(key()?),
            Verb::Intersect => Command::Intersect(key()?),
            Verb::Bits => nothing().map(|()| Command::Bits)?,
            Verb::Counts => nothing().map(|()| Command::Counts)?,
            Verb::Stats => nothing().map(|()| Command::Stats)?,
            Verb::Clear => nothing().map(|()| Command::Clear)?,
            Verb::Quit => nothing().map(|()| Command::Quit)?,
            Verb::Help => Command::Help(rest.filter(|t| !t.is_empty())),
        };
        Ok(cmd)
    }
}

/// `ADD key` and `CHECK key` with a non-empty key, recognised from the first eight bytes
/// at once: nearly every line of a long script takes this path. Anything else is `None`
/// and goes through the full parser.
#[inline]
fn fast_path(line: &[u8]) -> Option<Command<'_>> {
    const ADD: u64 = u64::from_le_bytes(*b"add \0\0\0\0");
    const CHECK: u64 = u64::from_le_bytes(*b"check \0\0");
    // Lowercases letters (see `Verb::from_word`) and leaves the space a space.
    const FOLD3: u64 = 0x0000_0000_0020_2020;
    const FOLD5: u64 = 0x0000_0020_2020_2020;
    let head = u64::from_le_bytes(line.get(..8)?.try_into().ok()?);
    if (head | FOLD3) & 0xffff_ffff == ADD {
        return Some(Command::Add(&line[4..]));
    }
    if (head | FOLD5) & 0xffff_ffff_ffff == CHECK {
        return Some(Command::Check(&line[6..]));
    }
    None
}

/// The index of the first space. Command words are short, so a plain loop over the first
/// few bytes beats a vectorised search; longer words fall back to one.
#[inline]
fn first_space(line: &[u8]) -> Option<usize> {
    let head = &line[..line.len().min(8)];
    match head.iter().position(|&b| b == b' ') {
        Some(i) => Some(i),
        None if line.len() > 8 => memchr::memchr(b' ', &line[8..]).map(|i| i + 8),
        None => None,
    }
}

/// The error for a first word that is no command, recognising two near misses.
fn unknown_word(word: &[u8]) -> LineError<'_> {
    if word.is_empty() {
        return LineError::LeadingSpace;
    }
    if word.eq_ignore_ascii_case(b"DELETE") {
        return LineError::Delete;
    }
    // `ADD\tfig`, `BITS\t`: a known word followed by white space that is not a space.
    for verb in Verb::ALL {
        let w = verb.word().as_bytes();
        if word.len() > w.len()
            && word[..w.len()].eq_ignore_ascii_case(w)
            && matches!(word[w.len()], b'\t' | b'\x0b' | b'\x0c')
        {
            return match verb.takes() {
                Takes::Nothing => LineError::UnexpectedArgument(verb, &word[w.len()..]),
                Takes::Key | Takes::Topic | Takes::File => LineError::NeedsSpace(verb),
            };
        }
    }
    LineError::UnknownCommand(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(input: &[u8], expected: Result<Option<Command<'_>>, LineError<'_>>) {
        assert_eq!(
            Command::parse(input),
            expected,
            "parsing {:?}",
            String::from_utf8_lossy(input)
        );
    }

    #[test]
    fn parses_the_protocol() {
        case(b"ADD fig", Ok(Some(Command::Add(b"fig"))));
        case(b"CHECK plum", Ok(Some(Command::Check(b"plum"))));
        case(b"BITS", Ok(Some(Command::Bits)));
        case(b"add fig", Ok(Some(Command::Add(b"fig"))));
        case(b"cHeCk fig", Ok(Some(Command::Check(b"fig"))));
        case(b"bits", Ok(Some(Command::Bits)));
    }

    #[test]
    fn key_is_everything_after_the_first_space() {
        case(b"ADD hello world", Ok(Some(Command::Add(b"hello world"))));
        case(b"ADD  fig", Ok(Some(Command::Add(b" fig"))));
        case(b"ADD fig ", Ok(Some(Command::Add(b"fig "))));
        case(b"CHECK \xff\xfe", Ok(Some(Command::Check(b"\xff\xfe"))));
        case(b"ADD #1", Ok(Some(Command::Add(b"#1"))));
        case(b"ADD \t", Ok(Some(Command::Add(b"\t"))));
    }

    #[test]
    fn skips_blank_lines_and_comments() {
        case(b"", Ok(None));
        case(b"   ", Ok(None));
        case(b" \t ", Ok(None));
        case(b"# a comment", Ok(None));
        case(b"#ADD fig", Ok(None));
    }

    #[test]
    fn rejects_bad_lines() {
        case(b"ADD", Err(LineError::MissingKey(Verb::Add)));
        case(b"CHECK", Err(LineError::MissingKey(Verb::Check)));
        case(b"ADD ", Err(LineError::EmptyKey(Verb::Add)));
        case(
            b"BITS 3",
            Err(LineError::UnexpectedArgument(Verb::Bits, b"3")),
        );
        case(b"FOO bar", Err(LineError::UnknownCommand(b"FOO")));
        case(b" ADD fig", Err(LineError::LeadingSpace));
        case(b"ADDfig", Err(LineError::UnknownCommand(b"ADDfig")));
        case(b"ADD\tfig", Err(LineError::NeedsSpace(Verb::Add)));
        case(b"REMOVE fig", Ok(Some(Command::Remove(b"fig"))));
        case(b"REMOVE", Err(LineError::MissingKey(Verb::Remove)));
        case(b"DELETE fig", Err(LineError::Delete));
        case(
            b"BITS\t",
            Err(LineError::UnexpectedArgument(Verb::Bits, b"\t")),
        );
        case(
            b"STATS\tx",
            Err(LineError::UnexpectedArgument(Verb::Stats, b"\tx")),
        );
        case(b"HELP\tADD", Err(LineError::NeedsSpace(Verb::Help)));
        case(b"\xff", Err(LineError::UnknownCommand(b"\xff")));
        case(b"ADD@ x", Err(LineError::UnknownCommand(b"ADD@")));
        case(b"A\x04D x", Err(LineError::UnknownCommand(b"A\x04D")));
        case(b"CHECKS x", Err(LineError::UnknownCommand(b"CHECKS")));
        case(b"ad x", Err(LineError::UnknownCommand(b"ad")));
        // The separator must be a space on the fast path too.
        case(b"CHECK\0fig", Err(LineError::UnknownCommand(b"CHECK\0fig")));
        case(b"ADD\0fig", Err(LineError::UnknownCommand(b"ADD\0fig")));
    }

    #[test]
    fn accepts_the_tutors_own_commands() {
        case(b"EXPLAIN sun", Ok(Some(Command::Explain(b"sun"))));
        case(b"STATS", Ok(Some(Command::Stats)));
        case(b"CLEAR", Ok(Some(Command::Clear)));
        case(b"HELP", Ok(Some(Command::Help(None))));
        case(b"help add", Ok(Some(Command::Help(Some(b"add")))));
        case(b"QUIT", Ok(Some(Command::Quit)));
        case(b"exit", Ok(Some(Command::Quit)));
        case(b"Explain x", Ok(Some(Command::Explain(b"x"))));
        case(b"BITS ", Ok(Some(Command::Bits)));
    }

    #[test]
    fn accepts_the_counting_and_file_commands() {
        case(b"COUNTS", Ok(Some(Command::Counts)));
        case(
            b"counts x",
            Err(LineError::UnexpectedArgument(Verb::Counts, b"x")),
        );
        case(b"SAVE f.bloom", Ok(Some(Command::Save(b"f.bloom"))));
        case(b"load my filter", Ok(Some(Command::Load(b"my filter"))));
        case(b"Union a", Ok(Some(Command::Union(b"a"))));
        case(b"INTERSECT b", Ok(Some(Command::Intersect(b"b"))));
        case(b"intersect b", Ok(Some(Command::Intersect(b"b"))));
        case(b"SAVE", Err(LineError::MissingKey(Verb::Save)));
        case(b"LOAD ", Err(LineError::EmptyKey(Verb::Load)));
        case(
            b"INTERSECTS b",
            Err(LineError::UnknownCommand(b"INTERSECTS")),
        );
        case(b"INTERSEC b", Err(LineError::UnknownCommand(b"INTERSEC")));
        case(b"SAVE\tf", Err(LineError::NeedsSpace(Verb::Save)));
        assert_eq!(
            LineError::MissingKey(Verb::Save).to_string(),
            "SAVE needs a file name, expected `SAVE file`"
        );
    }

    /// Every command word in mixed case, followed by every byte value, then a few keys: the
    /// fast path must agree with the full parser on each line.
    #[test]
    fn fast_path_agrees_with_the_full_parser_on_every_separator() {
        let mut lines = 0;
        for verb in Verb::ALL {
            let word = verb.word().as_bytes();
            // Every combination of upper and lower case letters.
            for mask in 0u32..1 << word.len() {
                let cased: Vec<u8> = word
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| {
                        if mask >> i & 1 == 1 {
                            b.to_ascii_lowercase()
                        } else {
                            b
                        }
                    })
                    .collect();
                for sep in 0..=255u8 {
                    for key in [&b""[..], b"fig", b" x", b"\xff\x00", b"abcdefgh"] {
                        let mut line = cased.clone();
                        line.push(sep);
                        line.extend_from_slice(key);
                        if let Some(cmd) = fast_path(&line) {
                            assert_eq!(Ok(cmd), Command::parse_full(&line), "line {line:?}");
                            assert_eq!(sep, b' ', "only a space separates: {line:?}");
                        }
                        lines += 1;
                    }
                }
            }
        }
        assert!(lines > 100_000, "only {lines} lines were tried");
    }

    proptest::proptest! {
        /// Any line at all, not only `word + " " + key`: both parsers agree, and nothing panics.
        #[test]
        fn parsers_agree_on_arbitrary_lines(
            line in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..24),
            word in proptest::sample::select(vec![&b"ADD"[..], b"add", b"CHECK", b"cHeCk", b"BITS", b"REMOVE"]),
            prefixed in proptest::prelude::any::<bool>(),
        ) {
            let line = if prefixed { [word, &line[..]].concat() } else { line };
            if let Some(cmd) = fast_path(&line) {
                proptest::prop_assert_eq!(Ok(cmd), Command::parse_full(&line));
            }
            let _ = Command::parse(&line);
        }
    }

    #[test]
    fn messages_name_what_was_expected() {
        let msg = LineError::UnknownCommand(b"FOO").to_string();
        assert!(
            msg.starts_with("unknown command `FOO`, expected ADD, CHECK or BITS"),
            "{msg}"
        );
        let msg = LineError::UnknownCommand(b"BITS\r\x1b").to_string();
        assert!(msg.starts_with("unknown command `BITS\\r\\u{1b}`"), "{msg}");
        let msg = LineError::UnknownCommand("ΑDD".as_bytes()).to_string();
        assert!(
            msg.starts_with("unknown command `\\u{391}DD` (it has letters"),
            "{msg}"
        );
        let msg = LineError::UnknownCommand(b"\xff\xfe").to_string();
        assert!(msg.starts_with("unknown command `\\xff\\xfe`"), "{msg}");
        let msg = LineError::MissingKey(Verb::Add).to_string();
        assert_eq!(msg, "ADD needs a key, expected `ADD key`");
    }
}
