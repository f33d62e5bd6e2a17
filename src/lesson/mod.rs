//! `bloom-tutor lesson`: a guided lesson that asks the learner to predict, then shows the
//! answer on a real filter. Lessons are data (`content.rs`); this file is the plumbing.

pub mod answer;
pub mod content;
pub mod progress;

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

use crate::atomic;
use crate::cli::LessonArgs;
use crate::engine::scheme::Scheme;
use crate::escape;
use crate::invoked;
use crate::render::commentary::show_key;
use crate::render::help::filter_name;
use crate::render::terminal::{self, Style};
use crate::render::wrap::{Width, Wrapped};
use crate::script::command::{Command, Verb};
use crate::script::session::TracedSession;
use content::{Lesson, Question, Step};
use progress::{LoadError, Progress};

/// Where answers come from: a terminal with line editing, or piped lines.
enum Input {
    Terminal(Box<DefaultEditor>),
    Piped(io::StdinLock<'static>),
}

impl Input {
    /// The next line, or `None` when input ends (or Ctrl-D).
    fn read(&mut self, out: &mut impl Write) -> anyhow::Result<Option<String>> {
        match self {
            Input::Terminal(editor) => match editor.readline("answer> ") {
                Ok(line) => Ok(Some(line)),
                Err(ReadlineError::Interrupted) => Ok(Some(String::new())),
                Err(ReadlineError::Eof) => Ok(None),
                Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(
                        out,
                        "That line was not valid UTF-8 text; please type it again."
                    )?;
                    Ok(Some(String::new()))
                }
                Err(e) => Err(e.into()),
            },
            Input::Piped(stdin) => match read_answer_line(stdin)? {
                Line::End => Ok(None),
                Line::Text(mut bytes) => {
                    while bytes.last().is_some_and(|b| matches!(b, b'\n' | b'\r')) {
                        bytes.pop();
                    }
                    // A transcript of a piped run shows what was answered.
                    writeln!(out, "> {}", escape::escaped(&bytes))?;
                    match String::from_utf8(bytes) {
                        Ok(line) => Ok(Some(line)),
                        // Not turned into U+FFFD: a key's bytes would change, and with them
                        // its positions. The terminal path refuses such a line too.
                        Err(_) => {
                            writeln!(
                                out,
                                "That line was not valid UTF-8 text; a lesson takes text. To use \
                                 raw bytes as keys, pipe a script to the tutor instead."
                            )?;
                            Ok(Some(String::new()))
                        }
                    }
                }
                Line::TooLong { prefix, len } => {
                    writeln!(out, "> {}...", escape::escaped(&prefix))?;
                    writeln!(
                        out,
                        "That answer was {len} bytes long; answers are at most \
                         {MAX_ANSWER_BYTES} bytes, so it was skipped."
                    )?;
                    Ok(Some(String::new()))
                }
                Line::Endless => {
                    writeln!(
                        out,
                        "An answer went on for more than {ENDLESS_ANSWER_BYTES} bytes without \
                         a line end; that is not typed answers, so the lesson stops here."
                    )?;
                    Ok(None)
                }
            },
        }
    }

    fn is_terminal(&self) -> bool {
        matches!(self, Input::Terminal(_))
    }
}

/// The longest answer line read, in bytes without its line end; longer lines are skipped.
const MAX_ANSWER_BYTES: usize = 4096;

/// A line longer than this, in bytes, ends the lesson's input: it is not a person's answers
/// (`bloom-tutor lesson < /dev/zero` would otherwise read on forever).
const ENDLESS_ANSWER_BYTES: u64 = 1 << 20;

/// One piped answer line, read with bounded memory.
#[derive(Debug, PartialEq)]
enum Line {
    /// The line, its line end included when it had one.
    Text(Vec<u8>),
    /// A line longer than [`MAX_ANSWER_BYTES`], read to its end and dropped; `len` counts
    /// its bytes without the line end, `prefix` is its start, for the transcript.
    TooLong { prefix: Vec<u8>, len: u64 },
    /// A line that went past [`ENDLESS_ANSWER_BYTES`].
    Endless,
    /// Input ended.
    End,
}

/// Reads one line from `reader` keeping at most [`MAX_ANSWER_BYTES`] of it: `read_until`
/// would grow its buffer to the whole line, however long.
fn read_answer_line(reader: &mut impl BufRead) -> io::Result<Line> {
    let mut kept = Vec::new();
    let mut len: u64 = 0;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if len == 0 && kept.is_empty() {
                return Ok(Line::End);
            }
            break;
        }
        let (part, ended) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let used = part.len();
        let body = if ended { &part[..used - 1] } else { part };
        len = len.saturating_add(body.len() as u64);
        let room = (MAX_ANSWER_BYTES + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&part[..used.min(room)]);
        reader.consume(used);
        if ended {
            break;
        }
        if len > ENDLESS_ANSWER_BYTES {
            return Ok(Line::Endless);
        }
    }
    if len > MAX_ANSWER_BYTES as u64 {
        kept.truncate(escape::PREFIX_BYTES);
        return Ok(Line::TooLong { prefix: kept, len });
    }
    Ok(Line::Text(kept))
}

/// How a question ended.
enum Outcome {
    /// Answered right: at the first try (no wrong answer, no hint), and what was typed.
    Answered {
        first_try: bool,
        typed: String,
    },
    Skipped,
    Back,
    Quit,
    EndOfInput,
}

/// Runs the lesson command as `args` asks.
pub fn run(args: &LessonArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    if args.list {
        // A table: its rows stay whole.
        list(args, out)?;
        return Ok(ExitCode::SUCCESS);
    }
    // Prose wraps at the terminal's width, or at a fixed width when piped.
    let mut out = Wrapped::new(out, Width::for_stdout());
    let code = run_wrapped(args, &mut out)?;
    out.flush()?;
    Ok(code)
}

fn run_wrapped(args: &LessonArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let name = args.name.as_deref().unwrap_or("basics");
    let lesson = content::find(name).with_context(|| {
        format!(
            "no lesson called `{}`; `{} lesson --list` lists them",
            escape::escape_prefix(name.as_bytes()),
            invoked::tutor()
        )
    })?;
    let path = progress_path(args, lesson.name);
    let progress = match (&path, args.restart) {
        (Some(p), false) => Progress::load(p, &lesson)
            .with_context(|| format!("could not use lesson progress in `{}`", escape::path(p)))?,
        (Some(p), true) => {
            // Starting over replaces the file, but never a FIFO or a device: refuse now
            // rather than say "not saved" at every step.
            atomic::check_replaceable(p).with_context(|| {
                format!("could not use lesson progress in `{}`", escape::path(p))
            })?;
            Progress::check_restartable(p).with_context(|| {
                format!("could not use lesson progress in `{}`", escape::path(p))
            })?;
            None
        }
        (None, _) => None,
    };
    // The file as it is now is this run's to replace; with --restart that is the progress
    // being started over, not another run's.
    let on_file = match (&path, args.restart) {
        (Some(p), true) => Progress::load(p, &lesson).ok().flatten(),
        _ => progress.clone(),
    };
    let mut saver = Saver::new(path, on_file);
    let mut progress = progress.unwrap_or_else(|| Progress::new(lesson.name));
    if progress.done {
        writeln!(out, "You have finished `{}`.", lesson.name)?;
        summary(out, args, &lesson, &progress)?;
        writeln!(
            out,
            "Run `{}` to go through it again.",
            lesson_command(args, lesson.name, " --restart")
        )?;
        return Ok(ExitCode::SUCCESS);
    }

    let mut input = if io::stdin().is_terminal() && io::stdout().is_terminal() {
        Input::Terminal(Box::new(DefaultEditor::new()?))
    } else {
        Input::Piped(io::stdin().lock())
    };
    writeln!(out, "Lesson `{}`: {}", lesson.name, lesson.title)?;
    writeln!(
        out,
        "Answer each question. At any question you can type hint, skip, back or quit, or try \
         {} on a copy of the lesson's filter.",
        sandbox_commands(lesson.spec)
    )?;
    // A run stopped right after its last step was saved (step == the number of steps) has
    // nothing left but its ending.
    if progress.step > 0 && progress.step < lesson.steps.len() {
        writeln!(
            out,
            "Welcome back: going on from step {} of {}.",
            progress.step + 1,
            lesson.steps.len()
        )?;
    }

    let mut i = progress.step;
    while i < lesson.steps.len() {
        let step = &lesson.steps[i];
        let mut session = state_before(&lesson, i);
        writeln!(out, "\n--- step {} of {} ---", i + 1, lesson.steps.len())?;
        for line in &step.say {
            writeln!(out, "{line}")?;
        }
        for cmd in &step.setup {
            if step.quiet {
                run_on(&mut session, cmd, &mut io::sink())?;
            } else {
                show_command(&mut session, cmd, out)?;
            }
        }
        let outcome = match &step.question {
            Some(q) => {
                let (outcome, missed) = ask(q, &session, &mut input, out)?;
                if missed {
                    progress.miss(q.id);
                }
                outcome
            }
            None => Outcome::Answered {
                first_try: true,
                typed: String::new(),
            },
        };
        match outcome {
            Outcome::Answered { first_try, typed } => {
                if let Some(q) = &step.question {
                    // A question answered before (the learner went back), or answered wrong
                    // before the learner went back or left, is not a first try now.
                    let again = progress.answered.iter().any(|a| a == q.id)
                        || progress.missed.iter().any(|m| m == q.id);
                    progress.record(q.id, first_try);
                    let right = if first_try && !again {
                        "Right!"
                    } else {
                        "Right."
                    };
                    match q.expect.exact_note(&typed) {
                        Some(note) => writeln!(out, "{right} {note}")?,
                        None => writeln!(out, "{right}")?,
                    }
                    finish(q, &typed, &mut session, out)?;
                }
                i += 1;
            }
            Outcome::Skipped => {
                if let Some(q) = &step.question {
                    progress.skip(q.id);
                    let answer = q.expect.show();
                    writeln!(out, "The answer: {answer}.")?;
                    finish(q, &answer, &mut session, out)?;
                }
                i += 1;
            }
            Outcome::Back => i = i.saturating_sub(1),
            Outcome::Quit | Outcome::EndOfInput => {
                progress.step = i;
                if saver.save(&lesson, &progress, out)? {
                    writeln!(
                        out,
                        "\nProgress saved at step {} of {}. Run `{}` to go on.",
                        i + 1,
                        lesson.steps.len(),
                        lesson_command(args, lesson.name, "")
                    )?;
                } else {
                    writeln!(
                        out,
                        "\nProgress not saved: you were at step {} of {}.",
                        i + 1,
                        lesson.steps.len()
                    )?;
                }
                return Ok(saver.status());
            }
        }
        progress.step = i;
        saver.save(&lesson, &progress, out)?;
    }
    progress.done = true;
    saver.save(&lesson, &progress, out)?;
    writeln!(out, "\nThat is the end of `{}`.", lesson.name)?;
    summary(out, args, &lesson, &progress)?;
    if let Some(scheme) = lesson.exercise {
        let flag = match scheme {
            Scheme::ByteSum => String::new(),
            Scheme::Djb2Fnv | Scheme::Murmur3 => format!(" --scheme {scheme}"),
        };
        writeln!(
            out,
            "Now write {} as a program of your own: `{} exercise{flag}` says what to write, \
             with a worked example, starter programs in Python, C and Rust, and the command \
             that grades your program.",
            filter_name(scheme),
            invoked::tutor()
        )?;
    }
    if let Some(next) = content::next_after(lesson.name) {
        writeln!(
            out,
            "Next: `{}` ({}).",
            lesson_command(args, next.name, ""),
            next.title
        )?;
    }
    Ok(saver.status())
}

/// The command that runs lesson `name` from the learner's shell, with `extra` flags and the
/// progress file the learner chose. Each lesson keeps its own file, so another lesson than
/// the one running gets a file of its own name beside the chosen one.
fn lesson_command(args: &LessonArgs, name: &str, extra: &str) -> String {
    let mut cmd = format!("{} lesson {name}{extra}", invoked::tutor());
    if let Some(chosen) = &args.progress_file {
        let running = args.name.as_deref().unwrap_or("basics");
        let file = if name == running {
            chosen.clone()
        } else {
            let own = chosen.with_file_name(format!("{name}.json"));
            if own == *chosen {
                chosen.with_file_name(format!("{name}-progress.json"))
            } else {
                own
            }
        };
        cmd += &format!(" --progress-file {}", invoked::shell_path_from_here(&file));
    }
    cmd
}

/// `lesson --list`: each lesson, its title and how far the learner is in it.
fn list(args: &LessonArgs, out: &mut impl Write) -> anyhow::Result<()> {
    // Each title hangs under its column when it wraps.
    let mut out = Wrapped::new(out, Width::for_stdout());
    for lesson in content::all() {
        let loaded = progress_path(args, lesson.name).map(|p| Progress::load(&p, &lesson));
        let place = match loaded {
            Some(Ok(Some(p))) if p.done && !p.skipped.is_empty() => {
                format!("finished, {} skipped", p.skipped.len())
            }
            Some(Ok(Some(p))) if p.done || p.step > 0 => progress_place(&p, &lesson),
            // A shared --progress-file holds another lesson: this one has not begun there.
            Some(Ok(_)) | Some(Err(LoadError::OtherLesson { .. })) | None => {
                "not started".to_string()
            }
            Some(Err(e)) => format!("progress not read: {e}"),
        };
        writeln!(out, "{:<14}  {} ({place})", lesson.name, lesson.title)?;
    }
    Ok(())
}

fn progress_path(args: &LessonArgs, lesson: &str) -> Option<PathBuf> {
    match &args.progress_file {
        Some(p) => Some(p.clone()),
        None => progress::default_path(lesson),
    }
}

/// Saves progress after each step, and tells the learner once when it could not.
struct Saver {
    path: Option<PathBuf>,
    /// What this run last read from or wrote to the file: anything else found there was
    /// written by another run of the lesson.
    seen: Option<Progress>,
    warned: bool,
    /// The last save failed: the run ends with status 1.
    failed: bool,
}

impl Saver {
    fn new(path: Option<PathBuf>, seen: Option<Progress>) -> Saver {
        Saver {
            path,
            seen,
            warned: false,
            failed: false,
        }
    }

    /// Whether `progress` is now in its file, whole (a failed save leaves the old file).
    /// Progress another run of the lesson saved further along is kept, not overwritten.
    fn save(
        &mut self,
        lesson: &Lesson,
        progress: &Progress,
        out: &mut impl Write,
    ) -> io::Result<bool> {
        let result = match &self.path {
            Some(p) => match Progress::load(p, lesson).ok().flatten() {
                Some(theirs) if Some(&theirs) != self.seen.as_ref() && ahead(&theirs, progress) => {
                    // Not a failure: the learner's furthest progress is in the file.
                    writeln!(
                        out,
                        "(progress not saved: another run of this lesson saved it further \
                         along, {}, and that is kept)",
                        progress_place(&theirs, lesson)
                    )?;
                    return Ok(false);
                }
                _ => progress.save(p),
            },
            None => Err(anyhow::anyhow!(
                "no state folder on this system; give one with --progress-file"
            )),
        };
        self.failed = result.is_err();
        match result {
            Ok(()) => {
                self.seen = Some(progress.clone());
                Ok(true)
            }
            Err(e) => {
                if !self.warned {
                    writeln!(out, "(progress not saved: {e:#})")?;
                    self.warned = true;
                }
                Ok(false)
            }
        }
    }

    /// How the run ends: status 1 when its progress could not be kept.
    fn status(&self) -> ExitCode {
        if self.failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Whether `theirs` is further along the lesson than `ours`.
fn ahead(theirs: &Progress, ours: &Progress) -> bool {
    (theirs.done && !ours.done) || (theirs.done == ours.done && theirs.step > ours.step)
}

/// Where a learner is in a lesson, in words: `at step 6 of 13`, or `finished`.
fn progress_place(progress: &Progress, lesson: &Lesson) -> String {
    if progress.done {
        "finished".to_string()
    } else {
        format!("at step {} of {}", progress.step + 1, lesson.steps.len())
    }
}

/// The lesson's filter as it stands when step `i` begins: every earlier step's setup run.
fn state_before(lesson: &Lesson, i: usize) -> TracedSession {
    let mut session = TracedSession::new(lesson.spec);
    let mut sink = io::sink();
    for line in lesson.steps[..i].iter().flat_map(|step| &step.setup) {
        // The lesson's own commands are ADDs: nothing to show, and nothing can fail.
        let _ = run_on(&mut session, line, &mut sink);
    }
    session
}

/// Runs one command on `session` and shows it as the REPL would, prompt included.
fn show_command(
    session: &mut TracedSession,
    line: &str,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    writeln!(out, "bloom> {line}")?;
    run_on(session, line, out)
}

/// The commands a learner can try on a copy of a lesson's filter, in words: REMOVE and
/// COUNTS too when it is a counting filter (the same list `run_on` runs).
fn sandbox_commands(spec: crate::engine::scheme::FilterSpec) -> &'static str {
    match spec.counter_bits() {
        Some(_) => "ADD, CHECK, REMOVE, COUNTS, BITS, EXPLAIN and STATS",
        None => "ADD, CHECK, BITS, EXPLAIN and STATS",
    }
}

/// Runs `line` on `session` as the REPL shows it. A lesson runs only the commands that
/// look at or change its filter in memory, and HELP on a command; the rest mean something
/// else here (QUIT and a bare HELP are the lesson's own words, CLEAR would undo the steps
/// before), and files are not the sandbox's to touch.
fn run_on(session: &mut TracedSession, line: &str, out: &mut impl Write) -> anyhow::Result<()> {
    let cmd = match Command::parse(line.as_bytes()) {
        Ok(Some(cmd)) => cmd,
        Ok(None) => return Ok(()),
        Err(e) => {
            writeln!(out, "error: {e}")?;
            return Ok(());
        }
    };
    match cmd {
        Command::Add(_)
        | Command::Check(_)
        | Command::Bits
        | Command::Explain(_)
        | Command::Stats
        | Command::Remove(_)
        | Command::Counts
        | Command::Help(_) => match session.execute(&cmd) {
            Ok(outcome) => {
                // A terminal gets rulers over BITS; a piped lesson keeps one plain line.
                let style = Style {
                    on: false,
                    ruler: io::stdout().is_terminal().then(textwrap::termwidth),
                };
                terminal::show(&outcome, style, out)?
            }
            Err(e) => writeln!(out, "error: {e}")?,
        },
        Command::Save(_) | Command::Load(_) | Command::Union(_) | Command::Intersect(_) => {
            writeln!(
                out,
                "{} does not run in a lesson: a lesson's filter lives only in memory",
                cmd.verb().word()
            )?;
        }
        Command::Clear => writeln!(
            out,
            "CLEAR does not run in a lesson: it would undo the steps so far. Try it at the \
             tutor's own prompt: run `{}` with no arguments.",
            invoked::tutor()
        )?,
        // `quit` at a question is the lesson's own word and never reaches here.
        Command::Quit => {}
    }
    Ok(())
}

/// Shows what follows an answer: the reveal commands (`{answer}` in one stands for the
/// answer given, or shown), then the text to take away.
fn finish(
    q: &Question,
    answer: &str,
    session: &mut TracedSession,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    for cmd in &q.reveal {
        show_command(session, &cmd.replace("{answer}", answer), out)?;
    }
    for line in &q.after {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Asks `q` until it is answered, skipped, or the learner leaves; with the outcome, whether
/// the learner gave a wrong answer or took a hint first (`Answered` says that itself).
fn ask(
    q: &Question,
    state: &TracedSession,
    input: &mut Input,
    out: &mut impl Write,
) -> anyhow::Result<(Outcome, bool)> {
    writeln!(out, "\n? {}", q.ask)?;
    let (mut wrong, mut hints_shown) = (0usize, 0usize);
    // Experiments run on a copy, so the lesson's own filter stays as the steps expect.
    let mut sandbox: Option<TracedSession> = None;
    loop {
        if input.is_terminal() {
            out.flush()?;
        }
        let Some(line) = input.read(out)? else {
            return Ok((Outcome::EndOfInput, wrong + hints_shown > 0));
        };
        let typed = line.trim();
        match typed.to_ascii_lowercase().as_str() {
            "" => continue,
            "hint" => {
                match q.hints.get(hints_shown) {
                    Some(h) => writeln!(out, "Hint: {h}")?,
                    None => writeln!(out, "No more hints. Type skip to see the answer.")?,
                }
                hints_shown += 1;
                continue;
            }
            "skip" => return Ok((Outcome::Skipped, wrong + hints_shown > 0)),
            "back" => return Ok((Outcome::Back, wrong + hints_shown > 0)),
            "quit" | "exit" => return Ok((Outcome::Quit, wrong + hints_shown > 0)),
            "help" => {
                writeln!(
                    out,
                    "Type your answer, or: hint (a hint), skip (see the answer), back (the step \
                     before), quit (stop here; the lesson resumes next time). {} work on a copy \
                     of the lesson's filter.",
                    sandbox_commands(state.spec())
                )?;
                continue;
            }
            _ => {}
        }
        let first_word = typed.split(' ').next().unwrap_or("");
        if Verb::from_word(first_word.as_bytes()).is_some() {
            if let Ok(Some(cmd)) = Command::parse(typed.as_bytes())
                && q.withheld.holds(&cmd)
            {
                let shown = match cmd.key() {
                    Some(key) => format!("{} {}", cmd.verb().word(), show_key(key)),
                    None => cmd.verb().word().to_string(),
                };
                writeln!(
                    out,
                    "Not yet: {shown} would give this question's answer away. Work it out \
                     first (type hint for help, or skip to see the answer); after that, try it."
                )?;
                continue;
            }
            let session = sandbox.get_or_insert_with(|| state.clone());
            run_on(session, typed, out)?;
            continue;
        }
        // A yes or no right after a hint that asks something answers the hint, not the
        // question: say so, and count nothing.
        let last_hint = hints_shown.checked_sub(1).and_then(|i| q.hints.get(i));
        if ["yes", "no", "y", "n"].contains(&typed.to_ascii_lowercase().as_str())
            && !q.expect.accepts(typed)
            && last_hint.is_some_and(|h| h.trim_end().ends_with('?'))
        {
            writeln!(
                out,
                "That answers the hint's question. Now the step's question: {}",
                q.ask
            )?;
            continue;
        }
        if q.expect.accepts(typed) {
            return Ok((
                Outcome::Answered {
                    first_try: wrong == 0 && hints_shown == 0,
                    typed: typed.to_string(),
                },
                false,
            ));
        }
        wrong += 1;
        if let Some(slip) = q.slips.iter().find(|s| s.expect.accepts(typed)) {
            writeln!(out, "Not quite. {}", slip.why)?;
            // The slip says what was right so far; the next hint is about what is left.
            if let Some(next) = slip.next_hint {
                hints_shown = hints_shown.max(next);
            }
        } else if let Some(feedback) = q.expect.feedback(typed) {
            writeln!(out, "{feedback}")?;
        } else if wrong >= 3 {
            writeln!(
                out,
                "Not quite. Type hint for help, or skip to see the answer."
            )?;
        } else {
            writeln!(out, "Not quite. Try again, or type hint.")?;
        }
    }
}

fn summary(
    out: &mut impl Write,
    args: &LessonArgs,
    lesson: &Lesson,
    progress: &Progress,
) -> io::Result<()> {
    let questions: Vec<&Question> = lesson
        .steps
        .iter()
        .filter_map(|s: &Step| s.question.as_ref())
        .collect();
    let holds = |list: &[String], q: &Question| list.iter().any(|id| id == q.id);
    let right = questions
        .iter()
        .filter(|q| holds(&progress.first_try, q))
        .count();
    writeln!(
        out,
        "You answered {right} of {} questions right at the first try.",
        questions.len()
    )?;
    let skipped = questions
        .iter()
        .filter(|q| holds(&progress.skipped, q))
        .count();
    if skipped > 0 {
        writeln!(
            out,
            "You skipped {skipped} of {} questions; `{}` asks them all again.",
            questions.len(),
            lesson_command(args, lesson.name, " --restart")
        )?;
    }
    let missed: Vec<&Question> = questions
        .iter()
        .copied()
        .filter(|q| !holds(&progress.first_try, q))
        .collect();
    if !missed.is_empty() {
        writeln!(out, "Worth another look:")?;
        for q in missed {
            let note = if holds(&progress.skipped, q) {
                " (skipped)"
            } else {
                ""
            };
            writeln!(out, "  - {}{note}", q.ask)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(input: &[u8], expected: &[Line]) {
        let mut reader = io::BufReader::with_capacity(64, input);
        let mut got = Vec::new();
        loop {
            let line = read_answer_line(&mut reader).unwrap();
            let end = line == Line::End || line == Line::Endless;
            got.push(line);
            if end {
                break;
            }
        }
        assert_eq!(got, expected, "lines read from {} bytes", input.len());
    }

    fn text(s: &str) -> Line {
        Line::Text(s.as_bytes().to_vec())
    }

    #[test]
    fn reads_lines_with_their_ends() {
        case(b"", &[Line::End]);
        case(b"NO\n54", &[text("NO\n"), text("54"), Line::End]);
        case(b"\n\r\n", &[text("\n"), text("\r\n"), Line::End]);
    }

    #[test]
    fn keeps_a_line_of_exactly_the_limit() {
        let line = "a".repeat(MAX_ANSWER_BYTES) + "\n";
        case(line.as_bytes(), &[text(&line), Line::End]);
    }

    #[test]
    fn skips_a_long_line_and_reads_on() {
        let input = "b".repeat(MAX_ANSWER_BYTES + 1) + "\nNO\n";
        let too_long = Line::TooLong {
            prefix: vec![b'b'; escape::PREFIX_BYTES],
            len: MAX_ANSWER_BYTES as u64 + 1,
        };
        case(input.as_bytes(), &[too_long, text("NO\n"), Line::End]);
    }

    #[test]
    fn stops_at_an_endless_line() {
        let input = vec![0u8; ENDLESS_ANSWER_BYTES as usize + 100];
        case(&input, &[Line::Endless]);
    }
}
