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

use crate::cli::LessonArgs;
use crate::render::terminal::{self, Style};
use crate::script::command::{Command, Verb};
use crate::script::session::TracedSession;
use content::{Lesson, Question, Step};
use progress::Progress;

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
            Input::Piped(stdin) => {
                let mut buf = Vec::new();
                if stdin.read_until(b'\n', &mut buf)? == 0 {
                    return Ok(None);
                }
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                // A transcript of a piped run shows what was answered.
                writeln!(out, "> {line}")?;
                Ok(Some(line))
            }
        }
    }

    fn is_terminal(&self) -> bool {
        matches!(self, Input::Terminal(_))
    }
}

/// How a question ended.
enum Outcome {
    Answered { first_try: bool },
    Skipped,
    Back,
    Quit,
    EndOfInput,
}

/// Runs the lesson command as `args` asks.
pub fn run(args: &LessonArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let name = args.name.as_deref().unwrap_or("basics");
    if args.list {
        for lesson in content::all() {
            let place = match progress_path(args, lesson.name).map(|p| Progress::load(&p)) {
                Some(Ok(p)) if p.done => "finished".to_string(),
                Some(Ok(p)) if p.step > 0 => {
                    format!("at step {} of {}", p.step + 1, lesson.steps.len())
                }
                _ => "not started".to_string(),
            };
            writeln!(out, "{:<14} {} ({place})", lesson.name, lesson.title)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let lesson = content::find(name).with_context(|| {
        format!("no lesson called `{name}`; `bloom-tutor lesson --list` lists them")
    })?;
    let path = progress_path(args, lesson.name);
    let mut progress = match (&path, args.restart) {
        (Some(p), false) => Progress::load(p)?,
        _ => Progress::default(),
    };
    if progress.done {
        writeln!(out, "You have finished `{}`.", lesson.name)?;
        summary(out, &lesson, &progress)?;
        writeln!(
            out,
            "Run `bloom-tutor lesson {} --restart` to go through it again.",
            lesson.name
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    progress.step = progress.step.min(lesson.steps.len());

    let mut input = if io::stdin().is_terminal() && io::stdout().is_terminal() {
        Input::Terminal(Box::new(DefaultEditor::new()?))
    } else {
        Input::Piped(io::stdin().lock())
    };
    writeln!(out, "Lesson `{}`: {}", lesson.name, lesson.title)?;
    writeln!(
        out,
        "Answer each question. At any question you can type hint, skip, back or quit, or try\n\
         ADD, CHECK, BITS, EXPLAIN and STATS on a copy of the lesson's filter."
    )?;
    if progress.step > 0 {
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
            show_command(&mut session, cmd, out)?;
        }
        let outcome = match &step.question {
            Some(q) => ask(q, &session, &mut input, out)?,
            None => Outcome::Answered { first_try: true },
        };
        match outcome {
            Outcome::Answered { first_try } => {
                if let Some(q) = &step.question {
                    progress.record(q.id, first_try);
                    writeln!(out, "{}", if first_try { "Right!" } else { "Right." })?;
                    finish(q, &mut session, out)?;
                }
                i += 1;
            }
            Outcome::Skipped => {
                if let Some(q) = &step.question {
                    progress.record(q.id, false);
                    writeln!(out, "The answer: {}.", q.expect.show())?;
                    finish(q, &mut session, out)?;
                }
                i += 1;
            }
            Outcome::Back => i = i.saturating_sub(1),
            Outcome::Quit | Outcome::EndOfInput => {
                progress.step = i;
                save(&path, &progress, out)?;
                writeln!(
                    out,
                    "\nProgress saved at step {} of {}. Run `bloom-tutor lesson {}` to go on.",
                    i + 1,
                    lesson.steps.len(),
                    lesson.name
                )?;
                return Ok(ExitCode::SUCCESS);
            }
        }
        progress.step = i;
        save(&path, &progress, out)?;
    }
    progress.done = true;
    save(&path, &progress, out)?;
    writeln!(out, "\nThat is the end of `{}`.", lesson.name)?;
    summary(out, &lesson, &progress)?;
    if let Some(next) = content::next_after(lesson.name) {
        writeln!(
            out,
            "Next: `bloom-tutor lesson {}` ({}).",
            next.name, next.title
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn progress_path(args: &LessonArgs, lesson: &str) -> Option<PathBuf> {
    match &args.progress_file {
        Some(p) => Some(p.clone()),
        None => progress::default_path(lesson),
    }
}

fn save(path: &Option<PathBuf>, progress: &Progress, out: &mut impl Write) -> anyhow::Result<()> {
    if let Some(p) = path
        && let Err(e) = progress.save(p)
    {
        writeln!(out, "(progress not saved: {e:#})")?;
    }
    Ok(())
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

/// Runs `line` on `session` as the REPL shows it. A lesson runs only the commands that
/// look at or fill its filter; the rest mean something else here (QUIT and HELP are the
/// lesson's own words, CLEAR would undo the steps before).
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
        | Command::Remove(_) => match session.execute(&cmd) {
            Ok(outcome) => terminal::show(&outcome, Style { on: false }, out)?,
            Err(e) => writeln!(out, "error: {e}")?,
        },
        Command::Clear | Command::Help(_) | Command::Quit => {}
    }
    Ok(())
}

fn finish(q: &Question, session: &mut TracedSession, out: &mut impl Write) -> anyhow::Result<()> {
    for cmd in &q.reveal {
        show_command(session, cmd, out)?;
    }
    for line in &q.after {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Asks `q` until it is answered, skipped, or the learner leaves.
fn ask(
    q: &Question,
    state: &TracedSession,
    input: &mut Input,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    writeln!(out, "\n? {}", q.ask)?;
    let (mut wrong, mut hints_shown) = (0usize, 0usize);
    // Experiments run on a copy, so the lesson's own filter stays as the steps expect.
    let mut sandbox: Option<TracedSession> = None;
    loop {
        if input.is_terminal() {
            out.flush()?;
        }
        let Some(line) = input.read(out)? else {
            return Ok(Outcome::EndOfInput);
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
            "skip" => return Ok(Outcome::Skipped),
            "back" => return Ok(Outcome::Back),
            "quit" | "exit" => return Ok(Outcome::Quit),
            "help" => {
                writeln!(
                    out,
                    "Type your answer, or: hint (a hint), skip (see the answer), back (the step before),\n\
                     quit (stop here; the lesson resumes next time). ADD, CHECK, BITS, EXPLAIN and STATS\n\
                     work on a copy of the lesson's filter."
                )?;
                continue;
            }
            _ => {}
        }
        let first_word = typed.split(' ').next().unwrap_or("");
        if Verb::from_word(first_word.as_bytes()).is_some() {
            let session = sandbox.get_or_insert_with(|| state.clone());
            run_on(session, typed, out)?;
            continue;
        }
        if q.expect.accepts(typed) {
            return Ok(Outcome::Answered {
                first_try: wrong == 0 && hints_shown == 0,
            });
        }
        wrong += 1;
        match q.slips.iter().find(|(slip, _)| slip.accepts(typed)) {
            Some((_, why)) => writeln!(out, "Not quite. {why}")?,
            None if wrong >= 3 => writeln!(
                out,
                "Not quite. Type hint for help, or skip to see the answer."
            )?,
            None => writeln!(out, "Not quite. Try again, or type hint.")?,
        }
    }
}

fn summary(out: &mut impl Write, lesson: &Lesson, progress: &Progress) -> io::Result<()> {
    let questions: Vec<&Question> = lesson
        .steps
        .iter()
        .filter_map(|s: &Step| s.question.as_ref())
        .collect();
    let right = questions
        .iter()
        .filter(|q| progress.first_try.iter().any(|id| id == q.id))
        .count();
    writeln!(
        out,
        "You answered {right} of {} questions right at the first try.",
        questions.len()
    )?;
    let missed: Vec<&str> = questions
        .iter()
        .filter(|q| !progress.first_try.iter().any(|id| id == q.id))
        .map(|q| q.ask.as_str())
        .collect();
    if !missed.is_empty() {
        writeln!(out, "Worth another look:")?;
        for ask in missed {
            writeln!(out, "  - {ask}")?;
        }
    }
    Ok(())
}
