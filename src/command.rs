//! One input line → one command, or a typed error saying what was expected.

use std::fmt;

/// A command word the tutor knows, with what it takes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    Add,
    Check,
    Bits,
    Explain,
    Stats,
    Clear,
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
}

impl Verb {
    /// Every verb, in the order help lists them.
    pub const ALL: [Verb; 8] = [
        Verb::Add,
        Verb::Check,
        Verb::Bits,
        Verb::Explain,
        Verb::Stats,
        Verb::Clear,
        Verb::Help,
        Verb::Quit,
    ];

    /// The word as the user types it (in any case); EXIT is another word for QUIT.
    pub fn word(self) -> &'static str {
        match self {
            Verb::Add => "ADD",
            Verb::Check => "CHECK",
            Verb::Bits => "BITS",
            Verb::Explain => "EXPLAIN",
            Verb::Stats => "STATS",
            Verb::Clear => "CLEAR",
            Verb::Help => "HELP",
            Verb::Quit => "QUIT",
        }
    }

    pub fn takes(self) -> Takes {
        match self {
            Verb::Add | Verb::Check | Verb::Explain => Takes::Key,
            Verb::Help => Takes::Topic,
            Verb::Bits | Verb::Stats | Verb::Clear | Verb::Quit => Takes::Nothing,
        }
    }

    /// The verb spelled `word`, in any case.
    pub fn from_word(word: &[u8]) -> Option<Verb> {
        // This runs once per line of a million-line script, so the word is packed into an
        // integer and compared whole. OR-ing 0x20 lowercases ASCII letters, and a byte
        // becomes a lowercase letter only if it was that letter in either case.
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
        const BITS: u64 = pack(b"bits");
        const EXPLAIN: u64 = pack(b"explain");
        const STATS: u64 = pack(b"stats");
        const CLEAR: u64 = pack(b"clear");
        const HELP: u64 = pack(b"help");
        const QUIT: u64 = pack(b"quit");
        const EXIT: u64 = pack(b"exit");
        Some(match folded {
            ADD => Verb::Add,
            CHECK => Verb::Check,
            BITS => Verb::Bits,
            EXPLAIN => Verb::Explain,
            STATS => Verb::Stats,
            CLEAR => Verb::Clear,
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
    Bits,
    Explain(&'a [u8]),
    Stats,
    Clear,
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
    /// A key command with nothing after it (`ADD`).
    MissingKey(Verb),
    /// A key command followed by a space and nothing else (`ADD `).
    EmptyKey(Verb),
    /// A command that takes nothing was given something (`BITS 3`).
    UnexpectedArgument(Verb, &'a [u8]),
    /// A known command word glued to its key by something other than a space (`ADD\tfig`).
    NeedsSpace(Verb),
    /// REMOVE, which a plain Bloom filter cannot do.
    Remove,
    /// The line starts with a space, so its first word is empty.
    LeadingSpace,
}

/// The user's bytes as text for a message: invalid UTF-8 shown lossily, control characters
/// escaped so a stray CR or escape code cannot garble the terminal.
fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).escape_debug().to_string()
}

impl fmt::Display for LineError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::UnknownCommand(word) => write!(
                f,
                "unknown command `{}`, expected ADD, CHECK or BITS (HELP lists every command)",
                shown(word)
            ),
            LineError::MissingKey(verb) => write!(f, "{verb} needs a key, expected `{verb} key`"),
            LineError::EmptyKey(verb) => write!(
                f,
                "the key after `{verb} ` is empty, expected `{verb} key` (the key is everything after the first space)"
            ),
            LineError::UnexpectedArgument(verb, arg) => {
                write!(f, "{verb} takes nothing after it, got `{}`", shown(arg))
            }
            LineError::NeedsSpace(verb) => write!(
                f,
                "`{verb}` must be followed by a space, expected `{verb} key` (a tab does not separate the key)"
            ),
            LineError::LeadingSpace => write!(
                f,
                "the line starts with a space, expected a command such as ADD, CHECK or BITS at its start"
            ),
            LineError::Remove => write!(
                f,
                "REMOVE is not possible in a plain Bloom filter: clearing a key's bits could clear \
                 bits other keys need, and they would then get a wrong NO (CLEAR empties the whole filter)"
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
        match line.first() {
            None | Some(b'#') => return Ok(None),
            Some(b' ' | b'\t') if line.iter().all(|&b| b == b' ' || b == b'\t') => {
                return Ok(None);
            }
            _ => {}
        }
        if let Some(cmd) = fast_path(line) {
            return Ok(Some(cmd));
        }
        let (word, rest) = match first_space(line) {
            Some(i) => (&line[..i], Some(&line[i + 1..])),
            None => (line, None),
        };
        let Some(verb) = Verb::from_word(word) else {
            return Err(unknown_word(word));
        };
        let cmd = match (verb.takes(), rest) {
            (Takes::Key, None) => return Err(LineError::MissingKey(verb)),
            (Takes::Key, Some([])) => return Err(LineError::EmptyKey(verb)),
            (Takes::Key, Some(key)) => match verb {
                Verb::Add => Command::Add(key),
                Verb::Check => Command::Check(key),
                _ => Command::Explain(key),
            },
            // `BITS ` with nothing after the space has no argument.
            (Takes::Nothing, Some(arg)) if !arg.is_empty() => {
                return Err(LineError::UnexpectedArgument(verb, arg));
            }
            (Takes::Nothing, _) => match verb {
                Verb::Bits => Command::Bits,
                Verb::Stats => Command::Stats,
                Verb::Clear => Command::Clear,
                _ => Command::Quit,
            },
            (Takes::Topic, topic) => Command::Help(topic.filter(|t| !t.is_empty())),
        };
        Ok(Some(cmd))
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
    if word.eq_ignore_ascii_case(b"REMOVE") || word.eq_ignore_ascii_case(b"DELETE") {
        return LineError::Remove;
    }
    // `ADD\tfig`: a known word followed by a separator that is not a space.
    for verb in Verb::ALL {
        let w = verb.word().as_bytes();
        if verb.takes() == Takes::Key
            && word.len() > w.len()
            && word[..w.len()].eq_ignore_ascii_case(w)
            && matches!(word[w.len()], b'\t' | b'\x0b' | b'\x0c')
        {
            return LineError::NeedsSpace(verb);
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
        case(b"REMOVE fig", Err(LineError::Remove));
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
    fn messages_name_what_was_expected() {
        let msg = LineError::UnknownCommand(b"FOO").to_string();
        assert!(
            msg.starts_with("unknown command `FOO`, expected ADD, CHECK or BITS"),
            "{msg}"
        );
        let msg = LineError::UnknownCommand(b"BITS\r\x1b").to_string();
        assert!(msg.starts_with("unknown command `BITS\\r\\u{1b}`"), "{msg}");
        let msg = LineError::MissingKey(Verb::Add).to_string();
        assert_eq!(msg, "ADD needs a key, expected `ADD key`");
    }
}
