//! Piped scripts, the tutor's fastest path: reader → parser → session → renderer → writer,
//! with one message on stderr per bad line and a truthful exit status.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::engine::bloom::Tracer;
use crate::engine::filter::OutOfMemory;
use crate::engine::scheme::FilterSpec;
use crate::escape::escaped;
use crate::render::commentary::Role;
use crate::render::{answers, commentary, wrap};
use crate::script::command::{self, Command, LineError};
use crate::script::directive::{self, DirectiveError};
use crate::script::reader::{self, Event, Flow, MAX_LINE, Source, for_each_line};
use crate::script::session::{CommandError, Outcome, PlainSession, Session, TracedSession};

/// How a script ended.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ScriptEnd {
    /// Lines that were not valid commands, or commands that could not run.
    pub bad_lines: u64,
    /// The script said QUIT: no later script should run.
    pub quit: bool,
}

/// Why a script stopped before its end.
#[derive(Debug)]
pub enum ScriptError {
    /// Reading the script failed.
    Read(io::Error),
    /// Writing the answers failed.
    Write(io::Error),
    /// The `# filter:` line names a filter that cannot be made: nothing was run.
    Directive { at: String, error: DirectiveError },
    /// The `# filter:` line names a filter too large for the memory there is.
    Memory { at: String, error: OutOfMemory },
    /// The saved filter to start from could not be loaded (`reason` says why).
    Load { path: String, reason: String },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Read(_) => write!(f, "could not read the script"),
            ScriptError::Write(_) => write!(f, "could not write the answers"),
            ScriptError::Directive { at, error } => {
                write!(f, "{at}: {error}; nothing was run")
            }
            ScriptError::Memory { at, error } => write!(f, "{at}: {error}; nothing was run"),
            ScriptError::Load { path, reason } => {
                write!(f, "could not load `{path}`: {reason}; nothing was run")
            }
        }
    }
}

impl std::error::Error for ScriptError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ScriptError::Read(e) | ScriptError::Write(e) => Some(e),
            // Its message already says what is wrong.
            ScriptError::Directive { .. }
            | ScriptError::Memory { .. }
            | ScriptError::Load { .. } => None,
        }
    }
}

/// A bad line: a parse error, a command that could not run, or a line too long to read.
enum Bad<'a> {
    Line(LineError<'a>),
    Command(CommandError<'a>),
    Directive(DirectiveError),
    Misplaced,
    TooLong { len: u64, head: &'a [u8] },
}

impl fmt::Display for Bad<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bad::Line(e) => e.fmt(f),
            Bad::Command(e) => e.fmt(f),
            Bad::Directive(e) => e.fmt(f),
            Bad::Misplaced => write!(f, "a `# filter:` line must come before the first command"),
            Bad::TooLong { len, head } => write!(
                f,
                "the line is {len} bytes long, more than the {MAX_LINE} a line may have, so it \
                 was skipped (it starts `{}...`)",
                escaped(&head[..head.len().min(24)])
            ),
        }
    }
}

/// The filter and settings for running scripts, as the binary runs them: plain scripts
/// record nothing, `--explain` records everything it explains.
#[derive(Debug, Clone)]
pub struct ScriptRunner {
    session: Sessions,
    /// The command line chose the filter, so `# filter:` lines are ignored.
    spec_fixed: bool,
    /// The command line asked for counters of this width, so a `# filter:` line's filter
    /// gets them.
    counters: Option<u8>,
}

#[derive(Debug, Clone)]
enum Sessions {
    Plain(PlainSession),
    Explained(TracedSession),
}

impl ScriptRunner {
    /// A runner with an empty filter of shape `spec`; with `explain`, ADD, CHECK and CLEAR
    /// write a commentary line (starting with `#`) before their answer. With `spec_fixed`,
    /// `# filter:` lines are ignored.
    pub fn new(spec: FilterSpec, explain: bool, spec_fixed: bool) -> ScriptRunner {
        ScriptRunner {
            session: if explain {
                Sessions::Explained(Session::new(spec))
            } else {
                Sessions::Plain(Session::new(spec))
            },
            spec_fixed,
            counters: None,
        }
    }

    /// [`ScriptRunner::new`], or an error when the filter's bits do not fit in memory: for a
    /// shape a user chose (a filter of 2^32 bits needs 512 MiB).
    pub fn try_new(
        spec: FilterSpec,
        explain: bool,
        spec_fixed: bool,
    ) -> Result<ScriptRunner, OutOfMemory> {
        Ok(ScriptRunner {
            session: if explain {
                Sessions::Explained(Session::try_new(spec)?)
            } else {
                Sessions::Plain(Session::try_new(spec)?)
            },
            spec_fixed,
            counters: None,
        })
    }

    /// The same runner, with counters of `bits` bits (1 to 8) added to the filter a
    /// script's `# filter:` line names, as `--counting` does; `None` leaves it as named.
    pub fn with_counters(mut self, bits: Option<u8>) -> ScriptRunner {
        self.counters = bits;
        self
    }

    /// Replaces the filter with the one saved at `path` (any path: this is the command line's
    /// `--load`, not a script's LOAD), before any script runs; the filter's shape is the
    /// file's, and `# filter:` lines are ignored. With `explain`, says what was loaded.
    pub fn load(&mut self, path: &Path, out: &mut impl Write) -> Result<(), ScriptError> {
        let name = crate::escape::path(path);
        let fail = |reason: String| ScriptError::Load {
            path: name.clone(),
            reason,
        };
        self.spec_fixed = true;
        self.counters = None;
        let shown = match &mut self.session {
            Sessions::Plain(s) => s
                .load_path(path)
                .map(|r| (*r, false))
                .map_err(|e| fail(e.to_string()))?,
            Sessions::Explained(s) => s
                .load_path(path)
                .map(|r| (*r, true))
                .map_err(|e| fail(e.to_string()))?,
        };
        let (report, explain) = shown;
        let outcome = Outcome::Loaded {
            path: name.as_bytes(),
            report: &report,
        };
        render(&outcome, explain, out).map_err(ScriptError::Write)
    }

    /// Runs one script: answers to `out`, one message per bad line to `err`. A failure to
    /// write to `err` is ignored: messages are for a person, and answers go on.
    pub fn run(
        &mut self,
        input: impl Read,
        source: Source<'_>,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> Result<ScriptEnd, ScriptError> {
        let shape = Shape {
            fixed: self.spec_fixed,
            counters: self.counters,
        };
        match &mut self.session {
            Sessions::Plain(s) => run_script(input, source, s, shape, out, err),
            Sessions::Explained(s) => run_script(input, source, s, shape, out, err),
        }
    }
}

/// Writes an outcome as a script shows it: commentary lines (each starting with `# `, and
/// for ADD, CHECK and CLEAR only with `explain`), then the answer.
#[inline(always)]
fn render(outcome: &Outcome<'_>, explain: bool, out: &mut impl Write) -> io::Result<()> {
    let commented = match commentary::role(outcome) {
        Role::Note => explain,
        Role::Text => true,
        Role::None => false,
    };
    if commented {
        let width = comment_width();
        for line in commentary::lines(outcome) {
            if line.is_empty() {
                out.write_all(b"#\n")?;
                continue;
            }
            for part in wrap::wrap_note(&line, width) {
                writeln!(out, "# {part}")?;
            }
        }
    }
    answers::write(outcome, out)
}

/// How wide a comment's text may be, after its `# `: the terminal's width when stdout is
/// one (read once), else [`wrap::PIPED_WIDTH`], so files and golden traces stay stable.
fn comment_width() -> usize {
    static WIDTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WIDTH.get_or_init(|| {
        wrap::Width::for_stdout()
            .columns()
            .saturating_sub(2)
            .max(20)
    })
}

/// Whether a CR inside the line is followed by a command word: the sign of a file whose
/// lines end in CR alone, which reads as one long line.
fn cr_before_a_command(line: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', line).any(|i| {
        let rest = &line[i + 1..];
        let word = rest
            .split(|&b| b == b' ' || b == b'\r')
            .next()
            .unwrap_or(rest);
        command::Verb::from_word(word).is_some()
    })
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// What the command line decided about the filter, against a script's `# filter:` line.
#[derive(Debug, Clone, Copy)]
struct Shape {
    /// Scheme, bits or hashes were given: the line is ignored.
    fixed: bool,
    /// Counters were asked for: the line's filter gets them.
    counters: Option<u8>,
}

fn run_script<T: Tracer, W: Write, E: Write>(
    input: impl Read,
    source: Source<'_>,
    session: &mut Session<T>,
    shape: Shape,
    out: &mut W,
    err: &mut E,
) -> Result<ScriptEnd, ScriptError> {
    let mut run = Run {
        source,
        session,
        shape,
        out,
        err,
        end: ScriptEnd::default(),
        directives: 0,
    };
    let flow = for_each_line(input, |event| match event {
        Event::Line(line_no, line) => run.line(line_no, line),
        Event::Waiting => {
            run.out.flush().map_err(ScriptError::Write)?;
            Ok(Flow::Continue)
        }
        Event::TooLong { line_no, len, head } => run.bad(line_no, Bad::TooLong { len, head }),
    })?;
    run.end.quit = flow == Flow::Quit;
    run.out.flush().map_err(ScriptError::Write)?;
    Ok(run.end)
}

/// One script being run. The common case, a line that is a command, is `line`; everything
/// else is kept out of its way in cold functions, so the loop stays small and fast.
struct Run<'a, T: Tracer, W, E> {
    source: Source<'a>,
    session: &'a mut Session<T>,
    shape: Shape,
    out: &'a mut W,
    err: &'a mut E,
    end: ScriptEnd,
    /// `# filter:` lines seen before the first command.
    directives: u32,
}

impl<T: Tracer, W: Write, E: Write> Run<'_, T, W, E> {
    #[inline(always)]
    fn line(&mut self, line_no: u64, mut line: &[u8]) -> Result<Flow, ScriptError> {
        if line_no == 1 {
            line = self.first_line(line)?;
        }
        match Command::parse(line) {
            Ok(Some(cmd)) => match self.session.execute(&cmd) {
                Ok(outcome) => {
                    // A session that traces is one that explains (see `ScriptRunner::new`).
                    render(&outcome, T::FULL, self.out).map_err(ScriptError::Write)?;
                    Ok(if matches!(outcome, Outcome::Quit) {
                        Flow::Quit
                    } else {
                        Flow::Continue
                    })
                }
                Err(e) => self.bad(line_no, Bad::Command(e)),
            },
            Ok(None) => self.not_a_command(line_no, line),
            Err(e) => self.bad(line_no, Bad::Line(e)),
        }
    }

    /// Checks that look at the first line only: a BOM can only start a file, and a file
    /// whose lines end in CR alone is all one first line.
    #[cold]
    #[inline(never)]
    fn first_line<'l>(&mut self, mut line: &'l [u8]) -> Result<&'l [u8], ScriptError> {
        if let Some(rest) = line.strip_prefix(BOM) {
            line = rest;
            self.say(format_args!(
                "note: {}: skipped a UTF-8 byte-order mark at the start of the script",
                self.source.at(1)
            ))?;
        }
        if cr_before_a_command(line) {
            self.say(format_args!(
                "warning: {}: a CR byte is followed by a command word: the file seems to end its \
                 lines with CR alone, so the tutor reads them as one line (use LF or CR LF line \
                 ends)",
                self.source.at(1)
            ))?;
        }
        Ok(line)
    }

    /// A blank line, a comment, or a `# filter:` line.
    #[cold]
    #[inline(never)]
    fn not_a_command(&mut self, line_no: u64, line: &[u8]) -> Result<Flow, ScriptError> {
        let result = match directive::parse(line) {
            None => return Ok(Flow::Continue),
            Some(result) if self.session.is_untouched() => result,
            Some(Ok(_)) => return self.bad(line_no, Bad::Misplaced),
            Some(Err(e)) => return self.bad(line_no, Bad::Directive(e)),
        };
        self.directives += 1;
        let spec = if self.directives > 1 {
            Err(DirectiveError::Second)
        } else {
            result
        };
        let spec = match (spec, self.shape.counters) {
            (Ok(spec), Some(bits)) => spec.with_counters(Some(bits)).map_err(DirectiveError::Spec),
            (spec, _) => spec,
        };
        match spec {
            Ok(spec) if self.shape.fixed => {
                let chosen = self.session.spec();
                if spec != chosen {
                    self.say(format_args!(
                        "note: {}: `# filter:` ignored, the command line chose {chosen}",
                        self.source.at(line_no),
                    ))?;
                }
            }
            Ok(spec) => {
                if let Err(error) = self.session.try_reshape(spec) {
                    return Err(ScriptError::Memory {
                        at: self.source.at(line_no),
                        error,
                    });
                }
            }
            Err(error) => {
                return Err(ScriptError::Directive {
                    at: self.source.at(line_no),
                    error,
                });
            }
        }
        Ok(Flow::Continue)
    }

    /// Counts a bad line and says what was wrong with it.
    #[cold]
    #[inline(never)]
    fn bad(&mut self, line_no: u64, why: Bad<'_>) -> Result<Flow, ScriptError> {
        self.end.bad_lines += 1;
        self.say(format_args!("error: {}: {why}", self.source.at(line_no)))?;
        Ok(Flow::Continue)
    }

    /// Writes a message to stderr after the answers so far, so it appears where it belongs.
    /// A failure to write it (stderr closed or full) must not stop the answers.
    fn say(&mut self, text: fmt::Arguments<'_>) -> Result<(), ScriptError> {
        self.out.flush().map_err(ScriptError::Write)?;
        let _ = writeln!(self.err, "{text}");
        Ok(())
    }
}

/// The buffer piped answers go through: like `BufWriter`, but every write to it is inlined,
/// so the answers to ADD-and-CHECK scripts cost a few moves each. (`BufWriter::write_all` is
/// inlined or not as the compiler sees fit, and when it was not, a 2,000,000-line script
/// took about 2% longer.)
#[derive(Debug)]
pub(crate) struct AnswerBuffer<W: Write> {
    buf: Box<[u8]>,
    /// How many bytes of `buf` are waiting to be written.
    used: usize,
    inner: W,
}

impl<W: Write> AnswerBuffer<W> {
    /// A buffer of `capacity` bytes in front of `inner`.
    pub(crate) fn new(capacity: usize, inner: W) -> AnswerBuffer<W> {
        AnswerBuffer {
            buf: vec![0; capacity].into_boxed_slice(),
            used: 0,
            inner,
        }
    }

    #[cold]
    #[inline(never)]
    fn write_slow(&mut self, data: &[u8]) -> io::Result<()> {
        self.write_buffered()?;
        if data.len() >= self.buf.len() {
            return self.inner.write_all(data);
        }
        self.buf[..data.len()].copy_from_slice(data);
        self.used = data.len();
        Ok(())
    }

    /// Hands what is buffered to the inner writer. On an error the buffered bytes are
    /// dropped: the run stops there.
    fn write_buffered(&mut self) -> io::Result<()> {
        let used = std::mem::take(&mut self.used);
        self.inner.write_all(&self.buf[..used])
    }
}

impl<W: Write> Write for AnswerBuffer<W> {
    #[inline(always)]
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    #[inline(always)]
    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        match self.buf.get_mut(self.used..self.used + data.len()) {
            Some(room) => {
                room.copy_from_slice(data);
                self.used += data.len();
                Ok(())
            }
            None => self.write_slow(data),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_buffered()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for AnswerBuffer<W> {
    /// Writes what is left, as `BufWriter` does; an error here has nowhere to go.
    fn drop(&mut self) {
        let _ = self.write_buffered();
    }
}

impl From<reader::ReadError> for ScriptError {
    fn from(e: reader::ReadError) -> ScriptError {
        ScriptError::Read(e.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that keeps what it was given and how many writes it took.
    #[derive(Default)]
    struct Sink {
        bytes: Vec<u8>,
        writes: usize,
    }

    impl Write for &mut Sink {
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            self.bytes.extend_from_slice(data);
            self.writes += 1;
            Ok(data.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_answer_buffer_passes_every_byte_on_in_order() {
        let mut sink = Sink::default();
        {
            let mut out = AnswerBuffer::new(8, &mut sink);
            out.write_all(b"MAYBE\n").unwrap();
            out.write_all(b"NO\n").unwrap();
            out.write_all(b"0123456789abcdef\n").unwrap();
            out.write_all(b"NO\n").unwrap();
            out.flush().unwrap();
            out.write_all(b"end").unwrap();
        }
        assert_eq!(sink.bytes, b"MAYBE\nNO\n0123456789abcdef\nNO\nend");
        assert!(sink.writes <= 5, "{} writes for five chunks", sink.writes);
    }
}
