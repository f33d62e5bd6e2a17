//! Piped input: finds lines in a byte stream fast, with a bound on how long a line may be.

use std::io::{self, ErrorKind, Read};

/// How many bytes are read at a time.
const CHUNK: usize = 128 * 1024;

/// The longest line the tutor reads, in bytes. A longer line is read through to its end
/// without being kept, and reported with its length: memory stays bounded on any input.
pub const MAX_LINE: usize = 1 << 20;

/// How many bytes of a too-long line are kept, to show in the message.
const HEAD: usize = 64;

/// Where a script's lines come from, for messages: stdin or a named file.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    Stdin,
    File(&'a str),
}

impl Source<'_> {
    /// "line 3" for stdin, "s.txt, line 3" for a file.
    pub fn at(&self, line_no: u64) -> String {
        match self {
            Source::Stdin => format!("line {line_no}"),
            Source::File(name) => format!("{name}, line {line_no}"),
        }
    }
}

/// What happens after a line: go on, or stop reading (QUIT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// What [`for_each_line`] hands its callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// A line with its 1-based number, without its `\n` and one trailing `\r`.
    Line(u64, &'a [u8]),
    /// A line longer than [`MAX_LINE`]: its number, its length in bytes (without the line
    /// ending) and its first bytes.
    TooLong {
        line_no: u64,
        len: u64,
        head: &'a [u8],
    },
    /// The reader is about to wait for more input: the place to flush output.
    Waiting,
}

impl Event<'_> {
    /// A whole line, or its head if it is longer than [`MAX_LINE`].
    fn of_line(line_no: u64, line: &[u8]) -> Event<'_> {
        if line.len() > MAX_LINE {
            Event::TooLong {
                line_no,
                len: line.len() as u64,
                head: &line[..HEAD],
            }
        } else {
            Event::Line(line_no, line)
        }
    }
}

/// Reading the input failed.
#[derive(Debug)]
pub struct ReadError(pub io::Error);

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> io::Error {
        e.0
    }
}

/// Reads lines from `input` and hands each one to `f`, until the input ends, `f` says
/// [`Flow::Quit`] or `f` fails. A last line without `\n` counts. Memory stays under
/// [`MAX_LINE`] plus one chunk whatever the input holds.
pub fn for_each_line<E: From<ReadError>>(
    mut input: impl Read,
    mut f: impl FnMut(Event<'_>) -> Result<Flow, E>,
) -> Result<Flow, E> {
    let mut buf = vec![0u8; CHUNK];
    let (mut start, mut end, mut line_no) = (0usize, 0usize, 0u64);
    // A line of MAX_LINE bytes fits with its CR LF.
    let most = MAX_LINE + 2;
    // While a too-long line is being read through: its first bytes, its length so far, and
    // whether its last byte so far was a CR (not counted if a LF follows).
    let mut skipping: Option<(Vec<u8>, u64, bool)> = None;
    loop {
        if let Some((head, len, cr)) = &mut skipping {
            let chunk = &buf[start..end];
            match memchr::memchr(b'\n', chunk) {
                Some(i) => {
                    let ends_in_cr = if i == 0 { *cr } else { chunk[i - 1] == b'\r' };
                    let len = *len + i as u64 - u64::from(ends_in_cr);
                    let head = std::mem::take(head);
                    start += i + 1;
                    line_no += 1;
                    skipping = None;
                    if f(Event::TooLong {
                        line_no,
                        len,
                        head: &head,
                    })? == Flow::Quit
                    {
                        return Ok(Flow::Quit);
                    }
                }
                None => {
                    *len += chunk.len() as u64;
                    *cr = chunk.last().map_or(*cr, |&b| b == b'\r');
                    start = end;
                }
            }
        }
        if skipping.is_none() {
            while let Some(i) = memchr::memchr(b'\n', &buf[start..end]) {
                line_no += 1;
                let line = strip_cr(&buf[start..start + i]);
                start += i + 1;
                if f(Event::of_line(line_no, line))? == Flow::Quit {
                    return Ok(Flow::Quit);
                }
            }
        }
        // Keep the partial line at the front of the buffer, growing the buffer up to
        // `most`; past that the line is read through without being kept.
        buf.copy_within(start..end, 0);
        end -= start;
        start = 0;
        if end == buf.len() && skipping.is_none() {
            if buf.len() < most {
                buf.resize((buf.len() * 2).min(most), 0);
            } else {
                let cr = buf[end - 1] == b'\r';
                skipping = Some((buf[..HEAD].to_vec(), end as u64, cr));
                end = 0;
            }
        }
        f(Event::Waiting)?;
        let n = loop {
            match input.read(&mut buf[end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError(e).into()),
            }
        };
        if n == 0 {
            if let Some((head, len, cr)) = skipping {
                line_no += 1;
                let len = len - u64::from(cr);
                return f(Event::TooLong {
                    line_no,
                    len,
                    head: &head,
                });
            }
            if end > 0 {
                line_no += 1;
                return f(Event::of_line(line_no, strip_cr(&buf[..end])));
            }
            return Ok(Flow::Continue);
        }
        end += n;
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines `for_each_line` hands out, with their numbers.
    fn lines_of(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let mut got = Vec::new();
        for_each_line(input, |event| {
            if let Event::Line(n, l) = event {
                got.push((n, l.to_vec()));
            }
            Ok::<_, io::Error>(Flow::Continue)
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
        assert!(long.len() < MAX_LINE);
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
                Ok::<_, io::Error>(Flow::Continue)
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
    fn a_line_over_the_limit_is_skipped_with_its_length() {
        let mut input = b"ADD a\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend_from_slice(b"\nCHECK a\n");
        let mut events = Vec::new();
        for_each_line(&input[..], |event| {
            events.push(match event {
                Event::Line(n, l) => format!("{n}: {}", String::from_utf8_lossy(l)),
                Event::TooLong { line_no, len, head } => {
                    format!("{line_no}: too long, {len} bytes, {} shown", head.len())
                }
                Event::Waiting => return Ok::<_, io::Error>(Flow::Continue),
            });
            Ok::<_, io::Error>(Flow::Continue)
        })
        .unwrap();
        assert_eq!(
            events,
            [
                "1: ADD a".to_string(),
                format!("2: too long, {} bytes, {HEAD} shown", MAX_LINE + 10),
                "3: CHECK a".to_string(),
            ]
        );
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let mut input = vec![b'y'; MAX_LINE];
            input.extend_from_slice(ending);
            let got = lines_of(&input);
            assert_eq!(got.len(), 1, "ending {ending:?}");
            assert_eq!(got[0].1.len(), MAX_LINE, "ending {ending:?}");
        }
        let mut input = vec![b'y'; MAX_LINE + 1];
        input.extend_from_slice(b"\r\n");
        assert!(lines_of(&input).is_empty(), "one byte over is too long");
    }

    #[test]
    fn an_endless_line_keeps_memory_bounded() {
        // 64 MiB of zeros with no newline: read through, skipped, never held.
        let zeros = std::io::repeat(0).take(64 << 20);
        let mut too_long = None;
        for_each_line(zeros, |event| {
            if let Event::TooLong { len, .. } = event {
                too_long = Some(len);
            }
            Ok::<_, io::Error>(Flow::Continue)
        })
        .unwrap();
        assert_eq!(too_long, Some(64 << 20));
    }
}
