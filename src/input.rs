//! Piped input: finds lines in a byte stream fast and runs each one against a session.

use std::io::{self, ErrorKind, Read, Write};

use crate::command::Command;
use crate::scheme::{FilterSpec, Scheme};
use crate::session::{Flow, Session};

/// How many bytes are read at a time; a longer line grows the buffer.
const CHUNK: usize = 128 * 1024;

/// Where a script's lines come from, for messages: stdin or a named file.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    Stdin,
    File(&'a str),
}

impl Source<'_> {
    /// "line 3" for stdin, "`s.txt` line 3" for a file.
    pub fn at(&self, line_no: u64) -> String {
        match self {
            Source::Stdin => format!("line {line_no}"),
            Source::File(name) => format!("{name}, line {line_no}"),
        }
    }
}

/// How a script ended.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ScriptEnd {
    /// Lines that were not valid commands.
    pub bad_lines: u64,
    /// The script said QUIT: no later script should run.
    pub quit: bool,
}

/// What [`for_each_line`] hands its callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// A line with its 1-based number, without its `\n` and one trailing `\r`.
    Line(u64, &'a [u8]),
    /// The reader is about to wait for more input: the place to flush output.
    Waiting,
}

/// Reads lines from `input` and hands each one to `f`, until the input ends or `f` says
/// [`Flow::Quit`]. A last line without `\n` counts.
pub fn for_each_line(
    mut input: impl Read,
    mut f: impl FnMut(Event<'_>) -> io::Result<Flow>,
) -> io::Result<Flow> {
    let mut buf = vec![0u8; CHUNK];
    let (mut start, mut end, mut line_no) = (0usize, 0usize, 0u64);
    loop {
        while let Some(i) = memchr::memchr(b'\n', &buf[start..end]) {
            line_no += 1;
            let line = strip_cr(&buf[start..start + i]);
            start += i + 1;
            if f(Event::Line(line_no, line))? == Flow::Quit {
                return Ok(Flow::Quit);
            }
        }
        // Keep the partial line, at the front of the buffer, growing it if the line fills it.
        buf.copy_within(start..end, 0);
        end -= start;
        start = 0;
        if end == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        f(Event::Waiting)?;
        let n = loop {
            match input.read(&mut buf[end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if n == 0 {
            if end > 0 {
                line_no += 1;
                return f(Event::Line(line_no, strip_cr(&buf[..end])));
            }
            return Ok(Flow::Continue);
        }
        end += n;
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Runs a script against `session`: answers to `out`, one message per bad line to `err`.
/// With `spec_fixed`, the command line chose the filter and `# filter:` lines are ignored.
pub fn run_script(
    input: impl Read,
    source: Source<'_>,
    session: &mut Session,
    spec_fixed: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ScriptEnd> {
    let mut end = ScriptEnd::default();
    let flow = for_each_line(input, |event| {
        let (line_no, line) = match event {
            Event::Line(n, line) => (n, line),
            Event::Waiting => {
                out.flush()?;
                return Ok(Flow::Continue);
            }
        };
        let problem = match Command::parse(line) {
            Ok(Some(cmd)) => return session.execute(&cmd, out),
            Ok(None) => match parse_directive(line) {
                None => return Ok(Flow::Continue),
                Some(Ok(spec)) if spec_fixed => {
                    if spec != *session.spec() {
                        writeln!(
                            err,
                            "note: {}: `# filter:` ignored, the command line chose {}",
                            source.at(line_no),
                            session.spec()
                        )?;
                    }
                    return Ok(Flow::Continue);
                }
                Some(Ok(spec)) if session.is_untouched() => {
                    session.reshape(spec);
                    return Ok(Flow::Continue);
                }
                Some(Ok(_)) => "a `# filter:` line must come before the first command".to_string(),
                Some(Err(why)) => why,
            },
            Err(e) => e.to_string(),
        };
        end.bad_lines += 1;
        // Answers already written come first, so messages appear where they belong.
        out.flush()?;
        writeln!(err, "error: {}: {problem}", source.at(line_no))?;
        Ok(Flow::Continue)
    })?;
    end.quit = flow == Flow::Quit;
    out.flush()?;
    Ok(end)
}

/// A `# filter: scheme=murmur3 bits=100 hashes=10` line, which names the filter a script
/// was written for. `None` for any other line; bits and hashes default to the scheme's text.
pub fn parse_directive(line: &[u8]) -> Option<Result<FilterSpec, String>> {
    let rest = line.strip_prefix(b"#")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"filter:")?;
    let rest = String::from_utf8_lossy(rest);
    let (mut scheme, mut m, mut k) = (None, None, None);
    for word in rest.split_ascii_whitespace() {
        let Some((name, value)) = word.split_once('=') else {
            return Some(Err(format!(
                "expected name=value in `# filter:`, got `{word}` (for example `# filter: scheme=murmur3 bits=100 hashes=10`)"
            )));
        };
        let bad_number = || format!("expected a whole number for `{name}`, got `{value}`");
        match name {
            "scheme" => match Scheme::from_name(value) {
                Some(s) => scheme = Some(s),
                None => {
                    return Some(Err(format!(
                        "unknown scheme `{value}`, expected bytesum, djb2-fnv or murmur3"
                    )));
                }
            },
            "bits" | "m" => match value.parse() {
                Ok(v) => m = Some(v),
                Err(_) => return Some(Err(bad_number())),
            },
            "hashes" | "k" => match value.parse() {
                Ok(v) => k = Some(v),
                Err(_) => return Some(Err(bad_number())),
            },
            _ => {
                return Some(Err(format!(
                    "unknown setting `{name}` in `# filter:`, expected scheme, bits or hashes"
                )));
            }
        }
    }
    let scheme = scheme.unwrap_or(Scheme::ByteSum);
    Some(FilterSpec::new(scheme, m, k).map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let mut got = Vec::new();
        for_each_line(input, |event| {
            if let Event::Line(n, l) = event {
                got.push((n, l.to_vec()));
            }
            Ok(Flow::Continue)
        })
        .unwrap();
        got
    }

    #[test]
    fn splits_lines_and_strips_one_cr() {
        let got = lines_of(b"a\r\nb\n\nc\r\r\nlast");
        let want: Vec<(u64, Vec<u8>)> = vec![
            (1, b"a".to_vec()),
            (2, b"b".to_vec()),
            (3, b"".to_vec()),
            (4, b"c\r".to_vec()),
            (5, b"last".to_vec()),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn handles_lines_longer_than_the_buffer() {
        let long = vec![b'x'; CHUNK * 3 + 7];
        let mut input = long.clone();
        input.extend_from_slice(b"\nend\n");
        let got = lines_of(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1, long);
        assert_eq!(got[1].1, b"end");
    }

    /// A reader that hands out its bytes a few at a time, as a pipe may.
    struct Trickle<'a> {
        data: &'a [u8],
        sizes: std::iter::Cycle<std::vec::IntoIter<usize>>,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self
                .sizes
                .next()
                .unwrap_or(1)
                .min(buf.len())
                .min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    proptest::proptest! {
        #[test]
        fn lines_do_not_depend_on_how_reads_are_split(
            data in proptest::collection::vec(proptest::sample::select(vec![b'a', b'\n', b'\r', b'x']), 0..300),
            sizes in proptest::collection::vec(1usize..9, 1..8),
        ) {
            let mut got = Vec::new();
            let reader = Trickle { data: &data, sizes: sizes.into_iter().cycle() };
            for_each_line(reader, |event| {
                if let Event::Line(n, l) = event {
                    got.push((n, l.to_vec()));
                }
                Ok(Flow::Continue)
            })
            .unwrap();
            proptest::prop_assert_eq!(got, lines_of(&data));
        }
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(lines_of(b"").is_empty());
    }

    #[test]
    fn reads_filter_directives() {
        let spec = parse_directive(b"# filter: scheme=murmur3 bits=100 hashes=10").unwrap();
        assert_eq!(
            spec,
            FilterSpec::new(Scheme::Murmur3, Some(100), Some(10)).map_err(|e| e.to_string())
        );
        let spec = parse_directive(b"#filter: scheme=djb2-fnv").unwrap();
        assert_eq!(
            spec,
            FilterSpec::new(Scheme::Djb2Fnv, None, None).map_err(|e| e.to_string())
        );
        assert!(parse_directive(b"# just a comment").is_none());
        assert!(parse_directive(b"ADD x").is_none());
        assert!(parse_directive(b"# filter: scheme=sha1").unwrap().is_err());
        assert!(
            parse_directive(b"# filter: scheme=bytesum hashes=3")
                .unwrap()
                .is_err()
        );
    }
}
